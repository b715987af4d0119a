"""Figures of chapter 10 (training structured SVMs): surrogate losses, rescaled hinges against
Delta, cutting planes, learning curves of the learners (objective against time)."""

import numpy as np

from course_lib.i18n import N_, _
from course_lib.plotting.artists import kept
from course_lib.plotting.registry import slide_figure
from course_lib.plotting.style import BLACK, BLUE, GREEN, GREY, ORANGE, PALETTE, VERMILLION, new_figure
from course_lib.plotting.arguments import OneOf, checked, count, positive

CURVE_STYLE = {
    N_("subgradient (batch)"): dict(color=ORANGE),
    N_("subgradient (stochastic)"): dict(color=GREEN),
    "n-slack": dict(color=VERMILLION),
    "one-slack": dict(color=BLUE),
}


def plot_surrogate_losses(ax, margins=np.linspace(-2.5, 2.5, 501)):
    """0-1 loss 1[y <w, x> < 0] and hinge max(0, 1 - y <w, x>) against the margin y <w, x>."""
    ax.plot(margins, (margins < 0).astype(float), color=BLACK, label=_("0-1 loss (NP-hard)"))
    ax.plot(margins, np.maximum(0.0, 1.0 - margins), color=BLUE, label=_("hinge max(0, 1 - y⟨w, x⟩)"))
    ax.fill_between(margins, (margins < 0).astype(float), np.maximum(0.0, 1.0 - margins),
                    color=BLUE, alpha=0.12, label=_("hinge - 0-1 ≥ 0"))
    ax.set_xlabel(_("margin $y\\langle w, x\\rangle$"))
    ax.set_ylabel(_("loss"))
    ax.legend(loc="upper right")
    return ax


@slide_figure("S2_hinge_surrogate", slide="Classification Binaire",
              title="The hinge loss, a convex upper bound on the 0-1 loss")
def surrogate_figure():
    """The hinge loss, a convex upper bound on the 0-1 loss."""
    fig, ax = new_figure(width=6, height=4)
    plot_surrogate_losses(ax)
    return fig


def plot_rescaled_hinges(ax, delta, margin_hinge, slack_hinge):
    """Each point: one (example, w) with its task loss Delta(y, y_hat(w)) and the margin- and
    slack-rescaled hinges; both lie above the diagonal (upper bounds)."""
    jitter = np.linspace(-0.08, 0.08, len(delta))
    ax.scatter(np.asarray(delta) + jitter, margin_hinge, s=18, color=BLUE, alpha=0.6, label=_("margin rescaling"))
    ax.scatter(np.asarray(delta) - jitter, slack_hinge, s=18, color=VERMILLION, alpha=0.6, marker="s",
               label=_("slack rescaling"))
    top = max(np.max(delta), 1.0) + 0.5
    ax.plot([0, top], [0, top], color=BLACK, lw=1.5, label=_("H = Δ"))
    ax.set_xlabel(_("task loss $\\Delta(y_i, \\hat y(x_i, w))$"))
    ax.set_ylabel(_("surrogate $H_i(w)$"))
    ax.legend(loc="upper left")
    return ax


@checked(C=positive())
def plot_cutting_planes(ax, w_grid, risk, planes, C=1.0, w_next=None):
    """1-D picture of a cutting-plane method: the risk R(w) (convex, piecewise linear), the planes
    b_k + s_k w that bound it from below, their max (the model), and 1/2 w^2 + C * model."""
    ax.plot(w_grid, risk, color=BLACK, label=_("risk $R(w)$"))
    model = np.full_like(w_grid, -np.inf)
    for k, (slope, offset) in enumerate(planes):
        line = offset + slope * w_grid
        model = np.maximum(model, line)
        ax.plot(w_grid, line, color=GREY, lw=1, ls="--", label=_("cutting planes") if k == 0 else None)
    ax.plot(w_grid, model, color=BLUE, label=_("model $\\max_k$ plane"))
    ax.plot(w_grid, 0.5 * w_grid ** 2 / C + model, color=ORANGE, lw=1.5,
            label=_("$\\frac{1}{2C} w^2$ + model"))
    if w_next is not None:
        ax.axvline(w_next, color=VERMILLION, lw=1.5, ls=":", label=_("next w (QP solution)"))
    ax.set_ylim(min(0.0, float(np.min(risk))) - 0.1, float(np.max(risk)) * 1.05 + 0.1)
    ax.set_xlabel("$w$")
    ax.legend(loc="upper right", fontsize=9)
    return ax


@checked(x=OneOf(("time", "iteration", "pass")))
def plot_learning_curves(ax, histories, optimum=None, x="time", dual=True):
    """Primal objective P(w_t) (solid) and, for cutting-plane learners, the dual lower bound
    (dashed) against training time (x="time"), iterations (x="iteration") or recorded passes of
    loss-augmented inference over the data (x="pass"). With `optimum`, the y axis is
    P - optimum on a log scale."""
    for k, (name, h) in enumerate(histories.items()):
        style = CURVE_STYLE.get(name, dict(color=PALETTE[k % len(PALETTE)]))
        primal = np.asarray(h["primal"])
        xs = np.arange(1, len(primal) + 1) if x == "pass" else np.asarray(h[x])
        if optimum is None:
            ax.plot(xs, primal, label=_(name), **style)
        else:
            ax.semilogy(xs, np.maximum(primal - optimum, 1e-3), label=_(name), **style)
        lower = np.asarray(h["dual"])
        if dual and np.isfinite(lower).any() and optimum is None:
            ax.plot(xs, lower, ls="--", lw=1.5, **style)
    if optimum is not None:
        ax.set_ylabel("$P(w_t) - P^*$")
    else:
        ax.set_ylabel(_("$P(w_t)$ (solid), lower bound (dashed)"))
    ax.set_xlabel({"time": _("training time (s)"), "iteration": _("iteration"),
                   "pass": _("passes of loss-augmented inference over the data")}[x])
    ax.legend(loc="upper right")
    return ax


def load_training_times():
    """The measured rows of `python -m benchmarks ssvm_scaling` (course_lib/resources/
    ssvm_training_times.csv): {learner: {column: array over n}} and the header comment."""
    import csv
    from importlib import resources

    path = resources.files("course_lib") / "resources" / "ssvm_training_times.csv"
    lines = path.read_text(encoding="utf-8").splitlines()
    comment = lines[0].lstrip("# ") if lines[0].startswith("#") else ""
    rows = list(csv.DictReader(line for line in lines if not line.startswith("#")))
    table = {}
    for row in rows:
        entry = table.setdefault(row["learner"], {})
        for key, value in row.items():
            if key != "learner":
                entry.setdefault(key, []).append(float(value))
    return {name: {k: np.array(v) for k, v in columns.items()} for name, columns in table.items()}, comment


@slide_figure("S11_training_times", slide="Résolution de la formulation 3",
              title="Training time against n, n-slack versus one-slack (measured on OCR words)")
def training_time_figure():
    """Time to reach 1% of P* and to each learner's own tolerance against the number of training
    words n, log-log (left), and the passes of loss-augmented inference each learner made to its
    tolerance (right): measured by
    `python -m benchmarks ssvm_scaling` and read from its CSV, so that the figure regenerates
    byte for byte."""
    from matplotlib.ticker import FormatStrFormatter, NullFormatter, NullLocator

    table = load_training_times()[0]
    fig, (ax_time, ax_passes) = new_figure(ncols=2, width=5.0, height=4.4)
    for name in ("n-slack", "one-slack"):
        if name not in table:
            continue
        n, style = table[name]["n"], CURVE_STYLE[name]
        ax_time.loglog(n, table[name]["seconds_to_epsilon"], "o-", label=_("{name}: to 1% of P*").format(
            name=name), **style)
        ax_time.loglog(n, table[name]["seconds_total"], "s--", lw=1.2, label=_("{name}: to its tol").format(
            name=name), **style)
        ax_passes.semilogx(n, table[name]["passes"], "o-", label=name, **style)
    ax_time.set_ylabel(_("training time (s)"))
    times = np.concatenate([table[name][c] for name in table for c in ("seconds_to_epsilon", "seconds_total")])
    ax_time.set_ylim(times.min() / 1.5, times.max() * 8)  # room for the legend above the curves
    ax_time.set_yticks([t for t in (0.01, 0.1, 1, 10, 100, 1000) if times.min() / 1.5 <= t <= times.max() * 8])
    ax_time.yaxis.set_major_formatter(FormatStrFormatter("%g"))
    ax_time.yaxis.set_minor_formatter(NullFormatter())
    ax_time.set_title(_("time to 1% of P* (solid), to tol = 1e-3 (dashed)"), fontsize=11)
    ax_passes.set_ylabel(_("passes of inference over the n words"))
    ax_passes.set_title(_("yet one-slack makes more passes"), fontsize=11)
    ax_passes.set_ylim(bottom=0)
    sizes = sorted({int(n) for columns in table.values() for n in columns["n"]})
    for ax in (ax_time, ax_passes):
        ax.set_xlabel(_("training words n"))
        ax.set_xticks(sizes, [str(n) for n in sizes])
        ax.xaxis.set_minor_locator(NullLocator())
        ax.legend(loc="upper left", fontsize=9, ncols=2 if ax is ax_time else 1)
    ax_passes.set_ylim(0, 1.3 * max(table[name]["passes"].max() for name in table))
    fig.supxlabel(_("One-slack: O(1/ε) iterations, independent of n (Joachims, Finley & Yu 2009); "
                  "n-slack: O(n/ε²) constraints (Tsochantaridis et al. 2005).\n"
                  "OCR words of fold 1, chain model, C/n = 0.1; timed once on one machine, shipped with the course."),
                  fontsize=10)
    return fig


@checked(resolution=count(2, 1000))
def plot_multiclass_fit(ax, learner, X, y, resolution=100):
    """Regions argmax_y <w_y, x> of a multiclass structured SVM (Crammer-Singer model), the points,
    and, circled, the examples with a positive slack xi_i = H_i(w) > 0 (margin not met). On a
    live figure the artists are kept and updated."""
    from matplotlib.colors import ListedColormap

    from course_lib.plotting.style import grid_limits

    (x0, x1), (y0, y1) = grid_limits(X, pad=0.8)
    gx, gy = np.meshgrid(np.linspace(x0, x1, resolution), np.linspace(y0, y1, resolution))
    K = learner.model.n_classes
    W = learner.w_.reshape(K, -1)
    regions = np.argmax(np.c_[gx.ravel(), gy.ravel()] @ W.T, axis=1).reshape(gx.shape)
    colours = [BLUE, VERMILLION, GREEN, ORANGE, PALETTE[4]][:K]
    image = kept(ax, ("regions", K), lambda: ax.imshow(
        regions, origin="lower", cmap=ListedColormap(colours), vmin=-0.5, vmax=K - 0.5, alpha=0.18,
        aspect="auto", interpolation="nearest"))
    image.set_data(regions)
    image.set_extent((x0, x1, y0, y1))
    for label, colour in enumerate(colours):
        mask = np.asarray(y) == label
        points = kept(ax, ("class", label), lambda: ax.scatter([], [], s=30, color=colour, edgecolor="white"))
        points.set_offsets(X[mask])
        points.set_label(_("class {label}").format(label=label))
    slack = learner.hinge_losses(X, y, learner.w_)
    violated = slack > 1e-9
    circles = kept(ax, "violated", lambda: ax.scatter([], [], s=110, facecolor="none", edgecolor=BLACK, lw=1.2,
                                                      label="$\\xi_i > 0$"))
    circles.set_offsets(X[violated])
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    objective = 0.5 * float(learner.w_ @ learner.w_) + learner.C * float(slack.mean())
    ax.set_title(_("C = {C:.3g}: ‖w‖ = {norm:.2f}, {violated} "
                 "slacks > 0, P(w) = {objective:.3f}").format(
                     C=learner.C, norm=np.linalg.norm(learner.w_), violated=violated.sum(), objective=objective), fontsize=10)
    kept(ax, "legend", lambda: ax.legend(loc="lower left", fontsize=8))
    return ax
