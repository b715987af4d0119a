"""The French edition stays in step with its English source (tools/french.py builds it).

For every chapter of `locale/fr/manifest.toml`'s `translated` list: every English cell and prose
string has a current translation (an entry fuzzy or missing is named by file and cell id); the
French notebooks' code is the English code apart from string literals and comments (token
streams compared, f-string fields included); a French entry states the same numbers as its
English (numbers written as in the English, decimal point) and never a comma between thousands;
the committed French notebooks are what the catalogs give; the glossary's French terms, those of
the chapter's own lectures, are the ones used. course_lib's catalog is complete and its committed
.mo is the compiled .po; every catalog passes `msgfmt -c --check-format`; course_lib raises no error
with an English f-string or literal message, and its errors read in French after set_language("fr").
"""

import collections
import io
import math
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


SECTIONS = re.compile(r"\[([KMPSV])\d")  # the lecture of a syllabus ID: [K9], [M10], ...


def glossary_pairs():
    """[(English term, French term, lectures)] of notebooks/glossary.ipynb's tables, where a row pairs
    plain terms; lectures: the letters of the row's IDs ("K", "MS", ...). A term the slides write in
    English is in italics in the French column and stands as it is; notes in parentheses are left out."""
    pairs = []
    for cell in nbformat.read(ROOT / "notebooks" / "glossary.ipynb", as_version=4).cells:
        for line in cell.source.splitlines():
            columns = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(columns) != 3 or columns[0].startswith(("French", "---")):
                continue
            lectures = "".join(sorted(set(re.findall(r"[KMPSV](?=\d)", columns[2]))))
            french = re.sub(r"\*([^*]+)\*\s*\*\(EN in the slides; in French: ([^)]*)\)\*", r"\1 / \2", columns[0])
            fr, en = (re.sub(r"\*\([^)]*\)\*|\([^)]*\)|;.*", "", c).replace("*", "").split(",") for c in (french, columns[1]))
            if len(fr) == len(en):
                pairs += [(e.strip(), f.strip(), lectures) for e, alternatives in zip(en, fr) for f in alternatives.split(" / ")
                          if re.fullmatch(r"[a-z][a-z' -]+", e.strip()) and re.fullmatch(r"[^\W\d_][\w' -]+", f.strip())]
    return pairs


def chapter_lectures(stem):
    """The lectures ("K", "M", ...) whose syllabus IDs a chapter's English notebook cites."""
    notebook = nbformat.read(ROOT / "notebooks" / f"{stem}.ipynb", as_version=4)
    return {letter for cell in notebook.cells for letter in SECTIONS.findall(cell.source)}


QUOTED_FRENCH = re.compile(r'\(\*[^()*]+\*\)|"[^"]{1,200}"')


def term_problems(entries, pairs, lectures):
    """["where cell id: 'English term' should be 'French term'"] of translated entries [(where, cell id,
    English, French)] whose English uses a glossary term and whose French does not use its French.
    Where lectures write one English term differently, the terms of the chapter's `lectures` are the
    ones asked for (any of them if no lecture of the chapter has the term). A term inside a longer one
    ("hinge loss" in "generalised hinge loss") is held to the longer one only; the slides' French
    quoted in the English, in italics between parentheses ("(*hinge loss généralisé*)") or in quotes
    (a slide's title, "Hinge Loss généralisé"), is not English."""
    french_of = collections.defaultdict(list)
    for en_term, fr_term, letters in pairs:
        french_of[en_term].append((fr_term, letters))
    problems = []
    for where, cell_id, en, fr in entries:
        if fr == en:  # a value the code uses (a key, an option), translated by itself
            continue
        en = QUOTED_FRENCH.sub(" ", en)
        for en_term in sorted(french_of, key=len, reverse=True):
            pattern = term_pattern(en_term)
            if not pattern.search(en):
                continue
            own = [f for f, letters in french_of[en_term] if set(letters) & lectures]
            wanted = own or [f for f, _ in french_of[en_term]]
            found = [f for f in wanted if term_pattern(f).search(fr)]
            if not found:
                problems.append(f"{where} cell {cell_id}: '{en_term}' should be " + " or ".join(f"'{f}'" for f in wanted))
            en = pattern.sub(" ", en)
            for f in found:
                fr = term_pattern(f).sub(" ", fr)
    return problems


def singular(word):
    """`word` without a plural ending: "vectors" -> "vector", "noyaux" -> "noyau", "losses" -> "loss";
    a word whose final s is its own is kept ("loss", "class", "corpus", "basis", "biais", "des")."""
    lower = word.lower()
    if lower.endswith("sses"):
        return word[:-2]
    if len(word) <= 3 or lower.endswith(("ss", "us", "is")):
        return word
    return word[:-1] if lower.endswith(("s", "x")) else word


def term_pattern(term):
    """A term, any word of it in the singular or the plural."""
    words = [re.escape(singular(w)) + r"(?:s|x|es)?" for w in term.split()]
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


COMMA_THOUSANDS = re.compile(r"(?<![\d.,])\d{1,3}(?:(?:,|\{,\})\d{3})+(?!\d)")
CODE_SPAN = re.compile(r"`[^`\n]*`")


def comma_thousands(text, markdown):
    """The numbers of a French text written with a comma thousands separator ("20,000", LaTeX
    "20{,}000"): a French reader takes the comma for the decimal one. Inline code is code; in a code
    cell's string the f-string fields are code too (what they print is the English code's)."""
    text = CODE_SPAN.sub(" ", text if markdown else french.FIELD.sub(" ", text))
    return COMMA_THOUSANDS.findall(text)


@pytest.mark.parametrize("stem", TRANSLATED)
def test_french_writes_thousands_with_a_space(stem):
    catalog = french.read_catalog(french.catalog_path(stem))
    problems = [f"{message.locations[0][0]} cell {message.context}: {found}" for message in catalog
                if message.id and message.string and not message.fuzzy
                and (found := comma_thousands(message.string, "markdown cell" in message.auto_comments))]
    assert not problems, ("a comma between thousands reads as a decimal comma in French: write 20 000 "
                          "(LaTeX 20{\\,}000):\n" + "\n".join(problems))


def test_the_thousands_check_catches_a_comma():
    assert comma_thousands("sur 20,000 points", markdown=True) == ["20,000"]
    assert comma_thousands("$2 \\times 1{,}649$", markdown=True) == ["1{,}649"]
    assert comma_thousands("N = {n:,d} puis 128,000 points", markdown=False) == ["128,000"]
    for fine in ["sur 20 000 points", "$10{\\,}000$", "une marge de 0.500", "les points (1, 000)", "`f(1,000)`"]:
        assert comma_thousands(fine, markdown=True) == [], fine
    assert comma_thousands("N = {n:,d} points, {x[1,000]}", markdown=False) == []


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
    problems = term_problems(translated_entries(stem), pairs, chapter_lectures(stem))
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
    assert ("support vectors", "vecteurs de support", "K") in glossary_pairs()
    assert term_pattern("vecteurs de support").search("un vecteur de support")
    assert not term_pattern("vecteurs de support").search("les vecteurs supports")
    english = 'print(f"margin {rho:.2f}")  # the margin'
    assert code_tokens(english) == code_tokens('print(f"marge {rho:.2f}")  # la marge')
    assert code_tokens(english) != code_tokens('print(f"marge {rho:.3f}")')
    assert code_tokens(english) != code_tokens('print(f"marge {rho:.2f}", 1)')


def test_terms_match_plurals_and_s_final_words():
    """A plural is the same term, a word ending in s keeps its s: "loss" is not "lo"."""
    for term, text in [("hinge loss", "the hinge losses"), ("hinge loss", "a hinge loss"),
                       ("support vectors", "one support vector"), ("noyau gaussien", "des noyaux gaussiens"),
                       ("generalised hinge loss", "the generalised hinge loss"), ("binary classifier", "binary classifiers")]:
        assert term_pattern(term).search(text), (term, text)
    for term, text in [("hinge loss", "the hinge lo"), ("hinge loss", "the hinge"), ("class", "clas")]:
        assert not term_pattern(term).search(text), (term, text)


def test_the_term_check_catches_a_wrong_term():
    """An entry whose English says "hinge loss" and whose French says "perte à charnière" is named;
    "generalised hinge loss" is held to its own French term, not to that of "hinge loss"."""
    pairs = [("hinge loss", "fonction de perte hinge", "K"), ("generalised hinge loss", "perte de hinge généralisée", "M"),
             ("linear classifier", "classifieur linéaire", "P"), ("linear classifier", "classificateur linéaire", "M")]
    wrong = [("nb", "c1", "SGD on the hinge loss", "la DGS sur la perte à charnière")]
    assert term_problems(wrong, pairs, {"K"}) == ["nb cell c1: 'hinge loss' should be 'fonction de perte hinge'"]
    right = [("nb", "c2", "the generalised hinge loss", "la perte de hinge généralisée")]
    assert term_problems(right, pairs, {"M"}) == []
    both = [("nb", "c3", "the generalised hinge loss and the hinge loss", "la perte de hinge généralisée et la perte")]
    assert term_problems(both, pairs, {"M"}) == ["nb cell c3: 'hinge loss' should be 'fonction de perte hinge'"]
    own = [("nb", "c4", "a linear classifier", "un classifieur linéaire")]
    assert term_problems(own, pairs, {"M"}) == ["nb cell c4: 'linear classifier' should be 'classificateur linéaire'"]
    assert term_problems(own, pairs, {"P"}) == [] and term_problems(own, pairs, {"S"}) == []


CATALOG_FILES = sorted(french.CATALOGS.glob("*.po")) + [french.LIB_PO]


def catalog_errors(path):
    """The errors a translator's tool reports on a catalog: `msgfmt -c --check-format` (header,
    format strings, newlines at both ends) when gettext is installed, else Babel's own checkers and
    the same newline rule."""
    import shutil
    import subprocess

    if shutil.which("msgfmt"):
        run = subprocess.run(["msgfmt", "-c", "--check-format", "-o", "/dev/null", str(path)],
                             capture_output=True, text=True)
        return [] if run.returncode == 0 else [line for line in run.stderr.splitlines() if line]
    catalog = french.read_catalog(path)
    errors = [f"{path.name}: {message.context} {message.id[:40]!r}: {error}"
              for message, found in catalog.check() for error in found]
    for message in catalog:
        if message.id and message.string and not message.fuzzy:
            for ends in (str.startswith, str.endswith):
                if ends(message.id, "\n") != ends(message.string, "\n"):
                    errors.append(f"{path.name}: {message.context}: msgid and msgstr do not both {ends.__name__} '\\n'")
    return errors


@pytest.mark.parametrize("path", CATALOG_FILES, ids=lambda p: p.name)
def test_catalog_passes_the_translators_checks(path):
    """Poedit and Weblate open every catalog without errors: no format flag guessed from prose (a
    markdown "40% class" is no `python-format`), translations end as their English does."""
    errors = catalog_errors(path)
    assert not errors, f"{path.relative_to(ROOT)}: msgfmt -c --check-format fails:\n" + "\n".join(errors)


@pytest.mark.parametrize("tool", ["msgfmt", "babel"])
def test_the_catalog_check_catches_a_wrong_format_and_a_lost_newline(tmp_path, monkeypatch, tool):
    import shutil

    from babel.messages.pofile import write_po

    if tool == "babel":
        monkeypatch.setattr(shutil, "which", lambda name: None)
    elif not shutil.which("msgfmt"):
        pytest.skip("gettext's msgfmt is not installed")

    for string, flags in [("40 % de classe", {"python-format"}), ("une phrase", set())]:
        catalog = french.new_catalog("x")
        message = catalog.add("a 40% class\n" if not flags else "a 40% class", string, context="c")
        message.flags = flags
        path = tmp_path / "x.po"
        with open(path, "wb") as file:
            write_po(file, catalog, width=0)
        assert catalog_errors(path), f"a catalog with {string!r} passed the check"


def test_the_catalogs_flag_only_formatted_strings():
    """A string the code formats with % is `python-format`; markdown and other strings are not."""
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("a 40% class", id="m"),
        nbformat.v4.new_code_cell('print("accuracy %.2f on the test set" % acc)\nprint("a 40% class of them")', id="c")])
    assert french.formatted_strings(notebook) == {("c", "accuracy %.2f on the test set"): "python-format"}


FIELD_LITERAL = re.compile(r"(?<!\{)\{\s*[fFrRbBuU]{0,2}(['\"])(.*?)\1")  # a field that starts with a literal


def labels_in_fields(source):
    """The prose string literals an f-string field starts with (`{'P(w) chain':>10}`): the field is
    code, so such a label would print in English in the French notebook; it belongs in an ordinary
    literal (`label = "P(w) chain"`, then `{label:>10}`). Prose as the catalogs take it: two letters
    in a row, and a space or a final colon."""
    found = []
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return found
    for token in tokens:
        if token.type != tokenize.STRING or "f" not in french.STRING_START.match(token.string).group(1).lower():
            continue
        for literal in FIELD_LITERAL.finditer(token.string[len(french.STRING_START.match(token.string).group(0)):]):
            text = french.FIELD.sub("", literal.group(2))  # a nested f-string's own fields are code
            if french.PROSE.search(text) and (" " in text.strip() or text.rstrip().endswith(":")):
                found.append(literal.group(2))
    return found


@pytest.mark.parametrize("stem", TRANSLATED)
def test_no_label_hides_in_an_f_string_field(stem):
    problems = [f"{english.relative_to(ROOT)} cell {cell.id}: {label!r}" for english, _ in french.sources(stem)
                for cell in nbformat.read(english, as_version=4).cells if cell.cell_type == "code"
                for label in labels_in_fields(cell.source)]
    assert not problems, ("labels written inside f-string fields stay English in French (write them as ordinary "
                          "string literals):\n" + "\n".join(problems))


def test_the_label_check_catches_a_label_in_a_field():
    assert labels_in_fields('''print(f"{'P(w) chain':>10}  {'seen: chain':>11}")''') == ["P(w) chain", "seen: chain"]
    assert labels_in_fields('''print(f"{f'between {lo} and {hi}':>27s}")''') == ["between {lo} and {hi}"]
    assert labels_in_fields('''label = "P(w) chain"\nprint(f"{label:>10} {models['naive']} {'b_q - b_i':16s}")''') == []
    assert labels_in_fields('''print(f"{f'>= {lower + excess:.2f}':>10s}")''') == []


# -- course_lib's own messages ------------------------------------------------------------------

STUDENT_FACING = ("exercises", "widgets", "plotting")  # course_lib's packages whose text a student reads
ENGLISH_WORDS = frozenset(
    "the is are your you not of to and with that this it its for in by from be must give gives do does "
    "when how what which why where there their than then if only yours should would can cannot write "
    "take use compute divide".split())
MARKING_CALLS = {"_", "N_", "Choice"}  # text inside these reaches the catalog
# text a student never reads: a registered figure's index entry (figures/README.md); the messages of
# raises are held by test_course_lib_raises_no_english_message
NOT_SHOWN_CALLS = {"slide_figure"}


def english_words(text):
    """The common English words of `text`, outside f-string or format fields, inline code, TeX and
    identifiers (`is_the_data`, `np.zeros`)."""
    text = re.sub(r"\{[^{}]*\}|`[^`]*`|\$[^$]*\$|\b\w*_\w*\b|\b\w+(?:\.\w+)+\b", " ", text)
    return [word for word in re.findall(r"[A-Za-z']+", text.lower()) if word in ENGLISH_WORDS]


def unmarked_english(source):
    """[(line, text)] of the string literals and f-strings of a module's `source` that read as English
    (two common English words) and are not marked for translation: not inside `_()`, `N_()` or
    `Choice()`, not a docstring, not the message of a `raise`, not a figure's registry title."""
    import ast

    tree = ast.parse(source)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    docstrings = {node.body[0].value for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                  and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and not isinstance(parents.get(node), ast.JoinedStr):
            text = node.value
        elif isinstance(node, ast.JoinedStr):
            text = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
        else:
            continue
        if node in docstrings or len(english_words(text)) < 2:
            continue
        ancestor, shown = node, True
        while shown and ancestor in parents:
            ancestor = parents[ancestor]
            if isinstance(ancestor, ast.Raise):
                shown = False
            elif isinstance(ancestor, ast.Call):
                name = getattr(ancestor.func, "id", getattr(ancestor.func, "attr", None))
                if name in MARKING_CALLS | NOT_SHOWN_CALLS:
                    shown = False
        if shown:
            found.append((node.lineno, text))
    return found


@pytest.mark.parametrize("package", STUDENT_FACING)
def test_course_lib_messages_are_marked_for_translation(package):
    """Every English message of the checks, demos and figures goes through the catalog; one written
    as a bare string (or an f-string) would show in English to a French student."""
    problems = [f"course_lib/{path.relative_to(ROOT / 'course_lib').as_posix()}:{line}: {text[:70]!r}"
                for path in sorted((ROOT / "course_lib" / package).rglob("*.py"))
                for line, text in unmarked_english(path.read_text(encoding="utf-8"))]
    assert not problems, ("English text not marked for translation: wrap it in _() (an f-string becomes "
                          "_(\"... {name} ...\").format(name=...)), then python tools/french.py and translate "
                          "it in course_lib.po:\n" + "\n".join(problems))


def test_the_marking_check_catches_a_bare_message():
    source = '''
def check(x):
    """The docstring is for developers."""
    if x is None:
        raise ValueError("x must be a number, not None")
    verdict = check_number(x, 1.0, diagnoses=((2.0, "That is twice the answer: halve it."),),
                           hint=_("Divide by the norm of w."))
    return Verdict(False, f"Your {x} is not the answer.") if x else verdict
'''
    assert sorted(text for _, text in unmarked_english(source)) == ["That is twice the answer: halve it.",
                                                                    "Your {} is not the answer."]
    for code in ['kept(ax, "region polygons")', 'ax.legend(loc="upper left")', 'show = f"X = {X}, r = {r}"',
                 'is_the_data(X, Xs)', '_("Not yet: {why}").format(why=why)']:
        assert unmarked_english(code) == [], code


def test_checks_answer_in_french():
    """Wrong answers to the checks of chapters 01-04 get French messages, the diagnosis that needs to
    recognise check_number's plain "not it" included (it once compared the English text)."""
    import course_lib
    from course_lib.exercises import basis_functions, linear, margins

    try:
        course_lib.set_language("fr")
        said = {
            "distance": linear.check_signed_distance(14.0),
            "update": linear.check_perceptron_update([1, -1], 0.5),
            "count": linear.check_perceptron_update([1, 2, 3], 0.5),
            "scale": margins.check_canonical_scaling([2.0, 2 / 3], 0.0, "D"),
            "lagrange": margins.check_lagrange(1.0, 0.5, 3.0, "A"),
            "plane": basis_functions.check_xor_plane([0.0, 0.0, 0.0], 1.0, "C"),
            "rbf": basis_functions.check_rbf_value(math.exp(-5.0), "B"),
        }
    finally:
        course_lib.set_language("en")
    for name, verdict in said.items():
        assert not verdict and len(english_words(verdict.why)) < 2, (name, verdict.why)
    assert said["scale"].why.startswith("Même hyperplan"), said["scale"].why
    assert said["lagrange"].why.startswith("Votre point est sur la contrainte"), said["lagrange"].why
    assert said["count"].why == "La réponse compte 3 nombres en tout, la vôtre 4."


def functions_hiding_the_translator(source, filename="<source>"):
    """The functions of `source` that call `_()` and also bind `_` themselves (`array, _ = ...`,
    `for _ in ...`): there `_` is a local variable and the call fails (UnboundLocalError) or calls
    something else."""
    import symtable

    found, tables = [], [symtable.symtable(source, filename, "exec")]
    while tables:
        table = tables.pop()
        tables += table.get_children()
        if table.get_type() == "function" and "_" in table.get_identifiers():
            symbol = table.lookup("_")
            if symbol.is_local() and symbol.is_referenced():
                found.append(f"{filename}:{table.get_lineno()} {table.get_name()}")
    return found


def test_no_function_hides_the_translator():
    problems = [found for path in sorted((ROOT / "course_lib").rglob("*.py"))
                for found in functions_hiding_the_translator(path.read_text(encoding="utf-8"), path.name)]
    assert not problems, "these functions bind `_` and call `_()`: rename the throwaway variable:\n" + "\n".join(problems)
    assert functions_hiding_the_translator("def f(v):\n    a, _ = v\n    return _('x')\n") == ["<source>:1 f"]
    assert functions_hiding_the_translator("def f(n):\n    return [_('x') for k in range(n)]\n") == []
    assert functions_hiding_the_translator("def f(n):\n    for _ in range(n):\n        pass\n    return 1\n") == []


# -- the static site's own words ----------------------------------------------------------------

def test_site_catalog_is_complete_and_used():
    """Every word the site marks (tools/build_site.py) has a current French translation in
    locale/fr/LC_MESSAGES/site.po, and the French pages take theirs from it."""
    import build_site

    catalog = french.read_catalog(french.SITE_PO)
    template = french.site_template()
    problems = [f"{m.locations[0][0]}:{m.locations[0][1]}: {m.id[:60]!r}" for m in template
                if m.id and ((entry := catalog.get(m.id)) is None or not entry.string or entry.fuzzy)]
    assert not problems, "site.po: entries to translate (python tools/french.py):\n" + "\n".join(problems)
    assert len([m for m in template if m.id]) == len([m for m in catalog if m.id]), "site.po: run python tools/french.py"
    for words, english in [(build_site.TEXT, build_site.WORDS), (build_site.INDEX_TEXT, build_site.INDEX_WORDS)]:
        for key, value in english.items():
            first = value[0] if isinstance(value, (list, tuple)) else value
            french_first = words["fr"][key][0] if isinstance(value, (list, tuple)) else words["fr"][key]
            assert french_first == catalog.get(first).string, key
            assert words["en"][key] == value or key == "claim_markers", key
    assert build_site.TEXT["fr"]["index"] == "Index des chapitres" and build_site.TEXT["fr"]["language"] == "Français"


def test_a_fuzzy_site_entry_falls_back_to_english(tmp_path, monkeypatch):
    import build_site

    catalog = french.read_catalog(french.SITE_PO)
    catalog.get("Index of the chapters").flags.add("fuzzy")
    (tmp_path / "fr" / "LC_MESSAGES").mkdir(parents=True)
    french.write_catalog(catalog, tmp_path / "fr" / "LC_MESSAGES" / "site.po")
    monkeypatch.setattr(build_site, "SITE_CATALOG", tmp_path / "{language}" / "LC_MESSAGES" / "site.po")
    words = build_site.localised(build_site.WORDS, "fr")
    assert words["index"] == "Index of the chapters" and words["search"] == "Recherche"


# -- numbers printed in French ------------------------------------------------------------------

# a format field grouping thousands with a comma, {n:,} {n:7,d} {x:,.0f} (its spec: fill, align, sign,
# width, the comma, precision, type)
COMMA_SPEC = re.compile(r"\{[^{}]*:(?:.?[<>=^])?[-+ ]?z?#?0?\d*,(?:\.\d+)?[a-zA-Z%]?\}")


def test_number_groups_thousands_in_the_language():
    import course_lib
    from course_lib import number

    try:
        assert (number(20000), number(1234.5), number(2 / 3 * 3000, decimals=0)) == ("20,000", "1,234.5", "2,000")
        course_lib.set_language("fr")
        assert (number(20000), number(1234.5), number(2 / 3 * 3000, decimals=0)) == ("20\u202f000", "1\u202f234.5", "2\u202f000")
        assert number(999) == "999" and f"{number(12345):>8}" == "  12\u202f345"
    finally:
        course_lib.set_language("en")


@pytest.mark.parametrize("stem", TRANSLATED)
def test_printed_thousands_follow_the_language(stem):
    """A code cell printing `{n:,}` shows "20,000" in the French notebook too, where the comma reads as
    a decimal comma: such numbers go through course_lib.number (`{number(n)}`)."""
    problems = [f"{english.relative_to(ROOT)} cell {cell.id}: {field}" for english, _ in french.sources(stem)
                for cell in nbformat.read(english, as_version=4).cells if cell.cell_type == "code"
                for _, _, head, text, _ in french.code_pieces(cell.source) if "f" in head.lower()
                for field in COMMA_SPEC.findall(text)]
    assert not problems, "thousands printed with a comma in French (use `{number(n)}`):\n" + "\n".join(problems)


def test_course_lib_messages_group_thousands_in_the_language():
    problems = [f"{m.locations[0][0]}:{m.locations[0][1]}: {field}" for m in french.lib_template() if m.id
                for field in COMMA_SPEC.findall(m.id)]
    assert not problems, "course_lib's messages print thousands with a comma (pass number(n) instead):\n" + "\n".join(problems)
    assert COMMA_SPEC.findall("N = {N:5,d} and {n:,} but {x:.2f}, {y}, {r:,.0f}") == ["{N:5,d}", "{n:,}", "{r:,.0f}"]
    assert COMMA_SPEC.findall("{a[:, -1].min():.3f} {tfidf.df_[:, j].min()}, {b[1,2]}") == []


# -- course_lib's error messages ----------------------------------------------------------------

# the messages of course_lib's raises that stay as they are, with the reason
RAISED_AS_IS = {
    ("exercises/harness.py", "module {} has no attribute {}"):
        "Python's own wording for a module's missing attribute (PEP 562 __getattr__), for code, not a student",
    ("smo.py", "epsilon must be in (0, 1] (a fraction of the data's diameter); got {}."):
        "smo.separable is called by SVM with arguments it has checked; no chapter calls it",
    ("smo.py", "r must hold the targets -1 and +1; got {}."):
        "smo.separable is called by SVM with arguments it has checked; no chapter calls it",
}
EXCEPTION_NAME = re.compile(r"(Error|Exception|Warning|TimeLimit|WriteItYourself)$")
CODE = re.compile(r"`[^`]*`|\b\w*_\w*\b|\b\w+(?:\.\w+)+\b")  # inline code, identifiers, dotted names


def _message_text(node):
    """The text of an untranslated message expression (a literal, an f-string, or a + or if-else of
    them), fields as {}; None when the message goes through _() or is built elsewhere."""
    import ast

    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    if isinstance(node, ast.BinOp):
        parts = [_message_text(node.left), _message_text(node.right)]
    elif isinstance(node, ast.IfExp):
        parts = [_message_text(node.body), _message_text(node.orelse)]
    else:
        return None
    return None if parts == [None, None] else " ".join(p or "{}" for p in parts)


def english_raises(source):
    """[(line, text)] of the exceptions of `source` raised or built (`raise X(...)`, `X(...)` for a
    name ending in Error, Exception, Warning) with a message written as prose (two words of letters
    outside its fields) in a literal or an f-string instead of a `_()` template."""
    import ast

    tree = ast.parse(source)
    messages, writers = [], set()  # (line, message expression); functions whose result is a message
    for node in ast.walk(tree):
        call = node.exc if isinstance(node, ast.Raise) else node
        if not isinstance(call, ast.Call) or not call.args:
            continue
        name = getattr(call.func, "id", getattr(call.func, "attr", ""))
        if isinstance(node, ast.Raise) or EXCEPTION_NAME.search(name):
            messages.append((call.lineno, call.args[0]))
            if isinstance(call.args[0], ast.Call) and isinstance(call.args[0].func, ast.Name):
                writers.add(call.args[0].func.id)  # raise ValueError(_not_separable_message(...))
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef) and function.name in writers:
            messages += [(node.lineno, node.value) for node in ast.walk(function)
                         if isinstance(node, ast.Return) and node.value is not None]
    found = []
    for line, expression in messages:
        text = _message_text(expression)
        if text is not None and len(re.findall(r"[^\W\d_]{2,}", CODE.sub(" ", french.FIELD.sub(" ", text)))) >= 2:
            found.append((line, text))
    return sorted(set(found))


def test_course_lib_raises_no_english_message():
    """Every error course_lib raises for its caller is a translatable template (`_("{name} must ...")
    .format(name=...)`): an f-string's message would reach a French student in English."""
    problems = [f"course_lib/{relative}:{line}: {text[:70]!r}"
                for path in sorted((ROOT / "course_lib").rglob("*.py"))
                for relative in [path.relative_to(ROOT / "course_lib").as_posix()]
                for line, text in english_raises(path.read_text(encoding="utf-8"))
                if (relative, text) not in RAISED_AS_IS]
    assert not problems, ("error messages written as f-strings or plain literals: make them templates, "
                          "_(\"... {name} ...\").format(name=...), then python tools/french.py and translate "
                          "them in course_lib.po:\n" + "\n".join(problems))


def test_the_raise_check_catches_an_f_string_message():
    source = '''
def fit(X, C):
    if C <= 0:
        raise ValueError(f"C must be positive; got {C}.")
    if X is None:
        raise TypeError("X is None: pass an array.")
    if X.ndim == 1:
        raise ValueError(f"{X} has " + ("one row" if X.size == 1 else "rows") + " only")
    error = RuntimeError(f"fit did not converge after {C} steps")
    if C > 1:
        raise ValueError(_("C must be at most 1; got {C}.").format(C=C))
    raise WriteItYourself(f"import {X}")
    raise WriteItYourself(ELSEWHERE + "sys.settrace")
    raise ValueError(_message(C))


def _message(C):
    return f"C = {C} has no solution here"
'''
    assert [line for line, _ in english_raises(source)] == [4, 6, 8, 9, 18]
    assert english_raises('raise ValueError(message.format(name=name))') == []


def _message_pattern(template, formatted):
    """A regex for the messages `template` gives: its {fields} any text (a brace-format template,
    where {{ and }} are single braces), or the template itself."""
    if not formatted:
        return re.escape(template)
    pieces = re.split(r"(\{\{|\}\}|\{[A-Za-z_][^{}]*\})", template)
    return "".join(".+?" if p.startswith("{") and p not in ("{{", "}}") else re.escape(p[:1] if p in ("{{", "}}") else p)
                   for p in pieces)


def _bad_calls():
    """One wrong call per module a student calls most: (module, call)."""
    import numpy as np

    from course_lib import basis, kernels, lagrange, linear, margins, multiclass, perceptron
    from course_lib.structured import chain, models, ranking, ssvm_base, viterbi, vision

    X = [[1.0, 0.0], [-1.0, 0.0]]
    return [
        ("perceptron", lambda: perceptron.AveragedPerceptron(variant="fast").fit([[0.0], [1.0]], [0, 1])),
        ("perceptron", lambda: perceptron.AveragedPerceptron().fit([{"a": 1.0}, {"b": "x"}], [0, 1])),
        ("multiclass", lambda: multiclass.check_cost([[0.0, -1.0], [1.0, 0.0]])),
        ("multiclass", lambda: multiclass.check_cost([[0.0, 1.0]])),
        ("kernels", lambda: kernels.check_kernel("rbf")),
        ("kernels", lambda: kernels.check_kernel("linear", {"sigma": 1.0})),
        ("margins", lambda: margins.canonical_form(X, [1, -1], [-1.0, 0.0], 0.0)),
        ("linear", lambda: linear.version_space_offsets(X, [1, -1], [1.0, 0.0, 0.0])),
        ("basis", lambda: basis.xor_map(np.ones((2, 3)))),
        ("lagrange", lambda: lagrange.lagrange_system(a=[0.0, 0.0])),
        ("viterbi", lambda: viterbi.viterbi(np.zeros((2, 3)), np.zeros((2, 2)))),
        ("chain", lambda: chain.validated_index({}, kind="words")),
        ("models", lambda: models.HierarchicalModel({"r": ["a", "b"], "s": ["c"]}).classes_),
        ("ranking", lambda: ranking.relevance_matrix([1, 1])),
        ("vision", lambda: vision.integral_image(np.ones(3))),
        ("vision", lambda: vision.box_sum(S=[[1 + 1j]], box=(0, 0, 1, 1))),
        ("ssvm_base", lambda: ssvm_base.check_model(object())),
    ]


def test_course_lib_raises_speak_french():
    """A wrong call gets its error in French after set_language("fr"): the message is the catalog's
    French template filled in, for one wrong call per module a student calls most (a field's own
    word, "complex numbers" in "got {kind}", is French too)."""
    import course_lib

    catalog = french.read_catalog(french.LIB_PO)
    entries = [(m, "python-brace-format" in m.flags) for m in catalog if m.id and m.string and not m.fuzzy]
    problems = []
    for module, call in _bad_calls():
        said = {}
        for language in ("en", "fr"):
            course_lib.set_language(language)
            try:
                with pytest.raises((ValueError, TypeError, AttributeError)) as error:
                    call()
            finally:
                course_lib.set_language("en")
            said[language] = str(error.value)
        found = [(m, formatted) for m, formatted in entries
                 if re.fullmatch(_message_pattern(m.id, formatted), said["en"], re.DOTALL)]
        if not found:
            problems.append(f"{module}: no catalog entry gives {said['en']!r}")
        elif not any(re.fullmatch(_message_pattern(m.string, formatted), said["fr"], re.DOTALL) for m, formatted in found):
            problems.append(f"{module}: {said['fr']!r} is not the French of {said['en']!r}")
        elif said["fr"] == said["en"] or len(english_words(said["fr"])) >= 2:
            problems.append(f"{module}: still English in French: {said['fr']!r}")
    assert not problems, "\n".join(problems)
    assert _message_pattern("{name} has {n} features", True) == r".+?\ has\ .+?\ features"


def test_progress_bar_label_speaks_french(monkeypatch):
    """Chapter 11's bar under its long cell, progress(range(3), "splits"), reads "partitions" in French."""
    import course_lib
    from course_lib.widgets import progress as progress_module

    bars = []
    original = progress_module.widgets.IntProgress
    monkeypatch.setattr(progress_module.widgets, "IntProgress", lambda **kwargs: bars.append(original(**kwargs)) or bars[-1])
    try:
        for language in ("en", "fr"):
            course_lib.set_language(language)
            list(progress_module.progress(range(2), "splits"))
    finally:
        course_lib.set_language("en")
    assert [bar.description for bar in bars] == ["splits", "partitions"]
