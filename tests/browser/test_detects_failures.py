"""The browser checks find what they are meant to find: each broken fixture notebook is broken
in one way, and the checks must report that problem (and only that one); the working fixtures
(good_demo, expected_error) must pass."""

from notebook_checks import check_notebook, code_problems


def problems_of(lab, root, page, name):
    problems = check_notebook(page, lab.url, root, f"fixtures/{name}.ipynb", workspace=name.replace("_", "-"))
    lab.shutdown_kernels()
    return problems


def test_a_callback_raising_on_slider_move_is_reported(lab, served_root, page):
    problems = problems_of(lab, served_root, page, "broken_callback")
    assert len(problems) == 1, problems
    assert problems[0].startswith("demo 1, slider 1 ('C'): moving it (1.00 -> 100) raised")
    assert problems[0].endswith("ValueError: drawing failed for C = 100.0")


def test_a_slider_not_wired_to_its_figure_is_reported(lab, served_root, page):
    problems = problems_of(lab, served_root, page, "unwired_slider")
    assert len(problems) == 1, problems
    assert "slider 1 ('C')" in problems[0] and "its figure did not change" in problems[0]


def test_a_cell_error_is_reported(lab, served_root, page):
    problems = problems_of(lab, served_root, page, "cell_error")
    assert any(p.startswith("error output in code cell 2") and "NameError" in p for p in problems), problems
    assert "code cells [3] (of 3) did not run" in problems


def test_a_widget_printed_as_text_is_reported(lab, served_root, page):
    problems = problems_of(lab, served_root, page, "widget_as_text")
    assert problems == [
        "widget shown as its text repr instead of rendered: Demo(children=(HBox(children=(VBox(children=(FloatLogSlider("
    ]


def test_a_working_demo_passes_and_visible_code_is_reported(lab, served_root, page):
    """The checks pass on a notebook known to work (so the tests above mean something); then
    the dashboard's no-code check, on JupyterLab's view of it (which shows code), finds code."""
    assert problems_of(lab, served_root, page, "good_demo") == []
    problems = code_problems(page)
    assert len(problems) == 1 and "code inputs are visible" in problems[0], problems
    assert "import numpy as np" in problems[0]


def test_an_error_the_lesson_expects_is_not_reported(lab, served_root, page):
    """A cell tagged raises-exception (a validation message shown on purpose) is no problem,
    and the cells after it run."""
    assert problems_of(lab, served_root, page, "expected_error") == []


def test_a_dropdown_choice_that_raises_is_reported(lab, served_root, page):
    problems = problems_of(lab, served_root, page, "broken_dropdown")
    assert problems == ["demo 1: choosing 'broken' raised ValueError: no drawing for the broken kernel"]
