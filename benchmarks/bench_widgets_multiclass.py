"""Redraw time of the chapters 07-08 demos at both ends of each control (target: well under 0.25 s),
also as a ratio to the floor measured in the same run: rendering a figure of the same size holding
only the scatter of the data (what any redraw costs, whatever it computes)."""

import time

import numpy as np

from course_lib.plotting.multiclass import LEARNERS, REDUCTIONS, noisy_forty_twenty_forty, plot_classes
from course_lib.plotting.style import new_figure, png_bytes
from course_lib.widgets.multiclass import (
    cost_demo,
    forty_twenty_forty_demo,
    hinge_sgd_demo,
    reduction_demo,
    svm_lambda_demo,
)

SETTINGS = {
    forty_twenty_forty_demo: [{"share": 0.05}, {"share": 0.2}, {"share": 0.6}],
    reduction_demo: [{"learner": learner, "reduction": r, "spread": s}
                     for learner in LEARNERS for r in REDUCTIONS for s in (0.3, 3.0)],
    svm_lambda_demo: [{"lam": lam, "n_iter": T} for lam in (1e-4, 0.005, 10.0) for T in (10, 2000, 5000)],
    hinge_sgd_demo: [{"eta": eta, "n_iter": T} for eta in (1e-3, 0.1, 10.0) for T in (10, 2000, 5000)],
    cost_demo: [{"cost_on_two": c} for c in (0.0, 1.0, 10.0)],
}


def scatter_floor(repeats=5):
    """Median time to render a 6 x 5 figure holding only the scatter of the demo data."""
    X, y = noisy_forty_twenty_forty()
    fig, ax = new_figure(width=6, height=5)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        ax.clear()
        plot_classes(ax, X, y, [1, 2, 3])
        png_bytes(fig, dpi=72)
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def main():
    floor = scatter_floor()
    print(f"floor (render a figure with only the scatter): {floor:.3f} s")
    for make, settings in SETTINGS.items():
        demo = make()
        print(f"{make.__name__}: first render {demo.seconds:.3f} s")
        for values in settings:
            seconds = demo.set(**values)
            print(f"  {values}: {seconds:.3f} s ({seconds / floor:.1f} x floor)")


if __name__ == "__main__":
    main()
