"""Redraw time of the chapter 09 demo at both ends of each slider (target: well under 0.25 s)."""

from course_lib.widgets.perceptron import plain_vs_averaged_demo


def main():
    demo = plain_vs_averaged_demo()
    print(f"first render: {demo.seconds:.3f} s")
    for values in ({"n_epochs": 1, "seed": 0}, {"n_epochs": 5, "seed": 0}, {"n_epochs": 30, "seed": 0},
                   {"n_epochs": 30, "seed": 9}, {"n_epochs": 1, "seed": 9}):
        seconds = demo.set(**values)
        print(f"  plain_vs_averaged_demo {values}: {seconds:.3f} s")


if __name__ == "__main__":
    main()
