"""Chapter 12 demos: ranking and segmentation trained at the chosen C, and sliding-window box
inference at chosen weights (S16, S17, S19)."""

import ipywidgets as widgets

from course_lib.i18n import _
from course_lib.plotting.structured_models import (
    draw_box_inference, draw_ranking_fit, draw_segmentation_fit,
)
from course_lib.widgets.core import Demo, label_html, log_slider


LAYOUT = widgets.Layout(width="360px")
STYLE = {"description_width": "initial"}


def ranking_demo():
    """C of the one-slack ranking SSVM: ROC and AUC of a held-out query before and after."""
    controls = {"C": log_slider("C", 10.0, -2, 3)}
    return Demo(lambda ax, C: draw_ranking_fit(ax, C=C), controls, width=4.8, height=4.6, clear=False)


def box_inference_demo():
    """The weights w_obj of the object words and w_bg of the background words: the box
    maximising <w, Psi(x, box)> over all boxes grows, shrinks or jumps."""
    controls = {
        name: widgets.FloatSlider(value=value, min=-2.0, max=2.0, step=0.1, description=label_html(name),
                                  description_allow_html=True, continuous_update=True, layout=LAYOUT,
                                  style=STYLE)
        for name, value in (("w_object", 1.0), ("w_background", -1.0))
    }
    return Demo(draw_box_inference, controls, width=4.4, height=4.6, clear=False)


def segmentation_demo():
    """C and the image noise: the per-pixel segmentation SSVM and its Hamming loss."""
    controls = {
        "C": log_slider("C", 1000.0, -1, 4),
        "noise": widgets.FloatSlider(value=0.5, min=0.1, max=1.5, step=0.1, description=_("noise"),
                                     layout=LAYOUT, style=STYLE),
    }
    return Demo(lambda axes, C, noise: draw_segmentation_fit(axes, C=C, noise=noise), controls,
                     ncols=3, width=3.2, height=3.4, clear=False)
