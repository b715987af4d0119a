"""The SVM as hinge-loss minimisation, trained by gradient descent in the kernel space
(slides 6.8), the loss criteria it is compared with, and the all-alpha-equal-one kernel
density classifier (slides 6.6).

h(x) = sum_s alpha^s r^s K(x^s, x) + w0
E_hinge(alpha, w0 | X) = sum_{x^t in Y} (1 - r^t h(x^t)) + lambda/2 sum_s (alpha^s)^2,
Y = {x^t : r^t h(x^t) < 1}.
"""

import numpy as np

from course_lib._validation import (
    check_binary_targets,
    check_fitted,
    check_int,
    check_matrix,
    check_non_negative,
    check_positive,
)
from course_lib.kernels import gram, kernel_matrix, kernel_params


# Loss criteria as functions of the margin y r, with y = h(x) and r in {-1, +1} (slides 6.8).


def zero_one_loss(margin):
    """1 when the point is misclassified (y r < 0), else 0."""
    return (np.asarray(margin, dtype=float) < 0).astype(float)


def quadratic_loss(margin):
    """(r - y)^2 = (1 - y r)^2 since r^2 = 1: least squares, which also punishes y r > 1."""
    return (1.0 - np.asarray(margin, dtype=float)) ** 2


def cross_entropy_loss(margin):
    """log2(1 + exp(-y r)): the logistic (cross-entropy) loss, scaled to equal 1 at y r = 0."""
    return np.logaddexp(0.0, -np.asarray(margin, dtype=float)) / np.log(2.0)


def hinge_loss(margin):
    """max(1 - y r, 0): zero only beyond the margin (y r >= 1)."""
    return np.maximum(1.0 - np.asarray(margin, dtype=float), 0.0)


LOSS_CRITERIA = {
    "0/1": zero_one_loss,
    "quadratic": quadratic_loss,
    "cross-entropy": cross_entropy_loss,
    "hinge": hinge_loss,
}


def hinge_error(alpha, w0, G, r, lam):
    """E_hinge(alpha, w0) for the Gram matrix G[s, t] = K(x^s, x^t) of the training points."""
    h = G @ (alpha * r) + w0
    violated = r * h < 1
    return float(np.sum(1.0 - r[violated] * h[violated]) + 0.5 * lam * alpha @ alpha)


def hinge_gradient(alpha, w0, G, r, lam):
    """(dE/dalpha, dE/dw0) where E is differentiable (no r^t h(x^t) exactly 1):

    dE/dalpha^s = -r^s sum_{t in Y} r^t K(x^s, x^t) + lambda alpha^s,   dE/dw0 = -sum_{t in Y} r^t.
    """
    h = G @ (alpha * r) + w0
    r_violated = np.where(r * h < 1, r, 0.0)
    return -r * (G @ r_violated) + lam * alpha, -float(r_violated.sum())


class KernelHingeGD:
    """Kernel SVM trained by (batch) gradient descent on E_hinge, the slides' update:

    Delta alpha^t = -eta dE/dalpha^t,
    alpha^t <- 0 if alpha^t + Delta alpha^t < 0, else alpha^t + Delta alpha^t;
    Delta w0 = -eta dE/dw0,  w0 <- w0 + Delta w0.
    Without regularisation (lam = 0) the alphas of points that stay in the margin grow without
    bound: `alpha_history_` (n_epochs + 1, N) records them, `w0_history_` and `error_history_`
    record w0 and E after each epoch.
    """

    def __init__(self, kernel="gaussian", sigma=1.0, degree=2, lam=1.0, eta=0.01, n_epochs=200):
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.lam = lam
        self.eta = eta
        self.n_epochs = n_epochs

    def _params(self):
        return kernel_params(self.kernel, self.sigma, self.degree)

    def fit(self, X, r):
        X = check_matrix(X, "X")
        r = check_binary_targets(r, X.shape[0])
        params = self._params()
        lam = check_non_negative(self.lam, "lam")
        eta = check_positive(self.eta, "eta")
        n_epochs = check_int(self.n_epochs, "n_epochs", minimum=0)
        G = gram(X, self.kernel, **params)
        alpha, w0 = np.zeros(X.shape[0]), 0.0
        alphas, w0s, errors = [alpha.copy()], [w0], [hinge_error(alpha, w0, G, r, lam)]
        for _ in range(n_epochs):
            grad_alpha, grad_w0 = hinge_gradient(alpha, w0, G, r, lam)
            alpha = alpha - eta * grad_alpha
            alpha[alpha < 0] = 0.0
            w0 = w0 - eta * grad_w0
            alphas.append(alpha.copy())
            w0s.append(w0)
            errors.append(hinge_error(alpha, w0, G, r, lam))
        self.X_, self.r_ = X, r
        self.alpha_, self.w0_ = alpha, w0
        self.support_ = np.flatnonzero(alpha > 0)
        self.alpha_history_ = np.array(alphas)
        self.w0_history_ = np.array(w0s)
        self.error_history_ = np.array(errors)
        return self

    def decision_function(self, X):
        """h(x) = sum_s alpha^s r^s K(x^s, x) + w0."""
        check_fitted(self, "alpha_")
        X = check_matrix(X, "X", n_features=self.X_.shape[1])
        return (
            kernel_matrix(X, self.X_, self.kernel, **self._params()) @ (self.alpha_ * self.r_)
            + self.w0_
        )

    def predict(self, X):
        return np.where(self.decision_function(X) >= 0, 1.0, -1.0)


class KernelDensityClassifier:
    """The kernel SVM with alpha^t = 1 for every t and no w0: h(x) = sum_t r^t K(x^t, x).

    With the Gaussian kernel this compares two kernel density estimates (up to a constant),
    one per class: each training point votes with weight K(x^t, x).
    """

    def __init__(self, kernel="gaussian", sigma=1.0, degree=2):
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree

    def fit(self, X, r):
        X = check_matrix(X, "X")
        self.r_ = check_binary_targets(r, X.shape[0])
        kernel_params(self.kernel, self.sigma, self.degree)
        self.X_ = X
        return self

    def decision_function(self, X):
        check_fitted(self, "X_")
        X = check_matrix(X, "X", n_features=self.X_.shape[1])
        params = kernel_params(self.kernel, self.sigma, self.degree)
        return kernel_matrix(X, self.X_, self.kernel, **params) @ self.r_

    def predict(self, X):
        return np.where(self.decision_function(X) >= 0, 1.0, -1.0)
