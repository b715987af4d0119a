"""scikit-learn's own estimator checks run on the library's classifiers.

The library keeps the slides' conventions, so each estimator is wrapped in a thin adapter that
only adds what scikit-learn's API needs and the library deliberately does not have:
`get_params`/`set_params` (from BaseEstimator) and, for the binary models, the mapping of any
two labels to the slides' r in {-1, +1} and back. Everything else (input checks, errors,
`n_features_in_`, predictions) is the library's own behaviour. The checks that fail by a
documented convention of the library are listed in EXPECTED_FAILURES with the reason.
"""

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.estimator_checks import parametrize_with_checks

from course_lib.kernel_knn import KernelKNN
from course_lib.linear import LeastSquaresClassifier
from course_lib.multiclass import AllPairs, OneVsRest
from course_lib.multiclass_svm import MulticlassSVM
from course_lib.perceptron import AveragedPerceptron, Perceptron
from course_lib.svm import SVM


class _Adapter(ClassifierMixin, BaseEstimator):
    """Forwards fit/predict/decision_function to `self.make()`'s estimator."""

    binary = False

    def fit(self, X, y):
        self.model_ = self.make()
        if self.binary:
            if y is None:
                return self.model_.fit(X, y)  # the library's own error
            self.classes_, codes = np.unique(np.asarray(y), return_inverse=True)
            two = self.classes_.size == 2 and np.asarray(y).ndim == 1
            # two labels become the slides' -1 / +1; anything else reaches the library as given
            self.model_.fit(X, np.where(codes.reshape(-1) == 1, 1.0, -1.0) if two else y)
        else:
            self.model_.fit(X, y)
            self.classes_ = self.model_.classes_
        self.n_features_in_ = self.model_.n_features_in_
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = not self.binary
        return tags

    def predict(self, X):
        if not hasattr(self, "model_"):
            return self.make().predict(X)  # raises the library's NotFittedError
        prediction = self.model_.predict(X)
        if self.binary:
            return self.classes_[(np.asarray(prediction) > 0).astype(int)]
        return prediction


class SVMAdapter(_Adapter):
    binary = True

    def __init__(self, C=1.0, kernel="gaussian", sigma=1.0):
        self.C, self.kernel, self.sigma = C, kernel, sigma

    def make(self):
        return SVM(C=self.C, kernel=self.kernel, sigma=self.sigma)

    def decision_function(self, X):
        if not hasattr(self, "model_"):
            return self.make().decision_function(X)
        return self.model_.decision_function(X)


class LeastSquaresAdapter(_Adapter):
    binary = True

    def __init__(self):
        pass

    def make(self):
        return LeastSquaresClassifier()


class KernelKNNAdapter(_Adapter):
    def __init__(self, k=3, kernel="linear"):
        self.k, self.kernel = k, kernel

    def make(self):
        return KernelKNN(k=self.k, kernel=self.kernel)


class OneVsRestAdapter(_Adapter):
    def __init__(self, C=1.0):
        self.C = C

    def make(self):
        return OneVsRest(SVM(C=self.C, kernel="gaussian"))


class AllPairsAdapter(_Adapter):
    def __init__(self, C=1.0):
        self.C = C

    def make(self):
        return AllPairs(SVM(C=self.C, kernel="gaussian"))


class MulticlassSVMAdapter(_Adapter):
    def __init__(self, lam=0.01, n_iter=2000):
        self.lam, self.n_iter = lam, n_iter

    def make(self):
        return MulticlassSVM(lam=self.lam, n_iter=self.n_iter)


class PerceptronAdapter(_Adapter):
    def __init__(self, n_epochs=5, seed=0):
        self.n_epochs, self.seed = n_epochs, seed

    def make(self):
        return Perceptron(n_epochs=self.n_epochs, seed=self.seed)


class AveragedPerceptronAdapter(_Adapter):
    def __init__(self, n_epochs=5, variant="lazy", seed=0):
        self.n_epochs, self.variant, self.seed = n_epochs, variant, seed

    def make(self):
        return AveragedPerceptron(n_epochs=self.n_epochs, variant=self.variant, seed=self.seed)


OWN_NOT_FITTED = (
    "the library raises its own NotFittedError (scikit-learn is not one of its dependencies); "
    "like scikit-learn's it is a ValueError and an AttributeError, tested in test_robustness.py"
)
Y_2D = "y (or r) must be 1-D: a column vector is refused with a clear error instead of a warning"
R_NAMED = "the binary models call their targets r, as the slides do, and name r in the error"
COMMON = {"check_estimators_unfitted": OWN_NOT_FITTED, "check_supervised_y_2d": Y_2D}
EXPECTED_FAILURES = {
    "SVMAdapter": {**COMMON, "check_requires_y_none": R_NAMED},
    "LeastSquaresAdapter": {**COMMON, "check_requires_y_none": R_NAMED},
    "KernelKNNAdapter": COMMON,
    "OneVsRestAdapter": COMMON,
    "AllPairsAdapter": COMMON,
    "MulticlassSVMAdapter": COMMON,
    "PerceptronAdapter": COMMON,
    "AveragedPerceptronAdapter": COMMON,
}


def _expected(estimator):
    return EXPECTED_FAILURES[type(estimator).__name__]


@parametrize_with_checks(
    [SVMAdapter(), LeastSquaresAdapter(), KernelKNNAdapter(), OneVsRestAdapter(), AllPairsAdapter(),
     MulticlassSVMAdapter(), PerceptronAdapter(), AveragedPerceptronAdapter()],
    expected_failed_checks=_expected,
)
@pytest.mark.timeout(60)
def test_scikit_learn_estimator_checks(estimator, check):
    check(estimator)
