"""The exercise checks of chapter 11: a correct answer passes, wrong ones of several kinds are
caught with a message that says where, junk never raises, and no wrong answer is shown the
answer."""

import numpy as np
from exercise_testing import (
    assert_caught, assert_junk_never_raises, assert_no_answer_leak, assert_passes, number_strings,
    assert_stops_a_function_that_never_returns,
)

from course_lib.exercises import viterbi as ex
from course_lib.structured.viterbi import viterbi


def viterbi_tables(unary, pairwise):
    """A correct student solution, written from the slides' recursion."""
    r, q = unary.shape
    M, I = np.zeros((q, r)), np.zeros((q, r), dtype=int)
    M[:, 0] = unary[0]
    for tau in range(1, r):
        candidates = M[:, tau - 1][:, None] + pairwise
        I[:, tau] = candidates.argmax(axis=0)
        M[:, tau] = candidates.max(axis=0) + unary[tau]
    y = np.zeros(r, dtype=int)
    y[-1] = M[:, -1].argmax()
    for tau in range(r - 1, 0, -1):
        y[tau - 1] = I[y[tau], tau]
    return y, M, I


def test_viterbi_exercise_accepts_a_correct_solution():
    assert_passes(ex.check_viterbi_tables, viterbi_tables)


def test_viterbi_exercise_catches_wrong_solutions():
    def minimising(unary, pairwise):  # off by a sign: the worst reading
        y, M, I = viterbi_tables(-unary, -pairwise)
        return y, -M, I

    def transposed_pairwise(unary, pairwise):  # a wrong index: pairwise[s, s'] for pairwise[s', s]
        return viterbi_tables(unary, pairwise.T)

    def columns_argmax(unary, pairwise):  # right tables, reading without back-tracking
        y, M, I = viterbi_tables(unary, pairwise)
        return M.argmax(axis=0), M, I

    def transposed_tables(unary, pairwise):  # (r, q) tables instead of the slides' (q, r)
        y, M, I = viterbi_tables(unary, pairwise)
        return y, M.T, I.T

    def library(unary, pairwise):  # the library's answer
        return viterbi(unary, pairwise, return_tables=True)

    assert_caught(ex.check_viterbi_tables, minimising, "M[")
    assert_caught(ex.check_viterbi_tables, transposed_pairwise, "pairwise[s', s]")
    assert_caught(ex.check_viterbi_tables, columns_argmax, "back")
    assert_caught(ex.check_viterbi_tables, transposed_tables, "shape")
    assert_caught(ex.check_viterbi_tables, library, "write it yourself")
    hidden = {"solve": viterbi}  # a reference captured before the check
    assert_caught(ex.check_viterbi_tables, lambda unary, pairwise: hidden["solve"](unary, pairwise, return_tables=True),
                  "write it yourself")
    assert_stops_a_function_that_never_returns(ex.check_viterbi_tables)


def test_viterbi_exercise_reports_the_first_failing_case_in_the_slides_notation():
    def wrong_first_column(unary, pairwise):
        y, M, I = viterbi_tables(unary, pairwise)
        M = M.copy()
        M[:, 0] = unary[0] + 1.0  # wrong on every case (0.0 would be right where unary[0, a] rounds to 0)
        return y, M, I

    verdict = assert_caught(ex.check_viterbi_tables, wrong_first_column, "M[a, 1] is wrong")
    assert "unary[t, s]" in repr(verdict) and "seed" in repr(verdict) and "should be" not in repr(verdict)


def test_viterbi_exercise_catches_the_library_reached_through_its_module():
    import course_lib.structured.viterbi as library

    def through_the_module(unary, pairwise):
        y = library.viterbi_batch([unary], pairwise)[0]
        _, M, I = viterbi_tables(unary, pairwise)
        return y, M, I

    assert_caught(ex.check_viterbi_tables, through_the_module, "write it yourself")


def test_junk_never_raises():
    assert_junk_never_raises(ex.check_viterbi_tables)
    assert_junk_never_raises(lambda answer: ex.check_counts(answer, answer))
    assert_junk_never_raises(ex.check_M_table)
    assert_junk_never_raises(ex.check_backtrack)
    assert_junk_never_raises(lambda table: ex.check_loss_augmented_unary(table, "D"))
    right_table = ex.UNARY + np.eye(3, 2)[[1, 0, 0]]
    assert_junk_never_raises(lambda reason: ex.check_loss_augmented_unary(right_table, "A" if type(reason) is int and reason == 3 else reason))  # 3 is D


def test_hand_exercises_pass_and_do_not_leak():
    _, M, _ = viterbi(ex.UNARY, ex.PAIRWISE, return_tables=True)
    assert_passes(lambda a: ex.check_M_table(M, a), "A")
    assert_caught(ex.check_M_table, M, "letter of your reason")  # the library's M alone does not pass
    for wrong in ("B", "C", "D"):
        assert_caught(lambda a: ex.check_M_table(M, a), wrong, "")
    assert_passes(lambda a: ex.check_counts(a, 7 * 26 * 26), 26 ** 8)
    assert_caught(lambda a: ex.check_M_table(a, "A"), M.T, "transposed")  # a wrong table, whatever the reason
    assert_caught(lambda a: ex.check_M_table(a, "A"), M + 1, "M[")
    assert_caught(lambda a: ex.check_backtrack(a, "C"), "abb", "")
    assert_passes(lambda a: ex.check_backtrack("bbb", a), "C")
    for wrong in ("A", "B", "D"):
        assert_caught(lambda a: ex.check_backtrack("bbb", a), wrong, "")
    assert_caught(lambda a: ex.check_backtrack("bbb", a), ..., "letter of your reason")
    assert_caught(lambda a: ex.check_counts(a, 7 * 26 * 26), 8 ** 26, "r to the power q")
    for text in (str(26 ** 8), "26 ** 8", True):  # text and truth values are not counts
        assert_caught(lambda a: ex.check_counts(a, 7 * 26 * 26), text, "holds text")
    assert_no_answer_leak(lambda a: ex.check_counts(a, 0), 3, number_strings(26 ** 8) + number_strings(7 * 26 * 26))
    assert_no_answer_leak(lambda a: ex.check_backtrack(a, "C"), "aaa", ["bbb"])
    for wrong in ("aaa", "B", 7):
        assert_no_answer_leak(lambda a: ex.check_backtrack("bbb", a), wrong, ["(C)"])
    assert_no_answer_leak(lambda a: ex.check_M_table(a, "A"), M + 1, [str(M.tolist())])


def test_backtrack_needs_the_reason_the_library_cannot_give():
    """The library's Viterbi gives the reading in one call; the reason is the student's own."""
    y = "".join("ab"[s] for s in viterbi(ex.UNARY, ex.PAIRWISE))
    assert_caught(ex.check_backtrack, y, "letter of your reason")
