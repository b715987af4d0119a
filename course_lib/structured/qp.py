"""The working-set QP of the cutting-plane learners, in its dual, solved from scratch.

A working set holds linear constraints <w, a_k> >= b_k - xi_g, each one tied to a slack
xi_g of its group g (n-slack: one group per example with c_g = C/n; one-slack: a single
group with c = C). The primal and its (Lagrange) dual are

    primal  min_{w, xi}  1/2 ||w||^2 + sum_g c_g xi_g   s.t. <w, a_k> >= b_k - xi_g(k), xi_g >= 0
    dual    max_alpha    D(alpha) = sum_k alpha_k b_k - 1/2 ||sum_k alpha_k a_k||^2
            s.t. alpha_k >= 0 and sum_{k in g} alpha_k <= c_g,        with w = sum_k alpha_k a_k.

In terms of the Gram matrix G_kl = <a_k, a_l>, D(alpha) = b.alpha - 1/2 alpha^T G alpha.
For one group this is a QP over the capped simplex {alpha >= 0, sum alpha <= c}, solved here
by pairwise coordinate ascent with closed-form steps (SMO): a slack coordinate alpha_0 = c -
sum alpha with a_0 = 0, b_0 = 0 turns the cap into an equality; each step moves mass t from
one coordinate to another, t = (g_up - g_down) / ||a_up - a_down||^2 clipped to stay feasible,
where g = b - G alpha is the gradient (the violation b_k - <w, a_k> of each constraint).
The duality gap, c max(0, max_k g_k) - sum_k alpha_k g_k >= 0, certifies the accuracy.
"""

import numpy as np


def simplex_qp_gap(G, b, cap, alpha):
    """Duality gap of the capped-simplex QP at a feasible alpha: c max(0, max_k g_k) - alpha.g."""
    g = b - G @ alpha
    return cap * max(0.0, float(g.max(initial=0.0))) - float(alpha @ g)


def solve_simplex_qp(G, b, cap, alpha=None, tol=1e-9, max_steps=100_000):
    """max_alpha b.alpha - 1/2 alpha^T G alpha  s.t. alpha >= 0, sum(alpha) <= cap.

    G: (K, K) positive semi-definite Gram matrix, b: (K,), alpha: a feasible warm start (or None
    for 0). Stops when the duality gap is below `tol` (absolute, in objective units).
    Returns (alpha, gap).
    """
    G = np.asarray(G, dtype=float)
    b = np.asarray(b, dtype=float)
    K = b.shape[0]
    if G.shape != (K, K):
        raise ValueError(f"G must have shape ({K}, {K}) to match b; got {G.shape}.")
    if not cap > 0:
        raise ValueError(f"cap must be positive; got {cap!r}.")
    # coordinate K is the slack alpha_0 = cap - sum(alpha), with a zero constraint vector
    a = np.zeros(K + 1)
    if alpha is not None:
        a[:K] = np.maximum(np.asarray(alpha, dtype=float), 0.0)
        total = a[:K].sum()
        if total > cap:
            a[:K] *= cap / total
    a[K] = cap - a[:K].sum()
    Gx = np.zeros((K + 1, K + 1))
    Gx[:K, :K] = G
    bx = np.r_[b, 0.0]
    diag = np.diag(Gx)
    g = bx - Gx @ a
    gap = np.inf
    for step in range(max_steps):
        if step % 50 == 0:  # refresh the gradient against round-off drift
            g = bx - Gx @ a
        up = int(np.argmax(g))
        gap = cap * g[up] - float(a @ g)
        if gap <= tol:
            break
        # second-order choice of the coordinate that gives mass (largest objective increase)
        diff = g[up] - g
        eta = np.maximum(diag[up] + diag - 2.0 * Gx[up], 1e-15)
        gain = np.where((a > 0) & (diff > 0), diff * diff / eta, -1.0)
        down = int(np.argmax(gain))
        if gain[down] <= 0:
            break
        t = min(diff[down] / eta[down], a[down])
        a[up] += t
        a[down] -= t
        g -= t * (Gx[:, up] - Gx[:, down])
    alpha = np.maximum(a[:K], 0.0)
    return alpha, simplex_qp_gap(G, b, cap, alpha)


def dual_value(G, b, alpha):
    """D(alpha) = b.alpha - 1/2 alpha^T G alpha."""
    return float(b @ alpha - 0.5 * alpha @ G @ alpha)
