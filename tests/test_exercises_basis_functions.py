"""Chapter 04's exercise checks: a right answer passes, typical mistakes are caught with their
message, junk never raises, and a wrong answer never shows the answer."""

import numpy as np
import pytest
from exercise_testing import (
    assert_caught, assert_junk_never_raises, assert_no_answer_leak, assert_passes,
    assert_quiz_well_formed, assert_stops_a_function_that_never_returns, number_strings,
)

from course_lib import basis
from course_lib.exercises import basis_functions as ex


def phi(X):
    X = np.asarray(X, dtype=float)
    return np.column_stack([X[:, 0], X[:, 1], X[:, 0] * X[:, 1]])


def test_xor_map_check():
    assert_passes(ex.check_xor_map, phi)
    assert_caught(ex.check_xor_map, lambda X: np.column_stack([X[:, 0], X[:, 1], -X[:, 0] * X[:, 1]]),
                  "differ")  # off by a sign (in one column)
    assert_caught(ex.check_xor_map, lambda X: np.column_stack([X[:, 0], X[:, 0], X[:, 0] * X[:, 1]]),
                  "differ")  # a wrong index
    assert_caught(ex.check_xor_map, lambda X: np.column_stack([X, X[:, 0] * X[:, 1]]).T,
                  "transposed")  # (3, n) instead of (n, 3)
    assert_caught(ex.check_xor_map, lambda X: basis.xor_map(X), "write it yourself")
    assert_caught(ex.check_xor_map, basis.xor_map, "write it yourself")
    assert_caught(ex.check_xor_map, lambda X: phi(X[:4]), "shape")  # only works on the four points
    assert_junk_never_raises(ex.check_xor_map)
    assert_stops_a_function_that_never_returns(ex.check_xor_map)


def test_xor_plane_check():
    assert_passes(lambda w: ex.check_xor_plane(w, -1, "C"), [2, 2, -4])
    assert_passes(lambda w: ex.check_xor_plane(w, -0.5, "C"), [1, 1, -2])
    assert_caught(lambda w: ex.check_xor_plane(w, -1, "C"), [-2, -2, 4], "wrong side")  # sign flipped
    assert_caught(lambda w: ex.check_xor_plane(w, -0.5, "C"), [1, 1, 0], "z_4")  # no weight on z3
    assert_caught(lambda w: ex.check_xor_plane(w, -0.5, "C"), [1, 1, -3], "near the corners")  # just separates
    assert_caught(lambda w: ex.check_xor_plane(w, -0.5, "C"), [1, 1], "three numbers")
    assert_junk_never_raises(lambda w: ex.check_xor_plane(w, -1, "C"))
    assert_junk_never_raises(lambda w0: ex.check_xor_plane([20, 20, -40], w0, "C"), extra=([1, 2],))  # w0 = -10
    # every random corner point is labelled as XOR says, and phi of it is separated by the SVM's plane
    X, r = ex.corner_points()
    assert np.all(r * -(2 * X[:, 0] - 1) * (2 * X[:, 1] - 1) > 0)


def test_rbf_value_check():
    answer = np.exp(-5 / 2)
    assert_passes(lambda a: ex.check_rbf_value(a, "B"), answer)
    assert_caught(lambda a: ex.check_rbf_value(a, "B"), np.exp(-5), "2 s²")
    assert_caught(lambda a: ex.check_rbf_value(a, "B"), np.exp(-np.sqrt(5) / 2), "squared distance")
    assert_caught(lambda a: ex.check_rbf_value(a, "B"), -2.5, "exp")
    assert_junk_never_raises(ex.check_rbf_value)
    assert_no_answer_leak(lambda a: ex.check_rbf_value(a, "B"), 0.5, number_strings(answer))


@pytest.mark.parametrize("name", sorted(ex.QUIZZES))
def test_quizzes_have_one_right_choice_and_every_choice_explained(name):
    assert_quiz_well_formed(ex.QUIZZES[name][1], ex.quiz(name))


def test_xor_plane_needs_the_reason_the_chapter_cannot_give():
    """The chapter prints its SVM's plane (2, 2, -4), -1 just above the exercise; the reason is the student's own."""
    assert_caught(lambda a: ex.check_xor_plane(*a), ([2, 2, -4], -1), "letter of your reason")
    for wrong in "ABD":
        assert_no_answer_leak(lambda a: ex.check_xor_plane([2, 2, -4], -1, a), wrong, ["(C)"])
    assert_passes(lambda a: ex.check_xor_plane([2, 2, -4], -1, a), "C")


def test_rbf_value_needs_the_reason_the_library_cannot_give():
    """basis.rbf_features, shown in chapter 04, gives the value in one call; the reason is the student's own."""
    from course_lib import basis

    value = float(basis.rbf_features(np.array([[1.0, 2.0]]), [[0.0, 0.0]], 1.0)[0, 0])
    assert_caught(ex.check_rbf_value, value, "letter of your reason")
    for wrong in "ACD":
        assert_no_answer_leak(lambda a: ex.check_rbf_value(value, a), wrong, ["(B)"])
    assert_passes(lambda a: ex.check_rbf_value(value, a), "B")
