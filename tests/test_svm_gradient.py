import numpy as np
import pytest
from scipy.stats import spearmanr
from sklearn.svm import SVC

from course_lib import data, kernels
from course_lib import svm_gradient as sg
from course_lib.svm import SVM


def brute_error(alpha, w0, X, r, lam, sigma):
    """E_hinge written as loops over the slides' sums, independent of the vectorised code."""
    N = len(r)
    total = 0.0
    for t in range(N):
        h = (
            sum(alpha[s] * r[s] * np.exp(-np.sum((X[s] - X[t]) ** 2) / sigma**2) for s in range(N))
            + w0
        )
        if r[t] * h < 1:
            total += 1 - r[t] * h
    return total + lam / 2 * sum(a * a for a in alpha)


@pytest.mark.parametrize("seed", range(4))
def test_gradient_matches_finite_differences(seed):
    rng = np.random.default_rng(seed)
    X, r = data.overlapping(12, seed=seed)
    G = kernels.gram(X, "gaussian", sigma=1.0)
    alpha, w0, lam = rng.uniform(0.1, 1.0, 12), rng.normal(0, 0.3), 0.7
    margins = r * (G @ (alpha * r) + w0)
    assert np.min(np.abs(margins - 1)) > 1e-3  # E is differentiable here
    assert sg.hinge_error(alpha, w0, G, r, lam) == pytest.approx(
        brute_error(alpha, w0, X, r, lam, 1.0)
    )
    grad_alpha, grad_w0 = sg.hinge_gradient(alpha, w0, G, r, lam)
    eps = 1e-6
    for s in range(12):
        step = np.zeros(12)
        step[s] = eps
        numeric = (
            sg.hinge_error(alpha + step, w0, G, r, lam)
            - sg.hinge_error(alpha - step, w0, G, r, lam)
        ) / (2 * eps)
        assert grad_alpha[s] == pytest.approx(numeric, abs=1e-6)
    numeric_w0 = (
        sg.hinge_error(alpha, w0 + eps, G, r, lam) - sg.hinge_error(alpha, w0 - eps, G, r, lam)
    ) / (2 * eps)
    assert grad_w0 == pytest.approx(numeric_w0, abs=1e-6)


def test_each_step_is_the_slides_update_with_clipping():
    X, r = data.overlapping(20, seed=3)
    eta, lam = 0.05, 0.5
    model = sg.KernelHingeGD(sigma=1.0, lam=lam, eta=eta, n_epochs=5).fit(X, r)
    G = kernels.gram(X, "gaussian", sigma=1.0)
    clipped = False
    for k in range(5):
        alpha, w0 = model.alpha_history_[k], model.w0_history_[k]
        grad_alpha, grad_w0 = sg.hinge_gradient(alpha, w0, G, r, lam)
        step = alpha - eta * grad_alpha
        clipped |= bool(np.any(step < 0))
        np.testing.assert_allclose(model.alpha_history_[k + 1], np.where(step < 0, 0.0, step))
        assert model.w0_history_[k + 1] == pytest.approx(w0 - eta * grad_w0)
    assert clipped  # the clipping branch was exercised
    assert np.all(model.alpha_history_ >= 0)


def test_alphas_keep_growing_without_regularisation_and_settle_with_it():
    X, r = data.overlapping(40, seed=0)
    free = sg.KernelHingeGD(sigma=1.0, lam=0.0, eta=0.05, n_epochs=2000).fit(X, r)
    held = sg.KernelHingeGD(sigma=1.0, lam=1.0, eta=0.05, n_epochs=2000).fit(X, r)
    peak_free = free.alpha_history_.max(axis=1)
    peak_held = held.alpha_history_.max(axis=1)
    assert peak_free[-1] > 3 * peak_free[500] / 2  # still growing after 500 epochs
    assert peak_free[-1] > 10 * peak_held[-1]
    assert peak_held[-1] == pytest.approx(peak_held[1000], rel=0.05)  # settled


def test_step_size_never_overshoots_and_shrinks_like_one_over_lambda_k():
    assert sg.step_size(0.05, 0.0, 1000) == 0.05  # no regularisation: constant
    assert sg.step_size(0.05, 100.0, 0) == pytest.approx(0.01)
    assert sg.step_size(0.05, 1.0, 0) == 0.05
    assert sg.step_size(0.05, 1.0, 999) == pytest.approx(0.001)
    for lam in (0.01, 1.0, 100.0):
        assert all(sg.step_size(0.05, lam, k) * lam <= 1 for k in range(200))
    model = sg.KernelHingeGD(lam=100.0, n_epochs=10).fit(*data.overlapping(10, seed=0))
    np.testing.assert_allclose(model.eta_history_, [1 / (100 * (k + 1)) for k in range(10)])


@pytest.mark.parametrize("seed", range(5))
def test_hinge_dual_is_a_lower_bound_for_any_feasible_multipliers(seed):
    rng = np.random.default_rng(seed)
    X, r = data.overlapping(16, seed=seed)
    G = kernels.gram(X, "gaussian", sigma=1.0)
    lam = rng.uniform(0.1, 5)
    mu = sg._feasible_multipliers(rng.uniform(0, 1.5, 16), r)
    assert np.all((mu >= 0) & (mu <= 1)) and mu @ r == pytest.approx(0, abs=1e-12)
    D = sg.hinge_dual(mu, G, r, lam)
    for _ in range(20):  # any alpha >= 0 and w0 are above the bound
        assert sg.hinge_error(rng.uniform(0, 2, 16), rng.normal(), G, r, lam) >= D - 1e-12
    # the alpha of the multipliers minimises the Lagrangian over alpha >= 0: D is reached there
    alpha = sg.alpha_of_multipliers(mu, G, r, lam)
    A = r[:, None] * G * r
    lagrangian = 0.5 * lam * alpha @ alpha + mu.sum() - mu @ (A @ alpha)
    assert lagrangian == pytest.approx(D)
    assert sg.hinge_dual(mu, G, r, 0.0) == 0.0


def test_ranking_close_to_a_qp_svm_on_easy_data():
    X, r = data.linearly_separable(40, seed=2)
    sigma = 2.0
    model = sg.KernelHingeGD(sigma=sigma, lam=0.05, eta=0.02, n_epochs=1500).fit(X, r)
    reference = SVC(C=10.0, kernel="rbf", gamma=1 / sigma**2).fit(X, r)  # gamma = 1 / sigma^2
    grid = np.random.default_rng(0).uniform(-3, 3, size=(300, 2))
    rho = spearmanr(model.decision_function(grid), reference.decision_function(grid)).statistic
    assert rho > 0.95
    assert np.all(model.predict(X) == r)
    assert np.mean(model.predict(grid) == reference.predict(grid)) > 0.95
    # and the from-scratch QP solution (course_lib.svm) ranks the points the same way
    ours = SVM(C=10.0, kernel="gaussian", sigma=sigma).fit(X, r)
    assert spearmanr(model.decision_function(grid), ours.decision_function(grid)).statistic > 0.95


def test_loss_criteria_against_their_formulas():
    m = np.array([-2.0, -0.5, 0.0, 0.5, 1.0, 2.0])
    np.testing.assert_array_equal(sg.zero_one_loss(m), [1, 1, 0, 0, 0, 0])
    np.testing.assert_allclose(sg.quadratic_loss(m), [9, 2.25, 1, 0.25, 0, 1])
    np.testing.assert_allclose(sg.hinge_loss(m), [3, 1.5, 1, 0.5, 0, 0])
    np.testing.assert_allclose(sg.cross_entropy_loss(m), np.log2(1 + np.exp(-m)))
    grid = np.linspace(-3, 3, 601)
    # hinge and cross-entropy are upper bounds on the 0/1 loss
    assert np.all(sg.hinge_loss(grid) >= sg.zero_one_loss(grid))
    assert np.all(sg.cross_entropy_loss(grid) >= sg.zero_one_loss(grid))


def test_kernel_density_classifier_against_a_loop():
    X, r = data.overlapping(30, seed=1)
    Q = np.random.default_rng(1).normal(size=(7, 2))
    model = sg.KernelDensityClassifier(sigma=0.8).fit(X, r)
    loop = [sum(r[t] * np.exp(-np.sum((X[t] - q) ** 2) / 0.8**2) for t in range(30)) for q in Q]
    np.testing.assert_allclose(model.decision_function(Q), loop)
    np.testing.assert_array_equal(model.predict(Q), np.where(np.array(loop) >= 0, 1.0, -1.0))


@pytest.mark.parametrize("kernel", ["linear", "polynomial", "sigmoid"])
def test_other_kernels_run(kernel):
    X, r = data.linearly_separable(20, seed=0)
    model = sg.KernelHingeGD(kernel=kernel, lam=0.1, eta=0.01, n_epochs=50).fit(X, r)
    assert model.decision_function(X).shape == (20,)


def test_input_errors():
    X, r = data.overlapping(10, seed=0)
    with pytest.raises(ValueError, match="lam"):
        sg.KernelHingeGD(lam=-1.0).fit(X, r)
    with pytest.raises(ValueError, match="eta"):
        sg.KernelHingeGD(eta=0.0).fit(X, r)
    with pytest.raises(ValueError, match="tol"):
        sg.KernelHingeGD(tol=0.0).fit(X, r)
    with pytest.raises(ValueError, match="sigma"):
        sg.KernelHingeGD(sigma=0.0).fit(X, r)
    with pytest.raises(ValueError, match="kernel"):
        sg.KernelHingeGD(kernel="rbf").fit(X, r)
    with pytest.raises(ValueError, match="only -1 and \\+1"):
        sg.KernelHingeGD().fit(X, (r + 1) / 2)
    with pytest.raises(RuntimeError, match="not fitted"):
        sg.KernelHingeGD().predict(X)
    with pytest.raises(ValueError, match="features"):
        sg.KernelDensityClassifier().fit(X, r).predict(np.zeros((2, 3)))
