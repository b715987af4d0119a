"""Chapter 05's exercise checks: the coding exercises (the Gram matrix and its PSD check) and the
hardened numeric ones. For each: a correct solution passes, typical wrong ones are caught with
the expected message, junk never raises, and a wrong answer never shows the answer."""

import numpy as np
import pytest
from exercise_testing import (
    assert_caught,
    assert_junk_never_raises,
    assert_no_answer_leak,
    assert_passes,
    number_strings,
)

from course_lib import kernels
from course_lib.exercises import kernels as ex


def gram_matrix(X, kernel, sigma, degree):
    """An independent solution: a double loop over the slides' formulas."""
    X = np.asarray(X, dtype=float)
    formulas = {
        "linear": lambda x, y: x @ y,
        "polynomial": lambda x, y: (x @ y + 1.0) ** degree,
        "gaussian": lambda x, y: np.exp(-np.sum((x - y) ** 2) / sigma**2),
        "sigmoid": lambda x, y: np.tanh(2.0 * x @ y + 1.0),
    }
    k = formulas[kernel]
    return np.array([[k(x, y) for y in X] for x in X])


def is_psd(G):
    smallest, largest = np.linalg.eigvalsh(G)[[0, -1]]  # increasing order, for a symmetric G
    scale = max(1.0, abs(smallest), abs(largest))     # rounding is relative to the largest |eigenvalue|
    return bool(smallest >= -1e-10 * scale)


@pytest.mark.parametrize("seed", range(10))
def test_the_cases_cover_every_kernel_and_both_verdicts(seed):
    rng = np.random.default_rng(seed)
    assert {case["kernel"] for case in ex._gram_cases(rng)} == set(kernels.KERNELS)
    cases = ex._psd_cases(rng)
    verdicts = [ex._reference_is_psd(case["G"]) for case in cases]
    assert 3 <= sum(verdicts) <= len(verdicts) - 3
    # the rank-2 matrices A A^T are PSD although rounding may give eigenvalues of -1e-16
    assert all(ex._reference_is_psd(case["G"]) for case in cases[8::2][:3])


def test_gram_check_accepts_a_correct_solution_and_a_replayed_seed_does_not_count():
    assert_passes(ex.check_gram, gram_matrix)
    assert "without `seed=`" in repr(ex.check_gram(gram_matrix, seed=7))


@pytest.mark.parametrize(
    "wrong, message",
    [
        (lambda X, kernel, sigma, degree: -gram_matrix(X, kernel, sigma, degree), "sign is flipped"),
        (  # the factor 2 of other conventions
            lambda X, kernel, sigma, degree: gram_matrix(X, kernel, sigma * np.sqrt(2), degree)
            if kernel == "gaussian" else gram_matrix(X, kernel, sigma, degree),
            "gaussian",
        ),
        (  # a wrong index: K(x^t, x^t) everywhere on row t
            lambda X, kernel, sigma, degree: np.repeat(
                np.diag(gram_matrix(X, kernel, sigma, degree))[:, None], len(X), axis=1),
            "differ",
        ),
        (lambda X, kernel, sigma, degree: gram_matrix(X, kernel, sigma, degree)[:-1], "shape"),
        (  # the library's answer, which the exercise forbids
            lambda X, kernel, sigma, degree: kernels.gram(
                X, kernel, **kernels.kernel_params(kernel, sigma, degree)),
            "write it yourself",
        ),
        (  # a library kernel function called directly
            lambda X, kernel, sigma, degree: kernels.gaussian(X, X, sigma)
            if kernel == "gaussian" else gram_matrix(X, kernel, sigma, degree),
            "write it yourself",
        ),
        (kernels.gram, "write it yourself"),
    ],
)
def test_gram_check_catches_wrong_solutions(wrong, message):
    assert_caught(ex.check_gram, wrong, message)


def test_psd_check():
    assert_passes(ex.check_is_psd, is_psd)
    assert_caught(ex.check_is_psd, lambda G: bool(np.linalg.eigvalsh(G)[0] >= 0), "wrong verdict")
    assert_caught(ex.check_is_psd, lambda G: bool(np.linalg.eigvalsh(G)[-1] >= 0), "wrong verdict")
    assert_caught(ex.check_is_psd, lambda G: not is_psd(G), "wrong verdict")  # flipped
    assert_caught(ex.check_is_psd, lambda G: bool(np.all(G >= 0)), "wrong verdict")
    # necessary conditions only: a non-negative diagonal, and every 2 x 2 principal minor non-negative
    assert_caught(ex.check_is_psd, lambda G: bool(np.all(np.diag(G) >= 0)), "wrong verdict")
    assert_caught(ex.check_is_psd, lambda G: bool(np.all(np.diag(G) >= 0) and np.all(
        G**2 <= np.outer(np.diag(G), np.diag(G)) + 1e-9)), "wrong verdict")
    assert_caught(ex.check_is_psd, lambda G: float(is_psd(G)), "True or False")


@pytest.mark.parametrize("check", [ex.check_gram, ex.check_is_psd, ex.check_polynomial_kernel,
                                   ex.check_sigma_min, ex.check_gamma, ex.check_kernel_distance])
def test_junk_never_raises(check):
    assert_junk_never_raises(check)


@pytest.mark.parametrize(
    "check, answer, wrongs",
    [
        (lambda a: ex.check_polynomial_kernel(a, "C"), 4.0, [1.0, 3.0, 5.0, "4"]),
        (lambda a: ex.check_sigma_min(a, "A"), 0.6, [0.0, 0.36, 1.0, 0.5]),
        (lambda a: ex.check_gamma(a, "A"), 16.0, [8.0, 0.0625, 4.0, 2.0]),
        (lambda a: ex.check_kernel_distance(a, "C"), np.sqrt(2 - 2 * np.exp(-2.0)), [2 - 2 * np.exp(-2.0), np.sqrt(2), 1.0]),
    ],
)
def test_numeric_checks_pass_the_answer_and_never_show_it(check, answer, wrongs):
    assert_passes(check, answer)
    for wrong in wrongs:
        assert_no_answer_leak(check, wrong, number_strings(answer))


def test_polynomial_kernel_needs_the_reason_the_library_cannot_give():
    """kernels.polynomial gives the value in one call; the reason is the student's own."""
    from course_lib import kernels

    value = float(kernels.polynomial(np.array([[1.0, 2.0]]), np.array([[3.0, -1.0]]), degree=2)[0, 0])
    assert_caught(ex.check_polynomial_kernel, value, "letter of your reason")
    for wrong in ("A", "B", "D"):
        assert_caught(lambda a: ex.check_polynomial_kernel(4.0, a), wrong, "")
        assert_no_answer_leak(lambda a: ex.check_polynomial_kernel(4.0, a), wrong, ["(C)"])
    assert_passes(lambda a: ex.check_polynomial_kernel(4.0, a), "C")


def test_sigma_min_needs_the_reason_the_library_cannot_give():
    """model_selection.sigma_min, shown in the chapter, gives the number in one call; the reason is the student's own."""
    from course_lib import model_selection

    value = float(model_selection.sigma_min(ex.SIGMA_X))
    assert_caught(ex.check_sigma_min, value, "letter of your reason")
    for wrong in "BCD":
        assert_no_answer_leak(lambda a: ex.check_sigma_min(value, a), wrong, ["(A)"])
    assert_passes(lambda a: ex.check_sigma_min(value, a), "A")


def test_kernel_distance_needs_the_reason_the_library_cannot_give():
    """kernels.feature_space_distance, shown in the chapter, gives the number in one call; the reason is the student's own."""
    from course_lib import kernels

    value = float(kernels.feature_space_distance(np.array([[0.0, 0.0]]), np.array([[1.0, 1.0]]), "gaussian", sigma=1.0)[0, 0])
    assert_caught(ex.check_kernel_distance, value, "letter of your reason")
    for wrong in "ABD":
        assert_no_answer_leak(lambda a: ex.check_kernel_distance(value, a), wrong, ["(C)"])
    assert_passes(lambda a: ex.check_kernel_distance(value, a), "C")


def test_gamma_needs_the_reason_the_chapter_does_not_print():
    """The chapter's comparison with SVC writes gamma = 1.0 / 0.5**2 for sigma = 0.5: the number is one
    substitution away; what the width itself passed as gamma does is the student's own."""
    import nbformat

    chapter = nbformat.read("notebooks/05_kernels.ipynb", as_version=4)
    assert any("gamma=1.0 / 0.5**2" in cell.source for cell in chapter.cells if cell.cell_type == "code")
    assert_caught(ex.check_gamma, 1.0 / 0.25**2, "letter of your reason")
    for wrong in "BCD":
        assert_no_answer_leak(lambda a: ex.check_gamma(16.0, a), wrong, ["(A)"])
    assert_passes(lambda a: ex.check_gamma(16.0, a), "A")


def test_numeric_diagnoses():
    assert_caught(lambda a: ex.check_polynomial_kernel(a, "C"), 1.0, "+ 1")  # a wrong value, whatever the reason
    assert_caught(lambda a: ex.check_sigma_min(a, "A"), 0.0, "excluded")
    assert_caught(lambda a: ex.check_gamma(a, "A"), 8.0, "factor 2")
    assert_caught(lambda a: ex.check_kernel_distance(a, "C"), 2 - 2 * np.exp(-2.0), "square root")
    assert_caught(lambda a: ex.check_kernel_distance(a, "C"), np.sqrt(2.0), "Euclidean")


def test_wrong_gram_shows_the_case_but_not_the_solution_code():
    verdict = ex.check_gram(lambda X, kernel, sigma, degree: np.zeros((len(X), len(X))))
    text = repr(verdict)
    assert "kernel = linear" in text and "xᵗ" in text
