"""The effect claims of chapters 01-03 (cells tagged `claim`), re-checked over several seeds, so
that no lesson rests on one lucky draw. Each test names the chapter and the claim it re-runs."""

import numpy as np
import pytest

from course_lib import data, margins
from course_lib.linear import LeastSquaresClassifier, Perceptron, version_space_offsets
from course_lib.plotting.linear import FAR_DIRECTION
from course_lib.plotting.margins import suboptimal_direction
from course_lib.svm import SVM

SEEDS = range(8)


def _angle(u, v):
    return float(np.degrees(np.arccos(np.clip(u @ v / np.linalg.norm(u) / np.linalg.norm(v), -1, 1))))


# Chapter 01


@pytest.mark.parametrize("seed", SEEDS)
def test_01_perceptron_never_settles_on_overlapping_data(seed):
    X, r = data.overlapping(n=40, seed=seed)
    long_run = Perceptron(n_epochs=200, seed=seed).fit(X, r)
    assert not long_run.converged_
    assert np.bincount(long_run.update_epoch_, minlength=201)[1:].min() > 0
    six = Perceptron(n_epochs=6, seed=seed).fit(X, r)
    errors = [int(np.sum(r * (X @ w + w0) <= 0)) for w, w0 in map(six.state_after_epoch, range(1, 7))]
    assert any(b > a for a, b in zip(errors, errors[1:])), f"seed {seed}: errors {errors} never go back up"


@pytest.mark.parametrize("seed", SEEDS)
def test_01_far_point_turns_least_squares_more_and_more(seed):
    X, r = data.overlapping(n=40, seed=seed)
    plain = LeastSquaresClassifier().fit(X, r)
    assert plain.decision_function(20.0 * FAR_DIRECTION[None])[0] > 0  # already on its class's side
    turns = [_angle(LeastSquaresClassifier().fit(np.vstack([X, d * FAR_DIRECTION]), np.r_[r, 1.0]).w_, plain.w_)
             for d in (4.0, 8.0, 12.0, 16.0, 20.0)]
    assert np.all(np.diff(turns) > 0) and turns[-1] > 20, f"seed {seed}: turns {turns}"


@pytest.mark.parametrize("seed", SEEDS)
def test_01_halfway_between_S_and_G_generalises_best(seed):
    Xs, rs = data.linearly_separable(n=30, seed=seed)
    w = np.array([1.0, 1.0]) / np.sqrt(2)
    w0_S, w0_G = version_space_offsets(Xs, rs, w)
    Xf, rf = data.linearly_separable(n=2000, seed=100 + seed)
    err = [np.mean(np.where(Xf @ w + w0 >= 0, 1, -1) != rf) for w0 in (w0_S, (w0_S + w0_G) / 2, w0_G)]
    assert err[1] <= min(err[0], err[2]) and err[1] < max(err[0], err[2]), f"seed {seed}: S, half, G {err}"


# Chapter 02


@pytest.mark.parametrize("seed", SEEDS)
def test_02_canonical_form_has_margin_one_over_norm(seed):
    X, r = data.linearly_separable(n=24, seed=seed)
    w = np.array([1.0, 0.6])
    w0 = margins.best_offset(X, r, w)
    wc, w0c = margins.canonical_form(X, r, w, w0)
    assert np.isclose(np.min(r * (X @ wc + w0c)), 1.0)
    assert np.isclose(1 / np.linalg.norm(wc), margins.geometric_margin(X, r, w, w0))


@pytest.mark.parametrize("seed", SEEDS)
def test_02_hard_margin_few_support_vectors_no_gap_and_only_they_matter(seed):
    X, r = data.linearly_separable(n=24, seed=seed)
    svm = SVM(C=np.inf, kernel="linear", tol=1e-6).fit(X, r)
    w = svm.w_
    assert len(svm.support_) < len(X) / 4
    assert np.isclose(svm.dual_objective_, 0.5 * w @ w, rtol=1e-6)
    others = np.setdiff1d(np.arange(len(X)), svm.support_)[:10]
    refit = SVM(C=np.inf, kernel="linear", tol=1e-6).fit(np.delete(X, others, 0), np.delete(r, others))
    assert np.allclose(refit.w_, w, atol=1e-4) and np.isclose(refit.w0_, svm.w0_, atol=1e-4)


@pytest.mark.parametrize("seed", SEEDS)
def test_02_turned_lines_have_a_smaller_margin(seed):
    X, r = data.linearly_separable(n=24, seed=seed)
    svm = SVM(C=np.inf, kernel="linear", tol=1e-6).fit(X, r)
    best = margins.geometric_margin(X, r, svm.w_, svm.w0_)
    for degrees in (-40, -20, -5, 5, 20, 40):
        assert margins.geometric_margin(X, r, *suboptimal_direction(X, r, svm, degrees)) < best


# Chapter 03


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
def test_03_slacks_alpha_at_C_and_no_duality_gap(seed, C):
    X, r = data.overlapping(n=40, seed=seed, spread=0.9)
    svm = SVM(C=C, kernel="linear", tol=1e-6).fit(X, r)
    xi = svm.slacks(X, r)
    assert np.array_equal(xi > 1, svm.predict(X) != r)
    assert np.all(np.isclose(svm.alpha_, C, atol=1e-6)[xi > 1e-6])
    primal = 0.5 * svm.w_ @ svm.w_ + C * xi.sum()
    assert np.isclose(primal, svm.dual_objective_, rtol=1e-4)


@pytest.mark.parametrize("seed", SEEDS)
def test_03_larger_C_narrower_margin_fewer_support_vectors(seed):
    X, r = data.overlapping(n=40, seed=seed, spread=0.9)
    fits = [SVM(C=C, kernel="linear", tol=1e-6).fit(X, r) for C in (0.01, 0.1, 1.0, 10.0, 100.0)]
    rho = [1 / np.linalg.norm(f.w_) for f in fits]
    assert np.all(np.diff(rho) <= 1e-6), f"seed {seed}: margins {rho}"
    assert len(fits[0].support_) > len(fits[-1].support_)
