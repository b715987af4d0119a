import numpy as np
import pytest

from course_lib import lagrange


def test_slides_example_matches_closed_form():
    x, lam = lagrange.solve_lagrange()
    # closed form: -2 x_i + lambda = 0 and x1 + x2 = 1 give x_i = lambda / 2 = 1 / 2
    np.testing.assert_allclose(x, [0.5, 0.5], atol=1e-12)
    assert lam == pytest.approx(1.0)
    assert lagrange.f(x) == pytest.approx(0.5)


def test_slides_example_matches_brute_force_scan_of_the_constraint_line():
    t = np.linspace(-3, 3, 600_001)
    line = np.c_[t, 1 - t]  # every point with x1 + x2 - 1 = 0
    best = line[np.argmax(lagrange.f(line))]
    x, _ = lagrange.solve_lagrange()
    np.testing.assert_allclose(x, best, atol=1e-5)


def test_gradients_are_parallel_at_the_optimum():
    x, lam = lagrange.solve_lagrange()
    np.testing.assert_allclose(lagrange.grad_f(x) + lam * lagrange.grad_g(x), 0, atol=1e-12)
    # and not parallel elsewhere on the line
    other = np.array([0.2, 0.8])
    gf, gg = lagrange.grad_f(other), lagrange.grad_g(other)
    assert abs(gf[0] * gg[1] - gf[1] * gg[0]) > 0.1


@pytest.mark.parametrize("seed", range(5))
def test_random_concave_problems_against_a_scan_of_the_line(seed):
    rng = np.random.default_rng(seed)
    B = rng.normal(size=(2, 2))
    H = -(B @ B.T + 0.5 * np.eye(2))
    q, a, b = rng.normal(size=2), rng.normal(size=2), rng.normal()
    x, lam = lagrange.solve_lagrange(H, q, a, b)
    # parametrise a.x = b as x0 + t d with d orthogonal to a
    x0 = a * b / (a @ a)
    d = np.array([-a[1], a[0]])
    t = np.linspace(-50, 50, 2_000_001)
    pts = x0 + t[:, None] * d
    values = pts @ q + 0.5 * np.einsum("ij,jk,ik->i", pts, H, pts)
    np.testing.assert_allclose(x, pts[np.argmax(values)], atol=1e-3)
    np.testing.assert_allclose(H @ x + q + lam * a, 0, atol=1e-9)


def test_inequality_active_and_inactive_against_a_grid():
    grid = np.stack(np.meshgrid(np.linspace(-2, 2, 801), np.linspace(-2, 2, 801)), -1).reshape(
        -1, 2
    )
    for a, b, expected in [((1, 1), 1, "active"), ((-1, -1), -1, "inactive")]:
        x, lam, status = lagrange.maximise_with_inequality(a=np.array(a, float), b=b)
        feasible = grid[lagrange.g(grid, np.array(a, float), b) >= 0]
        best = feasible[np.argmax(lagrange.f(feasible))]
        assert status == expected
        np.testing.assert_allclose(x, best, atol=0.01)
        if expected == "active":
            assert lam == pytest.approx(1.0)
        else:
            assert lam == 0.0 and np.allclose(x, 0)


def test_kkt_accepts_the_optimum_and_rejects_wrong_points():
    a = lagrange.EXAMPLE_A
    ok = lagrange.kkt_conditions(
        lagrange.g([0.5, 0.5]), 1.0, lagrange.grad_f([0.5, 0.5]), a, maximise=True
    )
    assert ok["satisfied"] and ok["active"].all()
    # inactive constraint with a positive multiplier breaks complementary slackness
    bad = lagrange.kkt_conditions(lagrange.g([1.0, 1.0]), 1.0)
    assert not bad["complementary_slackness"] and not bad["satisfied"]
    # negative multiplier
    assert not lagrange.kkt_conditions(0.0, -1.0)["dual_feasible"]
    # infeasible point
    assert not lagrange.kkt_conditions(-0.5, 0.0)["primal_feasible"]
    # wrong lambda breaks stationarity
    assert not lagrange.kkt_conditions(0.0, 2.0, lagrange.grad_f([0.5, 0.5]), a)["stationary"]


def test_svm_kkt_conditions_on_a_hand_solved_problem():
    # two points x = -1 (r=-1) and x = +1 (r=+1): w = 1, w0 = 0, alpha = (0.5, 0.5)
    r = np.array([-1.0, 1.0])
    X = np.array([-1.0, 1.0])
    report = lagrange.svm_kkt_conditions([0.5, 0.5], r, X * 1.0 + 0.0)
    assert report["satisfied"]
    assert not lagrange.svm_kkt_conditions([0.5, 0.2], r, X)["satisfied"]  # unbalanced
    assert lagrange.svm_kkt_conditions([0.0, 0.0], r, X * 0.5)["violations"].all()


def test_input_errors():
    with pytest.raises(ValueError, match="a must not be zero"):
        lagrange.solve_lagrange(a=np.zeros(2))
    with pytest.raises(ValueError, match="no unique solution"):
        lagrange.solve_lagrange(H=np.zeros((2, 2)), a=np.array([1.0, 0.0]))
    with pytest.raises(ValueError, match="negative definite"):
        lagrange.maximise_with_inequality(H=np.eye(2))
    with pytest.raises(ValueError, match="one entry per constraint"):
        lagrange.kkt_conditions([0.0, 1.0], [1.0])
