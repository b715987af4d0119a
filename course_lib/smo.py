"""Sequential minimal optimisation (SMO) for the SVM dual of the slides (section 6.6):

    maximise   L_d(alpha) = sum_t alpha^t - 1/2 sum_t sum_s alpha^t alpha^s r^t r^s K(x^t, x^s)
    subject to sum_t alpha^t r^t = 0   and   0 <= alpha^t <= C.

Each step changes only two multipliers, alpha^i += r^i tau and alpha^j -= r^j tau, which keeps
sum alpha r = 0; along that line L_d is a parabola whose maximum is solved in closed form and then
clipped to the box. The pair (i, j) is chosen with second-order information (Fan, Chen & Lin,
JMLR 2005, "WSS 3").

Error cache. The solver keeps, for every point,

    E^t = r^t - sum_s alpha^s r^s K(x^s, x^t),

the quantity the slides average to get w0. With h(x^t) = r^t - E^t + w0 one has
r^t h(x^t) - 1 = r^t (w0 - E^t), so the KKT conditions of the dual read

    E^t <= w0 for t in I_up  = {r^t = +1, alpha^t < C} u {r^t = -1, alpha^t > 0}
    E^t >= w0 for t in I_low = {r^t = -1, alpha^t < C} u {r^t = +1, alpha^t > 0}

and alpha is optimal when  gap = max_{I_up} E - min_{I_low} E <= 0. SMO stops when gap < tol.
After a step the whole cache is refreshed with the two Gram columns K[:, i] and K[:, j].

Also here: `polish`, one exact linear solve of the KKT system once SMO's sets have settled,
tried every N / 4 steps or so while the sets change (when it misses tol but raises L_d, SMO goes
on from its result); shrinking (`_solve_shrunk`, as libsvm), SMO on the multipliers that can
still move, tried at the same times; `bias`, w0 from the cache; `separable`, the test the hard
margin needs.
Memory: K may be the whole Gram matrix (then the inverse pair curvatures are formed too, 2 N^2
floats, fine for a few thousand points) or course_lib.kernel_cache.KernelRows, rows computed on
demand in a bounded cache (each step then computes its inverse curvatures from row i).
"""

from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from course_lib._validation import (
    MAX_ABS,
    check_binary_targets,
    check_matrix,
    check_positive,
    finite_arguments,
)
from course_lib.i18n import _
from course_lib.kernel_cache import KernelRows, diagonal

TAU = 1e-12  # curvature used when K_ii + K_jj - 2 K_ij <= 0 (non-PSD kernel or duplicate points)
# polish is tried after N / 2 + POLISH_EVERY steps (the sets can have settled only once the
# support vectors have been visited), then every max(N / 4, POLISH_EVERY) steps while they change
POLISH_EVERY = 200
POLISH_ROUNDS = 4
# after a polish that SMO goes on from, or after shrinking, the next try comes this many steps later
POLISH_AGAIN = 50
# SMO on the shrunk problem only when it keeps at most this share of the points
SHRINK_MAX_SHARE = 0.5
POLISH_MAX_WORK = 2
POLISH_MIN_N = 1000


@dataclass
class SMOResult:
    alpha: np.ndarray  # the multipliers alpha^t
    E: np.ndarray  # E^t = r^t - sum_s alpha^s r^s K(x^s, x^t)
    gap: float  # max_{I_up} E - min_{I_low} E at the end (< tol when converged)
    n_iter: int
    status: str  # "converged", "max_iter" or "alpha_sum_limit"


@finite_arguments(inf_ok=('C', 'alpha_sum_limit'))
def smo(K, r, C, tol=1e-3, max_iter=None, alpha=None, alpha_sum_limit=np.inf):
    """Solve the dual for the Gram matrix K (N x N), targets r in {-1,+1}, box 0 <= alpha <= C
    (C may be np.inf: the hard margin), starting from `alpha` (default 0; it must be feasible).
    Stops when the KKT gap is below `tol`, after `max_iter` steps (default max(10^7, 100 N)), or
    as soon as sum alpha exceeds `alpha_sum_limit`."""
    K, r, alpha = _check_problem(K, r, C, tol, alpha)
    n = r.shape[0]
    if max_iter is None:
        max_iter = max(10_000_000, 100 * n)
    if alpha is None:
        alpha, E = np.zeros(n), r.astype(float)
    else:
        alpha = np.array(alpha, dtype=float)
        E = r - K @ (alpha * r)
    return _smo(K, r, C, tol, max_iter, alpha, E, alpha_sum_limit)


def _smo(K, r, C, tol, max_iter, alpha, E, alpha_sum_limit):
    """smo's steps from a feasible alpha and its error cache E (both checked by the caller)."""
    n = r.shape[0]
    # row i of 1 / ||phi(x^i) - phi(x^j)|| = 1 / sqrt(K_ii + K_jj - 2 K_ij): its square is the
    # inverse curvature of L_d along each pair direction (kept finite for non-PSD kernels and
    # duplicate points)
    inverse_distance = _inverse_distance_rows(K)
    row = K.row if isinstance(K, KernelRows) else K.__getitem__  # K(x^k, .): row(k)
    # rows on demand until SMO has computed those of a quarter of the points: then the problem is
    # a hard one, and the whole Gram matrix, if it fits, costs less than the rows still to come
    # (unless fewer than N steps are allowed: the caller then has another solver to finish)
    on_demand = K if isinstance(K, KernelRows) and K.whole_fits() and max_iter >= n else None
    positive = (r > 0).tolist()
    alpha_list = alpha.tolist()
    # membership of I_up / I_low as additive masks: 0 inside, -inf / +inf outside; in the two rows
    # of one array, so that one addition gives both E_up = E + outside_up and E_low = E + outside_low
    outside, E_sets = _set_masks(alpha, r, C), np.empty((2, n))
    outside_up, outside_low = outside
    E_up, E_low = E_sets
    b, gain = np.empty(n), np.empty(n)
    alpha_sum, total = float(alpha.sum()), float(alpha @ r)  # SMO's steps keep sum alpha r
    gap = np.inf
    status = "max_iter"
    n_iter = 0
    next_polish, tried = n // 2 + POLISH_EVERY, None
    while n_iter < max_iter:
        if n_iter >= next_polish:
            alpha = np.array(alpha_list)
            polished, tried = _polish_if_new(K, r, C, alpha, E, tol, tried, total)
            if polished is not None and polished.status == "converged":
                polished.n_iter = n_iter
                return polished
            next_polish = n_iter + max(n // 4, POLISH_EVERY)
            moved = _better_start(polished, alpha, E, r)
            if moved:  # the exact solve of the guessed sets got closer: SMO goes on from there
                alpha, E = polished.alpha, polished.E
                next_polish = n_iter + POLISH_AGAIN
            shrunk = _solve_shrunk(K, r, C, tol, max_iter - n_iter, alpha, E) if C < np.inf else None
            if shrunk is not None:  # solved on the multipliers that may still move, then all checked
                alpha, E, steps = shrunk
                n_iter += steps
                next_polish = n_iter + POLISH_AGAIN
            if moved or shrunk is not None:
                alpha_list, alpha_sum = alpha.tolist(), float(alpha.sum())
                outside[:] = _set_masks(alpha, r, C)
                if n_iter >= max_iter:
                    gap = _kkt_gap(E, alpha, r, C)
                    break
        if on_demand is not None and on_demand.misses > n // 4:
            K, on_demand = on_demand.whole(), None  # (the inverse distances stay by row)
            row = K.__getitem__
        np.add(E, outside, out=E_sets)  # E_up and E_low
        # i: the most violating point of I_up (largest E); the gap: E^i - min_{I_low} E
        i = int(E_up.argmax())
        E_i = E_up.item(i)
        gap = E_i - E_low.item(int(E_low.argmin()))
        if gap < tol:
            status = "converged"
            break
        # j: among I_low with E^j < E^i, the largest gain b^2 / ||phi(x^i) - phi(x^j)||^2 (WSS 3),
        # b^t = E^i - E^t; the same j has the largest b / ||phi(x^i) - phi(x^j)|| (b > 0 somewhere
        # since gap > 0, and b = -inf outside I_low)
        np.subtract(E_i, E_low, out=b)
        inverse_distance_i = inverse_distance(i)
        np.multiply(b, inverse_distance_i, out=gain)
        j = int(gain.argmax())
        # the step tau > 0 maximising L_d along (r^i, -r^j), clipped to the box
        tau = b.item(j) * inverse_distance_i.item(j) ** 2
        a_i, a_j = alpha_list[i], alpha_list[j]
        room_i = C - a_i if positive[i] else a_i
        room_j = a_j if positive[j] else C - a_j
        tau = min(tau, room_i, room_j)
        if tau == room_i:  # alpha^i reaches its bound: set it exactly
            a_i = C if positive[i] else 0.0
        else:
            a_i = a_i + tau if positive[i] else a_i - tau
        if tau == room_j:
            a_j = 0.0 if positive[j] else C
        else:
            a_j = a_j - tau if positive[j] else a_j + tau
        alpha_list[i], alpha_list[j] = a_i, a_j
        # E^t -= tau (K(x^i, x^t) - K(x^j, x^t)) for every t
        np.subtract(row(i), row(j), out=b)
        b *= tau
        E -= b
        _update_sets(i, a_i, positive[i], C, outside_up, outside_low)
        _update_sets(j, a_j, positive[j], C, outside_up, outside_low)
        n_iter += 1
        alpha_sum += tau * ((1.0 if positive[i] else -1.0) - (1.0 if positive[j] else -1.0))
        if alpha_sum > alpha_sum_limit:
            status = "alpha_sum_limit"
            break
    return SMOResult(alpha=np.array(alpha_list), E=E, gap=gap, n_iter=n_iter, status=status)


def _solve_shrunk(K, r, C, tol, max_iter, alpha, E):
    """Shrinking (as libsvm): a multiplier at a bound whose E^t is on the right side of every
    E^s it could be paired with (E^t < min_{I_low} E for t only in I_up, E^t > max_{I_up} E for
    t only in I_low) would not move in SMO's next steps. SMO runs on the other multipliers A
    alone (the block K_AA, so each step costs O(|A|) instead of O(N)), the others fixed; then
    E^t of the fixed ones is brought up to date from the multipliers that moved. Returns
    (alpha, E, steps), or None when A is not below SHRINK_MAX_SHARE of the points or its block
    would not fit the kernel row cache. SMO then checks the KKT conditions on every point."""
    n = r.shape[0]
    positive = r > 0
    up = np.where(positive, alpha < C, alpha > 0)
    low = np.where(positive, alpha > 0, alpha < C)
    keep = (up & low) | (up & (E >= E[low].min())) | (low & (E <= E[up].max()))
    active = np.flatnonzero(keep)
    m = active.size
    room = K.capacity * n if isinstance(K, KernelRows) else n * n  # K_AA and its curvatures
    if m > SHRINK_MAX_SHARE * n or 2 * m * m > room or m < 2:
        return None
    K_active = np.asarray(K[np.ix_(active, active)])
    sub = _smo(K_active, r[active], C, tol, max_iter, alpha[active], E[active], np.inf)
    change = (sub.alpha - alpha[active]) * r[active]
    moved, fixed = active[change != 0], np.flatnonzero(~keep)
    alpha, E = alpha.copy(), E.copy()
    alpha[active], E[active] = sub.alpha, sub.E
    if moved.size and fixed.size:
        E[fixed] -= change[change != 0] @ np.asarray(K[np.ix_(moved, fixed)])
    return alpha, E, sub.n_iter


def _inverse_distance_rows(K):
    """i -> the row 1 / sqrt(max(K_ii + K_jj - 2 K_ij, TAU)) over j: all rows computed at once for
    a Gram matrix in memory; for KernelRows one row when first asked, from row K[i], the most
    recently used kept within a quarter of its row budget (i is the most violating point, often
    the same for many steps)."""
    d = diagonal(K)
    if isinstance(K, KernelRows):
        rows, capacity = OrderedDict(), max(2, K.capacity // 4)

        def row(i):
            inverse = rows.get(i)
            if inverse is not None:
                rows.move_to_end(i)
                return inverse
            inverse = K.row(i) * -2.0
            inverse += d[i]
            inverse += d
            np.maximum(inverse, TAU, out=inverse)
            np.sqrt(inverse, out=inverse)
            rows[i] = np.divide(1.0, inverse, out=inverse)
            if len(rows) > capacity:
                rows.popitem(last=False)
            return inverse
        return row
    inverse = K * -2.0
    inverse += d[:, None]
    inverse += d[None, :]
    np.maximum(inverse, TAU, out=inverse)
    np.sqrt(inverse, out=inverse)
    np.divide(1.0, inverse, out=inverse)
    return inverse.__getitem__


def _check_problem(K, r, C, tol, alpha):
    """The inputs of smo, checked: a finite square K, targets in {-1, +1}, C > 0, tol > 0 and a
    feasible starting alpha (0 <= alpha <= C, sum alpha r = 0)."""
    if not isinstance(K, KernelRows):  # KernelRows come from checked X
        K = check_matrix(K, "K")
    if K.shape[0] != K.shape[1]:
        raise ValueError(_("K must be a square Gram matrix (N x N); got shape {shape}.").format(
                             shape=K.shape))
    r = check_binary_targets(r, K.shape[0], "r")
    check_positive(C, "C", allow_inf=True)
    check_positive(tol, "tol")
    if alpha is not None:
        alpha = check_matrix(np.reshape(alpha, (1, -1)), "alpha", n_features=K.shape[0])[0]
        if np.any(alpha < 0) or np.any(alpha > C) or abs(alpha @ r) > 1e-8 * max(1.0, alpha.sum()):
            raise ValueError(_("alpha must be feasible: 0 <= alpha <= C and sum alpha r = 0."))
    return K, r, alpha


@finite_arguments(inf_ok=('C',), shapes={"E": "n", "alpha": "n", "r": "n"})
def kkt_gap(E: np.ndarray, alpha: np.ndarray, r: np.ndarray, C: float):
    """max_{I_up} E - min_{I_low} E: <= 0 exactly at the optimum."""
    _check_C(C)
    return _kkt_gap(E, alpha, r, C)


def _kkt_gap(E, alpha, r, C):
    """kkt_gap for arguments already checked (the solvers call it inside their loops)."""
    positive = r > 0
    up = np.where(positive, alpha < C, alpha > 0)
    low = np.where(positive, alpha > 0, alpha < C)
    return float(E[up].max() - E[low].min())


def _polish_if_new(K, r, C, alpha, E, tol, tried, total):
    """polish, unless the sets of alpha (0, free, C) are those of the last failed try `tried`
    (its answer depends on the sets only), or m free multipliers make its m x m solve (m^3)
    dearer than POLISH_MAX_WORK max(N, POLISH_MIN_N)^2 (SMO's steps cost O(N) each, but no less
    than their fixed cost, about that of POLISH_MIN_N). Returns (result or None, the sets tried)."""
    sets = (alpha > 0).astype(np.int8) + (alpha >= C)
    if tried is not None and np.array_equal(sets, tried):
        return None, tried
    if np.count_nonzero(sets == 1) ** 3 > POLISH_MAX_WORK * max(r.shape[0], POLISH_MIN_N) ** 2:
        return None, sets  # the solve would cost more than the SMO steps since the last try
    return _polish(K, r, C, alpha, E, tol, total), sets


@finite_arguments(inf_ok=('C',), shapes={"K": "n n", "r": "n", "alpha": "n"})
def polish(K, r: np.ndarray, C: float, alpha: np.ndarray, tol: float):
    """Guess that the sets of alpha are final (0 < alpha < C: on the margin, alpha = C: inside it)
    and solve the linear KKT system of the free multipliers exactly:

        sum_s alpha^s r^s K(x^s, x^t) + w0 = r^t for every free t,   sum_t alpha^t r^t = 0.

    When the solution is outside the box, alpha moves towards it only as far as the box allows
    (L_d is concave and the solution is its maximum on these sets, so L_d rises all the way);
    the multiplier that stops it stays at that bound and the system of the others is solved
    again, up to POLISH_ROUNDS times (an active-set method). Returns the SMOResult if the result
    has a KKT gap below tol, else None.
    Late in SMO the sets stop changing while alpha still creeps towards the solution: one linear
    solve then replaces many small steps."""
    _check_C(C)
    check_positive(tol, "tol")
    if not isinstance(K, KernelRows):  # the Gram matrix, or rows computed on demand
        K = check_matrix(K, "K")
    polished = _polish(K, r, C, alpha, r - K @ (alpha * r), tol)
    return polished if polished is not None and polished.status == "converged" else None


def _polish_stopped(K, r, C, result, tol):
    """`result` of smo stopped at max_iter, finished by polish from its error cache when its sets
    have settled (and its solve is cheap enough, as within smo); else `result` unchanged."""
    polished, _ = _polish_if_new(K, r, C, result.alpha, result.E, tol, None, 0.0)
    if polished is None or polished.status != "converged":
        return result
    polished.n_iter = result.n_iter
    return polished


def _polish(K, r, C, alpha, E, tol, total=0.0):
    """polish from alpha and its error cache E. Only the multipliers free in alpha (the set F)
    change, so only the rows of F are read: with U the multipliers set to C, the right-hand side
    r^t - sum_{s in U} C r^s K(x^s, x^t) is E^t + sum_{s in F} (alpha^s - C [s in U]) r^s K(x^s, x^t)."""
    free = np.flatnonzero((alpha > 0) & (alpha < C))
    if isinstance(K, np.ndarray) or free.size == 0:
        rows = np.asarray(K[free]) if free.size else np.zeros((0, r.size))
    else:  # KernelRows: the rows of the free multipliers are in its cache
        rows = np.stack([K[t] for t in free])
    K_ff = rows[:, free]
    current = alpha[free].copy()  # the free multipliers, moved towards each solution in turn
    solved = np.ones(free.size, dtype=bool)  # those still free (the others are fixed at a bound)
    # sum alpha r over F so that sum alpha r = total (0; on a shrunk problem, what the fixed
    # multipliers leave)
    free_sum = total - (float(alpha @ r) - float(alpha[free] @ r[free]))
    for _ in range(POLISH_ROUNDS):
        base = np.where(solved, 0.0, current)  # the fixed ones at their bound, the others out
        m = int(solved.sum())
        system = np.ones((m + 1, m + 1))
        system[:m, :m] = K_ff[np.ix_(solved, solved)]
        system[m, m] = 0.0
        rhs = np.empty(m + 1)
        rhs[:m] = E[free[solved]] + K_ff[solved] @ ((alpha[free] - base) * r[free])
        rhs[m] = free_sum - (base * r[free]).sum()
        target = _solve_square(system, rhs)[:m] * r[free[solved]]
        # L_d is concave and target is its maximum on this face: every point of the segment
        # from current gains; go as far as the box allows, and fix the multiplier that stops it
        direction = target - current[solved]
        room = np.where(direction < 0, current[solved], C - current[solved])
        with np.errstate(divide="ignore", invalid="ignore"):
            limits = np.where(direction != 0, room / np.abs(direction), np.inf)
        step = float(limits.min()) if m else np.inf
        if step >= 1.0:
            current[solved] = target
            break
        index = np.flatnonzero(solved)
        blocked = limits <= step
        current[solved] += step * direction
        current[index[blocked]] = np.where(direction[blocked] < 0, 0.0, C)
        solved[index[blocked]] = False
    new_alpha = current
    candidate = np.where(alpha >= C, C, alpha)
    candidate[free] = new_alpha
    E = E - ((new_alpha - alpha[free]) * r[free]) @ rows
    gap = _kkt_gap(E, candidate, r, C)
    return SMOResult(alpha=candidate, E=E, gap=gap, n_iter=0,
                     status="converged" if gap < tol else "not_converged")


def _solve_square(A, b):
    """x with A x = b: by LU (np.linalg.solve), or, when A is singular (duplicate points, a
    multiplier whose row repeats another's), the least-squares solution of smallest norm."""
    try:
        x = np.linalg.solve(A, b)
    except np.linalg.LinAlgError:
        return np.linalg.lstsq(A, b, rcond=None)[0]
    return x if np.all(np.isfinite(x)) else np.linalg.lstsq(A, b, rcond=None)[0]


def _better_start(polished, alpha, E, r):
    """Whether SMO should go on from a polish that missed tol: feasible (sum alpha r unchanged to
    rounding; the solve may be singular) and higher on L_d than SMO's current point. With
    delta = alpha' - alpha and dL_d/dalpha^t = r^t E^t, the change of L_d (a quadratic) is
    delta r . E - 1/2 (delta r)^T K (delta r) = 1/2 sum_t delta^t r^t (E^t + E'^t), since
    K (delta r) = E - E' (this holds on a shrunk problem too, where E counts the fixed ones)."""
    if polished is None:
        return False
    change = (polished.alpha - alpha) * r
    if abs(float(change.sum())) > 1e-10 * max(1.0, float(alpha.sum())):
        return False
    return 0.5 * float(change @ (E + polished.E)) > 0.0


def _check_C(C):
    """C's range (its kind is checked at the door): the helpers run inside solver loops."""
    if not C > 0:
        raise ValueError(_("C must be a positive number (np.inf allowed: the hard margin); got "
                           "{C!r}.").format(C=C))


def _set_masks(alpha, r, C):
    """The additive masks of I_up (row 0: 0 inside, -inf outside) and I_low (row 1: 0 inside,
    +inf outside) for the multipliers alpha."""
    positive = r > 0
    return np.stack([np.where(np.where(positive, alpha < C, alpha > 0), 0.0, -np.inf),
                     np.where(np.where(positive, alpha > 0, alpha < C), 0.0, np.inf)])


def _update_sets(k, alpha_k, positive_k, C, outside_up, outside_low):
    """I_up = {r=+1, alpha<C} u {r=-1, alpha>0}; I_low = {r=-1, alpha<C} u {r=+1, alpha>0}."""
    in_up = alpha_k < C if positive_k else alpha_k > 0.0
    in_low = alpha_k > 0.0 if positive_k else alpha_k < C
    outside_up[k] = 0.0 if in_up else -np.inf
    outside_low[k] = 0.0 if in_low else np.inf


@finite_arguments(inf_ok=('C',), shapes={"alpha": "n", "E": "n", "r": "n", "free": "n"})
def bias(alpha: np.ndarray, E: np.ndarray, r: np.ndarray, C: float, free: np.ndarray):
    """w0 from the error cache: the mean of E^t = r^t - sum_s alpha^s r^s K(x^s, x^t) over the
    margin support vectors `free` (0 < alpha < C, where r^t h(x^t) = 1), as on the slides; with
    none, the midpoint of the interval of w0 allowed by the KKT conditions (max_{I_up} E,
    min_{I_low} E), as libsvm does."""
    _check_C(C)
    if np.any(free):
        return float(np.mean(E[free]))
    positive = r > 0
    up = np.where(positive, alpha < C, alpha > 0)
    low = np.where(positive, alpha > 0, alpha < C)
    return float((E[up].max() + E[low].min()) / 2.0)


@finite_arguments(shapes={"K": "n n", "r": "n"})
def separable(K: np.ndarray, r: np.ndarray, epsilon=1e-3, max_iter=None, lam: np.ndarray = None):
    """Decide whether the classes are separable in the feature space of the Gram matrix K with a
    margin above epsilon / 2 times the diameter of the data there (the largest distance between
    two points phi(x^t), phi(x^s)).

    Separable (with a bias) <=> the convex hulls of {phi(x^t) : r^t = +1} and {phi(x^t) : r^t = -1}
    are disjoint, and the hard margin is half the distance d between them. With lambda >= 0
    summing to 1 over each class, w = p - q = sum_t lambda^t r^t phi(x^t) joins a point of each
    hull, and with g^t = r^t w^T phi(x^t) (the gradient of ||w||^2 / 2 in lambda):

        (min_{r=+1} g + min_{r=-1} g) / ||w||  <=  d  <=  ||w||.

    Mass is moved between two points of one class at a time (a second-order pair step, as in SMO)
    to shrink ||w|| until one bound decides. Returns (verdict, lambda): verdict is True when the
    lower bound exceeds epsilon * diameter, False when ||w|| <= epsilon * diameter, None when
    max_iter steps (default 100 N + 10^5) decide neither; pass lambda back to continue.
    """
    if not 0 < epsilon <= 1:
        raise ValueError(f"epsilon must be in (0, 1] (a fraction of the data's diameter); got {epsilon!r}.")
    n = r.shape[0]
    if max_iter is None:
        max_iter = 100 * n + 100_000
    if not np.all(np.abs(r) == 1):
        raise ValueError(f"r must hold the targets -1 and +1; got {np.unique(r)[:5].tolist()}.")
    diag = np.diag(K).copy()
    scale = float(np.max(np.abs(diag)))
    if scale > 0 and not 1 / MAX_ABS <= scale <= MAX_ABS:  # the verdict does not depend on K's scale
        K, diag = K / scale, diag / scale
    diameter2 = float(np.max(diag[:, None] + diag[None, :] - 2.0 * K))
    threshold2 = epsilon**2 * diameter2
    positive = r > 0
    if lam is None:  # start from the two centroids
        lam = np.where(positive, 1.0 / positive.sum(), 1.0 / (~positive).sum())
    lam = np.array(lam, dtype=float)
    g = r * (K @ (lam * r))
    # additive masks: -inf outside the class (outside_*), or where lambda = 0 (empty_*)
    outside_pos = np.where(positive, 0.0, -np.inf)
    outside_neg = np.where(positive, -np.inf, 0.0)
    empty_pos = np.where(positive & (lam > 0), 0.0, -np.inf)
    empty_neg = np.where(~positive & (lam > 0), 0.0, -np.inf)
    work, curvature, drop = np.empty(n), np.empty(n), np.empty(n)
    for _ in range(max_iter):
        norm2 = float(lam @ g)  # ||w||^2 = sum_t lambda^t g^t
        if norm2 <= threshold2:
            return False, lam
        lower = -float(np.subtract(outside_pos, g, out=work).max())
        lower -= float(np.subtract(outside_neg, g, out=work).max())
        if lower > 0 and lower**2 > threshold2 * norm2:
            return True, lam
        # in each class, i: the point with lambda > 0 of largest g; then j of the same class
        # with the largest gain (g^i - g^j)^2 / ||phi(x^i) - phi(x^j)||^2 of moving mass i -> j
        i_pos = int(np.add(g, empty_pos, out=work).argmax())
        i_neg = int(np.add(g, empty_neg, out=work).argmax())
        np.copyto(curvature, np.where(positive, K[i_pos], K[i_neg]))
        curvature *= -2.0
        curvature += diag
        curvature += np.where(positive, diag[i_pos], diag[i_neg])
        np.maximum(curvature, TAU, out=curvature)
        np.subtract(np.where(positive, g[i_pos], g[i_neg]), g, out=drop)
        np.maximum(drop, 0.0, out=drop)
        np.multiply(drop, drop, out=work)
        work /= curvature
        j = int(work.argmax())
        if work[j] <= 0:  # no pair step shrinks ||w||: the hulls are at their closest points
            return lower > 0 and lower**2 > threshold2 * norm2, lam
        i = i_pos if positive[j] else i_neg
        delta = min(drop[j] / curvature[j], lam[i])
        lam[i] -= delta
        lam[j] += delta
        empty = empty_pos if positive[j] else empty_neg
        empty[j] = 0.0
        if lam[i] <= 0.0:
            lam[i] = 0.0
            empty[i] = -np.inf
        np.subtract(K[j], K[i], out=work)
        work *= delta * r[i]
        work *= r
        g += work
    return None, lam
