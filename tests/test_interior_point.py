"""The interior-point method (course_lib.interior_point) and SVM.fit's use of it, against libsvm
(scikit-learn's SVC at a tight tolerance) on many seeds and shapes: the same dual objective,
support set and predictions, with the KKT conditions recomputed from alpha and the kernel."""

import numpy as np
import pytest
from sklearn.svm import SVC

from benchmarks.bench_svm_shapes import two_classes
from course_lib import kernels
from course_lib.interior_point import interior_point
from course_lib.smo import kkt_gap
from course_lib.smoothed_newton import polynomial_features
from course_lib.svm import SVM

SHAPES = [  # kernel, d, n, delta (1: overlapping, 8: separated), C
    ("linear", 2, 500, 1.0, 1.0), ("linear", 5, 1000, 1.0, 1.0), ("linear", 2, 300, 8.0, 1.0),
    ("linear", 20, 600, 1.0, 0.01), ("linear", 3, 400, 2.0, 100.0), ("polynomial", 2, 500, 1.0, 1.0),
    ("polynomial", 5, 600, 1.0, 1.0), ("polynomial", 3, 400, 8.0, 10.0), ("polynomial", 2, 400, 2.0, 0.1),
]
SEEDS = range(10)


def libsvm(X, r, C, kernel):
    """libsvm's multipliers (all N of them) at a tight tolerance, and the fitted SVC."""
    sk = {"kernel": "linear"} if kernel == "linear" else {
        "kernel": "poly", "degree": 3, "gamma": 1.0, "coef0": 1.0}
    svc = SVC(C=C, tol=1e-10, **sk).fit(X, r)
    alpha = np.zeros(len(r))
    alpha[svc.support_] = np.abs(svc.dual_coef_[0])
    return alpha, svc


def dual_objective(alpha, r, K):
    v = alpha * r
    return alpha.sum() - 0.5 * v @ K @ v


@pytest.mark.parametrize("kernel, d, n, delta, C", SHAPES)
def test_interior_point_reaches_libsvms_optimum_on_ten_seeds(kernel, d, n, delta, C):
    for seed in SEEDS:
        X, r = two_classes(d, n, delta, scale=kernel == "polynomial", seed=seed)
        Z = X if kernel == "linear" else polynomial_features(X, 3)
        result, w = interior_point(Z, r, C, tol=1e-3)
        alpha = result.alpha
        assert result.status == "converged", seed
        # feasible, with the multipliers at a bound exactly there, and w = sum alpha r z
        assert np.all(alpha >= 0) and np.all(alpha <= C)
        assert abs(alpha @ r) <= 1e-10 * max(1.0, alpha.sum())
        assert np.allclose(w, Z.T @ (alpha * r))
        # the KKT gap from alpha and the kernel itself, not from the method's E
        K = kernels.gram(X, kernel, **({} if kernel == "linear" else {"degree": 3}))
        assert kkt_gap(r - K @ (alpha * r), alpha, r, C) < 1e-3
        reference, svc = libsvm(X, r, C, kernel)
        ours_Ld, svc_Ld = dual_objective(alpha, r, K), dual_objective(reference, r, K)
        assert ours_Ld == pytest.approx(svc_Ld, rel=1e-7), seed
        # the same support vectors (libsvm's, up to the multipliers it leaves at rounding level)
        assert np.array_equal(alpha > 0, reference > 1e-9 * C), seed


@pytest.mark.parametrize("kernel, d, n, delta, C", SHAPES)
def test_svm_fit_matches_libsvm_on_ten_seeds(kernel, d, n, delta, C):
    for seed in SEEDS:
        X, r = two_classes(d, n, delta, scale=kernel == "polynomial", seed=seed)
        ours = SVM(C=C, kernel=kernel, degree=3).fit(X, r)
        reference, svc = libsvm(X, r, C, kernel)
        K = kernels.gram(X, kernel, **({} if kernel == "linear" else {"degree": 3}))
        # exact when the interior-point method finished; SMO stops at its KKT tolerance
        rel = 1e-7 if ours.solver_ == "interior_point" else 1e-5
        assert ours.dual_objective_ == pytest.approx(dual_objective(reference, r, K), rel=rel), seed
        assert np.mean(ours.predict(X) == svc.predict(X)) >= 0.995, seed


@pytest.mark.parametrize("kernel, d, n", [("linear", 2, 500), ("linear", 5, 1000),
                                          ("polynomial", 2, 500), ("polynomial", 5, 1000)])
def test_small_overlapping_shapes_go_to_the_interior_point_method_separated_stay_with_smo(kernel, d, n):
    X, r = two_classes(d, n, 1.0, scale=kernel == "polynomial")
    assert SVM(C=1.0, kernel=kernel, degree=3).fit(X, r).solver_ == "interior_point"
    X, r = two_classes(d, n, 8.0, scale=kernel == "polynomial")
    assert SVM(C=1.0, kernel=kernel, degree=3).fit(X, r).solver_ == "smo"


def test_a_step_budget_too_small_says_so():
    X, r = two_classes(5, 400, 1.0, scale=False)
    result, _ = interior_point(X, r, 1.0, max_steps=2)
    assert result.status == "max_iter" and result.n_iter == 2
