"""The generic exercise checks: a function the student writes (`check_function`), a number the
student computes (`check_number`), and concept questions (`Quiz` of `Choice`s).

Every check takes any input (None, `...`, a string, NaN, a wrong shape, a function that raises
or returns junk) and answers with a `Verdict`, "Not yet" with the reason, never a traceback.
A wrong answer never shows the expected value: `check_function` says what is wrong with the
first failing case (a shape, a flipped sign, which entry and by how much), on cases drawn fresh
at each run from a seed it shows; while the student's function runs, the library, scikit-learn
and scipy refuse to run (`guard`), and each call has a time limit. On Linux the student's calls
run in a forked child process (`child`), which sends back each result as plain data (never a
pickle) and is killed past the time limit: nothing the calls do changes the check (its cases,
references, comparisons and state stay here), and a call stuck in one C function is stopped too;
elsewhere each call runs in a thread of its own, set aside past the limit. A chapter's checks
refuse to run once anything they rely on (their references, cases and comparisons, this module,
the guard, NumPy's functions) differs from what was imported (`seal`), and on Linux run in a
forked copy of the kernel where no other thread runs: changing the check does not pass it.

    def cases(rng):
        return [dict(w=rng.normal(size=2), w0=rng.normal(), x=rng.normal(size=2)) for _ in range(20)]

    check_function(student_h, cases, reference=lambda w, w0, x: w @ x + w0,
                   show=lambda c: f"w = {c['w']}, w0 = {c['w0']:g}, x = {c['x']}")

`Quiz` is a widget (ipywidgets) and lives in `course_lib.widgets.quiz`; importing it from here
imports ipywidgets only when it is asked for, so this module needs NumPy only.
"""

import contextlib
import copy
import functools
import gc
import inspect
import math
import numbers
import random
import re
import time
import traceback
import types
import warnings
from dataclasses import dataclass

import numpy as np

from course_lib.exercises import Verdict
from course_lib.exercises.child import FORKS, Child
from course_lib.exercises.guard import COPY, ELSEWHERE, Guard, TimeLimit, WriteItYourself
from course_lib.exercises.seal import _refusal
from course_lib.i18n import N_, _

__all__ = ["check_function", "check_number", "check_reason", "value_and_reason", "Choice", "Quiz", "default_compare", "format_value", "fresh_seed",
           "float_array", "is_the_data", "limited_tries", "no_diagnosis", "read_integer", "read_numbers", "student_runner"]

_MAX_CHARS = 300


@dataclass(frozen=True)
class Choice:
    """One answer of a concept question: its text, whether it is right, and why (shown when
    the student picks it)."""

    text: str
    correct: bool
    explanation: str


def __getattr__(name):
    if name == "Quiz":  # the widget needs ipywidgets: import it only when asked for
        from course_lib.widgets.quiz import Quiz

        return Quiz
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# -- formatting ---------------------------------------------------------------------------------

def format_value(value):
    """A short readable form of a value (arrays rounded to 4 significant digits, long text cut)."""
    try:
        if isinstance(value, np.ndarray):
            text = np.array2string(value, precision=4, suppress_small=True, separator=", ",
                                   max_line_width=100, threshold=40)
        elif isinstance(value, (float, np.floating)):
            text = f"{float(value):.6g}"
        elif isinstance(value, (tuple, list)) and len(value) <= 8:
            inner = ", ".join(format_value(v) for v in value)
            text = f"({inner})" if isinstance(value, tuple) else f"[{inner}]"
        elif isinstance(value, (types.FunctionType, types.BuiltinFunctionType)):
            text = _("the function {value}").format(value=getattr(value, '__name__', '?'))
        else:
            text = repr(value)
    except Exception:  # a student's object whose repr fails
        text = f"a {type(value).__name__}"
    return text if len(text) <= _MAX_CHARS else text[:_MAX_CHARS] + " ..."


def _default_show(case):
    return ", ".join(f"{name} = {format_value(value)}" for name, value in case.items())


# -- comparing ----------------------------------------------------------------------------------

def _numeric(value):
    return isinstance(value, (int, float, complex, np.number, np.ndarray)) and not isinstance(value, bool) \
        and np.asarray(value).dtype.kind in "iufc"


def default_compare(expected, got, atol=1e-8, rtol=1e-6):
    """None when `got` equals `expected` (same shape and np.allclose for numbers, element by
    element for tuples and lists, key by key for dicts, == otherwise), else a short reason that
    never states `expected`'s values."""
    if got is None and expected is not None:
        return _("your function returned None: is a `return` missing?")
    if got is Ellipsis:
        return _("your function returned `...`: replace it with your computation")
    if isinstance(expected, dict):
        if not isinstance(got, dict):
            return _("expected a dict, got a {name}").format(name=type(got).__name__)
        missing, extra = [k for k in expected if k not in got], [k for k in got if k not in expected]
        if missing or extra:
            return (_("keys {missing} are missing").format(missing=format_value(missing)) if missing
                    else _("keys {extra} should not be there").format(extra=format_value(extra)))
        for key in expected:
            reason = default_compare(expected[key], got[key], atol, rtol)
            if reason:
                return _("at key {key}: {reason}").format(key=format_value(key), reason=reason)
        return None
    if isinstance(expected, (tuple, list)) and not _numeric_sequence(expected):
        if not isinstance(got, (tuple, list)):
            return _("expected {expected} values (a tuple), got a {name}").format(
                expected=len(expected), name=type(got).__name__)
        if len(got) != len(expected):
            return _("expected {expected} values, got {got}").format(
                expected=len(expected), got=len(got))
        for i, (e, g) in enumerate(zip(expected, got)):
            reason = default_compare(e, g, atol, rtol)
            if reason:
                return _("value {i} of {expected}: {reason}").format(
                    i=i + 1, expected=len(expected), reason=reason)
        return None
    if _numeric(expected) or _numeric_sequence(expected):
        expected = np.asarray(expected)
        if isinstance(got, str):
            return _("your function returned the text {got}, not a number").format(got=format_value(got))
        try:
            got_array = np.asarray(got, dtype=complex if expected.dtype.kind == "c" else float)
        except (TypeError, ValueError):
            return _("your function returned a {name}, not numbers").format(name=type(got).__name__)
        if got_array.shape != expected.shape:
            if expected.ndim == 0:
                return _("expected one number, got shape {shape}").format(shape=got_array.shape)
            if got_array.shape == expected.T.shape and expected.ndim == 2:
                return _("shape {shape} instead of {expected}: transposed?").format(
                    shape=got_array.shape, expected=expected.shape)
            return _("shape {shape} instead of {expected}").format(
                shape=got_array.shape, expected=expected.shape)
        if np.isnan(got_array).any() and not np.isnan(expected).any():
            return _("your result contains NaN")
        close = np.isclose(got_array, expected, atol=atol, rtol=rtol, equal_nan=True)
        if close.all():
            return None
        return _how_it_differs(expected, got_array, close, atol, rtol)
    try:
        equal = bool(expected == got)
    except Exception:
        equal = False
    return None if equal else _("the result differs")


def _how_it_differs(expected, got, close, atol, rtol):
    """What is wrong with numbers `got` (same shape as `expected`), without stating `expected`:
    a flipped sign, a constant factor, or which entry differs and by how much."""
    if expected.dtype.kind == "c" or got.dtype.kind == "c":
        return _("the values differ")
    if np.abs(expected).max() > atol and np.allclose(got, -expected, atol=atol, rtol=rtol):
        return _("the sign is flipped")
    nonzero = np.abs(expected) > 1e-9
    if nonzero.any() and np.allclose(got[~nonzero], 0, atol=atol):
        ratios = got[nonzero] / expected[nonzero]
        common = np.allclose(ratios, ratios[0], rtol=1e-6) and abs(ratios[0]) > 1e-9
        simple = any(np.isclose(abs(ratios[0]), f) for f in (2, 0.5, 4, 0.25, 10, 0.1))
        if common and (nonzero.sum() >= 2 or simple):
            return _("off by a constant factor: yours are {ratio:.4g} times the right values").format(
                ratio=ratios[0])
    if expected.ndim == 0:
        gap = float(got - expected)
        return (_("the value is too high by {gap:.3g}") if gap > 0 else _("the value is too low by {gap:.3g}")).format(gap=abs(gap))
    where = tuple(int(i) for i in np.argwhere(~close)[0])
    gap = float(got[where] - expected[where])
    return ((_("{n} of {size} entries differ; the first, at index {where}, is too high by {gap:.3g}") if gap > 0
             else _("{n} of {size} entries differ; the first, at index {where}, is too low by {gap:.3g}"))
            .format(n=int((~close).sum()), size=close.size, where=where, gap=abs(gap)))


def _numeric_sequence(value):
    if not isinstance(value, (tuple, list)) or not value:
        return False
    try:
        array = np.asarray(value)
    except (ValueError, TypeError):
        return False
    return array.dtype.kind in "iufc"


# -- running the student's function ------------------------------------------------------------

DEFAULT_TIME_LIMIT = 5.0  # seconds per call of the student's function (tests lower it)


SEEDS = (10**14, 10**15)  # the range of the fresh seeds: too many to compute every seed's answers in advance


def fresh_seed():
    """A seed for a check's cases, new at every run (the cases cannot be known in advance). From
    9 x 10^14 seeds: computing the answers of every seed's cases beforehand, to look them up during
    the check, took 13 ms of CPU a seed for 12 ex 4, 3.6 hours for the 990,000 seeds of six digits."""
    return random.SystemRandom().randrange(*SEEDS)


def _unwrap(fn):
    """The plain functions behind a partial, a bound method, a staticmethod or a decorator."""
    seen = []
    while fn is not None and not any(fn is s for s in seen):
        seen.append(fn)
        if isinstance(fn, functools.partial):
            fn = fn.func
        elif isinstance(fn, (types.MethodType, staticmethod, classmethod)):
            fn = fn.__func__
        else:
            fn = getattr(fn, "__wrapped__", None)
    return seen


def _short_label(label):
    return label.replace("course_lib.exercises.", _("the check's "))


def _raised(error, student_fn):
    """'ZeroDivisionError: division by zero (line 3 of your function)'."""
    text = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    code = getattr(_unwrap(student_fn)[-1], "__code__", None)
    if code is not None:
        frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == code.co_filename]
        if frames:
            text += _(" at line {lineno} of the cell that defines it").format(lineno=frames[-1].lineno)
    return format_value(text) if len(text) > _MAX_CHARS else text


def _not_callable(student_fn, what=N_("function")):
    if student_fn is None or student_fn is Ellipsis:
        return _("write your {what}, then pass it to the check by its name (no parentheses).").format(
            what=_(what))
    if isinstance(student_fn, type):
        return _("that is the class {name}; pass your {what} by its name.").format(
            name=student_fn.__name__, what=_(what))
    if isinstance(student_fn, np.ndarray):
        got = _("an array of shape {shape}").format(shape=student_fn.shape)
    else:
        got = f"{format_value(student_fn)} (a {type(student_fn).__name__})"
    return _("the check needs your {what} itself, and got {got}: pass it by its name, without calling it.").format(
        what=_(what), got=got)


def _compare(compare, expected, got):
    try:
        reason = compare(expected, got)
    except Exception as error:  # a comparison the student's junk breaks
        return _("your result could not be compared ({name}: {error})").format(
            name=type(error).__name__, error=error)
    return None if reason is None else str(reason)


def as_sentence(reason):
    """The reason with a capital first letter when it starts with a word ("your result" ->
    "Your result"), left as it is when it starts with a symbol of the math ("w is right",
    "w₀ moves", "αᵗ", "`n_epochs`"), whose case is part of its meaning."""
    word = re.match(r"[^\W\d_]*", reason).group()
    if len(word) >= 2 and word.islower() and all(ord(letter) < 0x370 for letter in word):  # Latin
        return reason[:1].upper() + reason[1:]
    return reason


def _not_yet(reason, hint):
    return Verdict(False, as_sentence(reason), hint)


def robust(unreadable):
    """Decorator for a check: an answer it cannot read gets "Not yet" with the reason
    `unreadable`, never a traceback."""
    def decorate(check):
        @functools.wraps(check)
        def wrapped(*args, **kwargs):
            try:
                return check(*args, **kwargs)
            except Exception:
                return Verdict(False, _(unreadable))
        return wrapped
    return decorate


def _changed_arguments(before, after):
    """The names of the arguments the student's function changed in place."""
    changed = []
    for name, value in before.items():
        try:
            same = _same(value, after[name])
        except Exception:
            same = False
        if not same:
            changed.append(name)
    return changed


def _same(a, b):
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.shape == b.shape and bool(np.array_equal(a, b, equal_nan=True))
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, (int, float, str, bool, np.number, type(None))):
        return bool(a == b) or (a != a and b != b)
    return True  # an object (a model): its state is its own business


@contextlib.contextmanager
def student_runner(allowed=(), time_limit=None, read_only=True):
    """A block in which `calls(student_fn, cases)` gives, case after case, (result, None), or
    (None, reason) when the student's function calls the library, runs past the time limit, raises
    or (read_only) changes its arguments in place. The library and scikit-learn are out of reach
    during each call (`guard.Guard`, installed once for the block), usable between calls.

        with student_runner() as calls, contextlib.closing(calls(student_fn, cases)) as results:
            for case, (got, reason) in zip(cases, results):
                ...

    On Linux (`child.FORKS`), the calls run one after the other in a child process
    (`child.Child`) forked at the first: nothing they do changes this process (the cases, the
    references, the check's state), and past the time limit (with a second's grace, for the child's
    own limit to answer first) the child is killed, a call stuck in one C function included.
    Elsewhere each call runs here, in a thread of its own, set aside past the limit.
    """
    limit = DEFAULT_TIME_LIMIT if time_limit is None else time_limit
    with Guard(allowed) as guard:
        run = functools.partial(_run_case, guard, limit=limit, read_only=read_only)
        yield functools.partial(_calls_in_a_child if FORKS else _calls_here, run, limit)


_GRACE = 1.0  # seconds past the limit before the child is killed: its own limit answers first


def _calls_here(run, limit, student_fn, cases):
    for case in cases:
        yield run(student_fn, case)


def _calls_in_a_child(run, limit, student_fn, cases):
    def work(send):  # (in the child, where the garbage collector stays off)
        for case in cases:
            send(run(student_fn, case))

    child = Child(work)
    try:
        for _case in cases:
            try:
                sent = child.receive(limit + _GRACE)
            except TimeLimit:
                yield None, _did_not_return(limit)
                return
            except Exception:  # ChildEnded, or what the student's code wrote into the pipe raised here
                yield None, _("your function ended the process that runs it (`os._exit`, a signal, a crash) "
                              "without returning.")
                return
            well_formed = isinstance(sent, tuple) and len(sent) == 2 and (sent[1] is None or isinstance(sent[1], str))
            yield sent if well_formed else (sent, None)  # (written into the pipe by the student's code)
    finally:
        child.stop()


def _did_not_return(limit):
    return _("your function did not return within {limit:g} s: is there a loop that never ends (a `while` "
             "whose condition stays true)?").format(limit=limit)


def _run_case(guard, student_fn, case, *, limit, read_only):
    student_case, pristine = copy.deepcopy(case), copy.deepcopy(case)
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            got = guard.run(student_fn, student_case, limit)
    except KeyboardInterrupt:
        raise
    except WriteItYourself as error:
        return None, _write_it_yourself(error.label)
    except TimeLimit:
        if guard.refused:  # a worker the library refused never answered
            return None, _write_it_yourself(guard.refused[0])
        return None, _did_not_return(limit)
    except BaseException as error:  # SystemExit, a student's own exception classes, ...
        if guard.refused:
            return None, _write_it_yourself(guard.refused[0])
        return None, _("your function raised {error}.").format(error=_raised(error, student_fn))
    if guard.refused:  # the student's `except` hid the refusal
        return None, _write_it_yourself(guard.refused[0])
    changed = _changed_arguments(pristine, student_case) if read_only else []
    if changed:
        names = ", ".join(f"`{name}`" for name in changed)
        return None, (_("your function changed its argument {names} in place: leave the inputs as they "
                      "are and return a new value (work on a copy, e.g. `alpha = alpha.copy()`).").format(
                          names=names))
    return got, None


def _write_it_yourself(label):
    if label.startswith(ELSEWHERE):
        return (_("your function hands work to another thread or process (`{label}`), where the check cannot "
                "see it: compute the answer in your function itself.").format(label=label[len(ELSEWHERE):]))
    if label.startswith(COPY):
        return (_("your function runs a copy of `{label}`, the "
                "library's answer: write it yourself.").format(label=_short_label(label[len(COPY):])))
    return _("your function calls `{label}`, an answer of the library: write it yourself.").format(
        label=_short_label(label))


def check_function(student_fn, cases, reference, *, seed=None, compare=None, allowed=(), show=None,
                   hint=None, right=None, what=N_("function"), time_limit=None, read_only=True):
    """Run `student_fn(**case)` on fresh random cases against `reference(**case)`.

    cases(rng): a list of dicts of keyword arguments drawn with `rng` (np.random.default_rng).
    seed: the seed of the cases; None (the default) draws a fresh one, shown with a failure
        so that the same cases can be re-run with `seed=`. A replayed seed never counts as Right.
    compare(expected, got): None when equal, else a short reason (default `default_compare`)
        that says what is wrong without stating the expected value.
    allowed: library functions the student is told to use; every other function of the library
        and of scikit-learn refuses to run while the student's function runs (`guard.Guard`).
    show(case): the case's inputs in the slides' notation, for the failure message.
    hint: text offered after a wrong attempt (`verdict.hint()`).
    right: text shown with a correct attempt, or a function of the cases giving it (default: how
        many cases passed).
    time_limit: seconds per call (default DEFAULT_TIME_LIMIT).
    read_only: a function that changes its arguments in place fails.
    """
    compare = compare or default_compare
    if not callable(student_fn):
        return _not_yet(_not_callable(student_fn, what), hint)
    replay = seed is not None
    seed = fresh_seed() if seed is None else seed
    drawn = cases(np.random.default_rng(seed))
    if not drawn:
        raise ValueError(_("check_function needs at least one case"))
    mismatch = _parameter_mismatch(student_fn, drawn[0])
    if mismatch:
        return _not_yet(mismatch, hint)
    with student_runner(allowed, time_limit, read_only) as calls, contextlib.closing(calls(student_fn, drawn)) as results:
        failure = _first_failure(results, drawn, reference, compare)
    if failure is not None:
        number, case, reason = failure
        return _not_yet(_("case seed {seed}: on case {number} of {drawn}, {case}: {reason} "
                        "(To re-run these cases: add `seed={seed}` to the check call.)").format(
                            seed=seed, number=number, drawn=len(drawn), case=_shown(show, case), reason=reason), hint)
    if replay:
        return Verdict(False, _("All {drawn} cases of seed {seed} pass. A replayed seed does "
                              "not count: run the check without `seed=` for fresh cases.").format(
                                  drawn=len(drawn), seed=seed), hint)
    text = right(drawn) if callable(right) else right
    return Verdict(True, text or _("Your {what} agrees with the library on all {drawn} fresh random cases.").format(
        what=_(what), drawn=len(drawn)), hint)


def _first_failure(results, cases, reference, compare):
    """(number, case, reason) of the first case the student's function fails, given its `results`
    ((got, reason) case after case), or None. The garbage collector is paused meanwhile: a
    finalizer of the student's objects (or a gc callback) would run in this thread, between the
    calls, where the library answers and the next case is in the frames (`guard` refuses a call
    that switches it back on)."""
    with _no_garbage_collection():
        for number, (case, (got, reason)) in enumerate(zip(cases, results), 1):
            expected = reference(**copy.deepcopy(case))  # after the call: while it ran, no expected value existed
            if reason is None:
                reason = _compare(compare, expected, got)
                if reason is not None:
                    reason = f"{reason.rstrip('.')}{'' if reason.endswith('?') else '.'} " + _("Yours: {got}.").format(
                        got=format_value(got))
            if reason is not None:
                return number, case, reason
    return None


@contextlib.contextmanager
def _no_garbage_collection():
    """Automatic garbage collection off within the block (back as it was after)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _parameter_mismatch(student_fn, case):
    """Why the student's function cannot take the case's keyword arguments, or None."""
    try:
        signature = inspect.signature(student_fn)
    except (TypeError, ValueError):  # a builtin without a signature: calling it will tell
        return None
    try:
        signature.bind(**case)
    except TypeError:
        return (_("the check calls your function with the arguments {case}, and "
                "its parameters are {signature}: keep the names of the stub.").format(
                    case=', '.join(case), signature=signature))
    return None


def _shown(show, case):
    try:
        return str((show or _default_show)(copy.deepcopy(case)))
    except Exception:
        return _default_show(case)


def read_numbers(answer):
    """(array, None) or (None, reason) for a student's answer: numbers (a number, a list or an
    array of them), never text, a truth value, a complex number or a function, even one that NumPy
    would read as a number ("2.5", True, 2 + 0j)."""
    if answer is None or answer is Ellipsis:
        return None, _("replace `...` with your number.")
    if isinstance(answer, (bool, np.bool_)):
        return None, _("{answer} is a truth value; the answer is a number.").format(answer=answer)
    if isinstance(answer, (str, bytes)):
        return None, _("that is text (in quotes): write the number itself, without quotes.")
    if callable(answer):
        return None, _("that is a function: call it and pass its result, or write the number.")
    if _text_or_truth(answer):
        return None, _("that (a value of type {name}) is not a number.").format(name=type(answer).__name__)
    try:
        array = np.asarray(answer, dtype=float)
    except OverflowError:  # an integer beyond float64's range
        return None, _("that number is beyond the range of floating-point numbers (about 1.8e308).")
    except (TypeError, ValueError):
        return None, _("that (a value of type {name}) is not a number.").format(
            name=type(answer).__name__)
    if not np.isfinite(array).all():
        return None, _("your answer contains NaN or infinity.")
    return array, None


def is_the_data(given, expected):
    """Whether the data a student passed to a check (arrays, lists, numbers) is the exercise's
    own: a check whose data comes through its arguments compares them with the data it draws
    itself, so that a smaller or easier problem cannot be passed instead."""
    try:
        given, expected = np.asarray(given, dtype=float), np.asarray(expected, dtype=float)
    except (TypeError, ValueError, OverflowError):
        return False
    return given.shape == expected.shape and bool(np.allclose(given, expected, atol=0, rtol=1e-12))


def check_reason(answer, choices, hint=None):
    """Whether `answer`, a letter 'A', 'B', ... (or its index from 0), picks the right one of
    `choices` (`Choice`s whose texts the chapter lists, without saying which is right); the
    picked choice's explanation is shown either way."""
    letters = "ABCDEFGH"[:len(choices)]
    if answer is None or answer is Ellipsis:
        return _not_yet(_("replace the last `...` with the letter of your reason ({letters}).").format(
            letters=", ".join(letters)), hint)
    if isinstance(answer, str) and len(answer.strip()) == 1 and answer.strip().upper() in letters:
        index = letters.index(answer.strip().upper())
    elif isinstance(answer, (int, np.integer)) and not isinstance(answer, bool) and 0 <= answer < len(choices):
        index = int(answer)
    else:
        return _not_yet(_("give the reason as one letter in quotes: {letters}.").format(
            letters=", ".join(repr(c) for c in letters)), hint)
    choice = choices[index]
    return Verdict(choice.correct, f"({letters[index]}) {_(choice.explanation)}", hint)


def value_and_reason(verdict, reason, choices, right, hint=None):
    """A numeric answer followed by its reason: the value's `verdict` when it is wrong; else
    whether `reason` picks the right one of `choices` (check_reason), shown after the value's
    explanation. `right` ("The table is right. Your reason: {why}") is said when only the
    reason is wrong."""
    if not verdict:
        return verdict
    why = check_reason(reason, choices, hint=hint)
    return Verdict(why.correct, f"{verdict.why} {why.why}" if why else right.format(why=why.why), why._hint)


# -- answers by guessing ------------------------------------------------------------------------

WRONG_BEFORE_PAUSE = 2  # wrong answers to one question taken in a row; then the check pauses
FIRST_PAUSE = 60.0  # seconds; doubled at every wrong answer after it
_clock = time.monotonic  # tests replace it
_tries = {}  # question -> (wrong answers since the last right one, end of the pause)


TEXT_ANSWERS = ("reason", "prediction")  # the parameters of a check whose answer is text (a letter)
MAX_NESTING = 20  # lists, tuples and dicts inside one another in an answer; deeper is not an answer


def _text_or_truth(value, depth=0):
    """Whether an answer holds text, a truth value or a complex number where real numbers are
    expected: itself or anywhere inside a list, tuple, dict value or array (an object array item
    by item). float("-1") and np.asarray(["-1", "2"], float) read text as numbers, True == 1 counts
    as the number 1, and a complex number with no imaginary part compares equal to a real one.
    Nested deeper than MAX_NESTING (a list holding itself) is not an answer either."""
    if isinstance(value, (bool, np.bool_, str, bytes, bytearray, complex, np.complexfloating)):
        return True
    if isinstance(value, np.ndarray):
        return value.dtype.kind in "bcUS" or (value.dtype == object and any(
            _text_or_truth(item, depth + 1) for item in value.ravel()))
    if isinstance(value, (list, tuple, dict)):
        items = value.values() if isinstance(value, dict) else value
        return depth >= MAX_NESTING or any(_text_or_truth(item, depth + 1) for item in items)
    return False


def _junk_answer(signature, args, kwargs, text):
    """The name of the first answer given as text, a truth value or a complex number where the
    question wants real numbers (`_text_or_truth`; the parameters in `text` are text answers: a
    letter, a word), or None."""
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError:
        return None
    for name, value in bound.arguments.items():
        if value is not Ellipsis and value is not None and name not in text and _text_or_truth(value):
            return name
    return None


def limited_tries(check=None, *, text=(), data=()):
    """Decorator for the check of a number, a choice or a reason: it does not take answers by the
    hundred. After WRONG_BEFORE_PAUSE wrong answers in a row the check pauses FIRST_PAUSE seconds,
    then twice as long after each further wrong answer; an answer given during a pause is not
    read (it is neither right nor wrong). A right answer ends the count. So one wrong answer and
    then the right one pass at once, while a loop calling the check with candidate values
    (0, 1, 2, ...) gets two tries, then one a minute later, two minutes, four...
    The record of the wrong answers (`_tries`) is checked too: cleared or rewritten by other code than
    the check's (`_tries.clear()` before each guess of a loop), the check refuses to run, as a changed
    check does (`seal`).
    Answers are read together: with every answer left as `...` the check says what to fill in
    (not counted); with some of them left `...` (or an optional reason omitted) nothing is read,
    so that no part can be tried alone for free.
    An answer given as text, as True/False or as a complex number where numbers are asked (`"-1"`,
    `["1", "0.5"]`, `True` for class 1, `1 + 0j`) is not read (and not counted); `text` names the parameters whose answer is
    text besides TEXT_ANSWERS (`@limited_tries(text=("y",))` for a word), `data` those that take the
    exercise's data, which the check compares with its own (`is_the_data`)."""
    if check is None:
        return lambda check: limited_tries(check, text=text, data=data)
    text = TEXT_ANSWERS + tuple(text) + tuple(data)
    question = f"{check.__module__}.{check.__qualname__}"
    signature = inspect.signature(check)
    kept = [None, None]  # the record `_tries` and this question's entry as the check last left it

    @functools.wraps(check)
    def wrapped(*args, **kwargs):
        entry = _tries.get(question)
        if kept[0] is _tries and entry is not kept[1]:  # cleared or rewritten by other code than this check's
            return _refusal(f"{__name__}._tries")
        kept[:] = _tries, entry
        wrong, until = entry or (0, 0.0)
        now = _clock()
        if now < until:
            return Verdict(False, _("This check is paused for {seconds} s after {wrong} wrong answers in a row: "
                                    "it does not take guesses one after another. Work the answer out "
                                    "(reread the question and the section above it), then run the cell "
                                    "again.").format(seconds=int(np.ceil(until - now)), wrong=wrong))
        missing = _missing_answers(signature, args, kwargs)
        if 0 < len(missing) < len(signature.parameters):
            if missing == ["reason"]:
                return Verdict(False, _("Give the letter of your reason too: the check reads the answers of a "
                                        "question together."))
            if missing == ["prediction"]:
                return Verdict(False, _("Give the letter of your prediction too: the check reads the answers of a "
                                        "question together."))
            return Verdict(False, _("Replace every `...` with your answer: the check reads the answers of a "
                                    "question together."))
        junk = _junk_answer(signature, args, kwargs, text)
        if junk is not None:
            return Verdict(False, _("`{name}` holds text (in quotes), a truth value (True/False) or a complex "
                                    "number where the question asks for real numbers: write the numbers "
                                    "themselves.").format(name=junk))
        verdict = check(*args, **kwargs)
        if verdict.correct:
            _tries.pop(question, None)
            kept[1] = None
        elif not missing:
            wrong += 1
            pause = FIRST_PAUSE * 2 ** (wrong - WRONG_BEFORE_PAUSE) if wrong >= WRONG_BEFORE_PAUSE else 0.0
            _tries[question] = kept[1] = (wrong, now + pause)
            if pause:
                verdict = Verdict(False, verdict.why + " " + _(
                    "({wrong} wrong answers in a row: the check takes the next one in {seconds:g} s, "
                    "time to work it out rather than guess.)").format(wrong=wrong, seconds=pause),
                    verdict._hint)
        return verdict

    wrapped.limited_tries = True
    return wrapped


def _missing_answers(signature, args, kwargs):
    """The names of a check's arguments left `...` or omitted (an optional answer); none when
    the arguments do not fit its parameters (calling the check says so)."""
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError:
        return []
    return [name for name in signature.parameters if name not in bound.arguments or bound.arguments[name] is Ellipsis]


def float_array(answer):
    """np.asarray(answer, dtype=float) for a student's numbers only: text, truth values, complex
    numbers and functions raise TypeError (NumPy would read "2.5" and True as numbers), an integer
    beyond float64's range ValueError (NumPy raises OverflowError)."""
    if callable(answer) or _text_or_truth(answer):
        raise TypeError(_("not numbers: a {name}").format(name=type(answer).__name__))
    try:
        return np.asarray(answer, dtype=float)
    except OverflowError:
        raise ValueError(_("beyond the range of floating-point numbers")) from None


def read_integer(answer):
    """The answer as an int when it is a whole number (an int, a float such as 26.0, a NumPy number
    or a 0-d array of one); None for text, a truth value, a complex number, NaN, several numbers or
    any other object (an object equal to everything among them)."""
    if isinstance(answer, np.ndarray) and answer.ndim == 0 and answer.dtype.kind in "iuf":
        answer = answer[()]
    if isinstance(answer, (bool, np.bool_)) or not isinstance(answer, numbers.Real):
        return None
    if isinstance(answer, numbers.Integral):
        return int(answer)
    value = float(answer)
    return int(value) if math.isfinite(value) and value.is_integer() else None


NOT_IT = N_("your answer is not it.")


def check_number(answer, expected, *, atol=1e-6, rtol=1e-6, diagnoses=(), hint=None, right=None):
    """Whether `answer` equals `expected` (a number or an array) within atol + rtol |expected|.

    diagnoses: ((value, message), ...): a wrong answer close to `value` gets `message`
    (the usual mistakes: a forgotten square, a flipped sign).
    right: text shown with a correct answer (it may state the value then).
    A wrong answer never shows `expected`."""
    array, reason = read_numbers(answer)
    if reason:
        return _not_yet(reason, hint)
    expected = np.asarray(expected, dtype=float)
    if array.shape != expected.shape:
        if expected.ndim == 0 and array.size == 1:
            array = array.reshape(())
        elif expected.ndim == 0:
            return _not_yet(_("the answer is one number, and you gave {n}.").format(n=array.size), hint)
        else:
            return _not_yet(_("the answer has shape {expected}, yours {shape}.").format(
                expected=expected.shape, shape=array.shape), hint)
    if np.allclose(array, expected, atol=atol, rtol=rtol):
        return Verdict(True, right or _("That is it."), hint)
    for value, message in diagnoses:
        value = np.asarray(value, dtype=float)
        if value.shape == array.shape and np.allclose(array, value, atol=atol, rtol=rtol):
            return _not_yet(message, hint)
    return _not_yet(_(NOT_IT), hint)


def no_diagnosis(verdict):
    """Whether a wrong `check_number` verdict is its plain "not it": none of its diagnoses matched."""
    return not verdict and verdict.why == _not_yet(_(NOT_IT), None).why
