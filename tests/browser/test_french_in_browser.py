"""A French chapter in JupyterLab, as a French-speaking student opens it from `make lab`'s file
browser (notebooks/fr/): it runs top to bottom in a real browser with the checks of every English
chapter (no error, every widget rendered, every Demo redrawn by its controls), and what the kernel
computes there speaks French: the chapter's text, the figures' labels and the checks' messages."""

import json
import re
from pathlib import Path

from notebook_checks import PANEL, check_notebook

CHAPTER = "notebooks/fr/01_linear_discriminants.ipynb"
SEED = re.compile(r"Graine des cas (\d+)")  # the French of a coding check's "case seed ..."


def stored_text(path):
    """Every output text the notebook file stores (what Lab shows before anything runs)."""
    cells = json.loads(Path(path).read_text(encoding="utf-8"))["cells"]
    return "\n".join(str(output.get("text", "")) + str(output.get("data", {}).get("text/markdown", ""))
                     for cell in cells if cell["cell_type"] == "code" for output in cell.get("outputs", []))


def test_a_french_chapter_runs_and_speaks_french_in_jupyterlab(lab, served_root, page):
    problems = check_notebook(page, lab.url, served_root, CHAPTER, workspace="fr-01")
    shown = page.locator(PANEL).inner_text()
    alts = page.locator(f"{PANEL} img[alt]").evaluate_all("images => images.map(i => i.alt)")
    lab.shutdown_kernels()
    assert problems == [], f"{CHAPTER} in JupyterLab:\n" + "\n".join(f"- {p}" for p in problems)
    assert "Discriminants linéaires, perceptron et moindres carrés" in shown  # the chapter's title
    # the coding check ran in this kernel: its cases have a fresh seed, not the one stored in the file
    stored = set(SEED.findall(stored_text(Path(served_root) / CHAPTER)))
    fresh = set(SEED.findall(shown)) - stored
    assert fresh, f"no check message with a fresh seed: shown seeds {SEED.findall(shown)}, stored {stored}"
    assert "Pas encore." in shown and "Not yet" not in shown and "Stuck?" not in shown
    assert any("époque" in alt and "erreurs" in alt for alt in alts), alts  # a figure's labels, read out as its alt
