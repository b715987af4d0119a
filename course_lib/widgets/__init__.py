"""Sliders wired to drawing functions; one module per chapter family, `core` holds the wiring.

A chapter module builds demos with `core.Demo(draw, controls)`, where `draw(ax, **values)` is
a function of `course_lib.plotting` and the controls are named after the slides' symbols.
"""

from course_lib.widgets.core import Demo, log_slider, static_grid

__all__ = ["Demo", "log_slider", "static_grid"]
