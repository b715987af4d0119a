"""Constraint vectors kept sparse: the working sets and caches of the cutting-plane learners.

A constraint vector a = dPsi(x_i, y_i, y) = Psi(x_i, y_i) - Psi(x_i, y) is zero wherever the
output y agrees with y_i: for a word, outside the rows of W of the letters read wrong and of
their transitions (about 7% of w on the OCR letters). Each row keeps only its non-zero indices
and values, so that the products the learners need cost that fraction of dense ones:

    A w             every <w, a_k> at once (`dot`), a weighted sum of segments of values * w;
    sum_k c_k a_k   a combination of some rows (`combination`), one scatter-add (bincount).

An all-zero row keeps one explicit zero, so that every row has at least one stored value.
"""

import numpy as np

from course_lib._validation import check_int


class SparseRows:
    """A list of vectors of R^d, each stored as (indices, values), with A w and sum c_k a_k."""

    def __init__(self, d):
        self.d = check_int(d, "d", 1)  # the dimension of R^d
        self.indices, self.values = [], []
        self.sizes = []  # the number of stored values of each row
        self._packed = None  # (all indices, all values, start of each row), rebuilt on change

    def __len__(self):
        return len(self.indices)

    def append(self, a):
        """Add the dense vector a (length d) as the last row; returns its index."""
        self.indices.append(None)
        self.values.append(None)
        self.sizes.append(0)
        self.replace(len(self) - 1, a)
        return len(self) - 1

    def replace(self, k, a):
        """Row k becomes the dense vector a."""
        a = np.asarray(a, dtype=float)
        indices = (a != 0).nonzero()[0]
        if indices.size == 0:
            indices = np.zeros(1, dtype=np.intp)
        self.indices[k], self.values[k], self.sizes[k] = indices, a[indices], indices.size
        self._packed = None

    def keep(self, rows):
        """Keep only the given rows, in that order (the others are forgotten)."""
        self.indices = [self.indices[k] for k in rows]
        self.values = [self.values[k] for k in rows]
        self.sizes = [self.sizes[k] for k in rows]
        self._packed = None

    def _pack(self):
        if self._packed is None:
            self._packed = (np.concatenate(self.indices), np.concatenate(self.values),
                            np.r_[0, np.cumsum(self.sizes)[:-1]])
        return self._packed

    def dot(self, w):
        """A w: the vector of <w, a_k> over all rows k."""
        if not self.indices:
            return np.zeros(0)
        indices, values, starts = self._pack()
        return np.add.reduceat(values * w[indices], starts)

    def combination(self, coefficients, rows=None):
        """sum_k c_k a_k over `rows` (default: all rows, c of length len(self)), skipping c_k = 0."""
        rows = np.arange(len(self)) if rows is None else np.asarray(rows, dtype=np.intp)
        coefficients = np.asarray(coefficients, dtype=float)
        used = np.flatnonzero(coefficients)
        if used.size == 0:
            return np.zeros(self.d)
        chosen = rows[used]
        indices = np.concatenate([self.indices[k] for k in chosen])
        values = np.concatenate([self.values[k] for k in chosen])
        lengths = np.asarray(self.sizes, dtype=np.intp)[chosen]
        return np.bincount(indices, weights=values * np.repeat(coefficients[used], lengths), minlength=self.d)

    def dense(self):
        """The rows as a dense (len(self), d) matrix."""
        A = np.zeros((len(self), self.d))
        if self.indices:
            indices, values, starts = self._pack()
            lengths = np.diff(np.r_[starts, len(indices)])
            A[np.repeat(np.arange(len(self)), lengths), indices] = values
        return A
