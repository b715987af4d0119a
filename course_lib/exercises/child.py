"""Code run in a forked child process, its results brought back as plain data, never pickled.

`Child(work)` forks; the child runs `work(send)` and exits (`os._exit`: nothing of the parent's,
its buffers, its threads or the kernel's sockets, is touched there); each `send(value)` crosses a
pipe with what the child printed meanwhile, which `receive(seconds)` prints again in the parent.
Past `seconds`, `receive` raises `TimeLimit`; `stop()` kills the child (SIGKILL, with the process it
started in turn: a child is the leader of its own process group) and waits for it. Nothing the child
does changes the parent's memory, and a child stuck in one C function is killed like any other.

What crosses: None, `...`, booleans, numbers, strings, bytes, tuples, lists, dicts, sets, NumPy
arrays and scalars (`np.save` / `np.load` with allow_pickle=False), a `Verdict`; an object of any
other kind crosses as a `StudentObject` (its kind and its text), which equals nothing. An exception
raised by `work` crosses as its type's name and message, raised again in the parent (as that
built-in type, or RuntimeError).

    child = Child(lambda send: [send(f(**case)) for case in cases])
    try:
        results = [child.receive(5.0) for _ in cases]
    finally:
        child.stop()
"""

import base64
import builtins
import gc
import io
import json
import os
import select
import signal
import struct
import sys
import time

import numpy as np

from course_lib.exercises import Verdict
from course_lib.exercises.guard import StudentObject, TimeLimit

__all__ = ["FORKS", "Child", "ChildEnded", "decode", "encode", "in_a_child"]

# Linux: where a process with threads (the kernel's) can be forked safely for computing alone
# (macOS's system libraries may not be, and Windows has no fork); elsewhere the checks run here.
FORKS = hasattr(os, "fork") and sys.platform.startswith("linux")

_HEADER = struct.Struct(">Q")  # the length of each message
_FORK, _PIPE, _KILL, _KILLPG, _WAITPID = os.fork, os.pipe, os.kill, os.killpg, os.waitpid
# in a child: a child it starts stays in its process group, and does not keep the pipe to this
# child's parent (it could send there what this child did not compute)
_here = {"in_a_child": False, "pipe_to_parent": None}


class ChildEnded(Exception):
    """The child ended (or closed its pipe) before sending what was asked, or sent what is no message."""


def encode(value, depth=0):
    """`value` as JSON-ready data: lists tag every kind JSON does not have (tuples among them)."""
    if value is None or isinstance(value, (bool, str)) or type(value) in (int, float):
        return value
    if depth > 50:
        return ["object", type(value).__name__, "..."]
    if value is Ellipsis:
        return ["ellipsis"]
    if isinstance(value, StudentObject):
        return ["object", value.kind, value.text]
    if isinstance(value, Verdict):
        return ["verdict", value.correct, encode(value.why, depth + 1), encode(value._hint, depth + 1)]
    if isinstance(value, (np.ndarray, np.generic)) and np.asarray(value).dtype != object:
        buffer = io.BytesIO()
        np.save(buffer, np.asarray(value), allow_pickle=False)
        return ["array" if isinstance(value, np.ndarray) else "scalar", base64.b64encode(buffer.getvalue()).decode()]
    if isinstance(value, np.ndarray):
        return ["objects", list(value.shape), [encode(item, depth + 1) for item in value.ravel()]]
    for kind in (int, float, str, bytes, complex):  # subclasses of the built-in types
        if isinstance(value, kind):
            value = kind(value)
            break
    if isinstance(value, (int, float, str)):
        return value
    if isinstance(value, complex):
        return ["complex", value.real, value.imag]
    if isinstance(value, bytes):
        return ["bytes", base64.b64encode(value).decode()]
    kind = next((name for name, types in (("tuple", tuple), ("list", list), ("set", set), ("frozenset", frozenset))
                 if isinstance(value, types)), None)
    if kind is not None:
        return [kind, [encode(item, depth + 1) for item in value]]
    if isinstance(value, dict):
        return ["dict", [[encode(k, depth + 1), encode(v, depth + 1)] for k, v in value.items()]]
    return ["object", *_described(value)]


def _described(value):
    seen = StudentObject(value)
    return seen.kind, seen.text


def decode(data):
    """The value `encode` gave `data` for."""
    if not isinstance(data, list):
        return data
    kind, rest = data[0], data[1:]
    if kind == "ellipsis":
        return Ellipsis
    if kind == "object":
        return StudentObject.described(*rest)
    if kind == "verdict":
        return Verdict(rest[0], decode(rest[1]), decode(rest[2]))
    if kind in ("array", "scalar"):
        array = np.load(io.BytesIO(base64.b64decode(rest[0])), allow_pickle=False)
        return array if kind == "array" else array[()]
    if kind == "objects":
        array = np.empty(len(rest[1]), dtype=object)
        for index, item in enumerate(rest[1]):
            array[index] = decode(item)
        return array.reshape(rest[0])
    if kind == "complex":
        return complex(*rest)
    if kind == "bytes":
        return base64.b64decode(rest[0])
    if kind == "dict":
        return {decode(k): decode(v) for k, v in rest[0]}
    return {"tuple": tuple, "list": list, "set": set, "frozenset": frozenset}[kind](decode(item) for item in rest[0])


class Child:
    """`work(send)` run in a forked child; `receive` gives what it sends, in order."""

    def __init__(self, work):
        for stream in (sys.stdout, sys.stderr):  # what the parent printed is printed once, by the parent
            try:
                stream.flush()
            except Exception:
                pass
        read, write = _PIPE()
        self.group = not _here["in_a_child"]
        pid = _FORK()
        if pid == 0:
            os.close(read)
            _run_the_child(work, write, self.group)
        os.close(write)
        self.pid, self.fd, self.buffer = pid, read, b""

    def receive(self, seconds=None):
        """The next value the child sent (what it printed meanwhile printed here); TimeLimit past
        `seconds` (None: no limit), ChildEnded when it ended first."""
        deadline = None if seconds is None else time.monotonic() + seconds
        header = self._read(_HEADER.size, deadline)
        try:  # (what a student's code in the child wrote into the pipe itself may be anything)
            message = json.loads(self._read(_HEADER.unpack(header)[0], deadline).decode())
            out, err = str(message["out"]), str(message["err"])
            value = None if "raised" in message else decode(message["value"])
        except (ValueError, TypeError, KeyError, IndexError, AttributeError) as error:
            raise ChildEnded() from error
        sys.stdout.write(out)
        sys.stderr.write(err)
        if "raised" in message:
            name, text = message["raised"]
            kind = getattr(builtins, name, None)
            raise (kind if isinstance(kind, type) and issubclass(kind, Exception) else RuntimeError)(text)
        return value

    def _read(self, size, deadline):
        while len(self.buffer) < size:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not select.select([self.fd], [], [], left)[0]:
                raise TimeLimit()
            chunk = os.read(self.fd, 1 << 16)
            if not chunk:
                raise ChildEnded()
            self.buffer += chunk
        data, self.buffer = self.buffer[:size], self.buffer[size:]
        return data

    def stop(self):
        """Kill the child (and the processes of its group) and wait for it."""
        try:
            (_KILLPG if self.group else _KILL)(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        _WAITPID(self.pid, 0)
        os.close(self.fd)


def _run_the_child(work, fd, group):
    """In the child: run work(send), then exit, whatever happens."""
    try:
        if _here["pipe_to_parent"] is not None:
            os.close(_here["pipe_to_parent"])
        _here["in_a_child"], _here["pipe_to_parent"] = True, fd
        if group:
            os.setpgid(0, 0)  # the parent's interrupt (to its group) does not reach here; stop() kills the group
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        gc.disable()  # a finalizer of the parent's objects (a socket of the kernel's) never runs here
        sys.stdout, sys.stderr = io.StringIO(), io.StringIO()

        def send(value=None, raised=None):
            message = {"out": sys.stdout.getvalue(), "err": sys.stderr.getvalue()}
            if raised is None:
                message["value"] = encode(value)
            else:
                message["raised"] = raised
            sys.stdout.seek(0), sys.stdout.truncate(), sys.stderr.seek(0), sys.stderr.truncate()
            data = json.dumps(message).encode()
            data = _HEADER.pack(len(data)) + data
            while data:
                data = data[os.write(fd, data):]

        try:
            work(send)
        except Exception as error:
            send(raised=(type(error).__name__, str(error)))
    finally:
        os._exit(0)


def in_a_child(fn):
    """fn() run in a forked child, its value (or its exception) given back here."""
    child = Child(lambda send: send(fn()))
    try:
        return child.receive()
    finally:
        child.stop()
