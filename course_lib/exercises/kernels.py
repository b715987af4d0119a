"""Self-checks for the exercises of the kernel chapters 02-06 (margins and Lagrange, soft margins,
basis functions, kernels, SVM by gradient descent).

Each check returns a Verdict: true when the answer is right, and shown with its reason.
"""

import numpy as np

from course_lib import kernels, lagrange, margins
from course_lib.exercises import Verdict
from course_lib.exercises.harness import check_function, check_number
from course_lib.svm_gradient import KernelHingeGD, hinge_loss


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
    X, Y = np.array([x], float), np.array([y], float)
    dot = float(X[0] @ Y[0])
    expected = (dot + 1.0) ** q
    why = f"x.y = {dot:g}, so (x.y + 1)^{q} = {expected:g}"
    if q == 2:
        explicit = float(
            (kernels.polynomial_map_degree2(X) @ kernels.polynomial_map_degree2(Y).T)[0, 0]
        )
        why += f"; phi(x).phi(y) with the six-term map is {explicit:g} too"
    return check_number(
        value, expected, atol=1e-4,
        diagnoses=[(dot**q, "Do not forget the + 1 inside the power.")],
        hint="Compute x.y = x1 y1 + x2 y2 first, then add 1 and raise to the power q.",
        right=why + ".",
    )


SIGMA_X = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 0.0], [1.0, 0.6], [3.0, 2.0]])


def check_sigma_min(value):
    """Exercise [K17]: sigma_min of SIGMA_X (mind the duplicated point)."""
    differences = SIGMA_X[:, None, :] - SIGMA_X[None, :, :]
    distances = np.sqrt(np.sum(differences**2, axis=2))
    expected = float(distances[distances > 0].min())
    return check_number(
        value, expected, atol=1e-4,
        diagnoses=[(0.0, "Distances of zero (identical points) are excluded by the rule."),
                   (expected**2, "That is a squared distance: take the square root.")],
        hint="List the pairwise distances and take the smallest one that is not zero.",
        right=f"The duplicated point gives a distance 0, which the rule excludes; the smallest "
        f"non-zero distance is {expected:g}, so sigma in {expected:g} x (1, 2, ..., 64).",
    )


def check_gamma(gamma, sigma=0.25):
    """Exercise [K22]: scikit-learn's gamma for the slides' Gaussian kernel of width sigma."""
    expected = 1.0 / sigma**2
    return check_number(
        gamma, expected, atol=1e-6,
        diagnoses=[(1.0 / (2 * sigma**2), "That is gamma for exp(-||x-y||^2 / (2 sigma^2)); "
                    "the slides' kernel has no factor 2."),
                   (sigma**2, "Upside down: gamma multiplies ||x - y||^2, sigma^2 divides it."),
                   (1.0 / sigma, "Mind the square on sigma.")],
        hint="Match exp(-gamma ||x - y||^2) with exp(-||x - y||^2 / sigma^2).",
        right=f"exp(-||x-y||^2 / sigma^2) = exp(-gamma ||x-y||^2) with gamma = 1/sigma^2 = "
        f"{expected:g}.",
    )


def check_kernel_distance(value, x=(0.0, 0.0), y=(1.0, 1.0), sigma=1.0):
    """Exercise [K20]: the feature-space distance d(x, y) for the Gaussian kernel."""
    k = float(np.exp(-np.sum((np.asarray(x, float) - np.asarray(y, float)) ** 2) / sigma**2))
    expected = float(np.sqrt(2.0 - 2.0 * k))
    euclidean = float(np.linalg.norm(np.asarray(x, float) - np.asarray(y, float)))
    return check_number(
        value, expected, atol=1e-4,
        diagnoses=[(expected**2, "That is d^2: take the square root."),
                   (euclidean, "That is the Euclidean distance in the input space, not in the "
                    "kernel's feature space."),
                   (k, "That is K(x, y), a similarity: turn it into a distance.")],
        hint="Use d^2 = K(x, x) + K(y, y) - 2 K(x, y); with the Gaussian kernel K(x, x) = 1.",
        right=f"K(x, x) = K(y, y) = 1 and K(x, y) = {k:.4f}, so d = sqrt(2 - 2 K(x, y)) = "
        f"{expected:.4f} (it never exceeds sqrt 2 with this kernel).",
    )


# The coding exercise of chapter 05 [K13, K21]: the Gram matrix and its PSD check

GRAM_FORBIDDEN = (
    kernels.gram, kernels.kernel_matrix, kernels.linear, kernels.polynomial, kernels.gaussian,
    kernels.sigmoid, kernels.squared_distances, kernels.feature_space_distance,
)


def gram_cases(seed=0, n_cases=12):
    """Random data sets X (3-8 points, 1-3 features) with each of the slides' four kernels."""
    rng = np.random.default_rng(seed)
    cases = []
    for number in range(n_cases):
        X = np.round(rng.normal(size=(int(rng.integers(3, 9)), int(rng.integers(1, 4)))), 2)
        kernel = kernels.KERNELS[number % len(kernels.KERNELS)]
        sigma = float(np.round(rng.uniform(0.5, 2.0), 2))
        cases.append(dict(X=X, kernel=kernel, sigma=sigma, degree=int(rng.integers(1, 4))))
    return cases


def _reference_gram(X, kernel, sigma, degree):
    return kernels.gram(X, kernel, **kernels.kernel_params(kernel, sigma, degree))


def _show_gram_case(case):
    detail = {"gaussian": f", σ = {case['sigma']:g}", "polynomial": f", q = {case['degree']}"}
    return (f"kernel = {case['kernel']}{detail.get(case['kernel'], '')}, X = "
            f"{np.array2string(case['X'], separator=', ')} (rows x^t)")


def check_gram(student_fn, seed=0):
    """Coding exercise [K21]: `gram_matrix(X, kernel, sigma, degree)` returns G_ts = K(x^t, x^s)
    for the slides' four kernels, written without the library's kernel functions."""
    return check_function(
        student_fn, gram_cases(seed), _reference_gram,
        forbidden=GRAM_FORBIDDEN, show=_show_gram_case,
        hint="Loop over t and s (or broadcast X[:, None, :] against X[None, :, :]) and apply the "
        "slide's formula of the kernel: x.y, (x.y + 1)^q, exp(-||x - y||^2 / sigma^2), "
        "tanh(2 x.y + 1).",
        right="Your Gram matrices equal the library's on every case.",
    )


def psd_cases(seed=0):
    """Symmetric matrices, some positive semi-definite and some not: Gram matrices of the four
    kernels, sums A A^T, and random symmetric matrices."""
    rng = np.random.default_rng(seed)
    cases = []
    for number, case in enumerate(gram_cases(seed + 1, n_cases=8)):
        cases.append(dict(G=_reference_gram(**case)))
    for _ in range(3):
        A = rng.normal(size=(5, 2))
        cases.append(dict(G=A @ A.T))  # rank 2: PSD with zero eigenvalues (up to rounding)
        B = rng.normal(size=(5, 5))
        cases.append(dict(G=B + B.T))
    cases.append(dict(G=np.array([[1.0, 2.0], [2.0, 1.0]])))  # eigenvalues 3 and -1
    return cases


def reference_is_psd(G):
    """v^T G v >= 0 for every v <=> the smallest eigenvalue of the symmetric G is >= 0 (up to
    rounding: -1e-10 times the largest absolute eigenvalue)."""
    eigenvalues = np.linalg.eigvalsh(G)
    return bool(eigenvalues[0] >= -1e-10 * max(1.0, np.abs(eigenvalues).max()))


def _compare_bool(expected, got):
    if not isinstance(got, (bool, np.bool_)):
        return f"return True or False, not {type(got).__name__}"
    return None if bool(got) == expected else "wrong verdict for this matrix"


def check_is_psd(student_fn, seed=0):
    """Coding exercise [K21]: `is_psd(G)` says whether the symmetric matrix G is positive
    semi-definite (tolerant to rounding)."""
    return check_function(
        student_fn, psd_cases(seed), lambda G: reference_is_psd(G), compare=_compare_bool,
        show=lambda case: "G =\n" + np.array2string(case["G"], precision=3, separator=", "),
        hint="A symmetric matrix is PSD when its smallest eigenvalue is >= 0 (np.linalg.eigvalsh "
        "gives them in increasing order); allow a tiny negative value from rounding, relative to "
        "the largest one.",
        right="Right on every matrix, including those with zero eigenvalues up to rounding.",
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
