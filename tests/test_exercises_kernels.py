import numpy as np
from sklearn.svm import SVC

from course_lib import kernels
from course_lib.exercises import kernels as ex


def test_lagrange_exercise():
    # independent: on the line x1 = 2 - 2 x2, f = 1 - (2 - 2 t)^2 - t^2 is maximal at t = 0.8
    t = np.linspace(-2, 2, 400_001)
    best = t[np.argmax(1 - (2 - 2 * t) ** 2 - t**2)]
    assert ex.check_lagrange(2 - 2 * best, best, 2 * (2 - 2 * best))
    assert not ex.check_lagrange(0.4, 0.8, 1.0)
    assert not ex.check_lagrange(0.0, 1.0, 1.0)
    assert not ex.check_lagrange(..., 0.8, 0.8)


def test_canonical_scaling_exercise():
    assert ex.check_canonical_scaling([1.0, 1 / 3], 0.0)
    assert not ex.check_canonical_scaling([3.0, 1.0], 0.0)  # same hyperplane, wrong scale
    assert not ex.check_canonical_scaling([1.0, 0.0], 0.0)


def test_hard_margin_exercise_against_sklearn():
    svc = SVC(kernel="linear", C=1e8).fit(ex.HARD_X, ex.HARD_R)
    w, w0 = svc.coef_[0], svc.intercept_[0]
    assert ex.check_hard_margin(np.round(w, 3), round(w0, 3), svc.support_.tolist())
    assert not ex.check_hard_margin(w, w0, [0, 1, 2])
    assert not ex.check_hard_margin([2.0, 0.0], 0.0, [1, 2])


def test_soft_margin_exercises():
    h = ex.SOFT_X @ ex.SOFT_W + ex.SOFT_W0
    xi = [max(0.0, 1 - r * v) for r, v in zip(ex.SOFT_R, h)]
    assert ex.check_slacks(xi)
    assert not ex.check_slacks(1 - ex.SOFT_R * h)
    assert ex.check_primal_objective(0.5 + 2.0 * sum(xi))
    assert not ex.check_primal_objective(0.5 + sum(xi))
    assert not ex.check_slacks(...)


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
    assert ex.check_gamma(16.0) and not ex.check_gamma(8.0) and not ex.check_gamma(4.0)
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
