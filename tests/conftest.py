"""Fixtures shared by the tests that need the student's environment as a hub or Binder gets it."""

import subprocess
import tempfile
from pathlib import Path

import pytest

import student_image as image


@pytest.fixture(scope="session")
def student_image():
    """The environment repo2docker would build from a fresh clone of HEAD (tests/student_image.py),
    in a folder every user of the machine can read: pytest's own temporary folders are private."""
    base = Path(tempfile.mkdtemp(prefix="course-image-"))
    try:
        built = image.build(base)
        if built is None:
            pytest.skip("this machine has no Python of runtime.txt's version")
        yield built
    finally:  # removing a gigabyte of small files can take minutes here: not waited for
        subprocess.Popen(["rm", "-rf", str(base)], start_new_session=True)
