"""`checked(...)`: the door of the figure helpers and the demo builders.

finite_arguments (course_lib/_validation.py) refuses a NaN or inf, a number of the wrong kind
(a string, None, a dict, a bool, a complex number where a float or an int is expected) and an
integer beyond 64 bits, naming the parameter. `checked` adds what a drawing needs on top: each
number in the range the figure (or the demo's slider) covers, each option among those drawn,
each point or box of the right length. The checks look at the arguments only (a few numbers),
never at an array entry by entry, so a redraw pays microseconds for them.
"""

import functools
import inspect
import math
import numbers

import numpy as np
from matplotlib.axes import Axes

from course_lib._validation import _binder, _short, finite_arguments
from course_lib.i18n import _


class Between:
    """A real number (an integer when `integer`) with low <(=) value <(=) high; `open_low` and
    `open_high` make an end strict (0 < sigma). A bound of None is no bound."""

    def __init__(self, low=None, high=None, open_low=False, integer=False, open_high=False):
        self.low, self.high, self.integer = low, high, integer
        self.open_low, self.open_high = open_low, open_high

    def text(self, name):
        low = "" if self.low is None else f"{self.low:g} {'<' if self.open_low else '≤'} "
        high = "" if self.high is None else f" {'<' if self.open_high else '≤'} {self.high:g}"
        return f"{low}{name}{high}"

    def check(self, name, value, where):
        if self.integer and (isinstance(value, bool) or not isinstance(value, numbers.Integral)):
            raise TypeError(_("{name} must be a whole number (an int); got {value!r}: pass {where} an "
                              "integer with {range}.").format(name=name, value=value, where=where,
                                                             range=self.text(name)))
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(_("{name} must be a real number; got {kind} {value}: pass {where} a number "
                              "for {name}.").format(name=name, kind=type(value).__name__,
                                                    value=_short(repr(value)), where=where))
        too_low = self.low is not None and (value <= self.low if self.open_low else value < self.low)
        too_high = self.high is not None and (value >= self.high if self.open_high else value > self.high)
        if too_low or too_high or not math.isfinite(value):
            raise ValueError(_("{name}={value!r} is outside the range {where} draws: {range}. Pass a "
                               "{name} in that range.").format(name=name, value=value, where=where,
                                                               range=self.text(name)))


def positive(high=None):
    """0 < value (<= high)."""
    return Between(0, high, open_low=True)


def count(low=1, high=None):
    """An int with low <= value (<= high)."""
    return Between(low, high, integer=True)


class OneOf:
    """One of a few options (a kernel, a learner, a reduction)."""

    def __init__(self, options):
        self.options = tuple(options)

    def check(self, name, value, where):
        if not any(value == option and type(value) is type(option) for option in self.options):
            raise ValueError(_("{name}={value!r} is not an option of {where}: choose one of "
                               "{options}.").format(name=name, value=value, where=where,
                                                    options=", ".join(map(repr, self.options))))


class Numbers:
    """A tuple (or list, or array) of `size` real numbers (any size >= 1 when None), each checked
    by `each` (a Between) when given: a point, a weight vector, a box."""

    def __init__(self, size=None, each=None):
        self.size, self.each = size, each

    def check(self, name, value, where):
        if isinstance(value, (str, bytes, dict, set)) or not np.iterable(value):
            raise TypeError(_("{name} must be a tuple of {size} numbers; got {value}: pass {where} e.g. "
                              "{name}={example}.").format(name=name, size=self.size or _("one or more"),
                                                          value=_short(repr(value)), where=where,
                                                          example=self._example()))
        entries = list(value)
        if np.ndim(np.asarray(entries, dtype=object)) != 1 or not entries or (
                self.size is not None and len(entries) != self.size):
            raise ValueError(_("{name} must be a tuple of {size} numbers; got {value}: pass {where} e.g. "
                               "{name}={example}.").format(name=name, size=self.size or _("one or more"),
                                                           value=_short(repr(value)), where=where,
                                                           example=self._example()))
        for entry in entries:
            if isinstance(entry, bool) or not isinstance(entry, numbers.Real) or not math.isfinite(entry):
                raise ValueError(_("{name} must hold finite real numbers; it holds {entry!r}: {name}={value}. "
                                   "Pass {where} real values.").format(name=name, entry=entry, where=where,
                                                                       value=_short(repr(value))))
            if self.each is not None:
                self.each.check(name, entry, where)

    def _example(self):
        return "(" + ", ".join(["1"] * (self.size or 2)) + ")"


class Panels:
    """`count` matplotlib Axes (an array or a list of them), for a drawing of several panels;
    None allowed when it is the default (the drawing then makes its own figure)."""

    def __init__(self, count):
        self.count = count

    def check(self, name, value, where):
        if isinstance(value, Axes) or not np.iterable(value) or isinstance(value, (str, bytes, dict)):
            got = _("one Axes") if isinstance(value, Axes) else _short(repr(value))
        else:
            panels = list(np.ravel(np.asarray(value, dtype=object)))
            if len(panels) >= self.count and all(isinstance(ax, Axes) for ax in panels[:self.count]):
                return
            got = _("{n} item(s)").format(n=len(panels))
        raise TypeError(_("{name} must hold {count} Axes, one per panel of {where}; got {got}: pass "
                          "e.g. the axes of new_figure(ncols={count})[1].").format(
                              name=name, count=self.count, where=where, got=got))


def checked(function=None, *, shapes=None, inf_ok=(), **rules):
    """Decorator: finite_arguments (types, NaN and inf, 64-bit integers; not its check of the
    result) then `rules`, a map from parameter to Between, OneOf, Numbers or Panels, checked on
    the arguments passed (defaults are valid by construction; None passes where it is the
    default)."""
    def decorate(f):
        signature = inspect.signature(f)
        unknown = set(rules) - set(signature.parameters)
        if unknown:
            raise TypeError(_("{function} has no parameter {names}").format(function=f.__name__, names=sorted(unknown)))
        optional = {name: signature.parameters[name].default is None for name in rules}
        bind = _binder(signature)

        @functools.wraps(f)
        def within(*args, **kwargs):
            arguments = bind(args, kwargs)
            for name, rule in rules.items():
                if name in arguments and not (arguments[name] is None and optional.get(name)):
                    rule.check(name, arguments[name], f.__name__)
            return _Drawn(f(*args, **kwargs))
        door = finite_arguments(within, shapes=shapes, inf_ok=inf_ok)

        @functools.wraps(f)
        def checked_call(*args, **kwargs):
            return door(*args, **kwargs).value
        return checked_call
    return decorate if function is None else decorate(function)


class _Drawn:
    """A result passed through finite_arguments unread: a drawing's arrays may hold NaN on
    purpose (the gaps of an image)."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value
