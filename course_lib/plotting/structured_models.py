"""Chapter 12 figures: the instantiations of the structured SVM (class tree and its Delta, ROC
and AUC, a learned metric, boxes and integral images, segmentation masks, a star model of parts)."""

from functools import lru_cache

import numpy as np
from matplotlib.colors import ListedColormap
from matplotlib.patches import Circle, Ellipse, Rectangle

from course_lib.i18n import _
from course_lib.plotting.artists import kept
from course_lib.plotting.registry import slide_figure
from course_lib.plotting.style import (
    BLACK, BLUE, GREEN, GREY, ORANGE, PURPLE, SKY, VERMILLION, YELLOW, new_figure,
)
from course_lib.structured.learners import OneSlackSSVM
from course_lib.structured.models import HierarchicalModel
from course_lib.structured.ranking import (
    RankingModel, auc, learn_metric, mahalanobis_features, roc_curve, toy_metric_queries,
    toy_ranking_queries,
)
from course_lib.structured.vision import (
    LocalisationModel, PottsSegmentationModel, SegmentationModel, integral_image, overlap, star_model_dp,
    toy_localisation, toy_pose, toy_segmentation,
)
from course_lib.plotting.arguments import Between, Numbers, Panels, checked, count, positive

TREE = {"root": ["animal", "vehicle"], "animal": ["cat", "dog"], "vehicle": ["car", "bus"]}
WORD_COLOURS = ListedColormap([ORANGE, YELLOW, SKY, BLUE, PURPLE, GREY][:4])
MASK_COLOURS = ListedColormap(["#d9d9d9", BLUE])


# --- S15 ------------------------------------------------------------------------------------
def draw_class_tree(ax, tree=TREE, highlight=()):
    """The class tree, leaves evenly spaced at the bottom, each parent above its children;
    the nodes in `highlight` (e.g. a path between two leaves) in vermillion."""
    model = HierarchicalModel(tree)
    leaves, x, depth = model.classes_, {}, {}

    def place(node, d):
        depth[node] = d
        children = tree.get(node, [])
        for child in children:
            place(child, d + 1)
        x[node] = leaves.index(node) if not children else np.mean([x[c] for c in children])

    root = next(iter(set(tree) - {c for cs in tree.values() for c in cs}))
    place(root, 0)
    for node, children in tree.items():
        for child in children:
            on_path = node in highlight and child in highlight
            ax.plot([x[node], x[child]], [-depth[node], -depth[child]],
                    color=VERMILLION if on_path else GREY, lw=3.5 if on_path else 2, zorder=1)
    for node in x:
        ax.text(x[node], -depth[node], node, ha="center", va="center", fontsize=12, zorder=2,
                bbox=dict(boxstyle="round", fc="white",
                          ec=VERMILLION if node in highlight else BLACK))
    ax.set_xlim(-0.7, len(leaves) - 0.3)
    ax.set_ylim(-max(depth.values()) - 0.5, 0.5)
    ax.axis("off")


def draw_delta_matrix(ax, delta, labels, title=r"$\Delta(y, y')$"):
    """A table of losses as a heat map with its numbers."""
    delta = np.asarray(delta, dtype=float)
    ax.imshow(delta, cmap="cividis_r", vmin=0)
    for (i, j), value in np.ndenumerate(delta):
        ax.text(j, i, f"{value:g}", ha="center", va="center",
                color="white" if value > delta.max() / 2 else "black", fontsize=13)
    ax.set_xticks(range(len(labels)), labels)
    ax.set_yticks(range(len(labels)), labels)
    ax.set_xlabel("$y'$")
    ax.set_ylabel("$y$")
    ax.set_title(title)


@slide_figure("S15_class_tree_delta", slide="Classification hiérarchique")
def class_tree_figure(tree=TREE):
    """The class tree (cat, dog, car, bus) and Delta = half the tree distance"""
    model = HierarchicalModel(tree)
    fig, (left, right) = new_figure(ncols=2, width=5.0, height=4.0)
    draw_class_tree(left, tree, highlight=("cat", "animal", "root", "vehicle", "bus"))
    left.set_title(_(r"cat $\to$ bus: 4 edges, $\Delta = 2$"))
    draw_delta_matrix(right, model.delta_matrix(), model.classes_,
                      title=_(r"$\Delta(y, y') = \frac{1}{2}$ tree distance"))
    return fig


# --- S17, S18 -------------------------------------------------------------------------------
def draw_roc(ax, r, scores, label, color=BLUE):
    """ROC curve of a ranking, with its AUC in the legend (kept and updated on a live figure)."""
    fpr, tpr = roc_curve(r, scores)
    curve = kept(ax, ("roc", label), lambda: ax.plot(fpr, tpr, color=color)[0])
    curve.set_data(fpr, tpr)
    curve.set_label(_("{label}: AUC = {auc:.3f}").format(label=label, auc=auc(r, scores)))
    kept(ax, ("diagonal", label), lambda: ax.plot([0, 1], [0, 1], color=GREY, lw=1, ls="--")[0])
    ax.set_xlabel(_("false positive rate"))
    ax.set_ylabel(_("true positive rate"))
    ax.set_aspect("equal")
    ax.legend(loc="lower right")


@lru_cache(maxsize=64)
def _ranking_weights(C, seed):
    X, R = toy_ranking_queries(n_queries=8, seed=seed)[:2]
    return OneSlackSSVM(RankingModel(), C=C).fit(X, R).w_


@checked(C=positive(), seed=count(0))
def draw_ranking_fit(ax, C=10.0, seed=0):
    """Train a ranking SSVM (one-slack, 8 queries) and draw the ROC of a held-out query
    before (w = 1) and after training."""
    X, R = toy_ranking_queries(n_queries=8, seed=seed)[:2]
    X_test, R_test = toy_ranking_queries(n_queries=1, n_items=40, seed=seed + 100)[:2]
    w = _ranking_weights(float(C), seed)
    draw_roc(ax, R_test[0], X_test[0] @ np.ones(X[0].shape[1]), _("before, w = 1"), GREY)
    draw_roc(ax, R_test[0], X_test[0] @ w, _("after training"), BLUE)


@slide_figure("S17_roc_auc_training",
              slide=r"Ranking : apprentissage $\Rightarrow \Delta(y_i, y) = ?$")
@checked(C=positive(), seed=count(0))
def ranking_roc_figure(C=10.0, seed=0):
    """ROC curve of a held-out query before (w = 1) and after structured SVM training"""
    fig, ax = new_figure(width=4.8, height=4.6)
    draw_ranking_fit(ax, C, seed)
    ax.set_title(_(r"$\Delta = 1 - \mathrm{AUC}$ on a held-out query"))
    return fig


def draw_metric_ranking(ax, query, items, r, W, title):
    """Items around a query, relevant in blue; the unit ball {b: d_W(q, b) = 1} of the metric."""
    eigenvalues, U = np.linalg.eigh(W)
    radii = 1 / np.sqrt(np.clip(eigenvalues, 1e-9, None))
    angle = np.degrees(np.arctan2(U[1, 0], U[0, 0]))
    ax.add_patch(Ellipse(query, 2 * min(radii[0], 50), 2 * min(radii[1], 50), angle=angle,
                         fc=SKY, alpha=0.3, ec=BLUE))
    for label, style in ((1, dict(c=BLUE, marker="o")), (-1, dict(c=VERMILLION, marker="s"))):
        ax.scatter(*items[r == label].T, edgecolor="black", s=50, zorder=3, **style)
    ax.scatter(*query, marker="*", s=300, c=YELLOW, edgecolor="black", zorder=4)
    scores = mahalanobis_features(query, items) @ W.ravel()
    ax.set_title(_("{title}\nAUC = {auc:.3f}").format(title=title, auc=auc(r, scores)))
    ax.set_xlim(-3, 3)
    ax.set_ylim(-5, 5)
    ax.set_aspect("equal")


@slide_figure("S18_learned_metric", slide="Ranking et apprentissage de distance")
@checked(lam=positive(), tol=Between(0, 1, open_low=True, open_high=True), seed=count(0))
def metric_figure(lam=0.01, tol=1e-2, seed=0):
    """Euclidean vs learned (PSD) Mahalanobis distance ranking the items of a query"""
    X, R = toy_metric_queries(seed=seed)
    W = learn_metric(X, R, lam=lam, psd=True, tol=tol)[0]
    (query, items), r = X[0], R[0]
    fig, axes = new_figure(ncols=2, width=4.0, height=5.0)
    draw_metric_ranking(axes[0], query, items, r, np.eye(2), _("Euclidean, W = I"))
    draw_metric_ranking(axes[1], query, items, r, W, _("learned W (PSD)"))
    return fig


# --- S16 ------------------------------------------------------------------------------------
@checked(box=Numbers(4))
def draw_box(ax, box, color, label=None, ls="-"):
    r0, c0, r1, c1 = box
    ax.add_patch(Rectangle((c0 - 0.5, r0 - 0.5), c1 - c0, r1 - r0, fill=False, ec=color, lw=3,
                           ls=ls, label=label))


def _kept_box(ax, key, box, color, label=None, ls="-"):
    """draw_box, the rectangle kept and moved on a live figure."""
    r0, c0, r1, c1 = box
    patch = kept(ax, key, lambda: ax.add_patch(Rectangle((0, 0), 1, 1, fill=False, ec=color, lw=3, ls=ls,
                                                         label=label)))
    patch.set_bounds(c0 - 0.5, r0 - 0.5, c1 - c0, r1 - r0)


def draw_words(ax, x):
    """A one-hot image of visual words as a map of word colours; returns the image."""
    image = ax.imshow(np.argmax(x, axis=2), cmap=WORD_COLOURS, vmin=0, vmax=WORD_COLOURS.N - 1)
    ax.set_xticks([])
    ax.set_yticks([])
    return image


@checked(w_object=Between(-100, 100), w_background=Between(-100, 100), seed=count(0))
def draw_box_inference(ax, w_object=1.0, w_background=-1.0, seed=1):
    """Exhaustive sliding-window inference on one toy image with w = (w_obj, w_obj, w_bg, w_bg)
    (w_obj = w_object, w_bg = w_background; words 0, 1 are the object's): the true and the found box."""
    X, Y = _toy_image(seed)
    model = LocalisationModel()
    y_hat = model.inference(X[0], np.array([w_object, w_object, w_background, w_background]))
    kept(ax, ("words", seed), lambda: draw_words(ax, X[0]))
    _kept_box(ax, "true", Y[0], GREEN, _("true"))
    _kept_box(ax, "found", y_hat, VERMILLION, _("found"), ls="--")
    ax.set_title(_("$\\Delta(y, \\hat y)$ = {delta:.2f}").format(
        delta=model.loss(Y[0], y_hat)), fontsize=12)


@lru_cache(maxsize=4)
def _toy_image(seed):
    return toy_localisation(n=1, seed=seed)


@slide_figure("S16_box_prediction",
              slide=r"Détection d'objet : fonction de prédiction $\Rightarrow \Psi(x,y) = ?$")
@checked(C=positive(), n_show=count(1, 12))
def localisation_figure(C=10.0, n_show=3):
    """True box vs the box found by exhaustive sliding windows after training"""
    X, Y = toy_localisation(n=12, seed=0)
    X_test, Y_test = toy_localisation(n=n_show, seed=1)
    model = LocalisationModel()
    ssvm = OneSlackSSVM(model, C=C).fit(X, Y)
    fig, axes = new_figure(ncols=n_show, width=3.4, height=3.8)
    for ax, x, y, y_hat in zip(np.atleast_1d(axes), X_test, Y_test, ssvm.predict(X_test)):
        draw_words(ax, x)
        draw_box(ax, y, GREEN, _("true"))
        draw_box(ax, y_hat, VERMILLION, _("found"), ls="--")
        ax.set_title(_("$\\Delta(y, \\hat y)$ = {delta:.2f}").format(
            delta=model.loss(y, y_hat)), fontsize=12)
    np.atleast_1d(axes)[0].legend(loc="lower left", fontsize=9)
    return fig


@slide_figure("S16_overlap_loss",
              slide=r"Détection d'objet : apprentissage $\Rightarrow \Delta(y_i, y) = ?$")
@checked(y=Numbers(4, each=count(0, 100)), y_hat=Numbers(4, each=count(0, 100)), size=count(1, 100))
def overlap_figure(y=(1, 1, 6, 5), y_hat=(3, 2, 8, 8), size=9):
    """Delta(y, y') = 1 - area(y n y') / area(y u y')"""
    fig, ax = new_figure(width=4.4, height=4.4)
    union = np.zeros((size, size))
    for r0, c0, r1, c1 in (y, y_hat):
        union[r0:r1, c0:c1] += 1
    ax.imshow(union, cmap=ListedColormap(["white", SKY, BLUE]), vmin=0, vmax=2)
    draw_box(ax, y, GREEN, "$y$")
    draw_box(ax, y_hat, VERMILLION, "$y'$", ls="--")
    iou = float(overlap(np.array(y), np.array(y_hat)))
    ax.set_title(_("overlap = {iou:.3f}, $\\Delta$ = {delta:.3f}").format(iou=iou, delta=1 - iou))
    ax.legend(loc="lower left")
    ax.set_xticks([])
    ax.set_yticks([])
    return fig


@slide_figure("S16_integral_image", slide="SSVM: instantiation pour la Détection d'objet")
@checked(box=Numbers(4, each=count(0, 6)), seed=count(0))
def integral_image_figure(box=(2, 1, 5, 4), seed=0):
    """Any box sum from four entries of the integral image: D - B - C + A"""
    x = np.random.default_rng(seed).integers(0, 4, size=(6, 6))
    S = integral_image(x)
    r0, c0, r1, c1 = box
    fig, (left, right) = new_figure(ncols=2, width=4.4, height=4.4)
    left.imshow(x, cmap="Greys", vmin=-2, vmax=5)
    for (i, j), v in np.ndenumerate(x):
        left.text(j, i, v, ha="center", va="center")
    draw_box(left, box, VERMILLION)
    left.set_title(_("x: box sum = {total}").format(total=x[r0:r1, c0:c1].sum()))
    right.imshow(S, cmap="Greys", vmin=-20, vmax=S.max() * 1.5)
    for (i, j), v in np.ndenumerate(S):
        right.text(j, i, f"{v:g}", ha="center", va="center", fontsize=10)
    for (i, j), name in (((r0, c0), "A"), ((r0, c1), "B"), ((r1, c0), "C"), ((r1, c1), "D")):
        right.add_patch(Circle((j, i), 0.45, fill=False, ec=VERMILLION, lw=2))
        right.text(j + 0.35, i - 0.3, name, color=VERMILLION, fontsize=11, weight="bold")
    total = S[r1, c1] - S[r0, c1] - S[r1, c0] + S[r0, c0]
    right.set_title(f"S: D - B - C + A = {total:g}")
    for ax in (left, right):
        ax.set_xticks([])
        ax.set_yticks([])
    return fig


# --- S19 ------------------------------------------------------------------------------------
def draw_segmentation(axes, image, y, y_hat=None):
    """Image, true mask and (if given) the predicted mask with its wrong pixels marked (the
    images and marks kept and updated on a live figure)."""
    drawing = id(axes[2])  # two drawings sharing their first panels (segmentation_figure) keep theirs
    shown = kept(axes[0], ("image", drawing), lambda: axes[0].imshow(image, cmap="Greys_r"))
    shown.set_data(image)
    shown.autoscale()  # grey levels over this image's range, as a new imshow would
    axes[0].set_title(_("image $x$"))
    kept(axes[1], ("mask", drawing), lambda: axes[1].imshow(y, cmap=MASK_COLOURS, vmin=0, vmax=1)).set_data(y)
    axes[1].set_title(_("true mask $y$"))
    if y_hat is not None:
        kept(axes[2], "mask", lambda: axes[2].imshow(y_hat, cmap=MASK_COLOURS, vmin=0, vmax=1)).set_data(y_hat)
        rows, cols = np.nonzero(y_hat != y)
        wrong = kept(axes[2], "wrong", lambda: axes[2].scatter(cols, rows, marker="x", c=VERMILLION, s=25))
        wrong.set_offsets(np.c_[cols, rows])
        axes[2].set_title(_("prediction, $\\Delta$ = {delta:.3f}").format(delta=np.mean(y_hat != y)))
    for ax in axes:
        ax.set_xticks([])
        ax.set_yticks([])


@lru_cache(maxsize=64)
def _segmentation_weights(C, noise, potts=False):
    X, Y, _ = toy_segmentation(n=6, noise=noise, seed=0)
    model = PottsSegmentationModel(2) if potts else SegmentationModel(2)
    return OneSlackSSVM(model, C=C).fit(X, Y).w_


@checked(axes=Panels(3), C=positive(), noise=positive(10))
def draw_segmentation_fit(axes, C=1000.0, noise=0.5, potts=False):
    """Train the segmentation SSVM (per pixel, or with the Potts term on row chains) on 6 noisy
    images and draw a held-out one, its mask and the predicted mask."""
    X_test, Y_test, images = toy_segmentation(n=1, noise=noise, seed=1)
    model = PottsSegmentationModel(2) if potts else SegmentationModel(2)
    y_hat = model.inference(X_test[0], _segmentation_weights(float(C), float(noise), bool(potts)))
    draw_segmentation(axes, images[0], Y_test[0], y_hat)


@slide_figure("S19_segmentation_masks",
              slide=r"Segmentation sémantique d'images : prédiction $\Rightarrow \Psi(x,y) = ?$")
@checked(C=positive(), noise=positive(10), n_held_out=count(1, 1000))
def segmentation_figure(C=100.0, noise=1.0, n_held_out=10):
    """A noisy image, its mask, and the masks predicted per pixel and with a Potts term"""
    fig, axes = new_figure(ncols=4, width=3.4, height=4.2)
    X_test, Y_test = toy_segmentation(n=n_held_out, noise=noise, seed=100)[:2]
    for panels, potts, name in ((axes[:3], False, _("per pixel")), ((axes[0], axes[1], axes[3]), True, _("Potts (rows)"))):
        draw_segmentation_fit(panels, C, noise, potts=potts)
        model = PottsSegmentationModel(2) if potts else SegmentationModel(2)
        w = _segmentation_weights(float(C), float(noise), potts)
        mean = np.mean([model.loss(y, model.inference(x, w)) for x, y in zip(X_test, Y_test)])
        panels[2].set_title(_("{name}: {detail}\nmean over {n_held_out} "
                            "held-out: {mean:.3f}").format(
                                name=name, detail=panels[2].get_title().split(', ')[1], n_held_out=n_held_out, mean=mean), fontsize=11)
    return fig


@slide_figure("S19_hamming_loss", slide=r"Segmentation sémantique d'images : $\Delta(y_i, y) = ?$")
def hamming_figure(flip=((3, 3), (3, 4), (8, 8), (0, 11))):
    """Delta(y_i, y) = fraction of wrong pixels"""
    Y, images = toy_segmentation(n=1, seed=0)[1:]
    y_hat = Y[0].copy()
    for p in flip:
        y_hat[p] = 1 - y_hat[p]
    fig, axes = new_figure(ncols=3, width=3.4, height=3.6)
    draw_segmentation(axes, images[0], Y[0], y_hat)
    delta = len(flip) / y_hat.size
    axes[2].set_title(_("$y$: {flip} / {size} wrong, $\\Delta$ = {delta:.3f}").format(
        flip=len(flip), size=y_hat.size, delta=delta))
    return fig


# --- S20 ------------------------------------------------------------------------------------
PART_NAMES = ("torso", "head", "hand")


def draw_pose(ax, coords, locations, color, label, marker="o"):
    """A star of parts: the root (torso) joined to each child part."""
    points = coords[list(locations)]
    for child in points[1:]:
        ax.plot([points[0, 1], child[1]], [points[0, 0], child[0]], color=color, lw=3)
    ax.scatter(points[:, 1], points[:, 0], c=color, s=160, marker=marker, edgecolor="black",
               zorder=3, label=label)


@slide_figure("S20_pose_star_model", slide=r"Estimation de pose : $\Delta(y_i, y)$?")
@checked(seed=count(0))
def pose_figure(seed=0):
    """Part detectors alone vs the star model minimising unary + spring energies (exact DP)"""
    unary, pairwise, true, coords = toy_pose(seed=seed)
    grid = int(np.sqrt(len(coords)))
    independent = [int(np.argmin(u)) for u in unary]
    best, energy = star_model_dp(unary, pairwise)
    fig, axes = new_figure(ncols=2, width=4.4, height=4.4)
    for ax, locations, title in ((axes[0], independent, _("each part alone: argmin unary")),
                                 (axes[1], best, _("star model (DP): E = {energy:.2f}").format(
                                     energy=energy))):
        ax.imshow(unary[2].reshape(grid, grid), cmap="Greys", alpha=0.6)
        draw_pose(ax, coords, true, GREEN, _("true pose"), marker="s")
        draw_pose(ax, coords, locations, VERMILLION, _("found"))
        for name, p in zip(PART_NAMES, coords[list(locations)]):
            ax.annotate(name, (p[1], p[0]), xytext=(6, 6), textcoords="offset points")
        ax.set_title(title, fontsize=12)
        ax.set_xticks([])
        ax.set_yticks([])
    axes[0].legend(loc="lower left", fontsize=9)
    return fig
