"""Fixtures of the browser tests: one JupyterLab server and one headless Chromium for the
session, a fresh page per notebook.

The servers work on a temporary copy of notebooks/ (and of the test fixtures), so nothing the
browser does (autosave, checkpoints, workspaces, settings) can touch the project's files.
Chromium is Debian's (/usr/bin/chromium, installed by `make browser-deps`), never a
downloaded one. Without it the tests skip, except under CI (the CI variable set), where a
skip would hide the browser tests, so they fail instead.
"""

import re
import shutil
import time
from pathlib import Path

import pytest

import servers
from course_notebooks import FIXTURES, NOTEBOOKS, ROOT
from prerequisites import needs

ARTIFACTS = ROOT / "test-artifacts" / "browser"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
PAGE_TIMEOUT_MS = 60_000

# The fixture notebooks are run by the browser tests only, never by nbval (some fail on purpose).
collect_ignore_glob = ["fixtures/*"]

DURATIONS = {}  # test id -> seconds, printed at the end of the session


def _ignore_checkpoints(directory, names):
    return [name for name in names if name in (".ipynb_checkpoints", "__pycache__")]


@pytest.fixture(scope="session")
def served_root(tmp_path_factory):
    """A temporary copy of notebooks/ and of the fixtures, the root both servers serve."""
    root = tmp_path_factory.mktemp("served")
    if NOTEBOOKS.is_dir():
        shutil.copytree(NOTEBOOKS, root / "notebooks", ignore=_ignore_checkpoints)
    else:
        (root / "notebooks").mkdir()
    shutil.copytree(FIXTURES, root / "fixtures", ignore=_ignore_checkpoints)
    if (ROOT / "figures").is_dir():  # for notebooks that show ../figures/*.png
        shutil.copytree(ROOT / "figures", root / "figures")
    return root


@pytest.fixture(scope="session")
def chromium():
    needs(CHROMIUM.exists(), "the browser tests",
          f"{CHROMIUM} is missing: `make browser-deps` (as root) or `sudo apt-get install chromium`")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def browser(chromium, tmp_path_factory):
    """One headless Chromium with a fresh profile for the whole session, offline: requests to
    anything but the local servers are refused, so the pages must work without a network."""
    context = chromium.chromium.launch_persistent_context(
        str(tmp_path_factory.mktemp("chromium-profile")), executable_path=str(CHROMIUM),
        headless=True, args=CHROMIUM_ARGS, viewport={"width": 1400, "height": 1000},
    )
    context.route(re.compile(r"^(?!https?://127\.0\.0\.1[:/]|data:|blob:)"), lambda route: route.abort())
    context.set_default_timeout(PAGE_TIMEOUT_MS)
    context.set_default_navigation_timeout(PAGE_TIMEOUT_MS)
    yield context
    context.close()


@pytest.fixture(scope="session")
def lab(browser, served_root, tmp_path_factory):
    server = servers.start_lab(served_root, tmp_path_factory.mktemp("lab-home"))
    yield server
    server.stop()


@pytest.fixture(scope="session")
def voila(browser, served_root, tmp_path_factory):
    server = servers.start_voila(served_root, tmp_path_factory.mktemp("voila-home"))
    yield server
    server.stop()


@pytest.fixture
def page(browser, request):
    """A fresh page; on a failed test its screenshot goes to test-artifacts/browser/."""
    page = browser.new_page()
    console = []
    page.on("console", lambda m: console.append(f"{m.type}: {m.text[:300]}") if m.type == "error" else None)
    page.on("pageerror", lambda error: console.append(f"page error: {error}"))
    start = time.perf_counter()
    yield page
    DURATIONS[request.node.name] = time.perf_counter() - start
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        print("browser console errors:", *console, sep="\n  ")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        name = "".join(c if c.isalnum() or c in "-_." else "_" for c in request.node.name)
        try:
            page.screenshot(path=str(ARTIFACTS / f"{name}.png"), timeout=15_000)
        except Exception as error:  # a screenshot must not hide the real failure
            print(f"screenshot of {name} failed: {error}")
    page.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call":
        item.report_call = report
    return report


def pytest_terminal_summary(terminalreporter):
    if DURATIONS:
        terminalreporter.section("browser tests: seconds per notebook (open, run all, checks)")
        for name, seconds in DURATIONS.items():
            terminalreporter.write_line(f"{seconds:7.1f} s  {name}")
