"""Viterbi against enumeration of all q^r sequences (an independent brute force written here)."""

import itertools

import numpy as np
import pytest

from course_lib.structured.viterbi import (
    brute_force, hamming_unary, loss_augmented_viterbi, sequence_score, slack_rescaled_viterbi, viterbi,
    viterbi_batch, viterbi_by_hamming,
)


def score(unary, pairwise, y):
    total = sum(unary[t, y[t]] for t in range(len(y)))
    return total + sum(pairwise[y[t - 1], y[t]] for t in range(1, len(y)))


def enumerate_best(unary, pairwise, extra=lambda y: 0.0):
    """All best sequences of score + extra, and the best value."""
    r, q = unary.shape
    values = {y: score(unary, pairwise, y) + extra(y) for y in itertools.product(range(q), repeat=r)}
    best = max(values.values())
    return [y for y, v in values.items() if v == best], best


def tie_rule(best_sequences):
    """The documented rule: the best sequence whose reversal is lexicographically smallest."""
    return min(best_sequences, key=lambda y: y[::-1])


def random_chains(n, seed, integer):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        r, q = rng.integers(1, 6), rng.integers(1, 5)
        if integer:  # tiny integer range: many ties, and exact float sums
            yield rng.integers(-1, 2, (r, q)).astype(float), rng.integers(-1, 2, (q, q)).astype(float)
        else:
            yield rng.normal(size=(r, q)), rng.normal(size=(q, q))


@pytest.mark.parametrize("integer", [True, False])
def test_viterbi_equals_brute_force(integer):
    for unary, pairwise in random_chains(300, seed=int(integer), integer=integer):
        best_sequences, best = enumerate_best(unary, pairwise)
        y = viterbi(unary, pairwise)
        assert y.dtype.kind == "i" and y.shape == (unary.shape[0],)
        assert np.isclose(score(unary, pairwise, y), best)
        assert tuple(y) == tie_rule(best_sequences)
        y_lib, value, count = brute_force(unary, pairwise)
        assert tuple(y_lib) == tuple(y) and np.isclose(value, best)
        assert count == unary.shape[1] ** unary.shape[0]


def test_ties_resolved_by_the_documented_rule():
    # Everything zero: all q^r sequences tie; the rule picks all zeros.
    assert viterbi(np.zeros((4, 3)), np.zeros((3, 3))).tolist() == [0, 0, 0, 0]
    # Two best sequences (0, 1) and (1, 0): reversals (1, 0) and (0, 1), the second is smaller.
    unary = np.array([[0.0, 0.0], [0.0, 0.0]])
    pairwise = np.array([[0.0, 1.0], [1.0, 0.0]])
    assert viterbi(unary, pairwise).tolist() == [1, 0]


def test_tables_follow_the_slides():
    rng = np.random.default_rng(3)
    unary, pairwise = rng.normal(size=(5, 4)), rng.normal(size=(4, 4))
    y, M, I = viterbi(unary, pairwise, return_tables=True)
    r, q = unary.shape
    assert M.shape == (q, r) and I.shape == (q, r)
    assert np.allclose(M[:, 0], unary[0]) and np.all(I[:, 0] == -1)
    for tau in range(1, r):
        for s in range(q):
            # M[s, tau] = max over prefixes ending in s, by enumeration
            prefixes = [p + (s,) for p in itertools.product(range(q), repeat=tau)]
            assert np.isclose(M[s, tau], max(score(unary[: tau + 1], pairwise, p) for p in prefixes))
            assert I[s, tau] == np.argmax(M[:, tau - 1] + pairwise[:, s])
    assert np.isclose(M[:, -1].max(), score(unary, pairwise, y))
    for tau in range(r - 1, 0, -1):
        assert y[tau - 1] == I[y[tau], tau]


def test_batch_equals_one_by_one():
    rng = np.random.default_rng(4)
    pairwise = rng.integers(-1, 2, (3, 3)).astype(float)
    unaries = [rng.integers(-1, 2, (rng.integers(1, 7), 3)).astype(float) for _ in range(60)]
    for y_batch, unary in zip(viterbi_batch(unaries, pairwise), unaries):
        assert y_batch.tolist() == viterbi(unary, pairwise).tolist()
    assert viterbi_batch([], pairwise) == []


@pytest.mark.parametrize("normalize_length", [False, True])
def test_loss_augmented_viterbi_equals_brute_force(normalize_length):
    rng = np.random.default_rng(5)
    for unary, pairwise in random_chains(200, seed=6 + normalize_length, integer=True):
        r, q = unary.shape
        y = rng.integers(0, q, r)
        hamming = lambda y_prime: sum(a != b for a, b in zip(y, y_prime)) / (r if normalize_length else 1)
        best_sequences, best = enumerate_best(unary, pairwise, hamming)
        y_hat = loss_augmented_viterbi(unary, pairwise, y, normalize_length=normalize_length)
        assert np.isclose(score(unary, pairwise, y_hat) + hamming(y_hat), best)
        if not normalize_length:  # integer values: exact, so the tie rule is checkable
            assert tuple(y_hat) == tie_rule(best_sequences)


@pytest.mark.parametrize("normalize_length", [False, True])
def test_slack_rescaled_viterbi_equals_brute_force(normalize_length):
    rng = np.random.default_rng(7)
    for unary, pairwise in random_chains(200, seed=8 + normalize_length, integer=False):
        r, q = unary.shape
        y = rng.integers(0, q, r)
        base = score(unary, pairwise, y)

        def value(y_prime):
            delta = sum(a != b for a, b in zip(y, y_prime)) / (r if normalize_length else 1)
            return delta * (1.0 + score(unary, pairwise, y_prime) - base)

        best = max(value(y_prime) for y_prime in itertools.product(range(q), repeat=r))
        y_hat = slack_rescaled_viterbi(unary, pairwise, y, normalize_length)
        assert np.isclose(value(tuple(y_hat)), best)


def test_viterbi_by_hamming_is_best_per_number_of_mistakes():
    rng = np.random.default_rng(9)
    for unary, pairwise in random_chains(100, seed=10, integer=False):
        r, q = unary.shape
        y = rng.integers(0, q, r)
        best, sequences = viterbi_by_hamming(unary, pairwise, y)
        for k in range(r + 1):
            scores = [score(unary, pairwise, s) for s in itertools.product(range(q), repeat=r)
                      if sum(a != b for a, b in zip(y, s)) == k]
            if not scores:
                assert best[k] == -np.inf and sequences[k] is None
                continue
            assert np.isclose(best[k], max(scores))
            assert np.sum(sequences[k] != y) == k
            assert np.isclose(score(unary, pairwise, sequences[k]), best[k])


def test_sequence_score():
    unary = np.arange(6.0).reshape(3, 2)
    pairwise = np.array([[10.0, 20.0], [30.0, 40.0]])
    assert sequence_score(unary, pairwise, [0, 1, 1]) == 0 + 3 + 5 + 20 + 40


@pytest.mark.parametrize("unary, pairwise, message", [
    (np.zeros(3), np.zeros((3, 3)), "unary must be 2-D"),
    (np.zeros((0, 3)), np.zeros((3, 3)), "r >= 1"),
    (np.zeros((2, 3)), np.zeros((2, 2)), r"pairwise must have shape \(q, q\) = \(3, 3\)"),
    (np.array([[0.0, np.nan]]), np.zeros((2, 2)), "unary contains NaN"),
    (np.zeros((2, 2)), np.array([[0.0, np.inf], [0.0, 0.0]]), "pairwise contains NaN or inf"),
])
def test_validation(unary, pairwise, message):
    with pytest.raises(ValueError, match=message):
        viterbi(unary, pairwise)


def test_validation_of_the_sequence():
    unary, pairwise = np.zeros((3, 2)), np.zeros((2, 2))
    with pytest.raises(ValueError, match="outside 0..1"):
        loss_augmented_viterbi(unary, pairwise, [0, 1, 2])
    with pytest.raises(ValueError, match="sequence of 3 labels"):
        loss_augmented_viterbi(unary, pairwise, [0, 1])
    with pytest.raises(ValueError, match="integer labels"):
        loss_augmented_viterbi(unary, pairwise, [0, 0.5, 1])


def test_exercise_checks():
    from course_lib.exercises import viterbi as ex

    assert ex.check_counts(26 ** 8, 7 * 26 * 26)
    assert not ex.check_counts(8 ** 26, 7 * 26 * 26)
    assert not ex.check_counts(26 ** 8, 8 * 26 * 26)
    assert not ex.check_counts(..., ...)
    _, M, _ = viterbi(ex.UNARY, ex.PAIRWISE, return_tables=True)
    assert ex.check_M_table(M, "A") and not ex.check_M_table(M.T, "A") and not ex.check_M_table(M + 1, "A")
    assert not ex.check_M_table(M)  # the table without the reason
    # by hand: M[:, 1] = unary[0]; M[b, 2] = max(2 - 2, 1 + 2) + 3 = 6 ...
    assert ex.check_M_table([[2, 3, 7], [1, 6, 9]], "A")
    assert ex.check_backtrack("bbb", "C") and not ex.check_backtrack("abb", "C") and not ex.check_backtrack(...)
    assert not ex.check_backtrack("bbb") and not ex.check_backtrack("bbb", "A")
    augmented = ex.UNARY + np.array([[0, 1], [1, 0], [1, 0]])
    assert ex.check_loss_augmented_unary(augmented, "D")
    assert not ex.check_loss_augmented_unary(ex.UNARY + np.array([[1, 0], [0, 1], [0, 1]]), "D")
    # the library's hamming_unary gives the table in one call, not the reason
    assert augmented.tolist() == (ex.UNARY + hamming_unary(np.array([0, 1, 1]), 2)).tolist()
    assert not ex.check_loss_augmented_unary(augmented) and not ex.check_loss_augmented_unary(augmented, "A")
    assert "Right" in repr(ex.check_backtrack("bbb", "C"))
