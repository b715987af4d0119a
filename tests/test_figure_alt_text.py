"""A static figure reaches every reader: JupyterLab and Voila show its HTML form, an <img>
whose alt text names its titles and labels with the TeX read out as text (both front ends
ignore an image output's metadata)."""

import base64
import html
import re
from pathlib import Path

import nbformat
import pytest

from course_lib.plotting.style import describe, new_figure, plain_text


def test_a_figure_shows_itself_as_an_image_with_alt_text():
    fig, ax = new_figure()
    ax.set_title(r"soft margin, $C = 1$: $\xi > 1$ for 4 points")
    ax.set_xlabel(r"$\mathbf{w}^\top\mathbf{x}^t + w_0$")
    image = fig._repr_html_()
    assert image.startswith("<img ") and 'class="course-static-figure"' in image
    alt = html.unescape(re.search(r'alt="([^"]*)"', image).group(1))
    assert alt == "soft margin, C = 1: ξ > 1 for 4 points; wᵀxᵗ + w₀"
    assert "$" not in alt and "\\" not in alt
    png = re.search(r'src="data:image/png;base64,([^"]+)"', image).group(1)
    assert base64.b64decode(png)[:4] == b"\x89PNG" and "width: 528px" in image


def test_tex_is_read_out_as_the_characters_it_draws():
    assert plain_text(r"margin $\rho = 1/\|\mathbf{w}\|$") == "margin ρ = 1/‖w‖"
    assert plain_text(r"$\lambda = 10^{-3}$, $\frac{1}{2}\|w\|^2$") == "λ = 10⁻³, 1/2‖w‖²"
    assert plain_text(r"$K(\mathbf{x}, \mathbf{x}_i)$, $w_{object}$") == "K(x, xᵢ), w_object"
    assert plain_text(r"$w_{\mathrm{obj}} = 1$, $L^{\text{hinge}}$, $\operatorname{sign}(h)$") == \
        "w_obj = 1, L^hinge, sign(h)"  # an upright name in a script: the name, no brace left
    assert plain_text("no formula: 3 $ and text") == "no formula: 3 $ and text"


def test_alt_text_of_a_grid_joins_its_panels():
    fig, axes = new_figure(ncols=2)
    axes[0].set_title(r"$C = 0.01$")
    axes[1].set_title(r"$\sigma = 2$")
    fig.suptitle("two settings")
    assert describe(fig) == "two settings | C = 0.01 | σ = 2"


def test_an_accent_stays_on_its_letter():
    assert plain_text(r"$\Delta(y, \hat y)$ = 0.60") == "Δ(y, ŷ) = 0.60"
    assert plain_text(r"$\hat{\mathbf{y}}_i$, $\bar{y}$") == "ŷᵢ, ȳ"


def test_a_script_with_no_unicode_form_reads_where_it_ends():
    """A sub- or superscript that Unicode cannot write stays as written, in parentheses when it
    is more than a name; an operator over such a subscript reads "min over ... of"."""
    assert plain_text(r"excess over $\min_{\|u\|\leq B} L^{g-hinge}_D(u)$") == \
        "excess over min over ‖u‖ ≤ B of L^(g-hinge)_D(u)"
    assert plain_text(r"binary: argmax$_{y=\pm 1}\langle w, yx\rangle$ = sign$\langle w, x\rangle$") == \
        "binary: argmax over y = ±1 of ⟨w, yx⟩ = sign⟨w, x⟩"
    assert plain_text(r"regions argmax$_y \langle w_y, x\rangle$") == "regions argmax over y of ⟨w_y, x⟩"
    assert plain_text(r"features $\Psi_{i,j,1}$, $E_{percp} = 2$") == "features Ψ_(i,j,1), E_percp = 2"
    assert plain_text(r"$\max_k$ plane, $\sum_t \alpha^t$, max_iter=5") == "maxₖ plane, Σₜ αᵗ, max_iter=5"


# TeX left raw ($, \, braces) or a script whose end cannot be seen: ^ or _ followed by something
# other than a name ending the script (w_y, E_percp) or a parenthesised script (L^(g-hinge)).
MANGLED = re.compile(r"[$\\{}]|[\^_]\(\)|[\^_](?!\(|\w+(?![-‖≤≥=+⟨]))")


def stored_alt_texts():
    """Every alt text in the stored outputs of the English chapters and solutions (the figures
    ending a cell; a demo's figures go through the same describe), with where it is."""
    root = Path(__file__).resolve().parent.parent / "notebooks"
    for path in sorted(root.glob("[0-9]*.ipynb")) + sorted((root / "solutions").glob("[0-9]*.ipynb")):
        for index, cell in enumerate(nbformat.read(path, as_version=4).cells):
            for output in cell.get("outputs", []):
                for alt in re.findall(r'alt="([^"]*)"', str(output.get("data", {}).get("text/html", ""))):
                    yield f"{path.name} cell {index}", html.unescape(alt)


def test_the_mangled_class_is_caught():
    assert MANGLED.search("excess over min_‖u‖≤ B L^g-hinge_D(u)")
    assert MANGLED.search("w_()obj = 1")  # an empty script: a brace was lost
    assert MANGLED.search(r"$\xi$ > 1") and MANGLED.search("x^{2}") and MANGLED.search("argmax_y⟨w, x⟩")
    assert not MANGLED.search("min over ‖u‖ ≤ B of L^(g-hinge)_D(u); w_object = 1; ⟨w_y, x⟩; W_pair[a, b]")


def test_every_stored_figure_reads_its_math_as_text():
    alts = list(stored_alt_texts())
    assert len(alts) > 50, "the chapters' figures should carry alt texts"
    bad = [f"{where}: {alt}" for where, alt in alts if MANGLED.search(alt)]
    assert bad == [], "\n".join(bad)


# --- what the figures and the demos write: math as math (TeX or Unicode), never ASCII ------------

import ast  # noqa: E402
import sys  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_exercise_texts import PRINTED_ALLOWED, ascii_math  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DRAWING_MODULES = sorted((ROOT / "course_lib" / "plotting").glob("*.py")) + sorted((ROOT / "course_lib" / "widgets").glob("*.py"))
ARROW = re.compile(r"<-|->")  # ← →


def drawn_words(path):
    """{line: text} of the translatable words of a figure or demo module (titles, labels, legends,
    controls): its _() and N_() strings, the error messages it raises left out (those name the
    code's parameters, `sigma >= 0`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    raised = {id(node) for statement in ast.walk(tree) if isinstance(statement, ast.Raise) for node in ast.walk(statement)}
    return {node.lineno: node.args[0].value for node in ast.walk(tree)
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("_", "N_") and id(node) not in raised
            and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)}


def test_the_drawn_words_pattern_finds_ascii_math():
    for text in ("least squares: w = ({w1:.2f}, {w2:.2f}), w0 = {w0:.2f}", "naive (a <- a + w every example)"):
        assert ascii_math(text) or ARROW.search(text), text


@pytest.mark.parametrize("path", DRAWING_MODULES, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_figures_and_demos_write_math_as_math(path):
    found = {f"{path.name}:{line}": text for line, text in drawn_words(path).items()
             if ascii_math(PRINTED_ALLOWED.sub(" ", re.sub(r"<[^>]*>", " ", text))) or ARROW.search(text)}
    assert not found, found


TEXT_METHODS = {"set_title": 0, "set_xlabel": 0, "set_ylabel": 0, "suptitle": 0, "text": 2, "annotate": 0}
WORD = re.compile(r"[A-Za-z]{2,}")


def untranslated_words(path):
    """{line: text} of the words a figure or demo module draws without _(): a literal given to
    set_title, set_xlabel, set_ylabel, suptitle, text or annotate, as label= or title=, or as
    the `title` or `label` parameter of a function of the module. Math alone ($...$) and
    symbols are not words."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    own = {node.name: [a.arg for a in node.args.args] for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
    found = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
        if name == "slide_figure":  # the catalog of figures/ (figures/README.md), in English
            continue
        given = [value for keyword in node.keywords if keyword.arg in ("label", "title") for value in [keyword.value]]
        if name in TEXT_METHODS and len(node.args) > TEXT_METHODS[name]:
            given.append(node.args[TEXT_METHODS[name]])
        for index, parameter in enumerate(own.get(name, [])):
            if parameter in ("title", "label") and index < len(node.args):
                given.append(node.args[index])
        for value in given:
            if isinstance(value, ast.Constant) and isinstance(value.value, str) \
                    and WORD.search(re.sub(r"\$[^$]*\$", " ", value.value)):
                found[value.lineno] = value.value
    return found


@pytest.mark.parametrize("path", DRAWING_MODULES, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_figures_and_demos_draw_no_word_the_french_edition_cannot_translate(path):
    """Chapter 02's two margins were titled "a sub-optimal margin" and "the maximal margin" in the
    French edition too: the titles were plain literals, which no catalog reaches."""
    assert untranslated_words(path) == {}
