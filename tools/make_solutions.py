"""Generate the solutions notebooks from the chapters and one source file of solutions.

    python tools/make_solutions.py                 # every chapter with a notebooks/solutions/src/NN.py
    python tools/make_solutions.py 05 11           # only these chapters
    python tools/make_solutions.py --no-execute    # write the cells, do not run them

The convention (also in notebooks/README.md, "Exercises and their solutions"):

- Chapter `notebooks/NN_name.ipynb`, solutions source `notebooks/solutions/src/NN.py`, result
  `notebooks/solutions/NN_solutions.ipynb`. Chapters without a source file are left alone.
- The source is cut into sections by lines `# %% <name>` (Python: the worked solution of the
  exercise `<name>`) and `# %% markdown: <name>` (a written answer: every line `# text` or `#`).
  Lines before the first section are a header and are not copied.
- The solutions notebook holds, in order:
  1. a title cell linking back to the chapter;
  2. the chapter's code cells tagged `setup` (imports and the data the exercises use);
  3. the chapter's exercises section: every cell from the markdown cell tagged `exercises`
     (the section's heading) to the end of the chapter, where each code cell tagged `exercise`
     (cell metadata `"exercise": "<name>"`, the stub the student fills in) is replaced by the
     section `# %% <name>`, followed by the markdown cell of `# %% markdown: <name>` if there
     is one. Other cells (text, `quiz` cells) are copied as they are, except that a relative link
     of a markdown cell is rewritten to lead to the same file from `solutions/` (the chapter's
     `solutions/NN_solutions.ipynb` becomes `NN_solutions.ipynb`, `glossary.ipynb` becomes
     `../glossary.ipynb`).
- Every `exercise` cell needs its section `# %% <name>` and every section its `exercise` cell;
  names are unique. The tool stops with an error naming what is missing.
- Then the notebook is executed (`tools/refresh_notebooks.py`) to store its outputs, unless
  `--no-execute`. Edit the chapter or the source file, never the generated notebook:
  `tests/test_solutions_source.py` fails when the two drift.
"""

import argparse
import posixpath
import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
SECTION = re.compile(r"^# %%[ \t]+(?:(markdown):[ \t]*)?(\S.*?)\s*$")
ID_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")
# A link target of Markdown (`](target)`) or HTML (`href="target"`, `src="target"`) that is a
# relative path: no scheme, not `/...`, not `#...`.
RELATIVE_LINK = re.compile(r"""(\]\(|\b(?:href|src)=["'])(?![a-zA-Z][a-zA-Z0-9+.-]*:|/|#)([^)"'\s]+)""")


def _cell_id(*parts):
    return ID_UNSAFE.sub("-", "-".join(parts))[:64]


def parse_source(text, origin="source"):
    """{"code": {name: source}, "markdown": {name: text}} from a solutions source file."""
    sections = {"code": {}, "markdown": {}}
    kind = name = None
    lines = []

    def close():
        if name is None:
            return
        body = "\n".join(lines).strip("\n")
        if kind == "markdown":
            bad = [line for line in lines if line.strip() and not (line == "#" or line.startswith("# "))]
            if bad:
                raise ValueError(f"{origin}: section 'markdown: {name}' has a line that is not a '# ' "
                                 f"comment: {bad[0]!r}")
            body = "\n".join(line[2:] for line in lines).strip("\n")
        if not body.strip():
            raise ValueError(f"{origin}: section '{name}' is empty")
        if name in sections[kind]:
            raise ValueError(f"{origin}: two sections '{'markdown: ' if kind == 'markdown' else ''}{name}'")
        sections[kind][name] = body

    for line in text.splitlines():
        match = SECTION.match(line)
        if match:
            close()
            kind, name, lines = ("markdown" if match.group(1) else "code"), match.group(2), []
        elif name is not None:
            lines.append(line)
    close()
    return sections


def _tags(cell):
    return list(cell.get("metadata", {}).get("tags", []))


def exercise_name(cell):
    """The exercise name of a stub cell (tag `exercise`, metadata "exercise"), else None."""
    if cell.cell_type != "code" or "exercise" not in _tags(cell):
        return None
    name = cell.metadata.get("exercise")
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"cell {cell.get('id')} is tagged `exercise` but has no metadata \"exercise\": \"<name>\"")
    return name.strip()


def from_solutions(markdown):
    """`markdown` of a chapter with its relative links leading to the same files from the
    solutions/ folder beside the chapter."""
    def rebase(match):
        path, hash_, fragment = match.group(2).partition("#")
        moved = posixpath.relpath(posixpath.normpath(path), "solutions") if path else ""
        return match.group(1) + moved + hash_ + fragment
    return RELATIVE_LINK.sub(rebase, markdown)


def _copy(cell):
    new = nbformat.from_dict(dict(cell))
    new.metadata = nbformat.from_dict(dict(cell.metadata))
    new.metadata.pop("execution", None)
    if new.cell_type == "code":
        new.outputs, new.execution_count = [], None
    elif new.cell_type == "markdown":
        new.source = from_solutions(new.source)
    return new


def build(chapter, source_text, number, chapter_file, origin="source"):
    """The solutions notebook (nbformat node) of chapter `number` (a notebook node, read from
    `chapter_file`) and the text of its solutions source."""
    sections = parse_source(source_text, origin)
    starts = [i for i, c in enumerate(chapter.cells) if c.cell_type == "markdown" and "exercises" in _tags(c)]
    if len(starts) != 1:
        raise ValueError(f"{chapter_file}: {len(starts)} markdown cells tagged `exercises`; the exercises "
                         "section starts at exactly one")
    start = starts[0]
    title = nbformat.v4.new_markdown_cell(
        f"# {number} · Solutions\n\nWorked solutions of the exercises of [{chapter_file}](../{chapter_file}), "
        "each checked by the same check as in the chapter.\n\n*Generated by `python tools/make_solutions.py` "
        f"from the chapter and `solutions/src/{number}.py`: edit those, not this notebook.*")
    title.id = "solutions-title"
    cells = [title]
    cells += [_copy(c) for c in chapter.cells[:start] if c.cell_type == "code" and "setup" in _tags(c)]
    used = set()
    for cell in chapter.cells[start:]:
        name = exercise_name(cell)
        if name is None:
            cells.append(_copy(cell))
            continue
        if name in used:
            raise ValueError(f"{chapter_file}: two `exercise` cells named '{name}'")
        if name not in sections["code"]:
            raise ValueError(f"{chapter_file}: exercise '{name}' has no section '# %% {name}' in {origin}")
        used.add(name)
        solution = nbformat.v4.new_code_cell(sections["code"][name])
        solution.metadata = {"tags": [t for t in _tags(cell) if t != "exercise"] + ["solution"],
                             "solution": name}
        solution.id = _cell_id("solution", name)
        cells.append(solution)
        if name in sections["markdown"]:
            text = nbformat.v4.new_markdown_cell(sections["markdown"][name])
            text.metadata = {"solution": name}
            text.id = _cell_id("solution-text", name)
            cells.append(text)
    extra = sorted((set(sections["code"]) | set(sections["markdown"])) - used)
    if extra:
        raise ValueError(f"{origin}: sections {extra} have no `exercise` cell of that name in the exercises "
                         f"section of {chapter_file}")
    notebook = nbformat.v4.new_notebook(cells=cells, metadata=nbformat.from_dict(dict(chapter.metadata)))
    notebook.metadata.pop("widgets", None)
    notebook.nbformat, notebook.nbformat_minor = chapter.nbformat, max(chapter.nbformat_minor, 5)
    return notebook


def chapter_number(path):
    return Path(path).name[:2]


def chapters_with_sources(notebooks=NOTEBOOKS, only=()):
    """(number, chapter path, source path, solutions path) of each chapter with a source file."""
    found = []
    for source in sorted((notebooks / "solutions" / "src").glob("[0-9][0-9].py")):
        number = source.stem
        if only and number not in only:
            continue
        chapters = sorted(notebooks.glob(f"{number}_*.ipynb"))
        if len(chapters) != 1:
            raise ValueError(f"{source}: expected one chapter {number}_*.ipynb, found {len(chapters)}")
        found.append((number, chapters[0], source, notebooks / "solutions" / f"{number}_solutions.ipynb"))
    return found


def generate(notebooks=NOTEBOOKS, out=None, only=()):
    """Write the solutions notebook of every chapter with a source file; return the paths.
    out: another folder for the results (the test writes into a temporary one)."""
    written = []
    for number, chapter_path, source, target in chapters_with_sources(notebooks, only):
        chapter = nbformat.read(chapter_path, as_version=4)
        notebook = build(chapter, source.read_text(encoding="utf-8"), number, chapter_path.name,
                          origin=f"solutions/src/{source.name}")
        nbformat.validate(notebook)
        target = (out / target.name) if out else target
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(notebook, target)
        written.append(target)
    return written


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("chapters", nargs="*", help="chapter numbers (default: every chapter with a source)")
    parser.add_argument("--no-execute", action="store_true", help="write the cells without running them")
    parser.add_argument("--notebooks", type=Path, default=NOTEBOOKS, help="the chapters' folder")
    args = parser.parse_args(argv)
    written = generate(args.notebooks.resolve(), only=tuple(args.chapters))
    if not written:
        print("no notebooks/solutions/src/NN.py: nothing to generate")
    for path in written:
        print(f"wrote {path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path}", flush=True)
        if not args.no_execute:
            sys.path.insert(0, str(ROOT / "tools"))
            from refresh_notebooks import refresh

            print(f"  executed in {refresh(path):.1f} s", flush=True)


if __name__ == "__main__":
    main()
