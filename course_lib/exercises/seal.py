"""What a check relies on stays as it was imported: changing the check instead of writing the
algorithm gets a refusal, never a Right.

A student could pass a check by changing it: rebinding its reference before calling it
(`ex._reference_auc_pairs = lambda s, r: ...`, looked up when the check runs), its cases or its
comparison, a function of the harness or of the guard, a function's `__code__`, `__defaults__` or
closure, a method of the library's classes that a reference calls, or the NumPy functions the
comparison relies on (`np.allclose = lambda *a, **k: True`).

`seal(__name__)`, the last line of each exercise module, records what the checks rely on: every
name of the exercise modules (the harness and the guard among them) and the object it is bound to;
the functions, classes and modules of the library's modules loaded by then (a module loaded later
is recorded when first seen); NumPy's namespaces (`np`, `np.random`, `np.linalg`) and the code of
their Python functions with the functions they call; the standard modules that draw the seeds and
copy the cases. A function is recorded with its code, defaults and closure (the functions in them
too), a class with its attributes. `changed()` names the first thing that differs since, or None.
`seal` also wraps the module's public `check_*` functions (`sealed`): each asks `changed()` before
it runs, and again before it gives a Right (a change made while it ran). On Linux a check that runs
the student's code runs in a forked copy of the kernel and asks there, where no thread started
before the check runs: such a thread cannot change the check and put it back between the looks.

The record is made once per module and never again: reloading a module (or calling `seal` again)
leaves the first record, so the reloaded module differs from it, and the verdict asks for a fresh
kernel. What stays out of reach of this record is the record itself: code that replaces the
`changed` function's own code has rewritten the check wholesale.
"""

import copy
import functools
import itertools
import operator
import random
import sys
import types

import numpy as np

from course_lib.exercises import Verdict
from course_lib.exercises.child import FORKS, ChildEnded, in_a_child
from course_lib.exercises.guard import prepare
from course_lib.i18n import _

__all__ = ["changed", "seal", "sealed"]

_EXERCISES = "course_lib.exercises"
_LIBRARY_SKIPPED = ("course_lib.plotting", "course_lib.widgets")  # figures and widgets: no check relies on them
_NUMPY = (np, np.random, np.linalg)
_STANDARD = (copy, functools, random)
_MISSING = object()
_BOOKKEEPING = ("__slotnames__", "__warningregistry__")  # names that copy (pickle) and warnings add
_IMMUTABLE = 1 << 8  # Py_TPFLAGS_IMMUTABLETYPE: a type whose attributes cannot be set (ndarray, int, ...)
_FUNCTION = operator.attrgetter("__code__", "__defaults__", "__kwdefaults__")
_CONTENTS = operator.attrgetter("cell_contents")


class _Record:
    """What the checks rely on, as flat lists compared object by object (`is`) in C loops: the
    namespaces (a module's, a class's, a function's keyword defaults) with their names and values,
    the functions with their code and defaults, the closure cells with their contents."""

    def __init__(self):
        self.modules = {}     # name -> module, recorded
        self.namespaces = []  # [label, mapping, first, end, whole, module]: names[first:end] are its
        self.mappings, self.sizes = [], []  # each namespace's mapping and its number of names
        self.getters, self.names, self.values = [], [], []  # mapping.get, name, object of every name
        self.functions, self.function_parts, self.function_labels = [], [], []
        self.cells, self.contents, self.cell_labels = [], [], []
        self.seen = set()     # ids of the functions, classes and dicts recorded
        self.scanned = 0      # the number of modules loaded when they were last looked through


_record = _Record()


def _namespace(owner):
    return owner if isinstance(owner, dict) else vars(owner)


def _add_namespace(label, owner, whole):
    """Records `owner`'s names (every one when `whole`, else its functions, classes and modules)
    and the objects behind them that can change keeping their identity."""
    mapping = _namespace(owner)
    module = isinstance(owner, types.ModuleType)
    names = [name for name, value in list(mapping.items()) if _recorded(name, value, whole, module)]
    first = len(_record.names)
    _record.getters += [mapping.get] * len(names)
    _record.names += names
    _record.values += [mapping[name] for name in names]
    _record.namespaces.append([label, mapping, first, len(_record.names), whole, module])
    _record.mappings.append(mapping)
    _record.sizes.append(len(mapping))
    for name in names:
        _add_object(f"{label}.{name}", mapping[name])


def _add_object(label, value):
    """Records what a function (code, defaults, closure, the functions in them), a class whose
    attributes can be set (its attributes), a method wrapper or a NumPy dispatcher (the Python
    function behind) depends on."""
    if isinstance(value, (staticmethod, classmethod)):
        value = value.__func__
    if isinstance(value, property):
        for fn in (value.fget, value.fset, value.fdel):
            _add_object(label, fn)
        return
    if type(value).__name__ == "_ArrayFunctionDispatcher":  # np.isclose & co, and the module it runs in
        value = getattr(value, "_implementation", None)
        if isinstance(value, types.FunctionType) and id(value.__globals__) not in _record.seen:
            _record.seen.add(id(value.__globals__))
            _add_namespace(value.__globals__.get("__name__", label), value.__globals__, False)
    if id(value) in _record.seen or not (isinstance(value, types.FunctionType)
                                         or (isinstance(value, type) and not value.__flags__ & _IMMUTABLE)):
        return
    _record.seen.add(id(value))
    if isinstance(value, type):
        _add_namespace(label, value, True)
        return
    _record.functions.append(value)
    _record.function_parts.extend(_FUNCTION(value))
    _record.function_labels.append(label)
    if value.__kwdefaults__:
        _add_namespace(f"{label} (keyword defaults)", value.__kwdefaults__, True)
    for default in value.__defaults__ or ():
        _add_object(label, default)
    for cell in value.__closure__ or ():
        try:
            content = cell.cell_contents
        except ValueError:  # an empty cell
            continue
        _record.cells.append(cell)
        _record.contents.append(content)
        _record.cell_labels.append(label)
        _add_object(label, content)


def _recorded(name, value, whole, module=True):
    """Whether an attribute is part of its namespace's record: every name of a whole one (a class,
    the exercise modules, NumPy's namespaces, the standard ones), the code of the others (functions,
    classes, modules); a module's __dunder__ names and _BOOKKEEPING never."""
    if name in _BOOKKEEPING or (module and name.startswith("__") and name.endswith("__")):
        return False
    return whole or callable(value) or isinstance(value, types.ModuleType)


def _namespace_changed(index):
    """`label.name` of namespace `index`'s first name that differs from the record, or None. A new
    name counts (it could hide a builtin or a base class's method), except a submodule and a
    module's bookkeeping (a new number of names without them is recorded)."""
    label, mapping, first, end, whole, module = _record.namespaces[index]
    for name, value in zip(_record.names[first:end], _record.values[first:end]):
        if mapping.get(name, _MISSING) is not value:
            return f"{label}.{name}"
    names = set(_record.names[first:end])
    for name, value in list(mapping.items()):
        if name not in names and _recorded(name, value, whole, module) and not (
                isinstance(value, types.ModuleType) and value.__name__ == f"{label}.{name}"):
            return f"{label}.{name}"
    _record.sizes[index] = len(mapping)
    return None


def _initializing(module):
    return getattr(getattr(module, "__spec__", None), "_initializing", False)


def _add_module(name, module, whole):
    _record.modules[name] = module
    _add_namespace(name, module, whole)


def _record_new_modules():
    """Records the modules of the library, NumPy's namespaces and the standard modules not recorded
    yet (a module still being imported waits for its own `seal` or the next look)."""
    for module in _NUMPY + _STANDARD:
        if module.__name__ not in _record.modules:
            _add_module(module.__name__, module, True)
    if _record.scanned == len(sys.modules):  # (a module replaced in sys.modules: `changed` compares them)
        return
    _record.scanned = len(sys.modules)
    for name, module in list(sys.modules.items()):
        if (module is None or name in _record.modules or name.split(".")[0] != "course_lib"
                or name.startswith(_LIBRARY_SKIPPED) or _initializing(module)):
            continue
        _add_module(name, module, name == _EXERCISES or name.startswith(_EXERCISES + "."))


def seal(name):
    """Records module `name` (the caller, at the end of its import) and wraps its public `check_*`
    functions with `sealed`; once: a module already recorded keeps its first record."""
    if name in _record.modules:
        return
    module = sys.modules[name]
    for key, value in list(vars(module).items()):
        if key.startswith("check_") and isinstance(value, types.FunctionType) and value.__module__ == name:
            setattr(module, key, sealed(value))
    _add_module(name, module, True)
    _record_new_modules()


def changed():
    """The first thing a check relies on that differs from its record ("module.name"), or None."""
    _record_new_modules()
    for name, module in list(_record.modules.items()):
        if sys.modules.get(name, module) is not module:
            return name
    if (any(map(operator.is_not, map(operator.call, _record.getters, _record.names), _record.values))
            or any(map(operator.ne, map(len, _record.mappings), _record.sizes))):
        for index in range(len(_record.namespaces)):
            where = _namespace_changed(index)
            if where is not None:
                return where
    parts = itertools.chain.from_iterable(map(_FUNCTION, _record.functions))
    if any(map(operator.is_not, parts, _record.function_parts)):
        now = list(itertools.chain.from_iterable(map(_FUNCTION, _record.functions)))
        first = next(i for i, (a, b) in enumerate(zip(now, _record.function_parts)) if a is not b)
        return _record.function_labels[first // 3]
    if any(map(operator.is_not, map(_CONTENTS, _record.cells), _record.contents)):
        return next(label for cell, content, label in zip(_record.cells, _record.contents, _record.cell_labels)
                    if cell.cell_contents is not content)
    return None


def _refusal(where):
    return Verdict(False, _("The check's own code was changed (`{where}`): restart the kernel and run the "
                            "exercise again, without changing the check.").format(where=where))


def sealed(check):
    """`check`, refusing to run when what it relies on has changed (`changed`), and refusing a Right
    when it changed while the check ran. On Linux (`child.FORKS`), a check that runs the student's
    function (every check but those of a number or a choice, `limited_tries`) runs in a forked
    child (`child.in_a_child`), a copy of the kernel in which no other thread runs: it looks again
    there, so that a thread started before the check cannot change what the check relies on and
    put it back between the two looks."""
    in_a_copy = FORKS and not getattr(check, "limited_tries", False)

    @functools.wraps(check)
    def wrapped(*args, **kwargs):
        where = changed()
        if where is not None:
            return _refusal(where)
        if in_a_copy:
            prepare()
            try:
                return in_a_child(functools.partial(_looked_at, check, args, kwargs))
            except ChildEnded:  # killed by the student's code (its call runs in a child of that copy)
                return Verdict(False, _("The check was stopped before its verdict: its process was ended (by a "
                                        "signal, `os._exit` or a crash). Run it again."))
        return _looked_at(check, args, kwargs, look_first=False)

    return wrapped


def _looked_at(check, args, kwargs, look_first=True):
    """check(*args, **kwargs), refused when what it relies on differs (before, and after a Right)."""
    where = changed() if look_first else None
    if where is not None:
        return _refusal(where)
    verdict = check(*args, **kwargs)
    where = changed() if verdict else None
    return verdict if where is None else _refusal(where)
