"""One BLAS thread inside the training loops of learners whose products are small.

The structured learners multiply matrices of a few hundred rows (working sets, Gram matrices,
one word's letters) thousands of times. A BLAS thread pool splits each such product between
cores, and the threads then spend more time waking up and waiting for each other than
computing: on the OCR letters, one-slack training took about six times the CPU time with
numpy's default two threads than with one, and its wall time followed. `one_blas_thread`
runs a function with the BLAS pool limited to one thread and restores the caller's setting
afterwards (threadpoolctl, which scikit-learn also uses for the same purpose).
"""

import functools

from threadpoolctl import ThreadpoolController

_controller = None


def _blas_controller():
    """The libraries loaded in this process, found once (numpy's BLAS is loaded by then)."""
    global _controller
    if _controller is None:
        _controller = ThreadpoolController()
    return _controller


def one_blas_thread(function):
    """Decorator: call `function` with the BLAS thread pool limited to one thread."""

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        with _blas_controller().limit(limits=1, user_api="blas"):
            return function(*args, **kwargs)

    return wrapper
