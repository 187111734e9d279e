"""Fuzzing the card and hand functions and the batch functions (and their kernels, called directly).

The contract, the harness and the budget: ``tests/_fuzzing.py``.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import numpy as np
import pytest
from _fuzzing import (
    FUZZ_MODULE,
    REFUSED,
    _core_module,
    _elements,
    _reusable,
    any_dtype,
    anything,
    call,
    cardish,
    check,
    check_hand_value,
    hand_arrays,
    hand_forms,
    hand_values,
    in_child,
    int_dtype,
    kernels_swapped,
    layouts,
    oracle_rank,
    rank_table,
)
from _harness import Violation, fuzz, short
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import sanggong
from sanggong import (
    Card,
    HandValue,
    compare,
    compare_batch,
    evaluate,
    evaluate_batch,
    hand_cards,
    pair_plus_batch,
    parse_card,
    parse_cards,
    parse_hands,
    rank_batch,
)
from sanggong._kernels import twin as ref

pytestmark = FUZZ_MODULE


# --- cards and hands ------------------------------------------------------------------------------

def check_card_function(name: str, x: Any) -> None:
    fn = {"parse_card": parse_card, "parse_cards": parse_cards, "Card": Card, "Card.parse": Card.parse,
          "hand_cards": hand_cards, "evaluate": evaluate}[name]
    result = call(fn, x)
    if result is REFUSED:
        return
    if name in ("parse_card", "Card", "Card.parse"):
        check(isinstance(result, Card) and isinstance(result.code, int), f"{name}({short(x)}) = {short(result)}")
        check(0 <= result.code < 52, f"{name}({short(x)}) made a card of code {short(result.code)}", "BadCardCode")
        check(Card.parse(str(result)) == result, f"{name}({short(x)}) = {short(result)} does not print back")
    elif name in ("parse_cards", "hand_cards"):
        check(isinstance(result, tuple) and all(isinstance(c, Card) and 0 <= c.code < 52 for c in result),
              f"{name}({short(x)}) = {short(result)}")
        if name == "hand_cards":
            check(len(result) == 3, f"hand_cards({short(x)}) gave {len(result)} cards")
    else:
        check_hand_value(result, f"evaluate({short(x)})")
        with kernels_swapped():
            again = evaluate(result.cards)
        check(again == result, f"evaluate({short(x)}): {short(result)} here, {short(again)} with the other kernels",
              "ImplementationsDiffer")


CARD_FUNCTIONS = ["parse_card", "parse_cards", "Card", "Card.parse", "hand_cards", "evaluate"]


@fuzz(st.sampled_from(CARD_FUNCTIONS), cardish)
@pytest.mark.kernels
def test_card_functions_take_anything(name: str, x: Any) -> None:
    in_child(check_card_function, name, x)


@fuzz(st.sampled_from(CARD_FUNCTIONS), hand_forms())
@pytest.mark.kernels
def test_card_functions_on_valid_hands(name: str, x: Any) -> None:
    in_child(check_card_function, name, x)


def check_compare(a: Any, b: Any) -> None:
    result = call(compare, a, b)
    if result is REFUSED or not _reusable(a, b):
        return
    check(result in (-1, 0, 1) and type(result) is int, f"compare -> {short(result)}")
    ha, hb = evaluate(a if not isinstance(a, HandValue) else a.cards), evaluate(b if not isinstance(b, HandValue) else b.cards)
    ra, rb = oracle_rank(*(c.code for c in ha.cards)), oracle_rank(*(c.code for c in hb.cards))
    check(result == (ra > rb) - (ra < rb), f"compare({short(a)}, {short(b)}) = {result}, the cards' ranks are {ra} and {rb}",
          "WrongCompare")


@fuzz(st.one_of(hand_forms(), cardish, hand_values), st.one_of(hand_forms(), cardish, hand_values))
@pytest.mark.kernels
def test_compare_takes_anything(a: Any, b: Any) -> None:
    in_child(check_compare, a, b)


def check_parse_hands(x: Any) -> None:
    result = call(parse_hands, x)
    if result is REFUSED:
        return
    check(isinstance(result, np.ndarray) and result.dtype == np.uint8 and result.ndim == 2 and result.shape[1] == 3,
          f"parse_hands({short(x)}) = {short(result)}")
    check(bool((result < 52).all()), f"parse_hands({short(x)}) holds a code above 51", "BadCardCode")


@fuzz(st.one_of(anything, st.lists(st.one_of(hand_forms(), hand_values, cardish), max_size=4),
                st.lists(hand_forms(), max_size=4)))
@pytest.mark.kernels
def test_parse_hands_takes_anything(x: Any) -> None:
    in_child(check_parse_hands, x)


# --- batches --------------------------------------------------------------------------------------

def _rows(x: Any) -> np.ndarray:
    """The (n, 3) int64 codes a batch argument holds, as the API reads them."""
    if isinstance(x, str):
        return np.array([[c.code for c in hand_cards(x)]], dtype=np.int64)
    if isinstance(x, HandValue):
        return np.array([[c.code for c in x.cards]], dtype=np.int64)
    arr = np.asarray(x)
    if arr.ndim == 1 and arr.shape[0] == 3:
        arr = arr.reshape(1, 3)
    return arr.astype(np.int64)


threads_values = st.one_of(st.just(1), st.just(None), st.integers(1, 4), st.sampled_from(
    [0, -1, 2**63, 10**30, 1.5, "2", True, False, np.int64(2), Decimal(2), [2]]))


@st.composite
def outs(draw: st.DrawFn, n_hint: int, dtype: Any, hands: Any) -> Any:
    how = draw(st.sampled_from(["none", "none", "fresh", "fresh", "wrong-dtype", "wrong-shape", "strided", "read-only",
                                "alias", "list", "junk", "2d"]))
    n = max(n_hint, 0)
    if how == "none":
        return None
    if how == "fresh":
        return np.full(n, 77, dtype=dtype)
    if how == "wrong-dtype":
        return np.zeros(n, dtype=draw(st.sampled_from([np.int64, np.uint16, np.float32, np.int8, np.uint8, np.bool_])))
    if how == "wrong-shape":
        return np.zeros(draw(st.integers(0, 8)), dtype=dtype)
    if how == "strided":
        return np.zeros(2 * n, dtype=dtype)[::2]
    if how == "read-only":
        out = np.zeros(n, dtype=dtype)
        out.flags.writeable = False
        return out
    if (how == "alias" and isinstance(hands, np.ndarray) and hands.flags.writeable and hands.flags.c_contiguous
            and hands.dtype.kind in "iufcbmM"):
        return hands.reshape(-1).view(np.uint8)[:n].view(dtype)  # out overlaps the input
    if how == "list":
        return [0] * n
    if how == "2d":
        return np.zeros((n, 1), dtype=dtype)
    return draw(anything)


def check_batch(kind: str, hands: Any, other: Any, out: Any, threads: Any) -> None:
    fn = {"rank": rank_batch, "pair_plus": pair_plus_batch, "evaluate": evaluate_batch, "compare": compare_batch}[kind]
    args = (hands, other) if kind == "compare" else (hands,)
    kwargs: dict[str, Any] = {"workers": threads}
    if out is not None:
        kwargs["out"] = out
    before = hands.tobytes() if isinstance(hands, np.ndarray) and hands.dtype.kind != "O" else None
    result = call(fn, *args, **kwargs)
    if before is not None:
        check(hands.tobytes() == before, f"{kind}_batch changed its input", "InputChanged")
    if result is REFUSED:
        return
    x = _rows(hands)
    check(x.ndim == 2 and x.shape[1] == 3, f"{kind}_batch accepted shape {x.shape}")
    if kind == "compare":
        y = _rows(other)
        if len(x) == 1 and len(y) != 1:
            x = np.broadcast_to(x, y.shape)
        elif len(y) == 1 and len(x) != 1:
            y = np.broadcast_to(y, x.shape)
        for side in (x, y):
            check(bool(((side >= 0) & (side < 52)).all()), f"compare_batch accepted a code outside 0..51: {short(side)}",
                  "AcceptedBadCode")
        ranks, _ = rank_table()
        ra, rb = ranks[x[:, 0], x[:, 1], x[:, 2]].astype(int), ranks[y[:, 0], y[:, 1], y[:, 2]].astype(int)
        expected = np.sign(ra - rb).astype(np.int8)
        got = np.asarray(result)
        check(got.dtype == np.int8 and np.array_equal(got, expected),
              f"compare_batch({short(hands)}, {short(other)}) = {short(got)}, expected {short(expected)}", "WrongBatch")
        if out is not None:
            check(result is out, "compare_batch(out=...) did not return out")
        with kernels_swapped():
            again = compare_batch(*args, workers=1)
        check(np.array_equal(again, got), f"compare_batch: {short(got)} here, {short(again)} with the other kernels",
              "ImplementationsDiffer")
        return
    check(bool(((x >= 0) & (x < 52)).all()), f"{kind}_batch accepted a code outside 0..51: {short(x)}", "AcceptedBadCode")
    ranks, pps = rank_table()
    expected_rank = ranks[x[:, 0], x[:, 1], x[:, 2]]
    expected_pp = pps[x[:, 0], x[:, 1], x[:, 2]]
    if kind == "evaluate":
        check(isinstance(result, sanggong.BatchValues), f"evaluate_batch returned {short(result)}")
        got = (result.rank, result.pair_plus)
        want = (expected_rank, expected_pp)
        if out is not None:  # (an entry None: allocated, as without out)
            check(all(o is None or r is o for r, o in zip((result.rank, result.pair_plus), out, strict=False)),
                  "evaluate_batch(out=...) did not return out")
    else:
        got = (result,)
        want = (expected_rank if kind == "rank" else expected_pp,)
        if out is not None:
            check(result is out, f"{kind}_batch(out=...) did not return out")
    for g, w in zip(got, want, strict=False):
        check(isinstance(g, np.ndarray) and g.dtype == np.uint8 and np.array_equal(g, w),
              f"{kind}_batch({short(hands)}) = {short(g)}, expected {short(w)}", "WrongBatch")
    with kernels_swapped():
        again = fn(*args, workers=1)
    again = again if kind != "evaluate" else again.rank
    check(np.array_equal(again, got[0]), f"{kind}_batch: {short(got[0])} here, {short(again)} with the other kernels",
          "ImplementationsDiffer")


@st.composite
def batch_calls(draw: st.DrawFn, dtypes: st.SearchStrategy[np.dtype] = any_dtype) -> tuple[Any, ...]:
    kind = draw(st.sampled_from(["rank", "pair_plus", "evaluate", "compare"]))
    hands = draw(st.one_of(hand_arrays(dtypes), hand_arrays(dtypes), anything))
    n = len(hands) if isinstance(hands, np.ndarray) and hands.ndim >= 1 else 1
    other = None
    if kind == "compare":
        other = draw(st.one_of(hand_forms(), hand_arrays(dtypes, rows=n), hand_arrays(dtypes), hand_values, anything))
        dtype: Any = np.int8
    else:
        dtype = np.uint8
    if kind == "evaluate":
        how = draw(st.sampled_from(["none", "pair", "pair", "same-twice", "junk", "one"]))
        out: Any = {
            "none": None,
            "pair": (draw(outs(n, np.uint8, hands)) if draw(st.booleans()) else np.zeros(n, np.uint8),
                     np.zeros(n, np.uint8)),
            "same-twice": (lambda a: (a, a))(np.zeros(n, np.uint8)),
            "junk": draw(anything),
            "one": np.zeros(n, np.uint8),
        }[how]
    else:
        out = draw(outs(n, dtype, hands))
    return kind, hands, other, out, draw(threads_values)


@fuzz(batch_calls())
@pytest.mark.kernels
def test_batch_functions_take_any_array(case: tuple[Any, ...]) -> None:
    in_child(check_batch, *case)


@fuzz(batch_calls(int_dtype))
@pytest.mark.kernels
def test_batch_functions_on_integer_arrays(case: tuple[Any, ...]) -> None:
    in_child(check_batch, *case)


@st.composite
def big_batches(draw: st.DrawFn) -> tuple[Any, ...]:
    """Batches large enough to be split over threads, in odd layouts, a bad code or not."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32)))
    n = 2 * (1 << 16) + draw(st.integers(0, 5000))
    dtype = draw(int_dtype)
    arr = rng.integers(0, 52, size=(n, 3)).astype(dtype)
    if draw(st.booleans()):
        row = draw(st.integers(0, n - 1))
        info = np.iinfo(dtype)
        arr[row, draw(st.integers(0, 2))] = draw(st.sampled_from([int(info.max), int(info.min), 52]))
    how = draw(st.sampled_from(["fortran", "reversed", "strided", "read-only", "as-is"]))
    if how == "fortran":
        arr = np.asfortranarray(arr)
    elif how == "reversed":
        arr = arr[::-1]
    elif how == "strided":
        big = np.zeros((n, 6), dtype=dtype)
        big[:, ::2] = arr
        arr = big[:, ::2]
    elif how == "read-only":
        arr.flags.writeable = False
    kind = draw(st.sampled_from(["rank", "pair_plus", "evaluate", "compare"]))
    other = draw(st.sampled_from(["Kh Qs 9d", None])) if kind == "compare" else None
    if kind == "compare" and other is None:
        other = arr[::-1]
    return kind, arr, other, None, draw(st.sampled_from([2, 3, 8, None, 10**9]))


@fuzz(big_batches(), examples=2)
@pytest.mark.kernels
def test_batch_functions_split_over_threads(case: tuple[Any, ...]) -> None:
    in_child(check_batch, *case, timeout=60)


def check_kernels_agree(name: str, hands: np.ndarray, other: np.ndarray) -> None:
    """The private kernels, called directly: the compiled core and the reference give
    the same return value and write the same output, or both refuse."""
    results = []
    for kernels in (_core_module(), ref):
        n = len(hands) if hands.ndim >= 1 else 0
        outs_ = ([np.full(n, 99, np.uint8)] if name != "evaluate_batch" else [np.full(n, 99, np.uint8), np.full(n, 99, np.uint8)])
        if name == "compare_batch":
            outs_ = [np.full(n, 99, np.int8)]
        args = (hands, other) if name == "compare_batch" else (hands,)
        try:
            value = getattr(kernels, name)(*args, *outs_)
            results.append(("ok", value, [o.tolist() for o in outs_] if value is None or value < 0 else None))
        except (ValueError, TypeError) as exc:
            results.append(("refused", type(exc).__name__, None))
        except BaseException as exc:
            raise Violation(type(exc).__name__, f"{kernels.IMPLEMENTATION}.{name}({short(hands)}) raised {type(exc).__name__}: {exc}") from exc
    check(results[0][0] == results[1][0], f"{name}({short(hands)}): cython {results[0]}, python {results[1]}",
          "ImplementationsDiffer")
    if results[0][0] == "ok":
        check(results[0][1:] == results[1][1:], f"{name}({short(hands)}): cython {short(results[0])}, python {short(results[1])}",
              "ImplementationsDiffer")


@st.composite
def kernel_inputs(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray]:
    """(n, 3) arrays of a native integer dtype in any layout, as the public layer hands
    them to the kernels, codes in range or not; two of the same length."""
    dtype = draw(st.sampled_from(sorted({np.dtype(t).str for t in (np.uint8, np.int8, np.uint16, np.int16, np.uint32,
                                                                     np.int32, np.uint64, np.int64)}))).replace("<", "=")
    dtype = np.dtype(dtype)
    n = draw(st.integers(0, 8))
    pair = []
    for _ in range(2):
        arr = draw(hnp.arrays(dtype, (n, 3), elements=_elements(dtype)))
        laid = draw(layouts(arr))
        pair.append(laid if isinstance(laid, np.ndarray) and laid.shape == (n, 3) else arr)
    return pair[0], pair[1]


@fuzz(st.sampled_from(["rank_batch", "pair_plus_batch", "evaluate_batch", "compare_batch"]), kernel_inputs())
def test_kernels_agree(name: str, arrays: tuple[np.ndarray, np.ndarray]) -> None:
    """Compares the two implementations directly, so it runs once."""
    in_child(check_kernels_agree, name, *arrays)
