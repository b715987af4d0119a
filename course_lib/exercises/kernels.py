"""Self-checks for the exercises of chapter 05 (kernels); the other kernel chapters have theirs in
margins.py (02-03), basis_functions.py (04) and svm_gradient.py (06).

Each check returns a Verdict: true when the answer is right, and shown with its reason.
"""

import numpy as np

from course_lib import kernels
from course_lib.exercises.harness import Choice, check_function, check_number, float_array, limited_tries, value_and_reason
from course_lib.exercises.seal import seal
from course_lib.i18n import N_, _


def _unanswered(*answers):
    return any(a is None or a is Ellipsis for a in answers)


def _close(answer, expected, atol=1e-4):
    try:
        answer = float_array(answer)
    except (TypeError, ValueError):
        return False
    return answer.shape == np.shape(expected) and bool(np.allclose(answer, expected, atol=atol))


# Chapter 05 [K13-K17, K20-K22]


POLYNOMIAL_REASONS = (
    Choice("Every kernel is the dot product of the inputs themselves", False,
           "Here x·y = 1 and K(x, y) = 4: the kernel is a dot product in the feature space of φ, not of x and y."),
    Choice("For q = 2 the map φ squares each coordinate: φ(x) = (x₁², x₂²)", False,
           "Then φ(x)·φ(y) = x₁² y₁² + x₂² y₂² = 10 here, not 4: the constant and the cross terms of the "
           "expansion are missing."),
    Choice("(x·y + 1)² expands into 1 + 2 x₁ y₁ + 2 x₂ y₂ + 2 x₁ x₂ y₁ y₂ + x₁² y₁² + x₂² y₂²: six products "
           "of a term of x by the same term of y", True,
           "Each product is φᵢ(x) φᵢ(y) for φ = (1, √2 x₁, √2 x₂, √2 x₁ x₂, x₁², x₂²): the kernel "
           "is that dot product, computed from x·y alone, without forming φ."),
    Choice("The polynomial kernel is the Gaussian kernel at a large σ", False,
           "They are different kernels; the Gaussian's feature space is infinite, the degree-2 polynomial's has six "
           "dimensions here."),
)


@limited_tries
def check_polynomial_kernel(value, reason=None):
    """Exercise [K14]: K(x, y) = (x.y + 1)^q, equal to phi(x).phi(y) with the explicit map; then the
    letter of POLYNOMIAL_REASONS saying why (for the default q = 2)."""
    x, y, q = (1.0, 2.0), (3.0, -1.0), 2  # the exercise's numbers
    verdict = _check_polynomial_value(value, x, y, q)
    return value_and_reason(verdict, reason, POLYNOMIAL_REASONS,
                            _("The value is right. Your reason: {why}"),
                            hint=_("Expand (x₁ y₁ + x₂ y₂ + 1)² and group the terms."))


def _check_polynomial_value(value, x, y, q):
    X, Y = np.array([x], float), np.array([y], float)
    dot = float(X[0] @ Y[0])
    expected = (dot + 1.0) ** q
    why = _("x·y = {dot:g}, so (x·y + 1) to the power {q} = {expected:g}").format(dot=dot, q=q, expected=expected)
    if q == 2:
        explicit = float(
            (kernels.polynomial_map_degree2(X) @ kernels.polynomial_map_degree2(Y).T)[0, 0]
        )
        why += _("; φ(x)·φ(y) with the six-term map is {explicit:g} too").format(explicit=explicit)
    return check_number(
        value, expected, atol=1e-4,
        diagnoses=[(dot**q, _("Do not forget the + 1 inside the power."))],
        hint=_("Compute x·y = x₁ y₁ + x₂ y₂ first, then add 1 and raise to the power q."),
        right=why + ".",
    )


SIGMA_X = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 0.0], [1.0, 0.6], [3.0, 2.0]])


SIGMA_MIN_REASONS = (
    Choice("A duplicated point is at distance 0: with it, σₘᵢₙ would be 0 and the whole grid 0, 2 × 0, ..., 64 × 0, "
           "a kernel exp(-‖x - y‖² / 0) with no width", True,
           "Every σ of the grid is a multiple of σₘᵢₙ: a zero would make all seven of them 0. The smallest "
           "distance between different points is the finest scale the data can tell apart."),
    Choice("Identical points are errors in the data and are removed before training", False,
           "They stay in the data (the SVM trains on all five points); only the rule for the grid skips their distance."),
    Choice("The Gaussian kernel of a point with itself is 0", False, "It is exp(0) = 1, its largest value."),
    Choice("Two identical points must have different labels", False,
           "Nothing says so; and the labels play no part in σₘᵢₙ, which only looks at the x."),
)


@limited_tries
def check_sigma_min(value, reason=None):
    """Exercise [K17]: sigma_min of SIGMA_X (mind the duplicated point); then the letter of
    SIGMA_MIN_REASONS saying why the rule leaves out distances of 0 (model_selection.sigma_min,
    shown in the chapter, gives the number in one call, not why)."""
    return value_and_reason(_check_sigma_min_value(value), reason, SIGMA_MIN_REASONS,
                            _("σₘᵢₙ is right. Your reason: {why}"),
                            hint=_("What would the grid σₘᵢₙ x (1, 2, ..., 64) be with a distance of 0?"))


def _check_sigma_min_value(value):
    differences = SIGMA_X[:, None, :] - SIGMA_X[None, :, :]
    distances = np.sqrt(np.sum(differences**2, axis=2))
    expected = float(distances[distances > 0].min())
    return check_number(
        value, expected, atol=1e-4,
        diagnoses=[(0.0, _("Distances of zero (identical points) are excluded by the rule.")),
                   (expected**2, _("That is a squared distance: take the square root."))],
        hint=_("List the pairwise distances and take the smallest one that is not zero."),
        right=_("The duplicated point gives a distance 0, which the rule excludes; the smallest "
        "non-zero distance is {expected:g}, so σ in {expected:g} x (1, 2, ..., 64).").format(
            expected=expected),
    )


GAMMA_REASONS = (
    Choice("The kernel becomes exp(-0.25 ‖x - y‖²), the slides' kernel of width σ = 2: eight times wider than "
           "asked, so every point sees far-away points and the boundary is much smoother", True,
           "γ multiplies ‖x - y‖²: γ = 0.25 = 1/σ² gives σ = 2, and a wide kernel is a smooth, nearly linear "
           "boundary. The chapter's grid over σ shows how much the width changes the fit."),
    Choice("Nothing: scikit-learn turns the width into γ itself", False,
           "scikit-learn takes γ as it is: exp(-γ ‖x - y‖²) with the number you give."),
    Choice("The kernel becomes narrower: each point only sees its closest neighbours", False,
           "A smaller γ is a wider kernel: γ = 0.25 is 1/σ² for σ = 2, eight times the width asked for."),
    Choice("scikit-learn refuses a γ below 1", False,
           "Any γ > 0 is accepted; a wrong one trains a different model without a warning, which is why the "
           "conversion matters."),
)


@limited_tries
def check_gamma(gamma, reason=None):
    """Exercise [K22]: scikit-learn's gamma for the slides' Gaussian kernel of width sigma, then the
    reason (a letter of GAMMA_REASONS) what passing the width itself as gamma does: the chapter's
    comparison with SVC shows the conversion for another width, the effect of the wrong one it does not."""
    return value_and_reason(_check_gamma_value(gamma), reason, GAMMA_REASONS,
                            _("γ is right. Your reason: {why}"),
                            hint=_("Is a larger γ a wider or a narrower kernel?"))


def _check_gamma_value(gamma):
    sigma = 0.25  # the exercise's numbers
    expected = 1.0 / sigma**2
    return check_number(
        gamma, expected, atol=1e-6,
        diagnoses=[(1.0 / (2 * sigma**2), _("That is γ for exp(-‖x-y‖² / (2 σ²)); "
                    "the slides' kernel has no factor 2.")),
                   (sigma**2, _("Upside down: γ multiplies ‖x - y‖², σ² divides it.")),
                   (1.0 / sigma, _("Mind the square on σ."))],
        hint=_("Match exp(-γ ‖x - y‖²) with exp(-‖x - y‖² / σ²)."),
        right=_("exp(-‖x-y‖² / σ²) = exp(-γ ‖x-y‖²) "
        "with γ = 1/σ² = {expected:g}.").format(expected=expected),
    )


DISTANCE_REASONS = (
    Choice("The Gaussian kernel only sees the points within distance σ of each other", False,
           "K(x, y) > 0 for every pair, however far: it only gets small. The bound holds for every σ."),
    Choice("The feature space has two dimensions, like the input space", False,
           "The Gaussian kernel's feature space has infinitely many dimensions; its distances are not the input's."),
    Choice("Every φ(x) has length 1 (K(x, x) = 1) and K(x, y) > 0, so d² = 2 - 2 K(x, y) stays below 2", True,
           "All the images φ(x) lie on the unit sphere, at angles below 90 degrees from each other: two points "
           "far apart in the input space get K(x, y) near 0 and d near sqrt 2, never more."),
    Choice("σ = 1 caps every distance at 1", False,
           "Your d is above 1 here, and the cap √2 does not depend on σ: σ only sets how fast d reaches it."),
)


@limited_tries
def check_kernel_distance(value, reason=None):
    """Exercise [K20]: the feature-space distance d(x, y) for the Gaussian kernel; then the letter
    of DISTANCE_REASONS saying why no distance exceeds sqrt 2 (kernels.feature_space_distance,
    shown in the chapter, gives the number in one call, not why)."""
    return value_and_reason(_check_kernel_distance_value(value), reason, DISTANCE_REASONS,
                            _("d is right. Your reason: {why}"),
                            hint=_("What are K(x, x) and the sign of K(x, y) for the Gaussian kernel?"))


def _check_kernel_distance_value(value):
    x, y, sigma = (0.0, 0.0), (1.0, 1.0), 1.0  # the exercise's numbers
    k = float(np.exp(-np.sum((np.asarray(x, float) - np.asarray(y, float)) ** 2) / sigma**2))
    expected = float(np.sqrt(2.0 - 2.0 * k))
    euclidean = float(np.linalg.norm(np.asarray(x, float) - np.asarray(y, float)))
    return check_number(
        value, expected, atol=1e-4,
        diagnoses=[(expected**2, _("That is d²: take the square root.")),
                   (euclidean, _("That is the Euclidean distance in the input space, not in the "
                    "kernel's feature space.")),
                   (k, _("That is K(x, y), a similarity: turn it into a distance."))],
        hint=_("Use d² = K(x, x) + K(y, y) - 2 K(x, y); with the Gaussian kernel K(x, x) = 1."),
        right=_("K(x, x) = K(y, y) = 1 and K(x, y) = {k:.4f}, so d = √(2 - 2 K(x, "
        "y)) = {expected:.4f} (it never exceeds sqrt 2 with this kernel).").format(
            k=k, expected=expected),
    )


# The coding exercise of chapter 05 [K13, K21]: the Gram matrix and its PSD check

def _gram_cases(rng, n_cases=12):
    """Random data sets X (3-8 points, 1-3 features) with each of the slides' four kernels."""
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
    return (_("kernel = {kernel}{parameter}, "
            "X = {X} (rows xᵗ)").format(
                kernel=case['kernel'], parameter=detail.get(case['kernel'], ''), X=np.array2string(case['X'], separator=', ')))


def check_gram(student_fn, seed=None):
    """Coding exercise [K21]: `gram_matrix(X, kernel, sigma, degree)` returns G_ts = K(x^t, x^s)
    for the slides' four kernels, written without the library's kernel functions."""
    return check_function(
        student_fn, _gram_cases, _reference_gram, seed=seed, show=_show_gram_case,
        hint=_("Loop over t and s (or broadcast X[:, None, :] against X[None, :, :]) and apply the "
        "slide's formula of the kernel: x·y, (x·y + 1) to the power q, exp(-‖x - y‖² / σ²), "
        "tanh(2 x·y + 1)."),
        right=_("Your Gram matrices equal the library's on every case."),
    )


def _psd_cases(rng):
    """Symmetric matrices, some positive semi-definite and some not: Gram matrices of the four
    kernels, sums A A^T, and random symmetric matrices."""
    cases = [dict(G=_reference_gram(**case)) for case in _gram_cases(rng, n_cases=8)]
    for _ in range(3):
        A = rng.normal(size=(5, 2))
        cases.append(dict(G=A @ A.T))  # rank 2: PSD with zero eigenvalues (up to rounding)
        B = rng.normal(size=(5, 5))
        cases.append(dict(G=B + B.T))
    cases.append(dict(G=np.array([[1.0, 2.0], [2.0, 1.0]])))  # eigenvalues 3 and -1
    for _ in range(2):
        cases.append(dict(G=_unit_diagonal_not_psd(rng)))
    return cases


def _unit_diagonal_not_psd(rng):
    """A symmetric 4 x 4 matrix with ones on its diagonal and off-diagonal entries in (-0.95, 0.95):
    every diagonal entry and every 2 x 2 principal minor is positive, and still an eigenvalue is
    below -0.05 (a test of the diagonal and of the pairs alone calls it PSD)."""
    while True:
        upper = np.triu(np.round(rng.uniform(-0.95, 0.95, size=(4, 4)), 2), 1)
        G = np.eye(4) + upper + upper.T
        if np.linalg.eigvalsh(G)[0] < -0.05:
            return G


def _reference_is_psd(G):
    """v^T G v >= 0 for every v <=> the smallest eigenvalue of the symmetric G is >= 0 (up to
    rounding: -1e-10 times the largest absolute eigenvalue)."""
    eigenvalues = np.linalg.eigvalsh(G)
    return bool(eigenvalues[0] >= -1e-10 * max(1.0, np.abs(eigenvalues).max()))


def _compare_bool(expected, got):
    if not isinstance(got, (bool, np.bool_)):
        return _("return True or False, not {name}").format(name=type(got).__name__)
    return None if bool(got) == expected else _("wrong verdict for this matrix")


def check_is_psd(student_fn, seed=None):
    """Coding exercise [K21]: `is_psd(G)` says whether the symmetric matrix G is positive
    semi-definite (tolerant to rounding)."""
    return check_function(
        student_fn, _psd_cases, lambda G: _reference_is_psd(G), seed=seed, compare=_compare_bool,
        show=lambda case: "G =\n" + np.array2string(case["G"], precision=3, separator=", "),
        hint=_("A symmetric matrix is PSD when its smallest eigenvalue is ≥ 0 (np.linalg.eigvalsh "
        "gives them in increasing order); allow a tiny negative value from rounding, relative to "
        "the largest one."),
        right=_("Right on every matrix, including those with zero eigenvalues up to rounding."),
    )


# -- concept questions (shown by `quiz(name)` in the chapter) -----------------------------------

def quiz(name):
    """The concept question `name` as a Quiz widget (QUIZZES: question, choices, several right)."""
    from course_lib.widgets.quiz import Quiz

    question, choices, multiple = QUIZZES[name]
    return Quiz(question, choices, multiple=multiple)


QUIZZES = {
    "kernel_knn_neighbours": (
        N_("With the Gaussian kernel, which neighbours does kernel $k$-NN find, compared with ordinary"
        " (Euclidean) $k$-NN? [K20]"),
        [
            Choice("The same neighbours, for every σ",
                   True,
                   "$d^2 = 2 - 2\\exp(-\\|\\mathbf{x} - \\mathbf{y}\\|^2/\\sigma^2)$ grows with $\\|\\mathbf{x} - \\mathbf{y}\\|$: the order of the distances"
                   " is the Euclidean order, whatever σ."),
            Choice("Other neighbours when σ is small",
                   False,
                   "A small σ squeezes every distance toward √2 but keeps their order (up to "
                   "floating-point ties far away)."),
            Choice("Other neighbours when σ is large",
                   False,
                   "A large σ makes $d$ almost proportional to $\\|\\mathbf{x} - \\mathbf{y}\\|$: still the same order."),
            Choice("It depends on C",
                   False,
                   "$k$-NN has no $C$: $C$ is the SVM's penalty factor."),
        ],
        False,
    ),
    "equal_covariances": (
        N_("Two classes are Gaussian clouds with the same covariance matrix. On fresh data, a "
        "well-tuned Gaussian-kernel SVM... [K16]"),
        [
            Choice("cannot do better than a linear SVM, on average",
                   True,
                   "With equal covariances the best (Bayes) boundary is a straight line: the "
                   "kernel's extra freedom can only fit noise."),
            Choice("always beats the linear SVM, since it is more flexible",
                   False,
                   "More flexibility helps only if the best boundary is curved; here it is a line, "
                   "so the flexibility fits noise."),
            Choice("reaches zero error with a small enough σ",
                   False,
                   "The classes overlap: no classifier reaches zero error on fresh data. A small σ "
                   "reaches zero TRAINING error, which is overfitting."),
            Choice("is the same classifier as the linear SVM for every σ",
                   False,
                   "Only for a very large σ does the Gaussian SVM approach a smooth, almost linear "
                   "boundary; for other σ it differs."),
        ],
        False,
    ),
    "soft_margin_w0": (
        N_("With a soft margin, over which training points should one average $r^t - \\sum_s \\alpha^s "
        "r^s K(\\mathbf{x}^t, \\mathbf{x}^s)$ to get $w_0$? [K13]"),
        [
            Choice("Those with $0 < \\alpha^t < C$",
                   True,
                   "Only these lie exactly on the margin, $r^t h(\\mathbf{x}^t) = 1$, so the expression equals "
                   "$w_0$ for each of them."),
            Choice("Those with $\\alpha^t \\geq 0$ (the slides' $M$)",
                   False,
                   "That is every training point: most are not on the margin, so their values are "
                   "not $w_0$."),
            Choice("Those with $\\alpha^t > 0$ (all support vectors)",
                   False,
                   "Right for the hard margin only: support vectors at $\\alpha^t = C$ lie inside the "
                   "margin or on the wrong side, $r^t h(\\mathbf{x}^t) < 1$."),
            Choice("Those with $\\alpha^t = C$",
                   False,
                   "These have $r^t h(\\mathbf{x}^t) \\leq 1$, not $= 1$: their values are not $w_0$."),
        ],
        False,
    ),
    "grid_edge": (
        N_("In the slides' grid search the best validation error falls on the top row of the grid"
        " ($\\sigma = 64\\,\\sigma_{\\min}$). What do you do? [K17]"),
        [
            Choice("Extend the grid to larger σ and search again on the validation set",
                   True,
                   "A best pair on an edge means the optimum may lie beyond it; $\\sigma_{\\min}$ shrinks as $N$ "
                   "grows, so with many points $64\\,\\sigma_{\\min}$ can be too small."),
            Choice("Keep the pair: the grid is the slides' rule",
                   False,
                   "The rule of thumb is a starting point; a best cell on the edge says the grid is"
                   " too narrow."),
            Choice("Choose σ by the error on the test set instead",
                   False,
                   "Never tune on test data: its error would no longer estimate the error on new "
                   "data."),
            Choice("Lower C until the best cell moves",
                   False,
                   "C does not move the σ edge; and the choice must come from validation errors, "
                   "not from where the cell sits."),
        ],
        False,
    ),
}


seal(__name__)  # the checks refuse to run once what they rely on is changed
