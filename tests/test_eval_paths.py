"""Every evaluation path of the compiled core against the pure-Python twin, and the batch
API's split over threads.

The paths are the scalar table kernel and the vector kernels this CPU runs (AVX2, AVX-512
F/BW/VL, AVX-512 VBMI; ``_core._use_eval_kernel`` forces one). Each must give the twin's
ranks and Pair Plus categories (``_pykernels``, which reads the ranking's tables a hand at
a time in Python) on all 140,608 ordered triples: under the presets' rankings and a sample
of the others by default, under all 585 with ``-m slow`` (the twin takes about a second a
ranking). Under all 585, by default, every vector kernel gives the scalar kernel's arrays.

These test the core's dispatch, which the twin does not have: they run once, with the core
(not marked ``kernels``)."""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator

import numpy as np
import numpy.typing as npt
import pytest
from _rankings import EVERY_RANKING

from sanggong import _core, _kernels, batch, evaluate_batch
from sanggong._kernels import twin as _pykernels
from sanggong._kernels.vector_formula import triples
from sanggong.ranking import HIGH_CARDS, Ranking, tables_for
from sanggong.rules import PRESETS

PRESET_RANKINGS = sorted({rules.ranking for rules in PRESETS.values()}, key=repr)
SAMPLE = PRESET_RANKINGS + random.Random(23).sample([r for r in EVERY_RANKING if r not in PRESET_RANKINGS], 6)
KERNELS = ("scalar", "avx2", "avx512", "avx512vbmi")


def test_the_rankings_are_all_585() -> None:
    assert len(set(EVERY_RANKING)) == len(EVERY_RANKING) == 585


@functools.cache
def _twin(ranking: Ranking) -> tuple[npt.NDArray[np.integer], npt.NDArray[np.uint8]]:
    """The twin's ranks and categories of every ordered triple under this ranking."""
    source = tables_for(ranking)
    tables = _pykernels.Lookups(source)
    hands = triples()
    rank = np.empty(len(hands), dtype=source.rank_dtype)
    pp = np.empty(len(hands), dtype=np.uint8)
    assert _pykernels.evaluate_batch(tables, hands, rank, pp) == -1
    return rank, pp


@pytest.fixture(params=KERNELS)
def kernel(request: pytest.FixtureRequest) -> Iterator[str]:
    """Each kernel in turn (skipped where this CPU or build lacks it), then the import's
    choice again."""
    if request.param not in _core._eval_kernels():
        pytest.skip(f"this CPU or build has no {request.param} kernel (available: {_core._eval_kernels()})")
    before = _core._use_eval_kernel(request.param)
    try:
        yield request.param
    finally:
        _core._use_eval_kernel(before)


def _check_against_twin(ranking: Ranking) -> None:
    rank, pp = _twin(ranking)
    hands = triples()
    got = evaluate_batch(hands, rules=ranking)
    np.testing.assert_array_equal(got.rank, rank)
    np.testing.assert_array_equal(got.pair_plus, pp)
    assert got.rank.dtype == rank.dtype
    # the last hands of a length that is no multiple of a step, at an odd address
    flat = np.empty(3 * len(hands) + 1, dtype=np.uint8)
    odd = flat[1:1 + 3 * (len(hands) - 5)].reshape(-1, 3)
    odd[:] = hands[5:]
    got = evaluate_batch(odd, rules=ranking)
    np.testing.assert_array_equal(got.rank, rank[5:])
    np.testing.assert_array_equal(got.pair_plus, pp[5:])


@pytest.mark.parametrize("ranking", SAMPLE, ids=repr)
def test_every_kernel_gives_the_twins_values(kernel: str, ranking: Ranking) -> None:
    assert _core._eval_kernel() == kernel
    _check_against_twin(ranking)


@pytest.mark.slow
@pytest.mark.parametrize("ranking", EVERY_RANKING, ids=repr)
def test_every_kernel_gives_the_twins_values_under_every_ranking(ranking: Ranking) -> None:
    before = _core._use_eval_kernel(None)
    try:
        for name in _core._eval_kernels():
            _core._use_eval_kernel(name)
            _check_against_twin(ranking)
    finally:
        _core._use_eval_kernel(before)


def test_every_vector_kernel_gives_the_scalar_kernels_values_under_every_ranking() -> None:
    vector = _core._eval_kernels()[1:]
    if not vector:
        pytest.skip("this CPU or build has no vector kernel")
    hands = triples()
    before = _core._use_eval_kernel("scalar")
    try:
        for ranking in EVERY_RANKING:
            _core._use_eval_kernel("scalar")
            want = evaluate_batch(hands, rules=ranking)
            assert _core._formula_mode(_kernels.lookups(tables_for(ranking))) == HIGH_CARDS.index(ranking.high_card)
            for name in vector:
                _core._use_eval_kernel(name)
                got = evaluate_batch(hands, rules=ranking)
                if not (np.array_equal(got.rank, want.rank) and np.array_equal(got.pair_plus, want.pair_plus)):
                    pytest.fail(f"the {name} kernel differs from the scalar kernel under {ranking!r}")
    finally:
        _core._use_eval_kernel(before)


def test_the_best_kernel_is_chosen_on_import() -> None:
    """The choice on import is the last this CPU runs, and each kernel runs where the ones
    before it in the list do."""
    available = _core._eval_kernels()
    assert available == KERNELS[:len(available)]
    before = _core._use_eval_kernel(None)
    try:
        assert _core._eval_kernel() == available[-1]
    finally:
        _core._use_eval_kernel(before)


# --- the split over threads --------------------------------------------------------------


def _hands(n: int, dtype: type = np.uint8) -> npt.NDArray[np.integer]:
    return np.zeros((n, 3), dtype=dtype)


def test_a_batch_the_vector_kernel_reads_is_not_split() -> None:
    """One thread runs the vector kernel at the memory's speed: ``workers`` does not split it."""
    if len(_core._eval_kernels()) < 2:
        pytest.skip("this CPU or build has no vector kernel")
    assert batch.MIN_ROWS_PER_THREAD_VECTOR is None
    big = 64 * batch.MIN_ROWS_PER_THREAD
    for dtype in (np.uint8, np.int8):
        assert batch._parts(big, 8, [_hands(1, dtype)]) == 1
    before = _core._use_eval_kernel("scalar")  # (the table kernel reads them then: split)
    try:
        assert batch._parts(big, 8, [_hands(1)]) == 8
    finally:
        _core._use_eval_kernel(before)


def test_a_batch_the_table_kernel_reads_is_split_in_parts_of_min_rows() -> None:
    least = batch.MIN_ROWS_PER_THREAD
    wide = [_hands(1, np.int64)]
    strided = [np.zeros((1, 6), dtype=np.uint8)[:, ::2]]
    for inputs in (wide, strided, [_hands(1), wide[0]]):
        assert batch._parts(least - 1, 2, inputs) == 1
        assert batch._parts(2 * least - 1, 2, inputs) == 1
        assert batch._parts(2 * least, 2, inputs) == 2
        assert batch._parts(2 * least, 1, inputs) == 1
        assert batch._parts(5 * least, 3, inputs) == 3


def test_the_split_gives_one_threads_values(monkeypatch: pytest.MonkeyPatch) -> None:
    """int64 codes (the table kernel) in parts over 3 threads, a bad code in the last part:
    the values of one thread, and the error names the first bad row over all parts."""
    monkeypatch.setattr(batch, "MIN_ROWS_PER_THREAD", 1000)
    hands = np.random.default_rng(5).integers(0, 52, size=(10_007, 3))
    assert batch._parts(len(hands), 3, [hands]) == 3
    one = evaluate_batch(hands)
    three = evaluate_batch(hands, workers=3)
    np.testing.assert_array_equal(three.rank, one.rank)
    np.testing.assert_array_equal(three.pair_plus, one.pair_plus)
    hands[9_000, 2] = 52
    hands[9_500, 0] = -1
    with pytest.raises(ValueError, match=r"hands\[9000\] = \[\d+, \d+, 52\]"):
        evaluate_batch(hands, workers=3)
