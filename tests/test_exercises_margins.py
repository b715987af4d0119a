"""The chapter 02-03 checks: a correct answer passes; a sign error, a wrong index, a call to the
library's answer are each caught with the expected message; junk never raises; a wrong answer
never shows the answer."""

import numpy as np
import pytest
from exercise_testing import (
    assert_caught, assert_junk_never_raises, assert_no_answer_leak, assert_passes, number_strings,
    assert_stops_a_function_that_never_returns,
)
from sklearn.svm import SVC

from course_lib import lagrange, smo
from course_lib.exercises import margins as ex
from course_lib.svm import SVM


def _pair(check, *reason):
    return lambda a: check(*a, *reason) if isinstance(a, tuple) and len(a) == 2 else check(a, 0.0, *reason)


def test_canonical_scaling():
    check = _pair(ex.check_canonical_scaling, "D")
    assert_passes(check, ([1.0, 1 / 3], 0.0))
    assert_caught(check, ([3.0, 1.0], 0.0), "given (w, w₀)")
    assert_caught(check, ([6.0, 2.0], 0.0), "not the canonical scale")
    assert_caught(check, (np.array([3.0, 1.0]) / np.sqrt(10), 0.0), "not by ‖w‖")
    assert_caught(check, ([-1.0, -1 / 3], 0.0), "not it")
    assert_junk_never_raises(check)
    assert_no_answer_leak(check, ([3.0, 1.0], 0.0), ["1/3", "0.333"])


def test_canonical_scaling_needs_the_reason_the_library_cannot_give():
    """margins.canonical_form, shown in chapter 02, gives the numbers in one call; the reason is the student's own."""
    from course_lib import margins

    w, w0 = margins.canonical_form(ex.HARD_X, ex.HARD_R, np.array([3.0, 1.0]), 0.0)
    assert_caught(lambda a: ex.check_canonical_scaling(*a), (w, w0), "letter of your reason")
    for wrong in "ABC":
        assert_no_answer_leak(lambda a: ex.check_canonical_scaling(w, w0, a), wrong, ["(D)"])
    assert_passes(lambda a: ex.check_canonical_scaling(w, w0, a), "D")


def test_lagrange_against_a_scan_of_the_line():
    t = np.linspace(-2, 2, 400_001)  # on x1 = 2 - 2 x2, f = 1 - (2 - 2 t)^2 - t^2
    best = t[np.argmax(1 - (2 - 2 * t) ** 2 - t**2)]
    check = lambda a: ex.check_lagrange(*a, "B") if isinstance(a, tuple) and len(a) == 3 else ex.check_lagrange(a, 0, 0, "B")
    assert_passes(check, (2 - 2 * best, best, 2 * (2 - 2 * best)))
    assert_caught(check, (0.4, 0.8, -0.8), "sign of λ")
    assert_caught(check, (0.4, 0.8, 1.0), "x is right")
    assert_caught(check, (0.0, 1.0, 1.0), "on the constraint but")
    assert_caught(check, (1.0, 1.0, 1.0), "not it")
    assert_junk_never_raises(check)
    assert_no_answer_leak(check, (0.0, 1.0, 1.0), ["0.4", "0.8"])


def test_the_library_gives_the_lagrange_numbers_but_not_the_reason():
    """solve_lagrange (shown in the chapter) gives x and lambda in one call; the check also asks why
    grad f and grad g are parallel, and the right reason holds for the library's solution."""
    x, lam = lagrange.solve_lagrange(a=np.array(ex.LAGRANGE_A), b=ex.LAGRANGE_B)
    assert_caught(lambda a: ex.check_lagrange(*a), (x[0], x[1], lam), "your reason")
    assert_passes(lambda reason: ex.check_lagrange(x[0], x[1], lam, reason), "B")
    for wrong in ("A", "C", "D", None, "AB"):
        assert "(B)" not in assert_caught(lambda reason: ex.check_lagrange(x[0], x[1], lam, reason), wrong, "").why
    grad_f, grad_g = -2 * x, np.array(ex.LAGRANGE_A)
    np.testing.assert_allclose(grad_f + lam * grad_g, 0, atol=1e-12)  # parallel, with the lambda the check wants
    assert_junk_never_raises(lambda reason: ex.check_lagrange(x[0], x[1], lam, reason))


def test_hard_margin_against_sklearn():
    svc = SVC(kernel="linear", C=1e8).fit(ex.HARD_X, ex.HARD_R)
    check = lambda a: ex.check_hard_margin(*a, "D") if isinstance(a, tuple) and len(a) == 3 \
        else ex.check_hard_margin(a, 0, [1], "D")
    assert_passes(check, (np.round(svc.coef_[0], 3), round(svc.intercept_[0], 3), svc.support_.tolist()))
    assert_caught(check, ([1.0, 0.0], 0.0, [0, 1, 2]), "support vectors are the points")
    assert_caught(check, ([1.0, 0.0], 0.0, [2, 3]), "support vectors are the points")  # a wrong index
    assert_caught(check, ([1.0, 0.0], 0.0, "abc"), "holds text")  # read at the door: text where numbers are asked
    assert_caught(check, ([2.0, 0.0], 0.0, [1, 2]), "canonical form")
    assert_caught(check, ([-1.0, 0.0], 0.0, [1, 2]), "not it")  # sign error
    assert_junk_never_raises(check)
    assert_junk_never_raises(lambda a: ex.check_hard_margin([1.0, 0.0], 0.0, a) if a is not None and not
                             isinstance(a, (list, tuple)) else ex.check_hard_margin(a, 0.0, [1, 2]))
    assert_no_answer_leak(check, ([2.0, 0.0], 0.0, [1, 2]), ["(1, 0)", "[1.0, 0.0]", "x1 = 0"])
    predict = lambda letter: ex.check_hard_margin([1.0, 0.0], 0.0, [1, 2], letter)  # noqa: E731
    for wrong in ("A", "B", "C", None, 9):
        assert "(D)" not in assert_caught(predict, wrong, "").why
    assert_junk_never_raises(lambda a: predict("A" if type(a) is int and a == 3 else a))  # the junk 3 is (D)
    # the right prediction holds: without x^0 the library's SVM is the same
    without = SVC(kernel="linear", C=1e8).fit(ex.HARD_X[1:], ex.HARD_R[1:])
    np.testing.assert_allclose(without.coef_, svc.coef_, atol=1e-6)
    assert np.isclose(without.intercept_[0], svc.intercept_[0], atol=1e-6) and ex.REMOVAL_PREDICTIONS[3].correct


def _two_point(x_plus, x_minus, sign=1.0, factor=2.0, plus=False):
    d = x_plus + x_minus if plus else x_plus - x_minus
    alpha = factor / (d @ d)
    w = alpha * d
    return alpha, w, sign * (1.0 - w @ x_plus)


def test_two_point_svm():
    check = ex.check_two_point_svm
    assert_passes(check, _two_point)
    assert_caught(check, lambda x_plus, x_minus: _two_point(x_plus, x_minus, sign=-1.0), "value 3 of 3")
    assert_caught(check, lambda x_plus, x_minus: _two_point(x_plus, x_minus, factor=1.0), "value 1 of 3")
    assert_caught(check, lambda x_plus, x_minus: _two_point(x_plus, x_minus, plus=True), "on case")

    def library(x_plus, x_minus):
        svm = SVM(C=np.inf).fit(np.vstack([x_plus, x_minus]), np.array([1.0, -1.0]))
        return svm.alpha_[0], svm.w_, svm.w0_

    def scikit_learn(x_plus, x_minus):
        svc = SVC(kernel="linear", C=1e10).fit(np.vstack([x_plus, x_minus]), [1, -1])
        return abs(svc.dual_coef_[0, 0]), svc.coef_[0], svc.intercept_[0]

    assert_caught(check, library, "write it yourself")
    assert_caught(check, scikit_learn, "write it yourself")
    assert_caught(check, lambda x_plus, x_minus: ex._two_point_reference(x_plus, x_minus), "write it yourself")
    assert_junk_never_raises(check)
    assert_stops_a_function_that_never_returns(check)


def test_slacks_and_primal():
    assert_passes(ex.check_slacks, [0.0, 0.5, 1.5, 0.0])
    assert_caught(ex.check_slacks, [-1.0, 0.5, 1.5, -2.0], "never negative")
    assert_caught(ex.check_slacks, [0.0, 0.5, 1.5], "yours 3")
    assert_caught(ex.check_slacks, [0.0, 1.5, 0.5, 0.0], "not it")  # two indices swapped
    assert_junk_never_raises(ex.check_slacks)
    assert_no_answer_leak(ex.check_slacks, [0.0, 1.5, 0.5, 0.0], ["0.5, 1.5", "(0, 0.5, 1.5, 0)"])
    assert_passes(ex.check_primal_objective, 4.5)
    assert_caught(ex.check_primal_objective, 2.5, "multiply the slacks by C")
    assert_caught(ex.check_primal_objective, 5.0, "not ‖w‖²")
    assert_junk_never_raises(ex.check_primal_objective)
    assert_no_answer_leak(ex.check_primal_objective, 2.5, number_strings(4.5))


def _smo_step(alpha, i, j, K, r, C, sign=1.0, clip=True, swap=False):
    E = r - K @ (alpha * r)
    a, b = (j, i) if swap else (i, j)
    tau = (E[a] - E[b]) / (K[i, i] + K[j, j] - 2 * K[i, j])
    room_i = C - alpha[i] if r[i] > 0 else alpha[i]
    room_j = alpha[j] if r[j] > 0 else C - alpha[j]
    if clip:
        tau = min(tau, room_i, room_j)
    new = alpha.copy()
    new[i] += sign * r[i] * tau
    new[j] -= sign * r[j] * tau
    return new


def test_a_wrong_smo_step_is_told_without_the_whole_gram_matrix():
    """The case shows the two rows of K the step reads (Eⁱ, Eʲ and the curvature need no other),
    so the reason is not pushed behind an N x N matrix."""
    for seed in range(5):
        text = repr(ex.check_smo_step(lambda alpha, i, j, K, r, C: alpha, seed=seed))
        assert "K[i] = [" in text and "K[j] = [" in text and "[[" not in text, text
        reason = text.index("]: ", text.index("K[j] = "))  # the case ends, the reason begins
        assert reason - text.index("on case") < 320, text


def test_smo_step():
    check = ex.check_smo_step
    assert_passes(check, _smo_step)
    assert_caught(check, lambda alpha, i, j, K, r, C: _smo_step(alpha, i, j, K, r, C, sign=-1.0), "on case")
    assert_caught(check, lambda alpha, i, j, K, r, C: _smo_step(alpha, i, j, K, r, C, swap=True), "on case")
    assert_caught(check, lambda alpha, i, j, K, r, C: _smo_step(alpha, i, j, K, r, C, clip=False), "case")
    assert_caught(check, lambda alpha, i, j, K, r, C: smo.smo(K, r, C, max_iter=1, alpha=alpha).alpha,
                  "write it yourself")

    def in_place(alpha, i, j, K, r, C):  # right values, but the exercise says not to modify alpha
        new = _smo_step(alpha, i, j, K, r, C)
        alpha[:] = new
        return alpha

    assert_caught(check, in_place, "changed its argument `alpha` in place")
    assert_junk_never_raises(check)
    assert_stops_a_function_that_never_returns(check)


@pytest.mark.parametrize("seed", range(10))
def test_smo_cases_clip_often_and_change_exactly_the_pair(seed):
    cases = ex._smo_step_cases(np.random.default_rng(seed))
    clipped = 0
    for case in cases:
        new = ex._smo_step_reference(**case)
        assert set(np.flatnonzero(new != case["alpha"])) == {case["i"], case["j"]}
        unclipped = _smo_step(**case, clip=False)
        clipped += not np.allclose(unclipped, new)
    assert 0.3 * len(cases) <= clipped <= 0.9 * len(cases), clipped


def test_quizzes_have_one_right_answer_and_explain_every_choice():
    from course_lib.exercises.harness import Quiz

    quizzes = (ex.QUIZ_MARGIN, ex.QUIZ_KKT, ex.QUIZ_SUPPORT_VECTORS, ex.QUIZ_DUAL,
               ex.QUIZ_SLACK, ex.QUIZ_SMALL_C, ex.QUIZ_W0, ex.QUIZ_LARGE_C)
    for question, choices in quizzes:
        assert sum(c.correct for c in choices) == 1 and len(choices) >= 3
        assert all(len(c.explanation) > 20 for c in choices)
        Quiz(question, choices)
