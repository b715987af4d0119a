"""Binary, multiclass and hierarchical instantiations [S13-S15], checked by enumeration."""

import numpy as np
import pytest

from course_lib.structured.base import augmented_score, exhaustive_argmax
from course_lib.structured.models import (
    BinaryModel, HierarchicalModel, MulticlassModel, tree_distance,
)

TREE = {"root": ["animal", "vehicle"], "animal": ["cat", "dog"], "vehicle": ["car", "bus"]}
RESCALINGS = ("margin", "slack")


def brute_force(model, labels, x, w, y=None, rescaling=None):
    """argmax over the explicit label list with the base class helpers."""
    if y is None:
        return exhaustive_argmax(labels, lambda c: float(w @ model.joint_feature(x, c)))
    return exhaustive_argmax(labels, lambda c: augmented_score(model, x, y, c, w, rescaling))


# --- S13 binary ------------------------------------------------------------------------
def test_binary_joint_feature_is_half_y_x():
    model = BinaryModel()
    x = np.array([2.0, -4.0, 1.0])
    assert np.allclose(model.joint_feature(x, 1), [1.0, -2.0, 0.5])
    assert np.allclose(model.joint_feature(x, -1), [-1.0, 2.0, -0.5])


def test_binary_structured_hinge_is_the_svm_hinge():
    rng = np.random.default_rng(0)
    model = BinaryModel()
    for _ in range(200):
        x, w = rng.normal(size=3), rng.normal(size=3) * 3
        y = int(rng.choice([-1, 1]))
        y_bar = model.loss_augmented_inference(x, y, w)
        hinge = model.loss(y, y_bar) + w @ model.joint_feature(x, y_bar) - w @ model.joint_feature(x, y)
        assert np.isclose(hinge, max(0.0, 1.0 - y * (w @ x)))


@pytest.mark.parametrize("rescaling", RESCALINGS)
def test_binary_inference_matches_enumeration(rescaling):
    rng = np.random.default_rng(1)
    model = BinaryModel()
    for _ in range(100):
        x, w, y = rng.normal(size=4), rng.normal(size=4), int(rng.choice([-1, 1]))
        assert model.inference(x, w) == brute_force(model, (-1, 1), x, w)
        assert model.inference(x, w) == np.sign(w @ x)
        assert model.loss_augmented_inference(x, y, w, rescaling) == \
            brute_force(model, (-1, 1), x, w, y, rescaling)


def test_binary_validation():
    model = BinaryModel().initialize(np.ones((3, 2)), [1, -1, 1])
    assert model.size_joint_feature == 2
    with pytest.raises(ValueError, match="-1 or \\+1"):
        model.joint_feature([1.0, 2.0], 0)
    with pytest.raises(ValueError, match="-1 or \\+1"):
        BinaryModel().initialize(np.ones((2, 2)), [1, 2])
    with pytest.raises(ValueError, match="NaN"):
        model.joint_feature([np.nan, 1.0], 1)
    with pytest.raises(ValueError, match="-1 or \\+1"):
        model.joint_feature([1.0, 2.0], np.array([1, -1]))
    with pytest.raises(ValueError, match="-1 or \\+1"):
        model.loss("+1", 1)
    with pytest.raises(ValueError, match="features"):
        model.joint_feature([1.0, 2.0, 3.0], 1)
    with pytest.raises(ValueError, match="lengths must match"):
        BinaryModel().initialize(np.ones((3, 2)), [1, -1])
    with pytest.raises(ValueError, match="rescaling"):
        model.loss_augmented_inference([1.0, 2.0], 1, np.ones(2), rescaling="both")
    with pytest.raises(ValueError, match="w must have shape"):
        model.inference([1.0, 2.0], np.ones(3))


# --- S14 multiclass ----------------------------------------------------------------------
def test_multiclass_joint_feature_blocks():
    model = MulticlassModel(3)
    x = np.array([1.0, 2.0])
    assert np.allclose(model.joint_feature(x, 1), [0, 0, 1, 2, 0, 0])
    w = np.arange(6.0)
    assert np.isclose(w @ model.joint_feature(x, 2), w[4:] @ x)


@pytest.mark.parametrize("rescaling", RESCALINGS)
@pytest.mark.parametrize("cost", [None, "random"])
def test_multiclass_matches_enumeration_and_argmax(rescaling, cost):
    rng = np.random.default_rng(2)
    K, d = 4, 3
    if cost == "random":
        cost = rng.uniform(0.5, 3.0, size=(K, K))
        np.fill_diagonal(cost, 0.0)
    model = MulticlassModel(K, cost=cost)
    for _ in range(100):
        x, w, y = rng.normal(size=d), rng.normal(size=K * d), int(rng.integers(K))
        assert model.inference(x, w) == np.argmax(w.reshape(K, d) @ x)
        assert model.inference(x, w) == brute_force(model, range(K), x, w)
        assert model.loss_augmented_inference(x, y, w, rescaling) == \
            brute_force(model, range(K), x, w, y, rescaling)


def test_multiclass_cost_and_validation():
    model = MulticlassModel(3, cost=[[0, 1, 5], [1, 0, 1], [2, 2, 0]])
    assert model.loss(0, 2) == 5.0 and model.loss(2, 0) == 2.0 and model.loss(1, 1) == 0.0
    assert MulticlassModel(3).loss(0, 2) == 1.0
    with pytest.raises(ValueError, match="zero diagonal"):
        MulticlassModel(2, cost=[[1, 1], [1, 0]]).loss(0, 1)
    with pytest.raises(ValueError, match="2 x 2"):
        MulticlassModel(2, cost=np.zeros((3, 3))).loss(0, 1)
    with pytest.raises(ValueError, match="0..2"):
        MulticlassModel(3).joint_feature([1.0], 3)
    for bad in (1.5, "cat", np.array([0, 1]), True):
        with pytest.raises(ValueError, match="0..2"):
            MulticlassModel(3).loss(bad, 0)
    with pytest.raises(ValueError, match="0..2"):
        MulticlassModel(3).initialize(np.ones((2, 1)), [0, -1])
    with pytest.raises(ValueError, match="n_classes"):
        MulticlassModel(1).joint_feature([1.0], 0)
    model = MulticlassModel(3).initialize(np.ones((4, 2)), [0, 1, 2, 2.0])
    assert model.size_joint_feature == 6


# --- S15 hierarchical --------------------------------------------------------------------
def test_tree_delta_by_hand():
    model = HierarchicalModel(TREE)
    cat, dog, car, bus = (model.label(c) for c in ("cat", "dog", "car", "bus"))
    assert model.loss(cat, cat) == 0.0
    assert model.loss(cat, dog) == 1.0   # the slide's values
    assert model.loss(cat, bus) == 2.0
    assert model.loss(car, bus) == 1.0 and model.loss(dog, car) == 2.0
    expected = np.array([[0, 1, 2, 2], [1, 0, 2, 2], [2, 2, 0, 1], [2, 2, 1, 0]])
    assert model.classes_ == ["cat", "dog", "car", "bus"]
    assert np.array_equal(model.delta_matrix(), expected)


def test_tree_distance_on_an_unbalanced_tree():
    parent = {"a": "r", "b": "r", "c": "a", "d": "c"}
    assert tree_distance(parent, "d", "b") == 4
    assert tree_distance(parent, "d", "a") == 2
    assert tree_distance(parent, "r", "r") == 0


def test_hierarchical_joint_feature_sums_path_blocks():
    model = HierarchicalModel(TREE)
    x = np.array([1.0, -1.0])
    assert model.nodes_ == ["animal", "cat", "dog", "vehicle", "car", "bus"]
    psi = model.joint_feature(x, model.label("dog")).reshape(6, 2)
    assert np.allclose(psi, [[1, -1], [0, 0], [1, -1], [0, 0], [0, 0], [0, 0]])
    w = np.random.default_rng(3).normal(size=12)
    W = w.reshape(6, 2)
    assert np.isclose(w @ model.joint_feature(x, model.label("bus")), (W[3] + W[5]) @ x)


@pytest.mark.parametrize("rescaling", RESCALINGS)
def test_hierarchical_matches_enumeration(rescaling):
    rng = np.random.default_rng(4)
    model = HierarchicalModel(TREE)
    for _ in range(100):
        x, w, y = rng.normal(size=3), rng.normal(size=18), int(rng.integers(4))
        assert model.inference(x, w) == brute_force(model, range(4), x, w)
        assert model.loss_augmented_inference(x, y, w, rescaling) == \
            brute_force(model, range(4), x, w, y, rescaling)


def test_hierarchical_validation():
    with pytest.raises(ValueError, match="one root"):
        HierarchicalModel({"a": ["b"], "c": ["d"]}).classes_
    with pytest.raises(ValueError, match="two parents"):
        HierarchicalModel({"r": ["a", "b"], "a": ["c"], "b": ["c"]}).classes_
    with pytest.raises(ValueError, match="two leaves"):
        HierarchicalModel({"r": ["a"]}).classes_
    with pytest.raises(ValueError, match="not a leaf"):
        HierarchicalModel(TREE).label("animal")
    with pytest.raises(TypeError, match="dict"):
        HierarchicalModel([("root", "a")]).classes_


# --- chapter 12 exercises, figures and demos ------------------------------------------------
def test_exercise_checks_accept_the_right_answers_and_explain_wrong_ones():
    from course_lib.exercises.instantiations import (
        EXERCISE_TREE, check_binary_ssvm, check_two_class_crammer_singer,
    )
    assert check_binary_ssvm(-1, 0.5, "D") and not check_binary_ssvm(1, 0.5, "D")
    assert "factor 1/2" in repr(check_binary_ssvm(-1, 0.75, "D"))
    assert check_two_class_crammer_singer([-2.0, -1.5])
    assert "Opposite sign" in repr(check_two_class_crammer_singer([2.0, 1.5]))
    by_hand = [[0, 1, 1.5, 2.5, 2.5], [1, 0, 1.5, 2.5, 2.5], [1.5, 1.5, 0, 2, 2],
               [2.5, 2.5, 2, 0, 1], [2.5, 2.5, 2, 1, 0]]
    assert HierarchicalModel(EXERCISE_TREE).classes_ == ["cat", "dog", "bird", "car", "bus"]
    assert np.array_equal(HierarchicalModel(EXERCISE_TREE).delta_matrix(), by_hand)


def test_chapter12_figures_render():
    from course_lib.figures import collect
    specs = {stem: spec for stem, spec in collect().items()
             if spec.syllabus_id in {f"S{i}" for i in range(13, 21)}}
    assert len(specs) >= 8
    for spec in specs.values():
        fig = spec.make(**spec.kwargs)
        assert fig.axes, spec.stem


def test_chapter12_demos_at_both_ends_of_each_slider():
    from course_lib.widgets.structured_models import (
        box_inference_demo, ranking_demo, segmentation_demo,
    )
    for make in (ranking_demo, box_inference_demo, segmentation_demo):
        demo = make()
        images = {demo.image.value}
        for name, slider in demo.controls.items():
            for value in (slider.min, slider.max):
                value = 10 ** value if "Log" in type(slider).__name__ else value
                demo.set(**{name: value})
                assert "course-demo-error" not in demo.status._dom_classes, make.__name__
                images.add(demo.image.value)
        assert len(images) >= 2, make.__name__


def test_binary_structured_svm_trains_to_the_linear_svm():
    """1/2 ||w||^2 + C/n sum_i H_i(w) with H_i the SVM hinge: LinearSVC without intercept, C/n."""
    from sklearn.svm import LinearSVC

    from course_lib import data
    from course_lib.structured.learners import OneSlackSSVM
    X, r = data.overlapping(n=60, seed=0)
    X1 = np.c_[X, np.ones(len(X))]
    w = OneSlackSSVM(BinaryModel(), C=10.0, tol=1e-6).fit(X1, list(r.astype(int))).w_
    svc = LinearSVC(loss="hinge", fit_intercept=False, C=10.0 / len(X), tol=1e-10,
                    max_iter=200_000).fit(X1, r)
    assert np.allclose(w, svc.coef_[0], atol=2e-2)
