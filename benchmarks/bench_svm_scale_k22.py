"""Slides 6.10 (K22): how the fit time grows with N for scikit-learn's SVC (libsvm, Gaussian
kernel), LinearSVC (liblinear), SGDClassifier (hinge loss) and the from-scratch SVM (SMO on the
whole Gram matrix, Gaussian kernel).

Data: course_lib.data.overlapping_curved(N, seed=0); C = 1, sigma = 1 (SVC: gamma = 1), SGD's
regularisation alpha = 1 / (C N). N doubles from 250 until one fit takes more than
BUDGET seconds or N reaches the model's cap. One fit per (model, N): a rough scale on a shared machine,
not a precise timing. Writes course_lib/resources/svm_scale_k22.json, which chapter 05 plots.
Run: `nice .venv/bin/python -m benchmarks svm_scale_k22`.
"""

import json
import platform
import time
from pathlib import Path

import numpy as np
import sklearn
from sklearn.linear_model import SGDClassifier
from sklearn.svm import SVC, LinearSVC

from course_lib.data import overlapping_curved
from course_lib.svm import SVM

RESULTS = Path(__file__).resolve().parent.parent / "course_lib" / "resources" / "svm_scale_k22.json"
BUDGET = 3.0  # seconds: stop doubling N for a model once a fit takes longer
C, SIGMA = 1.0, 1.0
MODELS = {  # name: (make(N), largest N)
    "SVM (from scratch, SMO), Gaussian": (lambda n: SVM(C=C, kernel="gaussian", sigma=SIGMA), 64_000),
    "SVC (libsvm), rbf": (lambda n: SVC(C=C, kernel="rbf", gamma=1.0 / SIGMA**2), 128_000),
    "LinearSVC (liblinear), hinge": (
        lambda n: LinearSVC(C=C, loss="hinge", max_iter=100_000), 1_024_000
    ),
    "SGDClassifier, hinge": (
        lambda n: SGDClassifier(loss="hinge", alpha=1.0 / (C * n), random_state=0), 1_024_000
    ),
}


def scale(name, make, largest):
    rows, n = [], 250
    while n <= largest:
        X, r = overlapping_curved(n, seed=0)
        start = time.perf_counter()
        make(n).fit(X, r)
        seconds = time.perf_counter() - start
        rows.append({"N": n, "seconds": round(seconds, 4)})
        print(f"  {name:36s} N = {n:8d}: {seconds:8.3f} s", flush=True)
        if seconds > BUDGET:
            break
        n *= 2
    return rows


def main():
    results = {
        "description": __doc__.split("\n\n")[0].replace("\n", " "),
        "budget_seconds": BUDGET,
        "machine": f"{platform.machine()}, Python {platform.python_version()}, NumPy "
        f"{np.__version__}, scikit-learn {sklearn.__version__}",
        "models": {name: scale(name, make, largest) for name, (make, largest) in MODELS.items()},
    }
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=1) + "\n")
    print(f"written to {RESULTS}")


if __name__ == "__main__":
    main()
