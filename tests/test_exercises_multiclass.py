"""The chapters 07-08 self-checks accept right answers (worked out by hand here) and reject wrong ones."""

import numpy as np

from course_lib.exercises import multiclass as ex


def test_problem_counts():
    assert ex.check_problem_counts(26, 325)
    assert not ex.check_problem_counts(26, 650)
    assert "i < j" in repr(ex.check_problem_counts(26, 650))
    assert not ex.check_problem_counts(..., 325)


def test_region_boundaries():
    assert ex.check_region_boundaries(1 - np.sqrt(2), np.sqrt(2) - 1)
    assert not ex.check_region_boundaries(-0.5, 0.5)


def test_votes():
    # (1,2)+ -> 1, (1,3)- -> 3, (1,4)+ -> 1, (2,3)- -> 3, (2,4)+ -> 2, (3,4)- -> 4: a tie 1-3 won by 1
    assert ex.check_votes([2, 1, 2, 1], 1)
    assert not ex.check_votes([2, 1, 2, 1], 3)
    assert not ex.check_votes([1, 1, 2, 2], 3)


def test_ovr_confidences():
    assert ex.check_ovr_confidences(1, 3)
    assert not ex.check_ovr_confidences(1, 1)


def test_multi_vector():
    assert ex.check_multi_vector([0, 0, 2, -1, 0, 0])
    assert not ex.check_multi_vector([2, -1, 0, 0, 0, 0])
    assert "6 entries" in repr(ex.check_multi_vector([2, -1]))


def test_hinge():
    # scores (1, 0.5, 1.5), y = 1: terms 0, 1 + 0.5 - 1, 2 + 1.5 - 1 -> 2.5 at y_hat = 3
    assert ex.check_hinge(2.5, 3)
    assert not ex.check_hinge(0.5, 2)


def test_first_sgd_step():
    # y_hat = 3 at w = 0; w2 = Psi(x, 1) - Psi(x, 3) with 2 lambda = 1
    assert ex.check_first_sgd_step([1, 0.5, 0, 0, -1, -0.5])
    assert not ex.check_first_sgd_step([-1, -0.5, 0, 0, 1, 0.5])
    assert not ex.check_first_sgd_step([1, 0.5])


def test_pac_sgd():
    assert ex.check_pac_sgd(1600, 0.05)
    assert not ex.check_pac_sgd(40, 0.05)
