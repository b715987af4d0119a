"""Chapter 01 drawings: the geometry of a linear discriminant (K1), the perceptron jumping on
non-separable data (K2), least squares settling on the same data and dragged by a far point (K3),
the version space (K4)."""

import numpy as np

from course_lib import data
from course_lib.i18n import _
from course_lib.linear import (
    LeastSquaresClassifier, Perceptron, least_squares_epochs, perceptron_criterion,
    sample_version_space, version_space_offsets,
)
from course_lib.plotting.registry import slide_figure
from course_lib.plotting.style import (
    BLACK, BLUE, GREEN, GREY, ORANGE, VERMILLION, figure_for, grid_limits, new_figure,
    plot_line, plot_points,
)
from course_lib.plotting.arguments import Between, Numbers, checked, count


def nonseparable_data():
    """The chapter's non-separable set: 40 overlapping points (seeded)."""
    return data.overlapping(n=40, seed=3)


LIMITS = grid_limits(nonseparable_data()[0], 0.6)  # every point of the set inside the axes


def shade_sides(ax, w, w0, xlim, ylim):
    """Shade the side h(x) = w.x + w0 >= 0 (class +1) blue and the other side vermillion."""
    xx, yy = np.meshgrid(np.linspace(*xlim, 3), np.linspace(*ylim, 3))
    h = w[0] * xx + w[1] * yy + w0
    if np.any(w):
        ax.contourf(xx, yy, h, levels=[-np.inf, 0, np.inf], colors=[VERMILLION, BLUE], alpha=0.12)


FAR_DIRECTION = np.array([np.cos(np.radians(75)), np.sin(np.radians(75))])


@checked(distance=Between(0, 100))
def outlier_data(distance):
    """The non-separable set plus one point of class +1 at `distance` from the origin, up and
    slightly right (direction 75 degrees), well inside its own class's side (no point at 0)."""
    X, r = nonseparable_data()
    if distance <= 0:
        return X, r
    return np.vstack([X, distance * FAR_DIRECTION]), np.r_[r, 1.0]


@slide_figure("K1_linear_discriminant_geometry", slide="Géométrie des discriminants linéaires")
@checked(shapes={"w": "2", "x": "2"}, w=Numbers(2), w0=Between(-100, 100), x=Numbers(2))
def draw_geometry(ax=None, w=(1.0, 2.0), w0=-2.0, x=(2.2, 1.6)):
    """Geometry of a linear discriminant: w sets the orientation, w0 the offset, h(x)/||w|| the distance."""
    fig, ax = figure_for(ax, width=6, height=5.5)
    w, x = np.asarray(w, float), np.asarray(x, float)
    norm = np.linalg.norm(w)
    (xlo, xhi), (ylo, yhi) = (-1.0, 4.0), (-1.0, 4.0)
    shade_sides(ax, w, w0, (xlo, xhi), (ylo, yhi))
    plot_line(ax, w, w0, (xlo, xhi), (ylo, yhi), color=BLACK, label="$h(\\mathbf{x}) = 0$")
    foot0 = -w0 * w / norm**2  # the point of the line closest to the origin
    ax.annotate("", xy=foot0 + w / norm, xytext=foot0,
                arrowprops=dict(arrowstyle="-|>", color=BLUE, lw=2.5))
    ax.text(*(foot0 + 1.08 * w / norm), "$\\mathbf{w}$", color=BLUE, fontsize=15)
    ax.plot([0, foot0[0]], [0, foot0[1]], ls=":", color=GREY)
    ax.text(*(foot0 / 2 + [-0.12, -0.05]), f"$|w_0|/\\|\\mathbf{{w}}\\| = {abs(w0) / norm:.2f}$",
            color=BLACK, ha="right", va="center", fontsize=12)
    h = float(w @ x + w0)
    foot = x - h * w / norm**2
    ax.plot(*x, "o", color=VERMILLION, ms=10, zorder=4)
    ax.plot([x[0], foot[0]], [x[1], foot[1]], ls="--", color=VERMILLION)
    ax.text(x[0] + 0.1, x[1] + 0.1, f"$h(\\mathbf{{x}})/\\|\\mathbf{{w}}\\| = {h / norm:.2f}$", color=VERMILLION)
    ax.text(3.0, 3.5, "$h(\\mathbf{x}) > 0$", color=BLUE)
    ax.text(-0.8, -0.7, "$h(\\mathbf{x}) < 0$", color=VERMILLION)
    ax.plot(0, 0, "k+", ms=12)
    ax.set_aspect("equal")
    ax.set_xlim(xlo, xhi)
    ax.set_ylim(ylo, yhi)
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    ax.set_title(f"$\\mathbf{{w}} = ({w[0]:g}, {w[1]:g})$, $w_0 = {w0:g}$")
    return fig


@checked(update=count(0))
def draw_perceptron_update(ax, perceptron, X, r, update):
    """The perceptron's boundary after `update` updates, the point that caused it circled."""
    if isinstance(update, bool) or not isinstance(update, (int, np.integer)) or update < 0:
        raise ValueError(_("update must be an integer >= 0 (0: before any update); got {update!r}.").format(
                             update=update))
    update = int(min(update, perceptron.n_updates_))
    w, w0 = perceptron.history_[update]
    shade_sides(ax, w, w0, *LIMITS)
    plot_points(ax, X, r)
    plot_line(ax, w, w0, *LIMITS, color=BLACK)
    wrong = r * (X @ w + w0) <= 0
    ax.scatter(*X[wrong].T, s=190, facecolor="none", edgecolor=ORANGE, linewidth=2, zorder=4,
               label=_("misclassified ({n})").format(n=wrong.sum()))
    culprit = perceptron.update_index_[update]
    if culprit >= 0:
        ax.scatter(*X[culprit], s=420, marker="*", color=GREEN, edgecolor=BLACK, zorder=5, label=_("caused this update"))
    epoch = perceptron.update_epoch_[update]
    ax.set_title(_("update {update}/{total} (epoch {epoch}): ").format(update=update, total=perceptron.n_updates_, epoch=epoch)
                 + f"$E_{{percp}} = {perceptron_criterion(w, w0, X, r):.2f}$", fontsize=12)
    ax.legend(loc="lower right", fontsize=9)
    ax.set_xlim(LIMITS[0])
    ax.set_ylim(LIMITS[1])


@checked(n_epochs=count(1, 1000))
def fitted_perceptron(n_epochs=6):
    X, r = nonseparable_data()
    return Perceptron(n_epochs=n_epochs, seed=0).fit(X, r), X, r


@checked(epoch=count(1, 1000))
def draw_perceptron_epoch(ax, perceptron, X, r, epoch):
    """The perceptron's boundary at the end of epoch `epoch`."""
    w, w0 = perceptron.state_after_epoch(epoch)
    shade_sides(ax, w, w0, *LIMITS)
    plot_points(ax, X, r)
    plot_line(ax, w, w0, *LIMITS, color=BLACK)
    errors = int(np.sum(r * (X @ w + w0) <= 0))
    ax.set_title(_("after epoch {epoch}: {errors} errors, ").format(epoch=epoch, errors=errors)
                 + f"$E_{{percp}} = {perceptron_criterion(w, w0, X, r):.2f}$", fontsize=12)
    ax.set_xlim(LIMITS[0])
    ax.set_ylim(LIMITS[1])


@checked(epoch=count(1, 6))
def perceptron_epoch_figure(epoch):
    """Perceptron on non-separable data at the end of an epoch."""
    fig, ax = new_figure()
    draw_perceptron_epoch(ax, *fitted_perceptron(), epoch)
    return fig


for _epoch in range(1, 7):
    slide_figure(f"K2_perceptron_nonseparable_epoch{_epoch}", slide="Perceptron sur données non linéairement séparables",
                 title=f"Perceptron on non-separable data, end of epoch {_epoch} of 6", epoch=_epoch)(perceptron_epoch_figure)


@checked(epoch=count(1, 1000), n_epochs=count(1, 1000))
def draw_least_squares_epoch(ax, X, r, epoch, n_epochs=6):
    """Least squares trained by gradient descent on E_quad (see least_squares_epochs): the line
    after `epoch` epochs, dashed the closed-form solution it converges to."""
    w, w0 = least_squares_epochs(X, r, n_epochs=max(epoch, n_epochs))[epoch - 1]
    best = LeastSquaresClassifier().fit(X, r)
    shade_sides(ax, w, w0, *LIMITS)
    plot_points(ax, X, r)
    plot_line(ax, best.w_, best.w0_, *LIMITS, color=GREY, ls="--", lw=1.8, label=_("closed form"))
    plot_line(ax, w, w0, *LIMITS, color=BLACK, label=_("after epoch {epoch}").format(epoch=epoch))
    errors = int(np.sum(r * (X @ w + w0) <= 0))
    E = 0.5 * float(np.sum((r - (X @ w + w0)) ** 2))
    ax.set_title(_("after epoch {epoch}: {errors} errors, ").format(epoch=epoch, errors=errors) + f"$E_{{quad}} = {E:.2f}$",
                 fontsize=12)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.08), ncol=2, fontsize=10)


@checked(epoch=count(1, 6))
def least_squares_epoch_figure(epoch):
    """Least squares by gradient descent on the perceptron's non-separable data."""
    fig, ax = new_figure(width=5.5, height=5.2)
    draw_least_squares_epoch(ax, *nonseparable_data(), epoch)
    return fig


for _epoch in range(1, 7):
    slide_figure(f"K3_least_squares_nonseparable_frame{_epoch}", slide="Moindres carrés sur données non linéairement séparables",
                 title=f"Least squares (gradient descent on E_quad) on the perceptron's data, end of epoch {_epoch} of 6",
                 epoch=_epoch)(least_squares_epoch_figure)


@checked(distance=Between(0, 100))
def draw_least_squares(ax, distance: float):
    """Least squares with and without a far point of class +1 at `distance` (see outlier_data)."""
    X0, r0 = nonseparable_data()
    X, r = outlier_data(distance)
    plain = LeastSquaresClassifier().fit(X0, r0)
    pulled = LeastSquaresClassifier().fit(X, r)
    (xlo, xhi), (ylo, yhi) = LIMITS
    xlim = (xlo, max(xhi, X[:, 0].max() + 0.7))
    ylim = (ylo, max(yhi, X[:, 1].max() + 0.7))
    shade_sides(ax, pulled.w_, pulled.w0_, xlim, ylim)
    plot_points(ax, X, r)
    plot_line(ax, plain.w_, plain.w0_, xlim, ylim, color=GREY, ls="--", label=_("without the far point"))
    plot_line(ax, pulled.w_, pulled.w0_, xlim, ylim, color=BLACK, label=_("least squares"))
    errors = int(np.sum(pulled.predict(X0) != r0))
    if distance > 0:
        ax.set_title(_("far point at distance {distance:.1f}: {errors} errors on the other {n}").format(
            distance=distance, errors=errors, n=len(X0)), fontsize=12)
    else:
        ax.set_title(_("no far point: {errors} errors on the {n} points").format(errors=errors, n=len(X0)), fontsize=12)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=2, fontsize=10)


@slide_figure("K3_least_squares_far_point", slide="Moindres carrés sur données non linéairement séparables",
              title="Least squares dragged by one point of class +1 far away on its own, correct side")
@checked(distance=Between(0, 100))
def least_squares_figure(distance=12.0):
    """Least squares on the non-separable data with a far point of class +1."""
    fig, ax = new_figure(width=5.5, height=6)
    draw_least_squares(ax, distance)
    return fig


@slide_figure("K4_version_space", slide="Espace des versions")
@checked(n_hypotheses=count(1, 1000))
def draw_version_space(ax=None, n_hypotheses=40):
    """The version space: separating lines consistent with the data, with S and G for one orientation."""
    fig, ax = figure_for(ax, width=6, height=5.5)
    X, r = data.linearly_separable(n=30, seed=0)
    (xlo, xhi), (ylo, yhi) = (-3, 3), (-3, 3)
    for w, w0 in sample_version_space(X, r, n_hypotheses=n_hypotheses, seed=0):
        plot_line(ax, w, w0, (xlo, xhi), (ylo, yhi), color=GREY, lw=1, alpha=0.5)
    w = np.array([1.0, 1.0]) / np.sqrt(2)
    w0_S, w0_G = version_space_offsets(X, r, w)
    plot_line(ax, w, w0_S, (xlo, xhi), (ylo, yhi), color=BLUE, label=_("S (most specific)"))
    plot_line(ax, w, w0_G, (xlo, xhi), (ylo, yhi), color=VERMILLION, label=_("G (most general)"))
    plot_line(ax, w, (w0_S + w0_G) / 2, (xlo, xhi), (ylo, yhi), color=BLACK, ls="--", lw=1.8,
              label=_("halfway (largest margin)"))
    plot_points(ax, X, r)
    ax.set_title(_("grey: separating lines; S, G for $\\mathbf{w} \\propto (1, 1)$"), fontsize=13)
    ax.legend(loc="lower right", fontsize=10)
    return fig
