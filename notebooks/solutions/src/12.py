"""Solutions of chapter 12's exercises (notebooks/12_structured_instantiations.ipynb)."""

# %% binary_ssvm
# <w, x> = 2 * 0.5 - 1 * 1.5 = -0.5, so y_hat = sign(<w, x>) = -1 (right), and the hinge is
# max(0, 1 - y <w, x>) = max(0, 1 - 0.5) = 0.5: the prediction is right but inside the margin.
ex.check_binary_ssvm(-1, 0.5, "D")  # right, but inside the margin

# %% two_class_crammer_singer
# label 1 wins iff <w_1, x> >= <w_0, x>, i.e. <w_1 - w_0, x> >= 0.
ex.check_two_class_crammer_singer(np.array([-1.0, 0.5]) - np.array([1.0, 2.0]))

# %% tree_delta
# By hand: cat-dog 2 edges (through mammal), cat-bird 3 (through animal), cat-bus 5 (through the root): Delta = 1, 1.5, 2.5.
# In code: the lowest common ancestor is the first ancestor of b that is also an ancestor of a.
def delta_from_tree(parent, classes):
    def ancestors(node):  # the node, its parent, ..., the root
        path = [node]
        while path[-1] in parent:
            path.append(parent[path[-1]])
        return path

    Delta = np.zeros((len(classes), len(classes)))
    for i, a in enumerate(classes):
        up_a = ancestors(a)
        for j, b in enumerate(classes):
            up_b = ancestors(b)
            common = next(node for node in up_b if node in up_a)
            Delta[i, j] = (up_a.index(common) + up_b.index(common)) / 2
    return Delta


ex.check_tree_delta(delta_from_tree)

# %% auc_pairs
# By hand: relevant items score 2 and 0.5, irrelevant 1.8, 0.2 and 1. Of the 6 pairs, (0.5, 1.8) and (0.5, 1) are
# inverted, so 1 - AUC = 2/6. The oracle swaps every pair with s_i - s_j < 1/2: those two, (0.5, 0.2)
# (gap 0.3) and (2, 1.8) (gap 0.2), 4 pairs.
def auc_pairs(s, r):
    s, r = np.asarray(s, dtype=float), np.asarray(r)
    gaps = s[r > 0][:, None] - s[r < 0][None, :]  # s_i - s_j for every relevant i and irrelevant j
    auc = (np.sum(gaps > 0) + np.sum(gaps == 0) / 2) / gaps.size
    return 1 - auc, int(np.sum(gaps < 0.5))


ex.check_auc_pairs(auc_pairs)

# %% auc_sort
def auc_oracle(s, r):
    shifted = np.asarray(s, dtype=float) - np.asarray(r, dtype=float) / 4  # s_i - 1/4 relevant, s_j + 1/4 not
    return np.lexsort((-np.asarray(r), -shifted))  # by decreasing shifted score, relevant first on ties


ex.check_auc_sort(auc_oracle)
