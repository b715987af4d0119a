"""Kernels against direct per-pair formulas, the explicit degree-2 map and scikit-learn."""

import numpy as np
import pytest
from sklearn.metrics.pairwise import rbf_kernel

from course_lib import kernels

RNG = np.random.default_rng(0)
X = RNG.normal(size=(7, 3))
Y = RNG.normal(size=(5, 3))


def per_pair(function, X, Y):
    return np.array([[function(x, y) for y in Y] for x in X])


@pytest.mark.parametrize(
    "name, params, formula",
    [
        ("linear", {}, lambda x, y: float(np.dot(x, y))),
        ("polynomial", {"degree": 3}, lambda x, y: (float(np.dot(x, y)) + 1.0) ** 3),
        ("gaussian", {"sigma": 0.7}, lambda x, y: np.exp(-np.sum((x - y) ** 2) / 0.7**2)),
        ("sigmoid", {}, lambda x, y: np.tanh(2.0 * float(np.dot(x, y)) + 1.0)),
    ],
)
def test_each_kernel_matches_a_per_pair_loop(name, params, formula):
    expected = per_pair(formula, X, Y)
    tight = {"rtol": 1e-12, "atol": 1e-12}
    np.testing.assert_allclose(kernels.kernel_matrix(X, Y, name, **params), expected, **tight)
    function = getattr(kernels, name)
    np.testing.assert_allclose(function(X, Y, **params), expected, **tight)
    diagonal = np.diag(per_pair(formula, X, X))
    np.testing.assert_allclose(kernels.kernel_diagonal(X, name, **params), diagonal, rtol=1e-12)


def test_explicit_degree_2_map_reproduces_the_polynomial_kernel():
    A, B = RNG.normal(size=(20, 2)) * 3, RNG.normal(size=(15, 2)) * 3
    phi_A, phi_B = kernels.polynomial_map_degree2(A), kernels.polynomial_map_degree2(B)
    assert phi_A.shape == (20, 6)
    K = kernels.polynomial(A, B, degree=2)
    np.testing.assert_allclose(phi_A @ phi_B.T, K, rtol=1e-12, atol=1e-12)
    x = np.array([[2.0, -3.0]])
    np.testing.assert_allclose(
        kernels.polynomial_map_degree2(x)[0],
        [1, 2 * np.sqrt(2), -3 * np.sqrt(2), -6 * np.sqrt(2), 4, 9],
    )


@pytest.mark.parametrize(
    "name, params",
    [
        ("linear", {}),
        ("polynomial", {"degree": 2}),
        ("polynomial", {"degree": 4}),
        ("gaussian", {"sigma": 0.5}),
    ],
)
@pytest.mark.parametrize("n_features", [2, 6])  # two code paths for the squared distances
def test_gram_is_symmetric_positive_semi_definite(name, params, n_features):
    Z = RNG.normal(size=(40, n_features))
    G = kernels.gram(Z, name, **params)
    assert G.shape == (40, 40)
    np.testing.assert_array_equal(G, G.T)
    K = kernels.kernel_matrix(Z, Z, name, **params)
    np.testing.assert_allclose(G, K, rtol=1e-12, atol=1e-12)
    eigenvalues = np.linalg.eigvalsh(G)
    assert eigenvalues.min() >= -1e-10 * max(1.0, eigenvalues.max())


def test_sigmoid_gram_can_be_indefinite():
    Z = RNG.normal(size=(40, 2)) * 2
    assert np.linalg.eigvalsh(kernels.gram(Z, "sigmoid")).min() < -1e-3


def test_feature_space_distance_of_the_linear_kernel_is_euclidean():
    d = kernels.feature_space_distance(X, Y, "linear")
    euclidean = np.linalg.norm(X[:, None, :] - Y[None, :, :], axis=2)
    np.testing.assert_allclose(d, euclidean, rtol=1e-10, atol=1e-7)
    # d(x, x) = 0 up to rounding (sqrt turns a 1e-16 rounding error of d^2 into 1e-8)
    assert np.all(np.diag(kernels.feature_space_distance(X, X, "gaussian", sigma=2.0)) < 1e-7)


def test_feature_space_distance_matches_the_explicit_map():
    A, B = RNG.normal(size=(6, 2)), RNG.normal(size=(4, 2))
    phi_A, phi_B = kernels.polynomial_map_degree2(A), kernels.polynomial_map_degree2(B)
    expected = np.linalg.norm(phi_A[:, None, :] - phi_B[None, :, :], axis=2)
    d = kernels.feature_space_distance(A, B, "polynomial", degree=2)
    np.testing.assert_allclose(d, expected, rtol=1e-10)


def test_gaussian_distance_formula():
    d = kernels.feature_space_distance(X, Y, "gaussian", sigma=1.3)
    K = kernels.gaussian(X, Y, sigma=1.3)
    np.testing.assert_allclose(d**2, 2.0 - 2.0 * K, rtol=1e-10, atol=1e-12)
    assert np.all(d <= np.sqrt(2.0) + 1e-12)


@pytest.mark.parametrize("sigma", [0.1, 1.0, 3.0])
def test_gaussian_equals_scikit_learn_rbf_with_gamma_one_over_sigma_squared(sigma):
    np.testing.assert_allclose(
        kernels.gaussian(X, Y, sigma=sigma),
        rbf_kernel(X, Y, gamma=1.0 / sigma**2),
        rtol=1e-12,
        atol=1e-14,
    )


def test_sigmoid_distance_is_refused_when_the_kernel_is_not_psd():
    Z = RNG.normal(size=(30, 2)) * 3
    with pytest.raises(ValueError, match="positive semi-definite"):
        kernels.feature_space_distance(Z, Z, "sigmoid")


def test_validation():
    with pytest.raises(ValueError, match="2-D"):
        kernels.linear(np.ones(3), Y)
    with pytest.raises(ValueError, match="NaN"):
        kernels.gaussian(np.array([[np.nan, 0, 0]]), Y)
    with pytest.raises(ValueError, match="features"):
        kernels.linear(X, np.ones((2, 2)))
    with pytest.raises(ValueError, match="sigma"):
        kernels.gaussian(X, Y, sigma=0.0)
    with pytest.raises(ValueError, match="sigma"):
        kernels.gram(X, "gaussian", sigma=-1.0)
    with pytest.raises(ValueError, match="degree"):
        kernels.polynomial(X, Y, degree=0)
    with pytest.raises(TypeError, match="degree"):
        kernels.polynomial(X, Y, degree=1.5)
    with pytest.raises(ValueError, match="'linear', 'polynomial', 'gaussian', 'sigmoid'"):
        kernels.kernel_matrix(X, Y, "rbf")
    with pytest.raises(TypeError, match="sigma"):
        kernels.kernel_matrix(X, Y, "linear", sigma=1.0)
    with pytest.raises(ValueError, match="D = 2"):
        kernels.polynomial_map_degree2(X)


def test_grid_axes_finds_a_meshgrid_and_only_one():
    xs, ys = np.linspace(-1, 2, 5), np.linspace(0, 1, 3)
    xx, yy = np.meshgrid(xs, ys)
    found = kernels.grid_axes(np.c_[xx.ravel(), yy.ravel()])
    np.testing.assert_array_equal(found[0], xs)
    np.testing.assert_array_equal(found[1], ys)
    assert kernels.grid_axes(np.c_[yy.ravel(), xx.ravel()]) is None  # y fastest: not this layout
    shuffled = np.c_[xx.ravel(), yy.ravel()][RNG.permutation(15)]
    assert kernels.grid_axes(shuffled) is None
    assert kernels.grid_axes(RNG.normal(size=(12, 2))) is None
    assert kernels.grid_axes(RNG.normal(size=(12, 3))) is None


@pytest.mark.parametrize("name, params", [("gaussian", {"sigma": 0.05}), ("gaussian", {"sigma": 3.0}),
                                          ("polynomial", {"degree": 2}), ("linear", {})])
def test_kernel_sum_on_a_grid_equals_the_kernel_matrix_product(name, params):
    xx, yy = np.meshgrid(np.linspace(-2, 2, 31), np.linspace(-1, 3, 17))
    points = np.c_[xx.ravel(), yy.ravel()]
    centres, weights = RNG.normal(size=(9, 2)), RNG.normal(size=9)
    expected = kernels.kernel_matrix(points, centres, name, **params) @ weights
    np.testing.assert_allclose(kernels.kernel_sum(points, centres, weights, name, **params), expected,
                               rtol=1e-12, atol=1e-12)
    scattered = RNG.normal(size=(20, 2))
    np.testing.assert_allclose(kernels.kernel_sum(scattered, centres, weights, name, **params),
                               kernels.kernel_matrix(scattered, centres, name, **params) @ weights,
                               rtol=1e-12, atol=1e-12)


def test_kernel_sum_names_a_wrong_weights_shape():
    with pytest.raises(ValueError, match="one value per row of Y"):
        kernels.kernel_sum(X, Y, np.ones(4), "linear")
