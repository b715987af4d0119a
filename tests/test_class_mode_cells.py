"""What the class mode (`make class`) shows of each chapter's printed text: no check printout
such as "KKT conditions of the dual hold: True", a verdict in Python's words, which speaks to a
student reading alone (notebooks/README.md, "For authors": such a cell is tagged `code-output`,
or `claim` when it asserts). The cells the class mode hides are read from its template, so this
test follows the template's rules; the browser tests check the page itself."""

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "share" / "jupyter" / "voila" / "templates" / "course" / "index.html.j2"
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")) + sorted((ROOT / "notebooks" / "fr").glob("[0-9][0-9]_*.ipynb"))
# A printed boolean: a check's verdict. (Printed dicts stay: chapter 09's weights are dicts.)
CHECK_PRINTOUT = re.compile(r"\b(True|False)\b")


def template_rules():
    """The tags and the code fragments that hide a cell in class mode, as the template lists them."""
    text = TEMPLATE.read_text(encoding="utf-8")
    tags = re.findall(r"'([^']+)'", re.search(r"set HIDDEN_TAGS = \[([^\]]*)\]", text).group(1))
    rule = re.search(r"macro hidden_in_class.*?endmacro", text, re.S).group(0)
    fragments = re.findall(r"'([^']+)' in code", rule)
    return set(tags), fragments


def shown_printouts(path):
    """(cell index, printed text) of each code cell the class mode shows with a printed output."""
    tags, fragments = template_rules()
    for index, cell in enumerate(nbformat.read(path, as_version=4).cells):
        if cell.cell_type != "code":
            continue
        if tags & set(cell.metadata.get("tags", [])) or "exercise" in cell.metadata:
            continue
        if any(fragment in cell.source for fragment in fragments):
            continue
        text = "".join(o.get("text", "") for o in cell.get("outputs", []) if o.output_type == "stream")
        if text:
            yield index, text


def shown_lines_matching(path, pattern):
    """Each printed line class mode shows that `pattern` finds, as "cell N: line"."""
    return [f"cell {index}: {line.strip()[:100]}" for index, text in shown_printouts(path)
            for line in text.splitlines() if pattern.search(line)]


def test_the_rules_are_read_from_the_template():
    tags, fragments = template_rules()
    assert {"claim", "code-output", "exercise", "hide-in-class"} <= tags
    assert "ex.check_" in fragments and "perf_counter" in fragments


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.relative_to(ROOT / "notebooks").as_posix())
def test_class_mode_shows_no_check_printout(path):
    found = shown_lines_matching(path, CHECK_PRINTOUT)
    hint = " (tag the cell `code-output`; French chapters take the English tags from `python tools/french.py`)"
    assert found == [], "shown in class mode:\n" + "\n".join(found) + hint


# A name of code (geometric_margin, ssvm_scaling): words of the library, not of the lecture. A
# one-letter subscript (h_w, E_percp) is math and stays.
CODE_NAME = re.compile(r"\b[a-z][a-z0-9]+_[a-z0-9_]*[a-z0-9]\b")


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.relative_to(ROOT / "notebooks").as_posix())
def test_class_mode_prints_no_name_of_code(path):
    found = shown_lines_matching(path, CODE_NAME)
    hint = " (word it for the room, or tag the cell `code-output` if it is meant for a reader alone)"
    assert found == [], "shown in class mode:\n" + "\n".join(found) + hint


def hidden_figures(path):
    """(cell index, why) of each code cell the class mode hides although it draws a figure or a
    demo, except the exercises' and those hidden on purpose (`hide-in-class`)."""
    tags, fragments = template_rules()
    for index, cell in enumerate(nbformat.read(path, as_version=4).cells):
        own = set(cell.metadata.get("tags", []))
        if cell.cell_type != "code" or {"exercise", "hide-in-class"} & own or "exercise" in cell.metadata:
            continue
        why = sorted(tags & own) + [fragment for fragment in fragments if fragment in cell.source]
        drawn = any(key.startswith("image/") or key.endswith("widget-view+json") or "<img" in str(value)
                    for output in cell.get("outputs", []) for key, value in output.get("data", {}).items())
        if why and drawn:
            yield index, why


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.relative_to(ROOT / "notebooks").as_posix())
def test_class_mode_hides_no_figure(path):
    """A cell that prints a listing (or times code, or checks an exercise) is hidden in class mode
    whole: a figure drawn by the same cell would go with it."""
    found = [f"cell {index}: hidden by {why}" for index, why in hidden_figures(path)]
    assert found == [], "a figure class mode does not show:\n" + "\n".join(found) + " (draw it in a cell of its own)"
