"""Every notebook, run top to bottom in JupyterLab in a real browser: no error output, every
widget renders, every Demo shows its figure, and moving each slider to both ends re-draws the
figure without an error. Then, its demos live, axe finds no serious or critical accessibility
violation in its text and outputs (a slider's handle needs a name: the project's JupyterLab
extension gives it its slider's label). Notebooks are discovered when the tests are collected,
so a new chapter is covered as soon as it exists."""

import pytest

from axe_check import serious_violations
from course_notebooks import chapter_notebooks
from notebook_checks import PANEL, check_notebook

OURS = [f"{PANEL} .jp-MarkdownOutput", f"{PANEL} .jp-OutputArea"]  # not Lab's menus and bars


@pytest.mark.parametrize("path", chapter_notebooks())
def test_notebook_widgets_work_and_are_accessible_in_jupyterlab(lab, served_root, page, path):
    workspace = path.replace("/", "-").removesuffix(".ipynb")
    try:
        problems = check_notebook(page, lab.url, served_root, path, workspace=workspace)
        assert problems == [], f"{path} in JupyterLab:\n" + "\n".join(f"- {p}" for p in problems)
        violations = serious_violations(page, include=OURS)
        assert violations == [], f"{path} in JupyterLab, run:\n" + "\n".join(f"- {v}" for v in violations)
    finally:
        lab.shutdown_kernels()
