"""Ranking [S17] and metric learning to rank [S18], checked by enumeration of orderings."""

from itertools import permutations, product

import numpy as np
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score

from course_lib.structured.base import augmented_score
from course_lib.structured.ranking import (
    RankingModel, auc, average_precision, learn_metric, mahalanobis_features,
    mean_average_precision, order_matrix, pairwise_disagreements, precision_at_k, project_psd,
    query_features, rank_by_scores, relevance_matrix, roc_curve, toy_metric_queries, toy_ranking_queries,
)


def pairwise_auc(r, s):
    """AUC by the double loop over (relevant, irrelevant) pairs."""
    pairs = [(i, j) for i in range(len(r)) for j in range(len(r)) if r[i] > 0 > r[j]]
    return sum(1.0 if s[i] > s[j] else 0.5 if s[i] == s[j] else 0.0 for i, j in pairs) / len(pairs)


def tiny_problem(rng, n=5):
    r = rng.permutation(np.r_[1, -1, rng.choice([-1, 1], size=n - 2)])
    return rng.normal(size=(n, 2)), r, rng.normal(size=2) * rng.choice([0.3, 1.0, 4.0])


def test_matrices_follow_the_slides_convention():
    Y = order_matrix([2, 0, 1])  # o_2 first, then o_0, then o_1
    assert Y[2, 0] == 1 and Y[0, 1] == 1 and Y[2, 1] == 1 and Y[1, 2] == -1
    assert np.array_equal(Y, -Y.T) and not np.diag(Y).any()
    R = relevance_matrix([1, -1, 1])
    assert np.array_equal(R, [[0, 1, 0], [-1, 0, -1], [0, 1, 0]])


def test_auc_against_pairs_and_sklearn():
    rng = np.random.default_rng(0)
    for _ in range(50):
        r = rng.permutation(np.r_[1, -1, rng.choice([-1, 1], size=10)])
        s = rng.integers(0, 4, size=12).astype(float)  # many ties
        assert np.isclose(auc(r, s), pairwise_auc(r, s))
        assert np.isclose(auc(r, s), roc_auc_score(r, s))
        fpr, tpr = roc_curve(r, s)
        assert np.isclose(np.trapezoid(tpr, fpr), auc(r, s))


def test_loss_is_one_minus_auc_and_pairwise_disagreement():
    rng = np.random.default_rng(1)
    model = RankingModel()
    for _ in range(30):
        r = rng.permutation(np.r_[1, -1, rng.choice([-1, 1], size=6)])
        s = rng.normal(size=8)
        Y_hat = order_matrix(rank_by_scores(s))
        assert np.isclose(model.loss(r, Y_hat), 1.0 - auc(r, s))
        assert np.isclose(model.loss(r, Y_hat), pairwise_disagreements(relevance_matrix(r), Y_hat))
    assert model.loss([1, -1, -1], relevance_matrix([1, -1, -1])) == 0.0


def test_precision_at_k_and_map():
    r, s = np.array([1, -1, 1, -1, -1]), np.array([0.9, 0.8, 0.3, 0.5, 0.1])
    assert precision_at_k(r, s, 1) == 1.0 and precision_at_k(r, s, 2) == 0.5
    assert np.isclose(average_precision(r, s), (1 + 2 / 4) / 2)
    rng = np.random.default_rng(2)
    R = [rng.permutation(np.r_[1, -1, rng.choice([-1, 1], size=8)]) for _ in range(5)]
    S = [rng.normal(size=10) for _ in range(5)]
    for r, s in zip(R, S):
        assert np.isclose(average_precision(r, s), average_precision_score(r, s))
    assert np.isclose(mean_average_precision(R, S), np.mean([average_precision_score(r, s)
                                                              for r, s in zip(R, S)]))


def test_joint_feature_is_the_slides_double_sum():
    rng = np.random.default_rng(3)
    Phi, r, _ = tiny_problem(rng, 6)
    Y = order_matrix(rng.permutation(6)) * np.abs(relevance_matrix(r))
    pos, neg = np.flatnonzero(r > 0), np.flatnonzero(r < 0)
    double_sum = sum(Y[i, j] * (Phi[i] - Phi[j]) for i in pos for j in neg)
    assert np.allclose(RankingModel().joint_feature(Phi, Y), double_sum / (pos.size * neg.size))


def test_inference_sorts_and_beats_every_permutation():
    rng = np.random.default_rng(4)
    model = RankingModel()
    for _ in range(20):
        Phi, r, w = tiny_problem(rng, 5)
        best = max(w @ model.joint_feature(Phi, order_matrix(p)) for p in permutations(range(5)))
        Y_hat = model.inference(Phi, w)
        assert np.isclose(w @ model.joint_feature(Phi, Y_hat), best)
        assert np.array_equal(Y_hat, order_matrix(np.argsort(-(Phi @ w))))


@pytest.mark.parametrize("n", [2, 4, 6])
def test_loss_augmented_inference_against_all_orderings(n):
    rng = np.random.default_rng(5 + n)
    model = RankingModel()
    for _ in range(15 if n < 6 else 4):
        Phi, r, w = tiny_problem(rng, n)
        support = np.abs(relevance_matrix(r))
        Y_bar = model.loss_augmented_inference(Phi, r, w)
        value = augmented_score(model, Phi, r, Y_bar, w)
        over_orderings = max(augmented_score(model, Phi, r, order_matrix(p) * support, w)
                             for p in permutations(range(n)))
        assert np.isclose(value, over_orderings)
        # the pairs decouple: no sign pattern, consistent with an ordering or not, does better
        pos, neg = np.flatnonzero(r > 0), np.flatnonzero(r < 0)
        best_pattern = -np.inf
        for signs in product((-1.0, 1.0), repeat=pos.size * neg.size):
            Y = np.zeros((n, n))
            Y[np.ix_(pos, neg)] = np.reshape(signs, (pos.size, neg.size))
            best_pattern = max(best_pattern, augmented_score(model, Phi, r, Y - Y.T, w))
        assert np.isclose(value, best_pattern)


def test_ranking_validation():
    model = RankingModel()
    Phi = np.ones((3, 2))
    with pytest.raises(ValueError, match="relevant"):
        model.loss_augmented_inference(Phi, [1, 1, 1], np.ones(2))
    with pytest.raises(ValueError, match="-1, \\+1"):
        model.joint_feature(Phi, [1, 0, -1])
    with pytest.raises(ValueError, match="3 x 3"):
        model.joint_feature(Phi, np.zeros((2, 2)))
    with pytest.raises(ValueError, match="antisymmetric"):
        model.joint_feature(Phi, np.ones((3, 3)))
    with pytest.raises(ValueError, match="slack"):
        model.loss_augmented_inference(Phi, [1, -1, -1], np.ones(2), rescaling="slack")
    with pytest.raises(ValueError, match="NaN"):
        model.inference([[np.nan, 1.0], [1.0, 2.0]], np.ones(2))
    with pytest.raises(ValueError, match="not a relevance labelling"):
        model.loss_augmented_inference(Phi, order_matrix([0, 1, 2]), np.ones(2))
    with pytest.raises(ValueError, match="same number of features"):
        model.initialize([np.ones((3, 2)), np.ones((3, 3))], [[1, -1, 1], [1, -1, 1]])
    with pytest.raises(ValueError, match="permutation"):
        order_matrix([0, 0, 1])


def test_toy_ranking_is_seeded():
    X1, R1, _ = toy_ranking_queries(seed=3)
    X2, R2, _ = toy_ranking_queries(seed=3)
    assert all(np.array_equal(a, b) for a, b in zip(X1, X2))
    assert all(set(r) == {-1, 1} for r in R1)


# --- S18 --------------------------------------------------------------------------------
def test_mahalanobis_features_give_minus_the_distance():
    rng = np.random.default_rng(6)
    q, items = rng.normal(size=3), rng.normal(size=(4, 3))
    A = rng.normal(size=(3, 3))
    W = A @ A.T
    expected = [-(q - b) @ W @ (q - b) for b in items]
    assert np.allclose(mahalanobis_features(q, items) @ W.ravel(), expected)


def test_project_psd_is_the_nearest_psd_matrix():
    rng = np.random.default_rng(7)
    W = rng.normal(size=(3, 3))
    P = project_psd(W)
    assert np.allclose(P, P.T) and np.linalg.eigvalsh(P).min() > -1e-12
    A = rng.normal(size=(3, 3))
    assert np.allclose(project_psd(A @ A.T), A @ A.T)
    S = (W + W.T) / 2  # no random PSD matrix is closer to the symmetric part than P
    for _ in range(200):
        B = rng.normal(size=(3, 3))
        assert np.linalg.norm(S - P) <= np.linalg.norm(S - B @ B.T) + 1e-12


def test_learned_metric_is_psd_and_ranks_better_than_euclid():
    X, R = toy_metric_queries(seed=0)
    W, info = learn_metric(X, R, lam=0.01, psd=True, tol=1e-2)
    assert info["converged"] and info["lower_bound"] <= info["objective"]
    assert np.linalg.eigvalsh(W).min() > -1e-10
    def mean_auc(M):
        return np.mean([auc(r, mahalanobis_features(q, b) @ M.ravel()) for (q, b), r in zip(X, R)])
    assert mean_auc(W) > mean_auc(np.eye(2)) + 0.1
    assert abs(W[0, 0]) > 3 * abs(W[1, 1])


def metric_objective(W, X, R, lam):
    """lam/2 ||W||^2 + mean hinge, with the hinge by enumeration of the swapped pairs' orders."""
    model = RankingModel()
    total = 0.0
    for (q, b), r in zip(X, R):
        Phi = mahalanobis_features(q, b)
        y_bar = model.loss_augmented_inference(Phi, r, W.ravel())
        total += model.loss(r, y_bar) + W.ravel() @ (model.joint_feature(Phi, y_bar) - model.joint_feature(Phi, r))
    return lam / 2 * np.sum(W * W) + total / len(X)


def test_learn_metric_unconstrained_matches_the_one_slack_learner():
    from course_lib.structured.learners import OneSlackSSVM
    X, R = toy_metric_queries(seed=3)
    W, info = learn_metric(X, R, lam=0.01, psd=False, tol=1e-3)
    features = [mahalanobis_features(q, b) for q, b in X]
    reference = OneSlackSSVM(RankingModel(), C=100.0, tol=1e-6).fit(features, R)
    best = 0.01 * reference.objective(features, R)
    assert np.isclose(info["objective"], metric_objective(W, X, R, 0.01))
    assert info["lower_bound"] <= best + 1e-9 and info["objective"] <= best * (1 + 1e-3) + 1e-9


def test_learn_metric_psd_lower_bound_holds_against_random_psd_matrices():
    X, R = toy_metric_queries(seed=1)
    W, info = learn_metric(X, R, lam=0.01, psd=True, tol=1e-2)
    rng = np.random.default_rng(0)
    for _ in range(50):
        B = rng.normal(scale=rng.choice([0.3, 1.0]), size=(2, 2))
        assert metric_objective(B @ B.T, X, R, 0.01) >= info["lower_bound"] - 1e-9
    assert metric_objective(W, X, R, 0.01) <= info["lower_bound"] / (1 - 1e-2) + 1e-9


def test_learn_metric_validates():
    X, R = toy_metric_queries(seed=0)
    with pytest.raises(ValueError, match="lam"):
        learn_metric(X, R, lam=-1.0)
    with pytest.raises(ValueError, match="tol"):
        learn_metric(X, R, tol=0.0)


def test_capped_simplex_projection_against_brute_force():
    from course_lib.structured.ranking import _project_capped_simplex
    rng = np.random.default_rng(0)
    for _ in range(100):
        v, cap = rng.normal(scale=2.0, size=4), rng.uniform(0.1, 3.0)
        p = _project_capped_simplex(v, cap)
        assert p.min() >= 0 and p.sum() <= cap + 1e-12
        for _ in range(50):  # no feasible point is closer to v
            q = rng.dirichlet(np.ones(5))[:4] * cap
            assert np.linalg.norm(v - p) <= np.linalg.norm(v - q) + 1e-12


def test_query_features():
    q, items = np.array([1.0, 2.0]), np.array([[0.0, 0.0], [1.0, 3.0]])
    assert np.allclose(query_features(q, items, "difference"), [[1, 2], [0, -1]])
    assert np.allclose(query_features(q, items, "squared"), [[-1, -4], [0, -1]])
    other = np.array([5.0, -3.0])  # b_q - b_i: pairwise differences do not involve q
    d1, d2 = query_features(q, items, "difference"), query_features(other, items, "difference")
    assert np.allclose(d1[0] - d1[1], d2[0] - d2[1])
    with pytest.raises(ValueError, match="kind"):
        query_features(q, items, "cosine")
    with pytest.raises(ValueError, match="query"):
        query_features([1.0], items)
