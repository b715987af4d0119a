import io
import re

import numpy as np
import pytest
from PIL import Image

from course_lib import data
from course_lib.plotting.kernels import draw_hinge_gd
from course_lib.svm_gradient import KernelHingeGD
from course_lib.widgets import kernels as wk
from course_lib.widgets.core import Demo, log_slider


def slider_ends(control):
    return (10**control.min, 10**control.max)


def test_soft_margin_demo_at_both_ends_of_C():
    demo = wk.soft_margin_demo()
    for C in slider_ends(demo.controls["C"]):
        assert demo.set(C=C) > 0
        assert demo.png[:4] == b"\x89PNG"
    # the drawing changes with C: fewer support vectors at large C
    titles = []
    for C in slider_ends(demo.controls["C"]):  # shown again: the frames rendered above
        demo.set(C=C)
        assert demo.last_cached
        titles.append(re.search(r'alt="([^"]*)"', demo.image.value)[1])
    assert titles[0] != titles[1] and titles[0].startswith("C = 0.01: ")


@pytest.mark.parametrize("kernel", ["linear", "polynomial", "gaussian", "sigmoid"])
def test_kernel_svm_demo_at_every_corner(kernel):
    demo = wk.kernel_svm_demo()
    C_ends, sigma_ends = slider_ends(demo.controls["C"]), slider_ends(demo.controls["sigma"])
    degrees = (demo.controls["degree"].min, demo.controls["degree"].max)
    for C in C_ends:
        for sigma in sigma_ends:
            for degree in degrees:
                demo.set(kernel=kernel, C=C, sigma=sigma, degree=degree)
                assert kernel in demo.ax.get_title()


def test_hinge_gd_demo_at_both_ends_of_lambda():
    demo = wk.hinge_gd_demo()
    peaks = []
    for lam in slider_ends(demo.controls["lam"]):
        demo.set(lam=lam)
        peaks.append(max(line.get_ydata().max() for line in demo.ax[1].get_lines()[:-2]))
    assert peaks[0] > peaks[1]  # weak regularisation, larger alphas


def test_demos_accept_custom_data():
    X, r = data.linearly_separable(20, seed=5)
    assert wk.soft_margin_demo(X, r).seconds > 0
    assert wk.kernel_svm_demo(X, r, kernel="linear").seconds > 0
    assert wk.hinge_gd_demo(X, r).seconds > 0


def test_a_failing_redraw_is_reported_not_raised():
    demo = wk.soft_margin_demo()
    demo.controls["C"].value = float(np.nan)  # ipywidgets accepts it; the SVM refuses it
    assert "C must be" in demo.status.value


def test_the_lambda_path_is_the_fit_at_each_lambda():
    X, r = data.overlapping(n=30, seed=4)
    lams = [1e-3, 0.1, 10.0]
    path = wk.hinge_gd_path(X, r, lams, n_epochs=300)
    for lam in lams:
        alone = KernelHingeGD(lam=lam, n_epochs=300).fit(X, r)
        model = path[lam]
        assert np.allclose(model.alpha_history_, alone.alpha_history_, rtol=0, atol=1e-12)
        assert np.isclose(model.w0_, alone.w0_, rtol=0, atol=1e-12)
        assert np.isclose(model.duality_gap_, alone.duality_gap_, rtol=1e-9, atol=1e-12)
        assert model.converged_ == alone.converged_
        assert np.array_equal(model.predict(X), alone.predict(X))
    with pytest.raises(ValueError, match="lams must be"):
        wk.hinge_gd_path(X, r, [0.0, 1.0])


def pixels(png):
    return np.asarray(Image.open(io.BytesIO(png)))


def test_the_hinge_demo_updating_its_artists_shows_what_a_fresh_drawing_shows():
    X, r = data.overlapping(n=40, seed=0)
    free = KernelHingeGD(lam=0.0).fit(X, r)
    live = wk.hinge_gd_demo()
    fresh = Demo(lambda axes, lam: draw_hinge_gd(axes, X, r, lam=lam, free=free, bucket=wk.HISTORY_BUCKET),
                 {"lam": log_slider("lam", 0.1, -3, 2)}, ncols=2, width=5.5, height=4.8)
    for lam in (100.0, 10 ** -2.5):
        live.set(lam=lam)
        fresh.set(lam=lam)
        assert np.array_equal(pixels(live.png), pixels(fresh.png)), lam


def test_the_smallest_sigma_shows_islands_around_single_points():
    """At the slider's smallest sigma the frame shows the islands of h >= 0 around the +1 points
    (counted as blobs of the island tint in the rendered image), with no support-vector rings
    over them and a grid of at least two cells per sigma."""
    from matplotlib.colors import to_rgba
    from scipy import ndimage

    from course_lib.plotting.kernels import ISLAND_SIGMA, island_steps
    from course_lib.plotting.style import BLUE, grid_limits

    demo = wk.kernel_svm_demo()
    sigma = 10 ** demo.controls["sigma"].min
    assert sigma < ISLAND_SIGMA
    demo.set(sigma=sigma)
    X, _ = data.overlapping_curved(n=200, seed=0)
    xlim, ylim = grid_limits(X, 0.6)
    steps = island_steps(xlim, ylim, sigma, max_steps=480)
    assert max(xlim[1] - xlim[0], ylim[1] - ylim[0]) / (steps - 1) <= sigma / 2
    rings = [c for c in demo.ax.collections if hasattr(c, "get_sizes") and len(c.get_sizes())
             and c.get_sizes()[0] >= 100]
    assert not rings
    pixels = np.asarray(Image.open(io.BytesIO(demo.png)).convert("RGB")).astype(float)
    red, green, blue, alpha = to_rgba(BLUE, alpha=0.35)
    tint = 255 * (alpha * np.array([red, green, blue]) + (1 - alpha))  # over the white figure
    islands, count = ndimage.label(np.abs(pixels - tint).max(axis=2) < 12)
    sizes = np.bincount(islands.ravel())[1:]
    assert np.sum(sizes >= 20) >= 10, f"{np.sum(sizes >= 20)} islands of at least 20 pixels in the frame"


def test_hinge_gd_frames_keep_the_limits_that_fitting_them_to_the_data_gives():
    """update_hinge_gd refits the alpha panel's limits only when its data's range changed: the
    limits shown are those relim and autoscale give, at values across the slider."""
    from course_lib.widgets.kernels import hinge_gd_demo, slider_grid

    demo = hinge_gd_demo()
    ax = demo.ax[1]
    for lam in slider_grid(demo.controls["lam"])[::10]:
        demo.set(lam=float(lam))
        shown = ax.get_ylim()
        ax.relim()
        ax.autoscale_view()
        assert ax.get_ylim() == shown, lam


def test_the_alpha_lines_keep_every_runs_extremes_in_order():
    """bucket_extremes keeps the first and last epochs and, in each run of `bucket` epochs, the
    epochs of the smallest and largest value in order: a line through them reaches every value
    of the run, and bucket = 1 keeps every epoch."""
    from course_lib.plotting.kernels import bucket_extremes

    history = np.random.default_rng(3).normal(size=(2001, 5))
    epochs, values = bucket_extremes(history, 4)
    assert epochs.shape == values.shape == (2 + 2 * 501, 5)
    assert np.all(np.diff(epochs, axis=0) >= 0) and np.all(epochs[0] == 0) and np.all(epochs[-1] == 2000)
    assert np.array_equal(values, np.take_along_axis(history, epochs, axis=0))
    for run in range(501):
        block = history[4 * run:4 * run + 4]
        kept = values[1 + 2 * run:3 + 2 * run]
        assert np.allclose(np.sort(kept, axis=0), [block.min(axis=0), block.max(axis=0)])
    every, same = bucket_extremes(history, 1)
    assert np.array_equal(same, history) and np.array_equal(every[:, 0], np.arange(2001))
