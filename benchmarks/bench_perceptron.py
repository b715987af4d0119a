"""Averaged perceptron: naive vs on-error vs lazy accumulation of a, and lazy cost as features grow.

All three variants run the same epochs on the same sparse examples (Zipf-like features,
~20-50 active per example, 12 labels) with a weight matrix of 12 x n_features, and give the
same averaged weights (checked here). Naive adds the whole matrix w to a after every example;
lazy touches only the active entries of the two labels involved in each error. On-error
does two full-matrix passes (n * w, then a + ...) per error, so it only beats naive when
errors are rarer than about one example in two: not in the first epoch of a 12-label problem,
but over several epochs, as the perceptron makes fewer mistakes (the second comparison).
Each time is the minimum over REPEATS runs (the least disturbed by other processes).
Run: `nice .venv/bin/python -m benchmarks perceptron`.
"""

import time

import numpy as np

from course_lib.data import zipf_sparse
from course_lib.perceptron import TRAINERS, sparse_rows

N_LABELS = 12
REPEATS = 3


def encode(n, n_features, seed=0):
    """Examples as (column indices, counts) rows over a fixed space of n_features columns."""
    X, y = zipf_sparse(n=n, n_features=n_features, n_labels=N_LABELS, seed=seed)
    rows, _, _ = sparse_rows(X, columns={j: j for j in range(n_features)})
    return rows, y.tolist()


def run(variant, rows, gold, n_features, n_epochs, seed=0, repeats=REPEATS):
    """Seconds taken by a training run (the minimum over `repeats` runs) and its final averaged weights."""
    rng = np.random.default_rng(seed)
    orders = [rng.permutation(len(rows)) for _ in range(n_epochs)]
    best = np.inf
    for _ in range(repeats):
        start = time.perf_counter()
        for w, a in TRAINERS[variant](rows, gold, (N_LABELS, n_features), orders):
            pass
        best = min(best, time.perf_counter() - start)
    return best, a


def compare_variants(n=2000, n_features=200_000, n_epochs=1):
    """Time the three variants on the same run; print times, ratios and whether a is identical."""
    rows, gold = encode(n, n_features)
    print(f"{n} examples x {n_epochs} epoch(s), {N_LABELS} labels x {n_features:,} features "
          f"({sum(len(i) for i, _ in rows) / n:.1f} active per example), best of {REPEATS} runs")
    times, weights = {}, {}
    for variant in ("naive", "on_error", "lazy"):
        times[variant], weights[variant] = run(variant, rows, gold, n_features, n_epochs)
    same = all(np.array_equal(weights["naive"], weights[v]) for v in ("on_error", "lazy"))
    for variant, seconds in times.items():
        print(f"  {variant:9s} {seconds:8.3f} s   naive / {variant} = {times['naive'] / seconds:7.1f}x")
    print(f"  identical averaged weights: {same}")
    return times


def scaling(sizes=(10_000, 50_000, 200_000), n_naive=500, n_lazy=5000, n_epochs=2):
    print(f"cost as features grow: lazy on {n_lazy} examples x {n_epochs} epochs, "
          f"naive on {n_naive} examples x {n_epochs} epochs")
    print(f"  {'features':>9s} {'lazy s':>8s} {'lazy us/ex':>10s} {'naive s':>8s} {'naive us/ex':>11s}")
    for n_features in sizes:
        rows, gold = encode(n_lazy, n_features, seed=1)
        lazy, _ = run("lazy", rows, gold, n_features, n_epochs)
        naive, _ = run("naive", rows[:n_naive], gold[:n_naive], n_features, n_epochs)
        print(f"  {n_features:9,d} {lazy:8.3f} {1e6 * lazy / (n_lazy * n_epochs):10.1f} "
              f"{naive:8.3f} {1e6 * naive / (n_naive * n_epochs):11.1f}")


def main():
    compare_variants()
    compare_variants(n=1000, n_features=20_000, n_epochs=8)
    scaling()


if __name__ == "__main__":
    main()
