"""Viterbi speed: decoding the 6,173 test words of the OCR letters (target <= 0.25 s), the batched
decoder against the one-word `viterbi`, and brute force over q^r sequences on short words.

    .venv/bin/python -m benchmarks viterbi
"""

import time

import numpy as np

from course_lib.data import load_ocr_letters
from course_lib.structured.chain import ChainModel
from course_lib.structured.viterbi import brute_force, viterbi


def best_time(function, repeat):
    """Smallest wall time of `repeat` calls (the least disturbed by other processes)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    words, labels, folds = load_ocr_letters()
    test = [x for x, f in zip(words, folds) if f != 1]
    model = ChainModel().initialize(words, labels)
    w = np.random.default_rng(0).normal(size=model.size_joint_feature)

    batched = best_time(lambda: model.batch_inference(test, w), repeat=7)
    one_by_one = best_time(lambda: [model.inference(x, w) for x in test], repeat=3)
    same = all(np.array_equal(a, model.inference(x, w)) for a, x in zip(model.batch_inference(test, w), test))
    print(f"decode {len(test)} test words ({sum(map(len, test))} letters), q = 26:")
    print(f"  batch_inference  {batched:.3f} s  (target <= 0.25 s)  {'OK' if batched <= 0.25 else 'SLOW'}")
    print(f"  inference loop   {one_by_one:.3f} s  = {one_by_one / batched:.1f} x the batched time")
    print(f"  same sequences: {same}")

    train = [(x, y) for x, y, f in zip(words, labels, folds) if f == 1]
    X_train, Y_train = [x for x, _ in train], [y for _, y in train]
    augmented_batch = best_time(lambda: model.batch_loss_augmented_inference(X_train, Y_train, w), repeat=7)
    augmented_loop = best_time(lambda: [model.loss_augmented_inference(x, y, w) for x, y in train], repeat=3)
    print(f"loss-augmented inference on the {len(train)} training words (one pass of a learner):")
    print(f"  batched {augmented_batch:.3f} s, one by one {augmented_loop:.3f} s "
          f"({augmented_loop / augmented_batch:.1f} x)")

    rng = np.random.default_rng(1)
    q = 26
    print(f"\nbrute force over q^r sequences vs Viterbi's (r - 1) q^2 candidates, q = {q}:")
    print("   r        q^r  (r-1)q^2  brute force   viterbi    ratio")
    for r in (1, 2, 3):
        unary, pairwise = rng.normal(size=(r, q)), rng.normal(size=(q, q))
        t_brute = best_time(lambda: brute_force(unary, pairwise), repeat=1 if r == 3 else 3)
        t_viterbi = best_time(lambda: viterbi(unary, pairwise), repeat=50)
        assert np.array_equal(brute_force(unary, pairwise)[0], viterbi(unary, pairwise))
        print(f"  {r:2d} {q ** r:10,d} {(r - 1) * q * q:9,d} {t_brute:11.4f} s {t_viterbi * 1e3:7.3f} ms"
              f" {t_brute / t_viterbi:8.0f} x")
    per_sequence = t_brute / q ** 3
    for r in (4, 8, 14):
        print(f"  {r:2d} {q ** r:10.2e} {(r - 1) * q * q:9,d}   ~{per_sequence * q ** r:9.3g} s (extrapolated)")


if __name__ == "__main__":
    main()
