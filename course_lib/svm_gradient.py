"""The SVM as hinge-loss minimisation, trained by gradient descent in the kernel space
(slides 6.8), the loss criteria it is compared with, and the all-alpha-equal-one kernel
density classifier (slides 6.6).

h(x) = sum_s alpha^s r^s K(x^s, x) + w0
E_hinge(alpha, w0 | X) = sum_{x^t in Y} (1 - r^t h(x^t)) + lambda/2 sum_s (alpha^s)^2,
Y = {x^t : r^t h(x^t) < 1}.

lambda/2 sum_s (alpha^s)^2 is not the SVM's 1/2 ||w||^2 = 1/2 sum_s sum_t alpha^s alpha^t r^s r^t
K(x^s, x^t): this is a different problem, whose alphas are not sparse (`alpha_of_multipliers`).
"""

import numpy as np

from course_lib.i18n import N_, _
from course_lib._validation import (
    finite_hyperparameters,
    finite_arguments,
    check_binary_targets,
    check_fitted,
    check_int,
    check_steps,
    check_matrix,
    check_non_negative,
    check_positive,
    check_tolerance,
)
from course_lib.kernels import gram, kernel_matrix, kernel_params, kernel_sum


# Loss criteria as functions of the margin y r, with y = h(x) and r in {-1, +1} (slides 6.8).


@finite_arguments
def zero_one_loss(margin):
    """1 when the point is misclassified (y r < 0), else 0."""
    return (np.asarray(margin, dtype=float) < 0).astype(float)


@finite_arguments
def quadratic_loss(margin):
    """(r - y)^2 = (1 - y r)^2 since r^2 = 1: least squares, which also punishes y r > 1."""
    return (1.0 - np.asarray(margin, dtype=float)) ** 2


@finite_arguments
def cross_entropy_loss(margin):
    """log2(1 + exp(-y r)): the logistic (cross-entropy) loss, scaled to equal 1 at y r = 0."""
    return np.logaddexp(0.0, -np.asarray(margin, dtype=float)) / np.log(2.0)


@finite_arguments
def hinge_loss(margin):
    """max(1 - y r, 0): zero only beyond the margin (y r >= 1)."""
    return np.maximum(1.0 - np.asarray(margin, dtype=float), 0.0)


LOSS_CRITERIA = {
    "0/1": zero_one_loss,
    "quadratic": quadratic_loss,
    "cross-entropy": cross_entropy_loss,
    "hinge": hinge_loss,
}


@finite_arguments(shapes={"alpha": "n", "G": "n n", "r": "n"})
def hinge_error(alpha: np.ndarray, w0: float, G: np.ndarray, r: np.ndarray, lam: float):
    """E_hinge(alpha, w0) for the Gram matrix G[s, t] = K(x^s, x^t) of the training points."""
    return _hinge_error(alpha, w0, G, r, lam)


def _hinge_error(alpha, w0, G, r, lam):
    """hinge_error without the checks of its arguments, for loops over epochs whose arguments
    were checked once before the loop."""
    h = G @ (alpha * r) + w0
    violated = r * h < 1
    return float(np.sum(1.0 - r[violated] * h[violated]) + 0.5 * lam * alpha @ alpha)


@finite_arguments(shapes={"alpha": "n", "G": "n n", "r": "n"})
def hinge_gradient(alpha: np.ndarray, w0: float, G: np.ndarray, r: np.ndarray, lam: float):
    """(dE/dalpha, dE/dw0) where E is differentiable (no r^t h(x^t) exactly 1):

    dE/dalpha^s = -r^s sum_{t in Y} r^t K(x^s, x^t) + lambda alpha^s,   dE/dw0 = -sum_{t in Y} r^t.
    """
    return _hinge_gradient(alpha, w0, G, r, lam)


def _hinge_gradient(alpha, w0, G, r, lam):
    """hinge_gradient without the checks of its arguments (each costs more than the formula
    on 40 points), for loops over epochs whose arguments were checked once before the loop."""
    h = G @ (alpha * r) + w0
    r_violated = np.where(r * h < 1, r, 0.0)
    return -r * (G @ r_violated) + lam * alpha, -float(r_violated.sum())


@finite_arguments
def step_size(eta: float, lam: float, k: int):
    """eta_k = min(eta, 1 / (lambda (k + 1))) at epoch k = 0, 1, ... (eta when lambda = 0).

    eta_k lambda <= 1, so the regulariser's part of the step, alpha <- (1 - eta_k lambda) alpha,
    only shrinks alpha and never flips it past 0; and sum eta_k = inf, sum eta_k^2 < inf, the
    classic conditions under which the projected subgradient method converges to the optimum
    (the "Pegasos" step of Shalev-Shwartz et al., 2007). A constant eta with eta lambda >= 1
    overshoots every epoch instead: with lambda = 100 and eta = 0.02 the alphas flip between
    0 and a positive value forever.
    """
    if not (eta > 0 and lam >= 0 and k >= 0):  # kinds checked at the door, ranges here
        raise ValueError(_("step_size needs eta > 0, lam >= 0 and an epoch k >= 0; got "
                           "eta={eta!r}, lam={lam!r}, k={k!r}.").format(eta=eta, lam=lam, k=k))
    return eta if lam == 0 else min(eta, 1.0 / (lam * (k + 1)))


@finite_arguments(shapes={"mu": "n", "G": "n n", "r": "n"})
def hinge_dual(mu: np.ndarray, G: np.ndarray, r: np.ndarray, lam: float):
    """D(mu) = sum_t mu^t - ||max(0, A mu)||^2 / (2 lambda),  A[s, t] = r^s r^t K(x^s, x^t),

    the dual of min E_hinge (alpha >= 0): for every mu with 0 <= mu^t <= 1 and sum_t mu^t r^t = 0,
    D(mu) <= E_hinge(alpha, w0) for all alpha >= 0 and w0 (weak duality). With lambda = 0 the
    bound is D = 0 (mu = 0). The alpha that goes with mu is alpha_of_multipliers(mu, G, r, lam).
    """
    if lam == 0:
        return 0.0
    return float(np.sum(mu) - np.sum(np.maximum(0.0, (r[:, None] * G * r) @ mu) ** 2) / (2 * lam))


@finite_arguments(shapes={"mu": "n", "G": "n n", "r": "n"})
def alpha_of_multipliers(mu: np.ndarray, G: np.ndarray, r: np.ndarray, lam: float):
    """alpha^s = max(0, r^s sum_t mu^t r^t K(x^s, x^t)) / lambda: the alpha that minimises the
    Lagrangian for multipliers mu (mu^t = 1 for a point inside the margin, 0 beyond it)."""
    check_positive(lam, "lam")
    return np.maximum(0.0, (r[:, None] * G * r) @ mu) / lam


def _feasible_multipliers(mu, r):
    """Scale the larger class's mu down so that sum_t mu^t r^t = 0 (0 <= mu <= 1 kept)."""
    mu = np.clip(mu, 0.0, 1.0)
    positive, negative = mu[r > 0].sum(), mu[r < 0].sum()
    if positive > negative:
        return np.where(r > 0, mu * (negative / positive), mu)
    if negative > positive:
        return np.where(r < 0, mu * (positive / negative), mu)
    return mu


class KernelHingeGD:
    """Kernel SVM trained by (batch) gradient descent on E_hinge, the slides' update:

    Delta alpha^t = -eta_k dE/dalpha^t,
    alpha^t <- 0 if alpha^t + Delta alpha^t < 0, else alpha^t + Delta alpha^t;
    Delta w0 = -eta_k dE/dw0,  w0 <- w0 + Delta w0,

    with the step eta_k = min(eta, 1 / (lambda (k + 1))) of `step_size`, which never overshoots
    and converges. How close to the optimum it got is measured, not assumed: `duality_gap_` is
    E_hinge(alpha, w0) - D(mu) >= E_hinge - min E_hinge, with mu the fraction of the last half
    of the epochs (weighted by eta_k) that each point spent inside the margin (`hinge_dual`);
    `converged_` says whether the gap is at most `tol` times max(1, E_hinge).
    `alpha_history_` (n_epochs + 1, N), `w0_history_`, `error_history_` and `eta_history_`
    record every epoch.
    """

    def __init__(
        self, kernel="gaussian", sigma=1.0, degree=2, lam=1.0, eta=0.05, n_epochs=2000, tol=1e-2
    ):
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.lam = lam
        self.eta = eta
        self.n_epochs = n_epochs
        self.tol = tol

    def _params(self):
        return kernel_params(self.kernel, self.sigma, self.degree)

    @finite_hyperparameters
    def fit(self, X, r):
        X = check_matrix(X, "X")
        r = check_binary_targets(r, X.shape[0])
        params = self._params()
        lam = check_non_negative(self.lam, "lam")
        eta = check_positive(self.eta, "eta")
        n_epochs = check_int(self.n_epochs, "n_epochs", minimum=0)
        tol = check_tolerance(self.tol, "tol", N_("the gap is at most the hinge error it is relative to"))
        check_steps(n_epochs, "n_epochs", X.shape[0] ** 2)  # an epoch is a product G alpha
        G = gram(X, self.kernel, **params)
        alpha, w0 = np.zeros(X.shape[0]), 0.0
        alphas, w0s, errors, etas = [alpha.copy()], [w0], [hinge_error(alpha, w0, G, r, lam)], []
        inside, weight = np.zeros(X.shape[0]), 0.0
        for k in range(n_epochs):
            eta_k = step_size(eta, lam, k)
            if k >= n_epochs // 2:  # average the margin indicators over the last half
                inside += eta_k * (r * (G @ (alpha * r) + w0) < 1)
                weight += eta_k
            grad_alpha, grad_w0 = _hinge_gradient(alpha, w0, G, r, lam)  # arguments checked above
            alpha = alpha - eta_k * grad_alpha
            alpha[alpha < 0] = 0.0
            w0 = w0 - eta_k * grad_w0
            alphas.append(alpha.copy())
            w0s.append(w0)
            errors.append(_hinge_error(alpha, w0, G, r, lam))
            etas.append(eta_k)
        mu = _feasible_multipliers(inside / weight, r) if weight > 0 else np.zeros_like(r)
        self.X_, self.r_ = X, r
        self.alpha_, self.w0_ = alpha, w0
        self.support_ = np.flatnonzero(alpha > 0)
        self.alpha_history_ = np.array(alphas)
        self.w0_history_ = np.array(w0s)
        self.error_history_ = np.array(errors)
        self.eta_history_ = np.array(etas)
        self.multipliers_ = mu
        self.dual_objective_ = hinge_dual(mu, G, r, lam)
        self.duality_gap_ = max(0.0, errors[-1] - self.dual_objective_)
        self.converged_ = bool(self.duality_gap_ <= tol * max(1.0, errors[-1]))
        return self

    def decision_function(self, X):
        """h(x) = sum_s alpha^s r^s K(x^s, x) + w0."""
        check_fitted(self, "alpha_")
        X = check_matrix(X, "X", n_features=self.X_.shape[1])
        return kernel_sum(X, self.X_, self.alpha_ * self.r_, self.kernel, **self._params()) + self.w0_

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

    @finite_hyperparameters
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
        return kernel_sum(X, self.X_, self.r_, self.kernel, **params)

    def predict(self, X):
        return np.where(self.decision_function(X) >= 0, 1.0, -1.0)
