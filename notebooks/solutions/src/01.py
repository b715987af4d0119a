"""Solutions of chapter 01 (notebooks/01_linear_discriminants.ipynb); `python tools/make_solutions.py 01`."""

# %% signed_distance
ex.check_signed_distance(14 / 5)

# %% markdown: signed_distance
# $h(\mathbf{x}) = 3 \cdot 4 + 4 \cdot 3 - 10 = 14$ and $\|\mathbf{w}\| = 5$, so the signed distance is $14/5 = 2.8$.

# %% perceptron_update
ex.check_perceptron_update([-1.0, -2.0], -0.5)

# %% markdown: perceptron_update
# $r\,h(\mathbf{x}) = -(2 - 1 + 0.5) = -1.5 \le 0$: the point is misclassified, so
# $\mathbf{w} \leftarrow (1, -1) + (-1)(2, 1) = (-1, -2)$ and $w_0 \leftarrow 0.5 - 1 = -0.5$.

# %% perceptron
def perceptron(X, r, eta, n_epochs):
    w, w0 = np.zeros(X.shape[1]), 0.0
    for _ in range(n_epochs):
        for t in range(len(X)):
            if r[t] * (X[t] @ w + w0) <= 0:  # <= 0: at w = 0 every point must trigger an update
                w = w + eta * r[t] * X[t]
                w0 = w0 + eta * r[t]
    return w, w0


ex.check_perceptron(perceptron)

# %% markdown: perceptron
# Two loops, the epochs and the points in order; the test uses $\le 0$ so that training can leave
# $\mathbf{w} = 0$ (with $< 0$ nothing would ever move). Once an epoch makes no update, the later ones
# change nothing either, which is why the library may stop early and still agree.

# %% least_squares
ex.check_least_squares(28 / 59, -7 / 59, "B")

# %% markdown: least_squares
# $\partial E/\partial w = 0$ and $\partial E/\partial w_0 = 0$ give
# $w \sum x^2 + w_0 \sum x = \sum r x$ and $w \sum x + 4 w_0 = \sum r$, i.e. $15 w + w_0 = 7$ and $w + 4 w_0 = 0$:
# $w = 28/59$, $w_0 = -7/59$.

# %% version_space_interval
Xs, rs = data.linearly_separable(n=30, seed=0)
p = Xs @ np.array([1.0, 1.0])
ex.check_version_space_interval(-p[rs > 0].min(), -p[rs < 0].max(), Xs, rs)

# %% markdown: version_space_interval
# $w_0 > -\mathbf{w}^\top\mathbf{x}^t$ for every positive point and $w_0 < -\mathbf{w}^\top\mathbf{x}^t$ for every negative one:
# the tightest bounds are $-\min_{r=+1} \mathbf{w}^\top\mathbf{x}$ ($S$) and $-\max_{r=-1} \mathbf{w}^\top\mathbf{x}$ ($G$).
