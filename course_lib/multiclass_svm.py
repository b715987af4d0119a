"""The multiclass SVM and SGD on the generalised hinge risk (M9-M11), with the PAC bounds.

Both learners predict h_w(x) = argmax_y <w, Psi(x, y)> and are trained by stochastic
subgradient steps with the loss-augmented y_hat (see course_lib.multiclass):

    y_hat in argmax_y' Delta(y', y_i) + <w, Psi(x_i, y') - Psi(x_i, y_i)>
    u = Psi(x_i, y_hat) - Psi(x_i, y_i)          (a subgradient of the hinge, M12)
"""

import io
import math
from importlib import resources

import numpy as np

from course_lib._validation import (
    check_class_indices,
    finite_arguments,
    check_fitted,
    check_int,
    check_steps,
    check_matrix,
    check_positive,
    check_random_state,
    finite_hyperparameters,
)
from course_lib.data import read_checked
from course_lib.i18n import _
from course_lib.multiclass import (
    MultiVector,
    check_cost,
    check_labels,
    fit_feature_map,
    _loss_augmented_argmax,
    generalised_hinge,
    loss_augmented_argmax,
    zero_one_cost,
)


class _PsiLinearClassifier:
    """What both learners share: data checks, the averaged SGD loop, prediction."""

    def _prepare(self, X, y):
        X = check_matrix(X)
        check_steps(check_int(self.n_iter, "n_iter", minimum=1), "n_iter")
        self.classes_, y_index = check_labels(y, X.shape[0])
        k = len(self.classes_)
        self.feature_map_ = fit_feature_map(self.feature_map, X, y_index, k)
        self.cost_ = zero_one_cost(k) if self.cost is None else check_cost(self.cost, k)
        self.n_features_in_ = X.shape[1]
        return X, y_index

    def _sgd(self, X, y, step):
        """w^(1) = 0; for t = 1..T: draw i ~ U(m), y_hat by loss-augmented inference,
        w^(t+1) = step(w^(t), t, x_i, y_i, y_hat) in place; return (1/T) sum_t w^(t)."""
        rng = check_random_state(self.seed)
        psi = self.feature_map_
        w = np.zeros(psi.dimension_)
        w_sum = np.zeros_like(w)
        one_pass = getattr(self, "one_pass", False)
        if not isinstance(one_pass, (bool, np.bool_)):
            raise TypeError(_("one_pass must be True or False; got {one_pass!r}.").format(
                                one_pass=one_pass))
        if one_pass:
            if self.n_iter != len(X):
                raise ValueError(
                    _("one_pass=True visits each of the {n_x} examples once: n_iter must be "
                      "{n_x}; got {n_iter}.").format(n_x=len(X), n_iter=self.n_iter)
                )
            draws = np.arange(len(X))
        else:
            draws = rng.integers(len(X), size=self.n_iter)
        for t, i in enumerate(draws, start=1):
            w_sum += w
            x = X[i:i + 1]
            y_hat = _loss_augmented_argmax(psi.scores(x, w), y[i:i + 1], self.cost_)[0][0]  # checked by _prepare
            step(w, t, x[0], y[i], y_hat)
        return w_sum / self.n_iter

    def decision_function(self, X):
        """Matrix (n, k) of the scores <w, Psi(x, y)>, columns in the order of classes_."""
        check_fitted(self, "w_")
        X = check_matrix(X, n_features=self.n_features_in_)
        return self.feature_map_.scores(X, self.w_)

    def predict(self, X):
        """h_w(x) = argmax_y <w, Psi(x, y)> (the first class of classes_ wins exact ties)."""
        scores = self.decision_function(X)
        return self.classes_[np.argmax(scores, axis=1)]

    def class_index(self, y):
        """Positions of the labels y in classes_; raises on a label never seen in training."""
        y = np.asarray(y)
        position = np.searchsorted(self.classes_, y)
        position = np.clip(position, 0, len(self.classes_) - 1)
        unknown = self.classes_[position] != y
        if np.any(unknown):
            raise ValueError(
                _("labels {unknown} were not seen in training; known classes are {classes}.").format(
                    unknown=np.unique(y[unknown]).tolist()[:5], classes=self.classes_.tolist())
            )
        return position

    def hinge_losses(self, X, y):
        """l(w, (x_i, y_i)) for each example at the fitted w."""
        check_fitted(self, "w_")
        X = check_matrix(X, n_features=self.n_features_in_)
        if len(y) != len(X):
            raise ValueError(_("y has {n_y} labels but X has {n_x} samples: lengths must match.").format(
                                 n_y=len(y), n_x=len(X)))
        return generalised_hinge(self.w_, X, self.class_index(y), self.feature_map_, self.cost_)

    @property
    def coef_(self):
        """w_ as the matrix W (one row w_y per class) for the multi-vector map, w_ otherwise."""
        check_fitted(self, "w_")
        if isinstance(self.feature_map_, MultiVector):
            return self.feature_map_.as_matrix(self.w_)
        return self.w_


class MulticlassSVM(_PsiLinearClassifier):
    """The multiclass SVM (M9, M10): minimise lambda ||w||^2 + (1/m) sum_i l(w, (x_i, y_i)) by
    SGD for Tikhonov regularisation, exactly as on the slides:

        w^(t+1) = (1 - 1/t) w^(t) - 1/(2 lambda t) [Psi(x_i, y_hat) - Psi(x_i, y_i)],

    output w_bar = (1/T) sum_{t=1}^T w^(t).

    Parameters: lam (lambda > 0), n_iter (T), seed, feature_map (MultiVector() if None; also
    BinaryMap(), TfIdfMap() or any object with fit/psi/scores/add_psi), cost (Delta as a k x k
    matrix indexed [y_predicted, y_true] in the order of the sorted labels; 0-1 if None).
    Learned: classes_, w_ (the average iterate), coef_, feature_map_, cost_.
    """

    def __init__(self, lam=0.01, n_iter=1000, seed=0, feature_map=None, cost=None):
        self.lam = lam
        self.n_iter = n_iter
        self.seed = seed
        self.feature_map = feature_map
        self.cost = cost

    @finite_hyperparameters
    def fit(self, X, y):
        lam = check_positive(self.lam, "lam")
        X, y_index = self._prepare(X, y)
        add = self.feature_map_.add_psi

        def step(w, t, x, y_i, y_hat):
            w *= 1.0 - 1.0 / t
            if y_hat != y_i:
                add(w, x, y_hat, -1.0 / (2 * lam * t))
                add(w, x, y_i, +1.0 / (2 * lam * t))

        self.w_ = self._sgd(X, y_index, step)
        return self

    def objective(self, X, y, w=None):
        """lambda ||w||^2 + (1/m) sum_i l(w, (x_i, y_i)), at w (default: the fitted w_)."""
        check_fitted(self, "w_")
        w = self.w_ if w is None else np.asarray(w, dtype=float)
        X = check_matrix(X, n_features=self.n_features_in_)
        losses = generalised_hinge(w, X, self.class_index(y), self.feature_map_, self.cost_)
        return float(self.lam * w @ w + losses.mean())


class HingeRiskSGD(_PsiLinearClassifier):
    """SGD directly on the generalised hinge risk (M11), without regularisation:

        w^(t+1) = w^(t) - eta [Psi(x, y_hat) - Psi(x, y)],   output w_bar = (1/T) sum_t w^(t),

    with (x, y) drawn uniformly from the training set at each step. Parameters: eta (> 0),
    n_iter (T), seed, feature_map, cost (as for MulticlassSVM), one_pass: when True, the T = n_iter
    rows of X are visited once each, in order, as the corollary's T fresh draws (x, y) ~ D.
    """

    def __init__(self, eta=0.1, n_iter=1000, seed=0, feature_map=None, cost=None, one_pass=False):
        self.one_pass = one_pass
        self.eta = eta
        self.n_iter = n_iter
        self.seed = seed
        self.feature_map = feature_map
        self.cost = cost

    @finite_hyperparameters
    def fit(self, X, y):
        eta = check_positive(self.eta, "eta")
        X, y_index = self._prepare(X, y)
        add = self.feature_map_.add_psi

        def step(w, t, x, y_i, y_hat):
            if y_hat != y_i:
                add(w, x, y_hat, -eta)
                add(w, x, y_i, +eta)

        self.w_ = self._sgd(X, y_index, step)
        return self


# ---------------------------------------------------------------- PAC guarantees (M9)


def psi_radius(feature_map, X):
    """rho = 2 max_{x, y} ||Psi(x, y)|| over the rows of X: then ||Psi|| <= rho / 2 and the
    generalised hinge is rho-Lipschitz. feature_map must be fitted and provide norms(X), the
    (n, k) matrix of ||Psi(x_i, y)|| (the maps of course_lib.multiclass do)."""
    X = check_matrix(X)
    return 2.0 * float(feature_map.norms(X).max())


def _check_counts(m, name):
    """A sample size or iteration count (a number or an array of them), each >= 1 and finite."""
    try:
        given = np.asarray(m)
        if given.dtype.kind not in "iuf":  # strings, booleans, complex numbers, None
            raise TypeError
        m = given.astype(float)
    except (TypeError, ValueError):
        raise TypeError(_("{name} must be a number >= 1 (or an array of them); got {m!r}.").format(
                            name=name, m=m)) from None
    if m.size == 0 or not np.all(np.isfinite(m)) or np.any(m < 1):
        raise ValueError(_("{name} must be finite and >= 1 (a count); got {values!r:.80}.").format(
                             name=name, values=m.tolist()))
    return m


@finite_arguments
def svm_lambda(rho, B, m):
    """The corollary's lambda = (rho / B) sqrt(2 / m)."""
    rho, B = check_positive(rho, "rho"), check_positive(B, "B")
    return rho / B * np.sqrt(2.0 / _check_counts(m, "m"))


@finite_arguments
def svm_excess_bound(rho, B, m):
    """sqrt(8 rho^2 B^2 / m): E L_D^Delta(h_w) <= min_{||u|| <= B} L_D^g-hinge(u) + this."""
    rho, B = check_positive(rho, "rho"), check_positive(B, "B")
    return rho * B * np.sqrt(8.0 / _check_counts(m, "m"))  # rho^2 B^2 would overflow first


MAX_ITERATIONS = 1e15  # beyond this, no computation will ever run T steps


def sgd_iterations(B, rho, eps):
    """The smallest integer T with T >= (B rho / eps)^2."""
    B, rho, eps = check_positive(B, "B"), check_positive(rho, "rho"), check_positive(eps, "eps")
    log10_T = 2 * (math.log10(B) + math.log10(rho) - math.log10(eps))
    if log10_T > math.log10(MAX_ITERATIONS):
        raise ValueError(
            _("eps={eps:g} needs T = (B rho / eps)^2 = 1e{log10_T:.0f} iterations, more than any "
              "run can make (> {max_iterations:g}): choose eps >= {smallest:.3g}.").format(
                eps=eps, log10_T=log10_T, max_iterations=MAX_ITERATIONS,
                smallest=B * rho / math.sqrt(MAX_ITERATIONS))
        )
    return math.ceil((B * rho / eps) ** 2 - 1e-9)


@finite_arguments
def sgd_eta(B, rho, T):
    """The corollary's step size eta = B / (rho sqrt(T))."""
    B, rho = check_positive(B, "B"), check_positive(rho, "rho")
    return B / (rho * np.sqrt(_check_counts(T, "T")))


@finite_arguments
def sgd_excess_bound(B, rho, T):
    """The eps reached after T iterations (T = (B rho / eps)^2 solved for eps): B rho / sqrt(T)."""
    B, rho = check_positive(B, "B"), check_positive(rho, "rho")
    return B * rho / np.sqrt(_check_counts(T, "T"))


@finite_arguments(shapes={"X": "n d", "y": "n"})
def best_hinge_in_ball(X, y, feature_map, B, Delta=None, n_steps=400):
    """min_{||u|| <= B} L_S^g-hinge(u), the comparison term of both corollaries, on a sample.

    Projected subgradient descent on the mean generalised hinge (multi-vector Psi, class indices
    y), u <- Proj_B(u - eta_t g_t) with eta_t = B / (rho sqrt(t)). Returns (u, upper, lower):
    `upper` the risk of the best iterate u, `lower` a certified lower bound on the minimum:
    for convex f and any subgradient g_t at u_t, f(v) >= f(u_t) + <g_t, v - u_t>
    >= f(u_t) - <g_t, u_t> - B ||g_t|| for every ||v|| <= B (the gap upper - lower says how far
    from the optimum the descent stopped).
    """
    if not isinstance(feature_map, MultiVector):
        raise TypeError(_("best_hinge_in_ball needs a fitted MultiVector feature map."))
    X = check_matrix(X)
    B = check_positive(B, "B")
    k = feature_map.n_classes_
    n_steps = check_steps(check_int(n_steps, "n_steps", minimum=1), "n_steps", X.shape[0] * k)  # a step: n x k scores
    y = check_class_indices(y, k, "y", n_samples=X.shape[0])
    Delta = zero_one_cost(k) if Delta is None else check_cost(Delta, k)
    rows = np.arange(len(y))
    rho = psi_radius(feature_map, X)
    if not rho > 0:  # the step B / (rho sqrt t) needs rho > 0
        raise ValueError(
            _("X gives feature vectors Psi of norm 0 (rho = {rho:g}): its largest entry, "
              "{max:.3g}, is zero or too small to square in float64. Rescale X.").format(
                rho=rho, max=np.abs(X).max()))
    u = np.zeros(feature_map.dimension_)
    upper, best, lower = np.inf, u.copy(), -np.inf
    for t in range(1, n_steps + 1):
        y_hat, losses = loss_augmented_argmax(feature_map.scores(X, u), y, Delta)
        risk = float(losses.mean())
        direction = np.zeros((len(y), k))
        direction[rows, y_hat] += 1.0
        direction[rows, y] -= 1.0
        g = (feature_map._extend(X).T @ direction).T.ravel() / len(y)  # mean Psi(x, y_hat) - Psi(x, y)
        if risk < upper:
            upper, best = risk, u.copy()
        lower = max(lower, risk - g @ u - B * np.linalg.norm(g))
        u = u - B / (rho * np.sqrt(t)) * g
        norm = np.linalg.norm(u)
        if norm > B:
            u *= B / norm
    return best, upper, lower


# ---------------------------------------------------------------- cached OCR models (M10)

OCR_SVM_FILE = "ocr_multiclass_svm.npz"
OCR_SVM_SHA256 = "ff1d8292d08a6281f1a166a59799ef74e886cb03fba538f8f270a36534cecdec"


def load_ocr_multiclass_svm():
    """The multiclass SVMs trained to their optimum on fold 1 of the OCR letters by
    `tools/train_ocr_multiclass_svm.py` (one-slack cutting planes), read without pickle and checked
    by sha256: a dict with `lam` (k,), the weights `w` (k, 26*128, MultiVector's layout), the
    objective `objective` = lambda ||w||^2 + mean hinge reached, a point of the dual `alpha`
    (k, m, 26: row i a distribution over the labels of letter i; its dual value is a lower bound
    on the minimum, see the tool's docstring), the cutting planes `n_planes`, and the settings
    (`tol`, `train_fold`, `learner`)."""
    raw = read_checked(resources.files("course_lib") / "resources" / OCR_SVM_FILE, OCR_SVM_SHA256,
                       _("The cached OCR multiclass SVMs"),
                       missing_fix=_("Restore it from git or rebuild it with `python "
                                     "tools/train_ocr_multiclass_svm.py`"))
    with np.load(io.BytesIO(raw), allow_pickle=False) as archive:
        models = {name: archive[name] for name in archive.files}
    return {name: (value.item() if value.ndim == 0 else value) for name, value in models.items()}
