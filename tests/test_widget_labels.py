"""What a student reads on a demo's controls and a static grid's panels: the slides' symbols and
words, never a Python name (w_object, n_epochs) or an underscore written for a subscript."""

import importlib
import inspect
import re

import pytest

from course_lib.i18n import set_language
from course_lib.widgets.core import SYMBOLS, panel_title

MODULES = ["kernels", "linear", "multiclass", "perceptron", "points", "structured_chain",
           "structured_learning", "structured_models"]
DEMOS = [(module, name) for module in MODULES
         for name, function in inspect.getmembers(importlib.import_module(f"course_lib.widgets.{module}"),
                                                  inspect.isfunction)
         if function.__module__ == f"course_lib.widgets.{module}" and name.endswith("_demo")
         and not name.startswith("_")]


def _walk(widget):
    yield widget
    for child in getattr(widget, "children", None) or ():
        yield from _walk(child)


def shown(text, html=False, figure=False):
    """The text a reader sees: in a figure, without its math ($...$, typeset by matplotlib); in an
    HTML label, without its <sub> and <sup> tags. A control's label is not typeset: TeX would show."""
    if figure:
        return re.sub(r"\$[^$]*\$", "", text)
    return re.sub(r"</?(sub|sup)>", "", text) if html else text


def looks_like_code(text):
    """A Python name, a subscript written with an underscore (w_object, n_iter, x_1) or TeX."""
    return "_" in text or "$" in text or "\\" in text or re.search(r"\b[a-z]+[A-Z]\w*\b", text) is not None


def labels(demo):
    """(where, text, is HTML) for every label, option and tooltip of a demo's controls."""
    found = []
    for widget in _walk(demo):
        description = getattr(widget, "description", "")
        if description:
            found.append((type(widget).__name__, description, getattr(widget, "description_allow_html", False)))
        if getattr(widget, "tooltip", None):
            found.append((type(widget).__name__ + " tooltip", widget.tooltip, False))
        for option in getattr(widget, "_options_labels", ()):
            found.append((type(widget).__name__ + " option", option, False))
    return found


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("module, name", DEMOS)
def test_every_label_a_demo_shows_is_written_for_a_student(module, name, language):
    set_language(language)
    try:
        demo = getattr(importlib.import_module(f"course_lib.widgets.{module}"), name)()
        found = labels(demo)
    finally:
        set_language("en")
    assert found, f"{name} shows no label"
    raw = [(where, text) for where, text, html in found if looks_like_code(shown(text, html))]
    assert not raw, f"{name} shows Python names or underscores: {raw}"
    assert all(not html or re.fullmatch(r"[^<>]*(<(sub|sup)>[^<>]*</(sub|sup)>[^<>]*)*", text)
               for _where, text, html in found), "an HTML label only uses <sub> and <sup>"


@pytest.mark.parametrize("name", sorted(SYMBOLS))
def test_every_symbol_of_a_static_grid_panel_is_written_for_a_student(name):
    title = panel_title("", {name: 1.0})
    assert not looks_like_code(shown(title, figure=True)), title


def test_the_box_weights_are_written_with_subscripts():
    from course_lib.widgets.structured_models import box_inference_demo
    texts = {text for _where, text, _html in labels(box_inference_demo())}
    assert texts == {"w<sub>obj</sub>", "w<sub>bg</sub>"}
    assert panel_title("", {"w_object": 1.0, "w_background": -1.0}) == \
        "$w_{\\mathrm{obj}}$ = 1, $w_{\\mathrm{bg}}$ = -1"


def test_a_panel_title_is_wrapped_by_the_text_it_shows():
    """$w_{\\mathrm{obj}}$ shows 5 characters, not 18: the settings and the drawing's numbers fit on one line."""
    from course_lib.plotting.structured_models import draw_box_inference
    from course_lib.widgets.core import static_grid
    fig = static_grid(draw_box_inference, [{"w_object": 1.0, "w_background": -0.2}], ncols=1)
    assert fig.axes[0].get_title() == "$w_{\\mathrm{obj}}$ = 1, $w_{\\mathrm{bg}}$ = -0.2: $\\Delta(y, \\hat y)$ = 0.60"


def test_a_panel_title_is_never_cut_inside_its_math():
    """Chapter 01's epochs showed "$E_{percp} =" and "8.44$": a cut inside TeX shows the TeX itself.
    (The title is wrapped to its panel when the figure is shown.)"""
    from course_lib.widgets.core import static_grid

    def draw(ax, epoch):
        ax.set_title(f"after epoch {epoch}: 7 errors, a long line of text, $E_{{percp}} = 8.44$, $x = 1$")

    fig = static_grid(draw, [{"epoch": 1}], ncols=1, width=2.5)
    fig._repr_html_()
    lines = fig.axes[0].get_title().split("\n")
    assert len(lines) > 1 and all(line.count("$") % 2 == 0 for line in lines), lines
