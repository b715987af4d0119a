# Worked solutions of chapter 05 (kernels); `python tools/make_solutions.py 05` builds
# notebooks/solutions/05_solutions.ipynb from the chapter and this file.

# %% polynomial_kernel
# x.y = 1 * 3 + 2 * (-1) = 1, so (x.y + 1)^2 = 4
ex.check_polynomial_kernel((1 * 3 + 2 * -1 + 1) ** 2, "C")

# %% markdown: polynomial_kernel
# $\mathbf{x}^\top\mathbf{y} = 3 - 2 = 1$, so $(\mathbf{x}^\top\mathbf{y} + 1)^2 = 4$. (C): the expansion of
# $(x_1 y_1 + x_2 y_2 + 1)^2$ is the dot product of $\phi(\mathbf{x}) = (1, \sqrt2 x_1, \sqrt2 x_2, \sqrt2 x_1 x_2, x_1^2, x_2^2)$
# with $\phi(\mathbf{y})$; here $\phi(\mathbf{x}) = (1, \sqrt2, 2\sqrt2, 2\sqrt2, 1, 4)$, $\phi(\mathbf{y}) = (1, 3\sqrt2, -\sqrt2, -3\sqrt2, 9, 1)$
# and $1 + 6 - 4 - 12 + 9 + 4 = 4$.

# %% sigma_min
d = [np.linalg.norm(a - b) for i, a in enumerate(ex.SIGMA_X) for b in ex.SIGMA_X[i + 1:]]
ex.check_sigma_min(min(v for v in d if v > 0), "A")  # a 0 would make the whole grid 0

# %% markdown: sigma_min
# The two copies of (1, 0) are at distance 0, which the rule excludes; the next smallest distance
# is between (1, 0) and (1, 0.6): $\sigma_{\min} = 0.6$.

# %% gamma
ex.check_gamma(1 / 0.25**2, "A")  # gamma = 0.25 would be 1/sigma^2 for sigma = 2

# %% markdown: gamma
# $\exp(-\gamma\|\mathbf{x} - \mathbf{y}\|^2) = \exp(-\|\mathbf{x} - \mathbf{y}\|^2/\sigma^2)$ for
# $\gamma = 1/\sigma^2 = 16$.

# %% kernel_distance
ex.check_kernel_distance(np.sqrt(2 - 2 * np.exp(-2.0)), "C")  # every phi(x) on the unit sphere, K > 0

# %% markdown: kernel_distance
# $K(\mathbf{x}, \mathbf{x}) = K(\mathbf{y}, \mathbf{y}) = 1$ and $K(\mathbf{x}, \mathbf{y}) = e^{-2}$,
# so $d = \sqrt{2 - 2e^{-2}} \approx 1.315$.

# %% gram_matrix
def gram_matrix(X, kernel, sigma, degree):
    X = np.asarray(X, dtype=float)
    dots = X @ X.T  # x^t . x^s for every pair
    if kernel == "linear":
        return dots
    if kernel == "polynomial":
        return (dots + 1.0) ** degree
    if kernel == "gaussian":
        squared = np.sum((X[:, None, :] - X[None, :, :]) ** 2, axis=2)  # ||x^t - x^s||^2
        return np.exp(-squared / sigma**2)
    if kernel == "sigmoid":
        return np.tanh(2.0 * dots + 1.0)
    raise ValueError(f"unknown kernel {kernel!r}")


ex.check_gram(gram_matrix)

# %% is_psd
def is_psd(G):
    smallest, largest = np.linalg.eigvalsh(G)[[0, -1]]  # increasing order, for a symmetric G
    scale = max(1.0, abs(smallest), abs(largest))     # rounding is relative to the largest |eigenvalue|
    return bool(smallest >= -1e-10 * scale)


ex.check_is_psd(is_psd)
