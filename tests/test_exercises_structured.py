"""The exercise checks of chapters 10 and 12: a right answer passes, three kinds of wrong answers
(a sign, an index, the library's own answer) are caught with the right message, junk never raises,
and a wrong answer never shows the answer of a number question."""

import math

import numpy as np
import pytest

from course_lib.exercises import instantiations as ix
from course_lib.exercises import structured as ex
from exercise_testing import (assert_caught, assert_junk_never_raises, assert_no_answer_leak,
                              assert_passes, number_strings)


def margin_hinge(model, x, y, w):
    return max(model.loss(y, c) + w @ model.joint_feature(x, c) for c in range(4)) - w @ model.joint_feature(x, y)


def slack_hinge(model, x, y, w):
    s = w @ model.joint_feature(x, y)
    return max(model.loss(y, c) * (1 + w @ model.joint_feature(x, c) - s) for c in range(4))


def cutting_plane(model, X, Y, w):
    A, B = [], []
    for x, y in zip(X, Y):
        y_bar = max(range(4), key=lambda c: model.loss(y, c) + w @ model.joint_feature(x, c))
        A.append(model.joint_feature(x, y) - model.joint_feature(x, y_bar))
        B.append(model.loss(y, y_bar))
    return np.mean(A, axis=0), float(np.mean(B))


def auc_sort(s, r):
    return np.lexsort((-r, -(s - r / 4.0)))


def library_hinge(model, x, y, w):
    y_bar = model.loss_augmented_inference(x, y, w)
    return model.loss(y, y_bar) + w @ (model.joint_feature(x, y_bar) - model.joint_feature(x, y))


def test_margin_hinge_check():
    assert_passes(ex.check_margin_hinge, margin_hinge)
    assert_caught(ex.check_margin_hinge, lambda model, x, y, w: -margin_hinge(model, x, y, w), "differs")
    assert_caught(ex.check_margin_hinge,  # y' = y left out of the max (a wrong index range)
                  lambda model, x, y, w: max(model.loss(y, c) + w @ model.joint_feature(x, c) for c in range(4) if c != y)
                  - w @ model.joint_feature(x, y), "differs")
    assert_caught(ex.check_margin_hinge, library_hinge, "write it yourself")
    assert_junk_never_raises(ex.check_margin_hinge)


def test_slack_hinge_check():
    assert_passes(ex.check_slack_hinge, slack_hinge)
    assert_caught(ex.check_slack_hinge, lambda model, x, y, w: -slack_hinge(model, x, y, w), "differs")
    assert_caught(ex.check_slack_hinge, margin_hinge, "differs")
    assert_junk_never_raises(ex.check_slack_hinge)


def test_cutting_plane_check():
    assert_passes(ex.check_cutting_plane, cutting_plane)
    assert_caught(ex.check_cutting_plane, lambda model, X, Y, w: (-cutting_plane(model, X, Y, w)[0],
                                                                   cutting_plane(model, X, Y, w)[1]), "differ")
    assert_caught(ex.check_cutting_plane, lambda model, X, Y, w: cutting_plane(model, X[:-1], Y[:-1], w), "differ")
    assert_caught(ex.check_cutting_plane, ex.cutting_plane, "write it yourself")
    assert_junk_never_raises(ex.check_cutting_plane)


def test_constraint_counts_check():
    f2, f3 = math.log10(30) + 100 * math.log10(3), 3000 * math.log10(3)
    assert_passes(lambda a: ex.check_constraint_counts(*a), (f2, f3))
    assert_caught(lambda a: ex.check_constraint_counts(a, f3), f2 - math.log10(30), "one constraint per example")
    assert_caught(lambda a: ex.check_constraint_counts(f2, a), 30 + 100 * math.log10(3), "added the exponents")
    assert_junk_never_raises(lambda a: ex.check_constraint_counts(a, a))
    assert_no_answer_leak(lambda a: ex.check_constraint_counts(a, 0), 3.0, number_strings(round(f2, 2)))


def test_auc_sort_check():
    assert_passes(ix.check_auc_sort, auc_sort)
    assert_caught(ix.check_auc_sort, lambda s, r: np.argsort(-s), "swapped wrongly")
    assert_caught(ix.check_auc_sort, lambda s, r: np.lexsort((-r, -(s + r / 4.0))), "swapped wrongly")  # sign
    assert_caught(ix.check_auc_sort, lambda s, r: ix.auc_oracle(s, r), "write it yourself")
    assert_caught(ix.check_auc_sort, lambda s, r: np.arange(len(s) + 1), "permutation")
    assert_junk_never_raises(ix.check_auc_sort)


@pytest.mark.parametrize("check, right, wrong, fragment", [
    (lambda a: ix.check_binary_ssvm(*a), (-1, 0.5), (-1, 0.75), "factor 1/2"),
    (lambda a: ix.check_binary_ssvm(*a), (-1, 0.5), (1, 0.5), "opposite sign"),
    (ix.check_two_class_crammer_singer, [-2.0, -1.5], [2.0, 1.5], "opposite sign"),
    (ix.check_tree_delta, ix.HierarchicalModel(ix.EXERCISE_TREE).delta_matrix(),
     2 * ix.HierarchicalModel(ix.EXERCISE_TREE).delta_matrix(), "half"),
    (lambda a: ix.check_auc_oracle(*a), (1 / 3, 4), (2 / 3, 4), "AUC itself"),
])
def test_number_checks(check, right, wrong, fragment):
    assert_passes(check, right)
    assert_caught(check, wrong, fragment)
    assert_junk_never_raises(lambda a: check((a, a)) if isinstance(right, tuple) else check(a))


def test_auc_oracle_numbers_and_no_leak():
    r, s = np.array([1, -1, 1, -1, -1]), np.array([2.0, 1.8, 0.5, 0.2, 1.0])
    delta = 1 - ix.auc(r, s)
    assert np.isclose(delta, 1 / 3)
    assert_caught(lambda a: ix.check_auc_oracle(delta, a), 2, "already wrong")
    assert_no_answer_leak(lambda a: ix.check_binary_ssvm(-1, a), 0.9, number_strings(0.5))
