"""pytest-benchmark suite: ``pytest benchmarks/`` (needs the ``bench`` extra).

Speed claims come from ``python benchmarks/report.py``, which times every contender in
one run and prints ratios; these benchmarks keep per-call statistics for comparison over
time (``--benchmark-autosave``). Nothing here gates CI on a time.
"""

from __future__ import annotations

import numpy as np
import pytest

import sanggong
from workloads import numpy_evaluate, random_one_deck_hands, reference_evaluate

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


def test_cython_rank_batch(benchmark, hands: np.ndarray) -> None:
    benchmark(sanggong.rank_batch, hands)


def test_numpy_baseline(benchmark, hands: np.ndarray) -> None:
    benchmark(numpy_evaluate, hands)


def test_reference(benchmark, hands: np.ndarray) -> None:
    benchmark.pedantic(reference_evaluate, args=(hands[:20_000],), rounds=3, iterations=1)
