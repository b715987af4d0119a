"""Bypasses that hold for a whole class of exercise checks, tested on every check at once.

- The exercise's problem is not an argument: a check of a number or a reason takes only the
  student's answers (a parameter with a default is an answer left optional, default None), so
  `check_gamma(1.0, sigma=1.0)` cannot swap in an easier problem whose answer is known.
- A check whose data come through its arguments (the cell passes the chapter's data) refuses any
  other data.
"""

import importlib
import inspect
import os
import pkgutil
import re
from pathlib import Path

import numpy as np
import pytest

import course_lib.exercises as exercises
from course_lib import data
from course_lib.exercises import guard, harness, instantiations, linear
from course_lib.exercises.child import FORKS
from course_lib.exercises.harness import is_the_data
from exercise_testing import assert_caught, assert_passes, retune

ROOT = Path(__file__).resolve().parent.parent


def _checks():
    """{module.check_name: function} of every check a chapter calls (`ex.check_...` in its cells)."""
    called = set()
    for chapter in sorted((ROOT / "notebooks").glob("[01][0-9]_*.ipynb")):
        called |= set(re.findall(r"\bex\.(check_\w+)\(", chapter.read_text()))
    found = {}
    for info in pkgutil.iter_modules(exercises.__path__):
        module = importlib.import_module(f"course_lib.exercises.{info.name}")
        for name in called & set(vars(module)):
            found[f"{info.name}.{name}"] = getattr(module, name)
    return found


CHECKS = _checks()


def test_every_chapter_module_has_checks():
    assert len(CHECKS) >= 55, sorted(CHECKS)  # 12 chapters, 3 to 6 exercises each


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_a_check_takes_no_part_of_the_problem_as_an_argument(name):
    """Every parameter with a default defaults to None: an optional answer (a reason, a prediction)
    or the seed of the cases, never a number of the exercise's problem."""
    parameters = inspect.signature(CHECKS[name]).parameters.values()
    with_values = [p.name for p in parameters if p.default is not inspect.Parameter.empty and p.default is not None]
    assert not with_values, f"{name} lets the student change the exercise's {with_values}"


def test_the_version_space_check_refuses_another_set():
    Xs, rs = data.linearly_separable(n=30, seed=0)
    p = Xs @ np.ones(2)
    right = (-p[rs > 0].min(), -p[rs < 0].max())
    assert_passes(lambda a: linear.check_version_space_interval(*a, Xs, rs), right)
    two_points = (np.array([[1.0, 1.0], [-1.0, -1.0]]), np.array([1, -1]))  # an interval anyone finds: (-2, 2)
    assert_caught(lambda a: linear.check_version_space_interval(*a, *two_points), (-2.0, 2.0), "chapter's set")
    assert_caught(lambda a: linear.check_version_space_interval(*right, Xs[:-1], rs[:-1]), None, "chapter's set")
    assert_caught(lambda a: linear.check_version_space_interval(*right, "Xs", rs), None, "chapter's set")


def test_is_the_data_compares_values_and_shapes():
    X = np.arange(6.0).reshape(3, 2)
    assert is_the_data(X, X.copy()) and is_the_data(X.tolist(), X)
    assert not is_the_data(X[:2], X) and not is_the_data(X + 1e-6, X) and not is_the_data(X.T, X)
    assert not is_the_data("X", X) and not is_the_data([[1, "a"]], X) and not is_the_data(None, X)


def _reason_questions():
    """{module.NAME: choices} of the reasons and predictions the number exercises ask for."""
    found = {}
    for info in pkgutil.iter_modules(exercises.__path__):
        module = importlib.import_module(f"course_lib.exercises.{info.name}")
        for name, value in vars(module).items():
            if name.endswith(("_REASONS", "_PREDICTIONS")) and isinstance(value, tuple):
                found[f"{info.name}.{name}"] = value
    return found


def test_the_right_reason_is_not_always_the_same_letter():
    """Answering "A" everywhere (or any one letter) passes at most 4 in 10 of the reason questions."""
    questions = _reason_questions()
    assert len(questions) >= 10, sorted(questions)
    right = {name: "ABCD"[[c.correct for c in choices].index(True)] for name, choices in questions.items()}
    assert all(sum(c.correct for c in choices) == 1 for choices in questions.values())
    for letter in "ABCD":
        share = sum(value == letter for value in right.values()) / len(right)
        assert share <= 0.4, f"{letter} is right in {share:.0%} of the reason questions: {right}"


# -- answers by guessing: a loop over candidate values ------------------------------------------

def _takes_a_function(check):
    """A coding check: the student's function comes first, and `seed=` re-runs its cases."""
    seed = inspect.signature(check).parameters.get("seed")
    return seed is not None and seed.default is None


ANSWER_CHECKS = {name: check for name, check in CHECKS.items() if not _takes_a_function(check)}


@pytest.fixture
def rationed(monkeypatch):
    """The checks ration guesses as in a notebook (tests/conftest.py turns that off); the clock
    is the test's: `rationed[0] += 60` lets a minute pass."""
    clock = [1000.0]
    retune(monkeypatch, harness, "WRONG_BEFORE_PAUSE", 2)
    retune(monkeypatch, harness, "_clock", lambda: clock[0])
    return clock


def test_every_check_of_an_answer_rations_guesses():
    assert len(ANSWER_CHECKS) >= 30, sorted(ANSWER_CHECKS)
    unlimited = [name for name, check in ANSWER_CHECKS.items() if not getattr(check, "limited_tries", False)]
    assert not unlimited, f"these checks take guesses without pause: {unlimited}"


@pytest.mark.parametrize("name", sorted(ANSWER_CHECKS))
def test_after_two_wrong_answers_a_check_reads_nothing_for_a_minute_then_twice_as_long(name, rationed):
    check = ANSWER_CHECKS[name]
    wrong = [-123.25] * len(inspect.signature(check).parameters)  # every answer, reasons too
    first, second = check(*wrong), check(*wrong)
    assert not first and not second
    assert "in 60 s" not in first.why and "next one in 60 s" in second.why, second.why
    for _ in range(3):  # during the pause no answer is read, right or wrong
        rationed[0] += 19
        paused = check(*wrong)
        assert not paused and paused.why.startswith("This check is paused"), paused.why
    rationed[0] += 4  # 61 s after the second wrong answer: one answer is read, and the next pause is 2 minutes
    third = check(*wrong)
    assert "paused" not in third.why and "next one in 120 s" in third.why, third.why


def _brute_force(check, candidates):
    """The candidates that pass, calling the check with each as fast as a loop does."""
    return [c for c in candidates if check(*c)]


def test_a_loop_over_candidate_counts_passes_none(rationed):
    """07 ex 1, 11 ex 2, 09 ex 4: whole-number answers, each loop reaching the right one."""
    from course_lib.exercises import multiclass, perceptron, viterbi

    loops = {
        multiclass.check_problem_counts: [(a, b) for a in range(40) for b in range(400)],  # right: (26, 325)
        viterbi.check_counts: [(26 ** 8, b) for b in range(6000)],  # right: (26^8, 7 * 26^2), one part given away
        perceptron.check_accumulator_cost: [(5000, b) for b in range(200)] + [(a, 121) for a in range(6000)],
    }
    for check, candidates in loops.items():
        assert not _brute_force(check, candidates), check.__name__
        rationed[0] += 3600  # an hour later: a candidate after a pause is read, one per pause
        assert not _brute_force(check, candidates[:3]), check.__name__


def test_a_loop_that_clears_the_record_of_wrong_answers_passes_none(rationed, monkeypatch):
    """`harness._tries.clear()` before each guess (or the question's entry rewritten to no wrong
    answer) took the pause away: a loop over 16,000 pairs found 07 ex 1's (26, 325) in 26 s. The
    check now finds its record changed by other code than its own, and refuses as a changed check does."""
    from course_lib.exercises import multiclass

    question = "course_lib.exercises.multiclass.check_problem_counts"
    cleared = [(a, b) for a in (24, 25, 26) for b in range(320, 330)]
    assert not [c for c in cleared if harness._tries.clear() or multiclass.check_problem_counts(*c)]
    verdict = multiclass.check_problem_counts(26, 325)
    assert not verdict and CHANGED in verdict.why and "_tries" in verdict.why, verdict.why
    harness._tries.clear()
    assert CHANGED in multiclass.check_problem_counts(26, 325).why  # until the kernel restarts
    retune(monkeypatch, harness, "_tries", {})  # a fresh kernel's record
    assert not multiclass.check_problem_counts(3, 3) and multiclass.check_problem_counts(26, 325)
    assert not multiclass.check_problem_counts(3, 3)
    harness._tries[question] = (0, 0.0)  # rewritten to no wrong answer
    assert CHANGED in multiclass.check_problem_counts(26, 325).why


def test_a_loop_over_every_choice_passes_none(rationed):
    """07 ex 3 and 4: a choice among few options (9 pairs of classes; 4^4 vote lists times 4
    winners times 4 reasons), every option tried."""
    from course_lib.exercises import multiclass

    pairs = [(s, c) for s in (1, 2, 3) for c in (1, 2, 3)]  # right: (1, 3), the third
    assert not _brute_force(multiclass.check_ovr_confidences, pairs)
    votes = [([a, b, c, d], w, letter) for a in range(4) for b in range(4) for c in range(4) for d in range(4)
             for w in range(1, 5) for letter in "ABCD"]
    assert not _brute_force(multiclass.check_votes, votes)


def test_one_part_of_an_answer_is_not_tried_alone(rationed):
    """With the reason (or another part) left `...`, the verdict is the same for the right value
    and a wrong one, and no guess is counted."""
    from course_lib.exercises import multiclass, viterbi

    assert viterbi.check_backtrack("bbb", ...).why == viterbi.check_backtrack("aaa", ...).why
    assert viterbi.check_backtrack("bbb").why == viterbi.check_backtrack("aaa").why
    assert viterbi.check_counts(26 ** 8, ...).why == viterbi.check_counts(3, ...).why
    assert multiclass.check_problem_counts(..., 325).why == multiclass.check_problem_counts(..., 650).why
    assert "letter of your reason" in viterbi.check_backtrack("aaa").why
    assert not harness._tries
    assert viterbi.check_backtrack("bbb", "C") and multiclass.check_problem_counts(26, 325)


def test_an_honest_student_is_not_held_up(rationed):
    """One wrong answer, then the right one: it passes at once. Two wrong answers: the check
    says it waits a minute, and the right answer then passes."""
    from course_lib.exercises import multiclass

    wrong = multiclass.check_problem_counts(26, 650)
    assert not wrong and "same problem" in wrong.why and "wrong answers in a row" not in wrong.why
    assert multiclass.check_problem_counts(26, 325)
    assert not multiclass.check_problem_counts(26, 650)
    second = multiclass.check_problem_counts(25, 300)
    assert not second and "next one in 60 s" in second.why
    assert not multiclass.check_problem_counts(26, 325)  # too early: not read
    rationed[0] += 60
    assert multiclass.check_problem_counts(26, 325)
    again = multiclass.check_problem_counts(26, 650)  # a right answer starts the count again
    assert not again and "wrong answers in a row" not in again.why


# -- the library reached around the guard: another thread, a result computed later, the check's frames --

def _perceptron_by_the_library(X, r, eta, n_epochs):
    from course_lib.linear import Perceptron

    model = Perceptron(eta=eta, n_epochs=n_epochs, shuffle=False).fit(X, r)
    return model.w_, model.w0_


def test_a_thread_started_by_the_student_cannot_call_the_library():
    import threading

    def in_a_thread(X, r, eta, n_epochs):
        out = []
        worker = threading.Thread(target=lambda: out.append(_perceptron_by_the_library(X, r, eta, n_epochs)))
        worker.start()
        worker.join()
        return out[0] if out else None

    assert_caught(linear.check_perceptron, in_a_thread, "another thread")


class _ReadLater:
    """A result that computes itself when the check reads it, after the student's call."""

    def __init__(self, compute):
        self.compute = compute

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self.compute(), dtype=dtype)

    def __float__(self):
        return float(self.compute())

    def __eq__(self, other):
        return bool(np.all(self.compute() == other))


def test_a_result_that_computes_itself_when_compared_is_computed_under_the_guard():
    from course_lib import basis, smo
    from course_lib.exercises import basis_functions, margins

    def later(X, r, eta, n_epochs):
        return (_ReadLater(lambda: _perceptron_by_the_library(X, r, eta, n_epochs)[0]),
                _ReadLater(lambda: _perceptron_by_the_library(X, r, eta, n_epochs)[1]))

    assert_caught(linear.check_perceptron, later, "write it yourself")
    assert_caught(margins.check_smo_step,
                  lambda alpha, i, j, K, r, C: _ReadLater(lambda: smo.smo(K, r, C, tol=1e-12, max_iter=1, alpha=alpha).alpha),
                  "write it yourself")
    assert_caught(basis_functions.check_xor_map, lambda X: _ReadLater(lambda: basis.xor_map(X)), "write it yourself")


def test_the_expected_value_is_not_in_the_checks_frames_while_the_student_runs():
    import sys

    def from_the_frames(X, r, eta, n_epochs):
        frame = sys._getframe(1)
        while frame is not None:
            if "expected" in frame.f_locals:
                return frame.f_locals["expected"]
            frame = frame.f_back
        return None

    assert_caught(linear.check_perceptron, from_the_frames, "returned None")


def test_plain_values_keep_numbers_text_and_containers():
    plain = guard._plain_data
    assert plain(None) is None and plain(...) is ... and plain("ab") == "ab" and plain(True) is True
    value = plain((np.arange(3.0), [1, 2.5], {"a": np.float64(2.0)}, {1, 2}))
    assert isinstance(value, tuple) and np.array_equal(value[0], np.arange(3.0)) and value[1:] == ([1, 2.5], {"a": 2.0}, {1, 2})
    assert type(plain(np.arange(3.0).view(np.matrix))) is np.ndarray
    assert repr(plain(object)) == repr(object) and "object" in repr(plain(object()))

# -- work handed to another thread or process, answers computed after the call -----------------

def _library_answers():
    """{check: the library's answer, with the student function's parameter names} for the
    coding exercises of chapters 07-12."""
    from course_lib.exercises import instantiations, multiclass, structured
    from course_lib.exercises import viterbi as viterbi_exercises
    from course_lib.multiclass import loss_augmented_argmax, pairwise_votes
    from course_lib.structured.viterbi import viterbi
    return {
        "07 all_pairs_votes": (multiclass.check_all_pairs_votes, lambda decisions, k: pairwise_votes(decisions, k)),
        "08 multi_vector": (multiclass.check_multi_vector, lambda x, y, k: multiclass._psi_reference(x, y, k)),
        "08 augmented_argmax": (multiclass.check_loss_augmented_argmax,
                                lambda scores, y, Delta: loss_augmented_argmax(scores, y, Delta)[0]),
        "08 sgd_step": (multiclass.check_sgd_step,
                        lambda W, t, x, y, lam, Delta: multiclass._sgd_step_reference(W, t, x, y, lam, Delta)),
        "10 margin_hinge": (structured.check_margin_hinge,
                            lambda model, x, y, w: structured._reference_hinge(model, x, y, w, "margin")),
        "10 cutting_plane": (structured.check_cutting_plane,
                             lambda model, X, Y, w: structured._reference_plane(model, X, Y, w)),
        "11 viterbi_tables": (viterbi_exercises.check_viterbi_tables, lambda unary, pairwise: viterbi(unary, pairwise, return_tables=True)),
        "12 tree_delta": (instantiations.check_tree_delta,
                          lambda parent, classes: instantiations._reference_tree_delta(parent, classes)),
        "12 auc_pairs": (instantiations.check_auc_pairs, lambda s, r: instantiations._reference_auc_pairs(s, r)),
    }


LIBRARY_ANSWERS = _library_answers()


def _as_student(body, answer):
    """A function with the parameter names of `answer` that returns body(answer, **arguments)."""
    names = list(inspect.signature(answer).parameters)
    namespace = {"body": body, "answer": answer}
    exec(f"def student({', '.join(names)}):\n    return body(answer, {', '.join(f'{n}={n}' for n in names)})", namespace)
    return namespace["student"]


class _Later:
    """An answer computed when it is read: by np.asarray, by ==, by float."""

    def __init__(self, answer, arguments):
        self.answer, self.arguments = answer, arguments

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self.answer(**self.arguments), dtype=dtype)

    def __eq__(self, other):
        return True

    def __float__(self):
        return float(self.answer(**self.arguments))


class _LaterTuple(tuple):
    """A tuple whose items are computed when it is read."""

    def __new__(cls, answer, arguments):
        return super().__new__(cls, (None,))

    def __init__(self, answer, arguments):
        self.answer, self.arguments = answer, arguments

    def __iter__(self):
        return iter(self.answer(**self.arguments))

    def __len__(self):
        return len(self.answer(**self.arguments))

    def __getitem__(self, index):
        return self.answer(**self.arguments)[index]


def _in_a_new_thread(answer, **arguments):
    import threading
    out = []
    thread = threading.Thread(target=lambda: out.append(answer(**arguments)))
    thread.start()
    thread.join()
    return out[0]


@pytest.fixture(scope="module")
def workers():
    """A thread pool and a worker thread fed by a queue, both started before any check runs."""
    import concurrent.futures
    import queue
    import threading
    pool = concurrent.futures.ThreadPoolExecutor(1)
    pool.submit(int).result()
    jobs, answers = queue.Queue(), queue.Queue()

    def work():
        while True:
            answer, arguments = jobs.get()
            try:
                answers.put(answer(**arguments))
            except BaseException as error:  # the guard's refusal ends this job, not the worker
                answers.put(error)

    threading.Thread(target=work, daemon=True).start()
    yield pool, jobs, answers
    pool.shutdown()


@pytest.mark.parametrize("name", sorted(LIBRARY_ANSWERS))
def test_the_library_in_another_thread_or_computed_after_the_call_does_not_pass(name, workers, monkeypatch):
    """Each of these passed every coding check of chapters 07-12 before: the library called in
    a new thread, in a thread pool or a worker thread started before the check (the guard only
    watched the student's thread), and an object that calls the library when the check reads
    it (after the call, with the library reachable again)."""
    retune(monkeypatch, harness, "DEFAULT_TIME_LIMIT", 3.0)
    check, answer = LIBRARY_ANSWERS[name]
    pool, jobs, answers = workers

    def to_the_worker(answer, **arguments):
        jobs.put((answer, arguments))
        got = answers.get(timeout=2)
        if isinstance(got, BaseException):
            raise RuntimeError("the worker failed")
        return got

    attempts = {
        "new thread": _in_a_new_thread,
        "thread pool made before": lambda answer, **arguments: pool.submit(answer, **arguments).result(),
        "worker thread made before": to_the_worker,
        "computed when read": lambda answer, **arguments: _Later(answer, arguments),
        "tuple computed when read": lambda answer, **arguments: _LaterTuple(answer, arguments),
    }
    for attempt, body in attempts.items():
        student = _as_student(body, answer)
        verdict = check(student)
        assert not verdict, f"{attempt} passes {name}: {verdict.why}"


def test_a_process_started_or_reached_during_the_call_does_not_pass(monkeypatch):
    """A subprocess that imports the library afresh, os.system, and a fork pool made before the
    check (its worker has the library as it was) are refused."""
    import multiprocessing
    import os
    import subprocess
    import sys
    from course_lib.exercises import multiclass

    retune(monkeypatch, harness, "DEFAULT_TIME_LIMIT", 20.0)

    def in_a_subprocess(x, y, k):
        code = ("import numpy as np; from course_lib.exercises.multiclass import _psi_reference as psi; "
                f"print(psi(np.array({[float(v) for v in x]}), {int(y)}, {int(k)}).tolist())")
        printed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
        return np.array(eval(printed))

    def with_system(x, y, k):
        os.system("true")
        return np.zeros(len(x) * k)

    assert np.array_equal(in_a_subprocess(np.array([2.0, -1.0]), 1, 3), [0, 0, 2, -1, 0, 0])  # it works outside
    pool = multiprocessing.get_context("fork").Pool(1)
    try:
        from_the_pool = lambda x, y, k: pool.apply(multiclass._psi_reference, (x, y, k))
        for student, label in ((in_a_subprocess, "subprocess"), (with_system, "os.system"),
                               (from_the_pool, "multiprocessing")):
            verdict = multiclass.check_multi_vector(student)
            assert not verdict and "another thread or process" in verdict.why and label in verdict.why, verdict.why
    finally:
        pool.terminate()


def test_scikit_learns_private_vote_is_refused():
    """07 ex 5: sklearn.multiclass._ovr_decision_function rounds to the votes."""
    from sklearn.multiclass import _ovr_decision_function
    from course_lib.exercises import multiclass

    def via_sklearn(decisions, k):
        votes = _ovr_decision_function((decisions < 0).astype(int), np.zeros_like(decisions), k)
        return np.round(votes).astype(int)

    decisions = np.array([[1.0, -1.0, 0.0], [-0.5, 2.0, -3.0]])
    assert np.array_equal(via_sklearn(decisions, 3), multiclass.pairwise_votes(decisions, 3))  # right outside a check
    assert_caught(multiclass.check_all_pairs_votes, via_sklearn, "write it yourself")


def test_a_print_in_the_students_function_is_not_refused(capsys):
    from course_lib.exercises import multiclass

    def multi_vector(x, y, k):
        print("computing", y, k)
        psi = np.zeros(len(x) * k)
        psi[y * len(x):(y + 1) * len(x)] = x
        return psi

    assert multiclass.check_multi_vector(multi_vector)


_SETTRACE = __import__("sys").settrace  # a reference taken before any check runs


def test_switching_the_copy_tracer_off_does_not_pass():
    """A pasted copy of the library's Viterbi is refused by the copy tracer; switching the tracer
    off first (sys.settrace(None), or a reference to it taken before the check) used to let it pass."""
    import sys
    import textwrap

    from course_lib.exercises import viterbi as viterbi_exercises
    from course_lib.structured import viterbi as viterbi_module

    namespace = dict(vars(viterbi_module), check_chain_scores=lambda unary, pairwise: (unary, pairwise))
    exec(textwrap.dedent(inspect.getsource(viterbi_module.viterbi)).replace("def viterbi(", "def pasted("), namespace)
    pasted = namespace["pasted"]
    assert_caught(viterbi_exercises.check_viterbi_tables,
                  lambda unary, pairwise: pasted(unary, pairwise, return_tables=True), "copy")

    def tracer_off(unary, pairwise):
        sys.settrace(None)
        return pasted(unary, pairwise, return_tables=True)

    def tracer_off_by_an_earlier_reference(unary, pairwise):
        _SETTRACE(None)
        return pasted(unary, pairwise, return_tables=True)

    for student in (tracer_off, tracer_off_by_an_earlier_reference):
        verdict = viterbi_exercises.check_viterbi_tables(student)
        assert not verdict and "sys.settrace" in verdict.why, verdict.why


def test_the_librarys_own_code_in_a_new_function_or_behind_a_decorator_is_refused():
    """The library's code object put in a new function (`types.FunctionType(f.__code__, ...)`, its
    input check swapped out through the globals), the guard's own unguarded copies of the library's
    functions, and the function behind a decorator (`f.__wrapped__`) used to pass: the code is the
    library's own, so the copy tracer let it run, and nothing had swapped it."""
    import types

    from course_lib.exercises import multiclass, viterbi as viterbi_exercises
    from course_lib.multiclass import _loss_augmented_argmax, generalised_hinge
    from course_lib.structured.viterbi import viterbi

    unchecked = dict(viterbi.__globals__, check_chain_scores=lambda unary, pairwise: (np.asarray(unary, float),
                                                                                    np.asarray(pairwise, float)))
    new_viterbi = types.FunctionType(viterbi.__code__, unchecked, "viterbi", viterbi.__defaults__)
    new_argmax = types.FunctionType(_loss_augmented_argmax.__code__, _loss_augmented_argmax.__globals__)

    def argmax_of(answer):
        return lambda scores, y, Delta: answer(np.asarray(scores, float), np.asarray(y), np.asarray(Delta, float))[0]

    def from_the_guard(name):
        def call(*args, **kwargs):
            copy = next(fn for label, fn in guard._state.functions.values() if label.endswith(name))
            return copy(*args, **kwargs)
        return call

    assert np.array_equal(new_viterbi(np.eye(3), np.zeros((3, 3))), [0, 1, 2])  # right outside a check
    assert_caught(viterbi_exercises.check_viterbi_tables,
                  lambda unary, pairwise: new_viterbi(unary, pairwise, return_tables=True), "write it yourself")
    assert_caught(multiclass.check_loss_augmented_argmax, argmax_of(new_argmax), "write it yourself")
    assert_caught(multiclass.check_loss_augmented_argmax, argmax_of(from_the_guard("._loss_augmented_argmax")),
                  "write it yourself")
    with guard.Guard() as g:
        with pytest.raises(guard.WriteItYourself):
            g.run(lambda: generalised_hinge.__wrapped__(np.zeros(4), np.ones((1, 2)), np.array([0]), None, 1 - np.eye(2)), {})
        assert g.refused[0].endswith("multiclass.generalised_hinge"), g.refused


def test_student_code_called_back_from_an_allowed_function_cannot_call_the_library():
    """10 ex 1 allows the model's Delta and Psi. Psi called on a stand-in `self` runs the stand-in's
    methods, student code, inside the allowed function: they used to reach the library's
    loss-augmented inference, the answer."""
    from course_lib.exercises import structured

    def margin_hinge(model, x, y, w):
        found = []

        class StandIn:
            def _x(self, x_):
                y_bar = model.loss_augmented_inference(x, y, w)
                found.append(model.loss(y, y_bar) + w @ (model.joint_feature(x, y_bar) - model.joint_feature(x, y)))
                return np.asarray(x_, float)

            def _codes(self):
                return np.eye(2)

            def _check_label(self, label):
                return 0

        type(model).joint_feature(StandIn(), x, y)
        return found[0]

    assert_caught(structured.check_margin_hinge, margin_hinge, "write it yourself")


# -- scipy's answers ----------------------------------------------------------------------------

def _auc_pairs_by_mann_whitney(s, r):
    import scipy.stats

    s, r = np.asarray(s, float), np.asarray(r)
    u = scipy.stats.mannwhitneyu(s[r == 1], s[r == -1]).statistic  # the AUC times |P| |N|
    gaps = s[r == 1][:, None] - s[r == -1][None, :]
    return 1 - u / gaps.size, int((gaps < 0.5).sum())


def _tree_delta_by_shortest_paths(parent, classes):
    import scipy.sparse.csgraph

    nodes = sorted(set(parent) | {p for p in parent.values() if p is not None} | set(classes))
    index = {node: i for i, node in enumerate(nodes)}
    adjacency = np.zeros((len(nodes), len(nodes)))
    for child, up in parent.items():
        if up is not None:
            adjacency[index[child], index[up]] = adjacency[index[up], index[child]] = 1
    distances = scipy.sparse.csgraph.shortest_path(adjacency, unweighted=True, directed=False)
    return np.array([[distances[index[a], index[b]] / 2 for b in classes] for a in classes])


def _two_point_svm_by_minimize(x_plus, x_minus):
    import scipy.optimize

    X, r = np.array([x_plus, x_minus], float), np.array([1.0, -1.0])
    Q = (r[:, None] * X) @ (r[:, None] * X).T
    alpha = scipy.optimize.minimize(lambda a: 0.5 * a @ Q @ a - a.sum(), np.zeros(2), bounds=[(0, None)] * 2,
                                    constraints=[{"type": "eq", "fun": lambda a: a @ r}], tol=1e-14).x
    w = (alpha * r) @ X
    return alpha, w, 1 - w @ X[0]


def _hinge_gradient_by_approx_fprime(alpha, w0, G, r, lam):
    import scipy.optimize

    def error(v):  # the student's own E_hinge, differentiated by scipy
        h = G @ (v[:-1] * r) + v[-1]
        return np.maximum(0, 1 - r * h).sum() + lam / 2 * (v[:-1] * r) @ G @ (v[:-1] * r)

    g = scipy.optimize.approx_fprime(np.r_[alpha, w0], error, 1e-7)
    return g[:-1], g[-1]


def test_scipys_answers_are_refused(monkeypatch):
    """scipy is out of reach like scikit-learn: the Mann-Whitney U statistic gave 12 ex 4's 1 - AUC,
    csgraph's shortest paths 12 ex 3's tree Delta, optimize.minimize 02 ex 4's dual QP, approx_fprime
    06 ex 1's gradient (of the student's own E_hinge); each is right outside a check."""
    from course_lib.exercises import margins, svm_gradient

    retune(monkeypatch, harness, "DEFAULT_TIME_LIMIT", 3.0)
    rng = np.random.default_rng(0)
    query, tree = instantiations._auc_pairs_cases(rng)[1], instantiations._tree_cases(rng)[1]
    two_points = margins._two_point_cases(rng)[0]
    assert np.allclose(_auc_pairs_by_mann_whitney(**query), instantiations._reference_auc_pairs(**query))
    assert np.allclose(_tree_delta_by_shortest_paths(**tree), instantiations._reference_tree_delta(**tree))
    for got, expected in zip(_two_point_svm_by_minimize(**two_points), margins._two_point_reference(**two_points)):
        assert np.allclose(got, expected, atol=1e-4)
    attempts = ((instantiations.check_auc_pairs, _auc_pairs_by_mann_whitney, "mannwhitneyu"),
                (instantiations.check_tree_delta, _tree_delta_by_shortest_paths, "scipy.sparse"),
                (margins.check_two_point_svm, _two_point_svm_by_minimize, "scipy.optimize"),
                (svm_gradient.check_hinge_gradient, _hinge_gradient_by_approx_fprime, "approx_fprime"))
    for check, student, label in attempts:
        verdict = assert_caught(check, student, "write it yourself")
        assert label in verdict.why, verdict.why


def test_scipy_imported_during_the_call_is_refused():
    def softmax_by_scipy(x, y, k):
        from scipy.special import logsumexp  # scipy.special may be loaded already: the function refuses

        return np.exp(np.arange(k * len(x)) - logsumexp(np.arange(k * len(x))))

    from course_lib.exercises import multiclass

    assert_caught(multiclass.check_multi_vector, softmax_by_scipy, "write it yourself")


def test_a_copy_of_the_library_run_by_a_thread_started_before_the_check_does_not_pass():
    """A worker thread started before the check (fed by a queue, or a thread pool's) that runs the
    library's source pasted under another name: the copy tracer watched only the student's
    thread, and the worker's answer passed. Every thread started after the guard is imported
    carries a tracer that reports a copy of the library run while a check runs. Where the check
    forks, the call runs in a child process, where the worker does not run: it never answers."""
    import concurrent.futures
    import queue
    import textwrap
    import threading

    from course_lib.exercises import viterbi as viterbi_exercises
    from course_lib.structured import viterbi as viterbi_module

    namespace = dict(vars(viterbi_module), check_chain_scores=lambda unary, pairwise: (unary, pairwise))
    exec(textwrap.dedent(inspect.getsource(viterbi_module.viterbi)).replace("def viterbi(", "def pasted("), namespace)
    pasted = namespace["pasted"]
    jobs, answers = queue.Queue(), queue.Queue()

    def work():
        while True:
            arguments = jobs.get()
            try:
                answers.put(pasted(**arguments, return_tables=True))
            except BaseException as error:  # noqa: BLE001 -- what a student's worker writes
                answers.put(error)

    threading.Thread(target=work, daemon=True).start()
    pool = concurrent.futures.ThreadPoolExecutor(1)
    pool.submit(int).result()  # its worker thread is started now, before the check

    def by_the_worker(unary, pairwise):
        jobs.put(dict(unary=unary, pairwise=pairwise))
        return answers.get(timeout=2)

    def by_the_pool(unary, pairwise):
        return pool.submit(pasted, unary, pairwise, return_tables=True).result()

    assert np.array_equal(by_the_worker(np.eye(3), np.zeros((3, 3)))[0], [0, 1, 2])  # right outside a check
    try:
        for student, label in ((by_the_worker, "copy of course_lib.structured.viterbi.viterbi"),
                               (by_the_pool, "concurrent")):
            verdict = viterbi_exercises.check_viterbi_tables(student)
            if FORKS and student is by_the_worker:  # the call runs in a child: no worker there
                assert not verdict and "raised Empty" in verdict.why, verdict.why
                continue
            assert not verdict and "another thread" in verdict.why and label in verdict.why, verdict.why
    finally:
        pool.shutdown()


def test_the_guards_state_set_to_no_call_does_not_reach_the_library():
    """12 ex 4: the student's function set the guard's record of the running call to None (and back
    after), and the library's answer ran: the guard now reads from the stack whether a student's
    call runs."""
    def with_the_guard_told_no_call(s, r):
        me, guard._state.student_thread = guard._state.student_thread, None
        try:
            return instantiations._reference_auc_pairs(s, r)
        finally:
            guard._state.student_thread = me

    assert_caught(instantiations.check_auc_pairs, with_the_guard_told_no_call, "write it yourself")


def _write_the_answer_into_got(phase, info):
    """A gc callback: in the check's frames, makes the student's result equal the expected one."""
    import sys

    frame = sys._getframe()
    while frame is not None:
        expected, got = frame.f_locals.get("expected"), frame.f_locals.get("got")
        if isinstance(expected, np.ndarray) and isinstance(got, np.ndarray) and expected.shape == got.shape:
            got[...] = expected
        frame = frame.f_back


class _AnswersTheNextCase:
    """Garbage whose finalizer, if it ran in the check's thread between two calls, would read the next
    case in the check's frames and compute its answer with the library, for the student's function."""
    answers = {}

    def __init__(self):
        self.cycle = self

    def __del__(self):
        import sys

        frame = sys._getframe()
        while frame is not None:
            case = frame.f_locals.get("case")
            if isinstance(case, dict) and "classes" in case:
                key = repr(case)
                _AnswersTheNextCase.answers[key] = instantiations._reference_tree_delta(**case)
            frame = frame.f_back


def test_code_left_to_run_later_in_the_checks_thread_does_not_pass():
    """12 ex 3: a gc callback added during the call ran later in the check's thread and copied the
    expected matrix into the student's result (it passed). A finalizer of cyclic garbage run there
    between two calls would find the next case in the check's frames, with the library in reach.
    The collector is paused during a check; a call that adds a callback or switches the collector
    back on is refused."""
    import gc

    def by_a_callback(parent, classes):
        gc.callbacks.append(_write_the_answer_into_got)
        gc.set_threshold(1)
        return np.zeros((len(classes), len(classes)))

    def by_a_finalizer(parent, classes):
        gc.enable()
        gc.set_threshold(1)
        _AnswersTheNextCase()
        answer = _AnswersTheNextCase.answers.get(repr(dict(parent=parent, classes=classes)))
        return np.zeros((len(classes), len(classes))) if answer is None else answer

    threshold = gc.get_threshold()
    try:
        for student, label in ((by_a_callback, "gc.callbacks"), (by_a_finalizer, "gc.enable")):
            verdict = assert_caught(instantiations.check_tree_delta, student, "another thread or process")
            assert label in verdict.why, verdict.why
    finally:
        gc.set_threshold(*threshold)
    assert _write_the_answer_into_got not in gc.callbacks and gc.isenabled()


# -- changing the check instead of writing the algorithm ------------------------------------------

CHANGED = "check's own code was changed"


def _no_delta(parent, classes):
    return np.zeros((len(classes), len(classes)))


def _tree_delta(parent, classes):
    """A right answer: half the number of edges between the two classes."""
    def depths(node):
        found, steps = {}, 0
        while True:
            found[node] = steps
            if node not in parent:
                return found
            node, steps = parent[node], steps + 1

    def distance(a, b):
        up, node, steps = depths(a), b, 0
        while node not in up:
            node, steps = parent[node], steps + 1
        return up[node] + steps

    return np.array([[distance(a, b) / 2 for b in classes] for a in classes])


def _innermost_cell(check):
    """The closure cell of a check's wrapper (limited_tries) that holds the check's own function."""
    fn = check
    while getattr(fn, "__wrapped__", None) is not None:
        for cell in fn.__closure__ or ():
            if cell.cell_contents is fn.__wrapped__ and getattr(fn.__wrapped__, "__wrapped__", None) is None:
                return cell
        fn = fn.__wrapped__
    raise AssertionError("no closure holds the check")


def _bypasses(monkeypatch):
    """(name, change, the check, an answer that is not the algorithm) of each way of changing the
    check, every one of them passing before the checks were sealed."""
    from course_lib.exercises import instantiations as ex

    class Agreeing:
        def loss_augmented_inference(self, X, r, w):
            return np.ones((len(r), len(r)))

    def set_in_the_call(s, r):  # the student's function changes the check's reference while it runs
        ex.auc, ex.RankingModel = (lambda r, s: 1.0), Agreeing
        return 0.0, 0

    return [
        ("a reference rebound", lambda: monkeypatch.setattr(ex, "_reference_auc_pairs", lambda s, r: (0.0, 0)),
         ex.check_auc_pairs, lambda s, r: (0.0, 0)),
        ("the cases rebound", lambda: monkeypatch.setattr(ex, "_auc_pairs_cases", lambda rng: [
            dict(s=np.array([1.0, 0.0]), r=np.array([1, -1]))]), ex.check_auc_pairs, lambda s, r: (0.0, 0)),
        ("the comparison rebound", lambda: monkeypatch.setattr(ex, "_compare_auc_pairs", lambda e, g: None),
         ex.check_auc_pairs, lambda s, r: (0.0, 0)),
        ("a harness function rebound", lambda: monkeypatch.setattr(harness, "default_compare", lambda e, g: None),
         ex.check_tree_delta, _no_delta),
        ("the guard's run replaced", lambda: monkeypatch.setattr(guard.Guard, "run", lambda self, fn, kwargs, seconds=None: fn(**kwargs)),
         ex.check_tree_delta, lambda parent, classes: ex._reference_tree_delta(parent, classes)),
        ("a reference's code replaced", lambda: monkeypatch.setattr(
            ex._reference_auc_pairs, "__code__", (lambda s, r: (0.0, 0)).__code__), ex.check_auc_pairs,
         lambda s, r: (0.0, 0)),
        ("a case generator's defaults replaced", lambda: monkeypatch.setattr(ex._auc_pairs_cases, "__defaults__", (1,)),
         ex.check_auc_pairs, lambda s, r: (2 / 6, 4)),
        ("a library method and function the reference calls replaced", lambda: (
            monkeypatch.setattr(ex.RankingModel, "loss_augmented_inference", Agreeing.loss_augmented_inference),
            monkeypatch.setattr(ex.auc, "__code__", (lambda r, s: 1.0).__code__)), ex.check_auc_pairs,
         lambda s, r: (0.0, 0)),
        ("np.isclose replaced", lambda: monkeypatch.setattr(np, "isclose", lambda a, b, **k: np.ones(np.shape(b), bool)),
         ex.check_tree_delta, _no_delta),
        ("np.allclose replaced", lambda: monkeypatch.setattr(np, "allclose", lambda *a, **k: True),
         ex.check_two_class_crammer_singer, np.zeros(2)),
        ("NumPy's isclose replaced where allclose finds it", lambda: monkeypatch.setitem(
            np.allclose._implementation.__globals__, "isclose", lambda *a, **k: True),
         ex.check_two_class_crammer_singer, np.zeros(2)),
        ("np.allclose's code replaced", lambda: monkeypatch.setattr(
            np.allclose._implementation, "__code__", (lambda a, b, rtol=1.e-5, atol=1.e-8, equal_nan=False: True).__code__),
         ex.check_two_class_crammer_singer, np.zeros(2)),
        ("the check's function in its wrapper's closure replaced", lambda: monkeypatch.setattr(
            _innermost_cell(ex.check_two_class_crammer_singer), "cell_contents",
            lambda answer_w: exercises.Verdict(True, "")), ex.check_two_class_crammer_singer, np.zeros(2)),
        ("the reference changed by the student's function while the check runs",
         lambda: (monkeypatch.setattr(ex, "auc", ex.auc), monkeypatch.setattr(ex, "RankingModel", ex.RankingModel)),
         ex.check_auc_pairs, set_in_the_call),
    ]


BYPASSES = [name for name, *_ in _bypasses(None)]


@pytest.mark.parametrize("name", BYPASSES)
def test_a_check_changed_by_the_student_refuses_to_pass(name, monkeypatch):
    """Each change made the check pass an answer that is no algorithm (a constant, a zero matrix,
    the library's own function): the reference, cases or comparison are looked up when the check
    runs. Now the check finds what it relies on changed and says so; put back, a right answer
    passes again."""
    from course_lib.exercises import instantiations as ex

    change, check, answer = next((c, k, a) for n, c, k, a in _bypasses(monkeypatch) if n == name)
    change()
    try:
        verdict = check(answer)
    finally:
        monkeypatch.undo()
    if name == "the reference changed by the student's function while the check runs" and FORKS:
        assert not verdict and CHANGED not in verdict.why, verdict  # changed in the child that ran the call only
        return
    assert not verdict and CHANGED in verdict.why, verdict
    assert "restart the kernel" in verdict.why
    retune(monkeypatch, harness, "WRONG_BEFORE_PAUSE", float("inf"))
    assert ex.check_tree_delta(_tree_delta), "a right answer is refused once the check is put back"
    assert ex.check_two_class_crammer_singer(np.array([-2.0, -1.5]))


def test_every_chapters_checks_are_sealed():
    """Every exercise module records itself (`seal(__name__)`, its last line) and every check a
    chapter calls asks `changed()` first: a module without it could be changed unnoticed."""
    from course_lib.exercises import seal

    for info in pkgutil.iter_modules(exercises.__path__):
        assert f"course_lib.exercises.{info.name}" in seal._record.modules, info.name
    unsealed = [name for name, check in CHECKS.items() if check.__code__ is not seal.sealed(print).__code__]
    assert not unsealed, f"these checks do not ask whether they were changed: {unsealed}"
    assert seal.changed() is None


# -- answers shown before an attempt --------------------------------------------------------------

@pytest.mark.parametrize("chapter", sorted(p.name for p in (ROOT / "notebooks").glob("[01][0-9]_*.ipynb")))
def test_a_chapter_opened_before_it_runs_shows_no_quiz_answer(chapter):
    """Every concept question's stored output carried its answer, folded in a <details> ("The
    answer, with an explanation of every choice"): one click in a notebook not yet run showed which
    choice is right. A chapter's Quiz outputs now keep the question and its choices; the answer
    is shown after Check, in the worked solutions and on the site."""
    import nbformat

    from course_lib.widgets.quiz import ANSWERS

    notebook = nbformat.read(ROOT / "notebooks" / chapter, as_version=4)
    quizzes = 0
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            assert ANSWERS not in data, chapter
            html = str(data.get("text/html", ""))
            if "course-quiz-static" in html:
                quizzes += 1
                assert "<b>right</b>" not in html and "The answer, with" not in html, html
    assert quizzes >= 3, chapter


# -- answers given as text or truth values ---------------------------------------------------------

_RIGHT_ANSWERS = {  # a right answer of each check whose answer holds numbers (the solutions' own)
    "linear.check_perceptron_update": ([-1.0, -2.0], -0.5),
    "margins.check_canonical_scaling": ([1.0, 1 / 3], 0.0, "D"),
    "margins.check_hard_margin": ([1.0, 0.0], 0.0, [1, 2], "D"),
    "basis_functions.check_xor_plane": ([2, 2, -4], -1, "C"),
    "svm_gradient.check_hinge_losses": ([2, 1, 0.5, 0, 0], "A"),
    "multiclass.check_region_boundaries": (1 - 2 ** 0.5, 2 ** 0.5 - 1),
    "multiclass.check_ovr_confidences": (1, 3),
    "multiclass.check_first_sgd_step": ([1, 0.5, 0, 0, -1, -0.5],),
    "perceptron.check_accumulator_cost": (5000, 121),
}


def _as_text(value):
    """Every number of an answer written as text: 0.5 -> "0.5", [1, 2] -> ["1", "2"]."""
    if isinstance(value, (list, tuple)):
        return type(value)(_as_text(item) for item in value)
    return str(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else value


def _as_truth(value):
    """Every 0 and 1 of an answer written as False and True."""
    if isinstance(value, (list, tuple)):
        return type(value)(_as_truth(item) for item in value)
    return bool(value) if isinstance(value, int) and not isinstance(value, bool) and value in (0, 1) else value


@pytest.mark.parametrize("name", sorted(_RIGHT_ANSWERS))
def test_an_answer_written_as_text_or_truth_values_does_not_pass(name):
    """These passed with their numbers in quotes (`["-1.0", "-2.0"]`: np.asarray(..., float) and
    float() read text as numbers, `w0="-1"`) or with True for class 1 (07 ex 4). Every check of an
    answer now refuses text and truth values where it asks for numbers, without counting a guess."""
    check, right = CHECKS[name], _RIGHT_ANSWERS[name]
    assert check(*right), name
    for junk in (_as_text(right), _as_truth(right)):
        if junk == right and all(type(a) is type(b) for a, b in zip(junk, right)):
            continue
        verdict = check(*junk)
        assert not verdict and "holds text" in verdict.why, (junk, verdict.why)
    assert not harness._tries
    assert CHECKS["viterbi.check_backtrack"]("bbb", "C"), "a word is still read as text"


def _as_numbers(value, form):
    """Every number or list of numbers of an answer as `form` makes it (a NumPy number, an array,
    a tuple, an object array); a letter stays a letter."""
    if isinstance(value, list):
        return form([float(item) for item in value]) if form is not np.float64 else [np.float64(v) for v in value]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return np.float64(value) if form in (np.float64, tuple) else form([value]).reshape(()) \
            if form is np.array else value
    return value


NUMERIC_FORMS = {"NumPy numbers": np.float64, "arrays": np.array, "tuples": tuple,
                 "object arrays": lambda items: np.array(items, dtype=object)}


@pytest.mark.parametrize("name", sorted(_RIGHT_ANSWERS))
def test_a_right_answer_passes_in_every_numeric_form_and_as_complex_numbers_does_not(name):
    """One rule for an answer's numbers at the door of a rationed check and in read_numbers:
    text, truth values and complex numbers anywhere inside are refused without counting a guess,
    and numbers pass as a list, a tuple, an array (an object array too) or NumPy numbers."""
    check, right = CHECKS[name], _RIGHT_ANSWERS[name]
    for form_name, form in NUMERIC_FORMS.items():
        answer = tuple(_as_numbers(value, form) for value in right)
        assert check(*answer), (form_name, answer, check(*answer).why)
    complex_answer = tuple(np.asarray(value) + 0j if isinstance(value, (list, int, float)) else value
                           for value in right)
    verdict = check(*complex_answer)
    assert not verdict and "complex" in verdict.why, verdict.why
    assert not harness._tries


CODING_CHECKS = {name: check for name, check in CHECKS.items() if _takes_a_function(check)}


@pytest.mark.parametrize("name", sorted(CODING_CHECKS))
def test_a_coding_exercises_hint_writes_no_line_of_its_code(name):
    """09 ex 5's hint was the solution's three lines (`a[label][f]` += the product, the stamp,
    `w[gold][f] += x[f]`) and 10 ex 5's the whole loop (`rng = ...`, `w = np.zeros(...)`,
    `w = w - (1 / t) * (w + C * g)`): copying the hint passed. A hint says what to look at, and
    names a function at most; no assignment in code."""
    verdict = CODING_CHECKS[name](lambda *args, **kwargs: None)
    assert not verdict
    for code in re.findall(r"`([^`]*)`", verdict.hint().text):
        assignment = re.search(r"(?<![=<>!])(\+|-|\*|/)?=(?!=)", code)
        assert not assignment, f"{name}'s hint writes code: {code}"


_PRINTED_ANSWERS = {  # chapter: (exercise, the answer's digits as a cell would print them)
    "07": ("ex 1", ("325",)),
    "08": ("ex 4", ("1600", "1,600")),
    "09": ("ex 4", ("5,000 and 121",)),
    "10": ("ex 4", ("49.19", "1431.39", "1,431.39")),
    "11": ("ex 2", ("4732", "4,732", "208827064576", "208,827,064,576", "2.088e+11")),
}


@pytest.mark.parametrize("chapter", sorted(_PRINTED_ANSWERS))
def test_no_cell_above_an_exercise_prints_its_answer(chapter):
    """11 ex 2 asks for the counts of brute force and Viterbi for a word of 8 letters; the cost
    table of the chapter printed the row r = 8 (2.088e+11 readings, 4,732 candidates): the answer
    was read, not worked out. The table now prints other lengths. No cell outside the exercises of
    these chapters shows an answer of a counting exercise."""
    import nbformat

    exercise, answers = _PRINTED_ANSWERS[chapter]
    (path,) = (ROOT / "notebooks").glob(f"{chapter}_*.ipynb")
    for cell in nbformat.read(path, as_version=4).cells:
        if "exercise" in cell.metadata.get("tags", []):
            continue
        shown = [cell.source] + [str(out.get("text", "")) + str(out.get("data", {}).get("text/plain", ""))
                                 for out in cell.get("outputs", [])]
        for answer in answers:
            pattern = rf"(?<![\d.,]){re.escape(answer)}(?![\d,]|\.\d)"
            assert not any(re.search(pattern, text) for text in shown), f"{chapter} {exercise}: {answer} in {cell.source[:80]}"
