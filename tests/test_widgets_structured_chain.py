"""Chapter 11's C demo: every cached C is shown with its C and accuracy in a title that fits the
figure, a colour bar, row names that do not overlap, and one set of artists updated in place."""

from course_lib.plotting.structured_chain import C_extremes_figure
from course_lib.plotting.style import png_bytes
from course_lib.structured.chain import load_ocr_chain_models
from course_lib.widgets.core import _text_outside
from course_lib.widgets.structured_chain import chain_C_demo


def _row_names_apart(ax):
    """Do the row names of the transition panel sit one above the other without touching?"""
    renderer = ax.figure._get_renderer()
    boxes = sorted((label.get_window_extent(renderer) for label in ax.get_yticklabels() if label.get_text()),
                   key=lambda box: box.y0)
    return all(lower.y1 <= upper.y0 for lower, upper in zip(boxes, boxes[1:]))


def test_every_C_shows_its_value_and_accuracy_inside_the_figure():
    models = load_ocr_chain_models()
    demo = chain_C_demo(models)
    ax_templates, ax_pair = demo.ax
    children = len(ax_templates.get_children()), len(ax_pair.get_children())
    images = set()
    for index, C in enumerate(models["C"]):
        demo.set(C=float(C))
        demo.update(cache=False)  # drawn, not the frame kept from the start
        title = ax_templates.get_title()
        assert title.startswith(f"C = {C:g}") and f"{100 * models['validation_accuracy_chain'][index]:.1f} %" in title
        assert not _text_outside(demo.fig), C
        assert len(demo.fig.axes) == 3  # the two panels and the colour bar of the transitions
        assert (len(ax_templates.get_children()), len(ax_pair.get_children())) == children
        assert _row_names_apart(ax_pair)
        images.add(demo.png)
    assert len(images) == len(models["C"])


def test_the_printed_stand_in_fits_its_titles():
    fig = C_extremes_figure()
    png_bytes(fig)  # lays the figure out
    renderer, box = fig._get_renderer(), fig.bbox
    titles = [ax.title for ax in fig.axes if ax.get_title()]
    assert len(titles) == 6 and titles[0].get_text().startswith("C = ")
    for title in titles:
        extent = title.get_window_extent(renderer)
        assert box.x0 <= extent.x0 and extent.x1 <= box.x1 and extent.y1 <= box.y1, title.get_text()
    assert len(fig.axes) == 9  # three rows of templates, transitions and colour bar
