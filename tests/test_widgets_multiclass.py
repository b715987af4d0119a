"""Chapters 07-08 demos: every control end redraws without error and changes the figure."""

import pytest

from course_lib.plotting.multiclass import REDUCTIONS
from course_lib.widgets.multiclass import (
    cost_demo,
    forty_twenty_forty_demo,
    hinge_sgd_demo,
    reduction_demo,
    svm_lambda_demo,
)

DEMOS = [forty_twenty_forty_demo, reduction_demo, svm_lambda_demo, hinge_sgd_demo, cost_demo]


def control_ends(control):
    if hasattr(control, "options"):
        return list(control.options)
    return [control.min, control.max] if not hasattr(control, "base") else [control.base ** control.min,
                                                                              control.base ** control.max]


@pytest.mark.parametrize("make", DEMOS)
def test_every_control_end_redraws(make):
    demo = make()
    first = demo.image.value
    images = {first}
    for name, control in demo.controls.items():
        default = control.value
        for value in control_ends(control):
            demo.set(**{name: value})
            images.add(demo.image.value)
            assert demo.seconds is not None
        demo.set(**{name: default})
    assert len(images) > 2


def test_forty_twenty_forty_demo_titles_show_both_errors():
    demo = forty_twenty_forty_demo()
    titles = [ax.get_title() for ax in demo.ax]
    assert "error 0%" in titles[0] and "error 20%" in titles[1]


def test_signs_leave_some_points_undecided_and_confidences_do_not():
    demo = reduction_demo()
    demo.set(reduction=REDUCTIONS[1], spread=2.0)
    signs = demo.ax.get_title()
    demo.set(reduction=REDUCTIONS[0])
    confidences = demo.ax.get_title()
    accuracy = lambda title: float(title.rsplit(" ", 1)[1].rstrip("%"))  # noqa: E731
    assert "least squares" in signs
    assert accuracy(confidences) >= accuracy(signs)


def test_a_moved_slider_redraws_through_the_observer():
    demo = svm_lambda_demo()
    before = demo.image.value
    demo.controls["lam"].value = 1.0
    assert demo.image.value != before
    assert "course-demo-error" not in demo.status._dom_classes


def test_registered_multiclass_figures_render():
    from course_lib.plotting import multiclass  # noqa: F401  (registers the figures)
    from course_lib.plotting.registry import FIGURES

    stems = sorted(s for s in FIGURES if s[0] == "M")
    assert stems == ["M2_forty_twenty_forty", "M4_linear_multiclass", "M6_multi_vector", "M7_cost_matrix",
                     "M8_hinge_upper_bound", "M9_pac_bounds"]
    for stem in stems:
        spec = FIGURES[stem]
        assert spec.make(**spec.kwargs).axes
