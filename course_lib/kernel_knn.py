"""k-nearest neighbours with a kernel distance (slides 6.9).

A kernel measures similarity; the Euclidean distance between phi(x) and phi(y) follows from it
without computing phi:  d(x, y)^2 = K(x, x) + K(y, y) - 2 K(x, y).
With the linear kernel this is the ordinary Euclidean distance. Fitting the classifier on the
support vectors of an SVM only uses them as prototypes.
"""

import numpy as np

from course_lib._validation import (
    check_fitted,
    check_int,
    check_labels,
    check_matrix,
    finite_hyperparameters,
)
from course_lib.i18n import _
from course_lib.kernels import feature_space_distance, kernel_params


class KernelKNN:
    """k-NN classifier with d(x, y) = sqrt(K(x,x) + K(y,y) - 2 K(x,y)).

    Any labels are accepted; the majority label of the k nearest training points wins, ties
    going to the smallest label (as in scikit-learn).
    """

    def __init__(self, k=3, kernel="linear", sigma=1.0, degree=2):
        self.k = k
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree

    @finite_hyperparameters
    def fit(self, X, y):
        X = check_matrix(X, "X")
        self.classes_, self._codes = check_labels(y, X.shape[0], "y", min_classes=1)
        k = check_int(self.k, "k", minimum=1)
        if k > X.shape[0]:
            raise ValueError(_("k = {k} neighbours but only {n_rows} sample(s) to learn from: "
                               "lower k.").format(k=k, n_rows=X.shape[0]))
        kernel_params(self.kernel, self.sigma, self.degree)
        self.X_, self.y_ = X, self.classes_[self._codes]
        self.n_features_in_ = X.shape[1]
        return self

    def distances(self, X):
        """Feature-space distances d(x, x^t) from each row of X to each training point."""
        check_fitted(self, "X_")
        X = check_matrix(X, "X", n_features=self.X_.shape[1])
        return feature_space_distance(
            X, self.X_, self.kernel, **kernel_params(self.kernel, self.sigma, self.degree)
        )

    def kneighbors(self, X):
        """(distances, indices) of the k nearest training points, nearest first."""
        d = self.distances(X)
        k = check_int(self.k, "k", minimum=1)
        if k > self.X_.shape[0]:
            raise ValueError(_("k = {k} neighbours but the model was fitted on {n_rows} "
                               "sample(s): lower k, or fit again with more data.").format(
                                 k=k, n_rows=self.X_.shape[0]))
        index = np.argsort(d, axis=1, kind="stable")[:, :k]
        return np.take_along_axis(d, index, axis=1), index

    def predict(self, X):
        _, index = self.kneighbors(X)
        votes = np.zeros((index.shape[0], self.classes_.size))
        np.add.at(votes, (np.arange(index.shape[0])[:, None], self._codes[index]), 1.0)
        return self.classes_[np.argmax(votes, axis=1)]
