"""Reductions, feature maps, costs and the generalised hinge (M1-M8, M12), against scikit-learn,
brute force and finite differences."""

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.multiclass import OneVsOneClassifier, OneVsRestClassifier

from course_lib.data import forty_twenty_forty, three_blobs
from course_lib.text import bag_of_words
from course_lib.multiclass import (
    AllPairs,
    BinaryMap,
    HalfspaceERM,
    MultiVector,
    OneVsRest,
    TfIdfMap,
    check_cost,
    clone,
    cost_sensitive_risk,
    generalised_hinge,
    hinge_subgradient,
    predict_index,
    term_counts,
    zero_one_cost,
)

SLIDES_W = np.array([[-1.0, 1.0], [0.0, np.sqrt(2.0)], [1.0, 1.0]]) / np.sqrt(2.0)


class LogisticBinary:
    """A binary learner with fit(X, r in {-1, +1}) / decision_function around scikit-learn."""

    def __init__(self, C=1.0):
        self.C = C

    def fit(self, X, r):
        self.model_ = LogisticRegression(C=self.C, tol=1e-12, max_iter=10_000).fit(X, r)
        return self

    def decision_function(self, X):
        return self.model_.decision_function(X)


def blobs(n=120, k=4, seed=0, spread=1.3):
    rng = np.random.default_rng(seed)
    centres = 2.0 * np.c_[np.cos(2 * np.pi * np.arange(k) / k), np.sin(2 * np.pi * np.arange(k) / k)]
    y = np.arange(n) % k
    return centres[y] + rng.normal(scale=spread, size=(n, 2)), y


def sklearn_logistic():
    return LogisticRegression(C=1.0, tol=1e-12, max_iter=10_000)


# ---------------------------------------------------------------- reductions (M1, M3)


def test_one_vs_rest_matches_sklearn():
    X, y = blobs()
    ours = OneVsRest(LogisticBinary()).fit(X, y)
    ref = OneVsRestClassifier(sklearn_logistic()).fit(X, y)
    X_test, _ = blobs(n=300, seed=1)
    np.testing.assert_allclose(ours.decision_function(X_test), ref.decision_function(X_test), atol=1e-5)
    np.testing.assert_array_equal(ours.predict(X_test), ref.predict(X_test))
    assert len(ours.estimators_) == 4


def test_one_vs_rest_uses_confidences_not_signs():
    X, y = blobs(spread=1.6)
    ours = OneVsRest(LogisticBinary()).fit(X, y)
    confidences = ours.decision_function(X)
    np.testing.assert_array_equal(ours.predict(X), np.argmax(confidences, axis=1))
    # where no binary classifier says +1 the signs cannot decide, the confidences still do
    none_positive = np.all(confidences <= 0, axis=1)
    assert none_positive.any()
    assert np.all(ours.predict_with_signs(X)[none_positive] == 0)
    assert (ours.predict(X) == y).mean() >= (ours.predict_with_signs(X) == y).mean()


def test_all_pairs_matches_sklearn_votes_and_predictions():
    X, y = blobs(k=4, spread=1.6)
    ours = AllPairs(LogisticBinary()).fit(X, y)
    ref = OneVsOneClassifier(sklearn_logistic()).fit(X, y)
    assert len(ours.estimators_) == 4 * 3 // 2 and ours.pairs_ == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    X_test, _ = blobs(n=400, k=4, seed=3, spread=2.0)
    # scikit-learn trains pair (i, j) with class j as the positive class: its decisions are -h_ij
    ref_decisions = np.column_stack([e.decision_function(X_test) for e in ref.estimators_])
    np.testing.assert_allclose(ours.pairwise_decisions(X_test), -ref_decisions, atol=1e-5)
    votes = ours.votes(X_test)
    np.testing.assert_array_equal(votes, np.rint(ref.decision_function(X_test)).astype(int))
    assert np.all(votes.sum(axis=1) == 6)
    unique_winner = (votes == votes.max(axis=1, keepdims=True)).sum(axis=1) == 1
    assert unique_winner.mean() > 0.5 and not unique_winner.all()
    predictions = ours.predict(X_test)
    np.testing.assert_array_equal(predictions[unique_winner], ref.predict(X_test)[unique_winner])
    # ties go to the smallest class index
    tied = ~unique_winner
    first_max = np.argmax(votes[tied] == votes[tied].max(axis=1, keepdims=True), axis=1)
    np.testing.assert_array_equal(predictions[tied], first_max)


def test_vote_formula_by_hand():
    """Three classes, h_12 = +1, h_13 = -1, h_23 = -1: votes (1, 0, 2), class 3 wins."""

    class Fixed:
        def __init__(self, value=0.0):
            self.value = value

        def fit(self, X, r):
            return self

        def decision_function(self, X):
            return np.full(len(X), self.value)

    model = AllPairs(Fixed()).fit(np.zeros((3, 1)), [1, 2, 3])
    for estimator, value in zip(model.estimators_, (1.0, -1.0, -1.0)):
        estimator.value = value
    np.testing.assert_array_equal(model.votes(np.zeros((1, 1))), [[1, 0, 2]])
    assert model.predict(np.zeros((1, 1)))[0] == 3


def test_reductions_keep_any_hashable_labels():
    X, y = blobs(n=60, k=3)
    names = np.array(["cat", "dog", "whale"])[y]
    for reduction in (OneVsRest, AllPairs):
        model = reduction(LogisticBinary()).fit(X, names)
        assert model.classes_.tolist() == ["cat", "dog", "whale"]
        by_index = reduction(LogisticBinary()).fit(X, y)
        np.testing.assert_array_equal(model.predict(X), np.array(["cat", "dog", "whale"])[by_index.predict(X)])


def test_clone_rebuilds_from_constructor_arguments():
    original = LogisticBinary(C=0.3)
    copy = clone(original)
    assert copy is not original and copy.C == 0.3 and not hasattr(copy, "model_")
    with pytest.raises(TypeError, match="decision_function"):
        clone(object())


def test_reduction_validation():
    X, y = blobs(n=30, k=3)
    with pytest.raises(ValueError, match="lengths must match"):
        OneVsRest(LogisticBinary()).fit(X, y[:-1])
    with pytest.raises(ValueError, match="at least 2"):
        AllPairs(LogisticBinary()).fit(X, np.zeros(len(X)))
    with pytest.raises(ValueError, match="NaN"):
        OneVsRest(LogisticBinary()).fit(np.where(X > 1, np.nan, X), y)
    with pytest.raises(RuntimeError, match="not fitted"):
        OneVsRest(LogisticBinary()).predict(X)
    model = OneVsRest(LogisticBinary()).fit(X, y)
    with pytest.raises(ValueError, match="features"):
        model.predict(np.zeros((2, 3)))


# ---------------------------------------------------------------- the 40/20/40 example (M2)


def test_forty_twenty_forty_data():
    X, y = forty_twenty_forty(n=200, seed=0)
    np.testing.assert_array_equal(np.bincount(y), [0, 80, 40, 80])
    assert np.all(X[:, 1] == 1.0)
    first, second = forty_twenty_forty(n=200, seed=0)
    np.testing.assert_array_equal(first, X)
    with pytest.raises(ValueError, match="shares"):
        forty_twenty_forty(shares=(0.5, 0.5, 0.5))


def test_forty_twenty_forty_numbers():
    X, y = forty_twenty_forty(n=200, seed=0)
    argmax_error = np.mean(np.argmax(X @ SLIDES_W.T, axis=1) + 1 != y)
    assert argmax_error == 0.0
    ovr = OneVsRest(HalfspaceERM()).fit(X, y)
    best_two_vs_rest = ovr.estimators_[1]
    assert best_two_vs_rest.error_ == pytest.approx(0.2)
    assert np.all(best_two_vs_rest.decision_function(X) < 0)  # always says "no"
    for predictions in (ovr.predict(X), ovr.predict_with_signs(X)):
        assert np.mean(predictions != y) == pytest.approx(0.2)
        assert 2 not in predictions


def test_halfspace_erm_beats_every_direction_of_a_fine_grid():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(40, 2)) + [0.5, 0.2]
    r = np.where(X[:, 0] + 0.3 * rng.normal(size=40) > 0.4, 1.0, -1.0)
    model = HalfspaceERM().fit(X, r)
    angles = np.linspace(0, 2 * np.pi, 100_000, endpoint=False)
    W = np.c_[np.cos(angles), np.sin(angles)]
    grid_errors = np.mean(np.where(X @ W.T > 0, 1.0, -1.0) != r[:, None], axis=0)
    assert model.error_ == pytest.approx(grid_errors.min())
    assert model.error_ == np.mean(np.where(model.decision_function(X) > 0, 1.0, -1.0) != r)


# ---------------------------------------------------------------- feature maps (M4, M5, M6)


def test_multi_vector_is_argmax_of_W_x():
    rng = np.random.default_rng(0)
    X, k = rng.normal(size=(20, 3)), 4
    psi = MultiVector().fit(X, np.arange(20) % k, k)
    assert psi.dimension_ == 3 * k
    w = rng.normal(size=psi.dimension_)
    W = w.reshape(k, 3)
    explicit = np.array([[w @ psi.psi(x, y) for y in range(k)] for x in X])
    np.testing.assert_allclose(explicit, X @ W.T)
    np.testing.assert_allclose(psi.scores(X, w), X @ W.T)
    np.testing.assert_array_equal(predict_index(w, X, psi), np.argmax(X @ W.T, axis=1))
    block = psi.psi(X[0], 2)
    np.testing.assert_array_equal(block[6:9], X[0])
    assert np.count_nonzero(block[:6]) == 0 and np.count_nonzero(block[9:]) == 0
    w_copy = w.copy()
    psi.add_psi(w_copy, X[0], 2, 0.5)
    np.testing.assert_allclose(w_copy, w + 0.5 * block)


def test_multi_vector_with_bias_appends_a_one():
    X = np.array([[2.0, 3.0]])
    psi = MultiVector(bias=True).fit(X, [0], 2)
    np.testing.assert_array_equal(psi.psi(X[0], 1), [0, 0, 0, 2, 3, 1])


def test_binary_case_is_the_sign():
    rng = np.random.default_rng(1)
    X, w = rng.normal(size=(50, 4)), rng.normal(size=4)
    psi = BinaryMap().fit(X, np.arange(50) % 2, 2)
    np.testing.assert_array_equal(psi.psi(X[0], 1), X[0])
    np.testing.assert_array_equal(psi.psi(X[0], 0), -X[0])
    labels = np.array([-1, 1])[predict_index(w, X, psi)]
    np.testing.assert_array_equal(labels, np.sign(X @ w))
    with pytest.raises(ValueError, match="two classes"):
        BinaryMap().fit(X, np.arange(50) % 3, 3)


TINY_CORPUS = [
    "the socket sends bytes over the network",
    "open the socket and read bytes",
    "the date and the time zone",
    "parse the date string",
    "the time of the day in the zone",
]
TINY_TOPICS = np.array([0, 0, 1, 1, 1])


def tiny_counts():
    bags, vocabulary = bag_of_words(TINY_CORPUS)
    return term_counts(bags, vocabulary), vocabulary


def test_tf_idf_map_by_hand():
    X, vocabulary = tiny_counts()
    assert X[0, vocabulary.index("the")] == 2
    psi = TfIdfMap().fit(X, TINY_TOPICS, 2)
    m = len(TINY_CORPUS)
    for j, word in enumerate(vocabulary):
        for y in (0, 1):
            df = sum(word in doc.split() for doc, t in zip(TINY_CORPUS, TINY_TOPICS) if t != y)
            for i, doc in enumerate(TINY_CORPUS):
                tf = doc.split().count(word)
                assert psi.psi(X[i], y)[j] == pytest.approx(tf * np.log(m / (1 + df)))
    socket = vocabulary.index("socket")
    assert psi.psi(X[0], 0)[socket] > psi.psi(X[0], 1)[socket]  # "socket" is rare outside topic 0
    assert psi.dimension_ == len(vocabulary)
    three_topics = TfIdfMap().fit(X, np.array([0, 1, 2, 2, 1]), 3)
    assert three_topics.dimension_ == psi.dimension_  # the dimension ignores |Y|
    w = np.random.default_rng(0).normal(size=psi.dimension_)
    explicit = np.array([[w @ psi.psi(x, y) for y in (0, 1)] for x in X])
    np.testing.assert_allclose(psi.scores(X, w), explicit)


# ---------------------------------------------------------------- costs and the hinge (M7, M8, M12)


def random_cost(k, rng):
    Delta = rng.uniform(0.2, 3.0, size=(k, k))
    np.fill_diagonal(Delta, 0.0)
    return Delta


def brute_force_hinge(w, x, y, psi, Delta):
    return max(Delta[yp, y] + w @ (psi.psi(x, yp) - psi.psi(x, y)) for yp in range(psi.n_classes_))


def test_check_cost():
    np.testing.assert_array_equal(zero_one_cost(3), [[0, 1, 1], [1, 0, 1], [1, 1, 0]])
    assert check_cost(zero_one_cost(3), 3).shape == (3, 3)
    for bad, message in [
        (np.ones((2, 3)), "square"),
        (-zero_one_cost(3), "non-negative"),
        (np.ones((3, 3)), "diagonal"),
        (np.where(np.eye(3) > 0, 0, np.nan), "NaN"),
    ]:
        with pytest.raises(ValueError, match=message):
            check_cost(bad)
    with pytest.raises(ValueError, match="3 classes"):
        check_cost(zero_one_cost(2), 3)


def test_cost_sensitive_risk():
    Delta = np.array([[0.0, 5.0], [1.0, 0.0]])  # predicting 0 when the truth is 1 costs 5
    assert cost_sensitive_risk([0, 0, 1, 1], [0, 1, 1, 0], Delta) == pytest.approx((0 + 5 + 0 + 1) / 4)
    assert cost_sensitive_risk([0, 2, 1], [0, 1, 1], zero_one_cost(3)) == pytest.approx(1 / 3)


@pytest.mark.parametrize("k", [2, 3, 5])
def test_hinge_is_an_upper_bound_on_delta(k):
    rng = np.random.default_rng(k)
    X = rng.normal(size=(400, 3))
    psi = MultiVector().fit(X, np.arange(400) % k, k)
    for _ in range(50):
        w, Delta = rng.normal(scale=rng.uniform(0.1, 5), size=psi.dimension_), random_cost(k, rng)
        y = rng.integers(k, size=len(X))
        losses = generalised_hinge(w, X, y, psi, Delta)
        assert np.all(losses >= Delta[predict_index(w, X, psi), y] - 1e-12)
        assert np.all(losses >= 0)
    for i in range(10):
        assert generalised_hinge(w, X[i:i + 1], y[i:i + 1], psi, Delta)[0] == pytest.approx(
            brute_force_hinge(w, X[i], y[i], psi, Delta)
        )


def test_hinge_is_zero_once_every_margin_exceeds_delta():
    rng = np.random.default_rng(2)
    k, X = 4, rng.normal(size=(30, 3))
    Delta = random_cost(k, rng)
    psi = MultiVector().fit(X, np.arange(30) % k, k)
    for x in X:
        y = rng.integers(k)
        w = np.zeros(psi.dimension_)
        needed = Delta[:, y].max()  # <w_y, x> = margin, every other score is 0
        for margin, zero in ((needed * 1.01, True), (needed * 0.99, False)):
            w[:] = 0
            psi.add_psi(w, x, y, margin / (x @ x))
            loss = generalised_hinge(w, x[None], np.array([y]), psi, Delta)[0]
            assert (loss == 0) == zero


def test_hinge_is_convex_and_rho_lipschitz():
    rng = np.random.default_rng(3)
    k, X = 3, rng.normal(size=(25, 2))
    Delta = random_cost(k, rng)
    psi = MultiVector().fit(X, np.arange(25) % k, k)
    y = np.arange(25) % k
    for _ in range(200):
        a, b = rng.normal(size=(2, psi.dimension_)) * 3
        la, lb = generalised_hinge(a, X, y, psi, Delta), generalised_hinge(b, X, y, psi, Delta)
        assert np.all(generalised_hinge((a + b) / 2, X, y, psi, Delta) <= (la + lb) / 2 + 1e-12)
        rho = np.array([max(np.linalg.norm(psi.psi(x, yp) - psi.psi(x, t)) for yp in range(k)) for x, t in zip(X, y)])
        assert np.all(np.abs(la - lb) <= rho * np.linalg.norm(a - b) + 1e-12)


@pytest.mark.parametrize("map_name", ["multi_vector", "tf_idf", "binary"])
def test_subgradient_matches_finite_differences(map_name):
    rng = np.random.default_rng(4)
    if map_name == "tf_idf":
        X, _ = tiny_counts()
        y, k = TINY_TOPICS, 2
        psi = TfIdfMap().fit(X, y, k)
    elif map_name == "binary":
        X, k = rng.normal(size=(10, 3)), 2
        y = np.arange(10) % 2
        psi = BinaryMap().fit(X, y, k)
    else:
        X, k = rng.normal(size=(10, 3)), 4
        y = np.arange(10) % k
        psi = MultiVector().fit(X, y, k)
    Delta = random_cost(k, rng)
    h = 1e-6
    for _ in range(10):
        w = rng.normal(size=psi.dimension_)
        for x, t in zip(X, y):
            g = hinge_subgradient(w, x, t, psi, Delta)
            loss = lambda v: generalised_hinge(v, x[None], np.array([t]), psi, Delta)[0]  # noqa: E731
            numeric = np.array([(loss(w + h * e) - loss(w - h * e)) / (2 * h) for e in np.eye(len(w))])
            np.testing.assert_allclose(g, numeric, atol=1e-5)
            # and the subgradient inequality holds everywhere, kinks included
            v = rng.normal(size=len(w))
            assert loss(v) >= loss(w) + g @ (v - w) - 1e-9


def test_reductions_around_the_course_estimators_match_explicit_loops():
    """One-vs-rest around the kernel SVM and the perceptron equals fitting the k problems by hand."""
    from course_lib.linear import Perceptron
    from course_lib.svm import SVM

    X, y = blobs(n=60, k=3)
    for learner in (SVM(C=0.5, kernel="gaussian", sigma=2.0), Perceptron(eta=0.5, n_epochs=3, seed=1)):
        ovr = OneVsRest(learner).fit(X, y)
        by_hand = np.column_stack([
            type(learner)(**{name: getattr(learner, name) for name in vars(learner)})
            .fit(X, np.where(y == c, 1.0, -1.0)).decision_function(X)
            for c in range(3)
        ])
        np.testing.assert_allclose(ovr.decision_function(X), by_hand)
        assert all(vars(e).items() >= vars(learner).items() for e in ovr.estimators_)
        assert not any(name.endswith("_") for name in vars(learner))  # the original stays unfitted


def test_all_pairs_tie_rule_is_the_binary_learners_predict():
    """A pairwise decision of exactly 0 is h_ij = +1 (class i), as the binary learner's own predict
    (sign(0) = +1 in course_lib.linear); one-vs-rest's signs follow the same rule."""
    from course_lib.linear import LeastSquaresClassifier

    class Zero(LeastSquaresClassifier):
        def decision_function(self, X):
            return np.zeros(len(X))

    X = np.random.default_rng(0).normal(size=(12, 2))
    y = np.arange(12) % 3 + 1
    pairs = AllPairs(Zero()).fit(X, y)
    assert all(np.all(e.predict(X[:2]) == 1.0) for e in pairs.estimators_)
    np.testing.assert_array_equal(pairs.votes(X[:2]), [[2, 1, 0], [2, 1, 0]])
    assert np.all(pairs.predict(X[:2]) == 1)
    ovr = OneVsRest(Zero()).fit(X, y)
    assert np.all(ovr.predict_with_signs(X[:2]) == 1)


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4])
def test_margin_perceptron_solves_the_feasibility_problem_and_agrees_with_linprog(seed):
    """Realisable data: our w meets every margin >= 1, and scipy's LP solver also finds the
    constraints feasible; shuffled labels: both say infeasible (linprog) / no solution (ours)."""
    from scipy.optimize import linprog

    from course_lib.multiclass import class_margins, margin_perceptron

    rng = np.random.default_rng(seed)
    W_true = rng.normal(size=(3, 3))
    X = np.c_[rng.normal(size=(60, 2)), np.ones(60)]
    scores = X @ W_true.T
    top2 = np.sort(scores, axis=1)
    keep = top2[:, -1] - top2[:, -2] > 0.3  # a strictly separable set
    X, y = X[keep], np.argmax(scores[keep], axis=1)
    psi = MultiVector().fit(X, y, 3)

    def lp_feasible(X, y):
        rows = []
        for x, label in zip(X, y):
            for other in range(3):
                if other != label:
                    rows.append(psi.psi(x, other) - psi.psi(x, label))  # <w, Psi_other - Psi_y> <= -1
        result = linprog(np.zeros(psi.dimension_), A_ub=np.array(rows), b_ub=-np.ones(len(rows)),
                         bounds=[(None, None)] * psi.dimension_, method="highs")
        return result.status == 0

    w, updates = margin_perceptron(X, y, psi)
    assert class_margins(w, X, y, psi).min() >= 1.0 and updates > 0
    assert lp_feasible(X, y)
    y_bad = y.copy()
    y_bad[:3] = (y_bad[:3] + 1) % 3
    y_bad[3:6] = (y_bad[3:6] + 2) % 3
    X_bad = np.r_[X, X[:6]]
    y_bad = np.r_[y, y_bad[:6]]  # the same points with two labels: infeasible
    assert not lp_feasible(X_bad, y_bad)
    with pytest.raises(RuntimeError, match="infeasible"):
        margin_perceptron(X_bad, y_bad, psi, max_updates=2000)


def test_margin_perceptron_validates():
    from course_lib.multiclass import margin_perceptron

    psi = MultiVector().fit(np.zeros((2, 2)), [0, 1], 2)
    with pytest.raises(ValueError, match="class index"):
        margin_perceptron(np.ones((2, 2)), ["a", "b"], psi)
    with pytest.raises(ValueError, match="margin"):
        margin_perceptron(np.ones((2, 2)), [0, 1], psi, margin=0)


@pytest.mark.parametrize("reduction", [OneVsRest, AllPairs])
def test_reductions_compute_one_gram_matrix_for_all_their_svms(reduction, monkeypatch):
    """The k (or k(k-1)/2) binary SVMs share one Gram matrix and reach the same solutions as
    SVMs fitted one by one."""
    from course_lib import kernels as kernel_module
    from course_lib.svm import SVM

    X, y = three_blobs(90, seed=2)
    calls = []
    gram = kernel_module.gram
    monkeypatch.setattr(kernel_module, "gram", lambda *a, **k: calls.append(1) or gram(*a, **k))
    model = reduction(SVM(C=1.0, kernel="gaussian", sigma=1.5)).fit(X, y)
    assert len(calls) == 1
    monkeypatch.setattr(kernel_module, "gram", gram)
    for estimator, subset in zip(model.estimators_, _subsets(model, y)):
        alone = SVM(C=1.0, kernel="gaussian", sigma=1.5).fit(X[subset], estimator.r_fit_)
        np.testing.assert_allclose(estimator.alpha_, alone.alpha_, atol=1e-9)


def _subsets(model, y):
    index = np.searchsorted(model.classes_, y)
    if isinstance(model, OneVsRest):
        return [np.ones(len(y), bool)] * len(model.classes_)
    return [(index == i) | (index == j) for i, j in model.pairs_]
