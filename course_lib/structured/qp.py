"""The working-set QP of the cutting-plane learners, in its dual, solved from scratch.

A working set holds linear constraints <w, a_k> >= b_k - xi_g, each one tied to a slack
xi_g of its group g (n-slack: one group per example with c_g = C/n; one-slack: a single
group with c = C). The primal and its (Lagrange) dual are

    primal  min_{w, xi}  1/2 ||w||^2 + sum_g c_g xi_g   s.t. <w, a_k> >= b_k - xi_g(k), xi_g >= 0
    dual    max_alpha    D(alpha) = sum_k alpha_k b_k - 1/2 ||sum_k alpha_k a_k||^2
            s.t. alpha_k >= 0 and sum_{k in g} alpha_k <= c_g,        with w = sum_k alpha_k a_k.

In terms of the Gram matrix G_kl = <a_k, a_l>, D(alpha) = b.alpha - 1/2 alpha^T G alpha.
For one group this is a QP over the capped simplex {alpha >= 0, sum alpha <= c}. With
g = b - G alpha (the violation b_k - <w, a_k> of each constraint), alpha is optimal iff (KKT)
there is lambda >= 0 (the slack xi) with g_k <= lambda for all k, g_k = lambda where
alpha_k > 0, and lambda = 0 unless sum alpha = c. Two exact methods, used in turn:

* active set (`_active_set`): guess the support F of alpha and whether the cap is active,
  solve the KKT equations on F (a small linear system), step back to feasibility if a
  coordinate turns negative (dropping it from F), else add the most violating coordinate to F;
  finite, and fast when warm-started from the previous support;
* pairwise coordinate ascent with closed-form steps (SMO, `_smo`), which finishes the job if
  round-off leaves a gap: a slack coordinate alpha_0 = c - sum alpha with a_0 = 0, b_0 = 0
  turns the cap into an equality; each step moves mass t from one coordinate to another,
  t = (g_up - g_down) / ||a_up - a_down||^2 clipped to stay feasible.

The duality gap c max(0, max_k g_k) - sum_k alpha_k g_k >= 0 certifies the accuracy, down to
what double precision resolves (`rounding_gap`): with huge constraint vectors and a large cap that
floor exceeds a tight tol, and asking for less than it only makes the solver chase rounding.
"""

import numpy as np

from course_lib._validation import finite_arguments
from course_lib.i18n import _


@finite_arguments(shapes={"G": "m m", "b": "m", "alpha": "m"})
def simplex_qp_gap(G: np.ndarray, b: np.ndarray, cap: float, alpha: np.ndarray):
    """Duality gap of the capped-simplex QP at a feasible alpha: c max(0, max_k g_k) - alpha.g."""
    g = b - G @ alpha
    return cap * max(0.0, float(g.max(initial=0.0))) - float(alpha @ g)


# the gap's rounding error bound of rounding_gap is multiplied by this margin
ROUNDING_SAFETY = 10.0


@finite_arguments(shapes={"G": "m m", "b": "m"})
def rounding_gap(G: np.ndarray, b: np.ndarray, cap: float):
    """The smallest duality gap double precision can certify on this QP: each g_k = b_k - (G alpha)_k
    is computed with an error of about eps (max_k |b_k| + cap max_k G_kk) (|G_kl| <= max_k G_kk
    for a Gram matrix, and sum alpha <= cap), and the gap c max_k g_k - alpha.g adds up to 2 cap
    such errors; ROUNDING_SAFETY times that."""
    if not (cap > 0 and np.isfinite(cap)):
        raise ValueError(_("cap must be a positive finite number; got {cap!r}.").format(cap=cap))
    if len(b) == 0:
        return 0.0
    if np.any(np.diag(G) < 0):  # G_kk = ||a_k||^2
        raise ValueError(_("G must be a Gram matrix (G_kl = <a_k, a_l>): its diagonal holds squared "
                           "norms ||a_k||^2 >= 0; got {value:g}.").format(value=float(np.min(np.diag(G)))))
    largest = float(np.max(np.abs(b))) + cap * float(np.max(np.diag(G)))
    return ROUNDING_SAFETY * 2.0 * cap * np.finfo(float).eps * largest


def _check_resolvable(floor, C, tol):
    """For the cutting-plane learners: refuse a C that double precision cannot train to tol on
    these features. The working-set QP's gap cannot be certified below `floor` (rounding_gap,
    growing as C^2 max ||a||^2), and the learners' stopping rules need it well below C tol.
    Returns floor."""
    if floor > 0.5 * C * tol:
        raise ValueError(_(
            "C={C:g} is too large for these features: with constraint vectors this long, double "
            "precision cannot solve the working-set QP within {floor:.3g}, more than half of C tol = "
            "{target:.3g}. Lower C, or scale the features down (for instance standardise x), or "
            "raise tol.").format(C=C, floor=floor, target=C * tol))
    return floor


@finite_arguments
def solve_simplex_qp(G, b, cap: float, alpha=None, tol=1e-9, max_steps=100_000):
    """max_alpha b.alpha - 1/2 alpha^T G alpha  s.t. alpha >= 0, sum(alpha) <= cap.

    G: (K, K) positive semi-definite Gram matrix, b: (K,), alpha: a feasible warm start (or None
    for 0). Stops when the duality gap is below `tol` (absolute, in objective units).
    Returns (alpha, gap).
    """
    G = np.asarray(G, dtype=float)
    b = np.asarray(b, dtype=float)
    K = b.shape[0] if b.ndim == 1 else -1
    if b.ndim != 1 or G.shape != (K, K):
        raise ValueError(_("b must be 1-D and G of shape ({K}, {K}) to match it; got {shape_b}, "
                           "{shape_G}.").format(K=K, shape_b=b.shape, shape_G=G.shape))
    if not (np.all(np.isfinite(G)) and np.all(np.isfinite(b))):
        raise ValueError(_("G and b must be finite: a NaN or inf constraint cannot be optimised."))
    if not (cap > 0 and np.isfinite(cap)):
        raise ValueError(_("cap must be a positive finite number; got {cap!r}.").format(cap=cap))
    # two necessary conditions of positive semi-definiteness (O(K^2), unlike an eigensolver):
    # G_kk >= 0 and |G_kl| <= sqrt(G_kk G_ll), up to rounding; without them the QP is unbounded
    d = np.sqrt(np.maximum(np.diag(G), 0.0))
    slack = 1e-9 * max(1.0, float(np.max(np.abs(G)))) if K else 0.0
    if np.any(np.diag(G) < -slack) or np.any(np.abs(G) > np.outer(d, d) + slack):
        raise ValueError(_("G must be a positive semi-definite Gram matrix (G_kl = <a_k, a_l>): "
                           "it has a negative diagonal entry or an entry beyond sqrt(G_kk G_ll)."))
    alpha = _feasible(alpha, K, cap)
    # the active set's last solve meets sum(alpha) = cap only to the accuracy of its inverse, which
    # differs from one CPU's rounding to another's: back onto the simplex before the gap is read
    alpha = _feasible(_active_set(G, b, cap, alpha, tol), K, cap)
    if simplex_qp_gap(G, b, cap, alpha) > tol:
        alpha = _smo(G, b, cap, alpha, tol, max_steps)
    return alpha, simplex_qp_gap(G, b, cap, alpha)


def _feasible(alpha, K, cap):
    if alpha is None:
        return np.zeros(K)
    alpha = np.maximum(np.asarray(alpha, dtype=float), 0.0)
    total = alpha.sum()
    return alpha * (cap / total) if total > cap else alpha


def _active_set(G, b, cap, alpha, tol, max_rounds=None):
    """Primal active-set method on min 1/2 a^T G a - b.a over the capped simplex (see above)."""
    K = len(b)
    free = alpha > 0
    capped = alpha.sum() >= cap * (1 - 1e-12)
    ridge = 1e-12 * max(1.0, float(G.trace()) / K) if K else 0.0
    system = _SupportSystem(G, ridge, np.flatnonzero(free), capped)
    for _ in range(max_rounds or 4 * K + 20):
        F = system.support
        target, lam = system.solve(b, cap)
        step = target - alpha[F]
        blocking, t = None, 1.0
        shrinking = step < 0
        if shrinking.any():
            ratios = alpha[F][shrinking] / -step[shrinking]
            j = int(np.argmin(ratios))
            if ratios[j] < 1.0:
                blocking, t = F[np.flatnonzero(shrinking)[j]], ratios[j]
        if not capped and step.sum() > 0:
            room = (cap - alpha.sum()) / step.sum()
            if room < t:
                blocking, t = "cap", room
        alpha[F] += t * step
        alpha[F] = np.maximum(alpha[F], 0.0)
        if blocking == "cap":
            capped = True
            system.set_capped(True)
            continue
        if blocking is not None:
            alpha[blocking] = 0.0
            free[blocking] = False
            system.remove(blocking)
            continue
        # at the optimum on the support: check the multipliers
        g = b - G @ alpha
        if system.updates and np.max(np.abs(g[F] - lam), initial=0.0) > 0.1 * tol / cap:
            system._rebuild()  # the updated inverse drifted from the equations: solve afresh
            continue
        outside = np.where(free, -np.inf, g - lam)
        k = int(np.argmax(outside)) if K else 0
        scale = tol / cap
        if capped and lam < -scale:
            capped = False
            system.set_capped(False)
        elif K and outside[k] > scale:
            free[k] = True
            system.add(k)
        else:
            break
    return alpha


class _SupportSystem:
    """The KKT equations on the support F, G_FF a_F + lambda 1 = b_F (+ 1.a_F = c if capped),
    kept as the inverse of their matrix M = [[G_FF + ridge I, s 1], [s 1^T, 0]] (the border only
    when capped; its row reads s 1.a_F = s c and its unknown is lambda / s, with s the largest
    G_kk, so that the border is of the size of G's entries rather than 1: a better conditioned M). The active set changes F by one coordinate per round; the inverse follows in
    O(|F|^2) by the block (Schur complement) formulas instead of a new O(|F|^3) solve:

        adding a row and column (u, d):  s = d - u^T M^-1 u,  v = M^-1 u,
            new inverse [[M^-1 + v v^T / s, -v / s], [-v^T / s, 1 / s]];
        removing coordinate j, with the inverse written [[A, p], [p^T, e]] around j:  A - p p^T / e.

    Rebuilt from scratch every REFRESH updates (round-off), whenever s is too small to divide
    by, and when the active set finds that a solution misses its equations (g_k = lambda on F):
    with large constraint vectors (G_kl ~ 10^5 and beyond) M is ill-conditioned and the updated
    inverse drifts within a few updates. The solver's final duality gap certifies the answer
    whatever happens here."""

    REFRESH = 32

    def __init__(self, G, ridge, support, capped):
        self.G, self.ridge = G, ridge
        self.border = max(1.0, float(np.max(np.diag(G)))) if G.size else 1.0
        self.support, self.capped = np.asarray(support, dtype=int), capped
        self._rebuild()

    def _matrix(self):
        F, m = self.support, len(self.support)
        M = np.full((m + self.capped, m + self.capped), self.border)
        M[:m, :m] = self.G[F[:, None], F]
        M[np.arange(m), np.arange(m)] += self.ridge
        if self.capped:
            M[m, m] = 0.0
        return M

    def _rebuild(self):
        M = self._matrix()
        self.updates = 0
        try:
            self.inverse = np.linalg.inv(M) if M.size else M
        except np.linalg.LinAlgError:
            self.inverse = np.linalg.pinv(M)

    def _grow(self, u, d, position):
        """Insert a row and column (u, d) of M at `position` of the inverse's order."""
        v = self.inverse @ u
        s = d - u @ v
        if abs(s) <= 1e-12 * max(1.0, abs(d), float(np.abs(u).max(initial=0.0)) ** 2):
            return False
        n = len(v)
        appended = np.empty((n + 1, n + 1))
        appended[:n, :n] = self.inverse + np.outer(v, v) / s
        appended[:n, n] = appended[n, :n] = -v / s
        appended[n, n] = 1.0 / s
        order = np.r_[np.arange(position), n, np.arange(position, n)]
        self.inverse = appended[np.ix_(order, order)]
        return True

    def _shrink(self, position):
        p = np.delete(self.inverse[:, position], position)
        e = self.inverse[position, position]
        if abs(e) <= 1e-300:
            return False
        reduced = np.delete(np.delete(self.inverse, position, axis=0), position, axis=1)
        self.inverse = reduced - np.outer(p, p) / e
        return True

    def _after(self, updated):
        self.updates += 1
        if not updated or self.updates >= self.REFRESH:
            self._rebuild()

    def add(self, k):
        F, m = self.support, len(self.support)
        u = self.G[F, k].astype(float)
        if self.capped:
            u = np.r_[u, self.border]
        self.support = np.r_[F, k]
        self._after(self._grow(u, self.G[k, k] + self.ridge, m))

    def remove(self, k):
        position = int(np.flatnonzero(self.support == k)[0])
        self.support = np.delete(self.support, position)
        self._after(self._shrink(position))

    def set_capped(self, capped):
        if capped == self.capped:
            return
        m = len(self.support)
        self.capped = capped
        self._after(self._grow(np.full(m, self.border), 0.0, m) if capped else self._shrink(m))

    def solve(self, b, cap):
        """(a_F, lambda) solving the KKT equations (lambda = 0 when the cap is not active)."""
        m = len(self.support)
        if m == 0:
            return np.zeros(0), 0.0
        rhs = np.r_[b[self.support], cap * self.border] if self.capped else b[self.support]
        solution = self.inverse @ rhs
        # the ridge biases the solution by about ridge * a_F: one step of iterative refinement
        # against the equations without it, x += M^-1 (rhs - M_0 x), takes most of that out
        residual = rhs - self._matrix() @ solution
        residual[:m] += self.ridge * solution[:m]
        solution += self.inverse @ residual
        return solution[:m], float(solution[m]) * self.border if self.capped else 0.0


def _smo(G, b, cap, alpha, tol, max_steps):
    """Pairwise coordinate ascent (see above), from a feasible alpha."""
    K = len(b)
    # coordinate K is the slack alpha_0 = cap - sum(alpha), with a zero constraint vector
    a = np.r_[alpha, cap - alpha.sum()]
    Gx = np.zeros((K + 1, K + 1))
    Gx[:K, :K] = G
    bx = np.r_[b, 0.0]
    diag = np.diag(Gx)
    g = bx - Gx @ a
    gap = np.inf
    for step in range(max_steps):
        if step % 50 == 0:  # refresh the gradient against round-off drift
            g = bx - Gx @ a
        up = int(np.argmax(g))
        gap = cap * g[up] - float(a @ g)
        if gap <= tol:
            break
        # second-order choice of the coordinate that gives mass (largest objective increase)
        diff = g[up] - g
        eta = np.maximum(diag[up] + diag - 2.0 * Gx[up], 1e-15)
        gain = np.where((a > 0) & (diff > 0), diff * diff / eta, -1.0)
        down = int(np.argmax(gain))
        if gain[down] <= 0:
            break
        t = min(diff[down] / eta[down], a[down])
        a[up] += t
        a[down] -= t
        g -= t * (Gx[:, up] - Gx[:, down])
    return np.maximum(a[:K], 0.0)


@finite_arguments(shapes={"G": "m m", "b": "m", "alpha": "m"})
def dual_value(G: np.ndarray, b: np.ndarray, alpha: np.ndarray):
    """D(alpha) = b.alpha - 1/2 alpha^T G alpha."""
    return float(b @ alpha - 0.5 * alpha @ G @ alpha)
