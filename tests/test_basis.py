import numpy as np
import pytest
from scipy.optimize import linprog

from course_lib import basis, data


def separable_by_a_plane(Z, r):
    """Independent check by linear programming: is there (w, w0) with r (w.z + w0) >= 1?"""
    A = -r[:, None] * np.c_[Z, np.ones(len(Z))]
    result = linprog(np.zeros(Z.shape[1] + 1), A_ub=A, b_ub=-np.ones(len(Z)), bounds=(None, None))
    return result.status == 0, result.x


def test_xor_map_gives_the_slides_z_table():
    X, r = data.xor()
    Z = basis.xor_map(X)
    np.testing.assert_array_equal(Z, [[0, 0, 0], [0, 1, 0], [1, 0, 0], [1, 1, 1]])


def test_xor_is_not_separable_in_x_but_is_in_z():
    X, r = data.xor()
    assert not separable_by_a_plane(X, r)[0]
    ok, coef = separable_by_a_plane(basis.xor_map(X), r)
    assert ok
    w, w0 = coef[:-1], coef[-1]
    assert np.all(r * (basis.xor_map(X) @ w + w0) >= 1 - 1e-9)


def test_one_d_projection_becomes_separable():
    x, r = data.one_d_projection(n=20, seed=0)
    assert not separable_by_a_plane(x, r)[0]
    Z = basis.square_map(x)
    np.testing.assert_allclose(Z[:, 1], x[:, 0] ** 2)
    assert separable_by_a_plane(Z, r)[0]


def test_catalogue_against_loops():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(6, 2))
    m = rng.normal(size=(3, 2))
    np.testing.assert_array_equal(basis.identity_basis(X), X)
    P = basis.power_basis(X, 4)
    for t in range(6):
        for j in range(4):
            assert P[t, j] == pytest.approx(X[t, 0] ** j)
            if j < 3:
                assert basis.radial_basis(X, m, 0.7)[t, j] == pytest.approx(
                    np.exp(-np.sum((X[t] - m[j]) ** 2) / 0.7)
                )
                assert basis.gaussian_bump_basis(X, m[:, 0], 0.7)[t, j] == pytest.approx(
                    np.exp(-((X[t, 1] - m[j, 0]) ** 2) / 0.7)
                )
    np.testing.assert_array_equal(basis.sign_step_basis(X, [0.0, 1.0]), np.sign(X - [0.0, 1.0]))


def test_rbf_features_have_the_half_factor_and_one_column_per_centre():
    X = np.array([[0.0, 0.0], [1.0, 0.0]])
    Phi = basis.rbf_features(X, X, s=1.0)
    assert Phi.shape == (2, 2)
    np.testing.assert_allclose(np.diag(Phi), 1.0)
    assert Phi[0, 1] == pytest.approx(np.exp(-0.5))
    # one width per centre
    assert basis.rbf_features(X, X, s=[1.0, 2.0])[0, 1] == pytest.approx(np.exp(-1 / 8))


def test_rbf_network_solves_noisy_xor_and_matches_lstsq():
    X, r = data.noisy_xor(n=80, seed=1)
    net = basis.RBFNetwork(K=8, s=0.6, ridge=0.0, seed=0).fit(X, r)
    Z = np.c_[basis.rbf_features(X, net.centres_, 0.6), np.ones(len(X))]
    coef = np.linalg.lstsq(Z, r, rcond=None)[0]
    np.testing.assert_allclose(np.r_[net.w_, net.w0_], coef, atol=1e-6)
    assert np.mean(net.predict(X) == r) >= 0.9


def test_input_errors():
    with pytest.raises(ValueError, match="2 features"):
        basis.xor_map(np.zeros((3, 3)))
    with pytest.raises(ValueError, match="K = 10 centres"):
        basis.pick_centres(np.zeros((4, 2)), 10)
    with pytest.raises(ValueError, match="positive"):
        basis.rbf_features(np.zeros((2, 2)), np.zeros((1, 2)), s=0.0)
    with pytest.raises(ValueError, match="c must be"):
        basis.radial_basis(np.zeros((2, 2)), np.zeros((1, 2)), c=-1.0)
    with pytest.raises(RuntimeError, match="not fitted"):
        basis.RBFNetwork().decision_function(np.zeros((2, 2)))
