"""Figure text is at least as large as the body text, on a laptop and on a projector: no text of a
figure a notebook shows is under MIN_TEXT_PT, a static figure fits SHOWN_BOX (class mode can then
show it large enough), and every figure's <img> says what share of its width its smallest text
takes (data-text-share), which the class-mode page uses to place a live figure and the browser
tests read (tests/browser/test_in_class_mode.py)."""

import base64
import re
import struct
from pathlib import Path

import ipywidgets as widgets
import nbformat
import pytest

from course_lib.plotting.style import (
    MIN_TEXT_PT, RC, SHOWN_BOX, SHOWN_DPI, STATIC_PIXEL_RATIO, new_figure, raise_small_text)
from course_lib.widgets.core import Demo

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
STATIC = re.compile(r'<img class="course-static-figure"[^>]*?data-text-share="(?P<share>[\d.]+)" '
                    r'style="width: (?P<width>\d+)px[^"]*" src="data:image/png;base64,(?P<png>[^"]+)">')


def share_of(image):
    return float(re.search(r'data-text-share="([\d.]+)"', image).group(1))


def test_small_text_is_raised_and_the_smallest_size_returned():
    fig, ax = new_figure()
    ax.plot([0, 1], label="a line")
    ax.legend(fontsize=8)
    ax.set_title("title", fontsize=20)
    assert raise_small_text(fig) == MIN_TEXT_PT
    assert ax.get_legend().get_texts()[0].get_fontsize() == MIN_TEXT_PT
    assert ax.title.get_fontsize() == 20


def test_a_static_figure_says_its_smallest_text_share_and_raises_an_8_pt_legend():
    fig, ax = new_figure(width=6, height=4)
    ax.plot([0, 1], label="a line")
    ax.legend(fontsize=8)
    image = fig._repr_html_()
    assert share_of(image) == pytest.approx(MIN_TEXT_PT / 72 / 6, abs=1e-5)
    assert ax.get_legend().get_texts()[0].get_fontsize() == MIN_TEXT_PT


def test_a_figure_larger_than_the_box_is_shown_within_it_with_its_text_kept_in_points():
    fig, axes = new_figure(ncols=3, nrows=2, width=5, height=4.6)  # 15 x 9.2 inches
    for ax in axes:
        ax.set_title("a panel")
    image = fig._repr_html_()
    width = int(re.search(r"width: (\d+)px", image).group(1))
    png = base64.b64decode(re.search(r"base64,([^\"]+)", image).group(1))
    png_width, png_height = struct.unpack(">II", png[16:24])
    assert width <= SHOWN_BOX[0] * SHOWN_DPI + 1
    assert png_height <= SHOWN_BOX[1] * SHOWN_DPI * STATIC_PIXEL_RATIO + 1
    assert png_width / png_height == pytest.approx(15 / 9.2, rel=0.01)
    assert axes[0].title.get_fontsize() >= MIN_TEXT_PT
    smallest = RC["font.size"]  # the tick labels'
    assert share_of(image) == pytest.approx(smallest / 72 / fig.get_figwidth(), abs=1e-5)


def test_a_live_figure_says_its_smallest_text_share():
    demo = Demo(lambda ax, a: ax.plot([0, a], label="a line") and ax.legend(fontsize=8),
                {"a": widgets.FloatSlider(value=1.0, min=0.0, max=2.0)}, width=7, height=4)
    share = share_of(demo.image.value)
    assert share == pytest.approx(MIN_TEXT_PT / 72 / 7, abs=1e-5)


def stored_figures():
    for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")) + sorted(NOTEBOOKS.glob("fr/[0-9][0-9]_*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            for output in cell.get("outputs", []):
                html_text = output.get("data", {}).get("text/html", "")
                if "course-static-figure" in html_text:
                    yield path.relative_to(NOTEBOOKS).as_posix(), html_text


def test_every_stored_static_figure_fits_the_box_and_says_its_text_share():
    """The chapters' saved outputs were rendered by the current CourseFigure (refresh them with
    tools/refresh_notebooks.py after a change to it)."""
    problems, count = [], 0
    for name, html_text in stored_figures():
        count += 1
        found = STATIC.search(html_text)
        if not found:
            problems.append(f"{name}: a static figure without data-text-share")
            continue
        png_width, png_height = struct.unpack(">II", base64.b64decode(found.group("png")[:64])[16:24])
        inches = (png_width / SHOWN_DPI / STATIC_PIXEL_RATIO, png_height / SHOWN_DPI / STATIC_PIXEL_RATIO)
        if inches[0] > SHOWN_BOX[0] + 0.02 or inches[1] > SHOWN_BOX[1] + 0.02:
            problems.append(f"{name}: a figure of {inches[0]:.1f} x {inches[1]:.1f} in")
        if float(found.group("share")) * 72 * inches[0] < MIN_TEXT_PT - 0.05:
            problems.append(f"{name}: text under {MIN_TEXT_PT} pt")
    assert count >= 80 and problems == [], problems


def test_a_title_wider_than_its_panel_is_wrapped_at_spaces_outside_formulas_when_shown():
    fig, axes = new_figure(ncols=3, width=4, height=3)
    long = r"gaussian, $\sigma = 1$, $C = 0.1$: 121 support vectors, training error 0.09 on 200 points"
    axes[0].set_title(long)
    axes[1].set_title("short\nkept as two lines")
    fig._repr_html_()
    renderer = fig._get_renderer()
    title = axes[0].title
    assert "\n" in title.get_text() and title.get_text().replace("\n", " ") == long
    assert all(line.count("$") % 2 == 0 for line in title.get_text().split("\n"))
    assert title.get_window_extent(renderer).width <= axes[0].get_window_extent(renderer).width + 1
    assert axes[1].get_title() == "short\nkept as two lines"
