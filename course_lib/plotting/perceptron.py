"""Chapter 09 figures: plain vs averaged multiclass perceptron regions, held-out accuracy by
epoch, and training time of the three ways of summing the average as features grow."""

from functools import lru_cache

import numpy as np
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.colors import to_rgba

from course_lib.data import load_ocr_letters, three_blobs, zipf_sparse
from course_lib.i18n import N_, _, number
from course_lib.perceptron import (AveragedPerceptron, accuracy_by_epoch, averaging_work, sparse_rows,
                                   weights_by_epoch)
from course_lib.plotting.artists import argmax_polygons, kept, region_edges, replace
from course_lib.plotting.cache import cached
from course_lib.plotting.registry import slide_figure
from course_lib.plotting.style import BLACK, BLUE, GREY, ORANGE, PALETTE, VERMILLION, new_figure
from course_lib.plotting.arguments import Numbers, OneOf, Panels, checked, count

MARKERS = ("o", "s", "^", "D", "v", "P")
VARIANT_STYLE = {
    "naive": dict(color=VERMILLION, marker="s", label=N_("naive (a ← a + w every example)")),
    "on_error": dict(color=ORANGE, marker="^", label=N_("on error (a ← a + n w)")),
    "lazy": dict(color=BLUE, marker="o", label=N_("lazy (stamps + final flush)")),
}


def _variant_style(variant):
    """VARIANT_STYLE[variant] with its label in the language of course_lib."""
    style = dict(VARIANT_STYLE[variant])
    text = style.pop("label")
    return dict(style, label=_(text))


def with_bias(X):
    """Append the constant feature 1 to 2-D points (the perceptron's offset w0 as a weight)."""
    return np.c_[X, np.ones(len(X))]


@cached(maxsize=4)
@checked(seed=count(0))
def blob_split(seed=0):
    """The chapter's 2-D three-class data: 150 training points and 600 held-out points."""
    X, y = three_blobs(n=150, seed=seed)
    X_held, y_held = three_blobs(n=600, seed=seed + 1000)
    return X, y, X_held, y_held


def fit_both(X, y, n_epochs, seed):
    """One averaged-perceptron run on (x1, x2, 1): its coef_ is the average a, its last_w_ the plain w."""
    return AveragedPerceptron(n_epochs=n_epochs, seed=seed).fit(with_bias(X), y)


@checked(xlim=Numbers(2), ylim=Numbers(2))
def draw_regions(ax, weights, classes, X, y, xlim=(-5.5, 5.5), ylim=(-5, 6), title=None):
    """Shade the regions argmax_y <w_y | (x1, x2, 1)> of a weight matrix (one row per label):
    exact polygons and their edges. On a live figure the polygons and the points are kept and
    updated, the boundaries redrawn."""
    xlim, ylim = tuple(xlim), tuple(ylim)
    weights = np.asarray(weights, dtype=float)
    colours = PALETTE[: len(classes)]
    regions = argmax_polygons(weights[:, :2].T, weights[:, 2], xlim, ylim)
    shown = [(polygon, to_rgba(colours[k], alpha=0.2)) for k, polygon in enumerate(regions) if len(polygon)]
    polygons = kept(ax, "regions", lambda: ax.add_collection(
        PolyCollection([], zorder=0, linewidths=0), autolim=False))
    polygons.set_verts([polygon for polygon, _ in shown])
    polygons.set_facecolor([tint for _, tint in shown])

    replace(ax, "boundaries", lambda: ax.add_collection(
        LineCollection(region_edges(regions, xlim, ylim), colors=BLACK, linewidths=1.2), autolim=False))
    for k, label in enumerate(classes):
        mask = np.asarray(y) == label
        points = kept(ax, ("label", k), lambda: ax.scatter(
            [], [], s=28, color=colours[k], marker=MARKERS[k % len(MARKERS)], edgecolor="black",
            linewidth=0.5, zorder=3))
        points.set_offsets(X[mask])
        points.set_label(_("label {label}").format(label=label))
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    if title:
        ax.set_title(title, fontsize=12)


def held_out_accuracy(weights, classes, X_held, y_held):
    """Accuracy of argmax_y <w_y | (x, 1)> on held-out points."""
    scores = with_bias(X_held) @ np.asarray(weights, dtype=float).T
    return float(np.mean(np.asarray(classes)[np.argmax(scores, axis=1)] == y_held))


@cached(maxsize=16)
@checked(seed=count(0), max_epochs=count(1, 1000), data_seed=count(0))
def blob_epochs(seed=0, max_epochs=30, data_seed=0):
    """(classes, plain w, averaged a) after each epoch 1..max_epochs on blob_split, one run per seed."""
    X, y, _, _ = blob_split(data_seed)
    return tuple(weights_by_epoch(with_bias(X), y, max_epochs, seed))


def _draw_weights(ax, classes, weights, which, n_epochs, seed, data_seed):
    X, y, X_held, y_held = blob_split(data_seed)
    accuracy = held_out_accuracy(weights, classes, X_held, y_held)
    draw_regions(ax, weights, classes, X, y,
                 title=_("{which}, {n_epochs} epochs, shuffle seed {seed}: held-out {accuracy:.1%}").format(
                     which=_(which), n_epochs=n_epochs, seed=seed, accuracy=accuracy))


@checked(axes=Panels(2), n_epochs=count(1, 1000), seed=count(0), data_seed=count(0))
def draw_plain_vs_averaged(axes, n_epochs=5, seed=0, data_seed=0):
    """Two panels: the plain perceptron's last w and the average a after n_epochs (shuffle `seed`)."""
    classes, w, a = blob_epochs(seed, max(30, n_epochs), data_seed)[n_epochs - 1]
    _draw_weights(axes[0], classes, w, N_("plain w"), n_epochs, seed, data_seed)
    _draw_weights(axes[1], classes, a, N_("averaged a"), n_epochs, seed, data_seed)


@checked(n_epochs=count(1, 1000), seed=count(0), which=OneOf(("plain w", "averaged a")), data_seed=count(0))
def draw_one_of_both(ax, n_epochs=5, seed=0, which="averaged a", data_seed=0):
    """One panel of draw_plain_vs_averaged: which = "plain w" or "averaged a" (for static grids)."""
    classes, w, a = blob_epochs(seed, max(30, n_epochs), data_seed)[n_epochs - 1]
    _draw_weights(ax, classes, w if which == "plain w" else a, which, n_epochs, seed, data_seed)


@checked(n_epochs=count(1, 1000), seeds=Numbers(None, each=count(0)))
def plain_vs_averaged_figure(n_epochs=5, seeds=(0, 1, 2)):
    """Columns: shuffle seeds; rows: plain vs averaged regions on the same data."""
    fig, axes = new_figure(ncols=len(seeds), nrows=2, width=4.6, height=4.0)
    axes = np.reshape(axes, (2, len(seeds)))
    for column, seed in enumerate(seeds):
        draw_plain_vs_averaged(axes[:, column], n_epochs=n_epochs, seed=seed)
    return fig


def draw_accuracy_by_epoch(ax, plain, averaged, chosen=None, title=None):
    """Held-out accuracy after each epoch, plain vs averaged; a dotted line at the chosen MAX_EPOCH."""
    epochs = np.arange(1, len(plain) + 1)
    ax.plot(epochs, plain, color=VERMILLION, marker="s", label=_("plain perceptron (last w)"))
    ax.plot(epochs, averaged, color=BLUE, marker="o", label=_("averaged perceptron (a)"))
    if chosen is not None:
        ax.axvline(chosen, color=GREY, linestyle=":", linewidth=2, label=_("MAX_EPOCH = {chosen}").format(
            chosen=chosen))
    ax.set_xlabel(_("epochs"))
    ax.set_ylabel(_("held-out accuracy"))
    ax.legend(loc="best")  # where it hides the fewest points: a low epoch can sit in any corner
    if title:
        ax.set_title(title, fontsize=12)


def accuracy_by_epoch_figure(plain, averaged, chosen=None, title=None):
    fig, ax = new_figure(width=7, height=4.5)
    draw_accuracy_by_epoch(ax, plain, averaged, chosen, title)
    return fig


def speedup_figure(sizes, seconds):
    """Training time of each variant against the number of features (log-log), `seconds[variant][k]`."""
    fig, axes = new_figure(ncols=2, width=5.8, height=4.5)
    for variant, times in seconds.items():
        axes[0].plot(sizes, times, **_variant_style(variant))
    axes[0].set_xscale("log")
    axes[0].set_yscale("log")
    axes[0].set_xlabel(_("number of features"))
    axes[0].set_ylabel(_("training time (s)"))
    axes[0].legend(fontsize=9, loc="upper left")
    for variant in ("on_error", "lazy"):
        ratio = np.asarray(seconds["naive"]) / np.asarray(seconds[variant])
        axes[1].plot(sizes, ratio, **_variant_style(variant))
    axes[1].axhline(1, color=BLACK, linewidth=1)
    axes[1].set_xscale("log")
    axes[1].set_xlabel(_("number of features"))
    axes[1].set_ylabel(_("speed-up over naive (x)"))
    axes[1].set_title(_("same run, same averaged weights"), fontsize=12)
    return fig


# ---------------------------------------------------------------- P5: OCR letters, P3-P4: cost


@cached(maxsize=1)
def ocr_split():
    """The OCR letters, one letter per example (128 pixels of 0/1; the perceptron reads a row as
    the sparse example {j: 1} of its active pixels, about 30 of 128). Returns (X_train, y_train,
    X_held, y_held, X_test, y_test): the letters of the words of fold 1 for training, of fold 2
    held-out (to choose MAX_EPOCH), of fold 0 for the test."""
    words, labels, folds = load_ocr_letters()
    parts = []
    for fold in (1, 2, 0):
        parts.append(np.vstack([w for w, f in zip(words, folds) if f == fold]))
        parts.append(np.concatenate([lab for lab, f in zip(labels, folds) if f == fold]))
    return tuple(parts)


@cached(maxsize=4)
@checked(seeds=Numbers(None, each=count(0)), max_epoch=count(1, 100))
def ocr_curves(seeds=(0, 1, 2, 3, 4), max_epoch=10):
    """Held-out accuracy after each epoch of the plain and averaged perceptron on ocr_split, one
    run per shuffle seed: two arrays (len(seeds), max_epoch)."""
    X, y, X_held, y_held, _, _ = ocr_split()
    curves = [accuracy_by_epoch(X, y, X_held, y_held, max_epoch=max_epoch, seed=s) for s in seeds]
    return np.array([c[0] for c in curves]), np.array([c[1] for c in curves])


@slide_figure("P5_ocr_plain_vs_averaged", slide="Perceptron moyenné (introduction: un perceptron sans « mémoire »)")
@checked(seeds=Numbers(None, each=count(0)), max_epoch=count(1, 100))
def ocr_plain_vs_averaged_figure(seeds=(0, 1, 2, 3, 4), max_epoch=10):
    """OCR letters (26 labels, active pixels): held-out accuracy by epoch, plain vs averaged, five shuffles"""
    plain, averaged = ocr_curves(tuple(seeds), max_epoch)
    epochs = np.arange(1, max_epoch + 1)
    fig, ax = new_figure(width=7.5, height=4.6)
    for k in range(len(seeds)):
        ax.plot(epochs, plain[k], color=VERMILLION, marker="s", lw=1.5, alpha=0.8,
                label=_("plain perceptron (last w)") if k == 0 else None)
        ax.plot(epochs, averaged[k], color=BLUE, marker="o", lw=1.5, alpha=0.8,
                label=_("averaged perceptron (a)") if k == 0 else None)
    ax.set_xlabel(_("epochs"))
    ax.set_ylabel(_("held-out accuracy"))
    ax.set_xticks(epochs)
    ax.set_ylim(min(plain.min(), averaged.min()) - 0.03, max(plain.max(), averaged.max()) + 0.05)
    ax.legend(loc="upper left", ncol=2, fontsize=10)
    ax.set_title(_("OCR letters, one line per shuffle seed ({seeds} seeds)").format(
        seeds=len(seeds)), fontsize=12)
    return fig


@cached(maxsize=4)
@checked(sizes=Numbers(None, each=count(1, 10**6)), n=count(1, 100_000), n_labels=count(2, 1000), seed=count(0))
def work_by_size(sizes=(1_000, 10_000, 100_000, 200_000), n=2000, n_labels=12, seed=0):
    """averaging_work of one epoch on zipf_sparse(n, n_features, n_labels) for each size."""
    results = []
    for n_features in sizes:
        X, y = zipf_sparse(n=n, n_features=n_features, n_labels=n_labels, seed=seed)
        rows, _, _ = sparse_rows(X, columns={j: j for j in range(n_features)})
        order = [np.random.default_rng(seed).permutation(n)]
        results.append(averaging_work(rows, y.tolist(), (n_labels, n_features), order))
    return results


@slide_figure("P4_cost_of_averaging", slide="Implémentation « rapide »")
@checked(sizes=Numbers(None, each=count(1, 10**6)))
def cost_of_averaging_figure(sizes=(1_000, 10_000, 100_000, 200_000)):
    """Entries of a updated in one epoch (2,000 sparse examples, 12 labels): naive, on error, lazy"""
    results = work_by_size(tuple(sizes))
    fig, axes = new_figure(ncols=2, width=5.8, height=4.5)
    for variant in ("naive", "on_error", "lazy"):
        axes[0].plot(sizes, [r[0][variant] for r in results], **_variant_style(variant))
    axes[0].set_xscale("log")
    axes[0].set_yscale("log")
    axes[0].set_xlabel(_("number of features d"))
    axes[0].set_ylabel(_("additions to entries of a"))
    axes[0].legend(fontsize=9, loc="upper left")
    errors = [r[1] for r in results]
    axes[0].set_title(_("{n} examples, one epoch, {fewest}-{most} errors").format(
        n=number(results[0][2]), fewest=number(min(errors)), most=number(max(errors))), fontsize=12)
    for variant in ("on_error", "lazy"):
        axes[1].plot(sizes, [r[0]["naive"] / r[0][variant] for r in results], **_variant_style(variant))
    axes[1].axhline(1, color=BLACK, linewidth=1)
    axes[1].set_xscale("log")
    axes[1].set_yscale("log")
    axes[1].set_xlabel(_("number of features d"))
    axes[1].set_ylabel(_("naive work / variant's work"))
    axes[1].set_title(_("same averaged weights, less work"), fontsize=12)
    return fig


@checked(k=count(1, 100))
def top_words_table(model, topic_names, k=6):
    """The k words of largest averaged weight for each topic, as text lines."""
    lines = []
    for row, label in enumerate(model.classes_):
        best = np.argsort(-model.coef_[row], kind="stable")[:k]
        words = ", ".join(model.feature_names_[j] for j in best)
        lines.append(f"{topic_names[label]:>13s}: {words}")
    return lines
