"""Class mode gives back the kernel of a page that was left.

Voila runs a kernel per page. When a page is closed or reloaded, Voila 0.5's own shutdown request
is refused (its beacon carries no XSRF token), so without more every reload of a projected
chapter would leave a kernel running until the server stops. The project's Voila settings
(etc/jupyter/voila.json, read by `make class`, the tests' servers and Binder) shut down a kernel
that has had no page connected for a while; a page still open keeps its kernel however long it
stays idle.
"""

import json
import subprocess
import time

import servers
from course_notebooks import ROOT

SETTINGS = ROOT / "etc" / "jupyter" / "voila.json"
QUICK = ("--MappingKernelManager.cull_idle_timeout=4", "--MappingKernelManager.cull_interval=1")


def kernels_of(server):
    """The kernel processes the server started."""
    out = subprocess.run(["ps", "-o", "pid=,args=", "--ppid", str(server.process.pid)],
                         capture_output=True, text=True).stdout  # status 1: none
    return [line for line in out.splitlines() if "ipykernel" in line]


def wait_until(condition, seconds=30):
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.5)


def test_the_project_settings_shut_down_kernels_left_without_a_page():
    culling = json.loads(SETTINGS.read_text())["MappingKernelManager"]
    assert culling["cull_idle_timeout"] > 0 and culling["cull_interval"] > 0
    assert not culling.get("cull_connected", False), "a projected page, idle while the class talks, must keep its kernel"


def test_a_closed_page_gives_back_its_kernel_and_an_open_one_keeps_it(browser, served_root, tmp_path):
    """The same settings with a 4 s wait instead of minutes, to see both sides in a test."""
    server = servers.start_voila(served_root / "notebooks", tmp_path / "home", extra=QUICK)
    try:
        page = browser.new_page()
        page.goto(server.url + "/voila/render/glossary.ipynb")
        page.wait_for_selector(".jp-Cell")
        wait_until(lambda: len(kernels_of(server)) == 1)
        assert len(kernels_of(server)) == 1
        time.sleep(8)  # idle twice the wait, the page still open
        assert len(kernels_of(server)) == 1, "an open page lost its kernel"
        page.close()
        wait_until(lambda: not kernels_of(server))
        assert not kernels_of(server), f"the closed page's kernel still runs:\n{server.log()}"
    finally:
        server.stop()
