"""pytest-benchmark suite: ``pytest benchmarks/`` (needs the ``bench`` extra).

Speed claims come from ``python benchmarks/report.py``, which times every contender in
one run and prints ratios; these benchmarks keep per-call statistics for comparison over
time (``--benchmark-autosave``). Nothing here gates CI on a time.
"""

from __future__ import annotations

import numpy as np
import pytest
from workloads import numpy_evaluate, random_one_deck_hands, reference_evaluate

import sanggong
from sanggong import _core

N = 1_000_000


@pytest.fixture(scope="module")
def hands() -> np.ndarray:
    return random_one_deck_hands(N)


def test_numpy_baseline_is_correct(hands: np.ndarray) -> None:
    ranks, pp = numpy_evaluate(hands)
    expected = sanggong.evaluate_batch(hands)
    assert (ranks == expected.rank).all() and (pp == expected.pair_plus).all()


@pytest.mark.parametrize("threads", [1, 2])
def test_cython_evaluate_batch(benchmark, hands: np.ndarray, threads: int) -> None:
    assert sanggong.IMPLEMENTATION == "cython"
    benchmark(sanggong.evaluate_batch, hands, workers=threads)


@pytest.mark.parametrize("kernel", ["scalar", "avx2", "avx512", "avx512vbmi"])
@pytest.mark.parametrize("size", [1 << 17, N])
def test_cython_evaluate_batch_kernel(benchmark, hands: np.ndarray, kernel: str, size: int) -> None:
    """Each evaluation kernel this CPU runs, forced, 1 thread, out=: in cache (2**17 hands,
    0.6 MB) and from memory (N hands)."""
    if kernel not in _core._eval_kernels():
        pytest.skip(f"this CPU or build has no {kernel} kernel")
    part = hands[:size]
    out = (np.empty(size, np.uint8), np.empty(size, np.uint8))
    before = _core._use_eval_kernel(kernel)
    try:
        benchmark(sanggong.evaluate_batch, part, out=out)
    finally:
        _core._use_eval_kernel(before)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("size", [1 << 16, 1 << 20, 1 << 22])
@pytest.mark.parametrize("dtype", ["uint8", "int64"])
def test_cython_evaluate_batch_threads(benchmark, dtype: str, size: int, threads: int) -> None:
    """1 and 2 threads across sizes: uint8 codes (the vector kernel, never split) and int64
    (the table kernel, split in parts of at least MIN_ROWS_PER_THREAD)."""
    part = random_one_deck_hands(size).astype(dtype)
    out = (np.empty(size, np.uint8), np.empty(size, np.uint8))
    benchmark(sanggong.evaluate_batch, part, out=out, workers=threads)


def test_cython_rank_batch(benchmark, hands: np.ndarray) -> None:
    benchmark(sanggong.rank_batch, hands)


def test_numpy_baseline(benchmark, hands: np.ndarray) -> None:
    benchmark(numpy_evaluate, hands)


def test_reference(benchmark, hands: np.ndarray) -> None:
    benchmark.pedantic(reference_evaluate, args=(hands[:20_000],), rounds=3, iterations=1)
