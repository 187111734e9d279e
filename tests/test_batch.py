"""The batch API: every integer dtype and layout, threads, broadcasting, bad input."""

from __future__ import annotations

import re

import numpy as np
import pytest

from sanggong import (
    CLASS_LABELS,
    compare,
    compare_batch,
    evaluate,
    evaluate_batch,
    pair_plus_batch,
    parse_hands,
    rank_batch,
)
from sanggong import batch as batch_module

DTYPES = [np.uint8, np.int8, np.uint16, np.int16, np.uint32, np.int32, np.uint64, np.int64, np.longlong, np.intc]


@pytest.fixture(scope="module")
def hands() -> np.ndarray:
    rng = np.random.default_rng(20261129)
    return rng.integers(0, 52, size=(5000, 3), dtype=np.int64)


def _expected(hands: np.ndarray) -> tuple[list[int], list[int]]:
    values = [evaluate(row) for row in hands.tolist()]
    return [v.rank for v in values], [int(v.pair_plus) for v in values]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.kernels
def test_every_integer_dtype(hands: np.ndarray, dtype: type) -> None:
    ranks, pps = _expected(hands)
    arr = hands.astype(dtype)
    assert rank_batch(arr).tolist() == ranks
    assert pair_plus_batch(arr).tolist() == pps
    both = evaluate_batch(arr)
    assert both.rank.tolist() == ranks and both.pair_plus.tolist() == pps
    assert both.rank.dtype == np.uint8 and both.pair_plus.dtype == np.uint8


@pytest.mark.parametrize("n", [1, 2, 3, 5, 6, 7, 511, 513, 515, 1027])
@pytest.mark.kernels
def test_contiguous_uint8_at_every_length_and_offset(hands: np.ndarray, n: int) -> None:
    """The uint8 kernel reads four hands at a time from 32-bit words: lengths that leave
    1 to 3 hands over in a block, and arrays starting at an odd address."""
    for offset in (0, 1, 3):
        flat = np.zeros(3 * n + offset, dtype=np.uint8)
        arr = flat[offset:].reshape(n, 3)
        arr[:] = hands[:n]
        assert arr.flags.c_contiguous
        ranks, pps = _expected(hands[:n])
        both = evaluate_batch(arr)
        assert both.rank.tolist() == ranks and both.pair_plus.tolist() == pps
        assert rank_batch(arr).tolist() == ranks and pair_plus_batch(arr).tolist() == pps


@pytest.mark.parametrize(
    "layout",
    ["fortran", "column_slice", "row_step", "readonly", "big_endian", "list", "transposed_view"],
)
@pytest.mark.kernels
def test_layouts(hands: np.ndarray, layout: str) -> None:
    ranks, _ = _expected(hands)
    if layout == "fortran":
        arr = np.asfortranarray(hands)
    elif layout == "column_slice":
        wide = np.zeros((len(hands), 5), dtype=np.int32)
        wide[:, 1:4] = hands
        arr = wide[:, 1:4]
    elif layout == "row_step":
        doubled = np.repeat(hands, 2, axis=0)
        arr = doubled[::2]
    elif layout == "readonly":
        arr = hands.copy()
        arr.flags.writeable = False
    elif layout == "big_endian":
        arr = hands.astype(">i4")
    elif layout == "list":
        arr = hands.tolist()
    else:
        arr = np.ascontiguousarray(hands.T).T
    assert rank_batch(arr).tolist() == ranks


@pytest.mark.kernels
def test_parse_hands_and_empty_batch() -> None:
    arr = parse_hands(["Kh Qs 9d", evaluate("Ac 2c 3c"), ["Jc", 45, "K♥"]])
    assert arr.dtype == np.uint8 and arr.shape == (3, 3)
    assert [CLASS_LABELS[r] for r in rank_batch(arr)] == ["2P9", "6", "3P"]
    empty = parse_hands([])
    assert empty.shape == (0, 3)
    assert rank_batch(empty).shape == (0,)
    assert compare_batch(empty, empty).shape == (0,)
    assert evaluate_batch(np.empty((0, 3), dtype=np.int64)).rank.shape == (0,)


@pytest.mark.parametrize("threads", [None, 1, 2, 3, 8])
@pytest.mark.kernels
def test_threads_give_identical_results(threads: int | None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch_module, "MIN_ROWS_PER_THREAD", 100)
    monkeypatch.setattr(batch_module, "MIN_ROWS_PER_THREAD_VECTOR", 100)
    rng = np.random.default_rng(7)
    arr = rng.integers(0, 52, size=(1001, 3), dtype=np.uint8)
    other = rng.integers(0, 52, size=(1001, 3), dtype=np.uint8)
    assert (rank_batch(arr, workers=threads) == rank_batch(arr)).all()
    assert (pair_plus_batch(arr, workers=threads) == pair_plus_batch(arr)).all()
    assert (compare_batch(arr, other, workers=threads) == compare_batch(arr, other)).all()
    bad = arr.copy()
    bad[777, 1] = 60
    bad[901, 0] = 61
    with pytest.raises(ValueError, match=r"hands\[777\] = \[\d+, 60, \d+\] holds 60"):
        rank_batch(bad, workers=threads)


@pytest.mark.kernels
def test_threads_is_a_deprecated_name_of_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    """``threads=`` still splits a batch as ``workers=`` does, with a DeprecationWarning
    naming the new keyword; both at once, or a keyword that is neither, are refused."""
    monkeypatch.setattr(batch_module, "MIN_ROWS_PER_THREAD", 100)
    monkeypatch.setattr(batch_module, "MIN_ROWS_PER_THREAD_VECTOR", 100)
    arr = np.random.default_rng(8).integers(0, 52, size=(1001, 3), dtype=np.uint8)
    for fn in (rank_batch, pair_plus_batch, evaluate_batch):
        with pytest.warns(DeprecationWarning, match=rf"{fn.__name__}\(threads=...\) is deprecated: use workers="):
            old = fn(arr, threads=3)  # type: ignore[call-arg]
        assert np.array_equal(np.asarray(old), np.asarray(fn(arr, workers=3)))
    with pytest.warns(DeprecationWarning, match="use workers="):
        assert (compare_batch(arr, arr[::-1], threads=2) == compare_batch(arr, arr[::-1])).all()  # type: ignore[call-arg]
    with pytest.warns(DeprecationWarning), pytest.raises(TypeError, match="give workers= or threads="):
        rank_batch(arr, workers=2, threads=2)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected keyword argument 'thread'"):
        rank_batch(arr, thread=2)  # type: ignore[call-arg]


@pytest.mark.kernels
def test_compare_batch_matches_compare(hands: np.ndarray) -> None:
    a, b = hands[:2500], hands[2500:]
    got = compare_batch(a, b)
    assert got.dtype == np.int8
    assert got.tolist() == [compare(x, y) for x, y in zip(a.tolist(), b.tolist(), strict=True)]


@pytest.mark.kernels
def test_compare_batch_broadcasts_one_hand(hands: np.ndarray) -> None:
    banker = "Kh Qs 9d"
    expected = [compare(x, banker) for x in hands.tolist()]
    assert compare_batch(hands, banker).tolist() == expected
    assert compare_batch(hands, [50, 47, 33]).tolist() == expected
    assert compare_batch(hands, evaluate(banker)).tolist() == expected
    assert compare_batch(banker, hands).tolist() == [-e for e in expected]
    assert compare_batch(hands.astype(np.uint8), hands.astype(np.uint64)).tolist() == [0] * len(hands)


@pytest.mark.parametrize("preset", ["san_gong", "chinese", "prosperity"])
@pytest.mark.kernels
def test_compare_batch_ranks_by_a_value_s_ranking(hands: np.ndarray, preset: str) -> None:
    """A HandValue given to compare_batch carries its ranking, as it does to compare and to
    the operators: the rows are ranked by it, not by the default ranking."""
    rows = hands[:600]
    banker = evaluate("Kh 5c 4d", preset)
    by_operators = [(v > banker) - (v < banker) for v in (evaluate(r, preset) for r in rows.tolist())]
    assert compare_batch(rows, banker).tolist() == by_operators
    assert compare_batch(rows, banker, rules=preset).tolist() == by_operators
    assert compare_batch(rows, [c.code for c in banker.cards], rules=preset).tolist() == by_operators
    assert compare_batch(banker, rows).tolist() == [-x for x in by_operators]
    assert [compare(r, banker) for r in rows.tolist()] == by_operators
    with pytest.raises(TypeError, match="cannot order hands of two rankings"):
        compare_batch(rows, banker, rules="macau")


@pytest.mark.parametrize(
    ("bad", "error", "match"),
    [
        ([[1, 2, 3, 4]], ValueError, r"shape \(n, 3\), got shape \(1, 4\)"),
        ([1, 2, 3], ValueError, r"got shape \(3,\)"),
        (np.zeros((2, 3, 1), dtype=np.int8), ValueError, r"got shape \(2, 3, 1\)"),
        ([[1.0, 2.0, 3.0]], TypeError, "not dtype float64"),
        (np.zeros((2, 3), dtype=bool), TypeError, "not dtype bool"),
        ([["Kh", "Qs", "9d"]], TypeError, "parse_hands"),
        ("Kh Qs 9d", TypeError, "parse_hands"),
        ([[1, 2, 52]], ValueError, r"hands\[0\] = \[1, 2, 52\] holds 52"),
        ([[1, 2, 3], [-1, 2, 3]], ValueError, r"hands\[1\] = \[-1, 2, 3\] holds -1"),
        (np.array([[1, 2, 3], [4, 5, 6], [255, 0, 0]], dtype=np.uint8), ValueError, r"hands\[2\].*holds 255"),
        (np.array([[1, 2, 2**64 - 1]], dtype=np.uint64), ValueError, str(2**64 - 1)),
        (np.array([[1, 2, -(2**63)]], dtype=np.int64), ValueError, str(-(2**63))),
        (np.array([[1, 2, -128]], dtype=np.int8), ValueError, "holds -128"),
    ],
)
@pytest.mark.kernels
def test_bad_batches(bad: object, error: type[Exception], match: str) -> None:
    for function in (rank_batch, pair_plus_batch, evaluate_batch):
        with pytest.raises(error, match=match):
            function(bad)  # type: ignore[arg-type]


@pytest.mark.kernels
def test_bad_compare_batches() -> None:
    good = np.array([[1, 2, 3], [4, 5, 6]])
    with pytest.raises(ValueError, match=r"b\[1\] = \[4, 5, 99\] holds 99"):
        compare_batch(good, [[1, 2, 3], [4, 5, 99]])
    with pytest.raises(ValueError, match=r"a\[0\] = \[77, 2, 3\] holds 77"):
        compare_batch([[77, 2, 3], [1, 2, 3]], good)
    with pytest.raises(ValueError, match=r"b\[0\] = \[1, 2, 52\]"):  # a broadcast single hand
        compare_batch(good, [1, 2, 52])
    with pytest.raises(ValueError, match="same number of hands"):
        compare_batch(good, np.zeros((3, 3), dtype=np.int64))
    with pytest.raises(ValueError, match="'Qx' is not a card"):
        compare_batch(good, "Kh Qx 9d")
    with pytest.raises(TypeError, match="float"):
        compare_batch(good, [[1.5, 2, 3]])


@pytest.mark.parametrize("threads", [0, -1, 1.5, True, "2"])
@pytest.mark.kernels
def test_bad_threads(threads: object) -> None:
    with pytest.raises(ValueError, match=rf"workers must be a positive int \(at most 1024\) or None, got {re.escape(repr(threads))}"):
        rank_batch([[1, 2, 3]], workers=threads)  # type: ignore[arg-type]


@pytest.mark.kernels
def test_out_arrays_are_filled_and_returned(hands: np.ndarray) -> None:
    ranks, pps = _expected(hands)
    out = np.full(len(hands), 99, dtype=np.uint8)
    assert rank_batch(hands, out=out) is out and out.tolist() == ranks
    assert pair_plus_batch(hands, out=out) is out and out.tolist() == pps
    pair = (np.empty(len(hands), np.uint8), np.empty(len(hands), np.uint8))
    both = evaluate_batch(hands, out=pair)
    assert both.rank is pair[0] and both.pair_plus is pair[1]
    assert pair[0].tolist() == ranks and pair[1].tolist() == pps
    cmp_out = np.empty(len(hands) - 1, np.int8)
    assert compare_batch(hands[1:], hands[:-1], out=cmp_out) is cmp_out
    assert cmp_out.tolist() == [compare(x, y) for x, y in zip(hands[1:].tolist(), hands[:-1].tolist(), strict=True)]


@pytest.mark.kernels
def test_bad_out_arrays() -> None:
    hands = np.array([[1, 2, 3], [4, 5, 6]], dtype=np.uint8)
    with pytest.raises(TypeError, match="dtype uint8, not int64"):
        rank_batch(hands, out=np.empty(2, np.int64))
    with pytest.raises(ValueError, match=r"shape \(2,\), got shape \(3,\)"):
        rank_batch(hands, out=np.empty(3, np.uint8))
    with pytest.raises(ValueError, match="contiguous, writable"):
        rank_batch(hands, out=np.empty(4, np.uint8)[::2])
    frozen = np.empty(2, np.uint8)
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="contiguous, writable"):
        pair_plus_batch(hands, out=frozen)
    with pytest.raises(TypeError, match="NumPy array, not list"):
        rank_batch(hands, out=[0, 0])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="overlaps the input"):
        rank_batch(hands, out=hands.reshape(-1)[:2])
    with pytest.raises(TypeError, match="pair of arrays"):
        evaluate_batch(hands, out=np.empty(2, np.uint8))  # type: ignore[arg-type]
    same = np.empty(2, np.uint8)
    with pytest.raises(ValueError, match="must not overlap"):
        evaluate_batch(hands, out=(same, same))
    with pytest.raises(TypeError, match="dtype int8"):
        compare_batch(hands, hands, out=np.empty(2, np.uint8))


@pytest.mark.parametrize(
    ("bad", "error", "match"),
    [
        ("Kh Qs 9d", TypeError, r"not one string: use \['Kh Qs 9d'\]"),
        (["Kh Qs 9d", "Kh Qs"], ValueError, "three cards, got 2: Kh Qs"),
        (["Kh Qs 9x"], ValueError, "'9x' is not a card"),
        ([[1, 2, 52]], ValueError, "card code 52"),
        (5, TypeError, "takes an iterable of hands, not int"),
    ],
)
def test_bad_parse_hands(bad: object, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        parse_hands(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("dtype", [np.uint16, np.int32, np.uint64])
@pytest.mark.kernels
def test_misaligned_arrays_are_read_correctly(dtype: type) -> None:
    """A view into a byte buffer at an odd offset (as arrays arrive through some pickles):
    read as an aligned copy, never through a misaligned pointer (the sanitizer run checks)."""
    codes = np.array([[50, 47, 33], [32, 34, 35], [0, 4, 8]], dtype=dtype)
    raw = np.zeros(codes.nbytes + 1, dtype=np.uint8)
    raw[1:] = codes.view(np.uint8).reshape(-1)
    view = raw[1:].view(dtype).reshape(3, 3)
    assert not view.flags.aligned
    assert (rank_batch(view) == rank_batch(codes)).all()
    assert (compare_batch(view, codes) == 0).all()
