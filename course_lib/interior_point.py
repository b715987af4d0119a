"""The soft-margin SVM with an explicit feature map, solved by a primal-dual interior-point method.

With features z^t = phi(x^t) of few coordinates (D of them: the linear kernel, or the polynomial
kernel of a low dimension, see course_lib.smoothed_newton.polynomial_features), the dual of the
slides, written as a minimisation with y^t = r^t z^t (rows of Y, so Q = Y Y^T has rank <= D),

    minimise f(alpha) = 1/2 alpha^T Y Y^T alpha - sum_t alpha^t
    subject to sum_t alpha^t r^t = 0 and 0 <= alpha^t <= C,

has the KKT conditions (s: multipliers of alpha >= 0, u: of alpha <= C, b: of the equality)

    Y Y^T alpha - 1 + b r - s + u = 0,   r^T alpha = 0,   alpha^t s^t = 0,   (C - alpha^t) u^t = 0.

The method keeps alpha strictly inside the box and s, u > 0, and follows Newton's steps on these
equations with the products alpha s and (C - alpha) u aimed at sigma mu instead of 0 (mu: their
mean; sigma by Mehrotra's predictor-corrector rule), about 10-20 steps whatever N. Eliminating
s and u leaves (Y Y^T + Delta) d_alpha + r d_b = g with Delta = diag(s / alpha + u / (C - alpha)),
solved by the Woodbury identity

    (Delta + Y Y^T)^{-1} = Delta^{-1} - Delta^{-1} Y (I + Y^T Delta^{-1} Y)^{-1} Y^T Delta^{-1}:

one D x D system per step, O(N D^2), instead of the N x N one.

Finishing exactly: as mu falls, alpha^t / C against s^t (and (C - alpha^t) / C against u^t) tells
which bound each multiplier is heading for; those sets are tried in the exact KKT system of the
free multipliers (as course_lib.smo.polish does), and the first solution in the box with a KKT gap
(max_{I_up} E - min_{I_low} E, E^t = r^t - w^T z^t) below tol ends the method: the same
certificate as SMO's, with multipliers exactly 0 or C at the bounds.
"""

import numpy as np

from course_lib._validation import check_binary_targets, check_int, check_matrix, check_positive, finite_arguments
from course_lib.smo import SMOResult
from course_lib.smoothed_newton import _polish_sets

# the sets are first tried once mu (the mean of alpha s and (C - alpha) u) is below this times C
POLISH_MU = 1e-3
# a polished result is final when its KKT gap is below this times tol (rounding: the sets were
# right), or when its gap is below tol and mu is below MU_END times C (the sets will not change)
EXACT = 1e-6
MU_END = 1e-10
# a step goes this share of the way to the boundary of the box or of s, u >= 0
STEP_SHARE = 0.995


@finite_arguments(shapes={"Z": "n D", "r": "n"})
def interior_point(Z, r, C, tol=1e-3, max_steps=100):
    """Solve the dual above for features Z (N x D), r in {-1, +1}, 0 < C < inf, KKT tolerance tol.
    Returns (SMOResult, w) as course_lib.smoothed_newton.smoothed_newton does: alpha (exactly 0 or
    C at the bounds), E^t = r^t - w^T z^t, the KKT gap, the number of steps and status
    "converged" (gap < tol) or "max_iter" (the caller then finishes otherwise)."""
    Z = check_matrix(Z, "Z")
    r = check_binary_targets(r, Z.shape[0], "r")
    C, tol = check_positive(C, "C"), check_positive(tol, "tol")
    max_steps = check_int(max_steps, "max_steps", 1)
    n, D = Z.shape
    Y = Z * r[:, None]
    # C - alpha kept as its own variable `room`: recomputed from alpha it would lose the digits
    # of a multiplier close to C (and could reach 0)
    alpha, room, s, u, b = np.full(n, C / 2.0), np.full(n, C / 2.0), np.ones(n), np.ones(n), 0.0
    identity = np.eye(D)
    best, tried = None, None
    for step in range(1, max_steps + 1):
        mu = float(alpha @ s + room @ u) / (2 * n)
        if mu < POLISH_MU * C:
            free = (alpha >= C * s) & (room >= C * u)
            upper = room < C * u
            sets = (free, upper)
            if tried is None or not all(np.array_equal(a, c) for a, c in zip(sets, tried)):
                tried = sets
                best = _polish_sets(Z, r, C, np.flatnonzero(free), np.flatnonzero(upper), best)
            if best is not None and (best[2] < EXACT * tol or (best[2] < tol and mu < MU_END * C)):
                alpha_, E, gap, w = best
                return SMOResult(alpha=alpha_, E=E, gap=gap, n_iter=step, status="converged"), w
        residual = Y @ (Y.T @ alpha) - 1.0 + b * r - s + u  # dual residual; r^T alpha is the other
        inverse = 1.0 / (s / alpha + u / room)  # Delta^{-1}
        YD = Y * inverse[:, None]
        inner = identity + Y.T @ YD

        def solve(G):
            """(Delta + Y Y^T)^{-1} G (G: N x k) by the Woodbury identity."""
            X = inverse[:, None] * G
            return X - YD @ np.linalg.solve(inner, Y.T @ X)

        primal = float(r @ alpha)

        def direction(x):
            """(d_alpha, d_b) with (Y Y^T + Delta) d_alpha + r d_b = g and r^T d_alpha = -r^T alpha,
            from x = (Y Y^T + Delta)^{-1} g and v = (Y Y^T + Delta)^{-1} r."""
            d_b = (float(r @ x) + primal) / float(r @ v)
            return x - d_b * v, d_b

        # predictor: the pure Newton step (sigma = 0), solved with v
        v, x = solve(np.stack([r, -residual - s + u], axis=1)).T
        d_alpha, _ = direction(x)
        d_s = -s - s / alpha * d_alpha
        d_u = -u + u / room * d_alpha
        length = min(1.0, _longest(alpha, room, s, u, d_alpha, d_s, d_u))
        mu_affine = float((alpha + length * d_alpha) @ (s + length * d_s)
                          + (room - length * d_alpha) @ (u + length * d_u)) / (2 * n)
        target = (mu_affine / mu) ** 3 * mu
        # corrector: aim the products at sigma mu and correct for the predictor's second order
        lower, upper_ = d_alpha * d_s, d_alpha * d_u
        g = -residual + (target - alpha * s - lower) / alpha - (target - room * u + upper_) / room
        d_alpha, d_b = direction(solve(g[:, None])[:, 0])
        d_s = (target - alpha * s - lower - s * d_alpha) / alpha
        d_u = (target - room * u + upper_ + u * d_alpha) / room
        length = min(1.0, STEP_SHARE * _longest(alpha, room, s, u, d_alpha, d_s, d_u))
        alpha = alpha + length * d_alpha
        room = room - length * d_alpha
        b += length * d_b
        s = s + length * d_s
        u = u + length * d_u
    if best is None or best[2] >= tol:
        return SMOResult(alpha=alpha, E=r - Z @ (Z.T @ (alpha * r)), gap=np.inf, n_iter=max_steps,
                         status="max_iter"), Z.T @ (alpha * r)
    alpha, E, gap, w = best
    return SMOResult(alpha=alpha, E=E, gap=gap, n_iter=max_steps, status="converged"), w


def _longest(alpha, room, s, u, d_alpha, d_s, d_u):
    """The largest step keeping alpha, C - alpha, s and u >= 0 along their directions."""
    x, dx = np.stack([alpha, room, s, u]), np.stack([d_alpha, -d_alpha, d_s, d_u])
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(np.where(dx < 0, -x / dx, np.inf).min())
