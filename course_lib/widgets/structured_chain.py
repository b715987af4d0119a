"""Chapter 11 demos: the C of the chain SSVM on the OCR letters, and the weight of its
transitions when reading a word. Both read the cached models (moving a slider trains nothing:
the models at each C were trained by tools/train_ocr_chain.py)."""

import ipywidgets as widgets

from course_lib.i18n import _
from course_lib.plotting.structured_chain import distinct_test_words, draw_chain_model, draw_reading
from course_lib.structured.chain import load_ocr_chain_models, validated_index
from course_lib.widgets.core import Demo
from course_lib.plotting.arguments import checked, count


def chain_C_demo(models=None):
    """A slider over the cached values of C, starting at the C chosen on the validation fold;
    each value shows the cached model (nothing is trained), its artists updated in place."""
    models = load_ocr_chain_models() if models is None else models
    Cs = [float(C) for C in models["C"]]
    controls = {"C": widgets.SelectionSlider(
        options=[(f"{C:g}", C) for C in Cs], value=Cs[validated_index(models)], description="C",
        layout=widgets.Layout(width="360px"))}
    return Demo(lambda axes, C: draw_chain_model(axes, C, models), controls, ncols=2, width=4.6,
                height=4.4, clear=False)


@checked(word=count(0))
def transition_scale_demo(word=3):
    """Viterbi on a test word with the transition weights scaled from 0 (each letter alone) up
    to 5 times their learned value."""
    n_words = len(distinct_test_words())
    count(0, n_words - 1).check("word", word, "transition_scale_demo")
    controls = {
        "word": widgets.IntSlider(value=word, min=0, max=n_words - 1, description=_("word"),
                                  continuous_update=True, layout=widgets.Layout(width="360px")),
        "scale": widgets.FloatSlider(value=1.0, min=0.0, max=5.0, step=0.25,
                                     description=_("transitions ×"), continuous_update=True,
                                     style={"description_width": "initial"},
                                     layout=widgets.Layout(width="360px")),
    }
    return Demo(draw_reading, controls, width=6.0, height=2.4)
