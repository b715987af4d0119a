"""One look for every figure: large fonts, thick lines, a colour-blind-safe palette (Okabe-Ito),
white background so dark themes keep the axes visible."""

import base64
import html
import io
import re
import struct
import sys
import unicodedata
import zlib
from concurrent.futures import ThreadPoolExecutor

import matplotlib
import numpy as np
from matplotlib.figure import Figure
from matplotlib.text import Text
from PIL import Image

from course_lib.i18n import _
from course_lib.plotting.arguments import Between, Panels, checked, count, positive

# Okabe & Ito's palette, safe for the common colour-vision deficiencies.
BLUE, VERMILLION, GREEN, ORANGE = "#0072B2", "#D55E00", "#009E73", "#E69F00"
PURPLE, SKY, YELLOW, BLACK, GREY = "#CC79A7", "#56B4E9", "#F0E442", "#000000", "#7F7F7F"
PALETTE = [BLUE, VERMILLION, GREEN, ORANGE, PURPLE, SKY, YELLOW, BLACK]
CLASS_STYLE = {
    +1: dict(color=BLUE, marker="o", label="$r=+1$"),
    -1: dict(color=VERMILLION, marker="s", label="$r=-1$"),
}

RC = {
    "font.size": 13,
    "axes.titlesize": 14,
    "axes.labelsize": 13,
    "legend.fontsize": 11,
    "lines.linewidth": 2.5,
    "lines.markersize": 8,
    "axes.prop_cycle": matplotlib.cycler(color=PALETTE),
    "figure.facecolor": "white",
    "axes.facecolor": "white",
    "savefig.facecolor": "white",
    "svg.hashsalt": "course_lib",
    "image.cmap": "cividis",
}


matplotlib.rcParams.update(RC)


# A figure that draws a fitted SVM fits it to this KKT tolerance, not the library's default 1e-3:
# at 1e-3 the solution (and a margin printed from it) can move with the machine's rounding.
FIGURE_TOL = 1e-9
SHOWN_DPI = 96  # CSS pixels per figure inch in a notebook: a matplotlib point is a CSS point
STATIC_PIXEL_RATIO = 1.5  # image pixels per CSS pixel of a figure ending a cell (sharp, not heavy)
MIN_TEXT_PT = 12  # no text a notebook shows in a figure is smaller (16 CSS px at natural size)
# The largest figure ending a cell, in inches: class mode shows it up to the window's width and
# 96 % of its height, so on a 1366x768 projector (body text 18 px) and a 1920x1080 one (22 px)
# 12 pt text is at least the body text's size. A larger figure is shown shrunk to fit.
SHOWN_BOX = (12.1, 6.8)


class CourseFigure(Figure):
    """A matplotlib Figure that shows itself as a PNG when it ends a notebook cell,
    without pyplot (so a figure is never displayed twice): rendered at 1.5 image pixels per
    CSS pixel and shown at SHOWN_DPI, so its text is as large on screen as its point size;
    no text under MIN_TEXT_PT, the figure within SHOWN_BOX, and the share of its width its
    smallest text takes in the <img>'s data-text-share (see text_share).

    JupyterLab and Voila show it as HTML, an <img> with alt text (both ignore an image output's
    metadata, so an alt there reaches no reader). The PNG is in the HTML only, not a second
    time as image/png: a stored notebook carries each figure once."""

    def _repr_html_(self):
        inches = self.get_size_inches()
        shrink = min(1.0, SHOWN_BOX[0] / inches[0], SHOWN_BOX[1] / inches[1])
        if shrink < 1:
            self.set_size_inches(inches * shrink)  # its text in points keeps its size
        self.draw_without_rendering()  # the tick labels get their text
        share = text_share(self, raise_small_text(self))
        wrap_titles(self)
        png = png_bytes(self, dpi=SHOWN_DPI * STATIC_PIXEL_RATIO)
        width, alt = round(self.get_figwidth() * SHOWN_DPI), describe(self)  # height follows
        source = base64.b64encode(png).decode("ascii")
        return (f'<img class="course-static-figure" alt="{html.escape(alt, quote=True)}" '
                f'data-text-share="{share:.5f}" '
                f'style="width: {width}px; max-width: 100%; height: auto" src="data:image/png;base64,{source}">')


@checked(minimum=positive(100))
def raise_small_text(fig, minimum=MIN_TEXT_PT):
    """Bring every text of `fig` smaller than `minimum` points up to it (tick labels, legends,
    annotations; a tick label still empty before the figure is drawn too, so the labels drawn
    from it are as large): readable from the back of a room. Returns the smallest size of the
    texts shown (points)."""
    sizes = []
    for text in fig.findobj(Text):
        if text.get_fontsize() < minimum:
            text.set_fontsize(minimum)
        if text.get_text() and text.get_visible():
            sizes.append(text.get_fontsize())
    return min(sizes, default=minimum)


def wrap_titles(fig):
    """Break each panel's title wider than its panel into lines that fit it: between phrases
    (after a comma or colon) where it can, else between words, never inside $...$ (a title a
    smaller figure or larger text made too wide would run into its neighbour's or out of the
    figure)."""
    renderer = fig._get_renderer()
    for ax in fig.axes:
        title = ax.title
        if not (ax.get_visible() and title.get_text()):
            continue
        room = ax.get_window_extent(renderer).width

        def fits(text):
            title.set_text(text)
            return title.get_window_extent(renderer).width <= room

        text = title.get_text()
        if fits(text):
            continue
        lines = []
        for line in text.split("\n"):
            words = re.findall(r"(?:\$[^$]*\$|\S)+", line)
            phrases = " ".join(words).replace(", ", ",\n").replace(": ", ":\n").split("\n")
            for phrase in phrases:
                for piece in ([phrase] if fits(phrase) else phrase.split(" ")):
                    if lines and lines[-1][1] and fits(f"{lines[-1][0]} {piece}"):
                        lines[-1][0] = f"{lines[-1][0]} {piece}"
                    else:
                        lines.append([piece, True])
            if lines:
                lines[-1][1] = False  # a line the title broke itself is kept
        title.set_text("\n".join(line for line, open_ in lines))


def text_share(fig, smallest_pt):
    """The height of a figure's smallest text over the figure's width, smallest_pt / 72 / width
    (inches): shown `W` CSS pixels wide, its smallest text is `text_share * W` pixels high. The
    page reads it (an <img>'s data-text-share) to keep figure text at least its body text's size."""
    return smallest_pt / 72 / fig.get_figwidth()


def describe(fig):
    """A short text description of a figure (its titles and axis labels, TeX read out as
    text), for alt text."""
    parts = [fig._suptitle.get_text()] if fig._suptitle is not None else []
    for ax in fig.axes:
        if ax.get_visible():
            labels = [ax.get_title(loc) for loc in ("left", "center", "right")]
            parts.append("; ".join(label for label in labels + [ax.get_xlabel(), ax.get_ylabel()] if label))
    return " ".join(" | ".join(plain_text(part) for part in parts if part).split()) or "figure"


# TeX commands of the figures' labels as the characters they draw.
TEX_SYMBOLS = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "Delta": "Δ", "epsilon": "ε", "eta": "η",
    "theta": "θ", "lambda": "λ", "mu": "μ", "xi": "ξ", "pi": "π", "rho": "ρ", "sigma": "σ",
    "tau": "τ", "phi": "φ", "Phi": "Φ", "psi": "ψ", "Psi": "Ψ", "omega": "ω", "ell": "ℓ",
    "nabla": "∇", "sum": "Σ", "leq": "≤", "le": "≤", "geq": "≥", "ge": "≥", "neq": "≠",
    "times": "×", "cdot": "·", "pm": "±", "propto": "∝", "top": "ᵀ", "langle": "⟨", "rangle": "⟩",
    "ldots": "…", "dots": "…", "infty": "∞", "in": "∈", "to": "→", "rightarrow": "→", "|": "‖",
    "min": "min", "max": "max", "log": "log", "exp": "exp", "sqrt": "√", "approx": "≈",
    ",": " ", ";": " ", " ": " ",
}
SUPERSCRIPTS = str.maketrans("0123456789+-tTnrsikmj", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻ᵗᵀⁿʳˢⁱᵏᵐʲ")
SUBSCRIPTS = str.maketrans("0123456789+-ijtknmsrxeoaphl", "₀₁₂₃₄₅₆₇₈₉₊₋ᵢⱼₜₖₙₘₛᵣₓₑₒₐₚₕₗ")


ACCENTS = {"hat": "\u0302", "bar": "\u0304", "tilde": "\u0303"}  # combining accents


def plain_text(text):
    """A label with TeX ($\\mathbf{w}^\\top x$, $\\|w\\|$, $\\xi > 1$) as the text it draws
    (wᵀx, ‖w‖, ξ > 1), for alt text and screen readers."""
    def math(match):
        tex = match.group(1)
        tex = re.sub(r"\\(?:mathbf|mathrm|mathcal|boldsymbol|text|operatorname)\s*", "", tex)
        tex = re.sub(r"([\^_])\{\{([^{}]*)\}\}", r"\1{\2}", tex)  # w_{\mathrm{obj}}: w_{obj}
        # ŷ, ȳ: the accent kept on its letter (the braces around it go at the end)
        tex = re.sub(r"\\(hat|bar|tilde)\s*(\{*)(\w)", lambda m: m.group(2) + m.group(3) + ACCENTS[m.group(1)], tex)
        tex = re.sub(r"\\frac\{([^{}]*)\}\{([^{}]*)\}", lambda m: "/".join(
            part if len(part) == 1 else f"({part})" for part in m.groups()), tex)
        tex = re.sub(r"\\sqrt\{([^{}]*)\}", lambda m: "√" + (
            m.group(1) if len(m.group(1)) == 1 else f"({m.group(1)})"), tex)
        tex = re.sub(r"\\([a-zA-Z]+|.)", lambda m: TEX_SYMBOLS.get(m.group(1), m.group(1)), tex)
        scripts = {"^": SUPERSCRIPTS, "_": SUBSCRIPTS}
        tex = re.sub(r"([\^_])\{([^{}]*)\}|([\^_])(.)", lambda m: _script(
            m.group(2) if m.group(1) else m.group(4), m.group(1) or m.group(3), scripts), tex)
        tex = tex.replace("{", "").replace("}", "").replace("⟨ ", "⟨").replace(" ⟩", "⟩")
        tex = re.sub(r"\s*([=<>≤≥≠≈∈])\s*", r" \1 ", tex)  # a relation spaced as TeX draws it
        tex = re.sub(r"(^|[=(,] )± (?=\d)", r"\1±", tex)  # a sign, not a sum: y = ±1
        return unicodedata.normalize("NFC", tex)  # ŷ as one character where Unicode has it
    text = re.sub(r"\$([^$]*)\$", math, text)
    # An operator whose subscript has no Unicode form, as it is read: min over ‖u‖ ≤ B of L(u)
    text = re.sub(r"\b(argmax|argmin|max|min|Σ)_(?:\(([^()]*)\)|(\w)(?!\w))\s*", lambda m: _(
        # TRANSLATORS: an operator read out with its subscript, as in "min over ‖u‖ ≤ B of L(u)"
        "{operator} over {subscript} of ").format(operator=m.group(1), subscript=m.group(2) or m.group(3)), text)
    return re.sub(r"(?<=\S) {2,}", " ", text)


def _script(text, mark, tables):
    """A super- (mark ^) or subscript (_) in Unicode when every character has one (a star
    stays a star: x*), else as written: a name as is (w_object, w_y), anything else in
    parentheses, so a reader sees where it ends (L^(g-hinge)_D, Ψ_(i,j,1))."""
    converted = text.translate(tables[mark])
    if all(a != b or a in "ᵀ*" for a, b in zip(text, converted)):
        return converted
    text = text.strip()
    return mark + (text if re.fullmatch(r"\w+", text) else f"({text})")


@checked(ncols=count(1, 100), nrows=count(1, 100), width=positive(100), height=positive(100))
def new_figure(ncols=1, nrows=1, width=5.5, height=4.5, **subplot_kw):
    """A Figure (not tied to pyplot, so nothing is displayed twice) and its axes:
    one Axes for a 1 x 1 grid, else a flat array of them."""
    fig = CourseFigure(figsize=(width * ncols, height * nrows), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False, subplot_kw=subplot_kw or None)
    return fig, (axes[0, 0] if axes.size == 1 else axes.ravel())


def figure_for(ax, **size):
    """`(fig, ax)` for a drawing that may be given its axes: a new figure of `size` (the
    arguments of new_figure) when `ax` is None, else `(None, ax)` to draw into the caller's."""
    if ax is None:
        return new_figure(**size)
    panels = size.get("ncols", 1) * size.get("nrows", 1)
    if panels > 1:  # the drawing indexes `axes`: one Axes would fail inside it
        Panels(panels).check("axes", ax, sys._getframe(1).f_code.co_name)
    return None, ax


@checked(dpi=positive(1200))
def png_bytes(fig, dpi=72.0):
    """Render a figure to PNG bytes (a figure ending a cell; the live demos use encode_png)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, pil_kwargs={"compress_level": 1})
    return buffer.getvalue()


def _png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _adler32_combine(first, second, length):
    """The Adler-32 checksum of a + b from those of a (`first`) and b (`second`, `length`
    bytes), as zlib's adler32_combine: the sums are taken modulo 65521."""
    base = 65521
    remainder = length % base
    low = ((first & 0xFFFF) + (second & 0xFFFF) + base - 1) % base
    high = (remainder * (first & 0xFFFF) + (first >> 16) + (second >> 16) + base - remainder) % base
    return low | (high << 16)


def _deflated_rows(rgba, top, bottom, last):
    """Rows top..bottom of the image, each as its filter byte (2, "Up") then its bytes minus
    those of the row above (the first row of the image as is), deflated at zlib's fastest level
    into a raw stream that ends on a byte boundary (Z_FULL_FLUSH: the next part's stream can
    follow it) or finishes the image's stream (`last`). Returns (deflated bytes, Adler-32 of
    the filtered rows, their length)."""
    rows = rgba[max(top - 1, 0):bottom].reshape(bottom - max(top - 1, 0), -1)
    raw = np.empty((bottom - top, 1 + rows.shape[1]), np.uint8)
    raw[:, 0] = 2
    if top == 0:
        raw[0, 1:] = rows[0]
        np.subtract(rows[1:], rows[:-1], out=raw[1:, 1:])
    else:
        np.subtract(rows[1:], rows[:-1], out=raw[:, 1:])
    deflate = zlib.compressobj(1, zlib.DEFLATED, -15)
    data = deflate.compress(raw) + deflate.flush(zlib.Z_FINISH if last else zlib.Z_FULL_FLUSH)
    return data, zlib.adler32(raw), raw.size


_encoder = None  # a thread deflating the image's top half while the caller deflates the rest


def encode_png(rgba):
    """PNG bytes of an (height, width, 4) uint8 image (an Agg canvas's buffer), quickly: RGBA
    as the canvas holds it (dropping the alpha channel cost more than deflating it: after the
    filter an opaque image's alpha bytes are zeros), every row stored as its difference with
    the row above (PNG's "Up" filter, which turns a plot's flat areas into zeros) and deflated
    at zlib's fastest level. The top and bottom halves are filtered and deflated at once on two
    threads (numpy and zlib release Python's lock), their streams joined as one (the first ends
    on a byte boundary, Z_FULL_FLUSH) under the Adler-32 checksum of the whole. Lossless:
    decoding gives the pixels back."""
    global _encoder
    rgba = np.asarray(rgba)
    if rgba.ndim != 3 or rgba.shape[2] != 4 or rgba.dtype != np.uint8:
        raise ValueError(_("rgba must be an (height, width, 4) uint8 array, got {dtype} {shape}").format(
                             dtype=rgba.dtype, shape=rgba.shape))
    height, width = rgba.shape[:2]
    middle = height // 2
    if middle == 0:
        parts = [_deflated_rows(rgba, 0, height, True)]
    else:
        if _encoder is None:
            _encoder = ThreadPoolExecutor(max_workers=1, thread_name_prefix="course-png")
        top = _encoder.submit(_deflated_rows, rgba, 0, middle, False)
        bottom = _deflated_rows(rgba, middle, height, True)
        parts = [top.result(), bottom]
    checksum = parts[0][1]
    for _data, adler, length in parts[1:]:
        checksum = _adler32_combine(checksum, adler, length)
    stream = b"\x78\x01" + b"".join(data for data, _adler, _length in parts) + struct.pack(">I", checksum)
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8 bits, RGBA
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header)
            + _png_chunk(b"IDAT", stream) + _png_chunk(b"IEND", b""))


@checked(dpi=positive(1200))
def save(fig, stem, dpi=SHOWN_DPI * STATIC_PIXEL_RATIO):
    """Save `fig` as stem.png and stem.svg with no timestamps, so regenerating changes no bytes;
    the PNG at the notebooks' resolution (144 dpi: 1.5 pixels per CSS pixel)."""
    fig.savefig(f"{stem}.png", dpi=dpi, metadata={"Software": None})
    fig.savefig(f"{stem}.svg", metadata={"Date": None, "Creator": None})


@checked(pad=Between(0, 100))
def grid_limits(X, pad=0.5):
    """Axis limits around the points of X (n, 2), padded by `pad`."""
    X = np.asarray(X, dtype=float)
    low, high = X.min(axis=0) - pad, X.max(axis=0) + pad
    return (low[0], high[0]), (low[1], high[1])


@checked(size=positive(10_000))
def plot_points(ax, X, r, size=60, edge=True):
    """Scatter binary data with the slides' r in {-1, +1}: blue circles +1, vermillion squares -1."""
    r = np.asarray(r)
    if r.dtype == bool or r.shape != (np.shape(X)[0],) or not np.all(np.isin(r, (-1, 1))):
        raise ValueError(
            _("r must hold one target in {{-1, +1}} per point (for a boolean mask m, pass "
              "np.where(m, 1, -1)); got dtype {dtype} and shape {shape} for {n_points} points.").format(
                dtype=r.dtype, shape=r.shape, n_points=np.shape(X)[0])
        )
    for label, style in CLASS_STYLE.items():
        mask = r == label
        ax.scatter(
            X[mask, 0], X[mask, 1], s=size, color=style["color"], marker=style["marker"],
            label=style["label"], edgecolor="black" if edge else "none", linewidth=0.8, zorder=3,
        )


def plot_line(ax, w, w0, xlim, ylim, **style):
    """Draw the line w.x + w0 = 0 across the box xlim x ylim (nothing if w = 0)."""
    w = np.asarray(w, dtype=float)
    if not np.any(w):
        return None
    if abs(w[1]) >= abs(w[0]):
        xs = np.array(xlim)
        ys = -(w[0] * xs + w0) / w[1]
    else:
        ys = np.array(ylim)
        xs = -(w[1] * ys + w0) / w[0]
    (line,) = ax.plot(xs, ys, **style)
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
    return line


@checked(steps=count(2, 4000))
def evaluate_on_grid(decision_function, xlim, ylim, steps=120):
    """Values of decision_function over a steps x steps grid: returns (xx, yy, values)."""
    xx, yy = np.meshgrid(np.linspace(*xlim, steps), np.linspace(*ylim, steps))
    values = decision_function(np.c_[xx.ravel(), yy.ravel()]).reshape(xx.shape)
    return xx, yy, values


@checked(steps=count(2, 4000))
def plot_decision_regions(ax, decision_function, xlim, ylim, steps=120, margins=True):
    """Shade h(x) >= 0 and h(x) < 0, draw h(x) = 0 solid and, if `margins`, h(x) = +-1 dashed."""
    xx, yy, h = evaluate_on_grid(decision_function, xlim, ylim, steps)
    ax.contourf(xx, yy, h, levels=[-np.inf, 0, np.inf], colors=[VERMILLION, BLUE], alpha=0.12)
    if h.min() < 0 < h.max():
        ax.contour(xx, yy, h, levels=[0], colors=BLACK, linewidths=2.5)
    if margins:
        levels = [lv for lv in (-1, 1) if h.min() < lv < h.max()]
        if levels:
            ax.contour(xx, yy, h, levels=levels, colors=GREY, linewidths=1.8, linestyles="dashed")
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
