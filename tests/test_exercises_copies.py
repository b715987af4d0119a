"""Every coding exercise refuses the library's answer pasted into the student's cell: the source of
the check's reference and of the library function it reads (`inspect.getsource`), exec'd in a
namespace that holds the library module's names (as a student's cell holds its imports), renamed
and without its docstring, fails with "write it yourself"."""

import inspect
import re
import sys
import textwrap

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


def pasted(fn, rename="my_answer", variables=None):
    """fn's source exec'd in a copy of its module's namespace, under another name, docstring removed,
    local variables renamed by `variables` ({old: new})."""
    source = textwrap.dedent(inspect.getsource(fn)).replace(f"def {fn.__name__}(", f"def {rename}(", 1)
    for old, new in (variables or {}).items():
        source = re.sub(rf"\b{old}\b", new, source)
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
