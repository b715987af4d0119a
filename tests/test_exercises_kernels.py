import numpy as np

from course_lib import kernels
from course_lib.exercises import kernels as ex


def test_basis_exercises():
    assert ex.check_xor_plane([1, 1, -2], -0.5)
    assert ex.check_xor_plane([2, 2, -4], -1)
    assert not ex.check_xor_plane([1, 1, 0], -0.5)
    assert not ex.check_xor_plane([1, 1], -0.5)
    assert ex.check_rbf_value(np.exp(-5 / 2))
    assert not ex.check_rbf_value(np.exp(-5))


def test_kernel_exercises():
    assert ex.check_polynomial_kernel((1 * 3 + 2 * -1 + 1) ** 2)
    assert not ex.check_polynomial_kernel(1.0)
    pairs = [np.hypot(*(a - b)) for i, a in enumerate(ex.SIGMA_X) for b in ex.SIGMA_X[i + 1 :]]
    assert ex.check_sigma_min(min(d for d in pairs if d > 0))
    assert not ex.check_sigma_min(0.0)
    assert ex.check_gamma(4.0) and not ex.check_gamma(2.0)
    k = np.exp(-2.0)
    assert ex.check_kernel_distance(np.sqrt(2 - 2 * k))
    assert not ex.check_kernel_distance(2 - 2 * k)


def test_gradient_descent_exercises():
    assert ex.check_hinge_losses([2, 1, 0.5, 0, 0])
    assert not ex.check_hinge_losses([1, 0, 0, 0, 0])
    # independent first step: all points in Y at alpha = 0
    K = np.exp(-kernels.squared_distances(ex.GD_X, ex.GD_X))
    step = 0.1 * ex.GD_R * (K @ ex.GD_R)
    assert ex.check_first_step(np.maximum(step, 0), 0.1 * ex.GD_R.sum())
    assert (step < 0).any() and not ex.check_first_step(step, 0.1 * ex.GD_R.sum())
