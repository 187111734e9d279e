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


PLAYERS = {"ann": {"win:1": 100, "point:0": 10}, "bob": {"win:2": 50}}
LOG_ROUNDS = 3_000  # as test_bench_verify's log: the two are compared in report.py


def test_game_play_players_bets_key(benchmark) -> None:
    game = sanggong.Game(sanggong.MACAU, 1, key=b"k", recall=0)
    benchmark(lambda: [game.play(PLAYERS) for _ in range(1000)])


def test_game_lines_macau_log(benchmark, tmp_path) -> None:
    """``sanggong deal --json``'s work: a Macau log's lines written to a file, and its seal."""
    path = tmp_path / "macau.jsonl"

    def write() -> None:
        game = sanggong.Game(sanggong.MACAU, 7, key=b"k", recall=0)
        with path.open("w", encoding="utf-8") as out:
            out.writelines(f"{line}\n" for line in game.lines(LOG_ROUNDS))
            out.write(game.close().to_json() + "\n")

    benchmark(write)
