"""The exact argmax regions the linear demos tint: each point of the box lies in the polygon of
the class np.argmax gives it, and only scores affine in the point are read as such."""

import numpy as np
import pytest
from matplotlib.path import Path

from course_lib.plotting.artists import affine_scores, argmax_polygons, region_edges

BOX = ((-3.0, 2.0), (-1.5, 2.5))


@pytest.mark.parametrize("seed", range(10))
def test_each_point_lies_in_the_polygon_of_its_argmax(seed):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 6))
    W, b = rng.normal(size=(2, k)), rng.normal(size=k)
    polygons = argmax_polygons(W, b, *BOX)
    points = np.c_[rng.uniform(*BOX[0], 2000), rng.uniform(*BOX[1], 2000)]
    label = np.argmax(points @ W + b, axis=1)
    inside = np.array([Path(p).contains_points(points) if len(p) else np.zeros(len(points), bool)
                       for p in polygons])
    margin = np.sort(points @ W + b, axis=1)
    clear = margin[:, -1] - margin[:, -2] > 1e-6  # not on a boundary
    assert np.array_equal(inside[:, clear].argmax(axis=0), label[clear])
    assert np.all(inside[:, clear].sum(axis=0) == 1)
    area = sum(0.5 * abs(np.dot(p[:, 0], np.roll(p[:, 1], 1)) - np.dot(p[:, 1], np.roll(p[:, 0], 1)))
               for p in polygons if len(p))
    assert np.isclose(area, np.ptp(BOX[0]) * np.ptp(BOX[1]))  # the regions tile the box


def test_a_tie_goes_to_the_first_class_and_an_empty_region_has_no_vertex():
    W = np.array([[1.0, 1.0, -1.0], [0.0, 0.0, 0.0]])
    polygons = argmax_polygons(W, np.array([0.0, 0.0, -10.0]), *BOX)
    assert len(polygons[0]) and not len(polygons[1]) and not len(polygons[2])


def test_only_affine_scores_are_read_as_affine():
    xx, yy = np.meshgrid(np.linspace(*BOX[0], 30), np.linspace(*BOX[1], 20))
    points = np.c_[xx.ravel(), yy.ravel()]
    W, b = np.array([[1.0, -2.0], [0.5, 3.0]]), np.array([0.3, -1.0])
    found = affine_scores(points, points @ W + b)
    assert found is not None and np.allclose(found[0], W) and np.allclose(found[1], b)
    assert affine_scores(points, np.c_[points[:, 0] ** 2, points[:, 1]]) is None


@pytest.mark.parametrize("seed", range(10))
def test_the_edges_drawn_are_where_two_classes_tie(seed):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 6))
    W, b = rng.normal(size=(2, k)), rng.normal(size=k)
    edges = region_edges(argmax_polygons(W, b, *BOX), *BOX)
    for edge in edges:
        for t in (0.25, 0.5, 0.75):
            top = np.sort((1 - t) * edge[0] @ W + t * edge[1] @ W + b)
            assert np.isclose(top[-1], top[-2], atol=1e-9)
    boundary = sum(np.hypot(*(e[1] - e[0])) for e in edges) / 2  # each edge comes from both sides
    points = np.c_[rng.uniform(*BOX[0], 4000), rng.uniform(*BOX[1], 4000)]
    changes = np.any(np.argmax(points @ W + b, axis=1) != np.argmax((points + [1e-3, 0]) @ W + b, axis=1))
    assert boundary > 0 or not changes  # classes meet in the box: a boundary is drawn
