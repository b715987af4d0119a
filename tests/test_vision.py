"""Localisation [S16], segmentation [S19] and the star model of parts [S20], checked against
direct pixel sums and enumeration of every output."""

from itertools import product

import numpy as np
import pytest

from course_lib.structured.base import exhaustive_argmax
from course_lib.structured.vision import (
    LocalisationModel, PottsSegmentationModel, SegmentationModel, all_boxes, box_sum,
    integral_image, overlap, pose_loss, potts_rows_viterbi, star_energy,
    star_loss_augmented_dp, star_model_brute_force, star_model_dp, toy_localisation, toy_pose,
    toy_segmentation,
)

RESCALINGS = ("margin", "slack")


def direct_sum(x, box):
    r0, c0, r1, c1 = box
    return x[r0:r1, c0:c1].sum(axis=(0, 1))


def mask_of(box, H, W):
    m = np.zeros((H, W), bool)
    m[box[0]:box[2], box[1]:box[3]] = True
    return m


def test_integral_image_box_sums_equal_direct_sums():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(5, 4, 3))
    S = integral_image(x)
    boxes = all_boxes(5, 4)
    assert len(boxes) == 15 * 10 and len({tuple(b) for b in boxes}) == len(boxes)
    assert np.allclose(box_sum(S, boxes), [direct_sum(x, b) for b in boxes])
    assert np.allclose(S[-1, -1], x.sum(axis=(0, 1)))


def test_overlap_against_pixel_masks():
    boxes = all_boxes(4, 5)
    rng = np.random.default_rng(1)
    for box in boxes[rng.choice(len(boxes), 10)]:
        a = mask_of(box, 4, 5)
        expected = [(a & mask_of(b, 4, 5)).sum() / (a | mask_of(b, 4, 5)).sum() for b in boxes]
        assert np.allclose(overlap(box, boxes), expected)
    assert overlap([0, 0, 2, 2], [0, 0, 2, 2]) == 1.0 and overlap([0, 0, 1, 1], [1, 1, 2, 2]) == 0.0


@pytest.mark.parametrize("rescaling", RESCALINGS)
def test_localisation_inference_against_every_box(rescaling):
    rng = np.random.default_rng(2)
    model = LocalisationModel()
    H, W = 4, 5
    boxes = list(all_boxes(H, W))
    for _ in range(10):
        x, w = rng.normal(size=(H, W, 2)), rng.normal(size=2)
        y = boxes[rng.integers(len(boxes))]
        score = lambda b: float(w @ direct_sum(x, b))  # noqa: E731
        delta = lambda b: 1.0 - (mask_of(y, H, W) & mask_of(b, H, W)).sum() / \
            (mask_of(y, H, W) | mask_of(b, H, W)).sum()  # noqa: E731
        assert np.array_equal(model.inference(x, w), exhaustive_argmax(boxes, score))
        if rescaling == "margin":
            augmented = lambda b: delta(b) + score(b)  # noqa: E731
        else:
            augmented = lambda b: delta(b) * (1 + score(b) - score(y))  # noqa: E731
        y_bar = model.loss_augmented_inference(x, y, w, rescaling)
        assert np.array_equal(y_bar, exhaustive_argmax(boxes, augmented))
        assert np.allclose(model.joint_feature(x, y_bar), direct_sum(x, y_bar))
        assert np.isclose(model.loss(y, y_bar), delta(y_bar))


def test_localisation_validation_and_toy_data():
    X, Y = toy_localisation(n=3, size=8, seed=1)
    model = LocalisationModel().initialize(X, Y)
    assert model.size_joint_feature == 4 and all(x.shape == (8, 8, 4) for x in X)
    with pytest.raises(ValueError, match="r0 < r1"):
        model.joint_feature(X[0], np.array([3, 0, 3, 2]))
    with pytest.raises(ValueError, match="4 integers"):
        model.joint_feature(X[0], [0.5, 0, 2, 2])
    with pytest.raises(ValueError, match="NaN"):
        model.inference(np.full((3, 3, 4), np.nan), np.ones(4))
    with pytest.raises(ValueError, match="features per pixel"):
        model.inference(np.ones((3, 3, 2)), np.ones(2))
    with pytest.raises(ValueError, match="rescaling"):
        model.loss_augmented_inference(X[0], Y[0], np.ones(4), rescaling="hinge")


def all_masks(H, W, K):
    return [np.array(m).reshape(H, W) for m in product(range(K), repeat=H * W)]


@pytest.mark.parametrize("rescaling", RESCALINGS)
@pytest.mark.parametrize("shape,K", [((2, 3), 2), ((2, 2), 3)])
def test_segmentation_against_every_mask(rescaling, shape, K):
    rng = np.random.default_rng(3)
    model = SegmentationModel(K)
    masks = all_masks(*shape, K)
    for _ in range(20):
        x, w = rng.normal(size=shape + (2,)), rng.normal(size=2 * K) * rng.choice([0.1, 1, 5])
        y = masks[rng.integers(len(masks))]
        W = w.reshape(K, 2)
        score = lambda m: sum(W[m[p]] @ x[p] for p in np.ndindex(*shape)) / m.size  # noqa: E731
        delta = lambda m: np.mean(m != y)  # noqa: E731
        assert np.isclose(score(model.inference(x, w)), max(score(m) for m in masks))
        if rescaling == "margin":
            augmented = lambda m: delta(m) + score(m)  # noqa: E731
        else:
            augmented = lambda m: delta(m) * (1 + score(m) - score(y))  # noqa: E731
        y_bar = model.loss_augmented_inference(x, y, w, rescaling)
        assert np.isclose(augmented(y_bar), max(augmented(m) for m in masks))
        assert np.isclose(w @ model.joint_feature(x, y_bar), score(y_bar))


def test_segmentation_loss_validation_and_toy_data():
    model = SegmentationModel(2)
    y = np.array([[0, 1], [1, 1]])
    assert model.loss(y, np.array([[1, 1], [1, 0]])) == 0.5
    X, Y, images = toy_segmentation(n=2, size=8)
    model.initialize(X, Y)
    assert model.size_joint_feature == 6 and X[0].shape == (8, 8, 3)
    with pytest.raises(ValueError, match="0..1"):
        model.joint_feature(X[0], np.full((8, 8), 2))
    with pytest.raises(ValueError, match="shape"):
        model.joint_feature(X[0], np.zeros((7, 8), int))
    with pytest.raises(ValueError, match="n_labels"):
        SegmentationModel(1).joint_feature(X[0], Y[0])


@pytest.mark.parametrize("parts", [2, 3, 4])
def test_star_model_dp_equals_brute_force(parts):
    rng = np.random.default_rng(parts)
    L = 5
    for _ in range(20):
        unary = [rng.normal(size=L) for _ in range(parts)]
        pairwise = [rng.normal(size=(L, L)) for _ in range(parts - 1)]
        locations, energy = star_model_dp(unary, pairwise)
        best = min(product(range(L), repeat=parts), key=lambda y: star_energy(y, unary, pairwise))
        assert np.isclose(energy, star_energy(best, unary, pairwise))
        assert np.isclose(star_energy(locations, unary, pairwise), energy)
        assert np.isclose(star_model_brute_force(unary, pairwise)[1], energy)


def test_toy_pose_parts_model_beats_independent_detectors():
    unary, pairwise, true, _ = toy_pose(seed=0)
    independent = [int(np.argmin(u)) for u in unary]
    assert independent[2] != true[2]  # the false hand detection wins alone
    assert star_model_dp(unary, pairwise)[0] == true
    with pytest.raises(ValueError, match="one \\(L, L\\)"):
        star_model_dp(unary, pairwise[:1])


def test_potts_segmentation_against_every_mask():
    rng = np.random.default_rng(1)
    for shape, K in (((2, 3), 2), ((1, 4), 3), ((3, 2), 2)):
        model = PottsSegmentationModel(K)
        masks = [np.array(m).reshape(shape) for m in product(range(K), repeat=shape[0] * shape[1])]
        for _ in range(15):
            x, y = rng.normal(size=shape + (2,)), rng.integers(0, K, size=shape)
            model.initialize([x], [y])
            w = rng.normal(scale=rng.choice([0.5, 5.0]), size=model.size_joint_feature)
            score = lambda m: w @ model.joint_feature(x, m)
            augmented = lambda m: model.loss(y, m) + score(m)
            assert np.isclose(score(model.inference(x, w)), max(map(score, masks)))
            assert np.isclose(augmented(model.loss_augmented_inference(x, y, w)), max(map(augmented, masks)))


def test_potts_feature_counts_equal_horizontal_neighbours_and_slack_is_refused():
    model = PottsSegmentationModel(2)
    x, y = np.ones((2, 3, 1)), np.array([[0, 0, 1], [1, 1, 1]])
    model.initialize([x], [y])
    assert model.size_joint_feature == 3
    assert np.isclose(model.joint_feature(x, y)[-1], 3 / 6)  # (0,0) and (1,1),(1,1): 3 equal pairs
    with pytest.raises(ValueError, match="slack"):
        model.loss_augmented_inference(x, y, np.zeros(3), rescaling="slack")
    assert np.array_equal(potts_rows_viterbi(np.zeros((1, 3, 2)) + [0.0, 0.1], 0.0), [[1, 1, 1]])


def test_pose_loss_and_its_oracle_against_brute_force():
    for seed in range(3):
        unary, pairwise, true, coords = toy_pose(grid=5, seed=seed)
        locations, value = star_loss_augmented_dp(unary, pairwise, true, coords)
        brute = min(star_energy(p, unary, pairwise) - pose_loss(true, p, coords)
                    for p in product(range(len(coords)), repeat=3))
        assert np.isclose(value, brute)
        assert np.isclose(star_energy(locations, unary, pairwise) - pose_loss(true, locations, coords), brute)
    assert pose_loss([0, 1], [0, 1], coords) == 0.0
    assert pose_loss([0, 1], [0, 24], coords) == 0.5
    with pytest.raises(ValueError, match="one location"):
        pose_loss([0, 1], [0], coords)
