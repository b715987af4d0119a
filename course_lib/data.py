"""Seeded toy data sets of the slides and the OCR handwritten letters.

Every generator takes a `seed` and returns `(X, r)` with `X` of shape (n, 2) and `r` in
{-1, +1} (the slides' `r^t`), unless its docstring says otherwise.
"""

import hashlib
import io
from importlib import resources

import numpy as np

from course_lib._validation import (
    check_int,
    check_matrix,
    check_non_negative,
    check_random_state,
    finite_arguments,
)
from course_lib.i18n import _

OCR_SHA256 = "f6cfb01d839b6c6475704f803eb1a4f836f70d50e9a9ea6c2a1309a4828c2144"
ALPHABET = "abcdefghijklmnopqrstuvwxyz"


def _two_blobs(n, centre, scale, rng):
    n_pos = n // 2
    X = np.vstack(
        [
            rng.normal(loc=centre, scale=scale, size=(n_pos, 2)),
            rng.normal(loc=np.negative(centre), scale=scale, size=(n - n_pos, 2)),
        ]
    )
    r = np.r_[np.ones(n_pos), -np.ones(n - n_pos)]
    return X, r


MAX_GAP = 5.0  # linearly_separable's largest gap


@finite_arguments
def linearly_separable(n=30, seed=0, gap=0.6):
    """Two Gaussian blobs around (+1, +1) and (-1, -1), resampled until a gap of `gap` separates them.

    The gap is measured along the direction (1, 1) / sqrt(2), so the set is separable with
    geometric margin at least gap / 2. The centres are 2 sqrt(2) apart and each coordinate has
    standard deviation 0.55: gap can be at most MAX_GAP = 5 (then a point lands beyond gap / 2 once
    in about 40 draws).
    """
    n = check_int(n, "n", minimum=2)
    gap = check_non_negative(gap, "gap")
    if gap > MAX_GAP:
        raise ValueError(_("gap must be in [0, {MAX_GAP:g}]; got {gap:g}: the blobs around (+1, "
                           "+1) and (-1, -1) cannot be drawn that far apart.").format(
                             MAX_GAP=MAX_GAP, gap=gap))
    rng = check_random_state(seed)
    direction = np.array([1.0, 1.0]) / np.sqrt(2)
    X, r = _two_blobs(n, (1.0, 1.0), 0.55, rng)
    for attempt in range(1000):
        bad = r * (X @ direction) < gap / 2
        if not bad.any():
            return X, r
        X[bad] = rng.normal(loc=np.outer(r[bad], (1.0, 1.0)), scale=0.55)
    raise RuntimeError(_("could not draw a separable set; lower `gap`."))


@finite_arguments
def overlapping(n=60, seed=0, spread=1.0):
    """Two Gaussian blobs around (+0.8, +0.8) and (-0.8, -0.8) with standard deviation `spread`:
    the classes overlap ("recouvrement"), so no line separates them."""
    n = check_int(n, "n", minimum=2)
    spread = check_non_negative(spread, "spread")
    rng = check_random_state(seed)
    return _two_blobs(n, (0.8, 0.8), spread, rng)


CURVED_CENTRES = ((0.7, 0.7), (-0.5, -0.5))  # class +1, class -1
CURVED_SPREADS = (0.55, 1.2)  # standard deviations of class +1 (tight) and class -1 (wide)


@finite_arguments
def overlapping_curved(n=200, seed=0):
    """Two overlapping Gaussian clouds of different spreads: class +1 tight around (0.7, 0.7)
    (standard deviation 0.55), class -1 wide around (-0.5, -0.5) (standard deviation 1.2).

    The classes overlap ("recouvrement") as on the slides, but the best possible (Bayes)
    boundary is curved: a circle around the tight class (see `overlapping_curved_log_ratio`).
    With equal spreads (`overlapping`) the Bayes boundary is a line, so no kernel can beat a
    linear SVM there."""
    n = check_int(n, "n", minimum=2)
    rng = check_random_state(seed)
    n_pos = n // 2
    X = np.vstack(
        [
            rng.normal(loc=CURVED_CENTRES[0], scale=CURVED_SPREADS[0], size=(n_pos, 2)),
            rng.normal(loc=CURVED_CENTRES[1], scale=CURVED_SPREADS[1], size=(n - n_pos, 2)),
        ]
    )
    return X, np.r_[np.ones(n_pos), -np.ones(n - n_pos)]


@finite_arguments
def overlapping_curved_log_ratio(X):
    """log p(x | +1) - log p(x | -1) for `overlapping_curved` (equal priors): the Bayes
    classifier predicts +1 where it is >= 0. Its zero set is a circle, since the two isotropic
    Gaussians have different spreads s+ and s-:
        -||x - m+||^2 / (2 s+^2) - 2 log s+  +  ||x - m-||^2 / (2 s-^2) + 2 log s-  =  0."""
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(_("X must have shape (n, 2); got {shape}.").format(shape=X.shape))
    (m_pos, m_neg), (s_pos, s_neg) = np.asarray(CURVED_CENTRES), CURVED_SPREADS
    log_pos = -np.sum((X - m_pos) ** 2, axis=1) / (2 * s_pos**2) - 2 * np.log(s_pos)
    log_neg = -np.sum((X - m_neg) ** 2, axis=1) / (2 * s_neg**2) - 2 * np.log(s_neg)
    return log_pos - log_neg


@finite_arguments
def with_outlier(n=30, seed=0, outlier=(6.0, 6.0)):
    """`linearly_separable(n, seed)` plus one extra point of class +1 at `outlier`, far from the
    boundary on its own (correct) side: least squares is dragged by it, the perceptron is not."""
    X, r = linearly_separable(n, seed)
    outlier = check_matrix(np.reshape(np.asarray(outlier, dtype=float), (1, -1)), "outlier", n_features=2)[0]
    return np.vstack([X, np.asarray(outlier, dtype=float)]), np.r_[r, 1.0]


def xor():
    """The slides' four XOR points x1..x4 with r in {-1, +1} (the slides write 0 for -1)."""
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    r = np.array([-1.0, 1.0, 1.0, -1.0])
    return X, r


@finite_arguments
def noisy_xor(n=80, seed=0, noise=0.25):
    """n points spread around the four XOR corners (-1 or +1 in each coordinate); r = -sign(x1 x2)."""
    n = check_int(n, "n", minimum=4)
    noise = check_non_negative(noise, "noise")
    rng = check_random_state(seed)
    corners = np.array([[-1.0, -1.0], [-1.0, 1.0], [1.0, -1.0], [1.0, 1.0]])
    which = np.arange(n) % 4
    X = corners[which] + rng.normal(scale=noise, size=(n, 2))
    r = -np.sign(corners[which, 0] * corners[which, 1])
    return X, r


@finite_arguments
def one_d_projection(n=20, seed=0):
    """A 1-D problem no threshold separates: class +1 in the middle, -1 on both sides.

    Returns `(x, r)` with `x` of shape (n, 1); the map x -> (x, x^2) makes it separable.
    """
    n = check_int(n, "n", minimum=3)
    rng = check_random_state(seed)
    inner = n // 2
    x = np.r_[rng.uniform(-1.0, 1.0, inner), rng.choice((-1, 1), n - inner) * rng.uniform(2.0, 3.0, n - inner)]
    r = np.r_[np.ones(inner), -np.ones(n - inner)]
    return x.reshape(-1, 1), r


def read_checked(path, sha256, what, missing_fix):
    """The bytes of a shipped data file, checked against its sha256, with errors saying how to
    get it back: `missing_fix` when the file is absent, `git checkout` when it was altered."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise FileNotFoundError(_("{what} is missing at {path}. {missing_fix}.").format(
                                    what=what, path=path, missing_fix=missing_fix)) from None
    digest = hashlib.sha256(raw).hexdigest()
    if digest != sha256:
        raise ValueError(
            _("{what} at {path} is corrupt: sha256 {digest} instead of {sha256}. Restore it with "
              "`git checkout -- course_lib/resources/{filename}`.").format(
                what=what, path=path, digest=digest, sha256=sha256, filename=path.name)
        )
    return raw


def _ocr_path():
    return resources.files("course_lib") / "resources" / "ocr_letters.npz"


def load_ocr_letters():
    """Load the OCR handwritten letters (Taskar et al. 2003) shipped with the package.

    Returns `(words, labels, folds)`: `words` a list of 6,877 arrays of shape (r, 128) with
    0/1 pixels (one row per letter, a letter image is `row.reshape(16, 8)`), `labels` a list
    of int arrays with letters in 0..25 (a..z), `folds` an int array of the fold (0..9) of
    each word. The file is a NumPy archive read without pickle and checked by sha256.
    """
    raw = read_checked(_ocr_path(), OCR_SHA256, _("The OCR letters file"),
                       missing_fix=_("Reinstall the package from a fresh clone (`make test` or `pip install -e .`)"))
    with np.load(io.BytesIO(raw), allow_pickle=False) as archive:
        pixels = np.unpackbits(archive["pixels"], axis=1).astype(np.float64)
        letters = archive["letters"].astype(np.int64)
        lengths = archive["word_lengths"].astype(np.int64)
        folds = archive["folds"].astype(np.int64)
    bounds = np.cumsum(lengths)[:-1]
    words = np.split(pixels, bounds)
    labels = np.split(letters, bounds)
    return words, labels, folds


def letters_to_string(labels):
    """Spell a sequence of letter indices 0..25 as a string ('a'..'z')."""
    labels = np.asarray(labels)
    if labels.size == 0:
        return ""
    if labels.dtype.kind == "f" and np.all(np.isfinite(labels)) and np.all(labels == np.round(labels)):
        labels = labels.astype(np.int64)
    if labels.ndim != 1 or labels.dtype.kind not in "iu" or np.any((labels < 0) | (labels > 25)):
        raise ValueError(
            _("labels must be a 1-D sequence of integers 0..25 (a..z); got {labels!r:.80}.").format(
                labels=labels.tolist())
        )
    return "".join(ALPHABET[i] for i in labels.tolist())


@finite_arguments
def zipf_sparse(n=1000, n_features=10_000, n_labels=12, active=(20, 50), seed=0):
    """Sparse text-like examples: returns `(X, y)`, X a list of dicts {feature index: count}.

    Each example draws between active[0] and active[1] words from a Zipf-like law
    P(feature j) proportional to 1/(j + 1) over `n_features` features; its label in
    0..n_labels-1 is the argmax of a hidden random linear score plus Gaussian noise.
    """
    n = check_int(n, "n", 1)
    n_features = check_int(n_features, "n_features", 1)
    n_labels = check_int(n_labels, "n_labels", 2)
    low, high = (check_int(k, "active", 1) for k in active)
    if low > high:
        raise ValueError(_("active must be (fewest, most) words per example with fewest <= most; "
                           "got {active}.").format(active=active))
    rng = check_random_state(seed)
    cdf = np.cumsum(1.0 / np.arange(1, n_features + 1))
    hidden = rng.normal(size=(n_labels, n_features))
    X, y = [], np.empty(n, dtype=np.int64)
    for i in range(n):
        draws = np.searchsorted(cdf, rng.uniform(0, cdf[-1], size=rng.integers(low, high + 1)))
        features, counts = np.unique(np.minimum(draws, n_features - 1), return_counts=True)
        X.append(dict(zip(features.tolist(), counts.tolist())))
        y[i] = np.argmax(hidden[:, features] @ counts + rng.normal(scale=2.0, size=n_labels))
    return X, y


@finite_arguments
def forty_twenty_forty(n=200, seed=0, shares=(0.4, 0.2, 0.4), noise=0.0):
    """The slides' 40% / 20% / 40% example (M2): three classes on the line x2 = 1, class 1 with
    x1 in [-2.5, -0.6], class 2 with x1 in [-0.3, 0.3], class 3 with x1 in [0.6, 2.5], in the
    proportions `shares` (exact counts). Class 2 lies between 1 and 3, so no halfspace separates
    it from the rest, while argmax_i <w_i, x> with w1 = (-1, 1)/sqrt2, w2 = (0, 1),
    w3 = (1, 1)/sqrt2 is right everywhere (its regions meet at x1 = -+(sqrt2 - 1) on the line).
    `noise` > 0 adds Gaussian jitter of that standard deviation to both coordinates (a 2-D
    three-class set for the demos). Returns (X, y) with y in {1, 2, 3}.
    """
    n = check_int(n, "n", minimum=3)
    noise = check_non_negative(noise, "noise")
    rng = check_random_state(seed)
    shares = np.asarray(shares, dtype=float)
    if shares.shape != (3,) or np.any(shares <= 0) or not np.isclose(shares.sum(), 1.0):
        raise ValueError(_("shares must be three positive proportions summing to 1; got {shares}.").format(
                             shares=shares.tolist()))
    counts = np.floor(shares * n).astype(int)
    counts[np.argsort(-(shares * n - counts))[: n - counts.sum()]] += 1
    intervals = [(-2.5, -0.6), (-0.3, 0.3), (0.6, 2.5)]
    x1 = np.concatenate([rng.uniform(low, high, c) for (low, high), c in zip(intervals, counts)])
    X = np.c_[x1, np.ones(n)]
    if noise > 0:
        X = X + rng.normal(scale=noise, size=X.shape)
    y = np.repeat([1, 2, 3], counts)
    return X, y


@finite_arguments
def three_blobs(n=150, seed=0, spread=1.3):
    """Three overlapping Gaussian blobs in 2-D (no line separates them): returns (X, y), y in {0, 1, 2}.

    Centres (0, 2), (-1.7, -1), (1.7, -1), standard deviation `spread`, n // 3 points each
    (the remainder to the first classes), shuffled.
    """
    n = check_int(n, "n", minimum=3)
    spread = check_non_negative(spread, "spread")
    rng = check_random_state(seed)
    centres = np.array([[0.0, 2.0], [-1.7, -1.0], [1.7, -1.0]])
    y = np.arange(n) % 3
    X = centres[y] + rng.normal(scale=spread, size=(n, 2))
    order = rng.permutation(n)
    return X[order], y[order]
