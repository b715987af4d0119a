"""Self-checks for the chapter 09 exercises (multiclass and averaged perceptron).

Each check prints a verdict with the reason and returns True when the answer is right.
"""

import numpy as np

from course_lib.perceptron import AveragedPerceptron, Perceptron

# Exercise 1: three labels, three features, one example.
W_EXERCISE = {"A": {"f1": 1, "f2": 0, "f3": -1}, "B": {"f1": 0, "f2": 2, "f3": 0}, "C": {"f1": -1, "f2": 1, "f3": 2}}
X_EXERCISE = {"f1": 1, "f2": 1, "f3": 1}
GOLD_EXERCISE = "A"

# Exercise 2: four examples visited in this order, one epoch, ties to the first label.
SEQUENCE = ([{"x": 1}, {"y": 1}, {"x": 1, "y": 1}, {"y": 2}], ["A", "B", "A", "B"])


def _verdict(correct, why):
    print(("Right. " if correct else "Not yet. ") + why)
    return correct


def _unanswered(answer):
    return answer is None or answer is Ellipsis


def _as_dense(weights, labels, features):
    return np.array([[float(weights.get(label, {}).get(f, 0)) for f in features] for label in labels])


def check_multiclass_update(answer):
    """Exercise 1 [P1]: w after one perceptron step on (X_EXERCISE, GOLD_EXERCISE) from W_EXERCISE."""
    if _unanswered(answer) or not isinstance(answer, dict):
        return _verdict(False, "Give the new weights as a dict of dicts {label: {feature: weight}}.")
    labels, features = sorted(W_EXERCISE), sorted(X_EXERCISE)
    w = _as_dense(W_EXERCISE, labels, features)
    x = np.array([X_EXERCISE[f] for f in features], dtype=float)
    scores = w @ x
    y_star = labels[int(np.argmax(scores))]
    gold = labels.index(GOLD_EXERCISE)
    expected = w.copy()
    if y_star != GOLD_EXERCISE:
        expected[gold] += x
        expected[labels.index(y_star)] -= x
    got = _as_dense(answer, labels, features)
    shown = ", ".join(f"{label}: {s:g}" for label, s in zip(labels, scores))
    why = (f"Scores <w_y | x> = {shown}, so y* = {y_star} while the gold label is {GOLD_EXERCISE}: "
           f"add x to w_{GOLD_EXERCISE} and subtract it from w_{y_star}.")
    if np.array_equal(got, expected):
        return _verdict(True, why)
    if np.array_equal(got, w):
        return _verdict(False, f"Nothing changed, but the prediction is wrong. {why}")
    return _verdict(False, why)


def check_average(answer):
    """Exercise 2 [P2]: the averaged weights a after one epoch over SEQUENCE (no shuffle)."""
    if _unanswered(answer) or not isinstance(answer, dict):
        return _verdict(False, "Give a as a dict of dicts {label: {feature: weight}}.")
    X, y = SEQUENCE
    model = AveragedPerceptron(n_epochs=1, variant="naive", shuffle=False).fit(X, y)
    labels, features = list(model.classes_), ["x", "y"]
    expected = _as_dense(model.weights_, labels, features)
    got = _as_dense(answer, labels, features)
    why = f"a = sum of w after each of the 4 examples = {model.weights_}."
    if np.array_equal(got, expected):
        return _verdict(True, why)
    last = _as_dense(Perceptron(n_epochs=1, shuffle=False).fit(X, y).weights_, labels, features)
    if np.array_equal(got, last):
        return _verdict(False, "That is the last w (the plain perceptron). a adds up w after every example.")
    return _verdict(False, "Run Algorithm 1 by hand: predict (ties -> A), update w on errors, then a <- a + w.")


def check_lazy_catch_up(answer, n_examples=10, last_update=3, w_value=2.0, a_value=5.0):
    """Exercise 3 [P4]: a[y][f] after the lazy catch-up at an error when n_examples have been seen."""
    if _unanswered(answer):
        return _verdict(False, "Replace `...` with the new value of a[y][f].")
    expected = a_value + (n_examples - last_update) * w_value
    why = (f"w[y][f] = {w_value:g} has not changed since the stamp {last_update}, so it should have been added "
           f"{n_examples} - {last_update} = {n_examples - last_update} times: a = {a_value:g} + "
           f"{n_examples - last_update} x {w_value:g} = {expected:g}.")
    if np.isclose(answer, expected):
        return _verdict(True, why)
    if np.isclose(answer, a_value + (n_examples - last_update + 1) * w_value):
        return _verdict(False, "One too many: the example being processed has not ended yet; its w is added later.")
    return _verdict(False, why)


def check_accumulator_cost(answer_naive, answer_on_error, n=1000, n_epochs=5, n_errors=120):
    """Exercise 4 [P3]: how many full-matrix additions to a the naive and on-error variants do."""
    if _unanswered(answer_naive) or _unanswered(answer_on_error):
        return _verdict(False, "Replace both `...` with numbers of additions.")
    naive, on_error = n * n_epochs, n_errors + 1
    why = (f"Naive adds w after each of the {n} x {n_epochs} = {naive} examples; on-error adds "
           f"n_since_last_error x w at each of the {n_errors} errors plus the final catch-up: {on_error}.")
    ok = answer_naive == naive and answer_on_error == on_error
    if answer_naive == naive and answer_on_error == n_errors:
        return _verdict(False, "Almost: do not forget the catch-up at the end of training.")
    return _verdict(ok, why)
