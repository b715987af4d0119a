"""Bypasses that hold for a whole class of exercise checks, tested on every check at once.

- The exercise's problem is not an argument: a check of a number or a reason takes only the
  student's answers (a parameter with a default is an answer left optional, default None), so
  `check_gamma(1.0, sigma=1.0)` cannot swap in an easier problem whose answer is known.
- A check whose data come through its arguments (the cell passes the chapter's data) refuses any
  other data.
"""

import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import numpy as np
import pytest

import course_lib.exercises as exercises
from course_lib import data
from course_lib.exercises import linear
from course_lib.exercises.harness import is_the_data
from exercise_testing import assert_caught, assert_passes

ROOT = Path(__file__).resolve().parent.parent


def _checks():
    """{module.check_name: function} of every check a chapter calls (`ex.check_...` in its cells)."""
    called = set()
    for chapter in sorted((ROOT / "notebooks").glob("[01][0-9]_*.ipynb")):
        called |= set(re.findall(r"\bex\.(check_\w+)\(", chapter.read_text()))
    found = {}
    for info in pkgutil.iter_modules(exercises.__path__):
        module = importlib.import_module(f"course_lib.exercises.{info.name}")
        for name in called & set(vars(module)):
            found[f"{info.name}.{name}"] = getattr(module, name)
    return found


CHECKS = _checks()


def test_every_chapter_module_has_checks():
    assert len(CHECKS) >= 55, sorted(CHECKS)  # 12 chapters, 3 to 6 exercises each


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_a_check_takes_no_part_of_the_problem_as_an_argument(name):
    """Every parameter with a default defaults to None: an optional answer (a reason, a prediction)
    or the seed of the cases, never a number of the exercise's problem."""
    parameters = inspect.signature(CHECKS[name]).parameters.values()
    with_values = [p.name for p in parameters if p.default is not inspect.Parameter.empty and p.default is not None]
    assert not with_values, f"{name} lets the student change the exercise's {with_values}"


def test_the_version_space_check_refuses_another_set():
    Xs, rs = data.linearly_separable(n=30, seed=0)
    p = Xs @ np.ones(2)
    right = (-p[rs > 0].min(), -p[rs < 0].max())
    assert_passes(lambda a: linear.check_version_space_interval(*a, Xs, rs), right)
    two_points = (np.array([[1.0, 1.0], [-1.0, -1.0]]), np.array([1, -1]))  # an interval anyone finds: (-2, 2)
    assert_caught(lambda a: linear.check_version_space_interval(*a, *two_points), (-2.0, 2.0), "chapter's set")
    assert_caught(lambda a: linear.check_version_space_interval(*right, Xs[:-1], rs[:-1]), None, "chapter's set")
    assert_caught(lambda a: linear.check_version_space_interval(*right, "Xs", rs), None, "chapter's set")


def test_is_the_data_compares_values_and_shapes():
    X = np.arange(6.0).reshape(3, 2)
    assert is_the_data(X, X.copy()) and is_the_data(X.tolist(), X)
    assert not is_the_data(X[:2], X) and not is_the_data(X + 1e-6, X) and not is_the_data(X.T, X)
    assert not is_the_data("X", X) and not is_the_data([[1, "a"]], X) and not is_the_data(None, X)


def _reason_questions():
    """{module.NAME: choices} of the reasons and predictions the number exercises ask for."""
    found = {}
    for info in pkgutil.iter_modules(exercises.__path__):
        module = importlib.import_module(f"course_lib.exercises.{info.name}")
        for name, value in vars(module).items():
            if name.endswith(("_REASONS", "_PREDICTIONS")) and isinstance(value, tuple):
                found[f"{info.name}.{name}"] = value
    return found


def test_the_right_reason_is_not_always_the_same_letter():
    """Answering "A" everywhere (or any one letter) passes at most 4 in 10 of the reason questions."""
    questions = _reason_questions()
    assert len(questions) >= 10, sorted(questions)
    right = {name: "ABCD"[[c.correct for c in choices].index(True)] for name, choices in questions.items()}
    assert all(sum(c.correct for c in choices) == 1 for choices in questions.values())
    for letter in "ABCD":
        share = sum(value == letter for value in right.values()) / len(right)
        assert share <= 0.4, f"{letter} is right in {share:.0%} of the reason questions: {right}"
