"""The contract between structured models and learners (the slides' decomposition).

A model provides
    joint_feature(x, y)                  Psi(x, y), a vector of length `size_joint_feature`
    loss(y, y_hat)                       Delta(y, y_hat) >= 0, zero when y_hat == y
    inference(x, w)                      argmax_y <w, Psi(x, y)>
    loss_augmented_inference(x, y, w, rescaling="margin")
        margin rescaling: argmax_y' Delta(y, y') + <w, Psi(x, y')>
        slack rescaling:  argmax_y' Delta(y, y') (1 + <w, Psi(x, y')> - <w, Psi(x, y)>)
and `initialize(X, Y)`, which checks the data and sets `size_joint_feature` before training.
A model may also give, for speed, every example at once: `batch_joint_feature(X, Y, weights)`
(sum_i weights_i Psi(x_i, y_i)), `joint_features(X, Y)` (the rows Psi(x_i, y_i)) and
`losses(Y, Y_hat)`; the base class computes them one example at a time.
"""

import numpy as np

from course_lib._validation import as_numbers, check_int, finite_arguments
from course_lib.i18n import _

RESCALINGS = ("margin", "slack")


class StructuredModel:
    """Base class: subclasses implement the four calls; `initialize` may be overridden."""

    size_joint_feature = None

    def initialize(self, X, Y):
        check_same_length(X, Y)
        if len(X) == 0:
            raise ValueError(_("X is empty: training needs at least one example."))
        return self

    def joint_feature(self, x, y):
        raise NotImplementedError

    def loss(self, y, y_hat):
        raise NotImplementedError

    def inference(self, x, w):
        raise NotImplementedError

    def loss_augmented_inference(self, x, y, w, rescaling="margin"):
        raise NotImplementedError

    def batch_joint_feature(self, X, Y, weights=None):
        """sum_i weights_i Psi(x_i, y_i) (every weight 1 by default)."""
        check_same_length(X, Y)
        weights = check_example_weights(weights, len(X))
        return sum((a * self.joint_feature(x, y) for x, y, a in zip(X, Y, weights)), np.zeros(self.size_joint_feature))


    def joint_features(self, X, Y):
        """Psi(x_i, y_i) of every example, the rows of an (m, size_joint_feature) array."""
        check_same_length(X, Y)
        return np.array([self.joint_feature(x, y) for x, y in zip(X, Y)]).reshape(len(X), -1)

    def losses(self, Y, Y_hat):
        """Delta(y_i, y_hat_i) of every example, an array."""
        check_same_length(Y, Y_hat)
        return np.array([self.loss(y, y_hat) for y, y_hat in zip(Y, Y_hat)], dtype=float)


def check_example_weights(weights, n):
    """The weights a_i of n examples as a float array (None: all 1), refused unless n finite numbers."""
    n = check_int(n, "n", 0)
    if weights is None:
        return np.ones(n)
    if np.iscomplexobj(weights):
        raise TypeError(_("weights holds complex numbers: pass one real weight per example."))
    weights = as_numbers(weights, "weights")
    if weights.shape != (n,):
        raise ValueError(_("weights must hold {n} finite numbers, one per example; got shape {shape}.").format(
            n=n, shape=weights.shape))
    if not np.all(np.isfinite(weights)):
        raise ValueError(_("weights contains NaN or inf: pass one finite weight per example."))
    return weights


def check_same_length(X, Y):
    """Refuse inputs X and outputs Y of different lengths (zip would drop the extra ones)."""
    if len(X) != len(Y):
        raise ValueError(_("X has {n_x} inputs but Y has {n_y} outputs: lengths must match.").format(
                             n_x=len(X), n_y=len(Y)))


def check_rescaling(rescaling):
    if rescaling not in RESCALINGS:
        raise ValueError(_("rescaling must be one of {RESCALINGS}; got {rescaling!r}.").format(
                             RESCALINGS=RESCALINGS, rescaling=rescaling))
    return rescaling


@finite_arguments
def augmented_score(model, x, y, y_prime, w, rescaling="margin"):
    """The quantity loss-augmented inference maximises over y' (see the module docstring)."""
    check_rescaling(rescaling)
    delta = model.loss(y, y_prime)
    psi = model.joint_feature(x, y_prime)
    if np.shape(w) != np.shape(psi):
        raise ValueError(_("w must have the shape of the joint feature Psi(x, y), {expected}; got "
                           "{shape}.").format(expected=np.shape(psi), shape=np.shape(w)))
    score = float(w @ psi)
    if rescaling == "margin":
        return delta + score
    return delta * (1.0 + score - float(w @ model.joint_feature(x, y)))


def exhaustive_argmax(candidates, score):
    """argmax over an explicit list of candidate outputs (first one wins ties): the brute-force
    reference for every inference routine, and the inference of small output sets."""
    best, best_score, seen = None, -np.inf, False
    for candidate in candidates:
        value = score(candidate)
        if np.isnan(value):
            raise ValueError(_("score gave NaN for the candidate {candidate!r}: scores must be "
                               "numbers.").format(candidate=candidate))
        if not seen or value > best_score:
            best, best_score, seen = candidate, value, True
    if not seen:
        raise ValueError(_("candidates is empty: the argmax needs at least one candidate output."))
    return best
