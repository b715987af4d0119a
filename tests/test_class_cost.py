"""The class-cost benchmark (benchmarks/bench_class_cost.py, behind the README's sizing table)
measures what it says, checked on a small notebook with one demo."""

from pathlib import Path

from benchmarks.bench_class_cost import chapter_cost, class_at_once

DEMO = Path(__file__).resolve().parent / "browser" / "fixtures" / "good_demo.ipynb"


def test_a_chapters_cost_counts_run_all_and_the_demos_peak():
    cost = chapter_cost(DEMO)
    assert cost["demo_moves"] == 3 * 3  # three sliders, each to its max, its min and back
    assert 20 * 2**20 < cost["memory_after_run_all"] <= cost["peak_memory"] < 4 * 2**30
    assert 0 < cost["run_all_cpu_s"] and 0 < cost["run_all_wall_s"]


def test_students_at_once_each_see_a_first_figure():
    results, peak = class_at_once(DEMO, students=2)
    assert len(results) == 2
    for result in results:
        assert 0 < result["first_figure_s"] <= result["run_all_s"]
    assert peak > 2 * 20 * 2**20  # two kernels' memory, sampled while they ran
