"""The from-scratch SVM (course_lib.svm.SVM) against libsvm (SVC) and LinearSVC over data shapes.

Two Gaussian classes in d dimensions, means +-delta/2 apart along a random direction, unit
variance: overlapping (delta = 1) or separated (delta = 8); for the polynomial kernel
((x.y + 1)^3; SVC: gamma = 1, coef0 = 1) each feature is then scaled to [-1, 1]. C = 1, default
tolerances (1e-3 for both SVMs), seed 0. Each fit is timed alternately with libsvm's (best of
`repeats`), with the BLAS threads numpy starts by default and then with one thread
(threadpoolctl). Printed per shape: our time and solver (SMO alone, or SMO then Newton), libsvm's
time, the ratio, the relative difference of the dual objectives L_d, and LinearSVC's time (hinge
loss, its own solver: no dual box, intercept penalised, so not the same optimum).
Run: `nice .venv/bin/python -m benchmarks svm_shapes` (a few minutes); `--full` for the whole
grid d = 2..100, n = 500..20,000 (an hour or more: libsvm itself takes minutes on some shapes).
"""

import sys
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVC, LinearSVC
from threadpoolctl import threadpool_limits

from benchmarks.bench_svm import best_times
from course_lib import kernels
from course_lib.smoothed_newton import polynomial_feature_count, polynomial_features
from course_lib.svm import SVM

QUICK = [  # kernel, d, n, delta
    ("linear", 2, 500, 1.0), ("linear", 2, 2000, 1.0), ("linear", 20, 2000, 1.0),
    ("linear", 20, 2000, 8.0), ("linear", 100, 5000, 1.0), ("linear", 2, 20_000, 8.0),
    ("linear", 100, 20_000, 8.0), ("polynomial", 2, 500, 1.0), ("polynomial", 5, 1000, 1.0),
    ("polynomial", 2, 5000, 1.0), ("polynomial", 20, 1000, 8.0), ("polynomial", 100, 2000, 1.0),
    ("polynomial", 100, 2000, 8.0),
]
FULL = [(kernel, d, n, delta) for kernel in ("linear", "polynomial") for d in (2, 5, 20, 100)
        for n in (500, 2000, 20_000) for delta in (1.0, 8.0)]


def two_classes(d, n, delta, scale, seed=0):
    rng = np.random.default_rng(seed)
    r = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    direction = rng.normal(size=d)
    X = rng.normal(size=(n, d)) + np.outer(r, direction / np.linalg.norm(direction)) * delta / 2
    if scale:
        X = 2.0 * (X - X.min(axis=0)) / (X.max(axis=0) - X.min(axis=0)) - 1.0
    return X, r


def dual_objective(coef, X_sv, kernel):
    """L_d = sum alpha - 1/2 ||sum alpha r phi(x)||^2 from coef = alpha r of the support vectors."""
    if kernel == "linear" or polynomial_feature_count(X_sv.shape[1], 3) <= 2000:
        Z = X_sv if kernel == "linear" else polynomial_features(X_sv, 3)
        w = Z.T @ coef
        return np.abs(coef).sum() - 0.5 * w @ w
    return np.abs(coef).sum() - 0.5 * coef @ kernels.polynomial(X_sv, X_sv, degree=3) @ coef


def row(kernel, d, n, delta):
    X, r = two_classes(d, n, delta, scale=kernel == "polynomial")
    sk = {"kernel": "linear"} if kernel == "linear" else {
        "kernel": "poly", "degree": 3, "gamma": 1.0, "coef0": 1.0}
    fits = [lambda: SVM(C=1.0, kernel=kernel, degree=3).fit(X, r), lambda: SVC(C=1.0, **sk).fit(X, r)]
    stopped = []

    def linear_svc():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ConvergenceWarning)
            model = LinearSVC(C=1.0, loss="hinge", max_iter=100_000).fit(X, r)
        stopped.extend(w for w in caught if issubclass(w.category, ConvergenceWarning))
        return model

    if kernel == "linear":
        fits.append(linear_svc)
    repeats = 2 if n <= 5000 else 1
    seconds, models = best_times(fits, repeats)
    ours, svc = models[0], models[1]
    ours_Ld = ours.dual_objective_
    svc_Ld = dual_objective(svc.dual_coef_[0], X[svc.support_], kernel)
    linear = f"{seconds[2]:8.3f} s{' (stopped at max_iter)' if stopped else ''}" if kernel == "linear" else ""
    print(f"  {kernel:10s} {d:4d} {n:6d} {'overlap' if delta < 4 else 'separated':9s} "
          f"{seconds[0]:8.3f} s {ours.solver_:6s} {seconds[1]:8.3f} s {seconds[0] / seconds[1]:6.2f}x "
          f"{(ours_Ld - svc_Ld) / abs(svc_Ld):+9.1e} {linear}", flush=True)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    grid = FULL if "--full" in argv else QUICK
    for threads in ("default", 1):
        print(f"\nC = 1, tol = 1e-3; BLAS threads: {threads}; time = best of the runs")
        print(f"  {'kernel':10s} {'d':>4s} {'n':>6s} {'classes':9s} {'ours':>10s} {'solver':6s} "
              f"{'libsvm':>10s} {'ratio':>7s} {'L_d diff':>9s} {'LinearSVC':>10s}")
        with threadpool_limits(limits=None if threads == "default" else threads):
            for shape in grid:
                row(*shape)


if __name__ == "__main__":
    main()
