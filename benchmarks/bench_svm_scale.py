"""How the from-scratch SVM scales with N, against libsvm (SVC) and LinearSVC, in the same run.

Two moons (scikit-learn's make_moons, noise 0.2, seed 0), C = 1, tol = 1e-3:
- Gaussian kernel, sigma = 1 (SVC: gamma = 1), N = 500 ... 20,000: ours with its default
  200 MB row cache (above N = 5,000 the Gram matrix no longer fits and rows are computed on
  demand) and SVC with its default 200 MB cache;
- linear kernel at N = 2,000 and polynomial degree 3 ((x.y + 1)^3; SVC: gamma = 1, coef0 = 1)
  at N = 1,000, and LinearSVC (a linear solver, no dual box) for the linear rows.
Each fit runs in a fresh process so that its peak memory (resident set, including the Python
interpreter, NumPy and scikit-learn, about 130 MB) is its own; times are the best of a few fits
in that process. Printed:
time, peak memory, the ratio to libsvm, the relative gap of the dual objectives and the share
of equal predictions.
Run: `nice .venv/bin/python -m benchmarks svm_scale` (several minutes; `--quick` stops at 5,000).
"""

import json
import subprocess
import sys

import numpy as np

WORKER = r"""
import json, resource, sys, time
import numpy as np
from sklearn.datasets import make_moons
from sklearn.svm import SVC, LinearSVC
from course_lib import kernels
from course_lib.svm import SVM

which, kernel, n, repeats = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
X, y = make_moons(n_samples=n, noise=0.2, random_state=0)
r = np.where(y == 1, 1.0, -1.0)
params = {"linear": {}, "gaussian": {"sigma": 1.0}, "polynomial": {"degree": 3}}[kernel]
sk = {"linear": {"kernel": "linear"}, "gaussian": {"kernel": "rbf", "gamma": 1.0},
      "polynomial": {"kernel": "poly", "degree": 3, "gamma": 1.0, "coef0": 1.0}}[kernel]
def fit():
    if which == "ours":
        return SVM(C=1.0, kernel=kernel, tol=1e-3, **params).fit(X, r)
    if which == "svc":
        return SVC(C=1.0, tol=1e-3, **sk).fit(X, r)
    return LinearSVC(C=1.0, tol=1e-3, loss="hinge", dual=True, max_iter=100_000).fit(X, r)

seconds = float("inf")
for _ in range(repeats):
    start = time.perf_counter()
    model = fit()
    seconds = min(seconds, time.perf_counter() - start)
peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # before checking the result
coef = support = None
if which == "ours":
    coef, support = model.alpha_[model.support_] * r[model.support_], model.support_
elif which == "svc":
    coef, support = model.dual_coef_[0], model.support_
objective = None
if coef is not None:
    K = kernels.kernel_matrix(X[support], X[support], kernel, **params)
    objective = float(np.abs(coef).sum() - 0.5 * coef @ K @ coef)
prediction = model.predict(X).tolist()
print(json.dumps({"seconds": seconds, "peak_mb": peak_mb, "objective": objective,
                  "prediction": prediction}))
"""


def run(which, kernel, n, repeats):
    """One fresh process: the best of `repeats` fits, and that process's peak memory."""
    out = subprocess.run([sys.executable, "-c", WORKER, which, kernel, str(n), str(repeats)],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def row(kernel, n, repeats, with_linear_svc=False):
    ours, svc = run("ours", kernel, n, repeats), run("svc", kernel, n, repeats)
    same = np.mean(np.array(ours["prediction"]) == np.array(svc["prediction"]))
    gap = abs(ours["objective"] - svc["objective"]) / abs(svc["objective"])
    line = (f"  {kernel:10s} N={n:6d}  ours {ours['seconds']:7.2f} s {ours['peak_mb']:6.0f} MB   "
            f"libsvm {svc['seconds']:7.2f} s {svc['peak_mb']:6.0f} MB   "
            f"ours/libsvm = {ours['seconds'] / svc['seconds']:4.1f}x   "
            f"dual objective gap {gap:.1e}   same predictions {same:.2%}")
    if with_linear_svc:
        linear = run("linearsvc", kernel, n, repeats)
        line += f"   LinearSVC {linear['seconds']:.3f} s"
    print(line, flush=True)


def main(argv=()):
    quick = "--quick" in argv
    print("Two moons, C = 1, tol = 1e-3; time = best of the runs; peak = resident memory of the process")
    for n, repeats in [(500, 3), (2000, 3), (5000, 2), (10_000, 1), (20_000, 1)]:
        if quick and n > 5000:
            break
        row("gaussian", n, repeats)
    row("linear", 2000, 2, with_linear_svc=True)
    row("polynomial", 1000, 2)


if __name__ == "__main__":
    main(sys.argv[1:])
