"""Linear discriminants h(x) = w.x + w0 (K1-K4): the perceptron, least squares, the version space.

Targets follow the slides: r^t in {-1, +1}; x belongs to C1 when h(x) >= 0.
"""

import numpy as np

from course_lib._validation import (
    finite_hyperparameters,
    finite_arguments,
    check_binary_targets,
    check_fitted,
    check_int,
    check_steps,
    check_matrix,
    check_positive,
    check_random_state,
)
from course_lib.i18n import _


class LinearDiscriminant:
    """What every linear discriminant shares: h(x) = w.x + w0, its sign, its signed distance."""

    def decision_function(self, X):
        """h(x) = w.x + w0 for every row of X."""
        check_fitted(self, "w_")
        X = check_matrix(X, n_features=self.w_.shape[0])
        return X @ self.w_ + self.w0_

    def predict(self, X):
        """+1 where h(x) >= 0 (class C1), -1 elsewhere."""
        return np.where(self.decision_function(X) >= 0, 1.0, -1.0)

    def signed_distance(self, X):
        """h(x) / ||w||: the signed distance of each point to the hyperplane h(x) = 0."""
        h = self.decision_function(X)
        norm = np.linalg.norm(self.w_)
        if norm == 0:
            raise ValueError(_("w = 0: the hyperplane is undefined, so is the distance to it."))
        return h / norm


@finite_arguments(shapes={"w": "d", "X": "n d", "r": "n"})
def perceptron_criterion(w, w0: float, X, r):
    """E_percp(w, w0 | X) = - sum over misclassified x^t (r^t h(x^t) < 0) of r^t h(x^t)."""
    margins = r * (X @ w + w0)
    return float(np.sum(-margins[margins < 0]))  # an empty sum is +0.0 (a negated one would print "-0.00")


class Perceptron(LinearDiscriminant):
    """The perceptron, trained online: for each x^t with r^t h(x^t) <= 0,
    w <- w + eta r^t x^t and w0 <- w0 + eta r^t.

    Parameters: eta (learning rate > 0), n_epochs (passes over the data), shuffle (visit
    the points in a new seeded order each epoch), seed.
    Learned: w_, w0_, history_ (the (w, w0) pairs after each update, starting from zeros),
    update_epoch_ (the epoch, from 1, of each update; 0 for the start), update_index_ (the
    index t of the point that caused each update; -1 for the start), criterion_ (E_percp at the end of each
    epoch), n_updates_, converged_ (an epoch went by without any update).
    """

    def __init__(self, eta=1.0, n_epochs=10, shuffle=True, seed=0):
        self.eta = eta
        self.n_epochs = n_epochs
        self.shuffle = shuffle
        self.seed = seed

    @finite_hyperparameters
    def fit(self, X, r):
        X = check_matrix(X)
        r = check_binary_targets(r, X.shape[0])
        eta = check_positive(self.eta, "eta")
        n_epochs = check_steps(check_int(self.n_epochs, "n_epochs", minimum=1), "n_epochs", len(X))
        if not isinstance(self.shuffle, (bool, np.bool_)):
            raise TypeError(_("shuffle must be True or False; got {shuffle!r}.").format(
                                shuffle=self.shuffle))
        rng = check_random_state(self.seed)
        w, w0 = np.zeros(X.shape[1]), 0.0
        history, update_epoch, update_index, criterion = [(w.copy(), w0)], [0], [-1], []
        self.converged_ = False
        for epoch in range(1, n_epochs + 1):
            order = rng.permutation(len(X)) if self.shuffle else np.arange(len(X))
            updated = False
            for t in order:
                if r[t] * (X[t] @ w + w0) <= 0:
                    w = w + eta * r[t] * X[t]
                    w0 = w0 + eta * r[t]
                    history.append((w.copy(), w0))
                    update_epoch.append(epoch)
                    update_index.append(t)
                    updated = True
            criterion.append(perceptron_criterion(w, w0, X, r))
            if not updated:
                self.converged_ = True
                break
        self.w_, self.w0_ = w, w0
        self.n_features_in_ = X.shape[1]
        self.history_ = history
        self.update_epoch_ = np.array(update_epoch)
        self.update_index_ = np.array(update_index)
        self.criterion_ = np.array(criterion)
        self.n_updates_ = len(history) - 1
        return self

    def state_after_epoch(self, epoch):
        """(w, w0) as they stood at the end of epoch `epoch` (0 = before training)."""
        check_fitted(self, "history_")
        epoch = check_int(epoch, "epoch", minimum=0)
        last = np.flatnonzero(self.update_epoch_ <= epoch)[-1]
        return self.history_[last]


class LeastSquaresClassifier(LinearDiscriminant):
    """Classification by regression: minimise E_quad = 1/2 sum_t (r^t - (w.x^t + w0))^2.

    The minimiser solves the normal equations of the augmented inputs [x, 1]; it is computed
    with a least-squares solver (minimum-norm solution when the inputs are collinear).
    Learned: w_, w0_, criterion_ (E_quad at the solution).
    """

    @finite_hyperparameters
    def fit(self, X, r):
        X = check_matrix(X)
        r = check_binary_targets(r, X.shape[0])
        A = np.c_[X, np.ones(len(X))]
        theta, *_ = np.linalg.lstsq(A, r, rcond=None)
        self.w_, self.w0_ = theta[:-1], float(theta[-1])
        self.n_features_in_ = X.shape[1]
        self.criterion_ = 0.5 * float(np.sum((r - A @ theta) ** 2))
        return self


@finite_arguments
def least_squares_epochs(X, r, n_epochs=6):
    """Batch gradient descent on E_quad = 1/2 sum_t (r^t - (w.x^t + w0))^2, from w = 0, w0 = 0.

    One epoch is one step theta <- theta + eta A^T (r - A theta) with A = [X, 1], theta = (w, w0)
    and eta = 1 / lambda_max(A^T A), the largest eigenvalue of the Hessian: E_quad then decreases
    at every epoch and the distance to the closed-form solution shrinks at least by the factor
    1 - lambda_min / lambda_max. Returns the list of (w, w0) after epochs 1..n_epochs.
    """
    X = check_matrix(X)
    r = check_binary_targets(r, X.shape[0])
    n_epochs = check_steps(check_int(n_epochs, "n_epochs", minimum=1), "n_epochs", len(X))
    A = np.c_[X, np.ones(len(X))]
    eta = 1.0 / np.linalg.eigvalsh(A.T @ A).max()
    theta = np.zeros(A.shape[1])
    states = []
    for _ in range(n_epochs):
        theta = theta + eta * A.T @ (r - A @ theta)
        states.append((theta[:-1].copy(), float(theta[-1])))
    return states


@finite_arguments
def version_space_offsets(X, r, w):
    """For a fixed orientation w, the offsets w0 whose hyperplane separates the data.

    r^t (w.x^t + w0) > 0 for all t means -min_{r=+1} w.x < w0 < -max_{r=-1} w.x.
    Returns (w0_S, w0_G): the most specific hypothesis S touches the closest positive point
    (smallest region h >= 0), the most general G touches the closest negative point.
    Raises ValueError when no offset separates the data along w.
    """
    X = check_matrix(X)
    r = check_binary_targets(r, X.shape[0])
    w = np.asarray(w, dtype=float)
    if w.shape != (X.shape[1],) or not np.any(w):
        raise ValueError(_("w must be a non-zero vector of length {n_columns}; got {w!r}.").format(
                             n_columns=X.shape[1], w=w))
    projection = X @ w
    w0_S = -projection[r > 0].min()
    w0_G = -projection[r < 0].max()
    if not w0_S < w0_G:
        raise ValueError(_("no hyperplane with this orientation w separates the data: the version "
                           "space along w is empty."))
    return float(w0_S), float(w0_G)


@finite_arguments
def sample_version_space(X, r, n_hypotheses=30, seed=0, n_orientations=720):
    """Seeded sample of separating hyperplanes (w, w0) with unit w, in 2-D: orientations on a
    fine circle are kept when version_space_offsets finds an interval, then offsets are drawn
    uniformly inside it. Returns a list of (w, w0) pairs (empty if the data is not separable)."""
    X = check_matrix(X)
    r = check_binary_targets(r, X.shape[0])
    if X.shape[1] != 2:
        raise ValueError(_("sample_version_space draws lines in 2-D; X has {n_columns} features.").format(
                             n_columns=X.shape[1]))
    n_hypotheses = check_int(n_hypotheses, "n_hypotheses", minimum=1)
    n_orientations = check_int(n_orientations, "n_orientations", minimum=1)
    rng = check_random_state(seed)
    angles = np.linspace(0, 2 * np.pi, n_orientations, endpoint=False)
    admissible = []
    for angle in angles:
        w = np.array([np.cos(angle), np.sin(angle)])
        try:
            admissible.append((w, version_space_offsets(X, r, w)))
        except ValueError:
            continue
    if not admissible:
        return []
    picks = rng.integers(len(admissible), size=n_hypotheses)
    return [(admissible[i][0], float(rng.uniform(*admissible[i][1]))) for i in picks]
