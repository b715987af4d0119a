"""Checks run at the door of every public function, with messages that name the parameter and the fix,
in the language set by course_lib.set_language (templates with named fields, for translators)."""

import functools
import inspect
import math
import numbers
import re

import numpy as np

from course_lib.i18n import N_, _

# The library promises correct results for features of magnitude at most MAX_ABS: squared
# distances, inner products and their sums then stay far from float64's overflow (~1e308).
MAX_ABS = 1e100
# The largest number of steps (an example visited, an iteration) a loop is asked to run: beyond
# it a call would run for hours, or fill the memory with the states it records.
MAX_STEPS = 10**9
# Integers NumPy computes with are 64-bit: a larger count or size cannot be an array's length.
MAX_INT = 2**63 - 1


class NotFittedError(ValueError, AttributeError, RuntimeError):
    """A model used before fit: scikit-learn's NotFittedError is also a ValueError and an
    AttributeError, so code written for scikit-learn catches it too."""


def check_matrix(X, name="X", n_features=None):
    """Return X as a finite 2-D float array with at least one row and one column, and entries
    of magnitude at most MAX_ABS."""
    if X is None:
        raise TypeError(_("{name} is None: pass an array of shape (n_samples, n_features).").format(name=name))
    if hasattr(X, "toarray"):
        raise TypeError(_("{name} is a sparse matrix: sparse input is not supported here; pass "
                          "{name}.toarray().").format(name=name))
    if isinstance(X, (dict, set, frozenset, str, bytes)):
        raise _not_numbers(name, X)
    X = _as_array(X, name)
    _refuse_text(X, name)
    if np.iscomplexobj(X):
        raise ValueError(_("Complex data not supported: {name} holds complex numbers, the models work "
                           "on real features only.").format(name=name))
    try:
        X = X.astype(float, copy=False)
    except (TypeError, ValueError) as error:  # objects that are not numbers (a dict among the rows...)
        raise TypeError(_("{name} must be an array of numbers ({error}).").format(  # NumPy's reason, as
            name=name, error=error)) from None  # scikit-learn gives it: "float() argument must be ..."
    if X.ndim != 2:
        raise ValueError(_(
            "{name} must be 2-D (n_samples, n_features); got shape {shape}. Reshape your data: "
            "{name}.reshape(-1, 1) for a single feature or {name}.reshape(1, -1) for a single "
            "sample.").format(name=name, shape=X.shape))
    if X.shape[0] == 0:
        raise ValueError(_("{name} is empty: it needs at least one row (sample).").format(name=name))
    if X.shape[1] == 0:
        raise ValueError(_("{name} has 0 feature(s) (shape={shape}) while a minimum of 1 is required: "
                           "it needs at least one column.").format(name=name, shape=X.shape))
    if not np.all(np.isfinite(X)):
        raise ValueError(_("{name} contains NaN or inf: remove or impute those entries first.").format(name=name))
    largest = float(np.max(np.abs(X)))
    if largest > MAX_ABS:
        raise ValueError(_(
            "{name} has entries as large as {largest:.3g}, beyond {limit:g}: products and squared "
            "distances would overflow. Rescale X first (e.g. divide each feature by its standard "
            "deviation).").format(name=name, largest=largest, limit=MAX_ABS))
    if n_features is not None and X.shape[1] != n_features:
        raise ValueError(_(
            "{name} has {n} features, but predict is expecting {n_features} features as input (the "
            "model was fitted with {n_features}): pass the same columns as in fit.").format(
                name=name, n=X.shape[1], n_features=n_features))
    return X


def _refuse_text(array, name):
    """Refuse an array of strings (or bytes) where numbers are expected, as scikit-learn does:
    "1.5" would otherwise be parsed silently, and "a" fail inside numpy."""
    if array.dtype.kind in "USO" and (array.dtype.kind != "O" or any(
            isinstance(v, (str, bytes)) for v in array.flat)):
        raise TypeError(_("{name} holds text ({value}): it must be an array of numbers; convert it "
                          "first, e.g. np.asarray({name}, dtype=float).").format(name=name, value=_short(array)))


def as_numbers(value, name):
    """value as a float array; text ("1.5", "a") and ragged lists are refused naming the parameter."""
    array = _as_array(value, name)
    _refuse_text(array, name)
    try:
        return array.astype(float)
    except (TypeError, ValueError):
        raise _not_numbers(name, value) from None


def _not_numbers(name, value):
    return TypeError(_("{name} must be an array of numbers; got {value}.").format(
        name=name, value=_short(repr(value) if isinstance(value, (dict, set, frozenset)) else value)))


def _as_array(value, name):
    """np.asarray(value), a ragged list (rows of different lengths, None among the rows) refused
    naming the parameter instead of NumPy's "inhomogeneous shape"."""
    try:
        return np.asarray(value)
    except ValueError:
        raise _ragged(name, value) from None


def _ragged(name, value):
    return ValueError(_("{name} is a ragged list: its rows {rows} do not all have the same length. Pass a "
                        "rectangular array of numbers (every row with the same number of entries, no "
                        "None).").format(name=name, rows=_short(repr(value))))


def _is_ragged(value):
    """True for a list or tuple that NumPy cannot make an array of (rows of different lengths)."""
    if not isinstance(value, (list, tuple)):
        return False
    try:
        np.asarray(value)
    except ValueError:
        return True
    return False


def check_binary_targets(r, n_samples, name="r"):
    """Return r as a float vector in {-1, +1} of length n_samples holding both classes."""
    if r is None:
        raise ValueError(_("fit requires {name} to be passed, but the target {name} is None: pass one "
                           "target in {{-1, +1}} per sample.").format(name=name))
    r = np.asarray(r)
    if r.ndim != 1:
        raise ValueError(_("{name} must be 1-D with one target per sample; got shape {shape}.").format(
            name=name, shape=r.shape))
    if r.shape[0] != n_samples:
        raise ValueError(_("{name} has {n} targets but X has {n_samples} samples: lengths must "
                           "match.").format(name=name, n=r.shape[0], n_samples=n_samples))
    try:
        r = r.astype(float)
    except (TypeError, ValueError):
        raise ValueError(_("{name} must hold the numbers -1 and +1.").format(name=name)) from None
    bad = ~np.isin(r, (-1.0, 1.0))
    if np.any(r != np.round(r)):
        raise ValueError(_("{name} holds continuous values ({value:g}, ...): a classifier needs the "
                           "targets -1 and +1 (the slides' r^t).").format(name=name, value=r[bad][0]))
    if bad.any():
        found = np.unique(r[bad])[:5]
        raise ValueError(_(
            "Only binary classification is supported here: {name} must contain only -1 and +1 (the "
            "slides' r^t); found {found}. Map labels with np.where(y == positive_class, 1, "
            "-1).").format(name=name, found=found.tolist()))
    if np.unique(r).size < 2:
        raise ValueError(_("{name} holds a single class (1 class, {value:+.0f}): a discriminant needs "
                           "examples of both -1 and +1.").format(name=name, value=r[0]))
    return r


def check_positive(value, name, allow_inf=False):
    """Return value as a float, raising if it is not a positive number (inf only if allowed)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(_("{name} must be a positive number; got {value!r}.").format(name=name, value=value))
    value = float(value)
    if np.isnan(value) or value <= 0 or (np.isinf(value) and not allow_inf):
        message = (_("{name} must be a positive number (np.inf allowed); got {value!r}.") if allow_inf
                   else _("{name} must be a positive finite number; got {value!r}."))
        raise ValueError(message.format(name=name, value=value))
    return value


def check_tolerance(value, name, start):
    """Return a stopping tolerance as a float in (0, 1): the gap it is compared with starts at
    most at 1 (`start` says which), so a tolerance of 1 or more stops before anything is learned
    and returns the starting point as if it were the answer."""
    value = check_positive(value, name)
    if value >= 1:
        raise ValueError(_("{name}={value:g} stops the solver at once ({reason}): nothing would be "
                           "learned. Use a {name} below 1, e.g. the default.").format(
                               name=name, value=value, reason=_(start)))
    return value


def check_non_negative(value, name):
    """Return value as a float, raising if it is negative, NaN or infinite."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(_("{name} must be a number >= 0; got {value!r}.").format(name=name, value=value))
    value = float(value)
    if not np.isfinite(value) or value < 0:
        raise ValueError(_("{name} must be a finite number >= 0; got {value!r}.").format(name=name, value=value))
    return value


def check_int(value, name, minimum):
    """Return value as an int >= minimum."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(_("{name} must be an integer >= {minimum}; got {value!r}.").format(
            name=name, minimum=minimum, value=value))
    if value < minimum:
        raise ValueError(_("{name} must be an integer >= {minimum}; got {value}.").format(
            name=name, minimum=minimum, value=value))
    return int(value)


def check_steps(count, name, per_count=1):
    """Return count (an int >= 1 already checked) when count * per_count steps stay within
    MAX_STEPS; a larger count would run for hours or exhaust the memory."""
    if count * per_count > MAX_STEPS:
        raise ValueError(_("{name}={count} asks for {steps:.3g} steps ({per_count} per unit of {name}), "
                           "beyond the {limit:.0e} that finish in reasonable time and memory: use a "
                           "smaller {name}.").format(name=name, count=count, steps=float(count * per_count),
                                                     per_count=per_count, limit=MAX_STEPS))
    return count


def check_fitted(estimator, attribute):
    """Raise a clear error when a learned attribute is missing (fit was not called)."""
    if not hasattr(estimator, attribute):
        raise NotFittedError(_("This {estimator} is not fitted yet: call fit(X, y) before using it.").format(
            estimator=type(estimator).__name__))


def check_random_state(seed):
    """Return a numpy Generator from None, an int seed or a Generator."""
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is None:
        return np.random.default_rng()
    if isinstance(seed, numbers.Integral) and not isinstance(seed, bool):
        if seed < 0:
            raise ValueError(_("seed must be an integer >= 0 (or None); got {seed}.").format(seed=seed))
        return np.random.default_rng(seed)
    raise TypeError(_("seed must be None, an int >= 0 or a numpy Generator; got {seed!r}.").format(seed=seed))


def check_labels(y, n_samples, name="y", min_classes=2):
    """Return (classes, indices): the sorted distinct labels of y (numbers, or strings, not a
    mix) and each sample's index into classes."""
    if y is None:
        raise ValueError(_("fit requires {name} to be passed, but the target {name} is None: pass one "
                           "label per sample.").format(name=name))
    if isinstance(y, (list, tuple)):  # a list mixing 1 and "a" would silently become strings
        y = np.asarray(y, dtype=object)
        if y.ndim != 1:
            y = np.asarray(y.tolist())
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(_("{name} must be 1-D with one label per sample; got shape {shape}.").format(
            name=name, shape=y.shape))
    if y.shape[0] != n_samples:
        raise ValueError(_("{name} has {n} labels but X has {n_samples} samples: lengths must "
                           "match.").format(name=name, n=y.shape[0], n_samples=n_samples))
    if y.dtype.kind == "c":
        raise TypeError(_("{name} holds complex numbers: labels are integers or strings.").format(name=name))
    if y.dtype.kind == "O":
        kinds = {"number" if isinstance(v, numbers.Real) else
                 "string" if isinstance(v, str) else type(v).__name__ for v in y}
        if kinds - {"number", "string"}:
            raise TypeError(_("{name} holds labels of type {types}: labels must be integers or "
                              "strings.").format(name=name, types=", ".join(sorted(kinds - {"number", "string"}))))
        if len(kinds) > 1:
            raise TypeError(_("{name} mixes numbers and strings: use labels of one kind, all integers "
                              "or all strings.").format(name=name))
        # numbers keep their type, as scikit-learn does: [0, 1, 2] gives int labels, not 0.0, 1.0
        y = np.asarray(y.tolist()) if kinds == {"number"} else y.astype(str)
    if y.dtype.kind == "f" and not np.all(np.isfinite(y)):
        raise ValueError(_("{name} contains NaN or inf: every sample needs a real label.").format(name=name))
    if y.dtype.kind == "f" and np.any(y != np.round(y)):
        raise ValueError(_("{name} holds continuous values ({value:g}, ...): a classifier needs class "
                           "labels (integers or strings), not a regression target.").format(
                               name=name, value=y[y != np.round(y)][0]))
    classes, indices = np.unique(y, return_inverse=True)
    if classes.size < min_classes:
        raise ValueError(_("{name} holds {n} class(es) ({classes}): the model needs at least "
                           "{minimum}.").format(name=name, n=classes.size, classes=classes.tolist(),
                                                minimum=min_classes))
    return classes, indices


def _non_finite(value):
    """'NaN' or 'inf' when the float, float array or list of float arrays `value` holds one.
    One sum answers for a whole array (a NaN or inf makes it NaN or inf); only an array whose
    sum is not finite, which overflow can also cause, is looked at entry by entry."""
    if isinstance(value, (float, np.floating)):
        if math.isfinite(value):
            return None
        items = np.asarray([value])
    elif isinstance(value, np.ndarray) and value.dtype.kind == "f":
        if math.isfinite(np.add.reduce(value, axis=None)):
            return None
        items = value
    elif isinstance(value, (list, tuple)) and value and all(
            isinstance(v, np.ndarray) and v.dtype.kind == "f" for v in value):
        items = np.concatenate([v.ravel() for v in value])
    else:
        return None
    if np.all(np.isfinite(items)):
        return None
    return "NaN" if np.any(np.isnan(items)) else "inf"


def _number_kinds(signature):
    """{parameter: "integer" or "number"} for the parameters whose default is an int or a
    float, or that are annotated `int` or `float` (a required `C: float`): the value passed
    must be of that kind (a bool, a string, None, a list or a complex number would otherwise
    reach numpy and fail inside it, or be taken silently)."""
    kinds = {}
    for p in signature.parameters.values():
        declared = _ANNOTATED_KINDS.get(p.annotation)
        if declared in ("integer", "number"):
            kinds[p.name] = declared
        elif isinstance(p.default, bool) or p.default is p.empty:
            continue
        elif isinstance(p.default, numbers.Integral):
            kinds[p.name] = "integer"
        elif isinstance(p.default, numbers.Real):
            kinds[p.name] = "number"
    return kinds


# annotation -> kind checked at the door (the names too, for modules that postpone annotations)
_ANNOTATED_KINDS = {int: "integer", "int": "integer", float: "number", "float": "number",
                    np.ndarray: "array", "np.ndarray": "array"}


def _array_parameters(signature):
    """The parameters annotated `np.ndarray`: a list or tuple passed there becomes an array."""
    return tuple(p.name for p in signature.parameters.values()
                 if _ANNOTATED_KINDS.get(p.annotation) == "array")


def _as_number_array(name, value, where):
    """value as a real array (None kept, for an optional parameter); a list of strings or of
    complex numbers is refused naming the parameter."""
    if value is None or (isinstance(value, np.ndarray) and value.dtype.kind in "iuf"):
        return value
    array = _objects_as_numbers(_as_array(value, name))
    if array.dtype.kind == "b" and name not in MASK_PARAMETERS:
        array = array.astype(float)  # True and False as the numbers 1 and 0
    if array.dtype.kind not in "biuf":
        kind = _(ARRAY_KINDS.get(array.dtype.kind, ARRAY_KINDS["O"]))
        raise TypeError(_("{name} must be an array of real numbers; got {kind}: {value}. Pass "
                          "{where} a NumPy array (or a list) of floats for {name}.").format(
                              name=name, kind=kind, value=_short(value), where=where))
    return array


# what an array that is not of real numbers holds, by its dtype's kind, as the refusal names it
ARRAY_KINDS = {"c": N_("complex numbers"), "U": N_("strings"), "S": N_("bytes"), "O": N_("objects")}


def _objects_as_numbers(array):
    """An array of dtype object that holds only real numbers as the array of those same numbers
    (Python ints stay integers, floats floats; an empty one becomes a float array of its shape);
    any other array as it is."""
    if array.dtype.kind != "O" or not all(isinstance(v, numbers.Real) for v in array.flat):
        return array
    return np.asarray(array.tolist()) if array.size else array.astype(float)


def _check_number_kinds(kinds, arguments, where):
    for name, kind in kinds.items():
        value = arguments.get(name, 0)
        wanted = numbers.Integral if kind == "integer" else numbers.Real
        if isinstance(value, wanted) and not isinstance(value, (bool, np.bool_)):
            continue
        if kind == "integer" and isinstance(value, numbers.Real) and not isinstance(value, bool):
            raise TypeError(_("{name} must be a whole number (an int); got {value!r}: pass "
                              "{where}({name}={example}) or another integer.").format(
                                  name=name, value=value, where=where,
                                  example=int(value) if math.isfinite(value) else 10))
        message = (_("{name} must be an integer; got {kind} {value}: pass {where} a number for {name}.")
                   if kind == "integer" else
                   _("{name} must be a real number; got {kind} {value}: pass {where} a number for {name}."))
        raise TypeError(message.format(name=name, kind=type(value).__name__, value=_short(value), where=where))


def _too_big(error, arguments, where):
    """A clear error for an allocation that cannot succeed: the integer arguments asked for
    more memory than any machine has."""
    sizes = {name: value for name, value in arguments.items()
             if isinstance(value, numbers.Integral) and not isinstance(value, bool) and value > 1}
    if not sizes:
        return error
    name = max(sizes, key=sizes.get)
    return ValueError(_("{name}={value} asks {where} for more memory than this machine has ({error}): use "
                        "a smaller {name}.").format(name=name, value=sizes[name], where=where,
                                                    error=type(error).__name__))


def _not_a_number(error, arguments, where):
    """NumPy's "float() argument must be ... not 'dict'" as a clear error naming the argument of
    that type (a dict or a set where numbers are expected); any other TypeError as it is."""
    found = re.search(r"float\(\) argument must be a string or a (?:real )?number, not '(\w+)'", str(error))
    names = [name for name, value in arguments.items() if found and type(value).__name__ == found.group(1)]
    if len(names) != 1:
        return error
    return _not_an_array(names[0], arguments[names[0]], where)


def _not_an_array(name, value, where):
    """The TypeError for a value (a dict, a set, a string) given where an array of numbers is expected."""
    return TypeError(_("{name} must be an array of real numbers; got a {kind}: {value}. Pass {where} a "
                       "NumPy array (or a list) of floats for {name}.").format(
                           name=name, kind=type(value).__name__, value=_short(repr(value)), where=where))


def _is_allocation_error(error):
    return isinstance(error, MemoryError) or (
        isinstance(error, ValueError) and any(s in str(error) for s in (
            "array is too big", "Maximum allowed size exceeded", "Maximum allowed dimension exceeded"))) or (
        isinstance(error, OverflowError) and "too large to convert" in str(error))


def _check_integer_range(arguments, where):
    """Refuse an integer argument beyond NumPy's 64-bit integers (a count, a size or an index
    that large fails inside NumPy with an OverflowError or an IndexError); a seed may be any
    integer."""
    for name, value in arguments.items():
        if (isinstance(value, numbers.Integral) and not isinstance(value, bool) and abs(value) > MAX_INT
                and name != "seed"):
            raise ValueError(_("{name}={value} is beyond the 64-bit integers {where} computes with (at most "
                               "{limit} in magnitude): use a smaller {name}.").format(
                                   name=name, value=_short(value), where=where, limit=MAX_INT))


def _leaves(value, depth=0):
    """The entries of a (nested) list, tuple or object array, at most 3 levels deep."""
    if isinstance(value, np.ndarray) and value.dtype.kind == "O" and depth < 3:
        for v in value.flat:
            yield from _leaves(v, depth + 1)
    elif isinstance(value, (list, tuple)) and depth < 3:
        for v in value:
            yield from _leaves(v, depth + 1)
    else:
        yield value


def _holds_none(value):
    """True when a list or tuple (or an object array) of numbers holds None somewhere: NumPy
    would read that None as NaN, or fail inside."""
    if not isinstance(value, (list, tuple)) and not (isinstance(value, np.ndarray) and value.dtype.kind == "O"):
        return False
    kinds = {"none" if v is None else "number" if isinstance(v, (numbers.Real, np.ndarray)) else "other"
             for v in _leaves(value)}
    return "none" in kinds and "other" not in kinds


def _check_array_values(names, required, defaults, arguments, where):
    """No required parameter is None; the parameters that hold arrays of numbers (annotated
    np.ndarray or given a shape) get an array, a list or a number: not None unless None is their
    default, not a dict, a set or a string; and no argument mixes None with its numbers."""
    for name in required:
        if arguments.get(name, 0) is None and name not in names:
            raise TypeError(_("{name} is None: {where} needs a value for {name}.").format(name=name, where=where))
    for name in names:
        if name not in arguments:
            continue
        value = arguments[name]
        if value is None:
            if name in required or defaults.get(name) is not None:
                raise TypeError(_("{name} is None: pass {where} an array of numbers for {name}.").format(
                    name=name, where=where))
            continue
        if isinstance(value, (dict, set, frozenset, str, bytes)):
            raise _not_an_array(name, value, where)
    for name, value in arguments.items():
        if _holds_none(value):
            raise TypeError(_("{name} holds None among its numbers: {value}. Pass {where} a number in "
                              "every entry of {name}.").format(name=name, value=_short(repr(value)), where=where))


# boolean masks among the parameters annotated np.ndarray (other booleans become 0.0 and 1.0)
MASK_PARAMETERS = frozenset({"free"})
# parameters that hold class labels or outputs, where an array of strings is valid
LABEL_PARAMETERS = frozenset({"y", "y_held", "labels"})


def finite_arguments(function=None, *, inf_ok=(), shapes=None, indices=None):
    """Decorator: refuse NaN and inf in every float argument (numbers, float arrays, lists of
    float arrays) of `function`, naming the parameter; parameters in `inf_ok` may be +inf (as
    C = np.inf, the hard margin). A NaN or inf would otherwise flow into a result that looks
    like a number.

    The kind of a parameter is read from its annotation or its default: `C: float` or `tol=1e-3`
    must be a real number, `n: int` or `k=3` an integer; `K: np.ndarray` is an array of real
    numbers (a list passed there is converted, strings and complex numbers are refused).
    A float result that is NaN or inf although every argument was finite (an overflow, or a
    division by an underflowed number) is refused too, naming the argument of most extreme
    magnitude.

    `shapes` maps parameters to their shapes in symbols, e.g. {"K": "n n", "r": "n"}: every
    symbol must be at least 1 and the same wherever it appears (a number must be met exactly;
    "k?" allows a scalar instead of a (k,) vector, a leading "..." any leading axes).

    `indices` maps parameters that hold indices to the parameter they index: an int count, a
    shape (its first entry) or an array (its length), e.g. {"gold": "shape"}: the values must be
    whole numbers in 0..count-1 (they become int64)."""
    def decorate(f):
        signature = inspect.signature(f)
        bind = _binder(signature)
        parsed_shapes = _parse_shapes(shapes)
        kinds = {name: kind for name, kind in _number_kinds(signature).items()
                 if name not in (shapes or {})}  # a shaped parameter may be an array
        arrays = _array_parameters(signature)
        array_like = tuple(dict.fromkeys(arrays + tuple(shapes or ())))
        required = {p.name for p in signature.parameters.values() if p.default is p.empty}
        packed = {p.name for p in signature.parameters.values() if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)}
        required -= packed
        defaults = {p.name: p.default for p in signature.parameters.values() if p.default is not p.empty}
        if arrays and any(p.kind not in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
                          for p in signature.parameters.values()):
            raise TypeError(_("{f}: np.ndarray parameters need named parameters only").format(
                                f=f.__name__))

        @functools.wraps(f)
        def checked(*args, **kwargs):
            arguments = bind(args, kwargs)
            _check_number_kinds(kinds, arguments, f.__name__)
            _check_integer_range(arguments, f.__name__)
            _check_array_values(array_like, required, defaults, arguments, f.__name__)
            converted = False
            for name in arrays:
                value = arguments.get(name)
                if not isinstance(value, np.ndarray) or value.dtype.kind not in "iuf":
                    arguments[name] = _as_number_array(name, value, f.__name__)
                    converted = converted or arguments[name] is not value
            inf_passed = False
            for name, value in list(arguments.items()):
                if isinstance(value, np.ndarray) and value.dtype.kind in "US" and name not in LABEL_PARAMETERS:
                    _refuse_text(value, name)
                if isinstance(value, np.ndarray) and value.dtype.kind == "O":
                    arguments[name] = _objects_as_numbers(value)  # numbers held as objects
                    converted = converted or arguments[name] is not value
                    value = arguments[name]
                found = _non_finite(value)
                if found is None:
                    continue
                if name in inf_ok and found == "inf" and value == np.inf:
                    inf_passed = True
                    continue
                message = (_("{name} must hold finite numbers (or np.inf); it contains {found}: "
                             "{name}={value}. Pass {function} real values.") if name in inf_ok else
                           _("{name} must hold finite numbers; it contains {found}: {name}={value}. "
                             "Pass {function} real values."))
                raise ValueError(message.format(name=name, found=found, value=_short(value),
                                                function=f.__name__))
            if parsed_shapes:
                _check_shapes(f.__name__, parsed_shapes, arguments)
            for name, indexed in (indices or {}).items():
                arguments[name] = check_class_indices(arguments[name], _count(arguments[indexed]), name)
                converted = True
            try:
                if converted:  # the converted arguments, *args and **kwargs spread again
                    bound = inspect.BoundArguments(signature, arguments)
                    args, kwargs = bound.args, bound.kwargs
                out = f(*args, **kwargs)
            except (MemoryError, ValueError, OverflowError) as error:
                if _is_allocation_error(error):
                    raise _too_big(error, arguments, f.__name__) from error
                ragged = [name for name, value in arguments.items()
                          if "inhomogeneous" in str(error) and name not in packed and _is_ragged(value)]
                if ragged:  # NumPy could not make an array of a list passed on inside the function
                    raise _ragged(ragged[0], arguments[ragged[0]]) from error
                raise
            except TypeError as error:
                named = {name: value for name, value in arguments.items() if name not in packed}
                raise _not_a_number(error, named, f.__name__) from error
            if not inf_passed:
                _check_result(out, arguments, f.__name__)
            return out
        return checked
    return decorate if function is None else decorate(function)


def _count(value):
    """The number of entries that `value` (an int count, a shape tuple or an array) indexes."""
    if isinstance(value, numbers.Integral):
        return int(value)
    return int(value[0]) if isinstance(value, tuple) else len(value)


def _check_result(out, arguments, where):
    """Refuse a NaN or inf result computed from finite arguments (see finite_arguments)."""
    found = (_non_finite(out) if not isinstance(out, tuple)
             else next(filter(None, map(_non_finite, out)), None))
    if found is None:
        return
    extremes = {}
    for name, value in arguments.items():
        if isinstance(value, bool) or not isinstance(value, (numbers.Real, np.ndarray)):
            continue
        magnitudes = np.abs(np.asarray(value, dtype=float)).ravel()
        magnitudes = magnitudes[magnitudes > 0]
        if magnitudes.size:
            largest, smallest = float(magnitudes.max()), float(magnitudes.min())
            extremes[name] = (max(math.log10(largest), -math.log10(smallest)), largest, smallest)
    if not extremes:
        raise ValueError(_("{where} gives {found} for these arguments: check that they describe a "
                           "well-posed problem.").format(where=where, found=found))
    name = max(extremes, key=lambda n: extremes[n][0])
    largest, smallest = extremes[name][1:]
    raise ValueError(
        _("{name} is out of the range {where} computes in: its values run from {smallest:.3g} to "
          "{largest:.3g} in magnitude and the result overflows to {found}. Rescale {name} (e.g. "
          "divide it by its largest entry) to magnitudes between {lowest:g} and {highest:g}.").format(
            name=name, where=where, smallest=smallest, largest=largest, found=found,
            lowest=1 / MAX_ABS, highest=MAX_ABS))


def _binder(signature):
    """(args, kwargs) -> {parameter: value passed}, as signature.bind(...).arguments gives it,
    without its cost when every parameter can be passed by name (the decorated functions run
    inside training loops); anything unusual goes to signature.bind for its own error."""
    parameters = signature.parameters.values()
    if any(p.kind not in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) for p in parameters):
        return lambda args, kwargs: signature.bind(*args, **kwargs).arguments
    positional = [p.name for p in parameters if p.kind == p.POSITIONAL_OR_KEYWORD]
    names = {p.name for p in parameters}

    def bind(args, kwargs):
        unusual = (len(args) > len(positional) or not names.issuperset(kwargs)
                   or not kwargs.keys().isdisjoint(positional[:len(args)]))
        if unusual:  # too many, unknown or repeated arguments: bind raises inspect's TypeError
            return signature.bind(*args, **kwargs).arguments
        arguments = dict(zip(positional, args))
        arguments.update(kwargs)
        return arguments
    return bind


def _leading_shape(values, axes, name):
    """The shape of a list's first `axes` axes (a list of sequences of different lengths has
    only its length; refused, naming it, where it should be a matrix)."""
    try:
        return np.shape(values)[:axes]
    except ValueError:  # ragged
        if axes > 1:
            raise _ragged(name, values) from None
        return (len(values),)


def _parse_shapes(shapes):
    """{"K": "n n", "r": "k?"} -> [(name, spec, symbols, scalar allowed, leading axes allowed)]."""
    parsed = []
    for name, spec in (shapes or {}).items():
        tokens = spec.split()
        optional = tokens[-1].endswith("?")
        if optional:
            tokens[-1] = tokens[-1][:-1]
        leading = tokens[0] == "..."
        parsed.append((name, spec, tuple(tokens[1:] if leading else tokens), optional, leading))
    return parsed


def _check_shapes(function_name, shapes, arguments):
    """Sizes named by symbols agree across the arguments (see finite_arguments); `shapes` as
    _parse_shapes gives them."""
    sizes = {}
    for name, spec, tokens, optional, leading in shapes:
        value = arguments.get(name)
        if value is None:
            continue
        shape = (value.shape if isinstance(value, np.ndarray) else
                 _leading_shape(value, len(tokens) + leading, name) if isinstance(value, (list, tuple))
                 else np.shape(value))
        if optional and len(shape) == 0:
            continue
        if leading:
            shape = shape[len(shape) - len(tokens):] if len(shape) >= len(tokens) else shape
        if len(shape) != len(tokens):
            raise ValueError(
                _("{name} must have shape ({axes}) in {function_name}; got shape {shape}.").format(
                    name=name, axes=', '.join(spec.split()), function_name=function_name,
                    shape=np.shape(value)))
        for axis, (token, size) in enumerate(zip(tokens, shape)):
            expected = int(token) if token.isdigit() else sizes.setdefault(token, (size, name))[0]
            if size == 0:
                raise ValueError(_("{name} is empty (shape {shape}): {function_name} needs at "
                                   "least one entry.").format(
                                     name=name, shape=np.shape(value), function_name=function_name))
            if size != expected:
                other = sizes[token][1] if not token.isdigit() else None
                message = (_("{name} has {size} entries along axis {axis} but {other} has {expected} "
                             "({token}): pass arguments of matching sizes to {function_name}.") if other else
                           _("{name} has {size} entries along axis {axis} but {expected} are needed "
                             "({token}): pass arguments of matching sizes to {function_name}."))
                raise ValueError(message.format(name=name, size=size, axis=axis, other=other, expected=expected,
                                                token=token, function_name=function_name))


def finite_hyperparameters(fit=None, *, inf_ok=()):
    """Decorator for an estimator's fit: refuse NaN and inf in every float constructor
    parameter (scikit-learn checks hyperparameters in fit, not in __init__)."""
    def decorate(method):
        @functools.wraps(method)
        def checked(self, *args, **kwargs):
            signature = inspect.signature(type(self).__init__)
            _check_number_kinds(_number_kinds(signature),
                                {name: getattr(self, name) for name in signature.parameters
                                 if hasattr(self, name)}, type(self).__name__)
            _check_integer_range({name: getattr(self, name) for name in signature.parameters
                                  if hasattr(self, name)}, type(self).__name__)
            for name in signature.parameters:
                value = getattr(self, name, None)
                found = _non_finite(value)
                if found is None or (name in inf_ok and found == "inf" and value == np.inf):
                    continue
                message = (_("{name} must be a finite number (or np.inf); got {name}={value!r}: set "
                             "{estimator}({name}=...) to a real value.") if name in inf_ok else
                           _("{name} must be a finite number; got {name}={value!r}: set "
                             "{estimator}({name}=...) to a real value."))
                raise ValueError(message.format(name=name, value=value, estimator=type(self).__name__))
            return method(self, *args, **kwargs)
        return checked
    return decorate if fit is None else decorate(fit)


def _short(value):
    text = np.array2string(np.asarray(value), threshold=6) if not isinstance(value, float) else repr(value)
    return text if len(text) < 60 else text[:57] + "..."


def check_class_indices(y, n_classes, name="y", n_samples=None):
    """Return y as an int vector of class indices in 0..n_classes-1 (one per sample when
    n_samples is given)."""
    y = np.asarray(y)
    _refuse_text(y, name)
    if y.ndim != 1 or (n_samples is not None and y.shape[0] != n_samples):
        expected = f"({n_samples},)" if n_samples is not None else "(n,)"
        raise ValueError(_("{name} must be a vector of class indices of shape {expected}; got shape "
                           "{shape}.").format(name=name, expected=expected, shape=y.shape))
    if y.size and (y.dtype.kind not in "iub" and not np.all(np.mod(y.astype(float), 1) == 0)):
        raise ValueError(_("{name} must hold class indices 0..{last} (integers); got {values}.").format(
            name=name, last=n_classes - 1, values=y[:5].tolist()))
    y = y.astype(int)
    if y.size and (y.min() < 0 or y.max() >= n_classes):
        raise ValueError(_("{name} must hold class indices 0..{last}; got values from {low} to {high}. "
                           "Map labels to indices first (np.unique(labels, return_inverse=True)).").format(
                               name=name, last=n_classes - 1, low=y.min(), high=y.max()))
    return y
