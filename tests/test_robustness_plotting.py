"""Bad input to the figure helpers (course_lib/plotting) and the demo builders (course_lib/widgets):
every public function that can be called with its defaults (given its Axes when it needs them)
is called again with one argument made hostile, by class. Each call must either be refused with
a ValueError or TypeError that names the parameter, or draw; never fail inside NumPy or
matplotlib, crash, hang, or draw a NaN, a string or a clamped value silently.

The parameters and their hostile values are read from the signatures (a float default makes a
float parameter, a tuple of numbers a point, a string an option), so a new function or parameter
is covered without a table."""

import importlib
import inspect
import re
import signal

import matplotlib
import numpy as np
import pytest
from matplotlib.axes import Axes

from course_lib.plotting.style import new_figure

matplotlib.use("Agg")

MODULES = ["plotting." + m for m in (
    "artists", "cache", "canvas", "kernels", "labels", "linear", "margins", "multiclass", "perceptron",
    "registry", "structured_chain", "structured_learning", "structured_models", "style")] + [
    "widgets." + m for m in (
        "core", "kernels", "linear", "multiclass", "perceptron", "points", "progress", "quiz",
        "structured_chain", "structured_learning", "structured_models")]
# the panels each drawing given its `axes` draws into
PANELS = {"draw_plain_vs_averaged": 2, "forty_twenty_forty_panels": 2, "draw_segmentation_fit": 3}
SECONDS = 20  # a refusal is immediate; a call still running then would have hung
# messages of NumPy and matplotlib, not of the library
INTERNAL = ("zero-size array", "object of type", "broadcast", "gufunc", "cannot reshape", "unpack",
            "empty sequence", "could not convert", "ufunc", "only integer", "must be real number",
            "unhashable", "not supported between", "unsupported operand", "index", "argument must be",
            "subscriptable")


def public_functions():
    found = {}
    for module_name in MODULES:
        module = importlib.import_module("course_lib." + module_name)
        for name, function in sorted(vars(module).items()):
            if (name.startswith("_") or not inspect.isfunction(function)
                    or function.__module__ != module.__name__):
                continue
            parameters = inspect.signature(function).parameters.values()
            required = [p.name for p in parameters if p.default is p.empty
                        and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
            if required in ([], ["ax"], ["axes"]):
                found[f"{module_name}.{name}"] = function
    return found


FUNCTIONS = public_functions()


def _parameters(kind):
    """(function, parameter) for every parameter of that kind of default."""
    cases = []
    for full, function in FUNCTIONS.items():
        for p in inspect.signature(function).parameters.values():
            v = p.default
            if p.name in ("ax", "axes", "fig") or v is p.empty:
                continue
            number = isinstance(v, (int, float)) and not isinstance(v, bool)
            if ((kind == "float" and isinstance(v, float)) or (kind == "int" and number and isinstance(v, int))
                    or (kind == "number" and number)
                    or (kind == "tuple" and isinstance(v, tuple) and v and all(
                        isinstance(u, (int, float)) and not isinstance(u, bool) for u in v))
                    or (kind == "option" and isinstance(v, str) and v)):
                cases.append(pytest.param(full, p.name, id=f"{full}-{p.name}"))
    return cases


class _Hang(Exception):
    pass


def _alarm(signum, frame):
    raise _Hang()


def _call(full, changes):
    function = FUNCTIONS[full]
    required = [p.name for p in inspect.signature(function).parameters.values() if p.default is p.empty]
    n = PANELS.get(full.rsplit(".", 1)[1], 1)
    fig, axes = new_figure(ncols=n)
    arguments = {required[0]: axes} if required else {}
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(SECONDS)
    try:
        with np.errstate(all="ignore"):
            out = function(**arguments, **changes)
        return list(out) if hasattr(out, "__next__") else out
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _refused(full, name, value):
    """The error of calling `full` with name=value, after checking it names the parameter."""
    with pytest.raises((ValueError, TypeError)) as caught:
        _call(full, {name: value})
    _assert_named(caught.value, name)
    return caught.value


def _assert_named(error, name):
    message = str(error)
    assert re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", message), f"{name} not named: {message}"
    assert not any(s in message for s in INTERNAL), f"NumPy's or matplotlib's message: {message}"


def _refused_or_drawn(full, name, value):
    try:
        _call(full, {name: value})
    except (ValueError, TypeError) as error:
        _assert_named(error, name)


def test_every_module_has_functions_called_here():
    assert {full.rsplit(".", 1)[0] for full in FUNCTIONS} >= {"plotting.kernels", "plotting.multiclass",
                                                              "widgets.kernels", "widgets.points"}


@pytest.mark.parametrize("full, name", _parameters("float"))
@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf], ids=["nan", "inf", "-inf"])
def test_nan_or_inf_is_refused_naming_the_parameter(full, name, value):
    _refused(full, name, value)


@pytest.mark.parametrize("full, name", _parameters("number"))
@pytest.mark.parametrize("value", ["1", {"a": 1}, True, 1j, [1, 2]], ids=["text", "dict", "bool", "complex", "list"])
def test_a_number_of_the_wrong_type_is_refused(full, name, value):
    _refused(full, name, value)


# None means "no bound" here, as for functools.lru_cache
NONE_OK = {("plotting.cache.cached", "maxsize")}


@pytest.mark.parametrize("full, name", _parameters("number"))
def test_none_for_a_number_is_refused(full, name):
    if (full, name) in NONE_OK:
        _call(full, {name: None})
    else:
        _refused(full, name, None)


def _with_values(kind, values):
    return [pytest.param(*case.values, value, id=f"{case.id}-{value!r}")
            for case in _parameters(kind) for value in values]


@pytest.mark.parametrize("full, name, value", _with_values("float", [1e300, -1e300, 0.0, -1.0])
                         + _with_values("int", [0, -1]))
def test_a_number_out_of_range_is_refused_or_drawn(full, name, value):
    _refused_or_drawn(full, name, value)


@pytest.mark.parametrize("full, name", _parameters("int"))
@pytest.mark.parametrize("value", [10**12, 2**70], ids=["1e12", "2^70"])
def test_a_huge_size_is_refused_at_once(full, name, value):
    if name in ANY_INTEGER:
        _refused_or_drawn(full, name, value)  # within SECONDS
    else:
        _refused(full, name, value)


# integers that may be as large as one likes: a seed, a cache's bound
ANY_INTEGER = {"seed", "data_seed", "maxsize"}


@pytest.mark.parametrize("full, name", _parameters("tuple"))
@pytest.mark.parametrize("shape", ["nan", "shorter", "empty", "text", "nested"])
def test_a_point_of_the_wrong_shape_or_with_nan_is_refused(full, name, shape):
    default = inspect.signature(FUNCTIONS[full]).parameters[name].default
    value = {"nan": (np.nan,) * len(default), "shorter": default[:1], "empty": (), "text": "ab",
             "nested": tuple((u, u) for u in default)}[shape]
    if shape == "shorter" and (len(default) == 1 or (full, name) in ANY_LENGTH):
        pytest.skip("any length is valid")
    _refused(full, name, value)


# tuples of any length: seeds, sizes, bounds, a point of any dimension
ANY_LENGTH = {("plotting.perceptron.ocr_curves", "seeds"), ("plotting.perceptron.ocr_plain_vs_averaged_figure", "seeds"),
              ("plotting.perceptron.plain_vs_averaged_figure", "seeds"), ("plotting.perceptron.work_by_size", "sizes"),
              ("plotting.perceptron.cost_of_averaging_figure", "sizes"), ("plotting.multiclass.pac_bounds_figure", "Bs"),
              ("plotting.multiclass.multi_vector_figure", "x")}


@pytest.mark.parametrize("full, name", _parameters("option"))
def test_an_unknown_option_is_refused(full, name):
    _refused(full, name, "zzz")


@pytest.mark.parametrize("full", [full for full, f in FUNCTIONS.items()
                                  if "axes" in inspect.signature(f).parameters])
def test_one_axes_where_several_panels_are_drawn_is_refused(full):
    """A drawing of n panels given one Axes names `axes` (a single Axes is accepted by a drawing
    of one panel)."""
    fig, ax = new_figure()
    try:
        _call(full, {"axes": ax})
    except (ValueError, TypeError) as error:
        _assert_named(error, "axes")
