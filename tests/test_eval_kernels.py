"""The compiled core's batch evaluation kernels, each forced in turn: the scalar table
kernel (every CPU, every dtype and layout) and the vector kernels (C-contiguous byte codes:
AVX2, AVX-512 F/BW/VL and AVX-512 VBMI, the best the CPU runs chosen at run time). Each must equal the reference on all 140,608 ordered
triples under every preset's ranking and a sample of the others, find the first bad code
wherever it is in a 32-hand step, and handle every length's last hands.

These test the compiled core's dispatch, which the reference does not have: they run once,
with the core."""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterator

import numpy as np
import pytest
from _rankings import EVERY_RANKING

import sanggong
from sanggong import _core, _kernels, evaluate_batch, pair_plus_batch, rank_batch
from sanggong import _spec as ref
from sanggong.ranking import HIGH_CARDS, Ranking, tables_for
from sanggong.rules import PRESETS

ALL_TRIPLES = np.array(list(itertools.product(range(52), repeat=3)), dtype=np.uint8)
RANKINGS = sorted({rules.ranking for rules in PRESETS.values()}, key=repr) + random.Random(14).sample(EVERY_RANKING, 12)


@pytest.fixture(params=["scalar", "avx2", "avx512", "avx512vbmi"])
def kernel(request: pytest.FixtureRequest) -> Iterator[str]:
    """Each kernel in turn (the vector ones where this CPU runs them), then the import's choice again."""
    name = request.param
    if name not in _core._eval_kernels():
        pytest.skip(f"this CPU or build has no {name} kernel (available: {_core._eval_kernels()})")
    before = _core._use_eval_kernel(name)
    try:
        yield name
    finally:
        _core._use_eval_kernel(before)


def _expected(ranking: Ranking, hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Ranks and categories from the reference's vectorised keys of every triple (which
    tests/test_hands.py checks against the plain hand_key and pair_plus3)."""
    tables = tables_for(ranking)
    index = (hands[:, 0].astype(np.int64) * 52 + hands[:, 1]) * 52 + hands[:, 2]
    rank = tables.rank[tables.packed_of_triple >> 3]
    return rank[index].astype(tables.rank_dtype), ref.triple_pair_plus()[index].astype(np.uint8)


def test_the_auto_choice_is_the_best_kernel_this_cpu_runs() -> None:
    before = _core._use_eval_kernel(None)
    try:
        assert _core._use_eval_kernel(None) == _core._eval_kernels()[-1]
    finally:
        _core._use_eval_kernel(before)
    with pytest.raises(ValueError, match="evaluation kernel 'neon' is not available"):
        _core._use_eval_kernel("neon")


@pytest.mark.parametrize("ranking", RANKINGS, ids=repr)
def test_all_triples_every_ranking(kernel: str, ranking: Ranking) -> None:
    rank, pp = _expected(ranking, ALL_TRIPLES)
    both = evaluate_batch(ALL_TRIPLES, rules=ranking)
    np.testing.assert_array_equal(both.rank, rank)
    np.testing.assert_array_equal(both.pair_plus, pp)
    assert both.rank.dtype == rank.dtype
    np.testing.assert_array_equal(rank_batch(ALL_TRIPLES, rules=ranking), rank)
    np.testing.assert_array_equal(pair_plus_batch(ALL_TRIPLES, rules=ranking), pp)
    signed = evaluate_batch(ALL_TRIPLES.astype(np.int8), rules=ranking)  # int8: the byte kernel too
    np.testing.assert_array_equal(signed.rank, rank)
    np.testing.assert_array_equal(signed.pair_plus, pp)


@pytest.mark.parametrize("ranking", RANKINGS, ids=repr)
def test_the_rankings_have_a_vector_formula(ranking: Ranking) -> None:
    """The AVX2 kernel serves these rankings (no silent fallback to the scalar kernel): its
    formula (rank = A[K] + H - B[K] * (H >= G), or 256 * A[K] + H for 16-bit ranks), derived
    from and checked against the tables, fits them, with the ranking's high-card mode.
    (It fits all 585 rankings; a ranking it did not fit would take the scalar kernel.)"""
    assert _core._formula_mode(_kernels.lookups(tables_for(ranking))) == HIGH_CARDS.index(ranking.high_card)


@pytest.mark.parametrize("ranking", [Ranking(), PRESETS["chinese"].ranking], ids=repr)
def test_every_length_and_offset(kernel: str, ranking: Ranking) -> None:
    """Lengths 0..100 and a few larger, at aligned and odd addresses: the last hands (fewer
    than a 32-hand step) go through a padded buffer and must not spill."""
    rng = np.random.default_rng(7)
    pool = rng.integers(0, 52, size=(1100, 3), dtype=np.uint8)
    ranks, pps = _expected(ranking, pool)  # (the reference's values of the pool, taken once: a batch is its first n)
    for n in [*range(101), 127, 128, 129, 1023, 1057]:
        for offset in (0, 1, 31):
            flat = np.zeros(3 * n + offset + 5, dtype=np.uint8)
            arr = flat[offset:offset + 3 * n].reshape(n, 3)
            arr[:] = pool[:n]
            rank, pp = ranks[:n], pps[:n]
            rank_out = np.full(n + 1, 77, dtype=rank.dtype)  # one guard item after the end
            pp_out = np.full(n + 1, 77, dtype=np.uint8)
            evaluate_batch(arr, rules=ranking, out=(rank_out[:n], pp_out[:n]))
            np.testing.assert_array_equal(rank_out[:n], rank)
            np.testing.assert_array_equal(pp_out[:n], pp)
            assert rank_out[n] == 77 and pp_out[n] == 77
            np.testing.assert_array_equal(rank_batch(arr, rules=ranking), rank)
            np.testing.assert_array_equal(pair_plus_batch(arr, rules=ranking), pp)


@pytest.mark.parametrize("dtype", [np.uint8, np.int8])
def test_a_bad_code_anywhere_in_a_step(kernel: str, dtype: type) -> None:
    """A bad code in every row and column of a batch of 2 steps and a tail (70 rows): the
    error names that row; a second bad code later does not change it."""
    n = 70
    base = np.random.default_rng(3).integers(0, 52, size=(n, 3)).astype(dtype)
    bad_codes = [52, 127, -1, -128] if dtype == np.int8 else [52, 53, 128, 255]
    for row in range(n):
        for col in range(3):
            arr = base.copy()
            arr[row, col] = bad_codes[(row + col) % len(bad_codes)]
            if row + 5 < n:
                arr[row + 5, (col + 1) % 3] = bad_codes[0]
            pattern = rf"hands\[{row}\] = .* holds {int(arr[row, col])}, which is not a card code"
            for fn in (evaluate_batch, rank_batch, pair_plus_batch):
                with pytest.raises(ValueError, match=pattern):
                    fn(arr)
            with pytest.raises(ValueError, match=re.escape(f"hands[{row}]")):
                evaluate_batch(arr, rules="chinese")


def test_random_multi_deck_hands_every_kernel_agrees() -> None:
    """Random hands (identical cards included) at a size that spans many steps: every
    vector kernel gives the scalar kernel's arrays under every preset."""
    if len(_core._eval_kernels()) < 2:
        pytest.skip("this CPU or build has no vector kernel: nothing to compare the scalar kernel with")
    hands = np.random.default_rng(11).integers(0, 52, size=(200_003, 3), dtype=np.uint8)
    before = _core._use_eval_kernel("scalar")
    try:
        for name, rules in PRESETS.items():
            _core._use_eval_kernel("scalar")
            slow = evaluate_batch(hands, rules=rules)
            for kernel in _core._eval_kernels()[1:]:
                _core._use_eval_kernel(kernel)
                fast = evaluate_batch(hands, rules=rules, workers=2)
                np.testing.assert_array_equal(fast.rank, slow.rank, err_msg=f"{name}, {kernel}")
                np.testing.assert_array_equal(fast.pair_plus, slow.pair_plus, err_msg=f"{name}, {kernel}")
    finally:
        _core._use_eval_kernel(before)


def test_the_kernel_choice_does_not_leak() -> None:
    """(The fixture restores the choice: the rest of the suite runs the import's kernel.)"""
    assert sanggong.IMPLEMENTATION == "cython"
    assert _core._use_eval_kernel(None) == _core._eval_kernels()[-1]


def test_tables_no_formula_fits_take_the_scalar_kernel(kernel: str) -> None:
    """Tables whose ranks follow no formula (a suit ranking's ranks shuffled among its rids: not
    a ranking's, but valid tables) get none, and both kernel choices give the tables'
    own ranks: the vector kernel is never used where it would be wrong."""
    source = tables_for(PRESETS["chinese"].ranking)

    class Shuffled:
        def __init__(self) -> None:
            for name in ("state", "state16", "value", "cls", "n_ranks", "n_classes", "ordered_by_class", "ranking"):
                setattr(self, name, getattr(source, name))
            self.rank = np.random.default_rng(1).permutation(source.rank)
            self.ordered_by_class = False

    tables = _core.Lookups(Shuffled())
    assert _core._formula_mode(tables) is None
    rank = np.empty(len(ALL_TRIPLES), dtype=np.uint16)
    pp = np.empty(len(ALL_TRIPLES), dtype=np.uint8)
    assert _core.evaluate_batch(tables, ALL_TRIPLES, rank, pp) == -1
    np.testing.assert_array_equal(rank, tables.source.rank[source.packed_of_triple >> 3])
    np.testing.assert_array_equal(pp, ref.triple_pair_plus())


def test_dense_16_bit_ranks_take_the_scalar_kernel(kernel: str) -> None:
    """A suit ranking's tables with its ranks renumbered 0, 1, 2 .. (the same order, valid
    tables, but not the 256 * p + s numbering the 16-bit vector loop writes) get no formula,
    and both kernel choices give those ranks."""
    source = tables_for(PRESETS["san_gong"].ranking)

    class Dense:
        def __init__(self) -> None:
            for name in ("state", "state16", "value", "cls", "n_classes", "ordered_by_class", "ranking"):
                setattr(self, name, getattr(source, name))
            self.rank = np.unique(source.rank, return_inverse=True)[1].reshape(-1).astype(np.uint16)
            self.n_ranks = int(self.rank.max()) + 1

    tables = _core.Lookups(Dense())
    assert tables.wide and _core._formula_mode(tables) is None
    rank = np.empty(len(ALL_TRIPLES), dtype=np.uint16)
    pp = np.empty(len(ALL_TRIPLES), dtype=np.uint8)
    assert _core.evaluate_batch(tables, ALL_TRIPLES, rank, pp) == -1
    np.testing.assert_array_equal(pp, ref.triple_pair_plus())
    expected = tables.source.rank[source.packed_of_triple >> 3]
    np.testing.assert_array_equal(rank, expected)
    # the same order as the ranking's own ranks, triple by triple
    own = source.rank[source.packed_of_triple >> 3].astype(np.int64)
    assert np.array_equal(np.argsort(own, kind="stable"), np.argsort(expected, kind="stable"))


@pytest.mark.parametrize("ranking", [Ranking(), PRESETS["san_gong"].ranking, Ranking(high_card="rank")], ids=repr)
def test_compare_batch_every_layout(kernel: str, ranking: Ranking) -> None:
    """compare_batch with the vector kernel on either side, both, or neither (a broadcast
    hand, a strided view), at lengths around the 512-row blocks: the order of the
    reference's ranks; and a bad code on either side names the first bad row."""
    rng = np.random.default_rng(9)
    for n in (1, 31, 33, 511, 512, 513, 1500):
        a = rng.integers(0, 52, size=(n, 3), dtype=np.uint8)
        b = rng.integers(0, 52, size=(n, 3), dtype=np.uint8)
        ra, _ = _expected(ranking, a)
        rb, _ = _expected(ranking, b)
        want = np.sign(ra.astype(np.int64) - rb.astype(np.int64))
        np.testing.assert_array_equal(sanggong.compare_batch(a, b, rules=ranking), want)
        strided = np.zeros((n, 6), dtype=np.uint8)[:, ::2]
        strided[:] = b
        np.testing.assert_array_equal(sanggong.compare_batch(a, strided, rules=ranking), want)
        np.testing.assert_array_equal(sanggong.compare_batch(strided, a, rules=ranking), -want)
        one = b[0]
        r1, _ = _expected(ranking, one.reshape(1, 3))
        np.testing.assert_array_equal(sanggong.compare_batch(a, one.tolist(), rules=ranking),
                                      np.sign(ra.astype(np.int64) - int(r1[0])))
        np.testing.assert_array_equal(sanggong.compare_batch(one.tolist(), a, rules=ranking),
                                      np.sign(int(r1[0]) - ra.astype(np.int64)))
        np.testing.assert_array_equal(sanggong.compare_batch(a.astype(np.int8), b.astype(np.int8), rules=ranking), want)
        if n > 40:
            bad_a, bad_b = a.copy(), b.copy()
            bad_a[n - 2, 1] = 52
            bad_b[n - 7, 2] = 255
            with pytest.raises(ValueError, match=rf"b\[{n - 7}\]"):
                sanggong.compare_batch(bad_a, bad_b, rules=ranking)
            with pytest.raises(ValueError, match=rf"a\[{n - 2}\]"):
                sanggong.compare_batch(bad_a, strided, rules=ranking)
