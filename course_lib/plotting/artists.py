"""Artists kept from one drawing to the next on the same axes: a live demo (a Demo with
clear=False) updates them instead of building the axes again; a static figure, or a demo whose
axes were cleared, gets them built on first use."""

import numpy as np
from matplotlib.axes import Axes


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
