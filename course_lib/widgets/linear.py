"""Chapter 01 demos: replay the perceptron update by update (K2); drag least squares with a far
point (K3)."""

import ipywidgets as widgets

from course_lib.i18n import _
from course_lib.plotting.linear import draw_least_squares, draw_perceptron_update, fitted_perceptron
from course_lib.widgets.core import Demo
from course_lib.plotting.arguments import checked, count


@checked(n_epochs=count(1, 1000))
def perceptron_replay_demo(n_epochs=6):
    """A slider over the perceptron's updates on the non-separable data: the boundary never settles."""
    perceptron, X, r = fitted_perceptron(n_epochs)
    update = widgets.IntSlider(value=0, min=0, max=perceptron.n_updates_, description=_("update"),
                               layout=widgets.Layout(width="480px"))

    def draw(ax, update):
        draw_perceptron_update(ax, perceptron, X, r, update)

    demo = Demo(draw, {"update": update}, width=6, height=5, clear="artists")
    demo.perceptron = perceptron
    return demo


def least_squares_outlier_demo():
    """A slider moving one point of class +1 away on its own side: least squares follows it."""
    distance = widgets.FloatSlider(value=0.0, min=0.0, max=20.0, step=0.5, description=_("far point at"),
                                   readout_format=".1f", style={"description_width": "initial"},
                                   layout=widgets.Layout(width="480px"))
    return Demo(draw_least_squares, {"distance": distance}, width=6, height=5, clear="artists")
