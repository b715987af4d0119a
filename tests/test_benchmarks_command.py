"""`python -m benchmarks NAME [argument ...]` runs the named benchmark with the arguments after it."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*words):
    return subprocess.run([sys.executable, "-m", "benchmarks", *words], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def test_words_after_the_benchmark_reach_it():
    done = _run("widgets", "box_inference_demo")
    assert done.returncode == 0, done.stderr
    assert "== bench_widgets ==" in done.stdout and "box_inference_demo" in done.stdout
    assert "soft_margin_demo" not in done.stdout and "== bench_svm ==" not in done.stdout


def test_an_unknown_benchmark_is_named_with_the_choices():
    done = _run("no_such_benchmark")
    assert done.returncode != 0
    assert "no benchmark named 'no_such_benchmark'" in done.stderr and "widgets" in done.stderr
