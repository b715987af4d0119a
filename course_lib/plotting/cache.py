"""cached(maxsize): functools.lru_cache keyed by what the arguments mean, not how they are passed.

lru_cache keys f(seeds, 10), f(seeds, max_epoch=10) and f(seeds=seeds) apart, so a figure that
asks for a result the lesson computed a cell earlier, in another spelling, computed it again
(20 s for the OCR curves of chapter 09). Here every call is bound to the signature, defaults
filled in, before the cache is looked up.
"""

import functools
import inspect


def cached(maxsize=128):
    def decorate(function):
        signature = inspect.signature(function)

        @functools.lru_cache(maxsize=maxsize)
        def compute(arguments):
            return function(**dict(arguments))

        @functools.wraps(function)
        def lookup(*args, **kwargs):
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            return compute(tuple(bound.arguments.items()))

        lookup.cache_info, lookup.cache_clear = compute.cache_info, compute.cache_clear
        return lookup
    return decorate
