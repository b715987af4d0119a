"""A test whose tool is missing (Chromium, axe-core, the hub's proxy, root): skipped on a
developer's machine, failed under CI (the CI environment variable set), where every test must run."""

import os

import pytest


def needs(condition, what, reason):
    """Go on when `condition` holds; else skip, or fail under CI naming `what` must run."""
    if condition:
        return
    if os.environ.get("CI"):
        pytest.fail(f"CI must run {what}, but {reason}")
    pytest.skip(reason)
