"""The from-scratch SVM against closed forms, the KKT conditions and scikit-learn's libsvm."""

import numpy as np
import pytest
from sklearn.svm import SVC

from course_lib import data, kernels
from course_lib.smo import kkt_gap, polish, separable, smo
from course_lib.svm import SVM

SKLEARN_KERNEL = {  # the slides' kernels in scikit-learn's parametrisation
    "linear": lambda p: {"kernel": "linear"},
    "polynomial": lambda p: {"kernel": "poly", "gamma": 1.0, "coef0": 1.0, "degree": p["degree"]},
    "gaussian": lambda p: {"kernel": "rbf", "gamma": 1.0 / p["sigma"] ** 2},
    "sigmoid": lambda p: {"kernel": "sigmoid", "gamma": 2.0, "coef0": 1.0},
}


def random_problem(seed):
    """A random two-class set: 20-80 points, 2-4 features, classes more or less overlapping."""
    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(20, 81)), int(rng.integers(2, 5))
    shift = rng.uniform(0.0, 2.0)
    r = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    r[:2] = (1.0, -1.0)
    X = rng.normal(size=(n, d)) + shift * r[:, None] / np.sqrt(d)
    return X, r


def libsvm_dual_objective(svc, X, kernel, params):
    """L_d = sum alpha - 1/2 sum sum alpha^t alpha^s r^t r^s K from dual_coef_ = alpha r."""
    coef = svc.dual_coef_[0]
    sv = X[svc.support_]
    return np.abs(coef).sum() - 0.5 * coef @ kernels.kernel_matrix(sv, sv, kernel, **params) @ coef


CASES = [
    (seed, kernel, C)
    for seed in range(12)
    for kernel, C in [
        ("linear", 0.05), ("linear", 5.0), ("linear", 100.0),
        ("polynomial", 0.3), ("polynomial", 10.0),
        ("gaussian", 1e-3), ("gaussian", 1.0), ("gaussian", 100.0),
    ]
]


# the whole Gram matrix (the default), and rows on demand in a 2-row cache that evicts at every step
CACHES = [200.0, 1e-4]


@pytest.mark.parametrize("cache_mb", CACHES)
@pytest.mark.parametrize("seed, kernel, C", CASES)
def test_dual_objective_and_predictions_match_libsvm(seed, kernel, C, cache_mb):
    X, r = random_problem(seed)
    rng = np.random.default_rng(seed + 1000)
    params = {"linear": {}, "polynomial": {"degree": int(rng.integers(2, 4))}, "sigmoid": {},
              "gaussian": {"sigma": float(rng.uniform(0.5, 2.0))}}[kernel]
    ours = SVM(C=C, kernel=kernel, tol=1e-6, cache_mb=cache_mb, **params).fit(X, r)
    svc = SVC(C=C, tol=1e-8, **SKLEARN_KERNEL[kernel](params)).fit(X, r)
    reference = libsvm_dual_objective(svc, X, kernel, params)
    assert ours.dual_objective_ == pytest.approx(reference, rel=1e-4)
    h = ours.decision_function(X)
    np.testing.assert_allclose(h, svc.decision_function(X), atol=1e-3 * max(1.0, C))
    differ = ours.predict(X) != svc.predict(X)
    assert np.all(np.abs(h[differ]) < 1e-3)


def test_sigmoid_dual_objective_matches_libsvm_on_most_sets():
    """The sigmoid Gram matrix is indefinite on these sets, so L_d is not concave: SMO and libsvm
    reach KKT points (local maxima) that coincide on most sets but may differ on a few."""
    matches = 0
    for seed in range(12):
        X, r = random_problem(seed)
        assert np.linalg.eigvalsh(kernels.gram(X, "sigmoid")).min() < 0
        ours = SVM(C=0.1, kernel="sigmoid", tol=1e-6).fit(X, r)
        svc = SVC(C=0.1, tol=1e-8, **SKLEARN_KERNEL["sigmoid"]({})).fit(X, r)
        reference = libsvm_dual_objective(svc, X, "sigmoid", {})
        matches += ours.dual_objective_ == pytest.approx(reference, rel=1e-4)
        assert ours.dual_objective_ == pytest.approx(reference, rel=1e-2)
        rh, alpha = r * ours.decision_function(X), ours.alpha_  # a KKT point all the same
        assert np.all(rh[alpha == 0] >= 1 - 1e-5) and np.all(rh[alpha == 0.1] <= 1 + 1e-5)
    assert matches >= 10


@pytest.mark.parametrize(
    "kernel, C",
    [
        ("linear", 1.0), ("linear", 1e5), ("polynomial", 10.0), ("polynomial", 1e4),
        ("gaussian", 0.5), ("gaussian", 50.0),
    ],
)
@pytest.mark.parametrize("cache_mb", CACHES)
def test_kkt_conditions_hold_at_the_solution(kernel, C, cache_mb):
    X, r = data.overlapping(80, seed=3)
    tol = 1e-3
    model = SVM(C=C, kernel=kernel, tol=tol, cache_mb=cache_mb).fit(X, r)
    alpha, margin = model.alpha_, r * model.decision_function(X)
    assert np.all((alpha >= 0) & (alpha <= C))
    assert abs(alpha @ r) < 1e-9 * max(1.0, alpha.sum())
    assert np.all(margin[alpha == 0] >= 1 - tol)
    free = (alpha > 0) & (alpha < C)
    assert free.any()
    np.testing.assert_allclose(margin[free], 1.0, atol=tol)
    assert np.all(margin[alpha == C] <= 1 + tol)
    np.testing.assert_array_equal(model.support_, np.flatnonzero(alpha > 0))
    np.testing.assert_allclose(model.slacks(X, r), np.maximum(0, 1 - margin))


def test_two_points_solved_by_hand():
    # x1 = (2, 1), r = +1 and x2 = (0, -1), r = -1: d = x1 - x2 = (2, 2), ||d||^2 = 8.
    # Hard margin: alpha1 = alpha2 = 2 / ||d||^2 = 1/4, w = alpha d = (1/2, 1/2),
    # w0 = -(||x1||^2 - ||x2||^2) / ||d||^2 = -1/2, L_d = 2 alpha - ||w||^2 / 2 = 1/4.
    X, r = np.array([[2.0, 1.0], [0.0, -1.0]]), np.array([1.0, -1.0])
    for C in (np.inf, 0.25, 3.0):
        model = SVM(C=C).fit(X, r)
        np.testing.assert_allclose(model.alpha_, [0.25, 0.25], rtol=1e-12)
        np.testing.assert_allclose(model.w_, [0.5, 0.5], rtol=1e-12)
        assert model.w0_ == pytest.approx(-0.5, rel=1e-12)
        assert model.dual_objective_ == pytest.approx(0.25, rel=1e-12)
        np.testing.assert_allclose(model.decision_function(X), [1.0, -1.0], rtol=1e-12)
    # Soft margin with C < 1/4: both multipliers stop at C, w = C d.
    # No margin support vector: w0 is the midpoint of the KKT interval [E^2, E^1] = [-0.8, 0.4],
    # with E^t = r^t - w^T x^t, w^T x1 = 0.6 and w^T x2 = -0.2.
    model = SVM(C=0.1).fit(X, r)
    np.testing.assert_allclose(model.alpha_, [0.1, 0.1], rtol=1e-12)
    np.testing.assert_allclose(model.w_, [0.2, 0.2], rtol=1e-12)
    assert model.w0_ == pytest.approx(-0.2, abs=1e-12)
    np.testing.assert_allclose(model.slacks(X, r), 1 - r * model.decision_function(X))


@pytest.mark.parametrize("seed", range(5))
def test_hard_margin_on_separable_data(seed):
    X, r = data.linearly_separable(40, seed=seed)
    model = SVM(C=np.inf, tol=1e-8).fit(X, r)
    assert np.all(r * model.decision_function(X) >= 1 - 1e-6)
    xi = np.maximum(0, 1 - r * model.decision_function(X))
    np.testing.assert_array_equal(model.slacks(X, r), xi)
    svc = SVC(kernel="linear", C=1e8, tol=1e-10).fit(X, r)
    assert 1 / np.linalg.norm(model.w_) == pytest.approx(1 / np.linalg.norm(svc.coef_[0]), rel=1e-5)
    # the slides' w0: the mean of r - w^T x over the support vectors
    sv = model.support_
    assert model.w0_ == pytest.approx(np.mean(r[sv] - X[sv] @ model.w_), abs=1e-6)
    # at the hard-margin optimum L_d = ||w||^2 / 2 = sum alpha / 2
    assert model.dual_objective_ == pytest.approx(0.5 * model.alpha_.sum(), rel=1e-6)


@pytest.mark.parametrize("kernel", ["linear", "polynomial"])
def test_hard_margin_refuses_non_separable_data(kernel):
    X, r = data.overlapping(60, seed=0)
    with pytest.raises(ValueError, match="not linearly separable.*feature space.*finite C"):
        SVM(C=np.inf, kernel=kernel).fit(X, r)
    with pytest.raises(ValueError, match="not linearly separable"):
        SVM(C=np.inf).fit(*data.xor())


def test_polish_solves_the_kkt_system_once_the_sets_are_known():
    X, r = data.overlapping(80, seed=4)
    K, C = kernels.gram(X, "gaussian", sigma=0.8), 3.0
    exact = smo(K, r, C, tol=1e-10)
    assert exact.status == "converged"
    # same sets (0, free, C), free multipliers perturbed: one linear solve gives the optimum back
    rough = exact.alpha.copy()
    free = (rough > 0) & (rough < C)
    rough[free] *= 1 + 0.01 * np.random.default_rng(0).standard_normal(free.sum())
    rough = np.where(free, np.clip(rough, 1e-9, C - 1e-9), exact.alpha)
    polished = polish(K, r, C, rough, tol=1e-8)
    assert polished is not None and polished.status == "converged"
    np.testing.assert_allclose(polished.alpha, exact.alpha, atol=1e-6)
    assert kkt_gap(polished.E, polished.alpha, r, C) < 1e-8
    # wrong sets (everything free): the solve leaves the box or breaks the KKT conditions
    assert polish(K, r, C, np.full(r.size, C / 2), tol=1e-3) is None


def test_separability_check_brackets_the_distance_between_the_hulls():
    # two points per class on a line: the hulls are the segments [0, 1] and [1 + d, 2 + d],
    # d apart; the largest distance between two points (the diameter) is 2 + d
    for d, expected in [(0.5, True), (0.01, True), (0.002, False), (-0.5, False)]:
        X = np.array([[0.0], [1.0], [1.0 + d], [2.0 + d]])
        r = np.array([1.0, 1.0, -1.0, -1.0])
        verdict, lam = separable(kernels.gram(X), r, epsilon=0.003)
        assert verdict is expected
        assert lam.min() >= 0
        assert lam[r > 0].sum() == pytest.approx(1) and lam[r < 0].sum() == pytest.approx(1)
    X, r = data.linearly_separable(50)
    assert separable(kernels.gram(X), r)[0]
    X, r = data.overlapping(50)
    assert not separable(kernels.gram(X), r)[0]
    X, r = data.xor()
    assert not separable(kernels.gram(X), r)[0]
    assert separable(kernels.gram(X, "polynomial", degree=2), r)[0]


def test_hard_margin_refuses_a_point_given_both_labels_even_with_the_gaussian_kernel():
    X, r = data.overlapping(30, seed=2)
    X, r = np.vstack([X, X[:1]]), np.r_[r, -r[:1]]
    with pytest.raises(ValueError, match="gaussian kernel.*finite C"):
        SVM(C=np.inf, kernel="gaussian").fit(X, r)
    SVM(C=10.0, kernel="gaussian").fit(X, r)  # the soft margin is fine


def test_max_iter_stops_smo_with_a_clear_error():
    X, r = data.overlapping(60, seed=0)
    with pytest.raises(RuntimeError, match="max_iter"):
        SVM(C=10.0, kernel="gaussian", max_iter=3).fit(X, r)
    with pytest.raises(RuntimeError, match="max_iter"):
        SVM(C=1e4, max_iter=50).fit(X, r)


def test_hard_margin_with_a_kernel_that_separates():
    X, r = data.xor()
    model = SVM(C=np.inf, kernel="polynomial", degree=2).fit(X, r)
    np.testing.assert_array_equal(model.predict(X), r)
    assert np.all(r * model.decision_function(X) >= 1 - 1e-3)


def test_w_is_only_defined_for_the_linear_kernel():
    X, r = data.overlapping(30, seed=1)
    model = SVM(kernel="gaussian").fit(X, r)
    with pytest.raises(AttributeError, match="w_ exists only for kernel='linear'"):
        model.w_
    linear = SVM(C=2.0).fit(X, r)
    np.testing.assert_allclose(X @ linear.w_ + linear.w0_, linear.decision_function(X), atol=1e-12)


def test_validation():
    X, r = data.overlapping(20, seed=0)
    for C in (0, -1.0, np.nan):
        with pytest.raises(ValueError, match="C must be"):
            SVM(C=C).fit(X, r)
    with pytest.raises(TypeError, match="C must be"):
        SVM(C="big").fit(X, r)
    with pytest.raises(ValueError, match="sigma"):
        SVM(kernel="gaussian", sigma=0.0).fit(X, r)
    with pytest.raises(ValueError, match="degree"):
        SVM(kernel="polynomial", degree=0).fit(X, r)
    with pytest.raises(TypeError, match="degree"):
        SVM(kernel="polynomial", degree=2.5).fit(X, r)
    known = "kernel must be one of 'linear', 'polynomial', 'gaussian', 'sigmoid'"
    with pytest.raises(ValueError, match=known):
        SVM(kernel="rbf").fit(X, r)
    with pytest.raises(ValueError, match="tol"):
        SVM(tol=0).fit(X, r)
    with pytest.raises(ValueError, match="max_iter"):
        SVM(max_iter=0).fit(X, r)
    bad = X.copy()
    bad[3, 1] = np.nan
    with pytest.raises(ValueError, match="X contains NaN"):
        SVM().fit(bad, r)
    with pytest.raises(ValueError, match="X must be 2-D"):
        SVM().fit(X[:, 0], r)
    with pytest.raises(ValueError, match="r has 19 targets"):
        SVM().fit(X, r[:-1])
    with pytest.raises(ValueError, match="r holds a single class"):
        SVM().fit(X, np.ones(20))
    with pytest.raises(ValueError, match="r must contain only -1 and \\+1"):
        SVM().fit(X, (r > 0).astype(int))
    with pytest.raises(RuntimeError, match="not fitted"):
        SVM().predict(X)
    with pytest.raises(RuntimeError, match="not fitted"):
        SVM().decision_function(X)
    model = SVM().fit(X, r)
    with pytest.raises(ValueError, match="X has 3 features, but predict is expecting 2 features"):
        model.predict(np.ones((4, 3)))
    with pytest.raises(ValueError, match="r must be"):
        model.slacks(X, np.zeros(20))


def test_a_tolerance_so_loose_that_smo_would_take_no_step_is_refused():
    # at alpha = 0, E = r and the KKT gap is max E - min E = 2: tol = 3 would accept alpha = 0
    # and return it as the solution
    X, r = data.overlapping(20, seed=0)
    for tol in (3.0, 1.0):
        with pytest.raises(ValueError, match="tol"):
            SVM(tol=tol).fit(X, r)
    assert SVM(tol=0.99).fit(X, r).n_iter_ > 0


def test_constructor_stores_arguments_and_fit_returns_self():
    model = SVM(C=np.inf, kernel="gaussian", sigma=0.5, degree=3, tol=1e-4, max_iter=10)
    stored = (model.C, model.kernel, model.sigma, model.degree, model.tol, model.max_iter)
    assert stored == (np.inf, "gaussian", 0.5, 3, 1e-4, 10)
    X, r = data.linearly_separable(20, seed=0)
    fitted = SVM().fit(X, r)
    assert isinstance(fitted, SVM)
    assert fitted.alpha_.shape == (20,) and fitted.n_iter_ > 0
    assert fitted.X_fit_.shape == (20, 2) and fitted.r_fit_.shape == (20,)


@pytest.mark.parametrize("kernel, params", [("linear", {}), ("gaussian", {"sigma": 0.7}),
                                            ("polynomial", {"degree": 3})])
def test_kernel_rows_answer_as_the_gram_matrix_within_their_cache(kernel, params):
    from course_lib.kernel_cache import KernelRows

    X = np.random.default_rng(0).normal(size=(50, 3))
    K = kernels.gram(X, kernel, **params)
    rows = KernelRows(X, kernel, params, cache_mb=8 * 50 * 5 / 1e6)  # 5 rows
    assert rows.capacity == 5
    for i in [3, 7, 3, 11, 13, 17, 19, 23, 3]:
        np.testing.assert_allclose(rows[i], K[i], rtol=1e-12, atol=1e-12)
    assert len(rows._rows) <= 5 and rows.hits == 1 and rows.misses == 8
    a, b = [1, 4, 9], [0, 2]
    np.testing.assert_allclose(rows[np.ix_(a, b)], K[np.ix_(a, b)], rtol=1e-12)
    v = np.where(np.arange(50) % 3 == 0, np.arange(50.0), 0.0)
    np.testing.assert_allclose(rows @ v, K @ v, rtol=1e-10)
    np.testing.assert_allclose(rows.diagonal(), np.diag(K), rtol=1e-12)


def test_smo_on_kernel_rows_takes_the_whole_matrix_when_many_rows_are_asked_for():
    """Overlapping classes: SMO asks for the rows of more than a quarter of the points, then
    computes the whole Gram matrix (it fits the cache) and goes on from it; the answer is that
    of SMO on the Gram matrix itself, KKT gap below tol on E recomputed from scratch. With a
    cache too small for the whole matrix, it stays on rows and gives the same answer."""
    from course_lib.kernel_cache import KernelRows

    rng = np.random.default_rng(1)
    r = np.where(rng.random(400) < 0.5, 1.0, -1.0)
    X = 0.4 * (rng.normal(size=(400, 3)) + 0.5 * r[:, None])
    K = kernels.gram(X, "polynomial", degree=3)
    dense = smo(K, r, 1.0, 1e-4)
    for cache_mb, whole in [(200.0, True), (8 * 400 * 100 / 1e6, False)]:
        rows = KernelRows(X, "polynomial", {"degree": 3}, cache_mb=cache_mb)
        result = smo(rows, r, 1.0, 1e-4)
        assert (rows._whole is not None) == whole
        assert result.status == dense.status == "converged"
        E = r - K @ (result.alpha * r)
        assert kkt_gap(E, result.alpha, r, 1.0) < 1e-4
        L = lambda a: a.sum() - 0.5 * (a * r) @ K @ (a * r)
        assert L(result.alpha) == pytest.approx(L(dense.alpha), rel=1e-6)


def test_shrinking_reaches_the_optimum_of_libsvm_and_the_kkt_conditions_on_every_point(monkeypatch):
    """Overlapping classes, polynomial kernel: most multipliers end at C, so SMO shrinks to the
    others and polishes on the shrunk problem; the result is checked on all points."""
    import course_lib.smo as smo_module

    rng = np.random.default_rng(5)
    n, d = 800, 5
    r = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    X = rng.normal(size=(n, d)) + 0.5 * r[:, None] / np.sqrt(d)
    X = 2.0 * (X - X.min(axis=0)) / (X.max(axis=0) - X.min(axis=0)) - 1.0
    shrunk = []
    solve_shrunk = smo_module._solve_shrunk

    def spy(K, r, *args):
        result = solve_shrunk(K, r, *args)
        shrunk.append(None if result is None else np.count_nonzero(result[0] > 0))
        return result

    monkeypatch.setattr(smo_module, "_solve_shrunk", spy)
    C, tol, params = 1.0, 1e-3, {"degree": 3}
    K = kernels.gram(X, "polynomial", **params)
    result = smo(K, r, C, tol)
    assert result.status == "converged"
    assert any(count is not None for count in shrunk)  # the shrunk path ran
    alpha = result.alpha
    assert np.all((alpha >= 0) & (alpha <= C)) and abs(alpha @ r) < 1e-9 * alpha.sum()
    E = r - K @ (alpha * r)  # from the kernel, not from the solver's cache
    np.testing.assert_allclose(result.E, E, atol=1e-9)
    assert kkt_gap(E, alpha, r, C) < tol
    svc = SVC(C=C, tol=tol, **SKLEARN_KERNEL["polynomial"](params)).fit(X, r)
    v = alpha * r
    assert alpha.sum() - 0.5 * v @ K @ v == pytest.approx(
        libsvm_dual_objective(svc, X, "polynomial", params), rel=1e-6)
