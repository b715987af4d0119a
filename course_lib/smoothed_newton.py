"""The soft-margin SVM with an explicit feature map, solved by Newton's method on a smoothed primal.

When phi(x) has few coordinates (the linear kernel: phi(x) = x; the polynomial kernel of a low
dimension, see polynomial_features), the dual of the slides

    maximise L_d = sum_t alpha^t - 1/2 ||w||^2,   w = sum_t alpha^t r^t z^t   (z^t = phi(x^t)),
    subject to sum_t alpha^t r^t = 0 and 0 <= alpha^t <= C,

is the dual of the primal  min 1/2 ||w||^2 + C sum_t max(0, 1 - r^t (w^T z^t + w0)).  The hinge
is replaced by its smoothed version of width mu (a Huber corner)

    H_mu(u) = 0 for u <= 0,   u^2 / (2 mu) for 0 < u < mu,   u - mu/2 for u >= mu,

which is twice differentiable except on two planes, so Newton's method (D + 1 unknowns, one
D x D linear solve per step) reaches its minimum in a few steps. At that minimum

    alpha^t = C H_mu'(u^t) = C min(1, max(0, u^t / mu)),   u^t = 1 - r^t (w^T z^t + w0),

is feasible for the dual (in the box, sum alpha r = 0, w = sum alpha r z), and the KKT gap of
course_lib.smo (max_{I_up} E - min_{I_low} E, E^t = r^t - w^T z^t) is below 2 mu: points with
0 < alpha < C lie within mu of the margin. So mu is divided by 10 from 2 (every point inside the
corner at w = 0) until it is below tol / 4, each minimum starting the next. Each step costs a few
passes over the points (O(N D)) plus the D x D system over the points inside the corner.

Finishing exactly: at the optimum of the hinge itself the points on the margin (0 < alpha < C) are
generically at most D + 1. Once the corner holds at most 2 (D + 1) points, the sets they suggest
(alpha = 0 for u <= 0, free inside, C beyond) are tried in the exact KKT system of the free
multipliers (as course_lib.smo.polish does); the first solution in the box with a KKT gap below
tol ends the search, usually long before mu reaches tol / 4.
"""

from functools import lru_cache
from itertools import combinations_with_replacement
from math import comb, factorial, prod

import numpy as np

from course_lib._validation import (
    check_binary_targets,
    check_int,
    check_matrix,
    check_positive,
    finite_arguments,
)
from course_lib.i18n import _
from course_lib.smo import SMOResult, _kkt_gap

MU_START, MU_FACTOR = 2.0, 0.1
# mu follows tol down to tol / 1000, but not below 1e-12: there the Newton system is singular in
# float64, and a tol under the rounding of E (~1e-16) ends with status "max_iter" instead
TOL_MU_MIN = 1e-9
# polynomial_features builds N x C(d + q, q) features: at most this many numbers (800 MB of floats)
MAX_FEATURE_ENTRIES = 10**8


@finite_arguments
def polynomial_feature_count(d, q):
    """The number of coordinates of polynomial_features: C(d + q, q)."""
    d, q = check_int(d, "d", 1), check_int(q, "q", 1)
    return comb(d + q, q)


@finite_arguments
def polynomial_features(X, q):
    """phi(x) with phi(x)^T phi(y) = (x^T y + 1)^q: with x' = (x, 1), one coordinate per multiset
    {k_1, ..., k_q} of indices of x', equal to sqrt(q! / prod_k m_k!) prod_j x'_{k_j} (m_k: how
    many times k appears), by the multinomial theorem."""
    X, q = check_matrix(X, "X"), check_int(q, "q", 1)
    count = polynomial_feature_count(X.shape[1], q)
    if count * (X.shape[0] + q) > MAX_FEATURE_ENTRIES:  # phi(X) and the table of multisets
        raise ValueError(_(
            "q={q} on d={d} features gives C(d + q, q) coordinates per point, more than memory holds for "
            "{n} points (at most {limit:.0e} numbers): lower q, or use the kernel "
            "(course_lib.kernels.polynomial) instead of explicit features.").format(
                q=q, d=X.shape[1], n=X.shape[0], limit=MAX_FEATURE_ENTRIES))
    X1 = np.hstack([X, np.ones((X.shape[0], 1))])
    multisets, weights = _multisets(X1.shape[1], q)
    Z = X1[:, multisets[:, 0]] * weights
    for k in range(1, q):  # one factor of each product at a time (memory N x columns)
        Z *= X1[:, multisets[:, k]]
    return Z


@lru_cache(maxsize=32)
def _multisets(d, q):
    """The multisets {k_1, ..., k_q} of indices 0..d-1 (one row each, q columns) and the
    coordinates' weights sqrt(q! / prod_k m_k!)."""
    multisets = np.array(list(combinations_with_replacement(range(d), q)), dtype=np.intp)
    # q! / prod_k m_k! in exact integers (NumPy's int64 products overflow from q = 23 on)
    coefficients = [factorial(q) // prod(factorial(int(m)) for m in np.bincount(k)) for k in multisets]
    weights = np.sqrt([float(c) if c < 2**1023 else np.inf for c in coefficients])
    multisets.flags.writeable = weights.flags.writeable = False
    return multisets, weights


@finite_arguments(shapes={"Z": "n D", "r": "n"})
def smoothed_newton(Z, r, C, tol=1e-3, max_steps=500):
    """Solve the dual above for features Z (N x D), r in {-1, +1}, 0 < C < inf, KKT tolerance
    tol. Returns (SMOResult, w): alpha, E^t = r^t - w^T z^t, the KKT gap, the number of Newton
    steps and status "converged" (gap < tol) or "max_iter" (the caller then finishes otherwise).

    After each Newton step the dual point alpha^t = C H_mu'(u^t) is read off and its KKT gap
    measured; mu is divided by 10 once the step left every point on its piece of H_mu (the exact
    minimum for this mu), or once that gap is below mu while mu > tol / 4."""
    Z = check_matrix(Z, "Z")
    r = check_binary_targets(r, Z.shape[0], "r")
    C, tol = check_positive(C, "C"), check_positive(tol, "tol")
    max_steps = check_int(max_steps, "max_steps", 1)
    tol_mu = max(tol, TOL_MU_MIN)
    n, D = Z.shape
    w, w0, mu = np.zeros(D), 0.0, MU_START
    u = 1.0 - r * (Z @ w + w0)
    tried = None  # the corner last given to _polish: the same sets give the same answer
    for step in range(1, max_steps + 1):
        w, w0, u, exact = _newton_step(Z, r, C, mu, w, w0, u)
        alpha = _feasible_alpha(u, r, C, mu)
        w_dual = Z.T @ (alpha * r)
        E = r - Z @ w_dual
        gap = _kkt_gap(E, alpha, r, C)
        corner = np.flatnonzero((u > 0.0) & (u < mu))
        if gap >= tol and corner.size <= 2 * (D + 1) and not np.array_equal(corner, tried):
            tried = corner
            alpha, E, gap, w_dual = _polish(Z, r, C, u, mu, (alpha, E, gap, w_dual))
        if gap < tol:
            return SMOResult(alpha=alpha, E=E, gap=gap, n_iter=step, status="converged"), w_dual
        if (exact and mu > tol_mu * 1e-3) or (gap < mu and mu > tol_mu / 4.0):
            mu *= MU_FACTOR
    return SMOResult(alpha=alpha, E=E, gap=gap, n_iter=max_steps, status="max_iter"), w_dual


def _polish(Z, r, C, u, mu, current):
    """Guess the final sets from u (alpha = 0 for u <= 0, free in the corner 0 < u < mu, alpha = C
    beyond) and try them in _polish_sets."""
    return _polish_sets(Z, r, C, np.flatnonzero((u > 0.0) & (u < mu)), np.flatnonzero(u >= mu), current)


def _polish_sets(Z, r, C, free, upper, current):
    """With the multipliers `free` strictly inside the box, those in `upper` at C and the others
    at 0, solve the KKT system of the free multipliers exactly, as course_lib.smo.polish:

        sum_s alpha^s r^s z^s^T z^t + w0 = r^t for every free t,   sum_t alpha^t r^t = 0.

    Returns (alpha, E, gap, w) of the result if it is in the box with a smaller KKT gap than
    `current` (such a tuple, or None), else current."""
    m = free.size
    if m == 0:
        return current
    w_upper = Z[upper].T @ (C * r[upper])
    system = np.ones((m + 1, m + 1))
    system[:m, :m] = Z[free] @ Z[free].T
    system[m, m] = 0.0
    rhs = np.append(r[free] - Z[free] @ w_upper, -C * r[upper].sum())
    v = np.linalg.lstsq(system, rhs, rcond=None)[0][:m]
    alpha = np.zeros(r.shape[0])
    alpha[upper] = C
    alpha[free] = v * r[free]
    if np.any(alpha[free] <= 0.0) or np.any(alpha[free] >= C):
        return current
    w = Z.T @ (alpha * r)
    E = r - Z @ w
    gap = _kkt_gap(E, alpha, r, C)
    return (alpha, E, gap, w) if current is None or gap < current[2] else current


def _newton_step(Z, r, C, mu, w, w0, u):
    """One Newton step with an exact line search on 1/2 ||w||^2 + C sum H_mu(u^t) from (w, w0),
    u^t = 1 - r^t (w^T z^t + w0). Returns the new (w, w0, u) and whether every u^t stayed on its
    piece of H_mu (the quadratic model was then exact: this is the minimum for this mu). The
    Hessian gets 1 on w0 too (no point in the corner would leave it singular); the line search
    sets the length."""
    D = Z.shape[1]
    alpha = C * np.clip(u / mu, 0.0, 1.0)
    corner = (u > 0.0) & (u < mu)
    Zc = Z[corner]
    # gradient (w - sum alpha r z, -sum alpha r) and Hessian I + C/mu sum_corner (z, 1)(z, 1)^T
    gradient = np.append(w - Z.T @ (alpha * r), -(alpha @ r))
    hessian = np.empty((D + 1, D + 1))
    hessian[:D, :D] = (C / mu) * (Zc.T @ Zc)
    hessian[:D, D] = hessian[D, :D] = (C / mu) * Zc.sum(axis=0)
    hessian[D, D] = (C / mu) * corner.sum()
    hessian[np.arange(D + 1), np.arange(D + 1)] += 1.0
    direction = -np.linalg.solve(hessian, gradient)
    du = -r * (Z @ direction[:D] + direction[D])
    s = _line_search(u, du, float(w @ direction[:D]), float(direction[:D] @ direction[:D]), C, mu)
    u_new = u + s * du
    exact = np.array_equal(corner, (u_new > 0.0) & (u_new < mu)) and np.array_equal(
        u > 0.0, u_new > 0.0)
    return w + s * direction[:D], w0 + s * direction[D], u_new, exact


def _line_search(u, du, a, b, C, mu):
    """The s >= 0 minimising phi(s) = 1/2 ||w + s p||^2 + C sum H_mu(u + s du) (a = w^T p,
    b = ||p||^2), exactly: phi'(s) = a + s b + C sum_t clip((u^t + s du^t) / mu, 0, 1) du^t is
    increasing and piecewise linear, its slope b + C/mu sum du^2 over the points inside the
    corner (0 < u^t + s du^t < mu). Point t enters or leaves the corner where u^t + s du^t
    crosses 0 or mu: those breakpoints, sorted, give phi' at each one by a cumulative sum, and
    the zero is interpolated on the segment where phi' changes sign."""
    moving = du != 0.0
    u, du = u[moving], du[moving]
    slope_0 = (C / mu) * du * du
    crossings = np.stack([-u / du, (mu - u) / du])
    enter, leave = crossings.min(axis=0), crossings.max(axis=0)
    inside = (enter < 0.0) & (leave > 0.0)
    value = a + C * float(np.clip(u / mu, 0.0, 1.0) @ du)
    if value >= 0.0:
        return 0.0
    slope = b + float(slope_0[inside].sum())
    positions = np.concatenate([enter[enter > 0.0], leave[leave > 0.0]])
    changes = np.concatenate([slope_0[enter > 0.0], -slope_0[leave > 0.0]])
    order = np.argsort(positions)
    positions, changes = positions[order], changes[order]
    # slope on each segment (before each breakpoint, then after the last) and phi' at each one
    slopes = np.concatenate([[slope], slope + np.cumsum(changes)])
    values = value + np.cumsum(slopes[:-1] * np.diff(positions, prepend=0.0))
    k = int(np.searchsorted(values >= 0.0, True))  # the first breakpoint with phi' >= 0
    start, start_value = (0.0, value) if k == 0 else (positions[k - 1], values[k - 1])
    if slopes[k] <= 0.0:  # flat beyond the last breakpoint (p = 0): no finite minimum
        return float(start)
    return float(start - start_value / slopes[k])


def _feasible_alpha(u, r, C, mu):
    """alpha^t = C min(1, max(0, u^t / mu)), then sum alpha r = 0 made exact (Newton leaves it at
    rounding level) by scaling down the multipliers strictly inside (0, C) of the heavier class."""
    alpha = C * np.clip(u / mu, 0.0, 1.0)
    excess = float(alpha @ r)  # > 0: the positive class weighs too much
    heavier = r > 0 if excess > 0 else r < 0
    for candidates in (heavier & (alpha > 0) & (alpha < C), heavier):
        total = float(alpha[candidates].sum())
        if total > abs(excess):
            alpha[candidates] *= 1.0 - abs(excess) / total
            break
    return alpha
