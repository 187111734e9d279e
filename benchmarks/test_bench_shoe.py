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


@pytest.mark.parametrize("batch", [False, True], ids=["round-by-round", "numerators_batch"])
def test_a_shoes_rounds(benchmark, batch: bool) -> None:
    """The sums of an 8-deck shoe's 18 rounds of 21 cards (Macau's Win, Tie and Odd, as
    ``detect`` evaluates a log), round by round (numerators, remove) or in one
    ``numerators_batch`` call (its chunks of rounds in doubles)."""
    from sanggong._kernels import shoe_kernel
    from sanggong.shoe._terms import shoe_terms

    terms = shoe_terms(MACAU, ("odd", "tie:3", "win:1", "win:3"))
    fresh = sanggong.composition(8).tolist()
    kernel = shoe_kernel(terms, fresh)
    cards = np.random.default_rng(1).permutation(np.repeat(np.arange(52), 8))[: 18 * 21].astype(np.uint8)
    ends = np.arange(21, 18 * 21 + 1, 21, dtype=np.int64)
    out = np.empty((len(ends), len(terms.rows)), dtype=np.int64)

    def rounds() -> None:
        kernel.set_counts(fresh)
        if batch:
            kernel.numerators_batch(cards, ends, out)
            return
        start = 0
        for k, end in enumerate(ends.tolist()):
            out[k] = kernel.numerators()
            for code in cards[start:end].tolist():
                kernel.remove(code)
            start = end

    benchmark(rounds)
