"""The checks at the door name the parameter and the fix."""

import numpy as np
import pytest

from course_lib import _validation as v


def test_check_matrix():
    assert v.check_matrix([[1, 2]]).dtype == float
    with pytest.raises(ValueError, match="X must be 2-D.*reshape"):
        v.check_matrix([1, 2, 3])
    with pytest.raises(ValueError, match="empty"):
        v.check_matrix(np.empty((0, 2)))
    with pytest.raises(ValueError, match="W contains NaN"):
        v.check_matrix([[np.nan]], name="W")
    with pytest.raises(TypeError, match="array of numbers"):
        v.check_matrix([["a"]])
    with pytest.raises(ValueError, match="3 features, but predict is expecting 2 features"):
        v.check_matrix(np.ones((1, 3)), n_features=2)


def test_check_binary_targets():
    np.testing.assert_array_equal(v.check_binary_targets([1, -1], 2), [1.0, -1.0])
    with pytest.raises(ValueError, match=r"found \[0.0\]"):
        v.check_binary_targets([1, 0], 2)
    with pytest.raises(ValueError, match="single class"):
        v.check_binary_targets([1, 1], 2)
    with pytest.raises(ValueError, match="lengths must match"):
        v.check_binary_targets([1, -1], 3)
    with pytest.raises(ValueError, match="1-D"):
        v.check_binary_targets([[1, -1]], 1)


@pytest.mark.parametrize("bad", [0, -1.0, np.nan, np.inf])
def test_check_positive(bad):
    with pytest.raises(ValueError, match="C must be a positive"):
        v.check_positive(bad, "C")


def test_check_positive_accepts_inf_when_allowed_and_rejects_non_numbers():
    assert v.check_positive(np.inf, "C", allow_inf=True) == np.inf
    with pytest.raises(TypeError, match="sigma"):
        v.check_positive("1", "sigma")
    with pytest.raises(TypeError, match="sigma"):
        v.check_positive(True, "sigma")


def test_check_int_and_non_negative():
    assert v.check_int(3, "n", minimum=1) == 3
    with pytest.raises(ValueError, match="n must be an integer >= 1"):
        v.check_int(0, "n", minimum=1)
    with pytest.raises(TypeError, match="n must be an integer"):
        v.check_int(1.5, "n", minimum=1)
    assert v.check_non_negative(0, "lam") == 0.0
    with pytest.raises(ValueError, match="lam must be a finite number >= 0"):
        v.check_non_negative(-1e-9, "lam")


def test_check_random_state_is_seeded():
    assert v.check_random_state(3).random() == v.check_random_state(3).random()
    rng = np.random.default_rng(0)
    assert v.check_random_state(rng) is rng
