"""The batch-evaluation yardstick (benchmarks/yardstick_eval.c), compiled here with the
system C compiler, gives exactly what ``sanggong.evaluate_batch`` gives (uint8 codes,
default ranking): on all 140,608 ordered triples against the reference's plain functions,
on random hands of many lengths against evaluate_batch, and the same first bad row. The
report times the core against it, so a yardstick that did other work would flatter or
shame the core. It needs no compiled core: it runs once."""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import numpy as np
import pytest

import sanggong
from sanggong import _spec as ref

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from yardstick_eval import YardstickUnavailable, load_eval_yardstick

ALL_TRIPLES = np.array(list(itertools.product(range(52), repeat=3)), dtype=np.uint8)


@pytest.fixture(scope="module")
def yardstick():  # type: ignore[no-untyped-def]
    try:
        return load_eval_yardstick()
    except YardstickUnavailable as exc:
        pytest.skip(f"the evaluation yardstick cannot run here: {exc}")


def _run(yardstick, hands: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:  # type: ignore[no-untyped-def]
    rank = np.full(len(hands), 99, dtype=np.uint8)
    pp = np.full(len(hands), 99, dtype=np.uint8)
    return yardstick(hands, rank, pp), rank, pp


def test_all_triples_against_the_reference(yardstick) -> None:  # type: ignore[no-untyped-def]
    bad, rank, pp = _run(yardstick, ALL_TRIPLES)
    assert bad == -1
    expected_rank = [ref.default_rank3(*t) for t in ALL_TRIPLES.tolist()]
    expected_pp = [ref.pair_plus3(*t) for t in ALL_TRIPLES.tolist()]
    np.testing.assert_array_equal(rank, expected_rank)
    np.testing.assert_array_equal(pp, expected_pp)


def test_random_hands_against_evaluate_batch(yardstick) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(14)
    for n in [*range(70), 1000, 100_003]:
        hands = rng.integers(0, 52, size=(n, 3), dtype=np.uint8)
        bad, rank, pp = _run(yardstick, hands)
        expected = sanggong.evaluate_batch(hands)
        assert bad == -1
        np.testing.assert_array_equal(rank, expected.rank)
        np.testing.assert_array_equal(pp, expected.pair_plus)


def test_the_first_bad_row_as_evaluate_batch_names_it(yardstick) -> None:  # type: ignore[no-untyped-def]
    hands = np.random.default_rng(5).integers(0, 52, size=(70, 3), dtype=np.uint8)
    for row in range(70):
        for col in range(3):
            arr = hands.copy()
            arr[row, col] = (52, 200, 255)[col]
            arr[min(row + 3, 69), 0] = 52
            bad, _, _ = _run(yardstick, arr)
            assert bad == row
            with pytest.raises(ValueError, match=rf"hands\[{row}\]"):
                sanggong.evaluate_batch(arr)
