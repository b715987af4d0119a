"""The effect claims of chapter 04 (K10-K12), re-checked over several seeds.

Each test names the claim cell of notebooks/04_basis_functions_xor.ipynb it backs.
"""

import numpy as np
import pytest

from course_lib import basis, data
from course_lib.svm import SVM

SEEDS = range(10)


@pytest.mark.parametrize("seed", SEEDS)
def test_phi_turns_noisy_xor_from_hopeless_to_near_perfect(seed):
    # claim cell "noisy-claim"
    X, r = data.noisy_xor(n=80, seed=seed)
    Xt, rt = data.noisy_xor(n=1000, seed=100 + seed)
    on_x = SVM(C=1.0, kernel="linear").fit(X, r)
    on_z = SVM(C=1.0, kernel="linear").fit(basis.xor_map(X), r)
    assert np.mean(on_x.predict(Xt) != rt) >= 0.2
    assert np.mean(on_z.predict(basis.xor_map(Xt)) != rt) <= 0.02


def test_the_xor_boundary_is_two_lines():
    # claim cell "two-lines": h(x) = -(2 x1 - 1)(2 x2 - 1)
    X, r = data.xor()
    svm = SVM(C=np.inf, kernel="linear", tol=1e-6).fit(basis.xor_map(X), r)
    P = np.random.default_rng(0).uniform(-3, 3, size=(500, 2))
    np.testing.assert_allclose(
        svm.decision_function(basis.xor_map(P)), -(2 * P[:, 0] - 1) * (2 * P[:, 1] - 1), atol=1e-4
    )


@pytest.mark.parametrize("seed", SEEDS)
def test_one_d_problem_separable_after_projection_and_the_line_is_two_thresholds(seed):
    # claim cell "08d8534d"
    x, r = data.one_d_projection(n=20, seed=seed)
    with pytest.raises(ValueError, match="not linearly separable"):
        SVM(C=np.inf, kernel="linear").fit(x, r)
    svm = SVM(C=np.inf, kernel="linear", tol=1e-6).fit(basis.square_map(x), r)
    predictions = svm.predict(basis.square_map(x))
    assert np.all(predictions == r)
    low, high = np.sort(np.roots([svm.w_[1], svm.w_[0], svm.w0_]).real)
    grid = np.linspace(-4, 4, 801).reshape(-1, 1)
    inside = (grid[:, 0] > low) & (grid[:, 0] < high)
    np.testing.assert_array_equal(np.where(inside, 1.0, -1.0), svm.predict(basis.square_map(grid)))


@pytest.mark.parametrize("seed", SEEDS)
def test_two_rbf_centres_cannot_solve_xor_and_ten_do(seed):
    # claim cell "rbf-k-claim"
    X, r = data.noisy_xor(n=80, seed=seed)
    for centre_seed in range(10):
        two = basis.RBFNetwork(K=2, s=0.6, seed=centre_seed).fit(X, r)
        ten = basis.RBFNetwork(K=10, s=0.6, seed=centre_seed).fit(X, r)
        assert np.mean(two.predict(X) == r) <= 0.8
        assert np.mean(ten.predict(X) == r) >= 0.95
