"""From-scratch SMO (course_lib.svm.SVM) against scikit-learn's libsvm (SVC), in the same run.

Gaussian-kernel SVM, sigma = 1 (SVC: gamma = 1 / sigma^2 = 1), C = 1, tol = 1e-3 for both, on
200 and 1,000 points of overlapping 2-D data (course_lib.data.overlapping, seed 0). Each fit is
timed several times, alternating with libsvm, and the best time kept (the machine is shared).
Both times include the kernel evaluations (ours builds the whole Gram matrix first; libsvm
computes columns on demand, with a cache). Also checks that both reach the same dual objective.
Run: `nice .venv/bin/python -m benchmarks svm`.
"""

import time

import numpy as np
from sklearn.svm import SVC

from course_lib import kernels
from course_lib.data import overlapping
from course_lib.svm import SVM

SIGMA, C = 1.0, 1.0


def best_times(fits, repeats):
    """The fastest of `repeats` calls of each fit(), in seconds, and the last fitted models.
    The calls alternate between the fits so that both see the same load."""
    best, models = [np.inf] * len(fits), [None] * len(fits)
    for _ in range(repeats):
        for k, fit in enumerate(fits):
            start = time.perf_counter()
            models[k] = fit()
            best[k] = min(best[k], time.perf_counter() - start)
    return best, models


def libsvm_dual_objective(svc, X):
    coef = svc.dual_coef_[0]  # alpha^t r^t of the support vectors
    K = kernels.gaussian(X[svc.support_], X[svc.support_], sigma=SIGMA)
    return np.abs(coef).sum() - 0.5 * coef @ K @ coef


def compare(n, repeats):
    X, r = overlapping(n, seed=0)
    (ours_s, svc_s), (ours, svc) = best_times(
        [
            lambda: SVM(C=C, kernel="gaussian", sigma=SIGMA).fit(X, r),
            lambda: SVC(C=C, kernel="rbf", gamma=1 / SIGMA**2).fit(X, r),
        ],
        repeats,
    )
    agree = np.mean(ours.predict(X) == svc.predict(X))
    print(
        f"  N={n:5d}  ours {ours_s * 1e3:7.2f} ms ({ours.n_iter_:5d} SMO steps)   "
        f"libsvm {svc_s * 1e3:6.2f} ms   ours/libsvm = {ours_s / svc_s:5.1f}x   "
        f"L_d {ours.dual_objective_:.4f} vs {libsvm_dual_objective(svc, X):.4f}   "
        f"same predictions {agree:.1%}"
    )
    return ours_s, svc_s


def main():
    print(f"Gaussian SVM, sigma={SIGMA}, C={C}, overlapping 2-D data (best of several runs)")
    compare(200, repeats=20)
    compare(1000, repeats=7)


if __name__ == "__main__":
    main()
