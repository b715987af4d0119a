"""Exercises of chapter 06 (K18, K19): the kernel hinge (sub)gradient written by hand, hinge
losses, one gradient step. Concept questions: `QUIZZES`."""

import numpy as np

from course_lib import kernels
from course_lib.exercises import Verdict
from course_lib.exercises.harness import (Choice, Quiz, check_function, check_number, float_array, limited_tries,
                                         value_and_reason)
from course_lib.exercises.seal import seal
from course_lib.i18n import N_, _
from course_lib.svm_gradient import hinge_error, hinge_gradient, hinge_loss


def _gradient_cases(rng):
    """Random problems: N points, a Gaussian Gram matrix, labels of both classes, alpha >= 0 (some
    exactly 0), w0 and lambda (0 included). The first six have no r^t h(x^t) within 1e-3 of 1 (E
    differentiable); in the last two one point sits exactly on the margin, r^t h(x^t) = 1, where E
    has a kink: G in 64ths and alpha in 8ths make h exact in floating point, whatever order the
    sums are taken in. There the slides' subgradient leaves the point out of Y (r h < 1); counting
    it in is the other end of the subgradient, and is taken too; central finite differences
    average the two and are neither."""
    cases = []
    while len(cases) < 8:
        on_margin = len(cases) >= 6
        N = int(rng.integers(3, 9))
        X = rng.normal(size=(N, 2))
        r = np.where(np.arange(N) % 2 == 0, 1.0, -1.0)
        rng.shuffle(r)
        alpha = np.round(rng.uniform(0, 1.5, N) * (rng.uniform(size=N) > 0.25), 3)
        w0 = float(np.round(rng.normal(0, 0.5), 3))
        G = np.round(kernels.gram(X, "gaussian", sigma=1.0), 4)
        if on_margin:
            G, alpha = np.round(G * 64) / 64, np.round(alpha * 8) / 8
            t = int(rng.integers(N))
            w0 = float(r[t] - (G @ (alpha * r))[t])  # r^t h(x^t) = 1 exactly
        margins_rh = r * (G @ (alpha * r) + w0)
        exact = margins_rh == 1
        if np.any((np.abs(margins_rh - 1) < 1e-3) & ~exact) or exact.any() != on_margin:
            continue
        cases.append({"alpha": alpha, "w0": w0, "G": G, "r": r, "lam": [0.0, 0.5, 2.0][len(cases) % 3]})
    return cases


def _gradient_reference(alpha, w0, G, r, lam):
    """The library's gradient (points on the margin out of Y) and the other end of the
    subgradient (points on the margin in Y), with the average finite differences give there."""
    strict = hinge_gradient(alpha, w0, G, r, lam)
    on_margin = r * (G @ (alpha * r) + w0) == 1
    r_in = np.where(on_margin, r, 0.0)
    wide = (strict[0] - r * (G @ r_in), strict[1] - float(r_in.sum()))
    return {"strict": strict, "wide": wide, "on_margin": bool(on_margin.any()),
            "average": (0.5 * (strict[0] + wide[0]), 0.5 * (strict[1] + wide[1]))}


def _show_case(case):
    return (_("α = {alpha}, w₀ = {w0}, r = {r}, "
            "λ = {lam}, G = K(xˢ, xᵗ) = {G}").format(
                alpha=case['alpha'].tolist(), w0=case['w0'], r=case['r'].tolist(), lam=case['lam'], G=case['G'].tolist()))


def finite_differences(alpha, w0, G, r, lam, eps=1e-6):
    """(dE/dα, dE/dw₀) by central differences of E_hinge."""
    step = np.eye(len(alpha)) * eps
    grad_alpha = np.array([(hinge_error(alpha + e, w0, G, r, lam) - hinge_error(alpha - e, w0, G, r, lam))
                           / (2 * eps) for e in step])
    grad_w0 = (hinge_error(alpha, w0 + eps, G, r, lam) - hinge_error(alpha, w0 - eps, G, r, lam)) / (2 * eps)
    return grad_alpha, grad_w0


def check_hinge_gradient(gradient, seed=None):
    """Coding exercise [K19]: gradient(alpha, w0, G, r, lam) -> (dE/dα, dE/dw₀) of E_hinge,
    checked against the library on fresh random problems; a right answer is also compared with
    central finite differences of E on the same problems."""
    return check_function(
        gradient,
        _gradient_cases,
        _gradient_reference,
        seed=seed,
        show=_show_case,
        compare=lambda expected, got: _compare_gradient(expected, got),
        hint=_("First h = G (α * r) + w₀ and the set Y = {t : rᵗ h(xᵗ) < 1}. Then "
        "dE/dαˢ = -rˢ Σ over t ∈ Y of rᵗ G[s, t] + λ αˢ and dE/dw₀ = -Σ over t ∈ Y of rᵗ. "
        "Return a tuple (array of N numbers, one number)."),
        what=N_("gradient"),
        right=_agrees_with_finite_differences,
    )


def _agrees_with_finite_differences(cases):
    """The Right message: how close the (agreed) gradients are to central finite differences of E."""
    worst = 0.0
    for case in cases[:6]:  # the last two have a point on the margin, where E has a kink
        exact, numeric = hinge_gradient(**case), finite_differences(**case)
        worst = max(worst, np.max(np.abs(exact[0] - numeric[0])), abs(float(exact[1]) - numeric[1]))
    return (_("Your gradient agrees with the library on all {cases} fresh random problems; on the "
            "same problems it agrees with central finite differences of the hinge objective E to {worst:.0e}.").format(
                cases=len(cases), worst=worst))


def _compare_gradient(reference, got):
    if not isinstance(got, (tuple, list)) or len(got) != 2:
        return _("return a tuple of two values: (dE/dα, dE/dw₀)")
    if reference["on_margin"]:
        if _same_gradient(reference["wide"], got):
            return None
        if _same_gradient(reference["average"], got) and not _same_gradient(reference["strict"], got):
            return _("a point sits exactly on the margin (r h = 1), where the hinge objective E has a kink: the subgradient counts "
                     "it out of Y (r h < 1) or in it, and yours takes half of each, as finite differences do. "
                     "Derive the formula")
    return _compare_one_gradient(reference["strict"], got)


def _same_gradient(expected, got):
    return _compare_one_gradient(expected, got) is None


def _compare_one_gradient(expected, got):
    from course_lib.exercises.harness import default_compare

    reason = default_compare(expected[0], got[0])
    if reason:
        return _("dE/dα: {reason}").format(reason=reason)
    reason = default_compare(np.float64(expected[1]), got[1])
    return _("dE/dw₀: {reason}").format(reason=reason) if reason else None


HINGE_REASONS = (
    Choice("It is inside the margin: the hinge asks for y r ≥ 1, not only for the right sign", True,
           "The hinge max(1 - y r, 0) charges every point with y r < 1; the SVM wants a margin of 1, and a point "
           "at 0.5 is on the right side but too close to the boundary."),
    Choice("It is misclassified", False, "y r = 0.5 > 0: the point is on the right side of the boundary."),
    Choice("The hinge is a smoothed 0/1 loss, so it is never exactly 0", False,
           "The hinge is exactly 0 for y r ≥ 1 (your losses at 1 and 2), and it is not smooth: it has a kink at 1."),
    Choice("The loss of a point depends on the other points' margins", False,
           "The hinge of a point is a function of its own y r only; the other points enter through w, not the loss."),
)


@limited_tries
def check_hinge_losses(losses, reason=None):
    """Exercise [K18]: the hinge loss max(1 - y r, 0) at each margin y r, then the reason (a
    letter of HINGE_REASONS) why the well-classified point at y r = 0.5 pays."""
    margins_yr = (-1.0, 0.0, 0.5, 1.0, 2.0)  # the exercise's numbers
    verdict = _check_hinge_values(losses, margins_yr)
    return value_and_reason(verdict, reason, HINGE_REASONS,
                            _("The losses are right. Your reason: {why}"),
                            hint=_("Compare y r = 0.5 with the margin the SVM asks for."))


def _check_hinge_values(losses, margins_yr):
    m = np.asarray(margins_yr, dtype=float)
    return check_number(
        losses,
        hinge_loss(m),
        diagnoses=(
            ((m < 0).astype(float), _("those are the 0/1 losses; the hinge also charges points inside the margin.")),
            (1 - m, _("1 - y r is right only while y r < 1: beyond the margin the hinge is 0, never negative.")),
            (np.maximum(1 + m, 0), _("the sign: the hinge is max(1 - y r, 0), it falls as the margin grows.")),
        ),
        hint=_("For each y r: 1 - y r if y r < 1, else 0."),
        right=_("max(1 - y r, 0): a point with 0 < y r < 1 is well classified but still pays (it is inside "
        "the margin)."),
    )


GD_X = np.array([[0.0, 0.0], [0.5, 0.0], [1.0, 0.0]])
GD_R = np.array([-1.0, 1.0, 1.0])


FIRST_STEP_REASONS = (
    Choice("The point (0, 0) is beyond the margin, so it is not in Y", False,
           "At α = 0, w₀ = 0 every h is 0: every point is inside the margin, in Y, the point (0, 0) too."),
    Choice("λ shrinks it to 0", False, "λ's term of the gradient is λ α = 0 at α = 0."),
    Choice("A point of class -1 always keeps α = 0", False,
           "Negative points get alphas too: αˢ multiplies rˢ in h, so αˢ > 0 pushes h down around a "
           "negative point."),
    Choice("Its gradient -r¹ Σₜ rᵗ K(x¹, xᵗ) is positive, since both its neighbours are of the other class, so "
           "the step would make α¹ negative, and the constraint α ≥ 0 clips it to 0", True,
           "dE/dα¹ = -(-1)(-1 + 0.7788 + 0.3679) = 0.147 > 0: the step -η dE/dα¹ is negative. The "
           "point is outnumbered by the positive class around it, and a positive α would only help them."),
)


@limited_tries
def check_first_step(alpha, w0, reason=None):
    """Exercise [K19]: one gradient step of the kernel hinge SVM from alpha = 0, w0 = 0; then the
    letter of FIRST_STEP_REASONS saying why alpha^1 stays at 0 (hinge_gradient, shown in the
    chapter, gives the step in one call, not why)."""
    return value_and_reason(_check_first_step_values(alpha, w0), reason, FIRST_STEP_REASONS,
                            _("The step is right. Your reason: {why}"),
                            hint=_("Which sign has dE/dα¹, and what does the clipping do?"))


def _check_first_step_values(alpha, w0):
    eta, sigma = 0.1, 1.0  # the exercise's numbers; lambda's term of the gradient is 0 at alpha = 0
    hint = _("At α = 0, w₀ = 0 every h is 0, so every point is in Y: dE/dαˢ = -rˢ Σₜ rᵗ K(xˢ, xᵗ), "
            "dE/dw₀ = -Σₜ rᵗ. Step, then clip the negative alphas to 0.")
    if any(value is Ellipsis or value is None for value in (alpha, w0)):
        return Verdict(False, _("Replace both `...` with the new α (three numbers) and w₀."), hint)
    try:
        answer = np.r_[float_array(alpha).reshape(-1), float_array(w0).reshape(-1)]
    except (TypeError, ValueError):
        return check_number(alpha if not isinstance(alpha, (int, float)) else w0, np.zeros(4), hint=hint)
    G = kernels.gram(GD_X, "gaussian", sigma=sigma)
    unclipped = eta * GD_R * (G @ GD_R)
    step = eta * GD_R.sum()
    expected = np.r_[np.maximum(unclipped, 0), step]
    return check_number(
        answer,
        expected,
        atol=1e-4,
        rtol=1e-3,
        diagnoses=(
            (np.r_[unclipped, step], _("apply the constraint: an α that would become negative is set to 0.")),
            (np.r_[np.maximum(-unclipped, 0), -step], _("the sign of the step: Δ = -η dE/d(.).")),
            (np.r_[np.maximum(unclipped, 0), 0.0], _("w₀ moves too: Δ w₀ = -η dE/dw₀ = η Σₜ rᵗ.")),
        ),
        hint=hint,
        right=_("Every point starts inside the margin; the step is η rˢ Σₜ rᵗ K(xˢ, xᵗ), and the "
        "negative one is clipped to 0."),
    )


def quiz(name):
    """The concept question `name` of chapter 06 as a Quiz (see QUIZZES)."""
    question, choices = QUIZZES[name]
    return Quiz(question, choices)


QUIZZES = {
    "step": (
        N_("Gradient descent on $E_{hinge}$ with a constant $\\eta = 0.02$ and $\\lambda = 100$. What happens to the $\\alpha$?"),
        [
            Choice("They all go to 0: strong regularisation", False,
                   "That is what an even epoch shows. The $\\lambda$ part of the step is $(1 - \\eta\\lambda)\\alpha = -\\alpha$: "
                   "each epoch throws $\\alpha$ past 0, the next brings it back."),
            Choice("They flip between 0 and a positive value every epoch", True,
                   "$\\eta\\lambda = 2 > 1$ overshoots. A step with $\\eta_k\\lambda \\le 1$, shrinking like "
                   "$1/(\\lambda k)$, converges instead."),
            Choice("They converge, more slowly than with $\\lambda = 1$", False,
                   "A constant step with $\\eta\\lambda > 1$ never converges: the regulariser alone overshoots."),
        ],
    ),
    "lambda_zero": (
        N_("With $\\lambda = 0$ and the Gaussian kernel on 40 distinct, overlapping training points, the $\\alpha$ ..."),
        [
            Choice("grow without bound, forever", False,
                   "The Gaussian kernel separates any distinct points: once every point is beyond the margin "
                   "the gradient is 0 and they stop."),
            Choice("grow until every training point is beyond the margin, then stop: the training set is memorised",
                   True, "Then $E_{hinge} = 0$; where they stop depends on $\\eta$, since every such $\\alpha$ is a minimum."),
            Choice("stay small, since the hinge is zero beyond the margin", False,
                   "Points inside the margin push their $\\alpha$ up at every epoch until they leave it."),
        ],
    ),
    "large_lambda": (
        N_("With a very large $\\lambda$ (and balanced classes), the trained $h(\\mathbf{x})$ ..."),
        [
            Choice("is the constant $w_0$: all $\\alpha$ are 0", False,
                   "The $\\alpha$ shrink like $1/\\lambda$ but stay positive for most points."),
            Choice("keeps the same sign everywhere as $\\lambda$ grows further", True,
                   "Every point is in the margin, $\\alpha^s = \\max(0, r^s\\sum_t r^t K(\\mathbf{x}^s, \\mathbf{x}^t))/\\lambda$: "
                   "scaling by $1/\\lambda$ does not change the sign of $h$ (a kernel-density vote)."),
            Choice("memorises the training set", False, "That is the small-$\\lambda$ end."),
        ],
    ),
    "sparse": (
        N_("Are the $\\alpha$ of $E_{hinge}$ (with $\\frac{\\lambda}{2}\\sum_s(\\alpha^s)^2$) sparse like the dual SVM's?"),
        [
            Choice("Yes: only the support vectors get $\\alpha > 0$", False,
                   "That holds for the dual of $\\frac{1}{2}\\|\\mathbf{w}\\|^2 + C\\sum\\xi$. Here the penalty is "
                   "on $\\sum(\\alpha^s)^2$, not on $\\|\\mathbf{w}\\|^2$."),
            Choice("No: $\\alpha^s = \\max(0, r^s\\sum_t \\mu^t r^t K(\\mathbf{x}^s, \\mathbf{x}^t))/\\lambda$ is positive for most points",
                   True, "The multipliers $\\mu^t$ of the margin points are smoothed by the kernel onto almost every point."),
            Choice("Only when $\\lambda = 0$", False, "With $\\lambda = 0$ the memorising $\\alpha$ are not sparse either."),
        ],
    ),
}


seal(__name__)  # the checks refuse to run once what they rely on is changed
