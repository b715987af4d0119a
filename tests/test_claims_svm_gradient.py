"""The effect claims of chapter 06 (K18, K19), re-checked over several seeds of the data.

Each test names the claim cell of notebooks/06_svm_by_gradient_descent.ipynb it backs.
"""

import numpy as np
import pytest
from scipy.optimize import minimize

from course_lib import data, kernels
from course_lib import svm_gradient as sg
from course_lib.model_selection import grid_search

SEEDS = range(10)


def minimum_of_e_hinge(G, r, lam):
    """min E_hinge over alpha >= 0, w0, written as the QP
    min lam/2 ||alpha||^2 + sum xi  s.t.  xi^t >= 1 - r^t h(x^t), xi >= 0, alpha >= 0,
    solved by scipy's SLSQP: a reference independent of the gradient descent. Returns E_hinge at
    the point it found (feasible after clipping alpha at 0: an upper bound on the minimum)."""
    N = len(r)
    A = np.c_[r[:, None] * G * r[None, :], r, np.eye(N)]  # A v >= 1, v = (alpha, w0, xi)
    result = minimize(
        lambda v: 0.5 * lam * v[:N] @ v[:N] + v[N + 1:].sum(),
        np.r_[np.zeros(N), 0.0, np.ones(N)],
        jac=lambda v: np.r_[lam * v[:N], 0.0, np.ones(N)],
        method="SLSQP",
        constraints=[{"type": "ineq", "fun": lambda v: A @ v - 1, "jac": lambda v: A}],
        bounds=[(0, None)] * N + [(None, None)] + [(0, None)] * N,
        options={"maxiter": 2000, "ftol": 1e-10},
    )
    return sg.hinge_error(np.maximum(result.x[:N], 0), result.x[N], G, r, lam)


@pytest.mark.parametrize("seed", SEEDS)
def test_constant_step_with_eta_lambda_two_flips_and_the_shrinking_step_converges(seed):
    # claim cell "step-flip"
    X, r = data.overlapping(40, seed=seed)
    G = kernels.gram(X, "gaussian", sigma=1.0)
    lam, eta = 100.0, 0.02
    alpha, w0, largest = np.zeros(40), 0.0, []
    for _ in range(1000):
        grad_alpha, grad_w0 = sg.hinge_gradient(alpha, w0, G, r, lam)
        alpha = np.maximum(alpha - eta * grad_alpha, 0.0)
        w0 -= eta * grad_w0
        largest.append(alpha.max())
    assert min(largest[-6::2]) > 10 * max(largest[-5::2])
    stable = sg.KernelHingeGD(sigma=1.0, lam=lam).fit(X, r)
    assert stable.converged_
    assert sg.hinge_error(alpha, w0, G, r, lam) > stable.error_history_[-1] + 1
    assert np.sum(stable.alpha_ > 0) > 20  # lambda = 100 does not zero the alphas


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("lam", [1.0, 10.0])
def test_the_duality_gap_bounds_the_distance_to_the_minimum(seed, lam):
    # claim cell "84426027": converged, within 1% of the minimum
    X, r = data.overlapping(40, seed=seed)
    G = kernels.gram(X, "gaussian", sigma=1.0)
    model = sg.KernelHingeGD(sigma=1.0, lam=lam).fit(X, r)
    best = minimum_of_e_hinge(G, r, lam)
    E = model.error_history_[-1]
    assert model.dual_objective_ <= best + 1e-6  # weak duality: D(mu) <= min E <= E(reference)
    assert abs(E - best) < 0.01 * E  # the descent and the reference solver agree to 1%
    assert model.converged_ and model.duality_gap_ < 0.01 * E


@pytest.mark.parametrize("seed", SEEDS)
def test_without_lambda_the_alphas_grow_far_and_stop_only_once_memorised(seed):
    # claim cell "5060dbc3": the growth, on every draw; the stop, where the descent memorises the set in the budget
    X, r = data.overlapping(40, seed=seed)
    G = kernels.gram(X, "gaussian", sigma=1.0)
    regularised = sg.KernelHingeGD(sigma=1.0, lam=1.0).fit(X, r).alpha_.max()
    stops = {}
    for eta in (0.5, 1.0):
        alpha, w0 = np.zeros(40), 0.0
        for _ in range(20_000):
            grad_alpha, grad_w0 = sg.hinge_gradient(alpha, w0, G, r, 0.0)
            if not np.any(grad_alpha) and grad_w0 == 0:
                assert sg.hinge_error(alpha, w0, G, r, 0.0) == 0
                assert np.all(np.sign(G @ (alpha * r) + w0) == r)  # memorised
                stops[eta] = alpha.max()
                break
            alpha, w0 = np.maximum(alpha - eta * grad_alpha, 0.0), w0 - eta * grad_w0
        assert alpha.max() > 5 * regularised, f"seed {seed}, eta {eta}: largest alpha {alpha.max()}"
    if len(stops) == 2:  # where it stops depends on eta
        assert stops[0.5] != pytest.approx(stops[1.0], rel=0.05)


@pytest.mark.parametrize("seed", SEEDS)
def test_lambda_sweep_alphas_shrink_and_large_lambda_stops_changing(seed):
    # claim cells "f0d807bf" and "note-check"
    X, r = data.overlapping(40, seed=seed)
    G = kernels.gram(X, "gaussian", sigma=1.0)
    Q = np.random.default_rng(seed).normal(0, 1.5, size=(500, 2))
    fits = {lam: sg.KernelHingeGD(sigma=1.0, lam=lam, n_epochs=3000).fit(X, r)
            for lam in (0.1, 1.0, 10.0, 100.0, 1000.0)}
    peaks = [fit.alpha_.max() for fit in fits.values()]
    assert all(a > b for a, b in zip(peaks, peaks[1:]))
    big, bigger = fits[100.0], fits[1000.0]
    assert np.array_equal(big.predict(Q), bigger.predict(Q))
    np.testing.assert_allclose(100 * big.alpha_, 1000 * bigger.alpha_, atol=1e-9)
    assert np.sum(big.alpha_ > 0) > 20
    # training error falls as lambda falls (the classifier fits the overlap)
    assert np.mean(fits[0.1].predict(X) != r) <= np.mean(big.predict(X) != r)
    # the alphas are those of the multipliers, not sparse
    one = fits[1.0]
    assert one.converged_
    assert np.sum(one.alpha_ > 1e-3) > 0.8 * 40
    gap = np.max(np.abs(one.alpha_ - sg.alpha_of_multipliers(one.multipliers_, G, r, 1.0)))
    assert gap < 0.1 * one.alpha_.max()


@pytest.mark.parametrize("seed", SEEDS)
def test_lambda_and_sigma_tuned_on_validation_come_close_to_the_best_rule(seed):
    # claim cell "grid-lam"
    X, r = data.noisy_xor(n=200, seed=seed, noise=0.7)
    Xt, rt = data.noisy_xor(n=2000, seed=100 + seed, noise=0.7)
    search = grid_search(
        X, r, C_values=10.0 ** np.arange(-3, 3), seed=0,
        make_model=lambda lam, sigma: sg.KernelHingeGD(sigma=sigma, lam=lam, n_epochs=500),
    )
    final = sg.KernelHingeGD(sigma=search.best_sigma, lam=search.best_C, n_epochs=3000).fit(X, r)
    best_rule = np.mean(np.where(-Xt[:, 0] * Xt[:, 1] >= 0, 1.0, -1.0) != rt)
    assert final.converged_
    assert np.mean(final.predict(Xt) != rt) < best_rule + 0.04
    assert search.errors.max() > 0.3


def test_loss_claims_of_chapter_06():
    # the loss properties shown in chapter 06 (cell "k18claim"; no randomness: one grid)
    m = np.linspace(-3, 3, 6001)
    assert np.all(sg.hinge_loss(m) >= sg.zero_one_loss(m))
    assert np.all(sg.cross_entropy_loss(m) >= sg.zero_one_loss(m))
    assert sg.hinge_loss(m[m > 1]).max() == 0 and sg.quadratic_loss(m[m > 1]).min() > 0


@pytest.mark.parametrize("seed", SEEDS)
def test_the_descent_agrees_with_the_qp_svm_and_keeps_more_alphas(seed):
    # claim cells "84426027" (ranks and predictions on new data) and "note-check" (not sparse, unlike the dual)
    from scipy.stats import spearmanr

    from course_lib.svm import SVM

    X, r = data.overlapping(n=40, seed=seed)
    G = kernels.gram(X, "gaussian", sigma=1.0)
    X_new, _ = data.overlapping(n=1000, seed=99 + seed)
    gd = sg.KernelHingeGD(sigma=1.0, lam=1.0).fit(X, r)
    qp = SVM(C=1.0, kernel="gaussian", sigma=1.0).fit(X, r)
    rho = spearmanr(gd.decision_function(X_new), qp.decision_function(X_new)).statistic
    assert rho > 0.95 and np.mean(gd.predict(X_new) == qp.predict(X_new)) > 0.9, f"seed {seed}: rho {rho:.3f}"
    fit = sg.KernelHingeGD(sigma=1.0, lam=1.0, n_epochs=3000).fit(X, r)
    kept = np.sum(fit.alpha_ > 1e-3)
    assert kept > 0.8 * len(X) and kept > len(qp.support_), f"seed {seed}: {kept} alphas, {len(qp.support_)} SVs"
    formula = sg.alpha_of_multipliers(fit.multipliers_, G, r, 1.0)
    assert np.max(np.abs(fit.alpha_ - formula)) < 0.1 * fit.alpha_.max()
