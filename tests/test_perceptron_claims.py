"""The effect claims of chapter 09, re-run over ten seeds (shuffles, data draws or corpus splits)."""

import numpy as np
import pytest

from course_lib.multiclass import TfIdfMap, term_counts
from course_lib.multiclass_svm import MulticlassSVM
from course_lib.perceptron import AveragedPerceptron, Perceptron, accuracy_by_epoch
from course_lib.plotting import perceptron as plots
from course_lib.text import bag_of_words, load_stdlib_docstrings, split_docstrings

SEEDS = range(10)


@pytest.mark.parametrize("data_seed", SEEDS)
def test_09_averaged_varies_less_over_shuffles_and_epochs(data_seed):
    X, y, X_held, y_held = plots.blob_split(seed=data_seed)
    plain, averaged = [], []
    for seed in range(6):
        model = plots.fit_both(X, y, n_epochs=5, seed=seed)
        plain.append(plots.held_out_accuracy(model.last_w_, model.classes_, X_held, y_held))
        averaged.append(plots.held_out_accuracy(model.coef_, model.classes_, X_held, y_held))
    assert np.ptp(averaged) < np.ptp(plain)
    plain_curve, averaged_curve = accuracy_by_epoch(plots.with_bias(X), y, plots.with_bias(X_held), y_held,
                                                    max_epoch=20, seed=data_seed)
    assert np.ptp(averaged_curve) < np.ptp(plain_curve) / 3


@pytest.fixture(scope="module")
def ocr_curves():
    return plots.ocr_curves(seeds=tuple(SEEDS), max_epoch=10)


def test_09_ocr_averaged_beats_plain_at_every_epoch_over_ten_shuffles(ocr_curves):
    plain, averaged = ocr_curves
    assert plain.shape == (10, 10) and np.all(averaged > plain)


@pytest.mark.parametrize("seed", SEEDS)
def test_09_ocr_test_gain_with_max_epoch_chosen_on_held_out(ocr_curves, seed):
    X, y, _, _, X_test, y_test = plots.ocr_split()
    plain, averaged = ocr_curves
    plain_model = Perceptron(n_epochs=int(np.argmax(plain[seed])) + 1, seed=seed).fit(X, y)
    averaged_model = AveragedPerceptron(n_epochs=int(np.argmax(averaged[seed])) + 1, seed=seed).fit(X, y)
    assert np.mean(averaged_model.predict(X_test) == y_test) > np.mean(plain_model.predict(X_test) == y_test) + 0.05


@pytest.fixture(scope="module")
def text_test_accuracies():
    """Test accuracies on ten splits of the docstrings: plain and averaged perceptron with MAX_EPOCH
    chosen on the held-out documents, and chapter 08's TF-IDF multiclass SVM with lambda chosen there."""
    documents, topics, _, sources = load_stdlib_docstrings(return_names=True)
    rows = []
    for seed in SEEDS:
        train, held, test = split_docstrings(sources, seed=seed)
        X, vocabulary = bag_of_words([documents[i] for i in train], min_df=2)
        X_held, _ = bag_of_words([documents[i] for i in held], vocabulary=vocabulary)
        X_test, _ = bag_of_words([documents[i] for i in test], vocabulary=vocabulary)
        plain, averaged = accuracy_by_epoch(X, topics[train], X_held, topics[held], max_epoch=15, seed=0)
        plain_model = Perceptron(n_epochs=int(np.argmax(plain)) + 1, seed=0).fit(X, topics[train])
        averaged_model = AveragedPerceptron(n_epochs=int(np.argmax(averaged)) + 1, seed=0).fit(X, topics[train])
        svms = [MulticlassSVM(lam=lam, n_iter=10_000, seed=0, feature_map=TfIdfMap()).fit(
            term_counts(X, vocabulary), topics[train]) for lam in (1e-3, 1e-2, 1e-1)]
        svm = max(svms, key=lambda s: np.mean(s.predict(term_counts(X_held, vocabulary)) == topics[held]))
        rows.append([np.mean(model.predict(X_test) == topics[test]) for model in (plain_model, averaged_model)]
                    + [np.mean(svm.predict(term_counts(X_test, vocabulary)) == topics[test])])
    return np.array(rows)


def test_09_text_averaging_gains_little_over_ten_splits(text_test_accuracies):
    plain, averaged, _ = text_test_accuracies.T
    gains = averaged - plain
    assert np.all(np.abs(gains) < 0.05) and abs(np.mean(gains)) < 0.01, f"gains {np.round(gains, 3)}"


def test_09_text_svm_beats_both_perceptrons_over_ten_splits(text_test_accuracies):
    plain, averaged, svm = text_test_accuracies.T
    lead = svm - np.maximum(plain, averaged)
    assert np.all(lead > 0), f"SVM's lead over the better perceptron {np.round(lead, 3)}"
