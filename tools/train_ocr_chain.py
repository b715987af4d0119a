"""Train the cached chain models of chapter 11 and write course_lib/resources/ocr_chain_models.npz.

    .venv/bin/python tools/train_ocr_chain.py

For each C of `CS`, two structured SVMs are trained on fold 1 of the OCR letters (704 words) by
stochastic subgradient descent (Algorithm 2 of the slides, `SubgradientSSVM`, N_EPOCHS passes,
seed 0): the chain model (type-1 and type-2 features) and the same model without type-2
features (each letter predicted alone, a multiclass SVM per letter). Features and Hamming loss
are both divided by the word length r (the slides' 1/r). Their letter accuracies on the other
nine folds (6,173 words) and the objective P(w) reached are stored with the weights and printed;
tests/test_chain.py checks
that the stored weights still give them. Takes a few minutes.
"""

import time
from pathlib import Path

import numpy as np

from course_lib.data import load_ocr_letters
from course_lib.structured.chain import OCR_MODELS_FILE, ChainModel
from course_lib.structured.learners import SubgradientSSVM

CS = (10.0, 30.0, 100.0, 300.0, 1000.0, 3000.0)
N_EPOCHS = 30
SEED = 0
TRAIN_FOLD = 1
SETTINGS = dict(normalize=True, normalize_loss=True)
OUT = Path(__file__).resolve().parent.parent / "course_lib" / "resources" / OCR_MODELS_FILE


def letter_accuracy(model, w, X, Y):
    """Fraction of letters right when decoding every word of X."""
    predictions = model.batch_inference(X, w)
    return float(np.mean(np.concatenate(predictions) == np.concatenate(Y)))


def train():
    words, labels, folds = load_ocr_letters()
    train_set = [(x, y) for x, y, f in zip(words, labels, folds) if f == TRAIN_FOLD]
    test_set = [(x, y) for x, y, f in zip(words, labels, folds) if f != TRAIN_FOLD]
    X, Y = map(list, zip(*train_set))
    X_test, Y_test = map(list, zip(*test_set))
    out = {f"{name}_{kind}": [] for name in ("w", "objective", "train_accuracy", "test_accuracy")
           for kind in ("chain", "letters")}
    for C in CS:
        for kind, transitions in (("chain", True), ("letters", False)):
            model = ChainModel(transitions=transitions, **SETTINGS)
            start = time.perf_counter()
            learner = SubgradientSSVM(model, C=C, variant="stochastic", n_epochs=N_EPOCHS,
                                      history_every=0, seed=SEED).fit(X, Y)
            seconds = time.perf_counter() - start
            out[f"w_{kind}"].append(learner.w_)
            out[f"objective_{kind}"].append(learner.history_["primal"][-1])
            out[f"train_accuracy_{kind}"].append(letter_accuracy(model, learner.w_, X, Y))
            out[f"test_accuracy_{kind}"].append(letter_accuracy(model, learner.w_, X_test, Y_test))
            print(f"C = {C:7g}  {kind:8s} trained in {seconds:5.1f} s, P(w) = {out[f'objective_{kind}'][-1]:.4f}, letter accuracy "
                  f"train {out[f'train_accuracy_{kind}'][-1]:.4f}, test {out[f'test_accuracy_{kind}'][-1]:.4f}",
                  flush=True)
    arrays = {name: np.array(values) for name, values in out.items()}
    arrays.update(C=np.array(CS), n_epochs=np.array(N_EPOCHS), seed=np.array(SEED),
                  train_fold=np.array(TRAIN_FOLD), learner=np.array("SubgradientSSVM stochastic"),
                  **{name: np.array(value) for name, value in SETTINGS.items()})
    return arrays


def main():
    arrays = train()
    np.savez_compressed(OUT, **arrays)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
