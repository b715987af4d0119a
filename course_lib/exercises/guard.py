"""What a student's function may not reach while a check runs it, and how long it may run.

`Guard` makes every function of the library (`course_lib`, the checks' own modules included),
of scikit-learn and of scipy (its Mann-Whitney U is an AUC, `optimize.minimize` solves a dual,
`csgraph` gives tree distances) refuse to run while the student's function runs (their Python
functions; a compiled one, a ufunc such as `scipy.special.expit` or a private C routine, is not
swapped, and reaches few answers: csgraph's checks its input in Python): each function object
keeps its identity, so a reference taken earlier (`f = viterbi`, a dict, a closure, a default
argument, a bound method) is refused as well. How: the function's code object is swapped for
a small stub that calls `_refuse_or_run`, which raises `WriteItYourself` while the student's
call is running (in any thread; in the student's own, outside the allowed functions), and otherwise runs the original code (the check's reference,
the rest of the notebook). Importing a library, scikit-learn or scipy module that is not loaded yet
is refused too. Everything is put back on exit, also after an exception or a time-out.
The library's own code runs only through those stubs, as an allowed function or called by the
library's code: a new function built on a library code object (`types.FunctionType(f.__code__,
...)`), or the guard's own unguarded copy, is refused; so is the function behind a decorator
(`f.__wrapped__`), guarded like the others. An allowed function lets the library run below it only
for calls made by the library: student code it calls back (a stand-in `self`) stays refused.

Work handed to another thread or process does not escape: while the student's call runs, the
library refuses to run in every thread (a pool or worker thread started before the check
included; on Linux the call runs in a child process, where such a thread does not run); starting
a thread (`threading.Thread.start`), calling into `concurrent.futures`, `multiprocessing`,
`subprocess` or `asyncio` (the kernel's own output, a print, may), starting a process (os.system,
fork, exec, spawn) and switching the copy tracer off (sys.settrace) are refused. What the call returns is rebuilt from plain data (numbers, strings, NumPy arrays,
tuples, lists, dicts) before the call counts as over, so an object that computes its value later
(`__array__`, `__eq__`, ...) computes it with the library still out of reach; an object of any
other kind is returned as `StudentObject`, which compares equal to nothing. Arguments the call
changes in place are rebuilt the same way (the check's own objects in them are kept).

    with Guard(allowed=(model.loss, model.joint_feature)) as guard:
        got = guard.run(student_fn, kwargs, seconds=5.0)   # WriteItYourself, TimeLimit or the result

`allowed`: functions the student is told to use (everything they call inside stays allowed).
The time limit: the student's call runs in a thread of its own, which the check waits for at most
`seconds`; past them, the check goes on with TimeLimit, and the call is set aside: it stops for
good at the next line of the student's code it runs, whatever it catches (a loop whose `except`
swallows every exception included), and takes no more CPU. A call that never comes back from one C
function (`sum(itertools.count())`) would keep running, and the interpreter with it: on Linux the
checks run the guard and the calls in a child process (`harness.student_runner`), killed a second
past the limit.

A copy of the library's source (`inspect.getsource`, pasted or exec'd, renamed, without its
docstring, with other variable names) is refused too: while the student's call runs, a trace
function compares the code of every Python function it enters with the library's code (the
operations, the global and attribute names and the constants) and refuses a match that is not the
library's own code object. Short code (under 50 operations: a formula or two) counts as a
copy only with the library's own variable names, and under 12 operations never: anyone writes
it the same way. From 50 operations, a copy edited beyond renaming (a line changed, added or
removed) is refused too when its operations, with the local variables erased, match 85% or more
of a library function's (difflib's ratio of the two sequences): a copy of the library's Viterbi
with its variables renamed, its input check removed and its tables always returned matches 93%,
a student's own Viterbi of the same vectorised recursion 70%, one written with loops 57%.
"""

import contextlib
import difflib
import dis
import gc
import importlib.abc
import os
import posix
import sys
import sysconfig
import threading
import types

import numpy as np

from course_lib.i18n import _

__all__ = ["ELSEWHERE", "Guard", "StudentObject", "TimeLimit", "WriteItYourself", "prepare"]

GUARDED_PACKAGES = ("course_lib", "sklearn", "scipy")
# where work escapes to another thread or process, out of the student's call
_ELSEWHERE_MODULES = ("concurrent", "multiprocessing", "subprocess", "asyncio")
_THREAD_START = threading.Thread.start.__code__  # (threading's locks stay usable: NumPy's generators take one)
# callers that may enter those modules: the modules themselves, the kernel's output (a print), the
# functions the student is allowed (their locks) and NumPy; the student's own code may not
_QUIET_CALLERS = _ELSEWHERE_MODULES + GUARDED_PACKAGES + (
    "ipykernel", "IPython", "zmq", "tornado", "jupyter_client", "logging", "queue", "numpy", "threadpoolctl")
# what starts a process (os.spawn* and pty call these), and what would switch the copy tracer off
_SWAPPED_DURING_CALL = ((os, ("system", "fork", "forkpty", "execv", "execve", "posix_spawn", "posix_spawnp")),
                        (posix, ("system", "fork", "forkpty", "execv", "execve", "posix_spawn", "posix_spawnp")),
                        (sys, ("settrace", "setprofile", "addaudithook")))
_SETTRACE = sys.settrace  # the guard's own, kept while the student's call runs
# the checking machinery itself runs while the student's function runs (or around it)
_EXEMPT_MODULES = ("course_lib.exercises", "course_lib.exercises.child", "course_lib.exercises.guard",
                   "course_lib.exercises.harness")


COPY = "copy of "  # label prefix of a refused copy of the library's code
ELSEWHERE = "elsewhere: "  # label prefix of a refused thread, process or module that starts them
_MIN_COPY_OPERATIONS = 50    # from this length, a copy is refused even with its variables renamed
_MIN_VERBATIM_OPERATIONS = 12  # shorter, only with the library's own variable names; under 12 never
_MIN_EDITED_COPY_RATIO = 0.85  # an edited copy: this share of the operations in common, locals erased
# A short comprehension or lambda inside a library function is no answer of its own, and NumPy's
# code has the same ones (printing an array runs `{k: v for k, v in ...}` as scikit-learn's
# `_FuncWrapper.__call__` does): it counts as a copy only from _MIN_COPY_OPERATIONS on.
_COMPREHENSIONS = ("<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>", "<lambda>")


class WriteItYourself(BaseException):
    """A library or scikit-learn function was called by the student's function during a check.
    A BaseException, so a student's `except Exception` does not swallow it."""

    def __init__(self, label):
        super().__init__(label)
        self.label = label


class TimeLimit(BaseException):
    """The student's function ran past its time limit."""


# -- the stub code objects ----------------------------------------------------------------------

_KEY = -7_777_777  # placeholder constant of the stub, replaced by the function's key
_STUB_SOURCE = '''
def _factory():
    {assign}
    def stub(*args, **kwargs):
        if False:
            ({names})
        return __import__("sys").modules["course_lib.exercises.guard"]._refuse_or_run({key}, args, kwargs)
    return stub
'''
_stub_codes = {}


def _stub_code(original):
    """A code object that calls `_refuse_or_run(key, args, kwargs)`, with the free variables of
    `original` (a function's code can only be swapped for one with the same free variables)."""
    free = original.co_freevars
    if free not in _stub_codes:
        names = ", ".join(free) + ("," if len(free) == 1 else "")
        assign = " = ".join(free) + " = None" if free else "pass"
        namespace = {}
        exec(_STUB_SOURCE.format(assign=assign, names=names or "None", key=_KEY), namespace)
        _stub_codes[free] = namespace["_factory"]().__code__
    return _stub_codes[free]


# -- the state shared with the stubs ------------------------------------------------------------

class _State:
    """Which thread runs a student's call now, the guarded functions (key -> label, original
    copy) and the code objects of the allowed functions; the library's code, registered once
    (the tables of the student's code are emptied after each check)."""

    def __init__(self):
        self.student_thread = None
        self.functions = {}
        self.allowed_codes = set()
        self.refused = []
        self.library_codes = {}  # _cheap_key -> [(code, label)] of the library's code objects
        self.genuine_codes = {}  # id -> (code, label) of the library's own code objects (not copies)
        self.fingerprints = {}   # id -> (code, _fingerprint(code)), computed when needed
        self.checked_codes = {}  # id -> (code, label or None) of the codes entered so far
        self.long_codes = []     # [(code, label)] of the library's code objects of 50 operations or more
        self.shapes = {}         # id -> (code, _shape(code)), computed when needed
        self.stub_codes = {}     # id -> the stub code objects swapped into the library's functions
        self.top_level_codes = set()  # ids of the code of each guarded function (not nested code)
        self.prepared = {}       # id -> (function, code, label, copy, stub) of each guarded function
        self.prepared_with = 0   # the number of modules loaded when `prepare` last made the stubs


_SAME_OPERATION = {"LOAD_METHOD": "LOAD_ATTR", "CACHE": None, "NOP": None, "PRECALL": None, "PUSH_NULL": None,
                   "RESUME": None, "EXTENDED_ARG": None}


def _cheap_key(code):
    """What a copy keeps that costs nothing to read: the global and attribute names, the numbers
    of arguments and of local variables."""
    return code.co_names, code.co_argcount, code.co_kwonlyargcount, code.co_nlocals


def _fingerprint(code):
    """What a copy of `code` keeps, whichever Python 3.11 compiled it: the operations, the names
    and constants they load (nested code by its own fingerprint), the slots of local variables;
    not the file, line numbers, jump offsets, local variable names or the docstring."""
    operations = []
    for instruction in dis.get_instructions(code):
        operation = _SAME_OPERATION.get(instruction.opname, instruction.opname)
        if operation is None:
            continue
        if instruction.opcode in dis.hasjrel or instruction.opcode in dis.hasjabs:
            argument = None
        elif instruction.opcode in dis.haslocal or instruction.opcode in dis.hasfree:
            argument = instruction.arg
        elif isinstance(instruction.argval, types.CodeType):
            argument = _fingerprint(instruction.argval)
        else:
            argument = (type(instruction.argval).__name__, repr(instruction.argval))
        operations.append((operation, argument))
    return tuple(operations)


def _shape(code):
    """The operations of `code` with the names and constants they load, local variables erased
    (any name), nested code as one item: what an edited copy keeps of most of its lines."""
    shape = []
    for instruction in dis.get_instructions(code):
        operation = _SAME_OPERATION.get(instruction.opname, instruction.opname)
        if operation is None:
            continue
        if (instruction.opcode in dis.hasjrel or instruction.opcode in dis.hasjabs
                or instruction.opcode in dis.haslocal or instruction.opcode in dis.hasfree):
            argument = None
        elif isinstance(instruction.argval, types.CodeType):
            argument = "code"
        else:
            argument = (type(instruction.argval).__name__, repr(instruction.argval))
        shape.append((operation, argument))
    return tuple(shape)


def _cached(table, code, compute):
    """compute(code), kept in `table` by id(code) beside the code itself, so that a new code
    object that reuses a freed id is not taken for the old one."""
    known = table.get(id(code))
    if known is None or known[0] is not code:
        known = table[id(code)] = (code, compute(code))
    return known[1]


def _edited_copy_of(code):
    """The label of a library function of 50 operations or more that `code` matches at
    _MIN_EDITED_COPY_RATIO or more (its operations, locals erased), or None. Only functions of a
    similar length that share most global and attribute names are compared."""
    if len(code.co_code) < 2 * _MIN_COPY_OPERATIONS:
        return None
    names = set(code.co_names)
    for library_code, label in _state.long_codes:
        if not 0.7 <= len(library_code.co_code) / len(code.co_code) <= 1.4:
            continue
        library_names = set(library_code.co_names)
        if len(names & library_names) < 0.5 * len(names | library_names):
            continue
        ours, theirs = _cached(_state.shapes, code, _shape), _cached(_state.shapes, library_code, _shape)
        if len(ours) < _MIN_COPY_OPERATIONS:
            return None
        matcher = difflib.SequenceMatcher(None, ours, theirs, autojunk=False)
        if matcher.quick_ratio() >= _MIN_EDITED_COPY_RATIO and matcher.ratio() >= _MIN_EDITED_COPY_RATIO:
            return label
    return None


def _nested_codes(code):
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _nested_codes(const)


def _register_library_code(code, label):
    if _state.genuine_codes.get(id(code), (None,))[0] is code:
        return  # registered by an earlier check
    for nested in _nested_codes(code):
        _state.genuine_codes[id(nested)] = (nested, label)
        shortest = _MIN_COPY_OPERATIONS if nested is not code and nested.co_name in _COMPREHENSIONS \
            else _MIN_VERBATIM_OPERATIONS
        if len(nested.co_code) >= 2 * shortest:  # a cheap bound: two bytes an operation
            _state.library_codes.setdefault(_cheap_key(nested), []).append((nested, label))
        if len(nested.co_code) >= 2 * _MIN_COPY_OPERATIONS:
            _state.long_codes.append((nested, label))


def _copied_from(code):
    """The label of the library function `code` copies, or None."""
    known = _state.checked_codes.get(id(code))
    if known is not None and known[0] is code:
        return known[1]
    label = None
    if id(code) not in _state.genuine_codes and len(code.co_code) >= 2 * _MIN_VERBATIM_OPERATIONS:
        for library_code, library_label in _state.library_codes.get(_cheap_key(code), ()):
            fingerprint = _cached(_state.fingerprints, code, _fingerprint)
            long_enough = len(fingerprint) >= (_MIN_COPY_OPERATIONS if code.co_varnames != library_code.co_varnames
                                               else _MIN_VERBATIM_OPERATIONS)
            if long_enough and _cached(_state.fingerprints, library_code, _fingerprint) == fingerprint:
                label = library_label
                break
        if label is None:
            label = _edited_copy_of(code)
    _state.checked_codes[id(code)] = (code, label)
    return label


def _copy_tracer(previous, call):
    """A sys.settrace function that refuses to enter a copy of the library's code or a module
    that hands work to another thread or process, then hands the event to the tracer that was
    there before (a debugger, coverage), if any. Once `call` is set aside, it stops it
    (`_stop_if_set_aside`) and sees every line."""
    def tracer(frame, event, arg):
        if call.set_aside_now:
            _stop_if_set_aside(call, frame)
            return tracer
        if event == "call":  # (this tracer runs only in the student's thread, during the call)
            label = _copied_from(frame.f_code) or _entered_around_the_guard(frame)
            if label is not None:
                _state.refused.append(COPY + label)
                raise WriteItYourself(COPY + label)
            module = frame.f_globals.get("__name__") or ""
            if frame.f_code is _THREAD_START:
                module = "threading.Thread.start"
            elif module.split(".")[0] not in _ELSEWHERE_MODULES or _called_from(frame.f_back, _QUIET_CALLERS):
                module = None
            if module is not None:
                _state.refused.append(ELSEWHERE + module)
                raise WriteItYourself(ELSEWHERE + module)
        return previous(frame, event, arg) if previous is not None else None
    return tracer


def _other_thread_tracer(previous):
    """The sys.settrace function of every thread started after this module is imported (set by
    `threading.settrace`, before the thread runs): while a student's call runs in another thread,
    it reports a copy of the library's code entered here (a worker thread or a pool started before
    the check, fed by a queue) without raising, so that this thread keeps it; the check fails."""
    def tracer(frame, event, arg):
        student = _state.student_thread
        if event == "call" and student is not None and student != threading.get_ident():
            label = _copied_from(frame.f_code) or _entered_around_the_guard(frame)
            if label is not None:
                _state.refused.append(ELSEWHERE + COPY + label)
        return previous(frame, event, arg) if previous is not None else None
    return tracer


def _watch_new_threads():
    """Threads started from now on carry `_other_thread_tracer` (the hook there before, a debugger's
    or coverage's, still sees every event)."""
    if not getattr(threading.gettrace(), "_watches_copies", False):
        hook = _other_thread_tracer(threading.gettrace())
        hook._watches_copies = True
        threading.settrace(hook)


def _entered_around_the_guard(frame):
    """The label of the library's own code when `frame` runs it without the guard's leave: not
    from `_refuse_or_run`, from other library code or as an allowed function, but from a new
    function built on its code object (`types.FunctionType(f.__code__, ...)`) or from the guard's
    own unguarded copy; None otherwise."""
    code = frame.f_code
    known = _state.genuine_codes.get(id(code))
    if known is None or known[0] is not code or code in _state.allowed_codes:
        return None
    caller = frame.f_back.f_code if frame.f_back is not None else None
    if caller is _REFUSE_OR_RUN or (_state.genuine_codes.get(id(caller), (None,))[0] is caller):
        return None
    if (caller is _RUN and id(code) not in _state.top_level_codes
            and (frame.f_globals.get("__name__") or "").startswith("course_lib.exercises.")):
        return None  # a check's own wrapper around the student's function (it copies the arguments)
    return known[1]


def _called_from(frame, packages):
    module = (frame.f_globals.get("__name__") or "") if frame is not None else ""
    return module.split(".")[0] in packages


def _refusing(label):
    def refuse(*args, **kwargs):
        _state.refused.append(ELSEWHERE + label)
        raise WriteItYourself(ELSEWHERE + label)
    return refuse


@contextlib.contextmanager
def _no_processes():
    """Within the block, os.system, os.fork, os.exec*, os.posix_spawn* (and posix's) and
    sys.settrace / sys.setprofile refuse to run (a reference taken before is not caught)."""
    swapped = [(module, name, getattr(module, name)) for module, names in _SWAPPED_DURING_CALL
               for name in names if hasattr(module, name)]
    try:
        for module, name, _original in swapped:
            setattr(module, name, _refusing(f"{module.__name__}.{name}"))
        yield
    finally:
        for module, name, original in swapped:
            setattr(module, name, original)


# -- what the student's call gives back ---------------------------------------------------------

class StudentObject:
    """What the check sees of an object of a kind it does not read (not a number, string, array,
    tuple, list or dict, nor something that converts to numbers): its kind's name and its text,
    read while the library was out of reach; it equals nothing."""

    def __init__(self, value):
        self.kind = type(value).__name__
        try:
            self.text = repr(value)
        except BaseException:  # a repr that fails, or calls the library
            self.text = f"<a {self.kind} object>"

    @classmethod
    def described(cls, kind, text):
        """The StudentObject of an object of kind `kind` shown as `text` (seen in another process)."""
        seen = cls.__new__(cls)
        seen.kind, seen.text = kind, text
        return seen

    def __repr__(self):
        return self.text

    def __eq__(self, other):
        return False

    __hash__ = object.__hash__


_PLAIN_TYPES = (bool, int, float, complex, str, bytes)


def _plain_data(value, keep=(), depth=0):
    """`value` rebuilt from plain data, run while the student's call still counts as running:
    whatever `value` computes when it is read (an `__array__`, an `__iter__`, a subclass's
    `__float__`) computes it now, with the library out of reach. An object that converts to
    numbers (`__array__`, `__float__`, ...) is converted; one of another kind becomes a
    StudentObject, unless its id is in `keep` (the check's own objects)."""
    kind = type(value)
    if value is None or value is Ellipsis or kind in _PLAIN_TYPES:
        return value
    if depth > 50:  # a list that contains itself
        return StudentObject(value)
    if isinstance(value, np.generic):
        return np.array(value).reshape(())[()]
    if isinstance(value, np.ndarray):
        array = np.array(value, subok=False)
        if array.dtype == object:
            rebuilt = np.empty(array.shape, dtype=object)
            for index, item in np.ndenumerate(array):
                rebuilt[index] = _plain_data(item, keep, depth + 1)
            return rebuilt
        return array
    for plain in _PLAIN_TYPES:  # a subclass of a built-in type
        if isinstance(value, plain):
            return plain(value)
    if isinstance(value, (tuple, list)):
        items = [_plain_data(item, keep, depth + 1) for item in value]
        return tuple(items) if isinstance(value, tuple) else items
    if isinstance(value, dict):
        return {_plain_data(k, keep, depth + 1): _plain_data(v, keep, depth + 1) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return (frozenset if isinstance(value, frozenset) else set)(
            _plain_data(item, keep, depth + 1) for item in value)
    if id(value) not in keep and any(hasattr(kind, name) for name in (
            "__array__", "__array_interface__", "__float__", "__int__", "__index__")):
        try:
            array = np.asarray(value)
        except (TypeError, ValueError):
            return StudentObject(value)
        if array.dtype.kind in "biufcUS":
            return np.array(array, subok=False)
    return value if id(value) in keep else StudentObject(value)


_state = _State()


def _refuse_or_run(key, args, kwargs):
    label, original = _state.functions[key]
    in_the_call = _in_a_students_call()
    if (in_the_call or _state.student_thread is not None) and not (in_the_call and _inside_allowed()):
        _state.refused.append(label)
        raise WriteItYourself(label)
    return original(*args, **kwargs)


def _in_a_students_call():
    """Whether this thread runs a student's call: its stack holds `_in_the_students_thread`. Read
    from the stack, which the student's code cannot change, and not from `_state.student_thread`,
    which it can reach and set to None."""
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_code is _RUN:
            return True
        frame = frame.f_back
    return False


_REFUSE_OR_RUN = _refuse_or_run.__code__


def _inside_allowed():
    """True when the nearest caller that is not the library's own code (the guard's stubs and
    `_refuse_or_run` passed over, and NumPy) is an allowed function. Student code called back from
    inside an allowed function (a stand-in `self` whose methods the allowed function calls) is not
    inside it."""
    frame = sys._getframe(2)
    while frame is not None:
        code = frame.f_code
        if code in _state.allowed_codes:
            return True
        library = (_state.genuine_codes.get(id(code), (None,))[0] is code or code is _REFUSE_OR_RUN
                   or _state.stub_codes.get(id(code)) is code
                   or (frame.f_globals.get("__name__") or "").split(".")[0] == "numpy")
        if not library:
            return False
        frame = frame.f_back
    return False


class _RefuseImports(importlib.abc.MetaPathFinder):
    """Refuses to import a library or scikit-learn module during the student's call."""

    def find_spec(self, name, path=None, target=None):
        if (_state.student_thread is not None or _in_a_students_call()) and name.split(".")[0] in GUARDED_PACKAGES:
            _state.refused.append(f"import {name}")
            raise WriteItYourself(f"import {name}")
        return None


# -- collecting the functions -------------------------------------------------------------------

def _plain_functions(value):
    """The Python functions behind a module attribute or class attribute."""
    if isinstance(value, types.FunctionType):
        return [value]
    if isinstance(value, (staticmethod, classmethod)):
        return _plain_functions(value.__func__)
    if isinstance(value, property):
        return [f for f in (value.fget, value.fset, value.fdel) if isinstance(f, types.FunctionType)]
    return []


def _guarded_modules():
    for name, module in list(sys.modules.items()):
        if module is None or name.split(".")[0] not in GUARDED_PACKAGES or name in _EXEMPT_MODULES:
            continue
        yield name, module


def _functions_to_guard():
    """{id: function} of every function and method defined in a loaded guarded module."""
    found = {}
    for name, module in _guarded_modules():
        namespace = getattr(module, "__dict__", None)
        if not isinstance(namespace, dict):
            continue
        for value in list(namespace.values()):
            if isinstance(value, type) and getattr(value, "__module__", None) == name:
                for attribute in list(vars(value).values()):
                    for fn in _plain_functions(attribute):
                        if _guarded_origin(fn):
                            found[id(fn)] = fn
            for fn in _plain_functions(value):
                if getattr(fn, "__module__", None) == name:
                    found[id(fn)] = fn
    for fn in list(found.values()):  # the functions behind decorators: f.__wrapped__
        while isinstance(getattr(fn, "__wrapped__", None), types.FunctionType) and _guarded_origin(fn.__wrapped__):
            fn = fn.__wrapped__
            found[id(fn)] = fn
    return found


def _guarded_origin(fn):
    module = getattr(fn, "__module__", None) or ""
    return module.split(".")[0] in GUARDED_PACKAGES and module not in _EXEMPT_MODULES


def _label(fn):
    module = getattr(fn, "__module__", "") or ""
    name = getattr(fn, "__qualname__", getattr(fn, "__name__", "?"))
    return f"{module}.{name}"


def _plain(fn):
    while True:
        if isinstance(fn, (types.MethodType, staticmethod, classmethod)):
            fn = fn.__func__
        elif hasattr(fn, "__wrapped__") and not isinstance(fn, types.FunctionType):
            fn = fn.__wrapped__
        else:
            return fn


class Guard:
    """Within the block, `run` calls a student's function with the library out of reach."""

    def __init__(self, allowed=()):
        self.allowed = [_plain(fn) for fn in allowed]
        self._swapped = []
        self._finder = _RefuseImports()

    def __enter__(self):
        if _state.functions:
            raise RuntimeError(_("a check is already running"))
        allowed = {id(fn) for fn in self.allowed}
        for fn in self.allowed:
            if isinstance(fn, types.FunctionType):
                _register_library_code(fn.__code__, _label(fn))
        _state.allowed_codes = {fn.__code__ for fn in self.allowed if isinstance(fn, types.FunctionType)}
        _state.refused = []
        try:
            for key, fn in _functions_to_guard().items():
                if key in allowed:
                    continue
                original, label, copy, stub = _prepared(key, fn)
                _state.functions[key] = (label, copy)
                fn.__code__ = stub
                self._swapped.append((fn, original))
            sys.meta_path.insert(0, self._finder)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def run(self, fn, kwargs, seconds=None):
        """fn(**kwargs) with the library refused, in a thread of its own, within `seconds` (None: no
        limit); the result and the arguments (changed in place or not) rebuilt from plain data
        (`_plain_data`). Past the limit, TimeLimit is raised here and the call is set aside
        (`_StudentCall.set_aside`), whatever it catches."""
        call, collecting = _StudentCall(fn, kwargs), (gc.isenabled(), list(gc.callbacks))
        call.thread.start()
        call.waiting.wait()  # in its function: threading has given it its tracer (sys.settrace)
        with _no_processes():  # restored after the call, or after it is set aside
            try:
                _state.student_thread = call.thread.ident
                call.go.set()
                finished = call.done.wait(seconds)
                changed = _collection_changed(*collecting)  # while the library still refuses here
            finally:
                _state.student_thread = None
                if not call.done.is_set():  # past the limit, or the kernel interrupted the wait
                    call.set_aside()
        if changed:
            _state.refused.append(ELSEWHERE + changed)
            raise WriteItYourself(ELSEWHERE + changed)
        if not finished:
            raise TimeLimit()
        if call.error is not None:
            raise call.error
        return call.result

    @property
    def refused(self):
        """The labels of the refused calls (a student's `except` may have hidden them)."""
        return list(_state.refused)

    def __exit__(self, *exc):
        _state.student_thread = None
        while self._swapped:
            fn, original = self._swapped.pop()
            fn.__code__ = original
        with contextlib.suppress(ValueError):
            sys.meta_path.remove(self._finder)
        _state.functions.clear()
        _state.allowed_codes = set()
        _state.checked_codes, _state.fingerprints, _state.shapes = {}, {}, {}  # the student's codes among them
        return False


def prepare():
    """Make the stubs of every function to guard now, without swapping them in: a check run in a
    forked child (`seal.sealed`) finds them made, as they stay made here for the next check. Done
    again only once more modules are loaded (a stub missing then is made in the child)."""
    if _state.prepared_with != len(sys.modules):
        for key, fn in _functions_to_guard().items():
            _prepared(key, fn)
        _state.prepared_with = len(sys.modules)


def _prepared(key, fn):
    """(original code, label, unguarded copy, stub code) of the guarded function `fn`, made once and
    kept while `fn` keeps its code: the library's code, registered, serves every later check."""
    known = _state.prepared.get(key)
    if known is not None and known[0] is fn and known[1] is fn.__code__:
        return known[1:]
    original, label = fn.__code__, _label(fn)
    _register_library_code(original, label)
    _state.top_level_codes.add(id(original))
    copy = types.FunctionType(original, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
    copy.__kwdefaults__ = fn.__kwdefaults__
    stub = _stub_code(original)
    consts = tuple(key if c == _KEY else c for c in stub.co_consts)
    stub = stub.replace(co_consts=consts, co_name=original.co_name, co_qualname=original.co_qualname)
    _state.stub_codes[id(stub)] = stub
    _state.prepared[key] = (fn, original, label, copy, stub)
    return original, label, copy, stub


def _collection_changed(enabled, callbacks):
    """'gc.enable' or 'gc.callbacks' when the student's call switched the garbage collector on or
    changed its callbacks (both put back), else None: a finalizer or a callback of the student's
    would run later in the check's thread, where the library answers."""
    changed = None
    if gc.isenabled() != enabled:
        gc.enable() if enabled else gc.disable()
        changed = "gc.enable"
    if gc.callbacks != callbacks:
        gc.callbacks[:] = callbacks
        changed = "gc.callbacks"
    return changed


# -- the student's call, in a thread of its own --------------------------------------------------

_SET_ASIDE = threading.Lock()
_SET_ASIDE.acquire()  # never released: a call set aside waits on it for good
_OTHERS_CODE = tuple(sorted({sysconfig.get_path(name) for name in ("stdlib", "platstdlib", "purelib", "platlib")}))


class _StudentCall:
    """fn(**kwargs) run in a daemon thread, so that the check's own thread (the kernel's) waits
    for it at most the time limit, whatever the function does: a loop that catches every
    exception cannot hold the check. A call past its limit is set aside: at the next line of the
    student's own code it runs (at once for a loop, after a time.sleep), it stops for good, waiting
    on a lock nobody releases, so that it takes no more CPU."""

    def __init__(self, fn, kwargs):
        self.fn, self.kwargs = fn, kwargs
        self.waiting, self.go, self.done = threading.Event(), threading.Event(), threading.Event()
        self.result = self.error = self.tracer = None
        self.set_aside_now = False
        self.thread = threading.Thread(target=_in_the_students_thread, args=(self,), daemon=True,
                                       name="student's function")

    def set_aside(self):
        """Stop the call at the next line of the student's own code it runs (`_stop_if_set_aside`):
        each of its frames gets the tracer, which then sees every line."""
        self.set_aside_now = True
        self.go.set()
        frame = sys._current_frames().get(self.thread.ident)
        while frame is not None and self.tracer is not None:
            frame.f_trace = self.tracer
            frame = frame.f_back


def _in_the_students_thread(call):
    call.waiting.set()
    call.go.wait()
    if call.set_aside_now:
        return
    given = {id(value) for value in call.kwargs.values()}
    call.tracer = _copy_tracer(sys.gettrace(), call)
    _SETTRACE(call.tracer)
    try:
        call.result = _plain_data(call.fn(**call.kwargs))
        call.kwargs.update({name: _plain_data(value, keep=given) for name, value in call.kwargs.items()})
        if sys.gettrace() is not call.tracer:  # switched off by a reference to sys.settrace taken before
            _state.refused.append(ELSEWHERE + "sys.settrace")
            raise WriteItYourself(ELSEWHERE + "sys.settrace")
    except BaseException as error:  # the check's own thread raises it
        call.error = error
    finally:
        _SETTRACE(None)
        call.done.set()


_RUN = _in_the_students_thread.__code__
_watch_new_threads()


def _stop_if_set_aside(call, frame):
    """Within a call set aside, wait for good at a line of the student's own code (not the standard
    library's, an installed package's or the library's: a lock they hold would stay held)."""
    if not call.set_aside_now:
        return
    filename = frame.f_code.co_filename
    module = (frame.f_globals.get("__name__") or "").split(".")[0]
    if not (filename.startswith(_OTHERS_CODE) or filename.startswith("<frozen") or module in GUARDED_PACKAGES):
        _SET_ASIDE.acquire()
