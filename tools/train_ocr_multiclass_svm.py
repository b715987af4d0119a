"""Train the cached multiclass SVMs of chapter 08 and write course_lib/resources/ocr_multiclass_svm.npz.

    .venv/bin/python tools/train_ocr_multiclass_svm.py

The multiclass SVM of the slides, min_w lambda ||w||^2 + (1/m) sum_i l(w, (x_i, y_i)) with the
multi-vector Psi and the 0-1 Delta, on the letters of fold 1 of the OCR data (m = 5,375, the
128 pixels of each letter), for each lambda of LAMS: the theory's lambda = (rho/B) sqrt(2/m)
with B = 1, and lambda = 1e-3. Multiplied by 1/(2 lambda) it is the structured SVM
1/2 ||w||^2 + C/m sum_i H_i(w) with C = 1/(2 lambda) and MulticlassModel (Crammer-Singer), which
the project's one-slack cutting-plane learner (`OneSlackSSVM`, tolerance TOL) solves to a
certified duality gap: P(w) - min P <= 2 lambda (P_C(w) - dual) in the slides' units.

Stored per lambda: w (26 x 128 rows w_y, flattened as MultiVector's w), the objective P(w), the
number of cutting planes, and the evidence of optimality: a point of the dual,

    D(alpha) = (1/m) sum_i sum_y alpha_iy Delta(y_i, y) - ||v||^2 / (4 lambda),
    v = (1/m) sum_i sum_y alpha_iy (Psi(x_i, y_i) - Psi(x_i, y)),

with alpha_i a probability distribution over the 26 labels for each letter i (the learner's
final working set, `OneSlackSSVM.dual_point`). Any such alpha gives D(alpha) <= min P (weak
duality), so P(w) - D(alpha) certifies the gap without trusting the learner or this file:
chapter 08 and tests/test_multiclass_claims.py recompute both from the stored arrays (and the
test compares with scikit-learn's Crammer-Singer solver on the same objective). Takes about a
minute on a quiet 2-core machine.
"""

import time
from pathlib import Path

import numpy as np

from course_lib.data import load_ocr_letters
from course_lib.multiclass import MultiVector, generalised_hinge, zero_one_cost
from course_lib.multiclass_svm import psi_radius, svm_lambda
from course_lib.structured.learners import OneSlackSSVM
from course_lib.structured.models import MulticlassModel

TOL = 1e-3
TRAIN_FOLD = 1
OUT = Path(__file__).resolve().parent.parent / "course_lib" / "resources" / "ocr_multiclass_svm.npz"


def fold_letters(fold):
    words, labels, folds = load_ocr_letters()
    return (np.vstack([w for w, f in zip(words, folds) if f == fold]),
            np.concatenate([lab for lab, f in zip(labels, folds) if f == fold]))


def objective(w, X, y, lam):
    """lambda ||w||^2 + mean generalised hinge (multi-vector Psi, 0-1 Delta)."""
    psi = MultiVector().fit(X, y, 26)
    return float(lam * w @ w + generalised_hinge(w, X, y, psi, zero_one_cost(26)).mean())


def dual_distributions(learner, y):
    """alpha (m, 26): row i the learner's dual weights on the labels of letter i (rest on y_i)."""
    alpha = np.zeros((len(y), 26))
    for i, weights in enumerate(learner.dual_point()):
        for label, weight in weights.values():
            alpha[i, int(label)] += weight
    alpha[np.arange(len(y)), y] += np.maximum(0.0, 1 - alpha.sum(axis=1))  # no -1e-17 from rounding
    return alpha


def dual_objective(alpha, X, y, lam):
    """D(alpha) above; with Psi the multi-vector map, v is the matrix (onehot(y) - alpha)^T X / m."""
    v = (np.eye(26)[y] - alpha).T @ X / len(y)
    return float(np.sum(alpha * zero_one_cost(26)[y]) / len(y) - np.sum(v ** 2) / (4 * lam))


def train():
    X, y = fold_letters(TRAIN_FOLD)
    lams = (float(svm_lambda(psi_radius(MultiVector().fit(X, y, 26), X), 1.0, len(X))), 1e-3)
    out = {name: [] for name in ("w", "objective", "alpha", "n_planes")}
    for lam in lams:
        start = time.perf_counter()
        learner = OneSlackSSVM(MulticlassModel(26), C=1 / (2 * lam), tol=TOL, max_iter=5000).fit(list(X), list(y))
        primal = objective(learner.w_, X, y, lam)
        alpha = dual_distributions(learner, y)
        lower = dual_objective(alpha, X, y, lam)
        for name, value in (("w", learner.w_), ("objective", primal), ("alpha", alpha),
                            ("n_planes", learner.n_iter_)):
            out[name].append(value)
        print(f"lambda = {lam:.4g}: {time.perf_counter() - start:.1f} s, {learner.n_iter_} planes, "
              f"P(w) = {primal:.5f}, certified gap {primal - lower:.2e} ({(primal - lower) / primal:.3%})", flush=True)
    arrays = {name: np.array(values) for name, values in out.items()}
    arrays.update(lam=np.array(lams), tol=np.array(TOL), train_fold=np.array(TRAIN_FOLD),
                  learner=np.array("OneSlackSSVM"))
    return arrays


def main():
    np.savez_compressed(OUT, **train())
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
