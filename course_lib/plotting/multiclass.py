"""Chapters 07-08 figures: the 40/20/40 example, reductions, argmax regions of linear multiclass
predictors, the multi-vector Psi, cost matrices, the generalised hinge bound, SGD for the
multiclass SVM and the PAC bound curves (M1-M11)."""

from functools import lru_cache

import numpy as np
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.colors import to_rgba

from course_lib.data import forty_twenty_forty, three_blobs
from course_lib.i18n import N_, _
from course_lib.linear import LeastSquaresClassifier
from course_lib.multiclass import (
    AllPairs,
    HalfspaceERM,
    MultiVector,
    OneVsRest,
    generalised_hinge,
    predict_index,
    zero_one_cost,
)
from course_lib._validation import check_non_negative, check_random_state, finite_arguments
from course_lib.multiclass_svm import HingeRiskSGD, MulticlassSVM, sgd_excess_bound, sgd_iterations, svm_excess_bound
from course_lib.plotting.artists import (
    affine_scores, argmax_boundaries, argmax_polygons, cell_runs, kept, region_edges, replace,
)
from course_lib.plotting.cache import cached
from course_lib.plotting.registry import slide_figure
from course_lib.svm import SVM
from course_lib.plotting.style import BLACK, GREY, PALETTE, new_figure
from course_lib.plotting.arguments import Between, Numbers, OneOf, Panels, checked, count, positive

MARKERS = ("o", "s", "^", "D", "v", "P")
SLIDES_W = np.array([[-1.0, 1.0], [0.0, np.sqrt(2.0)], [1.0, 1.0]]) / np.sqrt(2.0)
REDUCTIONS = (N_("one-vs-rest (confidences)"), N_("one-vs-rest (signs)"), N_("all pairs (votes)"))
LEARNERS = {  # binary learners wrapped by the reductions
    N_("least squares"): LeastSquaresClassifier,
    N_("Gaussian SVM (C = 1, sigma = 1.5)"): lambda: SVM(C=1.0, kernel="gaussian", sigma=1.5),
}
BOX = dict(xlim=(-3.2, 3.2), ylim=(-1.2, 2.6))
SGD_LEARNERS = ("svm", "hinge")  # MulticlassSVM (rate = lambda), HingeRiskSGD (rate = eta)
SHARE = Between(0, 1, open_low=True, open_high=True)  # the share of class 2 (the others split the rest)


# ---------------------------------------------------------------- drawing functions


@checked(size=positive(10_000))
def plot_classes(ax, X, y, classes, size=40):
    """Scatter points of several classes: one colour and marker per class, in the order of classes."""
    for k, label in enumerate(classes):
        mask = np.asarray(y) == label
        points = kept(ax, ("class", k), lambda: ax.scatter(
            [], [], s=size, color=PALETTE[k], marker=MARKERS[k % len(MARKERS)], edgecolor="black",
            linewidth=0.5, zorder=3))
        points.set_offsets(X[mask])
        points.set_label(_("class {label}").format(label=label))


@lru_cache(maxsize=8)
def _grid(xlim, ylim, steps):
    """The steps x steps grid over xlim x ylim: (xx, yy, its points as rows)."""
    xx, yy = np.meshgrid(np.linspace(*xlim, steps), np.linspace(*ylim, steps))
    return xx, yy, np.c_[xx.ravel(), yy.ravel()]


@checked(n_classes=count(1, 100), steps=count(2, 4000))
def draw_regions(ax, region_of, n_classes, xlim, ylim, steps=220, key=None):
    """Tint the regions of region_of(points): either a class index per point (-1: undecided, grey)
    or, for an argmax rule, the (n, k) matrix of scores. With scores, each boundary is drawn as the
    level 0 of s_k - max_{j != k} s_j, interpolated between grid points (straight for linear
    scores); with indices, as the contour of the index map (a staircase at the grid's step).
    Scores affine in x (a linear rule) get the exact polygons of the regions and their edges as
    boundaries; others the grid's cells, filled as one path per region (cell_runs: the pixels
    of an image of the cells, without resampling one). `key`: when given and the same as at the
    last call on `ax` (a rule that does not change between a demo's frames), the regions drawn
    then are kept as they are."""
    store = ax.__dict__.setdefault("_course_kept", {})
    if key is not None and store.get("regions key") == (key, n_classes, tuple(xlim), tuple(ylim), steps) \
            and store.get("region polygons") in ax.get_children():
        return
    store["regions key"] = None
    xx, yy, points = _grid(tuple(xlim), tuple(ylim), steps)
    values = np.asarray(region_of(points))
    tints = [to_rgba(c, alpha=0.22) for c in PALETTE[:n_classes]] + [to_rgba(GREY, alpha=0.45)]
    affine, regions = None, []
    if values.ndim == 2:
        scores = values.reshape(*xx.shape, -1)
        region = np.argmax(scores, axis=2)
        affine = affine_scores(points, values)
        regions = argmax_polygons(*affine, xlim, ylim) if affine is not None else []

        def boundaries():
            if affine is not None:
                return [ax.add_collection(LineCollection(region_edges(regions, xlim, ylim), colors=BLACK,
                                                         linewidths=1.2), autolim=False)]
            return argmax_boundaries(ax, xx, yy, scores, color=BLACK)
    else:
        region = values.reshape(xx.shape)

        def boundaries():
            return [ax.contour(xx, yy, region, levels=np.arange(-0.5, n_classes), colors=BLACK, linewidths=1.2)]
    replace(ax, "boundaries", boundaries)
    polygons = kept(ax, "region polygons", lambda: ax.add_collection(
        PolyCollection([], zorder=0, linewidths=0), autolim=False))
    if affine is not None:
        shown = [(polygon, tints[k]) for k, polygon in enumerate(regions) if len(polygon)]
        polygons.set_verts([polygon for polygon, _ in shown])
    else:  # the grid's cells, as an image would show them: -1 (undecided) is the grey after the classes
        cells = cell_runs(np.where(region < 0, n_classes, region), xlim, ylim, range(n_classes + 1))
        shown = [(cell, tints[k]) for k, cell in enumerate(cells) if len(cell[1])]
        polygons.set_verts_and_codes([vertices for (vertices, _), _ in shown], [codes for (_, codes), _ in shown])
    polygons.set_antialiased(affine is not None)  # cells meet edge to edge: no blended seams
    polygons.set_facecolor([tint for _, tint in shown])
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    store["regions key"] = None if key is None else (key, n_classes, tuple(xlim), tuple(ylim), steps)


@checked(shrink=Between(0, 100))
def draw_vectors(ax, W, labels=None, shrink=2.0):
    """Arrows from the origin for the rows w_y of W (2-D), labelled w_1, w_2, ... on a white box
    (readable over the points). `shrink`: the points left free at both ends of an arrow
    (matplotlib's default 2; 0 spares the live demo the clipping of each arrow's path)."""
    shrink = check_non_negative(shrink, "shrink")
    for k, w in enumerate(np.asarray(W)):
        arrow, text = kept(ax, ("vector", k), lambda: (
            ax.annotate("", xy=(0, 0), xytext=(0, 0), zorder=4,
                        arrowprops=dict(arrowstyle="-|>", color=PALETTE[k], lw=2.5, mutation_scale=18,
                                        shrinkA=shrink, shrinkB=shrink)),
            ax.text(0, 0, "", color=PALETTE[k], fontsize=13, ha="center", va="center", zorder=6,
                    bbox=dict(boxstyle="round,pad=0.15", facecolor="white", edgecolor="none", alpha=0.85))))
        arrow.xy = tuple(w)
        text.set_position(tuple(1.15 * w))
        text.set_text(labels[k] if labels else f"$w_{k + 1}$")
    kept(ax, "origin", lambda: ax.plot([0], [0], "k+", markersize=10)[0])


def mark_errors(ax, X, wrong):
    errors = kept(ax, "errors", lambda: ax.scatter([], [], s=70, color=BLACK, marker="x", linewidth=1.5,
                                                   zorder=4, label=_("error")))
    errors.set_offsets(X[wrong])


# ---------------------------------------------------------------- M2: the 40/20/40 example


@lru_cache(maxsize=64)
def _forty_twenty_forty(share, seed):
    rest = (1.0 - share) / 2
    return forty_twenty_forty(n=200, seed=seed, shares=(rest, share, rest))


@lru_cache(maxsize=64)
def _ovr_halfspaces(share, seed):
    """One-vs-rest around HalfspaceERM on the 40/20/40 data (cached by share: a demo revisits it)."""
    X, y = _forty_twenty_forty(share, seed)
    return OneVsRest(HalfspaceERM()).fit(X, y)


@checked(share=SHARE, seed=count(0), shrink=Between(0, 100))
def slides_argmax_panel(ax, share=0.2, seed=0, shrink=2.0):
    """argmax_i <w_i, x> with the slides' w_1, w_2, w_3 on the 40/20/40 data; returns its error.
    `shrink`: see draw_vectors."""
    X, y = _forty_twenty_forty(share, seed)
    error = float(np.mean(np.argmax(X @ SLIDES_W.T, axis=1) + 1 != y))
    draw_regions(ax, lambda P: P @ SLIDES_W.T, 3, **BOX, key="slides' w")  # the same at every share
    draw_vectors(ax, SLIDES_W, shrink=shrink)
    plot_classes(ax, X, y, [1, 2, 3])
    ax.set_title(_("argmax$_i \\langle w_i, x\\rangle$ (slides' $w$): error {error:.0%}").format(
        error=error), fontsize=12)
    return error


@checked(share=SHARE, seed=count(0), shrink=Between(0, 100))
def ovr_halfspace_panel(ax, share=0.2, seed=0, shrink=2.0):
    """One-vs-rest around the best homogeneous halfspaces (exact 0-1 ERM) on the 40/20/40 data
    with class 2 holding `share` of the points; errors crossed. Returns its error. `shrink`: see
    draw_vectors."""
    X, y = _forty_twenty_forty(share, seed)
    ovr = _ovr_halfspaces(share, seed)
    wrong = ovr.predict(X) != y
    draw_regions(ax, ovr.decision_function, 3, **BOX)
    draw_vectors(ax, [e.w_ for e in ovr.estimators_], labels=[_("$w_{i}$ (ERM)").format(
        i=i) for i in (1, 2, 3)], shrink=shrink)
    plot_classes(ax, X, y, [1, 2, 3])
    mark_errors(ax, X, wrong)
    rest = (1.0 - share) / 2
    legend = kept(ax, "legend", lambda: ax.legend(loc="upper center", ncol=4, fontsize=9, title=" ",
                                                   title_fontsize=9, columnspacing=0.8, handletextpad=0.3))
    legend.set_title(_("shares {rest:.0%} / {share:.0%} / {rest:.0%}").format(rest=rest, share=share))
    ax.set_title(_("one-vs-rest, best halfspaces: error {error:.0%}").format(
        error=np.mean(wrong)), fontsize=12)
    return float(np.mean(wrong))


@checked(axes=Panels(2), share=SHARE, seed=count(0), shrink=Between(0, 100))
def forty_twenty_forty_panels(axes, share=0.2, seed=0, shrink=2.0):
    """Left: the slides' argmax; right: one-vs-rest. Returns both errors. `shrink`: see
    draw_vectors."""
    return slides_argmax_panel(axes[0], share, seed, shrink), ovr_halfspace_panel(axes[1], share, seed, shrink)


@slide_figure("M2_forty_twenty_forty", slide="L'utilité de la confiance de prédiction argmax_i <w_i, x>")
@checked(share=SHARE)
def forty_twenty_forty_figure(share=0.2):
    """The 40/20/40 example: the slides' argmax is always right, one-vs-rest errs on class 2"""
    fig, axes = new_figure(ncols=2, width=5.6, height=4.2)
    forty_twenty_forty_panels(axes, share=share)
    return fig


# ---------------------------------------------------------------- M1, M3: reductions


@checked(reduction=OneOf(REDUCTIONS), spread=positive(10), seed=count(0), learner=OneOf(tuple(LEARNERS)))
def reduction_fit(reduction=REDUCTIONS[0], spread=1.3, seed=0, learner="least squares"):
    """(X, y, fitted model) of a reduction around a binary learner of LEARNERS on three_blobs,
    classes 1, 2, 3 as in the slides (both one-vs-rest reductions fit the same OneVsRest)."""
    reduce = _reduction_class(reduction, learner)
    X, y = three_blobs(n=150, seed=seed, spread=spread)
    y = y + 1
    return X, y, reduce(LEARNERS[learner]()).fit(X, y)


def _described(fitted):
    """'(X, y, OneVsRest)' for a triple, else the type's name: what reduction_panel was given."""
    if isinstance(fitted, tuple) and len(fitted) == 3:
        return f"(X, y, {type(fitted[2]).__name__})"
    return type(fitted).__name__


def _reduction_class(reduction, learner):
    """The class that fits `reduction` (AllPairs or OneVsRest), once both names are checked."""
    if reduction not in REDUCTIONS:
        raise ValueError(_("reduction must be one of {reductions}; got {reduction!r}.").format(
                             reductions=', '.join(map(repr, REDUCTIONS)), reduction=reduction))
    if learner not in LEARNERS:
        raise ValueError(_("learner must be one of {learners}; got {learner!r}.").format(
                             learners=', '.join(map(repr, LEARNERS)), learner=learner))
    return AllPairs if reduction == REDUCTIONS[2] else OneVsRest


@checked(reduction=OneOf(REDUCTIONS), spread=positive(10), seed=count(0), learner=OneOf(tuple(LEARNERS)))
def reduction_panel(ax, reduction=REDUCTIONS[0], spread=1.3, seed=0, learner="least squares", fitted=None):
    """A reduction around a binary learner of LEARNERS on three_blobs: its regions (grey: the
    signs leave the class undecided) and the training accuracy in the title. Classes are 1, 2, 3 as
    in the slides. Returns that accuracy. `fitted`: reduction_fit's (X, y, model) for these
    arguments, when already computed (fitted here if None)."""
    reduce = _reduction_class(reduction, learner)
    if fitted is not None and not (isinstance(fitted, tuple) and len(fitted) == 3
                                   and isinstance(fitted[2], reduce)):
        raise TypeError(_("fitted must be what reduction_fit returns for these arguments, (X, y, "
                          "model) with a fitted {kind} model, or None; got {value}.").format(
                              kind=reduce.__name__, value=_described(fitted)))
    X, y, model = reduction_fit(reduction, spread, seed, learner) if fitted is None else fitted
    if reduction == REDUCTIONS[2]:
        def region_of(P):
            return np.searchsorted(model.classes_, model.predict(P))
    elif reduction == REDUCTIONS[1]:
        def region_of(P):
            positive = model.decision_function(P) >= 0  # h_i(x) = +1, as the binary predict
            return np.where(positive.sum(axis=1) == 1, np.argmax(positive, axis=1), -1)
    else:
        region_of = model.decision_function
    predict = model.predict_with_signs if reduction == REDUCTIONS[1] else model.predict
    accuracy = float(np.mean(predict(X) == y))  # of the rule drawn: the signs' argmax for the signs panel
    draw_regions(ax, region_of, 3, xlim=(-5.5, 5.5), ylim=(-5, 6))
    plot_classes(ax, X, y, model.classes_)
    ax.set_title(_("{reduction}, {learner}:\ntraining accuracy {accuracy:.1%}").format(
        reduction=_(reduction), learner=_(learner).split(' (')[0], accuracy=accuracy), fontsize=12)
    return accuracy


# ---------------------------------------------------------------- M4, M6: linear multiclass predictors


@cached(maxsize=4)
@checked(n=count(3, 100_000), seed=count(0), noise=Between(0, 10))
def noisy_forty_twenty_forty(n=90, seed=1, noise=0.35):
    """The 2-D three-class set of the SGD demos: 40/20/40 with jitter."""
    return forty_twenty_forty(n=n, seed=seed, noise=noise)


@slide_figure("M4_linear_multiclass", slide="Classificateurs linéaires multi-classes")
def linear_multiclass_figure():
    """Binary case argmax_{y in +-1} <w, y x> beside a three-class argmax_y <w, Psi(x, y)>"""
    fig, axes = new_figure(ncols=2, width=5.4, height=4.3)
    w = np.array([1.0, 0.6])
    draw_regions(axes[0], lambda P: np.c_[-(P @ w), P @ w], 2, xlim=(-2.5, 2.5), ylim=(-2.5, 2.5))
    draw_vectors(axes[0], [-w, w], labels=["$-w$ (y = -1)", "$+w$ (y = +1)"])
    axes[0].set_title(_("binary: argmax$_{y=\\pm 1}\\langle w, yx\\rangle$ = sign$\\langle w, x\\rangle$"), fontsize=12)
    X, y = noisy_forty_twenty_forty()
    model = MulticlassSVM(lam=0.005, n_iter=3000, seed=0).fit(X, y)
    draw_regions(axes[1], model.decision_function, 3, **BOX)
    draw_vectors(axes[1], model.coef_)
    plot_classes(axes[1], X, y, model.classes_)
    axes[1].set_title(_("three classes: argmax$_y\\langle w, \\Psi(x, y)\\rangle$"), fontsize=12)
    return fig


@slide_figure("M6_multi_vector", slide="La construction à vecteurs multiples")
@checked(x=Numbers(None), n_classes=count(1, 12))
def multi_vector_figure(x=(0.8, -0.5, 1.2), n_classes=4):
    """Psi(x, y) for y = 1..k: x sits in block y, zeros elsewhere (dimension n k)"""
    x = np.asarray(x, dtype=float)
    psi = MultiVector().fit(x[None], [0], n_classes)
    rows = np.array([psi.psi(x, y) for y in range(n_classes)])
    fig, ax = new_figure(width=8, height=3.2)
    limit = np.abs(rows).max()
    image = ax.imshow(rows, cmap="PuOr", vmin=-limit, vmax=limit, aspect="auto")
    for (i, j), value in np.ndenumerate(rows):
        r, g, b = image.cmap(image.norm(value))[:3]
        dark = 0.299 * r + 0.587 * g + 0.114 * b < 0.5  # white text on dark cells
        ax.text(j, i, f"{value:g}", ha="center", va="center", fontsize=11, color="white" if dark else BLACK)
    for b in range(1, n_classes):
        ax.axvline(b * len(x) - 0.5, color=BLACK, lw=2)
    ax.set_yticks(range(n_classes), [f"$\\Psi(x, {y + 1})$" for y in range(n_classes)])
    ax.set_xticks([b * len(x) + (len(x) - 1) / 2 for b in range(n_classes)],
                  [_("block {b} ($w_{b}$)").format(b=b + 1) for b in range(n_classes)])
    ax.set_title(_("x = {x}: dim $\\Psi$ = n|Y| = {n} × {n_classes} = {dimension}").format(
        x=tuple(x.tolist()), n=len(x), n_classes=n_classes, dimension=psi.dimension_), fontsize=12)
    return fig


# ---------------------------------------------------------------- M7, M8: costs and the hinge


CAT_DOG_WHALE = (("cat", "dog", "whale"), np.array([[0.0, 1.0, 10.0], [1.0, 0.0, 10.0], [10.0, 10.0, 0.0]]))


def draw_cost_matrix(ax, Delta, names):
    """A cost matrix as a table: row y' (predicted), column y (truth)."""
    Delta = np.asarray(Delta, dtype=float)
    ax.imshow(Delta, cmap="Oranges", vmin=0)
    for (i, j), value in np.ndenumerate(Delta):
        ax.text(j, i, f"{value:g}", ha="center", va="center", fontsize=14)
    ax.set_xticks(range(len(names)), names)
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel(_("truth $y$"))
    ax.set_ylabel(_("prediction $y'$"))


@slide_figure("M7_cost_matrix", slide="Fonction de perte sensible aux coûts")
def cost_matrix_figure():
    """Some mistakes are worse: a cat-dog-whale cost matrix beside the 0-1 loss"""
    names, Delta = CAT_DOG_WHALE
    fig, axes = new_figure(ncols=2, width=4.2, height=3.8)
    draw_cost_matrix(axes[0], Delta, names)
    axes[0].set_title(_("$\\Delta(y', y)$: a cat is not a whale"), fontsize=12)
    draw_cost_matrix(axes[1], zero_one_cost(3), names)
    axes[1].set_title(_("0-1 loss $1[y' \\neq y]$"), fontsize=12)
    return fig


def hinge_along_a_line(x, y, base, direction, Delta, s):
    """Delta(h_w(x), y) and l(w, (x, y)) for w = base + s * direction, for each s (multi-vector Psi)."""
    x = np.asarray(x, dtype=float)
    psi = MultiVector().fit(x[None], [y], Delta.shape[0])
    W = np.asarray(base, dtype=float) + np.outer(s, direction)
    task = np.array([Delta[predict_index(w, x[None], psi)[0], y] for w in W])
    hinge = np.array([generalised_hinge(w, x[None], np.array([y]), psi, Delta)[0] for w in W])
    return task, hinge


@slide_figure("M8_hinge_upper_bound", slide="Hinge Loss généralisé")
def hinge_bound_figure():
    """The generalised hinge lies above Delta(h_w(x), y) and reaches 0 once every margin exceeds Delta"""
    names, Delta = CAT_DOG_WHALE
    # x = (1, 0) of class cat; scores along the line: cat s, dog 1, whale -s - 2
    x, y = np.array([1.0, 0.0]), 0
    base = np.array([0.0, 0.0, 1.0, 0.0, -2.0, 0.0])  # (w_cat, w_dog, w_whale) stacked
    direction = np.array([1.0, 0.0, 0.0, 0.0, -1.0, 0.0])
    s = np.linspace(-6, 6, 1201)
    task, hinge = hinge_along_a_line(x, y, base, direction, Delta, s)
    fig, ax = new_figure(width=7, height=4.2)
    ax.plot(s, hinge, color=PALETTE[0], label=_("generalised hinge $\\ell(w, (x, y))$"))
    ax.plot(s, task, color=PALETTE[1], drawstyle="steps-mid", label="$\\Delta(h_w(x), y)$")
    zero = s[np.argmax(hinge <= 0)]
    ax.axvline(zero, color=GREY, ls="--", lw=1.5)
    ax.text(zero + 0.2, hinge.max() * 0.6, _("every margin\n$\\geq \\Delta(y', y)$"), color=GREY, fontsize=11)
    for where, text in ((-4.6, "whale"), (-1.0, "dog"), (2.5, "cat")):
        ax.text(where, -1.2, f"$h_w(x)$ = {text}", ha="center", fontsize=10)
    ax.set_xlabel(_("$s$: scores cat $s$, dog $1$, whale $-s-2$"))
    ax.set_ylabel(_("loss"))
    ax.set_title(_("true class {y}, cat-dog-whale costs").format(y=names[y]), fontsize=12)
    ax.legend()
    return fig


# ---------------------------------------------------------------- M9-M11: SGD and PAC curves


def _sgd_learner(learner, rate, n_iter, seed, cost):
    if learner == "svm":
        return MulticlassSVM(lam=rate, n_iter=n_iter, seed=seed, cost=cost)
    if learner == "hinge":
        return HingeRiskSGD(eta=rate, n_iter=n_iter, seed=seed, cost=cost)
    raise ValueError(_("learner must be 'svm' (MulticlassSVM) or 'hinge' (HingeRiskSGD); got "
                       "{learner!r}.").format(learner=learner))


@checked(cost_on_two=Between(0, 100), k=count(2, 100))
def cost_with(cost_on_two, k=3):
    """The 0-1 cost with Delta(y', 2) = cost_on_two for every y' != 2."""
    Delta = zero_one_cost(k)
    Delta[[0, 2], 1] = cost_on_two
    return Delta


def sgd_paths(learner, rates, costs, n_iter, every, X, y, seed=0):
    """The averaged output w_bar = (1/T) sum_{t<=T} w^(t) of MulticlassSVM (rates: lambda) or
    HingeRiskSGD (rates: eta) at T = every, 2 every, ..., n_iter, for several runs at once: run r
    has rate rates[r] and cost matrix costs[r], and all runs share the learner's draws of i_t
    (seed). Step for step the learners' updates (multi-vector Psi, loss-augmented y_hat):

        svm:   w^(t+1) = (1 - 1/t) w^(t) - 1/(2 lambda t) [Psi(x_i, y_hat) - Psi(x_i, y_i)]
        hinge: w^(t+1) = w^(t) - eta [Psi(x_i, y_hat) - Psi(x_i, y_i)]

    Returns an array (n_iter // every, runs, k n): the learners' w_ for n_iter = T, the same
    numbers (tests/test_widgets_multiclass.py checks it), at the cost of one run."""
    if learner not in ("svm", "hinge"):
        raise ValueError(_("learner must be 'svm' (MulticlassSVM) or 'hinge' (HingeRiskSGD); got "
                           "{learner!r}.").format(learner=learner))
    if n_iter % every:
        raise ValueError(_("n_iter ({n_iter}) must be a multiple of every ({every}).").format(
                             n_iter=n_iter, every=every))
    classes, y_index = np.unique(y, return_inverse=True)
    rates, costs = np.asarray(rates, dtype=float), np.asarray(costs, dtype=float)
    runs, k = np.arange(len(rates)), len(classes)
    W = np.zeros((len(rates), k, X.shape[1]))
    total = np.zeros_like(W)
    averages = np.empty((n_iter // every, len(rates), W[0].size))
    draws = check_random_state(seed).integers(len(X), size=n_iter)
    for t, i in enumerate(draws, start=1):
        total += W
        if t % every == 0:
            averages[t // every - 1] = (total / t).reshape(len(rates), -1)
        x, y_i = X[i], y_index[i]
        scores = W @ x
        y_hat = np.argmax(costs[:, :, y_i] + scores - scores[:, y_i][:, None], axis=1)
        if learner == "svm":
            W *= 1.0 - 1.0 / t
            step = 1.0 / (2 * rates * t)
        else:
            step = rates
        wrong = runs[y_hat != y_i]
        W[wrong, y_hat[wrong]] += -step[wrong][:, None] * x
        W[wrong, y_i] += step[wrong][:, None] * x
    return averages


@checked(learner=OneOf(SGD_LEARNERS), rate=positive(), n_iter=count(1, 100_000), seed=count(0), cost_on_two=Between(0, 100))
def sgd_model(learner, rate, n_iter, w, seed=0, cost_on_two=1.0):
    """The learner of sgd_panel whose averaged output w_ is `w` (a point of sgd_paths) instead
    of a run's: its objective, risk and predictions are then the learner's own at that w."""
    X, y = noisy_forty_twenty_forty()
    model = _sgd_learner(learner, rate, 1, seed, cost_with(cost_on_two)).fit(X, y)
    model.n_iter = n_iter
    model.w_ = np.asarray(w, dtype=float)
    return model


def draw_sgd_model(ax, model):
    """Regions of the averaged output of a fitted MulticlassSVM or HingeRiskSGD on the noisy
    40/20/40 data, with its vectors w_y and, in the title, its objective (or hinge risk) and
    training accuracy."""
    X, y = noisy_forty_twenty_forty()
    if isinstance(model, MulticlassSVM):
        name = _("multiclass SVM, $\\lambda$ = {lam:.3g}, objective {objective:.3f}").format(
            lam=model.lam, objective=model.objective(X, y))
    else:
        name = _("SGD on the hinge risk, $\\eta$ = {eta:.3g}, risk {risk:.3f}").format(
            eta=model.eta, risk=model.hinge_losses(X, y).mean())
    draw_regions(ax, model.decision_function, 3, **BOX)
    W = model.coef_
    scale = 2.0 / max(np.abs(W).max(), 1e-12)
    draw_vectors(ax, W * min(scale, 1.0))
    plot_classes(ax, X, y, model.classes_)
    accuracy = np.mean(model.predict(X) == y)
    shrink = "" if scale >= 1 else _(", arrows x{scale:.2g}").format(scale=scale)
    ax.set_title(_("{name}\naveraged $\\bar w$: training accuracy {accuracy:.0%}{shrink}").format(
        name=name, accuracy=accuracy, shrink=shrink), fontsize=11)


@checked(learner=OneOf(SGD_LEARNERS), rate=positive(), n_iter=count(1, 100_000), seed=count(0), cost_on_two=Between(0, 100))
def sgd_panel(ax, learner="svm", rate=0.05, n_iter=2000, seed=0, cost_on_two=1.0):
    """Regions of the averaged output of MulticlassSVM (rate = lambda) or HingeRiskSGD
    (rate = eta) on the noisy 40/20/40 data, with its vectors w_y; `cost_on_two` is
    Delta(y', 2) for every y' != 2. Returns the fitted model."""
    model = fit_sgd(learner, rate, n_iter, seed, cost_on_two)
    draw_sgd_model(ax, model)
    return model


@checked(learner=OneOf(SGD_LEARNERS), rate=positive(), n_iter=count(1, 100_000), seed=count(0), cost_on_two=Between(0, 100))
def fit_sgd(learner="svm", rate=0.05, n_iter=2000, seed=0, cost_on_two=1.0):
    """The model of sgd_panel: MulticlassSVM (rate = lambda) or HingeRiskSGD (rate = eta) fitted
    on the noisy 40/20/40 data with Delta(y', 2) = cost_on_two."""
    return _sgd_learner(learner, rate, n_iter, seed, cost_with(cost_on_two)).fit(*noisy_forty_twenty_forty())


@slide_figure("M9_pac_bounds", slide="Garantie PAC sur le risque du SVM multi-classes")
@checked(rho=positive(), Bs=Numbers(None, each=positive()), eps=Between(0, 1, open_low=True, open_high=True))
def pac_bounds_figure(rho=2.0, Bs=(0.5, 1.0, 2.0), eps=0.1):
    """The two corollaries' excess terms: sqrt(8 rho^2 B^2 / m) against m, B rho / sqrt(T) against T"""
    fig, axes = new_figure(ncols=2, width=5.4, height=4.2)
    m = np.logspace(1, 6, 200)
    for k, B in enumerate(Bs):
        axes[0].loglog(m, svm_excess_bound(rho, B, m), color=PALETTE[k], label=f"B = {B:g}")
        axes[1].loglog(m, sgd_excess_bound(B, rho, m), color=PALETTE[k], label=f"B = {B:g}")
        T = sgd_iterations(B, rho, eps)
        axes[1].plot([T], [eps], "o", color=PALETTE[k])
    axes[1].axhline(eps, color=GREY, ls="--", lw=1.2)
    axes[0].set_xlabel(_("number of examples m"))
    axes[0].set_title(_("multiclass SVM: $\\sqrt{8\\rho^2B^2/m}$"), fontsize=12)
    axes[1].set_xlabel(_("number of SGD iterations T"))
    axes[1].set_title(_("SGD: $B\\rho/\\sqrt{{T}}$; dots at $T = (B\\rho/\\epsilon)^2$, $\\epsilon$ = {eps:g}").format(
        eps=eps), fontsize=12)
    for ax in axes:
        ax.set_ylabel(_("excess over $\\min_{\\|u\\|\\leq B} L^{g-hinge}_D(u)$"))
        ax.legend(title=_("$\\rho$ = {rho:g}").format(rho=rho))
    return fig
