"""Every notebook, run top to bottom in JupyterLab in a real browser: no error output, every
widget renders, every Demo shows its figure, and moving each slider to both ends re-draws the
figure without an error. Notebooks are discovered when the tests are collected, so a new
chapter is covered as soon as it exists."""

import pytest

from course_notebooks import chapter_notebooks
from notebook_checks import check_notebook


@pytest.mark.parametrize("path", chapter_notebooks())
def test_notebook_widgets_work_in_jupyterlab(lab, served_root, page, path):
    problems = check_notebook(page, lab.url, served_root, path, workspace=path.replace("/", "-").removesuffix(".ipynb"))
    lab.shutdown_kernels()
    assert problems == [], f"{path} in JupyterLab:\n" + "\n".join(f"- {p}" for p in problems)

