"""Chapter 01 demos: every slider end redraws without error and changes the figure."""

from course_lib.widgets.linear import least_squares_outlier_demo, perceptron_replay_demo


def test_perceptron_replay_demo_covers_every_update():
    demo = perceptron_replay_demo()
    slider = demo.controls["update"]
    first = demo.image.value
    demo.set(update=slider.max)
    assert demo.image.value != first
    assert "update" in demo.ax.get_title() and f"{slider.max}/{slider.max}" in demo.ax.get_title()
    demo.set(update=slider.min)
    assert demo.image.value == first


def test_least_squares_demo_both_ends():
    demo = least_squares_outlier_demo()
    slider = demo.controls["distance"]
    images = set()
    for value in (slider.min, slider.max):
        demo.set(distance=value)
        images.add(demo.image.value)
        assert demo.seconds is not None
    assert len(images) == 2


def test_a_moved_slider_redraws_through_the_observer():
    demo = least_squares_outlier_demo()
    before = demo.image.value
    demo.controls["distance"].value = 12.0
    assert demo.image.value != before
    assert "course-demo-error" not in demo.status._dom_classes
