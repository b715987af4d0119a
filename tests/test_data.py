"""Toy data sets and the OCR letters loader."""

import hashlib
import itertools

import numpy as np
import pytest

from course_lib import data
from course_lib.linear import Perceptron


def test_ocr_letters_known_counts():
    words, labels, folds = data.load_ocr_letters()
    assert len(words) == len(labels) == len(folds) == 6877
    assert sum(len(y) for y in labels) == 52152
    assert int(np.sum(folds == 1)) == 704
    assert set(np.unique(folds)) == set(range(10))
    for x, y in zip(words, labels):
        assert x.shape == (len(y), 128) and 3 <= len(y) <= 14
    all_labels = np.concatenate(labels)
    assert all_labels.min() == 0 and all_labels.max() == 25
    pixels = np.concatenate(words)
    assert set(np.unique(pixels)) == {0.0, 1.0}


def test_ocr_file_checksum_matches_the_provenance():
    raw = data._ocr_path().read_bytes()
    assert len(raw) == 428722
    assert hashlib.sha256(raw).hexdigest() == data.OCR_SHA256


def test_ocr_corrupt_or_missing_file_is_reported(tmp_path, monkeypatch):
    corrupt = tmp_path / "ocr_letters.npz"
    corrupt.write_bytes(data._ocr_path().read_bytes()[:-10] + b"0123456789")
    monkeypatch.setattr(data, "_ocr_path", lambda: corrupt)
    with pytest.raises(ValueError, match="corrupt"):
        data.load_ocr_letters()
    monkeypatch.setattr(data, "_ocr_path", lambda: tmp_path / "absent.npz")
    with pytest.raises(FileNotFoundError, match="missing"):
        data.load_ocr_letters()


def test_letters_to_string():
    assert data.letters_to_string([2, 0, 19]) == "cat"


@pytest.mark.parametrize("maker", [data.linearly_separable, data.overlapping, data.noisy_xor])
def test_generators_are_seeded(maker):
    X1, r1 = maker(n=20, seed=5)
    X2, r2 = maker(n=20, seed=5)
    X3, _ = maker(n=20, seed=6)
    np.testing.assert_array_equal(X1, X2)
    np.testing.assert_array_equal(r1, r2)
    assert not np.array_equal(X1, X3)
    assert X1.shape == (20, 2) and set(np.unique(r1)) == {-1.0, 1.0}


@pytest.mark.parametrize("seed", range(5))
def test_separable_and_overlapping_sets(seed):
    X, r = data.linearly_separable(n=40, seed=seed, gap=0.6)
    assert np.all(r * (X @ np.array([1, 1]) / np.sqrt(2)) >= 0.3)
    assert Perceptron(n_epochs=200).fit(X, r).converged_
    X, r = data.overlapping(n=60, seed=seed)
    assert not Perceptron(n_epochs=200).fit(X, r).converged_


def test_with_outlier_adds_one_far_positive_point():
    X, r = data.with_outlier(n=30, seed=0, outlier=(7.0, 5.0))
    assert X.shape == (31, 2) and r[-1] == 1 and tuple(X[-1]) == (7.0, 5.0)


def test_xor_needs_the_product_feature():
    X, r = data.xor()
    assert r.tolist() == [-1, 1, 1, -1]
    assert not Perceptron(n_epochs=100).fit(X, r).converged_
    Z = np.c_[X, X[:, 0] * X[:, 1]]
    assert Perceptron(n_epochs=100).fit(Z, r).converged_


def test_one_d_projection_needs_a_second_dimension():
    x, r = data.one_d_projection(n=20, seed=0)

    def separable_by_a_threshold(feature):
        values = np.sort(feature)
        thresholds = (values[:-1] + values[1:]) / 2
        return any(np.all(np.sign(s * (feature - t)) == r) for t, s in itertools.product(thresholds, (-1, 1)))

    assert not separable_by_a_threshold(x.ravel())
    assert separable_by_a_threshold(x.ravel() ** 2)
