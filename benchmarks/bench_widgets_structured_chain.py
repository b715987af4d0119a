"""Redraw time of the chapter 11 demos (the C of the chain SSVM, from the cached models, at every
value of its slider; the transition scale at both ends of its sliders), both ends included (target: well under 0.25 s), with its ratio to the
redraw of a reference Demo of the same size that only shows one 26 x 26 image per panel (the PNG render
alone), measured in the same run.

    .venv/bin/python -m benchmarks widgets_structured_chain
"""

import numpy as np

from course_lib.widgets.core import Demo, log_slider
from course_lib.widgets.structured_chain import chain_C_demo, transition_scale_demo


def reference_seconds():
    image = np.random.default_rng(0).random((26, 26))

    def draw(axes, C):
        for ax in axes:
            ax.imshow(image)
            ax.set_title(f"reference {C:.3g}")

    demo = Demo(draw, {"C": log_slider("C", 1.0, -2, 2)}, ncols=2, width=4.6, height=4.4)
    return min(demo.set(C=c) for c in (0.5, 2.0, 8.0))


def main():
    reference = reference_seconds()
    demo = chain_C_demo()
    print(f"reference redraw (2 images): {1000 * reference:.0f} ms")
    for _, C in demo.controls["C"].options:
        seconds = min(demo.set(C=C) for _ in range(2))
        print(f"chain_C_demo C = {C:7g}: {1000 * seconds:5.0f} ms  "
              f"({seconds / reference:.1f} x reference)")
    demo = transition_scale_demo()
    top = demo.controls["word"].max
    for word, scale in ((0, 0.0), (0, 5.0), (top, 0.0), (top, 5.0)):
        seconds = min(demo.set(word=word, scale=scale) for _ in range(2))
        print(f"transition_scale_demo word = {word:2d}, scale = {scale:3.1f}: {1000 * seconds:5.0f} ms  "
              f"({seconds / reference:.1f} x reference)")


if __name__ == "__main__":
    main()
