"""Chapters 02-03 drawings: geometric margins (K5), the Lagrange example (K6), KKT active and
inactive constraints (K7), support vectors (K8), soft margins and slacks (K9)."""

import numpy as np
from matplotlib.text import Text

from course_lib import data, lagrange, margins
from course_lib._validation import as_numbers, check_fitted, check_int, check_matrix, finite_arguments
from course_lib.i18n import N_, _
from course_lib.plotting.labels import PointLabels
from course_lib.plotting.linear import shade_sides
from course_lib.plotting.registry import slide_figure
from course_lib.plotting.style import (
    BLACK, BLUE, FIGURE_TOL, GREEN, GREY, ORANGE, PURPLE, VERMILLION, figure_for, grid_limits,
    plot_decision_regions, plot_line, plot_points,
)
from course_lib.svm import SVM
from course_lib.plotting.arguments import Between, Numbers, checked, positive


def separable_data():
    """The chapter's separable set: 24 points (seeded)."""
    return data.linearly_separable(n=24, seed=1)


def soft_margin_data():
    """The soft-margin set: 40 overlapping points (seeded), small enough to refit per move."""
    return data.overlapping(n=40, seed=2, spread=0.9)


def draw_margin_band(ax, w, w0, xlim, ylim, label_margin=True):
    """The line w.x + w0 = 0 (solid) and the margins w.x + w0 = +-1 (dashed)."""
    plot_line(ax, w, w0, xlim, ylim, color=BLACK, label="$h(\\mathbf{x})=0$")
    plot_line(
        ax, w, w0 - 1, xlim, ylim, color=GREY, ls="--", lw=1.8, label="$h(\\mathbf{x})=\\pm 1$"
    )
    plot_line(ax, w, w0 + 1, xlim, ylim, color=GREY, ls="--", lw=1.8)
    if label_margin:
        rho = 1 / np.linalg.norm(w)
        ax.text(
            0.02,
            0.02,
            _("margin ρ = 1/‖w‖ = {rho:.3f}").format(rho=rho),
            transform=ax.transAxes,
            fontsize=11,
            bbox=dict(facecolor="white", alpha=0.8, edgecolor="none"),
        )


def circle_support_vectors(ax, X, index, label=None):
    label = _("support vectors") if label is None else label
    ax.scatter(
        *X[index].T,
        s=260,
        facecolor="none",
        edgecolor=GREEN,
        linewidth=2.5,
        zorder=4,
        label=f"{label} ({len(index)})",
    )


@slide_figure(
    "K5_geometric_margin",
    slide="Géométrie des discriminants linéaires",
    title="Distances r h(x)/||w|| of the points to a separating line; the margin rho is the "
    "smallest",
)
@checked(w=Numbers(2), w0=Between(-100, 100))
def draw_distances(ax=None, w=(1.0, 0.6), w0=None):
    """Distances r h(x)/||w|| of the points to a separating line; the margin rho is the smallest.
    w0 = None places the line halfway between the classes along w (margins.best_offset)."""
    fig, ax = figure_for(ax, width=6, height=5.5)
    X, r = separable_data()
    w = np.asarray(w, dtype=float)
    w0 = margins.best_offset(X, r, w) if w0 is None else w0
    xlim, ylim = grid_limits(X, 0.6)
    shade_sides(ax, w, w0, xlim, ylim)
    plot_points(ax, X, r)
    plot_line(ax, w, w0, xlim, ylim, color=BLACK, label="$h(\\mathbf{x})=0$")
    norm = np.linalg.norm(w)
    dist = r * (X @ w + w0) / norm
    closest = np.argmin(dist)
    for t in range(len(X)):
        foot = X[t] - (X[t] @ w + w0) * w / norm**2
        ax.plot(
            *np.c_[X[t], foot],
            color=ORANGE if t == closest else GREY,
            lw=2.5 if t == closest else 0.8,
        )
    ax.annotate(
        f"$\\rho = {dist[closest]:.2f}$",
        X[closest],
        xytext=(10, -18),
        textcoords="offset points",
        color=ORANGE,
        fontsize=13,
    )
    ax.set_title(_("distances $r^t h(\\mathbf{x}^t)/\\|\\mathbf{w}\\| \\geq \\rho$"))
    ax.legend(loc="upper left", fontsize=10)
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
    ax.set_aspect("equal")
    return fig


def draw_line_margin(ax, X, r, w, w0, title):
    """A separating line with its own margin band: the lines through the closest points."""
    xlim, ylim = grid_limits(X, 0.6)
    wc, w0c = margins.canonical_form(X, r, w, w0)
    shade_sides(ax, wc, w0c, xlim, ylim)
    plot_points(ax, X, r)
    ax.fill_between(*_band(wc, w0c, xlim), color=GREY, alpha=0.15, lw=0)
    draw_margin_band(ax, wc, w0c, xlim, ylim)
    closest = np.flatnonzero(r * (X @ wc + w0c) < 1.0 + 1e-3)
    circle_support_vectors(ax, X, closest, label=_("closest points"))
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
    ax.set_title(title)
    ax.legend(loc="upper left", fontsize=10)
    ax.set_aspect("equal")


def _band(w, w0, xlim):
    xs = np.linspace(*xlim, 50)
    if abs(w[1]) < 1e-12:
        return xs, xs * 0, xs * 0
    return xs, -(w[0] * xs + w0 - 1) / w[1], -(w[0] * xs + w0 + 1) / w[1]


@checked(degrees=Between(-45, 45))  # turned further, the line no longer separates the data
def suboptimal_direction(X, r, svm, degrees=25.0):
    """The SVM's direction w turned by `degrees`, with the best offset for it: still separating,
    but with a smaller margin."""
    c, s = np.cos(np.radians(degrees)), np.sin(np.radians(degrees))
    w = np.array([[c, -s], [s, c]]) @ svm.w_
    return w, margins.best_offset(X, r, w)


@slide_figure("K5_suboptimal_margin", slide="Marge sous-optimale")
@checked(degrees=Between(-45, 45))  # turned further, the line no longer separates the data
def draw_suboptimal_margin(ax=None, degrees=25.0):
    """A separating line that is not the best one: its margin (the grey band) is narrow."""
    fig, ax = figure_for(ax, width=6, height=5.5)
    X, r = separable_data()
    svm = SVM(C=np.inf, kernel="linear", tol=FIGURE_TOL).fit(X, r)
    w, w0 = suboptimal_direction(X, r, svm, degrees)
    draw_line_margin(ax, X, r, w, w0, _("a sub-optimal margin"))
    return fig


@slide_figure("K5_maximal_margin", slide="Marge maximale")
def draw_maximal_margin(ax=None):
    """The hard-margin SVM: the widest band between the classes, rho = 1/||w||."""
    fig, ax = figure_for(ax, width=6, height=5.5)
    X, r = separable_data()
    svm = SVM(C=np.inf, kernel="linear", tol=FIGURE_TOL).fit(X, r)
    draw_line_margin(ax, X, r, svm.w_, svm.w0_, _("the maximal margin"))
    return fig


@slide_figure(
    "K5_margin_maximisation",
    slide="Maximisation des marges géométriques",
    title="Constraints r(w.x + w0) >= 1: the margins h = +1 and h = -1, at distance rho = 1/||w|| "
    "from the boundary",
)
def draw_margin_maximisation(ax=None):
    """Constraints r(w.x + w0) >= 1: the margins h = +1 and h = -1, at rho = 1/||w|| from h = 0."""
    fig, ax = figure_for(ax, width=6, height=5.5)
    X, r = separable_data()
    svm = SVM(C=np.inf, kernel="linear", tol=FIGURE_TOL).fit(X, r)
    w, w0 = svm.w_, svm.w0_
    xlim, ylim = grid_limits(X, 0.6)
    shade_sides(ax, w, w0, xlim, ylim)
    plot_points(ax, X, r)
    draw_margin_band(ax, w, w0, xlim, ylim, label_margin=False)
    norm = np.linalg.norm(w)
    start = -w0 * w / norm**2  # on h = 0, the point closest to the origin
    ax.annotate(
        "",
        xy=start + w / norm**2,  # on h = +1, at distance 1/||w||
        xytext=start,
        arrowprops=dict(arrowstyle="<|-|>", color=ORANGE, lw=2.5, shrinkA=0, shrinkB=0),
    )
    ax.text(
        *(start + 0.5 * w / norm**2 + [0.15, -0.25]),
        f"$\\rho = 1/\\|\\mathbf{{w}}\\| = {1 / norm:.2f}$",
        color=BLACK,
        fontsize=13,
        bbox=dict(facecolor="white", alpha=0.85, edgecolor=ORANGE),
    )
    ax.text(
        0.98,
        0.98,
        "$\\mathbf{w}^\\top\\mathbf{x}+w_0 \\geq +1$",
        transform=ax.transAxes,
        ha="right",
        va="top",
        color=BLUE,
    )
    ax.text(
        0.02,
        0.02,
        "$\\mathbf{w}^\\top\\mathbf{x}+w_0 \\leq -1$",
        transform=ax.transAxes,
        color=VERMILLION,
    )
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
    ax.set_aspect("equal")
    ax.set_title(_("minimise $\\|\\mathbf{w}\\|$ = maximise the margin"))
    return fig


@slide_figure("K6_lagrange_example", slide="Exemple avec le multiplicateur de Lagrange")
@checked(other=Numbers(2))
def draw_lagrange(ax=None, other=(0.05, 0.95)):
    """Level sets of 1 - x1^2 - x2^2, the line x1 + x2 = 1, parallel gradients at (0.5, 0.5)."""
    fig, ax = figure_for(ax, width=6, height=5.5)
    xs = np.linspace(-0.6, 1.6, 200)
    xx, yy = np.meshgrid(xs, xs)
    ff = lagrange.f(np.stack([xx, yy], -1))
    levels = np.arange(-3.0, 1.01, 0.25)
    contours = ax.contour(xx, yy, ff, levels=levels, cmap="cividis", linewidths=1.2)
    ax.clabel(contours, levels[::2], fontsize=8)
    x_star, lam = lagrange.solve_lagrange()
    ax.plot(xs, 1 - xs, color=VERMILLION, label="$g(\\mathbf{x}) = x_1 + x_2 - 1 = 0$")
    ax.contour(xx, yy, ff, levels=[lagrange.f(x_star)], colors=BLUE, linewidths=2.5)
    for point, colour, name in [
        (x_star, BLUE, "optimum"),
        (np.asarray(other, float), GREY, "elsewhere"),
    ]:
        gf, gg = 0.35 * lagrange.grad_f(point), 0.35 * lagrange.grad_g(point)
        ax.annotate(
            "", xy=point + gf, xytext=point, arrowprops=dict(arrowstyle="-|>", color=colour, lw=2)
        )
        ax.annotate(
            "",
            xy=point + gg,
            xytext=point,
            arrowprops=dict(arrowstyle="-|>", color=colour, lw=2, ls="--"),
        )
    ax.plot(
        *x_star,
        "o",
        color=BLUE,
        ms=10,
        zorder=5,
        label=f"$\\mathbf{{x}}^* = ({x_star[0]:.1f}, {x_star[1]:.1f})$, $\\lambda = {lam:.0f}$",
    )
    ax.text(*(x_star + [0.12, 0.2]), "$\\nabla g$", color=BLUE)
    ax.text(*(x_star + [-0.45, -0.35]), "$\\nabla f = -\\lambda \\nabla g$", color=BLUE)
    ax.text(other[0] + 0.05, other[1] + 0.3, _("not parallel"), color=GREY)
    ax.set_xlim(-0.6, 1.6)
    ax.set_ylim(-0.6, 1.6)
    ax.set_aspect("equal")
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    ax.legend(loc="lower left", fontsize=9)
    ax.set_title(_("maximise $1 - x_1^2 - x_2^2$ s.t. $x_1 + x_2 = 1$"))
    return fig


@slide_figure(
    "K7_kkt_active_inactive",
    slide="Multiplicateurs de Lagrange avec inégalités",
    title="Maximise f subject to g(x) >= 0: an active constraint (lambda > 0) and an inactive one "
    "(lambda = 0)",
)
def draw_kkt(axes=None):
    """Maximise f s.t. g(x) >= 0: an active (lambda > 0) and an inactive (lambda = 0) constraint."""
    fig, axes = figure_for(axes, ncols=2, width=5, height=5)
    xs = np.linspace(-1.2, 1.6, 160)
    xx, yy = np.meshgrid(xs, xs)
    grid = np.stack([xx, yy], -1)
    cases = [((1.0, 1.0), 1.0, "x_1 + x_2 - 1"), ((-1.0, -1.0), -1.0, "1 - x_1 - x_2")]
    for ax, (a, b, formula) in zip(axes, cases):
        a = np.array(a)
        ax.contour(
            xx, yy, lagrange.f(grid), levels=np.arange(-3, 1.01, 0.25), cmap="cividis", linewidths=1
        )
        ax.contourf(xx, yy, lagrange.g(grid, a, b), levels=[0, np.inf], colors=[GREEN], alpha=0.15)
        ax.plot(xs, (b - a[0] * xs) / a[1], color=VERMILLION)
        x, lam, status = lagrange.maximise_with_inequality(a=a, b=b)
        ax.plot(*x, "o", color=BLUE, ms=10, zorder=5)
        ax.set_title(f"{_(CONSTRAINT_STATUS[status])}: $g(\\mathbf{{x}}) = {formula} \\geq 0$", fontsize=13)
        ax.text(
            0.03,
            0.03,
            f"$\\mathbf{{x}}^* = ({x[0]:.2f}, {x[1]:.2f})$\n$\\lambda = {lam:.2f}$, "
            f"$\\lambda g(\\mathbf{{x}}^*) = {lam * lagrange.g(x, a, b):.2f}$\n"
            + _("green: $g(\\mathbf{x}) \\geq 0$ allowed"),
            transform=ax.transAxes,
            fontsize=11,
            va="bottom",
            bbox=dict(facecolor="white", alpha=0.9, edgecolor="none"),
        )
        ax.set_aspect("equal")
        ax.set_xlim(-1.2, 1.6)
        ax.set_ylim(-1.2, 1.6)
    return fig


CONSTRAINT_STATUS = {"active": N_("active"), "inactive": N_("inactive")}
SLACK_SHOWN = 5e-3  # slacks below this are the solver's tolerance on the margin, not slacks
MAX_SLACK_LABELS = 12  # with more points in the margin, only the slacks xi > 1 are written
POINT_HALF_PT, RING_HALF_PT = 4.5, 9.5  # half the size of a point's marker, of a support vector's ring


def draw_svm(ax, svm, X, r, steps=80, show_slacks=True, xlim=None, ylim=None, legend=True,
             shade=False):
    """A fitted SVM: regions, h = 0 and h = +-1, support vectors circled, and the slacks
    xi^t = max(0, 1 - r^t h(x^t)) written beside the points that have one (only those above 1
    when more than MAX_SLACK_LABELS points have a slack), where no label covers another or a
    point (see PointLabels: a slack with no room is left out and counted), their sum and a linear
    SVM's margin in one note. `shade`
    colours the two sides of a linear SVM. (The live demos pass legend=False: a legend costs a
    good part of a redraw.)"""
    X, steps = _check_svm_drawing(svm, X, steps, xlim, ylim)
    if xlim is None:
        xlim, ylim = grid_limits(X, 0.6)
    if svm.kernel == "linear":
        if shade:
            shade_sides(ax, svm.w_, svm.w0_, xlim, ylim)
        ax.fill_between(*_band(svm.w_, svm.w0_, xlim), color=GREY, alpha=0.12, lw=0)
        draw_margin_band(ax, svm.w_, svm.w0_, xlim, ylim, label_margin=not show_slacks)  # else in the note
    else:
        plot_decision_regions(ax, svm.decision_function, xlim, ylim, steps=steps)
    plot_points(ax, X, r)
    circle_support_vectors(ax, X, svm.support_)
    if show_slacks:
        xi = svm.slacks(X, r)
        inside, wrong = (xi > SLACK_SHOWN) & (xi <= 1), xi > 1
        ax.scatter(
            *X[wrong].T, marker="x", s=90, color=PURPLE, zorder=5, label=f"ξ > 1 ({wrong.sum()})"
        )
        labelled = np.flatnonzero(xi > SLACK_SHOWN)
        if labelled.size > MAX_SLACK_LABELS:
            labelled = np.flatnonzero(wrong)
        labelled = labelled[np.argsort(-xi[labelled], kind="stable")]  # the largest placed first
        shown = "" if labelled.size == np.sum(xi > SLACK_SHOWN) else "\n" + _("(ξ written for ξ > 1 only)")
        margin = (_("margin ρ = 1/‖w‖ = {rho:.3f}").format(rho=1 / np.linalg.norm(svm.w_)) + "\n"
                  if svm.kernel == "linear" else "")  # one box: two would cover each other
        note = Text(0.98, 0.98, margin + f"Σ ξ = {xi.sum():.2f}, " + _("{n} inside the margin").format(n=inside.sum())
                    + shown, transform=ax.transAxes, ha="right", va="top", fontsize=10,
                    bbox=dict(facecolor="white", alpha=0.8, edgecolor="none"))
        half_sizes = np.full(len(X), POINT_HALF_PT)
        half_sizes[svm.support_] = RING_HALF_PT
        ax.add_artist(PointLabels(
            X[labelled], [f"{xi[t]:.2f}" for t in labelled],
            [PURPLE if xi[t] > 1 else BLACK for t in labelled], X, half_sizes, note=note,
            left_out=lambda n: _("({n} ξ left out: no room)").format(n=n), fontsize=10,
        ))
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
    if legend:
        ax.legend(loc="upper left", fontsize=8)


def _check_svm_drawing(svm, X, steps, xlim, ylim):
    """draw_svm's arguments checked at the door: a fitted SVM, the X it was fitted on, a grid of at
    least 2 x 2 steps, and xlim and ylim given together as finite pairs. Returns (X, steps)."""
    if not isinstance(svm, SVM):
        raise TypeError(_("svm must be a fitted course_lib SVM; got {kind}.").format(kind=type(svm).__name__))
    check_fitted(svm, "n_features_in_")
    X = check_matrix(X, "X", n_features=svm.n_features_in_)
    if X.shape != svm.X_fit_.shape or not np.array_equal(X, svm.X_fit_):
        raise ValueError(_("X must be the points svm was fitted on: its support vectors are circled "
                           "by their index in X. Pass the X given to fit."))
    steps = check_int(steps, "steps", 2)
    if (xlim is None) != (ylim is None):
        raise ValueError(_("xlim and ylim go together: give both (the window drawn) or neither (the "
                           "window around X)."))
    for name, limits in (("xlim", xlim), ("ylim", ylim)):
        if limits is not None and (np.shape(limits) != (2,) or not np.all(np.isfinite(as_numbers(limits, name)))):
            raise ValueError(_("{name} must be two finite numbers (low, high); got {value!r}.").format(
                name=name, value=limits))
    return X, steps


@slide_figure("K8_support_vectors", slide="Illustration des vecteurs de support")
def draw_support_vectors(ax=None):
    """Hard-margin SVM: the support vectors (alpha > 0) lie on the margins and define w, w0."""
    fig, ax = figure_for(ax, width=6, height=5.5)
    X, r = separable_data()
    svm = SVM(C=np.inf, kernel="linear", tol=FIGURE_TOL).fit(X, r)
    draw_svm(ax, svm, X, r, show_slacks=False, shade=True)
    for t in svm.support_:
        ax.annotate(
            f"$\\alpha={svm.alpha_[t]:.2f}$",
            X[t],
            xytext=(8, -14),
            textcoords="offset points",
            fontsize=10,
            color=GREEN,
        )
    ax.set_aspect("equal")
    ax.set_title(_("support vectors: {n} of {total} points have $\\alpha^t > 0$").format(n=len(svm.support_), total=len(X)))
    return fig


@slide_figure("K9_soft_margin", slide="Marges douces")
@checked(C=positive())
def draw_soft_margin(ax=None, C=1.0):
    """Soft margin on overlapping data: 0 < xi < 1 inside the margin, xi > 1 misclassified."""
    fig, ax = figure_for(ax, width=6.5, height=5.5)
    X, r = soft_margin_data()
    draw_svm(ax, SVM(C=C, kernel="linear").fit(X, r), X, r, shade=True)
    ax.set_title(_("soft margin") + f", $C = {C:g}$")
    return fig
