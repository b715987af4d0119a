"""Chapters 03-06 demos: the C slider of the soft margin (K9), the kernel SVM on overlapping data
with a kernel choice and C, sigma, degree (K16), the lambda slider of the kernel SVM trained by
gradient descent (K19). Each redraw refits on small data (40-200 points)."""

import ipywidgets as widgets
import numpy as np

from course_lib.kernels import KERNELS, kernel_params
from course_lib.i18n import N_, _
from course_lib.plotting.kernels import (
    curved_overlap_data, draw_hinge_gd, draw_kernel_svm, overlapping_data, update_hinge_gd,
)
from course_lib.plotting.margins import draw_svm, soft_margin_data
from course_lib.svm import SVM
from course_lib.kernels import gram
from course_lib.svm_gradient import KernelHingeGD, _feasible_multipliers, hinge_dual, hinge_error
from course_lib.widgets.core import Demo, log_slider
from course_lib.plotting.arguments import Between, OneOf, checked, count, positive

C_RANGE = (-2, 2)  # C from 10^-2 to 10^2
SIGMA_RANGE = (-1.3, 1)  # sigma from 0.05 to 10
LAMBDA_RANGE = (-3, 2)  # lambda from 10^-3 to 10^2
MAX_EPOCHS = 10_000  # hinge_gd_path keeps every epoch's alphas for each of the slider's 51 lambdas
# a demo's starting value lies on its slider
C_SLIDER, SIGMA_SLIDER, LAMBDA_SLIDER = (Between(10.0**low, 10.0**high) for low, high in (C_RANGE, SIGMA_RANGE, LAMBDA_RANGE))
HISTORY_BUCKET = 4  # the alpha lines keep each 4 epochs' extremes: half the vertices, < 2 pixels apart


def draw_soft_margin_panel(ax, C, X, r):
    """Refit the linear soft-margin SVM at C and draw margins, support vectors and slacks."""
    svm = SVM(C=C, kernel="linear").fit(X, r)
    draw_svm(ax, svm, X, r, legend=False, shade=True)
    ax.set_title(
        _("C = {C:.3g}: {n} support vectors, ‖w‖ = {norm:.2f}").format(
            C=C, n=len(svm.support_), norm=(svm.w_ @ svm.w_) ** 0.5),
        fontsize=12,
    )


@checked(C=C_SLIDER)
def soft_margin_demo(X=None, r=None, C=1.0):
    """A C slider (10^-2 .. 10^2) on the linear soft-margin SVM: small C, wide margin and many
    support vectors with slack; large C, narrow margin and fewer slacks."""
    if X is None:
        X, r = soft_margin_data()

    def draw(ax, C):
        draw_soft_margin_panel(ax, C, X, r)

    control = log_slider("C", C, *C_RANGE, step=0.1)
    return Demo(draw, {"C": control}, width=6.5, height=5.5, clear="artists")


@checked(kernel=OneOf(KERNELS), C=C_SLIDER, sigma=SIGMA_SLIDER, degree=count(1, 3))
def kernel_controls(kernel="gaussian", C=1.0, sigma=1.0, degree=2):
    """The kernel dropdown, C, sigma and degree, and when each applies: sigma only under the
    Gaussian kernel, degree only under the polynomial one (the only kernels they change)."""
    controls = {
        "kernel": widgets.Dropdown(
            options=[(_(name), name) for name in (N_("linear"), N_("polynomial"), N_("gaussian"), N_("sigmoid"))],
            value=kernel,
            description=_("kernel"),
        ),
        "C": log_slider("C", C, *C_RANGE, step=0.1),
        "sigma": log_slider("sigma", sigma, *SIGMA_RANGE, step=0.05),
        "degree": widgets.IntSlider(
            value=degree, min=1, max=3, description=_("degree q"),
            style={"description_width": "initial"},
        ),
    }
    applies = {name: (lambda values, name=name: name in kernel_params(values["kernel"]))
               for name in ("sigma", "degree")}
    return controls, applies


@checked(kernel=OneOf(KERNELS), C=C_SLIDER, sigma=SIGMA_SLIDER, degree=count(1, 3), steps=count(2, 4000), max_steps=count(2, 4000))
def kernel_svm_demo(X=None, r=None, kernel="gaussian", C=1.0, sigma=1.0, degree=2, steps=70,
                    max_steps=480):
    """Kernel dropdown, C, sigma and degree on chapter 05's overlapping data, its Bayes boundary
    dotted; sigma is enabled only for the Gaussian kernel and degree only for the polynomial one.
    Every slider follows the pointer.
    Below ISLAND_SIGMA the regions are drawn on up to `max_steps` points a side (2.5 per sigma)
    with small hollow markers, so that the islands around single points show at the slider's
    smallest sigma (draw_kernel_svm)."""
    bayes = X is None
    if X is None:
        X, r = curved_overlap_data()
    controls, applies = kernel_controls(kernel, C, sigma, degree)

    def draw(ax, kernel, C, sigma, degree):
        draw_kernel_svm(
            ax, X, r, kernel=kernel, C=C, sigma=sigma, degree=degree, steps=steps, legend=False,
            bayes=bayes, max_steps=max_steps, tol=1e-3,  # the library's default: a frame, not a figure
        )

    return Demo(draw, controls, width=6.5, height=5.5, applies=applies, clear="artists")


@checked(sigma=positive(), eta=positive(), n_epochs=count(1, MAX_EPOCHS), tol=positive(1.0))
def hinge_gd_path(X, r, lams, sigma=1.0, eta=0.05, n_epochs=2000, tol=1e-2):
    """KernelHingeGD(sigma=sigma, lam=lam, eta=eta, n_epochs=n_epochs, tol=tol) fitted on (X, r)
    for every lam of `lams` at once: the same updates (alpha <- max(0, alpha - eta_k dE/dalpha),
    w0 <- w0 - eta_k dE/dw0, eta_k = step_size(eta, lam, k)) run on one row per lambda, so the
    epochs of all the slider's values cost about those of one fit. Returns {lam: fitted model}
    with the attributes of KernelHingeGD.fit (its error and step histories left out)."""
    X, r = np.asarray(X, dtype=float), np.asarray(r, dtype=float)
    lams = np.asarray(lams, dtype=float)
    if lams.ndim != 1 or np.any(lams <= 0):
        raise ValueError(_("lams must be a 1-D array of values > 0, got {lams!r}").format(
                             lams=lams))
    G = gram(X, "gaussian", sigma=sigma)
    alpha, w0 = np.zeros((len(lams), len(r))), np.zeros(len(lams))
    history = np.empty((n_epochs + 1, *alpha.shape))
    history[0] = alpha
    inside, weight = np.zeros_like(alpha), np.zeros(len(lams))
    for k in range(n_epochs):
        eta_k = np.minimum(eta, 1.0 / (lams * (k + 1)))  # step_size(eta, lam, k), lam > 0
        h = (alpha * r) @ G + w0[:, None]  # G is symmetric: row i is G @ (alpha_i r)
        violated = r * h < 1
        if k >= n_epochs // 2:  # average the margin indicators over the last half
            inside += eta_k[:, None] * violated
            weight += eta_k
        r_violated = np.where(violated, r, 0.0)
        alpha = alpha - eta_k[:, None] * (-r * (r_violated @ G) + lams[:, None] * alpha)
        alpha[alpha < 0] = 0.0
        w0 = w0 + eta_k * r_violated.sum(axis=1)
        history[k + 1] = alpha
    models = {}
    for i, lam in enumerate(lams):
        model = KernelHingeGD(sigma=sigma, lam=float(lam), eta=eta, n_epochs=n_epochs, tol=tol)
        error = hinge_error(alpha[i], w0[i], G, r, lam)
        mu = _feasible_multipliers(inside[i] / weight[i], r) if weight[i] > 0 else np.zeros_like(r)
        dual = hinge_dual(mu, G, r, lam)
        model.X_, model.r_, model.alpha_, model.w0_ = X, r, alpha[i], float(w0[i])
        model.support_ = np.flatnonzero(alpha[i] > 0)
        model.alpha_history_ = history[:, i, :]
        model.multipliers_, model.dual_objective_ = mu, dual
        model.duality_gap_ = max(0.0, error - dual)
        model.converged_ = bool(model.duality_gap_ <= tol * max(1.0, error))
        models[float(lam)] = model
    return models


def slider_grid(control):
    """Every value a FloatLogSlider offers: base ** (min + k step)."""
    count = int(round((control.max - control.min) / control.step))
    return control.base ** (control.min + control.step * np.arange(count + 1))


@checked(lam=LAMBDA_SLIDER, sigma=positive(), eta=positive(), n_epochs=count(1, MAX_EPOCHS))
def hinge_gd_demo(X=None, r=None, lam=0.1, sigma=1.0, eta=0.05, n_epochs=2000):
    """A lambda slider (10^-3 .. 10^2) on the kernel SVM trained by gradient descent: left the
    decision regions, right the alphas at every epoch beside those of lambda = 0. The fits at
    every value of the slider are computed together when the demo is built (hinge_gd_path);
    a new frame updates the figure's artists; each alpha line keeps the smallest and largest
    value of every HISTORY_BUCKET epochs (draw_alpha_history)."""
    if X is None:
        X, r = overlapping_data(n=40)
    free = KernelHingeGD(sigma=sigma, lam=0.0, eta=eta, n_epochs=n_epochs).fit(
        X, r
    )  # the lambda = 0 reference
    control = log_slider("lam", lam, *LAMBDA_RANGE, step=0.1)
    grid = slider_grid(control)
    fits = hinge_gd_path(X, r, grid, sigma=sigma, eta=eta, n_epochs=n_epochs)

    def fitted(lam):
        nearest = grid[np.argmin(np.abs(np.log10(grid) - np.log10(lam)))]
        if np.isclose(nearest, lam, rtol=1e-9, atol=0):  # a value of the slider (up to rounding)
            return fits[float(nearest)]
        if lam not in fits:  # set from code off the slider's grid
            fits[lam] = KernelHingeGD(sigma=sigma, lam=lam, eta=eta, n_epochs=n_epochs).fit(X, r)
        return fits[lam]

    def draw(axes, lam):
        if not axes[1].get_lines():  # the first frame draws; the next ones update its artists
            draw_hinge_gd(axes, X, r, lam=lam, free=free, model=fitted(lam), bucket=HISTORY_BUCKET)
        else:
            update_hinge_gd(axes, X, r, fitted(lam), bucket=HISTORY_BUCKET)

    return Demo(draw, {"lam": control}, ncols=2, width=5.5, height=4.8, clear=False)
