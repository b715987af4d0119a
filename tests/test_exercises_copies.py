"""Every coding exercise refuses the library's answer pasted into the student's cell: the source of
the check's reference and of the library function it reads (`inspect.getsource`), exec'd in a
namespace that holds the library module's names (as a student's cell holds its imports), renamed
and without its docstring, fails with "write it yourself"."""

import ast
import dis
import inspect
import re
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from course_lib import basis, multiclass, perceptron, svm_gradient
from course_lib.exercises import basis_functions, instantiations, kernels, linear, margins, structured, viterbi
from course_lib.exercises import multiclass as multiclass_ex
from course_lib.exercises import perceptron as perceptron_ex
from course_lib.exercises import svm_gradient as svm_gradient_ex
from course_lib.structured import viterbi as viterbi_library
from course_lib.exercises.guard import Guard, WriteItYourself
from exercise_testing import run

ROOT = Path(__file__).resolve().parent.parent


def pasted(fn, rename="my_answer", variables=None, edits=()):
    """fn's source exec'd in a copy of its module's namespace, under another name, docstring removed,
    local variables renamed by `variables` ({old: new}), then `edits` ((old text, new text), ...)
    applied."""
    source = textwrap.dedent(inspect.getsource(fn)).replace(f"def {fn.__name__}(", f"def {rename}(", 1)
    for old, new in (variables or {}).items():
        source = re.sub(rf"\b{old}\b", new, source)
    for old, new in edits:
        assert old in source, f"{old!r} is not in the source of {fn.__name__}"
        source = source.replace(old, new, 1)
    if fn.__doc__:
        source = source.replace(f'"""{fn.__doc__}"""', "pass", 1)
    namespace = dict(vars(inspect.getmodule(fn)))
    exec(compile(source, "<student cell>", "exec"), namespace)
    return namespace[rename]


COPIES = {
    "viterbi: library": (viterbi.check_viterbi_tables, viterbi_library.viterbi,
                         lambda f: lambda unary, pairwise: f(unary, pairwise, return_tables=True)),
    "viterbi: reference": (viterbi.check_viterbi_tables, viterbi._viterbi_reference, None),
    "all-pairs votes": (multiclass_ex.check_all_pairs_votes, multiclass.pairwise_votes,
                        lambda f: lambda decisions, k: f(decisions, k)),
    "loss-augmented argmax": (multiclass_ex.check_loss_augmented_argmax, multiclass.loss_augmented_argmax,
                              lambda f: lambda scores, y, Delta: f(scores, y, Delta)[0]),
    "loss-augmented argmax: unchecked": (multiclass_ex.check_loss_augmented_argmax,
                                         multiclass._loss_augmented_argmax,
                                         lambda f: lambda scores, y, Delta: f(scores, y, Delta)[0]),
    "SGD step": (multiclass_ex.check_sgd_step, multiclass_ex._sgd_step_reference, None),
    "two-point SVM": (margins.check_two_point_svm, margins._two_point_reference, None),
    "SMO step": (margins.check_smo_step, margins._smo_step_reference, None),
    "Gram matrix": (kernels.check_gram, kernels._reference_gram, None),
    "PSD test": (kernels.check_is_psd, kernels._reference_is_psd, None),
    "perceptron": (linear.check_perceptron, linear._perceptron_reference, None),
    "lazy update: library": (perceptron_ex.check_lazy_update, perceptron.lazy_update, None),
    "lazy update: reference": (perceptron_ex.check_lazy_update, perceptron_ex._lazy_reference, None),
    "margin hinge": (structured.check_margin_hinge, structured._reference_hinge,
                     lambda f: lambda model, x, y, w: f(model, x, y, w, "margin")),
    "slack hinge": (structured.check_slack_hinge, structured._reference_hinge,
                    lambda f: lambda model, x, y, w: f(model, x, y, w, "slack")),
    "cutting plane": (structured.check_cutting_plane, structured._reference_plane, None),
    "stochastic subgradient": (structured.check_stochastic_subgradient, structured._reference_ssg, None),
    "hinge gradient": (svm_gradient_ex.check_hinge_gradient, svm_gradient.hinge_gradient, None),
    "hinge gradient: unchecked": (svm_gradient_ex.check_hinge_gradient, svm_gradient._hinge_gradient, None),
    "XOR map": (basis_functions.check_xor_map, basis.xor_map, None),
    "AUC sort": (instantiations.check_auc_sort, instantiations._reference_order, None),
}


@pytest.mark.parametrize("name", COPIES)
def test_the_pasted_answer_fails(name):
    check, fn, wrap = COPIES[name]
    copy = pasted(fn)
    verdict, text = run(check, wrap(copy) if wrap else copy)
    assert not verdict.correct, f"{name}: the pasted library answer passed: {text}"
    assert "write it yourself" in text.lower(), text


def test_a_copy_with_its_variables_renamed_fails():
    copy = pasted(viterbi_library.viterbi, variables={"M": "best", "I": "back", "tau": "t", "candidates": "c"})
    verdict, text = run(viterbi.check_viterbi_tables, lambda unary, pairwise: copy(unary, pairwise, return_tables=True))
    assert not verdict.correct and "copy of" in text, text


VITERBI_NAMES = {"M": "best", "I": "back", "tau": "t", "candidates": "c", "unary": "u", "pairwise": "p"}
VITERBI_EDITS = {  # each on top of the renaming; ratios of operations in common with the library: 93% to 99%
    "input check removed": [("    u, p = check_chain_scores(u, p)\n", "")],
    "a line added": [("    y = np.empty(r", "    print(r, q)\n    y = np.empty(r")],
    "a line changed": [("c[back[t], np.arange(q)]", "c.max(axis=0)")],
    "three edits": [("    u, p = check_chain_scores(u, p)\n", ""), ("np.empty((r, q))", "np.zeros((r, q))"),
                    ("    if return_tables:\n        return y, best.T.copy(), back.T.copy()\n    return y\n",
                     "    return y, best.T, back.T\n")],
}


@pytest.mark.parametrize("edit", VITERBI_EDITS)
def test_an_edited_copy_of_the_library_viterbi_fails(edit):
    copy = pasted(viterbi_library.viterbi, variables=VITERBI_NAMES, edits=VITERBI_EDITS[edit])
    verdict, text = run(viterbi.check_viterbi_tables, lambda unary, pairwise: copy(unary, pairwise, True))
    assert not verdict.correct and "runs a copy of" in text, f"{edit}: {text}"


def _student_viterbi_from_the_solutions():
    source = (ROOT / "notebooks" / "solutions" / "src" / "11.py").read_text()
    body = source.split("# %% viterbi_tables\n", 1)[1].split("\n\n\nverdict", 1)[0]
    namespace = {"np": np}
    exec(compile(body, "<student cell>", "exec"), namespace)
    return namespace["viterbi_tables"]


def _student_viterbi_with_loops(unary, pairwise):
    r, q = unary.shape
    M, I = np.zeros((q, r)), np.zeros((q, r), dtype=int)
    for s in range(q):
        M[s, 0] = unary[0, s]
    for tau in range(1, r):
        for s in range(q):
            best, best_previous = -np.inf, 0
            for previous in range(q):
                value = M[previous, tau - 1] + pairwise[previous, s]
                if value > best:
                    best, best_previous = value, previous
            M[s, tau], I[s, tau] = best + unary[tau, s], best_previous
    y = [0] * r
    y[r - 1] = int(np.argmax(M[:, r - 1]))
    for tau in range(r - 1, 0, -1):
        y[tau - 1] = I[y[tau], tau]
    return np.array(y), M, I


@pytest.mark.parametrize("student", [_student_viterbi_from_the_solutions(), _student_viterbi_with_loops],
                         ids=["vectorised, from the solutions", "with loops"])
def test_a_student_written_viterbi_is_no_copy(student):
    """The same recursion written by a student shares 57% (loops) to 71% (vectorised like the
    library) of the library's operations: below the 85% of an edited copy."""
    verdict, text = run(viterbi.check_viterbi_tables, student)
    assert verdict.correct, text


LONG = [name for name, (_, fn, _) in COPIES.items() if len(list(dis.get_instructions(fn))) >= 60]


@pytest.mark.parametrize("name", LONG)
def test_a_pasted_answer_with_a_line_added_fails(name):
    """Every library answer of 50 operations or more, renamed and with a line of the student's added."""
    check, fn, wrap = COPIES[name]
    source = textwrap.dedent(inspect.getsource(fn))
    statements = ast.parse(source).body[0].body
    first = statements[1] if ast.get_docstring(ast.parse(source).body[0]) else statements[0]
    body = source.split("\n")[first.lineno - 1]
    indent = body[:len(body) - len(body.lstrip())]
    copy = pasted(fn, edits=[(body, f"{indent}note = 'mine'\n{body}")])
    verdict, text = run(check, wrap(copy) if wrap else copy)
    assert not verdict.correct and "write it yourself" in text.lower(), f"{name}: {text}"


def test_the_guard_puts_back_the_tracer_it_found():
    def previous(frame, event, arg):
        return None

    def student(u):
        return np.asarray(u) * 2

    copy = pasted(viterbi_library.viterbi)
    sys.settrace(previous)
    try:
        with Guard() as guard:
            assert guard.run(student, {"u": [1.0]}) == [2.0]
            assert sys.gettrace() is previous
            with pytest.raises(WriteItYourself):
                guard.run(copy, {"unary": np.zeros((2, 2)), "pairwise": np.zeros((2, 2))})
            assert sys.gettrace() is previous
    finally:
        sys.settrace(None)


def _solution(chapter, name):
    """The namespace of the solution `name` in the solutions source of `chapter`, its cell exec'd up
    to the check call, as a student's cell."""
    source = (ROOT / "notebooks" / "solutions" / "src" / f"{chapter}.py").read_text()
    body = re.split(r"\n(?:print\()?ex\.check_", source.split(f"# %% {name}\n", 1)[1], maxsplit=1)[0]  # up to the check
    namespace = {"np": np}
    exec(compile(body, "<student cell>", "exec"), namespace)
    return namespace


def _gradient_with_loops(alpha, w0, G, r, lam):
    n = len(alpha)
    h = [sum(G[t, s] * alpha[s] * r[s] for s in range(n)) + w0 for t in range(n)]
    inside = [t for t in range(n) if r[t] * h[t] < 1]
    grad = np.array([-r[s] * sum(r[t] * G[s, t] for t in inside) + lam * alpha[s] for s in range(n)])
    return grad, -float(sum(r[t] for t in inside))


@pytest.mark.parametrize("check, student", [
    (svm_gradient_ex.check_hinge_gradient, _solution("06", "hinge_gradient")["gradient"]),
    (svm_gradient_ex.check_hinge_gradient, _gradient_with_loops),
    (instantiations.check_auc_pairs, _solution("12", "auc_pairs")["auc_pairs"]),
    (basis_functions.check_xor_map, _solution("04", "xor_map")["phi"]),
], ids=["hinge gradient, from the solutions", "hinge gradient, with loops", "AUC pairs, from the solutions",
        "XOR map, from the solutions"])
def test_a_short_student_function_is_no_copy(check, student):
    """Short answers (under 50 operations) written by a student pass. The solutions' hinge gradient
    shares 97% of the library's 37 operations (it only lacks a `float`): no similarity threshold
    below 100% refuses an edited copy of so short a function without refusing it too."""
    verdict, text = run(check, student)
    assert verdict.correct, text


def test_a_short_honest_answer_is_as_close_to_the_library_as_an_edited_copy():
    """Why short functions are refused only as verbatim copies: the solutions' hinge gradient,
    written from the formula, already shares over 95% of the library's operations (locals erased)."""
    import difflib

    from course_lib.exercises.guard import _shape

    library = _shape(svm_gradient._hinge_gradient.__code__)  # the formula, which hinge_gradient calls
    honest = _shape(_solution("06", "hinge_gradient")["gradient"].__code__)
    assert len(library) < 50 and honest != library
    assert difflib.SequenceMatcher(None, honest, library, autojunk=False).ratio() > 0.95


def _own_pair_count(s, r):
    s, r = np.asarray(s, float), np.asarray(r)
    return int((s[r == 1][:, None] - s[r == -1][None, :] < 0.5).sum())


def test_chapter_12s_library_pasted_fails():
    """12 ex 3 and 4 read the library's tree distance and AUC: pasted (tree_distance with its
    helper _path_to_root; auc with its input checks replaced by np.asarray), they fail."""
    from course_lib.structured import models, ranking

    path_to_root = pasted(models._path_to_root, rename="path_to_root")
    distance = pasted(models.tree_distance, rename="distance")
    distance.__globals__["_path_to_root"] = path_to_root
    area = pasted(ranking.auc, rename="area", edits=[("    r = _check_relevance(r)\n", "    r = np.asarray(r)\n"),
                                                    ("    scores = _check_scores(scores, r.size)\n",
                                                     "    scores = np.asarray(scores, float)\n")])
    tree, query = instantiations._tree_cases(np.random.default_rng(0))[1], instantiations.AUC_EXERCISE
    assert distance(tree["parent"], tree["classes"][0], tree["classes"][1]) > 0  # they work outside a check
    assert area(query["r"], query["s"]) == ranking.auc(query["r"], query["s"])
    students = ((instantiations.check_tree_delta,
                 lambda parent, classes: np.array([[distance(parent, a, b) / 2 for b in classes] for a in classes])),
                (instantiations.check_auc_pairs, lambda s, r: (1 - area(r, s), _own_pair_count(s, r))))
    for check, student in students:
        verdict, text = run(check, student)
        assert not verdict.correct and "runs a copy of" in text, text


def test_printing_an_array_inside_a_right_answer_is_no_copy():
    """A student who prints while debugging is not copying: printing a NumPy array runs NumPy's own
    short comprehensions, one of which matches a comprehension inside scikit-learn's
    `_FuncWrapper.__call__` operation for operation (it was refused as a copy of it)."""
    import sklearn.utils.parallel  # noqa: F401  (loaded, as in every chapter that compares with scikit-learn)

    from course_lib.exercises.harness import check_function

    def doubled(x):
        print(x, {k: v for k, v in {"x": x}.items()})
        return 2 * x

    verdict = check_function(doubled, lambda rng: [dict(x=rng.normal(size=3)) for _ in range(3)],
                             reference=lambda x: 2 * x)
    assert verdict.correct, verdict.why
