"""Solutions have one source: each `notebooks/solutions/NN_solutions.ipynb` with a
`notebooks/solutions/src/NN.py` is what `tools/make_solutions.py` makes of the chapter and that
file (cell types, sources and tags; outputs are not compared). The fixture chapter in
`tests/fixtures/solutions_demo/` checks the tool end to end, execution included."""

import os
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import make_solutions  # noqa: E402

FIXTURE = ROOT / "tests" / "fixtures" / "solutions_demo"


def cell_summary(notebook):
    return [(c.cell_type, c.source, sorted(c.get("metadata", {}).get("tags", []))) for c in notebook.cells]


def drifted(committed_folder, generated):
    """Names of committed notebooks that differ from their generated version, with the first
    differing cell."""
    problems = []
    for path in generated:
        committed = committed_folder / path.name
        if not committed.exists():
            problems.append(f"{committed.name} is missing")
            continue
        old, new = cell_summary(nbformat.read(committed, 4)), cell_summary(nbformat.read(path, 4))
        if old != new:
            index = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
            problems.append(f"{committed.name} differs from its source at cell {index} "
                            f"({len(old)} cells committed, {len(new)} generated)")
    return problems


def test_committed_solutions_are_generated_from_their_source(tmp_path):
    generated = make_solutions.generate(out=tmp_path)
    problems = drifted(ROOT / "notebooks" / "solutions", generated)
    assert not problems, ("; ".join(problems) + ". Edit the chapter or notebooks/solutions/src/NN.py, then run "
                          "`python tools/make_solutions.py`.")


def exercise_names(chapter):
    return [make_solutions.exercise_name(c) for c in chapter.cells if make_solutions.exercise_name(c)]


@pytest.mark.parametrize("folder", [ROOT / "notebooks", FIXTURE], ids=["chapters", "fixture"])
def test_every_exercise_has_a_solution_and_every_solution_an_exercise(folder):
    for number, chapter_path, source, _ in make_solutions.chapters_with_sources(folder):
        sections = make_solutions.parse_source(source.read_text(encoding="utf-8"))
        names = exercise_names(nbformat.read(chapter_path, 4))
        assert len(names) == len(set(names)), f"{chapter_path.name}: two exercise cells share a name"
        assert sorted(names) == sorted(sections["code"]), (
            f"{chapter_path.name}: exercise cells {sorted(names)} and sections of {source.name} "
            f"{sorted(sections['code'])} differ")
        assert set(sections["markdown"]) <= set(names), f"{source.name}: a markdown section without exercise"
    for chapter_path in sorted(folder.glob("[0-9][0-9]_*.ipynb")):
        names = exercise_names(nbformat.read(chapter_path, 4))
        source = folder / "solutions" / "src" / f"{chapter_path.name[:2]}.py"
        assert not names or source.exists(), f"{chapter_path.name} has exercise cells but no {source}"


def test_fixture_chapter_gives_the_expected_solutions_notebook(tmp_path, monkeypatch):
    (path,) = make_solutions.generate(FIXTURE, out=tmp_path)
    assert path.name == "99_solutions.ipynb"
    notebook = nbformat.read(path, 4)
    kinds = [(c.cell_type, c.metadata.get("tags", []), c.source.splitlines()[0]) for c in notebook.cells]
    assert kinds == [
        ("markdown", [], "# 99 · Solutions"),
        ("code", ["setup"], "import numpy as np"),
        ("markdown", ["exercises"], "## Exercises"),
        ("markdown", [], "**1.** Write `signed_distances(w, w0, X)`: the signed distance of every row of `X`."),
        ("code", ["solution"], "def signed_distances(w, w0, X):"),
        ("markdown", [], "One matrix product gives $h(\\mathbf{x}) = \\mathbf{w}^\\top\\mathbf{x} + w_0$ for every row,"),
        ("markdown", [], "**2.** The signed distance of $\\mathbf{x} = (4, 3)$ to $3 x_1 + 4 x_2 - 10 = 0$?"),
        ("code", ["solution"], "ex.check_distance_value(14 / 5)"),
        ("markdown", [], "**3.** A concept question."),
        ("code", ["quiz"], "from course_lib.exercises.harness import Choice, Quiz"),
    ]
    assert "[99_demo.ipynb](../99_demo.ipynb)" in notebook.cells[0].source
    # the chapter's lesson cells (not tagged setup) stay out; ids are unique and valid
    assert "print(np.linalg.norm(w))" not in [c.source for c in notebook.cells]
    assert len({c.id for c in notebook.cells}) == len(notebook.cells)
    nbformat.validate(notebook)
    # run it: every solution passes its check; the chapter's stubs do not
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), str(FIXTURE)]))
    NotebookClient(notebook, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    shown = [o["data"]["text/plain"] for c in notebook.cells if "solution" in c.metadata.get("tags", [])
             for o in c.outputs if "data" in o]
    assert len(shown) == 2 and all(s.startswith("Right.") for s in shown), shown


def _chapter_with(tmp_path, source_text, cells):
    folder = tmp_path / "nbs"
    (folder / "solutions" / "src").mkdir(parents=True)
    nbformat.write(nbformat.v4.new_notebook(cells=cells), folder / "98_x.ipynb")
    (folder / "solutions" / "src" / "98.py").write_text(source_text)
    return folder


def _exercise(name):
    cell = nbformat.v4.new_code_cell("...")
    cell.metadata.update(tags=["exercise"], exercise=name)
    return cell


def _heading():
    cell = nbformat.v4.new_markdown_cell("## Exercises")
    cell.metadata["tags"] = ["exercises"]
    return cell


@pytest.mark.parametrize("source, cells, message", [
    ("# %% a\nx = 1\n", [_heading(), _exercise("a"), _exercise("b")], "exercise 'b' has no section"),
    ("# %% a\nx = 1\n# %% b\ny = 2\n", [_heading(), _exercise("a")], "have no `exercise` cell"),
    ("# %% a\nx = 1\n# %% a\ny = 2\n", [_heading(), _exercise("a")], "two sections 'a'"),
    ("# %% a\nx = 1\n# %% markdown: a\nnot a comment\n", [_heading(), _exercise("a")], "not a '# ' comment"),
    ("# %% a\nx = 1\n", [_exercise("a")], "0 markdown cells tagged `exercises`"),
    ("# %% a\n\n", [_heading(), _exercise("a")], "is empty"),
])
def test_mismatches_stop_the_tool_with_a_clear_error(tmp_path, source, cells, message):
    folder = _chapter_with(tmp_path, source, cells)
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace("`", "`")):
        make_solutions.generate(folder, out=tmp_path / "out")


def test_drift_is_reported_with_the_notebook_name(tmp_path):
    (generated,) = make_solutions.generate(FIXTURE, out=tmp_path / "new")
    committed = tmp_path / "committed"
    committed.mkdir()
    notebook = nbformat.read(generated, 4)
    notebook.cells[4].source += "\n# edited by hand"
    nbformat.write(notebook, committed / generated.name)
    assert drifted(committed, [generated]) == [
        "99_solutions.ipynb differs from its source at cell 4 (10 cells committed, 10 generated)"]
    assert drifted(tmp_path / "nowhere", [generated]) == ["99_solutions.ipynb is missing"]
