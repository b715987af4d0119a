"""Points you can touch: click on the figure to add a point of the chosen class, drag a point to
move it, click a point in "remove" mode to take it away; the model refits and the figure is
redrawn at each move (at screen resolution while dragging, sharp on release).

A drag follows the pointer: a mouse move only records where the point is and schedules one
frame on the kernel's event loop a moment later (`MERGE_WAIT_S`), so the moves that arrived
while the previous frame was being drawn (the kernel reads its messages one at a time) are
read first and only the newest position is drawn; the release draws the point where the mouse
was released and cancels any frame still pending. Without a running event loop (a script, a
test) each move is drawn at once.

Mouse events reach the kernel through `ipyevents` (the same in JupyterLab and Voila). Without
it the demo keeps its sliders and says how to turn the points on. One call per chapter:

    soft_margin_points_demo()      # 03: the linear soft-margin SVM, with C
    kernel_points_demo()           # 05: the kernel SVM, with the kernel, C, sigma, degree
    least_squares_points_demo()    # 01: least squares and the far point
"""

import asyncio

import ipywidgets as widgets
import numpy as np

from course_lib.i18n import _
from course_lib.linear import LeastSquaresClassifier
from course_lib.plotting.kernels import (
    ISLAND_SIGMA, curved_overlap_data, island_steps, plot_hollow_points, shade_islands,
)
from course_lib.plotting.linear import outlier_data
from course_lib.plotting.margins import draw_svm, soft_margin_data
from course_lib.plotting.style import BLACK, GREY, SHOWN_DPI, grid_limits, plot_line, plot_points
from course_lib.svm import SVM
from course_lib.widgets.core import Demo, log_slider
from course_lib.widgets.kernels import C_RANGE, C_SLIDER, KERNELS, SIGMA_SLIDER, kernel_controls
from course_lib.plotting.arguments import Between, OneOf, checked, count

try:
    from ipyevents import Event
except ImportError:  # the demo still runs, with its sliders only
    Event = None

GRAB_PX = 14  # a press within this many CSS pixels of a point grabs it
DRAG_PIXEL_RATIO = 1  # image pixels per CSS pixel while dragging (fast), 2 on release
MOVE_WAIT_MS = 50  # at most one mouse move every this many ms reaches the kernel
MERGE_WAIT_S = 0.01  # a move's frame waits this long, so that moves already queued merge into it


class PointsDemo(Demo):
    """A Demo on data the reader edits with the mouse.

    draw: function(ax, X, r, xlim, ylim, **values) drawing the model fitted on (X, r) in the
          fixed box xlim x ylim (fixed, so a point stays under the mouse while it is dragged).
    X, r: the starting points (n, 2) and their classes in {-1, +1}; `reset` brings them back.
    """

    def __init__(self, draw, controls, X, r, xlim, ylim, minimum_per_class=1, **demo_options):
        X, r = np.array(X, dtype=float), np.array(r)
        if X.ndim != 2 or X.shape[1] != 2 or len(X) != len(r):
            raise ValueError(_("X must be (n, 2) with one class per row; got X {shape_X} and r "
                               "{shape_r}").format(shape_X=X.shape, shape_r=r.shape))
        self.start = (X.copy(), r.copy())
        self.X, self.r = X.copy(), r.copy()
        self.xlim, self.ylim = tuple(xlim), tuple(ylim)
        self.minimum_per_class = minimum_per_class
        self._dragged = None
        self._pending = None  # the frame scheduled for the latest mouse move (asyncio handle)
        compact = {"button_width": "auto", "description_width": "initial"}
        self.point_class = widgets.ToggleButtons(
            options=[("+1 ●", 1), ("−1 ■", -1)], value=1, description=_("new point"),
            tooltips=[_("class +1 (blue circles)"), _("class −1 (vermillion squares)")], style=compact)
        self.mode = widgets.ToggleButtons(
            options=[(_("add or drag"), "add or drag"), (_("remove"), "remove")], value="add or drag", description=_("click to"),
            style=compact)
        self.reset_button = widgets.Button(description=_("reset the points"),
                                           layout=widgets.Layout(width="auto"))
        self.reset_button.on_click(lambda _: self.reset())
        self.note = widgets.HTML()
        self.note.add_class("course-points-note")
        super().__init__(lambda ax, **values: draw(ax, self.X, self.r, self.xlim, self.ylim, **values),
                         controls, **demo_options)
        self.controls_box.children += (self.point_class, self.mode, self.reset_button, self.note)
        self.add_class("course-points-demo")
        if Event is None:
            self.note.value = "<small>" + _("Install <code>ipyevents</code> to add, drag and remove "
                                             "points on the figure.") + "</small>"
            self.events = None
            return
        self.mode.observe(lambda _: self._show_mode(), names="value")
        self._show_mode()
        self.events = Event(source=self.image, watched_events=["mousedown", "mouseup", "mouseleave"],
                            prevent_default_action=True)
        self.moves = Event(source=self.image, watched_events=["mousemove"], wait=MOVE_WAIT_MS,
                           throttle_or_debounce="throttle", prevent_default_action=True)
        self.events.on_dom_event(self.handle)
        self.moves.on_dom_event(self.handle)

    def _show_mode(self):
        """The note says what a click does in the chosen mode; the class of a new point is
        disabled while a click removes."""
        removing = self.mode.value == "remove"
        self.point_class.disabled = removing
        self.note.value = "<small>" + (_("Click on a point to remove it.") if removing else
                                       _("Click on the figure to add a point, drag a point to move it.")) + "</small>"

    def frame_key(self):
        """The control values and the points: a frame shows both."""
        return (*super().frame_key(), self.X.tobytes(), self.r.tobytes())

    def reset(self):
        self.X, self.r = self.start[0].copy(), self.start[1].copy()
        self.update()

    # --- from the screen to the data ---------------------------------------------------------

    def to_data(self, event):
        """The data coordinates under the mouse, and the scale (figure pixels per CSS pixel)."""
        width, height = self.fig.bbox.width, self.fig.bbox.height  # figure pixels
        shown = float(event["boundingRectWidth"]) or 1.0  # CSS pixels; the height follows
        scale = width / shown
        display = (event["relativeX"] * scale, height - event["relativeY"] * scale)
        return self.ax.transData.inverted().transform(display), scale

    def nearest(self, event):
        """Index of the point within GRAB_PX of the mouse, or None."""
        point, scale = self.to_data(event)
        where = self.ax.transData.transform(self.X)
        mouse = self.ax.transData.transform(point)
        distances = np.hypot(*(where - mouse).T) / scale
        index = int(np.argmin(distances)) if len(distances) else None
        return index if index is not None and distances[index] <= GRAB_PX else None

    def _inside(self, point):
        return (self.xlim[0] <= point[0] <= self.xlim[1]) and (self.ylim[0] <= point[1] <= self.ylim[1])

    def _clamped(self, point):
        return np.array([np.clip(point[0], *self.xlim), np.clip(point[1], *self.ylim)])

    # --- editing -----------------------------------------------------------------------------

    def handle(self, event):
        """One mouse event: press to add, grab or remove; move to drag; release to drop."""
        kind = event.get("type")
        if kind == "mousedown":
            point, _ = self.to_data(event)
            index = self.nearest(event)
            if self.mode.value == "remove":
                if index is not None:
                    self.remove(index)
            elif index is not None:
                self._dragged = index
            elif self._inside(point):
                self.add(point, self.point_class.value)
        elif kind == "mousemove" and self._dragged is not None:
            point, _ = self.to_data(event)
            self.X[self._dragged] = self._clamped(point)
            self._schedule_move_frame()
        elif kind in ("mouseup", "mouseleave") and self._dragged is not None:
            point, _ = self.to_data(event)
            if kind == "mouseup":
                self.X[self._dragged] = self._clamped(point)
            self._dragged = None
            self._cancel_move_frame()
            self._redraw()

    def _schedule_move_frame(self):
        """Draw the dragged point's newest position soon (once, however many moves arrive
        meanwhile), or now when no event loop runs."""
        if self._pending is not None:
            return  # a frame is already scheduled: it will draw the newest position
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self._redraw(DRAG_PIXEL_RATIO)
            return
        self._pending = loop.call_later(MERGE_WAIT_S, self.flush_moves)

    def _cancel_move_frame(self):
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None

    def flush_moves(self):
        """Draw the frame of the latest mouse move now, if one is pending."""
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
            self._redraw(DRAG_PIXEL_RATIO)

    def add(self, point, label):
        """Add the point (x1, x2) of class `label` (+1 or -1) and redraw."""
        if label not in (-1, 1):
            raise ValueError(_("label must be +1 or -1, got {label!r}").format(label=label))
        self.X = np.vstack([self.X, np.asarray(point, dtype=float)[None, :2]])
        self.r = np.append(self.r, label)
        self._redraw()

    def move(self, index, point):
        """Move point `index` to (x1, x2) and redraw."""
        self.X[index] = self._clamped(np.asarray(point, dtype=float))
        self._redraw()

    def remove(self, index):
        """Remove point `index` and redraw, unless its class would drop below the minimum."""
        if np.sum(self.r == self.r[index]) <= self.minimum_per_class:
            self.note.value = "<small>" + _("Each class keeps at least {n} point(s): this one stays.").format(
                n=self.minimum_per_class) + "</small>"
            return
        self.X, self.r = np.delete(self.X, index, axis=0), np.delete(self.r, index)
        self._redraw()

    def _redraw(self, pixel_ratio=None):
        """Redraw, at `pixel_ratio` if given (fast while dragging); errors go to the status."""
        sharp = self.dpi
        if pixel_ratio is not None:
            self.dpi = SHOWN_DPI * pixel_ratio
        try:
            self.redraw()
        finally:
            self.dpi = sharp


# --- the chapters' demos ------------------------------------------------------------------------

def _box(X, pad=1.0):
    return grid_limits(X, pad)


def draw_soft_margin_points(ax, X, r, xlim, ylim, C):
    """The linear soft-margin SVM refitted on the edited points."""
    svm = SVM(C=C, kernel="linear").fit(X, r)
    draw_svm(ax, svm, X, r, xlim=xlim, ylim=ylim, legend=False)
    norm = float(np.sqrt(svm.w_ @ svm.w_))
    ax.set_title(_("C = {C:.3g}: {n} support vectors, margin 1/‖w‖ = {margin:.2f}").format(
        C=C, n=len(svm.support_), margin=1 / norm), fontsize=12)


@checked(C=C_SLIDER)
def soft_margin_points_demo(C=1.0):
    """Chapter 03 (K9): the C slider of the soft margin on points you add, drag and remove."""
    X, r = soft_margin_data()
    xlim, ylim = _box(X)
    controls = {"C": log_slider("C", C, *C_RANGE, step=0.1)}
    return PointsDemo(draw_soft_margin_points, controls, X, r, xlim, ylim, minimum_per_class=2,
                      width=6.5, height=5.5, clear="artists")


def draw_kernel_points(ax, X, r, xlim, ylim, kernel, C, sigma, degree, steps=70, max_steps=480):
    """The kernel SVM refitted on the edited points; below ISLAND_SIGMA (Gaussian kernel) its
    islands as draw_kernel_svm draws them: a grid of 2.5 points per sigma (up to `max_steps` a
    side), strong shading, small hollow markers, no rings."""
    svm = SVM(C=C, kernel=kernel, sigma=sigma, degree=degree).fit(X, r)
    if kernel == "gaussian" and sigma < ISLAND_SIGMA:
        shade_islands(ax, svm, xlim, ylim, island_steps(xlim, ylim, sigma, steps, max_steps))
        plot_hollow_points(ax, X, r)
        ax.set_xlim(xlim)
        ax.set_ylim(ylim)
    else:
        draw_svm(ax, svm, X, r, steps=steps, show_slacks=False, xlim=xlim, ylim=ylim, legend=False)
    error = np.mean(svm.predict(X) != r)
    detail = {"gaussian": f", σ = {sigma:.3g}", "polynomial": f", q = {degree}"}.get(kernel, "")
    ax.set_title(_("{kernel}{detail}, C = {C:.3g}: {support} SV, training error {error:.2f}").format(
        kernel=_(kernel), detail=detail, C=C, support=len(svm.support_), error=error), fontsize=12)


@checked(kernel=OneOf(KERNELS), C=C_SLIDER, sigma=SIGMA_SLIDER, degree=count(1, 3))
def kernel_points_demo(kernel="gaussian", C=1.0, sigma=1.0, degree=2):
    """Chapter 05 (K16): the kernel SVM on points you add, drag and remove, starting from 80 of
    the chapter's overlapping points (fewer than its 200, so each one you move shows)."""
    X, r = curved_overlap_data(n=80)
    xlim, ylim = _box(X)
    controls, applies = kernel_controls(kernel, C, sigma, degree)
    return PointsDemo(draw_kernel_points, controls, X, r, xlim, ylim, minimum_per_class=2,
                      applies=applies, width=6.5, height=5.5, clear="artists")


def draw_least_squares_points(ax, X, r, xlim, ylim, reference):
    """Least squares on the edited points, beside its fit on the starting points without the
    far point (`reference`, dashed)."""
    fit = LeastSquaresClassifier().fit(X, r)
    plot_points(ax, X, r)
    plot_line(ax, reference.w_, reference.w0_, xlim, ylim, color=GREY, ls="--")
    plot_line(ax, fit.w_, fit.w0_, xlim, ylim, color=BLACK)
    errors = int(np.sum(fit.predict(X) != r))
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
    w, w0 = fit.w_, fit.w0_
    ax.set_title(_("least squares (solid): w = ({w1:.2f}, {w2:.2f}), w₀ = {w0:.2f},\n"
                   "{errors} of {n} points misclassified; dashed: without the far point").format(
        w1=w[0], w2=w[1], w0=w0, errors=errors, n=len(X)), fontsize=12)


@checked(distance=Between(0, 100, open_low=True))
def least_squares_points_demo(distance=8.0):
    """Chapter 01 (K3): drag the far point of class +1 (or any point) and watch least squares
    follow it; add or remove points too."""
    X, r = outlier_data(distance)
    reference = LeastSquaresClassifier().fit(X[:-1], r[:-1])  # the fit without the far point
    (xlo, xhi), (ylo, yhi) = _box(X[:-1], pad=1.5)
    xlim, ylim = (xlo, xhi + 2.0), (ylo, max(yhi, X[-1, 1]) + 4.0)  # room to drag the far point away

    def draw(ax, X, r, xlim, ylim):
        draw_least_squares_points(ax, X, r, xlim, ylim, reference)

    return PointsDemo(draw, {}, X, r, xlim, ylim, minimum_per_class=2, width=6.5, height=5.5,
                      clear="artists")
