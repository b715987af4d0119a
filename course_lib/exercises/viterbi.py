"""Self-checks for the chapter 11 exercises (Viterbi on handwritten words).

Each check returns a Verdict: true when the answer is right, and shown with its reason.
The small chain of exercises 2-4 has q = 2 letters ('a' = 0, 'b' = 1) and r = 3 positions.
"""

import numpy as np

from course_lib.exercises import Verdict as _verdict
from course_lib.structured.viterbi import hamming_unary, viterbi

UNARY = np.array([[2.0, 1.0], [0.0, 3.0], [1.0, 1.0]])  # UNARY[t, s]: score of letter s at t
PAIRWISE = np.array([[1.0, -2.0], [0.0, 2.0]])           # PAIRWISE[a, b]: b following a


def _unanswered(*answers):
    return any(answer is None or answer is Ellipsis for answer in answers)


def check_counts(n_sequences, n_candidates, r=8, q=26):
    """Exercise 1 [V4]: for a word of r letters over q letters, the number of sequences brute
    force scores, and the number of candidates M[s', tau-1] + <w, phi(x, s, s')> Viterbi forms."""
    if _unanswered(n_sequences, n_candidates):
        return _verdict(False, "Replace both `...` with your two counts.")
    sequences, candidates = q ** r, (r - 1) * q * q
    right = (n_sequences == sequences, n_candidates == candidates)
    why = (f"q^r = {q}^{r} = {sequences:,} sequences; Viterbi forms q^2 = {q * q} candidates for each of "
           f"the r - 1 = {r - 1} positions tau >= 2, so {candidates:,} (about {sequences / candidates:.1e} "
           "times fewer).")
    if all(right):
        return _verdict(True, why)
    if not right[0]:
        if n_sequences == r ** q:
            return _verdict(False, "That is r^q: each of the r positions takes one of q letters, so q^r.")
        return _verdict(False, "Each of the r positions independently takes one of q letters.")
    if n_candidates in (r * q * q, r * q):
        return _verdict(False, "Close: the first position has no predecessor (M[s, 1] is direct), and for "
                        "each tau >= 2 there are q values of s times q values of s'.")
    return _verdict(False, "For each tau >= 2 and each letter s, the max runs over the q letters s'.")


def check_M_table(M, unary=UNARY, pairwise=PAIRWISE):
    """Exercise 2 [V4]: the table M (q rows s, r columns tau) of the small chain."""
    if _unanswered(M):
        return _verdict(False, "Replace `...` with your 2 x 3 table M, one row per letter.")
    _, expected, _ = viterbi(unary, pairwise, return_tables=True)
    M = np.asarray(M, dtype=float)
    if M.shape != expected.shape:
        if M.shape == expected.T.shape:
            return _verdict(False, "Transposed: the slides' M has one row per letter s and one column per "
                            f"position tau, shape {expected.shape}.")
        return _verdict(False, f"M must have shape {expected.shape} (letters x positions).")
    if np.allclose(M, expected):
        return _verdict(True, f"M = {expected.tolist()}: the best score is max_s M[s, r] = {expected[:, -1].max():g}.")
    wrong = np.argwhere(~np.isclose(M, expected))[0]
    s, tau = int(wrong[0]), int(wrong[1])
    if tau == 0:
        return _verdict(False, "The first column is the unary scores: M[s, 1] = <w, phi~(x, s)>.")
    return _verdict(False, f"Check M[{'ab'[s]}, {tau + 1}]: max over s' of M[s', {tau}] + pairwise[s', "
                    f"{'ab'[s]}], plus the unary score of {'ab'[s]} at position {tau + 1}.")


def check_backtrack(y, unary=UNARY, pairwise=PAIRWISE):
    """Exercise 3 [V4]: the decoded word, as a string over 'ab', by back-tracking through I."""
    if _unanswered(y):
        return _verdict(False, "Replace `...` with the decoded word, e.g. 'aab'.")
    expected, M, I = viterbi(unary, pairwise, return_tables=True)
    word = "".join("ab"[s] for s in expected)
    if str(y) == word:
        return _verdict(True, f"y_3 = argmax_s M[s, 3] = '{word[2]}', then y_2 = I[y_3, 3] = '{word[1]}' "
                        f"and y_1 = I[y_2, 2] = '{word[0]}'.")
    if str(y) == "".join("ab"[s] for s in np.argmax(M, axis=0)):
        return _verdict(False, "That takes the best letter of each column of M separately: follow the "
                        "back-pointers I from y_r = argmax_s M[s, r] instead.")
    return _verdict(False, "Start at y_r = argmax_s M[s, r], then y_{tau-1} = I[y_tau, tau].")


def check_loss_augmented_unary(augmented, y=(0, 1, 1), unary=UNARY):
    """Exercise 4 [V5]: the unary scores whose Viterbi gives argmax_y' Delta(y, y') + score(y')
    with the Hamming loss Delta = number of wrong letters."""
    if _unanswered(augmented):
        return _verdict(False, "Replace `...` with your 3 x 2 array of augmented unary scores.")
    augmented = np.asarray(augmented, dtype=float)
    expected = unary + hamming_unary(np.asarray(y), unary.shape[1])
    if augmented.shape == expected.shape and np.allclose(augmented, expected):
        return _verdict(True, "Delta(y, y') = sum_t 1[y'_t != y_t] is a sum over positions, so it adds 1 to "
                        "every unary score of a letter different from y_t; Viterbi then runs unchanged.")
    if augmented.shape == expected.shape and np.allclose(augmented, unary + 1 - hamming_unary(np.asarray(y), 2)):
        return _verdict(False, "Reversed: the loss rewards the letters that *differ* from y_t.")
    return _verdict(False, "Add 1 to unary[t, s] for every letter s different from y_t; leave s = y_t as is.")
