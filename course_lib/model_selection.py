"""Choosing C and sigma of a Gaussian-kernel SVM by grid search (slides 6.7).

Rules of thumb of the slides:
- C in {10^-5, 10^-4, ..., 10^5};
- sigma in {sigma_min, 2 sigma_min, 4 sigma_min, ..., 64 sigma_min}, where
  sigma_min = min_{x^i != x^j} ||x^i - x^j|| (the smallest non-zero distance between two points);
- split X into X_T and X_V (50%-50%), train X_T coarsely ("entraîner sommairement") for every
  pair, keep the pair with the smallest error on X_V, then train fully on all of X with it.
"""

from dataclasses import dataclass

import numpy as np

from course_lib._validation import (
    check_binary_targets,
    check_matrix,
    check_random_state,
    finite_arguments,
)
from course_lib.i18n import _
from course_lib.svm import SVM

C_GRID = 10.0 ** np.arange(-5, 6)  # 10^-5 ... 10^5
SIGMA_FACTORS = 2.0 ** np.arange(7)  # 1, 2, 4, ..., 64
SEARCH_TOL = 1e-2  # KKT tolerance of the coarse fits of the search (full training: SVM's 1e-3)


def sigma_min(X):
    """The smallest non-zero Euclidean distance between two rows of X."""
    X = check_matrix(X, "X")
    sq = np.sum(X**2, axis=1)
    # identical rows get the same group id: their distance is exactly 0 whatever the rounding
    group = np.unique(X, axis=0, return_inverse=True)[1]
    group = group.reshape(-1)
    smallest = np.inf
    rows = max(1, 4_000_000 // X.shape[0])  # a block of rows at a time: bounded memory
    for start in range(0, X.shape[0], rows):
        stop = start + rows
        d2 = sq[start:stop, None] + sq[None, :] - 2.0 * X[start:stop] @ X.T
        same = group[start:stop, None] == group[None, :]
        positive = d2[~same & (d2 > 0)]
        if positive.size:
            smallest = min(smallest, float(positive.min()))
    if np.isinf(smallest):
        raise ValueError(_("X needs at least two distinct points to define sigma_min."))
    return float(np.sqrt(smallest))


def sigma_grid(X):
    """sigma_min * (1, 2, 4, ..., 64)."""
    return sigma_min(X) * SIGMA_FACTORS


@finite_arguments
def train_validation_split(X, r, fraction=0.5, seed=0):
    """Seeded split into X_T (a `fraction` of each class) and X_V (the rest).

    Returns (train_index, validation_index). Splitting each class separately keeps both
    classes on both sides, so every training set is a valid SVM problem.
    """
    X = check_matrix(X, "X")
    r = check_binary_targets(r, X.shape[0])
    if not 0 < fraction < 1:
        raise ValueError(_("fraction must be strictly between 0 and 1; got {fraction!r}.").format(
                             fraction=fraction))
    rng = check_random_state(seed)
    train = []
    for label in (-1.0, 1.0):
        members = rng.permutation(np.flatnonzero(r == label))
        if members.size < 2:
            raise ValueError(
                _("class {label:+.0f} has {count} point: it needs 2 to be split.").format(
                    label=label, count=members.size)
            )
        n_train = min(max(1, int(round(fraction * members.size))), members.size - 1)
        train.extend(members[:n_train])
    train = np.sort(np.array(train))
    validation = np.setdiff1d(np.arange(X.shape[0]), train)
    return train, validation


@finite_arguments
def gaussian_svm(C: float, sigma: float):
    """The final model of the grid: the from-scratch Gaussian-kernel SVM, fully trained (its
    default KKT tolerance 1e-3)."""
    return SVM(C=C, kernel="gaussian", sigma=sigma)


@finite_arguments
def coarse_gaussian_svm(C: float, sigma: float):
    """The model of the search: the same SVM trained coarsely (KKT tolerance SEARCH_TOL)."""
    return SVM(C=C, kernel="gaussian", sigma=sigma, tol=SEARCH_TOL)


@dataclass
class GridSearchResult:
    C_values: np.ndarray  # the columns of `errors`
    sigma_values: np.ndarray  # the rows of `errors`
    errors: np.ndarray  # validation error rate, shape (len(sigma_values), len(C_values))
    best_C: float
    best_sigma: float
    model: object  # refitted on all of X with (best_C, best_sigma)
    train_index: np.ndarray
    validation_index: np.ndarray


@finite_arguments
def grid_search(
    X, r, C_values=None, sigma_values=None, seed=0, make_model=None, make_final=None
):
    """The slides' grid search: errors on X_V for every (sigma, C), refit on X with the best pair.

    Ties go to the first minimum in reading order of `errors` (smallest sigma, then smallest C).
    `make_model(C, sigma)` returns an unfitted estimator with fit/predict, trained on X_T for
    each pair (default: `coarse_gaussian_svm`); `make_final(C, sigma)` the one refitted on all of
    X with the best pair (default: `gaussian_svm` when make_model is the default, else make_model).
    """
    if make_model is None:
        make_model, make_final = coarse_gaussian_svm, make_final or gaussian_svm
    make_final = make_final or make_model
    X = check_matrix(X, "X")
    r = check_binary_targets(r, X.shape[0])
    C_values = C_GRID if C_values is None else np.asarray(C_values, dtype=float)
    sigma_values = sigma_grid(X) if sigma_values is None else np.asarray(sigma_values, dtype=float)
    train, validation = train_validation_split(X, r, 0.5, seed)
    errors = np.empty((sigma_values.size, C_values.size))
    for i, sigma in enumerate(sigma_values):
        for j, C in enumerate(C_values):
            model = make_model(float(C), float(sigma)).fit(X[train], r[train])
            errors[i, j] = np.mean(model.predict(X[validation]) != r[validation])
    i, j = np.unravel_index(np.argmin(errors), errors.shape)
    best_C, best_sigma = float(C_values[j]), float(sigma_values[i])
    model = make_final(best_C, best_sigma).fit(X, r)
    return GridSearchResult(
        C_values, sigma_values, errors, best_C, best_sigma, model, train, validation
    )
