"""The chapter 01 checks: a correct answer passes; a sign error, a wrong index, a call to the
library's answer are each caught with the expected message; junk never raises; a wrong answer
never shows the answer."""

import numpy as np
import pytest
from exercise_testing import (
    assert_caught, assert_junk_never_raises, assert_no_answer_leak, assert_passes, number_strings,
    assert_stops_a_function_that_never_returns,
)

from course_lib import data
from course_lib.exercises import linear as ex
from course_lib.linear import LeastSquaresClassifier, Perceptron

XS, RS = data.linearly_separable(n=30, seed=0)


def test_signed_distance():
    check = ex.check_signed_distance
    assert_passes(check, 2.8)
    assert_caught(check, -2.8, "wrong sign")
    assert_caught(check, 14.0, "divide it by ‖w‖")
    assert_caught(check, 0.4, "not it")
    assert_junk_never_raises(check)
    for wrong in (14.0, 0.4, -2.8):
        assert_no_answer_leak(check, wrong, number_strings(2.8))


def test_perceptron_update():
    check = lambda a: ex.check_perceptron_update(*a) if isinstance(a, tuple) and len(a) == 2 else ex.check_perceptron_update(a, 0.0)
    assert_passes(check, ([-1.0, -2.0], -0.5))
    assert_caught(check, ([3.0, 0.0], 1.5), "sign is flipped")
    assert_caught(check, ([1.0, -1.0], 0.5), "starting point")
    assert_caught(check, ([-1.0, -2.0], 0.5), "w₀ is updated too")
    assert_caught(check, ([-1.0, -2.0, 0.0], -0.5), "yours 4")
    assert_junk_never_raises(check)
    assert_junk_never_raises(lambda a: ex.check_perceptron_update([-1.0, -2.0], a))
    assert_no_answer_leak(check, ([3.0, 0.0], 1.5), ["-1, -2", "-0.5", "(-1.0, -2.0)"])


def _perceptron(X, r, eta, n_epochs, sign=1.0, shift=0, strict=False):
    w, w0 = np.zeros(X.shape[1]), 0.0
    for _ in range(n_epochs):
        for t in range(len(X)):
            s = (t + shift) % len(X)
            h = X[s] @ w + w0
            if (r[t] * h < 0) if strict else (r[t] * h <= 0):
                w = w + sign * eta * r[t] * X[s]
                w0 = w0 + sign * eta * r[t]
    return w, w0


def test_perceptron_coding_exercise():
    check = ex.check_perceptron
    assert_passes(check, _perceptron)
    assert_caught(check, lambda X, r, eta, n_epochs: _perceptron(X, r, eta, n_epochs, sign=-1.0), "on case")
    assert_caught(check, lambda X, r, eta, n_epochs: _perceptron(X, r, eta, n_epochs, shift=1), "on case")
    assert_caught(check, lambda X, r, eta, n_epochs: _perceptron(X, r, eta, n_epochs, strict=True), "on case")

    def library(X, r, eta, n_epochs):
        model = Perceptron(eta=eta, n_epochs=n_epochs, shuffle=False).fit(X, r)
        return model.w_, model.w0_

    def scikit_learn(X, r, eta, n_epochs):  # the same algorithm in scikit-learn
        from sklearn.linear_model import Perceptron as SkPerceptron

        model = SkPerceptron(eta0=eta, max_iter=n_epochs, shuffle=False, tol=None).fit(X, r)
        return model.coef_[0], model.intercept_[0]

    assert_caught(check, library, "write it yourself")
    assert_caught(check, scikit_learn, "write it yourself")
    assert_caught(check, lambda X, r, eta, n_epochs: ex._perceptron_reference(X, r, eta, n_epochs), "write it yourself")
    verdict = assert_caught(check, lambda X, r, eta, n_epochs: _perceptron(X, r, eta, n_epochs, sign=-1.0), "case 1")
    assert "X = " in repr(verdict) and "η = " in repr(verdict) and "seed" in repr(verdict)
    assert_junk_never_raises(check)
    assert_stops_a_function_that_never_returns(check)


@pytest.mark.parametrize("seed", range(10))
def test_perceptron_cases_are_varied(seed):
    cases = ex._perceptron_cases(np.random.default_rng(seed))
    assert len({c["X"].shape for c in cases}) > 5 and len({c["n_epochs"] for c in cases}) > 1
    # the reference does learn something: most cases end away from w = 0
    assert sum(np.any(ex._perceptron_reference(**c)[0]) for c in cases) >= 0.8 * len(cases)


def test_least_squares_against_normal_equations():
    x, r = np.array([-2.0, -1.0, 1.0, 3.0]), np.array([-1.0, -1.0, 1.0, 1.0])
    A = np.c_[x, np.ones(4)]
    w, w0 = np.linalg.solve(A.T @ A, A.T @ r)
    check = lambda a: ex.check_least_squares(*a, "B") if isinstance(a, tuple) and len(a) == 2 \
        else ex.check_least_squares(a, 0.0, "B")
    assert_passes(check, (w, w0))
    assert_caught(check, (w0, w), "swapped")
    assert_caught(check, (-w, w0), "not it")
    assert_junk_never_raises(check)
    assert_no_answer_leak(check, (w0, w), number_strings(w)[:4] + ["28/59"])
    predict = lambda letter: ex.check_least_squares(w, w0, letter)  # noqa: E731
    assert_passes(predict, "B")
    for wrong in ("A", "C", "D", None, "AB", 7):
        verdict = assert_caught(predict, wrong, "")
        assert "(B)" not in verdict.why
    assert_junk_never_raises(predict)


def test_the_far_point_prediction_is_what_least_squares_does():
    """The right prediction of exercise 4: with x = 3 moved to 30, the boundary -w0/w goes from 1/4
    to 7, past the positive point x = 1 (the library's least squares)."""
    r = np.array([-1.0, -1.0, 1.0, 1.0])
    boundaries = []
    for far in (3.0, 30.0):
        fit = LeastSquaresClassifier().fit(np.array([[-2.0], [-1.0], [1.0], [far]]), r)
        boundaries.append(-fit.w0_ / fit.w_[0])
    assert np.isclose(boundaries[0], 0.25) and np.isclose(boundaries[1], 7.0)
    assert "x = 7" in ex.FAR_POINT_PREDICTIONS[1].explanation and ex.FAR_POINT_PREDICTIONS[1].correct


def test_version_space_interval():
    p = XS @ np.array([1.0, 1.0])
    low, high = -p[RS > 0].min(), -p[RS < 0].max()
    check = lambda a: ex.check_version_space_interval(*a, XS, RS) if isinstance(a, tuple) and len(a) == 2 \
        else ex.check_version_space_interval(a, 0.0, XS, RS)
    assert_passes(check, (low, high))
    assert_caught(check, (-low, -high), "signs are flipped")
    assert_caught(check, (high, low), "swapped")
    assert_caught(check, (low / np.sqrt(2), high / np.sqrt(2)), "normalised")
    assert_caught(check, (-p[RS > 0].max(), -p[RS < 0].min()), "wrong extremes")
    assert_junk_never_raises(check)
    assert_no_answer_leak(check, (high, low), [f"{low:.4f}", f"{high:.4f}"])


def test_quizzes_have_one_right_answer_and_explain_every_choice():
    from course_lib.exercises.harness import Quiz

    for question, choices in (ex.QUIZ_PERCEPTRON, ex.QUIZ_FAR_POINT, ex.QUIZ_VERSION_SPACE):
        assert sum(c.correct for c in choices) == 1 and len(choices) >= 3
        assert all(len(c.explanation) > 20 for c in choices)
        Quiz(question, choices)  # builds
