import numpy as np
import pytest
from sklearn.svm import SVC

from course_lib import data
from course_lib import model_selection as ms


def brute_sigma_min(X):
    best = np.inf
    for i in range(len(X)):
        for j in range(len(X)):
            d = np.sqrt(np.sum((X[i] - X[j]) ** 2))
            if d > 0:
                best = min(best, d)
    return best


@pytest.mark.parametrize("seed", range(3))
def test_sigma_min_against_a_double_loop(seed):
    X, _ = data.overlapping(30, seed=seed)
    X = np.vstack([X, X[:3]])  # duplicated points have distance 0 and are excluded
    assert ms.sigma_min(X) == pytest.approx(brute_sigma_min(X), rel=1e-9)


def test_sigma_min_on_a_hand_example_and_errors():
    X = np.array([[0.0, 0.0], [3.0, 4.0], [0.0, 0.0], [3.0, 4.5]])
    assert ms.sigma_min(X) == pytest.approx(0.5)
    with pytest.raises(ValueError, match="two distinct points"):
        ms.sigma_min(np.ones((4, 2)))


def test_the_slides_grids():
    np.testing.assert_allclose(ms.C_GRID, [10.0**k for k in range(-5, 6)])
    X = np.array([[0.0, 0.0], [0.0, 0.25], [2.0, 0.0]])
    np.testing.assert_allclose(ms.sigma_grid(X), 0.25 * np.array([1, 2, 4, 8, 16, 32, 64]))


def test_split_is_seeded_disjoint_and_half_of_each_class():
    X, r = data.overlapping(41, seed=0)
    train, val = ms.train_validation_split(X, r, seed=3)
    again, _ = ms.train_validation_split(X, r, seed=3)
    np.testing.assert_array_equal(train, again)
    assert np.intersect1d(train, val).size == 0
    np.testing.assert_array_equal(np.sort(np.r_[train, val]), np.arange(41))
    for label in (-1, 1):
        n = np.sum(r == label)
        assert abs(np.sum(r[train] == label) - n / 2) <= 1
    assert not np.array_equal(train, ms.train_validation_split(X, r, seed=4)[0])


def sklearn_model(C, sigma):
    return SVC(C=C, kernel="rbf", gamma=1.0 / sigma**2)  # the slides' sigma: gamma = 1 / sigma^2


def test_grid_search_against_a_hand_loop_with_sklearn():
    X, r = data.overlapping(40, seed=1)
    C_values, sigma_values = [0.1, 1.0, 10.0], [0.3, 1.0, 3.0]
    result = ms.grid_search(X, r, C_values, sigma_values, seed=2, make_model=sklearn_model)
    train, val = ms.train_validation_split(X, r, seed=2)
    expected = np.array(
        [
            [
                np.mean(sklearn_model(C, s).fit(X[train], r[train]).predict(X[val]) != r[val])
                for C in C_values
            ]
            for s in sigma_values
        ]
    )
    np.testing.assert_allclose(result.errors, expected)
    i, j = np.unravel_index(np.argmin(expected), expected.shape)
    assert (result.best_sigma, result.best_C) == (sigma_values[i], C_values[j])
    assert result.errors[i, j] == expected.min()
    # refitted on everything
    assert result.model.support_.max() >= len(train)


def test_from_scratch_grid_matches_sklearn_grid():
    X, r = data.overlapping(40, seed=1)
    C_values, sigma_values = [0.1, 1.0, 10.0], [0.3, 1.0, 3.0]
    ours = ms.grid_search(X, r, C_values, sigma_values, seed=2)
    theirs = ms.grid_search(X, r, C_values, sigma_values, seed=2, make_model=sklearn_model)
    one_point = 1.0 / len(ours.validation_index)
    assert np.max(np.abs(ours.errors - theirs.errors)) <= one_point + 1e-12  # at most one point
    assert ours.model.C == ours.best_C and ours.model.sigma == ours.best_sigma


def test_the_search_trains_coarsely_and_the_final_model_fully():
    X, r = data.overlapping(40, seed=1)
    seen = []

    def spy(C, sigma):
        model = ms.coarse_gaussian_svm(C, sigma)
        seen.append(model.tol)
        return model

    result = ms.grid_search(X, r, [0.1, 1.0], [0.5, 1.0], seed=2, make_final=ms.gaussian_svm,
                            make_model=spy)
    assert seen == [ms.SEARCH_TOL] * 4
    assert result.model.tol == 1e-3 < ms.SEARCH_TOL
    default = ms.grid_search(X, r, [0.1, 1.0], [0.5, 1.0], seed=2)
    np.testing.assert_array_equal(default.errors, result.errors)
    assert default.model.tol == 1e-3


def test_full_slides_grid_runs_and_refits():
    X, r = data.overlapping(40, seed=0)
    result = ms.grid_search(X, r)
    assert result.errors.shape == (7, 11)
    assert result.best_C in ms.C_GRID
    assert result.errors.min() < 0.3
    assert np.mean(result.model.predict(X) == r) > 0.7


def test_split_errors():
    X, r = data.overlapping(10, seed=0)
    with pytest.raises(ValueError, match="fraction"):
        ms.train_validation_split(X, r, fraction=1.0)
    with pytest.raises(ValueError, match="needs 2"):
        ms.train_validation_split(X[:6], np.r_[1.0, -1, -1, -1, -1, -1])
