"""SparseRows against the same rows held densely."""

import numpy as np
import pytest

from course_lib.structured.sparse_rows import SparseRows


def random_rows(seed, m=12, d=30):
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(m, d)) * (rng.random((m, d)) < 0.2)
    A[3] = 0.0  # an all-zero row
    return A


@pytest.mark.parametrize("seed", range(5))
def test_products_equal_the_dense_ones(seed):
    A = random_rows(seed)
    rows = SparseRows(A.shape[1])
    for a in A:
        rows.append(a)
    rng = np.random.default_rng(100 + seed)
    w = rng.normal(size=A.shape[1])
    c = rng.normal(size=len(A)) * (rng.random(len(A)) < 0.6)
    np.testing.assert_allclose(rows.dot(w), A @ w, atol=1e-12)
    np.testing.assert_allclose(rows.combination(c), c @ A, atol=1e-12)
    np.testing.assert_allclose(rows.combination([2.0, -1.0], [5, 1]), 2 * A[5] - A[1], atol=1e-12)
    np.testing.assert_array_equal(rows.dense(), A)


def test_replace_and_keep_follow_the_dense_rows():
    A = random_rows(0)
    rows = SparseRows(A.shape[1])
    for a in A:
        rows.append(a)
    w = np.linspace(-1.0, 1.0, A.shape[1])
    assert len(rows.dot(w)) == len(A)  # packed once
    A[6] = random_rows(9)[0]
    rows.replace(6, A[6])
    np.testing.assert_allclose(rows.dot(w), A @ w, atol=1e-12)  # repacked after the change
    keep = [11, 0, 6, 3]
    rows.keep(keep)
    assert len(rows) == 4
    np.testing.assert_allclose(rows.dot(w), A[keep] @ w, atol=1e-12)
    np.testing.assert_allclose(rows.combination(np.ones(4)), A[keep].sum(axis=0), atol=1e-12)


def test_empty_rows_and_zero_coefficients():
    rows = SparseRows(5)
    assert rows.dot(np.ones(5)).shape == (0,)
    assert rows.dense().shape == (0, 5)
    rows.append(np.zeros(5))
    np.testing.assert_array_equal(rows.dot(np.ones(5)), [0.0])
    np.testing.assert_array_equal(rows.combination([0.0]), np.zeros(5))
