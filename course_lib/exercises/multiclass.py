"""Self-checks for the exercises of chapters 07 (multiclass reductions) and 08 (multiclass SVM).

Each check returns a Verdict: true when the answer is right, and shown with its reason.
"""


import numpy as np

from course_lib.exercises import Verdict as _verdict
from course_lib.exercises.harness import (Choice, check_function, check_reason, float_array, limited_tries, read_integer,
                                         robust, value_and_reason)
from course_lib.exercises.seal import seal
from course_lib.i18n import N_, _
from course_lib.multiclass import MultiVector, loss_augmented_argmax, pairwise_votes
from course_lib.multiclass_svm import sgd_eta, sgd_iterations

SLIDES_W = np.array([[-1.0, 1.0], [0.0, np.sqrt(2.0)], [1.0, 1.0]]) / np.sqrt(2.0)


def _unanswered(*answers):
    return any(a is None or a is Ellipsis for a in answers)


_robust = robust(N_("I cannot read this answer: give numbers (or lists of numbers) as the question asks."))


# ---------------------------------------------------------------- chapter 07


@limited_tries
@_robust
def check_problem_counts(one_vs_rest, all_pairs):
    """07, exercise 1 [M1, M3]: how many binary problems each reduction trains for k classes."""
    k = 26  # the exercise's numbers
    if _unanswered(one_vs_rest, all_pairs):
        return _verdict(False, _("Replace both `...` with whole numbers."))
    expected = (k, k * (k - 1) // 2)
    one_vs_rest, all_pairs = read_integer(one_vs_rest), read_integer(all_pairs)
    if one_vs_rest is None or all_pairs is None:
        return _verdict(False, _("Not yet: both answers must be whole numbers, e.g. 1000 or 26 ** 2."))
    if (one_vs_rest, all_pairs) == expected:
        return _verdict(True, _("One problem per class ({k}); one per pair i < j: k(k-1)/2 = {pairs}.").format(
            k=k, pairs=expected[1]))
    if all_pairs == k * (k - 1):
        return _verdict(False, _("Pairs (i, j) and (j, i) are the same problem: count only i < j."))
    return _verdict(False, _("One-vs-rest: one problem per class. All pairs: one per unordered pair of classes."))


@limited_tries
@_robust
def check_region_boundaries(low, high):
    """07, exercise 2 [M2]: on the line x2 = 1, the x1 where argmax_i <w_i, x> (slides' w) changes
    from class 1 to class 2 (low) and from class 2 to class 3 (high)."""
    if _unanswered(low, high):
        return _verdict(False, _("Replace both `...` with numbers."))
    edge = np.sqrt(2.0) - 1.0
    # independent of the algebra: scan the line
    x1 = np.linspace(-3, 3, 600_001)
    winner = np.argmax(np.c_[x1, np.ones_like(x1)] @ SLIDES_W.T, axis=1)
    changes = x1[1:][np.diff(winner) != 0]
    ok = bool(np.allclose(float_array([low, high]), changes, atol=1e-3))
    why = (_("⟨w₂, x⟩ = 1 beats ⟨w₁, x⟩ = (1 - x₁)/√2 when x₁ > 1 - √2 and ⟨w₃, x⟩ = (1 + "
           "x₁)/√2 when x₁ < √2 - 1: the boundaries are x₁ = {low:.4f} and {high:.4f}.").format(
               low=-edge, high=edge))
    return _verdict(ok, why if ok else _("Write the three scores as functions of x₁ (x₂ = 1) and solve s₁ = s₂, s₂ = s₃."))


PAIRWISE = {(1, 2): +1, (1, 3): -1, (1, 4): +1, (2, 3): -1, (2, 4): +1, (3, 4): -1}

VOTE_REASONS = (
    Choice("Class 1 wins more duels than any other class", False,
           "Count again: class 3 wins as many duels as class 1 (two each)."),
    Choice("The vote counts only the duels each class wins: classes 1 and 3 both win two, the tie goes to the "
           "smallest index, and the duel between them (h₁₃ = -1, won by 3) is not looked at again", True,
           "The vote formula adds up wins and nothing else: h₁₃ = -1 gave its one vote to class 3 like any "
           "other duel, and the two classes still tie; the rule's tie-break, not the duel, decides."),
    Choice("h₁₃ = -1 is a vote for class 1", False,
           "hᵢⱼ = -1 is a vote for j: h₁₃ = -1 votes for class 3."),
    Choice("All pairs predicts the class with the largest decision value", False,
           "The vote only sees the signs hᵢⱼ = +1 or -1, not the size of the decision values."),
)


@limited_tries
@_robust
def check_votes(votes, winner, reason=None):
    """07, exercise 3 [M3]: the votes of classes 1..4 and the winner for pairwise outputs h_ij
    (+1 means class i, -1 means class j; ties go to the smallest class), then the letter of
    VOTE_REASONS saying why class 1 wins although h_13 = -1 prefers class 3. `pairwise_votes`
    gives the counts in one call; the reason is the student's own."""
    if _unanswered(votes, winner):
        return _verdict(False, _("Replace both `...`: a list of four vote counts and a class."))
    pairwise = PAIRWISE
    k = max(j for _, j in pairwise)
    expected = np.zeros(k, dtype=int)
    for (i, j), h in pairwise.items():
        expected[(i if h > 0 else j) - 1] += 1
    best = int(np.argmax(expected)) + 1
    ok = [read_integer(v) for v in votes] == expected.tolist() and read_integer(winner) == best
    why = _("Each hᵢⱼ gives one vote, to i if +1 and to j if -1: votes {votes}, so class {best} wins.").format(
        votes=expected.tolist(), best=best)
    verdict = _verdict(ok, why if ok else _("Go through the six pairs and give one vote to the winner of each."))
    return value_and_reason(verdict, reason, VOTE_REASONS, _("The votes and the winner are right. Your reason: {why}"),
                            hint=_("Which class does h₁₃ = -1 vote for, and how many votes does each of "
                                   "classes 1 and 3 get?"))


@limited_tries
@_robust
def check_ovr_confidences(signs_answer, confidences_answer):
    """07, exercise 4 [M1]: what one-vs-rest predicts with signs (ties to the first class) and with
    confidences, when the three binary classifiers give `confidences`."""
    confidences = (-0.3, -1.2, -0.1)  # the exercise's numbers
    if _unanswered(signs_answer, confidences_answer):
        return _verdict(False, _("Replace both `...` with a class in 1..3."))
    confidences = np.asarray(confidences)
    signs = np.where(confidences > 0, 1, -1)
    expected = int(np.argmax(signs)) + 1, int(np.argmax(confidences)) + 1
    ok = (read_integer(signs_answer), read_integer(confidences_answer)) == expected
    why = (_("All three say -1, so the signs tie and the first class ({first}) is returned by default; "
           "the confidences still rank the classes: class {best} is the least negative.").format(
               first=expected[0], best=expected[1]))
    return _verdict(ok, why if ok else _("Compare the signs first (a tie?), then compare the numbers themselves."))


# ---------------------------------------------------------------- chapter 08


def _psi_cases(rng, n_cases=15):
    """The exercise's x = (2, -1) in class 2 of 3 (index 1) first, then random x, y, k."""
    cases = [dict(x=np.array([2.0, -1.0]), y=1, k=3)]
    for _ in range(n_cases - 1):
        k = int(rng.integers(2, 7))
        cases.append(dict(x=np.round(rng.normal(size=int(rng.integers(1, 5))), 2), y=int(rng.integers(k)), k=k))
    return cases


def _psi_reference(x, y, k):
    return MultiVector().fit(np.asarray(x, float)[None], [0], k).psi(np.asarray(x, float), y)


def check_multi_vector(student_multi_vector, seed=None):
    """08, exercise 1 [M6], coding: multi_vector(x, y, k) returns Psi(x, y) of the multi-vector
    construction (classes 0..k-1 in code): x in block y, zeros in the k - 1 other blocks; checked
    on the exercise's x = (2, -1), y = 2 of 3 (index 1), then on fresh random x, y, k, with the
    library's MultiVector refused while the student's function runs."""
    return check_function(
        student_multi_vector, _psi_cases, _psi_reference, seed=seed,
        show=lambda c: f"x = {c['x'].tolist()}, y = {c['y']}, k = {c['k']}",
        hint=_("Start from np.zeros(len(x) * k) and put x in the slice of block y: entries y n to (y + 1) n - 1."),
        right=_("Your Ψ puts x in block y on every fresh case; for the exercise, Ψ(x, 2) = (0, 0, 2, -1, 0, 0). So "
              "⟨w, Ψ(x, y)⟩ = ⟨w[y], x⟩: the block of w facing x is w[y], and the argmax over y of ⟨w, Ψ(x, y)⟩ = "
              "the argmax over y of (W x)[y], one linear score per class, in n|Y| weights."))


HINGE_EXAMPLE = dict(
    W=((1.0, 0.0), (0.0, 1.0), (1.0, 1.0)),  # rows w_1, w_2, w_3
    x=(1.0, 0.5),
    y=1,
    Delta=((0.0, 1.0, 2.0), (1.0, 0.0, 1.0), (2.0, 1.0, 0.0)),
)


HINGE_REASONS = (
    Choice("The hinge is Δ plus the scores, so it is always Δ(ŷ, y) + 1", False,
           "Not in general: the 1 of the binary hinge is Δ's job here, and the score difference can be anything."),
    Choice("The hinge is Δ(ŷ, y) plus the score by which ŷ beats the true class; where the prediction "
           "is wrong that difference is ≥ 0, so the hinge is at least the loss of the prediction", True,
           "The maximum over y' is at least its value at the predicted class, Δ(ŷ, y) + score(ŷ) "
           "- score(y) ≥ Δ(ŷ, y): the hinge bounds the task loss from above, the reason it is minimised."),
    Choice("The loss-augmented ŷ differs from the prediction, the argmax over y' of ⟨w[y'], x⟩", False,
           "Here both are class 3 (scores 1, 0.5, 1.5): the extra 0.5 comes from the scores, not from another class."),
    Choice("The hinge adds λ ‖w‖²", False,
           "The loss l(w, (x, y)) has no regulariser; λ ‖w‖² is added once, in the SVM's objective."),
)


@limited_tries
@_robust
def check_hinge(loss, y_hat, reason=None):
    """08, exercise 2 [M8, M12]: the generalised hinge l(w, (x, y)) and the loss-augmented y_hat
    for the multi-vector map (classes 1..3), then the reason (HINGE_REASONS) the hinge exceeds
    Delta(y_hat, y): one call of the chapter's generalised_hinge gives the number, not the reason."""
    if _unanswered(loss, y_hat, reason):
        return _verdict(False, _("Replace the three `...`: a number, a class in 1..3 and the letter of your reason."))
    e = HINGE_EXAMPLE
    W, x, Delta = np.asarray(e["W"]), np.asarray(e["x"]), np.asarray(e["Delta"])
    scores = (W @ x)[None]
    best, value = loss_augmented_argmax(scores, np.array([e["y"] - 1]), Delta)
    expected = float(value[0]), int(best[0]) + 1
    ok = np.isclose(float_array(loss), expected[0]) and read_integer(y_hat) == expected[1]
    terms = Delta[:, e["y"] - 1] + scores[0] - scores[0, e["y"] - 1]
    why = (_("Scores ⟨w[y'], x⟩ = {scores}; Δ(y', y) + score(y') - score(y) = {terms}: "
           "the maximum {loss:g} is reached at ŷ = {y_hat}.").format(
               scores=scores[0].tolist(), terms=terms.tolist(), loss=expected[0], y_hat=expected[1]))
    verdict = _verdict(ok, why if ok else _("For each y', add Δ(y', y) to the score difference, then take the largest."))
    return value_and_reason(verdict, reason, HINGE_REASONS, _("The hinge and ŷ are right. Your reason: {why}"))


@limited_tries
@_robust
def check_first_sgd_step(answer):
    """08, exercise 3 [M10]: w^(2) of the multiclass SVM's SGD after drawing (x, y) at t = 1 from
    w^(1) = 0 (multi-vector map, costs of HINGE_EXAMPLE; ties go to the first class)."""
    lam = 0.5  # the exercise's numbers
    if _unanswered(answer):
        return _verdict(False, _("Replace `...` with the six numbers of w⁽²⁾ as a list."))
    e = HINGE_EXAMPLE
    x, Delta, y = np.asarray(e["x"]), np.asarray(e["Delta"]), e["y"] - 1
    k = Delta.shape[0]
    psi = MultiVector().fit(x[None], [0], k)
    y_hat = int(np.argmax(Delta[:, y]))  # at w = 0 every score is 0
    expected = -(psi.psi(x, y_hat) - psi.psi(x, y)) / (2 * lam * 1)
    ok = np.allclose(float_array(answer).ravel(), expected) if np.size(answer) == expected.size else False
    why = (_("At w = 0 the augmented scores are Δ(y', y) = {Delta}, so ŷ = {y_hat}; (1 "
           "- 1/1) w = 0 and w⁽²⁾ = -(Ψ(x, ŷ) - Ψ(x, y)) / (2 λ) = {w}.").format(
               Delta=Delta[:, y].tolist(), y_hat=y_hat + 1, w=expected.tolist()))
    return _verdict(ok, why if ok else _("At t = 1 the factor (1 - 1/t) wipes w out; only the subgradient step remains."))


PAC_REASONS = (
    Choice("The corollary's T involves only B, ρ and ε; the classes enter only through ρ, the largest "
           "‖Ψ(x, y)‖, which the multi-vector map keeps at ‖x‖", True,
           "Nothing in (B ρ / ε)² counts the classes: this is the slide's point that the guarantees do not "
           "depend on |Y|, as long as an efficient loss-augmented argmax exists."),
    Choice("SGD visits every class equally often", False,
           "SGD draws examples, not classes, and the bound holds whatever the class frequencies."),
    Choice("The hinge is convex", False,
           "Convexity makes SGD's guarantee possible at all; it does not say why T ignores |Y|."),
    Choice("It does depend on |Y|: T grows like log |Y|", False,
           "Look at the formula: (B ρ / ε)² has no |Y| in it."),
)


@limited_tries
@_robust
def check_pac_sgd(T, eta, reason=None):
    """08, exercise 4 [M9]: the number of SGD iterations T >= (B rho / eps)^2 (smallest integer)
    and the step eta = B / (rho sqrt T) of the corollary, then the reason (a letter of
    PAC_REASONS) why T is the same for 3 classes and for 26."""
    B, rho, eps = 2.0, 1.0, 0.05  # the exercise's numbers
    if _unanswered(T, eta):
        return _verdict(False, _("Replace the `...` of T and η with numbers."))
    if any(isinstance(v, (str, bytes, bool, np.bool_)) or np.ndim(v) != 0 for v in (T, eta)):
        return _verdict(False, _("T and η are single numbers (no quotes)."))
    expected_T = sgd_iterations(B, rho, eps)
    expected_eta = float(sgd_eta(B, rho, expected_T))
    if not (read_integer(T) == expected_T and np.isclose(float_array(eta), expected_eta)):
        return _verdict(False, _("Plug B, ρ and ε into the corollary's two formulas."))
    why = check_reason(reason, PAC_REASONS)
    numbers = (_("(B ρ / ε)² = ({B:g} × {rho:g} / {eps:g})² = {expected_T}, "
               "and η = B / (ρ √T) = {expected_eta:g}.").format(
                   B=B, rho=rho, eps=eps, expected_T=expected_T, expected_eta=expected_eta))
    return _verdict(why.correct, f"{numbers} {why.why}" if why else _("T and η are right. Your reason: {why}").format(
        why=why.why))


# ---------------------------------------------------------------- coding exercises


def _vote_cases(rng, n_cases=12):
    cases = []
    for c in range(n_cases):
        k = int(rng.integers(3, 6))
        decisions = rng.normal(size=(int(rng.integers(1, 5)), k * (k - 1) // 2))
        decisions[rng.random(decisions.shape) < 0.15] = 0.0  # exact zeros: h_ij = +1
        cases.append(dict(decisions=decisions, k=k))
    return cases


def _show_votes(case):
    k = case["k"]
    pairs = [(i + 1, j + 1) for i in range(k) for j in range(i + 1, k)]
    row = case["decisions"][0]
    shown = ", ".join(f"h_{i}{j}: {v:+.2f}" for (i, j), v in zip(pairs, row))
    return _("k = {k}, first row of decisions ({shown})").format(k=k, shown=shown)


def check_all_pairs_votes(student_fn, seed=None):
    """07, coding exercise [M3]: votes(decisions, k), the (n, k) vote counts of the vote formula."""
    return check_function(
        student_fn, _vote_cases, lambda decisions, k: pairwise_votes(decisions, k), seed=seed, show=_show_votes,
        hint=_("Loop over the pairs i < j in order (itertools.combinations(range(k), 2) gives them); "
             "column c of decisions is hᵢⱼ: a decision ≥ 0 is a vote for i, < 0 a vote for j."))


def _augmented_cases(rng, n_cases=15):
    """Random scores and costs; every third case has scores in halves (exact in floating point),
    its first row with the max reached by two classes: the rule's "first on ties" is tested."""
    cases = []
    for number in range(n_cases):
        k, n = int(rng.integers(3, 6)), int(rng.integers(1, 5))
        Delta = rng.integers(0, 4, size=(k, k)).astype(float)
        np.fill_diagonal(Delta, 0)
        y = rng.integers(k, size=n)
        if number % 3 == 2:
            scores = rng.integers(-2, 3, size=(n, k)) / 2
            objective = Delta[:, y[0]] + scores[0] - scores[0, y[0]]
            best = int(np.argmax(objective))
            other = int(rng.choice([c for c in range(k) if c not in (best, y[0])]))
            scores[0, other] = scores[0, best] + Delta[best, y[0]] - Delta[other, y[0]]  # the same objective
        else:
            scores = np.round(rng.normal(size=(n, k)), 2)
        cases.append(dict(scores=scores, y=y, Delta=Delta))
    return cases


def _show_augmented(case):
    return (_("scores ⟨w, Ψ(xᵢ, y')⟩ = {scores}, y = {y} "
            "(class indices from 0), Δ = {Delta}").format(
                scores=np.round(case['scores'], 2).tolist(), y=case['y'].tolist(), Delta=case['Delta'].tolist()))


def check_loss_augmented_argmax(student_fn, seed=None):
    """08, coding exercise 1 [M8, M12]: y_hat_i = argmax_y' Delta(y', y_i) + s_i(y') - s_i(y_i) for
    each row i (first index on ties), returned as an integer array."""
    return check_function(
        student_fn, _augmented_cases, lambda scores, y, Delta: loss_augmented_argmax(scores, y, Delta)[0],
        seed=seed, show=_show_augmented,
        hint=_("Δ[:, yᵢ] is the column of costs for the truth yᵢ; add it to the row of scores, "
             "subtract the score of yᵢ, and take np.argmax (it keeps the first of ties)."))


def _sgd_step_cases(rng, n_cases=15):
    cases = []
    for _ in range(n_cases):
        k, n = int(rng.integers(3, 5)), int(rng.integers(2, 4))
        Delta = 1.0 - np.eye(k) if rng.random() < 0.5 else rng.integers(0, 3, size=(k, k)).astype(float)
        np.fill_diagonal(Delta, 0)
        cases.append(dict(W=np.round(rng.normal(size=(k, n)), 2), t=int(rng.integers(1, 20)),
                          x=np.round(rng.normal(size=n), 2), y=int(rng.integers(k)),
                          lam=float(rng.choice([0.05, 0.5, 1.0])), Delta=Delta))
    return cases


def _sgd_step_reference(W, t, x, y, lam, Delta):
    k, n = W.shape
    psi = MultiVector().fit(x[None], [0], k)
    w = W.ravel().astype(float)
    y_hat = loss_augmented_argmax(psi.scores(x[None], w), np.array([y]), Delta)[0][0]
    w = (1 - 1 / t) * w - (psi.psi(x, y_hat) - psi.psi(x, y)) / (2 * lam * t)
    return w.reshape(k, n)


def _show_sgd_step(case):
    return (_("W = {W} (rows w[y'], y' from 0), t = {t}, x = {x}, "
            "y = {y}, λ = {lam:g}, Δ = {Delta}").format(
                W=case['W'].tolist(), t=case['t'], x=case['x'].tolist(), y=case['y'], lam=case['lam'], Delta=case['Delta'].tolist()))


def check_sgd_step(student_fn, seed=None):
    """08, coding exercise 2 [M10]: one SGD step of the multiclass SVM with the multi-vector Psi,
    W^(t+1) = (1 - 1/t) W^(t) - 1/(2 lambda t) [Psi(x, y_hat) - Psi(x, y)] written on the rows of W."""
    return check_function(
        student_fn, _sgd_step_cases, _sgd_step_reference, seed=seed, show=_show_sgd_step,
        hint=_("Find ŷ with your loss-augmented argmax on the scores W @ x; Ψ(x, ŷ) - Ψ(x, y) "
             "is +x in row ŷ and -x in row y (nothing when ŷ = y). Scale W by (1 - 1/t) first."))


# -- concept questions (shown by `quiz(name)` in the chapter) -----------------------------------

def quiz(name):
    """The concept question `name` as a Quiz widget (QUIZZES: question, choices, several right)."""
    from course_lib.widgets.quiz import Quiz

    question, choices, multiple = QUIZZES[name]
    return Quiz(question, choices, multiple=multiple)


QUIZZES = {
    "pair_sizes": (
        N_("With k = 10 classes and a training set of m examples spread evenly, how many examples does"
        " each binary problem of all pairs train on, roughly?"),
        [
            Choice("m / 5",
                   True,
                   "Each pair keeps the examples of its two classes: 2 m / k = m / 5."),
            Choice("m",
                   False,
                   "That is one-vs-rest: every problem sees all the examples, relabelled."),
            Choice("m / 10",
                   False,
                   "That is one class; a pair keeps two classes."),
            Choice("m / 45",
                   False,
                   "45 is the number of problems, not what each one sees."),
        ],
        False,
    ),
    "why_confidences": (
        N_("Why does one-vs-rest predict with the confidences $\\langle \\mathbf{w}_i, \\mathbf{x} \\rangle$ rather than with the signs?"),
        [
            Choice("Because several $h_i$, or none, may say +1, and the signs then tie",
                   True,
                   "Right: the confidences still rank the classes where the signs tie."),
            Choice("Because the signs make one-vs-rest non-linear",
                   False,
                   "Both rules are built from the same linear $h_i$; the problem is ties, not "
                   "linearity."),
            Choice("Because confidences make every binary $h_i$ more accurate",
                   False,
                   "Each $h_i$ is the same; only how their outputs are combined changes."),
            Choice("Because the 40/20/40 example needs it",
                   False,
                   "There the signs never predict class 2, and with the confidences of unit-length $\\mathbf{w}_i$ "
                   "(HalfspaceERM's) one-vs-rest errs on all of class 2 too; only a shorter $\\mathbf{w}_2$, the same "
                   "halfspace, moves the confidences' error (the chapter rescales it)."),
        ],
        False,
    ),
    "no_training_error": (
        N_("On the 40/20/40 data, which of these makes no training error?"),
        [
            Choice("$\\operatorname{argmax}_i \\langle \\mathbf{w}_i, \\mathbf{x} \\rangle$ with the slides' $\\mathbf{w}_1, \\mathbf{w}_2, \\mathbf{w}_3$",
                   True,
                   "Right: the three $\\mathbf{w}_i$ work together, each region gets its class."),
            Choice("All pairs around the best halfspaces",
                   True,
                   "Right: every pair of classes is separable on the line, so every duel is won by "
                   "the right class."),
            Choice("One-vs-rest with the confidences of the best halfspaces as unit vectors",
                   False,
                   "Its 'class 2 vs rest' halfspace always says no (any ray holding class 2 holds a"
                   " 40% class); with the three $\\mathbf{w}_i$ of the same length it never predicts class 2 and "
                   "errs on all of it (20%). The 20% depends on those lengths: rescale $\\mathbf{w}_2$ and the "
                   "confidences' error moves."),
            Choice("One-vs-rest with the signs of the best halfspaces",
                   False,
                   "The signs do not see the lengths of the $\\mathbf{w}_i$: whatever their lengths, class 2's "
                   "halfspace says no everywhere and the signs never predict class 2 (20% error)."),
        ],
        True,
    ),
    "vacuous_bound": (
        N_("The multiclass SVM's PAC bound on OCR letters with B = 1 is above 1. What does it tell us?"),
        [
            Choice("Nothing about this data: the 0-1 risk is at most 1 anyway, the bound is vacuous",
                   True,
                   "Right: a guarantee above 1 promises nothing; it still says how $m$ must grow with"
                   " $\\rho B$."),
            Choice("That the SVM will err on every letter",
                   False,
                   "A bound is an upper limit on the risk, not a prediction of it: at its optimum, "
                   "$\\lambda = 10^{-3}$ reads 71% of the test letters right (72% on fold 2), and even the "
                   "theory's $\\lambda$ 62% on fold 2."),
            Choice("That $\\lambda = (\\rho/B)\\sqrt{2/m}$ is the best $\\lambda$",
                   False,
                   "The theory's $\\lambda$ did worse on held-out letters than $\\lambda = 10^{-3}$."),
            Choice("That the hinge risk is below the 0-1 risk",
                   False,
                   "It is the other way round: the generalised hinge is an upper bound on $\\Delta$."),
        ],
        False,
    ),
    "huge_label_sets": (
        N_("Which of these are needed to learn when |Y| is huge (the slide 'Remarques sur les "
        "garanties PAC')?"),
        [
            Choice("An efficient argmax over $y$ of $\\langle \\mathbf{w}, \\Psi(\\mathbf{x}, y) \\rangle$",
                   True,
                   "Right: prediction needs it."),
            Choice("An efficient loss-augmented argmax",
                   True,
                   "Right: every SGD step needs it."),
            Choice("A predictor $\\mathbf{u}$ of small norm with a small hinge risk, and a small $\\|\\Psi\\|$",
                   True,
                   "Right: these keep the bound's terms small."),
            Choice("A number of examples m that grows with |Y|",
                   False,
                   "The bounds do not depend on |Y|: that is the point of the slide."),
        ],
        True,
    ),
    "why_hinge": (
        N_("Why does the multiclass SVM minimise the generalised hinge instead of the empirical "
        "$\\Delta$-risk?"),
        [
            Choice("Outside the realisable case, ERM for the $\\Delta$-risk is NP-hard; the hinge is a "
                   "convex upper bound",
                   True,
                   "Right: a convex surrogate makes the problem tractable, and bounding $\\Delta$ keeps"
                   " it meaningful."),
            Choice("Because the hinge is smaller than $\\Delta$",
                   False,
                   "It is larger: $\\ell(\\mathbf{w}, (\\mathbf{x}, y)) \\geq \\Delta(h_{\\mathbf{w}}(\\mathbf{x}), y)$."),
            Choice("Because the $\\Delta$-risk has no minimum",
                   False,
                   "It takes finitely many values, so it has a minimum; finding it is the hard "
                   "part."),
            Choice("Because SGD needs a differentiable loss",
                   False,
                   "The hinge is not differentiable either: SGD uses a subgradient."),
        ],
        False,
    ),
}


seal(__name__)  # the checks refuse to run once what they rely on is changed
