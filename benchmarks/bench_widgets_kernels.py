"""Redraw time of the chapters 03-06 demos at both ends of each control (target: well under
0.25 s), with each time's ratio to the redraw of a reference Demo of the same size that only
scatters the same points (the PNG render alone), measured in the same run."""

import time

from course_lib.plotting.kernels import overlapping_data
from course_lib.plotting.style import plot_points
from course_lib.widgets.core import Demo, log_slider
from course_lib.widgets.kernels import hinge_gd_demo, kernel_svm_demo, soft_margin_demo

SETTINGS = {
    soft_margin_demo: [{"C": c} for c in (0.01, 0.1, 1.0, 10.0, 100.0)],
    kernel_svm_demo: [
        {"kernel": k, "C": c, "sigma": s, "degree": q}
        for k in ("linear", "polynomial", "gaussian", "sigmoid")
        for c in (0.01, 100.0)
        for s, q in ((0.05, 1), (10.0, 4))
    ],
    hinge_gd_demo: [{"lam": lam} for lam in (0.001, 0.1, 100.0)],
}


def reference_demo(ncols=1, width=6.5, height=5.5):
    X, r = overlapping_data()

    def draw(ax, C):
        for a in getattr(ax, "flat", [ax]):
            plot_points(a, X, r)
            a.set_title(f"reference {C:.3g}")

    return Demo(draw, {"C": log_slider("C", 1.0, -2, 2)}, ncols=ncols, width=width, height=height)


def reference_seconds(ncols, width, height, repeats=3):
    demo = reference_demo(ncols, width, height)
    return min(demo.set(C=c) for c in (0.5, 2.0, 8.0)[:repeats])


def main():
    for make, settings in SETTINGS.items():
        start = time.perf_counter()
        demo = make()
        ncols = len(getattr(demo.ax, "flat", [demo.ax]))
        size = demo.fig.get_size_inches() / [ncols, 1]
        ref = reference_seconds(ncols, *size)
        print(f"{make.__name__}: built in {time.perf_counter() - start:.3f} s; "
              f"reference redraw (points only, same size) {ref:.3f} s")
        worst = 0.0
        for values in settings:
            seconds = demo.set(**values)
            worst = max(worst, seconds)
            print(f"  {values}: {seconds:.3f} s ({seconds / ref:.1f} x reference)")
        print(f"  worst {worst:.3f} s ({worst / ref:.1f} x reference)")


if __name__ == "__main__":
    main()
