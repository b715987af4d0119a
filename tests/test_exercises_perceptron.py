"""Chapter 09 self-checks: right answers pass, typical mistakes fail with a hint."""

from course_lib.exercises import perceptron as ex


def test_multiclass_update(capsys):
    # scores: A 0, B 2, C 2 -> tie -> B (first label); gold A: w_A + x, w_B - x
    right = {"A": {"f1": 2, "f2": 1, "f3": 0}, "B": {"f1": -1, "f2": 1, "f3": -1}, "C": {"f1": -1, "f2": 1, "f3": 2}}
    assert ex.check_multiclass_update(right)
    assert not ex.check_multiclass_update(ex.W_EXERCISE)
    assert "Nothing changed" in capsys.readouterr().out
    wrong_tie = {"A": {"f1": 2, "f2": 1, "f3": 0}, "B": {"f1": 0, "f2": 2, "f3": 0}, "C": {"f1": -2, "f2": 0, "f3": 1}}
    assert not ex.check_multiclass_update(wrong_tie)
    assert not ex.check_multiclass_update(...)


def test_average(capsys):
    # by hand: w after each example: 0; (A: -y, B: y); (A: x, B: -x); (A: x - 2y, B: -x + 2y)
    assert ex.check_average({"A": {"x": 2, "y": -3}, "B": {"x": -2, "y": 3}})
    assert not ex.check_average({"A": {"x": 1, "y": -2}, "B": {"x": -1, "y": 2}})
    assert "last w" in capsys.readouterr().out
    assert not ex.check_average(None)


def test_lazy_catch_up(capsys):
    assert ex.check_lazy_catch_up(5 + 7 * 2)
    assert not ex.check_lazy_catch_up(5 + 8 * 2)
    assert "One too many" in capsys.readouterr().out
    assert not ex.check_lazy_catch_up(...)


def test_accumulator_cost(capsys):
    assert ex.check_accumulator_cost(5000, 121)
    assert not ex.check_accumulator_cost(5000, 120)
    assert "catch-up" in capsys.readouterr().out
    assert not ex.check_accumulator_cost(1000, 121)
