"""Self-checks for the chapter 01 exercises (linear discriminants, perceptron, least squares,
version space) and the concept questions of the chapter.

Each check returns a Verdict: "Right" with the reason, or "Not yet" with what is wrong, never
the expected answer (`harness.check_number`); the coding exercise runs the student's function on
fresh random cases against the library (`harness.check_function`).
"""

import numpy as np

from course_lib.exercises import Verdict
from course_lib.data import linearly_separable
from course_lib.exercises.harness import (Choice, as_sentence, check_function, check_number, check_reason, float_array,
                                         is_the_data, limited_tries, value_and_reason)
from course_lib.exercises.seal import seal
from course_lib.i18n import N_, _
from course_lib.linear import LeastSquaresClassifier, Perceptron, version_space_offsets


def answer_vector(*parts):
    """The numbers of several answers (numbers or vectors) as one flat float array, or the reason
    why they are not numbers. Returns (array, None) or (None, reason)."""
    numbers = []
    for part in parts:
        if part is None or part is Ellipsis:
            return None, _("replace every `...` with your answer.")
        if isinstance(part, (str, bytes, bool, np.bool_)) or callable(part):
            return None, _("{value} is not a number: write the numbers themselves.").format(value=f"{part!r:.40}")
        try:
            array = float_array(part).ravel()
        except (TypeError, ValueError):
            return None, _("a value of type {name} is not a number.").format(name=type(part).__name__)
        numbers.append(array)
    return np.concatenate(numbers), None


def check_numbers(parts, expected, *, diagnoses=(), hint=None, right=None, atol=1e-4):
    """check_number on several answers at once (e.g. w and w0), robust to any input."""
    array, reason = answer_vector(*parts)
    if reason:
        return Verdict(False, as_sentence(reason), hint)
    expected = np.asarray(expected, dtype=float).ravel()
    if array.shape != expected.shape:
        return Verdict(False, _("The answer has {expected} numbers in all, yours {size}.").format(
            expected=expected.size, size=array.size), hint)
    diagnoses = tuple((np.asarray(value, dtype=float).ravel(), message) for value, message in diagnoses)
    return check_number(array, expected, atol=atol, rtol=0, diagnoses=diagnoses, hint=hint, right=right)


# Exercise 1 [K1]

@limited_tries
def check_signed_distance(answer):
    """The signed distance h(x)/||w|| of x = (4, 3) to the hyperplane w = (3, 4), w0 = -10."""
    return check_number(answer, 2.8, atol=1e-4, diagnoses=(
        (14.0, _("That is h(x) itself: divide it by ‖w‖ to get a distance.")),
        (-2.8, _("Right size, wrong sign: the distance is signed, positive on the side w points to.")),
        (0.56, _("You divided by ‖w‖²: divide by ‖w‖ once.")),
    ), hint=_("h(x) = w·x + w₀, then divide by ‖w‖ = √(3² + 4²)."),
        right=_("h(x) = 12 + 12 - 10 = 14 and ‖w‖ = 5, so the distance is 2.8."))


# Exercise 2 [K2]

@limited_tries
def check_perceptron_update(answer_w, answer_w0):
    """One perceptron step from w = (1, -1), w0 = 0.5 on x = (2, 1), r = -1, eta = 1."""
    return check_numbers((answer_w, answer_w0), (-1.0, -2.0, -0.5), diagnoses=(
        ((3.0, 0.0, 1.5), _("The sign is flipped: the update adds η r x (r = -1 here), pulling h(x) towards r.")),
        ((1.0, -1.0, 0.5), _("That is the starting point. Compute r h(x) first: is it ≤ 0?")),
        ((-1.0, -2.0, 0.5), _("w is right; w₀ is updated too: w₀ ← w₀ + η r.")),
    ), hint=_("r h(x) = -(2 - 1 + 0.5): the point is misclassified, so w ← w + η r x and w₀ ← w₀ + η r."),
        right="r h(x) = -1.5 ≤ 0, so w ← (1, -1) - (2, 1) = (-1, -2) and w₀ ← 0.5 - 1 = -0.5.")


# Exercise 3 [K2]: the perceptron, written by the student

def _perceptron_reference(X, r, eta, n_epochs):
    """The library's answer: the perceptron from w = 0, w0 = 0, points visited in order t = 0..N-1."""
    model = Perceptron(eta=eta, n_epochs=n_epochs, shuffle=False).fit(X, r)
    return model.w_, model.w0_


def _perceptron_cases(rng, n=25):
    cases = []
    for _ in range(n):
        N, D = int(rng.integers(4, 11)), int(rng.integers(1, 4))
        r = rng.permutation(np.where(np.arange(N) % 2 == 0, 1.0, -1.0))  # both classes
        X = np.round(rng.normal(size=(N, D)) + 0.8 * r[:, None], 2)
        cases.append(dict(X=X, r=r, eta=float(np.round(rng.uniform(0.2, 2.0), 2)), n_epochs=int(rng.integers(1, 5))))
    return cases


def _show_perceptron(case):
    return (f"X = {case['X'].tolist()}, r = {case['r'].astype(int).tolist()}, η = {case['eta']:g}, "
            f"`n_epochs` = {case['n_epochs']}")


def check_perceptron(student_fn, seed=None):
    """Exercise 3: perceptron(X, r, eta, n_epochs) -> (w, w0), from zeros, points in order, on 25
    random problems drawn from `seed` (None: fresh ones)."""
    return check_function(
        student_fn, _perceptron_cases, _perceptron_reference, seed=seed, show=_show_perceptron, what="perceptron",
        hint=_("Start from w = np.zeros(D), w₀ = 0. For each epoch, for t in order: if rᵗ (w·xᵗ + w₀) ≤ 0 "
             "(≤ and not <: at w = 0 every h is 0), w += η rᵗ xᵗ and w₀ += η rᵗ. Return (w, w₀)."),
        right=_("Your perceptron gives the library's (w, w₀) on all 25 random problems."))


# Exercise 4 [K3]

FAR_POINT_PREDICTIONS = (
    Choice("Nothing changes: x = 30 is on the right side, already classified right", False,
           "Least squares does not look at signs: r - h(x) at x = 30 is large, and the fit turns to shrink it."),
    Choice("The boundary -w₀/w moves right, past x = 1, which becomes an error", True,
           "The far point's residual r - h(x) is squared: the fit flattens w to shrink it, and the boundary moves "
           "from x = 1/4 to x = 7, beyond the positive point x = 1 (least squares 'met l'accent sur les données "
           "éloignées')."),
    Choice("The boundary moves left, towards the negative points", False,
           "It moves the other way: to x = 7 (compute it with the normal equations)."),
    Choice("The boundary stays at x = 1/4; only w gets smaller", False,
           "w₀ changes too: the boundary -w₀/w moves to x = 7."),
)


@limited_tries
def check_least_squares(answer_w, answer_w0, prediction=None):
    """The least-squares line w x + w0 for the 1-D points x with targets r, then the prediction
    (a letter of FAR_POINT_PREDICTIONS) of what moving the point x = 3 to x = 30 does."""
    x, r = (-2.0, -1.0, 1.0, 3.0), (-1.0, -1.0, 1.0, 1.0)  # the exercise's numbers
    return value_and_reason(_check_least_squares_line(answer_w, answer_w0, x, r), prediction, FAR_POINT_PREDICTIONS,
                            _("w and w₀ are right. Your prediction: {why}"),
                            hint=_("Residuals are squared, whatever their sign."))


def _check_least_squares_line(answer_w, answer_w0, x, r):
    fit = LeastSquaresClassifier().fit(np.reshape(x, (-1, 1)), r)
    expected = (fit.w_[0], fit.w0_)
    return check_numbers((answer_w, answer_w0), expected, diagnoses=(
        (expected[::-1], _("Those are the two numbers swapped: give w first, then w₀.")),
    ), hint=_("Write dE/dw = 0 and dE/dw₀ = 0: two linear equations in (w, w₀); Σ x², Σ x, Σ x r, Σ r are all you need."),
        right=_("The normal equations [[15, 1], [1, 4]] (w, w₀) = (7, 0) give w = 28/59 and w₀ = -7/59."))


# Exercise 5 [K4]

@limited_tries(data=("X", "r"))
def check_version_space_interval(answer_low, answer_high, X, r):
    """The offsets w0 of the separating lines of orientation w (ends S and G), on the chapter's
    set `Xs, rs = data.linearly_separable(n=30, seed=0)` (passed as X, r; any other set is refused)."""
    w = (1.0, 1.0)  # the exercise's numbers
    X_chapter, r_chapter = linearly_separable(n=30, seed=0)
    if not (is_the_data(X, X_chapter) and is_the_data(r, r_chapter)):
        return Verdict(False, _("The check is about the chapter's set: pass `Xs, rs` of "
                              "`data.linearly_separable(n=30, seed=0)` as they are."))
    X, r = X_chapter, r_chapter
    w = np.asarray(w, dtype=float)
    low, high = version_space_offsets(X, r, w)
    p = X @ w
    unit_low, unit_high = version_space_offsets(X, r, w / np.linalg.norm(w))
    return check_numbers((answer_low, answer_high), (low, high), atol=1e-6, diagnoses=(
        ((-low, -high), _("The signs are flipped: rᵗ (w·xᵗ + w₀) > 0 gives w₀ > -w·xᵗ for the positive points.")),
        ((high, low), _("The two ends are swapped: give the smallest w₀ first.")),
        ((unit_low, unit_high), _("You normalised w: the exercise keeps w = (1, 1) as it is.")),
        ((-p[r > 0].max(), -p[r < 0].min()), _("Wrong extremes: w₀ must exceed -w·x for EVERY positive point (the "
                                              "largest -w·x, i.e. the smallest w·x).")),
    ), hint=_("For the positive points w₀ > -w·xᵗ, for the negative ones w₀ < -w·xᵗ: take the tightest of each."),
        right=_("S touches the closest positive point, G the closest negative one."))


# Concept questions

QUIZ_PERCEPTRON = (
    N_("The perceptron runs on data that no line separates. What happens as the epochs go by?"),
    [
        Choice("It converges to the line with the fewest training errors.", False,
               "Nothing makes it converge: an epoch without update would need a line with no error, which does "
               "not exist. The 200-epoch run above still updates in every epoch."),
        Choice("It keeps updating forever, and its number of errors goes up and down.", True,
               "Every epoch finds misclassified points, and each update can break points that were right: "
               "7, 8, 5, 9, 5, 4 errors in the six frames."),
        Choice("The perceptron criterion decreases at every epoch, as for gradient descent with a small step.", False,
               "It went from 8.4 to 20.4 between epochs 1 and 2: one update per point, with a fixed step, "
               "is not a descent on $E_{percp}$."),
        Choice("It stops after the first epoch, since the data cannot be separated.", False,
               "The perceptron does not know the data is not separable; it just keeps finding mistakes."),
    ],
)

QUIZ_FAR_POINT = (
    N_("A point of class +1 lies far away, on its own (correct) side. What does it do to the fitted line?"),
    [
        Choice("Least squares ignores it: the point is already classified right.", False,
               "Least squares does not look at signs: the residual r - h(x) of that point is large and squared, "
               "so the fit turns to shrink it (43 degrees at distance 20 above)."),
        Choice("Least squares turns towards it, and can misclassify other points.", True,
               "It 'met l'accent sur les données éloignées': 4 errors without the point, 8 with it at distance 20."),
        Choice("The perceptron turns towards it just as much.", False,
               "A point with r h(x) > 0 never triggers a perceptron update: the perceptron is blind to it."),
    ],
)

QUIZ_VERSION_SPACE = (
    N_("For a fixed orientation w, every offset between S and G makes zero training errors. Which one to pick?"),
    [
        Choice("S, the most specific hypothesis.", False,
               "S touches a positive point: a new positive point slightly beyond it is already misclassified."),
        Choice("G, the most general hypothesis.", False, "G touches a negative point: the same problem on the other side."),
        Choice("The one halfway between S and G.", True,
               "It leaves the largest margin on both sides; on 2000 fresh points it made 0 errors where S and G made "
               "0.8% and 1%."),
        Choice("It does not matter: all of them have the same training error.", False,
               "Same training error, not the same error on new points: that is the slides' learning-theory argument."),
    ],
)


seal(__name__)  # the checks refuse to run once what they rely on is changed
