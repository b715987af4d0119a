import numpy as np

from course_lib.exercises import kernels as ex

def test_kernel_exercises():
    assert ex.check_polynomial_kernel((1 * 3 + 2 * -1 + 1) ** 2, "C")
    assert not ex.check_polynomial_kernel(1.0)
    pairs = [np.hypot(*(a - b)) for i, a in enumerate(ex.SIGMA_X) for b in ex.SIGMA_X[i + 1 :]]
    assert ex.check_sigma_min(min(d for d in pairs if d > 0), "A")
    assert not ex.check_sigma_min(0.0, "A")
    assert ex.check_gamma(16.0, "A") and not ex.check_gamma(8.0, "A") and not ex.check_gamma(4.0, "A")
    k = np.exp(-2.0)
    assert ex.check_kernel_distance(np.sqrt(2 - 2 * k), "C")
    assert not ex.check_kernel_distance(2 - 2 * k, "C")


def test_no_chapter_shows_the_answers_of_its_concept_questions_in_a_cell():
    """The quizzes live in the check modules (`ex.quiz(name)`): a chapter's cells never hold the
    choices with their True/False, and every quiz has one or more right choices, each explained."""
    import glob

    import nbformat

    from course_lib.exercises import (basis_functions, instantiations, multiclass, perceptron, structured,
                                      svm_gradient, viterbi)

    for path in sorted(glob.glob("notebooks/[0-9][0-9]_*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            assert "Choice(" not in cell.source, f"{path}: cell {cell.id} writes the choices of a quiz"
    for module in (ex, basis_functions, instantiations, multiclass, perceptron, structured, svm_gradient, viterbi):
        for name, entry in module.QUIZZES.items():
            choices = entry[1]
            assert sum(c.correct for c in choices) >= 1 and all(len(c.explanation) > 20 for c in choices), name
            module.quiz(name)
