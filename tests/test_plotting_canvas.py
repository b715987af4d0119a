"""The demos' canvas draws the pixels plain Agg draws: texts of every kind (rotated, slanted,
math, fallback symbols, boxed, not antialiased), at several resolutions, drawn twice (the
second time from the kept glyphs)."""

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

from course_lib.plotting.canvas import GLYPH_CACHE, GlyphCacheCanvas
from course_lib.plotting.style import new_figure


def _texts(ax, C):
    ax.plot([0, 1], [0, C])
    ax.set_title(f"C = {C:g}: 12 support vectors, ‖w‖ = 1.23, λ ξ Σ")
    ax.set_xlabel("$x_1$ and $\\alpha^t$")
    ax.set_ylabel("a rotated label")
    ax.annotate(f"{C / 3:.2f}", (0.3, 0.3), xytext=(6, 5), textcoords="offset points",
                bbox=dict(facecolor="white", alpha=0.7, edgecolor="none"))
    ax.text(0.1, 0.8, "slanted at 30 degrees", rotation=30)
    ax.text(0.13, 0.5, "not antialiased", antialiased=False)
    ax.text(0.5, 0.2, r"$\frac{1}{2}\|w\|^2 + C\sum_t \xi^t$", fontsize=14)


def _pixels(canvas_class, dpi, Cs):
    fig, ax = new_figure(width=5, height=4)
    canvas = canvas_class(fig)
    fig.set_dpi(dpi)
    frames = []
    for C in Cs:
        ax.clear()
        _texts(ax, C)
        canvas.draw()
        frames.append(np.asarray(canvas.buffer_rgba()).copy())
    return frames


@pytest.mark.parametrize("dpi", [96, 100, 192])
def test_the_kept_glyphs_draw_the_pixels_agg_draws(dpi):
    Cs = [1.0, 2.5, 1.0]  # the third frame redraws the first from kept glyphs
    for plain, kept in zip(_pixels(FigureCanvasAgg, dpi, Cs), _pixels(GlyphCacheCanvas, dpi, Cs)):
        assert np.array_equal(plain, kept)


def test_the_glyph_cache_is_on_with_this_matplotlib():
    """The pinned matplotlib has the internals the cache uses (else the canvas is plain Agg)."""
    assert GLYPH_CACHE
