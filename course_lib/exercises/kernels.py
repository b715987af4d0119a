"""Self-checks for the exercises of the kernel chapters 04-06 (basis functions, kernels, SVM by
gradient descent); those of chapters 02-03 are in course_lib.exercises.margins.

Each check returns a Verdict: true when the answer is right, and shown with its reason.
"""

import numpy as np

from course_lib import kernels
from course_lib.exercises import Verdict
from course_lib.model_selection import sigma_min
from course_lib.svm_gradient import KernelHingeGD, hinge_loss


def _unanswered(*answers):
    return any(a is None or a is Ellipsis for a in answers)


def _close(answer, expected, atol=1e-4):
    try:
        answer = np.asarray(answer, dtype=float)
    except (TypeError, ValueError):
        return False
    return answer.shape == np.shape(expected) and bool(np.allclose(answer, expected, atol=atol))


# Chapter 04 [K10-K12]


def check_xor_plane(w, w0):
    """Exercise [K10]: any plane w.z + w0 = 0 separating the slides' z table (r = +1: z2, z3)."""
    if _unanswered(w, w0):
        return Verdict(False, "Replace both `...` with your w (three numbers) and w0.")
    Z = np.array([[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 1.0]])
    r = np.array([-1.0, 1.0, 1.0, -1.0])
    w = np.asarray(w, dtype=float).reshape(-1)
    if w.shape != (3,):
        return Verdict(False, "w needs three numbers, one per coordinate of z = (x1, x2, x1 x2).")
    h = Z @ w + w0
    if np.all(r * h > 0):
        return Verdict(
            True,
            f"r h(z) = {np.round(r * h, 3).tolist()}: all positive, the plane separates XOR in "
            "R^3.",
        )
    wrong = np.flatnonzero(r * h <= 0) + 1
    return Verdict(
        False,
        f"z_{', z_'.join(map(str, wrong))} on the wrong side (or on the plane). Hint: z3 "
        "is 1 only for z4, so a negative weight on z3 can push z4 back.",
    )


def check_rbf_value(value, x=(1.0, 2.0), m=(0.0, 0.0), s=1.0):
    """Exercise [K12]: phi(x) = exp(-||x - m||^2 / (2 s^2)) for the given x, m, s."""
    if _unanswered(value):
        return Verdict(False, "Replace `...` with your number.")
    d2 = float(np.sum((np.asarray(x) - np.asarray(m)) ** 2))
    expected = np.exp(-d2 / (2 * s**2))
    why = f"||x - m||^2 = {d2:g}, so phi = exp(-{d2:g} / {2 * s**2:g}) = {expected:.4f}."
    if _close(value, expected):
        return Verdict(True, why)
    if _close(value, np.exp(-d2 / s**2)):
        return Verdict(
            False,
            "The RBF of the slides divides by 2 s^2, not s^2 (that is the Gaussian kernel's "
            "sigma^2).",
        )
    return Verdict(False, "Compute the squared distance ||x - m||^2 first.")


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


# Chapter 06 [K18-K19]


def check_hinge_losses(losses, margins_yr=(-1.0, 0.0, 0.5, 1.0, 2.0)):
    """Exercise [K18]: the hinge loss max(1 - y r, 0) at each margin y r."""
    if _unanswered(losses):
        return Verdict(False, "Replace `...` with one loss per margin.")
    expected = hinge_loss(np.asarray(margins_yr))
    if _close(losses, expected):
        return Verdict(
            True,
            f"max(1 - y r, 0) = {expected.tolist()}: a point with 0 < y r < 1 is well classified "
            "but still pays (it is inside the margin).",
        )
    if _close(losses, (np.asarray(margins_yr) < 0).astype(float)):
        return Verdict(
            False, "Those are the 0/1 losses; the hinge also charges points inside the margin."
        )
    return Verdict(False, "The hinge is 1 - y r while y r < 1, and 0 beyond.")


GD_X = np.array([[0.0, 0.0], [0.5, 0.0], [1.0, 0.0]])
GD_R = np.array([-1.0, 1.0, 1.0])


def check_first_step(alpha, w0, eta=0.1, lam=1.0, sigma=1.0):
    """Exercise [K19]: one gradient step of the kernel hinge SVM from alpha = 0, w0 = 0."""
    if _unanswered(alpha, w0):
        return Verdict(False, "Replace both `...` with the new alpha (three numbers) and w0.")
    model = KernelHingeGD(sigma=sigma, lam=lam, eta=eta, n_epochs=1).fit(GD_X, GD_R)
    G = kernels.gram(GD_X, "gaussian", sigma=sigma)
    unclipped = eta * GD_R * (G @ GD_R)
    why = (
        "At alpha = 0 every h = 0, so every point is in Y; dE/dalpha^s = -r^s sum_t r^t K(x^s, "
        "x^t) and "
        f"dE/dw0 = -sum r = {-GD_R.sum():g}. The step gives {np.round(unclipped, 4).tolist()}, "
        "negative ones "
        f"clipped to 0: alpha = {np.round(model.alpha_, 4).tolist()}, w0 = {model.w0_:g}."
    )
    if _close(np.r_[alpha, w0], np.r_[model.alpha_, model.w0_]):
        return Verdict(True, why)
    if _close(alpha, unclipped):
        return Verdict(
            False, "Apply the constraint: an alpha that would become negative is set to 0."
        )
    return Verdict(
        False,
        "Start from h(x^t) = 0 for all t: which points are in Y, and what is each derivative?",
    )
