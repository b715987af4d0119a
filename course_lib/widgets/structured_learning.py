"""Chapter 10 demo: the C slider of a structured SVM (multiclass instance, one-slack learner).

The fits are computed once for a grid of C values when the demo is built; moving the slider
only updates the figure's artists to the nearest precomputed fit.
"""

import numpy as np

from course_lib.data import three_blobs
from course_lib.plotting.structured_learning import plot_multiclass_fit
from course_lib.structured.learners import OneSlackSSVM
from course_lib.structured.models import MulticlassModel
from course_lib.widgets.core import Demo, log_slider

C_GRID = 10.0 ** np.arange(-2, 3.5, 0.5)


def fit_grid(X, y, C_grid=C_GRID):
    """OneSlackSSVM(MulticlassModel(3), C) fitted for each C of the grid: {C: learner}."""
    return {C: OneSlackSSVM(MulticlassModel(3), C=C, tol=1e-4).fit(X, y) for C in C_grid}


def c_slider_demo(X=None, y=None, fits=None):
    """Slider over C (log scale, 10^-2 .. 10^3): regions, points, and the examples with xi_i > 0."""
    if X is None:
        X, y = three_blobs(n=60, seed=0)
    fits = fit_grid(X, y) if fits is None else fits
    grid = np.array(sorted(fits))

    def draw(ax, C):
        nearest = grid[np.argmin(np.abs(np.log10(grid) - np.log10(C)))]
        plot_multiclass_fit(ax, fits[nearest], X, y)

    controls = {"C": log_slider("C", 1.0, float(np.log10(grid[0])), float(np.log10(grid[-1])), step=0.5)}
    return Demo(draw, controls, width=5, height=4.2, clear=False)
