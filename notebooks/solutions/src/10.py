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
