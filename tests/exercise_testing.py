"""Helpers for the tests of exercise checks (`course_lib.exercises`).

Each helper takes `check`, a function of ONE argument returning a Verdict: the check itself
(`ex.check_gram`) or a lambda fixing the other arguments (`lambda a: ex.check_update(a, w0)`).

    from exercise_testing import assert_passes, assert_caught, assert_junk_never_raises, assert_no_answer_leak

    assert_passes(ex.check_gram, solution)
    assert_caught(ex.check_gram, lambda X, sigma: -solution(X, sigma), "differ")  # off by a sign
    assert_caught(ex.check_gram, library_gram, "write it yourself")               # forbidden call
    assert_junk_never_raises(ex.check_gram)
    assert_no_answer_leak(ex.check_value, 3.0, number_strings(2.8))
    assert_stops_a_function_that_never_returns(ex.check_gram)
    retune(monkeypatch, harness, "DEFAULT_TIME_LIMIT", 2.0)                       # a setting, for one test
"""

import contextlib
import io
import time

import numpy as np
import pytest

import course_lib.exercises.linear  # noqa: F401  (the checks' modules recorded before a test retunes one)
from course_lib.exercises import Verdict, harness, seal


def retune(monkeypatch, module, name, value):
    """`module.name = value` for one test (a time limit, the pause between guesses, a spy on the
    cases), with the checks' record of it (`seal`): the checks refuse to run once what they rely on
    differs from the record."""
    monkeypatch.setattr(module, name, value)
    mapping = vars(module)
    slots = _Slots(seal._record.values)  # changed in place: a module first seen during the test is
    for i, (getter, key) in enumerate(zip(seal._record.getters, seal._record.names)):  # recorded in the same list
        if getter == mapping.get and key == name:
            monkeypatch.setitem(slots, i, value)


class _Slots:
    """A list seen as monkeypatch.setitem sees a dict, so that an entry is set and put back in
    place: replacing the record's whole list of values for a test dropped what the record appended
    to it meanwhile (a module imported during the test), and later checks read a misaligned record."""

    def __init__(self, items):
        self.items = items

    def get(self, index, default=None):
        return self.items[index]

    def __setitem__(self, index, value):
        self.items[index] = value


def _raises(*args, **kwargs):
    raise RuntimeError("a student's bug")


class _Junk:
    def __repr__(self):
        raise RuntimeError("a repr that fails")


JUNK_VALUES = (None, ..., "abc", "", float("nan"), float("inf"), np.zeros((7, 3)), np.array([]), 3, -1,
               [1, 2], (1, "a"), {}, True, 1j, _Junk(), object, print)

JUNK_FUNCTIONS = (
    _raises,
    lambda *args, **kwargs: None,
    lambda *args, **kwargs: ...,
    lambda *args, **kwargs: "abc",
    lambda *args, **kwargs: float("nan"),
    lambda *args, **kwargs: np.zeros((7, 3)),
    lambda *args, **kwargs: np.full((7, 3), np.nan),
    lambda *args, **kwargs: np.array([]),
    lambda *args, **kwargs: (1, 2, 3),
    lambda *args, **kwargs: {"a": 1},
    lambda *args, **kwargs: [None],
    lambda *args, **kwargs: _Junk(),
    lambda *args, **kwargs: object(),
    lambda: 1,  # takes no arguments
    lambda x: x,  # takes one positional argument
)


def run(check, answer):
    """(verdict, everything shown: its repr, its Markdown and what the check printed)."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        verdict = check(answer)
    assert isinstance(verdict, Verdict), f"the check returned {type(verdict).__name__}, not a Verdict"
    return verdict, "\n".join((repr(verdict), verdict._repr_markdown_(), printed.getvalue()))


def assert_passes(check, answer):
    """The check accepts a correct answer."""
    verdict, text = run(check, answer)
    assert verdict.correct, f"a correct answer was refused: {text}"
    return verdict


def assert_caught(check, wrong, expected_fragment):
    """The check refuses `wrong`, and says so with `expected_fragment` (case-insensitive)."""
    verdict, text = run(check, wrong)
    assert not verdict.correct, f"a wrong answer passed: {text}"
    assert text.lower().startswith("not yet"), text
    assert expected_fragment.lower() in text.lower(), f"{expected_fragment!r} is not in: {text}"
    return verdict


def assert_junk_never_raises(check, extra=()):
    """None, `...`, text, NaN, wrong shapes, non-functions and functions that raise or return
    junk: each gets a "Not yet" Verdict, no exception, and renders."""
    for junk in JUNK_VALUES + JUNK_FUNCTIONS + tuple(extra):
        try:
            verdict, text = run(check, junk)
        except Exception as error:  # the helper's point: report which junk broke the check
            raise AssertionError(f"the check raised {type(error).__name__}: {error} on {junk!r:.80}") from error
        assert not verdict.correct, f"junk passed: {junk!r:.80} -> {text}"
        assert "Traceback" not in text, text


def assert_no_answer_leak(check, wrong, answer_strings):
    """Nothing the check shows for the wrong answer contains any of `answer_strings`."""
    verdict, text = run(check, wrong)
    assert not verdict.correct, f"a wrong answer passed: {text}"
    leaked = [s for s in answer_strings if s in text]
    assert not leaked, f"the answer {leaked} is shown for a wrong attempt: {text}"
    return verdict


def number_strings(value):
    """The ways a number would likely be printed: '2.8', '2.80', '2.800', '2.8000'."""
    value = float(value)
    forms = {f"{value:g}", f"{value:.2f}", f"{value:.3f}", f"{value:.4f}", f"{value:.6g}", repr(value)}
    if value.is_integer():
        forms.add(str(int(value)))
    return sorted(forms)


def assert_quiz_well_formed(choices, quiz):
    """3 to 5 choices, exactly one right, each with an explanation; the quiz accepts the right
    choice and refuses another."""
    assert 3 <= len(choices) <= 5 and sum(c.correct for c in choices) == 1
    assert all(len(c.explanation) > 20 for c in choices)
    right = next(i for i, c in enumerate(choices) if c.correct)
    assert quiz.check(right).correct
    assert not quiz.check((right + 1) % len(choices)).correct


def _never_returns(*args, **kwargs):
    while True:
        pass


def assert_stops_a_function_that_never_returns(check, limit=0.3):
    """A student's function that loops forever gets "did not return within" quickly (the time
    limit lowered to `limit` seconds for the test)."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        retune(monkeypatch, harness, "DEFAULT_TIME_LIMIT", limit)
        start = time.perf_counter()
        verdict = assert_caught(check, _never_returns, "did not return within")
        assert time.perf_counter() - start < 20 * limit + 5, "the check waited far beyond its time limit"
    return verdict
