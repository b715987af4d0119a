"""Ranking as a structured output [S17] and ranking with a learned Mahalanobis distance [S18].

An input x = (o_1, ..., o_n) is given by the matrix Phi whose row i is phi(o_i).  A ranking is
the slides' matrix Y: y_ij = +1 if o_i is ranked before o_j, -1 if after (antisymmetric, zero
diagonal).  A relevance labelling r in {-1, +1}^n (the training truth) is the partial ranking
"every relevant item before every irrelevant one": y_ij = +1 for i in (+), j in (-), 0 for two
items of the same relevance.  With P the pairs (i, j) the truth orders,

    Psi(x, Y) = 1/|P| sum_{(i,j) in P} y_ij (phi(o_i) - phi(o_j)) = Phi^T (Y 1) / |P|
    Delta(Y*, Y) = 1/|P| sum_{(i,j) in P} [y_ij != +1]  = 1 - AUC.
"""

import numbers

import numpy as np

from course_lib._validation import (
    as_numbers,
    finite_arguments,
    check_int,
    check_matrix,
    check_non_negative,
    check_positive,
    check_random_state,
    check_steps,
)
from course_lib.i18n import _
from course_lib.structured.base import StructuredModel, check_rescaling
from course_lib.structured.qp import solve_simplex_qp


# --- rankings as matrices ----------------------------------------------------------------
def relevance_matrix(r):
    """The partial ranking of a relevance labelling r: y_ij = (r_i - r_j) / 2."""
    r = _check_relevance(r)
    return (r[:, None] - r[None, :]) / 2.0


def order_matrix(order):
    """The full ranking listing the items in `order` (a permutation, best first)."""
    order = np.asarray(order)
    if order.dtype.kind == "O" and all(isinstance(v, numbers.Integral) for v in order.flat):
        order = np.asarray(order.tolist(), dtype=np.int64)  # indices held as objects
    n = order.size
    if order.ndim != 1 or order.dtype.kind not in "iu" or not np.array_equal(np.sort(order), np.arange(n)):
        raise ValueError(_("order must be a permutation of 0..n-1 (item indices, best first)."))
    position = np.empty(n, dtype=int)
    position[order] = np.arange(n)
    return np.sign(position[None, :] - position[:, None]).astype(float)


@finite_arguments
def rank_by_scores(scores):
    """Item indices sorted by decreasing score (the lower index first on a tie)."""
    return np.argsort(-np.asarray(scores, dtype=float), kind="stable")


def _check_relevance(r, name="r"):
    r = as_numbers(r, name)
    if r.ndim != 1 or not np.all(np.isin(r, (-1.0, 1.0))):
        raise ValueError(_("{name} must be a 1-D vector of relevance labels in {{-1, +1}}.").format(
                             name=name))
    if np.unique(r).size < 2:
        raise ValueError(_("{name} needs at least one relevant (+1) and one irrelevant (-1) item.").format(
                             name=name))
    return r


def _check_ranking(Y, n):
    """A relevance vector (made a matrix) or an antisymmetric n x n matrix in {-1, 0, +1}."""
    Y = np.asarray(Y, dtype=float)
    if Y.ndim == 1:
        Y = relevance_matrix(Y)
    if Y.shape != (n, n):
        raise ValueError(_("a ranking of {n} items must be an {n} x {n} matrix (or {n} relevance "
                           "labels); got shape {shape}.").format(n=n, shape=Y.shape))
    if not np.all(np.isin(Y, (-1.0, 0.0, 1.0))) or not np.array_equal(Y, -Y.T):
        raise ValueError(_("a ranking matrix must be antisymmetric with entries in {-1, 0, +1}."))
    if not Y.any():
        raise ValueError(_("the ranking orders no pair of items."))
    return Y


@finite_arguments(shapes={"Y": "n n"})
def relevance_of(Y: np.ndarray):
    """r from the partial ranking of a relevance labelling (rows with a +1 are relevant)."""
    r = np.where((Y > 0).any(axis=1), 1.0, -1.0)
    if not np.array_equal(relevance_matrix(r), Y):
        raise ValueError(_("Y is not a relevance labelling: it must be relevance_matrix(r), +1 "
                           "where a relevant item comes before an irrelevant one."))
    return r


# --- ranking quality R(y): Delta = 1 - R ------------------------------------------------
def auc(r, scores):
    """Area under the ROC curve: the fraction of (relevant, irrelevant) pairs ordered by the
    scores (a tie counts 1/2), computed by sorting (Mann-Whitney), O(n log n)."""
    r = _check_relevance(r)
    scores = _check_scores(scores, r.size)
    sorted_scores = np.sort(scores[r < 0])
    relevant = scores[r > 0]
    below = np.searchsorted(sorted_scores, relevant, side="left")
    tied = np.searchsorted(sorted_scores, relevant, side="right") - below
    return float((below + tied / 2).sum() / (relevant.size * sorted_scores.size))


def roc_curve(r, scores):
    """(false positive rates, true positive rates) going down the ranking (ties in one step)."""
    r = _check_relevance(r)
    scores = _check_scores(scores, r.size)
    order = rank_by_scores(scores)
    s, positive = scores[order], r[order] > 0
    last_of_tie = np.r_[s[1:] != s[:-1], True]
    tp, fp = np.cumsum(positive)[last_of_tie], np.cumsum(~positive)[last_of_tie]
    return np.r_[0.0, fp / fp[-1]], np.r_[0.0, tp / tp[-1]]


@finite_arguments(shapes={"Y_true": "n n", "Y": "n n"})
def pairwise_disagreements(Y_true, Y):
    """The seed's Delta: the fraction of the pairs ordered by Y_true that Y orders differently."""
    Y_true, Y = np.asarray(Y_true, float), np.asarray(Y, float)
    pairs = Y_true > 0
    if not pairs.any():
        raise ValueError(_("Y_true orders no pair of items (no entry +1): the fraction of pairs "
                           "ordered differently is undefined; give a ranking with at least one "
                           "pair."))
    return float(np.mean(Y[pairs] != 1.0))


def precision_at_k(r, scores, k):
    """Fraction of relevant items among the k first of the ranking."""
    r = _check_relevance(r)
    k = check_int(k, "k", 1)
    top = rank_by_scores(_check_scores(scores, r.size))[:k]
    return float(np.mean(r[top] > 0))


def average_precision(r, scores):
    """Mean over the relevant items of the precision at their rank (area under precision-recall)."""
    r = _check_relevance(r)
    hits = r[rank_by_scores(_check_scores(scores, r.size))] > 0
    precision = np.cumsum(hits) / np.arange(1, r.size + 1)
    return float(precision[hits].mean())


@finite_arguments(shapes={"R": "q", "S": "q"})
def mean_average_precision(R, S):
    """MAP: the average precision averaged over queries (lists of relevances and scores)."""
    return float(np.mean([average_precision(r, s) for r, s in zip(R, S)]))


def _check_scores(scores, n):
    scores = as_numbers(scores, "scores")
    if scores.shape != (n,) or not np.all(np.isfinite(scores)):
        raise ValueError(_("scores must be {n} finite numbers, one per item.").format(n=n))
    return scores


# --- the structured model ----------------------------------------------------------------
class RankingModel(StructuredModel):
    """Ranking [S17]: x = Phi (n_items x d), y = a ranking matrix or a relevance vector.

    inference: sort the items by <w, phi(o_i)>.  loss-augmented inference (margin rescaling,
    Delta = 1 - AUC): each pair (i, j) in P contributes y_ij (s_i - s_j) + [y_ij = -1], so it is
    swapped iff s_i - s_j < 1/2, i.e. the ranking of the shifted scores s_i - 1/4 (relevant) and
    s_j + 1/4 (irrelevant): one sort (Joachims 2005).
    """

    def initialize(self, X, Y):
        super().initialize(X, Y)
        Phis = [check_matrix(x, "x") for x in X]
        if len({P.shape[1] for P in Phis}) != 1:
            raise ValueError(_("every x must have the same number of features (columns)."))
        self.n_features = Phis[0].shape[1]
        self.size_joint_feature = self.n_features
        for P, y in zip(Phis, Y):
            relevance_of(_check_ranking(y, P.shape[0]))
        return self

    def _x(self, x):
        Phi = check_matrix(x, "x", getattr(self, "n_features", None))
        self.size_joint_feature = Phi.shape[1]
        return Phi

    def scores(self, x, w):
        Phi = self._x(x)
        w = np.asarray(w, dtype=float)
        if w.shape != (Phi.shape[1],):
            raise ValueError(_("w must have shape ({n},); got {shape}.").format(
                                 n=Phi.shape[1], shape=w.shape))
        return Phi @ w

    def joint_feature(self, x, y):
        """Psi(x, Y) = Phi^T (Y 1) / |P|, |P| the number of ordered pairs."""
        Phi = self._x(x)
        Y = _check_ranking(y, Phi.shape[0])
        return Phi.T @ Y.sum(axis=1) / np.count_nonzero(Y > 0)

    def loss(self, y, y_hat):
        """Delta = fraction of the pairs ordered by y that y_hat does not order the same way
        (a tie y_hat_ij = 0 counts 1/2): 1 - AUC for a relevance labelling y."""
        Y = np.asarray(y, dtype=float)
        Y = _check_ranking(Y, Y.shape[0])
        Y_hat = _check_ranking(y_hat, Y.shape[0])
        pairs = Y > 0
        return float(np.mean((1.0 - Y_hat[pairs]) / 2.0))

    def inference(self, x, w):
        """The full ranking by decreasing score."""
        return order_matrix(rank_by_scores(self.scores(x, w)))

    def loss_augmented_inference(self, x, y, w, rescaling="margin"):
        """argmax_Y' 1 - AUC(Y') + <w, Psi(x, Y')> over the rankings of the truth's pairs."""
        if check_rescaling(rescaling) == "slack":
            raise ValueError(_("RankingModel has no exact slack-rescaled oracle for 1 - AUC: use "
                               "rescaling='margin'."))
        s = self.scores(x, w)
        Y = _check_ranking(y, s.size)
        r = relevance_of(Y)
        shifted = s - r / 4.0
        # relevant first among equal shifted scores (s_i - s_j = 1/2 keeps the truth's order)
        order = np.lexsort((-r, -shifted))
        return order_matrix(order) * np.abs(Y)


# --- S18: ranking with a learned Mahalanobis distance -------------------------------------
def query_features(query, items, kind="difference"):
    """Query-dependent item features phi(q, o_i) [S17], one row per item.
    "difference": the slides' example b_q - b_i.  Its pairwise differences
    phi(q, o_i) - phi(q, o_j) = b_j - b_i do not involve q, so the ranking it learns is the
    same for every query.  "squared": -(b_q - b_i)^2 coordinate by coordinate, so that
    <w, phi(q, o_i)> = -sum_a w_a (b_qa - b_ia)^2 is minus a weighted (diagonal Mahalanobis)
    distance to the query: the diagonal of S18's matrix W."""
    items = check_matrix(items, "items")
    query = as_numbers(query, "query").reshape(-1)
    if query.size != items.shape[1] or not np.all(np.isfinite(query)):
        raise ValueError(_("query must be a finite vector of {n_columns} numbers.").format(
                             n_columns=items.shape[1]))
    if kind == "difference":
        return query[None, :] - items
    if kind == "squared":
        return -(query[None, :] - items) ** 2
    raise ValueError(_("kind must be 'difference' or 'squared'; got {kind!r}.").format(kind=kind))


@finite_arguments
def mahalanobis_features(query, items):
    """phi(q, o_i) = -vec((b_q - b_i)(b_q - b_i)^T), so <vec(W), phi(q, o_i)> = -d_W(b_q, b_i)."""
    items = check_matrix(items, "items")
    query = as_numbers(query, "query").reshape(-1)
    if query.size != items.shape[1] or not np.all(np.isfinite(query)):
        raise ValueError(_("query must be a finite vector of {n_columns} numbers.").format(
                             n_columns=items.shape[1]))
    D = query[None, :] - items
    return -np.einsum("ia,ib->iab", D, D).reshape(len(items), -1)


def project_psd(W):
    """The nearest (Frobenius) positive semi-definite matrix: symmetrise, clip eigenvalues at 0."""
    W = as_numbers(W, "W")
    if W.ndim != 2 or W.shape[0] != W.shape[1] or not np.all(np.isfinite(W)):
        raise ValueError(_("W must be a finite square matrix; got shape {shape}.").format(
                             shape=W.shape))
    eigenvalues, U = np.linalg.eigh((W + W.T) / 2.0)
    return (U * np.clip(eigenvalues, 0.0, None)) @ U.T


def _project_capped_simplex(v, cap):
    """The nearest point of {alpha >= 0, sum(alpha) <= cap} (clip at 0, else the simplex
    sum = cap by the sort-based threshold)."""
    clipped = np.clip(v, 0.0, None)
    if clipped.sum() <= cap:
        return clipped
    u = np.sort(v)[::-1]
    cumulative = np.cumsum(u) - cap
    above = np.flatnonzero(u - cumulative / np.arange(1, v.size + 1) > 0)
    k = above[-1] if above.size else 0  # k = 0 always is, u_1 - (u_1 - cap) = cap > 0, but for rounding
    return np.clip(v - cumulative[k] / (k + 1), 0.0, None)


def _psd_part(M):
    """U max(Lambda, 0) U^T of a symmetric matrix (project_psd without the checks)."""
    eigenvalues, U = np.linalg.eigh(M)
    return (U * np.clip(eigenvalues, 0.0, None)) @ U.T


def _metric_dual(A, b, C, alpha, psd, tol, max_steps=50_000):
    """max_alpha D(alpha) = b.alpha - 1/2 ||P(sum_k alpha_k A_k)||^2 over {alpha >= 0,
    sum alpha <= C}, P the PSD projection (psd) or the identity (A_k symmetric).  Without the
    projection this is the one-slack QP (`qp.solve_simplex_qp`); with it, accelerated projected
    gradient with restarts (the gradient b - A vec(P(M)) is Lipschitz with constant ||A||^2).
    Stops at a working-set duality gap <= tol.  Returns (alpha, vec(W), D(alpha))."""
    d = int(round(np.sqrt(A.shape[1])))
    if not psd:
        alpha, _ = solve_simplex_qp(A @ A.T, b, C, alpha, tol=tol)
        W = alpha @ A
        return alpha, W, float(b @ alpha - 0.5 * W @ W)

    def evaluate(a):
        W = _psd_part((a @ A).reshape(d, d)).ravel()
        return W, float(b @ a - 0.5 * W @ W)

    step = 1.0 / max(np.linalg.norm(A, 2) ** 2, 1e-12)
    z, t = alpha.copy(), 1.0
    W, dual = evaluate(alpha)
    for _ in range(max_steps):
        if 0.5 * W @ W + C * max(0.0, float((b - A @ W).max())) - dual <= tol:
            break
        Wz, _ = evaluate(z)
        new = _project_capped_simplex(z + step * (b - A @ Wz), C)
        W_new, dual_new = evaluate(new)
        if dual_new < dual:  # restart the momentum when the ascent stalls
            z, t = alpha.copy(), 1.0
            continue
        t_next = (1.0 + np.sqrt(1.0 + 4.0 * t * t)) / 2.0
        z = new + (t - 1.0) / t_next * (new - alpha)
        alpha, W, dual, t = new, W_new, dual_new, t_next
    return alpha, W, dual


MAX_LAM = 1e12  # learn_metric's largest regularisation weight


@finite_arguments
def learn_metric(X, Y, lam=0.01, psd=True, tol=1e-3, max_iter=500):
    """Metric learning to rank [ML10]: min_W lam/2 ||W||^2 + 1/n sum_i H_i(W) (the structured
    hinge of RankingModel on the Mahalanobis features), over symmetric W, or over positive
    semi-definite W when `psd`.

    Cutting planes (as the one-slack learner, with C = 1/lam): each loss-augmented pass adds a
    plane b_k - <A_k, W> below the mean hinge; the working set is solved in its dual
    max_alpha b.alpha - 1/2 ||P(sum_k alpha_k A_k)||^2 (alpha >= 0, sum alpha <= C), where P
    projects onto the PSD cone (psd=True) or symmetrises; W = P(sum_k alpha_k A_k).  Every
    dual value is a lower bound on the optimum, so the run stops when the objective is within
    the relative gap `tol` of it.  X: list of (query, items) pairs; Y: their relevance vectors.
    Returns (W, info) with info = {"objective", "lower_bound", "gap" (relative), "iterations",
    "converged"}.
    """
    lam = check_positive(lam, "lam")
    if lam > MAX_LAM:
        raise ValueError(_("lam must be in (0, {max_lam:g}]; got {lam:g}: with C = 1 / lam below "
                           "{C_min:g} the hinge terms fall under float64's rounding and the "
                           "cutting planes cannot close their gap.").format(
                             max_lam=MAX_LAM, lam=lam, C_min=1 / MAX_LAM))
    tol = check_positive(tol, "tol")
    max_iter = check_int(max_iter, "max_iter", 1)
    features = [mahalanobis_features(q, items) for q, items in X]
    model = RankingModel().initialize(features, Y)
    d = int(round(np.sqrt(model.size_joint_feature)))
    C, n = 1.0 / lam, len(features)
    psi_true = [model.joint_feature(Phi, y) for Phi, y in zip(features, Y)]
    w = np.eye(d).ravel()
    A, b, alpha = np.zeros((0, d * d)), np.zeros(0), np.zeros(0)
    lower, objective, best = 0.0, np.inf, w
    for iteration in range(1, max_iter + 1):
        a_new, b_new = np.zeros(d * d), 0.0
        for Phi, y, psi in zip(features, Y, psi_true):
            y_bar = model.loss_augmented_inference(Phi, y, w)
            a_new += (psi - model.joint_feature(Phi, y_bar)) / n
            b_new += model.loss(y, y_bar) / n
        value = 0.5 * w @ w + C * (b_new - float(w @ a_new))
        if value < objective:
            objective, best = value, w
        if objective - lower <= tol * objective:
            break
        A, b, alpha = np.vstack([A, a_new]), np.r_[b, b_new], np.r_[alpha, 0.0]
        alpha, w, lower = _metric_dual(A, b, C, alpha, psd, tol=tol * objective / 4)
    info = {"objective": lam * objective, "lower_bound": lam * lower,
            "gap": (objective - lower) / objective, "iterations": iteration,
            "converged": objective - lower <= tol * objective}
    return best.reshape(d, d), info


# --- toy data -----------------------------------------------------------------------------
@finite_arguments
def toy_ranking_queries(n_queries=6, n_items=12, n_features=3, noise=0.5, seed=0):
    """Queries of items with features phi(o_i) ~ N(0, I); item i is relevant when
    <w_true, phi(o_i)> + noise > 0 (at least one of each).  Returns (X, R, w_true)."""
    n_queries = check_int(n_queries, "n_queries", 1)
    n_items = check_int(n_items, "n_items", 2)  # one relevant and one irrelevant item at least
    n_features = check_steps(check_int(n_features, "n_features", 1), "n_features")
    check_steps(n_items, "n_items", n_features)
    check_steps(n_queries, "n_queries", n_items * n_features)
    noise = check_non_negative(noise, "noise")
    rng = check_random_state(seed)
    w_true = np.linspace(1.0, -0.5, n_features)
    X, R = [], []
    for attempt in range(1000 * n_queries):
        Phi = rng.normal(size=(n_items, n_features))
        r = np.where(Phi @ w_true + noise * rng.normal(size=n_items) > 0, 1, -1)
        if np.unique(r).size == 2:
            X.append(Phi)
            R.append(r)
            if len(X) == n_queries:
                break
    else:
        raise RuntimeError(_("could not draw queries with both relevant and irrelevant items."))
    return X, R, w_true


@finite_arguments
def toy_metric_queries(n_queries=8, n_items=10, seed=0):
    """2-D points: an item is relevant to the query when they agree on the first coordinate
    (|b_q1 - b_i1| < 0.5); the second coordinate is large noise, so the Euclidean distance ranks
    poorly and a good metric weighs coordinate 1 only.  Returns (list of (query, items), R)."""
    n_queries = check_int(n_queries, "n_queries", 1)
    n_items = check_int(n_items, "n_items", 2)  # one relevant and one irrelevant item at least
    check_steps(n_items, "n_items", 2)
    check_steps(n_queries, "n_queries", 2 * n_items)
    rng = check_random_state(seed)
    X, R = [], []
    for attempt in range(1000 * n_queries):
        query = rng.uniform(-2, 2, size=2)
        items = np.c_[rng.uniform(-2, 2, n_items), rng.uniform(-4, 4, n_items)]
        r = np.where(np.abs(items[:, 0] - query[0]) < 0.5, 1, -1)
        if np.unique(r).size == 2:
            X.append((query, items))
            R.append(r)
            if len(X) == n_queries:
                break
    else:
        raise RuntimeError(_("could not draw queries with both relevant and irrelevant items."))
    return X, R
