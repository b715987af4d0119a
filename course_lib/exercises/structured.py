"""Self-checks for the exercises of chapter 10 (training structured SVMs).

Coding exercises are checked by `harness.check_function` on fresh random cases against the
library; while the student's function runs, only `model.loss` and `model.joint_feature` work
(the library's oracle, hinge, learners and these checks refuse to run). Numbers are checked by
`harness.check_number`. Every check returns a Verdict ("Not yet: <reason>" for any input it
cannot accept, never a traceback).
"""

import functools
import math

import numpy as np

from course_lib.exercises import Verdict
from course_lib.exercises.harness import (Choice, check_function, check_number, is_the_data, limited_tries,
                                          value_and_reason)
from course_lib.exercises.seal import seal
from course_lib.i18n import N_, _
from course_lib.structured.learners import OneSlackSSVM, SubgradientSSVM
from course_lib.structured.models import MulticlassModel, toy_hierarchy
from course_lib.structured.ssvm_base import BaseSSVM

COST = np.array([[0, 1, 2, 2], [1, 0, 2, 2], [2, 2, 0, 1], [2, 2, 1, 0]], dtype=float)


def hierarchy_model():
    X, y = toy_hierarchy(n=8, seed=0)
    return MulticlassModel(4, cost=COST).initialize(X, y)


def _allowed(model):
    """What the student may call: the model's Delta and Psi."""
    return (model.loss, model.joint_feature)


def _hinge_cases(rng, n=30):
    """Random w, and in every third case a w under which y wins by more than the largest Delta
    (a hinge of 0, the max reached at y' = y)."""
    model = hierarchy_model()
    X, y = toy_hierarchy(n=n, seed=int(rng.integers(1_000_000)))
    cases = []
    for k in range(n):
        w = rng.normal(scale=rng.choice([0.1, 1.0, 5.0]), size=model.size_joint_feature)
        if k % 3 == 0:
            psi = model.joint_feature(X[k], int(y[k]))
            w = 0.01 * w + rng.uniform(3.0, 5.0) * psi / (psi @ psi)
        cases.append(dict(model=model, x=X[k], y=int(y[k]), w=w))
    return cases


def _show(case):
    return (_("x = {x}, y = {y}, w = {w} (4 classes cat, dog, "
            "car, bus; Δ = half the tree distance)").format(
                x=np.round(case['x'], 3), y=case['y'], w=np.round(case['w'], 3)))


def _reference_hinge(model, x, y, w, rescaling):
    y_bar = model.loss_augmented_inference(x, y, w, rescaling)
    gap = float(w @ model.joint_feature(x, y_bar) - w @ model.joint_feature(x, y))
    return model.loss(y, y_bar) + gap if rescaling == "margin" else model.loss(y, y_bar) * (1.0 + gap)


def check_margin_hinge(margin_hinge, seed=None):
    """Exercise (slides, S5): margin_hinge(model, x, y, w) =
    max_{y'} [Delta(y, y') + <w, Psi(x, y')>] - <w, Psi(x, y)>, by enumeration of y' in range(4)."""
    return check_function(
        margin_hinge, _hinge_cases, lambda **c: _reference_hinge(**c, rescaling="margin"), seed=seed,
        allowed=_allowed(hierarchy_model()), show=_show,
        hint=_("Loop over y' in range(4), keep the largest `model.loss(y, y') + w @ model.joint_feature(x, y')`, "
             "then subtract `w @ model.joint_feature(x, y)`. y' = y is one of the candidates."),
        right=_("Your hinge agrees with the definition on 30 fresh random (x, y, w). It is ≥ Δ(y, ŷ): "
              "y' = ŷ is one candidate of the max, and ⟨w, Ψ(x, ŷ)⟩ ≥ ⟨w, Ψ(x, y)⟩."))


def check_slack_hinge(slack_hinge, seed=None):
    """Exercise (S6): slack_hinge(model, x, y, w) = max_{y'} Delta(y, y') (1 + <w, Psi(x, y')> - <w, Psi(x, y)>)."""
    return check_function(
        slack_hinge, _hinge_cases, lambda **c: _reference_hinge(**c, rescaling="slack"), seed=seed,
        allowed=_allowed(hierarchy_model()), show=_show,
        hint=_("The loss multiplies the whole bracket 1 + ⟨w, Ψ(x, y')⟩ - ⟨w, Ψ(x, y)⟩; at y' = y the term is 0."),
        right=_("Your slack-rescaled hinge agrees on 30 fresh random cases: at y' = ŷ its term is "
              "Δ(y, ŷ) (1 + a non-negative gap) ≥ Δ(y, ŷ)."))


def _plane_cases(rng, n_cases=12):
    model = hierarchy_model()
    cases = []
    for _ in range(n_cases):
        X, y = toy_hierarchy(n=int(rng.integers(4, 9)), seed=int(rng.integers(1_000_000)))
        cases.append(dict(model=model, X=X, Y=[int(v) for v in y],
                          w=rng.normal(scale=rng.choice([0.1, 1.0, 3.0]), size=model.size_joint_feature)))
    return cases


def _reference_plane(model, X, Y, w):
    """The library's answer: the one-slack plane (a, b) at w, margin rescaling."""
    learner = BaseSSVM(model)
    planes = [learner.constraint(x, y, model.loss_augmented_inference(x, y, w)) for x, y in zip(X, Y)]
    return np.mean([a for a, _ in planes], axis=0), float(np.mean([b for _, b in planes]))


def _show_plane(case):
    return (_("n = {n} examples with labels "
            "Y = {Y}, w = {w}").format(n=len(case['Y']), Y=case['Y'], w=np.round(case['w'], 2)))


def check_cutting_plane(student_cutting_plane, seed=None):
    """Exercise (S9, S11): one cutting-plane step of the one-slack learner: at w, the oracle's
    outputs y_bar_i by enumeration, then a = 1/n sum_i (Psi(x_i, y_i) - Psi(x_i, y_bar_i)) and
    b = 1/n sum_i Delta(y_i, y_bar_i); return (a, b)."""
    return check_function(
        student_cutting_plane, _plane_cases, _reference_plane, seed=seed, allowed=_allowed(hierarchy_model()),
        show=_show_plane,
        hint=_("For each example, ȳᵢ maximises `model.loss(y[i], c) + w @ model.joint_feature(x[i], c)` over "
             "c in range(4). a averages Ψ(xᵢ, yᵢ) - Ψ(xᵢ, ȳᵢ) (truth minus oracle), b averages the losses."),
        right=_("Your plane agrees with the one-slack learner's on 12 fresh random problems: "
              "b - ⟨a, w⟩ is the mean hinge at w, and b - ⟨a, v⟩ ≤ the mean hinge at every v."))


# -- stochastic subgradient, the slides' Algorithm 2 ("en TME !") [S8] ---------------------------

def _ssg_cases(rng, n_cases=6):
    model = hierarchy_model()
    cases = []
    for _ in range(n_cases):
        X, y = toy_hierarchy(n=int(rng.integers(6, 13)), seed=int(rng.integers(1_000_000)))
        cases.append(dict(model=model, X=X, Y=[int(v) for v in y], C=float(rng.choice([0.5, 2.0, 10.0])),
                          n_epochs=int(rng.integers(1, 5)), seed=int(rng.integers(1_000_000))))
    return cases


def _reference_ssg(model, X, Y, C, n_epochs, seed):
    """The library's Algorithm 2 (eta_t = 1/t) and P(w) before the first and after every epoch."""
    learner = SubgradientSSVM(model, C=C, variant="stochastic", n_epochs=n_epochs, learning_rate=1.0,
                              history_every=1, seed=seed).fit(X, Y)
    return learner.w_, np.array(learner.history_["primal"])


def _show_ssg(case):
    return (_("n = {n} examples, labels Y = {Y}, C = {C:g}, "
            "`n_epochs` = {n_epochs}, seed = {seed}").format(
                n=len(case['Y']), Y=case['Y'], C=case['C'], n_epochs=case['n_epochs'], seed=case['seed']))


def _compare_ssg(expected, got):
    from course_lib.exercises.harness import default_compare

    w, primal = expected
    if not isinstance(got, (tuple, list)) or len(got) != 2:
        return _("return a tuple of two values: (w, primal)")
    reason = default_compare(primal, got[1], atol=1e-8, rtol=1e-6)
    if reason:
        return _("primal, the list P(w₀), P(w₁), ..., P(w at epoch T) after each epoch: {reason}").format(
            reason=reason)
    reason = default_compare(w, got[0], atol=1e-8, rtol=1e-6)
    return _("the final w: {reason}").format(reason=reason) if reason else None


def check_stochastic_subgradient(student_ssg, seed=None):
    """Exercise (S8, the slides' Algorithm 2): student_ssg(model, X, Y, C, n_epochs, seed) returns
    (w, primal), w after n_epochs epochs of w <- w - eta_t (w + C g_i), eta_t = 1/t (t counts
    the updates), the examples of each epoch in the order `rng.permutation(n)` of
    `rng = np.random.default_rng(seed)`; primal[e] = P(w) after e epochs (e = 0..n_epochs).
    Checked against the library's SubgradientSSVM on fresh random problems."""
    return check_function(
        student_ssg, _ssg_cases, _reference_ssg, seed=seed, compare=_compare_ssg, allowed=_allowed(hierarchy_model()),
        show=_show_ssg, what=N_("stochastic subgradient"),
        hint=_("Three usual slips: the generator is drawn once, before the first epoch (one per epoch repeats "
             "the same order); t counts the updates over all the epochs, not the epochs; `primal` has `n_epochs` + 1 "
             "values, P(w) at w = 0 first, then after each epoch, with the mean of the hinges times C."),
        right=_("Your Algorithm 2 gives the library's w and P(w) on every fresh problem. P(w) alone does not say "
              "how far you are from the optimum: the next cell measures it against a certified lower bound."))


def certified_lower_bound(X, Y, C):
    """A lower bound on min P: the dual value of the one-slack learner's working-set QP, trained
    to a small tolerance (every cutting plane lies below the risk)."""
    learner = OneSlackSSVM(hierarchy_model(), C=C, tol=1e-4).fit(X, Y)
    return float(learner.history_["dual"][-1])


@functools.lru_cache(maxsize=1)
def _certified_run():
    """(P(w_e) for e = 0..30, the certified lower bound) of the exercise's run: Algorithm 2 on
    toy_hierarchy(n=40, seed=3) with C = 10, seed 0."""
    X, y = toy_hierarchy(n=40, seed=3)
    Y = [int(v) for v in y]
    _, primal = _reference_ssg(hierarchy_model(), X, Y, 10.0, 30, 0)
    return primal, certified_lower_bound(X, Y, 10.0)


GAP_PREDICTIONS = (
    Choice("Yes: every update steps against a subgradient, so P(w) goes down at every epoch", False,
           "The update follows the subgradient of one example's hinge, not of P: a step that helps that example "
           "can raise the hinges of the others, and P(w) with them. Print the gaps: some epochs end higher than "
           "the one before."),
    Choice("Yes, after the first epochs: the steps 1/t get small, so the run settles", False,
           "Smaller steps move w less, but each one still follows one example and not P: the gap goes up and "
           "down to the last epoch, by less and less."),
    Choice("No: the lower bound D changes from one epoch to the next", False,
           "D is computed once, by the one-slack learner, before the run: it does not depend on the epochs. What "
           "moves is P(wₑ)."),
    Choice("No: each update follows one example's subgradient, not P's, so P(wₑ), and the gap with it, can go up "
           "from one epoch to the next", True,
           "The gap shrinks overall, as the steps 1/t get smaller, but not at every epoch: that is why the "
           "certified gap, not the last P(w), says when the run is close enough."),
)


@limited_tries(data=("X", "Y", "C", "seed", "n_epochs"))
def check_certified_epochs(first_epoch, X, Y, C, seed, n_epochs, prediction=None):
    """The first epoch e whose P(w_e) is certified within 10% of min P, that is
    P(w_e) <= 1.1 * the one-slack lower bound, for Algorithm 2 run on the exercise's problem (the
    arguments must be it: `toy_hierarchy(n=40, seed=3)`, C = 10, seed 0, 30 epochs), then the
    prediction made before running (a letter of GAP_PREDICTIONS): does the gap shrink at every
    epoch? The epoch is a number any run of the library's learner prints; the prediction is not."""
    return value_and_reason(_check_certified_epoch(first_epoch, X, Y, C, seed, n_epochs), prediction,
                            GAP_PREDICTIONS, _("The epoch is right. Your prediction: {why}"),
                            hint=_("Does a step on one example's hinge lower the sum of all the hinges?"))


def _check_certified_epoch(first_epoch, X, Y, C, seed, n_epochs):
    within = 0.10  # the exercise's numbers
    X_gap, y_gap = toy_hierarchy(n=40, seed=3)
    if not (is_the_data(X, X_gap) and is_the_data(Y, y_gap) and is_the_data([C, seed, n_epochs], [10.0, 0, 30])):
        return Verdict(False, _("The check is about the exercise's run: pass `X_gap, Y_gap, C=10.0, seed=0, n_epochs=30` "
                              "as the cell gives them."))
    if first_epoch is None or first_epoch is Ellipsis:
        return Verdict(False, _("Replace `...` with the epoch number (an integer), or None if no epoch reaches it."))
    try:
        value = float(first_epoch)
    except (TypeError, ValueError):
        return Verdict(False, _("The answer is an epoch number: a whole number such as 7."))
    if not math.isfinite(value) or value != int(value):
        return Verdict(False, _("The answer is an epoch number: a whole number such as 7."))
    primal, lower = _certified_run()
    expected = int(np.flatnonzero(primal <= (1 + within) * lower)[0])
    if int(value) == expected:
        return Verdict(True, _("Epoch {expected}: P(w) = {primal:.4f} ≤ {within:g} × {lower:.4f}. "
                             "The bound certifies the gap without knowing P*; P(w) itself "
                             "goes up and down from one epoch to the next.").format(
                                 expected=expected, primal=primal[expected], within=1 + within, lower=lower))
    if int(value) > expected:
        return Verdict(False, _("An earlier epoch is already within the bound: find the first e with "
                              "gap[e] ≤ 0.10."))
    return Verdict(False, _("That epoch is not yet within the bound: compare P(wₑ) with 1.1 times the lower bound."))


@limited_tries
def check_constraint_counts(log10_formulation_2, log10_formulation_3):
    """Exercise (S7): for n images of `pixels` pixels with `labels` labels per pixel, log10 of
    the number of linear constraints of formulation 2 (n |Y|) and of formulation 3 (|Y|^n)."""
    n, pixels, labels = 30, 100, 3  # the exercise's numbers
    log_y = pixels * math.log10(labels)
    f2 = check_number(log10_formulation_2, math.log10(n) + log_y, atol=0.01, rtol=0,
                      diagnoses=((pixels * math.log10(2) + math.log10(n), _("That is for 2 labels per pixel: |Y| = 3¹⁰⁰ here.")),
                                 (log_y, _("That is |Y| alone: formulation 2 has one constraint per example *and* output."))),
                      hint=_("|Y| = 3¹⁰⁰, so log10 |Y| = 100 log10 3; log10(n |Y|) = log10 n + log10 |Y|."))
    if not f2:
        return Verdict(False, _("Formulation 2: ") + f2.why, f2._hint)
    f3 = check_number(log10_formulation_3, n * log_y, atol=0.01, rtol=0,
                      diagnoses=((n + log_y, _("You added the exponents (the slides' 10¹⁷⁷ slip): log10(|Y|ⁿ) = n log10 |Y|.")),
                                 (math.log10(n) + log_y, _("That is formulation 2 again: formulation 3 has |Y|ⁿ constraints."))),
                      hint=_("log10(|Y|ⁿ) = n log10 |Y|."))
    if not f3:
        return Verdict(False, _("Formulation 3: ") + f3.why, f3._hint)
    return Verdict(True, _("log10(n |Y|) = {f2:.2f} and log10(|Y|ⁿ) = {f3:.2f}: only "
                          "working sets make formulations 2 and 3 tractable.").format(
                              f2=math.log10(n) + log_y, f3=n * log_y))


# -- concept questions (shown by `quiz(name)` in the chapter) -----------------------------------

def quiz(name):
    """The concept question `name` as a Quiz widget (QUIZZES: question, choices, several right)."""
    from course_lib.widgets.quiz import Quiz

    question, choices, multiple = QUIZZES[name]
    return Quiz(question, choices, multiple=multiple)


QUIZZES = {
    "scaled_loss": (
        N_("With margin rescaling, you multiply the task loss $\\Delta$ by 10 and keep $C$. The trained "
        "predictor is the one you would get with the original $\\Delta$ and..."),
        [
            Choice("the same C: margin rescaling is scale invariant",
                   False,
                   "The required margins become $10\\Delta$, so the optimum moves; the slide's "
                   "invariance is slack rescaling's, at a fixed $\\mathbf{w}$."),
            Choice("$C/10$, with $\\mathbf{w}$ multiplied by 10",
                   True,
                   "$H$ for $10\\Delta$ at $\\mathbf{w}$ is $10 H(\\mathbf{w}/10)$; with $\\mathbf{v} = \\mathbf{w}/10$ the objective is $100 (\\frac{1}{2}"
                   "\\|\\mathbf{v}\\|^2 + \\frac{C/10}{n} \\sum H(\\mathbf{v}))$: same argmax."),
            Choice("$10C$",
                   False,
                   "That is slack rescaling: there the loss factor multiplies the hinge, that is $C$."),
            Choice("no value of C: the predictor is new",
                   False,
                   "Scaling $\\Delta$ only rescales the problem: the same predictors are reached, at "
                   "another $C$ (section S6)."),
        ],
        False,
    ),
    "one_slack_stop": (
        N_("The one-slack learner stops when the new plane is violated by at most tol beyond $\\xi$. What "
        "do you know then?"),
        [
            Choice("$P(\\mathbf{w}) \\leq \\min P + C \\cdot \\mathrm{tol}$, certified by the dual value of the working-set QP",
                   True,
                   "Every plane lies below the risk, so the working-set optimum is a lower bound on"
                   " $\\min P$; stopping means the true risk exceeds the model by at most tol."),
            Choice("$\\mathbf{w}$ is the exact optimum",
                   False,
                   "Only up to $C \\cdot \\mathrm{tol}$: the learner stops at an $\\epsilon$-optimal point."),
            Choice("nothing: like subgradient descent, it has no stopping certificate",
                   False,
                   "Subgradient methods have none; cutting planes do, through the lower bound (the "
                   "dashed curves)."),
            Choice("the working set holds every active constraint of formulation 3",
                   False,
                   "It holds only the planes the oracle returned (a few hundred here, out of "
                   "$|\\mathcal{Y}|^n$); that suffices for an $\\epsilon$-optimal $\\mathbf{w}$."),
        ],
        False,
    ),
    "oracle_on_a_right_word": (
        N_("A training word is read correctly by inference at the current w. Loss-augmented inference "
        "on it returns..."),
        [
            Choice("always the true word, since the prediction is right",
                   False,
                   "The oracle maximises $\\Delta$ + score: a wrong word almost as good in score, with "
                   "$\\Delta > 0$, can win (14 of 15 words above)."),
            Choice("the true word exactly when every wrong word trails it by at least its loss "
                   "$\\Delta$",
                   True,
                   "Then $\\Delta(\\mathbf{y}, \\mathbf{y}') + \\langle \\mathbf{w}, \\Psi(\\mathbf{x}, \\mathbf{y}') \\rangle \\leq \\langle \\mathbf{w}, \\Psi(\\mathbf{x}, \\mathbf{y}) \\rangle$ for every $\\mathbf{y}'$: the margin "
                   "constraints hold and the hinge is 0."),
            Choice("the word with the largest loss",
                   False,
                   "The score counts too: $\\Delta$ is added to $\\langle \\mathbf{w}, \\Psi \\rangle$, not used alone."),
            Choice("the same output as inference",
                   False,
                   "Inference ignores $\\Delta$; the oracle adds it (for a chain, +1 per wrong letter)."),
        ],
        False,
    ),
    "stopped_early": (
        N_("40 epochs of stochastic subgradient end 11% above the certified lower bound on P*. What "
        "should the chapter say?"),
        [
            Choice("that the run stopped early, and report the gap",
                   True,
                   "A demo either runs to its optimum (with a certificate) or says plainly that it "
                   "stopped, as here."),
            Choice("that stochastic subgradient converges to a worse optimum",
                   False,
                   "P is strongly convex: every method has the same optimum; 11% is optimisation "
                   "error, not a different solution."),
            Choice("nothing: 11% is within the tolerance",
                   False,
                   "No tolerance was set: the run stopped at a fixed epoch count."),
        ],
        False,
    ),
}


seal(__name__)  # the checks refuse to run once what they rely on is changed
