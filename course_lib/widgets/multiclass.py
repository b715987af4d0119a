"""Chapters 07-08 demos: the 40/20/40 share, the reductions, lambda of the multiclass SVM, eta of
SGD on the hinge risk, and the cost of a mistake on class 2 (M1-M3, M7, M10, M11)."""

import ipywidgets as widgets

from course_lib.plotting.multiclass import (
    LEARNERS,
    REDUCTIONS,
    forty_twenty_forty_panels,
    reduction_panel,
    sgd_panel,
)
from course_lib.widgets.core import Demo, log_slider

LAYOUT = widgets.Layout(width="360px")
STYLE = {"description_width": "initial"}


def forty_twenty_forty_demo():
    """Slider over the share of class 2 (classes 1 and 3 split the rest): one-vs-rest errs on
    the whole of class 2 as long as "always no" is its best halfspace; the argmax never errs."""
    controls = {"share": widgets.FloatSlider(value=0.2, min=0.05, max=0.6, step=0.05, description="share of class 2",
                                             continuous_update=False, layout=LAYOUT, style=STYLE)}

    def draw(axes, share):
        forty_twenty_forty_panels(axes, share=share)

    return Demo(draw, controls, ncols=2, width=5.4, height=4.2)


def reduction_demo():
    """Choose the reduction (one-vs-rest with confidences or signs, all pairs), the binary learner
    and the spread of three blobs; grey marks where the signs leave the class undecided."""
    controls = {
        "learner": widgets.Dropdown(options=list(LEARNERS), value="least squares", description="learner",
                                    layout=LAYOUT),
        "reduction": widgets.Dropdown(options=REDUCTIONS, value=REDUCTIONS[1], description="reduction",
                                      layout=LAYOUT),
        "spread": widgets.FloatSlider(value=1.3, min=0.3, max=3.0, step=0.1, description="spread",
                                      continuous_update=False, layout=LAYOUT),
    }

    def draw(ax, learner, reduction, spread):
        reduction_panel(ax, reduction=reduction, spread=spread, learner=learner)

    return Demo(draw, controls, width=6, height=5)


def svm_lambda_demo():
    """lambda and T of the multiclass SVM trained by SGD; the averaged output is drawn."""
    controls = {
        "lam": log_slider("lam", 0.005, -4, 1, continuous_update=False, description="λ"),
        "n_iter": widgets.IntSlider(value=2000, min=10, max=5000, step=10, description="T",
                                    continuous_update=False, layout=LAYOUT),
    }

    def draw(ax, lam, n_iter):
        sgd_panel(ax, learner="svm", rate=lam, n_iter=n_iter)

    return Demo(draw, controls, width=6, height=5)


def hinge_sgd_demo():
    """eta and T of SGD on the generalised hinge risk (no regularisation); averaged output."""
    controls = {
        "eta": log_slider("eta", 0.1, -3, 1, continuous_update=False, description="η"),
        "n_iter": widgets.IntSlider(value=2000, min=10, max=5000, step=10, description="T",
                                    continuous_update=False, layout=LAYOUT),
    }

    def draw(ax, eta, n_iter):
        sgd_panel(ax, learner="hinge", rate=eta, n_iter=n_iter)

    return Demo(draw, controls, width=6, height=5)


def cost_demo():
    """The cost Delta(y', 2) of every mistake on class 2: the dearer it is, the more room the
    multiclass SVM gives to class 2."""
    controls = {"cost_on_two": widgets.FloatSlider(value=1.0, min=0.0, max=10.0, step=0.5,
                                                   description="Δ(y', 2)", continuous_update=False,
                                                   layout=LAYOUT, style=STYLE)}

    def draw(ax, cost_on_two):
        sgd_panel(ax, learner="svm", rate=0.005, n_iter=3000, cost_on_two=cost_on_two)

    return Demo(draw, controls, width=6, height=5)
