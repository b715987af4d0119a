"""Chapter 11 demo: the C of the chain SSVM on the OCR letters, read from the cached models
(moving the slider trains nothing: the models at each C were trained by
tools/train_ocr_chain.py)."""

import ipywidgets as widgets

from course_lib.plotting.structured_chain import (
    plot_accuracy_vs_C, plot_templates, plot_transitions,
)
from course_lib.structured.chain import chain_model_of, load_ocr_chain_models
from course_lib.widgets.core import Demo


def draw_chain_model(axes, C, models=None):
    """Templates, transition weights and test accuracies of the cached chain model at C."""
    models = load_ocr_chain_models() if models is None else models
    index = list(models["C"]).index(C)
    W_unary, W_pair = chain_model_of(models).unpack(models["w_chain"][index])
    ax_templates, ax_pair, ax_accuracy = axes
    plot_templates(ax_templates, W_unary, ncols=7)
    plot_transitions(ax_pair, W_pair, colorbar=False)
    plot_accuracy_vs_C(ax_accuracy, models, C=C)
    chain, alone = models["test_accuracy_chain"][index], models["test_accuracy_letters"][index]
    ax_accuracy.set_title(f"C = {C:g}: chain {100 * chain:.1f} %, "
                          f"letters alone {100 * alone:.1f} %", fontsize=11)


def chain_C_demo(models=None):
    """A slider over the cached values of C (continuous_update=False: one redraw per release)."""
    models = load_ocr_chain_models() if models is None else models
    Cs = [float(C) for C in models["C"]]
    controls = {"C": widgets.SelectionSlider(
        options=[(f"{C:g}", C) for C in Cs], value=Cs[len(Cs) // 2], description="C",
        continuous_update=False, layout=widgets.Layout(width="360px"))}
    return Demo(lambda axes, C: draw_chain_model(axes, C, models), controls, ncols=3, width=4.6,
                height=4.4)
