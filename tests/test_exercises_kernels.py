import numpy as np

from course_lib import kernels
from course_lib.exercises import kernels as ex

def test_kernel_exercises():
    assert ex.check_polynomial_kernel((1 * 3 + 2 * -1 + 1) ** 2)
    assert not ex.check_polynomial_kernel(1.0)
    pairs = [np.hypot(*(a - b)) for i, a in enumerate(ex.SIGMA_X) for b in ex.SIGMA_X[i + 1 :]]
    assert ex.check_sigma_min(min(d for d in pairs if d > 0))
    assert not ex.check_sigma_min(0.0)
    assert ex.check_gamma(16.0) and not ex.check_gamma(8.0) and not ex.check_gamma(4.0)
    k = np.exp(-2.0)
    assert ex.check_kernel_distance(np.sqrt(2 - 2 * k))
    assert not ex.check_kernel_distance(2 - 2 * k)
