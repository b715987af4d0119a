"""Self-checks for the exercises of the kernel chapters 02, 03 and 05 (margins and Lagrange, soft
margins, kernels); chapters 04 and 06 have basis_functions.py and svm_gradient.py.

Each check returns a Verdict: true when the answer is right, and shown with its reason.
"""

import numpy as np

from course_lib import kernels, lagrange, margins
from course_lib.exercises import Verdict
from course_lib.model_selection import sigma_min


def _unanswered(*answers):
    return any(a is None or a is Ellipsis for a in answers)


def _close(answer, expected, atol=1e-4):
    try:
        answer = np.asarray(answer, dtype=float)
    except (TypeError, ValueError):
        return False
    return answer.shape == np.shape(expected) and bool(np.allclose(answer, expected, atol=atol))


# Chapter 02 [K5-K8]

LAGRANGE_A, LAGRANGE_B = (1.0, 2.0), 2.0


def check_lagrange(x1, x2, lam):
    """Exercise [K6]: maximise 1 - x1^2 - x2^2 subject to x1 + 2 x2 - 2 = 0."""
    if _unanswered(x1, x2, lam):
        return Verdict(False, "Replace the three `...` with x1, x2 and lambda.")
    x, expected_lam = lagrange.solve_lagrange(a=np.array(LAGRANGE_A), b=LAGRANGE_B)
    why = (
        "grad L = 0 gives -2 x1 + lambda = 0, -2 x2 + 2 lambda = 0 and x1 + 2 x2 = 2, so x = "
        "lambda (1/2, 1) "
        f"and 5 lambda / 2 = 2: lambda = {expected_lam:.2f}, x = ({x[0]:.2f}, {x[1]:.2f})."
    )
    if _close([x1, x2, lam], np.r_[x, expected_lam]):
        return Verdict(True, why)
    if _close([x1, x2], x):
        return Verdict(False, "x is right; lambda comes from -2 x1 + lambda = 0.")
    if _close(x1 + 2 * x2, 2.0):
        return Verdict(
            False,
            "Your point is on the constraint but is not the best one: write dL/dx1 = 0 and dL/dx2 "
            "= 0.",
        )
    return Verdict(
        False,
        "Your point is not even on the constraint x1 + 2 x2 = 2. Write the three equations of "
        "grad L = 0.",
    )


HARD_X = np.array([[-3.0, 0.0], [-1.0, 0.0], [1.0, 0.0], [2.0, 1.0]])
HARD_R = np.array([-1.0, -1.0, 1.0, 1.0])


def check_canonical_scaling(w, w0, X=HARD_X, r=HARD_R, given=((3.0, 1.0), 0.0)):
    """Exercise [K5]: rescale the separating (w, w0) = `given` so that min r^t h(x^t) = 1."""
    if _unanswered(w, w0):
        return Verdict(False, "Replace both `...` with your w (two numbers) and w0.")
    expected_w, expected_w0 = margins.canonical_form(X, r, np.array(given[0]), given[1])
    why = (
        f"min r h(x) is {np.min(r * (X @ np.array(given[0]) + given[1])):g} for the given (w, "
        "w0); dividing by it "
        f"gives w = {expected_w.tolist()}, w0 = {expected_w0:g}, and the margin rho = 1/||w|| = "
        f"{1 / np.linalg.norm(expected_w):g}."
    )
    if _close(np.r_[w, w0], np.r_[expected_w, expected_w0]):
        return Verdict(True, why)
    if margins.same_hyperplane(given[0], given[1], w, w0):
        return Verdict(
            False,
            "Same hyperplane, but not the canonical scale: the closest point must have r h(x) = 1.",
        )
    return Verdict(
        False, "That is not the same hyperplane: multiply (w, w0) by one positive number."
    )


def check_hard_margin(w, w0, support):
    """Exercise [K8]: the hard-margin SVM on HARD_X, HARD_R: w, w0 and the support vectors."""
    if _unanswered(w, w0, support):
        return Verdict(
            False,
            "Replace the `...` with w (two numbers), w0 and the list of support vector indices.",
        )
    expected_w, expected_w0, expected_support = np.array([1.0, 0.0]), 0.0, [1, 2]
    why = (
        "The closest points of the two classes are x^1 = (-1, 0) and x^2 = (1, 0): the boundary "
        "is halfway, "
        "x1 = 0, and r h(x) = 1 on both gives w = (1, 0), w0 = 0; only those two have alpha > 0 "
        "(alpha = 0.5 each: w = sum alpha r x)."
    )
    ok = (
        _close(np.r_[w, w0], np.r_[expected_w, expected_w0])
        and sorted(np.ravel(support).tolist()) == expected_support
    )
    if ok:
        return Verdict(True, why)
    if _close(np.r_[w, w0], np.r_[expected_w, expected_w0]):
        return Verdict(
            False, "w and w0 are right; the support vectors are the points with r h(x) = 1 exactly."
        )
    return Verdict(
        False,
        "Find the two closest points of opposite classes; the maximal-margin line bisects them.",
    )


# Chapter 03 [K9]

SOFT_X = np.array([[2.0, 0.0], [0.5, 0.0], [-0.5, 0.0], [-3.0, 0.0]])
SOFT_R = np.array([1.0, 1.0, 1.0, -1.0])
SOFT_W, SOFT_W0 = np.array([1.0, 0.0]), 0.0


def _soft_slacks():
    return np.maximum(0.0, 1.0 - SOFT_R * (SOFT_X @ SOFT_W + SOFT_W0))


def check_slacks(xi):
    """Exercise [K9]: the slacks xi^t of SOFT_X, SOFT_R for h(x) = x1 (w = (1, 0), w0 = 0)."""
    if _unanswered(xi):
        return Verdict(False, "Replace `...` with the four slacks.")
    expected = _soft_slacks()
    why = (
        f"xi^t = max(0, 1 - r^t h(x^t)) = {expected.tolist()}: x^0 and x^3 are beyond the margin "
        "(xi = 0), "
        "x^1 is inside the margin on the right side (0 < xi < 1), x^2 is misclassified (xi > 1)."
    )
    if _close(xi, expected):
        return Verdict(True, why)
    if _close(xi, 1.0 - SOFT_R * (SOFT_X @ SOFT_W)):
        return Verdict(False, "Slacks are never negative: xi = max(0, 1 - r h(x)).")
    return Verdict(
        False, "Compute r^t h(x^t) for each point first; xi^t is how far it falls short of 1."
    )


def check_primal_objective(value, C=2.0):
    """Exercise [K9]: the soft-margin primal 1/2 ||w||^2 + C sum xi for the same (w, w0), C = 2."""
    if _unanswered(value):
        return Verdict(False, "Replace `...` with your number.")
    xi = _soft_slacks()
    expected = 0.5 * SOFT_W @ SOFT_W + C * xi.sum()
    why = (
        f"1/2 ||w||^2 = {0.5 * SOFT_W @ SOFT_W:g} and C sum xi = {C:g} x {xi.sum():g}: "
        f"total {expected:g}."
    )
    if _close(value, expected):
        return Verdict(True, why)
    if _close(value, 0.5 * SOFT_W @ SOFT_W + xi.sum()):
        return Verdict(False, "You forgot to multiply the slacks by C.")
    return Verdict(
        False, "Add 1/2 ||w||^2 and C times the sum of the slacks of the previous exercise."
    )


# Chapter 05 [K13-K17, K20-K22]


def check_polynomial_kernel(value, x=(1.0, 2.0), y=(3.0, -1.0), q=2):
    """Exercise [K14]: K(x, y) = (x.y + 1)^q, equal to phi(x).phi(y) with the explicit map."""
    if _unanswered(value):
        return Verdict(False, "Replace `...` with your number.")
    X, Y = np.array([x], float), np.array([y], float)
    expected = float(kernels.polynomial(X, Y, degree=q)[0, 0])
    dot = float(X[0] @ Y[0])
    why = f"x.y = {dot:g}, so (x.y + 1)^{q} = {expected:g}"
    if q == 2:
        explicit = float(
            (kernels.polynomial_map_degree2(X) @ kernels.polynomial_map_degree2(Y).T)[0, 0]
        )
        why += f"; phi(x).phi(y) with the six-term map is {explicit:g} too"
    if _close(value, expected):
        return Verdict(True, why + ".")
    if _close(value, dot**q):
        return Verdict(False, "Do not forget the + 1 inside the power.")
    return Verdict(False, "Compute x.y = x1 y1 + x2 y2 first.")


SIGMA_X = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 0.0], [1.0, 0.6], [3.0, 2.0]])


def check_sigma_min(value):
    """Exercise [K17]: sigma_min of SIGMA_X (mind the duplicated point)."""
    if _unanswered(value):
        return Verdict(False, "Replace `...` with your number.")
    expected = sigma_min(SIGMA_X)
    if _close(value, expected):
        return Verdict(
            True,
            f"The duplicated point gives a distance 0, which the rule excludes; the smallest "
            f"non-zero distance is {expected:g}, so sigma in {expected:g} x (1, 2, ..., 64).",
        )
    if _close(value, 0.0):
        return Verdict(False, "Distances of zero (identical points) are excluded by the rule.")
    return Verdict(False, "List the pairwise distances and take the smallest one that is not zero.")


def check_gamma(gamma, sigma=0.5):
    """Exercise [K22]: scikit-learn's gamma for the slides' Gaussian kernel of width sigma."""
    if _unanswered(gamma):
        return Verdict(False, "Replace `...` with your number.")
    expected = 1.0 / sigma**2
    if _close(gamma, expected):
        return Verdict(
            True,
            "exp(-||x-y||^2 / sigma^2) = exp(-gamma ||x-y||^2) with gamma = 1/sigma^2 = "
            f"{expected:g}.",
        )
    if _close(gamma, 1.0 / (2 * sigma**2)):
        return Verdict(
            False,
            "That is gamma for exp(-||x-y||^2 / (2 sigma^2)); the slides' kernel has no factor 2.",
        )
    return Verdict(False, "Match exp(-gamma ||x - y||^2) with exp(-||x - y||^2 / sigma^2).")


def check_kernel_distance(value, x=(0.0, 0.0), y=(1.0, 1.0), sigma=1.0):
    """Exercise [K20]: the feature-space distance d(x, y) for the Gaussian kernel."""
    if _unanswered(value):
        return Verdict(False, "Replace `...` with your number.")
    X, Y = np.array([x], float), np.array([y], float)
    expected = float(kernels.feature_space_distance(X, Y, "gaussian", sigma=sigma)[0, 0])
    k = float(kernels.gaussian(X, Y, sigma=sigma)[0, 0])
    if _close(value, expected):
        return Verdict(
            True,
            f"K(x, x) = K(y, y) = 1 and K(x, y) = {k:.4f}, so d = sqrt(2 - 2 K(x, y)) = "
            f"{expected:.4f} "
            "(it never exceeds sqrt 2 with this kernel).",
        )
    if _close(value, expected**2):
        return Verdict(False, "That is d^2: take the square root.")
    return Verdict(
        False, "Use d^2 = K(x, x) + K(y, y) - 2 K(x, y); with the Gaussian kernel K(x, x) = 1."
    )
