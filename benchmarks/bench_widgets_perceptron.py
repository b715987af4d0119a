"""Redraw time of the chapter 09 demo at both ends of each slider (target: well under 0.25 s),
against a reference measured in the same run: the same two-panel Demo drawing only the points
(its time is the PNG render alone, the floor for any two-panel demo on this machine)."""

import ipywidgets as widgets

from course_lib.plotting.perceptron import blob_split
from course_lib.widgets.core import Demo
from course_lib.widgets.perceptron import plain_vs_averaged_demo


def reference_demo():
    X, y, _, _ = blob_split()

    def draw(axes, k):
        for ax in axes:
            ax.scatter(X[:, 0] + k, X[:, 1], c=y, s=28)

    return Demo(draw, {"k": widgets.IntSlider(0, 0, 1)}, ncols=2, width=5.2, height=4.4)


def main():
    reference, demo = reference_demo(), plain_vs_averaged_demo()
    settings = ({"n_epochs": 1, "seed": 0}, {"n_epochs": 30, "seed": 0}, {"n_epochs": 30, "seed": 9},
                {"n_epochs": 1, "seed": 9}, {"n_epochs": 5, "seed": 0})
    for values in settings:
        floor = min(reference.set(k=1), reference.set(k=0))
        seconds = demo.set(**values)
        print(f"  plain_vs_averaged_demo {values}: {seconds:.3f} s "
              f"(render-only reference {floor:.3f} s, ratio {seconds / floor:.1f})")


if __name__ == "__main__":
    main()
