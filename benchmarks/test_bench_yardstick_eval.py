"""pytest-benchmark of the evaluation yardstick (yardstick_eval.c) beside evaluate_batch on
the same hands, into preallocated outputs: ``pytest benchmarks/`` (the ``bench`` extra).
The ratio worth quoting comes from ``python benchmarks/report.py`` (timed interleaved)."""

from __future__ import annotations

import numpy as np
import pytest
from workloads import random_one_deck_hands
from yardstick_eval import YardstickUnavailable, load_eval_yardstick

import sanggong

N = 1_000_000


@pytest.fixture(scope="module")
def hands() -> np.ndarray:
    return random_one_deck_hands(N)


@pytest.fixture(scope="module")
def yardstick():  # type: ignore[no-untyped-def]
    try:
        return load_eval_yardstick()
    except YardstickUnavailable as exc:
        pytest.skip(f"the evaluation yardstick cannot run here: {exc}")


def test_yardstick_eval(benchmark, hands: np.ndarray, yardstick) -> None:  # type: ignore[no-untyped-def]
    rank, pp = np.empty(N, np.uint8), np.empty(N, np.uint8)
    assert benchmark(yardstick, hands, rank, pp) == -1
    expected = sanggong.evaluate_batch(hands)
    assert (rank == expected.rank).all() and (pp == expected.pair_plus).all()


def test_evaluate_batch_out(benchmark, hands: np.ndarray) -> None:
    out = (np.empty(N, np.uint8), np.empty(N, np.uint8))
    benchmark(sanggong.evaluate_batch, hands, out=out)
