"""Chapter 06's exercise checks: a right answer passes, typical mistakes are caught with their
message, junk never raises, and a wrong answer never shows the answer."""

import numpy as np
import pytest
from exercise_testing import (
    assert_caught, assert_junk_never_raises, assert_no_answer_leak, assert_passes,
    assert_quiz_well_formed, assert_stops_a_function_that_never_returns, number_strings,
)

from course_lib import kernels
from course_lib.exercises import svm_gradient as ex
from course_lib.svm_gradient import KernelHingeGD, hinge_gradient


def gradient(alpha, w0, G, r, lam):
    h = G @ (alpha * r) + w0
    r_in_Y = np.where(r * h < 1, r, 0.0)
    return -r * (G @ r_in_Y) + lam * alpha, -r_in_Y.sum()


def test_hinge_gradient_check():
    verdict = assert_passes(ex.check_hinge_gradient, gradient)
    assert "finite differences" in verdict.why

    def wrong_sign(alpha, w0, G, r, lam):
        g, g0 = gradient(alpha, w0, G, r, lam)
        return -g, -g0

    def wrong_index(alpha, w0, G, r, lam):  # G[t, s] r^s instead of r^s sum_t: drops the outer r^s
        h = G @ (alpha * r) + w0
        return -(G @ np.where(r * h < 1, r, 0.0)) + lam * alpha, gradient(alpha, w0, G, r, lam)[1]

    def forgets_lambda(alpha, w0, G, r, lam):
        return gradient(alpha, w0, G, r, 0.0)

    def margin_le_zero(alpha, w0, G, r, lam):  # Y = misclassified points only (the perceptron's set)
        h = G @ (alpha * r) + w0
        r_in = np.where(r * h < 0, r, 0.0)
        return -r * (G @ r_in) + lam * alpha, -r_in.sum()

    assert_caught(ex.check_hinge_gradient, wrong_sign, "dE/dα")
    assert_caught(ex.check_hinge_gradient, wrong_index, "dE/dα")
    assert_caught(ex.check_hinge_gradient, forgets_lambda, "on case")
    assert_caught(ex.check_hinge_gradient, margin_le_zero, "on case")
    assert_caught(ex.check_hinge_gradient, lambda alpha, w0, G, r, lam: gradient(alpha, w0, G, r, lam)[0],
                  "tuple")
    assert_caught(ex.check_hinge_gradient, hinge_gradient, "write it yourself")
    assert_caught(ex.check_hinge_gradient, lambda alpha, w0, G, r, lam: hinge_gradient(alpha, w0, G, r, lam),
                  "write it yourself")
    assert_caught(ex.check_hinge_gradient, ex.finite_differences, "write it yourself")  # the check's own helper
    assert_caught(ex.check_hinge_gradient, lambda alpha, w0, G, r, lam: ex.finite_differences(alpha, w0, G, r, lam),
                  "write it yourself")
    assert_junk_never_raises(ex.check_hinge_gradient)
    assert_stops_a_function_that_never_returns(ex.check_hinge_gradient)


@pytest.mark.parametrize("seed", range(10))
def test_the_gradient_cases_match_finite_differences(seed):
    """Away from the margin (the first six cases); the last two put a point on it, tested above."""
    for c in ex._gradient_cases(np.random.default_rng(seed))[:6]:
        grad_alpha, grad_w0 = hinge_gradient(**c)
        numeric_alpha, numeric_w0 = ex.finite_differences(**c)
        np.testing.assert_allclose(grad_alpha, numeric_alpha, atol=1e-6)
        assert grad_w0 == pytest.approx(numeric_w0, abs=1e-6)
    assert len(set(c["r"])) == 2


def test_hinge_losses_check():
    answer = [2, 1, 0.5, 0, 0]
    assert_passes(lambda reason: ex.check_hinge_losses(answer, reason), "A")
    for wrong in ("B", "C", "D", 1):  # a wrong reason, explained, and which one is right is not said
        verdict = assert_caught(lambda reason: ex.check_hinge_losses(answer, reason), wrong, "your reason")
        assert "(A)" not in verdict.why
    assert_junk_never_raises(lambda reason: ex.check_hinge_losses(answer, reason))

    def with_reason(losses):  # a wrong table is caught whatever the reason
        return ex.check_hinge_losses(losses, "A")

    assert_caught(with_reason, [1, 0, 0, 0, 0], "0/1")
    assert_caught(with_reason, [2, 1, 0.5, 0, -1], "never negative")
    assert_caught(with_reason, [0, 1, 1.5, 2, 3], "sign")
    assert_caught(with_reason, [2, 1, 0.5], "shape")
    assert_junk_never_raises(with_reason)
    assert_no_answer_leak(with_reason, [1, 1, 1, 1, 1], ["[2, 1, 0.5", "2.0, 1.0, 0.5", "2. , 1. , 0.5"])


def test_first_step_check():
    model = KernelHingeGD(sigma=1.0, lam=1.0, eta=0.1, n_epochs=1).fit(ex.GD_X, ex.GD_R)
    assert_passes(lambda a: ex.check_first_step(a, model.w0_, "D"), model.alpha_)
    G = kernels.gram(ex.GD_X, "gaussian", sigma=1.0)
    unclipped = 0.1 * ex.GD_R * (G @ ex.GD_R)
    assert (unclipped < 0).any()
    assert_caught(lambda a: ex.check_first_step(a, model.w0_, "D"), unclipped, "set to 0")
    assert_caught(lambda a: ex.check_first_step(a, -model.w0_, "D"), np.maximum(-unclipped, 0), "sign")
    assert_caught(lambda a: ex.check_first_step(a, 0.0, "D"), model.alpha_, "w₀ moves")
    assert_junk_never_raises(lambda a: ex.check_first_step(a, model.w0_, "D"))
    assert_junk_never_raises(lambda w0: ex.check_first_step(model.alpha_, w0, "D"), extra=([1, 2],))
    leaks = [s for value in model.alpha_ for s in number_strings(value) if value > 0]
    assert_no_answer_leak(lambda a: ex.check_first_step(a, model.w0_, "D"), [0.3, 0.3, 0.3], leaks)


def test_first_step_needs_the_reason_the_library_cannot_give():
    """hinge_gradient, shown in the chapter, gives the step in one call; the reason is the student's own."""
    G = kernels.gram(ex.GD_X, "gaussian", sigma=1.0)
    grad_alpha, grad_w0 = hinge_gradient(np.zeros(3), 0.0, G, ex.GD_R, 1.0)
    alpha, w0 = np.maximum(-0.1 * grad_alpha, 0.0), -0.1 * grad_w0
    assert grad_alpha[0] > 0 and alpha[0] == 0  # the reason's premise: alpha^1 is clipped
    assert_caught(lambda a: ex.check_first_step(*a), (alpha, w0), "letter of your reason")
    for wrong in "ABC":
        assert_no_answer_leak(lambda a: ex.check_first_step(alpha, w0, a), wrong, ["(D)"])
    assert_passes(lambda a: ex.check_first_step(alpha, w0, a), "D")


@pytest.mark.parametrize("name", sorted(ex.QUIZZES))
def test_quizzes_have_one_right_choice_and_every_choice_explained(name):
    assert_quiz_well_formed(ex.QUIZZES[name][1], ex.quiz(name))


def test_finite_differences_of_a_self_written_E_do_not_pass():
    """E_hinge written out and differentiated numerically (no gradient derived): the cases with a
    point exactly on the margin, where E has a kink, refuse its average of the two sides; the
    other end of the subgradient (the point counted in Y) passes."""
    def E(alpha, w0, G, r, lam):
        return 0.5 * lam * alpha @ alpha + np.maximum(0, 1 - r * (G @ (alpha * r) + w0)).sum()

    def numeric(alpha, w0, G, r, lam):  # not a copy of the check's own finite_differences (refused as such)
        h = 1e-5
        grad = np.zeros(len(alpha))
        for s in range(len(alpha)):
            up, down = alpha.copy(), alpha.copy()
            up[s] += h
            down[s] -= h
            grad[s] = (E(up, w0, G, r, lam) - E(down, w0, G, r, lam)) / (2 * h)
        return grad, (E(alpha, w0 + h, G, r, lam) - E(alpha, w0 - h, G, r, lam)) / (2 * h)

    def counts_the_margin_in(alpha, w0, G, r, lam):
        r_in_Y = np.where(r * (G @ (alpha * r) + w0) <= 1, r, 0.0)
        return -r * (G @ r_in_Y) + lam * alpha, -r_in_Y.sum()

    for _ in range(5):
        assert_caught(ex.check_hinge_gradient, numeric, "finite differences")
        assert_passes(ex.check_hinge_gradient, counts_the_margin_in)
    cases = ex._gradient_cases(np.random.default_rng(0))
    on_margin = [np.any(c["r"] * (c["G"] @ (c["alpha"] * c["r"]) + c["w0"]) == 1) for c in cases]
    assert on_margin == [False] * 6 + [True] * 2
