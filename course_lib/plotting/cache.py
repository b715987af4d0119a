"""cached(maxsize): functools.lru_cache keyed by what the arguments mean, not how they are passed.

lru_cache keys f(seeds, 10), f(seeds, max_epoch=10) and f(seeds=seeds) apart, so a figure that
asks for a result the lesson computed a cell earlier, in another spelling, computed it again
(20 s for the OCR curves of chapter 09). Here every call is bound to the signature, defaults
filled in, before the cache is looked up.
"""

import functools
import inspect

from course_lib._validation import _check_number_kinds, _non_finite, _number_kinds, check_int
from course_lib.i18n import _


def cached(maxsize=128):
    if maxsize is not None:  # None: no bound, as for functools.lru_cache
        check_int(maxsize, "maxsize", 0)

    def decorate(function):
        signature = inspect.signature(function)
        kinds = _number_kinds(signature)

        @functools.lru_cache(maxsize=maxsize)
        def compute(arguments):
            return function(**dict(arguments))

        @functools.wraps(function)
        def lookup(*args, **kwargs):
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            _check_number_kinds(kinds, bound.arguments, function.__name__)
            for name, value in bound.arguments.items():
                if _non_finite(value) or (isinstance(value, tuple) and any(map(_non_finite, value))):
                    raise ValueError(_("{name} must hold finite numbers; got {name}={value!r}. Pass {where} "
                                       "real values.").format(name=name, value=value, where=function.__name__))
                try:
                    hash(value)
                except TypeError:
                    raise TypeError(_("{name} must be a number, a string or a tuple; got a {kind}: pass "
                                      "{where} a tuple instead of a list or an array.").format(
                                          name=name, kind=type(value).__name__, where=function.__name__)) from None
            return compute(tuple(bound.arguments.items()))

        lookup.cache_info, lookup.cache_clear = compute.cache_info, compute.cache_clear
        return lookup
    return decorate
