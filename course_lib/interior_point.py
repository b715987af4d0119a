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
mean; sigma by Mehrotra's predictor-corrector rule), about 10-30 steps whatever N. It works in
units of C (a = alpha / C in [0, 1], Y scaled by sqrt(C)), so that s, u and mu keep the scale of
the margin whatever C. Eliminating
s and u leaves (Y Y^T + Delta) d_alpha + r d_b = g with Delta = diag(s / alpha + u / (C - alpha)),
solved by the Woodbury identity

    (Delta + Y Y^T)^{-1} = Delta^{-1} - Delta^{-1} Y (I + Y^T Delta^{-1} Y)^{-1} Y^T Delta^{-1}:

one D x D system per step, O(N D^2), instead of the N x N one.

Finishing exactly: as mu falls, alpha^t / C against s^t (and (C - alpha^t) / C against u^t) tells
which bound each multiplier is heading for; those sets are tried in the exact KKT system of the
free multipliers (as course_lib.smo.polish does), and a solution in the box with a KKT gap
(max_{I_up} E - min_{I_low} E, E^t = r^t - w^T z^t) at rounding level (or below tol once mu has
vanished) ends the method: the same certificate as SMO's, with multipliers exactly 0 or C at the
bounds.
"""

import numpy as np

from course_lib._validation import check_binary_targets, check_int, check_matrix, check_positive, finite_arguments
from course_lib.smo import SMOResult
from course_lib.smoothed_newton import _polish_sets

# the sets are first tried once mu (the mean of a s and (1 - a) u, a = alpha / C) is below this
POLISH_MU = 1e-3
# a polished result is final when its KKT gap is below this times tol (rounding: the sets were
# right), or when its gap is below tol and mu is below MU_END (the sets will not change)
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
    # in units of C: a = alpha / C in [0, 1] minimises 1/2 a^T Y Y^T a - sum a with Y = sqrt(C) r z
    # (f / C), so that s, u and mu keep the scale of the margin whatever C
    Y = Z * (np.sqrt(C) * r)[:, None]
    # 1 - a kept as its own variable `room`: recomputed from a it would lose the digits of a
    # multiplier close to C (and could reach 0)
    a, room, s, u, b = np.full(n, 0.5), np.full(n, 0.5), np.ones(n), np.ones(n), 0.0
    identity = np.eye(D)
    best, tried = None, None
    for step in range(1, max_steps + 1):
        mu = float(a @ s + room @ u) / (2 * n)
        if not mu > 0.0:  # every product underflowed: nothing left to follow
            break
        if mu < POLISH_MU:
            free = (a >= s) & (room >= u)
            upper = room < u
            sets = (free, upper)
            if tried is None or not all(np.array_equal(new, old) for new, old in zip(sets, tried)):
                tried = sets
                best = _polish_sets(Z, r, C, np.flatnonzero(free), np.flatnonzero(upper), best)
            if best is not None and (best[2] < EXACT * tol or (best[2] < tol and mu < MU_END)):
                alpha, E, gap, w = best
                return SMOResult(alpha=alpha, E=E, gap=gap, n_iter=step, status="converged"), w
        residual = Y @ (Y.T @ a) - 1.0 + b * r - s + u  # dual residual; r^T a is the other
        inverse = 1.0 / (s / a + u / room)  # Delta^{-1}
        YD = Y * inverse[:, None]
        inner = identity + Y.T @ YD
        if not np.all(np.isfinite(inner)):  # C beyond what float64 resolves on these features
            break

        def solve(G):
            """(Delta + Y Y^T)^{-1} G (G: N x k) by the Woodbury identity."""
            X = inverse[:, None] * G
            return X - YD @ np.linalg.solve(inner, Y.T @ X)

        primal = float(r @ a)

        def direction(x):
            """(d_a, d_b) with (Y Y^T + Delta) d_a + r d_b = g and r^T d_a = -r^T a,
            from x = (Y Y^T + Delta)^{-1} g and v = (Y Y^T + Delta)^{-1} r."""
            d_b = (float(r @ x) + primal) / float(r @ v)
            return x - d_b * v, d_b

        try:  # a singular D x D system (the scales of the multipliers outran float64) ends it
            # predictor: the pure Newton step (sigma = 0), solved with v
            v, x = solve(np.stack([r, -residual - s + u], axis=1)).T
            d_a, _ = direction(x)
            d_s = -s - s / a * d_a
            d_u = -u + u / room * d_a
            length = min(1.0, _longest(a, room, s, u, d_a, d_s, d_u))
            mu_affine = float((a + length * d_a) @ (s + length * d_s)
                              + (room - length * d_a) @ (u + length * d_u)) / (2 * n)
            target = (mu_affine / mu) ** 3 * mu
            # corrector: aim the products at sigma mu and correct for the predictor's second order
            lower, upper_ = d_a * d_s, d_a * d_u
            g = -residual + (target - a * s - lower) / a - (target - room * u + upper_) / room
            d_a, d_b = direction(solve(g[:, None])[:, 0])
            d_s = (target - a * s - lower - s * d_a) / a
            d_u = (target - room * u + upper_ + u * d_a) / room
        except np.linalg.LinAlgError:
            break
        length = min(1.0, STEP_SHARE * _longest(a, room, s, u, d_a, d_s, d_u))
        a = a + length * d_a
        room = room - length * d_a
        b += length * d_b
        s = s + length * d_s
        u = u + length * d_u
    if best is None or best[2] >= tol:
        alpha = C * a
        w = Z.T @ (alpha * r)
        return SMOResult(alpha=alpha, E=r - Z @ w, gap=np.inf, n_iter=step, status="max_iter"), w
    alpha, E, gap, w = best
    return SMOResult(alpha=alpha, E=E, gap=gap, n_iter=step, status="converged"), w


def _longest(a, room, s, u, d_a, d_s, d_u):
    """The largest step keeping a, 1 - a, s and u >= 0 along their directions."""
    x, dx = np.stack([a, room, s, u]), np.stack([d_a, -d_a, d_s, d_u])
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(np.where(dx < 0, -x / dx, np.inf).min())
