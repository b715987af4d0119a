"""The in-class mode (`make class`): Voila serves a notebook as a dashboard with its text,
widgets and figures but no code, and the sliders re-draw the figures."""

import pytest

from course_notebooks import chapter_notebooks
from notebook_checks import check_voila, expected_error_cells


def dashboards():
    """The fixture demo, and chapter 01 (the default of `make class`) once it exists."""
    chapters = [path for path in chapter_notebooks() if path.startswith("notebooks/01_")]
    return ["fixtures/good_demo.ipynb"] + chapters


@pytest.mark.parametrize("path", dashboards())
def test_voila_shows_widgets_without_code(voila, served_root, page, path):
    problems = check_voila(page, f"{voila.url}/voila/render/{path}", expected_error_cells(served_root / path))
    assert problems == [], f"{path} in Voila:\n" + "\n".join(f"- {p}" for p in problems)
    assert page.locator(".course-demo").count() >= 1, "no Demo on the dashboard"
