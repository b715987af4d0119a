"""Chapter 09 demo: every slider end redraws without error and changes the figure."""

from course_lib.widgets.perceptron import plain_vs_averaged_demo


def test_plain_vs_averaged_demo_both_ends_of_each_slider():
    demo = plain_vs_averaged_demo()
    images = {demo.image.value}
    for name, slider in demo.controls.items():
        for value in (slider.min, slider.max):
            demo.set(**{name: value})
            images.add(demo.image.value)
            assert "course-demo-error" not in demo.status._dom_classes
    assert len(images) >= 4
    titles = [ax.get_title() for ax in demo.ax]
    assert titles[0].startswith("plain w") and titles[1].startswith("averaged a")


def test_a_moved_slider_redraws_through_the_observer():
    demo = plain_vs_averaged_demo()
    before = demo.image.value
    demo.controls["seed"].value = 3
    assert demo.image.value != before
    assert "shuffle seed 3" in demo.ax[0].get_title()
