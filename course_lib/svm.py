"""The support vector machine of the slides (sections 6.3-6.6), trained in its dual form.

Training maximises the dual (solved from scratch by SMO, see course_lib.smo)

    L_d = sum_t alpha^t - 1/2 sum_t sum_s alpha^t alpha^s r^t r^s K(x^t, x^s)
    subject to sum_t alpha^t r^t = 0 and 0 <= alpha^t <= C,

with C = np.inf for the hard margin; prediction is h(x) = sum_t alpha^t r^t K(x^t, x) + w0.
"""

import numpy as np

from course_lib import kernels
from course_lib._threads import one_blas_thread
from course_lib.i18n import N_, _
from course_lib._validation import (
    finite_hyperparameters,
    check_binary_targets,
    check_fitted,
    check_int,
    check_matrix,
    check_positive,
    check_tolerance,
)
from course_lib.interior_point import interior_point
from course_lib.kernel_cache import KernelRows, diagonal
from course_lib.smo import _polish_stopped, bias, separable, smo
from course_lib.smoothed_newton import polynomial_feature_count, polynomial_features, smoothed_newton

# The hard margin (C = np.inf) exists only when the classes are separable in feature space; a
# margin below MIN_RELATIVE_MARGIN times the diameter of the data in feature space counts as none.
MIN_RELATIVE_MARGIN = 1e-3


# Up to this many points the whole Gram matrix (8 N^2 bytes, 18 MB) is computed at once, which
# is fastest; beyond, SMO usually needs the rows of a small share of the points only.
WHOLE_GRAM_MAX_N = 1500
# The soft-margin linear and polynomial kernels compute their rows on demand above this many
# points (below, the whole Gram matrix costs less than the cache's bookkeeping).
ROWS_MIN_N = 300

# The linear kernel, and the polynomial kernel while phi(x) has at most this many coordinates
# (and fewer than N), have an explicit feature map z = phi(x): when SMO has not converged after
# _smo_budget(N, D) steps, course_lib.interior_point solves the same dual by an interior-point
# method, 10-30 steps of O(N D^2) each, instead of SMO's steps in the thousands (and should it
# fail, course_lib.smoothed_newton by Newton's method on the primal in (w, w0)).
MAX_EXPLICIT_FEATURES = 200


def _smo_budget(n, D):
    """SMO steps tried first: easy problems (few support vectors) end sooner so than after
    the interior-point method's first steps. Those cost O(N D^2) each and an SMO step O(N) (with
    a fixed cost of about that of N = 1,000), so the fewer the features D, the sooner the
    interior-point method takes over: 100 + N D^2 / 20,000 steps (about a third of its time),
    at most min(2 N, 1,500, 30 D) + 200."""
    return min(min(2 * n, 1500, 30 * D) + 200, 100 + n * D * D // 20_000)


class SVM:
    """Soft- or hard-margin kernel SVM (the slides' dual), scikit-learn style.

    Parameters: C (> 0, np.inf for the hard margin), kernel ("linear", "polynomial", "gaussian",
    "sigmoid"), sigma (Gaussian width), degree (polynomial order q), tol (KKT tolerance of SMO),
    max_iter (SMO steps; None: max(10^7, 100 N)), cache_mb (memory for the Gram matrix: above
    WHOLE_GRAM_MAX_N points, or when 8 N^2 bytes exceed it, and above ROWS_MIN_N points for the
    soft-margin linear and polynomial kernels, its rows are computed on demand and the most recently used kept, see
    course_lib.kernel_cache; the hard margin always forms the whole matrix).

    Learned: alpha_ (one per training point, zeros included), support_ (indices with alpha > 0:
    SMO sets a multiplier that reaches a bound exactly to 0 or C), w0_, w_ (linear kernel only),
    dual_objective_ (L_d at the solution), n_iter_ (SMO steps, plus the interior-point or
    Newton steps when solver_ says so), solver_ ("smo"; "interior_point" when
    course_lib.interior_point finished a linear or low-degree polynomial SVM that SMO had not
    solved in _smo_budget(N, D) steps, "newton" when course_lib.smoothed_newton did), X_fit_, r_fit_.

    w0 as on the slides: the mean of r^t - sum_s alpha^s r^s K(x^s, x^t) over the support vectors
    on the margin (0 < alpha^t < C, where r^t h(x^t) = 1 exactly; with C = np.inf these are all the
    support vectors, the slides' set M). When every support vector is at the bound C, w0 is not
    determined by an equation; then it is the midpoint of the interval the KKT conditions allow,
    as libsvm does (see course_lib.smo.bias).
    """

    def __init__(self, C=1.0, kernel="linear", sigma=1.0, degree=2, tol=1e-3, max_iter=None,
                 cache_mb=200.0):
        self.C = C
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.tol = tol
        self.max_iter = max_iter
        self.cache_mb = cache_mb

    def _kernel_params(self):
        kernel = kernels.check_kernel(self.kernel)
        return kernel, kernels.kernel_params(kernel, self.sigma, self.degree)

    def _check_params(self):
        C = check_positive(self.C, "C", allow_inf=True)
        tol = check_tolerance(self.tol, "tol", N_("the KKT gap of alpha = 0 is 2, in units of the margin"))
        max_iter = None if self.max_iter is None else check_int(self.max_iter, "max_iter", 1)
        check_positive(self.cache_mb, "cache_mb")
        kernel, params = self._kernel_params()
        return C, tol, max_iter, kernel, params

    def shared_gram(self, X):
        """The whole Gram matrix of X for this SVM's kernel when fit would form it, else None:
        the multiclass reductions compute it once for all their binary problems."""
        C, _, _, kernel, params = self._check_params()
        X = check_matrix(X, "X")
        n = X.shape[0]
        if np.isinf(C) or (n <= WHOLE_GRAM_MAX_N and 8 * n**2 <= self.cache_mb * 1e6):
            return kernels.gram(X, kernel, **params)  # small: the whole Gram matrix at once
        return None

    @finite_hyperparameters(inf_ok=("C",))
    @one_blas_thread
    def fit(self, X, r, gram=None):
        """Solve the dual on (X, r), r in {-1, +1}; returns self. `gram`: the Gram matrix of X
        from shared_gram, when the caller already has it."""
        C, tol, max_iter, kernel, params = self._check_params()
        X = check_matrix(X, "X")
        r = check_binary_targets(r, X.shape[0], "r")
        if gram is None and kernel in ("linear", "polynomial") and np.isfinite(C) and X.shape[0] > ROWS_MIN_N:
            K = None  # rows of O(d) each: cheaper on demand than all N^2 at once
        else:
            K = self.shared_gram(X) if gram is None else gram
        if K is None:  # rows on demand, the most recently used kept within cache_mb (as libsvm)
            K = KernelRows(X, kernel, params, self.cache_mb)
        elif K.shape != (X.shape[0], X.shape[0]):
            raise ValueError(_("gram must be the {n} x {n} Gram matrix of X; got "
                               "{shape}.").format(n=X.shape[0], shape=K.shape))
        _check_C_resolvable(C, K)
        Z, w_feature, self.solver_ = None, None, "smo"
        if np.isinf(C):
            result = _solve_hard(K, r, tol, max_iter, kernel)
        elif kernel in ("linear", "polynomial"):
            Z = _explicit_features(X, kernel, params)
            budget = None if Z is None else _smo_budget(*Z.shape)
            if Z is None:  # many features: points are rarely at C, no path of C values needed
                result = smo(K, r, C, tol, max_iter)
            elif max_iter is not None and max_iter <= budget:
                result = _solve_along_C(K, r, C, tol, max_iter)
            else:
                result = _solve_along_C(K, r, C, tol, budget)
                if result.status == "max_iter":  # the sets may have settled by now
                    result = _polish_stopped(K, r, C, result, tol)
                if result.status == "max_iter":
                    result, w_feature, self.solver_ = _finish_explicitly(K, Z, r, C, tol, max_iter, budget)
        else:
            result = smo(K, r, C, tol, max_iter)
        if result.status == "max_iter":
            raise RuntimeError(
                _("SMO did not reach the tolerance tol={tol:g} within max_iter={n_iter} steps "
                  "(KKT gap {gap:.3g}): raise max_iter or tol.").format(
                    tol=tol, n_iter=result.n_iter, gap=result.gap)
            )
        alpha = result.alpha
        self.alpha_ = alpha
        self.support_ = np.flatnonzero(alpha > 0)
        free = (alpha > 0) & (alpha < C)
        self.w0_ = bias(alpha, result.E, r, C, free)
        v = alpha[self.support_] * r[self.support_]
        if Z is not None:  # L_d = sum alpha - 1/2 ||w||^2 with w = sum alpha r phi(x)
            w_feature = Z[self.support_].T @ v if w_feature is None else w_feature
            self.dual_objective_ = float(alpha.sum() - 0.5 * w_feature @ w_feature)
        else:
            K_sv = K[np.ix_(self.support_, self.support_)]
            self.dual_objective_ = float(alpha.sum() - 0.5 * v @ K_sv @ v)
        self.n_iter_ = result.n_iter
        self.X_fit_ = X
        self.n_features_in_ = X.shape[1]
        self.r_fit_ = r
        self._kernel_name, self._params = kernel, params
        return self

    @property
    def w_(self):
        """w = sum_t alpha^t r^t x^t (only the linear kernel has w in input space)."""
        check_fitted(self, "alpha_")
        if self._kernel_name != "linear":
            raise AttributeError(
                _("w_ exists only for kernel='linear': with the {kernel} kernel w lives in "
                  "the feature space phi(x); use decision_function, or alpha_ and support_.").format(
                    kernel=self._kernel_name)
            )
        return (self.alpha_ * self.r_fit_) @ self.X_fit_

    def decision_function(self, X):
        """h(x) = sum_t alpha^t r^t K(x^t, x) + w0, summed over the support vectors."""
        check_fitted(self, "alpha_")
        X = check_matrix(X, "X", n_features=self.X_fit_.shape[1])
        sv = self.support_
        if sv.size == 0:  # only when tol >= 2 let SMO stop before its first step
            return np.full(X.shape[0], self.w0_)
        weights = self.alpha_[sv] * self.r_fit_[sv]
        return kernels.kernel_sum(X, self.X_fit_[sv], weights, self._kernel_name, **self._params) + self.w0_

    def predict(self, X):
        """The class in {-1, +1}: the sign of h(x) (h = 0 is sent to +1)."""
        return np.where(self.decision_function(X) >= 0, 1.0, -1.0)

    def slacks(self, X, r):
        """xi^t = max(0, 1 - r^t h(x^t)): 0 outside the margin, in (0, 1) inside it on the right
        side, > 1 when misclassified."""
        check_fitted(self, "alpha_")
        X = check_matrix(X, "X", n_features=self.X_fit_.shape[1])
        r = _check_r(r, X)
        return np.maximum(0.0, 1.0 - r * self.decision_function(X))


# SMO's tolerance is absolute on E^t = r^t - sum_s alpha^s r^s K(x^s, x^t); with alpha^t up to C,
# float64 keeps about 16 digits of terms as large as C max_t K(x^t, x^t), so beyond this bound the
# gap test is below rounding and the solver could stop anywhere.
MAX_C_SCALE = 1e12


def _check_C_resolvable(C, K):
    """Refuse a finite C that double precision cannot resolve on this Gram matrix."""
    scale = max(float(np.max(np.abs(diagonal(K)))), 1.0)
    if np.isfinite(C) and C * scale > MAX_C_SCALE:
        raise ValueError(
            _("C={C:g} is too large for this data: C max_t K(x^t, x^t) = {product:.3g} exceeds "
              "{limit:g}, beyond what double precision resolves. Lower C (the margin stops "
              "changing long before), or use C=np.inf for the hard margin if the classes are "
              "separable, or rescale X.").format(C=C, product=C * scale, limit=MAX_C_SCALE)
        )


def _check_r(r, X):
    """Targets in {-1, +1} of the right length; one class is fine when measuring slacks."""
    r = np.asarray(r, dtype=float)
    if r.shape != (X.shape[0],) or not np.all(np.isin(r, (-1.0, 1.0))):
        raise ValueError(_("r must be a vector of {n} values in {{-1, +1}}; got {r!r}.").format(
                             n=X.shape[0], r=r))
    return r


# Below this C max_t K(x^t, x^t), SMO from alpha = 0 takes fewer steps than the path of C values.
PATH_MIN_C_SCALE = 1e3


def _solve_along_C(K, r, C, tol, max_iter):
    """SMO along a path of C values: C0 = C / 10^m (the first with C0 max_t K(x^t, x^t) <= 1),
    then 10 C0, ..., C, each started from the previous alpha times 10 (used for the linear
    kernel, and the polynomial kernel while phi(x) has few coordinates, when
    C max_t K(x^t, x^t) > PATH_MIN_C_SCALE; with many coordinates the classes are rarely
    overlapping in feature space and the path only adds steps: 17,000 instead of 4,000 for
    q = 3, d = 100, N = 2,000).

    In their finite-dimensional feature spaces overlapping classes stay overlapping: many
    multipliers sit at the bound C and w grows almost in proportion to C, so the scaled solution
    is nearly optimal for the next C. Started from 0, SMO would need a number of steps growing
    with C (millions at C = 10^5 for the linear kernel, thousands along the path)."""
    C_k = C
    if C * np.max(diagonal(K)) <= PATH_MIN_C_SCALE:  # small C: straight from 0 is quicker
        return smo(K, r, C, tol, max_iter)
    while C_k * np.max(diagonal(K)) > 1.0:
        C_k /= 10.0
    result = smo(K, r, C_k, tol, max_iter)
    n_iter = result.n_iter
    while C_k < C and result.status == "converged":
        alpha = result.alpha * 10.0 if C_k * 10.0 <= C else result.alpha * (C / C_k)
        C_k = min(C_k * 10.0, C)
        steps = None if max_iter is None else max_iter - n_iter
        if steps == 0:
            result.status = "max_iter"
            break
        result = smo(K, r, C_k, tol, steps, alpha=np.minimum(alpha, C_k))
        n_iter += result.n_iter
    result.n_iter = n_iter
    return result


def _explicit_features(X, kernel, params):
    """phi(X) when it has few coordinates: X for the linear kernel, polynomial_features for the
    polynomial kernel with at most MAX_EXPLICIT_FEATURES (and fewer than N) of them; else None."""
    if kernel == "linear":
        return X
    count = polynomial_feature_count(X.shape[1], params["degree"])
    if kernel == "polynomial" and count <= min(MAX_EXPLICIT_FEATURES, X.shape[0] - 1):
        return polynomial_features(X, params["degree"])
    return None


def _finish_explicitly(K, Z, r, C, tol, max_iter, budget):
    """After `budget` SMO steps without convergence: course_lib.interior_point on the features
    Z, then should it not reach tol, course_lib.smoothed_newton; should neither (not seen in the
    tests), SMO runs again to max_iter. Returns (result, w in feature space or None, solver name)."""
    for solver, name in ((interior_point, "interior_point"), (smoothed_newton, "newton")):
        result, w = solver(Z, r, C, tol)
        result.n_iter += budget
        if result.status == "converged":
            return result, w, name
    return _solve_along_C(K, r, C, tol, max_iter), None, "smo"


def _solve_hard(K, r, tol, max_iter, kernel):
    """SMO with C = np.inf, raising ValueError when the data is not separable in feature space.

    How non-separability is detected. With C = np.inf the dual is unbounded exactly when the
    classes are not separable (no KKT point exists: SMO's KKT gap stays >= 2, since a gap < 2
    gives r h(x) > 0 for every point), and SMO would never stop. So SMO runs in chunks of steps;
    between chunks, course_lib.smo.separable measures the distance between the convex hulls of
    the two classes in feature space (twice the hard margin), also by chunks. A margin below
    MIN_RELATIVE_MARGIN times the diameter of the data in feature space raises ValueError (the
    hard margin would need huge alphas and mean nothing numerically); a larger one lets SMO finish.
    SMO also stops, with the same error, if sum alpha passes 2 / gamma_min^2: along its path
    (where L_d >= 0) sum alpha <= 2 / gamma^2 for data separable with margin gamma.
    """
    d = np.diag(K)
    diameter2 = max(float(np.max(d[:, None] + d[None, :] - 2.0 * K)), np.finfo(float).tiny)
    limit = 2.0 / (MIN_RELATIVE_MARGIN**2 * diameter2)
    chunk = 20 * r.shape[0] + 1000
    left = max(10_000_000, 100 * r.shape[0]) if max_iter is None else max_iter
    result = smo(K, r, np.inf, tol, min(chunk, left), alpha_sum_limit=limit)
    n_iter, verdict, lam = result.n_iter, None, None
    while result.status == "max_iter" and n_iter < left:
        if verdict is None:
            verdict, lam = separable(K, r, 2 * MIN_RELATIVE_MARGIN, max_iter=chunk, lam=lam)
            if verdict is False:
                break
        steps = left - n_iter if verdict else min(chunk, left - n_iter)
        result = smo(K, r, np.inf, tol, steps, alpha=result.alpha, alpha_sum_limit=limit)
        n_iter += result.n_iter
    result.n_iter = n_iter
    if verdict is False or result.status == "alpha_sum_limit":
        raise ValueError(_not_separable_message(kernel, result))
    return result


def _not_separable_message(kernel, result):
    return _(
        "The data is not linearly separable in the feature space of the {kernel} kernel (no "
        "separating hyperplane there has a margin above {margin:g} times the data's diameter in that "
        "space), so the hard margin (C=np.inf) has no usable solution: use a finite C (soft margin). "
        "[Detected after {n_iter} SMO steps.]"
    ).format(kernel=kernel, margin=MIN_RELATIVE_MARGIN, n_iter=result.n_iter)
