"""Every figure of the kernel chapters (K5-K21) renders, and each stands for a slide of the seed."""

import pytest

from course_lib.figures import collect
from course_lib.plotting.style import png_bytes

SEED_SLIDES = {
    "Géométrie des discriminants linéaires",
    "Maximisation des marges géométriques",
    "Marge sous-optimale",
    "Marge maximale",
    "Exemple avec le multiplicateur de Lagrange",
    "Multiplicateurs de Lagrange avec inégalités",
    "Illustration des vecteurs de support",
    "Marges douces",
    "Problème du XOR",
    "Fonctions de base",
    "Projection avec une fonction de base",
    "SVM à noyau",
    "Noyau polynomial",
    "Paramètres des SVM",
    "Comparaison de différents critères d'erreurs",
    "Fonction d'erreur pour descente du gradient",
    "Fonctions noyau et distances",
    "Matrice de Gram",
}
MODULES = ("course_lib.plotting.margins", "course_lib.plotting.kernels")
SPECS = {stem: spec for stem, spec in collect().items() if spec.make.__module__ in MODULES}


def test_the_five_overlapping_figures_and_the_others_are_registered():
    for stem in (
        "K16_linear_svm",
        "K16_polynomial_kernel",
        "K16_gaussian_kernel",
        "K16_gaussian_large_sigma",
        "K16_gaussian_small_sigma",
        "K18_loss_criteria",
        "K21_gram_matrix",
        "K17_grid_search",
        "K5_geometric_margin",
        "K5_suboptimal_margin",
        "K5_maximal_margin",
        "K6_lagrange_example",
        "K8_support_vectors",
        "K9_soft_margin",
        "K10_xor_3d",
        "K11_projection_1d_2d",
    ):
        assert stem in SPECS


@pytest.mark.parametrize("stem", sorted(SPECS))
def test_figure_renders(stem):
    spec = SPECS[stem]
    assert spec.slide in SEED_SLIDES or spec.slide.startswith("Données avec recouplement")
    png = png_bytes(spec.make(**spec.kwargs), dpi=40)
    assert png[:4] == b"\x89PNG" and len(png) > 2000


def test_a_kernel_is_named_in_words_with_the_slides_symbol():
    """What chapter 05 prints for a kernel: "Gaussian kernel, σ = 0.5", never "kernel=gaussian, sigma=0.5"."""
    from course_lib.plotting.kernels import kernel_label
    assert kernel_label("gaussian", sigma=0.5) == "Gaussian kernel, σ = 0.5"
    assert kernel_label("polynomial", sigma=0.5, degree=3) == "polynomial kernel, q = 3"
    assert kernel_label("linear", degree=3) == "linear kernel" and kernel_label("sigmoid") == "sigmoid kernel"
    with pytest.raises(ValueError, match="kernel"):
        kernel_label("rbf")
