"""Solutions of chapter 08 (multiclass SVM): one section per exercise of the chapter."""

# %% multi_vector
def multi_vector(x, y, k):
    n = len(x)
    psi = np.zeros(n * k)
    psi[y * n:(y + 1) * n] = x  # block y holds x, the other k - 1 blocks stay 0
    return psi


ex.check_multi_vector(multi_vector)

# %% markdown: multi_vector
# $n = 2$, $k = 3$: $\Psi$ has 6 entries and $\mathbf{x}$ sits in block 2 (entries 3-4): $(0, 0, 2, -1, 0, 0)$.
# In code the classes are numbered from 0, so block $y$ is the slice `y * n` to `(y + 1) * n`.

# %% hinge
ex.check_hinge(2.5, 3, "B")

# %% markdown: hinge
# Scores $\langle \mathbf{w}_{y'}, \mathbf{x}\rangle = (1, 0.5, 1.5)$, true class $y = 1$ (score 1). The augmented
# terms $\Delta(y', 1) + s_{y'} - s_1$ are $0$, $1 - 0.5 = 0.5$, $2 + 0.5 = 2.5$: $\ell = 2.5$ at $\hat y = 3$.
# The reason is (B): $\ell = \Delta(3, 1) + (s_3 - s_1) = 2 + 0.5$. The maximum over $y'$ is at least its term at
# the predicted class, $\Delta(y_{pred}, y) + s_{y_{pred}} - s_y \ge \Delta(y_{pred}, y)$ since the prediction scores at
# least as high as the true class: the hinge bounds the task loss from above.

# %% first_sgd_step
ex.check_first_sgd_step([1, 0.5, 0, 0, -1, -0.5])

# %% markdown: first_sgd_step
# At $\mathbf{w}^{(1)} = \mathbf{0}$ every score is 0, so $\hat y$ maximises $\Delta(y', 1) = (0, 1, 2)$: $\hat y = 3$.
# The factor $(1 - 1/t) = 0$ at $t = 1$, so $\mathbf{w}^{(2)} = -\frac{1}{2\lambda}[\Psi(\mathbf{x}, 3) - \Psi(\mathbf{x}, 1)]$
# with $2\lambda = 1$: $(1, 0.5, 0, 0, -1, -0.5)$.

# %% pac_sgd
ex.check_pac_sgd(1600, 2 / (1 * np.sqrt(1600)), "A")

# %% markdown: pac_sgd
# $T \ge (B\rho/\epsilon)^2 = (2 / 0.05)^2 = 1600$ and $\eta = B/(\rho\sqrt T) = 2 / 40 = 0.05$.

# %% loss_augmented_argmax
def augmented_argmax(scores, y, Delta):
    rows = np.arange(len(y))
    augmented = Delta[:, y].T + scores - scores[rows, y][:, None]   # row i: Delta(y', y_i) + s_i(y') - s_i(y_i)
    return np.argmax(augmented, axis=1)


ex.check_loss_augmented_argmax(augmented_argmax)

# %% sgd_step
def sgd_step(W, t, x, y, lam, Delta):
    y_hat = augmented_argmax((W @ x)[None], np.array([y]), Delta)[0]
    W = (1 - 1 / t) * W
    W[y_hat] -= x / (2 * lam * t)   # - 1/(2 lambda t) Psi(x, y_hat)
    W[y] += x / (2 * lam * t)       # + 1/(2 lambda t) Psi(x, y); the two cancel when y_hat = y
    return W


ex.check_sgd_step(sgd_step)
