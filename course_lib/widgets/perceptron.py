"""Chapter 09 demo: plain vs averaged multiclass perceptron over epochs and shuffling orders (P1, P2)."""

import ipywidgets as widgets

from course_lib.i18n import _
from course_lib.plotting.perceptron import blob_epochs, draw_plain_vs_averaged
from course_lib.widgets.core import Demo
from course_lib.plotting.arguments import checked, count


@checked(max_epochs=count(1, 30))
def plain_vs_averaged_demo(max_epochs=30):
    """Sliders over the number of epochs and the shuffle seed: the plain perceptron's regions
    jump with the last examples visited, the averaged ones barely move. One run per seed gives
    every epoch's weights, computed for every seed of the slider when the demo is built; moving
    a slider updates the figure's artists."""
    layout = widgets.Layout(width="360px")
    controls = {
        "n_epochs": widgets.IntSlider(value=5, min=1, max=max_epochs, description=_("epochs"),
                                      layout=layout),
        "seed": widgets.IntSlider(value=0, min=0, max=9, description=_("shuffle seed"), layout=layout,
                                  style={"description_width": "initial"}),
    }

    for seed in range(controls["seed"].min, controls["seed"].max + 1):
        blob_epochs(seed, 30, 0)  # the run draw_plain_vs_averaged reads up to 30 epochs (kept by seed)

    def draw(axes, n_epochs, seed):
        draw_plain_vs_averaged(axes, n_epochs=n_epochs, seed=seed)

    return Demo(draw, controls, ncols=2, width=5.2, height=4.4, clear=False)
