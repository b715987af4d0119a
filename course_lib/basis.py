"""Basis functions phi: R^D -> R^K (slides 6.5): the XOR map, a 1-D -> 2-D projection, the
slides' catalogue of basis functions, and radial basis functions (RBF) with K centres.

A discriminant with basis functions stays linear in the new space:
h(x) = sum_j w_j phi_j(x) + w0.
"""

import numpy as np

from course_lib._validation import (
    finite_hyperparameters,
    finite_arguments,
    NotFittedError,
    as_numbers,
    check_binary_targets,
    check_int,
    check_matrix,
    check_positive,
    check_random_state,
)
from course_lib.i18n import _


def xor_map(X):
    """phi(x) = (x1, x2, x1 x2): the slides' map that makes XOR linearly separable in R^3."""
    X = check_matrix(X, "X")
    if X.shape[1] != 2:
        raise ValueError(_("X must have 2 features (x1, x2) for the XOR map; got {n_columns}.").format(
                             n_columns=X.shape[1]))
    return np.c_[X, X[:, 0] * X[:, 1]]


def square_map(x):
    """phi(x) = (x, x^2): projects a 1-D problem (x of shape (n, 1) or (n,)) to 2-D."""
    x = check_matrix(x, "x") if x is None else as_numbers(x, "x")
    if x.ndim > 2 or (x.ndim == 2 and x.shape[1] != 1):
        raise ValueError(_("x must be 1-D points, of shape (n,) or (n, 1); got shape {shape}.").format(
                             shape=x.shape))
    x = check_matrix(np.reshape(x, (-1, 1)), "x", n_features=1)
    return np.c_[x, x**2]


# The slides' catalogue: phi_j(x) for j = 1..K, each returning an (n, K) matrix.


def identity_basis(X):
    """phi_j(x) = x_j: the plain linear discriminant."""
    return check_matrix(X, "X").copy()


def power_basis(X, K):
    """phi_j(x) = x1^(j-1), j = 1..K: a polynomial in the first feature."""
    X = check_matrix(X, "X")
    K = check_int(K, "K", minimum=1)
    largest = float(np.max(np.abs(X[:, 0])))
    if largest > 1 and (K - 1) * np.log10(largest) > 300:
        raise ValueError(_("K = {K} overflows: x1^(K-1) reaches {largest:.3g}^{power}, beyond "
                           "float64 (1e308). Lower K or rescale the first feature into [-1, 1].").format(
                             K=K, largest=largest, power=K - 1))
    return X[:, [0]] ** np.arange(K)


@finite_arguments
def gaussian_bump_basis(X, centres, c, feature=1):
    """phi_j(x) = exp(-(x_f - m_j)^2 / c): 1-D bumps on one feature (the slides' x2: feature=1)."""
    X = check_matrix(X, "X")
    c = check_positive(c, "c")
    if not 0 <= feature < X.shape[1]:
        raise ValueError(_("feature must index a column of X (0..{last}); got {feature}.").format(
                             last=X.shape[1] - 1, feature=feature))
    m = np.asarray(centres, dtype=float).reshape(1, -1)
    return np.exp(-((X[:, [feature]] - m) ** 2) / c)


def radial_basis(X, centres, c):
    """phi_j(x) = exp(-||x - m_j||^2 / c), one column per centre m_j (rows of `centres`)."""
    X = check_matrix(X, "X")
    M = check_matrix(centres, "centres", n_features=X.shape[1])
    c = check_positive(c, "c")
    return np.exp(-_squared_distances(X, M) / c)


@finite_arguments
def sign_step_basis(X, thresholds):
    """phi_j(x) = sgn(x_j - c_j), one step per feature (thresholds has one c_j per column)."""
    X = check_matrix(X, "X")
    c = np.asarray(thresholds, dtype=float).reshape(-1)
    if c.shape != (X.shape[1],):
        raise ValueError(
            _("thresholds needs one value per feature ({n_columns}); got {n_rows}.").format(
                n_columns=X.shape[1], n_rows=c.shape[0])
        )
    return np.sign(X - c)


@finite_arguments(shapes={"X": "n d", "centres": "k d", "s": "k?"})
def rbf_features(X, centres, s):
    """phi_i(x) = exp(-||x - m_i||^2 / (2 s_i^2)), i = 1..K: R^D -> R^K.

    `s` is one width for all centres or one width s_i per centre.
    """
    X = check_matrix(X, "X")
    M = check_matrix(centres, "centres", n_features=X.shape[1])
    s = np.broadcast_to(np.asarray(s, dtype=float), (M.shape[0],))
    if not np.all(np.isfinite(s)) or np.any(s <= 0):
        raise ValueError(_("s must hold positive finite widths (one, or one per centre)."))
    return np.exp(-_squared_distances(X, M) / (2 * s**2))


@finite_arguments
def pick_centres(X, K, seed=0):
    """K distinct training points chosen at random (seeded) as RBF centres m_1..m_K."""
    X = check_matrix(X, "X")
    K = check_int(K, "K", minimum=1)
    if K > X.shape[0]:
        raise ValueError(
            _("K = {K} centres but X has only {n_rows} points: choose K <= {n_rows}.").format(
                K=K, n_rows=X.shape[0])
        )
    rng = check_random_state(seed)
    return X[rng.choice(X.shape[0], size=K, replace=False)]


class RBFNetwork:
    """h(x) = sum_i w_i phi_i(x) + w0 with K Gaussian RBF features, w fitted by least squares
    on r (regression for classification): the network a Gaussian-kernel SVM generalises.

    K: number of centres (picked among the training points); s: width of every RBF;
    ridge: a small penalty on ||w||^2 that keeps the least-squares system well posed.
    """

    def __init__(self, K=8, s=0.5, ridge=1e-6, seed=0):
        self.K = K
        self.s = s
        self.ridge = ridge
        self.seed = seed

    @finite_hyperparameters
    def fit(self, X, r):
        X = check_matrix(X, "X")
        r = check_binary_targets(r, X.shape[0], "r")
        s = check_positive(self.s, "s")
        ridge = float(self.ridge)
        if not ridge >= 0:
            raise ValueError(_("ridge must be >= 0; got {ridge!r}.").format(ridge=self.ridge))
        self.centres_ = pick_centres(X, self.K, self.seed)
        self.s_ = s  # the width fitted: transform uses it even if s is changed after fit
        Z = np.c_[rbf_features(X, self.centres_, s), np.ones(X.shape[0])]
        penalty = ridge * np.eye(Z.shape[1])
        penalty[-1, -1] = 0.0  # do not shrink w0
        coef = np.linalg.solve(Z.T @ Z + penalty + 1e-12 * np.eye(Z.shape[1]), Z.T @ r)
        self.w_, self.w0_ = coef[:-1], float(coef[-1])
        self.n_features_in_ = X.shape[1]
        return self

    def transform(self, X):
        """The K-dimensional representation phi(x) = (phi_1(x), ..., phi_K(x))."""
        if not hasattr(self, "centres_"):
            raise NotFittedError(_("This RBFNetwork is not fitted yet: call fit(X, r) first."))
        return rbf_features(X, self.centres_, self.s_)

    def decision_function(self, X):
        return self.transform(X) @ self.w_ + self.w0_

    def predict(self, X):
        return np.where(self.decision_function(X) >= 0, 1.0, -1.0)


def _squared_distances(X, M):
    d2 = (X**2).sum(1)[:, None] + (M**2).sum(1)[None, :] - 2 * X @ M.T
    return np.maximum(d2, 0.0)
