"""Self-checks for the exercises of chapter 10 (training structured SVMs).

Coding exercises are checked by `harness.check_function` on randomized, seeded cases against the
library, with the library's answer forbidden; numbers by `harness.check_number`. Every check
returns a Verdict ("Not yet: <reason>" for any input it cannot accept, never a traceback).
"""

import math

import numpy as np

from course_lib.exercises import Verdict
from course_lib.exercises.harness import check_function, check_number
from course_lib.structured.base import augmented_score
from course_lib.structured.models import MulticlassModel, toy_hierarchy
from course_lib.structured.ssvm_base import BaseSSVM

COST = np.array([[0, 1, 2, 2], [1, 0, 2, 2], [2, 2, 0, 1], [2, 2, 1, 0]], dtype=float)
FORBIDDEN = (MulticlassModel.loss_augmented_inference, augmented_score, BaseSSVM.hinge_losses,
             BaseSSVM.constraint, BaseSSVM.objective)


def _model():
    X, y = toy_hierarchy(n=8, seed=0)
    return MulticlassModel(4, cost=COST).initialize(X, y)


def _hinge_cases(seed, n=30):
    rng = np.random.default_rng(seed)
    model = _model()
    X, y = toy_hierarchy(n=n, seed=seed + 1)
    return [dict(model=model, x=X[k], y=int(y[k]),
                 w=rng.normal(scale=rng.choice([0.1, 1.0, 5.0]), size=model.size_joint_feature))
            for k in range(n)]


def _show(case):
    return (f"x = {np.round(case['x'], 3)}, y = {case['y']}, w = {np.round(case['w'], 3)} "
            "(4 classes cat, dog, car, bus; Delta = half the tree distance)")


def _reference_hinge(model, x, y, w, rescaling):
    y_bar = model.loss_augmented_inference(x, y, w, rescaling)
    gap = float(w @ model.joint_feature(x, y_bar) - w @ model.joint_feature(x, y))
    return model.loss(y, y_bar) + gap if rescaling == "margin" else model.loss(y, y_bar) * (1.0 + gap)


def check_margin_hinge(margin_hinge):
    """Exercise (slides, S5): margin_hinge(model, x, y, w) =
    max_{y'} [Delta(y, y') + <w, Psi(x, y')>] - <w, Psi(x, y)>, by enumeration of y' in range(4)."""
    return check_function(
        margin_hinge, _hinge_cases(0), lambda **c: _reference_hinge(**c, rescaling="margin"),
        forbidden=FORBIDDEN, show=_show,
        hint="Loop over y' in range(4), keep the largest model.loss(y, y') + w @ model.joint_feature(x, y'), "
             "then subtract w @ model.joint_feature(x, y). y' = y is one of the candidates.",
        right="Your hinge agrees with the definition on 30 random (x, y, w). It is >= Delta(y, y_hat): "
              "y' = y_hat is one candidate of the max, and <w, Psi(x, y_hat)> >= <w, Psi(x, y)>.")


def check_slack_hinge(slack_hinge):
    """Exercise (S6): slack_hinge(model, x, y, w) = max_{y'} Delta(y, y') (1 + <w, Psi(x, y')> - <w, Psi(x, y)>)."""
    return check_function(
        slack_hinge, _hinge_cases(1), lambda **c: _reference_hinge(**c, rescaling="slack"),
        forbidden=FORBIDDEN, show=_show,
        hint="The loss multiplies the whole bracket 1 + <w, Psi(x, y')> - <w, Psi(x, y)>; at y' = y the term is 0.",
        right="Your slack-rescaled hinge agrees on 30 random cases: at y' = y_hat its term is "
              "Delta(y, y_hat) (1 + a non-negative gap) >= Delta(y, y_hat).")


def _plane_cases(seed, n_cases=12):
    rng = np.random.default_rng(seed)
    model = _model()
    cases = []
    for k in range(n_cases):
        X, y = toy_hierarchy(n=int(rng.integers(4, 9)), seed=seed + 10 + k)
        cases.append(dict(model=model, X=X, Y=[int(v) for v in y],
                          w=rng.normal(scale=rng.choice([0.1, 1.0, 3.0]), size=model.size_joint_feature)))
    return cases


def cutting_plane(model, X, Y, w):
    """The library's answer: the one-slack plane (a, b) at w, margin rescaling."""
    learner = BaseSSVM(model)
    planes = [learner.constraint(x, y, model.loss_augmented_inference(x, y, w)) for x, y in zip(X, Y)]
    return np.mean([a for a, _ in planes], axis=0), float(np.mean([b for _, b in planes]))


def _show_plane(case):
    return (f"n = {len(case['Y'])} examples with labels Y = {case['Y']}, "
            f"w = {np.round(case['w'], 2)}")


def check_cutting_plane(student_cutting_plane):
    """Exercise (S9, S11): one cutting-plane step of the one-slack learner: at w, the oracle's
    outputs y_bar_i by enumeration, then a = 1/n sum_i (Psi(x_i, y_i) - Psi(x_i, y_bar_i)) and
    b = 1/n sum_i Delta(y_i, y_bar_i); return (a, b)."""
    return check_function(
        student_cutting_plane, _plane_cases(2), cutting_plane, forbidden=FORBIDDEN, show=_show_plane,
        hint="For each example, y_bar_i maximises model.loss(y_i, c) + w @ model.joint_feature(x_i, c) over "
             "c in range(4). a averages Psi(x_i, y_i) - Psi(x_i, y_bar_i) (truth minus oracle), b averages the losses.",
        right="Your plane agrees with the one-slack learner's on 12 random problems: "
              "b - <a, w> is the mean hinge at w, and b - <a, v> <= the mean hinge at every v.")


def check_constraint_counts(log10_formulation_2, log10_formulation_3, n=30, pixels=100, labels=3):
    """Exercise (S7): for n images of `pixels` pixels with `labels` labels per pixel, log10 of
    the number of linear constraints of formulation 2 (n |Y|) and of formulation 3 (|Y|^n)."""
    log_y = pixels * math.log10(labels)
    f2 = check_number(log10_formulation_2, math.log10(n) + log_y, atol=0.01, rtol=0,
                      diagnoses=((pixels * math.log10(2) + math.log10(n), "That is for 2 labels per pixel: |Y| = 3^100 here."),
                                 (log_y, "That is |Y| alone: formulation 2 has one constraint per example *and* output.")),
                      hint="|Y| = 3^100, so log10 |Y| = 100 log10 3; log10(n |Y|) = log10 n + log10 |Y|.")
    if not f2:
        return Verdict(False, "Formulation 2: " + f2.why, f2._hint)
    f3 = check_number(log10_formulation_3, n * log_y, atol=0.01, rtol=0,
                      diagnoses=((n + log_y, "You added the exponents (the slides' 10^177 slip): log10(|Y|^n) = n log10 |Y|."),
                                 (math.log10(n) + log_y, "That is formulation 2 again: formulation 3 has |Y|^n constraints.")),
                      hint="log10(|Y|^n) = n log10 |Y|.")
    if not f3:
        return Verdict(False, "Formulation 3: " + f3.why, f3._hint)
    return Verdict(True, f"n |Y| = 10^{math.log10(n) + log_y:.2f} and |Y|^n = 10^{n * log_y:.2f}: only working "
                          "sets make formulations 2 and 3 tractable.")
