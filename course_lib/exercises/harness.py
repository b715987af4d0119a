"""The generic exercise checks: a function the student writes (`check_function`), a number the
student computes (`check_number`), and concept questions (`Quiz` of `Choice`s).

Every check takes any input (None, `...`, a string, NaN, a wrong shape, a function that raises
or returns junk) and answers with a `Verdict`, "Not yet" with the reason, never a traceback.
A wrong answer never shows the expected value of `check_number`; `check_function` shows the
expected output of the first failing case only (the answer is the function, not that value).

    cases = [dict(w=rng.normal(size=2), w0=rng.normal(), x=rng.normal(size=2)) for _ in range(20)]
    check_function(student_h, cases, reference=lambda w, w0, x: w @ x + w0,
                   forbidden=(LinearDiscriminant.decision_function,),
                   show=lambda c: f"w = {c['w']}, w0 = {c['w0']:g}, x = {c['x']}")

`Quiz` is a widget (ipywidgets) and lives in `course_lib.widgets.quiz`; importing it from here
imports ipywidgets only when it is asked for, so this module needs NumPy only.
"""

import copy
import functools
import inspect
import sys
import traceback
import types
import warnings
from dataclasses import dataclass

import numpy as np

from course_lib.exercises import Verdict

__all__ = ["check_function", "check_number", "Choice", "Quiz", "default_compare", "format_value"]

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
            text = f"the function {getattr(value, '__name__', '?')}"
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
        return "your function returned None: is a `return` missing?"
    if got is Ellipsis:
        return "your function returned `...`: replace it with your computation"
    if isinstance(expected, dict):
        if not isinstance(got, dict):
            return f"expected a dict, got a {type(got).__name__}"
        missing, extra = [k for k in expected if k not in got], [k for k in got if k not in expected]
        if missing or extra:
            return (f"keys {format_value(missing)} are missing" if missing
                    else f"keys {format_value(extra)} should not be there")
        for key in expected:
            reason = default_compare(expected[key], got[key], atol, rtol)
            if reason:
                return f"at key {format_value(key)}: {reason}"
        return None
    if isinstance(expected, (tuple, list)) and not _numeric_sequence(expected):
        if not isinstance(got, (tuple, list)):
            return f"expected {len(expected)} values (a tuple), got a {type(got).__name__}"
        if len(got) != len(expected):
            return f"expected {len(expected)} values, got {len(got)}"
        for i, (e, g) in enumerate(zip(expected, got)):
            reason = default_compare(e, g, atol, rtol)
            if reason:
                return f"value {i + 1} of {len(expected)}: {reason}"
        return None
    if _numeric(expected) or _numeric_sequence(expected):
        expected = np.asarray(expected)
        if isinstance(got, str):
            return f"your function returned the text {format_value(got)}, not a number"
        try:
            got_array = np.asarray(got, dtype=complex if expected.dtype.kind == "c" else float)
        except (TypeError, ValueError):
            return f"your function returned a {type(got).__name__}, not numbers"
        if got_array.shape != expected.shape:
            if expected.ndim == 0:
                return f"expected one number, got shape {got_array.shape}"
            if got_array.shape == expected.T.shape and expected.ndim == 2:
                return f"shape {got_array.shape} instead of {expected.shape}: transposed?"
            return f"shape {got_array.shape} instead of {expected.shape}"
        if np.isnan(got_array).any() and not np.isnan(expected).any():
            return "your result contains NaN"
        close = np.isclose(got_array, expected, atol=atol, rtol=rtol, equal_nan=True)
        if close.all():
            return None
        if expected.ndim == 0:
            return "the value differs"
        where = tuple(int(i) for i in np.argwhere(~close)[0])
        return f"{int((~close).sum())} of {close.size} entries differ, the first at index {where}"
    try:
        equal = bool(expected == got)
    except Exception:
        equal = False
    return None if equal else "the result differs"


def _numeric_sequence(value):
    if not isinstance(value, (tuple, list)) or not value:
        return False
    try:
        array = np.asarray(value)
    except (ValueError, TypeError):
        return False
    return array.dtype.kind in "iufc"


# -- forbidden calls ----------------------------------------------------------------------------

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


def _label(fn):
    module = getattr(fn, "__module__", None) or ""
    name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", repr(fn))
    return f"{module}.{name}" if module.startswith("course_lib") else name


class _Forbidding:
    """Within the block, every reachable reference to a forbidden function (its defining
    module and class, every loaded module of its package, the student function's globals,
    closure, defaults and the modules its globals hold) points to a recorder that notes the
    call and calls through. Everything is put back on exit, even on an exception.
    Not covered: a reference hidden in a container or an object's attribute (a list, a dict)."""

    def __init__(self, forbidden, student_fn):
        self.forbidden = [f for f in forbidden if f is not None]
        self.student_fn = student_fn
        self.called = []
        self._undo = []

    def _recorder(self, fn):
        @functools.wraps(fn)
        def recorder(*args, **kwargs):
            self.called.append(fn)
            return fn(*args, **kwargs)

        recorder.__course_forbidden__ = fn
        return recorder

    def _patch_namespace(self, namespace, fn, replacement):
        for name, value in list(namespace.items()):
            if value is fn:
                namespace[name] = replacement
                self._undo.append(functools.partial(namespace.__setitem__, name, value))

    def _patch_object(self, owner, name, fn, replacement):
        raw = owner.__dict__.get(name)
        target = raw.__func__ if isinstance(raw, (staticmethod, classmethod)) else raw
        if target is fn:
            wrapped = type(raw)(replacement) if isinstance(raw, (staticmethod, classmethod)) else replacement
            setattr(owner, name, wrapped)
            self._undo.append(functools.partial(setattr, owner, name, raw))

    def _student_functions(self):
        """The student function and the plain functions behind it."""
        return [f for f in _unwrap(self.student_fn) if isinstance(f, types.FunctionType)]

    def __enter__(self):
        try:
            for fn in self.forbidden:
                self._patch(fn)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def _patch(self, fn):
        plain = _unwrap(fn)[-1]
        replacement = self._recorder(plain)
        module_name = getattr(plain, "__module__", None) or ""
        package = module_name.split(".")[0]
        modules = [m for name, m in list(sys.modules.items())
                   if m is not None and (name == package or name.startswith(package + "."))] if package else []
        student_fns = self._student_functions()
        for student in student_fns:
            modules += [v for v in student.__globals__.values() if isinstance(v, types.ModuleType)]
        for module in {id(m): m for m in modules}.values():
            namespace = getattr(module, "__dict__", None)
            if isinstance(namespace, dict):
                self._patch_namespace(namespace, plain, replacement)
        qualname = getattr(plain, "__qualname__", "")
        if "." in qualname and "<locals>" not in qualname and module_name in sys.modules:
            owner = sys.modules[module_name]
            for part in qualname.split(".")[:-1]:
                owner = getattr(owner, part, None)
            if isinstance(owner, type):
                self._patch_object(owner, qualname.split(".")[-1], plain, replacement)
        for student in student_fns:
            self._patch_namespace(student.__globals__, plain, replacement)
            for cell in student.__closure__ or ():
                try:
                    contents = cell.cell_contents
                except ValueError:  # an empty cell
                    continue
                if contents is plain:
                    cell.cell_contents = replacement
                    self._undo.append(functools.partial(setattr, cell, "cell_contents", contents))
            if student.__defaults__ and any(d is plain for d in student.__defaults__):
                old = student.__defaults__
                student.__defaults__ = tuple(replacement if d is plain else d for d in old)
                self._undo.append(functools.partial(setattr, student, "__defaults__", old))
            if student.__kwdefaults__ and any(d is plain for d in student.__kwdefaults__.values()):
                old = dict(student.__kwdefaults__)
                student.__kwdefaults__ = {k: replacement if d is plain else d for k, d in old.items()}
                self._undo.append(functools.partial(setattr, student, "__kwdefaults__", old))

    def __exit__(self, *exc):
        while self._undo:
            self._undo.pop()()
        return False


def _is_forbidden(student_fn, forbidden):
    """The forbidden function the student's function literally is, or None."""
    plains = [_unwrap(f)[-1] for f in forbidden if f is not None]
    for candidate in _unwrap(student_fn):
        for plain in plains:
            if candidate is plain or getattr(candidate, "__course_forbidden__", None) is plain:
                return plain
    return None


# -- the checks ---------------------------------------------------------------------------------

def _raised(error, student_fn):
    """'ZeroDivisionError: division by zero (line 3 of your function)'."""
    text = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    code = getattr(_unwrap(student_fn)[-1], "__code__", None)
    if code is not None:
        frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == code.co_filename]
        if frames:
            text += f" at line {frames[-1].lineno} of the cell that defines it"
    return format_value(text) if len(text) > _MAX_CHARS else text


def _not_callable(student_fn, what="function"):
    if student_fn is None or student_fn is Ellipsis:
        return f"write your {what}, then pass it to the check by its name (no parentheses)."
    if isinstance(student_fn, type):
        return f"that is the class {student_fn.__name__}; pass your {what} by its name."
    if isinstance(student_fn, np.ndarray):
        got = f"an array of shape {student_fn.shape}"
    else:
        got = f"{format_value(student_fn)} (a {type(student_fn).__name__})"
    return f"the check needs your {what} itself, and got {got}: pass it by its name, without calling it."


def _compare(compare, expected, got):
    try:
        reason = compare(expected, got)
    except Exception as error:  # a comparison the student's junk breaks
        return f"your result could not be compared ({type(error).__name__}: {error})"
    return None if reason is None else str(reason)


def _not_yet(reason, hint):
    return Verdict(False, reason[:1].upper() + reason[1:], hint)


def robust(unreadable):
    """Decorator for a check: an answer it cannot read gets "Not yet" with the reason
    `unreadable`, never a traceback."""
    def decorate(check):
        @functools.wraps(check)
        def wrapped(*args, **kwargs):
            try:
                return check(*args, **kwargs)
            except Exception:
                return Verdict(False, unreadable)
        return wrapped
    return decorate


def check_function(student_fn, cases, reference, *, compare=None, forbidden=(), show=None, hint=None,
                   right=None, what="function"):
    """Run `student_fn(**case)` on each case (deep copies) against `reference(**case)`.

    cases: list of dicts of keyword arguments (built with a seeded np.random.default_rng).
    compare(expected, got): None when equal, else a short reason (default `default_compare`).
    forbidden: library functions the student must not call (or be).
    show(case): the case's inputs in the slides' notation, for the failure message.
    hint: text offered after a wrong attempt (`verdict.hint()`).
    right: text shown with a correct attempt (default: how many cases passed).
    Returns a Verdict: the first failing case with its inputs, expected and got, or Right.
    """
    if not cases:
        raise ValueError("check_function needs at least one case in `cases`")
    compare = compare or default_compare
    forbidden = tuple(forbidden) if isinstance(forbidden, (tuple, list, set)) else (forbidden,)
    if not callable(student_fn):
        return _not_yet(_not_callable(student_fn, what), hint)
    literal = _is_forbidden(student_fn, forbidden)
    if literal is not None:
        return _not_yet(f"that is the library's own `{_label(literal)}`: write it yourself.", hint)
    mismatch = _parameter_mismatch(student_fn, cases[0])
    if mismatch:
        return _not_yet(mismatch, hint)
    for number, case in enumerate(cases, 1):
        expected = reference(**copy.deepcopy(case))
        student_case = copy.deepcopy(case)
        recorder = _Forbidding(forbidden, student_fn)
        try:
            with recorder, warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                got = student_fn(**student_case)
        except KeyboardInterrupt:
            raise
        except BaseException as error:  # SystemExit, a student's own exception classes, ...
            return _not_yet(f"on case {number}, {_shown(show, case)}, your function raised "
                           f"{_raised(error, student_fn)}.", hint)
        if recorder.called:
            return _not_yet(f"your function calls the library's `{_label(recorder.called[0])}`: "
                           "write it yourself.", hint)
        reason = _compare(compare, expected, got)
        if reason is not None:
            return _not_yet(f"on case {number}, {_shown(show, case)}: {reason.rstrip('.')}"
                            f"{'' if reason.endswith('?') else '.'} "
                           f"Expected {format_value(expected)}, got {format_value(got)}.", hint)
    return Verdict(True, right or f"Your {what} agrees with the library on all {len(cases)} cases.", hint)


def _parameter_mismatch(student_fn, case):
    """Why the student's function cannot take the case's keyword arguments, or None."""
    try:
        signature = inspect.signature(student_fn)
    except (TypeError, ValueError):  # a builtin without a signature: calling it will tell
        return None
    try:
        signature.bind(**case)
    except TypeError:
        return (f"the check calls your function with the arguments {', '.join(case)}, and its "
                f"parameters are {signature}: keep the names of the stub.")
    return None


def _shown(show, case):
    try:
        return str((show or _default_show)(copy.deepcopy(case)))
    except Exception:
        return _default_show(case)


def _as_number(answer):
    """(array, None) or (None, reason) for a student's answer."""
    if answer is None or answer is Ellipsis:
        return None, "replace `...` with your number."
    if isinstance(answer, (bool, np.bool_)):
        return None, f"{answer} is a truth value; the answer is a number."
    if isinstance(answer, (str, bytes)):
        return None, "that is text (in quotes): write the number itself, without quotes."
    if callable(answer):
        return None, "that is a function: call it and pass its result, or write the number."
    try:
        array = np.asarray(answer, dtype=float)
    except (TypeError, ValueError):
        return None, f"that (a value of type {type(answer).__name__}) is not a number."
    if not np.isfinite(array).all():
        return None, "your answer contains NaN or infinity."
    return array, None


def check_number(answer, expected, *, atol=1e-6, rtol=1e-6, diagnoses=(), hint=None, right=None):
    """Whether `answer` equals `expected` (a number or an array) within atol + rtol |expected|.

    diagnoses: ((value, message), ...): a wrong answer close to `value` gets `message`
    (the usual mistakes: a forgotten square, a flipped sign).
    right: text shown with a correct answer (it may state the value then).
    A wrong answer never shows `expected`."""
    array, reason = _as_number(answer)
    if reason:
        return _not_yet(reason, hint)
    expected = np.asarray(expected, dtype=float)
    if array.shape != expected.shape:
        if expected.ndim == 0 and array.size == 1:
            array = array.reshape(())
        elif expected.ndim == 0:
            return _not_yet(f"the answer is one number, and you gave {array.size}.", hint)
        else:
            return _not_yet(f"the answer has shape {expected.shape}, yours {array.shape}.", hint)
    if np.allclose(array, expected, atol=atol, rtol=rtol):
        return Verdict(True, right or "That is it.", hint)
    for value, message in diagnoses:
        value = np.asarray(value, dtype=float)
        if value.shape == array.shape and np.allclose(array, value, atol=atol, rtol=rtol):
            return _not_yet(message, hint)
    return _not_yet("your answer is not it.", hint)
