"""Chapters 10 and 12 demos: each move shows the static drawing's numbers and a new image, with
one set of artists updated in place."""

import numpy as np
import pytest
from matplotlib.figure import Figure

from course_lib.data import three_blobs
from course_lib.plotting.structured_learning import plot_multiclass_fit
from course_lib.plotting.structured_models import draw_box_inference, draw_ranking_fit, draw_segmentation_fit
from course_lib.widgets.structured_learning import c_slider_demo, fit_grid
from course_lib.widgets.structured_models import box_inference_demo, ranking_demo, segmentation_demo


def _titles(draw, n_axes, **values):
    fig = Figure()
    axes = [fig.add_subplot(1, n_axes, k + 1) for k in range(n_axes)]
    draw(axes if n_axes > 1 else axes[0], **values)
    return [ax.get_title() + ax.get_legend_handles_labels()[1].__repr__() for ax in axes]


def _shown(demo):
    axes = getattr(demo.ax, "flat", [demo.ax])
    return [ax.get_title() + ax.get_legend_handles_labels()[1].__repr__() for ax in axes]


@pytest.mark.parametrize("make, draw, n_axes, settings", [
    (ranking_demo, draw_ranking_fit, 1, ({"C": 0.01}, {"C": 1000.0}, {"C": 3.1622776601683795})),
    (box_inference_demo, draw_box_inference, 1, ({"w_object": -2.0, "w_background": 2.0},
                                                 {"w_object": 2.0, "w_background": -0.5})),
    (segmentation_demo, draw_segmentation_fit, 3, ({"C": 0.1, "noise": 1.5}, {"C": 10000.0, "noise": 0.1})),
])
def test_each_move_shows_the_static_drawing(make, draw, n_axes, settings):
    demo = make()
    counts = [len(ax.get_children()) for ax in demo.fig.axes]
    images = {demo.png}
    for values in settings:
        demo.set(**values)
        images.add(demo.png)
        assert _shown(demo) == _titles(draw, n_axes, **demo.values)
        assert [len(ax.get_children()) for ax in demo.fig.axes] == counts
    assert len(images) == len(settings) + 1


def test_the_C_slider_shows_each_precomputed_fit():
    X, y = three_blobs(n=60, seed=0)
    fits = fit_grid(X, y, C_grid=np.array([0.01, 1.0, 100.0]))
    demo = c_slider_demo(X, y, fits=fits)
    for C in (0.01, 100.0, 1.0):
        demo.set(C=C)
        demo.update(cache=False)
        static = Figure().add_subplot()
        plot_multiclass_fit(static, fits[C], X, y)
        assert demo.ax.get_title() == static.get_title()
