"""Artists kept from one drawing to the next on the same axes: a live demo (a Demo with
clear=False) updates them instead of building the axes again; a static figure, or a demo whose
axes were cleared, gets them built on first use."""

import numpy as np
from matplotlib.axes import Axes
from matplotlib.path import Path


def kept(ax, key, make):
    """The artist (or tuple of artists) that `make()` added to `ax` under `key` the last time,
    or a new one from `make()` if there is none or the axes were cleared since. An Axes (a
    colour bar's) counts as kept while it is in the figure."""
    store = ax.__dict__.setdefault("_course_kept", {})
    artists = store.get(key)
    first = artists[0] if isinstance(artists, tuple) else artists
    if first is None or first not in (ax.figure.axes if isinstance(first, Axes) else ax.get_children()):
        artists = store[key] = make()
    return artists


def replace(ax, key, make):
    """Remove what `make()` added to `ax` under `key` the last time (a contour set, a list of
    texts, ...) and add the new `make()`: for drawings whose shape changes every frame."""
    store = ax.__dict__.setdefault("_course_replaced", {})
    for artist in store.get(key, ()):
        if artist.axes is ax:
            artist.remove()
    made = make()
    store[key] = list(made) if isinstance(made, (list, tuple)) else [made]
    return made


def argmax_boundaries(ax, xx, yy, scores, color="black"):
    """The boundaries of the argmax rule over `scores` (grid shape + (k,)): region k's is the
    level 0 of s_k - max_{j != k} s_j, drawn for each k whose lead changes sign on the grid."""
    sets = []
    for k in range(scores.shape[-1]):
        lead = scores[..., k] - np.delete(scores, k, axis=-1).max(axis=-1)
        if lead.min() < 0 < lead.max():
            sets.append(ax.contour(xx, yy, lead, levels=[0.0], colors=color, linewidths=1.2))
    return sets


def affine_scores(points, values):
    """(W, b) with values = points @ W + b up to rounding, if the scores `values` (n, k) of the
    grid's `points` (n, 2) are affine in the point; else None. Read from three corners of the
    grid (its first point, the first along x, the last) and checked at every point."""
    points, values = np.asarray(points, dtype=float), np.asarray(values, dtype=float)
    corners = points[[0, int(np.argmax(points[:, 0])), -1]]
    base = np.c_[corners, np.ones(3)]
    if abs(np.linalg.det(base)) < 1e-12:
        return None
    solved = np.linalg.solve(base, values[[0, int(np.argmax(points[:, 0])), -1]])
    W, b = solved[:2], solved[2]
    scale = max(1.0, float(np.abs(values).max()))
    return (W, b) if np.allclose(points @ W + b, values, rtol=0, atol=1e-9 * scale) else None


def argmax_polygons(W, b, xlim, ylim):
    """The regions of argmax_k (x @ W[:, k] + b[k]) inside the box xlim x ylim, exactly: region k
    is the box cut by the half-planes s_k(x) >= s_j(x), j != k (a tie goes to the first index,
    as np.argmax). Returns one (m, 2) array of vertices per k (empty if region k is empty)."""
    W, b = np.asarray(W, dtype=float), np.asarray(b, dtype=float)
    box = np.array([[xlim[0], ylim[0]], [xlim[1], ylim[0]], [xlim[1], ylim[1]], [xlim[0], ylim[1]]])
    regions = []
    for k in range(W.shape[1]):
        polygon = box
        for j in range(W.shape[1]):
            if j != k and len(polygon):
                polygon = _cut(polygon, W[:, k] - W[:, j], b[k] - b[j], keep_zero=k < j)
        regions.append(polygon)
    return regions


def _cut(polygon, normal, offset, keep_zero):
    """The part of a convex polygon where normal . x + offset >= 0 (> 0 unless keep_zero)."""
    side = polygon @ normal + offset
    inside = side >= 0 if keep_zero else side > 0
    if inside.all() or not inside.any():
        return polygon if inside.all() else polygon[:0]
    kept = []
    for i in range(len(polygon)):
        j = (i + 1) % len(polygon)
        if inside[i]:
            kept.append(polygon[i])
        if inside[i] != inside[j]:  # the edge crosses the line: keep the crossing
            t = side[i] / (side[i] - side[j])
            kept.append(polygon[i] + t * (polygon[j] - polygon[i]))
    return np.array(kept)


def region_edges(polygons, xlim, ylim):
    """The boundaries between the regions of argmax_polygons: every polygon edge that does not
    run along the box (each boundary comes twice, once from each side, as the contour of each
    region would draw it). Returns a list of (2, 2) segments."""
    span = max(np.ptp(xlim), np.ptp(ylim))
    sides = ((0, xlim[0]), (0, xlim[1]), (1, ylim[0]), (1, ylim[1]))
    edges = []
    for polygon in polygons:
        for start, end in zip(polygon, np.roll(polygon, -1, axis=0)):
            on_box = any(abs(start[axis] - at) <= 1e-9 * span and abs(end[axis] - at) <= 1e-9 * span
                         for axis, at in sides)
            if not on_box and np.any(start != end):
                edges.append(np.array([start, end]))
    return edges


def cell_runs(region, xlim, ylim, values):
    """The cells of an image of `region` (ny, nx) spread over the box xlim x ylim (row 0 at
    ylim[0], as imshow with origin="lower") as one compound path per value of `values`: a
    rectangle for every run of equal cells along a row. Returns a list of (vertices, codes),
    the same cells as the image's pixels, drawn as a few filled paths instead of resampled."""
    region = np.asarray(region)
    ny, nx = region.shape
    dx, dy = (xlim[1] - xlim[0]) / nx, (ylim[1] - ylim[0]) / ny
    starts = np.ones((ny, nx), bool)
    starts[:, 1:] = region[:, 1:] != region[:, :-1]
    rows, first = np.nonzero(starts)
    last = np.append(first[1:], nx)
    last[np.append(rows[1:] != rows[:-1], True)] = nx  # a run ends where the next starts, or at the row's end
    value = region[rows, first]
    shape = np.array([Path.MOVETO, Path.LINETO, Path.LINETO, Path.LINETO, Path.CLOSEPOLY], dtype=Path.code_type)
    paths = []
    for v in values:
        chosen = value == v
        x0, x1 = xlim[0] + dx * first[chosen], xlim[0] + dx * last[chosen]
        y0 = ylim[0] + dy * rows[chosen]
        y1 = y0 + dy
        corners = np.stack([np.c_[x0, y0], np.c_[x1, y0], np.c_[x1, y1], np.c_[x0, y1], np.c_[x0, y0]], axis=1)
        paths.append((corners.reshape(-1, 2), np.tile(shape, len(x0))))
    return paths
