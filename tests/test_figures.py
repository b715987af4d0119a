"""The slides' figures: every registered figure renders, regenerating it gives what is committed
in figures/ up to rounding (PNG: matplotlib's image comparison, RMS over pixels below PNG_TOL;
SVG: the same text around the numbers, and every number within SVG_ATOL points; a polyline that
matplotlib simplified to other vertices must run within SVG_ATOL of the committed one), stems start
with a syllabus ID, and figures/README.md lists them all. A drifting figure is named by its test id.

Rounding differs between machines (CPU kernels, BLAS threads) by a few units in the last
place, which can move an antialiased edge by a fraction of a pixel: that must not count, a
changed curve, label or colour must."""

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from matplotlib.figure import Figure
from matplotlib.testing.compare import compare_images

from course_lib.figures import collect
from course_lib.plotting.style import new_figure, save

ROOT = Path(__file__).resolve().parent.parent
FIGURES = ROOT / "figures"
SPECS = collect()
STEM = re.compile(r"^[KMPSV]\d+_\w+$")
REGENERATE = "run `make figures` and commit figures/"
PNG_TOL = 2.0  # RMS difference over the pixels, on 0..255: sub-pixel rounding stays far below
SVG_ATOL = 0.5  # SVG coordinates are in points (1/72 inch): half a point is below a pixel
NUMBER = re.compile(rb"-?\d+\.\d+(?:e-?\d+)?")


CLOSE_PATH = re.compile(rb"\bz\b")
SPACES = re.compile(rb"\s+")
HASHED_ID = re.compile(rb"\b[mp][0-9a-f]{10}\b")  # matplotlib names a path or clip by a hash of its data


def svg_parts(data):
    """(the SVG text with each decimal number replaced by #, those numbers). A path's closing
    "z" is dropped (rounding can close a contour whose two ends meet, which draws nothing more),
    and so are the ids matplotlib derives from a hash of the coordinates."""
    data = HASHED_ID.sub(b"id", SPACES.sub(b" ", CLOSE_PATH.sub(b" ", data)))
    return NUMBER.sub(b"#", data), np.array([float(m) for m in NUMBER.findall(data)])


PATH_DATA = re.compile(rb'\bd="([^"]*)"')
POLYLINE = re.compile(rb"^[\sML\d.e-]*z?\s*$")  # M, L and a closing z
COORDINATE = re.compile(rb"-?\d+(?:\.\d+)?(?:e-?\d+)?")


def same_numbers(a, b):
    """The same text around the numbers, and every number within SVG_ATOL."""
    (text_a, numbers_a), (text_b, numbers_b) = svg_parts(a), svg_parts(b)
    return text_a == text_b and bool(np.all(np.abs(numbers_a - numbers_b) <= SVG_ATOL))


def distance_to_polyline(points, vertices):
    """The largest distance from `points` (n, 2) to the polyline through `vertices` (m, 2)."""
    if len(vertices) == 1:
        return float(np.max(np.linalg.norm(points - vertices[0], axis=1)))
    start, direction = vertices[:-1], np.diff(vertices, axis=0)
    length2 = np.maximum(np.sum(direction**2, axis=1), 1e-300)
    farthest = 0.0
    for chunk in np.array_split(points, max(1, len(points) // 256)):
        t = np.clip(np.einsum("nmk,mk->nm", chunk[:, None, :] - start[None], direction) / length2, 0.0, 1.0)
        nearest = start[None] + t[..., None] * direction[None]
        farthest = max(farthest, float(np.max(np.min(np.linalg.norm(chunk[:, None, :] - nearest, axis=2), axis=1))))
    return farthest


def same_path(a, b):
    """Path data equal up to rounding; matplotlib simplifies a polyline by dropping vertices that
    lie within a fraction of a pixel of it, so a rounding can keep other vertices: two polylines
    then count as the same when each runs within SVG_ATOL of the other."""
    if same_numbers(a, b):
        return True
    if not (POLYLINE.match(a) and POLYLINE.match(b)):
        return False
    points_a, points_b = (np.array([float(x) for x in COORDINATE.findall(d)]).reshape(-1, 2) for d in (a, b))
    return (distance_to_polyline(points_a, points_b) <= SVG_ATOL
            and distance_to_polyline(points_b, points_a) <= SVG_ATOL)


def same_up_to_rounding(committed, fresh):
    if committed.suffix == ".svg":
        a, b = committed.read_bytes(), fresh.read_bytes()
        paths_a, paths_b = PATH_DATA.findall(a), PATH_DATA.findall(b)
        return (len(paths_a) == len(paths_b)
                and same_numbers(PATH_DATA.sub(b'd=""', a), PATH_DATA.sub(b'd=""', b))
                and all(same_path(*pair) for pair in zip(paths_a, paths_b)))
    if committed.read_bytes() == fresh.read_bytes():
        return True
    return compare_images(str(committed), str(fresh), tol=PNG_TOL) is None


def test_figures_are_registered():
    assert SPECS, "no figure is registered: course_lib.figures.collect() found nothing"


@pytest.mark.parametrize("stem", sorted(SPECS))
def test_stem_starts_with_a_syllabus_id(stem):
    assert STEM.match(stem), f"{stem!r} must look like 'K16_gaussian_small_sigma' (ID, underscore, name)"


@pytest.mark.parametrize("stem", sorted(SPECS))
def test_figure_regenerates_up_to_rounding(stem, tmp_path):
    spec = SPECS[stem]
    fig = spec.make(**spec.kwargs)
    assert isinstance(fig, Figure) and fig.axes, f"{stem}: the maker must return a Figure with axes"
    save(fig, str(tmp_path / stem))
    drifted, missing = [], []
    for suffix in (".png", ".svg"):
        committed = FIGURES / f"{stem}{suffix}"
        if not committed.exists():
            missing.append(committed.name)
        elif not same_up_to_rounding(committed, tmp_path / f"{stem}{suffix}"):
            drifted.append(committed.name)
    assert not missing, f"figures/{missing} missing: {REGENERATE}"
    assert not drifted, f"figures/{drifted} differ from what the code draws now: {REGENERATE}"


def test_figures_readme_lists_every_figure():
    readme = FIGURES / "README.md"
    assert readme.exists(), f"figures/README.md is missing: {REGENERATE}"
    text = readme.read_text(encoding="utf-8")
    unlisted = [stem for stem in SPECS if f"({stem}.png)" not in text]
    assert not unlisted, f"figures/README.md does not list {unlisted}: {REGENERATE}"


def test_no_stale_figure_files():
    stale = sorted(p.name for p in FIGURES.glob("*.png") if p.stem not in SPECS)
    stale += sorted(p.name for p in FIGURES.glob("*.svg") if p.stem not in SPECS)
    assert not stale, f"figures/ holds files no registered figure makes: {stale}"


SAMPLE = """
import sys
from course_lib.data import overlapping
from course_lib.plotting.style import new_figure, plot_points, save
X, r = overlapping()
fig, ax = new_figure()
plot_points(ax, X, r)
ax.set_title("$r^t \\\\in \\\\{-1, +1\\\\}$")
save(fig, sys.argv[1])
"""


def test_save_writes_the_same_bytes_in_every_process(tmp_path):
    """style.save leaves no timestamp or random id: two processes give identical files."""
    for run in ("a", "b"):
        subprocess.run([sys.executable, "-c", SAMPLE, str(tmp_path / run)], check=True, timeout=120)
    for suffix in (".png", ".svg"):
        assert (tmp_path / f"a{suffix}").read_bytes() == (tmp_path / f"b{suffix}").read_bytes(), suffix
    fig, ax = new_figure()
    ax.plot([0, 1], [0, 1])
    save(fig, str(tmp_path / "c"))
    assert b"Date" not in (tmp_path / "c.svg").read_bytes()


def test_comparison_ignores_rounding_and_sees_a_change(tmp_path):
    """A figure redrawn with coordinates moved by 1e-9 passes; a line moved by 2% fails."""
    def draw(name, shift):
        fig, ax = new_figure()
        x = np.linspace(0, 1, 50)
        ax.plot(x, np.sin(6 * x) + shift)
        ax.set_ylim(-1.5, 1.5)
        save(fig, str(tmp_path / name))
        return {s: tmp_path / f"{name}{s}" for s in (".png", ".svg")}

    base, rounding, change = draw("a", 0.0), draw("b", 1e-9), draw("c", 0.06)
    for suffix in (".png", ".svg"):
        assert same_up_to_rounding(base[suffix], rounding[suffix]), suffix
        assert not same_up_to_rounding(base[suffix], change[suffix]), suffix
