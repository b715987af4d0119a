"""Chapter 09 self-checks: right answers pass, typical mistakes fail with their reason, junk never
raises, and a wrong answer never shows the answer."""

import numpy as np

from exercise_testing import (assert_caught, assert_junk_never_raises, assert_no_answer_leak, assert_passes,
                              assert_stops_a_function_that_never_returns,
                              number_strings, retune)

from course_lib.exercises import perceptron as ex
from course_lib.perceptron import lazy_dicts, lazy_update


def test_multiclass_update():
    # scores: A 0, B 2, C 2 -> tie -> B (first label); gold A: w_A + x, w_B - x
    right = {"A": {"f1": 2, "f2": 1, "f3": 0}, "B": {"f1": -1, "f2": 1, "f3": -1}, "C": {"f1": -1, "f2": 1, "f3": 2}}
    assert_passes(ex.check_multiclass_update, right)
    assert_caught(ex.check_multiclass_update, ex.W_EXERCISE, "Nothing changed")
    wrong_tie = {"A": {"f1": 2, "f2": 1, "f3": 0}, "B": {"f1": 0, "f2": 2, "f3": 0}, "C": {"f1": -2, "f2": 0, "f3": 1}}
    assert not ex.check_multiclass_update(wrong_tie)
    for wrong in (ex.W_EXERCISE, wrong_tie, {"A": {"f1": 0}}, {}):  # no scores, no answer shown
        assert_no_answer_leak(ex.check_multiclass_update, wrong, ["A: 0", "B: 2", "y* = B", "'f1': 2"])
    assert_junk_never_raises(ex.check_multiclass_update, extra=({"A": "b"}, {"A": {"f1": "x"}}))


A_BY_HAND = {"A": {"x": 2, "y": -3}, "B": {"x": -2, "y": 3}}


def test_average():
    assert_passes(lambda a: ex.check_average(*a), (A_BY_HAND, "C"))
    assert_caught(lambda a: ex.check_average(a, "C"), {"A": {"x": 1, "y": -2}, "B": {"x": -1, "y": 2}}, "last w")
    assert_junk_never_raises(lambda a: ex.check_average(a, "C"), extra=({"A": {"x": "1"}},))
    assert_junk_never_raises(lambda reason: ex.check_average(A_BY_HAND, reason))


def test_the_library_gives_a_but_not_the_reason():
    """One call of the library (shown in the chapter) gives a; the check also asks what a weighs."""
    X, y = ex.SEQUENCE
    a, _ = lazy_dicts(X, y, n_epochs=1, shuffle=False)
    assert_caught(ex.check_average, a, "your reason")
    assert_caught(lambda reason: ex.check_average(a, reason), "A", "averaging would change nothing")
    a_plus = {"y": {"f": 5.0}}
    lazy_update(a_plus, {"y": {"f": 2.0}, "z": {"f": 0.0}}, {("y", "f"): 3}, {"f": 1.0}, "y", "z", 10)
    assert_caught(ex.check_lazy_catch_up, a_plus["y"]["f"], "your reason")


def test_lazy_catch_up():
    assert_passes(lambda a: ex.check_lazy_catch_up(*a), (5 + 7 * 2, "B"))
    assert_caught(lambda a: ex.check_lazy_catch_up(a, "B"), 5 + 8 * 2, "One too many")
    assert_caught(lambda a: ex.check_lazy_catch_up(a, "B"), 7 * 2, "old value of a")
    assert_caught(lambda reason: ex.check_lazy_catch_up(19, reason), "A", "counts examples")
    assert_junk_never_raises(lambda a: ex.check_lazy_catch_up(a, "B"))
    assert_junk_never_raises(lambda reason: ex.check_lazy_catch_up(19, reason))
    for wrong in (0, 5 + 8 * 2, 14, "19"):
        assert_no_answer_leak(lambda a: ex.check_lazy_catch_up(a, "B"), wrong, number_strings(19) + ["5 + 7"])


def test_accumulator_cost():
    assert_passes(lambda a: ex.check_accumulator_cost(*a), (5000, 121))
    assert_caught(lambda a: ex.check_accumulator_cost(*a), (5000, 120), "catch-up")
    assert_junk_never_raises(lambda a: ex.check_accumulator_cost(a, a))
    for wrong in ((0, 0), (1000, 120), (5000, 0)):
        assert_no_answer_leak(lambda a: ex.check_accumulator_cost(*a), wrong, ["5000", "5,000", "121"])


def _solution(a, w, last_update, x, gold, pred, n_examples):
    for feat, value in x.items():
        for label, sign in ((gold, 1), (pred, -1)):
            a_label, w_label = a.setdefault(label, {}), w.setdefault(label, {})
            since = n_examples - last_update.get((label, feat), 0)  # examples since the last stamp
            a_label[feat] = a_label.get(feat, 0) + since * w_label.get(feat, 0)
            last_update[label, feat] = n_examples
            w_label[feat] = w_label.get(feat, 0) + sign * value


def test_lazy_update_coding_exercise():
    assert_passes(ex.check_lazy_update, _solution)

    def wrong_sign(a, w, last_update, x, gold, pred, n_examples):  # gold and pred swapped: off by a sign
        _solution(a, w, last_update, x, pred, gold, n_examples)

    def off_by_one(a, w, last_update, x, gold, pred, n_examples):  # a wrong index: n_examples + 1
        _solution(a, w, last_update, x, gold, pred, n_examples + 1)

    def forgets_stamp(a, w, last_update, x, gold, pred, n_examples):
        saved = dict(last_update)
        _solution(a, w, last_update, x, gold, pred, n_examples)
        last_update.clear()
        last_update.update(saved)

    assert_caught(ex.check_lazy_update, wrong_sign, "differs")
    assert_caught(ex.check_lazy_update, off_by_one, "differs")  # a, or only last_update when w is 0 on x's features
    assert_caught(ex.check_lazy_update, forgets_stamp, "last_update differs")
    assert_caught(ex.check_lazy_update, lazy_update, "write it yourself")
    assert_caught(ex.check_lazy_update, lazy_dicts, "parameters")
    assert_caught(ex.check_lazy_update,
                  lambda a, w, last_update, x, gold, pred, n_examples:
                  lazy_update(a, w, last_update, x, gold, pred, n_examples), "write it yourself")
    assert_junk_never_raises(ex.check_lazy_update)
    assert_stops_a_function_that_never_returns(ex.check_lazy_update)
    verdict = assert_caught(ex.check_lazy_update, off_by_one, "differs (e.g. entry")
    assert " too high by " in verdict.why or " too low by " in verdict.why  # by how much, the sign of w deciding
    assert "expected" not in verdict.why


def test_lazy_update_check_leaves_the_cases_untouched(monkeypatch):
    drawn, draw = [], ex._lazy_cases

    def spy(rng):
        drawn.append(draw(rng))
        return drawn[-1]

    retune(monkeypatch, ex, "_lazy_cases", spy)
    ex.check_lazy_update.__wrapped__(_solution, seed=5)  # here: a sealed check runs in a forked child
    assert drawn and drawn[0] == draw(np.random.default_rng(5))
