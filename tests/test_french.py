"""The French edition stays in step with its English source (tools/french.py builds it).

For every chapter of `locale/fr/manifest.toml`'s `translated` list: every English cell and prose
string has a current translation (an entry fuzzy or missing is named by file and cell id); the
French notebooks' code is the English code apart from string literals and comments (token
streams compared, f-string fields included); a French entry states the same numbers as its
English (numbers written as in the English, decimal point); the committed French notebooks are
what the catalogs give; the glossary's French terms are the ones used. course_lib's catalog is
complete and its committed .mo is the compiled .po.
"""

import collections
import io
import re
import sys
import tokenize
import warnings
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import french  # noqa: E402

CHOSEN = french.manifest()
TRANSLATED = CHOSEN["translated"]
NUMBER = re.compile(r"\d+(?:\.\d+)?")


def stale(stem):
    """["file cell <id>: <state>: <English>"] of a chapter's entries not translated or out of date."""
    catalog = french.read_catalog(french.catalog_path(stem))
    problems = []
    for english, _ in french.sources(stem):
        where = english.relative_to(ROOT).as_posix()
        for cell_id, text, _ in french.entries(nbformat.read(english, as_version=4)):
            message = catalog.get(text, context=cell_id)
            state = ("missing" if message is None or not message.string
                     else "fuzzy (the English changed)" if message.fuzzy else None)
            if state:
                problems.append(f"{where} cell {cell_id}: {state}: {text[:60]!r}")
    return problems


def code_tokens(source):
    """The tokens of a code cell, strings and comments reduced to their f-string fields."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return [source]
    kept = []
    for token in tokens:
        if token.type == tokenize.COMMENT:
            continue
        if token.type in (tokenize.NL, tokenize.NEWLINE) and kept and kept[-1] == "\n":
            continue  # a comment's own line
        if token.type == tokenize.STRING:
            prefix = french.STRING_START.match(token.string).group(1).lower()
            kept.append(("str", tuple(french.FIELD.findall(token.string)) if "f" in prefix else ()))
        elif token.type in (tokenize.NL, tokenize.NEWLINE):
            kept.append("\n")
        else:
            kept.append(token.string)
    return kept


def numbers(text):
    return collections.Counter(NUMBER.findall(french.FIELD.sub("", text)))


def glossary_pairs():
    """[(English term, French term)] of notebooks/glossary.ipynb's tables, where a row pairs plain terms."""
    pairs = []
    for cell in nbformat.read(ROOT / "notebooks" / "glossary.ipynb", as_version=4).cells:
        for line in cell.source.splitlines():
            columns = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(columns) != 3 or columns[0].startswith(("French", "---")):
                continue
            fr, en = (re.sub(r"\*[^*]*\*|\([^)]*\)|;.*", "", c).split(",") for c in columns[:2])
            if len(fr) == len(en):
                pairs += [(e.strip(), f.strip()) for e, f in zip(en, fr)
                          if re.fullmatch(r"[a-z][a-z' -]+", e.strip()) and re.fullmatch(r"[^\W\d_][\w' -]+", f.strip())]
    return pairs


def term_pattern(term):
    """A term, any word of it in the singular or the plural."""
    words = [re.escape(w.rstrip("sx")) + r"(?:s|x|es)?" for w in term.split()]
    return re.compile(r"\b" + r"[\s-]+".join(words) + r"\b", re.IGNORECASE)


def translated_entries(stem):
    """[(where, cell id, English, French)] of a chapter's translated entries."""
    catalog = french.read_catalog(french.catalog_path(stem))
    return [(message.locations[0][0] if message.locations else stem, message.context, message.id, message.string)
            for message in catalog if message.id and message.string and not message.fuzzy]


def test_every_chapter_is_translated_or_listed_as_not_yet():
    chapters = {p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")} | {"glossary"}
    listed = set(TRANSLATED) | set(CHOSEN["not_yet"])
    assert chapters == listed, f"manifest.toml: not listed {sorted(chapters - listed)}, unknown {sorted(listed - chapters)}"
    assert not set(TRANSLATED) & set(CHOSEN["not_yet"])
    if CHOSEN["not_yet"]:
        warnings.warn("not yet in French: " + ", ".join(CHOSEN["not_yet"]), stacklevel=1)


@pytest.mark.parametrize("stem", TRANSLATED)
def test_every_entry_is_translated_and_current(stem):
    problems = stale(stem)
    assert not problems, (f"{french.catalog_path(stem).relative_to(ROOT)}: {len(problems)} entries to translate "
                          "(python tools/french.py, then edit the msgstr and remove the fuzzy flag):\n"
                          + "\n".join(problems))


@pytest.mark.parametrize("stem", TRANSLATED)
def test_french_code_is_the_english_code(stem):
    problems = []
    for english, french_path in french.sources(stem):
        fr_cells = {c.id: c for c in nbformat.read(french_path, as_version=4).cells}
        for cell in nbformat.read(english, as_version=4).cells:
            if cell.cell_type == "code" and code_tokens(cell.source) != code_tokens(fr_cells[cell.id].source):
                problems.append(f"{french_path.relative_to(ROOT)} cell {cell.id}")
        extra = set(fr_cells) - {c.id for c in nbformat.read(english, as_version=4).cells} - {french.LANGUAGE_CELL_ID}
        problems += [f"{french_path.relative_to(ROOT)}: cell {i} has no English cell" for i in sorted(extra)]
    assert not problems, "code differs from the English beyond strings and comments:\n" + "\n".join(problems)


@pytest.mark.parametrize("stem", TRANSLATED)
def test_french_states_the_english_numbers(stem):
    problems = [f"{where} cell {cell_id}: English {sorted(numbers(en).elements())} French {sorted(numbers(fr).elements())}"
                for where, cell_id, en, fr in translated_entries(stem) if numbers(en) != numbers(fr)]
    assert not problems, "numbers differ (write them as the English does, decimal point):\n" + "\n".join(problems)


@pytest.mark.parametrize("stem", TRANSLATED)
def test_built_notebooks_are_what_the_catalogs_give(stem):
    built, missing = french.build_chapter(stem, write=False)
    assert not missing
    for path, notebook in built.items():
        assert path.exists(), f"{path.relative_to(ROOT)} is missing: python tools/french.py"
        committed = nbformat.read(path, as_version=4)
        summary = [[(c.id, c.cell_type, c.source, c.metadata.get("tags")) for c in nb.cells] for nb in (notebook, committed)]
        assert summary[0] == summary[1], f"{path.relative_to(ROOT)} is not what its catalog gives: python tools/french.py"


def test_french_index_lists_the_manifest():
    assert (ROOT / "notebooks" / "fr" / "README.md").read_text(encoding="utf-8") == french.index(), \
        "notebooks/fr/README.md is not what the manifest gives: python tools/french.py"


@pytest.mark.parametrize("stem", [s for s in TRANSLATED if s != "glossary"])
def test_glossary_terms_are_used(stem):
    pairs = glossary_pairs()
    assert len(pairs) > 30, "the glossary's tables could not be read"
    problems = []
    for where, cell_id, en, fr in translated_entries(stem):
        if fr == en:  # a value the code uses (a key, an option), translated by itself
            continue
        for en_term, fr_term in pairs:
            if term_pattern(en_term).search(en) and not term_pattern(fr_term).search(fr):
                problems.append(f"{where} cell {cell_id}: '{en_term}' should be '{fr_term}'")
    assert not problems, "the glossary's French terms (notebooks/glossary.ipynb) are not used:\n" + "\n".join(problems)


def test_course_lib_catalog_is_complete_and_compiled():
    """Every string of the modules manifest.toml lists under `course_lib` is translated."""
    catalog = french.read_catalog(french.LIB_PO)
    problems = []
    modules = [f"course_lib/{m}" for m in CHOSEN["course_lib"]]
    for message in french.lib_template():
        if not any(path in modules for path, _ in message.locations):
            continue
        entry = catalog.get(message.id)
        if entry is None or not entry.string or entry.fuzzy:
            problems.append(f"{message.locations[0][0]}:{message.locations[0][1]}: {message.id[:60]!r}")
    assert not problems, "course_lib.po: entries to translate (python tools/french.py):\n" + "\n".join(problems)
    assert french.LIB_PO.with_suffix(".mo").read_bytes() == french.compiled(catalog), \
        "course_lib.mo is not the compiled course_lib.po: python tools/french.py"


def test_set_language_switches_course_lib_messages():
    import course_lib
    from course_lib.i18n import _

    message = next(m.id for m in french.read_catalog(french.LIB_PO) if m.id and m.string and not m.fuzzy)
    try:
        course_lib.set_language("fr")
        assert _(message) != message and course_lib.get_language() == "fr"
        course_lib.set_language("en")
        assert _(message) == message
        with pytest.raises(ValueError, match="language must be one of"):
            course_lib.set_language("de")
    finally:
        course_lib.set_language("en")


def test_course_lang_selects_french_at_import():
    import subprocess

    code = "import course_lib; from course_lib.i18n import _; print(course_lib.get_language(), _('Check'))"
    env = {"COURSE_LANG": "fr", "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["fr", "Vérifier"]


def test_the_check_catches_a_stale_entry(tmp_path, monkeypatch):
    """An English cell changed after its translation: the entry turns fuzzy, keeps the old English
    as previous msgid, is not used by the build, and the check names the cell."""
    stem = TRANSLATED[0] if TRANSLATED else pytest.skip("no chapter translated")
    english, _ = french.sources(stem)[0]
    notebook = nbformat.read(english, as_version=4)
    cell = next(c for c in notebook.cells if c.cell_type == "markdown")
    old_text = cell.source
    cell.source += "\n\nOne more sentence."
    copy = tmp_path / "notebooks" / english.name
    copy.parent.mkdir()
    nbformat.write(notebook, copy)
    (tmp_path / "locale").mkdir()
    po = tmp_path / "locale" / f"{stem}.po"
    po.write_bytes(french.catalog_path(stem).read_bytes())
    monkeypatch.setattr(french, "ROOT", tmp_path)
    monkeypatch.setattr(french, "sources", lambda s: [(copy, tmp_path / "fr" / copy.name)])
    monkeypatch.setattr(french, "catalog_path", lambda s: po)
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    french.update_chapter(stem)
    message = french.read_catalog(po).get(cell.source, context=cell.id)
    assert message.fuzzy and message.previous_id == [old_text]
    assert stale(stem) == [f"notebooks/{copy.name} cell {cell.id}: fuzzy (the English changed): {cell.source[:60]!r}"]
    _, missing = french.build_chapter(stem, write=False)
    assert [m[1] for m in missing] == [cell.id]


def test_the_checks_catch_a_changed_number_a_missing_term_and_changed_code():
    assert numbers("a margin of 0.5 at N = 1000") == numbers("une marge de 0.5 pour N = 1000")
    assert numbers("a margin of 0.5") != numbers("une marge de 0,5"), "a decimal comma is another number"
    assert ("support vectors", "vecteurs de support") in glossary_pairs()
    assert term_pattern("vecteurs de support").search("un vecteur de support")
    assert not term_pattern("vecteurs de support").search("les vecteurs supports")
    english = 'print(f"margin {rho:.2f}")  # the margin'
    assert code_tokens(english) == code_tokens('print(f"marge {rho:.2f}")  # la marge')
    assert code_tokens(english) != code_tokens('print(f"marge {rho:.3f}")')
    assert code_tokens(english) != code_tokens('print(f"marge {rho:.2f}", 1)')
