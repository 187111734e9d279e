"""pytest-benchmark: shuffling and dealing (see report.py for the ratios quoted)."""

from __future__ import annotations

import numpy as np
from workloads import numpy_permutation_deal, numpy_permuted_deal

import sanggong
from sanggong import _core

ROUNDS = 100_000


def test_cython_online_rounds(benchmark) -> None:
    bit_generator = np.random.PCG64(1)
    out = np.empty((ROUNDS, 13), np.uint8)
    benchmark(_core.deal_fresh_batch, bit_generator, 1, out)


def test_cython_eight_deck_shoes(benchmark) -> None:
    bit_generator = np.random.PCG64(1)
    out = np.empty((ROUNDS // 32, 416), np.uint8)
    benchmark(_core.deal_fresh_batch, bit_generator, 8, out)


def test_numpy_permutation_loop(benchmark) -> None:
    benchmark(numpy_permutation_deal, np.random.default_rng(1), ROUNDS // 10)


def test_numpy_permuted(benchmark) -> None:
    benchmark(numpy_permuted_deal, np.random.default_rng(1), ROUNDS)


def test_game_deal(benchmark) -> None:
    game = sanggong.Game(sanggong.ONLINE, 1)
    benchmark(lambda: [game.deal() for _ in range(1000)])


def test_deal_batch_online_one_worker(benchmark) -> None:
    benchmark(sanggong.deal_batch, sanggong.ONLINE, ROUNDS, seed=1, workers=1)


def test_deal_batch_macau_one_worker(benchmark) -> None:
    benchmark(sanggong.deal_batch, sanggong.MACAU, ROUNDS // 4, seed=1, workers=1)


def test_deal_batch_online_every_core(benchmark) -> None:
    benchmark(sanggong.deal_batch, sanggong.ONLINE, 10 * ROUNDS, seed=1, workers=None, chunk_size=ROUNDS)
