"""Chapters 04-06 drawings: XOR and basis functions (K10-K12), the kernels (K13), kernel density
(K15), the overlapping-data series (K16), the grid search heat map (K17), the loss criteria (K18),
the gradient-descent SVM (K19), kernel k-NN (K20) and the Gram matrix (K21)."""

import json
from functools import lru_cache
from importlib import resources

import numpy as np
from matplotlib.contour import ContourSet
from matplotlib.patches import Circle, Rectangle
from scipy import ndimage

from course_lib import basis, data, kernels
from course_lib.i18n import N_, _
from course_lib.kernel_knn import KernelKNN
from course_lib.model_selection import grid_search
from course_lib.plotting.margins import draw_svm
from course_lib.plotting.registry import slide_figure
from course_lib.plotting.style import (
    BLACK, BLUE, FIGURE_TOL, GREEN, GREY, ORANGE, PALETTE, VERMILLION, figure_for, grid_limits,
    plot_decision_regions, plot_line, plot_points,
)
from course_lib.svm import SVM
from course_lib.svm_gradient import LOSS_CRITERIA, KernelDensityClassifier, KernelHingeGD
from course_lib.plotting.arguments import Between, Numbers, OneOf, Panels, checked, count, positive

OVERLAP_C = 1.0
MAX_STEPS = 240  # finest grid of the decision regions (a redraw stays well under a second)
ISLAND_SIGMA = 0.25  # below it, the islands around single points are smaller than a marker
ISLAND_CELLS = 2.5  # grid cells per sigma in the regions of a Gaussian kernel


@checked(n=count(2, 100_000))
def overlapping_data(n=60):
    """Two overlapping blobs of equal spread (chapter 06's set), seeded: the best boundary is a line."""
    return data.overlapping(n=n, seed=0)


@checked(n=count(2, 100_000))
def curved_overlap_data(n=200):
    """Chapter 05's overlapping ("recouvrement") set, seeded: two clouds of different spreads, so
    the best (Bayes) boundary is a circle and a kernel can beat the line."""
    return data.overlapping_curved(n=n, seed=0)


@lru_cache(maxsize=8)
def _bayes_log_ratio(xlim, ylim, steps):
    xx, yy = np.meshgrid(np.linspace(*xlim, steps), np.linspace(*ylim, steps))
    return xx, yy, data.overlapping_curved_log_ratio(np.c_[xx.ravel(), yy.ravel()]).reshape(xx.shape)


@checked(steps=count(2, 4000))
def draw_bayes_boundary(ax, xlim, ylim, steps=80):
    """The Bayes boundary of `curved_overlap_data` (where p(x | +1) = p(x | -1)), dotted (its
    log ratio on the grid kept for the next frame of a demo)."""
    xx, yy, score = _bayes_log_ratio(tuple(map(float, xlim)), tuple(map(float, ylim)), int(steps))
    ax.contour(xx, yy, score, levels=[0], colors=BLACK, linewidths=1.5, linestyles="dotted")


@slide_figure("K10_xor_points", slide="Problème du XOR")
def draw_xor_points(ax=None):
    """The four XOR points: no line puts x2, x3 (r = 1) on one side and x1, x4 on the other."""
    fig, ax = figure_for(ax, width=4.5, height=4.5)
    X, r = data.xor()
    plot_points(ax, X, r, size=160)
    for t, x in enumerate(X):
        ax.annotate(
            f"$\\mathbf{{x}}_{t + 1}$", x, xytext=(10, 8), textcoords="offset points", fontsize=13
        )
    ax.set_xlim(-0.4, 1.5)
    ax.set_ylim(-0.4, 1.5)
    ax.set_aspect("equal")
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    ax.set_title(_("XOR: not linearly separable"))
    return fig


@slide_figure(
    "K10_xor_3d",
    slide="Fonctions de base",
    title="XOR after phi(x) = (x1, x2, x1 x2): the hard-margin SVM's plane separates the z",
)
def draw_xor_3d(ax=None):
    """XOR after phi(x) = (x1, x2, x1 x2): the hard-margin SVM's plane separates the z.

    Each z is joined to the plane by a dotted segment along z3: the r = +1 points lie below the
    plane (h > 0, since w3 < 0), the r = -1 points above it.
    """
    fig, ax = figure_for(ax, width=6.5, height=6, projection="3d")
    X, r = data.xor()
    Z = basis.xor_map(X)
    svm = SVM(C=np.inf, kernel="linear", tol=FIGURE_TOL).fit(Z, r)
    w, w0 = svm.w_, svm.w0_
    g = np.linspace(-0.1, 1.1, 2)
    z1, z2 = np.meshgrid(g, g)
    ax.plot_surface(
        z1, z2, -(w[0] * z1 + w[1] * z2 + w0) / w[2], color=GREY, alpha=0.25, edgecolor=GREY, lw=0.5
    )
    for z in Z:  # from each point, along z3, to the plane
        on_plane = -(w[0] * z[0] + w[1] * z[1] + w0) / w[2]
        ax.plot([z[0], z[0]], [z[1], z[1]], [z[2], on_plane], color=BLACK, ls=":", lw=1.5)
    for label, colour, marker in [(1, BLUE, "o"), (-1, VERMILLION, "s")]:
        m = r == label
        side = _("below the plane") if label * w[2] < 0 else _("above the plane")
        ax.scatter(
            *Z[m].T,
            s=160,
            color=colour,
            marker=marker,
            edgecolor=BLACK,
            depthshade=False,
            label=f"$r={label:+d}$: {side}",
        )
    for t, z in enumerate(Z):
        ax.text(z[0] + 0.05, z[1] - 0.05, z[2] + 0.08, f"$\\mathbf{{z}}_{t + 1}$", fontsize=13)
    ticks = [0, 0.5, 1]
    ax.set_xticks(ticks)
    ax.set_yticks(ticks)
    ax.set_zticks(ticks)
    ax.set_xlim(-0.1, 1.1)
    ax.set_ylim(-0.1, 1.1)
    ax.set_zlim(-0.3, 1.2)
    ax.set_xlabel("$z_1 = x_1$", labelpad=6)
    ax.set_ylabel("$z_2 = x_2$", labelpad=6)
    ax.set_zlabel("$z_3 = x_1 x_2$", labelpad=6)
    ax.view_init(elev=12, azim=-35)
    ax.set_box_aspect(None, zoom=0.88)  # room for the z3 label
    ax.set_title(
        _("plane $\\mathbf{{w}}^\\top\\mathbf{{z}} + w_0 = 0$, $\\mathbf{{w}} "
        "= ({w1:.0f}, {w2:.0f}, {w3:.0f})$, $w_0 = {w0:.0f}$").format(w1=w[0], w2=w[1], w3=w[2], w0=w0),
        fontsize=12,
    )
    ax.legend(loc="upper left", fontsize=10)
    return fig


@slide_figure("K11_projection_1d_2d", slide="Projection avec une fonction de base")
def draw_projection(axes=None):
    """1-D: no threshold separates the classes; after phi(x) = (x, x^2) a line does (two in x).

    Back in 1-D the line is two thresholds, the roots of w1 x + w2 x^2 + w0 = 0 (dashed)."""
    fig, axes = figure_for(axes, ncols=2, width=5, height=4.2)
    x, r = data.one_d_projection()
    Z = basis.square_map(x)
    svm = SVM(C=np.inf, kernel="linear", tol=FIGURE_TOL).fit(Z, r)
    thresholds = np.sort(np.roots([svm.w_[1], svm.w_[0], svm.w0_]).real)
    for label, colour, marker in [(1, BLUE, "o"), (-1, VERMILLION, "s")]:
        m = r == label
        axes[0].scatter(
            x[m, 0], np.zeros(m.sum()), s=70, color=colour, marker=marker, edgecolor=BLACK, zorder=3
        )
    axes[0].axhline(0, color=GREY, lw=1)
    for c in thresholds:
        axes[0].axvline(c, color=BLACK, ls="--", lw=1.5)
    axes[0].set_yticks([])
    axes[0].set_ylim(-1, 1)
    axes[0].set_xlabel("$x$")
    axes[0].set_title(_("in 1-D: no single threshold;\nthe 2-D line is two (dashed)"), fontsize=12)
    grid = np.linspace(-3.2, 3.2, 200)
    axes[1].plot(grid, grid**2, color=GREY, lw=1, label="$z_2 = z_1^2$")
    plot_points(axes[1], Z, r)
    plot_line(
        axes[1],
        svm.w_,
        svm.w0_,
        (-3.3, 3.3),
        (-0.8, 11),
        color=BLACK,
        label=_("SVM line in $(x, x^2)$"),
    )
    axes[1].set_xlabel("$z_1 = x$")
    axes[1].set_ylabel("$z_2 = x^2$")
    axes[1].legend(loc="upper center", fontsize=10)
    axes[1].set_title(_("after $\\phi(x) = (x, x^2)$: separable"), fontsize=12)
    return fig


@slide_figure(
    "K12_basis_functions",
    slide="Problème du XOR",
    title="The slides' catalogue of basis functions: four drawn in 1-D, the radial one in 2-D",
)
def draw_basis_catalogue(axes=None):
    """The slides' catalogue of basis functions: four drawn in 1-D, the radial one in 2-D."""
    fig, axes = figure_for(axes, ncols=5, width=3.3, height=3.4)
    x = np.linspace(-2, 2, 300).reshape(-1, 1)
    X = np.c_[x, x]  # the catalogue uses x1 (powers) and x2 (bumps): the same axis here
    centres = np.array([-1.2, 0.0, 1.2])
    panels = [
        ("$x_j$", basis.identity_basis(X)[:, :1]),
        ("$x_1^{j-1}$, $j = 1..4$", basis.power_basis(X, 4)),
        ("$\\exp(-(x_2-m_j)^2/c)$", basis.gaussian_bump_basis(X, centres, 0.3)),
        ("$\\mathrm{sgn}(x_j - c_j)$", basis.sign_step_basis(X[:, :1], [0.5])),
    ]
    order = [0, 1, 2, 4]  # the radial panel (3) is drawn below, in 2-D
    for k, (title, Phi) in zip(order, panels):
        ax = axes[k]
        for j in range(Phi.shape[1]):
            ax.plot(x[:, 0], Phi[:, j], color=PALETTE[j % len(PALETTE)], lw=2)
        ax.set_title(title, fontsize=12)
        ax.set_xlabel("$x$")
    axes[1].set_ylim(-3, 5)
    ax = axes[3]
    g = np.linspace(-2, 2, 121)
    G1, G2 = np.meshgrid(g, g)
    P = np.c_[G1.ravel(), G2.ravel()]
    m = np.array([[-0.8, -0.6], [0.9, 0.7]])
    Phi = basis.radial_basis(P, m, c=0.5)
    for j, colour in enumerate((BLUE, VERMILLION)):
        ax.contour(G1, G2, Phi[:, j].reshape(G1.shape), levels=[0.2, 0.5, 0.8], colors=colour)
    ax.scatter(*m.T, marker="+", s=120, color=BLACK, zorder=3)
    ax.set_aspect("equal")
    ax.set_title("$\\exp(-\\|\\mathbf{x}-\\mathbf{m}_j\\|^2/c)$", fontsize=12)
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$", labelpad=-2)
    return fig


@slide_figure(
    "K12_rbf_network",
    slide="Fonctions de base",
    title="RBF network on noisy XOR: K = 6 Gaussian centres, output fitted by least squares",
)
@checked(K=count(1, 80), s=positive())
def draw_rbf_network(ax=None, K=6, s=0.6):
    """RBF network on noisy XOR: K Gaussian centres, output fitted by least squares."""
    fig, ax = figure_for(ax, width=6, height=5.5)
    X, r = data.noisy_xor(n=80, seed=1)
    net = basis.RBFNetwork(K=K, s=s, seed=3).fit(X, r)
    xlim, ylim = grid_limits(X, 0.5)
    plot_decision_regions(ax, net.decision_function, xlim, ylim, steps=80, margins=False)
    plot_points(ax, X, r, size=35)
    ax.scatter(
        *net.centres_.T,
        marker="*",
        s=380,
        color=ORANGE,
        edgecolor=BLACK,
        zorder=5,
        label=_("centres $\\mathbf{m}_i$"),
    )
    for m in net.centres_:
        ax.add_patch(_circle(m, s))
    ax.legend(loc="center", fontsize=10)  # the middle of the four XOR groups is empty
    ax.set_aspect("equal")
    accuracy = np.mean(net.predict(X) == r)
    ax.set_title(
        _("RBF network, $K = {K}$, $s = {s}$: training accuracy {accuracy:.2f}").format(
            K=K, s=s, accuracy=accuracy), fontsize=12
    )
    return fig


def _circle(centre, radius):
    return Circle(centre, radius, fill=False, color=ORANGE, ls="--", lw=1.5)


@slide_figure(
    "K13_kernels",
    slide="SVM à noyau",
    title="The four kernels K(x, y) for a fixed x (star) as functions of y",
)
@checked(x=Numbers(2))
def draw_kernels(axes=None, x=(1.0, 0.5)):
    """The four kernels K(x, y) for a fixed x (star) as functions of y."""
    fig, axes = figure_for(axes, ncols=4, width=3.8, height=3.6)
    g = np.linspace(-2, 2, 100)
    yy1, yy2 = np.meshgrid(g, g)
    Y = np.c_[yy1.ravel(), yy2.ravel()]
    x = np.asarray(x, dtype=float).reshape(1, 2)
    settings = [
        ("linear", {}),
        ("polynomial", {"degree": 2}),
        ("gaussian", {"sigma": 1.0}),
        ("sigmoid", {}),
    ]
    for ax, (name, params) in zip(axes, settings):
        values = kernels.kernel_matrix(x, Y, name, **params).reshape(yy1.shape)
        image = ax.imshow(values, origin="lower", extent=(-2, 2, -2, 2), cmap="cividis")
        ax.plot(*x[0], "*", color=ORANGE, ms=16, markeredgecolor=BLACK)
        detail = ", ".join(f"{PARAMETER_SYMBOLS.get(k, k)} = {v}" for k, v in params.items())
        ax.set_title(f"{name}" + (f" ({detail})" if detail else ""), fontsize=11)
        ax.set_aspect("equal")
        ax.figure.colorbar(image, ax=ax, shrink=0.8)
    return fig


PARAMETER_SYMBOLS = {"sigma": "$\\sigma$"}  # a kernel parameter written as in the slides
KERNEL_NAMES = {"linear": N_("linear kernel"), "polynomial": N_("polynomial kernel"),
                "gaussian": N_("Gaussian kernel"), "sigmoid": N_("sigmoid kernel")}


@checked(kernel=OneOf(kernels.KERNELS), sigma=positive(), degree=count(1, 10))
def kernel_label(kernel, sigma=1.0, degree=2):
    """A kernel as a student reads it, with the parameter it uses in the slides' symbol:
    "Gaussian kernel, σ = 0.5", "polynomial kernel, q = 3", "linear kernel"."""
    detail = {"gaussian": f"σ = {sigma:g}", "polynomial": f"q = {degree}"}.get(kernel)
    return _(KERNEL_NAMES[kernel]) + (f", {detail}" if detail else "")


@checked(kernel=OneOf(kernels.KERNELS), C=positive(), sigma=positive(), degree=count(1, 10), tol=positive(1.0))
def fit_kernel_svm(X, r, kernel="gaussian", C=OVERLAP_C, sigma=1.0, degree=2, tol=FIGURE_TOL):
    """The from-scratch SVM with the chosen kernel (only its own parameter is used), solved to
    FIGURE_TOL by default so that a figure does not depend on the machine's rounding."""
    return SVM(C=C, kernel=kernel, sigma=sigma, degree=degree, tol=tol).fit(X, r)


@checked(kernel=OneOf(kernels.KERNELS), C=positive(), sigma=positive(), degree=count(1, 10), steps=count(2, 4000), max_steps=count(2, 4000), tol=positive(1.0))
def draw_kernel_svm(
    ax, X, r, kernel="gaussian", C=OVERLAP_C, sigma=1.0, degree=2, steps=80, legend=True,
    bayes=False, max_steps=MAX_STEPS, tol=FIGURE_TOL,
):
    """Refit the kernel SVM (to KKT tolerance `tol`) and draw its regions, margins and support
    vectors (and, with `bayes`, the Bayes boundary of `curved_overlap_data`, dotted). For the
    Gaussian kernel the grid of the regions is refined to ISLAND_CELLS points per sigma, up to
    `max_steps` points a side, and below ISLAND_SIGMA the islands are drawn as draw_islands does
    (strong shading, small hollow markers, no support-vector rings: their number is in the
    title), so that a small sigma's islands show."""
    svm = fit_kernel_svm(X, r, kernel, C, sigma, degree, tol)
    xlim, ylim = grid_limits(X, 0.6)
    islands = kernel == "gaussian" and sigma < ISLAND_SIGMA
    if kernel == "gaussian":  # a grid fine enough for the islands of a small sigma
        steps = island_steps(xlim, ylim, sigma, steps, max_steps)
    if kernel == "linear":  # draw_svm draws the band of a line; shade its two sides here
        plot_decision_regions(ax, svm.decision_function, xlim, ylim, steps=2, margins=False)
    if bayes and legend:  # an entry for the dotted contour drawn below
        ax.plot([], [], color=BLACK, lw=1.5, ls="dotted", label=_("Bayes boundary"))
    if islands:
        shade_islands(ax, svm, xlim, ylim, steps)
        plot_hollow_points(ax, X, r)
        ax.set_xlim(xlim)
        ax.set_ylim(ylim)
        if legend:
            ax.legend(loc="upper left", fontsize=8)
    else:
        draw_svm(ax, svm, X, r, steps=steps, show_slacks=False, legend=legend)
    if bayes:  # a smooth curve: the default grid draws it
        draw_bayes_boundary(ax, ax.get_xlim(), ax.get_ylim())
    error = np.mean(svm.predict(X) != r)
    detail = {"gaussian": f", σ = {sigma:.3g}", "polynomial": f", q = {degree}"}.get(kernel, "")
    ax.set_title(
        _("{kernel}{detail}, C = {C:.3g}: {support} SV, training error {error:.2f}").format(
            kernel=_(kernel), detail=detail, C=C, support=len(svm.support_), error=error),
        fontsize=11,
    )
    return svm


@checked(sigma=positive(), steps=count(2, 4000), max_steps=count(2, 4000), cells_per_sigma=positive(64))
def island_steps(xlim, ylim, sigma, steps=80, max_steps=MAX_STEPS, cells_per_sigma=ISLAND_CELLS):
    """Grid points a side for the regions of a Gaussian kernel of width sigma over xlim x ylim:
    cells_per_sigma cells per sigma, at least `steps` and at most `max_steps`."""
    span = max(xlim[1] - xlim[0], ylim[1] - ylim[0])
    return int(min(max_steps, max(steps, np.ceil(cells_per_sigma * span / sigma))))


@checked(steps=count(2, 4000))
def shade_islands(ax, svm, xlim, ylim, steps):
    """The regions of a Gaussian-kernel SVM on a steps x steps grid, strongly shaded (blue
    h >= 0, vermillion h < 0), h = 0 in a thin line: small islands stay visible."""
    xs, ys, h = gaussian_h_on_grid(svm, xlim, ylim, steps)
    ax.contourf(xs, ys, h, levels=[-np.inf, 0, np.inf], colors=[VERMILLION, BLUE], alpha=0.35)
    if h.min() < 0 < h.max():
        ax.contour(xs, ys, h, levels=[0], colors=BLACK, linewidths=0.8)


def plot_hollow_points(ax, X, r):
    """The points as small hollow markers (blue circles +1, vermillion squares -1): the regions
    show through them."""
    for label, colour, marker in ((1, BLUE, "o"), (-1, VERMILLION, "s")):
        ax.scatter(*X[r == label].T, s=14, marker=marker, facecolor="white", edgecolor=colour,
                   linewidth=1.2, zorder=3, label=f"$r={label:+d}$")


def _overlap_figure(ax=None, **settings):
    fig, ax = figure_for(ax, width=6, height=5.5)
    X, r = curved_overlap_data()
    draw_kernel_svm(ax, X, r, bayes=True, **settings)
    ax.legend(loc="lower right", fontsize=8)  # the lower right corner holds no point
    return fig


OVERLAP_SERIES = {
    "K16_linear_svm": ("Données avec recouplement : SVM linéaire", {"kernel": "linear"}),
    "K16_polynomial_kernel": (
        "Données avec recouplement : noyau polynomial",
        {"kernel": "polynomial", "degree": 3},
    ),
    "K16_gaussian_kernel": (
        "Données avec recouplement : noyau gaussien",
        {"kernel": "gaussian", "sigma": 1.0},
    ),
    "K16_gaussian_large_sigma": (
        "Données avec recouplement : noyau gaussien avec grand σ",
        {"kernel": "gaussian", "sigma": 5.0},
    ),
}

for _stem, (_slide, _settings) in OVERLAP_SERIES.items():
    slide_figure(
        _stem,
        slide=_slide,
        title=f"Overlapping data (Bayes boundary dotted), C = {OVERLAP_C:g}: "
        + ", ".join(f"{k} = {v}" for k, v in _settings.items()),
        **_settings,
    )(_overlap_figure)


@slide_figure(
    "K15_kernel_density",
    slide="Noyau polynomial",
    title="Gaussian-kernel SVM beside the all-alpha-equal-one kernel density classifier",
)
@checked(sigma=positive())
def draw_kernel_density(axes=None, sigma=1.0):
    """Gaussian-kernel SVM beside the all-alpha-equal-one kernel density classifier."""
    fig, axes = figure_for(axes, ncols=2, width=5.5, height=5)
    X, r = curved_overlap_data()
    draw_kernel_svm(axes[0], X, r, kernel="gaussian", sigma=sigma, legend=False)
    density = KernelDensityClassifier(sigma=sigma).fit(X, r)
    xlim, ylim = grid_limits(X, 0.6)
    plot_decision_regions(axes[1], density.decision_function, xlim, ylim, steps=80, margins=False)
    plot_points(axes[1], X, r)
    error = np.mean(density.predict(X) != r)
    axes[1].set_title(
        _("$h(\\mathbf{{x}}) = \\sum_t r^t K(\\mathbf{{x}}^t, "
        "\\mathbf{{x}})$: training error {error:.2f}").format(error=error),
        fontsize=11,
    )
    return fig


def draw_grid_search(ax, result):
    """Heat map of the validation error over (sigma, C), the chosen pair marked."""
    image = ax.imshow(
        result.errors, origin="lower", cmap="cividis", aspect="auto", vmin=0, vmax=0.6
    )
    ax.set_xticks(range(len(result.C_values)), [f"{np.log10(c):.0f}" for c in result.C_values])
    ax.set_yticks(range(len(result.sigma_values)), [f"{s:.3f}" for s in result.sigma_values])
    ax.set_xlabel("$\\log_{10} C$")
    ax.set_ylabel("$\\sigma$ ($\\sigma_{\\min} \\times 1, 2, \\ldots, 64$)")
    i, j = np.unravel_index(np.argmin(result.errors), result.errors.shape)
    ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, edgecolor=ORANGE, lw=3, zorder=3))
    for (a, b), e in np.ndenumerate(result.errors):
        best = (a, b) == (i, j)
        ax.text(
            b,
            a,
            f"{e:.2f}",
            ha="center",
            va="center",
            fontsize=11 if best else 9,
            fontweight="bold" if best else "normal",
            color="white" if e < 0.35 else "black",
        )
    ax.figure.colorbar(image, ax=ax, label=_("validation error"), shrink=0.85)
    ax.set_title(
        _("best (orange box): $C = {best_C:g}$, $\\sigma "
        "= {best_sigma:.3f}$, validation error {error:.2f}").format(
            best_C=result.best_C, best_sigma=result.best_sigma, error=result.errors[i, j]),
        fontsize=12,
    )


@slide_figure(
    "K17_grid_search",
    slide="Paramètres des SVM",
    title="Validation error of the Gaussian-kernel SVM over the slides' grid of C and sigma",
)
def draw_grid_search_figure(ax=None):
    """Validation error of the Gaussian-kernel SVM over the slides' grid of C and sigma."""
    fig, ax = figure_for(ax, width=10, height=5.5)
    X, r = curved_overlap_data()
    draw_grid_search(ax, grid_search(X, r, seed=0))
    return fig


@slide_figure("K18_loss_criteria", slide="Comparaison de différents critères d'erreurs")
def draw_loss_criteria(ax=None):
    """The loss criteria as functions of the margin y r: 0/1, quadratic, cross-entropy, hinge."""
    fig, ax = figure_for(ax, width=6.5, height=4.8)
    m = np.linspace(-2.5, 2.5, 501)
    styles = {
        "0/1": dict(color=BLACK, lw=2.5),
        "quadratic": dict(color=BLUE, ls="--"),
        "cross-entropy": dict(color=GREEN, ls="-."),
        "hinge": dict(color=VERMILLION, lw=3),
    }
    for name, loss in LOSS_CRITERIA.items():
        ax.plot(m, loss(m), label=name, **styles[name])
    ax.axvline(1, color=GREY, lw=1, ls=":", label=_("margin $y^t r^t = 1$"))
    ax.axvline(0, color=GREY, lw=0.8)
    ax.set_ylim(-0.1, 4)
    ax.set_xlabel(_("margin $y^t r^t$ (wrong side < 0 < right side)"))
    ax.set_ylabel(_("loss"))
    ax.legend(fontsize=10)
    ax.set_title(_("loss criteria against the margin"))
    return fig


@checked(axes=Panels(2), lam=Between(0, 1e3), sigma=positive(), eta=positive(), n_epochs=count(1, 100_000), steps=count(2, 4000), bucket=count(1))
def draw_hinge_gd(axes, X, r, lam, sigma=1.0, eta=0.05, n_epochs=2000, steps=70, free=None,
                  model=None, bucket=1):
    """Left: the regions of KernelHingeGD at lambda. Right: every alpha^t at every epoch, and
    the largest alpha without regularisation (lambda = 0, fitted here unless `free` is given).
    `model`: the KernelHingeGD already fitted at lambda (fitted here if None). `bucket`: see
    draw_alpha_history."""
    if model is None:
        model = KernelHingeGD(sigma=sigma, lam=lam, eta=eta, n_epochs=n_epochs).fit(X, r)
    if free is None:
        free = KernelHingeGD(sigma=sigma, lam=0.0, eta=eta, n_epochs=n_epochs).fit(X, r)
    draw_hinge_regions(axes[0], model, X, r, steps=steps)
    plot_points(axes[0], X, r)
    draw_alpha_history(axes[1], model, free, bucket=bucket)
    return model


@checked(steps=count(2, 4000))
def draw_hinge_regions(ax, model, X, r, steps=70):
    """The regions of a fitted KernelHingeGD, titled with its training error and duality gap."""
    xlim, ylim = grid_limits(X, 0.6)
    plot_decision_regions(ax, model.decision_function, xlim, ylim, steps=steps)
    error = np.mean(model.predict(X) != r)
    state = _("converged") if model.converged_ else _("not converged")
    ax.set_title(
        _("λ = {lam:.3g}: training error {error:.2f}\n{n_epochs} "
        "epochs, {state} (duality gap {duality_gap:.2g})").format(
            lam=model.lam, error=error, n_epochs=model.n_epochs, state=state, duality_gap=model.duality_gap_),
        fontsize=11,
    )


@checked(axes=Panels(2), steps=count(2, 4000), bucket=count(1))
def update_hinge_gd(axes, X, r, model, steps=70, bucket=1):
    """Show `model` on axes drawn once by draw_hinge_gd (with the same X, r and bucket),
    updating its artists: new regions, the same alpha lines given the new histories. The result
    looks as draw_hinge_gd(axes, X, r, model=model, bucket=bucket) on cleared axes."""
    for artist in [c for c in axes[0].collections if isinstance(c, ContourSet)]:
        artist.remove()
    draw_hinge_regions(axes[0], model, X, r, steps=steps)
    ax = axes[1]
    lines = ax.get_lines()
    epochs, thin = bucket_extremes(model.alpha_history_, bucket)
    for line, x, y in zip(lines, epochs.T, thin.T):
        line.set_data(x, y)
    peak = lines[model.alpha_history_.shape[1]]
    peak.set_ydata(model.alpha_history_.max(axis=1))
    peak.set_label(alpha_peak_label(model))
    shown = [line.get_ydata() for line in lines[model.alpha_history_.shape[1] + 1:]]  # lambda = 0
    low = min(model.alpha_history_.min(), *(np.min(y) for y in shown))
    high = max(model.alpha_history_.max(), *(np.max(y) for y in shown))
    if (low, high) != (ax.dataLim.y0, ax.dataLim.y1):  # else the limits stay those of the last frame
        ax.relim()
        ax.autoscale_view()
    legend = ax.get_legend()
    if legend is None:
        ax.legend(loc="upper left", fontsize=10)
    else:  # the same entries: only the peak's label changes (the box is laid out when drawn)
        legend.texts[0].set_text(peak.get_label())


def alpha_peak_label(model):
    return _("max α, λ = {lam:.3g}").format(lam=model.lam)


@checked(bucket=count(1))
def bucket_extremes(history, bucket=1):
    """(epochs, values), both (P, m): for each column of `history` (epochs x m), its first and
    last epochs and, in each run of `bucket` epochs, the epochs of its smallest and largest value
    in the order they come. The line through them passes through every value of the run within
    the run's width, so an oscillation keeps its whole height; it has about 2 / bucket of the
    vertices (bucket = 1: every epoch)."""
    history = np.asarray(history, dtype=float)
    count = history.shape[0]
    if bucket == 1:
        epochs = np.broadcast_to(np.arange(count)[:, None], history.shape)
        return epochs, history
    runs = -(-count // bucket)
    padded = np.concatenate([history, np.repeat(history[-1:], runs * bucket - count, axis=0)])
    blocks = padded.reshape(runs, bucket, -1)
    low, high = blocks.argmin(axis=1), blocks.argmax(axis=1)
    start = bucket * np.arange(runs)[:, None]
    picked = np.stack([start + np.minimum(low, high), start + np.maximum(low, high)], axis=1)
    picked = np.minimum(picked.reshape(2 * runs, -1), count - 1)
    ends = np.broadcast_to([[0], [count - 1]], (2, history.shape[1]))
    epochs = np.concatenate([ends[:1], picked, ends[1:]])
    return epochs, np.take_along_axis(history, epochs, axis=0)


@checked(bucket=count(1))
def draw_alpha_history(ax, model, free=None, bucket=1):
    """alpha^t at every epoch (thin lines), their maximum (thick), and the maximum at lambda = 0
    (dashed) if given. Every epoch is drawn: subsampling would hide an oscillating step. With
    `bucket` > 1 each thin line keeps, of every `bucket` epochs, the smallest and the largest
    value (bucket_extremes): the live demo draws half the vertices, and an epoch's value stays on
    its line within the run's width (under 2 pixels for bucket = 4 at 2,000 epochs), and the thin
    lines are joined by bevels instead of round joins (the same pixels to the eye at 0.6 pt)."""
    epochs = np.arange(model.alpha_history_.shape[0])
    thin_epochs, thin = bucket_extremes(model.alpha_history_, bucket)
    join = "bevel" if bucket > 1 else "round"  # at 0.6 pt a join's shape is below a pixel; bevels cost less
    ax.plot(thin_epochs, thin, color=BLUE, lw=0.6, alpha=0.5, solid_joinstyle=join)
    ax.plot(epochs, model.alpha_history_.max(axis=1), color=BLUE, lw=2.5, label=alpha_peak_label(model))
    if free is not None:
        ax.plot(
            np.arange(free.alpha_history_.shape[0]),
            free.alpha_history_.max(axis=1),
            color=VERMILLION,
            ls="--",
            lw=2.5,
            label=_("max α, λ = 0"),
        )
    ax.set_xlabel(_("epoch"))
    ax.set_ylabel("$\\alpha^t$")
    ax.legend(loc="upper left", fontsize=10)
    ax.set_title(_("every $\\alpha^t$ at every epoch"), fontsize=12)


@slide_figure(
    "K19_alpha_history",
    slide="Fonction d'erreur pour descente du gradient",
    title="Kernel SVM by gradient descent: with lambda the alphas settle; without it they grow "
    "until the training set is memorised",
)
@checked(lam=Between(0, 1e3))
def draw_alpha_figure(axes=None, lam=1.0):
    """Kernel SVM by gradient descent: with lambda the alphas settle, without it they keep growing."""
    fig, axes = figure_for(axes, ncols=2, width=5.5, height=4.8)
    X, r = overlapping_data(n=40)
    draw_hinge_gd(axes, X, r, lam=lam, n_epochs=2000)
    return fig


@checked(k=count(1, 1000), kernel=OneOf(kernels.KERNELS), sigma=positive(), degree=count(1, 10), steps=count(2, 4000))
def draw_kernel_knn(ax, X, r, k, kernel="gaussian", sigma=1.0, degree=2, steps=70, title=None):
    """Regions of k-NN with the feature-space distance of the kernel."""
    model = KernelKNN(k=k, kernel=kernel, sigma=sigma, degree=degree).fit(X, r)
    xlim, ylim = grid_limits(curved_overlap_data()[0], 0.6)
    plot_decision_regions(
        ax, lambda Q: model.predict(Q).astype(float), xlim, ylim, steps=steps, margins=False
    )
    plot_points(ax, X, r)
    ax.set_title(title or _("{k}-NN, {kernel} kernel").format(k=k, kernel=_(kernel)), fontsize=11)
    return model


@slide_figure(
    "K20_kernel_knn",
    slide="Fonctions noyau et distances",
    title="k-NN with kernel distances: Gaussian (the Euclidean neighbours), polynomial (other "
    "neighbours), and on the support vectors only",
)
@checked(sigma=positive(), k=count(1, 50), degree=count(1, 10))
def draw_kernel_knn_figure(axes=None, sigma=1.0, k=3, degree=2):
    """k-NN with kernel distances: Gaussian (the Euclidean neighbours), polynomial (other
    neighbours), and on the support vectors only."""
    fig, axes = figure_for(axes, ncols=3, width=5, height=5)
    X, r = curved_overlap_data()
    draw_kernel_knn(
        axes[0], X, r, k, sigma=sigma, title=_("{k}-NN, Gaussian σ = {sigma:g} (= Euclidean)").format(
            k=k, sigma=sigma)
    )
    draw_kernel_knn(
        axes[1], X, r, k, kernel="polynomial", degree=degree,
        title=_("{k}-NN, polynomial q = {degree} (other neighbours)").format(k=k, degree=degree),
    )
    sv = fit_kernel_svm(X, r, "gaussian", sigma=sigma).support_
    draw_kernel_knn(
        axes[2],
        X[sv],
        r[sv],
        1,
        sigma=sigma,
        title=_("1-NN on the {sv} support vectors (prototypes)").format(sv=len(sv)),
    )
    return fig


@slide_figure("K21_gram_matrix", slide="Matrice de Gram")
@checked(sigma=positive())
def draw_gram(axes=None, sigma=1.0):
    """Gram matrix of the Gaussian kernel: in data order, and sorted by class (two blocks)."""
    fig, axes = figure_for(axes, ncols=2, width=5, height=4.4)
    X, r = curved_overlap_data()
    order = np.random.default_rng(0).permutation(len(X))
    X, r = X[order], r[order]
    by_class = np.argsort(-r, kind="stable")
    for ax, index, title in [
        (axes[0], np.arange(len(X)), _("in data order")),
        (axes[1], by_class, _("sorted by class")),
    ]:
        G = kernels.gram(X[index], "gaussian", sigma=sigma)
        image = ax.imshow(G, cmap="cividis", vmin=0, vmax=1)
        ax.set_title(f"$G$ {title}", fontsize=12)
        ax.set_xlabel("$s$")
        ax.set_ylabel("$t$")
    n_pos = int(np.sum(r > 0))
    for line in (axes[1].axhline, axes[1].axvline):
        line(n_pos - 0.5, color=ORANGE, lw=2)
    axes[1].figure.colorbar(
        image, ax=axes[1], label="$K(\\mathbf{x}^t, \\mathbf{x}^s)$", shrink=0.85
    )
    return fig


def svm_scale_results():
    """The fit times against N measured by `python -m benchmarks svm_scale_k22` and shipped in
    course_lib/resources/svm_scale_k22.json: {"models": {name: [{"N": ..., "seconds": ...}]}, ...}."""
    return json.loads((resources.files("course_lib") / "resources" / "svm_scale_k22.json").read_text())


def draw_svm_scale(ax, models):
    """Fit time against N, log-log, one curve per model: `models` maps a name to a list of
    {"N": ..., "seconds": ...} (the results of `python -m benchmarks svm_scale_k22`)."""
    for (name, rows), colour, marker in zip(models.items(), PALETTE, "osD^v"):
        n = [row["N"] for row in rows]
        ax.plot(n, [row["seconds"] for row in rows], marker=marker, color=colour, lw=2, label=name)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(_("number of training points $N$"))
    ax.set_ylabel(_("fit time (s)"))
    ax.legend(fontsize=9, loc="upper left")
    ax.set_title(_("fit time against N (one fit each, shared machine)"), fontsize=12)


@checked(steps=count(2, 4000), reach=positive())
def gaussian_h_on_grid(svm, xlim, ylim, steps, reach=5.0):
    """h(x) = sum_t alpha^t r^t exp(-||x - x^t||^2 / sigma^2) + w0 of a Gaussian-kernel SVM on a
    steps x steps grid, each support vector's bump added only within `reach` sigma of it (beyond,
    it is below exp(-reach^2) * alpha^t, 1.4e-11 alpha^t for reach 5): a fine grid at a small sigma
    costs about steps^2 + n_SV (2 reach sigma / cell)^2 exponentials. Returns (xs, ys, h) with
    h[i, j] the value at (xs[j], ys[i])."""
    if svm.kernel != "gaussian":
        raise ValueError(_("svm must be a fitted Gaussian-kernel SVM; got kernel={kernel!r}.").format(
                             kernel=svm.kernel))
    sv = svm.support_
    xs, ys = np.linspace(*xlim, steps), np.linspace(*ylim, steps)
    h = np.full((steps, steps), float(svm.w0_))
    dx, dy, radius = xs[1] - xs[0], ys[1] - ys[0], reach * svm.sigma
    for centre, weight in zip(svm.X_fit_[sv], svm.alpha_[sv] * svm.r_fit_[sv]):
        cols = slice(max(0, int(np.floor((centre[0] - radius - xs[0]) / dx))),
                     max(0, int(np.ceil((centre[0] + radius - xs[0]) / dx)) + 1))
        rows = slice(max(0, int(np.floor((centre[1] - radius - ys[0]) / dy))),
                     max(0, int(np.ceil((centre[1] + radius - ys[0]) / dy)) + 1))
        d2 = (xs[cols] - centre[0])[None, :] ** 2 + (ys[rows] - centre[1])[:, None] ** 2
        h[rows, cols] += weight * np.exp(-d2 / svm.sigma**2)
    return xs, ys, h


def sign_regions(h):
    """The connected regions of constant sign of h on a grid (4-neighbours): an integer label per
    node, positive for h >= 0 and negative for h < 0, and the number of regions of each sign."""
    positive, n_positive = ndimage.label(h >= 0)
    negative, n_negative = ndimage.label(h < 0)
    return np.where(h >= 0, positive, -negative), n_positive, n_negative


@checked(cells_per_sigma=positive(64))
def island_counts(svm, X, xlim, ylim, cells_per_sigma=8):
    """The regions of a Gaussian-kernel SVM on a grid of sigma / cells_per_sigma cells (100 steps at
    least): returns
    (number of regions, number of regions holding exactly one of the points X, grid steps)."""
    steps = max(100, int(np.ceil(cells_per_sigma * max(xlim[1] - xlim[0], ylim[1] - ylim[0]) / svm.sigma)))
    xs, ys, h = gaussian_h_on_grid(svm, xlim, ylim, steps)
    labels, n_positive, n_negative = sign_regions(h)
    node = labels[np.abs(ys[:, None] - X[:, 1]).argmin(axis=0), np.abs(xs[:, None] - X[:, 0]).argmin(axis=0)]
    _, per_region = np.unique(node, return_counts=True)
    return n_positive + n_negative, int(np.sum(per_region == 1)), steps


@checked(sigma=positive(), C=positive(), cells_per_sigma=count(1, 64))
def draw_islands(ax, X, r, sigma=0.1, C=OVERLAP_C, xlim=None, ylim=None, cells_per_sigma=8, title=True):
    """A Gaussian-kernel SVM with a small sigma drawn so that its islands show: the regions on a grid
    of sigma / cells_per_sigma cells, strongly shaded, h = 0 in a thin line, the points as small
    hollow markers and no support-vector rings (their number is in the title)."""
    svm = fit_kernel_svm(X, r, "gaussian", C, sigma)
    if xlim is None:
        xlim, ylim = grid_limits(X, 0.6)
    steps = int(np.ceil(cells_per_sigma * max(xlim[1] - xlim[0], ylim[1] - ylim[0]) / sigma))
    shade_islands(ax, svm, xlim, ylim, steps)
    plot_hollow_points(ax, X, r)
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
    ax.set_aspect("equal")
    if title:
        n_regions, alone = island_counts(svm, X, xlim, ylim, cells_per_sigma)[:2]
        ax.set_title(_("σ = {sigma:g}, C = {C:g}: {support} SV of {n}, {n_regions} "
                     "regions, {alone} holding a single point").format(
                         sigma=sigma, C=C, support=len(svm.support_), n=len(X), n_regions=n_regions, alone=alone), fontsize=10)
    return svm


@slide_figure(
    "K16_gaussian_small_sigma",
    slide="Données avec recouplement : noyau gaussien avec petit σ",
    title=f"Overlapping data, C = {OVERLAP_C:g}, Gaussian kernel with σ = 0.1: islands around single "
    "points, the whole plane and zoomed on the tight class",
)
@checked(sigma=positive(1.0))
def draw_small_sigma_figure(axes=None, sigma=0.1):
    """A small sigma's islands: draw_islands on the whole plane and zoomed on the tight class."""
    fig, axes = figure_for(axes, ncols=2, width=5.5, height=5)
    X, r = curved_overlap_data()
    draw_islands(axes[0], X, r, sigma=sigma)
    draw_islands(axes[1], X, r, sigma=sigma, xlim=(-1.0, 2.0), ylim=(-1.2, 1.8), title=False)
    axes[1].set_title(_("σ = {sigma:g}, zoomed on the tight class").format(sigma=sigma), fontsize=10)
    axes[1].legend(loc="lower left", fontsize=8)
    return fig
