"""ChainModel: Psi against the per-position sum of the slides, inference against enumeration."""

import itertools

import numpy as np
import pytest

from course_lib.data import load_ocr_letters
from course_lib.structured.base import StructuredModel, augmented_score
from course_lib.structured.chain import ChainModel, fit_hmm, hmm_chain_scores
from course_lib.structured.viterbi import viterbi_batch


def random_words(n, q, n_features, seed, max_length=4):
    rng = np.random.default_rng(seed)
    X = [rng.integers(0, 2, (rng.integers(1, max_length + 1), n_features)).astype(float)
         for _ in range(n)]
    Y = [rng.integers(0, q, len(x)) for x in X]
    return X, Y


def score_by_positions(x, y, W_unary, W_pair, normalize):
    """sum_t <W_unary[y_t], x_t> + sum_{t>=2} W_pair[y_{t-1}, y_t]  (divided by r if normalize)."""
    total = sum(W_unary[y[t]] @ x[t] for t in range(len(y)))
    total += sum(W_pair[y[t - 1], y[t]] for t in range(1, len(y)))
    return total / len(y) if normalize else total


@pytest.mark.parametrize("normalize", [True, False])
def test_score_decomposes_over_positions(normalize):
    q, n = 4, 5
    model = ChainModel(n_labels=q, normalize=normalize)
    X, Y = random_words(30, q, n, seed=0, max_length=6)
    model.initialize(X, Y)
    assert model.size_joint_feature == q * n + q * q
    rng = np.random.default_rng(1)
    for x, y in zip(X, Y):
        w = rng.normal(size=model.size_joint_feature)
        W_unary, W_pair = model.unpack(w)
        assert np.allclose(W_unary.ravel(), w[: q * n]) and np.allclose(W_pair.ravel(), w[q * n:])
        assert np.isclose(w @ model.joint_feature(x, y), score_by_positions(x, y, W_unary, W_pair, normalize))


def test_features_are_the_slides_counts():
    # word "aba" over q = 2 letters with 3 pixels: type 1 sums the images of each letter,
    # type 2 counts bigrams (a->b once, b->a once), both divided by r = 3
    x = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0], [1.0, 1.0, 0.0]])
    y = np.array([0, 1, 0])
    psi = ChainModel(n_labels=2).joint_feature(x, y)
    assert np.allclose(psi[:6].reshape(2, 3), np.array([[2, 1, 1], [0, 1, 1]]) / 3)
    assert np.allclose(psi[6:].reshape(2, 2), np.array([[0, 1], [1, 0]]) / 3)
    raw = ChainModel(n_labels=2, normalize=False).joint_feature(x, y)
    assert np.allclose(raw, 3 * psi)


@pytest.mark.parametrize("normalize", [True, False])
def test_batch_joint_feature_is_the_sum(normalize):
    model = ChainModel(n_labels=3, normalize=normalize)
    X, Y = random_words(25, 3, 4, seed=2, max_length=5)
    model.initialize(X, Y)
    expected = StructuredModel.batch_joint_feature(model, X, Y)
    assert np.allclose(model.batch_joint_feature(X, Y), expected)
    weights = np.random.default_rng(0).normal(size=len(X))
    weighted = sum(a * model.joint_feature(x, y) for x, y, a in zip(X, Y, weights))
    assert np.allclose(model.batch_joint_feature(X, Y, weights), weighted)
    assert np.allclose(StructuredModel.batch_joint_feature(model, X, Y, weights), weighted)
    with pytest.raises(ValueError, match="weights"):
        model.batch_joint_feature(X, Y, weights[:-1])


@pytest.mark.parametrize("normalize", [True, False])
@pytest.mark.parametrize("transitions", [True, False])
def test_joint_features_and_losses_are_those_of_each_example(normalize, transitions):
    model = ChainModel(n_labels=3, normalize=normalize, normalize_loss=normalize, transitions=transitions)
    X, Y = random_words(25, 3, 4, seed=3, max_length=5)
    model.initialize(X, Y)
    Y_hat = [np.random.default_rng(i).integers(0, 3, len(y)) for i, y in enumerate(Y)]
    assert np.array_equal(model.joint_features(X, Y), [model.joint_feature(x, y) for x, y in zip(X, Y)])
    assert np.array_equal(model.joint_features(X, Y), StructuredModel.joint_features(model, X, Y))
    assert np.array_equal(model.losses(Y, Y_hat), [model.loss(y, y_hat) for y, y_hat in zip(Y, Y_hat)])
    with pytest.raises(ValueError, match="same length"):
        model.losses(Y, [y[:-1] if len(y) > 1 else y[:0] for y in Y_hat])
    with pytest.raises(ValueError, match="labels"):
        model.joint_features(X, [y + 3 for y in Y])


@pytest.mark.parametrize("normalize", [True, False])
def test_inference_equals_brute_force(normalize):
    q, n = 3, 4
    model = ChainModel(n_labels=q, normalize=normalize)
    X, Y = random_words(40, q, n, seed=3)
    model.initialize(X, Y)
    rng = np.random.default_rng(4)
    for x in X:
        w = rng.normal(size=model.size_joint_feature)
        candidates = [np.array(y) for y in itertools.product(range(q), repeat=len(x))]
        best = max(w @ model.joint_feature(x, y) for y in candidates)
        y_hat = model.inference(x, w)
        assert np.isclose(w @ model.joint_feature(x, y_hat), best)
    ws = rng.normal(size=model.size_joint_feature)
    for y_batch, x in zip(model.batch_inference(X, ws), X):
        assert y_batch.tolist() == model.inference(x, ws).tolist()


@pytest.mark.parametrize("normalize, normalize_loss", [(True, False), (False, False), (True, True)])
@pytest.mark.parametrize("rescaling", ["margin", "slack"])
def test_loss_augmented_inference_equals_brute_force(normalize, normalize_loss, rescaling):
    q, n = 3, 3
    model = ChainModel(n_labels=q, normalize=normalize, normalize_loss=normalize_loss)
    X, Y = random_words(25, q, n, seed=5)
    model.initialize(X, Y)
    rng = np.random.default_rng(6)
    for x, y in zip(X, Y):
        w = rng.normal(size=model.size_joint_feature)
        candidates = [np.array(c) for c in itertools.product(range(q), repeat=len(x))]
        best = max(augmented_score(model, x, y, c, w, rescaling) for c in candidates)
        y_hat = model.loss_augmented_inference(x, y, w, rescaling=rescaling)
        assert np.isclose(augmented_score(model, x, y, y_hat, w, rescaling), best)


def test_loss_is_hamming():
    assert ChainModel().loss([0, 1, 2, 3], [0, 2, 2, 0]) == 2.0
    assert ChainModel(normalize_loss=True).loss([0, 1, 2, 3], [0, 2, 2, 0]) == 0.5
    assert ChainModel().loss([4, 5], [4, 5]) == 0.0
    with pytest.raises(ValueError, match="same length"):
        ChainModel().loss([0, 1], [0, 1, 2])


def test_ocr_words_fit_the_model():
    words, labels, folds = load_ocr_letters()
    model = ChainModel().initialize(words[:50], labels[:50])
    assert model.n_features == 128 and model.size_joint_feature == 26 * 128 + 26 * 26


@pytest.mark.parametrize("X, Y, message", [
    ([np.zeros((2, 3))], [np.array([0, 26])], r"outside 0..25"),
    ([np.zeros((2, 3))], [np.array([0, -1])], r"outside 0..25"),
    ([np.zeros((0, 3))], [np.array([], dtype=int)], "r >= 1 letters"),
    ([np.zeros((2, 3)), np.zeros((1, 4))], [np.array([0, 1]), np.array([2])], "same size"),
    ([np.zeros((2, 3))], [np.array([0, 1, 2])], "sequence of 2 labels"),
    ([np.zeros((2, 3))], [], "lengths must match"),
    ([np.array([[0.0, np.nan, 0.0]])], [np.array([1])], "NaN"),
    ([np.zeros(3)], [np.array([1])], r"shape \(r, n\)"),
])
def test_initialize_validation(X, Y, message):
    with pytest.raises(ValueError, match=message):
        ChainModel().initialize(X, Y)


def test_call_validation():
    model = ChainModel(n_labels=2).initialize([np.zeros((2, 3))], [np.array([0, 1])])
    w = np.zeros(model.size_joint_feature)
    with pytest.raises(ValueError, match="length q\\*n \\+ q\\^2 = 10"):
        model.inference(np.zeros((2, 3)), np.zeros(7))
    with pytest.raises(ValueError, match="initialised with 3"):
        model.inference(np.zeros((2, 4)), w)
    with pytest.raises(ValueError, match="rescaling must be one of"):
        model.loss_augmented_inference(np.zeros((2, 3)), [0, 1], w, rescaling="both")
    with pytest.raises(TypeError, match="n_labels"):
        ChainModel(n_labels=2.5).joint_feature(np.zeros((1, 3)), [0])


@pytest.mark.parametrize("normalize, normalize_loss", [(True, False), (False, False), (True, True), (False, True)])
def test_batch_loss_augmented_inference_equals_one_by_one(normalize, normalize_loss):
    model = ChainModel(n_labels=4, normalize=normalize, normalize_loss=normalize_loss)
    X, Y = random_words(60, 4, 5, seed=11, max_length=7)
    model.initialize(X, Y)
    w = np.random.default_rng(12).normal(size=model.size_joint_feature)
    for rescaling in ("margin", "slack"):
        batch = model.batch_loss_augmented_inference(X, Y, w, rescaling=rescaling)
        for y_hat, x, y in zip(batch, X, Y):
            one = model.loss_augmented_inference(x, y, w, rescaling=rescaling)
            assert np.isclose(augmented_score(model, x, y, y_hat, w, rescaling),
                              augmented_score(model, x, y, one, w, rescaling))
            assert y_hat.tolist() == one.tolist()  # no ties with real-valued weights


def test_without_transitions_each_letter_is_decided_alone():
    q, n = 4, 6
    model = ChainModel(n_labels=q, transitions=False)
    X, Y = random_words(30, q, n, seed=13, max_length=6)
    model.initialize(X, Y)
    assert model.size_joint_feature == q * n
    rng = np.random.default_rng(14)
    w = rng.normal(size=q * n)
    W_unary, W_pair = model.unpack(w)
    assert np.all(W_pair == 0)
    full = ChainModel(n_labels=q)
    for x, y in zip(X, Y):
        assert np.allclose(model.joint_feature(x, y), full.joint_feature(x, y)[: q * n])
        assert model.inference(x, w).tolist() == np.argmax(x @ W_unary.T, axis=1).tolist()
        y_hat = model.loss_augmented_inference(x, y, w)
        augmented = x @ W_unary.T / len(x) + (np.arange(q) != y[:, None])
        assert y_hat.tolist() == np.argmax(augmented, axis=1).tolist()
    assert np.allclose(model.batch_joint_feature(X, Y), StructuredModel.batch_joint_feature(model, X, Y))


def test_hmm_scores_are_log_joint_probabilities():
    from course_lib.structured.chain import fit_hmm, hmm_chain_scores
    from course_lib.structured.viterbi import sequence_score

    q, n, r = 2, 2, 2
    X, Y = random_words(20, q, n, seed=15, max_length=3)
    hmm = fit_hmm(X, Y, n_labels=q, smoothing=0.5)
    total = 0.0  # sum over all binary words x of r letters and all y of p(x, y): must be 1
    for pixels in itertools.product([0.0, 1.0], repeat=r * n):
        x = np.array(pixels).reshape(r, n)
        unary, pairwise = hmm_chain_scores(hmm, x)
        for y in itertools.product(range(q), repeat=r):
            total += np.exp(sequence_score(unary, pairwise, y))
    assert np.isclose(total, 1.0)
    # and the score of one word is the product formula of the HMM, written out
    x, y = X[0], Y[0]
    theta = np.exp(hmm["log_theta"])
    p = np.exp(hmm["log_start"][y[0]])
    for t in range(len(y)):
        p *= np.prod(theta[y[t]] ** x[t] * (1 - theta[y[t]]) ** (1 - x[t]))
        if t:
            p *= np.exp(hmm["log_transition"][y[t - 1], y[t]])
    assert np.isclose(np.exp(sequence_score(*hmm_chain_scores(hmm, x), y)), p)


# --- the cached OCR models, their figures and demo ----------------------------------------------

def _ocr_split(models, which):
    words, labels, folds = load_ocr_letters()
    keep = {"train": folds == models["train_fold"], "validation": folds == models["validation_fold"],
            "test": (folds != models["train_fold"]) & (folds != models["validation_fold"])}[which]
    return [x for x, k in zip(words, keep) if k], [y for y, k in zip(labels, keep) if k]


def _dual_value(models, kind, k, X, Y):
    """D(alpha) of the stored dual point of model k, after checking that alpha_i is a distribution over
    the readings of word i: C/n sum_i sum_y alpha_i(y) Delta(y_i, y) - 1/2 ||C/n sum_i sum_y alpha_i(y) dPsi_i(y)||^2,
    one reading at a time (joint_feature and loss, not the batch scatter-add the chapter uses)."""
    from course_lib.structured.chain import chain_model_of

    model = chain_model_of(models, kind == "chain").initialize(X, Y)
    words = models[f"dual_word_{kind}"]
    readings = np.split(models[f"dual_letters_{kind}"], np.cumsum([len(Y[i]) for i in words])[:-1])
    pick = np.flatnonzero(models[f"dual_model_{kind}"] == k)
    alpha = models[f"dual_weight_{kind}"][pick]
    assert np.all(alpha >= 0) and np.allclose(np.bincount(words[pick], alpha, minlength=len(X)), 1)
    C, linear, v = models["C"][k], 0.0, np.zeros(model.size_joint_feature)
    for i, a, y_bar in zip(words[pick], alpha, (readings[j] for j in pick)):
        linear += a * model.loss(Y[i], y_bar)
        v += a * (model.joint_feature(X[i], Y[i]) - model.joint_feature(X[i], y_bar))
    return C / len(X) * linear - 0.5 * (C / len(X)) ** 2 * v @ v


def test_cached_models_are_within_one_percent_of_their_optimum():
    from course_lib.structured.chain import chain_model_of, load_ocr_chain_models
    from course_lib.structured.learners import OneSlackSSVM

    models = load_ocr_chain_models()
    X, Y = _ocr_split(models, "train")
    assert len(X) == 704
    for kind, transitions in (("chain", True), ("letters", False)):
        model = chain_model_of(models, transitions)
        for k, (C, w, stated) in enumerate(zip(models["C"], models[f"w_{kind}"], models[f"objective_{kind}"])):
            # P(w) recomputed from the stored weights, by loss-augmented inference on every word
            primal = OneSlackSSVM(model, C=C).objective(X, Y, w)
            assert primal == pytest.approx(stated, rel=1e-6)
            # weak duality: min P >= D(alpha) for the stored alpha, so P(w) - min P <= P(w) - D(alpha)
            lower = _dual_value(models, kind, k, X, Y)
            assert lower <= primal
            assert primal - lower <= 0.01 * primal, f"C = {C:g}, {kind}: more than 1% above the optimum"


def test_a_dual_point_that_is_not_the_solvers_certifies_nothing():
    """The same check trips on a wrong dual point: alpha on the true readings alone gives D = 0."""
    from course_lib.structured.chain import load_ocr_chain_models

    models = load_ocr_chain_models()
    X, Y = _ocr_split(models, "train")
    wrong = dict(models, dual_model_chain=np.zeros(len(X), dtype=np.int8), dual_word_chain=np.arange(len(X)),
                 dual_weight_chain=np.ones(len(X)), dual_letters_chain=np.concatenate(Y).astype(np.uint8))
    assert _dual_value(wrong, "chain", 0, X, Y) == 0.0 < 0.99 * models["objective_chain"][0]


def test_cached_models_reproduce_their_stated_accuracies():
    from course_lib.structured.chain import chain_model_of, load_ocr_chain_models

    models = load_ocr_chain_models()
    assert models["w_chain"].shape == (len(models["C"]), 26 * 128 + 26 * 26)
    for which, size in (("train", 704), ("validation", 684), ("test", 5489)):
        X, Y = _ocr_split(models, which)
        assert len(X) == size
        Y = np.concatenate(Y)
        for kind, transitions in (("chain", True), ("letters", False)):
            model = chain_model_of(models, transitions)
            for w, stated in zip(models[f"w_{kind}"], models[f"{which}_accuracy_{kind}"]):
                accuracy = np.mean(np.concatenate(model.batch_inference(X, w)) == Y)
                assert abs(accuracy - stated) < 1e-4


def test_chain_beats_letters_at_every_C_on_validation_and_test():
    from course_lib.structured.chain import load_ocr_chain_models

    models = load_ocr_chain_models()
    for which in ("validation", "test"):
        assert np.all(models[f"{which}_accuracy_chain"] > models[f"{which}_accuracy_letters"] + 0.02)


def test_chain_figures_build():
    import course_lib.plotting.structured_chain as figures

    for make in (figures.handwritten_word_figure, figures.viterbi_tables_figure, figures.chain_graph_figure,
                 figures.letter_templates_figure, figures.transition_weights_figure,
                 figures.chain_vs_letters_figure, figures.C_extremes_figure):
        fig = make()
        assert fig.axes


def test_chain_demo_at_both_ends_of_the_slider():
    from course_lib.widgets.structured_chain import chain_C_demo

    demo = chain_C_demo()
    options = demo.controls["C"].options
    for _, C in (options[0], options[-1]):
        demo.set(C=C)
        assert demo.image.value


def test_batch_call_validation():
    model = ChainModel(n_labels=3)
    w = np.zeros(3 * 4 + 9)
    with pytest.raises(ValueError, match="same size"):
        model.batch_inference([np.zeros((2, 4)), np.zeros((2, 5))], w)
    with pytest.raises(ValueError, match="r >= 1 letters"):
        model.batch_inference([np.zeros((2, 4)), np.zeros((0, 4))], w)
    with pytest.raises(ValueError, match=r"Y\[1\] must be a 1-D sequence of 2 labels"):
        model.batch_loss_augmented_inference([np.zeros((2, 4))] * 2, [[0, 1], [0]], w)
    with pytest.raises(ValueError, match="outside 0..2"):
        model.batch_loss_augmented_inference([np.zeros((2, 4))] * 2, [[0, 1], [0, 3]], w)
    with pytest.raises(ValueError, match="NaN"):
        model.batch_inference([np.full((2, 4), np.nan)], w)
    with pytest.raises(ValueError, match=r"q\*n \(no transitions\) = 12"):
        ChainModel(n_labels=3, transitions=False).inference(np.zeros((2, 4)), w)
    assert model.batch_inference([], w) == []


def test_transition_scale_demo_at_both_ends_of_its_sliders():
    from course_lib.widgets.structured_chain import transition_scale_demo

    demo = transition_scale_demo()
    top = demo.controls["word"].max
    for word, scale in ((0, 0.0), (0, 5.0), (top, 0.0), (top, 5.0)):
        demo.set(word=word, scale=scale)
        assert demo.image.value


def test_chain_beats_letters_on_each_test_fold_at_the_validated_C():
    """The chapter's claim (the chain reads more letters right than each letter alone, at the C
    chosen on validation) holds on each of the eight test folds, not only on their union."""
    from course_lib.structured.chain import chain_model_of, load_ocr_chain_models, validated_index

    models = load_ocr_chain_models()
    words, labels, folds = load_ocr_letters()
    chain, letters = chain_model_of(models, True), chain_model_of(models, False)
    w_chain = models["w_chain"][validated_index(models, "chain")]
    w_letters = models["w_letters"][validated_index(models, "letters")]
    test_folds = [f for f in range(10) if f not in (models["train_fold"], models["validation_fold"])]
    assert len(test_folds) == 8
    for fold in test_folds:
        X = [x for x, f in zip(words, folds) if f == fold]
        Y = np.concatenate([y for y, f in zip(labels, folds) if f == fold])
        acc_chain = np.mean(np.concatenate(chain.batch_inference(X, w_chain)) == Y)
        acc_letters = np.mean(np.concatenate(letters.batch_inference(X, w_letters)) == Y)
        assert acc_chain > acc_letters + 0.02, f"fold {fold}: {acc_chain:.4f} vs {acc_letters:.4f}"


def test_every_ocr_spelling_is_in_the_training_fold_and_a_dictionary_helps_the_chain():
    """Chapter 11's condition (its test words are all spellings of fold 1, 55 in all) and its
    dictionary claim: the argmax restricted to those spellings, by the chain's own scores (brute
    force over the dictionary, independent of Viterbi), reads more letters right on each test fold."""
    from course_lib.data import letters_to_string
    from course_lib.structured.chain import chain_model_of, load_ocr_chain_models, validated_index
    from course_lib.structured.viterbi import sequence_score

    models = load_ocr_chain_models()
    words, labels, folds = load_ocr_letters()
    spelling = np.array([letters_to_string(y) for y in labels])
    vocabulary = sorted(set(spelling[folds == models["train_fold"]]))
    assert len(vocabulary) == len(set(spelling)) == 55
    chain, w = chain_model_of(models, True), models["w_chain"][validated_index(models, "chain")]
    for fold in sorted(set(folds) - {models["train_fold"], models["validation_fold"]}):
        X = [x for x, f in zip(words, folds) if f == fold]
        Y = np.concatenate([y for y, f in zip(labels, folds) if f == fold])
        viterbi_reading = np.concatenate(chain.batch_inference(X, w))
        dictionary_reading = []
        for x in X:
            unary, pairwise = chain.chain_scores(x, w)
            candidates = [np.array([ord(c) - ord("a") for c in v]) for v in vocabulary if len(v) == len(x)]
            dictionary_reading.append(max(candidates, key=lambda c: sequence_score(unary, pairwise, c)))
        assert np.mean(np.concatenate(dictionary_reading) == Y) > np.mean(viterbi_reading == Y), f"fold {fold}"


@pytest.mark.parametrize("train_fold", [0, 1, 3, 5, 7])
def test_transitions_help_the_hmm_for_several_training_folds(train_fold):
    words, labels, folds = load_ocr_letters()
    X = [x for x, f in zip(words, folds) if f == train_fold]
    Y = [y for y, f in zip(labels, folds) if f == train_fold]
    X_test = [x for x, f in zip(words, folds) if f != train_fold][:1500]
    Y_test = np.concatenate([y for y, f in zip(labels, folds) if f != train_fold][:1500])
    hmm = fit_hmm(X, Y)
    emissions = [hmm_chain_scores(hmm, x)[0] for x in X_test]
    with_transitions = np.mean(np.concatenate(viterbi_batch(emissions, hmm["log_transition"])) == Y_test)
    alone = np.mean(np.concatenate([e.argmax(axis=1) for e in emissions]) == Y_test)
    assert with_transitions > alone


@pytest.mark.parametrize("split", range(10))
def test_transitions_gain_on_seen_spellings_not_on_unseen_ones(split):
    """Chapter 11's held-out-vocabulary claim, on ten random halvings of the 55 spellings (the
    chapter shows splits 0-2): trained on fold-1 words of one half (C = 30, the first 200 words,
    both models certified within 1%), the chain's gain over each letter alone is at least 2
    points larger on test words of that half than on test words of the other half, and below
    2.5 points there."""
    from course_lib.data import letters_to_string
    from course_lib.structured.learners import OneSlackSSVM

    words, labels, folds = load_ocr_letters()
    spelling = np.array([letters_to_string(y) for y in labels])
    spellings = np.array(sorted(set(spelling)))
    half = np.random.default_rng(split).permutation(spellings)[: len(spellings) // 2]
    in_half = np.isin(spelling, half)
    fit_on = np.flatnonzero((folds == 1) & in_half)[:200]
    test = (folds != 1) & (folds != 2)
    gain = {True: 0.0, False: 0.0}  # chain minus letters alone, on seen and unseen spellings
    for kind in (True, False):
        learner = OneSlackSSVM(ChainModel(normalize_loss=True, transitions=kind), C=30.0, tol=3e-3)
        learner.fit([words[i] for i in fit_on], [labels[i] for i in fit_on])
        P, bound = learner.history_["primal"][-1], max(learner.history_["dual"])
        assert (P - bound) / P <= 0.01
        for part in (True, False):
            chosen = np.flatnonzero(test & (in_half == part))
            reading = np.concatenate(learner.predict([words[i] for i in chosen]))
            accuracy = np.mean(reading == np.concatenate([labels[i] for i in chosen]))
            gain[part] += accuracy if kind else -accuracy
    assert gain[True] > gain[False] + 0.02, gain
    assert gain[False] < 0.025, gain
