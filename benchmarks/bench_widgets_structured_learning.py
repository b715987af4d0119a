"""Redraw times of the chapter 10 demo (the C slider), at both ends and in the middle, and the
one-off cost of precomputing its fits.

    .venv/bin/python -m benchmarks widgets_structured_learning
"""

import time

from course_lib.widgets.structured_learning import c_slider_demo


def main():
    start = time.perf_counter()
    demo = c_slider_demo()
    print(f"c_slider_demo: fits precomputed and first draw in {time.perf_counter() - start:.2f} s")
    control = demo.controls["C"]
    for value in (control.base ** control.min, 1.0, control.base ** control.max):
        seconds = demo.set(C=value)
        print(f"  C = {value:9.3g}: redraw {1000 * seconds:6.1f} ms")


if __name__ == "__main__":
    main()
