"""Figures of chapter 11: handwritten words, Viterbi's tables M and I, the HMM-like chain, and the
learned chain model (letter templates, transition weights)."""

import functools

import numpy as np
from matplotlib.patches import Circle, Rectangle
from matplotlib.ticker import FixedLocator

from course_lib._validation import check_int, check_non_negative, check_positive
from course_lib.data import ALPHABET, letters_to_string, load_ocr_letters
from course_lib.i18n import _
from course_lib.plotting.artists import kept
from course_lib.plotting.cache import cached
from course_lib.plotting.registry import slide_figure
from course_lib.plotting.style import BLUE, GREEN, GREY, VERMILLION, new_figure
from course_lib.structured.chain import chain_model_of, load_ocr_chain_models, validated_index
from course_lib.structured.viterbi import viterbi
from course_lib.plotting.arguments import Numbers, checked, count, positive

LETTER_SHAPE = (16, 8)  # a letter image: 16 rows, 8 columns of pixels
TRAIN_FOLD, VALIDATION_FOLD = 1, 2  # those of the cached models; the eight others are the test set


@functools.lru_cache(maxsize=1)
def _ocr_letters():
    """load_ocr_letters(), read once (figures and demos call it at every drawing)."""
    return load_ocr_letters()


@cached(maxsize=1)
@checked(min_length=count(1, 100))
def distinct_test_words(min_length=5):
    """Indices of the test words (folds other than 1 and 2) with at least min_length letters,
    one per distinct spelling, in file order (cached: the demo reads them at every redraw)."""
    words, labels, folds = _ocr_letters()
    seen, indices = set(), []
    for i, (x, y, fold) in enumerate(zip(words, labels, folds)):
        if fold not in (TRAIN_FOLD, VALIDATION_FOLD) and len(x) >= min_length and letters_to_string(y) not in seen:
            seen.add(letters_to_string(y))
            indices.append(i)
    return tuple(indices)


@checked(gap=count(0, 20))
def word_image(x, gap=1):
    """The letters of a word (r, 128) side by side as one (16, r*(8+gap)-gap) image, NaN gaps."""
    x = np.asarray(x, dtype=float)
    height, width = LETTER_SHAPE
    image = np.full((height, len(x) * (width + gap) - gap), np.nan)
    for t, letter in enumerate(x):
        image[:, t * (width + gap): t * (width + gap) + width] = letter.reshape(LETTER_SHAPE)
    return image


def plot_word(ax, x, y=None, y_hat=None, title=None):
    """A handwritten word; under each letter its label y_t, and above it the prediction (green
    when right, vermillion when wrong) if y_hat is given."""
    ax.imshow(word_image(x), cmap="Greys", vmin=0, vmax=1, interpolation="nearest")
    width = LETTER_SHAPE[1] + 1
    for t in range(len(x)):
        centre = t * width + (width - 2) / 2
        if y is not None:
            ax.text(centre, 18.5, ALPHABET[int(y[t])], ha="center", va="top", fontsize=14)
        if y_hat is not None:
            right = y is None or y_hat[t] == y[t]
            ax.text(centre, -1.5, ALPHABET[int(y_hat[t])], ha="center", va="bottom", fontsize=14,
                    color=GREEN if right else VERMILLION, fontweight="bold")
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_ylim(21.5 if y is not None else 15.5, -4.5 if y_hat is not None else -0.5)
    if title:
        ax.set_title(title)


def plot_word_matrix(ax, x):
    """The word as the slides' n x r matrix: column t holds the n = 128 pixels of letter t."""
    x = np.asarray(x, dtype=float)
    ax.imshow(x.T, cmap="Greys", vmin=0, vmax=1, aspect="auto", interpolation="nearest")
    ax.set_xticks(range(len(x)), [str(t + 1) for t in range(len(x))])
    ax.set_xlabel(_("letter t"))
    ax.set_ylabel(_("pixel i"))
    ax.set_title(_("x: an n × r = {n} × {r} matrix").format(n=x.shape[1], r=x.shape[0]))


def plot_tables(ax_M, ax_I, M, I, y, letters=ALPHABET):
    """The slides' tables for one word: M[s, tau] (colour) and the back-pointers I[s, tau]
    (letters), with the back-tracked path y framed in both."""
    q, r = M.shape
    ax_M.imshow(M, aspect="auto", cmap="cividis", interpolation="nearest")
    for tau in range(1, r):
        for s in range(q):
            on_path = s == y[tau]
            ax_I.text(tau, s, letters[I[s, tau]], ha="center", va="center", fontsize=8,
                      color=VERMILLION if on_path else GREY, fontweight="bold" if on_path else None)
    ax_I.imshow(np.zeros((q, r)), aspect="auto", cmap="Greys", vmin=0, vmax=1)
    titles = (_("M[s, τ]: best score ending in s"), _("I[s, τ]: best previous letter"))
    for ax, name in zip((ax_M, ax_I), titles):
        for tau, s in enumerate(y):
            ax.add_patch(Rectangle((tau - 0.5, s - 0.5), 1, 1, fill=False, edgecolor=VERMILLION,
                                   lw=2.5))
        ax.set_xticks(range(r), [str(t + 1) for t in range(r)])
        ax.set_yticks(range(q), list(letters[:q]), fontsize=8)
        ax.set_xlabel(_("position τ"))
        ax.set_title(name, fontsize=12)
    ax_M.set_ylabel(_("letter s"))


@checked(label_every=count(1, 26))
def plot_transitions(ax, W_pair, letters=ALPHABET, colorbar=True, label_every=1):
    """W_pair[a, b], the learned weight of letter b following letter a, on a diverging scale
    (orange positive, purple negative), with its colour bar. `label_every` = 2 names every
    other row (a, c, e, ...) when 26 names would not fit the panel's height. On a live
    figure the image and colour bar are kept and updated."""
    limit = np.abs(W_pair).max() or 1.0
    image = kept(ax, "transitions", lambda: ax.imshow(W_pair, cmap="PuOr_r", interpolation="nearest"))
    image.set_data(W_pair)
    image.set_clim(-limit, limit)
    q = len(W_pair)
    ticks, locator = (q, letters[:q], label_every), ax.yaxis.get_major_locator()
    if (ax.__dict__.get("_course_ticks") != ticks or not isinstance(locator, FixedLocator)
            or list(locator.locs) != list(range(q))):  # set once on a live figure: its background is kept
        ax.set_xticks(range(q), list(letters[:q]), fontsize=8)
        ax.set_yticks(range(q), [letters[j] if j % label_every == 0 else "" for j in range(q)], fontsize=8)
        ax.__dict__["_course_ticks"] = ticks
    ax.set_xlabel(_("next letter b"))
    ax.set_ylabel(_("previous letter a"))
    ax.set_title(_("transition weights W_pair[a, b]"))
    if colorbar:
        kept(ax, "colorbar", lambda: ax.figure.colorbar(image, ax=ax, shrink=0.8).ax)


@checked(ncols=count(1, 26), gap=count(0, 20), row_gap=count(0, 50))
def template_mosaic(W_unary, ncols=13, gap=1, row_gap=5):
    """The q rows of W_unary as 16 x 8 images in a grid (NaN gaps; row_gap leaves room for
    labels)."""
    q = len(W_unary)
    nrows = -(-q // ncols)
    height, width = LETTER_SHAPE
    mosaic = np.full((nrows * (height + row_gap), ncols * (width + gap) - gap), np.nan)
    for j, template in enumerate(W_unary):
        row, col = divmod(j, ncols)
        top = row * (height + row_gap) + row_gap
        left = col * (width + gap)
        mosaic[top: top + height, left: left + width] = template.reshape(LETTER_SHAPE)
    return mosaic


@checked(ncols=count(1, 26))
def plot_templates(ax, W_unary, letters=ALPHABET, ncols=13):
    """The letter templates W_unary[j] (the type-1 weights of letter j) as 16 x 8 images:
    orange where ink raises the score of letter j, purple where it lowers it. On a live figure
    the image and the letters are kept and updated."""
    limit = np.nanmax(np.abs(W_unary)) or 1.0
    row_gap = 5
    mosaic = template_mosaic(W_unary, ncols, row_gap=row_gap)
    image = kept(ax, ("templates", ncols), lambda: ax.imshow(mosaic, cmap="PuOr_r", interpolation="nearest"))
    image.set_data(mosaic)
    image.set_clim(-limit, limit)
    height, width = LETTER_SHAPE

    def names():
        texts = []
        for j in range(len(W_unary)):
            row, col = divmod(j, ncols)
            texts.append(ax.text(col * (width + 1) + width / 2 - 0.5, row * (height + row_gap) + row_gap - 0.8,
                                 letters[j], ha="center", va="bottom", fontsize=10))
        return tuple(texts)
    kept(ax, ("names", ncols, letters[:len(W_unary)]), names)
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_title(_("letter templates W_unary[j] (16 × 8)"))


def plot_chain_graph(ax, x, y):
    """The chain as an HMM-like graph: emissions (blue) from each letter image x_t to its label
    y_t, transitions (green) from y_{t-1} to y_t."""
    r = len(x)
    for t in range(r):
        ax.imshow(x[t].reshape(LETTER_SHAPE), cmap="Greys", vmin=0, vmax=1,
                  extent=(2 * t - 0.4, 2 * t + 0.4, -1.8, -0.2), interpolation="nearest")
        ax.plot([2 * t, 2 * t], [0.05, 0.75], color=BLUE)
        ax.add_patch(Circle((2 * t, 1.0), 0.28, facecolor="white", edgecolor="black", lw=1.5))
        ax.text(2 * t, 1.0, ALPHABET[int(y[t])], ha="center", va="center", fontsize=15)
        if t > 0:
            ax.annotate("", xy=(2 * t - 0.3, 1.0), xytext=(2 * t - 1.7, 1.0),
                        arrowprops=dict(arrowstyle="->", color=GREEN, lw=2.5))
    ax.text(-1.2, 1.0, "y", fontsize=14, va="center", ha="right")
    ax.text(-1.2, -1.0, "x", fontsize=14, va="center", ha="right")
    ax.set_xlim(-1.5, 2 * r - 1)
    ax.set_ylim(-2.0, 1.5)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(_("emissions $f_e(x_t, y_t)$ (blue), transitions $f_t(y_{t-1}, y_t)$ (green)\n"
                 "transitions: q × q weights (here), or Potts: one for 'same letter', one for 'change'"),
                 fontsize=11)


# --- the registered figures of the slides ---------------------------------------------------

@checked(index=count(0))
def example_word(index=None):
    """(x, y) of OCR word `index`; by default the first test word (folds other than 1 and 2)
    with at least 6 letters."""
    words, labels, folds = _ocr_letters()
    test = [i for i in range(len(words)) if folds[i] not in (TRAIN_FOLD, VALIDATION_FOLD)]
    if index is None:
        index = next(i for i in test if len(words[i]) >= 6)
    return words[index], labels[index]


@slide_figure("V1_handwritten_word", slide="Prédiction de sorties structurées")
@checked(index=count(0))
def handwritten_word_figure(index=None):
    """A handwritten word of the OCR letters, as letter images and as the n x r pixel matrix."""
    x, y = example_word(index)
    fig, (ax_word, ax_matrix) = new_figure(ncols=2, width=5.0, height=3.6)
    plot_word(ax_word, x, y, title=_("the word '{word}', r = {r} letters").format(
        word=letters_to_string(y), r=len(x)))
    plot_word_matrix(ax_matrix, x)
    return fig


@checked(C=positive())
def cached_weights(C=None, transitions=True):
    """(ChainModel, w, C) of a cached OCR model (`load_ocr_chain_models`): the given C, or the
    C chosen on the validation fold (best chain validation accuracy)."""
    models = load_ocr_chain_models()
    if C is None:
        index = validated_index(models)
    else:
        C = check_positive(C, "C")
        index = int(np.argmin(np.abs(np.log(models["C"]) - np.log(C))))
    w = models["w_chain" if transitions else "w_letters"][index]
    return chain_model_of(models, transitions), w, float(models["C"][index])


@slide_figure("V4_viterbi_tables", slide="Solution par programmation dynamique")
@checked(index=count(0), C=positive())
def viterbi_tables_figure(index=None, C=None):
    """Viterbi's tables M and I for one handwritten word, with the back-tracked path framed."""
    x, y = example_word(index)
    model, w, C = cached_weights(C)
    y_hat, M, I = viterbi(*model.chain_scores(x, w), return_tables=True)
    fig, (ax_M, ax_I) = new_figure(ncols=2, width=4.6, height=8.0)
    plot_tables(ax_M, ax_I, M, I, y_hat)
    fig.suptitle(_("Viterbi on '{y}' (chain SSVM, "
                 "C = {C:g}): decoded '{y_hat}'").format(
                     y=letters_to_string(y), C=C, y_hat=letters_to_string(y_hat)))
    return fig


@slide_figure("S21_chain_emissions_transitions", slide="Prédiction de séquence")
@checked(index=count(0))
def chain_graph_figure(index=None):
    """The chain of a handwritten word: emissions from letter images, transitions between
    letters."""
    x, y = example_word(index)
    fig, ax = new_figure(width=1.1 * len(x) + 1.5, height=3.4)
    plot_chain_graph(ax, x, y)
    return fig


@slide_figure("V6_letter_templates", slide="Modélisation pour reconnaissance des mots manuscrits")
@checked(C=positive())
def letter_templates_figure(C=None):
    """The type-1 weights learned by the chain SSVM on the OCR letters: one 16 x 8 template per
    letter."""
    model, w, C = cached_weights(C)
    fig, ax = new_figure(width=11, height=2.8)
    plot_templates(ax, model.unpack(w)[0])
    ax.set_title(_("letter templates W_unary[j] learned by the chain SSVM (C = {C:g})").format(C=C))
    return fig


@slide_figure("V6_transition_weights",
              slide="Modélisation pour reconnaissance des mots manuscrits")
@checked(C=positive())
def transition_weights_figure(C=None):
    """The type-2 weights learned by the chain SSVM on the OCR letters (26 x 26)."""
    model, w, C = cached_weights(C)
    fig, ax = new_figure(width=6.8, height=5.8)
    plot_transitions(ax, model.unpack(w)[1])
    ax.set_title(_("transition weights W_pair[a, b] (C = {C:g})").format(C=C))
    return fig


def plot_accuracy_vs_C(ax, models, C=None):
    """Letter accuracy of the cached chain and per-letter models against C on the training fold
    (thin, dashed) and on the validation fold (thick: where C is chosen); with C, the test folds'
    accuracy at that C only (stars), since the test folds take no part in the choice."""
    for kind, colour, marker, label in (("chain", BLUE, "o", _("chain (Viterbi)")),
                                        ("letters", VERMILLION, "s", _("each letter alone"))):
        ax.semilogx(models["C"], 100 * models[f"validation_accuracy_{kind}"], marker + "-", color=colour,
                    label=_("{label}, validation").format(label=label))
        ax.semilogx(models["C"], 100 * models[f"train_accuracy_{kind}"], marker + "--", color=colour,
                    lw=1, mfc="none", label=_("{label}, training").format(label=label))
        if C is not None:
            index = validated_index(models, kind)
            ax.plot(models["C"][index], 100 * models[f"test_accuracy_{kind}"][index], "*", ms=16,
                    color=colour, mec="black", label=_("{label}, test (at its chosen C)").format(
                        label=label))
    if C is not None:
        ax.axvline(C, color=GREY, lw=1.5)
    ax.set_xlabel(_("C (models trained to their optimum)"))
    ax.set_ylabel(_("letter accuracy (%)"))
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncols=2, fontsize=9)


@checked(C=positive(), n_words=count(1, 20))
def words_fixed_by_the_chain(C=None, n_words=4):
    """The first distinct test words (`distinct_test_words`) that the per-letter model misreads
    and the chain reads right: a list of (x, y, letters' reading, chain's reading)."""
    words, labels, _ = _ocr_letters()
    chain, w_chain, _ = cached_weights(C)
    letters, w_letters, _ = cached_weights(C, transitions=False)
    X = [words[i] for i in distinct_test_words()]
    Y = [labels[i] for i in distinct_test_words()]
    found = [(x, y, y_letters, y_chain) for x, y, y_letters, y_chain
             in zip(X, Y, letters.batch_inference(X, w_letters), chain.batch_inference(X, w_chain))
             if np.array_equal(y_chain, y) and not np.array_equal(y_letters, y)]
    return found[:n_words]


@slide_figure("V6_chain_vs_letters", slide="Modélisation pour reconnaissance des mots manuscrits")
@checked(C=positive(), n_words=count(1, 20))
def chain_vs_letters_figure(C=None, n_words=4):
    """Test words read letter by letter (left) and by the chain with Viterbi (right)."""
    found = words_fixed_by_the_chain(C, n_words)
    fig, axes = new_figure(ncols=2, nrows=len(found), width=4.8, height=1.7)
    for row, (x, y, y_letters, y_chain) in enumerate(found):
        plot_word(axes[2 * row], x, y, y_letters, title=_("each letter alone") if row == 0 else None)
        plot_word(axes[2 * row + 1], x, y, y_chain, title=_("chain + Viterbi") if row == 0 else None)
    return fig


def draw_chain_model(axes, C, models=None):
    """Templates and transition weights of the cached chain model at C (one of models["C"]),
    titled with its letter accuracy on the validation fold, where C is chosen, and the
    per-letter model's at the same C under the templates (the test folds are read once, at the chosen C, in the
    notebook)."""
    models = load_ocr_chain_models() if models is None else models
    index = list(models["C"]).index(C)
    W_unary, W_pair = chain_model_of(models).unpack(models["w_chain"][index])
    ax_templates, ax_pair = axes
    plot_templates(ax_templates, W_unary, ncols=7)
    plot_transitions(ax_pair, W_pair, label_every=2)
    chain, alone = models["validation_accuracy_chain"][index], models["validation_accuracy_letters"][index]
    chosen = _(" (chosen)") if index == validated_index(models) else ""
    ax_templates.set_title(_("C = {C:g}{chosen}: templates\nvalidation accuracy {chain:.1f} %").format(
        C=C, chosen=chosen, chain=100 * chain),
                           fontsize=12)
    ax_templates.set_xlabel(_("each letter alone: {alone:.1f} %").format(alone=100 * alone), fontsize=12)


@checked(Cs=Numbers(None, each=positive()))
def C_extremes_figure(Cs=None):
    """The printed stand-in of the C demo: templates and transition weights of the cached chain
    models at a few values of C (default: the smallest, the one chosen on validation and the
    largest), one row each, with their accuracy on the validation fold."""
    models = load_ocr_chain_models()
    Cs = [models["C"][0], models["C"][validated_index(models)], models["C"][-1]] if Cs is None else Cs
    fig, axes = new_figure(ncols=2, nrows=len(Cs), width=5.2, height=4.4)
    for row, C in enumerate(Cs):
        draw_chain_model(axes[2 * row: 2 * row + 2], cached_weights(C)[2], models)
    return fig


def draw_reading(ax, word=0, scale=1.0, C=None):
    """Test word number `word` (of `distinct_test_words`) read by Viterbi with the learned
    transition weights multiplied by `scale`: 0 reads each letter alone, 1 is the chain SSVM."""
    words, labels = _ocr_letters()[:2]
    choices = distinct_test_words()
    word = check_int(word, "word", 0)
    if word >= len(choices):
        raise ValueError(_("word must be below {n_choices} (the distinct test words); got {word}.").format(
                             n_choices=len(choices), word=word))
    scale = check_non_negative(scale, "scale")
    index = choices[word]
    x, y = words[index], labels[index]
    model, w, C = cached_weights(C)
    unary, pairwise = model.chain_scores(x, w)
    y_hat = viterbi(unary, scale * pairwise)
    right = int(np.sum(y_hat == y))
    plot_word(ax, x, y, y_hat, title=_("transitions × {scale:g}").format(scale=scale))
    ax.set_xlabel(_("{right} of {n} letters right").format(right=right, n=len(y)))
