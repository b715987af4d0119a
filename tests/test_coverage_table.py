"""notebooks/README.md maps every syllabus ID to a notebook section, course_lib names and tests;
this keeps the table true: each cited heading, name and test exists."""

import importlib
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
# The syllabus of the four lectures: kernel methods, multiclass, averaged perceptron, structured, Viterbi.
SYLLABUS = (
    [f"K{i}" for i in range(1, 23)] + [f"M{i}" for i in range(1, 13)] + [f"P{i}" for i in range(1, 6)]
    + [f"S{i}" for i in range(1, 22)] + [f"V{i}" for i in range(1, 7)]
)


def table_rows():
    rows = {}
    for line in (NOTEBOOKS / "README.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and re.fullmatch(r"[KMPSV]\d+", cells[0]):
            rows[cells[0]] = cells[1:]
    return rows


def headings(notebook):
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return [line.lstrip("#").strip() for c in cells if c["cell_type"] == "markdown"
            for line in "".join(c["source"]).splitlines() if line.startswith("#")]


def tagged_ids(heading):
    return {t for tag in re.findall(r"\[([^\]]+)\]", heading) for t in re.split(r"[,\s]+", tag) if t}


def resolve(dotted):
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            obj = getattr(obj, name)
        return obj
    raise ImportError(dotted)


ROWS = table_rows()


def test_every_syllabus_id_has_a_row_and_a_tagged_heading():
    assert sorted(set(SYLLABUS) - set(ROWS)) == []
    tagged = set()
    for notebook in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"):
        for heading in headings(notebook):
            tagged |= tagged_ids(heading)
    assert sorted(set(SYLLABUS) - tagged) == []


@pytest.mark.parametrize("syllabus_id", SYLLABUS)
def test_row_points_to_things_that_exist(syllabus_id):
    section, names, tests = ROWS[syllabus_id]
    links = re.findall(r"\[([^\]]*(?:\[[^\]]*\][^\]]*)*)\]\(([^)#]+)(?:#[^)]*)?\)", section)
    assert links, f"{syllabus_id}: no notebook link in {section!r}"
    for text, target in links:
        notebook = NOTEBOOKS / target
        assert notebook.exists(), f"{syllabus_id}: {target} does not exist"
        found = [h for h in headings(notebook) if syllabus_id in tagged_ids(h)]
        assert found, f"{syllabus_id}: no heading of {target} is tagged [{syllabus_id}]"
    dotted = re.findall(r"`(course_lib[\w.]*)`", names)
    assert dotted, f"{syllabus_id}: no course_lib name in {names!r}"
    for name in dotted:
        resolve(name)
    cited = re.findall(r"`(tests/[\w/]+\.py)(?:::(\w+))?`", tests)
    assert cited, f"{syllabus_id}: no test cited in {tests!r}"
    for path, function in cited:
        source = (ROOT / path).read_text(encoding="utf-8")
        if function:
            assert re.search(rf"def {function}\b", source), f"{syllabus_id}: {path} has no {function}"
