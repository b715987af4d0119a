"""Numbers written beside points, placed when the figure is drawn (its final size, layout and
font sizes known) so that no label covers another label, a point or the axes' other texts. A
label with no free place around its point is left out, and the note drawn with the labels says
how many were."""

import numbers

import numpy as np
from matplotlib.artist import Artist, allow_rasterization
from matplotlib.text import Text
from matplotlib.transforms import Bbox, IdentityTransform

from course_lib._validation import as_numbers, check_matrix, check_positive
from course_lib.i18n import _

# Where a label may go around its point, in order of preference: above right (where a reader
# looks first), the other corners, then the four sides; always next to its point, so that no
# label can be read as another point's.
DIRECTIONS = ((1, 1), (1, -1), (-1, 1), (-1, -1), (1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONAL = 0.75  # a corner label's offset along each axis, in clearances: its corner just off a round marker
ALIGNMENT = {1: ("left", "bottom"), 0: ("center", "center"), -1: ("right", "top")}
GAP_PT = 1.5  # free space kept around every label, in points
# Where the note may go, in order of preference (axes coordinates, alignment): the first corner
# where it covers no point, legend or other text; else the corner where it covers the fewest.
NOTE_CORNERS = (((0.98, 0.98), "right", "top"), ((0.02, 0.98), "left", "top"),
                ((0.98, 0.02), "right", "bottom"), ((0.02, 0.02), "left", "bottom"))


class PointLabels(Artist):
    """Labels `texts` of the points `anchors` (data coordinates), kept clear of each other, of
    the `points` (data coordinates; `half_sizes`: half the side of the square each one covers,
    in points) and of the axes' texts and legend. `note` (a Text in axes coordinates, or None) is
    drawn with them and kept clear too; `left_out(n)` gives the line added to it when n labels
    found no place. Labels are placed in the order given (put the most important first)."""

    def __init__(self, anchors, texts, colors, points, half_sizes, note=None, left_out=None,
                 fontsize=12):
        super().__init__()
        self.anchors = _positions(anchors, "anchors")
        self.points = _positions(points, "points")
        self.half_sizes = _half_sizes(half_sizes, len(self.points))
        for name, value in (("texts", texts), ("colors", colors)):
            if isinstance(value, str) or not hasattr(value, "__len__"):
                raise TypeError(_("{name} must be a list with one entry per anchor; got {value!r}.").format(
                    name=name, value=value))
        if isinstance(fontsize, numbers.Real):  # else a size name ("large"), which matplotlib checks
            check_positive(fontsize, "fontsize")
        if note is not None and not isinstance(note, Text):
            raise TypeError(_("note must be a matplotlib Text (as ax.text(...) returns) or None; got "
                              "{value!r}.").format(value=note))
        if left_out is not None and not callable(left_out):
            raise TypeError(_("left_out must be a function of the number of labels left out that "
                              "returns a line of text, or None; got {value!r}.").format(value=left_out))
        if len(texts) != len(self.anchors) or len(colors) != len(self.anchors):
            raise ValueError(_("texts and colors need one entry per anchor ({n}); got {n_texts} and "
                               "{n_colors}").format(n=len(self.anchors), n_texts=len(texts),
                                                    n_colors=len(colors)))
        box = dict(facecolor="white", alpha=0.8, edgecolor="none", pad=0.5)
        self.labels = [Text(0, 0, text, color=color, fontsize=fontsize, bbox=box, clip_on=False,
                            transform=IdentityTransform()) for text, color in zip(texts, colors)]
        self.note = note
        self.note_text = note.get_text() if note is not None else ""
        self.left_out = left_out
        self.n_left_out = 0
        self.set_zorder(6)

    def get_children(self):
        return [*self.labels, *([self.note] if self.note is not None else [])]

    def _obstacles(self, renderer):
        """Boxes (display pixels) no label may touch: the points (with their centres), then
        the axes' texts and legend."""
        ax = self.axes
        centres = ax.transData.transform(self.points) if len(self.points) else np.empty((0, 2))
        halves = renderer.points_to_pixels(self.half_sizes)
        points = [Bbox.from_extents(x - h, y - h, x + h, y + h) for (x, y), h in zip(centres, halves)]
        others = [text.get_window_extent(renderer) for text in ax.texts if text.get_visible() and text.get_text()]
        if ax.get_legend() is not None:
            others.append(ax.get_legend().get_window_extent(renderer))
        return points, centres, others

    def place(self, renderer):
        """Put each label at the first free place around its point, or hide it; then write in
        the note how many were hidden. Returns that number."""
        for text in self.get_children():
            text.set_figure(self.get_figure(root=False))
        if self.note is not None:
            self.note.set_text(self.note_text)
        hidden = self._place_labels(renderer)
        if hidden and self.note is not None and self.left_out is not None:
            # the note one line longer covers more: place again against the longer note
            self.note.set_text(self.note_text + "\n" + self.left_out(hidden))
            hidden = self._place_labels(renderer)
            self.note.set_text(self.note_text + ("\n" + self.left_out(hidden) if hidden else ""))
        self.n_left_out = hidden
        return hidden

    def _place_labels(self, renderer):
        ax = self.axes
        gap = renderer.points_to_pixels(GAP_PT)
        points, centres, taken = self._obstacles(renderer)
        if self.note is not None and self.note.get_text():
            taken.append(self._place_note(renderer, points + taken))
        inside = ax.bbox.padded(-gap)
        anchors = ax.transData.transform(self.anchors) if len(self.anchors) else np.empty((0, 2))
        own = renderer.points_to_pixels(self._own_half_sizes())
        hidden = 0
        for label, (x, y), half in zip(self.labels, anchors, own):
            label.set_visible(True)
            # the label's own point is kept clear by the distance; every other point by its box
            mine = np.all(np.isclose(centres, (x, y)), axis=1)
            others = [box for box, own_point in zip(points, mine) if not own_point]
            for box in self._candidates(label, x, y, half + gap, renderer):
                if (_within(box.padded(gap), inside) and not any(box.overlaps(b) for b in taken)
                        and not any(box.overlaps(b) for b in others)
                        and _nearest_is_own(box, centres, mine)):
                    taken.append(box.padded(gap))
                    break
            else:
                label.set_visible(False)
                hidden += 1
        return hidden

    def _place_note(self, renderer, obstacles):
        """Move the note to the first corner where its box touches none of `obstacles` (display
        pixels), else to the corner where it touches the fewest; returns its box."""
        best = None
        for position, horizontal, vertical in NOTE_CORNERS:
            self.note.set_position(position)
            self.note.set_horizontalalignment(horizontal)
            self.note.set_verticalalignment(vertical)
            box = self.note.get_window_extent(renderer)
            covered = sum(box.overlaps(other) for other in obstacles)
            if best is None or covered < best[0]:
                best = (covered, position, horizontal, vertical)
            if covered == 0:
                return box
        _, position, horizontal, vertical = best
        self.note.set_position(position)
        self.note.set_horizontalalignment(horizontal)
        self.note.set_verticalalignment(vertical)
        return self.note.get_window_extent(renderer)

    def _own_half_sizes(self):
        """Half-size of the square each anchor's point covers (the largest of the points there)."""
        sizes = np.zeros(len(self.anchors))
        for i, anchor in enumerate(self.anchors):
            at = np.all(self.points == anchor, axis=1)
            sizes[i] = self.half_sizes[at].max() if at.any() else 0.0
        return sizes

    @staticmethod
    def _candidates(label, x, y, clearance, renderer):
        """The label's box (display pixels) at each place tried around (x, y); the label is left
        at the place of the box last yielded."""
        for dx, dy in DIRECTIONS:
            step = clearance * (DIAGONAL if dx and dy else 1.0)
            label.set_position((x + dx * step, y + dy * step))
            label.set_horizontalalignment(ALIGNMENT[dx][0])
            label.set_verticalalignment(ALIGNMENT[dy][1])
            yield label.get_window_extent(renderer)

    @allow_rasterization
    def draw(self, renderer):
        if not self.get_visible():
            return
        self.place(renderer)
        for text in self.get_children():
            text.draw(renderer)
        self.stale = False


def _positions(values, name):
    """values as an (n, 2) array of finite positions (n = 0 allowed)."""
    if values is not None and np.size(values) == 0:
        return np.empty((0, 2))
    values = check_matrix(values, name)
    if values.shape[1] != 2:
        raise ValueError(_("{name} must have shape (n, 2), one (x, y) position per row; got shape "
                           "{shape}.").format(name=name, shape=values.shape))
    return values


def _half_sizes(half_sizes, n):
    """The points' half sizes (points) as n finite numbers >= 0, from one number or n of them."""
    if np.iscomplexobj(half_sizes):
        raise TypeError(_("half_sizes holds complex numbers: pass one size >= 0 (in points) per "
                          "point, or a single size."))
    sizes = as_numbers(half_sizes, "half_sizes")
    if sizes.ndim > 1 or (sizes.ndim == 1 and sizes.shape[0] != n):
        raise ValueError(_("half_sizes must be one number or one per point ({n}); got shape "
                           "{shape}.").format(n=n, shape=sizes.shape))
    if not np.all(np.isfinite(sizes)) or np.any(sizes < 0):
        raise ValueError(_("half_sizes must hold finite sizes >= 0 (in points); got {value}.").format(
            value=sizes.tolist()))
    return np.broadcast_to(sizes, n)


def _nearest_is_own(box, centres, mine):
    """Is the label's own point the nearest to its box (so that it reads as that point's)?"""
    dx = np.maximum(np.maximum(box.x0 - centres[:, 0], centres[:, 0] - box.x1), 0)
    dy = np.maximum(np.maximum(box.y0 - centres[:, 1], centres[:, 1] - box.y1), 0)
    distance = np.hypot(dx, dy)
    return not (~mine).any() or distance[mine].min() < distance[~mine].min()


def _within(box, outer):
    return box.x0 >= outer.x0 and box.y0 >= outer.y0 and box.x1 <= outer.x1 and box.y1 <= outer.y1
