"""The concept questions write their math as math: TeX between dollars (typeset in the question
and the explanations, shown in Unicode in the widget's choices), never ASCII such as α^t,
r^t h(x^t), x_i, sum_t or <=."""

import importlib
import pkgutil
import re
from pathlib import Path

import nbformat
import pytest

import course_lib.exercises
from course_lib.exercises.harness import Choice
from course_lib.plotting.style import plain_text

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
GREEK = "alpha|beta|gamma|delta|Delta|epsilon|eta|theta|lambda|mu|xi|pi|rho|sigma|tau|phi|Phi|psi|Psi|omega"
ASCII_MATH = re.compile(
    r"\^"                                   # α^t, q^2
    r"|(?<![A-Za-zα-ωΑ-Ω])[A-Za-zα-ωΑ-Ω]+'?_[A-Za-z0-9{]"  # x_i, sum_t, y'_t, σ_min
    r"|<=|>=|!=|\|\||->"                    # ≤ ≥ ≠ ‖ →
    r"|<[A-Za-z]"                           # <w, x>
    r"|\bsqrt\("
    rf"|\b(?:{GREEK})\b"                    # lambda, xi, Delta
    r"|\b[a-z]0\b"                          # w0
    r"|(?<![\w.])[a-z]\.[a-z](?![\w.])"     # w.x
)


def _quizzes():
    """Every concept question of the chapters: {name: (question, choices)}."""
    found = {}
    for info in pkgutil.iter_modules(course_lib.exercises.__path__):
        module = importlib.import_module(f"course_lib.exercises.{info.name}")
        for name, value in vars(module).items():
            if name.startswith("QUIZ_") and isinstance(value, tuple):
                found[name] = value[:2]
            elif name == "QUIZZES":
                found.update({key: quiz[:2] for key, quiz in value.items()})
    return found


QUIZZES = _quizzes()


def ascii_math(text):
    """The ASCII math of `text` outside $math$ and `code`."""
    prose = re.sub(r"`[^`]*`", " ", re.sub(r"\$[^$]*\$", " ", text))
    return ASCII_MATH.findall(prose)


def test_the_pattern_finds_the_ascii_math_of_the_old_texts():
    for text in ("α^t > 0", "r^t h(x^t) = 1", "x_i", "sum_t 1[y_t]", "0 <= alpha", "<w_i, x>",
                 "lambda = 1e-3", "rho = 1/||w||", "w0 = r^t - w.x^t", "q -> r", "σ = 64 σ_min"):
        assert ascii_math(text), text
    for text in ("$\\alpha^t > 0$", "`np.inf` and `x_i`", "e.g. 8.4% of 2000 points", "k-NN, 40/20/40"):
        assert not ascii_math(text), text


def test_every_quiz_shown_by_a_chapter_is_checked_here():
    shown = set()
    for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            if "quiz" in cell.metadata.get("tags", []):
                shown |= set(re.findall(r"QUIZ_[A-Z0-9_]+", cell.source))
                shown |= set(re.findall(r"quiz\(\s*[\"'](\w+)[\"']", cell.source))
    assert shown and shown <= set(QUIZZES), sorted(shown - set(QUIZZES))


@pytest.mark.parametrize("name", sorted(QUIZZES))
def test_the_quiz_writes_math_as_math(name):
    question, choices = QUIZZES[name]
    texts = {"question": question}
    for i, choice in enumerate(choices):
        texts[f"choice {i}"], texts[f"explanation {i}"] = choice.text, choice.explanation
    found = {part: ascii_math(text) for part, text in texts.items() if ascii_math(text)}
    assert not found, found
    for choice in choices:  # the widget's labels: TeX fully turned into Unicode
        label = plain_text(choice.text)
        assert not re.search(r"[$\\^_{}]", label), label


def test_the_widget_shows_a_choice_s_math_in_unicode():
    from course_lib.widgets.quiz import Quiz

    quiz = Quiz("Which points have $\\alpha^t > 0$?", [
        Choice("Those with $0 < \\alpha^t \\leq C$", True, "They are the support vectors."),
        Choice("Those with $r^t h(\\mathbf{x}^t) > 1$", False, "Beyond the margin: $\\alpha^t = 0$."),
    ])
    assert quiz.buttons.options == ("A. Those with 0 < αᵗ ≤ C", "B. Those with rᵗ h(xᵗ) > 1")
    assert "B. Those with rᵗ h(xᵗ) > 1" in quiz.static_text()
    assert "$0 &lt; \\alpha^t \\leq C$" in quiz.static_html()  # typeset on the site (MathJax)
