"""What one student costs a hub, measured on this machine: the numbers behind the README's
sizing table (`python -m benchmarks class_cost`).

- Per chapter, in a fresh kernel: Run All's CPU seconds and wall time, the kernel's memory
  (resident set) after Run All, and its peak while every demo's controls are moved (each
  slider to both ends, each dropdown through its options), read from the kernel's own
  high-water mark (VmHWM).
- A student's Jupyter server (JupyterLab, what a hub spawns per student) idle after start.
- A class at once: N students each open the same chapter at the same moment (N kernels run it
  concurrently): the time each waits for the first figure, and the sum of the kernels' memory
  at its highest.
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import urllib.request
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
FIGURE_MIMES = ("image/png", "application/vnd.jupyter.widget-view+json")  # and an HTML <img> (a CourseFigure)

# Run in the kernel after Run All: every Demo alive, each control through its range.
SWEEP_DEMOS = textwrap.dedent("""
    import gc as _gc
    from course_lib.widgets.core import Demo as _Demo
    import ipywidgets as _w
    _moves = 0
    for _demo in [o for o in _gc.get_objects() if isinstance(o, _Demo)]:
        for _name, _control in _demo.controls.items():
            if _control.disabled:
                continue
            if isinstance(_control, _w.Dropdown):
                _values = [v if not isinstance(v, tuple) else v[1] for v in _control.options]
            elif hasattr(_control, "max"):
                _values = [_control.max, _control.min, _control.value]
            else:
                continue
            for _value in _values:
                _control.value = _value
                _moves += 1
    print(_moves)
""")
HIGH_WATER = "print(int(open('/proc/self/status').read().split('VmHWM:')[1].split()[0]) * 1024)"
RESIDENT = "print(int(open('/proc/self/status').read().split('VmRSS:')[1].split()[0]) * 1024)"


def _code(notebook):
    import nbformat

    return nbformat.read(notebook, as_version=4)


def _run_source(client, source):
    """Run `source` in the client's kernel; returns its printed text."""
    import nbformat

    cell = nbformat.v4.new_code_cell(source)
    client.nb.cells.append(cell)
    client.execute_cell(cell, len(client.nb.cells) - 1)
    return "".join(o.get("text", "") for o in cell.outputs if o.get("name") == "stdout").strip()


def chapter_cost(notebook, sweep=True, timeout=900):
    """Run `notebook` in a fresh kernel; returns a dict of its costs (bytes and seconds)."""
    from nbclient import NotebookClient

    nb = _code(notebook)
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3",
                            resources={"metadata": {"path": str(Path(notebook).parent)}})
    with client.setup_kernel():
        kernel = psutil.Process(client.km.provisioner.process.pid)
        start_cpu, start = sum(kernel.cpu_times()[:2]), time.perf_counter()
        for index, cell in enumerate(list(nb.cells)):
            if cell.cell_type == "code":
                client.execute_cell(cell, index)
        wall = time.perf_counter() - start
        cpu = sum(kernel.cpu_times()[:2]) - start_cpu
        after = int(_run_source(client, RESIDENT))
        moves = int(_run_source(client, SWEEP_DEMOS)) if sweep else 0
        peak = int(_run_source(client, HIGH_WATER))
    return {"chapter": Path(notebook).name, "run_all_cpu_s": cpu, "run_all_wall_s": wall,
            "memory_after_run_all": after, "peak_memory": peak, "demo_moves": moves}


def server_memory(timeout=120):
    """Resident memory of an idle JupyterLab server (what a hub starts per student)."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, JUPYTER_CONFIG_DIR=home, JUPYTER_RUNTIME_DIR=home, JUPYTER_DATA_DIR=home)
        process = subprocess.Popen(
            [sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root", "--ServerApp.ip=127.0.0.1",
             f"--ServerApp.port={port}", "--IdentityProvider.token=", f"--ServerApp.root_dir={NOTEBOOKS}"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + timeout
            while True:
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/lab", timeout=5).read()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.5)
            time.sleep(2)
            return psutil.Process(process.pid).memory_info().rss
        finally:
            process.terminate()
            process.wait(timeout=30)


STUDENT = textwrap.dedent("""
    import json, sys, time
    import nbformat
    from nbclient import NotebookClient
    start = time.perf_counter()
    nb = nbformat.read(sys.argv[1], as_version=4)
    first = {}
    client = NotebookClient(nb, timeout=900, kernel_name="python3", resources={"metadata": {"path": sys.argv[2]}})
    def executed(cell, cell_index, execute_reply):
        if "t" not in first and any(m in o.get("data", {}) or "<img" in o.get("data", {}).get("text/html", "")
                                    for o in cell.outputs for m in %r):
            first["t"] = time.perf_counter() - start
    client.on_cell_executed = executed
    client.execute()
    print(json.dumps({"first_figure_s": first.get("t"), "run_all_s": time.perf_counter() - start}))
""") % (FIGURE_MIMES,)


def class_at_once(notebook, students):
    """`students` kernels run `notebook` at the same moment; returns each one's time to its first
    figure and to the end, and the highest sum of the kernels' memory seen meanwhile."""
    processes = [subprocess.Popen([sys.executable, "-c", STUDENT, str(notebook), str(Path(notebook).parent)],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for _ in range(students)]
    peak = {"bytes": 0}
    done = threading.Event()

    def sample():
        while not done.is_set():
            total = 0
            for process in processes:
                try:
                    total += sum(c.memory_info().rss for c in psutil.Process(process.pid).children(recursive=True))
                except psutil.Error:
                    pass
            peak["bytes"] = max(peak["bytes"], total)
            done.wait(0.5)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    results = []
    for process in processes:
        out, err = process.communicate()
        if process.returncode != 0 or not out.strip():
            raise RuntimeError(f"a student's Run All failed (exit {process.returncode}): {err[-2000:]}")
        results.append(json.loads(out.strip().splitlines()[-1]))
    done.set()
    sampler.join()
    return results, peak["bytes"]


def _mb(n):
    return n / 2**20


def main(chapters=None, students=20, class_chapter="03_soft_margins.ipynb"):
    chapters = chapters or sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    print(f"machine: {os.cpu_count()} cores, {_mb(psutil.virtual_memory().total) / 1024:.0f} GiB; "
          f"load {os.getloadavg()[0]:.1f} at start")
    server = server_memory()
    print(f"a student's JupyterLab server, idle: {_mb(server):.0f} MB")
    print(f"{'chapter':44s} {'Run All CPU s':>13s} {'wall s':>7s} {'MB after':>9s} {'MB peak':>8s} {'moves':>6s}")
    costs = []
    for notebook in chapters:
        cost = chapter_cost(notebook)
        costs.append(cost)
        print(f"{cost['chapter']:44s} {cost['run_all_cpu_s']:13.1f} {cost['run_all_wall_s']:7.1f} "
              f"{_mb(cost['memory_after_run_all']):9.0f} {_mb(cost['peak_memory']):8.0f} {cost['demo_moves']:6d}",
              flush=True)
    results, peak = class_at_once(NOTEBOOKS / class_chapter, students)
    firsts = sorted(r["first_figure_s"] for r in results if r["first_figure_s"] is not None)
    ends = sorted(r["run_all_s"] for r in results)
    print(f"{students} students open {class_chapter} at once: first figure after "
          f"{statistics.median(firsts):.1f} s (median), {firsts[-1]:.1f} s (last); Run All done after "
          f"{statistics.median(ends):.1f} s (median), {ends[-1]:.1f} s (last); kernels' memory at most "
          f"{_mb(peak):.0f} MB ({_mb(peak) / students:.0f} MB a student)")
    worst_after = max(c["memory_after_run_all"] for c in costs)
    worst_peak = max(c["peak_memory"] for c in costs)
    print(f"per student: server {_mb(server):.0f} MB + kernel up to {_mb(worst_after):.0f} MB after Run All, "
          f"{_mb(worst_peak):.0f} MB at its peak; Run All CPU at most "
          f"{max(c['run_all_cpu_s'] for c in costs):.0f} s")
    return {"server": server, "chapters": costs, "class": results, "class_peak": peak}


if __name__ == "__main__":
    main()
