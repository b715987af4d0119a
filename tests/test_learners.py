"""The structured SVM learners against independent references: scikit-learn's Crammer-Singer and
binary linear SVMs (whose objectives are the structured one with C_sklearn = C / n) and a
brute-force enumeration of every constraint solved by scipy.optimize (reference only)."""

import itertools
import warnings

import numpy as np
import pytest
from scipy.optimize import minimize
from sklearn.svm import LinearSVC
from threadpoolctl import threadpool_info, threadpool_limits

from course_lib.structured.base import StructuredModel, exhaustive_argmax
from course_lib.structured.learners import NSlackSSVM, OneSlackSSVM, SubgradientSSVM


class Multiclass(StructuredModel):
    """Crammer-Singer: Psi(x, y) puts x in block y, 0-1 loss, inference by enumeration."""

    def __init__(self, n_classes):
        self.n_classes = n_classes

    def initialize(self, X, Y):
        super().initialize(X, Y)
        self.size_joint_feature = self.n_classes * len(X[0])

    def joint_feature(self, x, y):
        psi = np.zeros((self.n_classes, len(x)))
        psi[y] = x
        return psi.ravel()

    def loss(self, y, y_hat):
        return float(y != y_hat)

    def inference(self, x, w):
        return exhaustive_argmax(range(self.n_classes), lambda y: w @ self.joint_feature(x, y))

    def loss_augmented_inference(self, x, y, w, rescaling="margin"):
        psi_y = w @ self.joint_feature(x, y)
        if rescaling == "margin":
            return exhaustive_argmax(range(self.n_classes), lambda c: self.loss(y, c) + w @ self.joint_feature(x, c))
        return exhaustive_argmax(
            range(self.n_classes), lambda c: self.loss(y, c) * (1 + w @ self.joint_feature(x, c) - psi_y))


class Binary(Multiclass):
    """Psi(x, y) = y x / 2 with y in {-1, +1} and the 0-1 loss (the slides' binary instance)."""

    def __init__(self):
        self.n_classes = 2

    def initialize(self, X, Y):
        StructuredModel.initialize(self, X, Y)
        self.size_joint_feature = len(X[0])

    def joint_feature(self, x, y):
        return y * np.asarray(x, dtype=float) / 2

    def inference(self, x, w):
        return exhaustive_argmax((-1, 1), lambda y: w @ self.joint_feature(x, y))

    def loss_augmented_inference(self, x, y, w, rescaling="margin"):
        return exhaustive_argmax((-1, 1), lambda c: self.loss(y, c) + w @ self.joint_feature(x, c))


class Sequence(StructuredModel):
    """Label sequences of length 3 over {0, 1}, unary + transition features, Hamming loss:
    |Y| = 8, small enough to enumerate every constraint."""

    labels = list(itertools.product((0, 1), repeat=3))

    def initialize(self, X, Y):
        super().initialize(X, Y)
        self.size_joint_feature = 2 * X[0].shape[1] + 4

    def joint_feature(self, x, y):
        unary = np.zeros((2, x.shape[1]))
        for t, label in enumerate(y):
            unary[label] += x[t]
        pair = np.zeros((2, 2))
        for a, b in zip(y[:-1], y[1:]):
            pair[a, b] += 1
        return np.r_[unary.ravel(), pair.ravel()]

    def loss(self, y, y_hat):
        return float(sum(a != b for a, b in zip(y, y_hat)))

    def inference(self, x, w):
        return exhaustive_argmax(self.labels, lambda y: w @ self.joint_feature(x, y))

    def loss_augmented_inference(self, x, y, w, rescaling="margin"):
        s = w @ self.joint_feature(x, y)
        if rescaling == "margin":
            return exhaustive_argmax(self.labels, lambda c: self.loss(y, c) + w @ self.joint_feature(x, c))
        return exhaustive_argmax(self.labels, lambda c: self.loss(y, c) * (1 + w @ self.joint_feature(x, c) - s))


def multiclass_data(n=30, seed=0):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % 3
    centres = np.array([[0.0, 2.0], [2.0, -1.0], [-2.0, -1.0]])
    X = centres[y] + rng.normal(scale=1.3, size=(n, 2))
    return X, y


def sequence_data(n=8, seed=0):
    rng = np.random.default_rng(seed)
    Y = [tuple(rng.integers(0, 2, size=3)) for _ in range(n)]
    X = [np.array([[1.0 if label else -1.0, 0.5] for label in y]) + rng.normal(scale=0.9, size=(3, 2)) for y in Y]
    return X, Y


def brute_force_optimum(model, X, Y, C, rescaling):
    """min 1/2 ||w||^2 + C/n sum xi_i s.t. every one of the n |Y| constraints, by SLSQP."""
    model.initialize(X, Y)
    d, n = model.size_joint_feature, len(X)
    rows, offsets, owners = [], [], []
    for i, (x, y) in enumerate(zip(X, Y)):
        for c in model.labels:
            delta = model.loss(y, c)
            d_psi = model.joint_feature(x, y) - model.joint_feature(x, c)
            rows.append(delta * d_psi if rescaling == "slack" else d_psi)
            offsets.append(delta)
            owners.append(i)
    A, b, owners = np.array(rows), np.array(offsets), np.array(owners)
    E = np.eye(n)[owners]  # constraint k uses slack xi_{owner(k)}
    res = minimize(
        lambda z: 0.5 * z[:d] @ z[:d] + C / n * z[d:].sum(), np.r_[np.zeros(d), b.max() * np.ones(n)],
        jac=lambda z: np.r_[z[:d], np.full(n, C / n)], method="SLSQP",
        constraints=[{"type": "ineq", "fun": lambda z: A @ z[:d] - b + E @ z[d:],
                      "jac": lambda z: np.hstack([A, E])}],
        bounds=[(None, None)] * d + [(0, None)] * n, options={"ftol": 1e-12, "maxiter": 500},
    )
    return res.fun


@pytest.mark.parametrize("Learner", [NSlackSSVM, OneSlackSSVM])
@pytest.mark.parametrize("C", [0.3, 10.0])
def test_crammer_singer_matches_sklearn(Learner, C):
    X, y = multiclass_data()
    n = len(X)
    model = Multiclass(3)
    learner = Learner(model, C=C, tol=1e-6, qp_tol=1e-10).fit(X, y)
    reference = LinearSVC(multi_class="crammer_singer", fit_intercept=False, C=C / n, tol=1e-10,
                          max_iter=100_000).fit(X, y)
    ours = learner.objective(X, y)
    theirs = learner.objective(X, y, reference.coef_.ravel())
    assert ours == pytest.approx(theirs, rel=1e-4)
    np.testing.assert_allclose(learner.w_, reference.coef_.ravel(), atol=2e-2 * np.abs(reference.coef_).max())
    assert np.mean(np.array(learner.predict(X)) == reference.predict(X)) >= 0.95


@pytest.mark.parametrize("Learner", [NSlackSSVM, OneSlackSSVM])
def test_binary_psi_half_y_x_is_the_linear_svm(Learner):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(40, 3))
    r = np.where(X @ np.array([1.0, -2.0, 0.5]) + rng.normal(scale=1.0, size=40) > 0, 1, -1)
    C = 20.0
    learner = Learner(Binary(), C=C, tol=1e-7, qp_tol=1e-10).fit(X, r)
    reference = LinearSVC(loss="hinge", fit_intercept=False, C=C / len(X), tol=1e-9, max_iter=1_000_000).fit(X, r)
    np.testing.assert_allclose(learner.w_, reference.coef_.ravel(), rtol=1e-3, atol=1e-4)
    assert learner.objective(X, r) == pytest.approx(learner.objective(X, r, reference.coef_.ravel()), rel=1e-5)


@pytest.mark.parametrize("rescaling", ["margin", "slack"])
@pytest.mark.parametrize("Learner", [NSlackSSVM, OneSlackSSVM])
def test_all_constraints_enumerated(rescaling, Learner):
    X, Y = sequence_data()
    C = 5.0
    optimum = brute_force_optimum(Sequence(), X, Y, C, rescaling)
    learner = Learner(Sequence(), C=C, rescaling=rescaling, tol=1e-6, qp_tol=1e-10).fit(X, Y)
    assert learner.objective(X, Y) == pytest.approx(optimum, rel=1e-5, abs=1e-7)
    assert learner.history_["dual"][-1] <= optimum + 1e-7


def test_nslack_and_oneslack_reach_the_same_objective_and_bound_it():
    X, y = multiclass_data(n=45, seed=2)
    model = Multiclass(3)
    results = {}
    for Learner in (NSlackSSVM, OneSlackSSVM):
        learner = Learner(model, C=50.0, tol=1e-4).fit(X, y)
        h = learner.history_
        assert np.all(np.array(h["primal"]) >= np.array(h["dual"]) - 1e-9)
        assert h["iteration"][0] == 0 and np.all(np.diff(h["iteration"]) > 0)
        assert np.all(np.diff(h["time"]) >= 0)
        results[Learner.__name__] = learner.objective(X, y)
        # the stopping rule guarantees P(w) - min P <= C tol; the last dual bounds min P below
        assert results[Learner.__name__] - h["dual"][-1] <= 50.0 * 1e-4 + 1e-6
    assert results["NSlackSSVM"] == pytest.approx(results["OneSlackSSVM"], rel=1e-4)


def test_oneslack_dual_bound_increases():
    X, y = multiclass_data(n=45, seed=2)
    h = OneSlackSSVM(Multiclass(3), C=50.0, tol=1e-4, inactive_window=10**6).fit(X, y).history_
    assert np.all(np.diff(h["dual"]) >= -1e-9)


@pytest.mark.parametrize("variant", ["batch", "stochastic"])
def test_subgradient_decreases_towards_the_optimum(variant):
    X, y = multiclass_data(n=45, seed=2)
    model = Multiclass(3)
    optimum = OneSlackSSVM(model, C=5.0, tol=1e-6).fit(X, y).objective(X, y)
    short = SubgradientSSVM(model, C=5.0, variant=variant, n_epochs=3, seed=0).fit(X, y)
    long = SubgradientSSVM(model, C=5.0, variant=variant, n_epochs=200, history_every=20, seed=0).fit(X, y)
    assert long.objective(X, y) < short.objective(X, y)
    assert optimum <= long.objective(X, y) <= optimum * 1.05
    assert long.history_["primal"][-1] == pytest.approx(long.objective(X, y))
    assert all(p >= optimum - 1e-9 for p in long.history_["primal"])


def test_subgradient_batch_first_step_is_algorithm_1():
    X, y = multiclass_data(n=9)
    model = Multiclass(3)
    C, eta = 2.0, 0.5
    learner = SubgradientSSVM(model, C=C, n_epochs=1, learning_rate=eta).fit(X, y)
    # from w = 0 loss-augmented inference picks the first wrong label (ties go to the first)
    g = np.zeros(6)
    model.initialize(X, y)
    for x, label in zip(X, y):
        y_hat = model.loss_augmented_inference(x, label, np.zeros(6))
        g += model.joint_feature(x, y_hat) - model.joint_feature(x, label)
    np.testing.assert_allclose(learner.w_, -eta * C / len(X) * g)


def test_predict_and_fit_return_self():
    X, y = multiclass_data()
    learner = OneSlackSSVM(Multiclass(3), C=1.0)
    assert learner.fit(X, y) is learner
    assert len(learner.predict(X)) == len(X)


def blas_threads():
    """Threads of the BLAS pools course_lib limits: those loaded with numpy, found when its first
    learner ran. SciPy's own BLAS, loaded later by an import of scipy or scikit-learn, is not one
    our algorithms call (they import NumPy only)."""
    from course_lib._threads import _blas_controller
    ours = {lib.filepath for lib in _blas_controller().lib_controllers if lib.user_api == "blas"}
    assert ours, "course_lib found no BLAS library to limit"
    return max(lib["num_threads"] for lib in threadpool_info() if lib["filepath"] in ours)


@pytest.mark.parametrize("Learner", [NSlackSSVM, OneSlackSSVM, SubgradientSSVM])
def test_fit_runs_on_one_blas_thread_and_restores_the_pool(Learner):
    seen = []

    class Watched(Multiclass):
        def loss_augmented_inference(self, x, y, w, rescaling="margin"):
            seen.append(blas_threads())
            return super().loss_augmented_inference(x, y, w, rescaling)

    X, y = multiclass_data()
    with threadpool_limits(limits=2, user_api="blas"):
        assert blas_threads() == 2
        Learner(Watched(3), C=1.0).fit(X, y)
        assert seen and set(seen) == {1}, "fit must limit the BLAS pool to one thread"
        assert blas_threads() == 2, "fit must give the caller's thread count back"


@pytest.mark.parametrize("Learner", [NSlackSSVM, OneSlackSSVM, SubgradientSSVM])
def test_validation(Learner):
    X, y = multiclass_data(n=9)
    with pytest.raises(ValueError, match="C must be"):
        Learner(Multiclass(3), C=0.0).fit(X, y)
    with pytest.raises(ValueError, match="C must be"):
        Learner(Multiclass(3), C=np.nan).fit(X, y)
    with pytest.raises(ValueError, match="lengths must match"):
        Learner(Multiclass(3)).fit(X, y[:-1])
    with pytest.raises(ValueError, match="empty"):
        Learner(Multiclass(3)).fit([], [])
    with pytest.raises(TypeError, match="contract"):
        Learner(object()).fit(X, y)
    with pytest.raises(ValueError, match="rescaling"):
        Learner(Multiclass(3), rescaling="both").fit(X, y)
    with pytest.raises(RuntimeError, match="not fitted"):
        Learner(Multiclass(3)).predict(X)


def test_subgradient_validation():
    X, y = multiclass_data(n=9)
    with pytest.raises(ValueError, match="variant"):
        SubgradientSSVM(Multiclass(3), variant="minibatch").fit(X, y)
    with pytest.raises(ValueError, match="learning_rate"):
        SubgradientSSVM(Multiclass(3), learning_rate=-1.0).fit(X, y)
    with pytest.raises(ValueError, match="n_epochs"):
        SubgradientSSVM(Multiclass(3), n_epochs=0).fit(X, y)


@pytest.mark.parametrize("cache_size", [0, 1, 5])
def test_oneslack_cache_does_not_change_the_optimum(cache_size):
    X, Y = sequence_data(n=10, seed=3)
    optimum = brute_force_optimum(Sequence(), X, Y, 8.0, "margin")
    learner = OneSlackSSVM(Sequence(), C=8.0, tol=1e-6, qp_tol=1e-10, cache_size=cache_size).fit(X, Y)
    assert learner.objective(X, Y) == pytest.approx(optimum, rel=1e-5)
    assert learner.n_oracle_calls_ <= learner.n_iter_ + 1


def test_subgradient_with_slack_rescaling_approaches_the_optimum():
    X, Y = sequence_data()
    optimum = brute_force_optimum(Sequence(), X, Y, 5.0, "slack")
    learner = SubgradientSSVM(Sequence(), C=5.0, variant="stochastic", rescaling="slack", n_epochs=300,
                              history_every=0, seed=1).fit(X, Y)
    assert optimum - 1e-6 <= learner.objective(X, Y) <= optimum * 1.05
    assert learner.history_["primal"] == [pytest.approx(learner.objective(X, Y))]


# --- n-slack at large C/n: converged or said ----------------------------------------------------

def iris_problem():
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True)
    return X, y


def small_ocr_problem(n_words):
    from course_lib.data import load_ocr_letters

    words, labels, folds = load_ocr_letters()
    train = np.flatnonzero(folds == 1)[:n_words]
    return [words[i] for i in train], [labels[i] for i in train]


def nslack_kkt_gap(learner, n):
    """Duality gap of the n-slack working-set QP at the learner's (alpha, w), after checking the
    dual feasibility: alpha >= 0, sum_{k in S_i} alpha_k <= C/n, w = sum_k alpha_k a_k."""
    A, b = learner.constraints_
    alpha, owner, cap = learner.alpha_, learner.owner_, learner.C / n
    assert np.all(alpha >= 0)
    assert np.all(np.bincount(owner, weights=alpha, minlength=n) <= cap * (1 + 1e-9))
    np.testing.assert_allclose(alpha @ A, learner.w_, atol=1e-8 * max(1.0, np.abs(learner.w_).max()))
    g = b - A @ learner.w_
    xi = np.zeros(n)
    np.maximum.at(xi, owner, g)
    return cap * xi.sum() - float(alpha @ g)


@pytest.mark.parametrize("stopping", ["epsilon", "working_set"])
def test_nslack_reaches_the_oneslack_optimum_on_iris_at_large_C(stopping):
    from course_lib.structured.models import MulticlassModel

    X, y = iris_problem()
    C = 100.0 * len(X)  # C/n = 100
    reference = OneSlackSSVM(MulticlassModel(3), C=C, tol=1e-6).fit(X, y)
    optimum_bound = max(reference.history_["dual"])
    learner = NSlackSSVM(MulticlassModel(3), C=C, tol=1e-6, stopping=stopping).fit(X, y)
    assert learner.converged_
    ours = learner.objective(X, y)
    assert ours <= reference.objective(X, y) * 1.001
    assert ours >= optimum_bound - 1e-6  # no objective below a certified lower bound
    assert nslack_kkt_gap(learner, len(X)) <= learner.qp_tol_ * C + 1e-9


def test_nslack_reaches_the_oneslack_optimum_on_a_small_ocr_chain_problem():
    from course_lib.structured.chain import ChainModel

    X, Y = small_ocr_problem(12)
    C = 1.0 * len(X)  # C/n = 1 with features and loss divided by r (the cached models' setting)
    reference = OneSlackSSVM(ChainModel(), C=C, tol=1e-4).fit(X, Y)
    learner = NSlackSSVM(ChainModel(), C=C, tol=1e-4).fit(X, Y)
    assert learner.converged_
    ours, theirs = learner.objective(X, Y), reference.objective(X, Y)
    assert abs(ours - theirs) <= 1e-3 * theirs
    assert nslack_kkt_gap(learner, len(X)) <= learner.qp_tol_ * C + 1e-9


def test_nslack_says_when_it_stops_at_max_iter():
    from course_lib.structured.models import MulticlassModel

    X, y = iris_problem()
    with pytest.warns(RuntimeWarning, match="max_iter=2"):
        learner = NSlackSSVM(MulticlassModel(3), C=100.0 * len(X), max_iter=2).fit(X, y)
    assert learner.converged_ is False


def test_nslack_stopping_rule_is_validated():
    X, y = multiclass_data(n=9)
    with pytest.raises(ValueError, match="stopping must be one of"):
        NSlackSSVM(Multiclass(3), stopping="never").fit(X, y)


def test_nslack_reaches_the_optimum_on_ocr_fold_1():
    """The full fold 1 (704 words), C/n = 0.1, chain without 1/r (`python -m benchmarks ssvm`):
    n-slack within 0.1% of a certified lower bound on min P, one-slack within its C tol."""
    from course_lib.structured.chain import ChainModel

    X, Y = small_ocr_problem(704)
    C = 0.1 * len(X)
    one = OneSlackSSVM(ChainModel(normalize=False), C=C, tol=1e-2).fit(X, Y)
    learner = NSlackSSVM(ChainModel(normalize=False), C=C, tol=1e-2).fit(X, Y)
    assert learner.converged_
    bound = max(max(one.history_["dual"]), max(learner.history_["dual"]))  # <= min P
    assert learner.objective(X, Y) <= 1.001 * bound
    assert one.objective(X, Y) <= bound + C * one.tol


@pytest.mark.parametrize("seed", range(5))
def test_one_slack_dual_point_is_feasible_and_gives_the_working_sets_dual_value(seed):
    """alpha_i(y) = sum_k alpha_k [plane k took y for example i] / C: nonnegative, at most 1 per
    example (the rest on y_i); its n-slack dual value is the working set's, below P at any w, and
    v = C/n sum_i sum_y alpha_i(y) dPsi_i(y) is the learned w."""
    rng = np.random.default_rng(seed)
    X, Y = list(rng.normal(size=(40, 3))), list(rng.integers(0, 3, 40))
    model = Multiclass(3)
    learner = OneSlackSSVM(model, C=5.0, tol=1e-4).fit(X, Y)
    C, n, linear, v = learner.C, len(X), 0.0, np.zeros(learner.w_.size)
    for i, point in enumerate(learner.dual_point()):
        weights = [weight for _, weight in point.values()]
        assert min(weights, default=0) >= 0 and sum(weights) <= 1 + 1e-12
        for y_bar, weight in point.values():
            linear += weight * model.loss(Y[i], y_bar)
            v += weight * (model.joint_feature(X[i], Y[i]) - model.joint_feature(X[i], y_bar))
    v *= C / n
    dual = C / n * linear - 0.5 * v @ v
    assert np.allclose(v, learner.w_, atol=1e-10)
    assert dual == pytest.approx(learner.history_["dual"][-1], rel=1e-9, abs=1e-12)
    assert dual <= learner.objective(X, Y) and dual <= learner.objective(X, Y, rng.normal(size=v.size))


@pytest.mark.timeout(60)
def features_of_size_thousands():
    """3 classes, 60 points, features 1,000 times larger (||x||^2 ~ 3e7)."""
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 60)
    return list(1000.0 * (rng.normal(size=(60, 4)) + y[:, None])), list(y)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("C", [1.0, 1e4])
@pytest.mark.parametrize("Learner", [OneSlackSSVM, NSlackSSVM])
def test_cutting_planes_handle_features_of_size_thousands(Learner, C):
    """Huge features make the working-set QP's Gram matrix ill-conditioned: training still ends
    in seconds (it took minutes when the QP's updated inverse drifted, and a minute at C = 10^4
    chasing a gap below what double precision resolves) and certified: P(w) minus the lower bound
    within 1.1 C tol."""
    X, y = features_of_size_thousands()
    learner = Learner(Multiclass(3), C=C).fit(X, y)
    assert getattr(learner, "converged_", True)
    primal, dual = learner.history_["primal"][-1], learner.history_["dual"][-1]
    assert 0.0 <= primal - dual <= 1.1 * learner.C * learner.tol


@pytest.mark.timeout(60)
@pytest.mark.parametrize("Learner", [OneSlackSSVM, NSlackSSVM])
def test_cutting_planes_refuse_a_C_double_precision_cannot_resolve(Learner):
    X, y = features_of_size_thousands()
    with pytest.raises(ValueError, match=r"C=1e\+06 is too large.*Lower C, or scale the features"):
        Learner(Multiclass(3), C=1e6).fit(X, y)


class _OneByOne:
    """A chain model seen through the contract only (no joint_features, no losses)."""

    def __init__(self, model):
        self.model = model

    def __getattr__(self, name):
        if name in ("joint_features", "losses"):
            raise AttributeError(name)
        return getattr(self.model, name)


@pytest.mark.parametrize("rescaling", ["margin", "slack"])
@pytest.mark.parametrize("Learner", [NSlackSSVM, OneSlackSSVM])
def test_constraints_of_all_examples_at_once_are_those_one_by_one(Learner, rescaling):
    from course_lib.data import load_ocr_letters
    from course_lib.structured.chain import ChainModel
    words, labels, _ = load_ocr_letters()
    X, Y = list(words[:30]), list(labels[:30])
    batch, single = (Learner(model, C=10.0, rescaling=rescaling, max_iter=30)
                     for model in (ChainModel(normalize_loss=True), _OneByOne(ChainModel(normalize_loss=True))))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # max_iter may stop N-slack first
        batch.fit(X, Y), single.fit(X, Y)
    assert np.array_equal(batch.w_, single.w_)
    assert batch.history_["primal"] == single.history_["primal"]
    assert batch.objective(X, Y) == single.objective(X, Y)
