"""The exercise machinery: check_function, check_number, the forbidden-call detection, Quiz."""

import functools
import sys

import numpy as np
import pytest
from exercise_testing import (assert_caught, assert_junk_never_raises, assert_no_answer_leak, assert_passes,
                              number_strings, run)

import course_lib.linear as linear_module
import course_lib.structured.viterbi as viterbi_module
from course_lib.exercises import Verdict
from course_lib.exercises.harness import Choice, check_function, check_number, default_compare
from course_lib.linear import LinearDiscriminant
from course_lib.structured.viterbi import viterbi

RNG = np.random.default_rng(0)
CASES = [dict(unary=RNG.normal(size=(4, 3)), pairwise=RNG.normal(size=(3, 3))) for _ in range(8)]


def viterbi_by_hand(unary, pairwise):
    """A correct student's Viterbi: M[s, tau], I[s, tau] as on the slides, then back-tracking."""
    r, q = unary.shape
    M, I = np.zeros((q, r)), np.zeros((q, r), dtype=int)
    M[:, 0] = unary[0]
    for tau in range(1, r):
        candidates = M[:, tau - 1][:, None] + pairwise
        I[:, tau], M[:, tau] = candidates.argmax(axis=0), candidates.max(axis=0) + unary[tau]
    y = [int(M[:, -1].argmax())]
    for tau in range(r - 1, 0, -1):
        y.append(int(I[y[-1], tau]))
    return np.array(y[::-1])


def check_viterbi(fn):
    return check_function(fn, CASES, viterbi, forbidden=(viterbi,), hint="Fill M column by column.")


def test_a_correct_function_passes_and_a_wrong_one_shows_its_first_case():
    assert_passes(check_viterbi, viterbi_by_hand)
    verdict = assert_caught(check_viterbi, lambda unary, pairwise: viterbi_by_hand(unary, -pairwise), "on case")
    assert "Expected" in verdict.why and "got" in verdict.why and "unary = " in verdict.why


def test_wrong_index_and_sign_are_caught_with_the_entry_that_differs():
    def sign(unary, pairwise):
        return viterbi_by_hand(-unary, pairwise)

    def index(unary, pairwise):
        return viterbi_by_hand(unary, pairwise.T)

    assert_caught(check_viterbi, sign, "entries differ")
    assert_caught(check_viterbi, index, "entries differ")


def test_junk_never_raises():
    assert_junk_never_raises(check_viterbi)
    assert_junk_never_raises(lambda a: check_number(a, 2.8))


@pytest.mark.parametrize("junk, fragment", [
    (None, "write your function"), (..., "write your function"), ("abc", "pass it by its name"),
    (np.zeros((7, 3)), "array of shape (7, 3)"), (lambda unary, pairwise: None, "return"),
    (lambda unary, pairwise: 1 / 0, "ZeroDivisionError"), (lambda u, p: 0, "keep the names"),
    (lambda unary, pairwise: np.zeros((7, 3)), "shape (7, 3) instead of (4,)"),
    (lambda unary, pairwise: "aab", "text"), (lambda unary, pairwise: [np.nan] * 4, "NaN"),
])
def test_each_kind_of_junk_gets_its_reason(junk, fragment):
    assert_caught(check_viterbi, junk, fragment)


def test_raised_error_names_the_line_of_the_students_cell():
    namespace = {}
    exec(compile("def f(unary, pairwise):\n    x = 1\n    return unary[99]\n", "<cell-7>", "exec"), namespace)
    assert_caught(check_viterbi, namespace["f"], "IndexError")
    assert_caught(check_viterbi, namespace["f"], "line 3 of the cell")


def test_calling_the_forbidden_function_fails_under_any_name():
    alias = viterbi

    def by_alias(unary, pairwise):
        return alias(unary, pairwise)

    def by_module(unary, pairwise):
        return viterbi_module.viterbi(unary, pairwise)

    def by_default(unary, pairwise, solve=viterbi):
        return solve(unary, pairwise)

    def through_the_package(unary, pairwise):
        return sys.modules["course_lib.structured.viterbi"].viterbi(unary, pairwise)

    def by_closure():
        hidden = viterbi

        def student(unary, pairwise):
            return hidden(unary, pairwise)
        return student

    for cheat in (by_alias, by_module, by_default, through_the_package, by_closure(),
                  lambda unary, pairwise: alias(unary, pairwise), viterbi, functools.partial(viterbi)):
        assert_caught(check_viterbi, cheat, "write it yourself")


def test_forbidden_names_are_restored_even_when_the_student_raises():
    def raises_inside(unary, pairwise):
        alias_in_globals = viterbi  # noqa: F841  looked up while patched
        raise RuntimeError("boom")

    before = dict(vars(viterbi_module))
    assert_caught(check_viterbi, raises_inside, "RuntimeError")
    assert vars(viterbi_module)["viterbi"] is viterbi is before["viterbi"]
    assert globals()["viterbi"] is viterbi


def test_a_forbidden_method_is_caught_and_restored():
    cases = [dict(w=np.array([3.0, 4.0]), w0=-10.0, X=np.array([[4.0, 3.0]]))]
    original = LinearDiscriminant.__dict__["signed_distance"]

    def reference(w, w0, X):
        return (X @ w + w0) / np.linalg.norm(w)

    def uses_the_method(w, w0, X):
        model = linear_module.LinearDiscriminant()
        model.w_, model.w0_ = w, w0
        return model.signed_distance(X)

    check = functools.partial(check_function, cases=cases, reference=reference,
                              forbidden=(LinearDiscriminant.signed_distance,))
    assert_caught(check, uses_the_method, "write it yourself")
    assert_passes(check, reference)
    assert LinearDiscriminant.__dict__["signed_distance"] is original


def test_student_mutation_of_inputs_does_not_leak():
    cases = [dict(x=np.arange(3.0))]
    seen = []

    def mutating(x):
        x[:] = 0
        seen.append(x)
        return x.sum()

    verdict = check_function(mutating, cases, lambda x: x.sum())
    assert not verdict and np.array_equal(cases[0]["x"], np.arange(3.0))
    assert seen[0] is not cases[0]["x"]


def test_tuples_and_custom_compare():
    cases = [dict(a=1.0, b=2.0)]
    reference = lambda a, b: (np.array([a, b]), a + b)  # noqa: E731
    assert check_function(lambda a, b: (np.array([a, b]), 3.0), cases, reference)
    assert_caught(lambda f: check_function(f, cases, reference), lambda a, b: (np.array([a, b]),), "2 values")
    assert_caught(lambda f: check_function(f, cases, reference), lambda a, b: (np.array([a, b]), 4.0),
                  "value 2 of 2")

    def broken_compare(expected, got):
        raise TypeError("no")

    assert_caught(lambda f: check_function(f, cases, reference, compare=broken_compare),
                  lambda a, b: 0, "could not be compared")
    assert default_compare(np.eye(2), np.eye(2)) is None
    assert "transposed" in default_compare(np.ones((2, 3)), np.ones((3, 2)))


def test_check_number_diagnoses_and_never_shows_the_answer():
    check = lambda a: check_number(a, 2.8, diagnoses=((14.0, "That is h(x) itself."),), hint="Use ||w||.")  # noqa: E731
    assert_passes(check, 2.8)
    assert_passes(check, np.array([2.8]))
    assert_caught(check, 14, "h(x) itself")
    assert_caught(check, 3.1, "not it")
    assert_caught(check, "2.8", "without quotes")
    assert_caught(check, [2.8, 1.0], "one number")
    for wrong in (3.1, 14, -2.8, 0, "2.8", None, [2.8, 2.8]):
        assert_no_answer_leak(check, wrong, number_strings(2.8))
    assert "hint" in repr(check(3.1)) and "||w||" in repr(check(3.1).hint())
    assert "||w||" not in repr(check(3.1))


def test_check_number_arrays():
    expected = np.array([[1.0, 2.0], [3.0, 4.0]])
    assert check_number(expected.tolist(), expected)
    assert_caught(lambda a: check_number(a, expected), expected.T.ravel(), "shape (2, 2)")
    assert_caught(lambda a: check_number(a, expected), expected + 1, "not it")


def test_verdict_keeps_its_old_form_and_offers_a_hint_only_when_given():
    assert repr(Verdict(False, "why")) == "Not yet. why"
    assert "hint" not in repr(check_number(3.0, 2.8))
    assert "no hint" in repr(check_number(3.0, 2.8).hint())
    assert "Stuck" not in repr(check_number(2.8, 2.8, hint="x"))


def test_author_errors_raise():
    with pytest.raises(ValueError, match="at least one case"):
        check_function(viterbi_by_hand, [], viterbi)


# -- Quiz ---------------------------------------------------------------------------------------

CHOICES = [Choice("every training point", False, "Only points on or inside the margin have alpha > 0."),
           Choice("the points with alpha > 0", True, "They alone appear in w = sum alpha r x."),
           Choice("the misclassified points", False, "Points on the margin count too.")]


def test_quiz_checks_and_explains_each_choice():
    from course_lib.exercises.harness import Quiz

    quiz = Quiz("Which points are **support vectors**?", CHOICES, hint="Look at w = sum alpha r x.")
    assert quiz.check(1) and quiz.check("B")
    assert not quiz.check(0) and "margin have alpha" in quiz.check(0).why
    assert not quiz.check([]) and not quiz.check("Z") and not quiz.check(None) and not quiz.check([0, 1])
    quiz.buttons.index = 2
    quiz.check_button.click()
    assert "Not yet" in quiz.feedback.value and "on the margin count" in quiz.feedback.value
    quiz.buttons.index = 1
    quiz.check_button.click()
    assert "Right" in quiz.feedback.value
    quiz.hint_button.click()
    assert "Hint" in quiz.feedback.value


def test_quiz_multiple_and_validation():
    from course_lib.widgets.quiz import Quiz

    choices = [Choice("a", True, "ea"), Choice("b", True, "eb"), Choice("c", False, "ec")]
    quiz = Quiz("Which?", choices, multiple=True)
    assert quiz.check([0, 1]) and not quiz.check([0, 2]) and "ec" in quiz.check([0, 2]).why
    assert "one more" in quiz.check([0]).why and "eb" not in quiz.check([0]).why
    quiz.boxes[0].value = quiz.boxes[1].value = True
    quiz.check_button.click()
    assert "Right" in quiz.feedback.value
    with pytest.raises(ValueError, match="exactly one"):
        Quiz("Which?", choices)
    with pytest.raises(ValueError, match="Choice"):
        Quiz("Which?", ["a", "b"])


def test_quiz_output_carries_a_static_rendering_for_pages_without_widgets():
    from course_lib.widgets.quiz import WIDGET_VIEW, Quiz

    quiz = Quiz("Which points are support vectors?", CHOICES)
    data = quiz._repr_mimebundle_()
    assert WIDGET_VIEW in data
    html = data["text/html"]
    assert "<details>" in html and "every training point" in html and "alpha r x" in html
    assert html.index("<details>") < html.index("alpha r x")  # explanations folded away
    assert "every training point" in data["text/plain"] and "alpha r x" not in data["text/plain"]


def test_run_helper_reports_prints():
    verdict, text = run(lambda a: (print("printed 2.8"), Verdict(False, "no"))[1], None)
    assert "printed 2.8" in text
