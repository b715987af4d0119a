"""Newton's method on the smoothed primal (course_lib.smoothed_newton) against libsvm's dual
optimum and the KKT conditions recomputed from alpha alone, on several shapes of data."""

import numpy as np
import pytest
from sklearn.datasets import make_blobs
from sklearn.svm import SVC

from course_lib import kernels
from course_lib.smo import kkt_gap
from course_lib.smoothed_newton import polynomial_feature_count, polynomial_features, smoothed_newton
from course_lib.svm import SVM


def blobs(n, d, spread, seed, scale=False):
    """Two Gaussian blobs in d dimensions: overlapping for a large spread, separable for a small one;
    scaled to [-1, 1] per feature when `scale` (as the polynomial kernel wants)."""
    X, y = make_blobs(n_samples=n, n_features=d, centers=2, cluster_std=spread, random_state=seed)
    if scale:
        X = 2.0 * (X - X.min(axis=0)) / (X.max(axis=0) - X.min(axis=0)) - 1.0
    return X, np.where(y == 1, 1.0, -1.0)


def dual_objective(alpha, r, X, kernel, params):
    """L_d = sum alpha - 1/2 v^T K v with v = alpha r, from the kernel itself."""
    v = alpha * r
    return alpha.sum() - 0.5 * v @ kernels.gram(X, kernel, **params) @ v


def libsvm(X, r, C, kernel, params):
    """libsvm's dual objective at a tight tolerance and its decisions."""
    sk = {"kernel": "linear"} if kernel == "linear" else {
        "kernel": "poly", "degree": params["degree"], "gamma": 1.0, "coef0": 1.0}
    svc = SVC(C=C, tol=1e-8, **sk).fit(X, r)
    alpha = np.zeros(len(r))
    alpha[svc.support_] = np.abs(svc.dual_coef_[0])
    return dual_objective(alpha, r, X, kernel, params), svc


@pytest.mark.parametrize("d", [1, 2, 4])
@pytest.mark.parametrize("q", [1, 2, 3, 4])
def test_polynomial_features_give_the_polynomial_kernel(d, q):
    X = np.random.default_rng(d + 10 * q).uniform(-1.0, 1.0, size=(7, d))
    Z = polynomial_features(X, q)
    assert Z.shape == (7, polynomial_feature_count(d, q))
    assert np.allclose(Z @ Z.T, kernels.polynomial(X, X, degree=q), rtol=1e-12, atol=1e-12)


SHAPES = [  # n, d, spread, C, kernel, degree: overlapping and separable, small and large C
    (400, 2, 4.0, 1.0, "linear", 1), (600, 20, 8.0, 1.0, "linear", 1),
    (500, 50, 2.0, 0.1, "linear", 1), (300, 5, 4.0, 100.0, "linear", 1),
    (800, 100, 0.5, 1.0, "linear", 1), (500, 3, 3.0, 1.0, "polynomial", 2),
    (600, 5, 8.0, 1.0, "polynomial", 3), (400, 2, 1.0, 10.0, "polynomial", 3),
]


@pytest.mark.parametrize("n, d, spread, C, kernel, q", SHAPES)
def test_newton_reaches_libsvms_optimum_with_the_kkt_gap_below_tol(n, d, spread, C, kernel, q):
    X, r = blobs(n, d, spread, seed=n + d, scale=kernel == "polynomial")
    params = {} if kernel == "linear" else {"degree": q}
    Z = X if kernel == "linear" else polynomial_features(X, q)
    result, w = smoothed_newton(Z, r, C, tol=1e-3)
    alpha = result.alpha
    assert result.status == "converged"
    # feasible: in the box, sum alpha r = 0, and w = sum alpha r z
    assert np.all(alpha >= 0) and np.all(alpha <= C)
    assert abs(alpha @ r) <= 1e-10 * max(1.0, alpha.sum())
    assert np.allclose(w, Z.T @ (alpha * r))
    # the KKT gap recomputed from alpha and the kernel itself, not from the solver's E
    E = r - kernels.gram(X, kernel, **params) @ (alpha * r)
    assert kkt_gap(E, alpha, r, C) < 1e-3
    reference, _ = libsvm(X, r, C, kernel, params)
    assert dual_objective(alpha, r, X, kernel, params) == pytest.approx(reference, rel=1e-4)


@pytest.mark.parametrize("n, d, spread, C, kernel, q", SHAPES)
def test_svm_by_either_solver_matches_libsvm(n, d, spread, C, kernel, q):
    """SVM.fit: SMO alone on the easy shapes, SMO then the interior-point method on the others."""
    X, r = blobs(n, d, spread, seed=n + d, scale=kernel == "polynomial")
    params = {} if kernel == "linear" else {"degree": q}
    ours = SVM(C=C, kernel=kernel, degree=q).fit(X, r)
    reference, svc = libsvm(X, r, C, kernel, params)
    assert ours.dual_objective_ == pytest.approx(reference, rel=1e-4)
    assert ours.dual_objective_ == pytest.approx(
        dual_objective(ours.alpha_, r, X, kernel, params), rel=1e-10)
    assert np.mean(ours.predict(X) == svc.predict(X)) >= 0.99


@pytest.mark.parametrize("n, d, spread, C", [(400, 2, 4.0, 1.0), (600, 20, 8.0, 1.0),
                                              (300, 5, 4.0, 100.0)])
def test_the_hard_shapes_leave_smo_with_no_duality_gap(n, d, spread, C):
    """SMO hands them to the interior-point method (course_lib.interior_point), Newton's method
    being its fallback."""
    X, r = blobs(n, d, spread, seed=n + d)
    ours = SVM(C=C).fit(X, r)
    assert ours.solver_ == "interior_point"
    hinge = np.maximum(0.0, 1.0 - r * (X @ ours.w_ + ours.w0_)).sum()
    primal = 0.5 * ours.w_ @ ours.w_ + C * hinge
    assert primal == pytest.approx(ours.dual_objective_, rel=1e-4)


def test_a_small_max_iter_still_stops_smo_there():
    X, r = blobs(600, 20, 8.0, seed=620)
    with pytest.raises(RuntimeError, match="max_iter"):
        SVM(C=1.0, max_iter=50).fit(X, r)
