"""Chapters 07-08 demos: the 40/20/40 share, the reductions, lambda of the multiclass SVM, eta of
SGD on the hinge risk, and the cost of a mistake on class 2 (M1-M3, M7, M10, M11).

The SGD demos compute, when built, the averaged output at every T of the slider for every lambda
(or eta, or cost) of their slider in one batched run (`sgd_paths`); moving a slider reads one of
them and updates the figure's artists."""

import ipywidgets as widgets
import numpy as np

from course_lib.i18n import _
from course_lib.plotting.multiclass import (
    LEARNERS,
    REDUCTIONS,
    cost_with,
    draw_sgd_model,
    fit_sgd,
    forty_twenty_forty_panels,
    noisy_forty_twenty_forty,
    reduction_fit,
    reduction_panel,
    sgd_model,
    sgd_paths,
)
from course_lib.widgets.core import Demo, log_slider
from course_lib.plotting.arguments import checked, count, positive

LAYOUT = widgets.Layout(width="360px")
# A menu as wide as its longest choice: in 360 px, "un-contre-le-reste (signes)" was cut in class mode.
CHOICE_LAYOUT = widgets.Layout(width="max-content")
STYLE = {"description_width": "initial"}
EVERY = 10  # the step of the T sliders


def slider_grid(control):
    """Every value a FloatLogSlider or FloatSlider offers: min, min + step, ..., max."""
    steps = int(round((control.max - control.min) / control.step))
    exponents = control.min + control.step * np.arange(steps + 1)
    return control.base ** exponents if hasattr(control, "base") else exponents


class SGDPaths:
    """The averaged outputs of `learner` ("svm" or "hinge") at T = EVERY, 2 EVERY, ..., n_iter
    for each run (rate, cost_on_two) of `runs`, computed at once by sgd_paths; `model(rate,
    cost_on_two, T)` is the learner at that setting (a fresh fit when it is not on the paths)."""

    def __init__(self, learner, runs, n_iter, every=EVERY):
        self.learner, self.runs, self.n_iter, self.every = learner, list(runs), n_iter, every
        X, y = noisy_forty_twenty_forty()
        self.averages = sgd_paths(learner, [rate for rate, _ in self.runs],
                                  [cost_with(cost) for _, cost in self.runs], n_iter, every, X, y)
        self.keys = np.log([[rate, 1.0 + cost] for rate, cost in self.runs])

    def model(self, rate, cost_on_two, T):
        """The fitted learner at (rate, cost_on_two, T): read off the paths when the setting is
        on them (to 1e-9 relative: a slider's value may differ from ours in its last digit)."""
        close = np.all(np.abs(self.keys - np.log([rate, 1.0 + cost_on_two])) < 1e-9, axis=1)
        if close.any() and T % self.every == 0 and self.every <= T <= self.n_iter:
            run = int(np.argmax(close))
            rate, cost_on_two = self.runs[run]
            return sgd_model(self.learner, rate, T, self.averages[T // self.every - 1, run],
                             cost_on_two=cost_on_two)
        return fit_sgd(self.learner, rate, T, cost_on_two=cost_on_two)


def forty_twenty_forty_demo():
    """Slider over the share of class 2 (classes 1 and 3 split the rest): one-vs-rest errs on
    the whole of class 2 as long as "always no" is its best halfspace; the argmax never errs."""
    controls = {"share": widgets.FloatSlider(value=0.2, min=0.05, max=0.6, step=0.05, description=_("share of class 2"),
                                             continuous_update=True, layout=LAYOUT, style=STYLE)}

    def draw(axes, share):  # arrows that run from the origin to w exactly: no clipping per frame
        forty_twenty_forty_panels(axes, share=share, shrink=0.0)

    return Demo(draw, controls, ncols=2, width=5.4, height=4.2, clear=False)


def reduction_demo():
    """Choose the reduction (one-vs-rest with confidences or signs, all pairs), the binary learner
    and the spread of three blobs; grey marks where the signs leave the class undecided. The
    spread follows the pointer with either learner (a Gaussian SVM's three fits on these 60
    points take 5-17 ms)."""
    controls = {
        "learner": widgets.Dropdown(options=[(_(name), name) for name in LEARNERS], value="least squares",
                                    description=_("learner"), layout=CHOICE_LAYOUT),
        "reduction": widgets.Dropdown(options=[(_(name), name) for name in REDUCTIONS], value=REDUCTIONS[1],
                                      description=_("reduction"), layout=CHOICE_LAYOUT),
        "spread": widgets.FloatSlider(value=1.3, min=0.3, max=3.0, step=0.1, description=_("spread"),
                                      continuous_update=True, layout=LAYOUT),
    }

    fits = {}  # (learner, all pairs?, spread) -> reduction_fit's (X, y, model)

    def fitted(learner, reduction, spread):
        key = (learner, reduction == REDUCTIONS[2], spread)
        if key not in fits:
            fits[key] = reduction_fit(reduction, spread, learner=learner)
        return fits[key]

    for learner in LEARNERS:  # the fits of the starting spread, so a new learner or reduction only draws
        for reduction in (REDUCTIONS[0], REDUCTIONS[2]):
            fitted(learner, reduction, controls["spread"].value)

    def draw(ax, learner, reduction, spread):
        reduction_panel(ax, reduction=reduction, spread=spread, learner=learner,
                        fitted=fitted(learner, reduction, spread))

    return Demo(draw, controls, width=6, height=5, clear=False)


def _sgd_demo(learner, rate_name, rate, low, high):
    """A slider over the rate (lambda or eta, log scale) and one over T; the paths of every
    rate of the slider up to its largest T are computed when the demo is built."""
    rate_slider = log_slider(rate_name, rate, low, high, description={"lam": "λ", "eta": "η"}[rate_name])
    controls = {
        rate_name: rate_slider,
        "n_iter": widgets.IntSlider(value=2000, min=EVERY, max=5000, step=EVERY, description="T",
                                    layout=LAYOUT),
    }
    rates = sorted({*slider_grid(rate_slider), rate})
    paths = SGDPaths(learner, [(r, 1.0) for r in rates], controls["n_iter"].max)

    def draw(ax, n_iter, **values):
        draw_sgd_model(ax, paths.model(values[rate_name], 1.0, n_iter))

    return Demo(draw, controls, width=6, height=5, clear=False)


def svm_lambda_demo():
    """lambda and T of the multiclass SVM trained by SGD; the averaged output is drawn."""
    return _sgd_demo("svm", "lam", 0.005, -4, 1)


def hinge_sgd_demo():
    """eta and T of SGD on the generalised hinge risk (no regularisation); averaged output."""
    return _sgd_demo("hinge", "eta", 0.1, -3, 1)


@checked(lam=positive(), n_iter=count(1, 100_000))
def cost_demo(lam=0.005, n_iter=3000):
    """The cost Delta(y', 2) of every mistake on class 2: the dearer it is, the more room the
    multiclass SVM gives to class 2."""
    control = widgets.FloatSlider(value=1.0, min=0.0, max=10.0, step=0.5, description="Δ(y', 2)",
                                  layout=LAYOUT, style=STYLE)
    paths = SGDPaths("svm", [(lam, float(c)) for c in slider_grid(control)], n_iter, every=n_iter)

    def draw(ax, cost_on_two):
        draw_sgd_model(ax, paths.model(lam, cost_on_two, n_iter))

    return Demo(draw, {"cost_on_two": control}, width=6, height=5, clear=False)
