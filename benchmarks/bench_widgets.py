"""Kernel-side redraw time of every demo of every chapter, per control: each control is swept
at both ends of its range (or every option) and at seeded random values, the others at their
defaults; then every value is visited again (a frame already shown). A slider is swept again at
every other option of each of its demo's menus (a kernel, a learner), which can change the work
a frame does. Targets: a median redraw
<= 100 ms and a worst <= 250 ms on a first visit, <= 30 ms on a return.

    python -m benchmarks widgets [name ...]    # names: demo factories, e.g. kernel_svm_demo

One row per demo and control (a slider under a menu's other option: "C | kernel=linear"): the demo's build time (construction and first frame), then the
first-visit ("cold") median and worst wall time, the median and worst CPU time of a first visit
(less sensitive to the machine's load) and the return ("warm") median, in ms. Points demos get
a "drag" row: a point dragged along a path of mouse moves, one frame per move. The last line
counts the first-visit settings above 100 and 250 ms. Timings are wall clock on a shared
machine: the load average is printed with them.
"""

import os
import sys
import time

import ipywidgets as widgets
import numpy as np

from course_lib.widgets.kernels import hinge_gd_demo, kernel_svm_demo, soft_margin_demo
from course_lib.widgets.linear import least_squares_outlier_demo, perceptron_replay_demo
from course_lib.widgets.multiclass import (
    cost_demo, forty_twenty_forty_demo, hinge_sgd_demo, reduction_demo, svm_lambda_demo,
)
from course_lib.widgets.perceptron import plain_vs_averaged_demo
from course_lib.widgets.points import (
    kernel_points_demo, least_squares_points_demo, soft_margin_points_demo,
)
from course_lib.widgets.structured_chain import chain_C_demo, transition_scale_demo
from course_lib.widgets.structured_learning import c_slider_demo
from course_lib.widgets.structured_models import box_inference_demo, ranking_demo, segmentation_demo

FACTORIES = [
    perceptron_replay_demo, least_squares_outlier_demo, least_squares_points_demo,
    soft_margin_demo, soft_margin_points_demo, kernel_svm_demo, kernel_points_demo, hinge_gd_demo,
    forty_twenty_forty_demo, reduction_demo, svm_lambda_demo, hinge_sgd_demo, cost_demo,
    plain_vs_averaged_demo, c_slider_demo, chain_C_demo, transition_scale_demo, ranking_demo,
    box_inference_demo, segmentation_demo,
]
RANDOM_VALUES = 4  # seeded random values per control, besides both ends
DRAG_MOVES = 8


def control_values(control, rng, count=RANDOM_VALUES):
    """Both ends (or every option) of a control, then `count` seeded random values on its grid."""
    options = getattr(control, "options", None)
    if options is not None:  # Dropdown, SelectionSlider, ToggleButtons: values, not labels
        values = [option[1] if isinstance(option, tuple) else option for option in options]
        if len(values) <= count + 2:
            return values
        picks = rng.choice(np.arange(1, len(values) - 1), size=count, replace=False)
        return [values[0], values[-1]] + [values[i] for i in picks]
    low, high, step = control.min, control.max, control.step
    steps = int(round((high - low) / step))
    grid = [low + step * k for k in rng.integers(0, steps + 1, size=count)]
    if hasattr(control, "base"):  # FloatLogSlider: min, max and step are exponents
        return [control.base ** e for e in [low, high] + grid]
    cast = int if isinstance(control.value, int) else float
    return [cast(v) for v in [low, high] + grid]


def timed_set(demo, name, value):
    """(wall seconds, CPU seconds) to show `demo` at control `name` = value, and whether a
    frame already shown was reused."""
    cpu = time.process_time()
    seconds = demo.set(**{name: value})
    return (seconds, time.process_time() - cpu), bool(getattr(demo, "last_cached", False))


def sweep(demo, name, control, rng):
    """(first-visit seconds, return seconds) over the control's values, the others fixed."""
    default = control.value
    values = control_values(control, rng)
    cold, warm = [], []
    for value in values:
        seconds, cached = timed_set(demo, name, value)
        (warm if cached else cold).append(seconds)
    for value in values[::-1]:
        seconds, cached = timed_set(demo, name, value)
        (warm if cached else cold).append(seconds)
    demo.set(**{name: default})
    return cold, warm


def menu_sweeps(demo, rng):
    """Rows (label, cold, warm) of each slider swept at every non-default option of each menu."""
    menus = {name: control for name, control in demo.controls.items() if isinstance(control, widgets.Dropdown)}
    sliders = {name: control for name, control in demo.controls.items() if getattr(control, "options", None) is None}
    rows = []
    for menu_name, menu in menus.items():
        default = menu.value
        for label, value in [option if isinstance(option, tuple) else (option, option) for option in menu.options]:
            if value == default:
                continue
            demo.set(**{menu_name: value})
            for name, control in sliders.items():
                rows.append((f"{name} | {menu_name}={str(label)[:14]}", *sweep(demo, name, control, rng)))
        demo.set(**{menu_name: default})
    return rows


def drag(demo, rng):
    """Seconds per mouse move while a point is dragged across the box (one frame each)."""
    width, height = demo.fig.bbox.width, demo.fig.bbox.height
    shown = width / 2

    def event(kind, point):
        x, y = demo.ax.transData.transform(point)
        scale = width / shown
        return {"type": kind, "relativeX": x / scale, "relativeY": (height - y) / scale,
                "boundingRectWidth": shown, "boundingRectHeight": height / scale}

    index = int(rng.integers(len(demo.X)))
    start = demo.X[index].copy()
    end = np.array([rng.uniform(*demo.xlim), rng.uniform(*demo.ylim)])
    demo.handle(event("mousedown", start))
    times = []
    for t in [*np.linspace(0, 1, DRAG_MOVES + 1)[1:], None]:
        begin, cpu = time.perf_counter(), time.process_time()
        if t is None:
            demo.handle(event("mouseup", end))
        else:
            demo.handle(event("mousemove", (1 - t) * start + t * end))
        times.append((time.perf_counter() - begin, time.process_time() - cpu))
    demo.reset()
    return times


def ms(values, how, column=0):
    return f"{1000 * how([v[column] for v in values]):7.0f}" if values else "      -"


def main(names=()):
    chosen = [make for make in FACTORIES if not names or make.__name__ in names]
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(f"{'demo':28s} {'control':34s} {'build s':>7s} {'n':>3s} {'cold med':>8s} {'worst':>7s} "
          f"{'cpu med':>7s} {'worst':>7s} {'warm med':>8s}   (ms; cpu: CPU time of a first visit)")
    settings = over_100 = over_250 = 0
    for make in chosen:
        rng = np.random.default_rng(0)
        start = time.perf_counter()
        demo = make()
        built = time.perf_counter() - start
        rows = [(name, *sweep(demo, name, control, rng)) for name, control in demo.controls.items()]
        rows += menu_sweeps(demo, rng)
        if hasattr(demo, "handle") and getattr(demo, "events", None) is not None:
            rows.append(("drag", drag(demo, rng), []))
        for number, (name, cold, warm) in enumerate(rows):
            settings += len(cold)
            over_100 += sum(t > 0.1 for t, _ in cold)
            over_250 += sum(t > 0.25 for t, _ in cold)
            label = make.__name__ if number == 0 else ""
            build = f"{built:7.2f}" if number == 0 else " " * 7
            print(f"{label:28s} {name:34s} {build} {len(cold):3d} {ms(cold, np.median)} "
                  f"{ms(cold, np.max)} {ms(cold, np.median, 1)} {ms(cold, np.max, 1)} {ms(warm, np.median)} ",
                  flush=True)
    print(f"{over_100} of {settings} first-visit settings above 100 ms, {over_250} above 250 ms "
          f"(load average {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main(sys.argv[1:])
