"""A chapter's text speaks to a student, on the site, in JupyterLab and in class mode: about the
mathematics and the algorithm, not about the repository. No markdown cell of an English chapter
names a file of the test suite or of the benchmarks (`tests/...`, `benchmarks/...`), gives a
command (`python -m ...`, `python tools/...`, `pytest`, `make ...`), or says what "the tests"
check or that "this is the code that runs" (class mode hides the listing such a sentence points
at). A note for the curious may name them: a quoted paragraph that opens with a bold title,
such as "> **For the curious.** ...", is left out."""

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
# A path of the test suite or the benchmarks, anywhere in the text.
DEVELOPER_PATH = re.compile(r"(?<![\w/])(?:tests|benchmarks)/")
# A fenced block is pseudo-code of the lesson (the slides' algorithm), not a command.
FENCED = re.compile(r"```.*?```", re.S)
# A command, written as code.
COMMAND = re.compile(r"`\s*(?:python3?\s|pytest\b|make\s|jupyter\s|pip\s)[^`]*`")
# Sentences about the repository rather than the lesson.
DEVELOPER_WORDING = re.compile(r"\bthe tests\b|\bthe code that runs\b|\bnbval\b", re.I)


def without_notes(markdown):
    """The text of a markdown cell without its notes: each quoted paragraph (lines starting with
    '>') whose first line opens with a bold title is dropped."""
    kept, in_note = [], False
    for line in markdown.splitlines():
        if line.lstrip().startswith(">"):
            if not in_note and not (kept and kept[-1].lstrip().startswith(">")):
                in_note = line.lstrip().lstrip(">").lstrip().startswith("**")
            if in_note:
                continue
        else:
            in_note = False
        kept.append(line)
    return "\n".join(kept)


def developer_wording(markdown):
    """The passages of `markdown`, outside its notes, that speak of the repository."""
    text = FENCED.sub(" ", without_notes(markdown))
    return (
        [m.group(0) for m in COMMAND.finditer(text)]
        + [text[max(m.start() - 20, 0) : m.end() + 30] for m in DEVELOPER_PATH.finditer(text)]
        + [m.group(0) for m in DEVELOPER_WORDING.finditer(text)]
    )


def test_the_rule_finds_what_it_should():
    assert developer_wording("checked in `tests/test_chain.py`.")
    assert developer_wording("Timed with `python -m benchmarks svm`.")
    assert developer_wording("re-created by `python tools/train_ocr_chain.py`")
    assert developer_wording("to more than 5 times, which the tests check).")
    assert developer_wording("This is the code that runs:")
    assert developer_wording("> quoted, not a note: `pytest -q`")
    assert not developer_wording("> **For the curious.** `python -m benchmarks svm` re-runs the timing.")
    assert not developer_wording("On the test folds, the test words; checked against scikit-learn.")
    assert not developer_wording("```python\nfor feat in x:\n    w[gold][feat] += 1\n```")
    assert not developer_wording("`course_lib.tests` and `my_tests/` are no paths of the test suite")


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_chapter_text_speaks_to_a_student(path):
    found = [
        f"cell {index}: {hit!r}"
        for index, cell in enumerate(nbformat.read(path, as_version=4).cells)
        if cell.cell_type == "markdown"
        for hit in developer_wording(cell.source)
    ]
    assert found == [], (
        "developer wording in the chapter's text:\n" + "\n".join(found)
        + "\n(say what is checked and on what, for a student; a command or a path belongs in a "
        "note such as '> **For the curious.** ...')"
    )


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_no_sentence_points_at_a_listing_class_mode_hides(path):
    """Class mode hides a listing (a cell printing `inspect.getsource(...)` or tagged `source`), so the text just before
    one must read well without it: it ends its sentence instead of opening on the listing with ':'."""
    cells = nbformat.read(path, as_version=4).cells
    found = [
        f"cell {index}: ...{cell.source.rstrip()[-70:]!r}"
        for index, (cell, after) in enumerate(zip(cells, cells[1:]))
        if cell.cell_type == "markdown" and after.cell_type == "code"
        and ("getsource(" in after.source or "source" in after.metadata.get("tags", []))
        and cell.source.rstrip().endswith(":")
    ]
    assert found == [], "text that opens on a listing class mode hides:\n" + "\n".join(found)
