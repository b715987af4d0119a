"""Averaged perceptron: the three variants agree exactly, match an independent Algorithm 1, and validate."""

import numpy as np
import pytest

from course_lib.perceptron import (
    VARIANTS,
    AveragedPerceptron,
    Perceptron,
    accuracy_by_epoch,
    weights_by_epoch,
    lazy_epochs,
    sparse_rows,
)
from course_lib.text import bag_of_words, load_stdlib_docstrings


def random_sparse(n=120, n_features=60, n_labels=4, seed=0, integer=True):
    """Random sparse examples: labels driven by a hidden linear model plus noise."""
    rng = np.random.default_rng(seed)
    hidden = rng.normal(size=(n_labels, n_features))
    X, y = [], []
    for _ in range(n):
        active = rng.choice(n_features, size=rng.integers(1, 8), replace=False)
        values = rng.integers(1, 4, size=active.size) if integer else rng.normal(size=active.size)
        X.append({f"f{j}": (int(v) if integer else float(v)) for j, v in zip(active, values)})
        scores = hidden[:, active] @ values + rng.normal(scale=1.0, size=n_labels)
        y.append("abcdefgh"[int(np.argmax(scores))])
    return X, y


def to_dense(X, features):
    D = np.zeros((len(X), len(features)))
    for i, example in enumerate(X):
        for f, v in example.items():
            D[i, features.index(f)] = v
    return D


def algorithm_1(D, gold, n_labels, n_epochs, seed):
    """Direct transcription of Algorithm 1 with dense arrays (independent of course_lib)."""
    rng = np.random.default_rng(seed)
    w = np.zeros((n_labels, D.shape[1]))
    a = np.zeros((n_labels, D.shape[1]))
    for _ in range(n_epochs):
        for i in rng.permutation(len(D)):          # shuffle training set
            scores = [w[v] @ D[i] for v in range(n_labels)]
            y_star = max(range(n_labels), key=lambda v: (scores[v], -v))  # first max
            if y_star != gold[i]:
                w[gold[i]] += D[i]
                w[y_star] -= D[i]
            a += w
    return w, a


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_variants_give_identical_weights_and_predictions(seed):
    X, y = random_sparse(seed=seed)
    models = [AveragedPerceptron(n_epochs=4, variant=v, seed=seed).fit(X, y) for v in VARIANTS]
    for m in models[1:]:
        assert m.coef_.dtype == np.int64  # integer features: exact arithmetic
        np.testing.assert_array_equal(m.coef_, models[0].coef_)
        np.testing.assert_array_equal(m.last_w_, models[0].last_w_)
        assert m.weights_ == models[0].weights_
        np.testing.assert_array_equal(m.predict(X), models[0].predict(X))


def test_variants_agree_with_float_features():
    X, y = random_sparse(seed=5, integer=False)
    models = [AveragedPerceptron(n_epochs=3, variant=v, seed=3).fit(X, y) for v in VARIANTS]
    for m in models[1:]:
        np.testing.assert_allclose(m.coef_, models[0].coef_, rtol=1e-9, atol=1e-9)
        np.testing.assert_array_equal(m.last_w_, models[0].last_w_)  # same w: same predictions in training


@pytest.mark.parametrize("seed", [0, 7])
def test_naive_variant_matches_an_independent_algorithm_1(seed):
    X, y = random_sparse(n=80, seed=seed)
    model = AveragedPerceptron(n_epochs=3, variant="naive", seed=seed).fit(X, y)
    features = model.feature_names_
    gold = [list(model.classes_).index(label) for label in y]
    w, a = algorithm_1(to_dense(X, features), gold, len(model.classes_), 3, seed)
    np.testing.assert_array_equal(model.coef_, a)
    np.testing.assert_array_equal(model.last_w_, w)
    plain = Perceptron(n_epochs=3, seed=seed).fit(X, y)
    np.testing.assert_array_equal(plain.coef_, w)


def test_dense_input_matches_dict_input():
    X, y = random_sparse(n=60, seed=4)
    features = sorted({f for e in X for f in e})
    D = to_dense(X, features)
    from_dicts = AveragedPerceptron(n_epochs=2, seed=4).fit(X, y)
    from_dense = AveragedPerceptron(n_epochs=2, seed=4).fit(D, y)
    for label in from_dicts.classes_:
        expected = {features.index(f): v for f, v in from_dicts.weights_[label].items()}
        assert from_dense.weights_[label] == expected
    np.testing.assert_array_equal(from_dense.predict(D), from_dicts.predict(X))


def test_hand_computed_updates_on_three_examples():
    # No shuffling, one epoch, labels A < B, ties -> A.
    X = [{"x": 1}, {"y": 1}, {"x": 1, "y": 2}]
    y = ["B", "A", "B"]
    # ex1: scores A=0, B=0 -> tie -> A, wrong: w_B = {x: 1}, w_A = {x: -1};  a = w
    # ex2: A=0, B=0 -> A, right;                                             a = 2 w
    # ex3: A=-1, B=1 -> B, right;                                            a = 3 w
    for variant in VARIANTS:
        m = AveragedPerceptron(n_epochs=1, variant=variant, shuffle=False).fit(X, y)
        assert m.weights_ == {"A": {"x": -3}, "B": {"x": 3}}
    # Second epoch: ex1 right (w unchanged); ex2: A=0, B=0 -> A right; ex3 right -> a = 6 w.
    m = AveragedPerceptron(n_epochs=2, shuffle=False).fit(X, y)
    assert m.weights_ == {"A": {"x": -6}, "B": {"x": 6}}
    # Example 2 starting the epoch: predicted A (tie), right; ex1 A=B=0 -> A wrong; ...
    X2, y2 = [X[1], X[0], X[2]], [y[1], y[0], y[2]]
    m = AveragedPerceptron(n_epochs=1, shuffle=False).fit(X2, y2)
    # a = 0 (after ex "y") + w + w where w = {B: x, A: -x}
    assert m.weights_ == {"A": {"x": -2}, "B": {"x": 2}}
    np.testing.assert_array_equal(m.decision_function([{"x": 1, "unseen": 5}]), [[-2.0, 2.0]])
    assert m.predict([{"unseen": 1}]).tolist() == ["A"]  # only unseen features: all scores 0, tie -> A


def test_plain_perceptron_last_examples_decide():
    # Non-separable: five "B" points then one "A" point in the same direction (no shuffling).
    # ex1: tie -> A, wrong: w_B = +x, w_A = -x; ex2-5 right; ex6 ({x: 2}, A): B predicted, wrong:
    # w_A = -x + 2x = +x, w_B = -x.  a = 5 (w_B = +x) + 1 (w_B = -x): w_B = 4x, w_A = -4x.
    X = [{"x": 1}] * 5 + [{"x": 2}]
    y = ["B"] * 5 + ["A"]
    plain = Perceptron(n_epochs=1, shuffle=False).fit(X, y)
    averaged = AveragedPerceptron(n_epochs=1, shuffle=False).fit(X, y)
    assert plain.weights_ == {"A": {"x": 1}, "B": {"x": -1}}
    assert averaged.weights_ == {"A": {"x": -4}, "B": {"x": 4}}
    assert plain.predict([{"x": 1}]).tolist() == ["A"]      # the single last example decides
    assert averaged.predict([{"x": 1}]).tolist() == ["B"]   # the average remembers the five others


def test_epoch_prefix_and_seed_reproducibility():
    X, y = random_sparse(seed=9)
    long = AveragedPerceptron(n_epochs=6, seed=2).fit(X, y)
    again = AveragedPerceptron(n_epochs=6, seed=2).fit(X, y)
    np.testing.assert_array_equal(long.coef_, again.coef_)
    other = AveragedPerceptron(n_epochs=6, seed=3).fit(X, y)
    assert not np.array_equal(long.coef_, other.coef_)
    # accuracy_by_epoch reuses one run: epoch k equals a fit with n_epochs=k
    plain, averaged = accuracy_by_epoch(X[:80], y[:80], X[80:], y[80:], max_epoch=4, seed=2)
    for k in range(1, 5):
        m = AveragedPerceptron(n_epochs=k, seed=2).fit(X[:80], y[:80])
        p = Perceptron(n_epochs=k, seed=2).fit(X[:80], y[:80])
        assert averaged[k - 1] == np.mean(m.predict(X[80:]) == np.array(y[80:]))
        assert plain[k - 1] == np.mean(p.predict(X[80:]) == np.array(y[80:]))


def test_variants_identical_on_the_docstring_corpus():
    documents, topics, _ = load_stdlib_docstrings()
    bags, _ = bag_of_words(documents[::3], min_df=3)
    keep = [i for i, b in enumerate(bags) if b]
    X, y = [bags[i] for i in keep], topics[::3][keep]
    models = [AveragedPerceptron(n_epochs=2, variant=v, seed=0).fit(X, y) for v in VARIANTS]
    for m in models[1:]:
        np.testing.assert_array_equal(m.coef_, models[0].coef_)
        np.testing.assert_array_equal(m.predict(X), models[0].predict(X))
    assert np.mean(models[0].predict(X) == y) > 0.8


def test_labels_of_any_hashable_type():
    X = [{"a": 1}, {"b": 1}, {"a": 1, "c": 1}, {"b": 2}]
    for labels in ([3, 1, 3, 1], [(0, "x"), (1, "y"), (0, "x"), (1, "y")], ["t", "s", "t", "s"]):
        m = AveragedPerceptron(n_epochs=3, seed=0).fit(X, labels)
        assert len(m.classes_) == 2
        assert m.predict(X).tolist() == labels


def test_validation_errors():
    X, y = [{"a": 1}, {"b": 1}], ["A", "B"]
    with pytest.raises(ValueError, match="y contains None"):
        AveragedPerceptron().fit(X, [None, "s"])
    with pytest.raises(TypeError, match="y mixes labels"):
        AveragedPerceptron().fit(X, [1, "a"])
    with pytest.raises(ValueError, match="empty"):
        AveragedPerceptron().fit([], [])
    with pytest.raises(ValueError, match="lengths must match"):
        AveragedPerceptron().fit(X, ["A"])
    with pytest.raises(ValueError, match="single label"):
        AveragedPerceptron().fit(X, ["A", "A"])
    with pytest.raises(ValueError, match="n_epochs"):
        AveragedPerceptron(n_epochs=0).fit(X, y)
    with pytest.raises(TypeError, match="n_epochs"):
        AveragedPerceptron(n_epochs=2.5).fit(X, y)
    with pytest.raises(ValueError, match="variant"):
        AveragedPerceptron(variant="fast").fit(X, y)
    with pytest.raises(ValueError, match="finite"):
        AveragedPerceptron().fit([{"a": float("nan")}, {"b": 1}], y)
    with pytest.raises(ValueError, match="NaN"):
        AveragedPerceptron().fit(np.array([[1.0, np.nan], [0.0, 1.0]]), y)
    with pytest.raises(ValueError, match="NaN"):
        AveragedPerceptron().fit(X, [float("nan"), "B"])
    with pytest.raises(TypeError, match="must be a number"):
        AveragedPerceptron().fit([{"a": "1"}, {"b": 1}], y)
    with pytest.raises(TypeError, match="must be a dict"):
        AveragedPerceptron().fit([{"a": 1}, [1, 2]], y)
    with pytest.raises(ValueError, match="1-D"):
        AveragedPerceptron().fit(X, np.array([["A"], ["B"]]))
    with pytest.raises(TypeError, match="shuffle"):
        AveragedPerceptron(shuffle="yes").fit(X, y)
    with pytest.raises(TypeError, match="seed"):
        AveragedPerceptron(seed="zero").fit(X, y)
    with pytest.raises(RuntimeError, match="not fitted"):
        AveragedPerceptron().predict(X)
    m = AveragedPerceptron().fit(X, y)
    with pytest.raises(TypeError, match="feature dicts"):
        m.predict(np.eye(2))
    dense = AveragedPerceptron().fit(np.eye(2), y)
    with pytest.raises(ValueError, match="fitted with 2"):
        dense.predict(np.eye(3))


def test_lazy_epochs_leave_the_accumulator_for_the_next_epoch_untouched():
    X, y = random_sparse(n=50, seed=11)
    rows, columns, _ = sparse_rows(X)
    gold = [sorted(set(y)).index(label) for label in y]
    orders = [np.arange(50)] * 3
    snapshots = [a.copy() for _, a in lazy_epochs(rows, gold, (len(set(y)), len(columns)), orders)]
    model = AveragedPerceptron(n_epochs=3, variant="naive", shuffle=False).fit(X, y)
    np.testing.assert_array_equal(snapshots[-1], model.coef_)
    one = AveragedPerceptron(n_epochs=1, variant="naive", shuffle=False).fit(X, y)
    np.testing.assert_array_equal(snapshots[0], one.coef_)


def test_large_or_fractional_values_switch_to_float_arithmetic():
    y = ["A", "B", "A"]
    small = AveragedPerceptron(n_epochs=2).fit([{"a": 3}, {"b": 1}, {"a": 1, "b": 2}], y)
    assert small.coef_.dtype == np.int64
    fractional = AveragedPerceptron(n_epochs=2).fit([{"a": 0.5}, {"b": 1}, {"a": 1, "b": 2}], y)
    huge = AveragedPerceptron(n_epochs=2).fit([{"a": 1e30}, {"b": 1}, {"a": 1, "b": 2}], y)
    assert fractional.coef_.dtype == huge.coef_.dtype == np.float64
    assert np.all(np.isfinite(huge.coef_)) and huge.predict([{"a": 1}]).tolist() == ["A"]


def test_weights_by_epoch_equal_fits_with_that_many_epochs():
    X, y = random_sparse(n=60, seed=12)
    for k, (classes, w, a) in enumerate(weights_by_epoch(X, y, max_epoch=3, seed=5), start=1):
        averaged = AveragedPerceptron(n_epochs=k, seed=5).fit(X, y)
        plain = Perceptron(n_epochs=k, seed=5).fit(X, y)
        assert classes.tolist() == averaged.classes_.tolist()
        np.testing.assert_array_equal(a, averaged.coef_)
        np.testing.assert_array_equal(w, plain.coef_)
    with pytest.raises(ValueError, match="max_epoch"):
        list(weights_by_epoch(X, y, max_epoch=0))


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4])
def test_dict_of_dicts_lazy_fast_lazy_and_naive_give_identical_weights(seed):
    """The notes' dictionaries (lazy_update, lazy_dicts), the fast lazy matrices and Algorithm 1
    run naively end with exactly the same averaged weights a and the same last w."""
    from course_lib.perceptron import lazy_dicts

    X, y = random_sparse(n=150, n_features=80, n_labels=5, seed=seed)
    a_dict, w_dict = lazy_dicts(X, y, n_epochs=3, seed=seed)
    for variant in ("lazy", "naive"):
        model = AveragedPerceptron(n_epochs=3, variant=variant, seed=seed).fit(X, y)
        for weights, reference in ((a_dict, model.coef_), (w_dict, model.last_w_)):
            as_matrix = np.array([[weights[v].get(f, 0) for f in model.feature_names_]
                                  for v in model.classes_.tolist()])
            np.testing.assert_array_equal(as_matrix, reference)


def test_lazy_update_by_hand():
    """One error, the notes' numbers: a = 5, w = 2, stamp 3, n_examples = 10 -> a = 5 + 7 x 2."""
    from course_lib.perceptron import lazy_update

    a, w, last = {"A": {"f": 5}, "B": {}}, {"A": {"f": 2}, "B": {}}, {("A", "f"): 3}
    lazy_update(a, w, last, {"f": 1}, gold="B", pred="A", n_examples=10)
    assert a == {"A": {"f": 19}, "B": {"f": 0}}
    assert w == {"A": {"f": 1}, "B": {"f": 1}}
    assert last == {("A", "f"): 10, ("B", "f"): 10}


def test_averaging_work_counts():
    from course_lib.perceptron import averaging_work

    X, y = random_sparse(n=100, n_features=50, n_labels=4, seed=3)
    rows, columns, _ = sparse_rows(X)
    gold = [sorted(set(y)).index(v) for v in y]
    orders = [np.random.default_rng(0).permutation(100) for _ in range(2)]
    counts, errors, steps = averaging_work(rows, gold, (4, len(columns)), orders)
    size = 4 * len(columns)
    assert steps == 200 and 0 < errors < 200
    assert counts["naive"] == 200 * size and counts["on_error"] == (errors + 1) * size
    assert size < counts["lazy"] < counts["on_error"] < counts["naive"]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_accuracy_by_epoch_fast_scoring_matches_predict(seed):
    X, y = random_sparse(n=120, seed=seed)
    X_held, y_held = random_sparse(n=60, seed=seed + 100)
    plain, averaged = accuracy_by_epoch(X, y, X_held, y_held, max_epoch=3, seed=seed)
    for k in (1, 3):
        model = AveragedPerceptron(n_epochs=k, seed=seed).fit(X, y)
        assert averaged[k - 1] == np.mean(model.predict(X_held) == np.array(y_held))
        assert plain[k - 1] == np.mean(Perceptron(n_epochs=k, seed=seed).fit(X, y).predict(X_held) == np.array(y_held))
