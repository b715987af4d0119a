"""Exercises of chapter 04 (K10-K12): the XOR basis map written by hand, a separating plane
checked on points around the corners, and one RBF value. Concept questions: `QUIZZES`."""

import numpy as np

from course_lib import basis
from course_lib._validation import check_int, check_non_negative, check_random_state, check_steps, finite_arguments
from course_lib.exercises import Verdict
from course_lib.exercises.harness import (Choice, Quiz, check_function, check_number, float_array, limited_tries,
                                         value_and_reason)
from course_lib.exercises.seal import seal
from course_lib.i18n import _, N_

XOR_SLIDE_X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])


def _xor_map_cases(rng):
    cases = [{"X": XOR_SLIDE_X.copy()}]
    for n in (1, 3, 7, 20):
        cases.append({"X": np.round(rng.uniform(-2, 2, size=(n, 2)), 2)})
    return cases


def check_xor_map(phi, seed=None):
    """Coding exercise [K10]: phi(X) -> Z with rows z = (x1, x2, x1 x2), for any (n, 2) matrix X."""
    return check_function(
        phi,
        _xor_map_cases,
        basis.xor_map,
        seed=seed,
        show=lambda case: f"X = {case['X'].tolist()}",
        hint=_("One row per point, three columns: x₁, x₂ and their product. "
        "`X[:, 0] * X[:, 1]` is the product for every row at once; `np.column_stack` joins columns."),
        right=_("z = (x₁, x₂, x₁ x₂) for every row, on the slides' four points and on random "
        "matrices. The slides' table of z is φ of the four XOR points."),
    )


@finite_arguments
def corner_points(n=200, seed=0, spread=0.15):
    """n points around the four XOR corners (normal noise of `spread`, cut at 0.3), with r = +1
    when exactly one coordinate is above 1/2 (the slides' classes: x2, x3 are +1)."""
    n = check_steps(check_int(n, "n", 1), "n", 2)
    spread = check_non_negative(spread, "spread")
    rng = check_random_state(seed)
    X = XOR_SLIDE_X[np.arange(n) % 4] + np.clip(rng.normal(0, spread, size=(n, 2)), -0.3, 0.3)
    r = np.where((X[:, 0] > 0.5) != (X[:, 1] > 0.5), 1.0, -1.0)
    return X, r


def _three_and_one(w, w0):
    """(w as 3 floats, w0 as a float, None) or (None, None, reason) for any input."""
    try:
        w = float_array(w).reshape(-1)
        w0 = float_array(w0).reshape(-1)
    except (TypeError, ValueError):
        return None, None, _("w and w₀ must be numbers: w three of them (one per z₁, z₂, z₃), w₀ one.")
    if w.size != 3 or w0.size != 1:
        return None, None, _("w needs three numbers and w₀ one; you gave {w} and {w0}.").format(w=w.size, w0=w0.size)
    if not (np.all(np.isfinite(w)) and np.isfinite(w0[0])):
        return None, None, _("your w or w₀ contains NaN or infinity.")
    return w, float(w0[0]), None


PLANE_REASONS = (
    Choice("z₃ = x₁ x₂ is the largest of the three coordinates, so it decides the sign", False,
           "At the four corners z₃ is 0 or 1, no larger than x₁ or x₂; what matters is that it is not a linear "
           "function of x₁ and x₂."),
    Choice("The SVM puts a non-zero weight on every coordinate", False,
           "Nothing forces that in general (a coordinate that does not help gets a weight near 0); here z₃ is needed."),
    Choice("With w₃ = 0 the plane is w₁ x₁ + w₂ x₂ + w₀ = 0, a line of the (x₁, x₂) plane, and no line separates XOR", True,
           "A plane of R³ with no weight on z₃ = x₁ x₂ only sees (x₁, x₂): it is a line there, and the four XOR "
           "points have none. The product x₁ x₂ is what φ adds."),
    Choice("z₃ is 0 for three of the four points, so it carries no information", False,
           "Being 1 at x₄ only is exactly what lets a negative weight push z₄ back to the -1 side."),
)


@limited_tries
def check_xor_plane(w, w0, reason=None):
    """Exercise [K10]: a plane w.z + w0 = 0 of R^3 that separates the slides' z table (r = +1 for
    z2, z3) and also 200 random points around the four corners, mapped by phi; then the letter of
    PLANE_REASONS saying why it needs a weight on z3 (the chapter's SVM prints a plane, not why)."""
    return value_and_reason(_check_xor_plane(w, w0), reason, PLANE_REASONS,
                            _("Your plane separates them. Your reason: {why}"),
                            hint=_("What is left of the plane when w₃ = 0?"))


def _check_xor_plane(w, w0):
    hint = _("z₃ = x₁ x₂ is 1 only at x₄: a negative weight on z₃ can push z₄ back to the -1 side.")
    if w is Ellipsis or w0 is Ellipsis or w is None or w0 is None:
        return Verdict(False, _("Replace both `...` with your w (three numbers) and w₀."), hint)
    w, w0, reason = _three_and_one(w, w0)
    if reason:
        return Verdict(False, reason, hint)
    Z = basis.xor_map(XOR_SLIDE_X)
    r = np.array([-1.0, 1.0, 1.0, -1.0])
    margins = r * (Z @ w + w0)
    if np.any(margins <= 0):
        wrong = ", ".join(f"z_{t + 1}" for t in np.flatnonzero(margins <= 0))
        return Verdict(False, _("{wrong}: on the wrong side of your plane (or on it); r (w·z + w₀) must be > 0.").format(
            wrong=wrong), hint)
    X, rx = corner_points()
    h = basis.xor_map(X) @ w + w0
    bad = np.flatnonzero(rx * h <= 0)
    if bad.size:
        t = bad[0]
        return Verdict(
            False,
            _("Your plane separates the four z, but not {bad} of 200 points near the corners: "
              "e.g. x = ({x1:.2f}, {x2:.2f}) with r = {r:+.0f} gets h = {h:.3f}.").format(
                bad=bad.size, x1=X[t, 0], x2=X[t, 1], r=rx[t], h=h[t]),
            _("Your plane only just separates the four z: the boundary should pass half-way between the "
            "classes, at x₁ = 1/2 and x₂ = 1/2."),
        )
    return Verdict(
        True,
        _("r (w·z + w₀) = {margins} on the slides' z, and the 200 points "
          "around the corners are all on their side too.").format(margins=np.round(margins, 3).tolist()),
    )


RBF_REASONS = (
    Choice("x is on the wrong side of the boundary", False,
           "φ(x) is a feature, computed before any boundary: it only compares x with the centre m."),
    Choice("φ measures closeness to the centre on the scale s: ‖x - m‖² = 5 is 5 s², so x is far from m and "
           "exp(-5/2) is small", True,
           "φ(x) = 1 at the centre and falls with ‖x - m‖ / s: at 2.2 widths from m it is 0.08. Each RBF unit "
           "'responds' to the points near its centre only."),
    Choice("φ is a probability density, and densities are small numbers", False,
           "It is not a density: its integral is s √(2 π) (chapter 04 computes it), and it is 1 at the centre."),
    Choice("s = 1 is a large width", False, "A larger s gives a larger φ(x) at the same x: exp(-5 / (2 s²)) grows with s."),
)


@limited_tries
def check_rbf_value(value, reason=None):
    """Exercise [K12]: phi(x) = exp(-||x - m||^2 / (2 s^2)) for the given x, m, s; then the letter
    of RBF_REASONS saying why it is small (basis.rbf_features, shown in the chapter, gives the
    number in one call, not why)."""
    return value_and_reason(_check_rbf_number(value), reason, RBF_REASONS,
                            _("φ(x) is right. Your reason: {why}"),
                            hint=_("Compare ‖x - m‖ with s."))


def _check_rbf_number(value):
    x, m, s = (1.0, 2.0), (0.0, 0.0), 1.0  # the exercise's numbers
    d2 = float(np.sum((np.asarray(x, float) - np.asarray(m, float)) ** 2))
    return check_number(
        value,
        np.exp(-d2 / (2 * s**2)),
        atol=1e-4,
        rtol=1e-3,
        diagnoses=(
            (np.exp(-d2 / s**2), _("the RBF of the slides divides by 2 s², not s² (s² alone is the "
             "Gaussian kernel's σ²).")),
            (np.exp(-np.sqrt(d2) / (2 * s**2)), _("use the squared distance ‖x - m‖², not the distance.")),
            (-d2 / (2 * s**2), _("that is the exponent: take exp of it.")),
        ),
        hint=_("First ‖x - m‖² (a sum of two squares), then exp(-that / (2 s²))."),
        right=f"‖x - m‖² = {d2:g}, φ = exp(-{d2:g}/{2 * s**2:g}).",
    )


def quiz(name):
    """The concept question `name` of chapter 04 as a Quiz (see QUIZZES)."""
    question, choices = QUIZZES[name]
    return Quiz(question, choices)


QUIZZES = {
    "xor_lines": (
        N_("After $\\phi(\\mathbf{x}) = (x_1, x_2, x_1x_2)$, the SVM's plane is $2z_1 + 2z_2 - 4z_3 - 1 = 0$. "
        "What is the boundary back in the plane $(x_1, x_2)$?"),
        [
            Choice("A line", False, "$h$ contains the product $x_1x_2$: it is not linear in $\\mathbf{x}$."),
            Choice("A circle", False, "There is no $x_1^2$ or $x_2^2$ term, so no circle."),
            Choice("The two lines $x_1 = 1/2$ and $x_2 = 1/2$", True,
                   "$h = -(2x_1 - 1)(2x_2 - 1)$ is zero when either factor is: a degenerate hyperbola."),
            Choice("A hyperbola with two separate branches", False,
                   "That is the general case of $w_1x_1 + w_2x_2 + w_3x_1x_2 + w_0 = 0$; here "
                   "$w_1w_2 = w_0w_3$ and it factorises into two lines."),
        ],
    ),
    "rbf_density": (
        N_("An RBF $\\phi_i(\\mathbf{x}) = \\exp(-\\|\\mathbf{x} - \\mathbf{m}_i\\|^2/(2s_i^2))$ in 1-D: which is true?"),
        [
            Choice("It integrates to 1, like a normal density", False,
                   "Its integral is $s\\sqrt{2\\pi}$: it lacks the normalising constant (the slides' remark)."),
            Choice("It equals 1 at its centre and is a Gaussian kernel with $\\sigma^2 = 2s^2$", True,
                   "$\\exp(0) = 1$ at $\\mathbf{m}_i$, and $2s^2$ plays the role of the kernel's $\\sigma^2$."),
            Choice("A larger $s_i$ makes its influence more local", False,
                   "A larger width spreads the bump: the influence becomes *less* local."),
        ],
    ),
    "rbf_centres": (
        N_("An RBF network with $K$ centres on the 80 noisy XOR points: why do 2 centres fail while 10 succeed?"),
        [
            Choice("With 2 centres the least-squares fit does not converge", False,
                   "Least squares has a closed form: it always gives the best $\\mathbf{w}$ for those features."),
            Choice("2 bumps can be near at most 2 of the 4 groups; the others get $\\phi \\approx 0$", True,
                   "A group far from every centre is mapped near $\\mathbf{0}$, where only $w_0$ decides: "
                   "two groups of opposite classes end up together."),
            Choice("More centres always overfit, so 10 should be worse", False,
                   "Overfitting shows on fresh data with many more centres; here 10 centres are what "
                   "covers the four groups."),
        ],
    ),
    "projection": (
        N_("Class $+1$ for $|x| < 1.5$, class $-1$ outside. After $\\phi(x) = (x, x^2)$, a line separates them. "
        "What is that line back on the $x$ axis?"),
        [
            Choice("One threshold", False, "One threshold cannot put the middle apart from both sides."),
            Choice("Two thresholds, the roots of $w_1x + w_2x^2 + w_0 = 0$", True,
                   "A line in $(x, x^2)$ is a quadratic in $x$: it changes sign at its two roots."),
            Choice("Nothing: it only exists in 2-D", False,
                   "Every point $\\phi(x)$ has a side, so the line defines a classifier of $x$ too."),
        ],
    ),
}


seal(__name__)  # the checks refuse to run once what they rely on is changed
