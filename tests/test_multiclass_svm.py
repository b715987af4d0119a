"""The multiclass SVM by SGD, SGD on the hinge risk and the PAC formulas (M9-M11): the update
rule against a loop written from the slides, the objective against scikit-learn's
Crammer-Singer LinearSVC, the OCR letters against LinearSVC, validation."""

import numpy as np
import pytest
from scipy.optimize import linprog
from sklearn.svm import LinearSVC

from course_lib.data import forty_twenty_forty, load_ocr_letters
from course_lib.multiclass import BinaryMap, MultiVector, TfIdfMap, generalised_hinge, zero_one_cost
from course_lib.multiclass_svm import (
    HingeRiskSGD,
    MulticlassSVM,
    psi_radius,
    sgd_eta,
    sgd_excess_bound,
    sgd_iterations,
    svm_excess_bound,
    svm_lambda,
)


def small_data(n=90, seed=1, noise=0.4):
    return forty_twenty_forty(n=n, seed=seed, noise=noise)


def slides_sgd(X, y, T, seed, step, Delta):
    """The slides' loop with explicit Psi vectors (multi-vector map) and a brute-force argmax."""
    k = Delta.shape[0]
    n = X.shape[1]

    def Psi(x, label):
        out = np.zeros(n * k)
        out[label * n:(label + 1) * n] = x
        return out

    w, iterates = np.zeros(n * k), []
    for t, i in enumerate(np.random.default_rng(seed).integers(len(X), size=T), start=1):
        iterates.append(w.copy())
        augmented = [Delta[yp, y[i]] + w @ (Psi(X[i], yp) - Psi(X[i], y[i])) for yp in range(k)]
        y_hat = int(np.argmax(augmented))
        w = step(w, t, Psi(X[i], y_hat) - Psi(X[i], y[i]))
    return np.mean(iterates, axis=0)


def test_svm_update_is_the_slides_rule():
    X, y = small_data()
    Delta = np.array([[0, 1, 3], [1, 0, 1], [3, 1, 0.0]])
    lam, T = 0.05, 300
    model = MulticlassSVM(lam=lam, n_iter=T, seed=7, cost=Delta).fit(X, y)
    expected = slides_sgd(X, y - 1, T, 7, lambda w, t, u: (1 - 1 / t) * w - u / (2 * lam * t), Delta)
    np.testing.assert_allclose(model.w_, expected, atol=1e-12)
    np.testing.assert_allclose(model.coef_, expected.reshape(3, 2))


def test_hinge_risk_sgd_update_is_the_slides_rule():
    X, y = small_data()
    eta, T = 0.3, 300
    model = HingeRiskSGD(eta=eta, n_iter=T, seed=3).fit(X, y)
    expected = slides_sgd(X, y - 1, T, 3, lambda w, t, u: w - eta * u, zero_one_cost(3))
    np.testing.assert_allclose(model.w_, expected, atol=1e-12)


def test_svm_objective_close_to_crammer_singer_optimum():
    """LinearSVC(crammer_singer) minimises 1/2 ||W||^2 + C sum_i l_i with the 0-1 hinge: the
    same problem as lambda ||w||^2 + mean l_i for C = 1 / (2 lambda m), without intercept."""
    X, y = small_data()
    lam, m = 0.05, len(X)
    ref = LinearSVC(multi_class="crammer_singer", fit_intercept=False, C=1 / (2 * lam * m),
                    tol=1e-8, max_iter=100_000, random_state=0).fit(X, y)
    objectives = [MulticlassSVM(lam=lam, n_iter=T, seed=0).fit(X, y).objective(X, y) for T in (30, 300, 20_000)]
    model = MulticlassSVM(lam=lam, n_iter=20_000, seed=0).fit(X, y)
    optimum = model.objective(X, y, w=ref.coef_.ravel())
    assert objectives[0] > objectives[1] > objectives[2]
    assert optimum - 1e-6 <= objectives[2] <= optimum * 1.01
    np.testing.assert_array_equal(model.predict(X), ref.predict(X))


def minimal_hinge_risk(X, y, k):
    """min_w (1/m) sum_i l(w, (x_i, y_i)) as a linear program (the reference, solved by HiGHS):
    minimise mean xi subject to xi_i >= Delta(y', y_i) + <w, Psi(x_i, y') - Psi(x_i, y_i)>."""
    m, n = X.shape
    psi = MultiVector().fit(X, y, k)
    rows, bounds = [], []
    for i in range(m):
        for yp in range(k):
            row = np.zeros(n * k + m)
            row[: n * k] = psi.psi(X[i], yp) - psi.psi(X[i], y[i])
            row[n * k + i] = -1.0
            rows.append(row)
            bounds.append(-float(yp != y[i]))
    c = np.r_[np.zeros(n * k), np.full(m, 1.0 / m)]
    result = linprog(c, A_ub=np.array(rows), b_ub=np.array(bounds), bounds=[(None, None)] * (n * k + m),
                     method="highs")
    assert result.status == 0
    return result.fun


def test_hinge_risk_sgd_approaches_the_minimal_risk():
    X, y = small_data()
    minimum = minimal_hinge_risk(X, y - 1, 3)
    risks = [HingeRiskSGD(eta=0.1, n_iter=T, seed=0).fit(X, y).hinge_losses(X, y).mean() for T in (10, 300, 10_000)]
    assert risks[0] > risks[1] > risks[2] >= minimum - 1e-9
    assert risks[2] <= minimum + 0.01


def test_tf_idf_svm_on_a_tiny_corpus():
    X = np.array([[3, 0, 1, 0], [2, 0, 0, 1], [0, 3, 1, 0], [0, 2, 0, 1.0]])
    y = np.array(["net", "net", "time", "time"])
    model = MulticlassSVM(lam=0.01, n_iter=500, feature_map=TfIdfMap()).fit(X, y)
    assert model.w_.shape == (4,)
    np.testing.assert_array_equal(model.predict(X), y)


def test_ocr_letters_close_to_linear_svc():
    words, labels, folds = load_ocr_letters()
    train = folds == 1
    X = np.vstack([w for w, f in zip(words, train) if f])
    y = np.concatenate([l for l, f in zip(labels, train) if f])
    X_test = np.vstack([w for w, f in zip(words, train) if not f])[::4]
    y_test = np.concatenate([l for l, f in zip(labels, train) if not f])[::4]
    reference = np.mean(LinearSVC(random_state=0).fit(X, y).predict(X_test) == y_test)
    ours = np.mean(MulticlassSVM(lam=1e-3, n_iter=60_000, seed=0).fit(X, y).predict(X_test) == y_test)
    assert reference > 0.68
    assert ours >= reference - 0.03


@pytest.mark.parametrize("learner", [MulticlassSVM, HingeRiskSGD])
def test_validation(learner):
    X, y = small_data()
    rate = "lam" if learner is MulticlassSVM else "eta"
    for bad in (0.0, -1.0, np.nan):
        with pytest.raises(ValueError, match=rate):
            learner(**{rate: bad}).fit(X, y)
    with pytest.raises(ValueError, match="n_iter"):
        learner(n_iter=0).fit(X, y)
    with pytest.raises(ValueError, match="lengths must match"):
        learner().fit(X, y[:-1])
    with pytest.raises(ValueError, match="NaN"):
        learner().fit(np.where(X > 2, np.nan, X), y)
    with pytest.raises(ValueError, match="at least 2"):
        learner().fit(X, np.ones(len(X)))
    with pytest.raises(ValueError, match="3 classes"):
        learner(cost=zero_one_cost(2)).fit(X, y)
    with pytest.raises(ValueError, match="diagonal"):
        learner(cost=np.ones((3, 3))).fit(X, y)
    with pytest.raises(RuntimeError, match="not fitted"):
        learner().predict(X)
    with pytest.raises(TypeError, match="feature_map"):
        learner(feature_map=object()).fit(X, y)
    model = learner(n_iter=50).fit(X, y)
    with pytest.raises(ValueError, match="features"):
        model.predict(np.zeros((3, 5)))
    with pytest.raises(ValueError, match="not seen in training"):
        model.hinge_losses(X[:2], [1, 7])
    assert model.predict(X[:2]).tolist() in ([a, b] for a in (1, 2, 3) for b in (1, 2, 3))


def test_extreme_rates_do_not_crash():
    X, y = small_data()
    for model in (MulticlassSVM(lam=1e-8, n_iter=200), MulticlassSVM(lam=1e8, n_iter=200),
                  HingeRiskSGD(eta=1e-8, n_iter=200), HingeRiskSGD(eta=1e8, n_iter=200)):
        assert np.all(np.isfinite(model.fit(X, y).decision_function(X)))


# ---------------------------------------------------------------- PAC formulas (M9)


def test_pac_formulas():
    assert svm_lambda(rho=2.0, B=4.0, m=50) == pytest.approx(0.5 * np.sqrt(2 / 50))
    assert svm_excess_bound(rho=2.0, B=4.0, m=50) == pytest.approx(np.sqrt(8 * 4 * 16 / 50))
    m = np.array([10, 100, 1000])
    np.testing.assert_allclose(svm_excess_bound(1.0, 1.0, m) * np.sqrt(m), np.sqrt(8))
    for B, rho, eps in [(1.0, 2.0, 0.1), (3.0, 0.5, 0.07), (2.0, 2.0, 1.0)]:
        T = sgd_iterations(B, rho, eps)
        assert T >= (B * rho / eps) ** 2 - 1e-6 and T - 1 < (B * rho / eps) ** 2
        assert sgd_excess_bound(B, rho, T) <= eps + 1e-12
        assert sgd_eta(B, rho, T) == pytest.approx(B / (rho * np.sqrt(T)))
    assert sgd_iterations(1.0, 2.0, 0.1) == 400
    with pytest.raises(ValueError, match="eps"):
        sgd_iterations(1.0, 1.0, 0.0)


@pytest.mark.parametrize("feature_map", [MultiVector(), MultiVector(bias=True), TfIdfMap(), BinaryMap()])
def test_psi_radius_is_twice_the_largest_psi_norm(feature_map):
    X, y = small_data()
    k = 2 if isinstance(feature_map, BinaryMap) else 3
    psi = feature_map.fit(np.abs(X), (y - 1) % k, k)
    largest = max(np.linalg.norm(psi.psi(x, c)) for x in np.abs(X) for c in range(k))
    assert psi_radius(psi, np.abs(X)) == pytest.approx(2 * largest)


def test_hinge_sgd_one_pass_visits_each_fresh_example_once():
    from course_lib.data import forty_twenty_forty

    X, y = forty_twenty_forty(n=50, seed=3, noise=0.35)
    one_pass = HingeRiskSGD(eta=0.1, n_iter=50, one_pass=True).fit(X, y)
    # by hand: w <- w - eta (Psi(x_t, y_hat) - Psi(x_t, y_t)) for t = 1..T in order, average of w^(1..T)
    psi = MultiVector().fit(X, y - 1, 3)
    w, total = np.zeros(psi.dimension_), np.zeros(psi.dimension_)
    for x, label in zip(X, y - 1):
        total += w
        augmented = (np.arange(3) != label) + psi.scores(x[None], w)[0]  # Delta(y', y) + <w, Psi(x, y')>
        y_hat = int(np.argmax(augmented))
        if y_hat != label:
            psi.add_psi(w, x, y_hat, -0.1)
            psi.add_psi(w, x, label, 0.1)
    np.testing.assert_allclose(one_pass.w_, total / 50)
    with pytest.raises(ValueError, match="n_iter must be 50"):
        HingeRiskSGD(n_iter=10, one_pass=True).fit(X, y)


def test_best_hinge_in_ball_certificate_holds():
    """The lower bound is below the hinge risk of every u in the ball we try, the upper bound is the
    risk of the returned u, which lies in the ball."""
    from course_lib.multiclass_svm import best_hinge_in_ball

    X, y = forty_twenty_forty(n=120, seed=2, noise=0.35)
    psi = MultiVector().fit(X, y - 1, 3)
    cost = zero_one_cost(3)
    for B in (0.5, 2.0):
        u, upper, lower = best_hinge_in_ball(X, y - 1, psi, B, n_steps=300)
        assert np.linalg.norm(u) <= B + 1e-9
        assert np.isclose(generalised_hinge(u, X, y - 1, psi, cost).mean(), upper)
        assert lower <= upper
        rng = np.random.default_rng(0)
        for _ in range(200):
            v = rng.normal(size=psi.dimension_)
            v *= B * rng.uniform() ** (1 / v.size) / np.linalg.norm(v)
            assert generalised_hinge(v, X, y - 1, psi, cost).mean() >= lower - 1e-12
        assert upper - lower < 0.5, "the descent should get reasonably close to the optimum"
    with pytest.raises(TypeError, match="MultiVector"):
        best_hinge_in_ball(X, y - 1, BinaryMap(), 1.0)
