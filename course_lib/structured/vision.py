"""Structured outputs in vision: object localisation [S16], semantic segmentation [S19] (per
pixel, or with a Potts term on row chains) and pose estimation as energy minimisation over
parts [S20] (with a per-part pose loss for its loss-augmented inference).

Images are arrays x of shape (H, W, d): a feature vector per pixel (e.g. a one-hot visual word).
A box is (r0, c0, r1, c1), the pixels with r0 <= row < r1 and c0 <= column < c1.
"""

from functools import lru_cache

import numpy as np

from course_lib._validation import check_int, check_random_state, check_steps, finite_arguments
from course_lib.i18n import _
from course_lib.structured.base import StructuredModel, check_rescaling


def _check_image(x, n_features=None):
    x = np.asarray(x, dtype=float)
    if x.ndim == 2:
        x = x[:, :, None]
    if x.ndim != 3 or min(x.shape) == 0:
        raise ValueError(_("x must be an image of shape (H, W) or (H, W, d); got {shape}.").format(
                             shape=x.shape))
    if not np.all(np.isfinite(x)):
        raise ValueError(_("x contains NaN or inf: remove or impute those pixels first."))
    if n_features is not None and x.shape[2] != n_features:
        raise ValueError(_("x has {n} features per pixel; the model was initialised with "
                           "{n_features}.").format(n=x.shape[2], n_features=n_features))
    return x


def _check_w(w, size):
    w = np.asarray(w, dtype=float)
    if w.shape != (size,) or not np.all(np.isfinite(w)):
        raise ValueError(_("w must be {size} finite numbers (size_joint_feature); got {shape}.").format(
                             size=size, shape=w.shape))
    return w


# --- integral images and boxes [S16] --------------------------------------------------------
@finite_arguments
def integral_image(x):
    """S[r, c] = sum of x[:r, :c] (zero first row and column), so any box sum is 4 lookups."""
    x = np.asarray(x, dtype=float)
    if x.ndim < 2:
        raise ValueError(_("x must be an image of shape (H, W) or (H, W, D); got shape {shape}.").format(
                             shape=x.shape))
    S = np.zeros((x.shape[0] + 1, x.shape[1] + 1) + x.shape[2:])
    S[1:, 1:] = x.cumsum(axis=0).cumsum(axis=1)
    return S


@finite_arguments(shapes={"box": "... 4"})
def box_sum(S: np.ndarray, box):
    """sum of x over the box from its integral image: S[r1,c1] - S[r0,c1] - S[r1,c0] + S[r0,c0]
    (box may be an (m, 4) array of boxes)."""
    if S.ndim < 2:
        raise ValueError(_("S must be an integral image of shape (H + 1, W + 1) (from "
                           "integral_image); got shape {shape}.").format(shape=S.shape))
    box = np.asarray(box)
    if box.dtype.kind not in "iu":
        as_float = box.astype(float)
        if np.any(as_float != np.round(as_float)):
            raise ValueError(_("box must hold whole pixel indices (r0, c0, r1, c1); got {box}.").format(
                                 box=box.tolist()))
        box = as_float.astype(np.int64)
    r0, c0, r1, c1 = box.T
    if np.any((r0 < 0) | (c0 < 0) | (r1 >= S.shape[0]) | (c1 >= S.shape[1]) | (r0 > r1) | (c0 > c1)):
        raise ValueError(_("box must lie inside the image with its corners in order: 0 <= r0 <= r1 <= "
                           "{last_row} and 0 <= c0 <= c1 <= {last_column} for this integral image S of "
                           "shape {shape}.").format(
                             last_row=S.shape[0] - 1, last_column=S.shape[1] - 1, shape=S.shape))
    return _box_sum(S, box)


def _box_sum(S, box):
    """box_sum for boxes the library made itself (inside the image): inference's inner step."""
    r0, c0, r1, c1 = np.asarray(box).T
    return S[r1, c1] - S[r0, c1] - S[r1, c0] + S[r0, c0]


@lru_cache(maxsize=16)
def all_boxes(H, W):
    """Every box of an H x W image, (H(H+1)/2) (W(W+1)/2) rows ordered by (r0, c0, r1, c1):
    the sliding windows at every position and size (read-only, cached per image size)."""
    r0, r1 = np.triu_indices(H + 1, k=1)
    c0, c1 = np.triu_indices(W + 1, k=1)
    boxes = np.stack(np.broadcast_arrays(r0[:, None], c0[None, :], r1[:, None], c1[None, :]),
                     axis=-1).reshape(-1, 4)
    boxes = boxes[np.lexsort(boxes.T[::-1])]
    boxes.flags.writeable = False
    return boxes


@finite_arguments
def boxes_from_row(r0: int, H: int, W: int):
    """Every box of an H x W image whose top row is r0, in the order of all_boxes."""
    H, W = check_int(H, "H", 1), check_int(W, "W", 1)
    if not 0 <= r0 < H:
        raise ValueError(_("r0 must be a row of the image, 0 <= r0 <= {last}; got {r0}.").format(
                             last=H - 1, r0=r0))
    c0, c1 = np.triu_indices(W + 1, k=1)
    r1 = np.arange(r0 + 1, H + 1)
    boxes = np.stack(np.broadcast_arrays(r0, c0[:, None], r1[None, :], c1[:, None]),
                     axis=-1).reshape(-1, 4)
    return boxes[np.lexsort(boxes.T[::-1])]


@finite_arguments
def best_box(H: int, W: int, score):
    """argmax of score(boxes) over every box of an H x W image (the first in all_boxes order on
    ties), one top row r0 at a time: memory O(H W^2) instead of O(H^2 W^2) for all boxes at once
    (4 GB for a 150 x 150 image)."""
    H, W = check_int(H, "H", 1), check_int(W, "W", 1)
    best, best_value = None, -np.inf
    for r0 in range(H):
        boxes = boxes_from_row(r0, H, W)
        values = score(boxes)
        k = int(np.argmax(values))
        if best is None or values[k] > best_value:
            best, best_value = boxes[k], values[k]
    return best.copy()


@finite_arguments(shapes={"box": "... 4"})
def box_area(box):
    r0, c0, r1, c1 = np.asarray(box).T
    return (r1 - r0) * (c1 - c0)


@finite_arguments(shapes={"box": "4", "boxes": "... 4"})
def overlap(box, boxes):
    """area(box n boxes) / area(box u boxes), for one box against one or many."""
    r0, c0, r1, c1 = np.asarray(box).T
    R0, C0, R1, C1 = np.asarray(boxes).T
    inter = np.clip(np.minimum(r1, R1) - np.maximum(r0, R0), 0, None) * \
        np.clip(np.minimum(c1, C1) - np.maximum(c0, C0), 0, None)
    union = box_area(box) + box_area(boxes) - inter
    if np.any(union <= 0):
        raise ValueError(_("box and boxes are both empty (area 0): their overlap 0 / 0 is "
                           "undefined; give boxes with r0 < r1 and c0 < c1."))
    return inter / union


def _check_box(box, H, W):
    box = np.asarray(box)
    if box.shape != (4,) or not np.issubdtype(box.dtype, np.integer):
        raise ValueError(_("a box must be 4 integers (r0, c0, r1, c1); got {box!r}.").format(
                             box=box))
    r0, c0, r1, c1 = box
    if not (0 <= r0 < r1 <= H and 0 <= c0 < c1 <= W):
        raise ValueError(_("box {box} must satisfy 0 <= r0 < r1 <= {H} and 0 <= c0 < c1 <= {W}.").format(
                             box=tuple(box), H=H, W=W))
    return box


class LocalisationModel(StructuredModel):
    """Object localisation [S16]: y a box, Psi(x, y) = sum of the pixel features inside the box
    (a bag-of-words histogram for one-hot words), read in constant time from the integral image;
    Delta(y, y') = 1 - area(y n y') / area(y u y').  Inference and loss-augmented inference
    (both rescalings) score every box of the image at once (exhaustive sliding windows)."""

    def initialize(self, X, Y):
        super().initialize(X, Y)
        images = [_check_image(x) for x in X]
        if len({im.shape[2] for im in images}) != 1:
            raise ValueError(_("every image must have the same number of features per pixel."))
        self.n_features = self.size_joint_feature = images[0].shape[2]
        for im, y in zip(images, Y):
            _check_box(y, *im.shape[:2])
        return self

    def _x(self, x):
        x = _check_image(x, getattr(self, "n_features", None))
        self.size_joint_feature = x.shape[2]
        return x

    def joint_feature(self, x, y):
        x = self._x(x)
        return box_sum(integral_image(x), _check_box(y, *x.shape[:2]))

    def loss(self, y, y_hat):
        y, y_hat = np.asarray(y), np.asarray(y_hat)
        _check_box(y, np.inf, np.inf), _check_box(y_hat, np.inf, np.inf)
        return float(1.0 - overlap(y, y_hat))

    def box_scores(self, x, w):
        """(boxes, <w, Psi(x, box)> for each): the integral image of the pixel scores x w."""
        x = self._x(x)
        boxes = all_boxes(*x.shape[:2])
        return boxes, _box_sum(integral_image(x @ _check_w(w, x.shape[2])), boxes)

    def inference(self, x, w):
        x = self._x(x)
        S = integral_image(x @ _check_w(w, x.shape[2]))
        return best_box(*x.shape[:2], lambda boxes: _box_sum(S, boxes))

    def loss_augmented_inference(self, x, y, w, rescaling="margin"):
        check_rescaling(rescaling)
        x = self._x(x)
        y = _check_box(y, *x.shape[:2])
        S = integral_image(x @ _check_w(w, x.shape[2]))
        s_true = box_sum(S, y)

        def value(boxes):
            delta, s = 1.0 - overlap(y, boxes), _box_sum(S, boxes)
            return delta + s if rescaling == "margin" else delta * (1.0 + s - s_true)

        return best_box(*x.shape[:2], value)


@finite_arguments
def toy_localisation(n=10, size=10, n_words=4, seed=0):
    """Images of visual words (one-hot, n_words channels): inside a random box words 0 and 1 are
    frequent, outside words 2, 3, ... are.  Returns (X, Y) with boxes Y."""
    rng = check_random_state(seed)
    n_words, size, n = check_int(n_words, "n_words", 2), check_int(size, "size", 4), check_int(n, "n", 1)
    check_steps(n_words, "n_words", n_words)  # np.eye(n_words)
    check_steps(size, "size", size * n_words)  # an image, one-hot
    check_steps(n, "n", size * size * n_words + n_words ** 2)
    inside = np.r_[0.45, 0.35, np.full(n_words - 2, 0.2 / max(n_words - 2, 1))][:n_words]
    outside = np.r_[0.1, 0.1, np.full(n_words - 2, 0.8 / max(n_words - 2, 1))][:n_words]
    X, Y = [], []
    for _ in range(n):
        h, w = rng.integers(2, size // 2 + 2, size=2)
        r0, c0 = rng.integers(0, size - h + 1), rng.integers(0, size - w + 1)
        box = np.array([r0, c0, r0 + h, c0 + w])
        mask = np.zeros((size, size), bool)
        mask[r0:r0 + h, c0:c0 + w] = True
        words = np.where(mask, rng.choice(n_words, (size, size), p=inside / inside.sum()),
                         rng.choice(n_words, (size, size), p=outside / outside.sum()))
        X.append(np.eye(n_words)[words])
        Y.append(box)
    return X, Y


# --- semantic segmentation [S19] -----------------------------------------------------------
class SegmentationModel(StructuredModel):
    """Semantic segmentation [S19]: y an H x W mask of labels 0..K-1,
    Psi(x, y) = 1/|V| sum over pixels p of x_p in block y_p, Delta(y, y') = fraction of wrong
    pixels (Hamming / |V|): the mean of per-pixel multiclass SVMs.  The score and the
    margin-rescaled objective split over pixels (per-pixel argmax of s_pk + [k != y_p], with
    s_pk = <w_k, x_p>); slack rescaling is exact too: for m wrong pixels, the best are the m
    largest gains g_p = max_{k != y_p} s_pk - s_py_p, so maximise
    (m / |V|) (1 + (sum of the m largest g) / |V|) over m."""

    @finite_arguments
    def __init__(self, n_labels=2):
        self.n_labels = n_labels

    def initialize(self, X, Y):
        super().initialize(X, Y)
        images = [_check_image(x) for x in X]
        if len({im.shape[2] for im in images}) != 1:
            raise ValueError(_("every image must have the same number of features per pixel."))
        self.n_features = images[0].shape[2]
        self.size_joint_feature = check_int(self.n_labels, "n_labels", 2) * self.n_features
        for im, y in zip(images, Y):
            self._check_mask(y, im.shape[:2])
        return self

    def _x(self, x):
        x = _check_image(x, getattr(self, "n_features", None))
        self.size_joint_feature = check_int(self.n_labels, "n_labels", 2) * x.shape[2]
        return x

    def _check_mask(self, y, shape):
        y = np.asarray(y)
        K = check_int(self.n_labels, "n_labels", 2)
        if y.shape != tuple(shape):
            raise ValueError(_("the mask must have the image's shape {expected}; got {shape}.").format(
                                 expected=tuple(shape), shape=y.shape))
        if not np.issubdtype(y.dtype, np.integer) or y.min() < 0 or y.max() >= K:
            raise ValueError(_("mask labels must be integers in 0..{last}.").format(last=K - 1))
        return y

    def pixel_scores(self, x, w):
        """s_pk = <w_k, x_p>: an (H, W, K) array."""
        x = self._x(x)
        return x @ _check_w(w, self.size_joint_feature).reshape(self.n_labels, -1).T

    def joint_feature(self, x, y):
        x = self._x(x)
        y = self._check_mask(y, x.shape[:2])
        return (np.eye(self.n_labels)[y].reshape(-1, self.n_labels).T
                @ x.reshape(-1, x.shape[2])).ravel() / y.size

    def loss(self, y, y_hat):
        y = np.asarray(y)
        return float(np.mean(y != self._check_mask(y_hat, y.shape)))

    def inference(self, x, w):
        return np.argmax(self.pixel_scores(x, w), axis=2)

    def loss_augmented_inference(self, x, y, w, rescaling="margin"):
        check_rescaling(rescaling)
        s = self.pixel_scores(x, w)
        y = self._check_mask(y, s.shape[:2])
        wrong = np.arange(self.n_labels) != y[:, :, None]
        if rescaling == "margin":
            return np.argmax(s + wrong, axis=2)  # both terms carry the same factor 1/|V|
        s_true = np.take_along_axis(s, y[:, :, None], axis=2)[:, :, 0]
        best_wrong = np.argmax(np.where(wrong, s, -np.inf), axis=2)
        gain = np.take_along_axis(s, best_wrong[:, :, None], axis=2)[:, :, 0] - s_true
        order = np.argsort(-gain.ravel(), kind="stable")
        m = np.arange(1, y.size + 1)
        value = m / y.size * (1.0 + np.cumsum(gain.ravel()[order]) / y.size)
        y_bar = y.copy()
        if value.max() > 0:  # m = 0 (y itself) scores 0
            flip = order[: int(np.argmax(value)) + 1]
            y_bar.ravel()[flip] = best_wrong.ravel()[flip]
        return y_bar


@finite_arguments(shapes={"unary": "H W K"})
def potts_rows_viterbi(unary, potts: float):
    """argmax over masks of sum_p unary[p, y_p] + potts * #{horizontal neighbours with equal
    labels}: every row is a chain, solved exactly by Viterbi (all rows at once).
    unary: (H, W, K) scores.  Returns the (H, W) mask."""
    unary = np.asarray(unary, dtype=float)
    H, W, K = unary.shape
    same = potts * np.eye(K)  # transition score [k == k']
    M = unary[:, 0, :].copy()
    back = np.zeros((H, W, K), dtype=int)
    for c in range(1, W):
        candidates = M[:, :, None] + same[None, :, :]  # (row, previous label, label)
        back[:, c, :] = np.argmax(candidates, axis=1)
        M = np.take_along_axis(candidates, back[:, c, None, :], axis=1)[:, 0, :] + unary[:, c, :]
    y = np.zeros((H, W), dtype=int)
    y[:, -1] = np.argmax(M, axis=1)
    for c in range(W - 1, 0, -1):
        y[:, c - 1] = back[np.arange(H), c, y[:, c]]
    return y


class PottsSegmentationModel(SegmentationModel):
    """Segmentation with a pairwise Potts term [S19]: Psi(x, y) = 1/|V| (sum_p x_p in block
    y_p, #{horizontally adjacent pixels with equal labels}), so the last weight rewards
    smooth masks.  With horizontal neighbours only, every row is a chain and inference and
    margin-rescaled loss-augmented inference (the Hamming loss adds [k != y_p] to the unary
    scores) are exact by Viterbi.  Vertical links would close loops: exact then only for
    submodular energies (graph cuts), otherwise approximate (loopy BP), as the slides note.
    Slack rescaling has no exact chain oracle here."""

    def initialize(self, X, Y):
        super().initialize(X, Y)
        self.size_joint_feature += 1
        return self

    def _x(self, x):
        x = super()._x(x)
        self.size_joint_feature += 1
        return x

    def _split(self, x, w):
        x = self._x(x)
        w = _check_w(w, self.size_joint_feature)
        return x, (x @ w[:-1].reshape(self.n_labels, -1).T), float(w[-1])

    def pixel_scores(self, x, w):
        return self._split(x, w)[1]

    def joint_feature(self, x, y):
        x = self._x(x)
        y = self._check_mask(y, x.shape[:2])
        unary = (np.eye(self.n_labels)[y].reshape(-1, self.n_labels).T
                 @ x.reshape(-1, x.shape[2])).ravel()
        return np.r_[unary, np.sum(y[:, 1:] == y[:, :-1])] / y.size

    def inference(self, x, w):
        _, s, potts = self._split(x, w)
        return potts_rows_viterbi(s, potts)

    def loss_augmented_inference(self, x, y, w, rescaling="margin"):
        if check_rescaling(rescaling) == "slack":
            raise ValueError(_("PottsSegmentationModel has no exact slack-rescaled oracle: use "
                               "rescaling='margin'."))
        s, potts = self._split(x, w)[1:]
        y = self._check_mask(y, s.shape[:2])
        wrong = np.arange(self.n_labels) != y[:, :, None]
        return potts_rows_viterbi(s + wrong, potts)  # all terms carry the same factor 1/|V|


@finite_arguments
def toy_segmentation(n=6, size=12, noise=0.5, seed=0):
    """Noisy images of a bright disc on a dark background; the mask marks the disc (label 1).
    Pixel features: (1, intensity, mean intensity over the 3 x 3 neighbourhood, from the
    integral image).  Returns (X, Y, intensities)."""
    rng = check_random_state(seed)
    size, n = check_int(size, "size", 4), check_int(n, "n", 1)
    check_steps(size, "size", size)
    check_steps(n, "n", 8 * size * size)  # 8 arrays of size x size an image
    rows, cols = np.mgrid[:size, :size]
    X, Y, images = [], [], []
    for attempt in range(n):
        centre, radius = rng.uniform(0.3 * size, 0.7 * size, 2), rng.uniform(0.2, 0.35) * size
        mask = ((rows - centre[0]) ** 2 + (cols - centre[1]) ** 2 < radius ** 2).astype(int)
        image = mask + noise * rng.normal(size=mask.shape)
        S = integral_image(np.pad(image, 1, mode="edge"))
        local = (S[3:, 3:] - S[:-3, 3:] - S[3:, :-3] + S[:-3, :-3]) / 9.0
        X.append(np.stack([np.ones_like(image), image, local], axis=2))
        Y.append(mask)
        images.append(image)
    return X, Y, images


# --- pose estimation: a star model of parts [S20] -------------------------------------------
@finite_arguments
def star_energy(locations, unary, pairwise):
    """E(y) = sum_i unary[i][y_i] + sum_{i >= 1} pairwise[i - 1][y_0, y_i] (part 0 the root)."""
    return float(sum(u[l] for u, l in zip(unary, locations)) +
                 sum(P[locations[0], l] for P, l in zip(pairwise, locations[1:])))


@finite_arguments(shapes={"unary": "p"})
def star_model_dp(unary, pairwise):
    """argmin_y E(y) exactly by dynamic programming over the star: for each root location,
    each child independently takes its best location, O(L^2) per part instead of L^parts.
    unary: list of (L,) costs per part; pairwise: list of (L, L) costs [root, child].
    Returns (locations, energy)."""
    unary = [np.asarray(u, dtype=float) for u in unary]
    if len(pairwise) != len(unary) - 1:
        raise ValueError(_("pairwise needs one (L, L) cost matrix per child part (parts - 1)."))
    child_costs = [np.asarray(P, dtype=float) + u[None, :] for P, u in zip(pairwise, unary[1:])]
    total = unary[0] + sum(C.min(axis=1) for C in child_costs)
    root = int(np.argmin(total))
    locations = [root] + [int(np.argmin(C[root])) for C in child_costs]
    return locations, float(total[root])


@finite_arguments(shapes={"unary": "p"})
def star_model_brute_force(unary, pairwise):
    """argmin_y E(y) by enumerating all L^parts configurations (tiny L only)."""
    energy = np.asarray(unary[0], dtype=float)
    for i, (P, u) in enumerate(zip(pairwise, unary[1:])):
        cost = np.asarray(P, dtype=float) + np.asarray(u, dtype=float)[None, :]
        energy = energy[..., None] + cost.reshape((cost.shape[0],) + (1,) * i + (cost.shape[1],))
    index = np.unravel_index(int(np.argmin(energy)), energy.shape)
    return [int(i) for i in index], float(energy[index])


@finite_arguments(shapes={"coords": "L 2"})
def pose_loss(true_locations, locations, coords, radius=1.0):
    """Delta(y_i, y) for pose [S20]: the fraction of parts placed farther than `radius` from
    their true location (one minus the "percentage of correct parts").  It is a sum over
    parts, so it adds to the unary costs and keeps the star's dynamic programming exact."""
    coords = np.asarray(coords, dtype=float)
    true_locations, locations = np.asarray(true_locations), np.asarray(locations)
    if true_locations.shape != locations.shape or true_locations.ndim != 1:
        raise ValueError(_("true_locations and locations must list one location index per part."))
    _check_locations(true_locations, len(coords), "true_locations")
    _check_locations(locations, len(coords), "locations")
    far = np.linalg.norm(coords[true_locations] - coords[locations], axis=1) > radius
    return float(np.mean(far))


@finite_arguments(shapes={"unary": "p", "true_locations": "p", "coords": "L 2"})
def star_loss_augmented_dp(unary, pairwise, true_locations, coords, radius=1.0):
    """The pose oracle: argmax_y Delta(y_i, y) - E(x, y) (score = -E), i.e. argmin_y
    E(x, y) - Delta(y_i, y), exactly by the star DP with the per-part loss
    [||l - true_k|| > radius] / K subtracted from each part's unary cost.
    Returns (locations, E - Delta at them)."""
    coords = np.asarray(coords, dtype=float)
    _check_locations(np.asarray(true_locations), len(coords), "true_locations")
    K = len(unary)
    shifted = [np.asarray(u, dtype=float)
               - (np.linalg.norm(coords - coords[t], axis=1) > radius) / K
               for u, t in zip(unary, true_locations)]
    return star_model_dp(shifted, pairwise)


@finite_arguments
def toy_pose(grid=7, spring=0.5, noise=0.3, seed=0):
    """A 3-part star (torso = root, head, hand) on a grid x grid lattice of locations.
    Unary (a weak part detector): min(||l - true||^2, 4) / 2 plus noise, and a false detection
    of the hand far from the body, stronger than the true one; pairwise: spring
    ||l_child - l_root - offset||^2.  Returns (unary, pairwise, true_locations, coords)."""
    rng = check_random_state(seed)
    grid = check_int(grid, "grid", 5)
    check_steps(grid, "grid", 4 * grid ** 3)  # two (grid^2, grid^2) springs and their (.., 2) differences
    coords = np.array([(r, c) for r in range(grid) for c in range(grid)], dtype=float)
    offsets = np.array([[-2.0, 0.0], [1.0, 2.0]])  # head above the torso, hand lower right
    torso = np.array([grid // 2, grid // 2 - 1], dtype=float)
    true = [torso, torso + offsets[0], torso + offsets[1]]
    true_locations = [int(np.argmin(((coords - t) ** 2).sum(axis=1))) for t in true]
    unary = [np.minimum(((coords - t) ** 2).sum(axis=1), 4.0) / 2.0
             + noise * rng.normal(size=len(coords)) for t in true]
    unary[2][0] = unary[2].min() - 1.0  # the hand detector also fires in the top-left corner
    diff = coords[None, :, :] - coords[:, None, :]
    pairwise = [spring * ((diff - o) ** 2).sum(axis=2) for o in offsets]
    return unary, pairwise, true_locations, coords


def _check_locations(locations, n_locations, name):
    """Location indices into coords: integers in 0..n_locations-1."""
    if locations.dtype.kind not in "iu" or np.any((locations < 0) | (locations >= n_locations)):
        raise ValueError(_("{name} must hold location indices 0..{last} (rows of coords); got "
                           "{locations}.").format(
                             name=name, last=n_locations - 1, locations=locations.tolist()))
