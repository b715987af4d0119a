"""Every input gets a right answer or a clear error: bad, extreme and hostile inputs thrown at the
public estimators and functions. Each case runs in bounded time (pytest-timeout) and, where
memory was once the problem, under a measured peak.

A clear error is a ValueError or TypeError whose message names the parameter at fault."""

import re
import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from course_lib import basis, data, kernels, linear, model_selection, multiclass_svm, perceptron
from course_lib._validation import MAX_ABS, NotFittedError
from course_lib.kernel_knn import KernelKNN
from course_lib.multiclass import AllPairs, OneVsRest
from course_lib.structured import ranking
from course_lib.svm import SVM
from course_lib.svm_gradient import KernelDensityClassifier, KernelHingeGD

X2, R2 = data.overlapping(40, seed=1)
X3, Y3 = data.three_blobs(60, seed=1)


def binary_estimators():
    return {
        "SVM": lambda: SVM(),
        "SVM gaussian": lambda: SVM(kernel="gaussian"),
        "KernelKNN": lambda: KernelKNN(),
        "RBFNetwork": lambda: basis.RBFNetwork(K=4),
        "Perceptron (K2)": lambda: linear.Perceptron(n_epochs=2),
        "LeastSquaresClassifier": lambda: linear.LeastSquaresClassifier(),
        "KernelHingeGD": lambda: KernelHingeGD(n_epochs=5),
        "KernelDensityClassifier": lambda: KernelDensityClassifier(),
    }


def multiclass_estimators():
    return {
        "OneVsRest": lambda: OneVsRest(SVM()),
        "AllPairs": lambda: AllPairs(SVM()),
        "MulticlassSVM": lambda: multiclass_svm.MulticlassSVM(n_iter=50),
        "HingeRiskSGD": lambda: multiclass_svm.HingeRiskSGD(n_iter=50),
        "multiclass Perceptron": lambda: perceptron.Perceptron(n_epochs=1),
        "AveragedPerceptron": lambda: perceptron.AveragedPerceptron(n_epochs=1),
    }


ALL = {**binary_estimators(), **multiclass_estimators()}

BAD_X = {
    "None": (None, "X"),
    "complex": (X2 + 1j, "complex"),
    "no column": (np.empty((40, 0)), "X"),
    "NaN": (np.where(np.eye(40, 2) > 0, np.nan, X2), "X"),
    "inf": (np.where(np.eye(40, 2) > 0, np.inf, X2), "X"),
    "x 1e300": (X2 * 1e300, "X"),
    "strings": (np.full((40, 2), "a"), "X"),
    "3-D": (X2[:, :, None], "X"),
    "empty": (np.empty((0, 2)), "X"),
}


def _targets(name, n=40):
    return R2[:n] if name in binary_estimators() else np.resize(Y3, n)


def assert_clear_error(call, *fragments):
    """The call raises ValueError or TypeError naming one of `fragments` as a word."""
    with pytest.raises((ValueError, TypeError)) as caught:
        call()
    message = str(caught.value)
    named = any(re.search(rf"(?<![\w.]){re.escape(f)}(?!\w)", message) for f in fragments)
    assert named, f"unclear message: {message!r}"
    assert "zero-size array" not in message and "object of type" not in message


@pytest.mark.timeout(20)
@pytest.mark.parametrize("case", sorted(BAD_X))
@pytest.mark.parametrize("name", sorted(ALL))
def test_bad_X_gets_a_clear_error(name, case):
    X, fragment = BAD_X[case]
    assert_clear_error(lambda: ALL[name]().fit(X, _targets(name)), fragment, "X")


BAD_Y = {
    "None": lambda n: None,
    "NaN": lambda n: np.r_[np.nan, np.ones(n - 1)],
    "too short": lambda n: np.ones(n - 1),
    "2-D": lambda n: np.ones((n, 2)),
    "None labels": lambda n: [None] * n,
    "one class": lambda n: np.ones(n),
}


@pytest.mark.timeout(20)
@pytest.mark.parametrize("case", sorted(BAD_Y))
@pytest.mark.parametrize("name", sorted(ALL))
def test_bad_labels_get_a_clear_error(name, case):
    X = X2 if name in binary_estimators() else X3[:40]
    if name == "KernelKNN" and case == "one class":
        return  # k-NN with one class is well defined: it predicts that class
    assert_clear_error(lambda: ALL[name]().fit(X, BAD_Y[case](40)), "y", "r")


@pytest.mark.parametrize("name", sorted(ALL))
def test_not_fitted_error_is_scikit_learn_compatible(name):
    model = ALL[name]()
    method = getattr(model, "decision_function", None) or model.predict
    with pytest.raises(NotFittedError) as caught:
        method(X2)
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, AttributeError)
    assert "not fitted" in str(caught.value)


def test_mixed_labels_are_refused():
    assert_clear_error(lambda: KernelKNN().fit(X2, ["a"] * 20 + [1] * 20), "mixes")
    assert_clear_error(lambda: OneVsRest(SVM()).fit(X3[:40], [None] * 40), "y")


def test_nan_labels_are_refused_by_knn_and_rbf_network():
    assert_clear_error(lambda: KernelKNN().fit(X2, np.where(R2 > 0, np.nan, 1.0)), "NaN")
    assert_clear_error(lambda: basis.RBFNetwork().fit(X2, np.where(R2 > 0, np.nan, 1.0)), "r")


@pytest.mark.parametrize("seed", [-1, 1.5, "0", True])
def test_seed_is_named(seed):
    assert_clear_error(lambda: data.overlapping(10, seed=seed), "seed")


# ------------------------------------------------------------------ extreme values, right answers

@settings(max_examples=60, deadline=None)
@given(st.floats(min_value=1e-300, max_value=1e300))
def test_gaussian_kernel_is_exact_at_any_width(sigma):
    X = np.array([[0.0, 0.0], [1.0, 2.0], [1.0, 2.0 + 1e-9]])
    K = kernels.gaussian(X, X, sigma=sigma)
    assert np.all(np.isfinite(K)) and np.all((K >= 0) & (K <= 1))
    assert np.all(np.diag(K) == 1.0)
    d2 = kernels.squared_distances(X, X)
    with np.errstate(over="ignore"):
        expected = np.exp(-((np.sqrt(d2) / sigma) ** 2))
    np.testing.assert_allclose(K, expected, rtol=1e-9, atol=1e-300)


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=-100, max_value=100))
def test_svm_on_scaled_data_is_right_or_refused(exponent):
    """Scaling X by 10^k and sigma with it changes nothing for the Gaussian SVM; when the scale is
    past what the library promises (|x| <= MAX_ABS), it refuses at once."""
    scale = 10.0**exponent
    reference = SVM(kernel="gaussian", sigma=1.0).fit(X2, R2)
    try:
        model = SVM(kernel="gaussian", sigma=scale).fit(X2 * scale, R2)
    except ValueError as error:
        assert np.max(np.abs(X2)) * scale > MAX_ABS or "sigma" in str(error), str(error)
        return
    np.testing.assert_array_equal(model.predict(X2 * scale), reference.predict(X2))
    assert model.dual_objective_ == pytest.approx(reference.dual_objective_, rel=1e-6)


@pytest.mark.timeout(10)
@pytest.mark.parametrize("C", [1e13, 1e20, 1e300])
def test_unresolvable_C_is_refused_fast(C):
    assert_clear_error(lambda: SVM(C=C).fit(X2, R2), "C")


@pytest.mark.timeout(30)
def test_large_C_still_converges():
    """Up to the bound, the soft margin keeps converging to the same solution as C grows."""
    predictions = {C: SVM(C=C).fit(X2, R2).predict(X2) for C in (1e4, 1e8, 1e10)}
    assert all(np.array_equal(p, predictions[1e4]) for p in predictions.values())


def test_polynomial_overflow_is_refused():
    assert_clear_error(lambda: SVM(kernel="polynomial", degree=10**6).fit(X2, R2), "degree")
    assert_clear_error(lambda: kernels.polynomial(X2 * 1e80, X2 * 1e80, degree=3), "degree")


# ------------------------------------------------------------------ generators and small functions

@pytest.mark.timeout(10)
@pytest.mark.parametrize(
    "call, fragment",
    [
        (lambda: data.overlapping(spread=np.nan), "spread"),
        (lambda: data.overlapping(spread=-1), "spread"),
        (lambda: data.linearly_separable(gap=np.nan), "gap"),
        (lambda: data.noisy_xor(noise=-0.1), "noise"),
        (lambda: data.three_blobs(spread=np.inf), "spread"),
        (lambda: data.forty_twenty_forty(noise=np.nan), "noise"),
        (lambda: data.zipf_sparse(n=5, active=(50, 20)), "active"),
        (lambda: data.with_outlier(outlier=(np.nan, 1.0)), "outlier"),
        (lambda: ranking.toy_ranking_queries(n_items=1), "n_items"),
        (lambda: ranking.toy_ranking_queries(noise=np.nan), "noise"),
        (lambda: ranking.toy_metric_queries(n_items=1), "n_items"),
        (lambda: multiclass_svm.svm_lambda(1.0, 1.0, 0), "m"),
        (lambda: multiclass_svm.svm_excess_bound(1.0, 1.0, np.nan), "m"),
        (lambda: multiclass_svm.sgd_iterations(1.0, 1.0, 1e-300), "eps"),
        (lambda: multiclass_svm.sgd_eta(1.0, 1.0, 0), "T"),
        (lambda: basis.square_map(np.ones((3, 2))), "x"),
        (lambda: data.letters_to_string([-1]), "labels"),
        (lambda: data.letters_to_string([26]), "labels"),
    ],
)
def test_bad_parameters_get_a_clear_error(call, fragment):
    assert_clear_error(call, fragment)


def test_small_functions_stay_right_on_valid_edges():
    assert data.letters_to_string([]) == ""
    assert data.letters_to_string(np.array([0.0, 25.0])) == "az"
    assert multiclass_svm.sgd_iterations(1.0, 1.0, 1e-7) == 10**14
    np.testing.assert_array_equal(basis.square_map(np.array([[2.0], [3.0]])), [[2, 4], [3, 9]])


# ------------------------------------------------------------------ memory

@pytest.mark.timeout(60)
def test_sigma_min_in_bounded_memory():
    """The smallest distance among 5,000 points in 128-D once needed an N x N x D cube (3.2 GB)."""
    X = np.random.default_rng(0).normal(size=(5000, 128))
    X[17] = X[4001]  # a duplicate: distance 0 does not count
    tracemalloc.start()
    try:
        value = model_selection.sigma_min(X)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1024**3 / 2, f"peak {peak / 1e6:.0f} MB"
    sub = X[:300]
    d = np.sqrt(((sub[:, None] - sub[None]) ** 2).sum(-1))
    assert value <= d[d > 0].min() + 1e-12


# ------------------------------------------------------------------ plot helpers outside the sliders

def test_plot_helpers_refuse_what_they_would_draw_wrongly():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from course_lib.plotting import multiclass as multiclass_plots
    from course_lib.plotting import perceptron as perceptron_plots
    from course_lib.plotting.style import plot_points

    fig, axes = plt.subplots(1, 2)
    try:
        assert_clear_error(lambda: plot_points(axes[0], X2, R2 > 0), "r")
        assert_clear_error(lambda: perceptron_plots.draw_plain_vs_averaged(axes, n_epochs=0), "n_epochs")
        assert_clear_error(lambda: multiclass_plots.sgd_panel(axes[0], learner="perceptron"), "learner")
    finally:
        plt.close(fig)


@pytest.mark.timeout(120)
def test_localisation_inference_in_bounded_memory_and_equal_to_exhaustive():
    """Inference on a 150 x 150 image once listed its 1.3e8 boxes at once (4.1 GB)."""
    from course_lib.structured import vision

    rng = np.random.default_rng(0)
    model = vision.LocalisationModel()
    for shape in [(5, 4, 3), (7, 9, 2), (6, 6, 1)]:  # against the exhaustive argmax, ties included
        x = rng.integers(0, 2, size=shape).astype(float)
        y = np.array([1, 0, shape[0], 2])
        for w in (rng.normal(size=shape[2]), np.zeros(shape[2])):
            boxes, s = model.box_scores(x, w)
            np.testing.assert_array_equal(model.inference(x, w), boxes[np.argmax(s)])
            for rescaling in ("margin", "slack"):
                delta = 1.0 - vision.overlap(y, boxes)
                s_true = vision.box_sum(vision.integral_image(x @ w), y)
                value = delta + s if rescaling == "margin" else delta * (1.0 + s - s_true)
                np.testing.assert_array_equal(
                    model.loss_augmented_inference(x, y, w, rescaling), boxes[np.argmax(value)])
    x = rng.normal(size=(150, 150, 2))
    tracemalloc.start()
    try:
        box = model.loss_augmented_inference(x, np.array([10, 10, 50, 60]), np.array([1.0, -0.5]))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1024**3 / 4, f"peak {peak / 1e6:.0f} MB"
    assert box.shape == (4,)


@pytest.mark.parametrize(
    "K, r, C, alpha, fragment",
    [
        (np.eye(3), np.ones(3), 1.0, None, "r"),
        (np.eye(3)[:2], np.array([1.0, -1.0]), 1.0, None, "K"),
        (np.full((2, 2), np.nan), np.array([1.0, -1.0]), 1.0, None, "K"),
        (np.eye(2), np.array([1.0, -1.0]), -1.0, None, "C"),
        (np.eye(2), np.array([1.0, -1.0]), 1.0, np.array([1.0, 0.0]), "alpha"),
    ],
)
def test_smo_checks_its_problem(K, r, C, alpha, fragment):
    from course_lib.smo import smo

    assert_clear_error(lambda: smo(K, r, C, alpha=alpha), fragment)


def test_structured_helpers_refuse_what_would_give_nan_or_inf():
    from course_lib.structured import chain, qp

    assert_clear_error(lambda: qp.solve_simplex_qp(np.full((2, 2), np.nan), np.ones(2), 1.0), "G")
    assert_clear_error(lambda: qp.solve_simplex_qp(np.eye(2), np.ones(2), np.inf), "cap")
    X = [np.eye(3, 4), np.eye(2, 4)]
    Y = [np.array([0, 1, 2]), np.array([1, 0])]
    assert_clear_error(lambda: chain.fit_hmm(X, Y, n_labels=3, smoothing=0), "smoothing")
    hmm = chain.fit_hmm(X, Y, n_labels=3, smoothing=0.5)
    assert all(np.all(np.isfinite(v)) for v in hmm.values())


def test_kernel_hinge_descent_with_a_huge_step_stays_finite_or_refuses():
    try:
        model = KernelHingeGD(eta=1e300, n_epochs=20).fit(X2, R2)
    except ValueError as error:
        assert "eta" in str(error)
        return
    assert np.all(np.isfinite(model.error_history_)) and np.all(np.isfinite(model.alpha_))


@pytest.mark.parametrize("damage", ["flip", "truncate", "empty"])
def test_damaged_data_files_get_a_clear_error(tmp_path, damage):
    import hashlib

    good = b"some shipped bytes" * 100
    path = tmp_path / "models.npz"
    path.write_bytes({"flip": bytes([good[0] ^ 1]) + good[1:], "truncate": good[:50],
                      "empty": b""}[damage])
    with pytest.raises(ValueError, match="corrupt"):
        data.read_checked(path, hashlib.sha256(good).hexdigest(), "The file", missing_fix="")


def test_chain_reading_demo_refuses_a_word_that_is_not_an_index():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from course_lib.plotting import structured_chain

    fig, ax = plt.subplots()
    try:
        assert_clear_error(lambda: structured_chain.draw_reading(ax, 7.0), "word")
        assert_clear_error(lambda: structured_chain.draw_reading(ax, 10**6), "word")
        assert_clear_error(lambda: structured_chain.cached_weights(C=-1.0), "C")
    finally:
        plt.close(fig)
