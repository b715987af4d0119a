"""The effect claims of notebook 05 (kernels), re-checked over several seeds: a claim the chapter
makes on its one data set must not be a lucky draw."""

import numpy as np
import pytest

from course_lib import data, kernels

SEEDS = range(6)


@pytest.mark.parametrize("seed", SEEDS)
def test_gram_matrix_has_two_blocks_by_class(seed):
    X, r = data.overlapping(n=60, seed=seed)
    G = kernels.gram(X, "gaussian", sigma=1.0)
    same = r[:, None] == r[None, :]
    off_diagonal = ~np.eye(len(X), dtype=bool)
    assert G[same & off_diagonal].mean() > 1.5 * G[~same].mean()
