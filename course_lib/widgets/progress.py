"""A progress bar under a cell that computes for several seconds (ipywidgets' own IntProgress),
so that a long cell shows it is moving."""

import ipywidgets as widgets
from IPython import get_ipython
from IPython.display import display

from course_lib.i18n import N_, _

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
# the words chapters write under their bars, for the catalog (a single word is no prose the
# chapters' own catalogs take): progress(range(3), "splits") shows "partitions" in French
DESCRIPTIONS = (N_("splits"),)


def progress(items, description=""):
    """Yield each of `items` (a sequence) while a bar under the cell counts those done, labelled
    `description` in the language set (course_lib.set_language; the word marked in DESCRIPTIONS).

    The bar is shown as a widget view only, without the text that stands in for it where
    widgets are not rendered: the cell's saved outputs, which nbval compares, stay those of
    its computation."""
    if isinstance(items, (str, bytes)) or not hasattr(items, "__iter__"):
        raise TypeError(_("items must be a sequence of the things to compute (e.g. range(3)); got "
                          "{value!r}.").format(value=items))
    if not isinstance(description, str):
        raise TypeError(_("description must be a str (the word written beside the bar); got "
                          "{value!r}.").format(value=description))
    return _counted(list(items), description)


def _counted(items, description):
    """progress's generator: the arguments are checked when progress is called, not when the
    first item is asked for."""
    bar = widgets.IntProgress(value=0, min=0, max=len(items), description=_(description),
                              style={"description_width": "initial"})
    if getattr(get_ipython(), "kernel", None) is not None:  # in a Jupyter kernel: a front end shows it
        display({WIDGET_VIEW: bar._repr_mimebundle_()[WIDGET_VIEW]}, raw=True)
    for item in items:
        yield item
        bar.value += 1
    bar.bar_style = "success"
