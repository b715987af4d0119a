"""The chapter 01 self-checks accept right answers and reject wrong ones, with a reason."""

import numpy as np

from course_lib import data
from course_lib.exercises import linear as ex


def test_signed_distance():
    assert not ex.check_signed_distance(2.0 / 5.0)  # (12 + 12 - 10) / 5 = 2.8
    assert ex.check_signed_distance(2.8)
    assert not ex.check_signed_distance(14.0)
    assert "divide by ||w||" in repr(ex.check_signed_distance(14.0))
    assert not ex.check_signed_distance(-2.8)
    assert not ex.check_signed_distance(...)


def test_perceptron_update():
    # h = 2 - 1 + 0.5 = 1.5, r h = -1.5 <= 0: w = (1, -1) - (2, 1) = (-1, -2), w0 = -0.5.
    assert ex.check_perceptron_update([-1.0, -2.0], -0.5)
    assert not ex.check_perceptron_update([3.0, 0.0], 1.5)
    assert not ex.check_perceptron_update([1.0, -1.0], 0.5)
    assert ex.check_perceptron_update([1.0, -1.0], 0.5, r=1.0)  # well classified: no change


def test_least_squares_against_normal_equations():
    x, r = np.array([-2.0, -1.0, 1.0, 3.0]), np.array([-1.0, -1.0, 1.0, 1.0])
    A = np.c_[x, np.ones(4)]
    w, w0 = np.linalg.solve(A.T @ A, A.T @ r)
    assert ex.check_least_squares(w, w0)
    assert not ex.check_least_squares(w0, w)


def test_version_space_interval():
    X, r = data.linearly_separable(n=20, seed=4)
    p = X @ np.array([1.0, 1.0])
    assert ex.check_version_space_interval(-p[r > 0].min(), -p[r < 0].max(), X, r)
    assert not ex.check_version_space_interval(p[r > 0].min(), p[r < 0].max(), X, r)
