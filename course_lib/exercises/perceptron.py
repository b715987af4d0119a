"""Self-checks for the chapter 09 exercises (multiclass and averaged perceptron).

Each check prints a verdict with the reason and returns True when the answer is right.
"""

import copy

import numpy as np

from course_lib.exercises import Verdict
from course_lib.exercises.harness import Choice, check_function, check_number, limited_tries, robust, value_and_reason
from course_lib.exercises.seal import seal
from course_lib.i18n import N_, _
from course_lib.perceptron import AveragedPerceptron, Perceptron, lazy_update

# Exercise 1: three labels, three features, one example.
W_EXERCISE = {"A": {"f1": 1, "f2": 0, "f3": -1}, "B": {"f1": 0, "f2": 2, "f3": 0}, "C": {"f1": -1, "f2": 1, "f3": 2}}
X_EXERCISE = {"f1": 1, "f2": 1, "f3": 1}
GOLD_EXERCISE = "A"

# Exercise 2: four examples visited in this order, one epoch, ties to the first label.
SEQUENCE = ([{"x": 1}, {"y": 1}, {"x": 1, "y": 1}, {"y": 2}], ["A", "B", "A", "B"])


def _verdict(correct, why):
    return Verdict(correct, why)


_robust = robust(N_("I cannot read this answer: give numbers (or a dict of dicts of numbers)."))


def _unanswered(answer):
    return answer is None or answer is Ellipsis


def _as_dense(weights, labels, features):
    return np.array([[float(weights.get(label, {}).get(f, 0)) for f in features] for label in labels])


@limited_tries
@_robust
def check_multiclass_update(answer):
    """Exercise 1 [P1]: w after one perceptron step on (X_EXERCISE, GOLD_EXERCISE) from W_EXERCISE."""
    if _unanswered(answer) or not isinstance(answer, dict):
        return _verdict(False, _("Give the new weights as a dict of dicts {label: {feature: weight}}."))
    labels, features = sorted(W_EXERCISE), sorted(X_EXERCISE)
    w = _as_dense(W_EXERCISE, labels, features)
    x = np.array([X_EXERCISE[f] for f in features], dtype=float)
    scores = w @ x
    y_star = labels[int(np.argmax(scores))]
    gold = labels.index(GOLD_EXERCISE)
    expected = w.copy()
    if y_star != GOLD_EXERCISE:
        expected[gold] += x
        expected[labels.index(y_star)] -= x
    got = _as_dense(answer, labels, features)
    if np.array_equal(got, expected):
        shown = ", ".join(f"{label}: {s:g}" for label, s in zip(labels, scores))
        return _verdict(True, _("Scores ⟨w[y], x⟩ = {shown}, so y* = {y_star} (the first of the "
                              "tied labels) while the gold label is {GOLD_EXERCISE}: x is added "
                              "to w[{GOLD_EXERCISE}] and subtracted from w[{y_star}].").format(
                                  shown=shown, y_star=y_star, GOLD_EXERCISE=GOLD_EXERCISE))
    if np.array_equal(got, w):
        return _verdict(False, _("Nothing changed: compute the three scores ⟨w[y], x⟩ first. Is the predicted "
                               "label the gold one?"))
    changed = [label for label, g, old in zip(labels, got, w) if not np.array_equal(g, old)]
    if len(changed) != 2 or GOLD_EXERCISE not in changed:
        return _verdict(False, _("An error changes exactly two weight vectors: the gold label's and the predicted "
                               "label's. Recompute the scores, and mind how ties are resolved."))
    return _verdict(False, _("Two vectors changed, but not by the right amounts or not the right pair: the gold "
                           "label gains x, the predicted label (ties go to the first label) loses x."))


AVERAGE_REASONS = (
    Choice("a adds x at every error, as w does, so a equals the last w", False,
           "Then averaging would change nothing; a adds w after every example, errors or not."),
    Choice("a is w divided by the number of examples", False,
           "a is a sum of w over the examples; the average is a / N, and dividing does not change the predictions."),
    Choice("a adds the current w after every example, so an update made early is counted again at every later "
           "example: weights that survive many examples weigh more in a", True,
           "That is the point of averaging: a = sum over examples of w, an update at example t counts N - t times, "
           "and a late update that will be undone next epoch counts little."),
    Choice("a only adds w after the examples classified right", False,
           "Algorithm 1 adds w to a after every example, whether it caused an update or not."),
)


@limited_tries
def check_average(answer, reason=None):
    """Exercise 2 [P2]: the averaged weights a after one epoch over SEQUENCE (no shuffle); then
    the letter of AVERAGE_REASONS saying what a weighs (one call of the library gives a, not why)."""
    verdict = _check_average_values(answer)
    return value_and_reason(verdict, reason, AVERAGE_REASONS,
                            _("a is right. Your reason: {why}"),
                            hint=_("Count how many times an update made at example t is added to a."))


@_robust
def _check_average_values(answer):
    if _unanswered(answer) or not isinstance(answer, dict):
        return _verdict(False, _("Give a as a dict of dicts {label: {feature: weight}}."))
    X, y = SEQUENCE
    model = AveragedPerceptron(n_epochs=1, variant="naive", shuffle=False).fit(X, y)
    labels, features = list(model.classes_), ["x", "y"]
    expected = _as_dense(model.weights_, labels, features)
    got = _as_dense(answer, labels, features)
    why = _("a = sum of w after each of the 4 examples = {weights}.").format(weights=model.weights_)
    if np.array_equal(got, expected):
        return _verdict(True, why)
    last = _as_dense(Perceptron(n_epochs=1, shuffle=False).fit(X, y).weights_, labels, features)
    if np.array_equal(got, last):
        return _verdict(False, _("That is the last w (the plain perceptron). a adds up w after every example."))
    return _verdict(False, _("Run Algorithm 1 by hand: predict (ties → A), update w on errors, then a ← a + w."))


CATCH_UP_REASONS = (
    Choice("a catches up once per error made since the stamp", False,
           "a adds w after every example, errors or not: the catch-up counts examples."),
    Choice("w[y][f] has not changed since example `last_update`, so each of the `n_examples - last_update` sums the "
           "lazy variant skipped would have added that same w[y][f]", True,
           "Only an error changes w[y][f], and every error stamps it: between two stamps it is constant, so the "
           "skipped additions are one product (`n_examples - last_update`) w[y][f]."),
    Choice("The catch-up adds the average of w over the epoch", False,
           "It adds the sums a skipped, with the one value w[y][f] had since the stamp."),
    Choice("The catch-up adds w[y][f] once, for the current example", False,
           "The lazy variant skipped one addition per example since the stamp, not one in all."),
)


@limited_tries
def check_lazy_catch_up(answer, reason=None):
    """Exercise 3 [P4]: a[y][f] after the lazy catch-up at an error when n_examples have been seen;
    then the letter of CATCH_UP_REASONS saying why one product catches up (one call of the
    library's lazy_update gives the number, not why)."""
    verdict = _check_catch_up_value(answer)
    return value_and_reason(verdict, reason, CATCH_UP_REASONS,
                            _("a is right. Your reason: {why}"),
                            hint=_("When does w[y][f] change?"))


def _check_catch_up_value(answer):
    n_examples, last_update, w_value, a_value = 10, 3, 2.0, 5.0  # the exercise's numbers
    expected = a_value + (n_examples - last_update) * w_value
    return check_number(
        answer, expected,
        diagnoses=((a_value + (n_examples - last_update + 1) * w_value,
                    _("One too many: the example being processed has not ended yet; its w is added later.")),
                   (a_value + n_examples * w_value, _("Since the stamp, not since the start: count from `last_update`.")),
                   ((n_examples - last_update) * w_value, _("The catch-up adds to a: do not forget the old value of a."))),
        hint=_("w[y][f] has not changed since the stamp: it should have been added once per example seen since then."),
        right=f"a = {a_value:g} + ({n_examples} - {last_update}) × {w_value:g} = {expected:g}.")


@limited_tries
@_robust
def check_accumulator_cost(answer_naive, answer_on_error):
    """Exercise 4 [P3]: how many full-matrix additions to a the naive and on-error variants do."""
    n, n_epochs, n_errors = 1000, 5, 120  # the exercise's numbers
    if _unanswered(answer_naive) or _unanswered(answer_on_error):
        return _verdict(False, _("Replace both `...` with numbers of additions."))
    naive, on_error = n * n_epochs, n_errors + 1
    first = check_number(answer_naive, naive, diagnoses=((n, _("Naive adds w after every example of every epoch.")),))
    second = check_number(answer_on_error, on_error,
                          diagnoses=((n_errors, _("Almost: do not forget the catch-up at the end of training.")),))
    if first and second:
        return _verdict(True, _("Naive: {n} × {n_epochs} = {naive} additions; on error: "
                              "{n_errors} errors plus the final catch-up = {on_error}.").format(
                                  n=n, n_epochs=n_epochs, naive=naive, n_errors=n_errors, on_error=on_error))
    parts = [_("naive: {why}").format(why=first.why) if not first else _("naive: right"), _("on error: {why}").format(why=second.why) if not second
             else _("on error: right")]
    return _verdict(False, "; ".join(parts))


def _lazy_cases(rng, n_cases=15):
    cases = []
    for _ in range(n_cases):
        labels, features = ["A", "B", "C"], [f"f{j}" for j in range(6)]
        gold, pred = rng.choice(labels, size=2, replace=False).tolist()
        n_examples = int(rng.integers(5, 30))
        a = {v: {f: int(rng.integers(-9, 10)) for f in features if rng.random() < 0.6} for v in labels}
        w = {v: {f: int(rng.integers(-3, 4)) for f in features if rng.random() < 0.6} for v in labels}
        last_update = {(v, f): int(rng.integers(0, n_examples)) for v in labels for f in features if rng.random() < 0.6}
        x = {str(f): int(rng.integers(1, 4)) for f in rng.choice(features, size=int(rng.integers(1, 4)), replace=False)}
        cases.append(dict(a=a, w=w, last_update=last_update, x=x, gold=gold, pred=pred, n_examples=n_examples))
    return cases


def _lazy_reference(a, w, last_update, x, gold, pred, n_examples):
    a, w, last_update = copy.deepcopy(a), copy.deepcopy(w), dict(last_update)
    lazy_update(a, w, last_update, x, gold, pred, n_examples)
    return _lazy_state(a, w, last_update)


def _lazy_state(a, w, last_update):
    """The three structures with the zero entries dropped (a missing entry counts 0)."""
    clean = lambda d: {v: {f: val for f, val in row.items() if val != 0} for v, row in d.items()}
    return clean(a), clean(w), {key: n for key, n in last_update.items() if n != 0}


def _compare_lazy(expected, got):
    got = _lazy_state(*got)
    names = ("a", "w", "last_update")
    for name, e, g in zip(names, expected, got):
        if e != g:
            return _("after your update, {name} differs (e.g. {difference})").format(
                name=name, difference=_first_difference(e, g))
    return None


def _first_difference(e, g):
    keys = sorted(set(e) | set(g), key=str)
    for key in keys:
        if e.get(key) != g.get(key):
            if isinstance(e.get(key), dict) or isinstance(g.get(key), dict):
                inner_e, inner_g = e.get(key) or {}, g.get(key) or {}
                for f in sorted(set(inner_e) | set(inner_g)):
                    if inner_e.get(f, 0) != inner_g.get(f, 0):
                        return _("entry [{key!r}][{f!r}]: yours is {off}").format(
                            key=key, f=f, off=_off(inner_e.get(f, 0), inner_g.get(f, 0)))
            return _("entry {key!r}: yours is {off}").format(
                key=key, off=_off(e.get(key, 0), g.get(key, 0)))
    return "?"


def _off(expected, got):
    """'7, too high by 2' without stating the expected value."""
    try:
        gap = float(got) - float(expected)
    except (TypeError, ValueError):
        return _("{got!r:.40}, not a number").format(got=got)
    return (_("{got}, too high by {gap:g}") if gap > 0 else _("{got}, too low by {gap:g}")).format(got=got, gap=abs(gap))


def _show_lazy(case):
    return (_("x = {x}, gold = {gold}, pred = {pred}, `n_examples` = {n_examples}, "
            "a = {a}, w = {w}, `last_update` = {last_update}").format(
                x=case['x'], gold=case['gold'], pred=case['pred'], n_examples=case['n_examples'], a=case['a'], w=case['w'], last_update=case['last_update']))


def check_lazy_update(student_fn, seed=None):
    """09, coding exercise [P4]: lazy_update(a, w, last_update, x, gold, pred, n_examples) changes the
    dicts in place as the notes' snippet does (missing entries count 0; w moves by the value x[f])."""
    def run_student(a, w, last_update, x, gold, pred, n_examples):
        a, w, last_update = copy.deepcopy(a), copy.deepcopy(w), dict(last_update)
        student_fn(a, w, last_update, x, gold, pred, n_examples)
        return a, w, last_update  # read by `_compare_lazy`, after the call

    if not callable(student_fn):
        return _verdict(False, _("give the function itself (`def my_update(a, w, last_update, x, gold, pred, "
                               "n_examples): ...`), not a value."))
    run_student.__wrapped__ = student_fn  # the harness points at the student's lines in an error
    return check_function(run_student, _lazy_cases, _lazy_reference, seed=seed, compare=_compare_lazy,
                          show=_show_lazy,
                          hint=_("An entry a[label][f] missed one addition of w[label][f] for every example since its "
                               "stamp, and w[label][f] has not changed since: catch them all up with one product, stamp "
                               "the entry with `n_examples`, and only then move w[label][f] by x[f], up for gold and down "
                               "for pred. Do it for every feature of x and both labels; a missing entry counts 0."))


# -- concept questions (shown by `quiz(name)` in the chapter) -----------------------------------

def quiz(name):
    """The concept question `name` as a Quiz widget (QUIZZES: question, choices, several right)."""
    from course_lib.widgets.quiz import Quiz

    question, choices, multiple = QUIZZES[name]
    return Quiz(question, choices, multiple=multiple)


QUIZZES = {
    "what_differs": (
        N_("Training is the same for the plain and the averaged perceptron. What differs?"),
        [
            Choice("Only the weights used to predict after training: the last w, or the sum a",
                   True,
                   "Right: a is never used during training."),
            Choice("The averaged perceptron updates w by the average of x",
                   False,
                   "The updates of w are identical."),
            Choice("The averaged perceptron divides a by the number of examples before predicting",
                   False,
                   "Not needed: scaling a by any positive number leaves the argmax unchanged."),
            Choice("The averaged perceptron skips the updates on the last epoch",
                   False,
                   "Every epoch updates w the same way."),
        ],
        False,
    ),
    "where_averaging_paid": (
        N_("Where did averaging clearly pay in this chapter?"),
        [
            Choice("On the OCR letters: about 0.71 held-out accuracy against 0.60-0.63 for the "
                   "plain perceptron",
                   True,
                   "Right: dense pixel patterns, not separable, and the plain w jumps with the last"
                   " errors."),
            Choice("On the docstrings: a large gain at every epoch",
                   False,
                   "There the two differ by less than 3 points on the test documents."),
            Choice("Nowhere: averaging only saves time",
                   False,
                   "Averaging changes the predictions; the lazy tricks only save time."),
            Choice("On separable data only",
                   False,
                   "The notes' point is the non-separable case, where the plain perceptron never "
                   "settles."),
        ],
        False,
    ),
    "lazy_cheaper": (
        N_("Why is the lazy update much cheaper than the naive one on text?"),
        [
            Choice("An error touches only the active features of x for two labels, not the whole "
                   "|V| x d matrix",
                   True,
                   "Right: with 22 active words among thousands, that is a tiny fraction."),
            Choice("It makes fewer errors",
                   False,
                   "It makes exactly the same errors: same w, same predictions."),
            Choice("It never needs a final update of a",
                   False,
                   "It does: 'une dernière mise à jour de a' brings every entry up to date."),
            Choice("It stores a with fewer bits",
                   False,
                   "Same numbers, same weights, bit for bit."),
        ],
        False,
    ),
}


seal(__name__)  # the checks refuse to run once what they rely on is changed
