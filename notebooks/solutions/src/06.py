"""Worked solutions of chapter 06's exercises (sections named after the exercise cells)."""

# %% hinge_gradient
from course_lib.exercises import svm_gradient as ex


def gradient(alpha, w0, G, r, lam):
    """(dE/dalpha, dE/dw0) of E_hinge at (alpha, w0)."""
    h = G @ (alpha * r) + w0
    r_in_Y = np.where(r * h < 1, r, 0.0)  # r^t for the points inside the margin, 0 elsewhere
    return -r * (G @ r_in_Y) + lam * alpha, -r_in_Y.sum()


print(ex.check_hinge_gradient(gradient))

# The library's version, for comparison:
from course_lib.svm_gradient import hinge_gradient

print(inspect.getsource(hinge_gradient))

# %% markdown: hinge_gradient
# h = G (alpha * r) + w0 gives every h(x^t) at once. Keeping r^t only for the points of Y
# (r^t h(x^t) < 1) and multiplying by G sums r^t K(x^s, x^t) over Y for every s. The lambda
# term adds lambda alpha^s. Where some r^t h(x^t) = 1 exactly, E has a kink: this is then one
# subgradient (the check avoids those points, where finite differences would disagree).

# %% hinge_losses
ex.check_hinge_losses([2, 1, 0.5, 0, 0], "A")

# %% first_step
G = kernels.gram(ex.GD_X, "gaussian", sigma=1.0)
r = ex.GD_R
step = 0.1 * r * (G @ r)  # -eta dE/dalpha at alpha = 0: every point is in Y
alpha = np.maximum(step, 0.0)  # the slides' clipping
w0 = 0.1 * r.sum()  # -eta dE/dw0
print(f"unclipped {np.round(step, 4)}, alpha {np.round(alpha, 4)}, w0 {w0:g}")
ex.check_first_step(alpha, w0, "D")  # dE/dalpha^1 > 0: clipped
