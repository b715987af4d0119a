"""Rows of the Gram matrix on demand, kept in a bounded least-recently-used cache (as libsvm does).

SMO reads two rows K(x^i, .) and K(x^j, .) per step. For N points the whole Gram matrix costs
8 N^2 bytes (800 MB at N = 10,000); most steps reuse the rows of a few hundred support vectors,
so computing rows when first asked and keeping the most recently used ones within `cache_mb`
megabytes gives the same solution in bounded memory. `KernelRows` answers the few operations
course_lib.smo asks of a Gram matrix: K[i] (a row), K[np.ix_(a, b)] (a block), K @ v, and
np.diag(K) through `diagonal()`. When SMO has asked for the rows of many points and the whole
matrix fits in `cache_mb` (with SMO's inverse distances, as many floats again), `whole()` computes
it once: the rows still to come would cost more, one at a time, than all of them at once.
"""

from collections import OrderedDict

import numpy as np

from course_lib import kernels
from course_lib._validation import check_matrix, check_positive
from course_lib.i18n import _


class KernelRows:
    """The Gram matrix of X for `kernel` (with its params), computed a row at a time."""

    def __init__(self, X, kernel, params, cache_mb=200.0):
        X = check_matrix(X, "X")
        if params is not None and not isinstance(params, dict):
            raise TypeError(_("params must be a dict of the kernel's parameters (as "
                              "kernels.kernel_params gives it) or None; got {params!r}.").format(params=params))
        kernel = kernels.check_kernel(kernel, params)
        params = kernels.kernel_params(kernel, **(params or {}))  # the defaults for those not given
        cache_mb = check_positive(cache_mb, "cache_mb")
        self.X, self.kernel, self.params, self.cache_mb = X, kernel, params, cache_mb
        # the linear and polynomial rows are x^i^T X^T: one product with X^T stored contiguous
        # (several times faster than X x^i on short rows, where BLAS strides through X)
        self._XT = np.ascontiguousarray(X.T) if kernel in ("linear", "polynomial") else None
        n = X.shape[0]
        self.shape = (n, n)
        self.capacity = max(2, int(cache_mb * 1e6 // (8 * n)))  # rows that fit in cache_mb
        self._rows = OrderedDict()
        self._whole = None
        with np.errstate(over="ignore"):  # an overflow is reported just below
            self._diagonal = kernels.kernel_diagonal(X, kernel, **params)
        if not np.all(np.isfinite(self._diagonal)):  # the largest |K(x, y)| is on the diagonal:
            largest = [int(np.argmax(np.abs(self._diagonal)))]  # its checked value says why
            kernels.kernel_matrix(X[largest], X[largest], kernel, **params)
        self.hits = self.misses = 0

    def diagonal(self):
        """K(x^t, x^t) for every t."""
        return self._diagonal

    def whole_fits(self):
        """Whether the whole matrix and as many floats again fit in cache_mb."""
        return 16 * self.shape[0] ** 2 <= self.cache_mb * 1e6

    def whole(self):
        """The whole Gram matrix, computed at the first call and then kept (read-only); it must
        fit in cache_mb."""
        n = self.shape[0]
        if self._whole is None and 8 * n * n > self.cache_mb * 1e6:
            raise ValueError(_("The whole Gram matrix of {n} points takes {size:.4g} MB, more than "
                               "cache_mb={cache_mb:g}: raise cache_mb, or read the matrix by rows "
                               "(row(i)).").format(n=n, size=8 * n * n / 1e6, cache_mb=self.cache_mb))
        if self._whole is None:
            self._whole = self._block(slice(None), slice(None))
            self._whole.flags.writeable = False
        return self._whole

    def _block(self, rows, columns):
        A, B = self.X[rows], self.X[columns]
        if A.shape[0] == 0 or B.shape[0] == 0:
            return np.zeros((A.shape[0], B.shape[0]))
        return kernels._unchecked_kernel_matrix(A, B, self.kernel, self.params)

    def row(self, i):
        """K(x^i, x^t) for every t: from the cache, else computed (evicting the oldest row)."""
        if self._whole is not None:
            return self._whole[i]
        row = self._rows.get(i)
        if row is not None:
            self._rows.move_to_end(i)
            self.hits += 1
            return row
        self.misses += 1
        if self._XT is None:
            row = self._block([i], slice(None))[0]
        elif self.kernel == "linear":  # the kernels' own formulas, with Y^T = the stored X^T
            row = kernels._linear(self.X[i], self._XT.T)
        else:
            row = kernels._polynomial(self.X[i], self._XT.T, self.params["degree"])
        row.flags.writeable = False
        self._rows[i] = row
        if len(self._rows) > self.capacity:
            self._rows.popitem(last=False)
        return row

    def __getitem__(self, index):
        if isinstance(index, tuple):  # K[np.ix_(a, b)]: a block, computed directly
            if self._whole is not None:
                return self._whole[index]
            rows, columns = index
            return self._block(np.ravel(rows), np.ravel(columns))
        return self.row(int(index))

    def __matmul__(self, v):
        """K @ v, summed over the non-zero entries of v in blocks of bounded memory."""
        v = np.asarray(v, dtype=float)
        nonzero = np.flatnonzero(v)
        if self.kernel == "linear":  # K v = X (X^T v): w first, O(N D)
            return self.X @ (self.X[nonzero].T @ v[nonzero])
        total = np.zeros(self.shape[0])
        step = max(1, self.capacity)
        for start in range(0, nonzero.size, step):
            block = nonzero[start:start + step]
            total += self._block(slice(None), block) @ v[block]
        return total


def diagonal(K):
    """The diagonal of a Gram matrix given as an array or as KernelRows."""
    return K.diagonal() if isinstance(K, KernelRows) else np.diag(K)
