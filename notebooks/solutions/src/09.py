"""Solutions of chapter 09 (averaged perceptron): one section per exercise of the chapter."""

# %% multiclass_update
ex.check_multiclass_update({"A": {"f1": 2, "f2": 1, "f3": 0},
                            "B": {"f1": -1, "f2": 1, "f3": -1},
                            "C": {"f1": -1, "f2": 1, "f3": 2}})

# %% markdown: multiclass_update
# Scores $\langle \mathbf{w}_v \mid \mathbf{x} \rangle$: $A = 0$, $B = 2$, $C = 2$. B and C tie; the tie goes to the first
# label, B. The gold label is A, so $\mathbf{w}_A \leftarrow \mathbf{w}_A + \mathbf{x} = (2, 1, 0)$,
# $\mathbf{w}_B \leftarrow \mathbf{w}_B - \mathbf{x} = (-1, 1, -1)$, and $\mathbf{w}_C$ is unchanged.

# %% average
X, y = ex.SEQUENCE
print(AveragedPerceptron(n_epochs=1, variant="naive", shuffle=False).fit(X, y).weights_)
ex.check_average({"A": {"x": 2, "y": -3}, "B": {"x": -2, "y": 3}}, "C")  # a weighs an update by how long it survives

# %% markdown: average
# $\{x\}$, A: scores $0, 0$, predicted A, right: $\mathbf{w} = 0$, $\mathbf{a} = 0$.
# $\{y\}$, B: predicted A, wrong: $\mathbf{w}_B = y$, $\mathbf{w}_A = -y$; $\mathbf{a} = (A: -y, B: y)$.
# $\{x, y\}$, A: scores $A = -1$, $B = 1$, wrong: $\mathbf{w}_A = x$, $\mathbf{w}_B = -x$; $\mathbf{a} = (A: x - y, B: y - x)$.
# $\{y: 2\}$, B: scores $0, 0$, predicted A, wrong: $\mathbf{w}_A = x - 2y$, $\mathbf{w}_B = 2y - x$;
# $\mathbf{a} = (A: 2x - 3y, B: 3y - 2x)$.

# %% lazy_catch_up
ex.check_lazy_catch_up(5 + (10 - 3) * 2, "B")  # w[y][f] was constant since the stamp

# %% markdown: lazy_catch_up
# The value 2 sat in `w[y][f]` for the examples since the stamp: $10 - 3 = 7$ of them, so `a[y][f] = 5 + 7 * 2 = 19`.

# %% accumulator_cost
ex.check_accumulator_cost(1000 * 5, 120 + 1)

# %% markdown: accumulator_cost
# Naive adds $\mathbf{w}$ after every example: $1000 \times 5 = 5000$ additions. On-error adds
# $n_{\text{last error}}\,\mathbf{w}$ at each of the 120 errors, plus the catch-up at the end: 121.

# %% lazy_update
def my_lazy_update(a, w, last_update, x, gold, pred, n_examples):
    for feat, value in x.items():
        for label, sign in ((gold, 1), (pred, -1)):
            a_label, w_label = a.setdefault(label, {}), w.setdefault(label, {})
            since = n_examples - last_update.get((label, feat), 0)  # examples since the last stamp
            a_label[feat] = a_label.get(feat, 0) + since * w_label.get(feat, 0)
            last_update[label, feat] = n_examples
            w_label[feat] = w_label.get(feat, 0) + sign * value


ex.check_lazy_update(my_lazy_update)
