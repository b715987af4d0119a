"""Solutions of chapter 11 (Viterbi on handwritten words): the source of
notebooks/solutions/11_solutions.ipynb (python tools/make_solutions.py 11)."""

# %% viterbi_tables
def viterbi_tables(unary, pairwise):
    r, q = unary.shape
    M = np.zeros((q, r))               # M[s, tau]: best score of a prefix ending in s at tau
    I = np.zeros((q, r), dtype=int)    # I[s, tau]: the s' reaching it (column 0 unused)
    M[:, 0] = unary[0]
    for tau in range(1, r):
        candidates = M[:, tau - 1][:, None] + pairwise   # [s', s] = M[s', tau-1] + pairwise[s', s]
        I[:, tau] = candidates.argmax(axis=0)            # the best s' for every s
        M[:, tau] = candidates.max(axis=0) + unary[tau]
    y = np.zeros(r, dtype=int)
    y[-1] = M[:, -1].argmax()
    for tau in range(r - 1, 0, -1):                      # back-track: y_(tau-1) = I[y_tau, tau]
        y[tau - 1] = I[y[tau], tau]
    return y, M, I


verdict = ex.check_viterbi_tables(viterbi_tables)

# The library's version, for comparison: the same recursion, the loop over s replaced by one NumPy
# operation over the q x q candidates (it stores M as (r, q) while it runs, returns the slides' (q, r)).
from course_lib.structured.viterbi import viterbi

print(inspect.getsource(viterbi))
verdict

# %% markdown: viterbi_tables
# The candidates $M_{s',\tau-1} + \texttt{pairwise}[s', s]$ of all $q$ letters $s$ at once form a
# $q \times q$ array (rows $s'$, columns $s$): its maximum over the rows, plus the unary score, is
# the column $\tau$ of $M$, and its argmax the column of $I$. Back-tracking starts from the best
# letter of the last column and follows $I$. The cost is $(r - 1) q^2$ candidates.

# %% counts
ex.check_counts(26 ** 8, 7 * 26 * 26)

# %% markdown: counts
# Brute force: each of the $r = 8$ positions takes one of $q = 26$ letters, $q^r = 26^8$
# readings. Viterbi: $q^2 = 676$ candidates for each of the $r - 1 = 7$ positions after the first.

# %% M_table
ex.check_M_table([[2, 3, 7], [1, 6, 9]], "A")

# %% markdown: M_table
# $M_{\cdot,1}$ is the first row of `unary`: $(2, 1)$. Then
# $M_{a,2} = \max(2 + 1, 1 + 0) + 0 = 3$, $M_{b,2} = \max(2 - 2, 1 + 2) + 3 = 6$,
# $M_{a,3} = \max(3 + 1, 6 + 0) + 1 = 7$, $M_{b,3} = \max(3 - 2, 6 + 2) + 1 = 9$. (A): $M_{b,2}$ comes from
# $s' = b$ because the transition into $b$ counts: $1 + 2 = 3$ beats $2 - 2 = 0$.

# %% backtrack
ex.check_backtrack("bbb", "C")

# %% markdown: backtrack
# $y_3 = \operatorname{argmax}_s M_{s,3} = b$ (9 > 7); $I_{b,3} = b$ (6 + 2 beats 3 - 2), so
# $y_2 = b$; $I_{b,2} = b$ (1 + 2 beats 2 - 2), so $y_1 = b$: `bbb`, although `a` has the best
# unary score at position 1: the transitions $b \to b$ pay for it (C). The letters alone read `aba`,
# whose unary total 6 becomes $6 - 2 + 0 = 4$ with its transitions, against $5 + 2 + 2 = 9$ for `bbb`.

# %% loss_augmented_unary
ex.check_loss_augmented_unary(ex.UNARY + np.array([[0, 1], [1, 0], [1, 0]]), "D")  # Hamming is a sum over positions

# %% markdown: loss_augmented_unary
# With $\mathbf{y} = $ `abb`, the Hamming loss adds 1 to every letter different from $y_t$: to
# `b` at position 1 and to `a` at positions 2 and 3.
