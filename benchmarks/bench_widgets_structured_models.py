"""Redraw time of the chapter 12 demos at both ends of each slider (target: well under 0.25 s),
as ratios to the redraw of an empty Demo of the same size measured in the same run (the PNG
render alone). Fits are cached by slider value, so each setting is timed on its first visit."""

import ipywidgets as widgets

from course_lib.widgets.core import Demo
from course_lib.widgets.structured_models import box_inference_demo, ranking_demo, segmentation_demo

SETTINGS = {
    ranking_demo: ({"C": 0.01}, {"C": 10.0}, {"C": 1000.0}),
    box_inference_demo: ({"w_object": -2.0, "w_background": -2.0},
                         {"w_object": 1.0, "w_background": -1.0},
                         {"w_object": 2.0, "w_background": 2.0}),
    segmentation_demo: ({"C": 0.1, "noise": 0.1}, {"C": 1000.0, "noise": 0.5},
                        {"C": 10000.0, "noise": 1.5}, {"C": 10000.0, "noise": 0.1}),
}


def reference_seconds(demo):
    """Redraw time of an empty Demo with the same axes grid and size."""
    ncols = len(demo.ax) if hasattr(demo.ax, "__len__") else 1
    width, height = demo.fig.get_size_inches()
    empty = Demo(lambda ax, k: None, {"k": widgets.IntSlider(0, 0, 9)}, ncols=ncols,
                 width=width / ncols, height=height)
    return min(empty.set(k=k) for k in range(1, 4))


def main():
    for make, settings in SETTINGS.items():
        demo = make()
        reference = reference_seconds(demo)
        print(f"{make.__name__}: empty-demo reference {reference:.3f} s, first render {demo.seconds:.3f} s")
        for values in settings:
            seconds = demo.set(**values)
            print(f"  {values}: {seconds:.3f} s ({seconds / reference:.2f} x reference)")


if __name__ == "__main__":
    main()
