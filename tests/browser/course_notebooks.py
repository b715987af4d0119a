"""Where the notebooks under test are: the project's chapters and solutions, discovered when
the tests are collected, and the fixture notebooks of the browser tests."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def chapter_notebooks():
    """Notebook paths relative to the served root: chapters (NN_name.ipynb), then solutions."""
    found = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")) + sorted(NOTEBOOKS.glob("solutions/*.ipynb"))
    return [f"notebooks/{path.relative_to(NOTEBOOKS).as_posix()}" for path in found]
