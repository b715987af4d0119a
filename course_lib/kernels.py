"""Kernel functions K(x, y) = phi(x)^T phi(y), the Gram matrix and distances in feature space.

The slides' kernels (section 6.6), each computed for all pairs of rows of X (n, D) and Y (m, D)
and returned as an (n, m) matrix:

- linear (dot product)   K(x, y) = x^T y
- polynomial of order q  K(x, y) = (x^T y + 1)^q
- Gaussian of width sigma K(x, y) = exp(-||x - y||^2 / sigma^2)   (no factor 2; scikit-learn's
  `rbf` kernel with gamma = 1 / sigma^2)
- sigmoid                K(x, y) = tanh(2 x^T y + 1)   (not positive semi-definite in general)
"""

import numpy as np

from course_lib._validation import check_int, check_matrix, check_positive, finite_arguments
from course_lib.i18n import _

KERNELS = ("linear", "polynomial", "gaussian", "sigmoid")


def _check_pair(X, Y):
    X = check_matrix(X, "X")
    Y = check_matrix(Y, "Y")
    if X.shape[1] != Y.shape[1]:
        raise ValueError(
            _("X has {n_X} features but Y has {n_Y}: a kernel compares points of the "
              "same dimension D.").format(n_X=X.shape[1], n_Y=Y.shape[1])
        )
    return X, Y


def linear(X, Y):
    """K(x, y) = x^T y for every row x of X and y of Y."""
    X, Y = _check_pair(X, Y)
    return _linear(X, Y)


def _linear(X, Y):
    return X @ Y.T


def polynomial(X, Y, degree=2):
    """K(x, y) = (x^T y + 1)^q with q = degree (an integer >= 1)."""
    X, Y = _check_pair(X, Y)
    degree = check_int(degree, "degree", minimum=1)
    with np.errstate(over="ignore", invalid="ignore"):
        K = _polynomial(X, Y, degree)
    if not np.all(np.isfinite(K)):
        raise ValueError(
            _("the polynomial kernel (x.y + 1)^q overflows for degree={degree} on this data "
              "(values beyond 1e308): lower the degree, or rescale X so that |x.y| stays below 1.").format(
                degree=degree)
        )
    return K


def _polynomial(X, Y, degree):
    return _integer_power(X @ Y.T + 1.0, degree)


def _integer_power(B, q):
    """B**q elementwise by repeated squaring (a few products instead of q-fold pow calls);
    B itself may be overwritten (the callers pass a temporary)."""
    result, base = None, B
    while q:
        if q & 1:
            if result is None:  # base * base below is a new array: no copy needed
                result = base
            else:
                np.multiply(result, base, out=result)
        q >>= 1
        if q:
            base = base * base
    return result


def squared_distances(X, Y):
    """||x - y||^2 for all pairs: summed feature by feature for a few features (exact, d(x, x) = 0),
    else as x^T x + y^T y - 2 x^T y clipped at 0 against rounding."""
    X, Y = _check_pair(X, Y)
    return _squared_distances(X, Y)


def _squared_distances(X, Y):
    if X.shape[1] <= 4:
        d2 = np.zeros((X.shape[0], Y.shape[0]))
        difference = np.empty_like(d2)
        for k in range(X.shape[1]):
            np.subtract.outer(X[:, k], Y[:, k], out=difference)
            difference *= difference
            d2 += difference
        return d2
    d2 = np.sum(X**2, axis=1)[:, None] + np.sum(Y**2, axis=1)[None, :] - 2.0 * (X @ Y.T)
    return np.maximum(d2, 0.0)


def gaussian(X, Y, sigma=1.0):
    """K(x, y) = exp(-||x - y||^2 / sigma^2) (scikit-learn: rbf with gamma = 1 / sigma^2)."""
    sigma = check_positive(sigma, "sigma")
    return _gaussian(squared_distances(X, Y), sigma)


def _gaussian(K, sigma):
    """exp(-K / sigma^2) in place, K holding the squared distances."""
    if 1e-150 < sigma < 1e150:
        K *= -1.0 / sigma**2
    else:  # sigma^2 would underflow to 0 or overflow: divide the distance, then square
        np.sqrt(K, out=K)
        K /= sigma
        with np.errstate(over="ignore"):
            K **= 2
        K *= -1.0
    return np.exp(K, out=K)


def sigmoid(X, Y):
    """K(x, y) = tanh(2 x^T y + 1), the slides' constants (scikit-learn: gamma=2, coef0=1)."""
    X, Y = _check_pair(X, Y)
    return _sigmoid(X, Y)


def _sigmoid(X, Y):
    return np.tanh(2.0 * (X @ Y.T) + 1.0)


_FUNCTIONS = {"linear": linear, "polynomial": polynomial, "gaussian": gaussian, "sigmoid": sigmoid}
_PARAMETERS = {"linear": (), "polynomial": ("degree",), "gaussian": ("sigma",), "sigmoid": ()}


def check_kernel(kernel, params=None):
    """Return the kernel name after checking it is known and that `params` are its parameters."""
    if not isinstance(kernel, str) or kernel not in _FUNCTIONS:
        raise ValueError(_("kernel must be one of {kernels}; got {kernel!r}.").format(
                             kernels=', '.join(map(repr, KERNELS)), kernel=kernel))
    unknown = sorted(set(params or ()) - set(_PARAMETERS[kernel]))
    if unknown:
        takes = ", ".join(_PARAMETERS[kernel]) or _("no parameter")
        raise TypeError(_("the {kernel} kernel takes {takes}; got {unknown}.").format(
                            kernel=kernel, takes=takes, unknown=', '.join(unknown)))
    return kernel


@finite_arguments
def kernel_params(kernel, sigma=1.0, degree=2):
    """The keyword arguments the kernel functions expect for `kernel`: {"sigma": ...} for the
    Gaussian, {"degree": ...} for the polynomial, none for the others; both checked whatever
    the kernel (sigma=-1 is refused even by the linear kernel, which does not use it)."""
    check_kernel(kernel)
    sigma, degree = check_positive(sigma, "sigma"), check_int(degree, "degree", minimum=1)
    if kernel == "gaussian":
        return {"sigma": sigma}
    if kernel == "polynomial":
        return {"degree": degree}
    return {}


def kernel_matrix(X, Y, kernel="linear", **params):
    """The (n, m) matrix of K(x^t, y^s) for the kernel named `kernel` (see KERNELS)."""
    kernel = check_kernel(kernel, params)
    return _FUNCTIONS[kernel](X, Y, **params)


def grid_axes(X):
    """(xs, ys) when the rows of X (N, 2) are the grid np.meshgrid(xs, ys) raveled, x fastest (the
    points of a figure's regions); None otherwise."""
    X = check_matrix(X, "X")
    if X.ndim != 2 or X.shape[1] != 2 or X.shape[0] < 4:
        return None
    nx = int(np.argmax(X[:, 1] != X[0, 1]))
    if nx < 2 or X.shape[0] % nx:
        return None
    grid = X.reshape(-1, nx, 2)
    xs, ys = grid[0, :, 0], grid[:, 0, 1]
    if len(ys) < 2 or np.any(grid[:, :, 0] != xs) or np.any(grid[:, :, 1] != ys[:, None]):
        return None
    return xs, ys


@finite_arguments
def kernel_sum(X, Y, weights, kernel="linear", **params):
    """sum_s weights^s K(x, y^s) for every row x of X: kernel_matrix(X, Y) @ weights. For the
    Gaussian kernel on a grid of points (grid_axes), the kernel factorises over the two
    coordinates, exp(-||x - y||^2 / sigma^2) = exp(-(x_1 - y_1)^2 / sigma^2) exp(-(x_2 - y_2)^2 / sigma^2),
    so the sum is one matrix product E_2 diag(weights) E_1^T of the (len(ys), m) and (len(xs), m)
    factors: O((len(xs) + len(ys)) m) exponentials instead of O(len(xs) len(ys) m)."""
    kernel = check_kernel(kernel, params)
    X, Y = _check_pair(X, Y)
    weights = np.asarray(weights, dtype=float)
    if weights.shape != (Y.shape[0],):
        raise ValueError(_("weights must hold one value per row of Y: shape ({n},), got "
                           "{shape}.").format(n=Y.shape[0], shape=weights.shape))
    sigma = check_positive(params.get("sigma", 1.0), "sigma") if kernel == "gaussian" else None
    axes = grid_axes(X) if kernel == "gaussian" and 1e-150 < sigma < 1e150 else None
    if axes is None:  # (sigma^2 must not underflow nor overflow)
        return kernel_matrix(X, Y, kernel, **params) @ weights
    (xs, ys), scale = axes, -1.0 / sigma**2
    along_x = np.exp(scale * np.subtract.outer(xs, Y[:, 0]) ** 2)
    along_y = np.exp(scale * np.subtract.outer(ys, Y[:, 1]) ** 2)
    return ((along_y * weights) @ along_x.T).ravel()


def _unchecked_kernel_matrix(X, Y, kernel, params):
    """kernel_matrix for X, Y and params already checked (the rows course_lib.kernel_cache
    computes at every SMO step, where the checks would cost more than the product). The
    polynomial kernel is not checked for overflow here: |K(x, y)| <= sqrt(K(x, x) K(y, y)), so
    a finite kernel_diagonal bounds every entry."""
    if kernel == "linear":
        return _linear(X, Y)
    if kernel == "polynomial":
        return _polynomial(X, Y, params["degree"])
    if kernel == "gaussian":
        return _gaussian(_squared_distances(X, Y), params["sigma"])
    return _sigmoid(X, Y)


def gram(X, kernel="linear", **params):
    """The Gram matrix G(X)_ts = K(x^t, x^s): N x N, symmetric (and PSD for a Mercer kernel)."""
    X = check_matrix(X, "X")
    return kernel_matrix(X, X, kernel, **params)  # X @ X.T is computed exactly symmetric


def kernel_diagonal(X, kernel="linear", **params):
    """K(x^t, x^t) for every row of X, without forming the whole Gram matrix."""
    kernel = check_kernel(kernel, params)
    X = check_matrix(X, "X")
    if kernel == "gaussian":
        check_positive(params.get("sigma", 1.0), "sigma")
        return np.ones(X.shape[0])
    norms = np.sum(X**2, axis=1)
    if kernel == "linear":
        return norms
    if kernel == "polynomial":
        return (norms + 1.0) ** check_int(params.get("degree", 2), "degree", minimum=1)
    return np.tanh(2.0 * norms + 1.0)


def feature_space_distance(X, Y, kernel="linear", **params):
    """d(x, y) = sqrt(K(x, x) + K(y, y) - 2 K(x, y)): Euclidean distance between phi(x) and phi(y).

    Tiny negative d^2 from rounding are clipped to 0. A clearly negative d^2 means the kernel is
    not positive semi-definite on these points (the sigmoid kernel can do that): no distance exists.
    """
    X, Y = _check_pair(X, Y)
    K_xy = kernel_matrix(X, Y, kernel, **params)
    K_xx = kernel_diagonal(X, kernel, **params)
    K_yy = kernel_diagonal(Y, kernel, **params)
    d2 = K_xx[:, None] + K_yy[None, :] - 2.0 * K_xy
    scale = np.abs(K_xx)[:, None] + np.abs(K_yy)[None, :] + 2.0 * np.abs(K_xy)
    if np.any(d2 < -1e-10 * (1.0 + scale)):
        raise ValueError(
            _("K(x,x) + K(y,y) - 2 K(x,y) < 0 for some pairs: the {kernel} kernel is not positive "
              "semi-definite on these points, so it defines no distance. Use a PSD kernel.").format(
                kernel=kernel)
        )
    return np.sqrt(np.maximum(d2, 0.0))


def polynomial_map_degree2(X):
    """phi(x) = (1, sqrt2 x1, sqrt2 x2, sqrt2 x1 x2, x1^2, x2^2) for D = 2, so that
    phi(x)^T phi(y) = (x^T y + 1)^2 (the slides' example of the polynomial kernel)."""
    X = check_matrix(X, "X")
    if X.shape[1] != 2:
        raise ValueError(_("X must have D = 2 features for this map; got {n_columns}.").format(
                             n_columns=X.shape[1]))
    x1, x2 = X[:, 0], X[:, 1]
    s = np.sqrt(2.0)
    return np.column_stack([np.ones_like(x1), s * x1, s * x2, s * x1 * x2, x1**2, x2**2])

