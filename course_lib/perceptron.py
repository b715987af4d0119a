"""Multiclass perceptron and averaged perceptron (Algorithm 1 of the notes and its two speed-ups).

One weight vector w_y per label; predict y* = argmax_y <w_y | x>; on an error add x to the
gold label's vector and subtract it from the predicted one. The averaged perceptron predicts
with a = sum of the w seen after every example (no division: scaling a does not change the
argmax). Three ways to compute the same a:

- naive:    a <- a + w after every example, over the whole weight matrix (Algorithm 1);
- on_error: a <- a + n_since_last_error * w only when an error happens, plus a final catch-up;
- lazy:     a last-update stamp per (label, feature): on an error only the touched entries
            are brought up to date, a final flush brings every other entry up to date.

Examples are sparse: a dict {feature: value} holds only the active features (a dense row is
read as {column: value} for its non-zero columns). The dict-of-dicts w[label][feature] of the
notes is a matrix w[label, j] in the fast variants, the column j of each feature being fixed
once at fit, so that they share the same scoring code and make the same predictions.
`lazy_update` and `lazy_dicts` are the notes' own version on dictionaries (slower, same weights).

Conventions: each epoch visits the examples in the order `rng.permutation(n)` with
`rng = np.random.default_rng(seed)`, the same for every variant (epoch k's order does not
depend on the number of epochs); argmax ties go to the first label of `classes_` (labels
sorted when they can be). With integer-valued features (|value| <= 2**20, e.g. word counts) the
arithmetic is exact (int64); otherwise it is float64.
"""

import numbers

import numpy as np

from course_lib._validation import (
    check_fitted,
    check_int,
    check_steps,
    check_matrix,
    check_random_state,
    finite_arguments,
    finite_hyperparameters,
)
from course_lib.i18n import _

VARIANTS = ("naive", "on_error", "lazy")


def predict_one(w, idx, x):
    """y* = argmax_y <w_y | x> for a sparse x (columns idx, values x); ties -> lowest label index."""
    return int(np.argmax(w[:, idx] @ x))


@finite_arguments(shapes={"rows": "n", "gold": "n"}, indices={"gold": "shape"})
def plain_epochs(rows, gold, shape, orders):
    """Plain multiclass perceptron; yields w after each epoch."""
    w = np.zeros(shape, dtype=rows[0][1].dtype)
    for order in orders:
        for i in order:
            idx, x = rows[i]
            y_star = predict_one(w, idx, x)
            if y_star != gold[i]:
                w[gold[i], idx] += x
                w[y_star, idx] -= x
        yield w


@finite_arguments(shapes={"rows": "n", "gold": "n"}, indices={"gold": "shape"})
def naive_epochs(rows, gold, shape, orders):
    """Algorithm 1: a <- a + w after every example; yields (w, a) after each epoch."""
    w = np.zeros(shape, dtype=rows[0][1].dtype)
    a = np.zeros_like(w)
    for order in orders:
        for i in order:
            idx, x = rows[i]
            y_star = predict_one(w, idx, x)
            if y_star != gold[i]:
                w[gold[i], idx] += x
                w[y_star, idx] -= x
            a += w
        yield w, a


@finite_arguments(shapes={"rows": "n", "gold": "n"}, indices={"gold": "shape"})
def on_error_epochs(rows, gold, shape, orders):
    """First speed-up: a <- a + n_since_last_error * w before each update; yields (w, a) per epoch."""
    w = np.zeros(shape, dtype=rows[0][1].dtype)
    a = np.zeros_like(w)
    n_since_last_error = 0
    for order in orders:
        for i in order:
            idx, x = rows[i]
            y_star = predict_one(w, idx, x)
            if y_star != gold[i]:
                a += n_since_last_error * w  # every example since the last error ended with this w
                n_since_last_error = 0
                w[gold[i], idx] += x
                w[y_star, idx] -= x
            n_since_last_error += 1
        yield w, a + n_since_last_error * w  # the catch-up (a itself is left as it is)


@finite_arguments(shapes={"rows": "n", "gold": "n"}, indices={"gold": "shape"})
def lazy_epochs(rows, gold, shape, orders):
    """Lazy speed-up: a stamp per (label, feature), only touched entries updated; yields (w, a) per epoch."""
    w = np.zeros(shape, dtype=rows[0][1].dtype)
    a = np.zeros_like(w)
    last_update = np.zeros(shape, dtype=np.int64)
    n_examples = 0
    for order in orders:
        for i in order:
            idx, x = rows[i]
            y_star = predict_one(w, idx, x)
            if y_star != gold[i]:
                for label in (gold[i], y_star):
                    a[label, idx] += (n_examples - last_update[label, idx]) * w[label, idx]
                    last_update[label, idx] = n_examples
                w[gold[i], idx] += x
                w[y_star, idx] -= x
            n_examples += 1
        yield w, a + (n_examples - last_update) * w  # the final flush (a itself is left as it is)


TRAINERS = {"naive": naive_epochs, "on_error": on_error_epochs, "lazy": lazy_epochs}


def lazy_update(a, w, last_update, x, gold, pred, n_examples):
    """The notes' lazy update on dictionaries, at an error (pred != gold), in place:

    for each active feature f of x, bring a[gold][f] and a[pred][f] up to date with
    a[v][f] += (n_examples - last_update[v, f]) * w[v][f], stamp last_update[v, f] = n_examples,
    then correct w: w[gold][f] += x[f], w[pred][f] -= x[f].
    a and w are dicts of dicts {label: {feature: value}}, last_update a dict {(label, feature): n};
    missing entries count 0.
    """
    for name, label in (("gold", gold), ("pred", pred)):
        if isinstance(label, (bool, np.bool_)) or not isinstance(label, (numbers.Integral, str)):
            raise TypeError(_("{name} must be a class label, an integer or a string; got "
                              "{label!r}.").format(name=name, label=label))
    check_int(n_examples, "n_examples", 0)
    for feat, value in x.items():
        for label in (gold, pred):
            a_v, w_v = a.setdefault(label, {}), w.setdefault(label, {})
            a_v[feat] = a_v.get(feat, 0) + (n_examples - last_update.get((label, feat), 0)) * w_v.get(feat, 0)
            last_update[label, feat] = n_examples
        w[gold][feat] = w[gold].get(feat, 0) + value
        w[pred][feat] = w[pred].get(feat, 0) - value


@finite_arguments
def lazy_dicts(X, y, n_epochs=1, shuffle=True, seed=0):
    """The averaged perceptron with the notes' data structures: returns (a, w) as dicts of dicts.

    Same orders (rng.permutation per epoch), same tie rule (first of the sorted labels) as
    AveragedPerceptron, hence exactly the same weights; `lazy_update` at each error, then the
    final flush a[v][f] += (n_examples - last_update[v, f]) * w[v][f] over every entry.
    """
    model = AveragedPerceptron(n_epochs=n_epochs, shuffle=shuffle, seed=seed)
    rows, gold, _, orders = model._prepare(X, y)  # checks X, y and draws the same orders
    labels = model.classes_.tolist()
    # the checked values, not X's own (an int64 X of huge values would overflow in the sums)
    examples = [X[i] if isinstance(X[i], dict) else dict(zip(idx.tolist(), x.tolist())) for i, (idx, x) in enumerate(rows)]
    a, w, last_update = {v: {} for v in labels}, {v: {} for v in labels}, {}
    n_examples = 0
    for order in orders:
        for i in order:
            x, y_gold = examples[i], labels[gold[i]]
            scores = [sum(w[v].get(f, 0) * value for f, value in x.items()) for v in labels]
            y_pred = labels[int(np.argmax(scores))]
            if y_pred != y_gold:
                lazy_update(a, w, last_update, x, y_gold, y_pred, n_examples)
            n_examples += 1
    for v in labels:  # the final flush: "une dernière mise à jour de a"
        for feat, weight in w[v].items():
            a[v][feat] = a[v].get(feat, 0) + (n_examples - last_update.get((v, feat), 0)) * weight
    return a, w


@finite_arguments(shapes={"rows": "n", "gold": "n"}, indices={"gold": "shape"})
def averaging_work(rows, gold, shape, orders):
    """How many entries of a each variant adds to over one run (the cost the speed-ups save).

    naive: every entry after every example (n_steps |V| d); on_error: every entry at each error
    and once at the end; lazy: the active entries of the two labels at each error, then every
    entry once (the final flush). Returns (counts by variant, number of errors, number of steps).
    """
    w = np.zeros(shape, dtype=rows[0][1].dtype)
    errors = steps = touched = 0
    for order in orders:
        for i in order:
            idx, x = rows[i]
            y_star = predict_one(w, idx, x)
            if y_star != gold[i]:
                w[gold[i], idx] += x
                w[y_star, idx] -= x
                errors += 1
                touched += 2 * len(idx)
            steps += 1
    size = shape[0] * shape[1]
    counts = {"naive": steps * size, "on_error": (errors + 1) * size, "lazy": touched + size}
    return counts, errors, steps


def _value_dtype(values):
    """int64 (exact sums) when every value is an integer of modest size (|v| <= 2**20), else float64."""
    integral = np.all(values == np.round(values)) and (values.size == 0 or np.abs(values).max() <= 2**20)
    return np.int64 if integral else np.float64


def _check_dict(example, i, name):
    if not isinstance(example, dict):
        raise TypeError(
            _("{name}[{i}] must be a dict {{feature: value}} like the others; got {type}.").format(
                name=name, i=i, type=type(example).__name__)
        )
    for feature, value in example.items():
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(_("{name}[{i}][{feature!r}] must be a number; got {value!r}.").format(
                                name=name, i=i, feature=feature, value=value))
        if not np.isfinite(value):
            raise ValueError(_("{name}[{i}][{feature!r}] is {value}: features must be finite "
                               "numbers.").format(name=name, i=i, feature=feature, value=value))


def sparse_rows(X, columns=None, name="X"):
    """Encode examples as (column indices, values) pairs; returns (rows, columns, dense).

    X is a list of dicts {feature: value} or a dense 2-D array. `columns` maps a feature to
    its column; when None it is built from X (first appearance), otherwise features it does not
    know are dropped (a feature never seen in training has weight 0 anyway).
    """
    if isinstance(X, (list, tuple)) and len(X) > 0 and isinstance(X[0], dict):
        for i, example in enumerate(X):
            _check_dict(example, i, name)
        if columns is None:
            columns = {}
            for example in X:
                for feature in example:
                    columns.setdefault(feature, len(columns))
        dtype = _value_dtype(np.array([v for example in X for v in example.values()], dtype=float))
        rows = []
        for example in X:
            kept = [(columns[f], v) for f, v in example.items() if f in columns and v != 0]
            idx = np.array([j for j, _ in kept], dtype=np.int64)
            rows.append((idx, np.array([v for _, v in kept], dtype=dtype)))
        return rows, columns, False
    if isinstance(X, (list, tuple)) and len(X) == 0:
        raise ValueError(_("{name} is empty: it needs at least one example.").format(name=name))
    if not isinstance(X, (list, tuple, np.ndarray)) and hasattr(X, "__array__"):
        X = np.asarray(X)  # array-likes (pandas, ...) as their array
    X = check_matrix(X, name, n_features=None if columns is None else len(columns))
    columns = {j: j for j in range(X.shape[1])} if columns is None else columns
    dtype = _value_dtype(X)
    rows = [(np.flatnonzero(row), row[row != 0].astype(dtype)) for row in X]
    return rows, columns, True


def _check_labels(y, n):
    if y is None:
        raise ValueError(
            _("fit requires y to be passed, but the target y is None: pass one label per example.")
        )
    if not isinstance(y, (list, tuple, np.ndarray)) and hasattr(y, "__array__"):
        y = np.asarray(y)  # array-likes (pandas, ...) as their array
    if isinstance(y, np.ndarray) and y.ndim != 1:
        raise ValueError(_("y must be 1-D with one label per example; got shape {shape}.").format(
                             shape=y.shape))
    y = list(y.tolist()) if isinstance(y, np.ndarray) else list(y)
    if len(y) != n:
        raise ValueError(_("y has {n_y} labels but X has {n} examples: lengths must match.").format(
                             n_y=len(y), n=n))
    for label in y:
        if isinstance(label, float) and not np.isfinite(label):
            raise ValueError(_("Input y contains NaN: every example needs a label.") if np.isnan(label)
                             else _("Input y contains infinity: every example needs a label."))
        if label is None:
            raise ValueError(_("y contains None: every example needs a label."))
        if isinstance(label, float) and label != round(label):
            raise ValueError(_("y holds continuous values ({label:g}, ...): a classifier needs "
                               "class labels (integers, strings, ...), not a regression target.").format(
                                 label=label))
    try:
        classes = sorted(set(y))
    except TypeError:
        kinds = sorted({type(label).__name__ for label in y})
        raise TypeError(_("y mixes labels of types {kinds} that cannot be ordered: use labels of "
                          "one kind (all integers or all strings).").format(kinds=', '.join(kinds))) from None
    if len(classes) < 2:
        raise ValueError(
            _("y holds a single label, 1 class ({classes!r}): a classifier needs at least two.").format(
                classes=classes[0])
        )
    return y, classes


class Perceptron:
    """Plain multiclass perceptron: predicts with the last w (error-driven updates, no average)."""

    @finite_arguments
    def __init__(self, n_epochs=5, shuffle=True, seed=0):
        self.n_epochs = n_epochs
        self.shuffle = shuffle
        self.seed = seed

    def _prepare(self, X, y):
        n_epochs = check_int(self.n_epochs, "n_epochs", 1)
        if not isinstance(self.shuffle, (bool, np.bool_)):
            raise TypeError(_("shuffle must be True or False; got {shuffle!r}.").format(
                                shuffle=self.shuffle))
        rows, columns, dense = sparse_rows(X)  # a row of zeros scores 0 everywhere: no update
        y, classes = _check_labels(y, len(rows))
        index = {label: k for k, label in enumerate(classes)}
        gold = [index[label] for label in y]
        rng = check_random_state(self.seed)
        n = len(rows)
        check_steps(n_epochs, "n_epochs", n)
        orders = (rng.permutation(n) if self.shuffle else np.arange(n) for _ in range(n_epochs))
        self.classes_ = _as_array(classes)
        self.feature_names_ = list(columns)
        self._columns, self._dense = columns, dense
        if dense:  # scikit-learn's count of the columns of a 2-D array X
            self.n_features_in_ = len(columns)
        return rows, gold, (len(classes), len(columns)), orders

    @finite_hyperparameters
    def fit(self, X, y):
        """Train on X (list of feature dicts or 2-D array) and labels y; returns self."""
        rows, gold, shape, orders = self._prepare(X, y)
        for w in plain_epochs(rows, gold, shape, orders):
            pass
        self.coef_ = w.copy()
        return self

    def decision_function(self, X):
        """Scores <coef_y | x> of every label, shape (n, n_labels); unseen features count 0."""
        check_fitted(self, "coef_")
        if not self._dense and not (isinstance(X, (list, tuple)) and X and isinstance(X[0], dict)):
            raise TypeError(_("X must be a non-empty list of feature dicts, as in fit."))
        rows = sparse_rows(X, self._columns)[0]
        return np.array([self.coef_[:, idx] @ x for idx, x in rows], dtype=float)

    def predict(self, X):
        """Label of highest score; ties go to the first label of classes_."""
        check_fitted(self, "coef_")
        return self.classes_[np.argmax(self.decision_function(X), axis=1)]

    @property
    def weights_(self):
        """coef_ as a dict of dicts {label: {feature: weight}} (non-zero weights only)."""
        check_fitted(self, "coef_")
        return {
            label: {self.feature_names_[j]: self.coef_[k, j].item() for j in np.flatnonzero(self.coef_[k])}
            for k, label in enumerate(self.classes_.tolist())
        }


class AveragedPerceptron(Perceptron):
    """Averaged perceptron: predicts with a = sum of w after every example (variant: how a is summed).

    Learned: `coef_` (the averaged weights a, one row per label of `classes_`), `last_w_` (the
    final w of the plain perceptron run underneath), `weights_` (coef_ as a dict of dicts).
    """

    @finite_arguments
    def __init__(self, n_epochs=5, variant="lazy", shuffle=True, seed=0):
        super().__init__(n_epochs=n_epochs, shuffle=shuffle, seed=seed)
        self.variant = variant

    @finite_hyperparameters
    def fit(self, X, y):
        """Train on X (list of feature dicts or 2-D array) and labels y; returns self."""
        if self.variant not in TRAINERS:
            raise ValueError(_("variant must be one of {VARIANTS}; got {variant!r}.").format(
                                 VARIANTS=VARIANTS, variant=self.variant))
        rows, gold, shape, orders = self._prepare(X, y)
        for w, a in TRAINERS[self.variant](rows, gold, shape, orders):
            pass
        self.coef_, self.last_w_ = a.copy(), w.copy()
        return self


def _as_array(labels):
    """Labels as a 1-D array (object dtype when NumPy would make them 2-D, e.g. tuples)."""
    array = np.array(labels)
    if array.ndim != 1:
        array = np.empty(len(labels), dtype=object)
        array[:] = labels
    return array


def _lazy_run(X, y, max_epoch, seed):
    """A prepared model (classes_, feature columns) and the generator of its lazy epochs."""
    max_epoch = check_int(max_epoch, "max_epoch", 1)
    if isinstance(X, (list, tuple)) or np.ndim(X) >= 1:  # else the model's checks name X
        check_steps(max_epoch, "max_epoch", len(X))
    model = AveragedPerceptron(n_epochs=max_epoch, seed=seed)
    rows, gold, shape, orders = model._prepare(X, y)
    return model, lazy_epochs(rows, gold, shape, orders)


@finite_arguments
def weights_by_epoch(X, y, max_epoch, seed=0):
    """One lazy run of max_epoch epochs; yields (classes, w, a) after each epoch (w, a copied).

    Epoch k's w and a are the coef_ of Perceptron and AveragedPerceptron fitted with n_epochs=k.
    """
    model, epochs = _lazy_run(X, y, max_epoch, seed)
    for w, a in epochs:
        yield model.classes_, w.copy(), a.copy()


@finite_arguments
def accuracy_by_epoch(X, y, X_held, y_held, max_epoch, seed=0):
    """Held-out accuracy after each epoch 1..max_epoch of the plain and the averaged perceptron.

    One lazy run: returns (plain, averaged), two arrays of length max_epoch. Used to choose
    MAX_EPOCH on held-out data.
    """
    model, epochs = _lazy_run(X, y, max_epoch, seed)
    held = sparse_rows(X_held, model._columns, name="X_held")[0]
    y_held = np.asarray(y_held)
    if y_held.ndim != 1 or len(y_held) != len(held):
        raise ValueError(_("y_held must be 1-D with one label per row of X_held ({n_held}); got "
                           "shape {shape}.").format(n_held=len(held), shape=y_held.shape))
    n_columns = len(model._columns)
    dense_held = None
    if len(held) * n_columns <= 20_000_000 and all(x.dtype.kind == "i" for _, x in held):
        dense_held = np.zeros((len(held), n_columns), dtype=np.int64)  # exact integer scores at once
        for i, (idx, x) in enumerate(held):
            dense_held[i, idx] = x
    plain, averaged = [], []
    for w, a in epochs:
        for weights, out in ((w, plain), (a, averaged)):
            if dense_held is not None and weights.dtype.kind == "i":
                predicted = model.classes_[np.argmax(dense_held @ weights.T, axis=1)]
            else:
                predicted = model.classes_[[predict_one(weights, idx, x) for idx, x in held]]
            out.append(float(np.mean(predicted == y_held)))
    return np.array(plain), np.array(averaged)
