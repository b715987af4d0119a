import numpy as np
import pytest
from sklearn.neighbors import KNeighborsClassifier

from course_lib import data
from course_lib.kernel_knn import KernelKNN
from course_lib.svm import SVM


def test_linear_kernel_gives_the_euclidean_neighbours_of_sklearn():
    X, r = data.overlapping(60, seed=0)
    Q = np.random.default_rng(0).normal(size=(40, 2))
    ours = KernelKNN(k=5, kernel="linear").fit(X, r)
    ref = KNeighborsClassifier(n_neighbors=5, algorithm="brute").fit(X, r)
    d_ref, i_ref = ref.kneighbors(Q)
    d, i = ours.kneighbors(Q)
    np.testing.assert_array_equal(i, i_ref)
    np.testing.assert_allclose(d, d_ref, atol=1e-7)
    np.testing.assert_array_equal(ours.predict(Q), ref.predict(Q))


def brute_gaussian_knn(X, y, q, k, sigma):
    def K(a, b):
        return np.exp(-np.sum((a - b) ** 2) / sigma**2)

    d = [np.sqrt(K(q, q) + K(x, x) - 2 * K(q, x)) for x in X]
    order = sorted(range(len(X)), key=lambda t: d[t])[:k]
    labels, counts = np.unique(y[order], return_counts=True)
    return order, labels[np.argmax(counts)]


@pytest.mark.parametrize("sigma", [0.3, 1.0, 5.0])
def test_gaussian_kernel_against_a_brute_force_loop(sigma):
    X, y = data.noisy_xor(40, seed=2)
    Q = np.random.default_rng(1).uniform(-2, 2, size=(25, 2))
    model = KernelKNN(k=3, kernel="gaussian", sigma=sigma).fit(X, y)
    _, index = model.kneighbors(Q)
    pred = model.predict(Q)
    for q, idx, p in zip(Q, index, pred):
        order, label = brute_gaussian_knn(X, y, q, 3, sigma)
        assert list(idx) == order
        assert p == label


def test_multiclass_labels_and_ties_go_to_the_smallest_label():
    X = np.array([[0.0], [1.0], [10.0], [11.0]])
    y = np.array(["b", "b", "a", "a"])
    model = KernelKNN(k=2, kernel="gaussian", sigma=2.0).fit(X, y)
    assert list(model.predict([[0.2], [10.5]])) == ["b", "a"]
    assert KernelKNN(k=4).fit(X, y).predict([[5.0]])[0] == "a"


def test_support_vectors_as_prototypes():
    X, r = data.overlapping(60, seed=0)
    svm = SVM(C=1.0, kernel="gaussian", sigma=1.0).fit(X, r)
    sv = svm.support_
    protos = KernelKNN(k=1, kernel="gaussian", sigma=1.0).fit(X[sv], r[sv])
    assert len(sv) < len(X)
    assert np.mean(protos.predict(X) == r) > 0.6


def test_input_errors():
    X, r = data.overlapping(10, seed=0)
    with pytest.raises(ValueError, match="lower k"):
        KernelKNN(k=11).fit(X, r)
    with pytest.raises(ValueError, match="lengths must match"):
        KernelKNN().fit(X, r[:5])
    with pytest.raises(ValueError, match="sigma"):
        KernelKNN(kernel="gaussian", sigma=-1.0).fit(X, r)
    with pytest.raises(RuntimeError, match="not fitted"):
        KernelKNN().predict(X)
    with pytest.raises(ValueError, match="positive semi-definite"):
        KernelKNN(kernel="sigmoid").fit(X * 3, r).predict(X * 3)
