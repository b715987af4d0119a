"""The exercise machinery: check_function (fresh cases, the library out of reach, a time limit,
inputs left alone), check_number, Quiz."""

import functools
import importlib
import sys
import time

import numpy as np
import pytest
from exercise_testing import (assert_caught, assert_junk_never_raises, assert_no_answer_leak, assert_passes,
                              number_strings, retune, run)

import course_lib.linear as linear_module
import course_lib.structured.viterbi as viterbi_module
from course_lib.exercises import Verdict
from course_lib.exercises import guard, harness
from course_lib.exercises.harness import Choice, check_function, check_number, default_compare
from course_lib.linear import LinearDiscriminant
from course_lib.structured.viterbi import viterbi


@pytest.fixture(autouse=True)
def short_time_limit(monkeypatch):
    retune(monkeypatch, harness, "DEFAULT_TIME_LIMIT", 2.0)  # short, yet long enough for a loaded machine


def chain_cases(rng):
    return [dict(unary=rng.normal(size=(4, 3)), pairwise=rng.normal(size=(3, 3))) for _ in range(8)]


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


def check_viterbi(fn, seed=None):
    return check_function(fn, chain_cases, viterbi, seed=seed, hint="Fill M column by column.")


def test_a_correct_function_passes_and_a_wrong_one_shows_its_case_and_seed_not_the_answer():
    assert_passes(check_viterbi, viterbi_by_hand)
    verdict = assert_caught(check_viterbi, lambda unary, pairwise: viterbi_by_hand(unary, -pairwise), "on case")
    assert "unary = " in verdict.why and "Expected" not in verdict.why
    seed = int(verdict.why.split("seed ")[1].split(":")[0])
    again = check_viterbi(lambda unary, pairwise: viterbi_by_hand(unary, -pairwise), seed=seed)
    assert again.why == verdict.why  # the seed re-runs the same cases


def test_the_seeds_are_too_many_to_harvest_every_seeds_cases():
    """A table of every seed's cases and answers, computed beforehand with the library, would pass
    any check by looking the cases up: at a millisecond a seed, the seeds take over 10,000 years."""
    low, high = harness.SEEDS
    assert (high - low) * 1e-3 / (3600 * 24 * 365) > 10_000
    seeds = {harness.fresh_seed() for _ in range(1000)}
    assert len(seeds) == 1000 and all(low <= seed < high for seed in seeds)


def test_cases_are_fresh_at_each_run_and_a_replayed_seed_never_counts():
    seeds = {check_viterbi(lambda unary, pairwise: np.zeros(4, int) - 1).why.split(":")[0] for _ in range(5)}
    assert len(seeds) == 5
    replay = check_viterbi(viterbi_by_hand, seed=123)
    assert not replay.correct and "without `seed=`" in replay.why


def test_wrong_index_and_sign_are_caught_with_the_entry_that_differs():
    def sign(unary, pairwise):
        return viterbi_by_hand(-unary, pairwise)

    def index(unary, pairwise):
        return viterbi_by_hand(unary, pairwise.T)

    assert_caught(check_viterbi, sign, "entries differ")
    assert_caught(check_viterbi, index, "entries differ")


def test_default_compare_says_what_is_wrong_without_the_expected_values():
    expected = np.array([0.3125, -1.75, 2.5])
    assert default_compare(expected, -expected) == "the sign is flipped"
    assert "factor" in default_compare(expected, 2 * expected)
    reason = default_compare(expected, expected + [0, 0, 0.5])
    assert "index (2,)" in reason and "too high by 0.5" in reason
    for text in number_strings(0.3125) + number_strings(-1.75) + number_strings(2.5):
        assert text not in default_compare(expected, expected * [1, 1, 1.2])


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


SAVED = {"solve": viterbi}


def test_the_library_refuses_to_run_however_it_is_reached():
    alias = viterbi

    def by_alias(unary, pairwise):
        return alias(unary, pairwise)

    def by_module(unary, pairwise):
        return viterbi_module.viterbi(unary, pairwise)

    def by_default(unary, pairwise, solve=viterbi):
        return solve(unary, pairwise)

    def by_dict(unary, pairwise):
        return SAVED["solve"](unary, pairwise)

    def by_import(unary, pairwise):
        from course_lib.structured.viterbi import viterbi as imported
        return imported(unary, pairwise)

    def by_another_function_of_the_library(unary, pairwise):
        return viterbi_module.viterbi_batch(unary[None], pairwise)[0]

    def by_closure():
        hidden = [viterbi]

        def student(unary, pairwise):
            return hidden[0](unary, pairwise)
        return student

    def hiding_the_refusal(unary, pairwise):
        try:
            return viterbi(unary, pairwise)
        except BaseException:
            return viterbi_by_hand(unary, pairwise)

    def by_a_module_not_loaded_yet(unary, pairwise):
        sys.modules.pop("course_lib.kernel_cache", None)
        importlib.import_module("course_lib.kernel_cache")
        return viterbi_by_hand(unary, pairwise)

    for cheat in (by_alias, by_module, by_default, by_dict, by_import, by_another_function_of_the_library,
                  by_closure(), hiding_the_refusal, by_a_module_not_loaded_yet,
                  lambda unary, pairwise: alias(unary, pairwise), viterbi, functools.partial(viterbi)):
        assert_caught(check_viterbi, cheat, "write it yourself")
    assert viterbi(np.zeros((2, 2)), np.zeros((2, 2))).shape == (2,)  # restored


def test_scikit_learn_refuses_to_run_during_the_call_and_works_after():
    from sklearn.linear_model import Perceptron as SkPerceptron

    cases = lambda rng: [dict(X=rng.normal(size=(6, 2)), y=np.array([0, 1] * 3))]  # noqa: E731

    def with_sklearn(X, y):
        return SkPerceptron().fit(X, y).predict(X)

    def with_a_private_helper(X, y):  # a private helper of scikit-learn's one-vs-rest
        import sklearn.multiclass
        return sklearn.multiclass._fit_binary(SkPerceptron(), X, y).predict(X)

    check = functools.partial(check_function, cases=cases, reference=lambda X, y: y)
    assert_caught(check, with_sklearn, "write it yourself")
    assert_caught(check, with_a_private_helper, "write it yourself")
    assert SkPerceptron().fit(np.eye(2), [0, 1]).predict(np.eye(2)).shape == (2,)


def test_everything_is_restored_even_when_the_student_raises_or_times_out():
    codes = {name: fn.__code__ for name, fn in vars(viterbi_module).items() if callable(getattr(fn, "__code__", None))}

    def raises_inside(unary, pairwise):
        raise RuntimeError("boom")

    def never_returns(unary, pairwise):
        while True:
            pass

    assert_caught(check_viterbi, raises_inside, "RuntimeError")
    assert_caught(check_viterbi, never_returns, "did not return within 2 s")
    assert all(getattr(vars(viterbi_module)[name], "__code__") is code for name, code in codes.items())
    assert not guard._state.functions and guard._RefuseImports not in map(type, sys.meta_path)


def test_a_function_that_never_returns_gets_not_yet_within_the_limit():
    def sleeps(unary, pairwise):
        time.sleep(60)

    start = time.perf_counter()
    assert_caught(check_viterbi, sleeps, "did not return within")
    assert time.perf_counter() - start < 10


def _swallows_while_sleeping(unary, pairwise):
    while True:
        try:
            time.sleep(1)
        except BaseException:  # what a student writes, catching the time limit too
            pass


def _swallows_in_two_loops(unary, pairwise):
    while True:
        try:
            while True:
                try:
                    sum(range(100))
                except:  # noqa: E722
                    pass
        except BaseException:
            pass


def _retries_the_library_until_it_answers(unary, pairwise):
    while True:
        try:
            return viterbi(unary, pairwise)
        except BaseException:
            time.sleep(0.05)


@pytest.mark.parametrize("student, verdict", [(_swallows_while_sleeping, "did not return within 2 s"),
                                              (_swallows_in_two_loops, "did not return within 2 s"),
                                              (_retries_the_library_until_it_answers, "write it yourself")])
def test_a_function_that_catches_the_time_limit_still_stops_and_is_set_aside(student, verdict):
    """The student's call runs in a thread of its own, which the check waits for at most the time
    limit: whatever the function catches, the check answers in time, the call stops at its next
    line (before the library, reachable again, can answer it) and takes no CPU afterwards, and the
    next check runs as usual."""
    start = time.perf_counter()
    assert_caught(check_viterbi, student, verdict)
    assert time.perf_counter() - start < 5
    time.sleep(0.3)  # a call set aside in time.sleep stops when it wakes
    cpu = time.process_time()
    time.sleep(0.5)
    assert time.process_time() - cpu < 0.1, "a call set aside still runs"
    assert_passes(check_viterbi, viterbi_by_hand)
    assert not guard._state.functions and guard._state.student_thread is None
    assert np.array_equal(viterbi(np.eye(3), np.zeros((3, 3))), [0, 1, 2])  # the library runs again


def test_a_library_method_refuses_and_is_restored():
    cases = lambda rng: [dict(w=np.array([3.0, 4.0]), w0=-10.0, X=np.array([[4.0, 3.0]]))]  # noqa: E731
    original = LinearDiscriminant.__dict__["signed_distance"]
    code = original.__code__

    def reference(w, w0, X):
        return (X @ w + w0) / np.linalg.norm(w)

    def uses_the_method(w, w0, X):
        model = linear_module.LinearDiscriminant()
        model.w_, model.w0_ = w, w0
        return model.signed_distance(X)

    check = functools.partial(check_function, cases=cases, reference=reference)
    assert_caught(check, uses_the_method, "write it yourself")
    assert_passes(check, reference)
    assert LinearDiscriminant.__dict__["signed_distance"] is original and original.__code__ is code


def test_allowed_functions_work_with_everything_they_call():
    from course_lib.exercises.structured import hierarchy_model

    model = hierarchy_model()
    cases = lambda rng: [dict(model=model, x=rng.normal(size=2), y=1)]  # noqa: E731
    reference = lambda model, x, y: model.joint_feature(x, y)  # noqa: E731
    check = functools.partial(check_function, cases=cases, reference=reference,
                              allowed=(model.joint_feature, model.loss))
    assert_passes(check, lambda model, x, y: model.joint_feature(x, y))
    assert_caught(check, lambda model, x, y: model.joint_feature(x, model.inference(x, np.ones(8))),
                  "write it yourself")


def test_student_mutation_of_inputs_is_refused_and_does_not_leak():
    cases_seen = []

    def cases(rng):
        cases_seen.append([dict(x=np.arange(3.0))])
        return cases_seen[-1]

    def mutating(x):
        x[:] = 0
        return 3.0

    verdict = check_function(mutating, cases, lambda x: x.sum())
    assert not verdict and "changed its argument `x` in place" in verdict.why
    assert np.array_equal(cases_seen[0][0]["x"], np.arange(3.0))


def test_tuples_and_custom_compare():
    cases = lambda rng: [dict(a=1.0, b=2.0)]  # noqa: E731
    reference = lambda a, b: (np.array([a, b]), a + b)  # noqa: E731
    assert check_function(lambda a, b: (np.array([a, b]), 3.0), cases, reference)
    assert_caught(lambda f: check_function(f, cases, reference), lambda a, b: (np.array([a, b]),), "2 values")
    assert_caught(lambda f: check_function(f, cases, reference), lambda a, b: (np.array([a, b]), 4.0),
                  "value 2 of 2")

    def broken_compare(expected, got):
        raise TypeError("no")

    assert_caught(lambda f: check_function(f, cases, reference, compare=broken_compare),
                  lambda a, b: 0, "could not be compared")
    assert default_compare({"a": 1.0, "b": np.ones(2)}, {"b": np.ones(2), "a": 1.0 + 1e-12}) is None
    assert "at key 'b'" in default_compare({"a": 1.0, "b": np.ones(2)}, {"a": 1.0, "b": np.zeros(2)})
    assert "missing" in default_compare({"a": 1.0}, {}) and "not be there" in default_compare({}, {"a": 1})
    assert "expected a dict" in default_compare({"a": 1.0}, [1.0])
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
        check_function(viterbi_by_hand, lambda rng: [], viterbi)


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

    from course_lib.widgets.quiz import ANSWERS

    quiz = Quiz("Which points are support vectors?", CHOICES)
    data = quiz._repr_mimebundle_()
    assert WIDGET_VIEW in data
    html = data["text/html"]  # what a notebook shows before the cell runs: no answer
    assert "every training point" in html and "alpha r x" not in html and "<b>right</b>" not in html
    assert "Run the notebook to check" in html
    assert "every training point" in data["text/plain"] and "alpha r x" not in data["text/plain"]
    site = data[ANSWERS]  # the site's reading copy: the explanations folded away
    assert "<details>" in site and "every training point" in site and site.index("<details>") < site.index("alpha r x")


def test_run_helper_reports_prints():
    verdict, text = run(lambda a: (print("printed 2.8"), Verdict(False, "no"))[1], None)
    assert "printed 2.8" in text


@pytest.mark.parametrize("reason, sentence", [("your result is off", "Your result is off"),
                                              ("votre résultat", "Votre résultat"),
                                              ("w is right, w₀ is not", "w is right, w₀ is not"),
                                              ("w₀ moves the wrong way", "w₀ moves the wrong way"),
                                              ("αᵗ grows", "αᵗ grows"), ("`n_epochs` is 3", "`n_epochs` is 3")])
def test_a_verdict_starts_with_a_capital_unless_it_starts_with_a_symbol(reason, sentence):
    assert harness.as_sentence(reason) == sentence


# -- numbers only: one rule for an answer's numbers, at the door of a rationed check and in
# read_numbers / float_array (text, a truth value or a complex number anywhere inside is not a number)

class _NotANumber:
    """An object that is none of the types refused and that NumPy cannot read as a number."""


def _nested(value, depth):
    for _ in range(depth):
        value = [value]
    return value


JUNK = {
    "text": "1.5", "NumPy text": np.str_("1.5"), "bytes": b"1.5", "truth value": True,
    "NumPy truth value": np.True_, "complex": 1.5 + 0j, "NumPy complex": np.complex128(1.5),
    "text in a list": [1.0, "2"], "truth value in a tuple": (1.0, False), "complex in a list": [1.0, 2j],
    "complex array": np.array([1.5 + 0j]), "text array": np.array(["1.5"]), "truth array": np.array([True]),
    "object array holding text": np.array([1.0, "2"], dtype=object),
    "object array holding a complex": np.array([1.0, 2j], dtype=object),
    "object array holding a truth value": np.array([1.0, True], dtype=object),
    "text 5 lists deep": _nested("1.5", 5), "complex 5 lists deep": _nested(1.5j, 5),
    "text 25 lists deep": _nested("1.5", 25),
    "text in a dict value": {"w": [1.0, "2"]}, "complex in a nested dict": {"a": {"b": [1.5, 1j]}},
}
RIGHT = {
    "float": 1.5, "int": 2, "NumPy float": np.float64(1.5), "NumPy int": np.int64(2), "list": [1.5, 2.0],
    "tuple": (1.5, 2.0), "array": np.array([1.5, 2.0]), "int array": np.array([1, 2]),
    "float32 array": np.array([1.5, 2.0], dtype=np.float32), "0-d array": np.array(1.5),
    "list of arrays": [np.array([1.5, 2.0]), np.array([3.0, 4.0])], "object array of numbers":
    np.array([1.5, 2.0], dtype=object), "nested lists": _nested([1.5, 2.0], 5),
    "list of NumPy numbers": [np.float64(1.5), np.int32(2)],
}


@pytest.mark.parametrize("name", sorted(JUNK))
def test_text_truth_values_and_complex_numbers_are_not_numbers_in_any_form(name):
    junk = JUNK[name]
    assert harness._text_or_truth(junk), name
    array, reason = harness.read_numbers(junk)
    assert array is None and reason, name
    with pytest.raises(TypeError):
        harness.float_array(junk)


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_numbers_in_any_form_are_numbers(name):
    right = RIGHT[name]
    assert not harness._text_or_truth(right), name
    array, reason = harness.read_numbers(right)
    assert reason is None and np.array_equal(array, np.asarray(right, dtype=float)), (name, reason)
    assert np.array_equal(harness.float_array(right), np.asarray(right, dtype=float))


def test_a_dict_of_numbers_and_other_objects_are_left_to_the_check():
    assert not harness._text_or_truth({"a": {"b": [1.5, 2.0]}, "c": 3})
    assert not harness._text_or_truth(_NotANumber())
    assert harness.read_numbers(_NotANumber())[0] is None  # NumPy cannot read it: not a number either


@harness.limited_tries
def check_pair(w, w0):
    """A rationed check of two numbers: w = [1.5, 2.0], w0 = -1."""
    return check_number(np.r_[float_or_nan(w), w0], [1.5, 2.0, -1.0])


def float_or_nan(w):
    try:
        return harness.float_array(w).ravel()
    except (TypeError, ValueError):
        return np.array([np.nan])


@pytest.mark.parametrize("name", sorted(JUNK))
def test_a_rationed_check_refuses_the_same_junk_at_its_door_without_counting_it(name, monkeypatch):
    retune(monkeypatch, harness, "WRONG_BEFORE_PAUSE", 2)
    for _ in range(3):
        verdict = check_pair(JUNK[name], -1.0)
        assert not verdict and "holds text" in verdict.why and "complex" in verdict.why, (name, verdict.why)
    assert not harness._tries, "a refused answer is not counted as a guess"


@pytest.mark.parametrize("w", [[1.5, 2.0], (1.5, 2.0), np.array([1.5, 2.0]), np.array([1.5, 2.0], dtype=object),
                               [np.float64(1.5), np.int64(2)], [[1.5, 2.0]]], ids=repr)
def test_a_rationed_check_takes_a_right_answer_in_any_numeric_form(w):
    assert check_pair(w, np.float64(-1.0)), w
