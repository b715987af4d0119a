"""Worked solutions of chapter 04's exercises (sections named after the exercise cells)."""

# %% xor_map
from course_lib.exercises import basis_functions as ex


def phi(X):
    """(n, 2) -> (n, 3): one row z = (x1, x2, x1 x2) per row of X."""
    X = np.asarray(X, dtype=float)
    return np.column_stack([X[:, 0], X[:, 1], X[:, 0] * X[:, 1]])


print(ex.check_xor_map(phi))

# The library's version, for comparison (it also checks its input):
import inspect

from course_lib import basis

print(inspect.getsource(basis.xor_map))

# %% markdown: xor_map
# `X[:, 0] * X[:, 1]` multiplies the two coordinates of every row at once; `np.column_stack`
# puts the three columns side by side. On the four XOR points it gives the slides' table of z.

# %% xor_plane
# The SVM's plane of the chapter, w = (2, 2, -4), w0 = -1: h = -(2 x1 - 1)(2 x2 - 1), whose
# boundary is the two lines x1 = 1/2, x2 = 1/2, half-way between the corners.
ex.check_xor_plane([2, 2, -4], -1, "C")  # with w3 = 0 it would be a line of the (x1, x2) plane

# %% markdown: xor_plane
# z1 = (0, 0, 0) needs w0 < 0; z2 and z3 need w2 + w0 > 0 and w1 + w0 > 0; z4 needs
# w1 + w2 + w3 + w0 < 0, which a negative w3 allows. Any (w1, w2, w3, w0) proportional to
# (2, 2, -4, -1) puts the boundary at x1 = 1/2 and x2 = 1/2 and also separates points near the
# corners; planes that pass close to some z (e.g. w = (1, 1, -3), w0 = -0.5) separate the four
# z but not their neighbours.

# %% rbf_value
# ||x - m||^2 = 1 + 4 = 5 and 2 s^2 = 2
ex.check_rbf_value(np.exp(-5 / 2), "B")  # 5 = 5 s^2: x is far from m on the scale s
