"""Self-checks for the chapter 01 exercises (linear discriminants, perceptron, least squares).

Each check returns a Verdict: true when the answer is right, and shown with its reason.
"""

import numpy as np

from course_lib.exercises import Verdict as _verdict
from course_lib.linear import LeastSquaresClassifier, version_space_offsets


def _unanswered(answer):
    return answer is None or answer is Ellipsis


def check_signed_distance(answer, w=(3.0, 4.0), w0=-10.0, x=(4.0, 3.0)):
    """Exercise 1 [K1]: the signed distance h(x)/||w|| of x to the hyperplane w.x + w0 = 0."""
    if _unanswered(answer):
        return _verdict(False, "Replace `...` with your number.")
    w, x = np.asarray(w, float), np.asarray(x, float)
    h = float(w @ x + w0)
    expected = h / np.linalg.norm(w)
    if np.isclose(answer, expected, atol=1e-6):
        return _verdict(True, f"h(x) = {h:g} and ||w|| = {np.linalg.norm(w):g}, so the distance is {expected:g}.")
    if np.isclose(answer, h, atol=1e-6):
        return _verdict(False, "That is h(x) itself: divide by ||w|| to get a distance.")
    if np.isclose(abs(answer), abs(expected), atol=1e-6):
        return _verdict(False, "Right size, wrong sign: the distance is signed, positive on the side w points to.")
    return _verdict(False, "Compute h(x) = w.x + w0, then divide by ||w|| = sqrt(w1^2 + w2^2).")


def check_perceptron_update(answer_w, answer_w0, w=(1.0, -1.0), w0=0.5, x=(2.0, 1.0), r=-1.0, eta=1.0):
    """Exercise 2 [K2]: one perceptron step on (x, r) from (w, w0)."""
    if _unanswered(answer_w) or _unanswered(answer_w0):
        return _verdict(False, "Replace both `...` with your new w (two numbers) and w0.")
    w, x = np.asarray(w, float), np.asarray(x, float)
    h = float(w @ x + w0)
    if r * h > 0:
        new_w, new_w0, why = w, w0, f"r h(x) = {r * h:g} > 0: the point is well classified, nothing changes."
    else:
        new_w, new_w0 = w + eta * r * x, w0 + eta * r
        why = f"r h(x) = {r * h:g} <= 0, so w <- w + eta r x = {new_w.tolist()} and w0 <- w0 + eta r = {new_w0:g}."
    ok = np.allclose(np.asarray(answer_w, float), new_w) and np.isclose(answer_w0, new_w0)
    if not ok and np.allclose(np.asarray(answer_w, float), w - eta * r * x):
        return _verdict(False, "The sign is flipped: the update adds r x, pulling w towards the side of r.")
    return _verdict(ok, why if ok else "Check the sign of r h(x) first, then apply w <- w + eta r x, w0 <- w0 + eta r.")


def check_least_squares(answer_w, answer_w0, x=(-2.0, -1.0, 1.0, 3.0), r=(-1.0, -1.0, 1.0, 1.0)):
    """Exercise 3 [K3]: the least-squares line w x + w0 for 1-D points x with targets r."""
    if _unanswered(answer_w) or _unanswered(answer_w0):
        return _verdict(False, "Replace both `...` with your w and w0.")
    fit = LeastSquaresClassifier().fit(np.reshape(x, (-1, 1)), r)
    ok = np.isclose(answer_w, fit.w_[0], atol=1e-4) and np.isclose(answer_w0, fit.w0_, atol=1e-4)
    why = (f"Setting the derivatives of E_quad to zero gives the normal equations; their solution is "
           f"w = {fit.w_[0]:.4f}, w0 = {fit.w0_:.4f}.")
    return _verdict(ok, why if ok else "Write dE/dw = 0 and dE/dw0 = 0 (two linear equations) and solve them.")


def check_version_space_interval(answer_low, answer_high, X, r, w=(1.0, 1.0)):
    """Exercise 4 [K4]: the offsets w0 of the separating lines of orientation w (S and G)."""
    if _unanswered(answer_low) or _unanswered(answer_high):
        return _verdict(False, "Replace both `...` with the smallest and largest w0.")
    low, high = version_space_offsets(X, r, w)
    ok = np.isclose(answer_low, low, atol=1e-6) and np.isclose(answer_high, high, atol=1e-6)
    why = (f"w0 must exceed -min over r=+1 of w.x = {low:.4f} (S touches a positive point) and stay below "
           f"-max over r=-1 of w.x = {high:.4f} (G touches a negative point).")
    return _verdict(ok, why if ok else "Write r^t (w.x^t + w0) > 0 for every point and solve for w0.")
