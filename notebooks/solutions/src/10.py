"""Solutions of chapter 10's exercises (notebooks/10_structured_svm.ipynb)."""

# %% margin_hinge
def margin_hinge(model, x, y, w):
    best = max(model.loss(y, c) + w @ model.joint_feature(x, c) for c in range(4))
    return best - w @ model.joint_feature(x, y)


ex.check_margin_hinge(margin_hinge)

# %% markdown: margin_hinge
# **(b) The proof.** Write $s(y') = \langle w, \Psi(x, y')\rangle$ and $\hat y = \hat y(x, w) = \arg\max_{y'} s(y')$.
#
# *Upper bound.* The max runs over every $y'$, so it is at least its value at $y' = \hat y$:
# $H^m(w) \ge \Delta(y, \hat y) + s(\hat y) - s(y)$. And $s(\hat y) \ge s(y)$ because $\hat y$ maximises the
# score. Hence $H^m(w) \ge \Delta(y, \hat y(x, w))$. (With $y' = y$ the bracket is $0$, so also $H^m \ge 0$.)
#
# *Convexity.* For each fixed $y'$, $w \mapsto \Delta(y, y') + \langle \Psi(x, y') - \Psi(x, y), w\rangle$ is affine
# in $w$; a pointwise maximum of affine functions is convex. ($\Delta(y, \hat y(x, w))$ itself is piecewise
# constant in $w$, which is why it is replaced by this surrogate.) The check's random cases are numeric support:
# they confirm the value of $H^m$, not the argument.

# %% slack_hinge
def slack_hinge(model, x, y, w):
    true_score = w @ model.joint_feature(x, y)
    return max(model.loss(y, c) * (1 + w @ model.joint_feature(x, c) - true_score) for c in range(4))


ex.check_slack_hinge(slack_hinge)

# %% cutting_plane
def cutting_plane(model, X, Y, w):
    a, b = 0.0, 0.0
    for x, y in zip(X, Y):
        y_bar = max(range(4), key=lambda c: model.loss(y, c) + w @ model.joint_feature(x, c))
        a = a + (model.joint_feature(x, y) - model.joint_feature(x, y_bar)) / len(X)
        b = b + model.loss(y, y_bar) / len(X)
    return a, b


ex.check_cutting_plane(cutting_plane)

# %% constraint_counts
# |Y| = 3^100 masks per image: n |Y| constraints for formulation 2, |Y|^n for formulation 3.
log10_formulation_2 = np.log10(30) + 100 * np.log10(3)
log10_formulation_3 = 30 * 100 * np.log10(3)
ex.check_constraint_counts(log10_formulation_2, log10_formulation_3)

# %% stochastic_subgradient
def stochastic_subgradient(model, X, Y, C, n_epochs, seed):
    rng = np.random.default_rng(seed)
    w, t = np.zeros(model.size_joint_feature), 0

    def P(w):  # 1/2 ||w||^2 + C/n sum_i H_i(w), with the margin_hinge of exercise 1
        return 0.5 * w @ w + C * np.mean([margin_hinge(model, x, y, w) for x, y in zip(X, Y)])

    primal = [P(w)]
    for _ in range(n_epochs):
        for i in rng.permutation(len(X)):
            y_bar = max(range(4), key=lambda c: model.loss(Y[i], c) + w @ model.joint_feature(X[i], c))
            g = model.joint_feature(X[i], y_bar) - model.joint_feature(X[i], Y[i])
            t += 1
            w = w - (1 / t) * (w + C * g)
        primal.append(P(w))
    return w, primal


ex.check_stochastic_subgradient(stochastic_subgradient)

# %% certified_epochs
X_gap, y_gap = ex.toy_hierarchy(n=40, seed=3)
Y_gap = [int(v) for v in y_gap]
lower = ex.certified_lower_bound(X_gap, Y_gap, C=10.0)
w, primal = stochastic_subgradient(ex.hierarchy_model(), X_gap, Y_gap, C=10.0, n_epochs=30, seed=0)
gap = (np.array(primal) - lower) / lower
print("certified relative gap per epoch:", np.round(gap, 3))
first_epoch = int(np.flatnonzero(gap <= 0.10)[0])
ex.check_certified_epochs(first_epoch, X_gap, Y_gap, C=10.0, seed=0, n_epochs=30, prediction="D")

# %% markdown: certified_epochs
# The gap does not shrink at every epoch: a stochastic step follows one example's subgradient, so
# P(w) can go up; with eta_t = 1/t the steps shrink and P(w) settles towards P*. The lower bound comes
# from another learner (the one-slack cutting planes): it certifies the gap without knowing P*.
