"""K22: the from-scratch SVM and scikit-learn's SVC, NuSVC, LinearSVC and SGDClassifier on the same
problems (the claims of notebook 05's side-by-side section)."""

import numpy as np
import pytest
from sklearn.linear_model import SGDClassifier
from sklearn.svm import SVC, LinearSVC, NuSVC

from course_lib import data
from course_lib.svm import SVM

X, R = data.overlapping(n=60, seed=0)
X_NEW, _ = data.overlapping(n=500, seed=99)


@pytest.mark.parametrize(
    "ours, theirs",
    [
        (dict(kernel="linear"), dict(kernel="linear")),
        (dict(kernel="polynomial", degree=3), dict(kernel="poly", degree=3, gamma=1.0, coef0=1.0)),
        (
            dict(kernel="gaussian", sigma=0.5),
            dict(kernel="rbf", gamma=1.0 / 0.5**2),
        ),  # gamma = 1 / sigma^2
    ],
)
def test_svc_has_the_same_support_vectors_and_predictions(ours, theirs):
    a = SVM(C=1.0, tol=1e-5, **ours).fit(X, R)
    b = SVC(C=1.0, tol=1e-5, **theirs).fit(X, R)
    np.testing.assert_array_equal(np.sort(a.support_), np.sort(b.support_))
    np.testing.assert_array_equal(a.predict(X_NEW), b.predict(X_NEW))


def test_nusvc_with_the_matching_nu_is_the_same_classifier():
    # a C-SVM solution alpha is the nu-SVM solution for nu = sum(alpha) / (C N)
    ours = SVM(C=1.0, kernel="gaussian", sigma=1.0, tol=1e-5).fit(X, R)
    nu = ours.alpha_.sum() / (1.0 * len(X))
    theirs = NuSVC(nu=nu, kernel="rbf", gamma=1.0, tol=1e-5).fit(X, R)
    np.testing.assert_array_equal(np.sort(ours.support_), np.sort(theirs.support_))
    assert len(theirs.support_) >= nu * len(
        X
    )  # nu: a lower bound on the fraction of support vectors
    np.testing.assert_array_equal(ours.predict(X_NEW), theirs.predict(X_NEW))


def test_linear_solvers_agree_with_the_linear_svm():
    ours = SVM(C=1.0, kernel="linear").fit(X, R).predict(X_NEW)
    linear_svc = LinearSVC(C=1.0, loss="hinge", max_iter=100_000).fit(X, R)
    sgd = SGDClassifier(
        loss="hinge", alpha=1.0 / len(X), max_iter=1000, tol=1e-6, random_state=0
    ).fit(X, R)
    assert np.mean(linear_svc.predict(X_NEW) == ours) > 0.97
    assert np.mean(sgd.predict(X_NEW) == ours) > 0.9
