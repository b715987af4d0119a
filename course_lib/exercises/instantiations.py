"""Self-checks for the chapter 12 exercises (instantiations of the structured SVM, S13-S17).

Each check returns a Verdict: true when the answer is right, and shown with its reason.
"""

import numpy as np

from course_lib.exercises import Verdict as _verdict
from course_lib.structured.models import HierarchicalModel
from course_lib.structured.ranking import RankingModel, auc, relevance_matrix

EXERCISE_TREE = {"root": ["animal", "vehicle"], "animal": ["mammal", "bird"],
                 "mammal": ["cat", "dog"], "vehicle": ["car", "bus"]}


def _unanswered(*answers):
    return any(a is None or a is Ellipsis for a in answers)


def check_binary_ssvm(answer_y_hat, answer_hinge, w=(1.0, -2.0), x=(0.5, 0.5), y=1):
    """Exercise 1 [S13]: with Psi(x, y) = y x / 2 and the 0-1 loss, the prediction
    y_hat = argmax_y <w, Psi(x, y)> and the margin-rescaled structured hinge at (x, y)."""
    if _unanswered(answer_y_hat, answer_hinge):
        return _verdict(False, "Replace both `...`: the predicted label (-1 or +1) and the hinge.")
    w, x = np.asarray(w, float), np.asarray(x, float)
    score = float(w @ x)
    y_hat = 1 if score >= 0 else -1
    hinge = max(0.0, 1.0 - y * score)
    why = (f"<w, Psi(x, +1)> - <w, Psi(x, -1)> = <w, x> = {score:g}, so y_hat = sign(<w, x>) = "
           f"{y_hat:+d}; the hinge max_y' [Delta + <w, Psi(x, y')>] - <w, Psi(x, y)> compares "
           f"y' = y (0) with y' = -y (1 - y <w, x>), so it is max(0, 1 - y <w, x>) = {hinge:g}: "
           "the SVM hinge.")
    if answer_y_hat != y_hat:
        return _verdict(False, "The prediction is wrong: compare <w, Psi(x, +1)> = <w, x>/2 with "
                               "<w, Psi(x, -1)> = -<w, x>/2.")
    if np.isclose(answer_hinge, max(0.0, 1.0 - y * score / 2)):
        return _verdict(False, "You kept the factor 1/2 of Psi: the difference "
                               "Psi(x, y) - Psi(x, -y) = y x has none.")
    return _verdict(np.isclose(answer_hinge, hinge), why if np.isclose(answer_hinge, hinge) else
                    "Write the two candidates y' = y and y' = -y of the max and compare them.")


def check_two_class_crammer_singer(answer_w, w0=(1.0, 2.0), w1=(-1.0, 0.5)):
    """Exercise 2 [S14]: the binary weight vector equivalent to a two-class Crammer-Singer w =
    (w_0, w_1), label 1 read as +1 and label 0 as -1."""
    if _unanswered(answer_w):
        return _verdict(False, "Replace `...` with a vector of the same length as w_0.")
    expected = np.asarray(w1, float) - np.asarray(w0, float)
    ok = np.allclose(np.asarray(answer_w, float), expected)
    why = (f"argmax_y <w_y, x> is label 1 iff <w_1 - w_0, x> >= 0, and the Crammer-Singer hinge "
           f"max(0, 1 - <w_y - w_other, x>) is the binary hinge of w_1 - w_0 = "
           f"{expected.tolist()}.")
    if not ok and np.allclose(np.asarray(answer_w, float), -expected):
        return _verdict(False, "Opposite sign: label 1 (+1) must win when the binary score is "
                               "positive.")
    return _verdict(ok, why if ok else
                    "Write the decision rule <w_1, x> >= <w_0, x> as one inner product.")


def check_tree_delta(answer, tree=EXERCISE_TREE):
    """Exercise 3 [S15]: the matrix Delta(y, y') = tree distance / 2 for the leaves of `tree`,
    in the order cat, dog, bird, car, bus."""
    model = HierarchicalModel(tree)
    if _unanswered(answer):
        return _verdict(False, f"Replace `...` with a {model.n_classes} x {model.n_classes} matrix "
                               f"(rows and columns {model.classes_}).")
    expected = model.delta_matrix()
    answer = np.asarray(answer, dtype=float)
    if answer.shape != expected.shape:
        return _verdict(False, f"The matrix must be {expected.shape}, one row per class "
                               f"{model.classes_}.")
    if np.allclose(answer, 2 * expected):
        return _verdict(False, "Those are the tree distances: the slides' Delta is half of them.")
    rows, cols = np.nonzero(~np.isclose(answer, expected))
    wrong = [(model.classes_[i], model.classes_[j]) for i, j in zip(rows, cols)]
    if wrong:
        a, b = wrong[0]
        return _verdict(False, f"Delta({a}, {b}) is off: count the edges from {a} up to the lowest "
                               f"common ancestor and down to {b}, then halve.")
    return _verdict(True, "Count edges through the lowest common ancestor and halve: cat-dog 1, "
                          "cat-bird 1.5 (the bird hangs one level higher), cat-car 2.5, car-bus 1.")


def check_auc_oracle(answer_delta, answer_swapped, r=(1, -1, 1, -1, -1),
                     s=(2.0, 1.8, 0.5, 0.2, 1.0)):
    """Exercise 4 [S17]: for relevances r and scores s = <w, phi(o_i)>, Delta = 1 - AUC of the
    ranking by s, and the number of (relevant, irrelevant) pairs that margin-rescaled
    loss-augmented inference orders wrongly."""
    if _unanswered(answer_delta, answer_swapped):
        return _verdict(False, "Replace both `...`: 1 - AUC (a number in [0, 1]) and a pair count.")
    r, s = np.asarray(r, float), np.asarray(s, float)
    delta = 1.0 - auc(r, s)
    model = RankingModel()
    Phi = s[:, None]  # one feature, w = 1: the scores themselves
    Y_bar = model.loss_augmented_inference(Phi, r, np.ones(1))
    swapped = int(np.sum((Y_bar == -1) & (relevance_matrix(r) == 1)))
    if not np.isclose(answer_delta, delta):
        return _verdict(False, "1 - AUC is the fraction of the (relevant, irrelevant) pairs whose "
                               "irrelevant item scores higher: count them over |+| |-| pairs.")
    if answer_swapped != swapped:
        return _verdict(False, "A pair (i, j) gains Delta 1/|P| and loses (s_i - s_j)/|P| when "
                               "swapped, so the oracle swaps exactly the pairs with "
                               "s_i - s_j < 1/2.")
    return _verdict(True, f"1 - AUC = {delta:.4f}; the oracle swaps the {swapped} pairs with "
                          "s_i - s_j < 1/2 (already wrong ones included), i.e. it sorts "
                          "s_i - 1/4 (relevant) against s_j + 1/4 (irrelevant).")
