"""Viterbi: the dynamic programme of the slides for argmax over letter sequences of a chain score.

A chain score over sequences y = (y_1, ..., y_r) of labels in {0, ..., q-1} is

    score(y) = sum_{t=1}^r unary[t, y_t] + sum_{t=2}^r pairwise[y_{t-1}, y_t]

(`pairwise[a, b]` is the score of label b following label a). The slides' tables are

    M[s, 1]   = unary[1, s]
    M[s, tau] = max_{s'} (M[s', tau-1] + pairwise[s', s]) + unary[tau, s]     (tau >= 2)
    I[s, tau] = argmax_{s'} (M[s', tau-1] + pairwise[s', s])
    y_r = argmax_s M[s, r],  y_{tau-1} = I[y_tau, tau]

in O(r q^2) operations instead of the q^r of enumeration.

Ties: every argmax takes the smallest label. The decoded sequence is then, among all
best-scoring sequences, the one whose *reversal* (y_r, y_{r-1}, ..., y_1) is lexicographically
smallest; `brute_force` enumerates with the same rule.
"""

import itertools

import numpy as np

import numbers

from course_lib._validation import as_numbers, check_int, finite_arguments
from course_lib.i18n import _

__all__ = [
    "viterbi", "viterbi_batch", "loss_augmented_viterbi", "hamming_unary",
    "sequence_score", "brute_force", "viterbi_by_hamming", "slack_rescaled_viterbi",
    "check_chain_scores", "check_sequence",
]


def check_chain_scores(unary, pairwise):
    """Return (unary (r, q), pairwise (q, q)) as finite float arrays, or raise naming the fix."""
    unary, pairwise = as_numbers(unary, "unary"), as_numbers(pairwise, "pairwise")
    if unary.ndim != 2 or unary.shape[0] < 1 or unary.shape[1] < 1:
        raise ValueError(
            _("unary must be 2-D (r positions, q labels) with r >= 1 and q >= 1; got shape "
              "{shape}.").format(shape=unary.shape)
        )
    q = unary.shape[1]
    if pairwise.shape != (q, q):
        raise ValueError(
            _("pairwise must have shape (q, q) = ({q}, {q}) to match unary's {q} labels; got "
              "shape {shape}.").format(q=q, shape=pairwise.shape)
        )
    for name, array in (("unary", unary), ("pairwise", pairwise)):
        if not np.all(np.isfinite(array)):
            raise ValueError(_("{name} contains NaN or inf: chain scores must be finite numbers.").format(
                                 name=name))
    return unary, pairwise


def check_sequence(y, length, n_labels, name="y"):
    """Return y as an int vector of `length` labels in 0..n_labels-1, or raise naming the fix."""
    length, n_labels = check_int(length, "length", 0), check_int(n_labels, "n_labels", 1)
    y = np.asarray(y)
    if y.dtype.kind == "O" and all(isinstance(v, numbers.Integral) for v in y.flat):
        y = np.asarray(y.tolist(), dtype=np.int64)  # integers held as objects
    if y.ndim != 1 or y.shape[0] != length:
        raise ValueError(_("{name} must be a 1-D sequence of {length} labels (one per position); "
                           "got shape {shape}.").format(name=name, length=length, shape=y.shape))
    if y.dtype.kind not in "iu":
        if y.dtype.kind != "f" or not np.all(np.isfinite(y)) or np.any(y != np.round(y)):
            raise ValueError(_("{name} must hold integer labels 0..{last}; got {y!r}.").format(
                                 name=name, last=n_labels - 1, y=y[:5]))
    y = y.astype(np.int64)
    if y.size and (y.min() < 0 or y.max() >= n_labels):
        bad = y[(y < 0) | (y >= n_labels)][:5]
        raise ValueError(_("{name} has labels {labels} outside 0..{last}.").format(
                             name=name, labels=bad.tolist(), last=n_labels - 1))
    return y


def viterbi(unary, pairwise, return_tables=False):
    """argmax_y score(y) by dynamic programming (see the module docstring).

    Returns y (int array of length r); with return_tables=True returns (y, M, I), the slides'
    tables of shape (q, r): M[s, tau] the best score of a prefix ending in s at position tau,
    I[s, tau] its back-pointer (I[:, 0] = -1, undefined at the first position).
    """
    unary, pairwise = check_chain_scores(unary, pairwise)
    r, q = unary.shape
    M = np.empty((r, q))
    I = np.full((r, q), -1, dtype=np.int64)
    M[0] = unary[0]
    for tau in range(1, r):
        candidates = M[tau - 1][:, None] + pairwise  # [s', s] = M[s', tau-1] + pairwise[s', s]
        I[tau] = np.argmax(candidates, axis=0)       # first (smallest) s' on ties
        M[tau] = candidates[I[tau], np.arange(q)] + unary[tau]
    y = np.empty(r, dtype=np.int64)
    y[-1] = np.argmax(M[-1])
    for tau in range(r - 1, 0, -1):
        y[tau - 1] = I[tau, y[tau]]
    if return_tables:
        return y, M.T.copy(), I.T.copy()
    return y


def viterbi_batch(unaries, pairwise, lengths=None):
    """viterbi(u, pairwise) for every word's unary scores u, vectorised over the words.

    unaries: a list of (r_i, q) arrays, or, with `lengths` given, their concatenation
    (sum_i r_i, q) (the fast path: no list to validate). The recursion runs on all the words
    at once, position by position; results and tie rule are those of `viterbi`. Returns a
    list of int arrays.
    """
    if lengths is None:
        if len(unaries) == 0:
            return []
        for i, u in enumerate(unaries):
            if np.ndim(u) != 2 or np.shape(u)[0] < 1:
                raise ValueError(_("unaries[{i}] must be 2-D (r, q) with r >= 1; got shape "
                                   "{shape}.").format(i=i, shape=np.shape(u)))
        lengths = [np.shape(u)[0] for u in unaries]
        unaries = np.concatenate(unaries)
    lengths = np.asarray(lengths, dtype=np.int64)
    if lengths.ndim != 1 or np.any(lengths < 1) or lengths.sum() != np.shape(unaries)[0]:
        raise ValueError(_("lengths must be positive word lengths summing to the rows of unaries."))
    if lengths.size == 0:
        return []
    unaries, pairwise = check_chain_scores(unaries, pairwise)
    q = pairwise.shape[0]
    # Words sorted by decreasing length: at position tau the words still running are a prefix.
    order = np.argsort(-lengths, kind="stable")
    L = lengths[order]
    starts = (np.cumsum(lengths) - lengths)[order]
    running = [int(np.sum(L > tau)) for tau in range(L[0])]
    M = np.empty((L[0], len(L), q))  # M[tau, k, s]: the slides' M[s, tau] of word order[k]
    M[0] = unaries[starts]
    candidate = np.empty((len(L), q))
    for tau in range(1, L[0]):
        n = running[tau]
        previous, best, c = M[tau - 1, :n], M[tau, :n], candidate[:n]
        # best[:, s] = max_{s'} previous[:, s'] + pairwise[s', s], as q in-place passes over
        # (n, q) arrays (much faster than a reduction over a short axis)
        np.add(previous[:, :1], pairwise[0], out=best)
        for s_prev in range(1, q):
            np.add(previous[:, s_prev:s_prev + 1], pairwise[s_prev], out=c)
            np.maximum(best, c, out=best)
        best += unaries[starts[:n] + tau]
    # Back-tracking needs I[y_tau, tau] only: recompute that one column of I per word
    # (argmax_{s'} M[s', tau-1] + pairwise[s', y_tau], smallest s' on ties, as in `viterbi`).
    Y = np.zeros((len(L), L[0]), dtype=np.int64)
    words = np.arange(len(L))
    Y[words, L - 1] = np.argmax(M[L - 1, words], axis=1)
    for tau in range(L[0] - 1, 0, -1):
        n = running[tau]
        Y[:n, tau - 1] = np.argmax(M[tau - 1, :n] + pairwise[:, Y[:n, tau]].T, axis=1)
    out = [None] * len(L)
    for k, i in enumerate(order):
        out[i] = Y[k, : L[k]]
    return out


@finite_arguments
def hamming_unary(y, n_labels, normalize_length=False):
    """The Hamming loss Delta(y, y') = sum_t 1[y'_t != y_t] (divided by r if normalize_length)
    written as unary scores: entry [t, s] is 1 (or 1/r) when s != y_t, else 0."""
    if np.ndim(y) != 1:
        raise ValueError(_("y must be a 1-D sequence of labels (one per position); got shape "
                           "{shape}.").format(shape=np.shape(y)))
    y = check_sequence(y, len(y), n_labels)
    return _hamming_unary(y, n_labels, normalize_length)


def _hamming_unary(y, n_labels, normalize_length=False):
    """hamming_unary for a y already checked (loss-augmented inference's inner step)."""
    r = len(y)
    delta = np.ones((r, n_labels))
    delta[np.arange(r), y] = 0.0
    return delta / r if normalize_length else delta


def loss_augmented_viterbi(unary, pairwise, y, normalize_length=False):
    """argmax_{y'} Delta(y, y') + score(y') with the Hamming loss: since Delta is a sum over
    positions, it is added to the unary scores and the same Viterbi applies (slides, V5)."""
    unary, pairwise = check_chain_scores(unary, pairwise)
    y = check_sequence(y, unary.shape[0], unary.shape[1])
    return viterbi(unary + _hamming_unary(y, unary.shape[1], normalize_length), pairwise)


def sequence_score(unary, pairwise, y):
    """score(y) = sum_t unary[t, y_t] + sum_{t>=2} pairwise[y_{t-1}, y_t]."""
    unary, pairwise = check_chain_scores(unary, pairwise)
    y = check_sequence(y, unary.shape[0], unary.shape[1])
    return float(unary[np.arange(len(y)), y].sum() + pairwise[y[:-1], y[1:]].sum())


def brute_force(unary, pairwise):
    """argmax_y score(y) by enumerating all q^r sequences (tiny r only), with Viterbi's tie rule.

    Returns (y, best score, number of sequences scored).
    """
    unary, pairwise = check_chain_scores(unary, pairwise)
    r, q = unary.shape
    if q ** r > 5_000_000:
        raise ValueError(_("brute force over q^r = {q}^{r} sequences is too many; use viterbi.").format(
                             q=q, r=r))
    positions = np.arange(r)
    best, best_score, count = None, -np.inf, 0
    # itertools.product over reversed positions: reversals in lexicographic order, so the first
    # best found is the one with the smallest reversal (the tie rule of `viterbi`).
    for reversed_y in itertools.product(range(q), repeat=r):
        y = np.array(reversed_y[::-1])
        value = unary[positions, y].sum() + pairwise[y[:-1], y[1:]].sum()
        count += 1
        if value > best_score:
            best, best_score = y, value
    return best, float(best_score), count


def viterbi_by_hamming(unary, pairwise, y):
    """For every k = 0..r, the best score(y') over sequences y' with exactly k letters different
    from y, and one such y': the recursion of `viterbi` with the number of mistakes so far added
    to the state, O(r^2 q^2). Returns (best (r+1,), sequences list); best[k] = -inf and
    sequences[k] = None when no sequence makes k mistakes (q = 1)."""
    unary, pairwise = check_chain_scores(unary, pairwise)
    r, q = unary.shape
    y = check_sequence(y, r, q)
    K = r + 1
    M = np.full((q, K), -np.inf)  # M[s, k]: best prefix ending in s with k mistakes
    M[:, 0] = unary[0]
    M[:, 1] = unary[0]
    M[y[0], 1] = -np.inf
    M[np.arange(q) != y[0], 0] = -np.inf
    back = np.zeros((r, q, K), dtype=np.int64)  # best s' for (tau, s, k)
    for tau in range(1, r):
        candidates = M[:, None, :] + pairwise[:, :, None]  # (s', s, k_prev)
        best_prev = np.argmax(candidates, axis=0)           # (s, k_prev)
        B = np.take_along_axis(candidates, best_prev[None], axis=0)[0]
        wrong = np.arange(q) != y[tau]
        new = np.full((q, K), -np.inf)
        new[~wrong] = B[~wrong]
        new[wrong, 1:] = B[wrong, :-1]
        back[tau, ~wrong] = best_prev[~wrong]
        back[tau, wrong, 1:] = best_prev[wrong, :-1]
        M = new + unary[tau][:, None]
    best = M.max(axis=0)
    sequences = []
    for k in range(K):
        if not np.isfinite(best[k]):
            sequences.append(None)
            continue
        seq = np.empty(r, dtype=np.int64)
        seq[-1] = np.argmax(M[:, k])
        mistakes = k
        for tau in range(r - 1, 0, -1):
            previous = back[tau, seq[tau], mistakes]
            mistakes -= int(seq[tau] != y[tau])
            seq[tau - 1] = previous
        sequences.append(seq)
    return best, sequences


def slack_rescaled_viterbi(unary, pairwise, y, normalize_length=False):
    """argmax_{y'} Delta(y, y') (1 + score(y') - score(y)) with the Hamming loss, exactly: for a
    fixed number k of mistakes the best y' is the best-scoring one (`viterbi_by_hamming`), then
    the best k is chosen (ties: the smallest k; k = 0 is y itself, value 0)."""
    best, sequences = viterbi_by_hamming(unary, pairwise, y)
    r = len(best) - 1
    base = sequence_score(unary, pairwise, y)
    delta = np.arange(r + 1) / (r if normalize_length else 1)
    with np.errstate(invalid="ignore"):
        values = np.where(np.isfinite(best), delta * (1.0 + best - base), -np.inf)
    values[0] = 0.0
    k = int(np.argmax(values))
    return np.asarray(y, dtype=np.int64).copy() if k == 0 else sequences[k]
