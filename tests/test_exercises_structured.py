"""The exercise checks of chapters 10 and 12: a right answer passes, three kinds of wrong answers
(a sign, an index, the library's own answer) are caught with the right message, junk never raises,
and a wrong answer never shows the answer of a number question."""

import math

import numpy as np
import pytest

from course_lib.exercises import instantiations as ix
from course_lib.exercises import structured as ex
from course_lib.structured.models import HierarchicalModel
from exercise_testing import (assert_caught, assert_junk_never_raises, assert_no_answer_leak,
                              assert_passes, assert_stops_a_function_that_never_returns, number_strings)


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
    assert_caught(ex.check_margin_hinge, lambda model, x, y, w: -margin_hinge(model, x, y, w), "sign is flipped")
    assert_caught(ex.check_margin_hinge,  # y' = y left out of the max (a wrong index range)
                  lambda model, x, y, w: max(model.loss(y, c) + w @ model.joint_feature(x, c) for c in range(4) if c != y)
                  - w @ model.joint_feature(x, y), "on case")
    assert_caught(ex.check_margin_hinge, library_hinge, "write it yourself")
    hidden = {"hinge": ex._reference_hinge}
    assert_caught(ex.check_margin_hinge, lambda model, x, y, w: hidden["hinge"](model, x, y, w, "margin"),
                  "write it yourself")
    assert_junk_never_raises(ex.check_margin_hinge)
    assert_stops_a_function_that_never_returns(ex.check_margin_hinge)


def test_slack_hinge_check():
    assert_passes(ex.check_slack_hinge, slack_hinge)
    assert_caught(ex.check_slack_hinge, lambda model, x, y, w: -slack_hinge(model, x, y, w), "on case")
    assert_caught(ex.check_slack_hinge, margin_hinge, "on case")
    assert_junk_never_raises(ex.check_slack_hinge)


def test_cutting_plane_check():
    assert_passes(ex.check_cutting_plane, cutting_plane)
    assert_caught(ex.check_cutting_plane, lambda model, X, Y, w: (-cutting_plane(model, X, Y, w)[0],
                                                                   cutting_plane(model, X, Y, w)[1]), "sign")
    assert_caught(ex.check_cutting_plane, lambda model, X, Y, w: cutting_plane(model, X[:-1], Y[:-1], w), "on case")
    assert_caught(ex.check_cutting_plane, ex._reference_plane, "write it yourself")

    def structured_back_door(model, X, Y, w):  # a new model of the library, built inside the function
        from course_lib.structured.models import MulticlassModel

        oracle = MulticlassModel(4, cost=ex.COST)
        return cutting_plane(model, X, Y, w) if oracle.loss_augmented_inference(X[0], Y[0], w) >= 0 else None

    assert_caught(ex.check_cutting_plane, structured_back_door, "write it yourself")
    assert_junk_never_raises(ex.check_cutting_plane)
    assert_stops_a_function_that_never_returns(ex.check_cutting_plane)


def ssg(model, X, Y, C, n_epochs, seed):
    """Algorithm 2 of the slides, written from them (margin rescaling, eta_t = 1/t)."""
    rng = np.random.default_rng(seed)
    w, t = np.zeros(model.size_joint_feature), 0

    def P(w):
        return 0.5 * w @ w + C * np.mean([margin_hinge(model, x, y, w) for x, y in zip(X, Y)])

    primal = [P(w)]
    for _ in range(n_epochs):
        for i in rng.permutation(len(X)):
            y_bar = max(range(4), key=lambda c: model.loss(Y[i], c) + w @ model.joint_feature(X[i], c))
            g = model.joint_feature(X[i], y_bar) - model.joint_feature(X[i], Y[i])
            t += 1
            w = w - (w + C * g) / t
        primal.append(P(w))
    return w, primal


def test_stochastic_subgradient_check():
    from course_lib.structured.learners import SubgradientSSVM

    assert_passes(ex.check_stochastic_subgradient, ssg)

    def sign(model, X, Y, C, n_epochs, seed):  # w + C g with g = truth minus oracle: the sign flipped
        return ssg(model, X, Y, -C, n_epochs, seed)

    def in_order(model, X, Y, C, n_epochs, seed):  # the examples in order instead of rng.permutation
        class Ordered:
            def permutation(self, n):
                return np.arange(n)
        return _ssg_with(Ordered(), model, X, Y, C, n_epochs)

    def library(model, X, Y, C, n_epochs, seed):
        learner = SubgradientSSVM(model, C=C, variant="stochastic", n_epochs=n_epochs, seed=seed).fit(X, Y)
        return learner.w_, learner.history_["primal"]

    assert_caught(ex.check_stochastic_subgradient, sign, "on case")
    assert_caught(ex.check_stochastic_subgradient, in_order, "on case")
    assert_caught(ex.check_stochastic_subgradient, library, "write it yourself")
    assert_caught(ex.check_stochastic_subgradient, ex._reference_ssg, "write it yourself")
    assert_junk_never_raises(ex.check_stochastic_subgradient)
    assert_stops_a_function_that_never_returns(ex.check_stochastic_subgradient)


def _ssg_with(rng, model, X, Y, C, n_epochs):
    w, t, primal = np.zeros(model.size_joint_feature), 0, []
    P = lambda w: 0.5 * w @ w + C * np.mean([margin_hinge(model, x, y, w) for x, y in zip(X, Y)])  # noqa: E731
    primal.append(P(w))
    for _ in range(n_epochs):
        for i in rng.permutation(len(X)):
            y_bar = max(range(4), key=lambda c: model.loss(Y[i], c) + w @ model.joint_feature(X[i], c))
            t += 1
            w = w - (w + C * (model.joint_feature(X[i], y_bar) - model.joint_feature(X[i], Y[i]))) / t
        primal.append(P(w))
    return w, primal


def test_certified_epochs_check():
    from course_lib.structured.models import toy_hierarchy

    X, y = toy_hierarchy(n=40, seed=3)
    Y = [int(v) for v in y]
    _, primal = ssg(ex.hierarchy_model(), X, Y, 10.0, 30, 0)
    lower = ex.certified_lower_bound(X, Y, 10.0)
    first = int(np.flatnonzero(np.array(primal) <= 1.1 * lower)[0])
    check = lambda a: ex.check_certified_epochs(a, X, Y, 10.0, 0, 30, "D")  # noqa: E731
    assert_passes(check, first)
    assert_caught(check, first + 3, "earlier epoch")
    if first > 0:
        assert_caught(check, first - 1, "not yet within")
    assert_junk_never_raises(lambda a: check(-1 if type(a) is int and a == first else a))  # the junk 3 may be it
    smaller = lambda a: ex.check_certified_epochs(0, X[:12], Y[:12], 10.0, 0, a, "D")  # noqa: E731  # another problem
    assert_caught(smaller, 3, "the exercise's run")
    assert_caught(lambda a: ex.check_certified_epochs(0, X, Y, a, 0, 30, "D"), 1e-9, "the exercise's run")  # C -> 0
    # the epoch is a number the library's learner prints: the prediction made before running is asked too
    assert_caught(lambda a: ex.check_certified_epochs(first, X, Y, 10.0, 0, 30, a), "A", "one example")
    assert_caught(lambda a: ex.check_certified_epochs(first, X, Y, 10.0, 0, 30, a), ..., "prediction too")
    gap = (np.array(primal) - lower) / lower  # the right prediction: the gap grows at some epoch of this run
    assert np.any(np.diff(gap) > 0) and gap[-1] < gap[0]


def test_constraint_counts_check():
    f2, f3 = math.log10(30) + 100 * math.log10(3), 3000 * math.log10(3)
    assert_passes(lambda a: ex.check_constraint_counts(*a), (f2, f3))
    assert_caught(lambda a: ex.check_constraint_counts(a, f3), f2 - math.log10(30), "one constraint per example")
    assert_caught(lambda a: ex.check_constraint_counts(f2, a), 30 + 100 * math.log10(3), "added the exponents")
    assert_junk_never_raises(lambda a: ex.check_constraint_counts(a, a))
    assert_no_answer_leak(lambda a: ex.check_constraint_counts(a, 0), 3.0, number_strings(round(f2, 2)))


def delta_from_tree(parent, classes):
    def depths(node):  # {ancestor: number of edges up from node}
        up = {node: 0}
        while node in parent:
            node = parent[node]
            up[node] = len(up)
        return up

    rows = []
    for a in classes:
        up_a = depths(a)
        rows.append([min(up_a[v] + steps for v, steps in depths(b).items() if v in up_a) / 2 for b in classes])
    return np.array(rows)


def test_tree_delta_check():
    assert_passes(ix.check_tree_delta, delta_from_tree)
    assert_caught(ix.check_tree_delta, lambda parent, classes: 2 * delta_from_tree(parent, classes),
                  "constant factor")
    def through_the_root(parent, classes):  # the common ancestor forgotten: every path goes up to the root
        def depth(node):
            return 0 if node not in parent else 1 + depth(parent[node])
        return np.array([[(depth(a) + depth(b)) / 2 * (a != b) for b in classes] for a in classes])

    assert_caught(ix.check_tree_delta, through_the_root, "on case 1 ")
    by_hand = delta_from_tree(ix._parents(ix.EXERCISE_TREE), ["cat", "dog", "bird", "car", "bus"])
    assert_caught(ix.check_tree_delta, lambda parent, classes: by_hand, "on case")  # the exercise's tree only
    assert_caught(ix.check_tree_delta, lambda parent, classes: HierarchicalModel(
        {node: [c for c in classes if parent.get(c) == node] for node in set(parent.values())}).delta_matrix(),
        "write it yourself")
    tree_distance = {"d": ix.tree_distance}  # the library's function behind a dict
    assert_caught(ix.check_tree_delta, lambda parent, classes: np.array(
        [[tree_distance["d"](parent, a, b) / 2 for b in classes] for a in classes]), "write it yourself")
    assert_caught(ix.check_tree_delta, ix._reference_tree_delta, "write it yourself")
    assert_junk_never_raises(ix.check_tree_delta)
    assert_stops_a_function_that_never_returns(ix.check_tree_delta)


def test_the_exercise_tree_gives_the_slides_values():
    """The check's first case is the exercise's tree; half its distances are the slides' kind of values."""
    case = ix._tree_cases(np.random.default_rng(0))[0]
    Delta = ix._reference_tree_delta(**case)
    assert case["classes"] == HierarchicalModel(ix.EXERCISE_TREE).classes_
    assert np.allclose(Delta, HierarchicalModel(ix.EXERCISE_TREE).delta_matrix())
    assert (Delta[0, 1], Delta[0, 2], Delta[0, 4]) == (1.0, 1.5, 2.5)


def test_auc_sort_check():
    assert_passes(ix.check_auc_sort, auc_sort)
    assert_caught(ix.check_auc_sort, lambda s, r: np.argsort(-s), "swapped wrongly")
    assert_caught(ix.check_auc_sort, lambda s, r: np.lexsort((-r, -(s + r / 4.0))), "swapped wrongly")  # sign
    assert_caught(ix.check_auc_sort, lambda s, r: ix.auc_oracle(s, r), "write it yourself")
    assert_stops_a_function_that_never_returns(ix.check_auc_sort)
    assert_caught(ix.check_auc_sort, lambda s, r: np.arange(len(s) + 1), "permutation")
    assert_junk_never_raises(ix.check_auc_sort)


@pytest.mark.parametrize("check, right, wrong, fragment", [
    (lambda a: ix.check_binary_ssvm(*a, "D"), (-1, 0.5), (-1, 0.75), "factor 1/2"),
    (lambda a: ix.check_binary_ssvm(*a, "D"), (-1, 0.5), (1, 0.5), "opposite sign"),
    (ix.check_two_class_crammer_singer, [-2.0, -1.5], [2.0, 1.5], "opposite sign"),
])
def test_number_checks(check, right, wrong, fragment):
    assert_passes(check, right)
    assert_caught(check, wrong, fragment)
    assert_junk_never_raises(lambda a: check((a, a)) if isinstance(right, tuple) else check(a))


def auc_pairs(s, r):
    """A student's counts: 1 - AUC (a tie counts 1/2) and the pairs with s_i - s_j < 1/2."""
    s = np.asarray(s, dtype=float)
    gaps = s[np.asarray(r) > 0][:, None] - s[np.asarray(r) < 0][None, :]
    return 1 - (np.sum(gaps > 0) + np.sum(gaps == 0) / 2) / gaps.size, int(np.sum(gaps < 0.5))


def test_auc_pairs_check():
    """Exercise 4 is coding: the library's `auc` and ranking model answer it in two calls, and
    are refused while the student's function runs."""
    r, s = ix.AUC_EXERCISE["r"], ix.AUC_EXERCISE["s"]
    assert auc_pairs(s, r) == (1 - ix.auc(r, s), 4) and np.isclose(auc_pairs(s, r)[0], 1 / 3)
    assert_passes(ix.check_auc_pairs, auc_pairs)
    assert_caught(ix.check_auc_pairs, lambda s, r: (1 - auc_pairs(s, r)[0], auc_pairs(s, r)[1]), "AUC itself")

    def already_wrong(s, r):  # only the pairs already inverted: the oracle also swaps right ones with a small gap
        gaps = np.asarray(s)[r > 0][:, None] - np.asarray(s)[r < 0][None, :]
        return auc_pairs(s, r)[0], int(np.sum(gaps < 0))

    def gap_included(s, r):  # a gap of exactly 1/2 keeps the truth's order
        gaps = np.asarray(s)[r > 0][:, None] - np.asarray(s)[r < 0][None, :]
        return auc_pairs(s, r)[0], int(np.sum(gaps <= 0.5))

    def ties_count_zero(s, r):
        gaps = np.asarray(s)[r > 0][:, None] - np.asarray(s)[r < 0][None, :]
        return 1 - np.sum(gaps > 0) / gaps.size, auc_pairs(s, r)[1]

    assert_caught(ix.check_auc_pairs, already_wrong, "pair count")
    assert_caught(ix.check_auc_pairs, gap_included, "pair count")
    assert_caught(ix.check_auc_pairs, ties_count_zero, "1 - AUC")
    assert_caught(ix.check_auc_pairs, lambda s, r: (1 - ix.auc(r, s), auc_pairs(s, r)[1]), "write it yourself")
    assert_caught(ix.check_auc_pairs, lambda s, r: ix._reference_auc_pairs(s, r), "write it yourself")
    from sklearn.metrics import roc_auc_score
    assert_caught(ix.check_auc_pairs, lambda s, r: (1 - roc_auc_score(r, s), auc_pairs(s, r)[1]), "write it yourself")
    assert_caught(ix.check_auc_pairs, lambda s, r: (1 / 3, 4), "on case 2 ")  # the exercise's numbers only
    assert_junk_never_raises(ix.check_auc_pairs)
    assert_stops_a_function_that_never_returns(ix.check_auc_pairs)


def test_the_binary_hinge_is_not_leaked():
    assert_no_answer_leak(lambda a: ix.check_binary_ssvm(-1, a, "D"), 0.9, number_strings(0.5))


def test_the_binary_hinge_needs_the_reason_the_library_cannot_give():
    """The chapter's BinaryModel gives 12 ex 1's two numbers in three calls (inference, then the
    loss-augmented output's loss and score); why the hinge is not 0 is the student's own."""
    from course_lib.structured.models import BinaryModel

    model, w, x, y = BinaryModel(), np.array([2.0, -1.0]), np.array([0.5, 1.5]), -1
    y_bar = model.loss_augmented_inference(x, y, w)
    hinge = model.loss(y, y_bar) + w @ (model.joint_feature(x, y_bar) - model.joint_feature(x, y))
    assert_caught(lambda a: ix.check_binary_ssvm(model.inference(x, w), hinge, a), ..., "letter of your reason")
    for wrong in "ABC":
        assert_no_answer_leak(lambda a: ix.check_binary_ssvm(-1, 0.5, a), wrong, ["(D)"])
    assert_passes(lambda a: ix.check_binary_ssvm(-1, 0.5, a), "D")


def test_the_auc_cases_hold_ties_and_gaps_of_one_half():
    """The random queries make the two borderline rules matter: equal scores, and gaps of exactly 1/2."""
    cases = ix._auc_pairs_cases(np.random.default_rng(0))
    gaps = [c["s"][c["r"] > 0][:, None] - c["s"][c["r"] < 0][None, :] for c in cases[1:]]
    assert sum(np.any(g == 0) for g in gaps) >= 3 and sum(np.any(g == 0.5) for g in gaps) >= 3


def test_the_auc_hint_states_what_a_swap_changes():
    """The hint of exercise 4: swapping one (relevant, irrelevant) pair adds 1/|P| to Delta and
    takes 2 (sᵢ - sⱼ)/|P| from ⟨w, Ψ⟩, measured on the library's model."""
    r, s = np.array([1, -1, 1, -1, -1]), np.array([2.0, 1.8, 0.5, 0.2, 1.0])
    model, mask = ix.RankingModel(), np.abs(ix.relevance_matrix(r))
    P = int(np.sum(ix.relevance_matrix(r) > 0))
    before = ix.order_matrix([0, 1, 2, 3, 4]) * mask
    after = ix.order_matrix([1, 0, 2, 3, 4]) * mask  # the pair (0 relevant, 1 irrelevant) swapped
    score = lambda Y: float(model.joint_feature(s[:, None], Y)[0])  # noqa: E731
    assert np.isclose(model.loss(r, after) - model.loss(r, before), 1 / P)
    assert np.isclose(score(before) - score(after), 2 * (s[0] - s[1]) / P)
    assert "2 (sᵢ - sⱼ)/|P|" in ix.check_auc_pairs(lambda s, r: (0.0, 0)).hint().text
