"""The French edition: gettext catalogs from the English notebooks, French notebooks from the catalogs.

    python tools/french.py              # update every catalog, build every chapter of the manifest
    python tools/french.py 06 09        # also update these chapters' catalogs (a translation begun)

The English notebooks are the source. Layout:

- `locale/fr/manifest.toml`: `translated` (built into `notebooks/fr/` and held to their English by
  `tests/test_french.py`) and `not_yet` (chapters without a complete translation).
- `locale/fr/LC_MESSAGES/<stem>.po`: one gettext catalog per chapter (`01_linear_discriminants.po`,
  `glossary.po`), holding the chapter and its solutions notebook. One entry per markdown cell:
  the cell is the unit a notebook identifies (its id) and a translation may reorder sentences
  across its paragraphs; `msgctxt` is the cell id, `msgid` the whole English cell. In code cells,
  each string literal and comment that reads as prose (two letters in a row, and a space, an
  f-string field counting as a word, or a final colon) is an entry too, `msgctxt` the cell id,
  `msgid` the text between the quotes as written in the source (escapes kept; f-string fields
  `{...}` are code and must stay as they are). A string the code uses as a value (a key, an
  option) is translated by itself: msgstr = msgid (the glossary check skips it).
- `course_lib/locale/fr/LC_MESSAGES/course_lib.po` (and its compiled `.mo`): the strings of
  course_lib wrapped in `_()` / `N_()` (`course_lib/i18n.py`), extracted by Babel.
- `locale/fr/LC_MESSAGES/site.po`: the static site's own words (index, navigation, captions),
  marked `N_()` in `tools/build_site.py`, which reads their translations from it.

Updating a catalog keeps every translation whose English did not change; an entry whose English
changed keeps its old translation, marked fuzzy, with the old English as `#| msgid` (previous
msgid), so a translator sees what changed; a fuzzy or empty entry is not used. Building writes
`notebooks/fr/<stem>.ipynb` (and `notebooks/fr/solutions/NN_solutions.ipynb`): markdown replaced by
its translation, string literals and comments replaced token by token, code otherwise the same,
and one cell `course_lib.set_language("fr")` before the first code cell; `notebooks/fr/README.md`
lists the chapters. A cell whose source did
not change keeps its stored outputs (`tools/refresh_notebooks.py` stores new ones). Relative links
to a notebook not translated lead to the English one. Numbers are written as in the English
(decimal point, as the code prints them), thousands separated by a space in French text ("20 000",
LaTeX "20{\\,}000"): a comma there reads as the French decimal comma; code prints such numbers
through `course_lib.number(n)`, which groups them as the language set does. Catalog entries carry a format
flag only when the code formats the string (`%` or `.format`), never one guessed from prose, so
`msgfmt -c` and Poedit accept every catalog.
"""

import copy
import datetime
import difflib
import io
import posixpath
import re
import sys
import tokenize
import tomllib
from pathlib import Path

import nbformat
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import normalize, read_po, unescape, write_po

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
FRENCH = NOTEBOOKS / "fr"
LOCALE = ROOT / "locale" / "fr"
CATALOGS = LOCALE / "LC_MESSAGES"
MANIFEST = LOCALE / "manifest.toml"
LIB_PO = ROOT / "course_lib" / "locale" / "fr" / "LC_MESSAGES" / "course_lib.po"
SITE_SOURCE = ROOT / "tools" / "build_site.py"
SITE_PO = CATALOGS / "site.po"
FIXED_DATE = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)  # no churn in headers
LANGUAGE_CELL_ID = "set-language-fr"
LANGUAGE_CELL = ('import course_lib\n\n'
                 'course_lib.set_language("fr")  # messages, figures et vérifications en français')
PROSE = re.compile(r"[^\W\d_]{2}")
FIELD = re.compile(r"\{[^{}]*\}")
STRING_START = re.compile(r"^([A-Za-z]*)('''|\"\"\"|'|\")")
QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')
RELATIVE_LINK = re.compile(r"""(\]\(|\b(?:href|src)=["'])(?![a-zA-Z][a-zA-Z0-9+.-]*:|/|#)([^)"'\s#]+)""")


# -- the manifest and the files of a chapter -----------------------------------------------------

def manifest():
    """{"translated": [stems], "not_yet": [stems], "course_lib": [translated modules]} from locale/fr/manifest.toml."""
    with open(MANIFEST, "rb") as file:
        data = tomllib.load(file)
    return {"translated": list(data.get("translated", [])), "not_yet": list(data.get("not_yet", [])),
            "course_lib": list(data.get("course_lib", []))}


def stem_of(name):
    """The notebook stem of `name`: "01" or "01_linear_discriminants" -> "01_linear_discriminants"."""
    matches = sorted(p.stem for p in NOTEBOOKS.glob(f"{name}*.ipynb"))
    if not matches:
        raise SystemExit(f"no notebook notebooks/{name}*.ipynb")
    return matches[0]


def sources(stem):
    """[(English notebook, French notebook)] of a chapter: the chapter, then its solutions."""
    pairs = [(NOTEBOOKS / f"{stem}.ipynb", FRENCH / f"{stem}.ipynb")]
    solutions = NOTEBOOKS / "solutions" / f"{stem[:2]}_solutions.ipynb"
    if stem[:2].isdigit() and solutions.exists():
        pairs.append((solutions, FRENCH / "solutions" / solutions.name))
    return pairs


def catalog_path(stem):
    return CATALOGS / f"{stem}.po"


# -- what a notebook holds to translate ------------------------------------------------------------

def code_pieces(source):
    """[(start, end, head, text, tail)] of the prose string literals and comments of a code cell:
    positions (row, col) of the token, and the token as head + text + tail (text is translated)."""
    pieces = []
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return pieces
    for token in tokens:
        if token.type == tokenize.STRING:
            head = STRING_START.match(token.string).group(0)
            quote = head[len(head.rstrip("'\"")):]
            head, text, tail = head, token.string[len(head):-len(quote)], quote
        elif token.type == tokenize.COMMENT:
            head, text, tail = "# ", token.string[2:] if token.string.startswith("# ") else token.string[1:], ""
            head = token.string[:len(token.string) - len(text)]
        else:
            continue
        bare = FIELD.sub("", text)  # a word next to a field is prose too: f"{n} times", f"largest {d}"
        if PROSE.search(bare) and (" " in FIELD.sub("{}", text).strip() or bare.rstrip().endswith(":")):
            pieces.append((token.start, token.end, head, text, tail))
    return pieces


def formatted_strings(notebook):
    """{(cell id, text): flag} of the string literals a code cell formats: "python-format" for
    `"..." % args`, "python-brace-format" for `"...".format(...)`. Nothing else is a format string:
    markdown with a "%" or LaTeX braces is not, and an f-string's fields are code (checked as code)."""
    found = {}
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        try:
            tokens = [t for t in tokenize.generate_tokens(io.StringIO(cell.source).readline)
                      if t.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT)]
        except (tokenize.TokenError, IndentationError, SyntaxError):
            continue
        texts = {start: text for start, _, _, text, _ in code_pieces(cell.source)}
        for token, after, name in zip(tokens, tokens[1:] + [None], tokens[2:] + [None, None]):
            if token.start not in texts or after is None:
                continue
            if after.string == "%":
                found[(cell.id, texts[token.start])] = "python-format"
            elif after.string == "." and name is not None and name.string == "format":
                found[(cell.id, texts[token.start])] = "python-brace-format"
    return found


def entries(notebook):
    """[(cell id, English text, kind)] to translate in a notebook, in order."""
    found = []
    for cell in notebook.cells:
        if cell.cell_type == "markdown" and cell.source.strip():
            found.append((cell.id, cell.source, "markdown cell"))
        elif cell.cell_type == "code":
            found += [(cell.id, text, "text in a code cell") for *_, text, _ in code_pieces(cell.source)]
    return found


# -- catalogs --------------------------------------------------------------------------------------

FORMAT_FLAGS = {"python-format", "python-brace-format"}


def new_catalog(domain):
    return Catalog(locale="fr", domain=domain, project="course companion", version="1",
                   last_translator="French edition of the course companion", language_team="French",
                   creation_date=FIXED_DATE, revision_date=FIXED_DATE, fuzzy=False,
                   header_comment=f"# French translation of {domain}.\n"
                                  "# Generated and updated by tools/french.py: edit msgstr only.")


def read_catalog(path):
    """The catalog at `path`, previous msgids (`#| msgid`, which read_po skips) in `previous_id`."""
    with open(path, "rb") as file:
        catalog = read_po(file, locale="fr")
    previous, block, index = {}, [], 0
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if line.startswith("#|"):
            block.append(line[2:])
        elif line.startswith("msgid "):  # the index-th message of the file, the header first
            if block:
                previous[index] = "".join(unescape(f'"{part}"') for part in QUOTED.findall("".join(block)))
            block, index = [], index + 1
    for index, message in enumerate(catalog):
        message.user_comments = [c for c in message.user_comments if not c.startswith("|")]
        if index in previous:
            message.previous_id = [previous[index]]
    return catalog


def write_catalog(catalog, path):
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=0, ignore_obsolete=True, sort_output=False)
    text = buffer.getvalue().decode("utf-8")
    for message in catalog:  # babel wraps `#| msgid` inside its strings: written here, line by line
        if message.id and message.previous_id:
            entry = (f"msgctxt {normalize(message.context, width=0)}\n" if message.context else "") + \
                f"msgid {normalize(message.id, width=0)}\n"
            lines = normalize(message.previous_id[0], width=0).split("\n")
            previous = "".join(("#| msgid " if i == 0 else "#| ") + line + "\n" for i, line in enumerate(lines))
            text = text.replace(entry, previous + entry, 1)
    data = text.encode("utf-8")
    if not path.exists() or path.read_bytes() != data:
        path.write_bytes(data)


def merge(template, old):
    """`template`'s entries with the translations of `old`: the same English keeps its translation
    (and flags); changed English in the same cell keeps the closest old one, fuzzy, previous msgid kept."""
    catalog = new_catalog(template.domain)
    left = {}
    for message in old or []:
        if message.id and message.string:
            left.setdefault(message.context, []).append(message)
    for message in template:
        if not message.id:
            continue
        kept = old.get(message.id, context=message.context) if old is not None else None
        added = catalog.add(message.id, context=message.context, locations=message.locations,
                            auto_comments=message.auto_comments)
        added.flags = set(message.flags) & FORMAT_FLAGS  # the template's, not babel's guess from the text
        if kept is not None and kept.string:
            added.string = kept.string
            added.flags |= set(kept.flags) - FORMAT_FLAGS
            added.previous_id = list(kept.previous_id) if kept.fuzzy else []
            left[message.context] = [m for m in left.get(message.context, []) if m is not kept]
            continue
        candidates = left.get(message.context, []) if message.context else []  # course_lib: exact only
        if candidates:
            best = max(candidates, key=lambda m: difflib.SequenceMatcher(None, m.id, message.id).ratio())
            if len(candidates) == 1 or difflib.SequenceMatcher(None, best.id, message.id).ratio() > 0.5:
                added.string = best.string
                added.flags.add("fuzzy")
                added.previous_id = [best.id]
                candidates.remove(best)
    return catalog


def chapter_template(stem):
    template = new_catalog(stem)
    for english, _ in sources(stem):
        notebook = nbformat.read(english, as_version=4)
        where = english.relative_to(ROOT).as_posix()
        formats = formatted_strings(notebook)
        for index, (cell_id, text, kind) in enumerate(entries(notebook)):
            if template.get(text, context=cell_id) is None:
                added = template.add(text, context=cell_id, locations=[(where, index + 1)], auto_comments=[kind])
                added.flags = {formats[(cell_id, text)]} if (cell_id, text) in formats else set()
    return template


def update_chapter(stem):
    path = catalog_path(stem)
    old = read_catalog(path) if path.exists() else None
    write_catalog(merge(chapter_template(stem), old), path)


def lib_template():
    """course_lib's strings; a string the code formats with % (`_("...") % x`) or .format is flagged
    so (see `formatted_in`); no other string is a format string."""
    template = new_catalog("course_lib")
    formats = {}
    for filename, lineno, message, comments, context in extract_from_dir(
            ROOT / "course_lib", method_map=[("**.py", "python")],
            keywords={"_": None, "N_": None, "Choice": (1, 3)}, comment_tags=("TRANSLATORS:",)):
        if filename not in formats:
            formats[filename] = formatted_in((ROOT / "course_lib" / filename).read_text(encoding="utf-8"))
        for text in (message if isinstance(message, tuple) else [message]):  # Choice: text, explanation
            if not isinstance(text, str) or not text:
                continue
            existing = template.get(text)
            location = (f"course_lib/{filename}", lineno)
            if existing is None:
                existing = template.add(text, locations=[location], auto_comments=comments)
                existing.flags = set()
            else:
                existing.locations.append(location)
            if text in formats[filename]:
                existing.flags.add(formats[filename][text])
    return template


def formatted_in(source):
    """{text: flag} of the `_("...")` strings a module's code formats: "python-brace-format" for
    `_("...").format(...)`, "python-format" for `_("...") % x`, and either for a name given `_()`
    strings (`message = _("a") if ... else _("b")`) that the same function then formats
    (`message.format(...)`)."""
    import ast

    def texts(node):
        return [call.args[0].value for call in ast.walk(node) if isinstance(call, ast.Call)
                and getattr(call.func, "id", None) == "_" and call.args
                and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)]

    def flag_of(parent, child):
        if isinstance(parent, ast.Attribute) and parent.attr == "format" and parent.value is child:
            return "python-brace-format"
        if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Mod) and parent.left is child:
            return "python-format"
        return None

    tree = ast.parse(source)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found = {}
    for node in ast.walk(tree):
        flag = flag_of(parents.get(node), node)
        if flag and isinstance(node, ast.Call) and getattr(node.func, "id", None) == "_":
            found.update(dict.fromkeys(texts(node), flag))
    for scope in ast.walk(tree):
        if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        formatted = {node.id: flag for node in ast.walk(scope) if isinstance(node, ast.Name)
                     for flag in [flag_of(parents.get(node), node)] if flag}
        for node in ast.walk(scope):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and \
                    getattr(node.targets[0], "id", None) in formatted:
                found.update(dict.fromkeys(texts(node.value), formatted[node.targets[0].id]))
    return found


def update_lib():
    old = read_catalog(LIB_PO) if LIB_PO.exists() else None
    catalog = merge(lib_template(), old)
    write_catalog(catalog, LIB_PO)
    LIB_PO.with_suffix(".mo").write_bytes(compiled(read_catalog(LIB_PO)))


def site_template():
    """The static site's words: the strings tools/build_site.py marks with N_()."""
    from babel.messages.extract import extract_from_file

    template = new_catalog("site")
    for lineno, message, comments, _ in extract_from_file("python", SITE_SOURCE, keywords={"N_": None},
                                                          comment_tags=("TRANSLATORS:",)):
        existing = template.get(message)
        location = (SITE_SOURCE.relative_to(ROOT).as_posix(), lineno)
        if existing is None:
            existing = template.add(message, locations=[location], auto_comments=comments)
            existing.flags = set()
        else:
            existing.locations.append(location)
    return template


def update_site():
    old = read_catalog(SITE_PO) if SITE_PO.exists() else None
    write_catalog(merge(site_template(), old), SITE_PO)


def compiled(catalog):
    """The .mo bytes of a catalog (fuzzy entries left out, so gettext falls back to English)."""
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


def translation(catalog, cell_id, text):
    """The French of `text` in cell `cell_id`, or None when missing, empty or fuzzy."""
    message = catalog.get(text, context=cell_id)
    if message is None or not message.string or message.fuzzy:
        return None
    return message.string


# -- building the French notebooks ---------------------------------------------------------------

def translate_code(source, catalog, cell_id, missing):
    lines = source.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    result = source
    for start, end, head, text, tail in reversed(code_pieces(source)):
        french = translation(catalog, cell_id, text)
        if french is None:
            missing.append((cell_id, text))
            continue
        if tail in ("'", '"'):  # a one-line literal: its quote inside the French is escaped
            french = re.sub(r"(?<!\\)" + re.escape(tail), "\\" + tail, french)
        a, b = offsets[start[0] - 1] + start[1], offsets[end[0] - 1] + end[1]
        result = result[:a] + head + french + tail + result[b:]
    return result


def french_notebooks():
    """The French notebooks the manifest's translated chapters give."""
    return {french.resolve() for stem in manifest()["translated"] for _, french in sources(stem)}


def relink(text, english_dir, french_dir):
    """Relative links of a French cell to a file that has no French version lead to the English file."""
    translated = french_notebooks()

    def fix(match):
        target = match.group(2)
        if (french_dir / target).resolve() in translated or not (english_dir / target).exists():
            return match.group(0)
        return match.group(1) + posixpath.relpath((english_dir / target).as_posix(), french_dir.as_posix())
    return RELATIVE_LINK.sub(fix, text)


def build_notebook(english_path, french_path, catalog, missing):
    """The French notebook of `english_path` (outputs of unchanged cells from `french_path`)."""
    notebook = nbformat.read(english_path, as_version=4)
    stored = {}
    if french_path.exists():
        stored = {c.id: c for c in nbformat.read(french_path, as_version=4).cells}
    french = copy.deepcopy(notebook)
    cells = []
    for cell in french.cells:
        if cell.cell_type == "markdown" and cell.source.strip():
            text = translation(catalog, cell.id, cell.source)
            if text is None:
                missing.append((cell.id, cell.source))
            else:
                cell.source = relink(text, english_path.parent, french_path.parent)
        elif cell.cell_type == "code":
            if not any(c.cell_type == "code" for c in cells):
                cells.append(nbformat.v4.new_code_cell(LANGUAGE_CELL, id=LANGUAGE_CELL_ID,
                                                       metadata={"tags": ["setup"]}))
            cell.source = translate_code(cell.source, catalog, cell.id, missing)
        cells.append(cell)
    for cell in cells:
        if cell.cell_type == "code":
            old = stored.get(cell.id)
            same = old is not None and old.cell_type == "code" and old.source == cell.source
            cell.outputs = old.outputs if same else []
            cell.execution_count = old.execution_count if same else None
    french.cells = cells
    french.metadata["course"] = {"language": "fr"}  # read by class mode's template: the glossary has no code cell
    return french


def build_chapter(stem, write=True):
    """{French path: notebook} of a chapter, and the [(file, cell id, English)] left in English."""
    catalog = read_catalog(catalog_path(stem))
    built, missing = {}, []
    for english, french in sources(stem):
        left = []
        built[french] = build_notebook(english, french, catalog, left)
        missing += [(english.relative_to(ROOT).as_posix(), cell_id, text) for cell_id, text in left]
        if write:
            french.parent.mkdir(parents=True, exist_ok=True)
            nbformat.write(built[french], french)
    return built, missing


def index():
    """notebooks/fr/README.md: the chapters in French, and the English ones not translated yet."""
    chosen = manifest()
    lines = ["# Le compagnon en français", "",
             "Chapitres traduits, construits par `python tools/french.py` (`make french`) à partir des notebooks",
             "anglais et des catalogues gettext de `locale/fr/` : ne modifiez pas ces notebooks, modifiez les catalogues",
             "(Poedit, Weblate). Les termes sont ceux des diapositives ; le [glossaire](glossary.ipynb) donne leurs",
             "équivalents anglais. Les nombres s'écrivent comme dans le code et ses sorties, avec un point décimal ;",
             "dans le texte, les milliers sont séparés par une espace (20 000).", "",
             "| # | chapitre | solutions |", "|---|---|---|"]
    for stem in sorted(chosen["translated"] + chosen["not_yet"]):
        if not stem[:2].isdigit():
            continue
        if stem in chosen["translated"]:
            title = nbformat.read(FRENCH / f"{stem}.ipynb", as_version=4).cells[0].source.splitlines()[0]
            link = f"[{title.lstrip('# ').split(' · ', 1)[-1]}]({stem}.ipynb)"
            solutions = f"[solutions](solutions/{stem[:2]}_solutions.ipynb)"
        else:
            link, solutions = f"[{stem}](../{stem}.ipynb) (pas encore traduit : en anglais)", ""
        lines.append(f"| {stem[:2]} | {link} | {solutions} |")
    return "\n".join(lines) + "\n"


def main(names):
    chosen = manifest()
    stems = list(dict.fromkeys(chosen["translated"] + [stem_of(name) for name in names]))
    for stem in stems:
        update_chapter(stem)
    update_lib()
    update_site()
    print(f"catalogs updated: {', '.join(stems)}, course_lib, site")
    failed = False
    for stem in chosen["translated"]:
        _, missing = build_chapter(stem)
        print(f"built notebooks/fr/{stem}.ipynb" + (f": {len(missing)} entries not translated" if missing else ""))
        for where, cell_id, text in missing:
            print(f"  {where} cell {cell_id}: {text[:70]!r}")
        failed |= bool(missing)
    (FRENCH / "README.md").write_text(index(), encoding="utf-8")
    if chosen["not_yet"]:
        print("not yet translated: " + ", ".join(chosen["not_yet"]))
    print("store the outputs: python tools/refresh_notebooks.py notebooks/fr/*.ipynb notebooks/fr/solutions/*.ipynb")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
