"""Train the cached chain models of chapter 11 and write course_lib/resources/ocr_chain_models.npz.

    .venv/bin/python tools/train_ocr_chain.py

For each C of `CS`, two structured SVMs are trained to their optimum on fold 1 of the OCR letters
(704 words) by the project's one-slack cutting-plane learner (`OneSlackSSVM`, tolerance TOL on
the mean slack): the chain model (type-1 and type-2 features) and the same model without type-2
features (each letter predicted alone, a multiclass SVM per letter). Features and Hamming loss
are both divided by the word length r (the slides' 1/r).

Stored with the weights: the objective P(w) reached, the best lower bound on min P found by the
learner (the dual value of its working-set QP) and their difference, the certified gap
(P(w) - min P <= gap); the letter accuracies on fold 1 (training), on fold VALIDATION_FOLD (the
validation fold, on which chapter 11 chooses C) and on the eight other folds (test, looked at
only once C is chosen). tests/test_chain.py checks that every model is within 1% of its optimum
and that the stored weights give the stored accuracies. Takes a few minutes.
"""

import time
from pathlib import Path

import numpy as np

from course_lib.data import load_ocr_letters
from course_lib.structured.chain import OCR_MODELS_FILE, ChainModel
from course_lib.structured.learners import OneSlackSSVM

CS = (10.0, 30.0, 100.0, 300.0, 1000.0, 3000.0)
TOL = 1e-3
TRAIN_FOLD = 1
VALIDATION_FOLD = 2
SETTINGS = dict(normalize=True, normalize_loss=True)
OUT = Path(__file__).resolve().parent.parent / "course_lib" / "resources" / OCR_MODELS_FILE


def letter_accuracy(model, w, X, Y):
    """Fraction of letters right when decoding every word of X."""
    predictions = model.batch_inference(X, w)
    return float(np.mean(np.concatenate(predictions) == np.concatenate(Y)))


def split(words, labels, folds, keep):
    X = [x for x, f in zip(words, folds) if keep(f)]
    Y = [y for y, f in zip(labels, folds) if keep(f)]
    return X, Y


def train():
    words, labels, folds = load_ocr_letters()
    sets = {"train": split(words, labels, folds, lambda f: f == TRAIN_FOLD),
            "validation": split(words, labels, folds, lambda f: f == VALIDATION_FOLD),
            "test": split(words, labels, folds, lambda f: f not in (TRAIN_FOLD, VALIDATION_FOLD))}
    X, Y = sets["train"]
    names = ["w", "objective", "lower_bound", "gap", "n_planes"] + [f"{s}_accuracy" for s in sets]
    out = {f"{name}_{kind}": [] for name in names for kind in ("chain", "letters")}
    for C in CS:
        for kind, transitions in (("chain", True), ("letters", False)):
            model = ChainModel(transitions=transitions, **SETTINGS)
            start = time.perf_counter()
            learner = OneSlackSSVM(model, C=C, tol=TOL, max_iter=5000).fit(X, Y)
            seconds = time.perf_counter() - start
            primal = learner.objective(X, Y)
            lower = max(learner.history_["dual"])
            row = {"w": learner.w_, "objective": primal, "lower_bound": lower, "gap": primal - lower,
                   "n_planes": learner.n_iter_}
            row.update({f"{s}_accuracy": letter_accuracy(model, learner.w_, *sets[s]) for s in sets})
            for name, value in row.items():
                out[f"{name}_{kind}"].append(value)
            print(f"C = {C:7g}  {kind:8s} {seconds:6.1f} s, {learner.n_iter_} planes, P(w) = {primal:.4f}, "
                  f"gap {primal - lower:.4f} ({(primal - lower) / primal:.3%}), letter accuracy "
                  + ", ".join(f"{s} {row[s + '_accuracy']:.4f}" for s in sets), flush=True)
    arrays = {name: np.array(values) for name, values in out.items()}
    arrays.update(C=np.array(CS), tol=np.array(TOL), train_fold=np.array(TRAIN_FOLD),
                  validation_fold=np.array(VALIDATION_FOLD), learner=np.array("OneSlackSSVM"),
                  **{name: np.array(value) for name, value in SETTINGS.items()})
    return arrays


def main():
    arrays = train()
    np.savez_compressed(OUT, **arrays)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
