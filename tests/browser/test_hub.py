"""A class served by a real JupyterHub, as the README tells instructors to serve it.

On 127.0.0.1 only, started and stopped here:
  - a git server (`git daemon`) holding a clone of HEAD, standing in for GitHub;
  - JupyterHub with its configurable-http-proxy (tests/hub/: `make hub-deps` installs the
    proxy), the shared-password authenticator and the local process spawner: each student's
    server runs as that student's own Unix user, in their home, from the environment that
    repo2docker would build (tests/student_image.py);
  - three student accounts, made for the test and removed after it (this needs root, as CI
    has; elsewhere the test skips).

Then, in Chromium, each student opens the README's own nbgitpuller link: the chapter opens,
runs, and its slider redraws the figure. A student edits a cell; the instructor pushes an update
of the same chapter elsewhere and a new file; the link clicked again keeps the student's edit
and brings the update and the file, and a chapter a student deleted comes back fresh, as the
README promises. The README's class-mode link
opens the dashboard through the hub. No student can read another's files.
"""

import json
import os
import pwd
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

import psutil
import pytest

import notebook_checks as checks
from course_notebooks import ROOT
from prerequisites import needs
from servers import free_port

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]

PROXY = ROOT / "tests" / "hub" / "node_modules" / ".bin" / "configurable-http-proxy"
CONFIG = ROOT / "tests" / "hub" / "jupyterhub_config.py"
STUDENTS = ("course-student1", "course-student2", "course-student3")
PASSWORD = "the-class-password"
CHAPTER = "03_soft_margins.ipynb"
REPO = "course"  # the repository's name: the folder nbgitpuller makes in each home
README_LINK = re.compile(r"https://hub\.example\.edu/hub/user-redirect/git-pull\?\S+")
START_TIMEOUT = 180


def git(*args, cwd=None):
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout


def wait_for(url, timeout=START_TIMEOUT, process=None):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"{process.args[0]} exited with {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except OSError:
            time.sleep(0.5)
    raise TimeoutError(f"{url} did not answer within {timeout} s")


def stop(process):
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@pytest.fixture(scope="module")
def students():
    """Three Unix accounts with private homes, removed afterwards."""
    needs(os.geteuid() == 0, "the hub test", "making the students' Unix accounts needs root")
    needs(shutil.which("useradd") is not None, "the hub test", "useradd is missing")
    for name in STUDENTS:
        try:
            pwd.getpwnam(name)
        except KeyError:
            subprocess.run(["useradd", "--create-home", "--shell", "/bin/bash", name], check=True)
        home = Path(pwd.getpwnam(name).pw_dir)
        home.chmod(0o700)
        # The browser checks read every cell's prompt: Lab draws them all only without windowing.
        settings = home / ".jupyter" / "lab" / "user-settings" / "@jupyterlab" / "notebook-extension"
        settings.mkdir(parents=True, exist_ok=True)
        (settings / "tracker.jupyterlab-settings").write_text(json.dumps({"windowingMode": "none"}))
        subprocess.run(["chown", "-R", f"{name}:{name}", str(home)], check=True)
    yield STUDENTS
    for name in STUDENTS:
        subprocess.run(["pkill", "-u", name], check=False)
        subprocess.run(["userdel", "--remove", name], check=False, capture_output=True)


@pytest.fixture(scope="module")
def origin():
    """The course's repository on a local git server: (clone URL, instructor's working copy)."""
    base = Path(tempfile.mkdtemp(prefix="course-origin-"))
    base.chmod(0o755)
    served = base / "served" / REPO
    git("clone", "--quiet", "--bare", str(ROOT), str(served))
    head = git("rev-parse", "HEAD", cwd=ROOT).strip()
    git("update-ref", "refs/heads/main", head, cwd=served)  # main is what the HEAD under test is
    git("symbolic-ref", "HEAD", "refs/heads/main", cwd=served)
    subprocess.run(["chmod", "-R", "a+rX", str(base)], check=True)
    port = free_port()
    daemon = subprocess.Popen(["git", "daemon", "--reuseaddr", "--export-all", f"--base-path={base / 'served'}",
                               "--listen=127.0.0.1", f"--port={port}", str(base / "served")],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"git://127.0.0.1:{port}/{REPO}"
    instructor = base / "instructor"
    try:
        deadline = time.monotonic() + 30
        while subprocess.run(["git", "ls-remote", url], capture_output=True).returncode != 0:
            assert time.monotonic() < deadline and daemon.poll() is None, "git daemon did not start"
            time.sleep(0.3)
        git("clone", "--quiet", "--branch", "main", str(served), str(instructor))
        git("config", "user.name", "Instructor", cwd=instructor)
        git("config", "user.email", "instructor@example.edu", cwd=instructor)
        yield url, instructor
    finally:
        stop(daemon)
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="module")
def hub(students, origin, student_image):
    """JupyterHub on a free local port; yields its public URL."""
    needs(PROXY.exists(), "the hub test", f"{PROXY} is missing: `make hub-deps` installs it (npm)")
    needs(shutil.which("git") is not None, "the hub test", "git is missing")
    state = Path(tempfile.mkdtemp(prefix="course-hub-"))  # private: the hub refuses a readable secret
    port = free_port()
    while any(_in_use(p) for p in (port + 1, port + 2)):
        port = free_port()
    env = dict(os.environ, COURSE_HUB_DIR=str(state), COURSE_HUB_PORT=str(port), COURSE_HUB_PROXY=str(PROXY),
               COURSE_HUB_ENV=str(student_image.prefix), COURSE_HUB_USERS=",".join(students),
               COURSE_HUB_PASSWORD=PASSWORD, COURSE_HUB_LIBRARY_PATH=student_image.library_path)
    log = open(state / "hub.log", "w")
    process = subprocess.Popen([str(Path(sys.executable).parent / "jupyterhub"), "-f", str(CONFIG)],
                               cwd=state, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for(f"{url}/hub/login", process=process)
        yield url
    finally:
        stop(process)
        log.close()
        text = (state / "hub.log").read_text(errors="replace")
        shutil.rmtree(state, ignore_errors=True)
        if process.returncode not in (0, -15, None):
            print(text[-5000:])


def _in_use(port):
    import socket

    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def readme_link(base_url, clone_url, urlpath=None):
    """The README's nbgitpuller link, pointed at this hub and this git server."""
    found = README_LINK.findall((ROOT / "README.md").read_text(encoding="utf-8"))
    assert found, "the README gives no nbgitpuller link"
    parts = urllib.parse.urlsplit(found[0])
    query = dict(urllib.parse.parse_qsl(parts.query))
    assert {"repo", "branch", "urlpath"} <= set(query), query
    readme_repo = query["repo"].rstrip("/").rsplit("/", 1)[-1]
    query["repo"] = clone_url
    query["urlpath"] = urlpath or query["urlpath"].replace(readme_repo, REPO, 1)
    return f"{base_url}{parts.path}?{urllib.parse.urlencode(query)}"


@pytest.fixture(scope="module")
def logins(chromium, hub):
    """One browser per student (each with its own cookies), logged in."""
    browser = chromium.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                       args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                                             "--disable-component-update", "--no-first-run", "--disable-quic"])
    pages = {}
    for name in STUDENTS:
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        context.set_default_timeout(checks.RUN_TIMEOUT * 1000)
        page = context.new_page()
        page.goto(f"{hub}/hub/login")
        page.fill("#username_input", name)
        page.fill("#password_input", PASSWORD)
        page.click("#login_submit")
        page.wait_for_url(re.compile(r".*/(hub/(home|spawn-pending/.*)|user/.*)$"), timeout=START_TIMEOUT * 1000)
        pages[name] = page
    yield pages
    browser.close()


def home_of(name):
    return Path(pwd.getpwnam(name).pw_dir)


def open_link(page, link):
    page.goto(link)
    page.wait_for_selector(f"{checks.PANEL} .jp-Notebook", timeout=START_TIMEOUT * 1000)
    return checks.wait_until_settled(page, checks.KERNEL_TIMEOUT, quiet=2.0)


def slider_redraws(page):
    """Press End on the first demo's first slider: does its figure change?"""
    demo = page.locator(".course-demo").first
    image = demo.locator(".course-figure").first
    before = image.get_attribute("src")
    handle = demo.locator(".noUi-handle").first
    handle.focus()
    handle.press("End")
    return checks._wait(lambda: image.get_attribute("src") != before, checks.REDRAW_TIMEOUT)


def test_three_students_open_the_readme_link_and_the_chapter_runs(logins, hub, origin):
    clone_url, _ = origin
    link = readme_link(hub, clone_url, f"lab/tree/{REPO}/notebooks/{CHAPTER}")
    for name, page in logins.items():
        assert open_link(page, link), f"{name}: the kernel did not settle"
        assert f"/user/{name}/lab" in page.url, page.url
        problems = checks.run_all(page) + checks.cells_not_run(page) + checks.output_problems(page)
        problems += checks.demo_problems(page)
        assert problems == [], f"{name}: {problems}"
        assert slider_redraws(page), f"{name}: moving the C slider did not redraw the figure"
        assert (home_of(name) / REPO / "notebooks" / CHAPTER).exists()
        owner = pwd.getpwuid((home_of(name) / REPO).stat().st_uid).pw_name
        assert owner == name, f"{name}'s copy belongs to {owner}"


def _api(page, base, method, path, body=None):
    """A call to the student's own Jupyter server, with the browser's cookies."""
    xsrf = next((c["value"] for c in page.context.cookies() if c["name"] == "_xsrf"), "")
    response = page.request.fetch(f"{base}{path}", method=method, headers={"X-XSRFToken": xsrf},
                                  data=json.dumps(body) if body is not None else None)
    return response


def test_the_link_again_keeps_the_students_edit_and_brings_the_update(logins, hub, origin, students):
    clone_url, instructor = origin
    link = readme_link(hub, clone_url, f"lab/tree/{REPO}/notebooks/{CHAPTER}")
    editor, untouched, restarter = students
    page = logins[editor]
    for name in students:  # all have pulled the course once, then leave JupyterLab (whose
        if not (home_of(name) / REPO).exists():  # autosave would write the open tab back)
            open_link(logins[name], link)
        logins[name].goto(f"{hub}/hub/home")
    # One student deletes the chapter, to start it over (the README: it comes back fresh).
    subprocess.run(["su", restarter, "-c", f"rm {home_of(restarter) / REPO / 'notebooks' / CHAPTER}"], check=True)
    # The student edits the first code cell of the chapter and saves (through Jupyter's own API).
    path = f"/user/{editor}/api/contents/{REPO}/notebooks/{CHAPTER}"
    model = _api(page, hub, "GET", path).json()
    cells = model["content"]["cells"]
    first_code = next(i for i, c in enumerate(cells) if c["cell_type"] == "code")
    student_line = "# my own note: C trades margin width against slack"
    cells[first_code]["source"] = student_line + "\n" + "".join(cells[first_code]["source"])
    saved = _api(page, hub, "PUT", path, {"type": "notebook", "format": "json", "content": model["content"]})
    assert saved.ok, saved.text()
    # The instructor changes the last markdown cell of the same chapter and adds a file.
    chapter = instructor / "notebooks" / CHAPTER
    notebook = json.loads(chapter.read_text(encoding="utf-8"))
    last_markdown = max(i for i, c in enumerate(notebook["cells"]) if c["cell_type"] == "markdown")
    update_line = "Update from the instructor: read section 6.4 again before the lab."
    source = notebook["cells"][last_markdown]["source"]
    notebook["cells"][last_markdown]["source"] = ([source] if isinstance(source, str) else source) + ["\n\n", update_line]
    chapter.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    (instructor / "notebooks" / "announcements.md").write_text("# Announcements\n\nQuiz on Friday.\n")
    git("add", "-A", cwd=instructor)
    git("commit", "--quiet", "-m", "Chapter 03: a reading note; announcements", cwd=instructor)
    git("push", "--quiet", "origin", "main", cwd=instructor)
    for name in students:
        assert open_link(logins[name], link)
        copy = home_of(name) / REPO / "notebooks"
        text = (copy / CHAPTER).read_text(encoding="utf-8")
        assert update_line in text, f"{name}: the instructor's update did not arrive"
        assert (copy / "announcements.md").exists(), f"{name}: the new file did not arrive"
        assert (student_line in text) == (name == editor), f"{name}: the student's edit was not kept as it was"
        if name == restarter:
            assert text == chapter.read_text(encoding="utf-8"), "a deleted chapter must come back as the instructor's"


def test_the_readme_class_mode_link_shows_the_dashboard_through_the_hub(logins, hub, origin, students):
    clone_url, _ = origin
    name = students[2]
    page = logins[name]
    if not (home_of(name) / REPO).exists():
        open_link(page, readme_link(hub, clone_url, f"lab/tree/{REPO}/notebooks/{CHAPTER}"))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    voila = re.search(r"urlpath=(voila%2Frender%2F\S+?\.ipynb)", readme)
    assert voila, "the README gives no class-mode urlpath for the hub"
    urlpath = urllib.parse.unquote(voila.group(1)).replace("REPO/", f"{REPO}/", 1)
    page.goto(readme_link(hub, clone_url, urlpath), wait_until="load", timeout=checks.RUN_TIMEOUT * 1000)
    assert checks._wait(lambda: page.locator(".course-demo .course-figure").count() > 0, checks.RUN_TIMEOUT)
    assert f"/user/{name}/voila/render/" in page.url
    assert checks.output_problems(page, checks.VOILA_ROOT) == []
    assert checks.code_problems(page) == []


def test_students_cannot_read_or_change_each_others_files(logins, hub, students):
    me, other = students[0], students[1]
    # Through the hub: one student's login does not open another's server.
    response = logins[me].request.get(f"{hub}/user/{other}/api/contents", max_redirects=0)
    assert response.status in (302, 403, 404) and "content" not in response.text()[:200], response.status
    # On the machine: the servers run as the students themselves, and homes are private.
    owners = []
    for process in psutil.process_iter(["username", "cmdline"]):
        if any(part.endswith("jupyterhub-singleuser") for part in process.info["cmdline"] or ()):
            owners.append(process.info["username"])
    assert sorted(set(owners)) == sorted(students), f"single-user servers run as {owners}"
    target = home_of(other) / REPO / "notebooks" / CHAPTER
    for attempt in (f"cat {target}", f"touch {home_of(other)}/intruder", f"ls {home_of(other)}"):
        result = subprocess.run(["su", me, "-c", attempt], capture_output=True, text=True)
        assert result.returncode != 0 and "Permission denied" in result.stderr, (attempt, result)
