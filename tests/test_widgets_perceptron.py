"""Chapter 09 demo: every slider end redraws without error and changes the figure; it shows the
static panels' numbers at every setting and updates one set of artists when a slider moves."""

from matplotlib.figure import Figure

from course_lib.plotting.perceptron import draw_one_of_both
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


def test_the_demo_shows_the_static_panels_and_keeps_its_artists():
    demo = plain_vs_averaged_demo()
    counts = [len(ax.get_children()) for ax in demo.ax]
    images = {demo.png}
    for n_epochs, seed in ((1, 0), (30, 0), (30, 9), (12, 4)):
        demo.set(n_epochs=n_epochs, seed=seed)
        images.add(demo.png)
        for ax, which in zip(demo.ax, ("plain w", "averaged a")):
            static = Figure().add_subplot()
            draw_one_of_both(static, n_epochs=n_epochs, seed=seed, which=which)
            assert ax.get_title() == static.get_title()
        assert all(len(ax.get_children()) <= c + 1 for ax, c in zip(demo.ax, counts))  # 2 or 3 boundaries
    assert len(images) == 5
