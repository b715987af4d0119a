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
from course_lib.exercises import harness, linear
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


# -- answers by guessing: a loop over candidate values ------------------------------------------

def _takes_a_function(check):
    """A coding check: the student's function comes first, and `seed=` re-runs its cases."""
    seed = inspect.signature(check).parameters.get("seed")
    return seed is not None and seed.default is None


ANSWER_CHECKS = {name: check for name, check in CHECKS.items() if not _takes_a_function(check)}


@pytest.fixture
def rationed(monkeypatch):
    """The checks ration guesses as in a notebook (tests/conftest.py turns that off); the clock
    is the test's: `rationed[0] += 60` lets a minute pass."""
    clock = [1000.0]
    monkeypatch.setattr(harness, "WRONG_BEFORE_PAUSE", 2)
    monkeypatch.setattr(harness, "_clock", lambda: clock[0])
    return clock


def test_every_check_of_an_answer_rations_guesses():
    assert len(ANSWER_CHECKS) >= 30, sorted(ANSWER_CHECKS)
    unlimited = [name for name, check in ANSWER_CHECKS.items() if not getattr(check, "limited_tries", False)]
    assert not unlimited, f"these checks take guesses without pause: {unlimited}"


@pytest.mark.parametrize("name", sorted(ANSWER_CHECKS))
def test_after_two_wrong_answers_a_check_reads_nothing_for_a_minute_then_twice_as_long(name, rationed):
    check = ANSWER_CHECKS[name]
    wrong = [-123.25] * len(inspect.signature(check).parameters)  # every answer, reasons too
    first, second = check(*wrong), check(*wrong)
    assert not first and not second
    assert "in 60 s" not in first.why and "next one in 60 s" in second.why, second.why
    for _ in range(3):  # during the pause no answer is read, right or wrong
        rationed[0] += 19
        paused = check(*wrong)
        assert not paused and paused.why.startswith("This check is paused"), paused.why
    rationed[0] += 4  # 61 s after the second wrong answer: one answer is read, and the next pause is 2 minutes
    third = check(*wrong)
    assert "paused" not in third.why and "next one in 120 s" in third.why, third.why


def _brute_force(check, candidates):
    """The candidates that pass, calling the check with each as fast as a loop does."""
    return [c for c in candidates if check(*c)]


def test_a_loop_over_candidate_counts_passes_none(rationed):
    """07 ex 1, 11 ex 2, 09 ex 4: whole-number answers, each loop reaching the right one."""
    from course_lib.exercises import multiclass, perceptron, viterbi

    loops = {
        multiclass.check_problem_counts: [(a, b) for a in range(40) for b in range(400)],  # right: (26, 325)
        viterbi.check_counts: [(26 ** 8, b) for b in range(6000)],  # right: (26^8, 7 * 26^2), one part given away
        perceptron.check_accumulator_cost: [(5000, b) for b in range(200)] + [(a, 121) for a in range(6000)],
    }
    for check, candidates in loops.items():
        assert not _brute_force(check, candidates), check.__name__
        rationed[0] += 3600  # an hour later: a candidate after a pause is read, one per pause
        assert not _brute_force(check, candidates[:3]), check.__name__


def test_a_loop_over_every_choice_passes_none(rationed):
    """07 ex 3 and 4: a choice among few options (9 pairs of classes; 4^4 vote lists times 4
    winners times 4 reasons), every option tried."""
    from course_lib.exercises import multiclass

    pairs = [(s, c) for s in (1, 2, 3) for c in (1, 2, 3)]  # right: (1, 3), the third
    assert not _brute_force(multiclass.check_ovr_confidences, pairs)
    votes = [([a, b, c, d], w, letter) for a in range(4) for b in range(4) for c in range(4) for d in range(4)
             for w in range(1, 5) for letter in "ABCD"]
    assert not _brute_force(multiclass.check_votes, votes)


def test_one_part_of_an_answer_is_not_tried_alone(rationed):
    """With the reason (or another part) left `...`, the verdict is the same for the right value
    and a wrong one, and no guess is counted."""
    from course_lib.exercises import multiclass, viterbi

    assert viterbi.check_backtrack("bbb", ...).why == viterbi.check_backtrack("aaa", ...).why
    assert viterbi.check_backtrack("bbb").why == viterbi.check_backtrack("aaa").why
    assert viterbi.check_counts(26 ** 8, ...).why == viterbi.check_counts(3, ...).why
    assert multiclass.check_problem_counts(..., 325).why == multiclass.check_problem_counts(..., 650).why
    assert "letter of your reason" in viterbi.check_backtrack("aaa").why
    assert not harness._tries
    assert viterbi.check_backtrack("bbb", "C") and multiclass.check_problem_counts(26, 325)


def test_an_honest_student_is_not_held_up(rationed):
    """One wrong answer, then the right one: it passes at once. Two wrong answers: the check
    says it waits a minute, and the right answer then passes."""
    from course_lib.exercises import multiclass

    wrong = multiclass.check_problem_counts(26, 650)
    assert not wrong and "same problem" in wrong.why and "wrong answers in a row" not in wrong.why
    assert multiclass.check_problem_counts(26, 325)
    assert not multiclass.check_problem_counts(26, 650)
    second = multiclass.check_problem_counts(25, 300)
    assert not second and "next one in 60 s" in second.why
    assert not multiclass.check_problem_counts(26, 325)  # too early: not read
    rationed[0] += 60
    assert multiclass.check_problem_counts(26, 325)
    again = multiclass.check_problem_counts(26, 650)  # a right answer starts the count again
    assert not again and "wrong answers in a row" not in again.why


# -- the library reached around the guard: another thread, a result computed later, the check's frames --

def _perceptron_by_the_library(X, r, eta, n_epochs):
    from course_lib.linear import Perceptron

    model = Perceptron(eta=eta, n_epochs=n_epochs, shuffle=False).fit(X, r)
    return model.w_, model.w0_


def test_a_thread_started_by_the_student_cannot_call_the_library():
    import threading

    def in_a_thread(X, r, eta, n_epochs):
        out = []
        worker = threading.Thread(target=lambda: out.append(_perceptron_by_the_library(X, r, eta, n_epochs)))
        worker.start()
        worker.join()
        return out[0] if out else None

    assert_caught(linear.check_perceptron, in_a_thread, "write it yourself")


class _Later:
    """A result that computes itself when the check reads it, after the student's call."""

    def __init__(self, compute):
        self.compute = compute

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self.compute(), dtype=dtype)

    def __float__(self):
        return float(self.compute())

    def __eq__(self, other):
        return bool(np.all(self.compute() == other))


def test_a_result_that_computes_itself_when_compared_is_computed_under_the_guard():
    from course_lib import basis, smo
    from course_lib.exercises import basis_functions, margins

    def later(X, r, eta, n_epochs):
        return (_Later(lambda: _perceptron_by_the_library(X, r, eta, n_epochs)[0]),
                _Later(lambda: _perceptron_by_the_library(X, r, eta, n_epochs)[1]))

    assert_caught(linear.check_perceptron, later, "write it yourself")
    assert_caught(margins.check_smo_step,
                  lambda alpha, i, j, K, r, C: _Later(lambda: smo.smo(K, r, C, tol=1e-12, max_iter=1, alpha=alpha).alpha),
                  "write it yourself")
    assert_caught(basis_functions.check_xor_map, lambda X: _Later(lambda: basis.xor_map(X)), "write it yourself")


def test_the_expected_value_is_not_in_the_checks_frames_while_the_student_runs():
    import sys

    def from_the_frames(X, r, eta, n_epochs):
        frame = sys._getframe(1)
        while frame is not None:
            if "expected" in frame.f_locals:
                return frame.f_locals["expected"]
            frame = frame.f_back
        return None

    assert_caught(linear.check_perceptron, from_the_frames, "returned None")


def test_plain_values_keep_numbers_text_and_containers():
    plain = harness._plain_value
    assert plain(None) is None and plain(...) is ... and plain("ab") == "ab" and plain(True) is True
    value = plain((np.arange(3.0), [1, 2.5], {"a": np.float64(2.0)}, {1, 2}))
    assert isinstance(value, tuple) and np.array_equal(value[0], np.arange(3.0)) and value[1:] == ([1, 2.5], {"a": 2.0}, {1, 2})
    assert type(plain(np.arange(3.0).view(np.matrix))) is np.ndarray
    assert repr(plain(object)) == repr(object) and "object" in repr(plain(object()))
