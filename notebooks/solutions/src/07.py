"""Solutions of chapter 07 (multiclass reductions): one section per exercise of the chapter."""

# %% problem_counts
ex.check_problem_counts(26, 26 * 25 // 2)

# %% markdown: problem_counts
# One-vs-rest trains one problem per class: 26. All pairs trains one per unordered pair $i < j$:
# $26 \times 25 / 2 = 325$.

# %% region_boundaries
ex.check_region_boundaries(1 - np.sqrt(2), np.sqrt(2) - 1)

# %% markdown: region_boundaries
# On $x_2 = 1$ the scores are $s_1 = (1 - x_1)/\sqrt2$, $s_2 = 1$, $s_3 = (1 + x_1)/\sqrt2$.
# $s_2 > s_1 \iff x_1 > 1 - \sqrt2$ and $s_2 > s_3 \iff x_1 < \sqrt2 - 1$: the boundaries are
# $\mp(\sqrt2 - 1) \approx \mp 0.4142$.

# %% votes
ex.check_votes([2, 1, 2, 1], 1, "B")  # classes 1 and 3 tie; the tie-break, not their duel, decides

# %% markdown: votes
# $h_{1,2} = +1$: a vote for 1; $h_{1,3} = -1$: for 3; $h_{1,4} = +1$: for 1; $h_{2,3} = -1$: for 3;
# $h_{2,4} = +1$: for 2; $h_{3,4} = -1$: for 4. Votes $(2, 1, 2, 1)$: classes 1 and 3 tie, the smallest
# index wins: class 1. Reason (B): the vote only adds up the duels won; $h_{1,3} = -1$ gave its vote to
# class 3 like every other duel, and the tie-break, not that duel, decides between the two.

# %% ovr_confidences
ex.check_ovr_confidences(1, 3)

# %% markdown: ovr_confidences
# All three confidences are negative, so every sign is $-1$: the signs tie and the first class, 1, is
# returned by default. The confidences still rank the classes: $-0.1$ is the largest, so class 3.

# %% all_pairs_votes
from itertools import combinations


def all_pairs_votes(decisions, k):
    votes = np.zeros((len(decisions), k), dtype=int)
    for column, (i, j) in enumerate(combinations(range(k), 2)):
        votes[:, i] += decisions[:, column] >= 0   # h_ij = +1: a vote for i
        votes[:, j] += decisions[:, column] < 0    # h_ij = -1: a vote for j
    return votes


ex.check_all_pairs_votes(all_pairs_votes)

# %% markdown: all_pairs_votes
# `itertools.combinations(range(k), 2)` gives the pairs in the order of the columns; each column adds
# one vote to $i$ where the decision is $\ge 0$ (the binary learners' own rule) and to $j$ elsewhere.
