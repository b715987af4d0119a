"""The Demo's figure: rendered at twice its shown size, no text under 12 pt, titles inside the
figure whatever the drawing's shape, every value change visible; controls that do not apply
are disabled; static grids keep their panels' numbers and use the slides' symbols."""

import hashlib
import io

import ipywidgets as widgets
import numpy as np
import pytest
from PIL import Image

from course_lib.plotting.style import encode_png
from course_lib.widgets.core import (
    MIN_TEXT_PT, PIXEL_RATIO, SHOWN_DPI, Demo, _text_outside, log_slider, panel_title, static_grid,
)


def _size(png):
    return Image.open(io.BytesIO(png)).size


def _digest(demo):
    return hashlib.sha256(demo.png).hexdigest()


def draw_line(ax, C):
    ax.plot([0, 1], [0, C])
    ax.set_title(f"slope {C:.3g}", fontsize=8)
    ax.legend(["line"], fontsize=7)


def test_the_image_is_rendered_at_twice_its_shown_size():
    demo = Demo(draw_line, {"C": log_slider("C", 1.0, -2, 2)}, width=5, height=4)
    assert _size(demo.png) == (5 * SHOWN_DPI * PIXEL_RATIO, 4 * SHOWN_DPI * PIXEL_RATIO)
    assert f"min({5 * SHOWN_DPI}px, 100%" in demo.figure_box.layout.max_width  # never wider than natural
    assert "70vh" in demo.figure_box.layout.max_width
    width, height = _size(demo.png)  # the <img> states them: its box keeps its height between frames
    assert f'width="{width}" height="{height}"' in demo.image.value


def test_no_text_is_smaller_than_the_floor_and_the_image_has_a_description():
    demo = Demo(draw_line, {"C": log_slider("C", 1.0, -2, 2)})
    sizes = [t.get_fontsize() for t in demo.fig.findobj(lambda a: hasattr(a, "get_fontsize") and a.get_text())]
    assert sizes and min(sizes) >= MIN_TEXT_PT
    assert 'alt="slope 1"' in demo.image.value and 'class="course-figure"' in demo.image.value


def test_a_control_shows_its_whole_description():
    """ipywidgets gives a description a fixed width and cuts what does not fit ("mise à j…"):
    a demo's controls take the width their description needs, in every language."""
    controls = {"share": widgets.FloatSlider(value=0.2, min=0.05, max=0.6, description="part de la classe 2"),
                "learner": widgets.Dropdown(options=["SVM"], description="algorithme"),
                "C": log_slider("C", 1.0, -2, 2)}
    Demo(lambda ax, share, learner, C: ax.set_title(learner), controls)
    assert [control.style.description_width for control in controls.values()] == ["initial"] * 3


def test_a_control_that_does_not_apply_is_disabled():
    controls = {"kernel": widgets.Dropdown(options=["linear", "gaussian"], value="linear"),
                "sigma": log_slider("sigma", 1.0, -1, 1)}
    demo = Demo(lambda ax, kernel, sigma: ax.set_title(f"{kernel} {sigma:.3g}"), controls,
                applies={"sigma": lambda values: values["kernel"] == "gaussian"})
    assert controls["sigma"].disabled and controls["sigma"].description == "σ"
    controls["kernel"].value = "gaussian"
    assert not controls["sigma"].disabled
    with pytest.raises(ValueError, match="applies names \\['degree'\\]"):
        Demo(lambda ax, kernel, sigma: None, controls, applies={"degree": lambda values: True})


def test_a_title_pushed_out_by_a_new_shape_is_brought_back_and_every_move_shows():
    """Chapter 11's reading demo: a longer word changes the image's shape; the title and the
    label stay inside and each scale of the transitions gives a different image."""
    from course_lib.widgets.structured_chain import transition_scale_demo

    demo = transition_scale_demo()
    for word in (0, demo.controls["word"].max):
        seen = set()
        for scale in (1.0, 1.25, 3.0):
            demo.set(word=word, scale=scale)
            assert not _text_outside(demo.fig), (word, scale)
            seen.add(_digest(demo))
        assert len(seen) == 3, f"word {word}: moving the scale did not change the image"


def test_static_grid_keeps_the_drawn_numbers_and_uses_the_slides_symbols():
    def draw(ax, lam, eta):
        ax.set_title(f"objective 0.123, accuracy 0.9 at lambda {lam}")

    fig = static_grid(draw, [{"lam": 0.01, "eta": 0.5}], ncols=1)
    title = fig.axes[0].get_title()
    assert "objective 0.123, accuracy 0.9" in title and "η = 0.5" in title
    assert "λ" not in title.split("\n")[0] and "lam =" not in title  # 0.01 is already in the title
    assert fig.axes[0].title.get_fontsize() >= MIN_TEXT_PT
    assert panel_title("", {"cost_on_two": 5.0}) == "Δ(y', 2) = 5"
    assert panel_title("C = 0.1: 12 SV", {"C": 0.1}) == "C = 0.1: 12 SV"


def test_static_grid_wraps_a_long_title_between_its_formulas_not_inside_one():
    """A panel's title is wrapped to the panel's width at its spaces when the figure is shown
    (CourseFigure, see style.wrap_titles): a line break inside $...$
    would leave the formula unrendered, its TeX shown as typed ("$E_{percp} =" over "8.44$"), and
    one at a hyphen cuts a word ("held-" over "out")."""
    def draw(ax, epoch):
        ax.set_title(f"after epoch {epoch}: 7 errors, " + "$E_{percp} = 8.44$, $\\|\\mathbf{w}\\| = 1.25$", fontsize=12)

    fig = static_grid(draw, [{"epoch": 1}, {"epoch": 2}], ncols=2)
    fig._repr_html_()
    for ax in fig.axes:
        lines = ax.get_title().split("\n")
        assert len(lines) >= 2, lines  # wrapped
        assert all(line.count("$") % 2 == 0 for line in lines), lines
        assert "$E_{percp} = 8.44$" in ax.get_title()

    def held_out(ax, seed):
        ax.set_title(f"averaged a, 12 epochs, shuffle seed {seed}: held-out 86.3%", fontsize=12)

    fig = static_grid(held_out, [{"seed": 0}, {"seed": 1}])
    fig._repr_html_()
    titles = [ax.get_title() for ax in fig.axes[:2]]
    assert all("held-out" in title for title in titles), titles


def test_a_value_already_shown_reuses_its_frame_without_drawing():
    calls = []

    def draw(ax, C):
        calls.append(C)
        draw_line(ax, C)

    demo = Demo(draw, {"C": log_slider("C", 1.0, -2, 2)}, cache_size=2)
    first = demo.png
    demo.set(C=10.0)
    assert not demo.last_cached and demo.png != first
    demo.set(C=1.0)
    assert demo.last_cached and demo.png == first and calls == [1.0, 10.0]
    demo.set(C=0.1)  # a third frame: the least recently shown (C = 10) is dropped
    demo.set(C=10.0)
    assert not demo.last_cached and calls == [1.0, 10.0, 0.1, 10.0]
    demo.update(cache=False)
    assert calls[-1] == 10.0 and len(calls) == 5
    with pytest.raises(ValueError, match="cache_size must be an int >= 0"):
        Demo(draw, {"C": log_slider("C", 1.0, -2, 2)}, cache_size=-1)


def test_the_student_sees_no_timing():
    demo = Demo(draw_line, {"C": log_slider("C", 1.0, -2, 2)})
    demo.controls["C"].value = 10.0
    assert demo.status.value == "" and demo.seconds > 0


def test_a_drawing_that_keeps_its_artists_is_not_cleared():
    def setup_then_update(ax, C):
        if not ax.lines:
            ax.plot([0, 1], [0, 1])
        ax.lines[0].set_ydata([0, C])
        ax.set_title(f"slope {C:.3g}")

    demo = Demo(setup_then_update, {"C": log_slider("C", 1.0, -2, 2)}, clear=False)
    line = demo.ax.lines[0]
    demo.set(C=10.0)
    assert list(demo.ax.lines) == [line] and list(line.get_ydata()) == [0, 10.0]
    assert 'alt="slope 10"' in demo.image.value


def _pixels(png):
    return np.asarray(Image.open(io.BytesIO(png)))


LIGHT_CLEARED = {  # demos drawn with clear="artists", and settings where they must look the same
    "perceptron_replay_demo": [{"update": 0}, {"update": 30}],
    "least_squares_outlier_demo": [{"distance": 20.0}, {"distance": 0.0}],
    "soft_margin_demo": [{"C": 0.01}, {"C": 100.0}],
    "kernel_svm_demo": [{"kernel": "gaussian", "sigma": 0.05}, {"kernel": "linear"},
                        {"kernel": "polynomial", "degree": 3}],
    "kernel_points_demo": [{"kernel": "sigmoid"}, {"kernel": "gaussian", "C": 100.0}],
    "least_squares_points_demo": [],
}


@pytest.mark.parametrize("name", sorted(LIGHT_CLEARED))
def test_keeping_the_axes_between_frames_shows_what_clearing_them_shows(name):
    from course_lib.widgets import kernels, linear, points

    make = next(getattr(m, name) for m in (kernels, linear, points) if hasattr(m, name))
    kept, cleared = make(), make()
    assert kept.clear == "artists"
    cleared.clear = True
    for values in LIGHT_CLEARED[name]:
        kept.set(**values)
        cleared.set(**values)
        assert np.array_equal(_pixels(kept.png), _pixels(cleared.png)), values
    if hasattr(kept, "move"):  # a points demo: an edit too
        for demo in (kept, cleared):
            demo.move(len(demo.X) - 1, [demo.xlim[0] + 0.5, demo.ylim[1] - 0.5])
        assert np.array_equal(_pixels(kept.png), _pixels(cleared.png))
    with pytest.raises(ValueError, match="clear must be True, False or"):
        Demo(draw_line, {"C": log_slider("C", 1.0, -2, 2)}, clear="axes")


def test_the_png_of_a_frame_gives_back_the_canvas_pixels():
    """encode_png is lossless (RGBA, its two halves deflated apart and joined), at every height
    (one row, an odd number) and with transparent pixels."""
    demo = Demo(draw_line, {"C": log_slider("C", 1.0, -2, 2)}, width=3, height=2)
    rgba = np.asarray(demo.canvas.buffer_rgba())
    assert np.array_equal(_pixels(demo.png), rgba)
    see_through = rgba.copy()
    see_through[0, :5, 3] = 0
    assert np.array_equal(_pixels(encode_png(see_through)), see_through)
    for rows in (1, 2, 3, 101):
        noise = np.random.default_rng(rows).integers(0, 256, size=(rows, 57, 4), dtype=np.uint8)
        assert np.array_equal(_pixels(encode_png(noise)), noise), rows
    with pytest.raises(ValueError, match="rgba must be an \\(height, width, 4\\) uint8 array"):
        encode_png(rgba[..., :3])


def _every_demo():
    from course_lib.widgets import (
        kernels, linear, multiclass, perceptron, points, structured_chain, structured_learning,
        structured_models,
    )
    modules = (kernels, linear, multiclass, perceptron, points, structured_chain, structured_learning,
               structured_models)
    return {name: getattr(module, name) for module in modules for name in dir(module)
            if name.endswith("_demo") and not name.startswith("_")}


@pytest.mark.parametrize("name", sorted(_every_demo()))
def test_a_frame_drawn_over_the_kept_background_is_the_whole_figure_drawn(name):
    """Every demo, each control moved to the far end of its range (or its last option): the
    pixels drawn over the kept background equal those of the whole figure drawn again."""
    demo = _every_demo()[name]()
    backgrounds = []
    keep = demo._draw_background
    demo._draw_background = lambda: backgrounds.append(1) or keep()
    for control_name, control in demo.controls.items():
        options = getattr(control, "options", None)
        if options is not None:
            last = options[-1]
            value = last[1] if isinstance(last, tuple) else last
        else:
            value = control.base ** control.max if hasattr(control, "base") else control.max
        if control.disabled or value == control.value:
            continue
        demo.set(**{control_name: value})
        drawn = np.asarray(demo.canvas.buffer_rgba()).copy()
        demo.canvas.draw()
        assert np.array_equal(drawn, np.asarray(demo.canvas.buffer_rgba())), (control_name, value)
    if name in ("soft_margin_demo", "kernel_svm_demo", "hinge_gd_demo"):
        assert not backgrounds  # drawn when the demo was built (after its first frame solved the layout), then kept
