"""JupyterLab and Voila servers for the browser tests, each in its own process with its own
temporary configuration, runtime, workspace and settings folders, stopped by its own handle."""

import contextlib
import functools
import http.server
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

START_TIMEOUT = 90  # seconds for a server to answer its first request
PROJECT = Path(__file__).resolve().parents[2]
# The project's Jupyter settings and templates (as `make lab` and `make class` use them),
# before any search path already set (e.g. where an optional extension such as ipyevents lives).
PROJECT_CONFIG_PATH = str(PROJECT / "etc" / "jupyter")
PROJECT_DATA_PATH = str(PROJECT / "share" / "jupyter")
STOP_TIMEOUT = 15  # seconds to wait after terminate before kill

# Lab's user settings for the tests: every cell stays in the page (no windowing, so the checks
# see all outputs), and no news or update pop-up covers the notebook.
LAB_SETTINGS = {
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "checkForUpdates": False, "fetchNews": "false"},
}


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """A server process started in `cwd` with `args`; `url` is its base URL."""

    def __init__(self, args, port, home, probe):
        self.url = f"http://127.0.0.1:{port}"
        self.log_path = home / "server.log"
        env = dict(os.environ)
        env.update(
            JUPYTER_CONFIG_DIR=str(home / "config"),
            JUPYTER_RUNTIME_DIR=str(home / "runtime"),
            JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"),
            JUPYTERLAB_SETTINGS_DIR=str(home / "settings"),
            IPYTHONDIR=str(home / "ipython"),
            MPLCONFIGDIR=str(home / "matplotlib"),
            PYTHONDONTWRITEBYTECODE="1",
            JUPYTER_CONFIG_PATH=os.pathsep.join(filter(None, [PROJECT_CONFIG_PATH, os.environ.get("JUPYTER_CONFIG_PATH")])),
            JUPYTER_PATH=os.pathsep.join(filter(None, [PROJECT_DATA_PATH, os.environ.get("JUPYTER_PATH")])),
        )
        self._log = open(self.log_path, "wb")
        self.process = subprocess.Popen(args, cwd=home, env=env, stdout=self._log, stderr=subprocess.STDOUT)
        self._wait_until_answering(self.url + probe)

    def _wait_until_answering(self, url):
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self.stop()
                raise RuntimeError(f"server exited with {self.process.returncode}:\n{self.log()}")
            try:
                with urllib.request.urlopen(url, timeout=5):
                    return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.3)
        self.stop()
        raise RuntimeError(f"server did not answer {url} within {START_TIMEOUT} s:\n{self.log()}")

    def log(self, last=4000):
        return self.log_path.read_text(errors="replace")[-last:]

    def api(self, method, path):
        request = urllib.request.Request(self.url + path, method=method)
        with urllib.request.urlopen(request, timeout=30) as response:
            body = response.read()
        return json.loads(body) if body else None

    def shutdown_kernels(self):
        """Close every session and kernel (between notebooks, so they do not pile up)."""
        for session in self.api("GET", "/api/sessions"):
            self.api("DELETE", f"/api/sessions/{session['id']}")
        for kernel in self.api("GET", "/api/kernels"):
            self.api("DELETE", f"/api/kernels/{kernel['id']}")

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=STOP_TIMEOUT)
        self._log.close()


def _prepare_home(home):
    for name in ("config", "runtime", "workspaces", "settings", "ipython", "matplotlib"):
        (home / name).mkdir(parents=True, exist_ok=True)
    for relative, values in LAB_SETTINGS.items():
        path = home / "settings" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))


def start_lab(root, home):
    """JupyterLab on a free local port serving `root`, no token, no browser."""
    home = Path(home)
    _prepare_home(home)
    port = free_port()
    args = [
        sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root",
        "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
        "--IdentityProvider.token=", "--ServerApp.password=", "--ServerApp.disable_check_xsrf=True",
        f"--ServerApp.root_dir={root}",
        f"--LabApp.workspaces_dir={home / 'workspaces'}",
        f"--LabApp.user_settings_dir={home / 'settings'}",
        "--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]
    return Server(args, port, home, "/api/status")


def start_voila(root, home, extra=()):
    """Voila on a free local port serving `root` (a folder of notebooks, or one notebook as
    `make class` does) as dashboards with the class-mode template; `extra`: more options."""
    home = Path(home)
    _prepare_home(home)
    port = free_port()
    args = [
        sys.executable, "-m", "voila", str(root), "--no-browser", f"--port={port}",
        "--Voila.ip=127.0.0.1", "--show_tracebacks=True", "--template=course", *extra,
    ]
    return Server(args, port, home, "/voila/static/voila.js")  # answers without running a notebook


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@contextlib.contextmanager
def serve_folder(folder):
    """A static folder (a built site) over local HTTP on a free port, in a thread; yields its
    base URL. The tests' browser refuses file:// and Pagefind needs a server."""
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
