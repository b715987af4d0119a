"""Lagrange multipliers and the Karush-Kuhn-Tucker conditions (slides 6.3).

The worked example of the slides: maximise f(x1, x2) = 1 - x1^2 - x2^2 subject to
g(x1, x2) = x1 + x2 - 1 = 0. With L(x, lambda) = f(x) + lambda g(x), grad L = 0 is a linear
system when f is quadratic and g linear; its solution is x = (0.5, 0.5), lambda = 1.
"""

import numpy as np

from course_lib._validation import check_matrix, finite_arguments
from course_lib.i18n import _

# The slides' example: f(x) = f0 + q.x + 1/2 x^T H x and g(x) = a.x - b.
EXAMPLE_H = np.array([[-2.0, 0.0], [0.0, -2.0]])
EXAMPLE_Q = np.zeros(2)
EXAMPLE_F0 = 1.0
EXAMPLE_A = np.array([1.0, 1.0])
EXAMPLE_B = 1.0


@finite_arguments
def f(X):
    """The slides' objective f(x1, x2) = 1 - x1^2 - x2^2, for each row of X (n, 2) or one point."""
    X = np.asarray(X, dtype=float)
    return 1.0 - np.sum(X**2, axis=-1)


@finite_arguments(shapes={"X": "... d", "a": "d"})
def g(X, a=EXAMPLE_A, b=EXAMPLE_B):
    """The constraint g(x) = a.x - b (the slides: x1 + x2 - 1), for each row of X or one point."""
    return np.asarray(X, dtype=float) @ np.asarray(a, dtype=float) - b


@finite_arguments
def grad_f(x):
    """grad f(x) = (-2 x1, -2 x2)."""
    return -2.0 * np.asarray(x, dtype=float)


@finite_arguments(shapes={"x": "d", "a": "d"})
def grad_g(x, a=EXAMPLE_A):
    """grad g(x) = a, the same everywhere (the slides: (1, 1))."""
    return np.asarray(a, dtype=float).copy()


@finite_arguments(shapes={"H": "d d", "q": "d", "a": "d"})
def lagrange_system(H=EXAMPLE_H, q=EXAMPLE_Q, a=EXAMPLE_A, b=EXAMPLE_B):
    """The linear system grad L(x, lambda) = 0 for f = f0 + q.x + 1/2 x^T H x, g = a.x - b.

    dL/dx      = H x + q + lambda a = 0
    dL/dlambda = a.x - b            = 0
    Returns (M, rhs) with M [x; lambda] = rhs. For the slides' example the rows are
    -2 x1 + lambda = 0, -2 x2 + lambda = 0 and x1 + x2 = 1.
    """
    H = check_matrix(H, "H")
    D = H.shape[0]
    if H.shape != (D, D):
        raise ValueError(_("H must be square (D, D); got shape {shape}.").format(shape=H.shape))
    q = np.asarray(q, dtype=float).reshape(-1)
    a = np.asarray(a, dtype=float).reshape(-1)
    if q.shape != (D,) or a.shape != (D,):
        raise ValueError(_("q and a must have {D} entries like H; got {shape_q} and {shape_a}.").format(
                             D=D, shape_q=q.shape, shape_a=a.shape))
    if not np.any(a):
        raise ValueError(_("a must not be zero: g(x) = a.x - b would not constrain anything."))
    M = np.zeros((D + 1, D + 1))
    M[:D, :D] = H
    M[:D, D] = a
    M[D, :D] = a
    rhs = np.r_[-q, float(b)] + 0.0  # + 0.0 turns -0.0 into 0.0
    return M, rhs


@finite_arguments(shapes={"H": "d d", "q": "d", "a": "d"})
def solve_lagrange(H=EXAMPLE_H, q=EXAMPLE_Q, a=EXAMPLE_A, b=EXAMPLE_B):
    """Solve grad L = 0 (see `lagrange_system`); returns (x, lambda).

    The slides' example gives x = (0.5, 0.5) and lambda = 1.
    """
    M, rhs = lagrange_system(H, q, a, b)
    try:
        solution = np.linalg.solve(M, rhs)
    except np.linalg.LinAlgError:
        raise ValueError(
            _("grad L = 0 has no unique solution: f must be strictly concave along the constraint "
              "(H negative definite on it).")
        ) from None
    return solution[:-1], float(solution[-1])


@finite_arguments(shapes={"H": "d d", "q": "d", "a": "d"})
def maximise_with_inequality(H=EXAMPLE_H, q=EXAMPLE_Q, a=EXAMPLE_A, b=EXAMPLE_B):
    """Maximise the concave quadratic f subject to g(x) = a.x - b >= 0 (one inequality).

    Possibility 1, inactive constraint: the unconstrained maximum (H x = -q) already has
    g(x) > 0, so lambda = 0. Possibility 2, active constraint: the maximum lies on g(x) = 0,
    found by `solve_lagrange`, with lambda > 0. Returns (x, lambda, "active" | "inactive").
    """
    H = check_matrix(H, "H")
    if np.any(np.linalg.eigvalsh((H + H.T) / 2) >= 0):
        raise ValueError(_("H must be negative definite so that f is strictly concave."))
    x_free = np.linalg.solve(H, -np.asarray(q, dtype=float))
    if g(x_free, a, b) >= 0:
        return x_free, 0.0, "inactive"
    x, lam = solve_lagrange(H, q, a, b)
    return x, lam, "active"


@finite_arguments
def kkt_conditions(
    g_values, lambdas, grad_f_value=None, grad_g_values=None, maximise=True, tol=1e-8
):
    """Check the KKT conditions of constraints g_i(x) >= 0 at a candidate point.

    g_i(x) >= 0 (primal feasibility), lambda_i >= 0 (dual feasibility),
    lambda_i g_i(x) = 0 (complementary slackness), and if gradients are given,
    stationarity: grad f + sum lambda_i grad g_i = 0 when maximising f
    (L = f + lambda g), grad f - sum lambda_i grad g_i = 0 when minimising (L = f - lambda g).
    Returns a dict of booleans plus "active", the mask of constraints with g_i(x) = 0.
    """
    g_values = np.atleast_1d(np.asarray(g_values, dtype=float))
    lambdas = np.atleast_1d(np.asarray(lambdas, dtype=float))
    if g_values.shape != lambdas.shape:
        raise ValueError(
            _("g_values and lambdas need one entry per constraint; got {shape_g} and {shape_lambdas}.").format(
                shape_g=g_values.shape, shape_lambdas=lambdas.shape)
        )
    report = {
        "primal_feasible": bool(np.all(g_values >= -tol)),
        "dual_feasible": bool(np.all(lambdas >= -tol)),
        "complementary_slackness": bool(np.all(np.abs(lambdas * g_values) <= tol)),
        "active": np.abs(g_values) <= tol,
    }
    if grad_f_value is not None:
        grads = np.atleast_2d(np.asarray(grad_g_values, dtype=float))
        sign = 1.0 if maximise else -1.0
        residual = np.asarray(grad_f_value, dtype=float) + sign * lambdas @ grads
        report["stationary"] = bool(np.all(np.abs(residual) <= tol))
    report["satisfied"] = all(v for k, v in report.items() if k != "active")
    return report


@finite_arguments(inf_ok=('C',), shapes={"alpha": "n", "r": "n", "h": "n"})
def svm_kkt_conditions(alpha, r, h, C=np.inf, tol=1e-4):
    """KKT conditions of the SVM dual at a solution, one row per training point.

    With margins m^t = r^t h(x^t): alpha^t = 0 needs m^t >= 1; 0 < alpha^t < C needs m^t = 1
    (on the margin); alpha^t = C needs m^t <= 1 (slack xi^t = 1 - m^t >= 0). Also sum alpha r = 0.
    Returns a dict: "margin" (m), "violations" (mask of points breaking their condition),
    "balance" (sum alpha^t r^t) and "satisfied".
    """
    alpha = np.asarray(alpha, dtype=float)
    r = np.asarray(r, dtype=float)
    m = r * np.asarray(h, dtype=float)
    scale = max(1.0, float(np.max(alpha))) if alpha.size else 1.0
    at_zero = alpha <= tol * scale
    at_c = np.isfinite(C) & (alpha >= C - tol * scale)
    free = ~at_zero & ~at_c
    violations = (at_zero & (m < 1 - tol)) | (free & (np.abs(m - 1) > tol)) | (at_c & (m > 1 + tol))
    violations |= alpha < -tol * scale
    balance = float(alpha @ r)
    return {
        "margin": m,
        "violations": violations,
        "balance": balance,
        "satisfied": bool(
            not violations.any() and abs(balance) <= tol * scale * max(1, alpha.size)
        ),
    }
