"""pytest-benchmark: the shoe evaluator and shoe play (see report.py's shoe_figures for
the figures the docs quote: rounds per second per core, measured interleaved)."""

from __future__ import annotations

import numpy as np
import pytest

import sanggong
from sanggong.shoe import ShoeEvaluator, play_shoes

MACAU = sanggong.MACAU  # 8 decks, 7 positions: the table
BANKER_BETS = ["odd", "even", "three_faces", *(f"point:{n}" for n in range(10))]


def _depleted(evaluator: ShoeEvaluator, cards: int, seed: int = 1) -> ShoeEvaluator:
    rng = np.random.default_rng(seed)
    codes = rng.permutation(np.repeat(np.arange(52), 8))[:cards]
    evaluator.remove([sanggong.Card(int(c)) for c in codes])
    return evaluator


@pytest.mark.parametrize("bets", [None, BANKER_BETS], ids=["every-bet", "banker-bets"])
def test_shoe_evaluator(benchmark, bets: list[str] | None) -> None:
    """The kernel's exact sums for an 8-deck shoe 100 cards in (every bet: <= 100 us; the
    banker's bets: <= 10 us)."""
    shoe = _depleted(ShoeEvaluator(MACAU, bets=bets), 100)
    benchmark(shoe.numerators)


@pytest.mark.parametrize("bets", [None, BANKER_BETS], ids=["every-bet", "banker-bets"])
def test_perfect_play(benchmark, bets: list[str] | None) -> None:
    benchmark.pedantic(play_shoes, args=(MACAU, 200, "perfect"), kwargs={"seed": 1, "workers": 1, "bets": bets},
                       rounds=3, iterations=1)


def test_count_play(benchmark) -> None:
    tags = dict(zip(sanggong._spec.RANK_SYMBOLS, [1, 1, 1, 1, 1, 0, 0, 0, 0, -1, -1, -1, -1], strict=True))
    benchmark.pedantic(play_shoes, args=(MACAU, 20_000, sanggong.CountPlay(tags=tags)),
                       kwargs={"seed": 1, "workers": 1}, rounds=3, iterations=1)
