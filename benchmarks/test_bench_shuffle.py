"""pytest-benchmark: the shuffle battery at a laboratory's sample sizes (docs/shuffle-test.md).

- 10**9 dealt cards tested on one core, within 60 s (Macau shoes, 382 cards tested a shoe;
  ``SANGGONG_BENCH_SHUFFLE_CARDS`` sets another size);
- beside it, a NumPy implementation of the same chi-square (the card-by-position counts by
  ``numpy.bincount`` from the same dealt cards, then the same statistic), timed per card;
- one worker against two: two are faster, and give the same result.
"""

from __future__ import annotations

import math
import os
import time

import numpy as np

from sanggong import MACAU, _kernels, shuffle_test
from sanggong._table import table_params
from sanggong.shuffletest import layout
from sanggong.shuffletest._stats import chi_square_by_position

CARDS = int(float(os.environ.get("SANGGONG_BENCH_SHUFFLE_CARDS", "1e9")))
LAYOUT = layout(MACAU)
SHOES = math.ceil(CARDS / LAYOUT.k)
BUDGET = 60.0
"""Seconds for 10**9 cards on one core (issue: what a testing laboratory asks for)."""


def test_battery_billion_cards_one_core(benchmark) -> None:
    result = benchmark.pedantic(shuffle_test, ("macau",), {"shoes": SHOES, "seed": 1, "workers": 1}, rounds=1,
                                iterations=1)
    assert result.cards >= CARDS
    seconds = benchmark.stats.stats.max
    benchmark.extra_info["cards_per_second"] = result.cards / seconds
    assert seconds * 1e9 / result.cards <= BUDGET, f"{seconds:.1f} s for {result.cards:,} cards"


def numpy_chi_square(cards: np.ndarray, n: int) -> tuple[float, int]:
    """The card-by-position chi-square by NumPy: counts by bincount, the same statistic."""
    k = cards.shape[1]
    counts = np.bincount((np.arange(k) * 52 + cards).ravel(), minlength=52 * k).reshape(k, 52)
    return chi_square_by_position(counts.astype(np.int64), n)


def _dealt_cards() -> np.ndarray:
    shoes = 20_000_000 // LAYOUT.k
    cards = np.empty((shoes, LAYOUT.k), np.uint8)
    _kernels.kernels.shuffle_cards(np.random.PCG64(1), table_params(MACAU).array(), cards, np.empty(shoes, np.uint16))
    return cards


def kernel_chi_square(cards: np.ndarray, n: int) -> tuple[float, int]:
    """The same chi-square from the core's tally of the same cards (every statistic's sums too)."""
    counts = np.zeros((cards.shape[1], 52), np.int64)
    _kernels.kernels.shuffle_tally_cards(cards, np.array(LAYOUT.bounds, np.int64), counts, np.zeros(4, np.int64),
                                      np.zeros(4, np.float64))
    return chi_square_by_position(counts, n)


def test_numpy_chi_square_same_cards(benchmark) -> None:
    """NumPy's chi-square over 2 * 10**7 cards the dealing path dealt (the dealing not timed)."""
    cards = _dealt_cards()
    statistic = benchmark(numpy_chi_square, cards, LAYOUT.n)
    assert statistic == kernel_chi_square(cards, LAYOUT.n)
    benchmark.extra_info["cards_per_second"] = cards.size / benchmark.stats.stats.mean


def test_kernel_chi_square_same_cards(benchmark) -> None:
    """The core's tally of the same cards, beside NumPy's."""
    cards = _dealt_cards()
    benchmark(kernel_chi_square, cards, LAYOUT.n)
    benchmark.extra_info["cards_per_second"] = cards.size / benchmark.stats.stats.mean


def test_two_workers_faster_than_one(benchmark) -> None:
    shoes = 200_000_000 // LAYOUT.k
    timings = {}
    results = {}
    for workers in (1, 2):
        start = time.perf_counter()
        results[workers] = shuffle_test("macau", shoes=shoes, seed=2, workers=workers)
        timings[workers] = time.perf_counter() - start
    benchmark.extra_info.update({f"seconds_{w}_workers": t for w, t in timings.items()})
    benchmark.pedantic(lambda: None, rounds=1)
    assert results[1].rows == results[2].rows
    assert timings[2] < timings[1], timings
