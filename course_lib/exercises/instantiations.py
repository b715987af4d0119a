"""Self-checks for the chapter 12 exercises (instantiations of the structured SVM, S13-S17).

Each check returns a Verdict: "Not yet: <reason>" for any input it cannot accept (never a
traceback) and never the expected value before a correct answer.
"""

import numpy as np

from course_lib.exercises import Verdict
from course_lib.exercises.harness import (Choice, check_function, check_number, default_compare, limited_tries,
                                          value_and_reason)
from course_lib.exercises.seal import seal
from course_lib.i18n import N_, _
from course_lib.structured.models import tree_distance
from course_lib.structured.ranking import RankingModel, auc, order_matrix, relevance_matrix

EXERCISE_TREE = {"root": ["animal", "vehicle"], "animal": ["mammal", "bird"],
                 "mammal": ["cat", "dog"], "vehicle": ["car", "bus"]}


def _prefixed(prefix, verdict):
    return verdict if verdict else Verdict(False, prefix + verdict.why, verdict._hint)


BINARY_HINGE_REASONS = (
    Choice("The hinge is never 0: it always adds Δ = 1", False,
           "With y' = y the bracket is 0, so the hinge is 0 as soon as the other output scores at least 1 below "
           "the true one; here it falls short of that by 0.5."),
    Choice("ŷ is wrong, so the hinge pays Δ(y, ŷ)", False,
           "ŷ = sign⟨w, x⟩ = -1 = y: the prediction is right. The hinge pays for the margin, not for an error."),
    Choice("The factor 1/2 of Ψ halves the loss", False,
           "The 1/2 cancels: ⟨w, Ψ(x, -y) - Ψ(x, y)⟩ = -y ⟨w, x⟩, the plain margin with its sign."),
    Choice("The prediction is right, but its margin y ⟨w, x⟩ = 0.5 is below 1: with the 0-1 loss and Ψ = y x / 2 "
           "the structured hinge is the binary hinge max(0, 1 - y ⟨w, x⟩)", True,
           "The candidate y' = -y gives 1 + ⟨w, Ψ(x, -y) - Ψ(x, y)⟩ = 1 - y ⟨w, x⟩ = 0.5: the SVM asks for a margin "
           "of 1, not only for the right sign."),
)


@limited_tries
def check_binary_ssvm(answer_y_hat, answer_hinge, reason=None):
    """Exercise 1 [S13]: with Psi(x, y) = y x / 2 and the 0-1 loss, the prediction
    y_hat = argmax_y <w, Psi(x, y)> and the margin-rescaled structured hinge at (x, y), then the
    reason (a letter of BINARY_HINGE_REASONS) the hinge is not 0 although y_hat = y: the chapter's
    BinaryModel gives both numbers in two calls, not the reason."""
    return value_and_reason(_check_binary_ssvm_values(answer_y_hat, answer_hinge), reason, BINARY_HINGE_REASONS,
                            _("ŷ and the hinge are right. Your reason: {why}"),
                            hint=_("Is ŷ right? Then what does the max still compare?"))


def _check_binary_ssvm_values(answer_y_hat, answer_hinge):
    w, x, y = (2.0, -1.0), (0.5, 1.5), -1  # the exercise's numbers
    w, x = np.asarray(w, float), np.asarray(x, float)
    score = float(w @ x)
    y_hat = 1.0 if score >= 0 else -1.0
    hinge = max(0.0, 1.0 - y * score)
    first = check_number(answer_y_hat, y_hat, diagnoses=((-y_hat, _("Opposite sign: compare ⟨w, Ψ(x, +1)⟩ = ⟨w, x⟩/2 "
                                                                    "with ⟨w, Ψ(x, -1)⟩ = -⟨w, x⟩/2.")),),
                         hint=_("Compute ⟨w, x⟩ first."))
    if not first:
        return _prefixed(_("The prediction: "), first)
    second = check_number(answer_hinge, hinge,
                          diagnoses=((max(0.0, 1.0 - y * score / 2), _("You kept the factor 1/2 of Ψ: the difference "
                                                                     "Ψ(x, y) - Ψ(x, -y) = y x has none.")),
                                     (max(0.0, 1.0 + y * score), _("Sign slip: the hinge is max(0, 1 - y ⟨w, x⟩).")),
                                     (0.0, _("The prediction is right, but the margin y ⟨w, x⟩ is below 1: the hinge is not 0."))),
                          hint=_("Write the two candidates y' = y (value 0) and y' = -y of the max and compare them."))
    if not second:
        return _prefixed(_("The hinge: "), second)
    return Verdict(True, _("⟨w, x⟩ = {score:g}, so ŷ = sign(⟨w, x⟩) = {y_hat:+.0f}; the max compares y' "
                         "= y (0) with y' = -y (1 - y ⟨w, x⟩), so the hinge is max(0, 1 - y ⟨w, x⟩) = {hinge:g}: "
                         "the SVM hinge (a correct prediction inside the margin still pays).").format(
                             score=score, y_hat=y_hat, hinge=hinge))


@limited_tries
def check_two_class_crammer_singer(answer_w):
    """Exercise 2 [S14]: the binary weight vector equivalent to a two-class Crammer-Singer w =
    (w_0, w_1), label 1 read as +1 and label 0 as -1."""
    w0, w1 = (1.0, 2.0), (-1.0, 0.5)  # the exercise's numbers
    expected = np.asarray(w1, float) - np.asarray(w0, float)
    return check_number(answer_w, expected,
                        diagnoses=((-expected, _("Opposite sign: label 1 (+1) must win when the binary score is positive.")),
                                   (np.asarray(w1, float) + np.asarray(w0, float), _("A sum: the rule compares the two scores."))),
                        hint=_("Write the decision rule ⟨w₁, x⟩ ≥ ⟨w₀, x⟩ as one inner product."),
                        right=_("argmax over y of ⟨w[y], x⟩ is label 1 iff ⟨w₁ - w₀, x⟩ ≥ 0, and the Crammer-Singer hinge "
                              "max(0, 1 - ⟨w[y] - w[other], x⟩) is the binary hinge of w₁ - w₀ = {w}.").format(
                                  w=expected.tolist()))


# --- coding: Delta from a class tree --------------------------------------------------------------
def _parents(tree):
    """{child: parent} of a tree given as {node: [children]}."""
    return {child: node for node, children in tree.items() for child in children}


def _random_tree(rng):
    """(parent, classes): a random tree of 4 to 12 nodes grown by attaching each new node to a
    random earlier one, and its leaves (at least two) in a random order."""
    while True:
        n_nodes = int(rng.integers(4, 13))
        parent = {f"n{k}": f"n{int(rng.integers(0, k))}" for k in range(1, n_nodes)}
        leaves = [f"n{k}" for k in range(1, n_nodes) if f"n{k}" not in parent.values()]
        if len(leaves) >= 2:
            return parent, [str(leaf) for leaf in rng.permutation(leaves)]


def _tree_cases(rng, n_cases=20):
    """The exercise's tree first (classes cat, dog, bird, car, bus), then random trees."""
    cases = [dict(parent=_parents(EXERCISE_TREE), classes=["cat", "dog", "bird", "car", "bus"])]
    for _ in range(n_cases - 1):
        parent, classes = _random_tree(rng)
        cases.append(dict(parent=parent, classes=classes))
    return cases


def _reference_tree_delta(parent, classes):
    """Delta(a, b) = tree distance / 2 for every pair of classes (the library's tree_distance)."""
    return np.array([[tree_distance(parent, a, b) / 2.0 for b in classes] for a in classes])


def _show_tree(case):
    return f"parent = {case['parent']}, classes = {case['classes']}"


def check_tree_delta(student_delta_from_tree, seed=None):
    """Coding exercise 3 [S15]: delta_from_tree(parent, classes) returns the matrix
    Delta[i, j] = (number of edges between classes[i] and classes[j] in the tree) / 2, the tree
    given by `parent` (child -> parent); checked on the exercise's tree, then on fresh random
    trees, against the library's tree distance (which, like HierarchicalModel, is refused while
    the student's function runs)."""
    return check_function(
        student_delta_from_tree, _tree_cases, _reference_tree_delta, seed=seed, show=_show_tree,
        hint=_("Walk from a up to the root, noting how many steps each ancestor is from a; walk up from b "
             "until you reach one of them, the lowest common ancestor: Δ = (steps from a + steps "
             "from b) / 2."),
        right=_("Your Δ agrees with half the tree distance on the exercise's tree (cat-dog 1, cat-bird 1.5, "
              "cat-car 2.5, car-bus 1) and on 19 fresh random trees."))


AUC_EXERCISE = dict(s=np.array([2.0, 1.8, 0.5, 0.2, 1.0]), r=np.array([1, -1, 1, -1, -1]))  # the exercise's numbers


def _auc_pairs_cases(rng, n_cases=20):
    """The exercise's five items first, then random queries whose scores are multiples of 1/8:
    exact in floating point, so ties (s_i = s_j) and gaps of exactly 1/2 occur and every way of
    writing the rule gives the same count."""
    cases = [{k: v.copy() for k, v in AUC_EXERCISE.items()}]
    for _ in range(n_cases - 1):
        n = int(rng.integers(3, 9))
        r = rng.permutation(np.r_[1, -1, rng.choice([-1, 1], size=n - 2)])
        cases.append(dict(s=rng.integers(-12, 13, size=n) / 8, r=r))
    return cases


def _reference_auc_pairs(s, r):
    """(1 - AUC of the ranking by s, the number of (relevant, irrelevant) pairs the margin-rescaled
    loss-augmented inference orders relevant-after-irrelevant), from the library."""
    Y_bar = RankingModel().loss_augmented_inference(np.asarray(s, float)[:, None], r, np.ones(1))
    return 1.0 - auc(r, s), int(np.sum((Y_bar == -1) & (relevance_matrix(r) == 1)))


def _compare_auc_pairs(expected, got):
    delta, swapped = expected
    if not isinstance(got, (tuple, list)) or len(got) != 2:
        return default_compare(expected, got)
    try:
        got_delta, got_swapped = float(got[0]), float(got[1])
    except (TypeError, ValueError):
        return default_compare(expected, got)
    if not np.isclose(got_delta, delta):
        if np.isclose(got_delta, 1 - delta) and not np.isclose(delta, 0.5):
            return _("1 - AUC: that is the AUC itself, Δ = 1 - AUC.")
        return _("1 - AUC: {reason}").format(reason=default_compare(delta, got_delta))
    if got_swapped != swapped:
        return _("the pair count: {reason}").format(reason=default_compare(swapped, got_swapped))
    return None


def _show_query(case):
    """A ranking query as a failure message shows it, to re-run it by hand."""
    return f"s = {case['s'].tolist()}, r = {case['r'].tolist()}"


def check_auc_pairs(student_auc_pairs, seed=None):
    """Exercise 4 [S17], coding: auc_pairs(s, r) returns (Delta, n_swapped): Delta = 1 - AUC of
    the ranking by the scores s (a tie counts 1/2), and the number of (relevant, irrelevant) pairs
    that margin-rescaled loss-augmented inference orders wrongly (those with s_i - s_j < 1/2);
    checked on the exercise's five items, then on fresh random queries, with the library's
    `auc` and ranking model refused while the student's function runs."""
    return check_function(
        student_auc_pairs, _auc_pairs_cases, _reference_auc_pairs, seed=seed, compare=_compare_auc_pairs,
        show=_show_query,
        hint=_("Swapping a pair (i, j) adds 1/|P| to Δ and takes 2 (sᵢ - sⱼ)/|P| from "
               "⟨w, Ψ⟩ (Yᵢⱼ goes from +1 to -1): it is swapped iff sᵢ - sⱼ < 1/2."),
        right=_("Your counts agree with the library on the exercise's items (1 - AUC = 2/6: the pairs (0.5, 1.8) "
                "and (0.5, 1) are inverted; 4 pairs swapped: those two, (0.5, 0.2) and (2, 1.8), gaps below 1/2) "
                "and on every fresh random query. The oracle swaps already-wrong pairs and right ones with a gap "
                "below 1/2: it sorts sᵢ - 1/4 (relevant) against sⱼ + 1/4 (irrelevant)."))


# --- coding: the AUC loss-augmented sort ---------------------------------------------------------
def auc_oracle(s, r):
    """The library's answer: an ordering (best first) maximising Delta(r, Y) + <w, Psi(x, Y)>
    for Delta = 1 - AUC, with scores s = <w, phi(o_i)> (phi(o_i) = s_i, w = 1)."""
    Y_bar = RankingModel().loss_augmented_inference(np.asarray(s, float)[:, None], r, np.ones(1))
    return np.argsort(-Y_bar.sum(axis=1), kind="stable")


def _augmented_value(s, r, order):
    model = RankingModel()
    Y = order_matrix(order) * np.abs(relevance_matrix(r))
    return model.loss(r, Y) + float(model.joint_feature(np.asarray(s, float)[:, None], Y)[0])


def _reference_order(s, r):
    """The inputs with the library's optimal ordering (the comparison scores the orderings)."""
    return np.asarray(s, float), np.asarray(r), auc_oracle(s, r)


def _compare_orders(expected, got):
    s, r, best_order = expected
    if got is None or got is Ellipsis:
        return _("your function returned None: is a `return` missing?")
    try:
        order = np.asarray(got)
        if order.shape != (len(s),) or not np.array_equal(np.sort(order), np.arange(len(s))):
            return _("return a permutation of the {s} item indices (best first), e.g. from np.argsort").format(
                s=len(s))
    except Exception:
        return _("return a permutation of the item indices (best first)")
    best, yours = _augmented_value(s, r, best_order), _augmented_value(s, r, order)
    if yours < best - 1e-9:
        return (_("your ordering reaches Δ + ⟨w, Ψ⟩ = {yours:.4f}, the "
                "best ordering more: a pair is kept or swapped wrongly").format(yours=yours))
    return None


def _oracle_cases(rng, n_cases=25):
    cases = []
    for _ in range(n_cases):
        n = int(rng.integers(3, 9))
        r = rng.permutation(np.r_[1, -1, rng.choice([-1, 1], size=n - 2)])
        cases.append(dict(s=np.round(rng.normal(scale=rng.choice([0.3, 1.0]), size=n), 3), r=r))
    return cases


def check_auc_sort(student_auc_oracle, seed=None):
    """Coding exercise [S17]: auc_oracle(s, r) returns item indices, best first, of an ordering
    maximising 1 - AUC + <w, Psi>; checked on 25 fresh random queries against the library's oracle
    (compared by the value reached, so any optimal ordering passes)."""
    return check_function(
        student_auc_oracle, _oracle_cases, _reference_order, seed=seed, compare=_compare_orders,
        show=_show_query,
        hint=_("Shift the scores: sᵢ - 1/4 for relevant items, sⱼ + 1/4 for irrelevant ones, and sort by "
             "decreasing shifted score (relevant first on ties)."),
        right=_("Your sort reaches the optimum of 1 - AUC + ⟨w, Ψ⟩ on all 25 fresh random queries: one sort of "
              "shifted scores, O(n log n), instead of n! orderings."))


# -- concept questions (shown by `quiz(name)` in the chapter) -----------------------------------

def quiz(name):
    """The concept question `name` as a Quiz widget (QUIZZES: question, choices, several right)."""
    from course_lib.widgets.quiz import Quiz

    question, choices, multiple = QUIZZES[name]
    return Quiz(question, choices, multiple=multiple)


QUIZZES = {
    "scaled_w": (
        N_("A ranking SSVM's w is multiplied by 10. Its predicted rankings..."),
        [
            Choice("do not change",
                   True,
                   "Inference sorts by $\\langle \\mathbf{w}, \\phi(o_i) \\rangle$; a positive factor keeps the order (as $\\operatorname{sign}\\langle \\mathbf{w},"
                   " \\mathbf{x} \\rangle$ keeps a linear classifier's labels)."),
            Choice("get better, since the margins grow",
                   False,
                   "Margins grow, but the sort order, hence AUC, is the same."),
            Choice("change because $\\Delta = 1 - \\mathrm{AUC}$ is not scale-free",
                   False,
                   "$\\Delta$ depends only on the order, which does not change."),
        ],
        False,
    ),
    "query_cancels": (
        N_("With $\\phi(q, o_i) = b_q - b_i$ and a linear score, the learned ranking..."),
        [
            Choice("is the same for every query",
                   True,
                   "$\\phi(q, o_i) - \\phi(q, o_j) = b_j - b_i$: the query cancels in every pair."),
            Choice("depends on the distance to the query",
                   False,
                   "Only a non-additive feature (e.g. $-(b_q - b_i)^2$) brings the query in."),
            Choice("is random",
                   False,
                   "It is learned, but from item features alone: 0.58 AUC on the distance-based "
                   "queries above."),
        ],
        False,
    ),
    "potts_exact": (
        N_("Why is the segmentation model with the Potts term exact here?"),
        [
            Choice("it links horizontal neighbours only, so each row is a chain solved by Viterbi",
                   True,
                   "Chains and trees allow exact dynamic programming, loss-augmented inference "
                   "included (Hamming adds a unary term)."),
            Choice("every pairwise model on a grid is exact",
                   False,
                   "A 4-connected grid has loops: exact only for submodular energies (graph cuts), "
                   "else approximate."),
            Choice("because the Hamming loss is convex",
                   False,
                   "Exactness is about the graph of the score, not the loss's convexity."),
        ],
        False,
    ),
    "pose_loss": (
        N_("For pose, which task loss keeps loss-augmented inference exact with the star DP?"),
        [
            Choice("the fraction of parts placed farther than a radius from the truth",
                   True,
                   "A sum over parts: it adds to each part's unary cost, and the DP is unchanged."),
            Choice("1 if the whole skeleton's shape is wrong, 0 otherwise",
                   False,
                   "A loss coupling all parts at once breaks the per-part decomposition."),
            Choice("any loss at all",
                   False,
                   "The oracle maximises $\\Delta$ + score: $\\Delta$ must decompose like the score for the"
                   " DP to apply."),
        ],
        False,
    ),
}


seal(__name__)  # the checks refuse to run once what they rely on is changed
