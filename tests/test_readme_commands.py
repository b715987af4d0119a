"""The README's commands as a newcomer runs them: one fresh clone of the committed HEAD (uncommitted
changes are not part of it), then `make site`, `make figures`, `make class` and `make bench` in
it, in that order. The first of them builds the clone's own .venv from requirements.txt (pip's
download cache allowed); the others find it ready, as they would for a newcomer's second command.
All in one module, so that one test process runs them one after the other in the same clone.
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from test_site import broken_links, build_site

ROOT = Path(__file__).resolve().parent.parent
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")]


@pytest.fixture(scope="module")
def clone(tmp_path_factory):
    clone = tmp_path_factory.mktemp("newcomer") / "repo"
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout.strip()
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    subprocess.run(["git", "checkout", "--quiet", "--detach", head], cwd=clone, check=True)
    return clone


def newcomer_env():
    """The environment of a shell that never activated our venv."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    venv_bin = str(Path(sys.prefix) / "bin")  # the running venv's python must not be make's python3
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if p != venv_bin)
    return env


def make(clone, *targets, timeout):
    result = subprocess.run(["make", *targets], cwd=clone, env=newcomer_env(), capture_output=True,
                            text=True, timeout=timeout)
    assert result.returncode == 0, (f"make {' '.join(targets)} failed ({result.returncode}):\n"
                                    f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return result.stdout


@pytest.mark.timeout(3000)
def test_make_site_builds_a_site_whose_every_link_opens(clone):
    """`make site`: chapters, solutions, glossary, index and search, every link opening."""
    make(clone, "site", timeout=2900)
    site = clone / "site"
    assert (clone / ".venv" / "bin" / "python").exists(), "make site did not build its own .venv"
    chapters = sorted((clone / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    for chapter in chapters:
        assert (site / chapter.with_suffix(".html").name).is_file(), chapter.name
    assert (site / "index.html").is_file() and (site / "glossary.html").is_file()
    for stem in build_site.translated(clone / "locale" / "fr" / "manifest.toml"):  # the French edition
        assert (site / "fr" / f"{stem}.html").is_file(), f"fr/{stem}"
    assert (site / "fr" / "index.html").is_file()
    broken, checked = broken_links(site)
    assert broken == [], f"{len(broken)} of {checked} links do not open:\n" + "\n".join(broken[:40])
    assert checked > 10 * len(chapters)


@pytest.mark.timeout(1800)
def test_make_figures_regenerates_every_figure_of_the_index(clone):
    """`make figures` rewrites every PNG and SVG its index (figures/README.md) lists, and no other."""
    listed = set(re.findall(r"\]\(([\w-]+\.(?:png|svg))\)", (clone / "figures" / "README.md").read_text()))
    assert len(listed) > 20
    before = time.time()
    make(clone, "figures", timeout=1700)
    figures = clone / "figures"
    on_disk = {p.name for p in figures.iterdir() if p.suffix in (".png", ".svg")}
    assert on_disk == listed, f"not in the index: {sorted(on_disk - listed)}; missing: {sorted(listed - on_disk)}"
    stale = sorted(name for name in listed if (figures / name).stat().st_mtime < before)
    assert stale == [], f"make figures did not rewrite {stale}"


@pytest.mark.timeout(600)
@pytest.mark.parametrize("chapter,title,language", [("notebooks/03_soft_margins.ipynb", "soft margin", "en"),
                                                    ("notebooks/fr/03_soft_margins.ipynb", "marges douces", "fr")])
def test_make_class_serves_the_chapter_as_a_dashboard(clone, chapter, title, language):
    """`make class NB=...`, in English or French: the URL it prints answers with the chapter
    rendered in its language, no code shown."""
    sys.path.insert(0, str(Path(__file__).parent / "browser"))
    from servers import free_port
    port = free_port()
    process = subprocess.Popen(["make", "class", f"NB={chapter}", f"CLASS_PORT={port}"], cwd=clone,
                               env=newcomer_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, start_new_session=True)
    try:
        url = f"http://127.0.0.1:{port}/voila/render/{chapter.removeprefix('notebooks/')}"
        page, deadline = None, time.monotonic() + 420
        while page is None and time.monotonic() < deadline and process.poll() is None:
            try:
                with urllib.request.urlopen(url, timeout=300) as response:
                    page = response.read().decode()
            except (urllib.error.URLError, ConnectionError):
                time.sleep(1)
        assert process.poll() is None, f"make class stopped:\n{process.stdout.read()[-3000:]}"
        assert page is not None, f"{url} did not answer within 7 min"
        assert title in page.lower() and f'<html lang="{language}">' in page
        assert "def " not in re.sub(r"<script.*?</script>", "", page, flags=re.S), "class mode shows code"
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)


@pytest.mark.timeout(900)
def test_make_bench_runs_a_named_benchmark_and_every_benchmark_imports(clone):
    """`make bench BENCH=viterbi` prints its table; every other benchmark module imports in the
    clone's environment (the whole `make bench` takes far longer than a test may)."""
    out = make(clone, "bench", "BENCH=viterbi", timeout=800)
    assert "== bench_viterbi ==" in out and "s" in out.split("== bench_viterbi ==")[1]
    modules = sorted(p.stem for p in (clone / "benchmarks").glob("bench_*.py"))
    code = "import importlib\n" + "".join(f"importlib.import_module('benchmarks.{m}')\n" for m in modules)
    result = subprocess.run([str(clone / ".venv" / "bin" / "python"), "-c", code], cwd=clone,
                            env=newcomer_env(), capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
