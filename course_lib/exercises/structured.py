"""Self-checks for the exercises of chapter 10 (training structured SVMs).

Each `check_*` takes the student's function or number, tests it against the definition on
small enumerable problems, prints why it is right or wrong, and returns True or False.
"""

import math

import numpy as np

from course_lib.structured.base import augmented_score


def _say(ok, message):
    print(("Right: " if ok else "Not yet: ") + message)
    return ok


def _random_cases(model, X, Y, n_weights, seed):
    rng = np.random.default_rng(seed)
    model.initialize(X, Y)
    for _ in range(n_weights):
        w = rng.normal(scale=rng.choice([0.1, 1.0, 5.0]), size=model.size_joint_feature)
        for x, y in zip(X, Y):
            yield w, x, y


def check_margin_hinge(margin_hinge, model, X, Y, candidates, n_weights=20, seed=0):
    """Exercise (slides, margin rescaling): margin_hinge(model, x, y, w) must return
    max_{y'} [Delta(y, y') + <w, Psi(x, y')>] - <w, Psi(x, y)>; then it is an upper bound on
    Delta(y, y_hat(x, w)) and convex in w. Checked on random w against enumeration of `candidates`."""
    for w, x, y in _random_cases(model, X, Y, n_weights, seed):
        expected = max(augmented_score(model, x, y, c, w) for c in candidates) - float(w @ model.joint_feature(x, y))
        got = float(margin_hinge(model, x, y, w))
        if not np.isclose(got, expected, rtol=1e-9, atol=1e-9):
            return _say(False, f"for one (x, y, w) your hinge is {got:.6g}, the definition gives "
                               f"{expected:.6g}. Maximise Delta(y, y') + <w, Psi(x, y')> over every y' "
                               "(y' = y included), then subtract <w, Psi(x, y)>.")
        y_hat = model.inference(x, w)
        if got < model.loss(y, y_hat) - 1e-9:
            return _say(False, "the value is below Delta(y, y_hat): check the sign of the last term.")
    # convexity along random segments
    rng = np.random.default_rng(seed + 1)
    for w, x, y in _random_cases(model, X, Y, 3, seed + 2):
        v = rng.normal(size=w.shape)
        t = rng.uniform()
        mid = margin_hinge(model, x, y, t * w + (1 - t) * v)
        if mid > t * margin_hinge(model, x, y, w) + (1 - t) * margin_hinge(model, x, y, v) + 1e-9:
            return _say(False, "not convex along a segment: a max of affine functions of w is convex.")
    return _say(True, "H(w) = max_y' [Delta + <w, Psi(x, y')>] - <w, Psi(x, y)> >= Delta(y, y_hat) because "
                      "y' = y_hat is one candidate and <w, Psi(x, y_hat)> >= <w, Psi(x, y)> (y_hat maximises the "
                      "score); it is convex as a max of affine functions of w minus a linear one.")


def check_slack_hinge(slack_hinge, model, X, Y, candidates, n_weights=20, seed=0):
    """Exercise: slack_hinge(model, x, y, w) = max_{y'} Delta(y, y') (1 + <w, Psi(x, y')> -
    <w, Psi(x, y)>), also an upper bound on Delta(y, y_hat(x, w))."""
    for w, x, y in _random_cases(model, X, Y, n_weights, seed):
        expected = max(augmented_score(model, x, y, c, w, rescaling="slack") for c in candidates)
        got = float(slack_hinge(model, x, y, w))
        if not np.isclose(got, expected, rtol=1e-9, atol=1e-9):
            return _say(False, f"for one (x, y, w) your value is {got:.6g}, the definition gives {expected:.6g}.")
    return _say(True, "at y' = y_hat the term is Delta(y, y_hat) (1 + <w, Psi(x, y_hat)> - <w, Psi(x, y)>) "
                      ">= Delta(y, y_hat), since y_hat has the largest score.")


def check_constraint_counts(formulation_2, formulation_3, n=100, pixels=256):
    """Exercise (slides, three formulations): for n binary images of `pixels` pixels, the number of
    linear constraints of formulation 2 (n |Y|) and of formulation 3 (|Y|^n), with |Y| = 2^pixels.
    Give exact integers (Python ints are unbounded)."""
    size = 2 ** pixels
    ok2, ok3 = formulation_2 == n * size, formulation_3 == size ** n
    if not ok2:
        return _say(False, f"formulation 2 has one constraint per example and output: n |Y| = {n} x 2^{pixels}.")
    if not ok3:
        return _say(False, "formulation 3 has one constraint per choice of (y_hat_1, ..., y_hat_n): |Y|^n.")
    return _say(True, f"n |Y| = 10^{math.log10(formulation_2):.2f} and |Y|^n = 10^{pixels * n * math.log10(2):.1f}.")


def check_binary_inference(predict, n_trials=200, seed=0):
    """Exercise (slides, binary instance Psi(x, y) = y x / 2): predict(w, x) must return
    argmax_{y in {-1, +1}} <w, y x / 2>."""
    rng = np.random.default_rng(seed)
    for _ in range(n_trials):
        w, x = rng.normal(size=3), rng.normal(size=3)
        expected = 1 if w @ x >= 0 else -1
        if predict(w, x) != expected:
            return _say(False, f"for <w, x> = {w @ x:.3f} the argmax of y <w, x> / 2 is {expected:+d}.")
    return _say(True, "<w, Psi(x, +1)> - <w, Psi(x, -1)> = <w, x>, so y_hat = sign(<w, x>): the linear "
                      "SVM, and the structured hinge becomes max(0, 1 - y <w, x>).")
