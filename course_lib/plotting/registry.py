"""The list of the slides' figures: each drawing function of `plotting` that stands for a figure
placeholder of the seeds registers itself here with `@slide_figure(...)`."""

from dataclasses import dataclass, field

from course_lib.i18n import _


@dataclass(frozen=True)
class FigureSpec:
    stem: str  # file name without extension, syllabus ID first: "K2_perceptron_nonseparable_epoch3"
    title: str  # what the figure shows, in English
    slide: str  # the slide title in the seeds (French), where the placeholder stands
    make: object  # function(**kwargs) -> Figure
    kwargs: dict = field(default_factory=dict)

    @property
    def syllabus_id(self):
        return self.stem.split("_", 1)[0]


FIGURES = {}


def slide_figure(stem, slide, title=None, **kwargs):
    """Register the decorated function as the maker of figure `stem` (called with **kwargs).

    Stack the decorator to register several frames of one function with different kwargs.
    """

    def decorate(function):
        if stem in FIGURES:
            raise ValueError(_("figure {stem!r} is registered twice").format(stem=stem))
        doc_title = (function.__doc__ or stem).strip().splitlines()[0]
        FIGURES[stem] = FigureSpec(stem, title or doc_title, slide, function, dict(kwargs))
        return function

    return decorate
