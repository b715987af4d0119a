"""Chapter 01: perceptron and least squares against hand computations, closed forms and scikit-learn."""

import numpy as np
import pytest
from sklearn.linear_model import LinearRegression
from sklearn.linear_model import Perceptron as SkPerceptron

from course_lib import data
from course_lib.linear import (
    LeastSquaresClassifier,
    Perceptron,
    perceptron_criterion,
    sample_version_space,
    version_space_offsets,
)


def test_perceptron_updates_by_hand():
    # Start at w = 0, w0 = 0; a point with r h(x) <= 0 triggers w += r x, w0 += r.
    # Epoch 1: x1 -> w=(1,0), w0=1; x2 ok (h=1); x3: h=-1+1=0 -> w=(2,1), w0=0. Epoch 2: no update.
    X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]])
    r = np.array([1.0, 1.0, -1.0])
    p = Perceptron(eta=1.0, n_epochs=10, shuffle=False).fit(X, r)
    expected = [((0, 0), 0), ((1, 0), 1), ((2, 1), 0)]
    assert len(p.history_) == 3
    for (w, w0), (w_hand, w0_hand) in zip(p.history_, expected):
        np.testing.assert_array_equal(w, w_hand)
        assert w0 == w0_hand
    assert p.update_index_.tolist() == [-1, 0, 2]
    assert p.update_epoch_.tolist() == [0, 1, 1]
    assert p.converged_ and p.n_updates_ == 2
    np.testing.assert_array_equal(p.predict(X), r)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("maker", [data.overlapping, data.linearly_separable])
def test_perceptron_matches_scikit_learn_without_shuffling(maker, seed):
    # scikit-learn's Perceptron with a constant rate, no penalty and no shuffling makes the same updates.
    X, r = maker(n=30, seed=seed)
    ours = Perceptron(eta=1.0, n_epochs=4, shuffle=False).fit(X, r)
    ref = SkPerceptron(eta0=1.0, max_iter=4, tol=None, shuffle=False, penalty=None).fit(X, r)
    np.testing.assert_allclose(ours.w_, ref.coef_.ravel(), atol=1e-12)
    np.testing.assert_allclose(ours.w0_, ref.intercept_[0], atol=1e-12)


def test_perceptron_separates_separable_data_and_never_settles_otherwise():
    X, r = data.linearly_separable(n=40, seed=1)
    p = Perceptron(n_epochs=100).fit(X, r)
    assert p.converged_ and np.all(p.predict(X) == r) and p.criterion_[-1] == 0
    X, r = data.overlapping(n=40, seed=3)
    p = Perceptron(n_epochs=50).fit(X, r)
    assert not p.converged_
    assert np.all(np.bincount(p.update_epoch_)[1:] > 0)  # updates in every epoch


def test_perceptron_criterion_and_epoch_states():
    X, r = data.overlapping(n=40, seed=3)
    p = Perceptron(n_epochs=6, seed=0).fit(X, r)
    for epoch in range(1, 7):
        w, w0 = p.state_after_epoch(epoch)
        h = X @ w + w0
        brute = sum(-r[t] * h[t] for t in range(len(X)) if r[t] * h[t] < 0)
        assert p.criterion_[epoch - 1] == pytest.approx(brute)
        assert perceptron_criterion(w, w0, X, r) == pytest.approx(brute)
    np.testing.assert_array_equal(p.state_after_epoch(6)[0], p.w_)


def test_the_criterion_of_a_start_with_no_point_wrong_side_is_plus_zero():
    # At w = 0 every point lies on the line (r h = 0): nothing is wrong-side, E_percp = 0, and
    # the replay's first title must read "0.00", not "-0.00".
    X, r = data.overlapping(n=40, seed=3)
    value = perceptron_criterion(np.zeros(2), 0.0, X, r)
    assert value == 0 and not np.signbit(value)
    assert f"{value:.2f}" == "0.00"


def test_least_squares_equals_closed_form_and_scikit_learn():
    X, r = data.overlapping(n=50, seed=2)
    ls = LeastSquaresClassifier().fit(X, r)
    A = np.c_[X, np.ones(len(X))]
    theta = np.linalg.solve(A.T @ A, A.T @ r)  # normal equations
    np.testing.assert_allclose(ls.w_, theta[:2], atol=1e-10)
    assert ls.w0_ == pytest.approx(theta[2])
    ref = LinearRegression().fit(X, r)
    np.testing.assert_allclose(ls.w_, ref.coef_, atol=1e-10)
    assert ls.criterion_ == pytest.approx(0.5 * np.sum((r - A @ theta) ** 2))


def test_least_squares_is_dragged_by_a_far_point_the_perceptron_ignores():
    X, r = data.overlapping(n=40, seed=3)
    base = LeastSquaresClassifier().fit(X, r)
    far = LeastSquaresClassifier().fit(np.vstack([X, [5.0, 19.0]]), np.r_[r, 1.0])
    angle = lambda w: np.arctan2(w[1], w[0])
    assert abs(angle(far.w_) - angle(base.w_)) > 0.3
    assert np.sum(far.predict(X) != r) >= np.sum(base.predict(X) != r) + 3


def test_signed_distance():
    ls = LeastSquaresClassifier()
    ls.w_, ls.w0_ = np.array([3.0, 4.0]), -5.0
    np.testing.assert_allclose(ls.signed_distance([[0.0, 0.0], [3.0, 4.0]]), [-1.0, 4.0])


def test_version_space():
    X, r = data.linearly_separable(n=30, seed=0)
    w = np.array([1.0, 1.0])
    w0_S, w0_G = version_space_offsets(X, r, w)
    for w0 in np.linspace(w0_S, w0_G, 7)[1:-1]:
        assert np.all(r * (X @ w + w0) > 0)
    assert np.min(r * (X @ w + w0_S)) == pytest.approx(0)  # S touches a positive point
    assert np.min(r * (X @ w + w0_G)) == pytest.approx(0)  # G touches a negative point
    hypotheses = sample_version_space(X, r, n_hypotheses=50, seed=1)
    assert len(hypotheses) == 50
    for w, w0 in hypotheses:
        assert np.all(r * (X @ w + w0) > 0)
    Xo, ro = data.overlapping(n=40, seed=3)
    assert sample_version_space(Xo, ro) == []
    with pytest.raises(ValueError, match="version space along w is empty"):
        version_space_offsets(Xo, ro, w)


@pytest.mark.parametrize("model", [Perceptron(), LeastSquaresClassifier()])
def test_bad_input_is_named(model):
    X, r = data.overlapping(n=10, seed=0)
    with pytest.raises(ValueError, match="X must be 2-D"):
        model.fit(X[:, 0], r)
    with pytest.raises(ValueError, match="NaN or inf"):
        model.fit(np.where(X > 1, np.nan, X), r)
    with pytest.raises(ValueError, match="NaN or inf"):
        model.fit(np.where(X > 1, np.inf, X), r)
    with pytest.raises(ValueError, match=r"r must contain only -1 and \+1"):
        model.fit(X, (r + 1) / 2)
    with pytest.raises(ValueError, match="single class"):
        model.fit(X, np.ones(len(X)))
    with pytest.raises(ValueError, match="lengths must match"):
        model.fit(X, r[:-1])
    with pytest.raises(RuntimeError, match="not fitted"):
        type(model)().predict(X)
    model.fit(X, r)
    with pytest.raises(ValueError, match="3 features, but predict is expecting 2 features"):
        model.predict(np.ones((2, 3)))


def test_perceptron_parameters_are_checked():
    X, r = data.overlapping(n=10, seed=0)
    with pytest.raises(ValueError, match="eta"):
        Perceptron(eta=0).fit(X, r)
    with pytest.raises(ValueError, match="n_epochs"):
        Perceptron(n_epochs=0).fit(X, r)
    with pytest.raises(TypeError, match="seed"):
        Perceptron(seed="a").fit(X, r)


def test_least_squares_epochs_validates_and_starts_from_zero():
    from course_lib.linear import least_squares_epochs

    X, r = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]]), np.array([-1.0, 1.0, 1.0])
    states = least_squares_epochs(X, r, n_epochs=3)
    assert len(states) == 3 and all(w.shape == (2,) for w, _ in states)
    A = np.c_[X, np.ones(3)]
    eta = 1 / np.linalg.eigvalsh(A.T @ A).max()
    assert np.allclose(np.r_[states[0][0], states[0][1]], eta * A.T @ r)  # one step from zero
    with pytest.raises(ValueError, match="n_epochs"):
        least_squares_epochs(X, r, n_epochs=0)
