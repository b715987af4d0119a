"""Solutions of chapter 02 (notebooks/02_max_margin_and_lagrange.ipynb); `python tools/make_solutions.py 02`."""

# %% canonical_scaling
w, w0 = np.array([3.0, 1.0]), 0.0
smallest = np.min(ex.HARD_R * (ex.HARD_X @ w + w0))
ex.check_canonical_scaling(w / smallest, w0 / smallest, "D")  # h and ||w|| both divided by 3

# %% markdown: canonical_scaling
# $r^t(\mathbf{w}^\top\mathbf{x}^t + w_0)$ for $\mathbf{w} = (3, 1)$, $w_0 = 0$ is $(9, 3, 3, 7)$: the smallest is 3, so divide
# by 3: $\mathbf{w} = (1, 1/3)$, $w_0 = 0$.

# %% lagrange
ex.check_lagrange(0.4, 0.8, 0.8, "B")  # grad f = (-0.8, -1.6) = -0.8 grad g

# %% markdown: lagrange
# $L = 1 - x_1^2 - x_2^2 + \lambda(x_1 + 2x_2 - 2)$: $-2x_1 + \lambda = 0$, $-2x_2 + 2\lambda = 0$,
# $x_1 + 2x_2 = 2$. So $x_1 = \lambda/2$, $x_2 = \lambda$, and $\lambda/2 + 2\lambda = 2$ gives $\lambda = 0.8$,
# $\mathbf{x} = (0.4, 0.8)$.

# %% hard_margin
ex.check_hard_margin([1.0, 0.0], 0.0, [1, 2], "D")

# %% markdown: hard_margin
# The closest points across the classes are $\mathbf{x}^1 = (-1, 0)$ and $\mathbf{x}^2 = (1, 0)$; the maximal margin
# line bisects them: $x_1 = 0$. With $r h = 1$ on both, $\mathbf{w} = (1, 0)$ and $w_0 = 0$ (margin 1). They are the only
# support vectors ($\alpha = 0.5$ each: $\mathbf{w} = 0.5 \cdot (1, 0) - 0.5 \cdot (-1, 0)$).

# %% two_point_svm
def two_point_svm(x_plus, x_minus):
    d = x_plus - x_minus
    alpha = 2.0 / (d @ d)  # maximiser of L_d = 2 alpha - alpha^2 ||d||^2 / 2
    w = alpha * d  # w = alpha^1 r^1 x^1 + alpha^2 r^2 x^2
    w0 = 1.0 - w @ x_plus  # r^1 h(x^1) = 1
    return alpha, w, w0


ex.check_two_point_svm(two_point_svm)

# %% markdown: two_point_svm
# With $r^1 = +1$, $r^2 = -1$, $\sum_t \alpha^t r^t = 0$ gives $\alpha^1 = \alpha^2 = \alpha$, and
# $L_d = 2\alpha - \frac{1}{2}\alpha^2\|\mathbf{x}^1 - \mathbf{x}^2\|^2$ is maximal at $\alpha = 2/\|\mathbf{x}^1 - \mathbf{x}^2\|^2$.
# Then $\mathbf{w} = \alpha(\mathbf{x}^1 - \mathbf{x}^2)$ and both points are support vectors on the margin:
# $w_0 = 1 - \mathbf{w}^\top\mathbf{x}^1$ (the same as $-1 - \mathbf{w}^\top\mathbf{x}^2$, and as their average, the slides' formula).
# The margin is $1/\|\mathbf{w}\| = \|\mathbf{x}^1 - \mathbf{x}^2\|/2$: the line bisects the two points.
