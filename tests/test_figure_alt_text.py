"""A static figure reaches every reader: JupyterLab and Voila show its HTML form, an <img>
whose alt text names its titles and labels with the TeX read out as text (both front ends
ignore an image output's metadata)."""

import base64
import html
import re

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
