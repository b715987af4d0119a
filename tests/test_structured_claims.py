"""The effect claims of chapters 10 and 12, re-run over ten seeds (the chapters check them on
one seed in their `claim` cells)."""

import numpy as np
import pytest

from course_lib.data import load_ocr_letters
from course_lib.structured import ranking, vision
from course_lib.structured.chain import ChainModel
from course_lib.structured.learners import NSlackSSVM, OneSlackSSVM, SubgradientSSVM
from course_lib.structured.models import HierarchicalModel, MulticlassModel, toy_hierarchy

SEEDS = range(1, 11)
COST = np.array([[0, 1, 2, 2], [1, 0, 2, 2], [2, 2, 0, 1], [2, 2, 1, 0]], dtype=float)
TREE = {"root": ["animal", "vehicle"], "animal": ["cat", "dog"], "vehicle": ["car", "bus"]}


def rescaled_hinge(model, x, y, w, rescaling):
    y_bar = model.loss_augmented_inference(x, y, w, rescaling)
    gap = w @ model.joint_feature(x, y_bar) - w @ model.joint_feature(x, y)
    return model.loss(y, y_bar) + gap if rescaling == "margin" else model.loss(y, y_bar) * (1.0 + gap)


# --- chapter 10 ------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", SEEDS)
def test_scaling_delta_moves_margin_rescalings_oracle_at_a_fixed_w(seed):
    """Chapter 10's fixed-w claim: with Delta times 10, margin rescaling's most violated output
    moves on some (example, w) pairs and H^m is not 10 times the old one on some; slack
    rescaling's H^s is exactly 10 times the old one and its output stays (its definition)."""
    X, y = toy_hierarchy(n=40, seed=seed)
    model = MulticlassModel(4, cost=COST).initialize(X, y)
    scaled = MulticlassModel(4, cost=10 * COST).initialize(X, y)
    rng = np.random.default_rng(seed)
    moved = scaled_exactly = 0
    for _ in range(30):
        w = rng.normal(size=model.size_joint_feature)
        for x, t in zip(X, y):
            moved += model.loss_augmented_inference(x, t, w, "margin") != scaled.loss_augmented_inference(x, t, w, "margin")
            scaled_exactly += bool(np.isclose(rescaled_hinge(scaled, x, t, w, "margin"),
                                              10 * rescaled_hinge(model, x, t, w, "margin")))
            assert model.loss_augmented_inference(x, t, w, "slack") == scaled.loss_augmented_inference(x, t, w, "slack")
            assert np.isclose(rescaled_hinge(scaled, x, t, w, "slack"), 10 * rescaled_hinge(model, x, t, w, "slack"))
    assert moved > 0 and scaled_exactly < 30 * len(X)


@pytest.mark.parametrize("seed", SEEDS)
def test_both_rescaled_hinges_bound_the_task_loss(seed):
    X, y = toy_hierarchy(n=20, seed=seed)
    model = MulticlassModel(4, cost=COST).initialize(X, y)
    rng = np.random.default_rng(seed)
    for _ in range(10):
        w = rng.normal(scale=rng.choice([0.1, 1.0, 3.0]), size=model.size_joint_feature)
        for x, t in zip(X, y):
            delta = model.loss(t, model.inference(x, w))
            assert rescaled_hinge(model, x, t, w, "margin") >= delta - 1e-12
            assert rescaled_hinge(model, x, t, w, "slack") >= delta - 1e-12


@pytest.mark.parametrize("seed", SEEDS)
def test_scaling_delta_is_a_change_of_C_for_the_trained_predictor(seed):
    X, y = toy_hierarchy(n=40, seed=seed)
    s, C = 10.0, 10.0
    for rescaling, C_same, factor in (("margin", C / s, s), ("slack", s * C, 1.0)):
        scaled = OneSlackSSVM(MulticlassModel(4, cost=s * COST), C=C, rescaling=rescaling, tol=1e-7 * s).fit(X, y)
        same = OneSlackSSVM(MulticlassModel(4, cost=COST), C=C_same, rescaling=rescaling, tol=1e-7).fit(X, y)
        assert np.linalg.norm(scaled.w_ - factor * same.w_) < 1e-4 * np.linalg.norm(scaled.w_)
        assert scaled.predict(X) == same.predict(X)


@pytest.mark.parametrize("seed", SEEDS)
def test_margin_rescaling_pushes_far_off_outputs_further(seed):
    X, y = toy_hierarchy(n=40, seed=seed)
    within_2 = {}
    for rescaling in ("margin", "slack"):
        fit = OneSlackSSVM(MulticlassModel(4, cost=COST), C=10.0, rescaling=rescaling, tol=1e-5).fit(X, y)
        S = X @ fit.w_.reshape(4, -1).T
        margins = S[np.arange(len(y)), y][:, None] - S
        within_2[rescaling] = np.mean(margins[COST[y] == 2] < 2)
    assert within_2["margin"] < within_2["slack"]


@pytest.fixture(scope="module")
def ocr():
    words, labels, folds = load_ocr_letters()
    return words, labels, np.flatnonzero(folds == 1)


@pytest.mark.parametrize("seed", SEEDS)
def test_forty_subgradient_epochs_stop_early_and_stochastic_beats_batch(ocr, seed):
    words, labels, train = ocr
    sub = train[15 * seed: 15 * seed + 15]
    X, Y = [words[i] for i in sub], [labels[i] for i in sub]
    C = 0.1 * len(X)
    one = OneSlackSSVM(ChainModel(normalize=False), C=C, tol=1e-3).fit(X, Y)
    h = one.history_
    assert h["primal"][-1] - h["dual"][-1] <= C * 1e-3 + 1e-9
    final = {v: SubgradientSSVM(ChainModel(normalize=False), C=C, variant=v, n_epochs=40, seed=0).fit(X, Y).history_["primal"][-1]
             for v in ("batch", "stochastic")}
    assert final["stochastic"] < final["batch"]
    assert min(final.values()) > 1.01 * h["dual"][-1]
    assert one.n_oracle_calls_ >= 20


@pytest.mark.parametrize("seed", SEEDS)
def test_slides_working_set_rule_keeps_more_constraints_at_the_same_optimum(ocr, seed):
    """Chapter 10's S10 claim on other sets of 15 words read letter by letter: the slide's rule
    (stop when S stops changing) ends with a larger S than the epsilon rule (1.7 to 2.1 times on
    these ten sets), both within 1.1 C tol of the best certified lower bound."""
    words, labels, train = ocr
    sub = train[15 * seed: 15 * seed + 15]
    X, Y = [words[i] for i in sub], [labels[i] for i in sub]
    C = 0.1 * len(X)
    rules = [NSlackSSVM(ChainModel(normalize=False, transitions=False), C=C, tol=1e-3, stopping=stopping).fit(X, Y)
             for stopping in ("epsilon", "working_set")]
    certified = max(learner.history_["dual"][-1] for learner in rules)
    assert rules[1].n_constraints_ > 1.5 * rules[0].n_constraints_
    for learner in rules:
        assert learner.converged_ and learner.history_["primal"][-1] - certified <= 1.1 * C * 1e-3
        assert learner.n_constraints_ < 1e-6 * sum(26.0 ** len(x) for x in X)


def test_shipped_working_set_counts_are_what_the_learners_give():
    """Chapter 10 reads the working-set sizes of S11 from the shipped measurements
    (course_lib/resources/ssvm_training_times.csv); they are counts, so they are recomputed here
    on the two smallest sizes the benchmark's way (first n words of fold 1, chain without 1/r,
    C/n = 0.1, tol = 1e-3): n-slack's working set more than doubles from 10 to 40 words, one-slack's
    grows by less than half, and one-slack makes more passes of inference."""
    from course_lib.plotting.structured_learning import load_training_times

    words, labels, folds = load_ocr_letters()
    train = np.flatnonzero(folds == 1)
    table = load_training_times()[0]
    counts = {}
    for name, Learner in (("one-slack", OneSlackSSVM), ("n-slack", NSlackSSVM)):
        for n in (10, 40):
            X, Y = [words[i] for i in train[:n]], [labels[i] for i in train[:n]]
            learner = Learner(ChainModel(normalize=False), C=0.1 * n, tol=1e-3).fit(X, Y)
            passes = learner.n_oracle_calls_ if name == "one-slack" else learner.n_iter_
            counts[name, n] = len(learner.constraints_[1]), passes
            shipped = table[name]["constraints"][list(table[name]["n"]).index(n)]
            assert abs(counts[name, n][0] - shipped) <= 0.05 * shipped, (name, n, counts[name, n], shipped)
    assert counts["n-slack", 40][0] > 2 * counts["n-slack", 10][0]
    assert counts["one-slack", 40][0] < 1.5 * counts["one-slack", 10][0]
    assert all(counts["one-slack", n][1] > counts["n-slack", n][1] for n in (10, 40))


# --- chapter 12 ------------------------------------------------------------------------------
def _bias(A):
    return np.c_[A, np.ones(len(A))]


def test_hierarchy_variants_are_close_at_validated_C():
    """Chapter 12's claim as it states its condition: over ten draws the three variants end within
    0.05 of each other in held-out tree loss on at least nine, and within 0.1 on all (on seed 8
    the path Psi is 0.0775 behind: 0.320 against 0.2425 and 0.245)."""
    spreads = []
    for seed in SEEDS:
        X, y = toy_hierarchy(n=40, spread=1.0, seed=3 * seed)
        X_val, y_val = toy_hierarchy(n=200, spread=1.0, seed=3 * seed + 1)
        X_test, y_test = toy_hierarchy(n=400, spread=1.0, seed=3 * seed + 2)
        D = HierarchicalModel(TREE).delta_matrix()
        losses = []
        for make in (lambda: HierarchicalModel(TREE), lambda: MulticlassModel(4, cost=D), lambda: MulticlassModel(4)):
            fits = {C: OneSlackSSVM(make(), C=C).fit(_bias(X), list(y)) for C in (0.1, 1.0, 10.0, 100.0)}
            val = {C: np.mean(D[y_val, f.predict(_bias(X_val))]) for C, f in fits.items()}
            best = min(val, key=val.get)
            losses.append(np.mean(D[y_test, fits[best].predict(_bias(X_test))]))
        spreads.append(max(losses) - min(losses))
    assert sum(s < 0.05 for s in spreads) >= 9 and max(spreads) < 0.1, spreads


@pytest.mark.parametrize("seed", SEEDS)
def test_ranking_training_raises_auc_and_barely_depends_on_C(seed):
    X, R, _ = ranking.toy_ranking_queries(n_queries=8, seed=10 * seed)
    X_test, R_test, _ = ranking.toy_ranking_queries(n_queries=20, seed=10 * seed + 1)
    auc = lambda w: np.mean([ranking.auc(r, x @ w) for x, r in zip(X_test, R_test)])
    by_C = {C: auc(OneSlackSSVM(ranking.RankingModel(), C=C).fit(X, R).w_) for C in (0.01, 1.0, 10.0, 100.0)}
    assert by_C[10.0] > auc(np.ones(3)) + 0.1
    assert max(by_C.values()) - min(by_C.values()) < 0.1


@pytest.mark.parametrize("seed", SEEDS)
def test_query_dependent_features_rank_better_than_the_difference(seed):
    X, R = ranking.toy_metric_queries(n_queries=8, seed=10 * seed)
    X_test, R_test = ranking.toy_metric_queries(n_queries=30, seed=10 * seed + 1)
    result = {}
    for kind in ("difference", "squared"):
        features = [ranking.query_features(q, b, kind) for q, b in X]
        w = OneSlackSSVM(ranking.RankingModel(), C=10.0).fit(features, R).w_
        result[kind] = np.mean([ranking.auc(r, ranking.query_features(q, b, kind) @ w) for (q, b), r in zip(X_test, R_test)])
    assert result["squared"] > result["difference"] + 0.2


@pytest.mark.parametrize("seed", SEEDS)
def test_converged_metric_learning_nearly_psd_and_both_variants_rank_alike(seed):
    X, R = ranking.toy_metric_queries(n_queries=8, seed=seed)
    X_test, R_test = ranking.toy_metric_queries(n_queries=30, seed=seed + 100)
    mean_auc = lambda W: np.mean([ranking.auc(r, ranking.mahalanobis_features(q, b) @ W.ravel())
                                  for (q, b), r in zip(X_test, R_test)])
    W_psd, info_psd = ranking.learn_metric(X, R, lam=0.01, psd=True, tol=1e-2)
    W_free, info_free = ranking.learn_metric(X, R, lam=0.01, psd=False, tol=1e-2)
    assert info_psd["converged"] and info_free["converged"]
    eigenvalues = np.linalg.eigvalsh(W_free)
    assert eigenvalues[0] > -0.03 * eigenvalues[-1]
    assert abs(mean_auc(W_psd) - mean_auc(W_free)) < 0.03
    assert info_psd["objective"] >= info_free["lower_bound"] - 1e-9  # the cone only restricts


@pytest.mark.parametrize("seed", SEEDS)
def test_potts_segmentation_beats_per_pixel_at_validated_C(seed):
    X, Y, _ = vision.toy_segmentation(n=6, noise=1.0, seed=seed)
    X_val, Y_val, _ = vision.toy_segmentation(n=6, noise=1.0, seed=seed + 50)
    X_test, Y_test, _ = vision.toy_segmentation(n=10, noise=1.0, seed=seed + 100)
    hamming = {}
    for name, make in (("pixel", lambda: vision.SegmentationModel(2)), ("potts", lambda: vision.PottsSegmentationModel(2))):
        fits = {C: OneSlackSSVM(make(), C=C).fit(X, Y) for C in (1.0, 10.0, 100.0, 1000.0, 10000.0)}
        val = {C: np.mean([make().loss(a, b) for a, b in zip(Y_val, f.predict(X_val))]) for C, f in fits.items()}
        best = min(val, key=val.get)
        hamming[name] = np.mean([make().loss(a, b) for a, b in zip(Y_test, fits[best].predict(X_test))])
    assert hamming["potts"] < hamming["pixel"]


# --- chapter 12: localisation, segmentation and pose over ten draws ----------------------------
@pytest.mark.parametrize("draw", range(10))
def test_trained_boxes_overlap_most_held_out_objects(draw):
    X, Y = vision.toy_localisation(n=12, seed=2 * draw + 10)
    X_test, Y_test = vision.toy_localisation(n=20, seed=2 * draw + 11)
    model = vision.LocalisationModel()
    locator = OneSlackSSVM(model, C=10.0).fit(X, Y)
    losses = np.array([model.loss(a, b) for a, b in zip(Y_test, locator.predict(X_test))])
    assert np.mean(losses < 0.5) >= 0.7


@pytest.mark.parametrize("draw", range(10))
def test_noisier_images_need_a_larger_C_for_the_disc(draw):
    foreground = {}
    for noise in (0.5, 1.0):
        X_held, _, _ = vision.toy_segmentation(n=10, noise=noise, seed=100 + draw)
        X_train, Y_train, _ = vision.toy_segmentation(n=6, noise=noise, seed=draw)
        for C in (10.0, 1000.0):
            w = OneSlackSSVM(vision.SegmentationModel(2), C=C).fit(X_train, Y_train).w_
            foreground[noise, C] = sum(int(vision.SegmentationModel(2).inference(x, w).sum()) for x in X_held)
    assert foreground[1.0, 10.0] < foreground[0.5, 10.0]
    assert foreground[1.0, 1000.0] > max(foreground[1.0, 10.0], foreground[0.5, 1000.0] / 2)


def test_star_model_poses_over_ten_draws():
    """The star DP equals brute force on every draw; it recovers the whole pose on 7 of seeds 1-10 and
    places more parts right than the detectors alone on 8, as chapter 12 states."""
    recovered = better = 0
    for seed in range(1, 11):
        unary, pairwise, true_locations, _ = vision.toy_pose(seed=seed)
        dp_locations, dp_energy = vision.star_model_dp(unary, pairwise)
        bf_locations, bf_energy = vision.star_model_brute_force(unary, pairwise)
        assert np.isclose(dp_energy, bf_energy) and dp_locations == bf_locations
        alone = [int(np.argmin(u)) for u in unary]
        right = sum(a == b for a, b in zip(dp_locations, true_locations))
        recovered += right == len(true_locations)
        better += right > sum(a == b for a, b in zip(alone, true_locations))
    assert (recovered, better) == (7, 8)
