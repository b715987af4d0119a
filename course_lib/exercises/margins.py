"""Self-checks for the exercises of chapters 02 (margins, Lagrange, the hard-margin SVM) and 03
(soft margins, SMO), and the chapters' concept questions.

Each check returns a Verdict: "Right" with the reason, or "Not yet" with what is wrong, never the
expected answer; the coding exercises run the student's function on fresh random cases against
the library (`harness.check_function`).
"""

import numpy as np

from course_lib import lagrange, margins, smo
from course_lib.exercises import Verdict
from course_lib.exercises.harness import (Choice, check_function, check_reason, float_array, limited_tries, no_diagnosis,
                                         value_and_reason)
from course_lib.exercises.seal import seal
from course_lib.exercises.linear import answer_vector, check_numbers
from course_lib.i18n import N_, _
from course_lib.svm import SVM

# Chapter 02 [K5-K8]

HARD_X = np.array([[-3.0, 0.0], [-1.0, 0.0], [1.0, 0.0], [2.0, 1.0]])
HARD_R = np.array([-1.0, -1.0, 1.0, 1.0])
GIVEN_W, GIVEN_W0 = np.array([3.0, 1.0]), 0.0


CANONICAL_REASONS = (
    Choice("Dividing by 3 turns w towards the closest point, so the line moves until that point is at distance 1",
           False, "w / 3 points the same way as w: {x : w·x + w₀ = 0} is the same line for every positive factor."),
    Choice("The margin is ‖w‖: a smaller w gives a narrower margin", False,
           "The other way round: the margin is 1 / ‖w‖ in canonical form, so a smaller w gives a wider one."),
    Choice("Every separating line has its closest point at distance 1", False,
           "The closest point of this line is at distance 3 / √(10) = 0.95; distances do not depend on the scale "
           "of (w, w₀), only r h(x) does."),
    Choice("The distance of x to the line is r h(x) / ‖w‖ whatever the scale; at the scale where the closest point has "
           "r h(x) = 1, its distance, the margin, is 1 / ‖w‖", True,
           "Dividing (w, w₀) by 3 divides h and ‖w‖ alike: the line and the distances stay, and the closest point's "
           "r h(x) / ‖w‖ becomes 1 / ‖w‖ = 1 / ‖(1, 1/3)‖ = 0.95. That is why the SVM can maximise the margin by "
           "minimising ‖w‖."),
)


@limited_tries
def check_canonical_scaling(w, w0, reason=None):
    """Exercise 1 [K5]: rescale (w, w0) = ((3, 1), 0) so that min_t r^t h(x^t) = 1 on HARD_X; then
    the letter of CANONICAL_REASONS saying why the margin is then 1 / ||w|| (the library's
    canonical_form, shown in the chapter, gives the numbers in one call, not why)."""
    return value_and_reason(_check_canonical_values(w, w0), reason, CANONICAL_REASONS,
                            _("w and w₀ are right. Your reason: {why}"),
                            hint=_("What does dividing (w, w₀) by a positive number do to h(x) and to ‖w‖?"))


def _check_canonical_values(w, w0):
    expected_w, expected_w0 = margins.canonical_form(HARD_X, HARD_R, GIVEN_W, GIVEN_W0)
    unit = GIVEN_W / np.linalg.norm(GIVEN_W)
    verdict = check_numbers((w, w0), np.r_[expected_w, expected_w0], diagnoses=(
        (np.r_[GIVEN_W, GIVEN_W0], _("That is the given (w, w₀): rescale it so that the closest point has r h(x) = 1.")),
        (np.r_[unit, 0.0], _("That is w / ‖w‖: the canonical form divides by minₜ rᵗ h(xᵗ), not by ‖w‖.")),
    ), hint=_("Compute rᵗ (w·xᵗ + w₀) for the four points and divide (w, w₀) by the smallest."),
        right=_("minₜ rᵗ h(xᵗ) = 3 for the given line; dividing by 3 gives w = (1, 1/3), w₀ = 0."))
    array = answer_vector(w, w0)[0]
    if no_diagnosis(verdict) and array is not None and array.size == 3 and margins.same_hyperplane(GIVEN_W, GIVEN_W0, array[:2], array[2]):
        return Verdict(False, _("Same hyperplane, but not the canonical scale: the closest point must have r h(x) = 1."),
                       verdict._hint)
    return verdict


LAGRANGE_A, LAGRANGE_B = (1.0, 2.0), 2.0


LAGRANGE_REASONS = (
    Choice("f is concave, so its gradient is 0 at the constrained maximum", False,
           "Its gradient is 0 only at (0, 0), which is not on the line x₁ + 2 x₂ = 2; at (0.4, 0.8) it is "
           "(-0.8, -1.6), not 0."),
    Choice("At the maximum, moving along the line cannot raise f: grad f has no component along the line, so it "
           "is perpendicular to it, as grad g is", True,
           "grad f = (-0.8, -1.6) and grad g = (1, 2) are parallel at (0.4, 0.8): grad f + λ grad g = 0 with "
           "λ = 0.8, the condition grad L = 0 writes."),
    Choice("λ is 0 at a maximum under an equality constraint", False,
           "λ = 0 would need grad f = 0 on the line; here λ = 0.8."),
    Choice("g is linear, so every point of the line gives the same f", False,
           "f changes along the line: (2, 0) gives f = -3, (0.4, 0.8) gives 0.2."),
)


@limited_tries
def check_lagrange(x1, x2, lam, reason=None):
    """Exercise 2 [K6]: maximise 1 - x1^2 - x2^2 subject to x1 + 2 x2 - 2 = 0; then the letter of
    LAGRANGE_REASONS saying why grad f and grad g are parallel there (the library's
    solve_lagrange gives the numbers in one call, not why)."""
    verdict = _check_lagrange_values(x1, x2, lam)
    return value_and_reason(verdict, reason, LAGRANGE_REASONS,
                            _("The numbers are right. Your reason: {why}"),
                            hint=_("Which way can the point move on the constraint line?"))


def _check_lagrange_values(x1, x2, lam):
    x, expected_lam = lagrange.solve_lagrange(a=np.array(LAGRANGE_A), b=LAGRANGE_B)
    hint = _("grad L = 0 gives -2 x₁ + λ = 0, -2 x₂ + 2 λ = 0 and x₁ + 2 x₂ = 2: three linear equations.")
    verdict = check_numbers((x1, x2, lam), np.r_[x, expected_lam], diagnoses=(
        (np.r_[x, -expected_lam], _("x is right; the sign of λ is not: L = f + λ g, so -2 x₁ + λ = 0.")),
    ), hint=hint, right=_("x = λ (1/2, 1) and 5 λ / 2 = 2: λ = 0.8, x = (0.4, 0.8)."))
    array = answer_vector(x1, x2, lam)[0]
    if no_diagnosis(verdict) and array is not None and array.size == 3:
        if np.allclose(array[:2], x, atol=1e-4):
            return Verdict(False, _("x is right; λ comes from -2 x₁ + λ = 0."), hint)
        if abs(array[0] + 2 * array[1] - 2) < 1e-4:
            return Verdict(False, _("Your point is on the constraint but is not the best one: write dL/dx1 = 0 and "
                                  "dL/dx2 = 0."), hint)
    return verdict


REMOVAL_PREDICTIONS = (
    Choice("The line moves: every point pulls on it, as in least squares", False,
           "That is least squares. A point beyond the margin has α = 0 and no say in w = Σ α r x."),
    Choice("The margin gets wider, since there are fewer points to separate", False,
           "The margin is set by the closest pair across the classes, x¹ and x²; x⁰ is not one of them."),
    Choice("It depends on C", False, "The hard margin has no C (it is the limit C → infinity)."),
    Choice("Nothing changes: x⁰ has α = 0, and w = Σ α r x uses the support vectors only", True,
           "The SVM depends on its support vectors alone: removing a point with α = 0 leaves the dual's "
           "optimum, hence w and w₀, as they are."),
)


@limited_tries
def check_hard_margin(w, w0, support, prediction=None):
    """Exercise 3 [K8]: the hard-margin SVM on HARD_X, HARD_R: w, w0 and the support vectors, then
    the prediction (a letter of REMOVAL_PREDICTIONS) of what removing x^0 does."""
    return value_and_reason(_check_hard_margin(w, w0, support), prediction, REMOVAL_PREDICTIONS,
                            _("w, w₀ and the support vectors are right. Your prediction: {why}"),
                            hint=_("Which points appear in w = Σ α r x?"))


def _check_hard_margin(w, w0, support):
    svm = SVM(C=np.inf, kernel="linear", tol=1e-9).fit(HARD_X, HARD_R)
    hint = _("Find the two closest points of opposite classes: the maximal-margin line bisects them, with r h(x) = 1 on both.")
    verdict = check_numbers((w, w0), np.r_[svm.w_, svm.w0_], diagnoses=(
        (np.r_[2 * svm.w_, 2 * svm.w0_], _("That line is right but not in canonical form: r h(x) must be 1 on the support vectors.")),
    ), hint=hint)
    if not verdict:
        return verdict
    try:
        indices = np.ravel(float_array(support))
    except (TypeError, ValueError):
        indices = np.array([np.nan])
    if isinstance(support, (str, bytes)) or not np.all(np.isfinite(indices)) or np.any(indices != np.round(indices)):
        return Verdict(False, _("w and w₀ are right; give the support vectors as a list of indices, like [0, 3]."), hint)
    given = sorted(int(t) for t in indices)
    if given != svm.support_.tolist():
        return Verdict(False, _("w and w₀ are right; the support vectors are the points with r h(x) = 1 exactly "
                              "(indices from 0)."), hint)
    return Verdict(True, _("x¹ = (-1, 0) and x² = (1, 0) are the closest across the classes: the line x₁ = 0 with "
                         "w = (1, 0), w₀ = 0, and α = 0.5 on both (w = Σ α r x)."), hint)


def _two_point_reference(x_plus, x_minus):
    """The library's answer: the hard-margin SVM on the two points (alpha, w, w0)."""
    svm = SVM(C=np.inf, kernel="linear", tol=1e-10).fit(np.vstack([x_plus, x_minus]), np.array([1.0, -1.0]))
    return float(svm.alpha_[0]), svm.w_, float(svm.w0_)


def _two_point_cases(rng, n=20):
    cases = []
    while len(cases) < n:
        D = int(rng.integers(1, 5))
        x_plus, x_minus = np.round(rng.normal(size=D) * 2, 2), np.round(rng.normal(size=D) * 2, 2)
        if np.linalg.norm(x_plus - x_minus) > 0.5:
            cases.append(dict(x_plus=x_plus, x_minus=x_minus))
    return cases


def check_two_point_svm(student_fn, seed=None):
    """Exercise 4 [K8]: two_point_svm(x_plus, x_minus) -> (alpha, w, w0) for the hard margin on
    x^1 = x_plus (r = +1) and x^2 = x_minus (r = -1), by solving the dual by hand."""
    return check_function(
        student_fn, _two_point_cases, _two_point_reference, seed=seed,
        show=lambda c: f"x¹ = {c['x_plus'].tolist()} (r = +1), x² = {c['x_minus'].tolist()} (r = -1)",
        hint=_("Σ α r = 0 forces α¹ = α² = α. Then the dual is 2 α - α² ‖x¹ - x²‖² / 2: "
             "maximise it, then w = α (x¹ - x²) and r¹ h(x¹) = 1 gives w₀."),
        right=_("α = 2 / ‖x¹ - x²‖², w = α (x¹ - x²), w₀ = 1 - w·x¹: the library agrees on all 20 pairs."))


QUIZ_MARGIN = (
    N_("In canonical form ($\\min_t r^t h(\\mathbf{x}^t) = 1$), an SVM finds a $\\mathbf{w}$ with half the norm of another separating line's. "
    "Its margin is:"),
    [
        Choice("half as wide.", False, "The margin is $\\rho = 1/\\|\\mathbf{w}\\|$: a smaller $\\|\\mathbf{w}\\|$ means a wider margin."),
        Choice("twice as wide.", True, "$\\rho = 1/\\|\\mathbf{w}\\|$, so halving $\\|\\mathbf{w}\\|$ doubles $\\rho$: minimising $\\|\\mathbf{w}\\|$ maximises the margin."),
        Choice("the same: rescaling $(\\mathbf{w}, w_0)$ never changes the hyperplane.", False,
               "Rescaling does not, but the canonical form fixes the scale; two canonical forms with different "
               "$\\|\\mathbf{w}\\|$ are different lines with different margins."),
    ],
)

QUIZ_KKT = (
    N_("At the maximum of $f$ subject to $g(\\mathbf{x}) \\geq 0$, the multiplier is $\\lambda = 0$ and $g(\\mathbf{x}^*) = 0.7$. What does that say?"),
    [
        Choice("The constraint is active.", False, "Active means the maximum sits on $g(\\mathbf{x}) = 0$ with $\\lambda > 0$; here $g = 0.7$."),
        Choice("The constraint is inactive: $\\mathbf{x}^*$ is the unconstrained maximum, $\\nabla f(\\mathbf{x}^*) = 0$.", True,
               "$\\lambda g = 0$ holds with $\\lambda = 0$; the constraint plays no role at $\\mathbf{x}^*$."),
        Choice("The KKT conditions fail, since $\\lambda g(\\mathbf{x}^*)$ should be positive.", False,
               "Complementary slackness asks $\\lambda g(\\mathbf{x}^*) = 0$, which $0 \\times 0.7$ satisfies."),
    ],
)

QUIZ_SUPPORT_VECTORS = (
    N_("In the hard-margin SVM, which training points have $\\alpha^t > 0$?"),
    [
        Choice("Every training point: each one has a constraint.", False,
               "Each has a multiplier, but complementary slackness sets $\\alpha^t = 0$ wherever $r^t h(\\mathbf{x}^t) > 1$."),
        Choice("The points on the margin, where $r^t h(\\mathbf{x}^t) = 1$.", True,
               "Only active constraints can have $\\alpha^t > 0$: 3 of the 24 points above."),
        Choice("The misclassified points.", False, "The hard margin has none: every point satisfies $r^t h(\\mathbf{x}^t) \\geq 1$."),
        Choice("The points farthest from the boundary.", False,
               "Far points are the least constraining; removing them (10 above) changes nothing."),
    ],
)

QUIZ_DUAL = (
    N_("Why do the slides solve the dual rather than the primal?"),
    [
        Choice("Its size depends on N, not D, and the data enter only by inner products.", True,
               "One $\\alpha^t$ per point, and the data only in $\\mathbf{x}^{t\\top} \\mathbf{x}^s$: that is what lets a kernel replace the inner product (chapter 05)."),
        Choice("The dual has no constraints.", False, "It keeps $\\sum_t \\alpha^t r^t = 0$ and $\\alpha^t \\geq 0$ ($0 \\leq \\alpha^t \\leq C$ with slacks)."),
        Choice("The primal is not convex, so only the dual has a global optimum.", False,
               "The primal is a convex QP too; both have a global optimum, with equal values (no duality gap)."),
    ],
)


# Chapter 03 [K9]

SOFT_X = np.array([[2.0, 0.0], [0.5, 0.0], [-0.5, 0.0], [-3.0, 0.0]])
SOFT_R = np.array([1.0, 1.0, 1.0, -1.0])
SOFT_W, SOFT_W0 = np.array([1.0, 0.0]), 0.0


def _soft_slacks():
    return np.maximum(0.0, 1.0 - SOFT_R * (SOFT_X @ SOFT_W + SOFT_W0))


@limited_tries
def check_slacks(xi):
    """Exercise 1 [K9]: the slacks xi^t of SOFT_X, SOFT_R for h(x) = x1 (w = (1, 0), w0 = 0)."""
    return check_numbers((xi,), _soft_slacks(), diagnoses=(
        (1.0 - SOFT_R * (SOFT_X @ SOFT_W + SOFT_W0), "Slacks are never negative: ξᵗ = max(0, 1 - rᵗ h(xᵗ))."),
        (np.maximum(0.0, -SOFT_R * (SOFT_X @ SOFT_W)), _("That is how far each point is on the wrong side of h = 0; "
                                                        "the slack measures the shortfall from r h(x) = 1.")),
    ), hint=_("Compute rᵗ h(xᵗ) for each point first; ξᵗ is how far it falls short of 1 (0 if it does not)."),
        right=_("x⁰ and x³ are beyond the margin (ξ = 0), x¹ inside it on the right side (0 < ξ < 1), x² "
              "misclassified (ξ > 1)."))


@limited_tries
def check_primal_objective(value):
    """Exercise 2 [K9]: the soft-margin primal 1/2 ||w||^2 + C sum xi for the same (w, w0), C = 2."""
    C = 2.0  # the exercise's numbers
    xi = _soft_slacks()
    half = 0.5 * SOFT_W @ SOFT_W
    return check_numbers((value,), half + C * xi.sum(), diagnoses=(
        (half + xi.sum(), _("You forgot to multiply the slacks by C.")),
        (SOFT_W @ SOFT_W + C * xi.sum(), _("The primal has 1/2 ‖w‖², not ‖w‖².")),
        (C * xi.sum(), "Add 1/2 ‖w‖² too."),
    ), hint=_("Add 1/2 ‖w‖² and C times the sum of the slacks of the previous exercise."),
        right="1/2 ‖w‖² = 0.5 and C sum ξ = 2 × 2 = 4: 4.5.")


def _smo_step_reference(alpha, i, j, K, r, C):
    """The library's answer: SMO's own step from alpha (the cases give the pair (i, j) SMO picks)."""
    return smo.smo(K, r, C, tol=1e-12, max_iter=1, alpha=alpha).alpha


def _smo_step_cases(rng, n=30):
    """Feasible alpha reached by a few SMO steps on small random 2-D problems, with the pair
    (i, j) SMO takes next: i gains r^i tau, j loses r^j tau. About half the steps are clipped."""
    cases = []
    while len(cases) < n:
        N = int(rng.integers(4, 9))
        r = np.where(np.arange(N) % 2 == 0, 1.0, -1.0)
        X = np.round(rng.normal(size=(N, 2)) + 0.5 * r[:, None], 2)
        K = X @ X.T
        C = float(np.round(rng.choice([rng.uniform(0.05, 0.5), rng.uniform(0.5, 3.0)]), 2))
        alpha = smo.smo(K, r, C, tol=1e-12, max_iter=int(rng.integers(0, 4))).alpha
        result = smo.smo(K, r, C, tol=1e-12, max_iter=1, alpha=alpha)
        if result.status == "converged":
            continue
        changed = np.flatnonzero(result.alpha != alpha)
        if changed.size != 2:
            continue
        a, b = changed
        i, j = (a, b) if r[a] * (result.alpha[a] - alpha[a]) > 0 else (b, a)
        cases.append(dict(alpha=alpha, i=int(i), j=int(j), K=K, r=r, C=C))
    return cases


def _show_smo(case):
    i, j, K = case["i"], case["j"], np.round(case["K"], 3)  # the rows of K the step reads, not all N of them
    return (f"α = {np.round(case['alpha'], 4).tolist()}, (i, j) = ({i}, {j}), "
            f"r = {case['r'].astype(int).tolist()}, C = {case['C']:g}, K[i] = {K[i].tolist()}, K[j] = {K[j].tolist()}")


def check_smo_step(student_fn, seed=None):
    """Exercise 3 [K9]: smo_step(alpha, i, j, K, r, C) -> the new alpha after one SMO step on the
    pair (i, j): alpha^i += r^i tau, alpha^j -= r^j tau, with tau* clipped to the box [0, C]."""
    return check_function(
        student_fn, _smo_step_cases, _smo_step_reference, seed=seed, show=_show_smo,
        compare=lambda expected, got: _compare_alpha(expected, got),
        hint=_("Eᵗ = rᵗ - Σₛ αˢ rˢ K[s, t]; τ* = (Eⁱ - Eʲ) / (K[i, i] + K[j, j] - 2 K[i, j]); the room "
             "of i is C - αⁱ if rⁱ = +1 else αⁱ, the room of j is αʲ if rʲ = +1 else C - αʲ; "
             "τ = min(τ*, roomᵢ, roomⱼ). Do not change the α you were given: work on a copy."),
        right=_("Your step agrees with SMO's on all 30 cases, the clipped ones included."))


def _compare_alpha(expected, got):
    from course_lib.exercises.harness import default_compare

    reason = default_compare(expected, got, atol=1e-8, rtol=1e-6)
    if reason is None:
        try:
            got = np.asarray(got, dtype=float)
        except (TypeError, ValueError):
            return reason
        if np.any(got < -1e-12):
            return _("a multiplier went below 0: clip the step to the box")
    return reason


QUIZ_SLACK = (
    N_("A point has slack $\\xi^t = 0.4$ at the soft-margin optimum. Where is it?"),
    [
        Choice("Beyond the margin, on its class's side.", False, "There $\\xi^t = 0$: $r^t h(\\mathbf{x}^t) \\geq 1$ needs no slack."),
        Choice("Inside the margin, on the right side of $h(\\mathbf{x}) = 0$.", True,
               "$r^t h(\\mathbf{x}^t) = 1 - 0.4 = 0.6$: between 0 and 1, right side but inside the margin."),
        Choice("On the wrong side of h(x) = 0, misclassified.", False, "That needs $\\xi^t > 1$ ($r^t h(\\mathbf{x}^t) < 0$)."),
        Choice("Anywhere: the slack is only a penalty, not a position.", False,
               "At the optimum $\\xi^t = \\max(0, 1 - r^t h(\\mathbf{x}^t))$ exactly: it says where the point is."),
    ],
)

QUIZ_SMALL_C = (
    N_("C goes from 100 down to 0.01 on overlapping data. What happens?"),
    [
        Choice("The margin narrows and the support vectors get fewer.", False,
               "That is C going up: slacks get expensive, so the fit buys them back with a narrower margin."),
        Choice("The margin widens and more points become support vectors.", True,
               "Small $C$ makes slacks cheap: the margin goes from 0.647 to 2.687 and the support vectors from 12 to 38 above."),
        Choice("Nothing: C only matters when the data are separable.", False,
               "It is exactly on overlapping data that C trades margin against slacks."),
    ],
)

QUIZ_W0 = (
    N_("With a soft margin, which points give $w_0 = r^t - \\mathbf{w}^\\top \\mathbf{x}^t$ exactly?"),
    [
        Choice("Every support vector ($\\alpha^t > 0$), as the slides average.", False,
               "Those at $\\alpha^t = C$ may lie inside the margin or beyond: $r^t h(\\mathbf{x}^t) = 1 - \\xi^t$ there, so their "
               "$r^t - \\mathbf{w}^\\top \\mathbf{x}^t$ is off by $r^t \\xi^t$ (a 5-fold error on chapter 03's data)."),
        Choice("The free support vectors, $0 < \\alpha^t < C$.", True, "They lie exactly on the margin: $\\xi^t = 0$ and $r^t h(\\mathbf{x}^t) = 1$."),
        Choice("Every training point.", False, "Points beyond the margin have $r^t h(\\mathbf{x}^t) > 1$: their $r^t - \\mathbf{w}^\\top \\mathbf{x}^t$ is not $w_0$."),
    ],
)

QUIZ_LARGE_C = (
    N_("On chapter 03's data, $C$ = 10, 100 and 1000 give exactly the same $(\\mathbf{w}, w_0)$. Why?"),
    [
        Choice("SMO stopped early at large C.", False, "Each fit converged (KKT gap below tol); the $\\alpha^t$ at the bound do change, from 10 to 1000."),
        Choice("Beyond some C the solution sits at a corner pinned by D + 1 = 3 points on the margin.", True,
               "The total slack is piecewise linear; once $C$ is large, $\\frac{1}{2}\\|\\mathbf{w}\\|^2$ cannot pull the solution off its corner."),
        Choice("With large C the soft margin becomes the hard margin.", False,
               "The data overlap: no line separates them, so there is no hard margin to become (SVM(C=np.inf) "
               "refuses these data); the misclassified points keep their slack at every C."),
    ],
)


seal(__name__)  # the checks refuse to run once what they rely on is changed
