"""Solutions of chapter 03 (notebooks/03_soft_margins.ipynb); `python tools/make_solutions.py 03`."""

# %% slacks
margin = ex.SOFT_R * (ex.SOFT_X @ ex.SOFT_W + ex.SOFT_W0)
xi = np.maximum(0.0, 1.0 - margin)
ex.check_slacks(xi)

# %% markdown: slacks
# $r^t h(\mathbf{x}^t) = (2, 0.5, -0.5, 3)$, so $\xi^t = \max(0, 1 - r^t h(\mathbf{x}^t)) = (0, 0.5, 1.5, 0)$: the second
# point is inside the margin, the third is misclassified.

# %% primal_objective
xi = np.maximum(0.0, 1.0 - ex.SOFT_R * (ex.SOFT_X @ ex.SOFT_W + ex.SOFT_W0))
ex.check_primal_objective(0.5 * ex.SOFT_W @ ex.SOFT_W + 2.0 * xi.sum())

# %% markdown: primal_objective
# $\frac{1}{2}\|\mathbf{w}\|^2 = 0.5$ and $C\sum_t\xi^t = 2 \times 2 = 4$: the primal is $4.5$.

# %% smo_step
def smo_step(alpha, i, j, K, r, C):
    E = r - K @ (alpha * r)  # E^t = r^t - sum_s alpha^s r^s K[s, t] (K is symmetric)
    tau = (E[i] - E[j]) / (K[i, i] + K[j, j] - 2 * K[i, j])
    room_i = C - alpha[i] if r[i] > 0 else alpha[i]  # alpha^i moves by +r^i tau
    room_j = alpha[j] if r[j] > 0 else C - alpha[j]  # alpha^j moves by -r^j tau
    tau = min(tau, room_i, room_j)
    new = alpha.copy()
    new[i] += r[i] * tau
    new[j] -= r[j] * tau
    return new


ex.check_smo_step(smo_step)

# %% markdown: smo_step
# The pair direction keeps $\sum_t \alpha^t r^t = 0$; along it $L_d$ is a parabola with slope $E^i - E^j$ and curvature
# $K_{ii} + K_{jj} - 2K_{ij}$, hence $\tau^*$. Clipping takes the smallest of $\tau^*$ and the room each multiplier has
# before leaving $[0, C]$: the multiplier that hits its bound stops exactly there.
