"""Dragging a point in JupyterLab with the mouse: the last frame shows the point where the mouse
was released, even when moves arrive faster than frames are drawn (a fixture whose frame takes
0.3 s: the moves that arrive meanwhile are merged, so far fewer frames are drawn than moves
arrive, and the release draws its own frame)."""

import re

from notebook_checks import _stable, _wait, open_notebook, run_all, wait_until_settled

FIGURE = ".course-points-demo img.course-figure"
SHOWN = re.compile(r"frame (\d+) after (\d+) moves: point at \(([-\d.]+), ([-\d.]+)\)")
PAUSE_MS = 120  # between stretches of the drag, so that it lasts several frames


def test_the_last_frame_shows_the_point_where_the_mouse_was_released(lab, page):
    assert open_notebook(page, lab.url, "fixtures/drag_point.ipynb", "drag-point") == []
    assert run_all(page) == []
    image = page.locator(FIGURE).first
    image.scroll_into_view_if_needed()
    box = image.bounding_box()

    def screen(x, y):  # the fixture's axes fill the image, with limits (0, 1) x (0, 1)
        return box["x"] + x * box["width"], box["y"] + (1 - y) * box["height"]

    before = SHOWN.search(image.get_attribute("alt") or "")
    assert before, f"the figure's alt text does not say which frame it is: {image.get_attribute('alt')!r}"
    page.mouse.move(*screen(0.5, 0.5))
    page.mouse.down()
    for x, y in ((0.55, 0.45), (0.6, 0.4), (0.65, 0.35), (0.7, 0.3), (0.75, 0.3)):
        page.mouse.move(*screen(x, y), steps=8)
        page.wait_for_timeout(PAUSE_MS)
    page.mouse.move(*screen(0.8, 0.25), steps=8)
    page.mouse.up()
    # A frame scheduled by a move is drawn while the kernel reports idle (it is no message):
    # wait for the kernel, then for the figure to stay the same for a while.
    wait_until_settled(page, 120, quiet=1.0)
    _wait(_stable(lambda: image.get_attribute("alt") or "", quiet=5.0), 120)
    alt = image.get_attribute("alt")
    shown = SHOWN.search(alt or "")
    lab.shutdown_kernels()
    assert shown, f"the figure's alt text does not say where the point is: {alt!r}"
    x, y = float(shown[3]), float(shown[4])
    assert abs(x - 0.8) < 0.02 and abs(y - 0.25) < 0.02, (
        f"released at (0.80, 0.25), the last frame ({shown[1]} drawn) shows the point at ({x}, {y})")
    # Drawn one by one, the moves would give a frame each (and the release one more); merged,
    # a frame (0.3 s) takes in the several moves (at most one per 50 ms) that came meanwhile.
    frames, moves = int(shown[1]) - int(before[1]), int(shown[2]) - int(before[2])
    assert moves >= 6, f"only {moves} mouse moves reached the kernel: the drag shows no merging"
    assert frames <= moves // 2, f"{frames} frames drawn for {moves} mouse moves: the moves were not merged"
