"""The working-set dual QP solver against KKT conditions and against scipy.optimize (reference)."""

import numpy as np
import pytest
from scipy.optimize import minimize

from course_lib.structured.qp import dual_value, rounding_gap, simplex_qp_gap, solve_simplex_qp


def random_instance(seed, K=6, d=4):
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(K, d))
    b = rng.uniform(0.0, 2.0, size=K)
    return A @ A.T, b


def reference_solution(G, b, cap):
    K = len(b)
    result = minimize(
        lambda a: -(b @ a - 0.5 * a @ G @ a), np.full(K, cap / (2 * K)),
        jac=lambda a: -(b - G @ a), method="SLSQP", bounds=[(0, None)] * K,
        constraints=[{"type": "ineq", "fun": lambda a: cap - a.sum(), "jac": lambda a: -np.ones(K)}],
        options={"ftol": 1e-14, "maxiter": 1000},
    )
    return result.x


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("cap", [0.05, 1.0, 100.0])
def test_matches_scipy_and_kkt(seed, cap):
    G, b = random_instance(seed)
    alpha, gap = solve_simplex_qp(G, b, cap, tol=1e-12)
    assert np.all(alpha >= 0) and alpha.sum() <= cap + 1e-12
    assert gap <= 1e-10
    reference = reference_solution(G, b, cap)
    assert dual_value(G, b, alpha) >= dual_value(G, b, reference) - 1e-9
    # KKT: there is lambda >= 0 with g_k <= lambda for all k, g_k = lambda where alpha_k > 0,
    # and lambda = 0 unless the cap is active.
    g = b - G @ alpha
    lam = max(0.0, g.max())
    support = alpha > 1e-9 * cap
    assert np.all(g <= lam + 1e-7)
    assert np.allclose(g[support], lam, atol=1e-6)
    if alpha.sum() < cap * (1 - 1e-9):
        assert lam < 1e-6


def test_degenerate_duplicate_and_zero_constraints():
    a = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 0.0]])
    G, b = a @ a.T, np.array([1.0, 1.0, 0.5])
    alpha, gap = solve_simplex_qp(G, b, 10.0, tol=1e-12)
    # the zero constraint forces xi >= 0.5 (cap active, lambda = 0.5), so s = alpha_0 + alpha_1
    # maximises s - s^2 / 2 + 0.5 (10 - s): s = 0.5, and w = 0.5 e_1
    assert alpha[:2].sum() == pytest.approx(0.5)
    assert alpha.sum() == pytest.approx(10.0)
    assert gap <= 1e-10


def test_warm_start_and_gap_function():
    G, b = random_instance(3, K=10)
    cold, _ = solve_simplex_qp(G, b, 1.0, tol=1e-12)
    warm, _ = solve_simplex_qp(G, b, 1.0, alpha=np.full(10, 5.0), tol=1e-12)  # infeasible start is rescaled
    assert dual_value(G, b, warm) == pytest.approx(dual_value(G, b, cold), abs=1e-10)
    assert simplex_qp_gap(G, b, 1.0, np.zeros(10)) == pytest.approx(max(0.0, b.max()))


def test_validation():
    with pytest.raises(ValueError, match="shape"):
        solve_simplex_qp(np.eye(2), np.ones(3), 1.0)
    with pytest.raises(ValueError, match="cap"):
        solve_simplex_qp(np.eye(2), np.ones(2), 0.0)


def test_the_rounding_floor_is_reached_and_certified():
    """Constraint vectors of length ~10^3 and a cap of 100: a gap of 1e-9 is below what float64
    resolves (g = b - G alpha carries errors ~ eps cap max G_kk); asked for the floor
    rounding_gap instead, the solver reaches it, and the gap recomputed in extended precision
    confirms it."""
    rng = np.random.default_rng(0)
    A = 1e3 * rng.normal(size=(30, 6))
    G, b, cap = A @ A.T, rng.uniform(0.0, 1.0, size=30), 100.0
    floor = rounding_gap(G, b, cap)
    assert floor > 1e-9
    alpha, gap = solve_simplex_qp(G, b, cap, tol=floor)
    assert np.all(alpha >= 0) and alpha.sum() <= cap * (1 + 1e-12)
    assert gap <= floor
    A_long, alpha_long = A.astype(np.longdouble), alpha.astype(np.longdouble)
    g = b.astype(np.longdouble) - A_long @ (A_long.T @ alpha_long)
    assert cap * max(0.0, g.max()) - alpha_long @ g <= 2 * floor
