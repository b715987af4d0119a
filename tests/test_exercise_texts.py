"""The exercises write their math as math, as the concept questions do (tests/test_quiz_texts.py):
a check's verdict, hint and reasons are plain text, so they write it in Unicode (αᵗ, xᵢ, ≤, ‖w‖,
Σₜ, ⟨w, x⟩, w₀); the exercise cells of a chapter are markdown, so they write it as TeX between
dollars. Never ASCII such as alpha^t, x_i, <=, ||w||, sum_t, <w, x>, w.x or w0."""

import ast
import itertools
import re
from pathlib import Path

import nbformat
import pytest

from test_quiz_texts import ASCII_MATH, GREEK

ROOT = Path(__file__).resolve().parent.parent
EXERCISES = ROOT / "course_lib" / "exercises"
NOTEBOOKS = ROOT / "notebooks"
# Beyond the concept questions' pattern: x1 (x₁), dE/dw0, dE/dalpha, a power of a bracket or a number.
MORE_ASCII_MATH = re.compile(r"\b[wxyzh][0-9]\b|\bd(?:w0|alpha)|[)\]|0-9]\^|\bsum[_ₛₜ]")
# A name of code (last_update, joint_feature, check_function) is not a subscript: one letter, a
# Greek letter or an operator (sum, argmax, min) before the underscore is.
CODE_NAME = re.compile(rf"^(?!(?:sum|argmax|argmin|max|min|{GREEK})_)[A-Za-z]{{2,}}_")
# A product written with the letter x (24 x 24, 1.86 x the minimum, w x 0.3, 153 passes x 15 words)
# rather than ×; "the line in x 0.26" (the input x after a word) and "η r x (r = -1)" are no product.
TIMES_AS_X = re.compile(r"(?:\d|\)) x (?=\S)|(?<!\bin)(?<!\bof)(?<!\bat)(?<!\bon) x (?=\d)")


def ascii_math(text):
    """The ASCII math of `text` outside $math$, `code` and {format fields}."""
    prose = re.sub(r"\$\$.*?\$\$", " ", text, flags=re.S)
    prose = re.sub(r"\$[^$]*\$", " ", prose)
    prose = re.sub(r"`[^`]*`", " ", prose)
    prose = re.sub(r"\{[\w.:+\-!]*\}", " ", prose)
    found = ASCII_MATH.findall(prose) + MORE_ASCII_MATH.findall(prose) + TIMES_AS_X.findall(prose)
    return [hit for hit in found if not CODE_NAME.match(hit)]


def _docstrings(tree):
    return {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and ast.get_docstring(node, clean=False)}


def messages(path):
    """{line: text} of the texts a module of course_lib/exercises/ can show: its string literals
    holding a space (prose, not a name), f-strings' literal parts included, docstrings and the
    source code the guard compiles and its HTML left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = _docstrings(tree)
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings \
                and " " in node.value and "\n    " not in node.value and not node.value.startswith("<"):
            found.setdefault(node.lineno, []).append(node.value)
    return found


def exercise_markdown(path):
    """{cell id: source} of the markdown cells of a chapter's exercises (the cell tagged
    'exercises' and every markdown cell after it)."""
    cells, shown = {}, False
    for cell in nbformat.read(path, as_version=4).cells:
        shown = shown or "exercises" in cell.metadata.get("tags", [])
        if shown and cell.cell_type == "markdown":
            cells[cell.id] = cell.source
    return cells


MODULES = sorted(EXERCISES.glob("*.py"))
CHAPTERS = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


def test_the_pattern_finds_the_ascii_math_of_the_old_messages():
    for text in ("w0 <- w0 + eta r", "dE/dalpha^1 = 0.147", "||x - m||^2", "sum_t r^t", "(x.y + 1)^2",
                 "z3 = x1 x2", "dE/dw0 = -1", "sumₛ αˢ", "w_y - w_other", "E_hinge", "n_epochs = 3", "<w_y | x>", "1[y'_t != y_t]", "y_(tau-1)", "sigma_min"):
        assert ascii_math(text), text
    for text in ("w₀ ← w₀ + η r", "dE/dα¹", "‖x - m‖²", "Σₜ rᵗ", "(x·y + 1)²", "z₃ = x₁ x₂", "⟨w[y], x⟩",
                 "1[y′ₜ ≠ yₜ]", "σₘᵢₙ", "`w0` and `np.inf`", "last_update and model.joint_feature",
                 "$\\alpha^t \\leq C$", "$$M_{s,\\tau} = \\max_{s'} M_{s',\\tau-1}$$", "{w0} and {y_hat:+.0f}"):
        assert not ascii_math(text), text


def test_every_module_and_chapter_is_read():
    assert len(MODULES) >= 12 and len(CHAPTERS) == 12
    assert sum(len(messages(path)) for path in MODULES) > 400
    assert all(exercise_markdown(path) for path in CHAPTERS)


@pytest.mark.parametrize("path", MODULES, ids=lambda path: path.name)
def test_the_checks_write_math_in_unicode(path):
    found = {f"{path.name}:{line}": hits for line, texts in messages(path).items()
             for hits in [sum((ascii_math(text) for text in texts), [])] if hits}
    assert not found, found


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda path: path.stem)
def test_the_exercise_cells_write_math_as_tex(path):
    found = {cell: ascii_math(source) for cell, source in exercise_markdown(path).items() if ascii_math(source)}
    assert not found, found


# What a chapter prints is read like the checks' verdicts, so it writes math in Unicode too. Allowed:
# the slides' named objectives (E_percp, E_quad, E_hinge, L_d), the code's names the figures show
# (W_pair, W_unary), a subscript letter Unicode has no form for (b_q, w_y, h_w), a computed power
# Unicode cannot write (N^1.97, with its decimal point; 2^25600, of a number) and a script in
# parentheses (26^(rᵢ)).
PRINTED_ALLOWED = re.compile(r"\b[EL]_(?:percp|quad|hinge|d)\b|\bW_(?:pair|unary)\b|\b[A-Za-z]_[bcdfgquvwyz]\b"
                             r"|\^\d+\.\d+|\d\^\d+|\^\(")


def printed_lines(path):
    """{cell index: lines} of what the chapter's code cells print (their stored text output),
    the listings of the library's source (inspect.getsource) left out."""
    found = {}
    for index, cell in enumerate(nbformat.read(path, as_version=4).cells):
        if cell.cell_type == "code" and "getsource" not in cell.source:
            found[index] = [line for output in cell.outputs if output.output_type == "stream"
                            for line in output.text.splitlines()]
    return found


def test_the_printed_pattern_allows_only_what_unicode_cannot_write():
    assert ascii_math(PRINTED_ALLOWED.sub(" ", "E_percp = 8.4, W_pair[a, b], b_q - bᵢ, 10^79.06, N^1.97, 26^(rᵢ)")) == []
    for text in ("xi > 1: 4 points", "0 <= alpha <= C", "1/2||w||^2", "E_q^2", "26^r readings", "dE/dw0",
                 "argmax_y <w, x>", "w0 = 0.5", "sigma_min = 0.01"):
        assert ascii_math(PRINTED_ALLOWED.sub(" ", text)), text


def test_a_product_written_with_x_is_found():
    for text in ("Q is 24 x 24", "0.468 x the largest", "w x 1.0: inference", "153 passes x 15 words", "Δ x 10"):
        assert TIMES_AS_X.search(text), text
    for text in ("line in x 0.262, plane in φ(x) 0.000", "24 × 24", "x = 3", "f(x) = w·x", "adds η r x (r = -1 here)"):
        assert not TIMES_AS_X.search(text), text


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda path: path.stem)
def test_what_a_chapter_prints_writes_math_in_unicode(path):
    found = {f"cell {index}": [line for line in lines if ascii_math(PRINTED_ALLOWED.sub(" ", line))]
             for index, lines in printed_lines(path).items()}
    found = {cell: lines for cell, lines in found.items() if lines}
    assert not found, found


NUMBERS = re.compile(r"[\s\d.eE+\-−%]+")  # a row of a printed table


def misaligned_tables(lines):
    """The header lines of `lines` that do not sit over their table: a header (three words or
    more, no digit) above three rows or more of numbers, each column of which must end where a
    word of the header ends (the columns are right-aligned)."""
    ends = [[match.end() for match in re.finditer(r"\S+", line)] for line in lines]
    found = []
    for k, header in enumerate(lines):
        table = list(itertools.takewhile(NUMBERS.fullmatch, lines[k + 1:]))
        if re.search(r"\d", header) or len(header.split()) < 3 or len(table) < 3:
            continue
        if any(set(ends[k + 1 + j]) - {end + shift for end in ends[k] for shift in (-1, 0, 1)} for j in range(len(table))):
            found.append(header)
    return found


def test_a_misaligned_table_is_found():
    assert misaligned_tables(["     C   ‖w‖  margin", "  0.01   0.372   2.687", "   0.1   0.858   1.165",
                              "     1   1.389   0.720"]) == ["     C   ‖w‖  margin"]
    assert misaligned_tables(["     C  P(w) chain     gap", "    10        9.28   0.10%", "    30       24.42   0.12%",
                              "   100       64.76   0.14%"]) == []


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda path: path.stem)
def test_a_printed_table_has_its_header_over_its_columns(path):
    found = {f"cell {index}": misaligned_tables(lines) for index, lines in printed_lines(path).items()}
    assert not {cell: headers for cell, headers in found.items() if headers}, found


# A setting printed as a keyword argument (kernel=gaussian, σ=1.0, q=3) where a student reads words
# and spaced math (Gaussian kernel, σ = 1); code in backquotes, and the argument an error message
# tells to pass (C=np.inf), are code. A relation of two symbols (α=C, a column's name) is math.
KEYWORD_DUMP = re.compile(r"(?<![\w=<>!])\w+=(?![=\s])(?:[-+]?\d|[A-Za-z]{2,})")
PRINTED_CODE = re.compile(r"`[^`]*`|\(C=np\.inf\)")


def keyword_dumps(line):
    return KEYWORD_DUMP.findall(PRINTED_CODE.sub(" ", line))


def test_the_keyword_pattern_finds_settings_printed_as_code():
    for line in ("kernel=gaussian, σ=1.0      :  70 SV", "polynomial q=3    : same", "NuSVC, rbf, ν=0.27  70",
                 "SVC(C=1.0, kernel='rbf')"):
        assert keyword_dumps(line), line
    for line in ("Gaussian kernel, σ = 1: 70 SV", "     C   ‖w‖  margin  SV  α=C  Σξ", "add `seed=12` to the call",
                 "so the hard margin (C=np.inf) has no usable solution", "x == y", "a <= b"):
        assert not keyword_dumps(line), line


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda path: path.stem)
def test_what_a_chapter_prints_names_its_settings_in_words(path):
    found = {f"cell {index}": [line for line in lines if keyword_dumps(line)]
             for index, lines in printed_lines(path).items()}
    found = {cell: lines for cell, lines in found.items() if lines}
    assert not found, found
