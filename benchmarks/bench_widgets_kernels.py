"""Redraw time of the chapters 03-06 demos at both ends of each control (target: well under
0.25 s), with each time's ratio to the redraw of a reference Demo of the same size that only
scatters the points (the PNG render alone), measured in the same run."""

import time

from course_lib.widgets.kernels import (
    hinge_gd_demo,
    kernel_svm_demo,
    redraw_times,
    soft_margin_demo,
)

SETTINGS = {
    soft_margin_demo: [{"C": c} for c in (0.01, 0.1, 1.0, 10.0, 100.0)],
    kernel_svm_demo: [
        {"kernel": k, "C": c, "sigma": s, "degree": q}
        for k in ("linear", "polynomial", "gaussian", "sigmoid")
        for c in (0.01, 100.0)
        for s, q in ((0.05, 1), (10.0, 3))
    ],
    hinge_gd_demo: [{"lam": lam} for lam in (0.001, 0.1, 100.0)],
}


def main():
    for make, settings in SETTINGS.items():
        start = time.perf_counter()
        demo = make()
        built = time.perf_counter() - start
        seconds, ref = redraw_times(demo, settings)
        print(
            f"{make.__name__}: built in {built:.3f} s; reference redraw (points only, same size) "
            f"{ref:.3f} s"
        )
        for values, t in zip(settings, seconds):
            print(f"  {values}: {t:.3f} s ({t / ref:.1f} x reference)")
        print(f"  worst {max(seconds):.3f} s ({max(seconds) / ref:.1f} x reference)")


if __name__ == "__main__":
    main()
