"""Slack labels of the soft-margin figures: placed when drawn, none covers another label, a
point or the note; a label with no room is left out and the note counts it."""

import itertools

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.text import Text

from course_lib.plotting.labels import PointLabels
from course_lib.plotting.margins import draw_soft_margin
from course_lib.plotting.style import new_figure


def _labels(fig):
    return next(a for a in fig.axes[0].artists if isinstance(a, PointLabels))


def _assert_clear(fig):
    """Draw `fig`, then check the note covers no point, and no shown label overlaps another label
    or the note, covers a point (its own point's round marker included), or sits nearer another
    point than its own."""
    canvas = fig.canvas if hasattr(fig.canvas, "get_renderer") else FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    labels = _labels(fig)
    shown = [t.get_window_extent(renderer) for t in labels.labels if t.get_visible()]
    assert shown, "no slack label was drawn"
    for a, b in itertools.combinations(shown, 2):
        assert not a.overlaps(b), (a, b)
    note = labels.note.get_window_extent(renderer)
    points = labels.axes.transData.transform(labels.points)
    halves = renderer.points_to_pixels(labels.half_sizes)
    under_note = ((points[:, 0] + halves > note.x0) & (points[:, 0] - halves < note.x1)
                  & (points[:, 1] + halves > note.y0) & (points[:, 1] - halves < note.y1))
    assert not under_note.any(), f"the note {labels.note.get_text()!r} covers the point at {labels.points[under_note]}"
    anchors = labels.axes.transData.transform(labels.anchors)
    for label, anchor in zip(labels.labels, anchors):
        if not label.get_visible():
            continue
        box = label.get_window_extent(renderer)
        assert not box.overlaps(note)
        distance = np.hypot(np.maximum(np.maximum(box.x0 - points[:, 0], points[:, 0] - box.x1), 0),
                            np.maximum(np.maximum(box.y0 - points[:, 1], points[:, 1] - box.y1), 0))
        own = np.all(np.isclose(points, anchor), axis=1)
        assert (distance[own] >= halves[own]).all(), "a label covers its own point's marker"
        covered = ~own & (points[:, 0] + halves > box.x0) & (points[:, 0] - halves < box.x1) & (
            points[:, 1] + halves > box.y0) & (points[:, 1] - halves < box.y1)
        assert not covered.any(), f"a label covers the point at {labels.points[covered]}"
        if (~own).any():
            assert distance[own].min() < distance[~own].min(), f"{label.get_text()} is nearer another point"
    return labels


@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
def test_the_soft_margin_figure_writes_its_slacks_where_nothing_else_is(C):
    fig = draw_soft_margin(C=C)
    labels = _assert_clear(fig)
    hidden = sum(not t.get_visible() for t in labels.labels)
    assert labels.n_left_out == hidden
    assert (f"({hidden} ξ left out: no room)" in labels.note.get_text()) == (hidden > 0)


@pytest.mark.parametrize("C", [0.01, 0.1, 1.0, 10.0, 100.0])
def test_the_live_demo_places_its_slacks_at_its_own_size_and_font(C):
    from course_lib.widgets.kernels import soft_margin_demo

    demo = soft_margin_demo(C=C)
    _assert_clear(demo.fig)
    assert all(t.get_fontsize() >= 12 for t in _labels(demo.fig).labels)  # raised for the room


def test_labels_of_one_spot_go_to_different_sides_and_one_with_no_room_is_counted():
    fig, ax = new_figure(width=2, height=2)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    note = Text(0.98, 0.98, "note", transform=ax.transAxes, ha="right", va="top")
    crowd = np.full((20, 2), 0.5)
    labels = PointLabels(crowd, [f"{k:.2f}" for k in range(20)], ["k"] * 20, crowd[:1], 4.0,
                         note=note, left_out=lambda n: f"{n} left out")
    ax.add_artist(labels)
    _assert_clear(fig)
    shown = sum(t.get_visible() for t in labels.labels)
    assert 2 <= shown < 20 and labels.n_left_out == 20 - shown
    assert note.get_text() == f"note\n{20 - shown} left out"
    with pytest.raises(ValueError, match="one entry per anchor"):
        PointLabels(crowd, ["a"], ["k"], crowd, 4.0)


def points_under_legend(ax):
    """How many plotted points of `ax`'s lines the legend covers."""
    ax.figure.canvas.draw()
    box = ax.get_legend().get_window_extent()
    return sum(box.contains(x, y) for line in ax.get_lines() for x, y in ax.transData.transform(line.get_xydata()))


def test_the_accuracy_curves_keep_their_points_out_of_the_legend():
    """Chapter 09's held-out curves: the plain perceptron's worst epoch (0.68 at epoch 18 of 20) fell
    under a legend pinned to the lower right."""
    from course_lib.plotting.perceptron import accuracy_by_epoch_figure
    plain = [0.69, 0.86, 0.87, 0.81, 0.87, 0.82, 0.82, 0.78, 0.76, 0.86, 0.87, 0.84, 0.84, 0.87, 0.84, 0.85, 0.82, 0.68,
             0.75, 0.83]
    averaged = [0.865, 0.858, 0.861, 0.863, 0.861, 0.871, 0.871, 0.866, 0.865, 0.865, 0.865, 0.863, 0.863, 0.863, 0.865,
                0.87, 0.868, 0.866, 0.866, 0.865]
    fig = accuracy_by_epoch_figure(np.array(plain), np.array(averaged), chosen=6, title="three blobs")
    assert points_under_legend(fig.axes[0]) == 0
