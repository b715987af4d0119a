"""The geometric margin of a linear discriminant h(x) = w.x + w0 (slides 6.2).

Distance of x^t to the hyperplane: r^t (w.x^t + w0) / ||w||; the margin rho of (w, w0) on a data
set is the smallest of them. (w, w0) and (c w, c w0) with c > 0 are the same hyperplane, so the
slides fix the scale by rho ||w|| = 1, i.e. min_t r^t (w.x^t + w0) = 1; then rho = 1 / ||w||.
"""

import numpy as np

from course_lib._validation import check_binary_targets, check_matrix, finite_arguments
from course_lib.i18n import _


def _check_w(w, X):
    w = np.asarray(w, dtype=float).reshape(-1)
    if w.shape != (X.shape[1],) or not np.all(np.isfinite(w)) or not np.any(w):
        raise ValueError(_("w must be a non-zero finite vector of {n_columns} weights; got {w!r}.").format(
                             n_columns=X.shape[1], w=w))
    return w


@finite_arguments
def geometric_margin(X, r, w, w0: float):
    """rho = min_t r^t (w.x^t + w0) / ||w|| (negative when some point is misclassified)."""
    X = check_matrix(X, "X")
    r = check_binary_targets(r, X.shape[0])
    w = _check_w(w, X)
    return float(np.min(r * (X @ w + w0)) / np.linalg.norm(w))


@finite_arguments
def canonical_form(X, r, w, w0: float):
    """Rescale (w, w0) so that min_t r^t (w.x^t + w0) = 1 (the slides' rho ||w|| = 1)."""
    X = check_matrix(X, "X")
    r = check_binary_targets(r, X.shape[0])
    w = _check_w(w, X)
    smallest = float(np.min(r * (X @ w + w0)))
    if smallest <= 0:
        raise ValueError(
            _("(w, w0) does not separate the data (some r h(x) <= 0): no canonical form.")
        )
    return w / smallest, float(w0) / smallest


@finite_arguments
def same_hyperplane(w_a, w0_a: float, w_b, w0_b: float, tol=1e-12):
    """True when (w_b, w0_b) = c (w_a, w0_a) for some c > 0: same boundary, same sides."""
    a = np.r_[np.asarray(w_a, dtype=float).reshape(-1), w0_a]
    b = np.r_[np.asarray(w_b, dtype=float).reshape(-1), w0_b]
    if a.shape != b.shape:
        raise ValueError(_("w_a and w_b must have the same length (one weight per feature); got "
                           "{n_a} and {n_b}.").format(n_a=a.size - 1, n_b=b.size - 1))
    if not np.any(a) or not np.any(b):
        return False
    c = (a @ b) / (a @ a)
    return bool(c > 0 and np.allclose(c * a, b, atol=tol * max(1.0, np.abs(b).max())))


@finite_arguments
def best_offset(X, r, w):
    """For a fixed direction w, the w0 placing the line halfway between the two classes:
    w0 = -(min_{r=+1} w.x + max_{r=-1} w.x) / 2, which maximises the margin along w."""
    X = check_matrix(X, "X")
    r = check_binary_targets(r, X.shape[0])
    w = _check_w(w, X)
    s = X @ w
    return float(-(s[r > 0].min() + s[r < 0].max()) / 2)
