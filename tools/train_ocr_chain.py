"""Train the cached chain models of chapter 11 and write course_lib/resources/ocr_chain_models.npz.

    .venv/bin/python tools/train_ocr_chain.py

For each C of `CS`, two structured SVMs are trained to their optimum on fold 1 of the OCR letters
(704 words) by the project's one-slack cutting-plane learner (`OneSlackSSVM`, tolerance TOL on
the mean slack): the chain model (type-1 and type-2 features) and the same model without type-2
features (each letter predicted alone, a multiclass SVM per letter). Features and Hamming loss
are both divided by the word length r (the slides' 1/r).

Stored with the weights: the objective P(w) reached; the evidence of optimality, a point of the
dual (the learner's final working set, `OneSlackSSVM.dual_point`): for each word i, weights
alpha_i(y) >= 0 summing to 1 over a few readings y (y_i included), stored as entries (model index
`dual_model_*`, word `dual_word_*`, weight `dual_weight_*`, and the letters of every reading
concatenated in `dual_letters_*`, word i's reading being len(y_i) letters long). Any such alpha
gives min P >= D(alpha) = C/n sum_i sum_y alpha_i(y) Delta(y_i, y) - 1/2 ||v||^2 with
v = C/n sum_i sum_y alpha_i(y) (Psi(x_i, y_i) - Psi(x_i, y)) (weak duality), so chapter 11 and
tests/test_chain.py recompute the certified gap P(w) - D(alpha) from the file without trusting
it. Also the letter accuracies on fold 1 (training), on fold VALIDATION_FOLD (the validation
fold, on which chapter 11 chooses C) and on the eight other folds (test, looked at only once C
is chosen); tests/test_chain.py checks that the stored weights give them. Takes about 20 minutes
on a 2-core machine (the large C need many cutting planes).
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


DUAL_DTYPES = {"model": np.int8, "word": np.int16, "weight": np.float64, "letters": np.uint8}


def dual_entries(learner, Y):
    """The learner's dual point as entries (word i, weight alpha_i(y), letters of y), y_i included
    with the remaining weight: (word indices, weights, all the letters concatenated)."""
    words, weights, letters = [], [], []
    for i, point in enumerate(learner.dual_point()):
        rest = max(0.0, 1.0 - sum(weight for _, weight in point.values()))  # no -1e-17 from rounding
        for y, weight in [(Y[i], rest)] + list(point.values()):
            words.append(i)
            weights.append(weight)
            letters.append(np.asarray(y))
    return np.array(words), np.array(weights), np.concatenate(letters)


def dual_objective(model, C, X, Y, words, weights, letters):
    """D(alpha) = C/n sum_i sum_y alpha_i(y) Delta(y_i, y) - 1/2 ||C/n sum_i sum_y alpha_i(y) dPsi_i(y)||^2."""
    starts = np.r_[0, np.cumsum([len(Y[i]) for i in words])]
    linear, v = 0.0, np.zeros(model.size_joint_feature)
    for i, weight, start, end in zip(words, weights, starts[:-1], starts[1:]):
        y = letters[start:end]
        linear += weight * model.loss(Y[i], y)
        v += weight * (model.joint_feature(X[i], Y[i]) - model.joint_feature(X[i], y))
    v *= C / len(X)
    return C / len(X) * linear - 0.5 * v @ v


def train():
    words, labels, folds = load_ocr_letters()
    sets = {"train": split(words, labels, folds, lambda f: f == TRAIN_FOLD),
            "validation": split(words, labels, folds, lambda f: f == VALIDATION_FOLD),
            "test": split(words, labels, folds, lambda f: f not in (TRAIN_FOLD, VALIDATION_FOLD))}
    X, Y = sets["train"]
    names = ["w", "objective", "n_planes"] + [f"{s}_accuracy" for s in sets]
    out = {f"{name}_{kind}": [] for name in names for kind in ("chain", "letters")}
    duals = {f"dual_{name}_{kind}": [] for name in ("model", "word", "weight", "letters") for kind in ("chain", "letters")}
    for k, C in enumerate(CS):
        for kind, transitions in (("chain", True), ("letters", False)):
            model = ChainModel(transitions=transitions, **SETTINGS)
            start = time.perf_counter()
            learner = OneSlackSSVM(model, C=C, tol=TOL, max_iter=5000).fit(X, Y)
            seconds = time.perf_counter() - start
            primal = learner.objective(X, Y)
            point = dual_entries(learner, Y)
            lower = dual_objective(model, C, X, Y, *point)
            for name, values in zip(("model", "word", "weight", "letters"), (np.full(len(point[0]), k),) + point):
                duals[f"dual_{name}_{kind}"].append(values)
            row = {"w": learner.w_, "objective": primal, "n_planes": learner.n_iter_}
            row.update({f"{s}_accuracy": letter_accuracy(model, learner.w_, *sets[s]) for s in sets})
            for name, value in row.items():
                out[f"{name}_{kind}"].append(value)
            print(f"C = {C:7g}  {kind:8s} {seconds:6.1f} s, {learner.n_iter_} planes, P(w) = {primal:.4f}, "
                  f"gap {primal - lower:.4f} ({(primal - lower) / primal:.3%}), letter accuracy "
                  + ", ".join(f"{s} {row[s + '_accuracy']:.4f}" for s in sets), flush=True)
    arrays = {name: np.array(values) for name, values in out.items()}
    arrays.update({name: np.concatenate(values).astype(DUAL_DTYPES[name.split("_")[1]])
                   for name, values in duals.items()})
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
