"""Run All, chapter by chapter, as a student presses it (`python -m benchmarks run_all [NN ...]`).

Each chapter runs in a fresh kernel with the environment a student gets (numpy's default BLAS
threads). Printed per chapter: the wall time of Run All (kernel start included) and its three
slowest cells, with a mark on any cell over 10 s that shows no progress bar (a tqdm or an
ipywidgets progress widget among its outputs).
"""

import sys
import time
from datetime import datetime
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
SILENT_LIMIT = 10.0  # seconds a cell may run with nothing moving on screen


def _seconds(cell):
    timing = cell.get("metadata", {}).get("execution", {})
    if "iopub.execute_input" not in timing or "shell.execute_reply" not in timing:
        return 0.0
    start, end = (datetime.fromisoformat(timing[k].replace("Z", "+00:00"))
                  for k in ("iopub.execute_input", "shell.execute_reply"))
    return (end - start).total_seconds()


def _shows_progress(cell):
    for output in cell.get("outputs", []):
        view = output.get("data", {}).get("application/vnd.jupyter.widget-view+json")
        text = "".join(output.get("text", ""))
        if view or "it/s]" in text or "%|" in text:
            return True
    return False


def run_all(path):
    """(wall seconds, [(seconds, cell index, first line, shows progress)]) for one Run All."""
    notebook = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    NotebookClient(notebook, timeout=1800, kernel_name="python3", record_timing=True,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    wall = time.perf_counter() - start
    cells = [(_seconds(c), i, c.source.split("\n", 1)[0][:60], _shows_progress(c))
             for i, c in enumerate(notebook.cells) if c.cell_type == "code"]
    return wall, sorted(cells, reverse=True)


def main(chapters=None):
    chosen = [p for p in CHAPTERS if not chapters or p.name[:2] in chapters]
    print(f"{'chapter':34s} {'Run All':>8s}   slowest cells (s)")
    for path in chosen:
        wall, cells = run_all(path)
        slowest = "; ".join(
            f"{s:5.1f} cell {i}{' NO PROGRESS BAR' if s > SILENT_LIMIT and not progress else ''}"
            for s, i, _, progress in cells[:3])
        print(f"{path.stem:34s} {wall:7.1f}s   {slowest}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
