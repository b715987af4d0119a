"""The chapters 07-08 self-checks accept right answers (worked out by hand here) and reject wrong ones."""

import numpy as np
import pytest

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
    assert ex.check_votes([2, 1, 2, 1], 1, "B")
    assert not ex.check_votes([2, 1, 2, 1], 3, "B")
    assert not ex.check_votes([1, 1, 2, 2], 3, "B")


def test_votes_need_the_reason_the_library_cannot_give():
    """`pairwise_votes` gives the counts in one call; why class 1 wins is the student's own."""
    from course_lib.multiclass import pairwise_votes

    decisions = np.array([[h for h in ex.PAIRWISE.values()]], dtype=float)
    votes = pairwise_votes(decisions, 4)[0].tolist()
    assert "letter of your reason" in ex.check_votes(votes, int(np.argmax(votes)) + 1).why
    for wrong in ("A", "C", "D"):
        verdict = ex.check_votes(votes, 1, wrong)
        assert not verdict and "votes and the winner are right" in verdict.why and "(B)" not in verdict.why


def test_ovr_confidences():
    assert ex.check_ovr_confidences(1, 3)
    assert not ex.check_ovr_confidences(1, 1)


def multi_vector(x, y, k):
    return np.concatenate([x if block == y else np.zeros(len(x)) for block in range(k)])


def test_multi_vector():
    assert_passes(ex.check_multi_vector, multi_vector)
    assert_caught(ex.check_multi_vector, lambda x, y, k: multi_vector(x, y - 1, k), "on case 1 ")  # classes from 1
    assert_caught(ex.check_multi_vector, lambda x, y, k: np.r_[x, np.zeros(len(x) * (k - 1))], "on case 1 ")
    assert_caught(ex.check_multi_vector, lambda x, y, k: multi_vector(x, y, k)[:len(x) * (k - 1)], "shape")
    assert_caught(ex.check_multi_vector, lambda x, y, k: np.array([0, 0, 2, -1, 0, 0.0]), "on case 2")  # by hand only
    library = {"map": MultiVector}  # the library's map behind a dict
    assert_caught(ex.check_multi_vector, lambda x, y, k: library["map"]().fit(np.atleast_2d(x), [0], k).psi(x, y),
                  "write it yourself")
    assert_caught(ex.check_multi_vector, ex._psi_reference, "write it yourself")
    assert_junk_never_raises(ex.check_multi_vector)
    assert_stops_a_function_that_never_returns(ex.check_multi_vector)


def test_hinge():
    # scores (1, 0.5, 1.5), y = 1: terms 0, 1 + 0.5 - 1, 2 + 1.5 - 1 -> 2.5 at y_hat = 3
    assert ex.check_hinge(2.5, 3, "B")
    assert not ex.check_hinge(0.5, 2, "B")
    assert not ex.check_hinge(2.5, 3) and not ex.check_hinge(2.5, 3, "C")  # the library's numbers alone do not pass
    assert "The hinge and ŷ are right" in ex.check_hinge(2.5, 3, "A").why
    assert ex.check_hinge(2.5, 3, ...).why == ex.check_hinge(0.5, 2, ...).why  # no part tried alone


def test_first_sgd_step():
    # y_hat = 3 at w = 0; w2 = Psi(x, 1) - Psi(x, 3) with 2 lambda = 1
    assert ex.check_first_sgd_step([1, 0.5, 0, 0, -1, -0.5])
    assert not ex.check_first_sgd_step([-1, -0.5, 0, 0, 1, 0.5])
    assert not ex.check_first_sgd_step([1, 0.5])


def test_pac_sgd():
    assert ex.check_pac_sgd(1600, 0.05, "A") and ex.check_pac_sgd(1600, 0.05, 0)
    assert not ex.check_pac_sgd(40, 0.05, "A")
    assert not ex.check_pac_sgd(1600, 0.05) and not ex.check_pac_sgd(1600, 0.05, "D")
    assert "(A)" not in ex.check_pac_sgd(1600, 0.05, "B").why
    assert not ex.check_pac_sgd("1600", 0.05, "A") and not ex.check_pac_sgd(True, 0.05, "A")


# ---------------------------------------------------------------- coding exercises and robustness

from itertools import combinations  # noqa: E402

from exercise_testing import (assert_caught, assert_junk_never_raises, assert_passes,  # noqa: E402
                              assert_stops_a_function_that_never_returns)

from course_lib.multiclass import AllPairs, MultiVector, loss_augmented_argmax, pairwise_votes  # noqa: E402


def _votes(decisions, k):
    votes = np.zeros((len(decisions), k), dtype=int)
    for c, (i, j) in enumerate(combinations(range(k), 2)):
        votes[:, i] += decisions[:, c] >= 0
        votes[:, j] += decisions[:, c] < 0
    return votes


def test_all_pairs_votes_coding_exercise():
    assert_passes(ex.check_all_pairs_votes, _votes)
    assert_caught(ex.check_all_pairs_votes, lambda decisions, k: _votes(-decisions, k), "on case")  # sign
    assert_caught(ex.check_all_pairs_votes,  # ties sent to j: decision > 0 instead of >= 0
                  lambda decisions, k: _votes(np.where(decisions == 0, -1.0, decisions), k), "on case")
    assert_caught(ex.check_all_pairs_votes, lambda decisions, k: _votes(decisions, k)[:, ::-1], "on case")  # index
    assert_caught(ex.check_all_pairs_votes, lambda decisions, k: pairwise_votes(decisions, k), "write it yourself")

    def scikit_learn_private_vote(decisions, k):  # scikit-learn's own one-vs-one vote
        from sklearn.utils.multiclass import _ovr_decision_function

        votes = _ovr_decision_function(-decisions, np.sign(-decisions), k)
        return np.floor(votes + 0.5).astype(int)

    assert_caught(ex.check_all_pairs_votes, scikit_learn_private_vote, "write it yourself")
    assert_junk_never_raises(ex.check_all_pairs_votes)
    assert_stops_a_function_that_never_returns(ex.check_all_pairs_votes)


def _augmented(scores, y, Delta):
    rows = np.arange(len(y))
    return np.argmax(Delta[:, y].T + scores - scores[rows, y][:, None], axis=1)


def _step(W, t, x, y, lam, Delta):
    y_hat = _augmented((W @ x)[None], np.array([y]), Delta)[0]
    W = (1 - 1 / t) * W
    W[y_hat] -= x / (2 * lam * t)
    W[y] += x / (2 * lam * t)
    return W


def test_loss_augmented_argmax_coding_exercise():
    assert_passes(ex.check_loss_augmented_argmax, _augmented)
    assert_caught(ex.check_loss_augmented_argmax, lambda scores, y, Delta: _augmented(-scores, y, Delta), "on case")
    assert_caught(ex.check_loss_augmented_argmax, lambda scores, y, Delta: _augmented(scores, y, Delta.T), "on case")
    assert_caught(ex.check_loss_augmented_argmax, lambda scores, y, Delta: np.argmax(scores, axis=1), "on case")
    assert_caught(ex.check_loss_augmented_argmax, _last_of_ties, "on case")  # the text says: the first on ties


def _last_of_ties(scores, y, Delta):
    objective = Delta[:, y].T + scores - scores[np.arange(len(y)), y][:, None]
    return scores.shape[1] - 1 - np.argmax(objective[:, ::-1], axis=1)


@pytest.mark.parametrize("seed", range(10))
def test_the_augmented_cases_have_ties(seed):
    ties = 0
    for case in ex._augmented_cases(np.random.default_rng(seed)):
        scores, y, Delta = case["scores"], case["y"], case["Delta"]
        objective = Delta[:, y].T + scores - scores[np.arange(len(y)), y][:, None]
        ties += int(np.sum(np.sum(objective == objective.max(axis=1, keepdims=True), axis=1) > 1))
    assert ties >= 5, ties
    assert_caught(ex.check_loss_augmented_argmax,
                  lambda scores, y, Delta: loss_augmented_argmax(scores, y, Delta)[0], "write it yourself")

    def through_a_structured_model(scores, y, Delta):  # the MulticlassModel(cost=...) back door
        from course_lib.structured.models import MulticlassModel

        model = MulticlassModel(len(Delta), cost=Delta.T)
        eye = np.eye(len(Delta))
        return np.array([model.loss_augmented_inference(eye[0], yi, (eye[:, :1] * s[:, None]).ravel())
                         for s, yi in zip(scores, y)])

    assert_caught(ex.check_loss_augmented_argmax, through_a_structured_model, "write it yourself")
    assert_junk_never_raises(ex.check_loss_augmented_argmax)
    assert_stops_a_function_that_never_returns(ex.check_loss_augmented_argmax)


def test_sgd_step_coding_exercise():
    assert_passes(ex.check_sgd_step, _step)
    assert_caught(ex.check_sgd_step, lambda W, t, x, y, lam, Delta: _step(W, t, -x, y, lam, Delta), "on case")
    assert_caught(ex.check_sgd_step, lambda W, t, x, y, lam, Delta: _step(W, t + 1, x, y, lam, Delta), "on case")
    assert_caught(ex.check_sgd_step,
                  lambda W, t, x, y, lam, Delta: _step(W, t, x, y, lam, Delta) + 0 * loss_augmented_argmax(
                      (W @ x)[None], np.array([y]), Delta)[0][0], "write it yourself")
    assert_junk_never_raises(ex.check_sgd_step)
    assert_stops_a_function_that_never_returns(ex.check_sgd_step)


def test_numeric_checks_never_raise():
    for check in (lambda a: ex.check_problem_counts(a, a), lambda a: ex.check_region_boundaries(a, a),
                  lambda a: ex.check_votes(a, a), lambda a: ex.check_ovr_confidences(a, a),
                  lambda a: ex.check_hinge(a, a), ex.check_first_sgd_step, lambda a: ex.check_pac_sgd(a, a)):
        assert_junk_never_raises(check)


def test_the_exercise_reference_is_what_all_pairs_votes_with():
    """The check's reference (pairwise_votes) counts the same votes as AllPairs on fitted learners."""
    from course_lib.data import three_blobs
    from course_lib.linear import LeastSquaresClassifier

    X, y = three_blobs(n=90, seed=4)
    pairs = AllPairs(LeastSquaresClassifier()).fit(X, y)
    np.testing.assert_array_equal(pairs.votes(X), _votes(pairs.pairwise_decisions(X), 3))
