"""CPU time of the from-scratch SVM (course_lib.svm.SVM) against libsvm (SVC) on small shapes.

The shapes of bench_svm_shapes where the fixed costs of a fit weigh most (N = 500-1,000 points,
d = 2-20), timed with time.process_time (the CPU time of this process, which a loaded machine
changes less than the wall time), one BLAS thread, each fit alternating with libsvm's, best of
5. Printed per shape: our time, solver and steps (SMO steps, plus Newton steps when the solver
is "newton"), libsvm's time and n_iter_, the ratio, and the relative difference of the dual
objectives L_d.
Run: `.venv/bin/python -m benchmarks svm_cpu` (under a minute).
"""

import os
import time

import numpy as np
from sklearn.svm import SVC
from threadpoolctl import threadpool_limits

from benchmarks.bench_svm_shapes import dual_objective, two_classes
from course_lib.svm import SVM

SHAPES = [  # kernel, d, n, delta (1: overlapping, 8: separated)
    ("linear", 2, 500, 1.0), ("linear", 2, 500, 8.0), ("linear", 5, 1000, 1.0), ("linear", 5, 1000, 8.0),
    ("polynomial", 2, 500, 1.0), ("polynomial", 2, 500, 8.0), ("polynomial", 5, 1000, 1.0),
    ("polynomial", 5, 1000, 8.0), ("polynomial", 20, 1000, 8.0),
]
REPEATS = 5


def cpu_seconds(fit):
    start = time.process_time()
    model = fit()
    return time.process_time() - start, model


def row(kernel, d, n, delta):
    X, r = two_classes(d, n, delta, scale=kernel == "polynomial")
    sk = {"kernel": "linear"} if kernel == "linear" else {
        "kernel": "poly", "degree": 3, "gamma": 1.0, "coef0": 1.0}
    best = [np.inf, np.inf]
    for _ in range(REPEATS):
        seconds, ours = cpu_seconds(lambda: SVM(C=1.0, kernel=kernel, degree=3).fit(X, r))
        best[0] = min(best[0], seconds)
        seconds, svc = cpu_seconds(lambda: SVC(C=1.0, **sk).fit(X, r))
        best[1] = min(best[1], seconds)
    svc_Ld = dual_objective(svc.dual_coef_[0], X[svc.support_], kernel)
    print(f"  {kernel:10s} {d:3d} {n:5d} {'overlap' if delta < 4 else 'separated':9s} "
          f"{best[0] * 1e3:7.1f} ms {ours.solver_:6s} {ours.n_iter_:5d}   {best[1] * 1e3:6.1f} ms "
          f"{svc.n_iter_[0]:5d}   {best[0] / best[1]:5.2f}x {(ours.dual_objective_ - svc_Ld) / abs(svc_Ld):+9.1e}",
          flush=True)


def main(argv=None):
    print(f"C = 1, tol = 1e-3, one BLAS thread, CPU time, best of {REPEATS} alternating with libsvm; "
          f"load {os.getloadavg()[0]:.1f}")
    print(f"  {'kernel':10s} {'d':>3s} {'n':>5s} {'classes':9s} {'ours':>10s} {'solver':6s} {'steps':>5s}"
          f"   {'libsvm':>9s} {'steps':>5s}   {'ratio':>6s} {'L_d diff':>9s}")
    with threadpool_limits(limits=1):
        for shape in SHAPES:
            row(*shape)
    print(f"  load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
