"""Figures as functions of data and fitted models, one module per chapter family.

Each chapter module exposes `FIGURES`, a dict mapping a figure's file stem (its syllabus ID
first, e.g. "K2_perceptron_nonseparable_epoch3") to a function returning a matplotlib Figure.
`python -m course_lib.figures` collects them all.
"""
