"""Points you can touch: mouse events (as ipyevents sends them) add, drag and remove points, the
model refits and the figure's title follows; the screen-to-data mapping is exact."""

import threading

import numpy as np
import pytest

from course_lib.widgets.points import (
    PointsDemo, kernel_points_demo, least_squares_points_demo, soft_margin_points_demo,
)

SHOWN_WIDTH = 624.0  # CSS pixels the figure is shown at (any width: the mapping scales)


def event(demo, kind, point):
    """The ipyevents message for a mouse event over data point `point` (x1, x2)."""
    width, height = demo.fig.bbox.width, demo.fig.bbox.height
    x, y = demo.ax.transData.transform(point)
    scale = width / SHOWN_WIDTH
    return {"type": kind, "relativeX": x / scale, "relativeY": (height - y) / scale,
            "boundingRectWidth": SHOWN_WIDTH, "boundingRectHeight": height / scale}


def title(demo):
    return demo.ax.get_title()


def empty_spot(demo):
    """A point of the box far from every data point."""
    xs, ys = np.meshgrid(np.linspace(*demo.xlim, 25)[2:-2], np.linspace(*demo.ylim, 25)[2:-2])
    grid = np.c_[xs.ravel(), ys.ravel()]
    distances = np.min(np.hypot(*(grid[:, None, :] - demo.X[None, :, :]).transpose(2, 0, 1)), axis=1)
    return grid[np.argmax(distances)]


@pytest.fixture(scope="module")
def soft():
    return soft_margin_points_demo()


def test_the_screen_to_data_mapping_is_exact(soft):
    for point in ([0.0, 0.0], [soft.xlim[0] + 0.3, soft.ylim[1] - 0.2]):
        got, _ = soft.to_data(event(soft, "mousedown", point))
        assert np.allclose(got, point, atol=1e-9)


def test_a_click_adds_a_point_and_the_margin_or_support_vectors_change(soft):
    soft.reset()
    before, n = title(soft), len(soft.X)
    soft.point_class.value = -1
    spot = np.array([soft.xlim[1] - 0.8, soft.ylim[1] - 0.8])  # deep in the +1 side
    soft.handle(event(soft, "mousedown", spot))
    soft.handle(event(soft, "mouseup", spot))
    assert len(soft.X) == n + 1 and soft.r[-1] == -1 and np.allclose(soft.X[-1], spot)
    assert title(soft) != before, before


def in_a_fresh_thread(function):
    """Run `function` in a thread of its own and re-raise what it raised: no event loop runs
    there unless the function starts one (another test may leave one marked running here)."""
    raised = []

    def run():
        try:
            function()
        except BaseException as error:  # noqa: BLE001  (re-raised below)
            raised.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(60)
    assert not thread.is_alive(), "the test did not finish within 60 s"
    if raised:
        raise raised[0]


def test_a_drag_moves_a_point_and_the_figure_follows(soft):
    in_a_fresh_thread(lambda: _drag_without_an_event_loop(soft))


def _drag_without_an_event_loop(soft):
    soft.reset()
    index = int(np.argmax(soft.r == 1))
    start, end = soft.X[index].copy(), np.array([soft.xlim[0] + 0.7, soft.ylim[0] + 0.7])
    before, png = title(soft), soft.png
    soft.handle(event(soft, "mousedown", start))
    soft.handle(event(soft, "mousemove", (start + end) / 2))
    assert np.allclose(soft.X[index], (start + end) / 2) and soft.png != png
    soft.handle(event(soft, "mouseup", end))
    assert np.allclose(soft.X[index], end) and len(soft.X) == len(soft.start[0])
    assert title(soft) != before
    assert soft.png[16:24] != b"" and soft.dpi == 192  # back to the sharp rendering


def test_remove_mode_removes_the_point_under_the_mouse_but_keeps_each_class(soft):
    soft.reset()
    soft.mode.value = "remove"
    try:
        n = len(soft.X)
        soft.handle(event(soft, "mousedown", soft.X[0]))
        assert len(soft.X) == n - 1
        soft.handle(event(soft, "mousedown", empty_spot(soft)))  # nothing there: nothing removed
        assert len(soft.X) == n - 1
        soft.X, soft.r = soft.X[:3], np.array([1, -1, -1])
        soft.handle(event(soft, "mousedown", soft.X[0]))
        assert len(soft.X) == 3 and "stays" in soft.note.value
    finally:
        soft.mode.value = "add or drag"
        soft.reset()


def test_the_note_and_the_class_buttons_follow_the_mode(soft):
    if soft.events is None:
        pytest.skip("ipyevents is not installed: the note asks for it")
    assert "add a point" in soft.note.value and not soft.point_class.disabled
    soft.mode.value = "remove"
    try:
        assert "remove it" in soft.note.value and "add" not in soft.note.value
        assert soft.point_class.disabled  # a new point's class does nothing while a click removes
    finally:
        soft.mode.value = "add or drag"
    assert "add a point" in soft.note.value and not soft.point_class.disabled


def test_kernel_and_least_squares_demos_refit_on_edits():
    kernel = kernel_points_demo()
    assert kernel.controls["degree"].disabled and not kernel.controls["sigma"].disabled
    before = title(kernel)
    kernel.add([2.5, -2.5], -1)
    kernel.add([-2.5, 2.5], 1)
    assert title(kernel) != before
    squares = least_squares_points_demo()
    before = title(squares)
    squares.move(len(squares.X) - 1, [squares.xlim[1] - 0.5, squares.ylim[0] + 0.5])
    assert title(squares) != before
    with pytest.raises(ValueError, match="0 < distance"):
        least_squares_points_demo(0.0)


def test_bad_data_and_labels_are_refused():
    with pytest.raises(ValueError, match=r"X must be \(n, 2\)"):
        PointsDemo(lambda ax, X, r, xlim, ylim: None, {}, np.zeros((3, 3)), np.ones(3), (0, 1), (0, 1))
    demo = least_squares_points_demo()
    with pytest.raises(ValueError, match="label must be"):
        demo.add([0, 0], 2)


def test_moves_queued_during_a_frame_merge_and_the_release_shows_where_the_mouse_was(soft):
    """Under a running event loop (as in the kernel), moves only record the position and one
    frame is drawn for all of those that arrived before it; the release draws its own point."""
    import asyncio

    soft.reset()
    frames = []
    draw = soft.draw
    soft.draw = lambda ax, **values: (frames.append(soft.X.copy()), draw(ax, **values))
    index = int(np.argmax(soft.r == 1))
    start = soft.X[index].copy()
    path = [start + [0.1 * k, -0.1 * k] for k in range(1, 6)]
    release = start + [0.8, -0.6]

    async def drag():
        soft.handle(event(soft, "mousedown", start))
        for point in path:  # five moves read one after another, before any frame is drawn
            soft.handle(event(soft, "mousemove", point))
        assert frames == []
        await asyncio.sleep(0.1)  # the scheduled frame runs
        assert len(frames) == 1 and np.allclose(frames[0][index], path[-1])
        soft.handle(event(soft, "mousemove", path[0]))
        soft.handle(event(soft, "mouseup", release))  # cancels the frame of that move
        await asyncio.sleep(0.1)

    try:
        in_a_fresh_thread(lambda: asyncio.run(drag()))
    finally:
        soft.draw = draw
    assert len(frames) == 2 and np.allclose(frames[1][index], release)
    assert np.allclose(soft.X[index], release) and soft.dpi == 192 and soft._pending is None
    soft.reset()
