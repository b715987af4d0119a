"""Multiclass classification (M1-M8, M12): reductions to binary problems, class-sensitive
feature maps Psi(x, y), cost matrices Delta(y', y) and the generalised hinge loss.

Labels: the reductions and the learners accept labels that np.unique can sort (numbers,
strings) and store them, sorted, in `classes_`; inside, a label is its index y in 0..k-1 (the
slides' 1..k shifted by one).
A cost matrix is indexed `Delta[y_predicted, y_true]`, the slides' Delta(y', y).
"""

import inspect
from itertools import combinations

import numpy as np

from course_lib._validation import (
    check_class_indices,
    check_fitted,
    check_int,
    check_steps,
    check_labels,
    check_matrix,
    finite_arguments,
)
from course_lib.i18n import _


# ---------------------------------------------------------------- labels and binary learners


def clone(estimator):
    """A fresh, unfitted copy of a binary estimator rebuilt from its constructor arguments."""
    for method in ("fit", "decision_function"):
        if not callable(getattr(estimator, method, None)):
            raise TypeError(
                _("{type} has no {method}(): the reductions need a binary estimator with fit(X, "
                  "r) for r in {{-1, +1}} and decision_function(X).").format(
                    type=type(estimator).__name__, method=method)
            )
    return _rebuild(estimator)


def _rebuild(obj):
    """type(obj)(**its constructor arguments, read from the attributes of the same names)."""
    names = [
        p.name for p in inspect.signature(type(obj).__init__).parameters.values()
        if p.name != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]
    return type(obj)(**{name: getattr(obj, name) for name in names})


def _shared_gram(estimator, X):
    """The Gram matrix the binary estimator would form on X, if it can share one (the SVM)."""
    shared_gram = getattr(estimator, "shared_gram", None)
    return shared_gram(X) if callable(shared_gram) else None


def _fit(estimator, X, r, K):
    return estimator.fit(X, r) if K is None else estimator.fit(X, r, gram=K)


def _confidence(estimator, X):
    values = np.asarray(estimator.decision_function(X), dtype=float)
    return values.reshape(len(X))


class OneVsRest:
    """One-vs-rest (M1): k binary problems S_i with r = +1 on class i and -1 elsewhere, then
    h(x) = argmax_i h_i(x) with h_i(x) the *confidence* <w_i, psi(x)> (decision_function),
    not its sign (signs tie whenever several or no h_i say +1).

    Learned: classes_, estimators_ (one per class, in the order of classes_).
    """

    def __init__(self, binary_estimator):
        self.binary_estimator = binary_estimator

    def fit(self, X, y):
        X = check_matrix(X)
        self.classes_, y_index = check_labels(y, X.shape[0])
        K = _shared_gram(self.binary_estimator, X)  # one Gram matrix for the k problems
        self.estimators_ = [
            _fit(clone(self.binary_estimator), X, np.where(y_index == i, 1.0, -1.0), K)
            for i in range(len(self.classes_))
        ]
        self.n_features_in_ = X.shape[1]
        return self

    def decision_function(self, X):
        """Matrix (n, k) of the confidences h_i(x)."""
        check_fitted(self, "estimators_")
        X = check_matrix(X, n_features=self.n_features_in_)
        return np.column_stack([_confidence(e, X) for e in self.estimators_])

    def predict(self, X):
        """argmax_i h_i(x) (the first class wins exact ties)."""
        scores = self.decision_function(X)
        return self.classes_[np.argmax(scores, axis=1)]

    def predict_with_signs(self, X):
        """argmax_i sign(h_i(x)): what the reduction does without confidences. Where several or
        no h_i say +1 the signs tie, and the first of the tied classes is returned."""
        signs = np.where(self.decision_function(X) >= 0, 1, -1)  # sign(0) = +1, as the binary predict
        return self.classes_[np.argmax(signs, axis=1)]


class AllPairs:
    """All pairs / one-vs-one (M3): for every pair i < j a binary problem S_ij on the examples
    of classes i and j, r = +1 for class i and -1 for class j; then the vote

        h(x) = argmax_i ( sum_{j > i} 1[h_ij(x) = +1] + sum_{j < i} 1[h_ji(x) = -1] ),

    with h_ij(x) = +1 when decision_function(x) >= 0: the rule of the binary learners' own
    predict (sign(0) = +1, class i), so a pairwise decision of exactly 0 votes for i. Ties in the
    vote go to the smallest class index (the first of classes_).

    Learned: classes_, pairs_ (the k(k-1)/2 index pairs (i, j)), estimators_ (one per pair).
    """

    def __init__(self, binary_estimator):
        self.binary_estimator = binary_estimator

    def fit(self, X, y):
        X = check_matrix(X)
        self.classes_, y_index = check_labels(y, X.shape[0])
        self.pairs_ = list(combinations(range(len(self.classes_)), 2))
        K = _shared_gram(self.binary_estimator, X)  # each pair's Gram matrix is a block of it
        self.estimators_ = []
        for i, j in self.pairs_:
            mask = (y_index == i) | (y_index == j)
            r = np.where(y_index[mask] == i, 1.0, -1.0)
            K_ij = None if K is None else K[np.ix_(mask, mask)]
            self.estimators_.append(_fit(clone(self.binary_estimator), X[mask], r, K_ij))
        self.n_features_in_ = X.shape[1]
        return self

    def pairwise_decisions(self, X):
        """Matrix (n, k(k-1)/2): decision_function of h_ij for each pair of pairs_."""
        check_fitted(self, "estimators_")
        X = check_matrix(X, n_features=self.n_features_in_)
        return np.column_stack([_confidence(e, X) for e in self.estimators_])

    def votes(self, X):
        """Matrix (n, k): the number of pairwise problems won by each class (the vote formula)."""
        return pairwise_votes(self.pairwise_decisions(X), len(self.classes_))

    decision_function = votes

    def predict(self, X):
        """The class with the most votes; ties go to the smallest class index."""
        votes = self.votes(X)
        return self.classes_[np.argmax(votes, axis=1)]


@finite_arguments
def pairwise_votes(decisions, n_classes: int):
    """The vote formula (M3): votes (n, k) from the decisions (n, k(k-1)/2) of the pairs i < j in
    the order (0, 1), (0, 2), ..., (k-2, k-1); h_ij(x) = +1 (a vote for i) when the decision is >= 0,
    -1 (a vote for j) otherwise."""
    decisions = np.asarray(decisions, dtype=float)
    n_classes = check_int(n_classes, "n_classes", 2)
    pairs = list(combinations(range(n_classes), 2))
    if decisions.ndim != 2 or decisions.shape[1] != len(pairs):
        raise ValueError(_("decisions must have one column per pair i < j: shape (n, {n_pairs}).").format(
                             n_pairs=len(pairs)))
    votes = np.zeros((decisions.shape[0], n_classes), dtype=int)
    for column, (i, j) in enumerate(pairs):
        says_i = decisions[:, column] >= 0  # h_ij(x) = +1, as the binary learner's predict
        votes[:, i] += says_i
        votes[:, j] += ~says_i
    return votes


class HalfspaceERM:
    """The best homogeneous halfspace h(x) = sign(<w, x>) in 2-D for the 0-1 error (an exact
    ERM by enumeration): the error only changes when w crosses a direction orthogonal to some
    x^t, so it is enough to try one direction inside each arc between two such crossings.

    Used for the 40/20/40 example (M2). Learned: w_ (unit vector), error_ (training 0-1 error).
    A tie between arcs goes to the smallest angle from (1, 0) measured counter-clockwise.
    """

    def fit(self, X, r):
        X = check_matrix(X)
        if X.shape[1] != 2:
            raise ValueError(_("HalfspaceERM works in 2-D; X has {n_columns} features.").format(
                                 n_columns=X.shape[1]))
        try:
            r = np.asarray(r, dtype=float)
        except (TypeError, ValueError):
            raise ValueError(_("r must hold one target in {-1, +1} per row of X.")) from None
        if r.shape != (X.shape[0],) or not np.all(np.isin(r, (-1.0, 1.0))):
            raise ValueError(_("r must hold one target in {-1, +1} per row of X."))
        point_angles = np.arctan2(X[:, 1], X[:, 0])
        crossings = np.sort(np.mod(np.r_[point_angles + np.pi / 2, point_angles - np.pi / 2], 2 * np.pi))
        gaps = np.diff(np.r_[crossings, crossings[0] + 2 * np.pi])
        candidates = np.sort(np.mod(crossings + gaps / 2, 2 * np.pi))  # the middle of each arc
        W = np.c_[np.cos(candidates), np.sin(candidates)]
        errors = np.mean(np.where(X @ W.T > 0, 1.0, -1.0) != r[:, None], axis=0)
        best = int(np.argmin(errors))
        self.w_, self.error_ = W[best], float(errors[best])
        return self

    def decision_function(self, X):
        check_fitted(self, "w_")
        return check_matrix(X, n_features=2) @ self.w_


# ---------------------------------------------------------------- class-sensitive feature maps


class MultiVector:
    """The multi-vector construction (M6): Psi(x, y) = [0 .. 0, x_1 .. x_n, 0 .. 0] with x in
    block y, so <w, Psi(x, y)> = <w_y, x> = (W x)_y and dim Psi = n |Y|.
    With bias=True, x is extended by a constant 1 (one offset per class)."""

    def __init__(self, bias=False):
        self.bias = bias

    def fit(self, X, y, n_classes):
        X = check_matrix(X)
        self.n_classes_ = check_int(n_classes, "n_classes", 1)
        check_class_indices(y, self.n_classes_, "y", n_samples=X.shape[0])
        self.n_features_in_ = X.shape[1]
        self.block_ = X.shape[1] + bool(self.bias)
        self.dimension_ = self.block_ * self.n_classes_
        return self

    def _extend(self, X):
        return np.c_[X, np.ones(len(X))] if self.bias else X

    def psi(self, x, y):
        """Psi(x, y) as a vector of length n |Y|."""
        out = np.zeros(self.dimension_)
        out[y * self.block_:(y + 1) * self.block_] = self._extend(np.atleast_2d(x))[0]
        return out

    def scores(self, X, w):
        """Matrix (n, k) of <w, Psi(x_i, y)> = (W x_i)_y."""
        return self._extend(X) @ self.as_matrix(w).T

    def add_psi(self, w, x, y, scale):
        """w <- w + scale Psi(x, y), in place (only block y changes)."""
        w[y * self.block_:(y + 1) * self.block_] += scale * self._extend(np.atleast_2d(x))[0]

    def norms(self, X):
        """Matrix (n, k) of ||Psi(x_i, y)|| = ||x_i|| (with the 1 if bias)."""
        return np.repeat(np.linalg.norm(self._extend(X), axis=1)[:, None], self.n_classes_, axis=1)

    def as_matrix(self, w):
        """w seen as the matrix W (k, n [+1]) whose row y is w_y."""
        return np.asarray(w).reshape(self.n_classes_, self.block_)


class BinaryMap:
    """The binary case (M4): Psi(x, y) = y x for y in {-1, +1} (class index 0 is -1, 1 is +1),
    so argmax_y <w, y x> = sign(<w, x>)."""

    def fit(self, X, y, n_classes):
        X = check_matrix(X)
        if n_classes != 2:
            raise ValueError(_("BinaryMap needs exactly two classes (-1 and +1); got {n_classes}.").format(
                                 n_classes=n_classes))
        check_class_indices(y, 2, "y", n_samples=X.shape[0])
        self.n_classes_, self.dimension_ = 2, X.shape[1]
        self.n_features_in_ = X.shape[1]
        return self

    def psi(self, x, y):
        return (2 * y - 1) * np.asarray(x, dtype=float).ravel()

    def scores(self, X, w):
        s = X @ w
        return np.c_[-s, s]

    def add_psi(self, w, x, y, scale):
        w += scale * self.psi(x, y)

    def norms(self, X):
        return np.repeat(np.linalg.norm(X, axis=1)[:, None], 2, axis=1)


class TfIdfMap:
    """The TF-IDF class-sensitive map (M5) on term counts X (m documents x d words):

        Psi_j(x, y) = TF(j, x) log(m / (1 + DF(j, y))),

    with DF(j, y) the number of training documents NOT of topic y that contain word j.
    Psi_j(x, y) is large when word j is frequent in x and rare outside topic y.
    dim Psi = d, whatever the number of topics. Learned by fit: idf_ (k, d), the log factors.
    """

    def fit(self, X, y, n_classes):
        X = check_matrix(X)
        if np.any(X < 0):
            raise ValueError(_("X must hold term counts TF(j, x) >= 0."))
        n_classes = check_int(n_classes, "n_classes", 1)
        y = check_class_indices(y, n_classes, "y", n_samples=X.shape[0])
        m = X.shape[0]
        contains = X > 0
        df_total = contains.sum(axis=0)
        df_in_topic = np.stack([contains[y == t].sum(axis=0) for t in range(n_classes)])
        self.df_ = df_total[None, :] - df_in_topic  # DF(j, y): documents of other topics
        self.idf_ = np.log(m / (1.0 + self.df_))
        self.n_classes_, self.dimension_ = int(n_classes), X.shape[1]
        self.n_features_in_ = X.shape[1]
        return self

    def psi(self, x, y):
        return np.asarray(x, dtype=float).ravel() * self.idf_[y]

    def scores(self, X, w):
        return X @ (self.idf_ * w).T

    def add_psi(self, w, x, y, scale):
        w += scale * self.psi(x, y)

    def norms(self, X):
        """Matrix (n, k) of ||Psi(x_i, y)||."""
        return np.sqrt((X**2) @ (self.idf_**2).T)


def fit_feature_map(feature_map, X, y_index, n_classes):
    """A fitted copy of `feature_map` (None means MultiVector())."""
    feature_map = MultiVector() if feature_map is None else feature_map
    for method in ("fit", "psi", "scores", "add_psi"):
        if not callable(getattr(feature_map, method, None)):
            raise TypeError(
                _("feature_map must provide fit, psi, scores and add_psi (like MultiVector); "
                  "{type} has no {method}().").format(
                    type=type(feature_map).__name__, method=method)
            )
    return _rebuild(feature_map).fit(X, y_index, n_classes)


def term_counts(bags, vocabulary):
    """Matrix (m, d) of TF(j, x): the count of word vocabulary[j] in each document, from the
    {word: count} dicts of course_lib.text.bag_of_words."""
    position = {word: j for j, word in enumerate(vocabulary)}
    counts = np.zeros((len(bags), len(vocabulary)))
    for i, bag in enumerate(bags):
        for word, count in bag.items():
            if word in position:
                counts[i, position[word]] = count
    return counts


# ---------------------------------------------------------------- costs and the generalised hinge


@finite_arguments
def zero_one_cost(n_classes: int):
    """Delta(y', y) = 1[y' != y] as a k x k matrix."""
    check_int(n_classes, "n_classes", 1)
    return 1.0 - np.eye(n_classes)


@finite_arguments
def check_cost(Delta, n_classes=None):
    """Return Delta as a float matrix after checking it is square, finite, >= 0, zero on the
    diagonal (no cost for the right answer) and of size k x k when n_classes is given."""
    try:
        Delta = np.asarray(Delta, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(
            _("Delta (the cost) must be a k x k matrix of numbers Delta[y_predicted, y_true].")
        ) from None
    if Delta.ndim != 2 or Delta.shape[0] != Delta.shape[1]:
        raise ValueError(
            _("Delta (the cost) must be a square k x k matrix with k >= 1; got shape {shape}.").format(
                shape=Delta.shape)
        )
    if n_classes is not None and Delta.shape[0] != n_classes:
        raise ValueError(
            _("Delta (the cost) is {n_rows} x {n_rows} but there are {n_classes} classes.").format(
                n_rows=Delta.shape[0], n_classes=n_classes)
        )
    if not np.all(np.isfinite(Delta)):
        raise ValueError(
            _("Delta (the cost) contains NaN or inf: every Delta(y', y) must be a finite number.")
        )
    if np.any(Delta < 0):
        raise ValueError(_("Delta (the cost) must be non-negative: Delta maps Y x Y to R_+."))
    if np.any(np.diag(Delta) != 0):
        raise ValueError(
            _("Delta (the cost) must be zero on the diagonal: Delta(y, y) = 0 (no cost when "
              "right).")
        )
    return Delta


@finite_arguments(shapes={"y_pred": "n", "y_true": "n", "Delta": "k k"})
def cost_sensitive_risk(y_pred, y_true, Delta):
    """L_S = (1/m) sum_i Delta(h(x_i), y_i) for class indices y_pred, y_true."""
    Delta = check_cost(Delta)
    y_pred = check_class_indices(y_pred, Delta.shape[0], "y_pred")
    y_true = check_class_indices(y_true, Delta.shape[0], "y_true", n_samples=y_pred.shape[0])
    return float(np.mean(Delta[y_pred, y_true]))


@finite_arguments(shapes={"scores": "n k", "y": "n", "Delta": "k k"})
def loss_augmented_argmax(scores: np.ndarray, y: np.ndarray, Delta: np.ndarray):
    """y_hat_i in argmax_y' Delta(y', y_i) + <w, Psi(x_i, y')> - <w, Psi(x_i, y_i)> for each row
    of scores (n, k), and that maximum: the generalised hinge loss of each example."""
    return _loss_augmented_argmax(scores, check_class_indices(y, Delta.shape[0], "y"), Delta)


def _loss_augmented_argmax(scores, y, Delta):
    """loss_augmented_argmax without the checks of its arguments, for SGD's steps (one call
    each, on one example, where the checks cost more than the argmax): y class indices."""
    rows = np.arange(len(y))
    augmented = Delta[:, y].T + scores - scores[rows, y][:, None]
    y_hat = np.argmax(augmented, axis=1)
    return y_hat, augmented[rows, y_hat]


@finite_arguments(shapes={"X": "n d", "y": "n", "Delta": "k k"})
def generalised_hinge(w, X, y, feature_map, Delta: np.ndarray):
    """l(w, (x_i, y_i)) = max_y' [Delta(y', y_i) + <w, Psi(x_i, y') - Psi(x_i, y_i)>] for each
    example (class indices y); it is >= Delta(h_w(x_i), y_i) (M8)."""
    w = _check_w(w, feature_map)
    return loss_augmented_argmax(feature_map.scores(X, w), np.asarray(y), Delta)[1]


@finite_arguments(shapes={"x": "d", "Delta": "k k"})
def hinge_subgradient(w, x, y: int, feature_map, Delta: np.ndarray):
    """A subgradient of l(., (x, y)) at w (M12): Psi(x, y_hat) - Psi(x, y) with y_hat the
    loss-augmented argmax."""
    w = _check_w(w, feature_map)
    x = np.atleast_2d(x)
    if x.shape[1] != feature_map.n_features_in_:
        raise ValueError(_("x has {n} features but the feature map was fitted with "
                           "{n_features}: pass one example of the same columns.").format(
                             n=x.shape[1], n_features=feature_map.n_features_in_))
    y = int(check_class_indices([y], feature_map.n_classes_, "y")[0])
    y_hat = loss_augmented_argmax(feature_map.scores(x, w), np.array([y]), Delta)[0][0]
    return feature_map.psi(x[0], y_hat) - feature_map.psi(x[0], y)


@finite_arguments
def margin_perceptron(X, y, feature_map, margin=1.0, max_updates=100_000):
    """Solve the realisable case (M7) as the linear feasibility problem with margin 1:

        find w with <w, Psi(x_i, y_i) - Psi(x_i, y)> >= margin for every i and every y != y_i.

    Perceptron with a margin: sweep the examples; where the closest rival y_hat violates the
    margin, w <- w + Psi(x_i, y_i) - Psi(x_i, y_hat). If some u satisfies the constraints, this
    stops after at most (R^2 + 2 margin) ||u||^2 / margin^2 updates, R = max ||Psi(x_i, y_i) -
    Psi(x_i, y)|| (the perceptron's proof: <w, u> grows by >= margin per update, ||w||^2 by
    <= 2 margin + R^2). Returns (w, number of updates); raises when max_updates is reached
    (then the problem may be infeasible: the data are not linearly separable by this Psi).
    feature_map must be fitted; y holds class indices 0..k-1.
    """
    X = check_matrix(X)
    y = np.asarray(y)
    if y.shape != (X.shape[0],) or y.dtype.kind not in "iu":
        raise ValueError(_("y must hold one class index (an integer 0..k-1) per row of X."))
    y = check_class_indices(y, feature_map.n_classes_, "y")
    if not (np.isfinite(margin) and margin > 0):
        raise ValueError(_("margin must be a positive number; got {margin!r}.").format(
                             margin=margin))
    max_updates = check_steps(check_int(max_updates, "max_updates", 1), "max_updates")
    # k updates give ||w|| <= k R, and a constraint needs ||w|| R >= margin: k >= margin / R^2
    R = max(float(np.linalg.norm(feature_map.psi(x, label) - feature_map.psi(x, rival)))
            for x, label in zip(X, y) for rival in range(feature_map.n_classes_))
    if R == 0 or margin / R > max_updates * R:
        raise ValueError(
            _("margin={margin:g} needs at least margin / R^2 = {updates:.3g} updates, more than "
              "max_updates={max_updates} (R = {R:.3g}, the largest ||Psi(x, y) - Psi(x, y')||): "
              "lower margin, raise max_updates or rescale X.").format(
                margin=margin, updates=margin / R / R if R else np.inf, max_updates=max_updates, R=R))
    w = np.zeros(feature_map.dimension_)
    updates = 0
    while True:
        clean_sweep = True
        for i in range(len(X)):
            scores = feature_map.scores(X[i:i + 1], w)[0]
            rivals = np.where(np.arange(len(scores)) == y[i], -np.inf, scores)
            y_hat = int(np.argmax(rivals))
            if scores[y[i]] - rivals[y_hat] < margin:
                if updates == max_updates:
                    raise RuntimeError(
                        _("no w with every margin >= {margin:g} after {max_updates} updates: the "
                          "constraints may be infeasible (data not separable); raise max_updates "
                          "to try longer.").format(margin=margin, max_updates=max_updates)
                    )
                feature_map.add_psi(w, X[i], y[i], 1.0)
                feature_map.add_psi(w, X[i], y_hat, -1.0)
                updates += 1
                clean_sweep = False
        if clean_sweep:
            return w, updates


@finite_arguments(shapes={"X": "n d", "y": "n"})
def class_margins(w, X, y, feature_map):
    """min over y != y_i of <w, Psi(x_i, y_i) - Psi(x_i, y)> for each example (class indices y)."""
    w = _check_w(w, feature_map)
    scores = feature_map.scores(check_matrix(X), w)
    y = check_class_indices(y, feature_map.n_classes_, "y")
    rows = np.arange(len(y))
    rivals = scores.copy()
    rivals[rows, y] = -np.inf
    return scores[rows, y] - rivals.max(axis=1)


@finite_arguments(shapes={"X": "n d"})
def predict_index(w, X, feature_map):
    """h_w(x) = argmax_y <w, Psi(x, y)> (class indices; the first wins ties) (M4)."""
    w = _check_w(w, feature_map)
    return np.argmax(feature_map.scores(X, w), axis=1)


def _check_w(w, feature_map):
    """w as a float vector of the fitted feature map's dimension (dim Psi)."""
    if not hasattr(feature_map, "dimension_"):
        raise ValueError(_("feature_map is not fitted: pass fit_feature_map(feature_map, X, y, k)."))
    w = np.asarray(w, dtype=float)
    if w.shape != (feature_map.dimension_,):
        raise ValueError(_("w must be a vector of dim Psi = {dimension} entries (the fitted "
                           "feature map's dimension); got shape {shape}.").format(
                             dimension=feature_map.dimension_, shape=w.shape))
    return w
