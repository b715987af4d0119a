import numpy as np
import pytest

from course_lib import data, margins
from course_lib.svm import SVM


def test_the_slides_three_scalings_are_one_hyperplane():
    forms = [((2, 0.5), 1), ((1, 0.25), 0.5), ((20, 5), 10)]
    for w, w0 in forms[1:]:
        assert margins.same_hyperplane(*forms[0], w, w0)
    assert not margins.same_hyperplane((2, 0.5), 1, (-2, -0.5), -1)  # same line, sides swapped
    assert not margins.same_hyperplane((2, 0.5), 1, (2, 0.5), 2)


def test_margin_is_scale_invariant_and_canonical_form_has_min_one():
    X, r = data.linearly_separable(20, seed=0)
    w, w0 = np.array([1.0, 1.0]), 0.0
    rho = margins.geometric_margin(X, r, w, w0)
    assert margins.geometric_margin(X, r, 7 * w, 7 * w0) == pytest.approx(rho)
    wc, w0c = margins.canonical_form(X, r, w, w0)
    assert np.min(r * (X @ wc + w0c)) == pytest.approx(1.0)
    assert 1 / np.linalg.norm(wc) == pytest.approx(rho)  # rho ||w|| = 1


def test_geometric_margin_against_a_loop():
    X, r = data.overlapping(15, seed=1)
    w, w0 = np.array([0.3, -1.2]), 0.4
    loop = min(r[t] * (w @ X[t] + w0) / np.sqrt(w @ w) for t in range(15))
    assert margins.geometric_margin(X, r, w, w0) == pytest.approx(loop)


def test_best_offset_against_a_scan_and_max_margin_against_the_svm():
    X, r = data.linearly_separable(20, seed=4)
    w = np.array([1.0, 0.2])
    offsets = np.linspace(-5, 5, 200_001)
    scan = offsets[np.argmax(np.min(r[:, None] * ((X @ w)[:, None] + offsets[None, :]), axis=0))]
    assert margins.best_offset(X, r, w) == pytest.approx(scan, abs=1e-4)
    # brute force over directions: the largest margin equals 1 / ||w|| of the hard-margin SVM
    angles = np.linspace(0, 2 * np.pi, 20_001)
    S = X @ np.c_[np.cos(angles), np.sin(angles)].T  # projections on each unit direction
    best = np.max((S[r > 0].min(axis=0) - S[r < 0].max(axis=0)) / 2)
    u = np.array([np.cos(angles[7]), np.sin(angles[7])])
    assert margins.geometric_margin(X, r, u, margins.best_offset(X, r, u)) == pytest.approx(
        (S[r > 0, 7].min() - S[r < 0, 7].max()) / 2
    )
    svm = SVM(C=np.inf, kernel="linear", tol=1e-6).fit(X, r)
    assert 1 / np.linalg.norm(svm.w_) == pytest.approx(best, rel=1e-3)


def test_errors():
    X, r = data.overlapping(10, seed=0)
    with pytest.raises(ValueError, match="non-zero"):
        margins.geometric_margin(X, r, [0, 0], 1)
    with pytest.raises(ValueError, match="does not separate"):
        margins.canonical_form(X, r, [1, 1], 0)
