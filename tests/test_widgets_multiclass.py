"""Chapters 07-08 demos: every control end redraws without error and changes the figure; the
precomputed SGD paths are the learners' own runs, a demo shows what the static drawing shows at
the same setting, and moving a control updates the figure without piling up artists."""

import numpy as np
import pytest
from matplotlib.figure import Figure

from course_lib.plotting.multiclass import (
    REDUCTIONS, cost_with, fit_sgd, noisy_forty_twenty_forty, sgd_panel, sgd_paths,
)
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
        return [option[1] if isinstance(option, tuple) else option for option in control.options]
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


@pytest.mark.parametrize("learner, rates", [("svm", (1e-4, 0.005, 10.0)), ("hinge", (1e-3, 0.1, 10.0))])
def test_sgd_paths_are_the_learners_runs_at_every_T(learner, rates):
    X, y = noisy_forty_twenty_forty()
    paths = sgd_paths(learner, rates, [cost_with(1.0)] * len(rates), 500, 10, X, y)
    for run, rate in enumerate(rates):
        for T in (10, 130, 500):
            assert np.array_equal(paths[T // 10 - 1, run], fit_sgd(learner, rate, T).w_)


def test_sgd_paths_take_one_cost_matrix_per_run():
    X, y = noisy_forty_twenty_forty()
    costs = (0.0, 2.5, 10.0)
    paths = sgd_paths("svm", [0.005] * 3, [cost_with(c) for c in costs], 300, 300, X, y)
    for run, cost in enumerate(costs):
        assert np.array_equal(paths[0, run], fit_sgd("svm", 0.005, 300, cost_on_two=cost).w_)
    with pytest.raises(ValueError, match="multiple of every"):
        sgd_paths("svm", [0.005], [cost_with(1.0)], 25, 10, X, y)


def _static_title(learner, rate, n_iter, cost_on_two=1.0):
    ax = Figure().add_subplot()
    sgd_panel(ax, learner, rate, n_iter, cost_on_two=cost_on_two)
    return ax.get_title()


def test_the_sgd_demos_show_the_static_panels_numbers():
    demo = svm_lambda_demo()
    lam = float(10.0 ** -2.3)
    demo.set(lam=lam, n_iter=1230)
    assert demo.ax.get_title() == _static_title("svm", lam, 1230)
    demo = hinge_sgd_demo()
    demo.set(eta=10.0, n_iter=10)
    assert demo.ax.get_title() == _static_title("hinge", 10.0, 10)
    demo = cost_demo()
    demo.set(cost_on_two=7.5)
    assert demo.ax.get_title() == _static_title("svm", 0.005, 3000, cost_on_two=7.5)


def test_a_value_off_the_paths_is_fitted():
    demo = svm_lambda_demo()
    demo.set(lam=0.0123, n_iter=2005)
    assert demo.ax.get_title() == _static_title("svm", 0.0123, 2005)


@pytest.mark.parametrize("make, name, values", [
    (forty_twenty_forty_demo, "share", (0.05, 0.35, 0.6)),
    (reduction_demo, "spread", (0.3, 1.7, 3.0)),
    (svm_lambda_demo, "n_iter", (10, 2500, 5000)),
    (cost_demo, "cost_on_two", (0.0, 4.5, 10.0)),
])
def test_every_move_changes_the_image_and_keeps_one_set_of_artists(make, name, values):
    demo = make()
    counts = [len(ax.get_children()) for ax in demo.fig.axes]
    images = {demo.png}
    for value in values:
        demo.set(**{name: value})
        images.add(demo.png)
        now = [len(ax.get_children()) for ax in demo.fig.axes]
        assert all(n <= c + 3 for n, c in zip(now, counts)), (counts, now)  # contours: 1 to 3
    assert len(images) == len(values) + 1


def test_the_spread_follows_the_pointer_with_either_learner():
    demo = reduction_demo()
    spread = demo.controls["spread"]
    for _, learner in demo.controls["learner"].options:
        demo.set(learner=learner)
        assert spread.continuous_update, learner


def test_the_menus_are_as_wide_as_their_longest_choice():
    """In 360 px beside its label, the reduction menu cut "un-contre-le-reste (signes)" in French
    class mode; a menu takes the width of its longest choice."""
    demo = reduction_demo()
    assert [demo.controls[name].layout.width for name in ("learner", "reduction")] == ["max-content"] * 2
