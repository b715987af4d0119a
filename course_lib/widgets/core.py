"""`Demo`: controls (sliders, dropdowns) beside a matplotlib figure that is redrawn when they move.

The figure is rendered to PNG and shown as an `<img class="course-figure">` with alt text in
an `ipywidgets.HTML` (the Image widget has no alt text), so a redraw is one PNG render, the
same in JupyterLab, Voila and a static HTML export, with no interactive matplotlib backend
needed.

How a figure is shown: one figure inch is `SHOWN_DPI` = 96 CSS pixels (so a matplotlib point
is a CSS point, and the 12 pt floor on every text holds on the screen), rendered at
`PIXEL_RATIO` = 2 image pixels per CSS pixel (sharp on high-DPI screens), never shown larger
than that natural size, and shrunk without distortion to fit the page width and
`MAX_HEIGHT_VH` = 70 % of the window's height, so a figure and its controls fit on one screen.

A demo's figure is drawn on one Agg canvas kept for its life, at the image's resolution, so
a redraw reuses the renderer (its buffer, the sizes of the texts already measured and, see
`plotting/canvas.py`, the glyphs already rasterized), and the canvas's pixels are encoded to
PNG directly (`encode_png`: RGBA, Up filter, fastest deflate, two halves at once).

Frames already shown are kept (`FRAME_CACHE_SIZE` of them, the least recently shown dropped
first), keyed by the control values (`Demo.frame_key`; a PointsDemo adds its points): going back
to a value shows its frame again without drawing. A drawing that sets its own limits can keep
its axes and ticks between frames (`clear="artists"`), one that keeps its artists and only
updates them (`clear=False`) avoids rebuilding them too.

Every redraw is timed for the benchmarks (`demo.seconds`, `demo.last_cached`); the student sees
no timing: the status line under the figure is empty unless a drawing fails.
"""

import base64
import html
import re
import struct
import time
import traceback
from collections import OrderedDict
from operator import attrgetter, itemgetter

import ipywidgets as widgets
from matplotlib.axes import Axes
from matplotlib.ticker import FixedFormatter, FixedLocator, NullFormatter, NullLocator

from course_lib.i18n import N_, _
from course_lib.plotting.canvas import GlyphCacheCanvas
from course_lib.plotting.style import (
    MIN_TEXT_PT, SHOWN_DPI, describe, encode_png, new_figure, plain_text, raise_small_text, text_share)
from course_lib.plotting.arguments import Between, checked, count, positive

PIXEL_RATIO = 2  # image pixels per CSS pixel, for high-DPI screens
MAX_HEIGHT_VH = 70  # a figure takes at most this share of the window's height
FRAME_CACHE_SIZE = 64  # frames kept per demo (about 0.1 MB each at PIXEL_RATIO = 2)

# The slides' symbol for a control's name, in static grids' panel titles (a subscript Unicode
# cannot write, as matplotlib's TeX: the weights of chapter 12's object and background words).
SYMBOLS = {
    "lam": "λ", "lambda": "λ", "eta": "η", "sigma": "σ", "degree": "q", "n_iter": "T",
    "cost_on_two": "Δ(y', 2)", "n_epochs": N_("epochs"), "distance": N_("far point at"),
    "scale": N_("transitions ×"), "share": N_("share of class 2"),
    # TRANSLATORS: the weight of the object's visual words, w with the subscript "obj"
    "w_object": N_("$w_{\\mathrm{obj}}$"),
    # TRANSLATORS: the weight of the background's visual words, w with the subscript "bg"
    "w_background": N_("$w_{\\mathrm{bg}}$"),
}


def label_html(name):
    """A control's label: the symbol of `name` (SYMBOLS, translated) as HTML, its TeX subscript
    as <sub> ($w_{\\mathrm{bg}}$: w<sub>bg</sub>); shown with description_allow_html=True."""
    text = html.escape(_(SYMBOLS.get(name, name)), quote=False)
    return re.sub(r"\$(\w+)_\{\\mathrm\{([^{}$]+)\}\}\$", r"\1<sub>\2</sub>", text)


@checked(value=positive(), low=Between(), high=Between(), step=positive())
def log_slider(name, value, low, high, step=0.1, continuous_update=True, description=None):
    """A slider over 10**low .. 10**high (for C, sigma, lambda, eta), named after its symbol."""
    Between(10.0**low, 10.0**high).check("value", value, "log_slider")
    return widgets.FloatLogSlider(
        value=value, base=10, min=low, max=high, step=step,
        description=description or _(SYMBOLS.get(name, name)),
        continuous_update=continuous_update, readout_format=".3g",
        style={"description_width": "initial"}, layout=widgets.Layout(width="360px"),
    )


def shown_width(fig):
    """The CSS width (px) a figure is shown at, at most: its natural size."""
    return round(fig.get_figwidth() * SHOWN_DPI)


def figure_layout(fig):
    """The Layout of a box holding `fig`'s image: its natural width, shrunk to fit the page
    width and MAX_HEIGHT_VH of the window, keeping the aspect ratio (the image fills it)."""
    width, height = fig.get_size_inches()
    return widgets.Layout(  # grows to its cap beside the controls, wraps below them under 320 px
        max_width=f"min({shown_width(fig)}px, 100%, calc({MAX_HEIGHT_VH}vh * {width / height:.4f}))",
        flex="1 1 320px", min_width="0",
    )


def figure_html(png, alt, share):
    """An <img> showing PNG bytes at the width of its box, with alt text. Its width and height
    attributes (the PNG's pixels) give the browser its aspect ratio before the image is decoded,
    so a new frame keeps the box's height instead of collapsing it for a moment (which moves
    everything below it twice per frame). `share`: its smallest text's height over its width
    (style.text_share), as data-text-share."""
    source = base64.b64encode(png).decode("ascii")
    width, height = struct.unpack(">II", png[16:24])  # IHDR, right after the 8-byte signature
    return (f'<img class="course-figure" alt="{html.escape(alt, quote=True)}" draggable="false" '
            f'width="{width}" height="{height}" data-text-share="{share:.5f}" '
            f'style="display: block; width: 100%; height: auto; margin: 0" src="data:image/png;base64,{source}">')


def remove_drawn(ax):
    """Remove what a drawing added to `ax` (artists, legend, titles), keeping the axes, their
    ticks, limits and labels (cheaper than ax.clear(), which rebuilds the ticks)."""
    for artist in [*ax.collections, *ax.lines, *ax.patches, *ax.texts, *ax.images, *ax.artists]:
        artist.remove()
    if ax.legend_ is not None:
        ax.legend_.remove()
    for title in (ax.title, ax._left_title, ax._right_title):
        title.set_text("")


def _text_outside(fig, tolerance=1.0):
    """Does a title, axis label or suptitle stick out of the figure (after a render)?"""
    box = fig.bbox
    renderer = fig._get_renderer()
    texts = [fig._suptitle] if fig._suptitle is not None else []
    for ax in fig.axes:
        if ax.get_visible():
            texts += [ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label]
    for text in texts:
        if text.get_visible() and text.get_text():
            extent = text.get_window_extent(renderer)
            if (extent.x0 < box.x0 - tolerance or extent.x1 > box.x1 + tolerance
                    or extent.y0 < box.y0 - tolerance or extent.y1 > box.y1 + tolerance):
                return True
    return False


class Demo(widgets.VBox):
    """Controls beside a figure (above it when the page is too narrow); moving a control calls
    `draw(ax, **values)` and re-renders the figure, or shows the frame already rendered for
    these values.

    draw: function(ax, **values) drawing on `ax` (an Axes, or an array of Axes when
          ncols * nrows > 1).
    controls: dict name -> ipywidgets control; `values` are their `.value`s by name.
    applies: optional dict name -> function(values) -> bool: the control `name` is disabled
          while it returns False (the polynomial degree under the Gaussian kernel), so no
          control is shown as if it mattered when it changes nothing.
    clear: True (default) clears the axes before each draw; "artists" only removes what the
          last draw added (artists, legend, titles) and keeps the axes with their ticks, for a
          drawing that sets its own limits (it looks the same, a good part cheaper); False
          leaves the axes as the last draw left them, for a drawing that creates its artists
          once and then only updates them (it must then set everything a frame shows).
    cache_size: how many rendered frames are kept (0: none).
    blit: keep the pixels of the figure's background (patches, ticks, tick labels) and draw
          only the rest over them while the axes' limits and ticks stay the same
          (`static_key`); the same pixels as drawing the whole figure.
    """

    def __init__(self, draw, controls, ncols=1, nrows=1, width=5.5, height=4.5, applies=None,
                 pixel_ratio=PIXEL_RATIO, clear=True, cache_size=FRAME_CACHE_SIZE, blit=True):
        self.draw = draw
        self.blit = bool(blit)
        self._background = self._background_key = None
        self.controls = dict(controls)
        self.applies = dict(applies or {})
        unknown = sorted(set(self.applies) - set(self.controls))
        if unknown:
            raise ValueError(_("applies names {unknown}, which are not controls; controls are "
                               "{controls}").format(
                                 unknown=unknown, controls=sorted(self.controls)))
        if not (isinstance(cache_size, int) and cache_size >= 0):
            raise ValueError(_("cache_size must be an int >= 0 (frames kept), got {cache_size!r}").format(
                                 cache_size=cache_size))
        if clear not in (True, False, "artists"):
            raise ValueError(_("clear must be True, False or \"artists\", got {clear!r}").format(
                                 clear=clear))
        self.clear = clear
        self.cache_size = cache_size
        self._frames = OrderedDict()  # frame_key -> (png, alt, text share), the most recently shown last
        self.dpi = SHOWN_DPI * pixel_ratio
        self.fig, self.ax = new_figure(ncols=ncols, nrows=nrows, width=width, height=height)
        self.canvas = GlyphCacheCanvas(self.fig)  # kept: every frame reuses its renderer
        self.png = b""  # the last rendered figure
        self.image = widgets.HTML(layout=widgets.Layout(width="100%", margin="0"))
        self.image.add_class("course-figure-html")
        self.status = widgets.HTML()
        self.status.add_class("course-status")
        self.seconds = None  # duration of the last update
        self.last_cached = False  # did the last update show a frame already rendered?
        self._quiet = False
        for control in self.controls.values():
            control.observe(self._on_change, names="value")
            if hasattr(control.style, "description_width"):  # its whole description, not a fixed width that cuts it
                control.style.description_width = "initial"
        self.controls_box = widgets.VBox(list(self.controls.values()),
                                         layout=widgets.Layout(flex="0 0 auto", margin="0 1em 0.5em 0"))
        self.controls_box.add_class("course-controls")
        self.figure_box = widgets.VBox([self.image, self.status], layout=figure_layout(self.fig))
        self.figure_box.add_class("course-figure-box")
        body = widgets.HBox([self.controls_box, self.figure_box],
                            layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start"))
        super().__init__([body])
        self.add_class("course-demo")
        self._refresh_enabled()
        self.update()
        # Keep the layout found by the first render and drop the engine: with an engine set,
        # every draw solves the layout again. A later drawing whose title or labels would stick
        # out gets the layout solved again (see update).
        self._layout = self.fig.get_layout_engine()
        self.fig.set_layout_engine(None)
        if self.blit:  # keep the background now: the first move of a control only draws over it
            self._draw_canvas()

    @property
    def values(self):
        return {name: control.value for name, control in self.controls.items()}

    def frame_key(self):
        """What a frame depends on: the control values (and the render resolution)."""
        return (self.dpi, *self.values.items())

    def forget_frames(self):
        """Drop the rendered frames (when what they show changed without a control moving)."""
        self._frames.clear()

    def update(self, cache=True):
        """Show the figure for the current values: the frame already rendered for them if
        `cache`, else clear the axes (unless clear=False), draw and render; raises if drawing
        fails. Returns the seconds it took."""
        start = time.perf_counter()
        key = self.frame_key() if cache and self.cache_size else None
        frame = self._frames.get(key) if key is not None else None
        self.last_cached = frame is not None
        if frame is None:
            frame = self._render()
            if key is not None:
                self._frames[key] = frame
                while len(self._frames) > self.cache_size:
                    self._frames.popitem(last=False)
        else:
            self._frames.move_to_end(key)
        self.png, alt, share = frame
        self.image.value = figure_html(self.png, alt, share)
        self.seconds = time.perf_counter() - start
        return self.seconds

    def _render(self):
        """Draw with the current values and render: (PNG bytes, alt text, text share)."""
        if self.clear:
            for ax in self.fig.axes[:]:
                if ax not in getattr(self.ax, "flat", [self.ax]):
                    ax.remove()  # colorbars and other axes added by a previous draw
                elif self.clear == "artists":
                    remove_drawn(ax)
                else:
                    ax.clear()
        self.draw(self.ax, **self.values)
        share = text_share(self.fig, raise_small_text(self.fig))
        image = self._png()
        if getattr(self, "_layout", None) is not None and _text_outside(self.fig):
            self._layout.execute(self.fig)  # the drawing changed shape: solve the layout again
            image = self._png()
        return image, describe(self.fig), share

    def _png(self):
        """Render the figure on the kept canvas at `self.dpi` and encode its pixels."""
        if self.fig.dpi != self.dpi:
            self.fig.set_dpi(self.dpi)
        self._draw_canvas()
        return encode_png(self.canvas.buffer_rgba())

    def _draw_canvas(self):
        """Draw the figure on the canvas: the background kept from an earlier frame (figure
        and axes patches, the axes' ticks and labels) when nothing of it changed, and the rest
        over it in matplotlib's order, the same pixels as `canvas.draw()`; the whole figure
        otherwise."""
        renderer = self.canvas.get_renderer()
        key = static_key(self.fig, renderer) if self.blit else None
        if key is None:
            self._background = self._background_key = None
            self.canvas.draw()
            return
        if key != self._background_key:
            self._background = self._draw_background()
            self._background_key = key
        else:
            renderer.restore_region(self._background)
        if not draw_foreground(self.fig, renderer):  # a title would need moving: draw it all
            self._background = self._background_key = None
            self.canvas.draw()

    def _draw_background(self):
        """Draw only the background (see `foreground_artists`) and keep its pixels."""
        hidden = [artist for artist in foreground_artists(self.fig) if not artist.get_animated()]
        labels = [axis.label for ax in self.fig.axes for axis in (ax.xaxis, ax.yaxis) if axis.label.get_visible()]
        for artist in hidden:
            artist.set_animated(True)  # what canvas.draw() skips
        for label in labels:
            label.set_visible(False)  # placed by the axis's draw, drawn over the background
        try:
            self.canvas.draw()
        finally:
            for artist in hidden:
                artist.set_animated(False)
            for label in labels:
                label.set_visible(True)
        return self.canvas.get_renderer().copy_from_bbox(self.fig.bbox)

    def set(self, **values):
        """Set several controls at once, then redraw once; returns the redraw time in seconds."""
        self._quiet = True
        try:
            for name, value in values.items():
                if name not in self.controls:
                    raise KeyError(_("no control named {name!r}; controls are {controls}").format(
                                       name=name, controls=sorted(self.controls)))
                self.controls[name].value = value
        finally:
            self._quiet = False
        self._refresh_enabled()
        return self.update()

    def _refresh_enabled(self):
        values = self.values
        for name, applies in self.applies.items():
            self.controls[name].disabled = not applies(values)

    def _on_change(self, change):
        if self._quiet:
            return
        self._refresh_enabled()
        self.redraw()

    def redraw(self):
        """`update()`, showing an error in the status line instead of raising it."""
        try:
            self.update()
        except Exception:
            text = html.escape(traceback.format_exc(limit=3))
            self.status.value = f"<pre class='course-demo-error'>{text}</pre>"
            self.status.add_class("course-demo-error")
        else:
            self.status.value = ""
            self.status.remove_class("course-demo-error")


def drawn_whole(ax):
    """Is `ax` drawn whole over the kept background each frame, ticks and all? A colour bar's
    axes are: their limits follow the colours' range, which a frame may change (chapter 11's
    transition weights grow with C) while the other axes keep theirs."""
    return getattr(ax, "_colorbar", None) is not None


def foreground_artists(fig):
    """What a frame draws over the kept background: every artist of `fig` but its patch, its
    axes' patches and their x and y axes (ticks, tick labels; the axis labels are drawn over
    the background, see `draw_foreground`); axes drawn whole (`drawn_whole`) are in it whole."""
    artists = [artist for artist in fig.get_children() if artist is not fig.patch
               and (not isinstance(artist, Axes) or drawn_whole(artist))]
    for ax in fig.axes:
        if drawn_whole(ax):
            continue
        background = {id(ax.patch), id(ax.xaxis), id(ax.yaxis)}
        artists += [artist for artist in ax.get_children() if id(artist) not in background]
    return artists


def _ticker(ticker):
    """A locator or formatter as static_key compares it: fixed ones by their values (a
    drawing may set the same ticks again), the others by identity."""
    if isinstance(ticker, FixedLocator):
        return ("fixed", tuple(ticker.locs), ticker.nbins)
    if isinstance(ticker, FixedFormatter):
        return ("fixed", tuple(ticker.seq), ticker.offset_string)
    if isinstance(ticker, (NullLocator, NullFormatter)):
        return type(ticker).__name__
    return ticker


def static_key(fig, renderer):
    """What the background's pixels depend on (compared by ==; formatters and locators by
    identity; the axes drawn whole each frame left out), or None when the figure cannot be
    drawn over a kept background: a layout engine still set, ticks or a label on top of an
    axes, child or twin axes (their titles are placed otherwise, see `place_titles`). Applies
    the axes' aspect first, as a draw does."""
    if fig.get_layout_engine() is not None:
        return None
    key = [fig.dpi, tuple(fig.bbox.bounds), fig.patch.get_visible(), fig.patch.get_facecolor()]
    for ax in fig.axes:
        if drawn_whole(ax):  # not in the background
            continue
        locator = ax.get_axes_locator()
        ax.apply_aspect(locator(ax, renderer) if locator else None)
        if (ax.child_axes or len(ax._twinned_axes.get_siblings(ax)) > 1
                or ax.xaxis.get_ticks_position() in ("top", "unknown") or ax.xaxis.get_label_position() == "top"):
            return None
        key.append((ax.get_visible(), ax.axison, ax.get_frame_on(), ax.get_zorder(), tuple(ax.get_position().bounds),
                    ax.get_xlim(), ax.get_ylim(), ax.get_xscale(), ax.get_yscale(), ax.patch.get_facecolor()))
        for axis in (ax.xaxis, ax.yaxis):
            key.append((axis.get_visible(), _ticker(axis.major.locator), _ticker(axis.major.formatter),
                        _ticker(axis.minor.locator), _ticker(axis.minor.formatter),
                        axis.majorTicks[0].label1.get_fontsize()))
    return key


def place_titles(ax, renderer):
    """Place the axes' titles as Axes.draw does (`_update_title_position`) for an axes that
    static_key accepts: at y = 1 (above the axes by their pad). False when that would not do
    (a title would overlap the axes or the y axis shows an offset text): draw the whole figure."""
    titles = (ax.title, ax._left_title, ax._right_title)
    if (ax._autotitlepos is not None and not ax._autotitlepos) or not any(t.get_text() for t in titles):
        return True
    if ax.yaxis.offsetText.get_visible() and ax.yaxis.offsetText.get_text():
        return False
    top = ax.spines.get("outline", ax).get_window_extent().ymax
    for title in titles:
        title.set_position((title.get_position()[0], 1.0))
        if title.get_window_extent(renderer).ymin < top:
            return False
    return True


def draw_foreground(fig, renderer):
    """Draw the foreground artists (see `foreground_artists`) in the order Figure.draw and
    Axes.draw give them (by zorder); False if a title must be placed by a whole draw."""
    for artist in sorted((a for a in fig.get_children() if a is not fig.patch and not a.get_animated()),
                         key=attrgetter("zorder")):
        if not isinstance(artist, Axes) or drawn_whole(artist):
            artist.draw(renderer)
            continue
        ax = artist
        if not ax.get_visible():
            continue
        if not place_titles(ax, renderer):
            return False
        skipped = {id(ax.patch)}
        if not (ax.axison and ax.get_frame_on()):
            skipped |= {id(spine) for spine in ax.spines.values()}
        children = []  # (zorder, artist): an axis label where its axis is drawn
        for child in ax.get_children():
            if child is ax.xaxis or child is ax.yaxis:
                if ax.axison and child.get_visible():
                    children.append((child.zorder, child.label))
            elif id(child) not in skipped and not child.get_animated():
                children.append((child.zorder, child))
        for _zorder, child in sorted(children, key=itemgetter(0)):
            child.draw(renderer)
    return True


def panel_title(drawn, values, symbols=None):
    """A static grid panel's title: the drawing's own title (with its numbers) preceded by the
    settings it does not already show, named by the slides' symbols."""
    symbols = {**SYMBOLS, **(symbols or {})}
    missing = [f"{_(symbols.get(name, name))} = {_short(value)}" for name, value in values.items()
               if _short(value) not in drawn]
    if not drawn:
        return ", ".join(missing)
    if not missing:
        return drawn
    settings = ", ".join(missing)
    shown = len(plain_text(settings)) + len(plain_text(drawn))  # $w_{\\mathrm{obj}}$ takes 5 characters
    return f"{settings}\n{drawn}" if shown > 40 else f"{settings}: {drawn}"


@checked(ncols=count(1, 12), width=positive(100), height=positive(100))
def static_grid(draw, settings, ncols=3, width=4.2, height=3.6, title=None, symbols=None):
    """The same drawing at a few settings side by side: the printed stand-in for a Demo.

    settings: list of dicts of control values; each panel keeps the title its drawing gives
    (the numbers that matter: objective, accuracy, support vectors) and is prefixed by the
    settings that title does not show, in the slides' symbols (SYMBOLS, updated by `symbols`).
    """
    nrows = -(-len(settings) // ncols)
    fig, axes = new_figure(ncols=ncols, nrows=nrows, width=width, height=height)
    axes = getattr(axes, "flat", [axes])
    for ax, values in zip(axes, settings):
        draw(ax, **values)
        size = max(ax.title.get_fontsize(), MIN_TEXT_PT) if ax.get_title() else MIN_TEXT_PT
        ax.set_title(panel_title(ax.get_title(), values, symbols), fontsize=size)  # wrapped when shown
    for ax in list(axes)[len(settings):]:
        ax.set_visible(False)
    if title:
        fig.suptitle(title)
    raise_small_text(fig)
    return fig


def _short(value):
    return f"{value:.3g}" if isinstance(value, float) else _(value) if isinstance(value, str) else str(value)
