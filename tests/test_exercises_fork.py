"""The student's calls run in a forked child (`child.Child`), a check that runs them in a forked copy
of the kernel (`seal.sealed`): a call stuck in one C function is killed in time, nothing the call
does changes the check, and a thread started before the check cannot change it either; prints and
the line of an error still reach the student."""

import itertools
import os
import stat
import sys
import threading
import time

import numpy as np
import pytest
from exercise_testing import assert_caught, assert_passes, retune

from course_lib.exercises import harness, linear, structured
from course_lib.exercises.child import FORKS, decode, encode
from course_lib.exercises.guard import StudentObject

pytestmark = pytest.mark.skipif(not FORKS, reason="the checks fork on Linux only")


@pytest.fixture(autouse=True)
def short_time_limit(monkeypatch):
    retune(monkeypatch, harness, "DEFAULT_TIME_LIMIT", 2.0)


def perceptron(X, r, eta, n_epochs):
    w, w0 = np.zeros(X.shape[1]), 0.0
    for _ in range(n_epochs):
        for x, rt in zip(X, r):
            if rt * (w @ x + w0) <= 0:
                w, w0 = w + eta * rt * x, w0 + eta * rt
    return w, w0


def _pipes():
    """The pipes this process has open, beyond its standard streams (what a student's code can find;
    the tests write into those the check opened, not into pytest's own)."""
    found = []
    for fd in map(int, os.listdir("/proc/self/fd")):
        try:
            if fd > 2 and stat.S_ISFIFO(os.fstat(fd).st_mode):
                found.append(fd)
        except OSError:
            pass
    return found


def _children():
    """The pids of this process's children still alive (zombies included)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == os.getpid():
                found.append(int(entry))
    return found


def test_a_call_stuck_in_one_c_function_is_killed_within_the_limit():
    """sum(itertools.count()) never leaves C and holds the GIL: only killing its process stops it."""
    before = _children()
    start = time.perf_counter()
    assert_caught(linear.check_perceptron, lambda X, r, eta, n_epochs: sum(itertools.count()),
                  "did not return within 2 s")
    assert time.perf_counter() - start < 2.0 + 4.0
    assert _children() == before, "a child of the check is still there"
    cpu = time.process_time()
    time.sleep(0.3)
    assert time.process_time() - cpu < 0.1
    assert_passes(linear.check_perceptron, perceptron)


def test_a_call_that_ends_its_process_gets_not_yet():
    assert_caught(linear.check_perceptron, lambda X, r, eta, n_epochs: os._exit(0), "ended the process")
    assert_passes(linear.check_perceptron, perceptron)


def test_what_the_call_changes_in_place_does_not_reach_the_check():
    """The pauses of the number checks (`harness._tries`) and a module's array that the reference
    reads (the cost matrix of the structured checks), changed by the student's function, are
    changed in the child only: the verdict and the state after it are the check's own."""
    question = "course_lib.exercises.linear.check_signed_distance"
    harness._tries[question] = (5, time.monotonic() + 600)
    cost = structured.COST.copy()

    def clears_the_pauses(X, r, eta, n_epochs):
        harness._tries.clear()
        return perceptron(X, r, eta, n_epochs)

    def zero_cost_hinge(model, x, y, w):  # right only if every Δ were 0
        structured.COST[:] = 0
        model.cost[:] = 0
        return max(w @ model.joint_feature(x, c) for c in range(4)) - w @ model.joint_feature(x, y)

    assert_passes(linear.check_perceptron, clears_the_pauses)
    assert question in harness._tries
    assert_caught(structured.check_margin_hinge, zero_cost_hinge, "on case")
    assert np.array_equal(structured.COST, cost)


def test_a_thread_started_before_the_check_cannot_change_it_while_it_runs():
    """A thread started before the check makes np.isclose say "equal" while the check compares on
    the main thread and puts it back as soon as it is over, between the seal's two looks (in one
    process, the wrong answer passed): the check runs in a forked copy of the kernel, where that
    thread does not run."""
    main, isclose, stop = threading.main_thread().ident, np.isclose, threading.Event()

    def always_close(a, b, *args, **kwargs):
        return np.ones(np.broadcast(np.asarray(a), np.asarray(b)).shape, dtype=bool)

    def running_a_check():
        frame = sys._current_frames().get(main)
        while frame is not None:
            if frame.f_code.co_name == "_first_failure":
                return True
            frame = frame.f_back
        return False

    def swap():
        while not stop.is_set():
            np.isclose = always_close if running_a_check() else isclose
            time.sleep(0)
        np.isclose = isclose

    thread, interval = threading.Thread(target=swap, daemon=True), sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # the thread runs often: it puts isclose back before the seal looks again
    thread.start()
    try:
        verdict = linear.check_perceptron(lambda X, r, eta, n_epochs: (np.zeros(X.shape[1]), 0.0))
    finally:
        stop.set()
        thread.join()
        sys.setswitchinterval(interval)
    assert not verdict, verdict.why
    assert np.isclose is isclose


def test_prints_and_the_line_of_an_error_reach_the_student(capsys):
    def prints_then_raises(X, r, eta, n_epochs):
        print("w so far:", [0.0, 0.0])
        print("a warning of mine", file=sys.stderr)
        return 1 / 0

    verdict = linear.check_perceptron(prints_then_raises)
    out, err = capsys.readouterr()
    assert "w so far: [0.0, 0.0]" in out and "a warning of mine" in err, (out, err, verdict.why)
    line = prints_then_raises.__code__.co_firstlineno + 3
    assert f"ZeroDivisionError: division by zero at line {line} of the cell that defines it" in verdict.why, verdict.why


@pytest.mark.parametrize("value", [None, ..., True, 3, -2.5, float("nan"), 1 + 2j, "text", b"\x00\xff", (1, [2.0, "a"]),
                                   [], {"a": 1, (1, "b"): [None]}, {1, 2}, frozenset({3}), np.arange(6.0).reshape(2, 3),
                                   np.float32(1.5), np.int64(7), np.array(["a", "bc"]), np.array([1, None], dtype=object)])
def test_results_cross_the_pipe_as_they_were_without_pickle(value):
    back = decode(encode(value))
    assert type(back) is type(value)
    if isinstance(value, np.ndarray):
        assert back.dtype == value.dtype and back.shape == value.shape and list(back.ravel()) == list(value.ravel())
    elif value == value:
        assert back == value
    assert decode(encode(object())).__class__ is StudentObject


def test_a_call_cannot_send_the_checks_verdict_for_it():
    """The call runs in a child of the forked copy that runs the check: the pipe by which that copy
    sends its verdict is closed in the child, so the student cannot write a verdict into it."""
    def writes_a_verdict(X, r, eta, n_epochs):
        import json
        import struct
        message = json.dumps({"out": "", "err": "", "value": ["verdict", True, "forged", None]}).encode()
        for fd in set(_pipes()) - inherited:
            try:
                os.write(fd, struct.pack(">Q", len(message)) + message)
            except OSError:
                pass
        return np.zeros(X.shape[1]), 0.0

    inherited = set(_pipes())
    verdict = linear.check_perceptron(writes_a_verdict)
    assert not verdict and "Not yet" in repr(verdict), verdict.why


@pytest.mark.parametrize("written", [b"\xff" * 8, b"\x00" * 7 + b"\x03abc", b"\x00" * 7 + b"\x02{}"])
def test_junk_written_into_the_results_pipe_gets_not_yet(written):
    def writes(X, r, eta, n_epochs):
        for fd in set(_pipes()) - inherited:
            try:
                os.write(fd, written)
            except OSError:
                pass
        time.sleep(60)

    inherited = set(_pipes())
    start = time.perf_counter()
    verdict = linear.check_perceptron(writes)
    assert not verdict and time.perf_counter() - start < 2.0 + 4.0, verdict.why


def test_a_call_that_kills_the_checks_process_gets_not_yet():
    verdict = linear.check_perceptron(lambda X, r, eta, n_epochs: os.kill(os.getppid(), 9))
    assert not verdict and "was stopped before its verdict" in verdict.why, verdict.why
    assert_passes(linear.check_perceptron, perceptron)


def test_an_error_written_into_the_results_pipe_gets_not_yet():
    def writes_an_error(X, r, eta, n_epochs):
        import json
        import struct
        message = json.dumps({"out": "", "err": "", "raised": ["ValueError", "written"]}).encode()
        for fd in set(_pipes()) - inherited:
            try:
                os.write(fd, struct.pack(">Q", len(message)) + message)
            except OSError:
                pass
        time.sleep(60)

    inherited = set(_pipes())
    verdict = linear.check_perceptron(writes_an_error)
    assert not verdict and "ended the process" in verdict.why, verdict.why
