"""Redraw time of the chapters 07-08 demos at both ends of each control (target: well under 0.25 s)."""

from course_lib.plotting.multiclass import LEARNERS, REDUCTIONS
from course_lib.widgets.multiclass import (
    cost_demo,
    forty_twenty_forty_demo,
    hinge_sgd_demo,
    reduction_demo,
    svm_lambda_demo,
)

SETTINGS = {
    forty_twenty_forty_demo: [{"share": 0.05}, {"share": 0.2}, {"share": 0.6}],
    reduction_demo: [{"learner": learner, "reduction": r, "spread": s}
                     for learner in LEARNERS for r in REDUCTIONS for s in (0.3, 3.0)],
    svm_lambda_demo: [{"lam": lam, "n_iter": T} for lam in (1e-4, 0.005, 10.0) for T in (10, 2000, 5000)],
    hinge_sgd_demo: [{"eta": eta, "n_iter": T} for eta in (1e-3, 0.1, 10.0) for T in (10, 2000, 5000)],
    cost_demo: [{"cost_on_two": c} for c in (0.0, 1.0, 10.0)],
}


def main():
    for make, settings in SETTINGS.items():
        demo = make()
        print(f"{make.__name__}: first render {demo.seconds:.3f} s")
        for values in settings:
            print(f"  {values}: {demo.set(**values):.3f} s")


if __name__ == "__main__":
    main()
