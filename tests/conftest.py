"""Fixtures shared by the tests: the student's environment as a hub or Binder gets it; checks that
take answers without pausing."""

import dataclasses
import fcntl
import json
import subprocess
import tempfile
from contextlib import contextmanager
from pathlib import Path

import pytest

import student_image as image
from course_lib.exercises import harness
from exercise_testing import retune


@pytest.fixture(autouse=True)
def answers_not_rationed(monkeypatch):
    """Tests answer a check wrong many times in a row on purpose: the pause that rations guesses
    (`harness.limited_tries`) is off, except where a test turns it on (`rationed` in
    tests/test_exercises_bypasses.py)."""
    retune(monkeypatch, harness, "WRONG_BEFORE_PAUSE", float("inf"))
    retune(monkeypatch, harness, "_tries", {})


@contextmanager
def _record(folder):
    """The shared record of the built environment, read and written under a lock: `make test`
    runs its tests in two processes (pytest-xdist), and the environment is built once for both."""
    with open(folder / "student-image.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        path = folder / "student-image.json"
        record = json.loads(path.read_text()) if path.exists() else {"image": None, "users": 0}
        yield record
        path.write_text(json.dumps(record))


@pytest.fixture(scope="session")
def student_image(tmp_path_factory, request):
    """The environment repo2docker would build from a fresh clone of HEAD (tests/student_image.py),
    in a folder every user of the machine can read: pytest's own temporary folders are private.
    Built once per `make test` whatever the number of test processes; the last process that
    used it removes it."""
    xdist_worker = hasattr(request.config, "workerinput")
    basetemp = tmp_path_factory.getbasetemp()
    folder = basetemp.parent if xdist_worker else basetemp  # the folder every worker shares
    with _record(folder) as record:
        if record["image"] is None and not record.get("unavailable"):
            base = Path(tempfile.mkdtemp(prefix="course-image-"))
            built = image.build(base)
            if built is None:
                subprocess.Popen(["rm", "-rf", str(base)], start_new_session=True)
                record["unavailable"] = True
            else:
                record["image"] = {k: str(v) if isinstance(v, Path) else v
                                   for k, v in dataclasses.asdict(built).items()}
                record["base"] = str(base)
        fields = record["image"]
        record["users"] += fields is not None
    if fields is None:
        pytest.skip("this machine has no Python of runtime.txt's version")
    try:
        yield image.StudentImage(Path(fields["clone"]), Path(fields["prefix"]), fields["env"],
                                 fields["library_path"])
    finally:
        with _record(folder) as record:
            record["users"] -= 1
            if record["users"] == 0:  # removing a gigabyte of small files takes minutes: not waited for
                subprocess.Popen(["rm", "-rf", record["base"]], start_new_session=True)
                record["image"] = None
