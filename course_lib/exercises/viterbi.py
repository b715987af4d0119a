"""Self-checks for the chapter 11 exercises (Viterbi on handwritten words).

Each check returns a Verdict: true when the answer is right, and shown with its reason; any
input (a string, None, NaN, a wrong shape) gets "Not yet" with the reason, never a traceback.
Exercise 1 is the student's own Viterbi with the tables M and I, checked on random tables
against the library (whose functions it must not call). The small chain of exercises 2-5 has
q = 2 letters ('a' = 0, 'b' = 1) and r = 3 positions.
"""

import numpy as np

from course_lib.exercises import Verdict as _verdict
from course_lib.exercises.harness import Choice, check_function, limited_tries, read_integer, value_and_reason
from course_lib.exercises.seal import seal
from course_lib.i18n import _, N_, number
from course_lib.structured import viterbi as _library

UNARY = np.array([[2.0, 1.0], [0.0, 3.0], [1.0, 1.0]])  # UNARY[t, s]: score of letter s at t
PAIRWISE = np.array([[1.0, -2.0], [0.0, 2.0]])           # PAIRWISE[a, b]: b following a


def _unanswered(*answers):
    return any(answer is None or answer is Ellipsis for answer in answers)


def _table(answer, shape):
    """The answer as a float array, or None if it cannot be read as numbers."""
    try:
        table = np.asarray(answer, dtype=float)
    except (TypeError, ValueError, OverflowError):
        return None
    return table if table.ndim == len(shape) and np.all(np.isfinite(table)) else None


# --- exercise 1: Viterbi with the tables M and I ---------------------------------------------

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _viterbi_cases(rng, n_cases=30):
    """Random chains: r in 1..6 positions, q in 2..5 letters, unary (r, q) and pairwise (q, q)
    scores drawn from N(0, 1) (no ties), the first cases small."""
    cases = []
    for k in range(n_cases):
        r, q = (min(k + 1, 3), 2) if k < 3 else (int(rng.integers(1, 7)), int(rng.integers(2, 6)))
        cases.append(dict(unary=np.round(rng.normal(size=(r, q)), 2), pairwise=np.round(rng.normal(size=(q, q)), 2)))
    return cases


def _viterbi_reference(unary, pairwise):
    return _library.viterbi(unary, pairwise, return_tables=True)


def _show_chain(case):
    unary, pairwise = case["unary"], case["pairwise"]
    r, q = unary.shape
    return (_("r = {r} positions, q = {q} letters ({letters}), unary[t, s] (row t = "
            "1..{r}) = {unary}, pairwise[s', s] (s follows s') = {pairwise}").format(
                r=r, q=q, letters=', '.join(LETTERS[:q]), unary=unary.tolist(), pairwise=pairwise.tolist()))


def _compare_tables(expected, got):
    """None when (y, M, I) agree (I only from tau = 2 on: I[s, 1] is undefined), else where
    they first differ, in the slides' notation."""
    y, M, I = expected
    q, r = M.shape
    if not isinstance(got, (tuple, list)) or len(got) != 3:
        return _("return the three results (y, M, I) as a tuple")
    try:
        y_got, M_got, I_got = (np.asarray(part, dtype=float) for part in got)
    except (TypeError, ValueError):
        return _("y, M and I must be arrays of numbers")
    if M_got.shape != (q, r):
        transposed = _(" (transposed? one row per letter s, one column per position τ)") if M_got.shape == (r, q) else ""
        return _("M must have shape (q, r) = ({q}, {r}){transposed}, yours has shape {shape}").format(
            q=q, r=r, transposed=transposed, shape=M_got.shape)
    if I_got.shape != (q, r):
        return _("I must have shape (q, r) = ({q}, {r}), yours has shape {shape}").format(
            q=q, r=r, shape=I_got.shape)
    if y_got.shape != (r,):
        return _("y must hold r = {r} letters, yours has shape {shape}").format(r=r, shape=y_got.shape)
    wrong = np.argwhere(~np.isclose(M_got, M, rtol=1e-9, atol=1e-9))
    if len(wrong):
        s, tau = (int(v) for v in wrong[np.argsort(wrong[:, 1], kind="stable")][0])
        where = _("M[s, 1] is the unary score of s at position 1") if tau == 0 else \
            _("M[s, τ] = max over s' of M[s', τ-1] + pairwise[s', s], plus unary[τ, s]")
        gap = M_got[s, tau] - M[s, tau]
        return ((_("M[{s}, {tau}] is wrong: yours is {yours:.4g}, too high by {gap:.4g} ({where})") if gap > 0
                 else _("M[{s}, {tau}] is wrong: yours is {yours:.4g}, too low by {gap:.4g} ({where})"))
                .format(s=LETTERS[s], tau=tau + 1, yours=M_got[s, tau], gap=abs(gap), where=where))
    wrong = np.argwhere(I_got[:, 1:] != I[:, 1:])
    if len(wrong):
        s, tau = (int(v) for v in wrong[np.argsort(wrong[:, 1], kind="stable")][0])
        return (_("I[{s}, {tau}] is wrong (yours is {yours:g}): it "
                "is the s' reaching the max for M[{s}, {tau}]").format(
                    s=LETTERS[s], tau=tau + 2, yours=I_got[s, tau + 1]))
    if not np.array_equal(y_got, y):
        return (_("M and I are right but the reading y is not: yᵣ = argmaxₛ M[s, r], then "
                "y at τ-1 = I[y at τ, τ] going back (letters as 0-based indices)"))
    return None


def check_viterbi_tables(student_fn, seed=None):
    """Exercise 1 [V4]: `student_fn(unary, pairwise)` returns (y, M, I) as the slides define them,
    checked on random chains against the library, without calling it."""
    return check_function(
        student_fn, _viterbi_cases, _viterbi_reference, seed=seed, compare=_compare_tables, show=_show_chain,
        hint=_("Fill M column by column: M[:, 0] = unary[0]; for τ ≥ 1 the candidates "
             "M[s', τ-1] + pairwise[s', s] form a q x q array (rows s', columns s); its max over "
             "the rows plus unary[τ] is M[:, τ], its argmax I[:, τ]. Then back-track from the "
             "last column."),
        right=_("Your Viterbi gives the same readings and the same tables M and I as the library on "
              "all the random chains."))


@limited_tries
def check_counts(n_sequences, n_candidates):
    """Exercise 1 [V4]: for a word of r letters over q letters, the number of sequences brute
    force scores, and the number of candidates M[s', tau-1] + <w, phi(x, s, s')> Viterbi forms."""
    r, q = 8, 26  # the exercise's numbers
    if _unanswered(n_sequences, n_candidates):
        return _verdict(False, _("Replace both `...` with your two counts."))
    n_sequences, n_candidates = read_integer(n_sequences), read_integer(n_candidates)
    if n_sequences is None or n_candidates is None:
        return _verdict(False, _("Not yet: both answers must be whole numbers, e.g. 1000 or 26 ** 2."))
    sequences, candidates = q ** r, (r - 1) * q * q
    right = (n_sequences == sequences, n_candidates == candidates)
    why = (_("qʳ = {q} to the power {r} = {sequences} sequences; Viterbi forms q² = "
           "{q2} candidates for each of the r - 1 = {r1} positions τ ≥ "
           "2, so {candidates} (about {ratio:.1e} times fewer).").format(
               q=q, r=r, sequences=number(sequences), q2=q * q, r1=r - 1, candidates=number(candidates),
               ratio=sequences / candidates))
    if all(right):
        return _verdict(True, why)
    if not right[0]:
        if n_sequences == r ** q:
            return _verdict(False, _("That is r to the power q: each of the r positions takes one of q letters, so qʳ."))
        return _verdict(False, _("Each of the r positions independently takes one of q letters."))
    if n_candidates in (r * q * q, r * q):
        return _verdict(False, _("Close: the first position has no predecessor (M[s, 1] is direct), and for "
                        "each τ ≥ 2 there are q values of s times q values of s'."))
    return _verdict(False, _("For each τ ≥ 2 and each letter s, the max runs over the q letters s'."))


M_REASONS = (
    Choice("M[b, 2] is the max over s' of M[s', 1] + pairwise[s', b]: from 'a' 2 - 2 = 0, from 'b' 1 + 2 = 3", True,
           "The predecessor is chosen with the transition into b, not by M[s', 1] alone; then unary[2, b] = 3 is "
           "added: 3 + 3 = 6, and I[b, 2] = b."),
    Choice("M takes the best letter of the previous column", False,
           "That would be 'a' (M[a, 1] = 2), and 'a' then 'b' costs pairwise[a, b] = -2: 2 - 2 + 3 = 3, below 6."),
    Choice("Ties go to the last letter", False,
           "There is no tie (3 against 0), and the library breaks ties towards the smallest letter."),
    Choice("The unary score of b at position 2 chooses the predecessor", False,
           "unary[2, b] = 3 is added whatever s' is: it does not choose s'."),
)


@limited_tries
def check_M_table(M, reason=None):
    """Exercise 2 [V4]: the table M (q rows s, r columns tau) of the small chain; then the letter
    of M_REASONS saying why M[b, 2] comes from s' = b."""
    unary, pairwise = UNARY, PAIRWISE  # the exercise's numbers
    verdict = _check_M_values(M, unary, pairwise)
    return value_and_reason(verdict, reason, M_REASONS,
                            _("The table is right. Your reason: {why}"),
                            hint=_("Write the two candidates M[s', 1] + pairwise[s', b] for s' = a and b."))


def _check_M_values(M, unary, pairwise):
    if _unanswered(M):
        return _verdict(False, _("Replace the first `...` with your 2 × 3 table M, one row per letter."))
    expected = _library.viterbi(unary, pairwise, return_tables=True)[1]
    M = _table(M, expected.shape)
    if M is None:
        return _verdict(False, _("Not yet: M must be a table of numbers, e.g. [[1, 2, 3], [4, 5, 6]]."))
    if M.shape != expected.shape:
        if M.shape == expected.T.shape:
            return _verdict(False, _("Transposed: the slides' M has one row per letter "
                            "s and one column per position τ, shape {shape}.").format(
                                shape=expected.shape))
        return _verdict(False, _("M must have shape {shape} (letters x positions).").format(
            shape=expected.shape))
    if np.allclose(M, expected):
        return _verdict(True, _("M = {M}: the best score is maxₛ M[s, r] = {best:g}.").format(
            M=expected.tolist(), best=expected[:, -1].max()))
    wrong = np.argwhere(~np.isclose(M, expected))[0]
    s, tau = int(wrong[0]), int(wrong[1])
    if tau == 0:
        return _verdict(False, _("The first column is the unary scores: M[s, 1] = ⟨w, φ~(x, s)⟩."))
    return _verdict(False, _("Check M[{s}, {tau}]: max over s' of M[s', {previous}] + pairwise[s', "
                    "{s}], plus the unary score of {s} at position {tau}.").format(
                        s='ab'[s], tau=tau + 1, previous=tau))


BACKTRACK_REASONS = (
    Choice("Viterbi takes the best letter of each column of M", False,
           "Each column's best letter ignores whether the letters fit together; the back-pointers I keep the "
           "letter each best prefix came from."),
    Choice("Position 3 is a tie, and ties go to 'b'", False,
           "unary[3] is a tie, but the library breaks ties towards the smallest letter, 'a'; the reading ends "
           "in 'b' because of the transition from position 2."),
    Choice("The transitions outweigh the unary scores: 'a' then 'b' costs pairwise[a, b] = -2, while 'b' after "
           "'b' earns +2 at each step", True,
           "The letters alone read 'aba' (unary 6 in total), but with their transitions that reading scores "
           "6 - 2 + 0 = 4; 'bbb' loses one point of unary at position 1 and gains 2 + 2 from its transitions: 9."),
    Choice("After the first position Viterbi no longer uses the unary scores", False,
           "Every M[s, τ] adds unary[τ, s]; the unary scores count at every position."),
)


@limited_tries(text=("y",))
def check_backtrack(y, reason=None):
    """Exercise 3 [V4]: the decoded word, as a string over 'ab', by back-tracking through I; then
    the letter of BACKTRACK_REASONS saying why it differs from the best letter at each position."""
    unary, pairwise = UNARY, PAIRWISE  # the exercise's numbers
    verdict = _check_backtrack_word(y, unary, pairwise)
    return value_and_reason(verdict, reason, BACKTRACK_REASONS,
                            _("The reading is right. Your reason: {why}"),
                            hint=_("Add up the score of the letters-alone reading with its transitions, then that of yours."))


def _check_backtrack_word(y, unary, pairwise):
    if _unanswered(y):
        return _verdict(False, _("Replace the first `...` with the decoded word, e.g. 'aab'."))
    expected, M, I = _library.viterbi(unary, pairwise, return_tables=True)
    word = "".join("ab"[s] for s in expected)
    if not isinstance(y, str) or len(y) != len(word) or set(y) - set("ab"):
        return _verdict(False, _("Not yet: write the reading as a string of {n} letters 'a' or 'b', e.g. 'aab'.").format(
            n=len(word)))
    if str(y) == word:
        return _verdict(True, _("y₃ = argmaxₛ M[s, 3] = '{y3}', then y₂ = I[y₃, "
                        "3] = '{y2}' and y₁ = I[y₂, 2] = '{y1}'.").format(
                            y3=word[2], y2=word[1], y1=word[0]))
    if str(y) == "".join("ab"[s] for s in np.argmax(M, axis=0)):
        return _verdict(False, _("That takes the best letter of each column of M separately: follow the "
                        "back-pointers I from yᵣ = argmaxₛ M[s, r] instead."))
    return _verdict(False, _("Start at yᵣ = argmaxₛ M[s, r], then y at τ-1 = I[y at τ, τ]."))


AUGMENTED_REASONS = (
    Choice("Viterbi maximises any function of the reading y'", False,
           "Only a sum of unary and pairwise terms along the chain: a loss coupling all positions at once (1 if "
           "any letter is wrong) would not fit."),
    Choice("The loss is small next to the scores, so it hardly changes the best reading", False,
           "It can change it: the augmented reading differs from the plain one whenever a wrong letter is close."),
    Choice("Adding the same number to every unary score changes nothing", False,
           "The table adds 1 only to the letters that differ from yₜ; a constant added everywhere would change "
           "nothing, which is why it is not the loss."),
    Choice("The Hamming loss is a sum over positions of 1[y'ₜ ≠ yₜ]: each term joins the unary score of its "
           "position, and Δ + score keeps the chain's form of unary plus pairwise terms", True,
           "Viterbi maximises any sum of unary and pairwise terms along the chain; a loss that decomposes by "
           "position is one more unary term, so loss-augmented inference costs one more Viterbi."),
)


@limited_tries
def check_loss_augmented_unary(augmented, reason=None):
    """Exercise 4 [V5]: the unary scores whose Viterbi gives argmax_y' Delta(y, y') + score(y')
    with the Hamming loss Delta = number of wrong letters; then the letter of AUGMENTED_REASONS
    saying why plain Viterbi then solves it (the library's hamming_unary gives the table in one
    call, not why)."""
    verdict = _check_augmented_values(augmented)
    return value_and_reason(verdict, reason, AUGMENTED_REASONS,
                            _("The table is right. Your reason: {why}"),
                            hint=_("Write Δ(y, y') as a sum over positions."))


def _check_augmented_values(augmented):
    y, unary = (0, 1, 1), UNARY  # the exercise's numbers
    if _unanswered(augmented):
        return _verdict(False, _("Replace `...` with your 3 × 2 array of augmented unary scores."))
    expected = unary + _library.hamming_unary(np.asarray(y), unary.shape[1])
    augmented = _table(augmented, expected.shape)
    if augmented is None:
        return _verdict(False, _("Not yet: write a 3 × 2 table of numbers."))
    if augmented.shape == expected.shape and np.allclose(augmented, expected):
        return _verdict(True, _("Δ(y, y') = Σₜ 1[y'ₜ ≠ yₜ] is a sum over positions, so it adds 1 to "
                        "every unary score of a letter different from yₜ; Viterbi then runs unchanged."))
    if augmented.shape == expected.shape and np.allclose(augmented, unary + 1 - _library.hamming_unary(np.asarray(y), 2)):
        return _verdict(False, _("Reversed: the loss rewards the letters that *differ* from yₜ."))
    return _verdict(False, _("Add 1 to unary[t, s] for every letter s different from yₜ; leave s = yₜ as is."))


# -- concept questions (shown by `quiz(name)` in the chapter) -----------------------------------

def quiz(name):
    """The concept question `name` as a Quiz widget (QUIZZES: question, choices, several right)."""
    from course_lib.widgets.quiz import Quiz

    question, choices, multiple = QUIZZES[name]
    return Quiz(question, choices, multiple=multiple)


QUIZZES = {
    "cost": (
        N_("Viterbi on a word of $r$ letters over $q$ letters costs about..."),
        [
            Choice("$q^r$ operations",
                   False,
                   "That is brute force: every reading scored. Viterbi keeps only the best prefix "
                   "ending in each letter."),
            Choice("$r q^2$ operations",
                   True,
                   "For each of the r - 1 positions after the first, q letters s times q "
                   "predecessors s'."),
            Choice("$r q$ operations",
                   False,
                   "Each $M[s, \\tau]$ is a max over the $q$ predecessors $s'$, so $q^2$ candidates per "
                   "position, not $q$."),
            Choice("$q r^2$ operations",
                   False,
                   "The chain links each position only to the previous one: the cost is linear in "
                   "r."),
        ],
        False,
    ),
    "hamming": (
        N_("Why can loss-augmented inference with the Hamming loss reuse Viterbi unchanged?"),
        [
            Choice("Because the Hamming loss is a sum over positions, so it adds to the unary "
                   "scores",
                   True,
                   "$\\Delta(\\mathbf{y}, \\mathbf{y}') = \\sum_t 1[y'_t \\neq y_t]$: each term depends on one position only."),
            Choice("Because the Hamming loss is convex",
                   False,
                   "Convexity in w is what the training objective needs; Viterbi needs the loss to "
                   "split over the chain's positions."),
            Choice("Because Viterbi maximises any function of y",
                   False,
                   "Only functions that split into unary and pairwise terms: a loss coupling "
                   "far-apart positions breaks the recursion."),
            Choice("Because the loss is at most r",
                   False,
                   "A bounded loss can still couple all positions; what matters is that it splits "
                   "over positions."),
        ],
        False,
    ),
    "potts": (
        N_("The Potts transition of the slides has two weights (same letter, change of letter). On the"
        " words, compared with the 26 × 26 transitions it..."),
        [
            Choice("cannot say which letter tends to follow which, e.g. that 'q' is followed by 'u'",
                   True,
                   "It only sees whether the letter changes; in this chapter the learned "
                   "transitions put into that form read no better than none."),
            Choice("is as expressive, with fewer weights",
                   False,
                   "The 26 × 26 table can reward 'in' and penalise 'aa'; the Potts term gives every"
                   " change of letter the same weight."),
            Choice("makes Viterbi exponential in r",
                   False,
                   "Any pairwise term between neighbours keeps the $O(r q^2)$ recursion."),
        ],
        False,
    ),
    "validation": (
        N_("This chapter chooses C with fold 2 and reports accuracy on the eight other folds. Choosing"
        " C by the best test accuracy instead would..."),
        [
            Choice("report an optimistic accuracy: the test folds would have taken part in training"
                   " decisions",
                   True,
                   "The best of six test accuracies is biased upward; a separate validation fold "
                   "keeps the test estimate honest."),
            Choice("change nothing, since the models are trained on fold 1 only",
                   False,
                   "The weights are, but C is also learned from data: picking it on the test folds "
                   "uses them."),
            Choice("make the models over-fit fold 1",
                   False,
                   "Choosing C does not retrain anything; it is the reported accuracy that becomes "
                   "optimistic."),
        ],
        False,
    ),
}


seal(__name__)  # the checks refuse to run once what they rely on is changed
