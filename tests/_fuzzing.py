"""What the API fuzz tests share (``tests/test_fuzz_*.py``): calling the API, an oracle
of the rules, the strategies, and the invariants every result must satisfy.

Every public function is called with arbitrary values (text, bytes, numbers of every type
and size, Decimal and Fraction specials, NumPy arrays of every dtype, shape and layout,
nested containers, forged ``HandValue`` objects). The contract checked:

* the call succeeds, or raises ``ValueError`` or ``TypeError`` (anything else, a crash or
  a hang is a failure);
* on success the invariants hold: money is conserved exactly and every amount is of the
  stake's kind; a ``HandValue`` agrees with a fresh evaluation of its cards (by an oracle
  written here from RULES.md, independent of both implementations); the compiled core
  gives what the reference gives.

Each example runs in a forked child (``in_child``, from ``tests/_harness.py``) with a
memory limit and a time limit, so a segfault, an allocation of everything or a hang fails
one example instead of the run. Each test runs ``QUICK_EXAMPLES`` examples by default, and
reports a failure as found, without shrinking it (set ``SANGGONG_FUZZ_SHRINK=1`` to
shrink); the same test with ``LONG_FACTOR`` times as many examples, shrinking included, is
defined beside it as ``<name>_long`` and marked ``fuzz`` (deselected by default:
``pytest -m fuzz``).

Set ``SANGGONG_FUZZ_LOG=<file>`` to log every crash, hang and contract violation seen
(shrinking included) to that file.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import json
import math
import time
import traceback
from collections import Counter
from collections.abc import Callable, Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

import _harness
import numpy as np
import pytest
from _harness import Violation, short
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import sanggong
from sanggong import (
    MACAU,
    ONLINE,
    Card,
    Game,
    HandValue,
    RoundRecord,
    RuleSet,
    _kernels,
    analyze,
    hand_cards,
    limits,
    settle,
)
from sanggong._kernels import twin as ref

# A fuzz module's marks: Hypothesis may print ints of 30,000 digits (the conftest's
# ``unlimited_int_repr`` lifts the int-to-text limit in this process; children run with the
# default one), and warns when a drawn value's repr is huge.
FUZZ_MODULE = [_harness.LARGE_REPR_IS_FINE, pytest.mark.usefixtures("unlimited_int_repr")]


# --- the budget -----------------------------------------------------------------------------------

TIMEOUT = 20.0  # seconds an example may take in its child before it counts as a hang
FAST = 2.0  # seconds within which an out-of-limits value must be refused


# --- calling the API ------------------------------------------------------------------------------

def in_child(fn: Callable[..., Any], /, *args: Any, timeout: float = TIMEOUT, **kwargs: Any) -> Any:
    """``_harness.in_child`` once the caches every child would fill are warm."""
    _warm()
    return _harness.in_child(fn, *args, timeout=timeout, **kwargs)


@functools.cache
def _warm() -> None:
    """Fill the caches every child would otherwise fill again (oracle tables, analysis
    tables, settlement plans) once, in the parent, before the first fork."""
    rank_table()
    for kernels in (ref, _core_module()):
        chosen, _kernels.kernels = _kernels.kernels, kernels
        try:
            analyze(MACAU)
            analyze(ONLINE)
            settle(MACAU, "Kh Qs 9d", {1: "9c 9h 5h"}, {"win:1": 100, "tie:1": 10, "odd": 5})
            settle(ONLINE, "Kh Qs 9d", {1: "9c 9h 5h"}, {"win:1": 100, "pair_plus:banker": 10})
        finally:
            _kernels.kernels = chosen


REFUSED = object()
ALLOWED = (ValueError, TypeError)


def call(fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)``, or ``REFUSED`` when it raises ValueError or TypeError with
    a message; anything else raises a ``Violation`` naming the exception and the call."""
    name = getattr(fn, "__qualname__", short(fn))
    try:
        return fn(*args, **kwargs)
    except ALLOWED as exc:
        if not str(exc).strip():
            raise Violation("EmptyMessage", f"{name}({_args(args, kwargs)}) raised {type(exc).__name__} with no message") from exc
        return REFUSED
    except BaseException as exc:
        text = "".join(traceback.format_exception(exc)[-6:])
        raise Violation(
            f"Raised{type(exc).__name__}", f"{name}({_args(args, kwargs)}) raised {type(exc).__name__}: {short(str(exc), 500)}\n{text}"
        ) from exc


def _args(args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> str:
    return ", ".join([short(a) for a in args] + [f"{k}={short(v)}" for k, v in kwargs.items()])


def _is_int(value: Any) -> bool:
    """An int (an IntEnum such as Rank.KING included), not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def check(condition: bool, message: str, kind: str = "Invariant") -> None:
    if not condition:
        raise Violation(kind, message)


@functools.cache
def _core_module() -> Any:
    import importlib

    for _ in range(50):  # the extension may be rebuilt under us for a few seconds
        try:
            return importlib.import_module("sanggong._core")
        except ImportError:
            time.sleep(0.2)
    return importlib.import_module("sanggong._core")


def other_kernels() -> Any:
    return ref if _kernels.kernels is not ref else _core_module()


class kernels_swapped:  # noqa: N801 - a context manager used like a function
    """Run a block with the other implementation's kernels."""

    def __enter__(self) -> Any:
        self.chosen = _kernels.kernels
        _kernels.kernels = other_kernels()
        return _kernels.kernels

    def __exit__(self, *exc: object) -> None:
        _kernels.kernels = self.chosen


# --- an oracle written from RULES.md, independent of both implementations -------------------------

def oracle_rank(c0: int, c1: int, c2: int) -> int:
    ranks = [c // 4 + 1 for c in (c0, c1, c2)]
    faces = sum(r >= 11 for r in ranks)
    if faces == 3:
        return 30
    points = sum(r if r <= 9 else 0 for r in ranks) % 10
    return 3 * points + faces


def oracle_pair_plus(c0: int, c1: int, c2: int) -> int:
    ranks = sorted(c // 4 + 1 for c in (c0, c1, c2))
    flush = len({c % 4 for c in (c0, c1, c2)}) == 1
    distinct = len(set(ranks))
    straight = distinct == 3 and (ranks[2] - ranks[0] == 2 or ranks == [1, 12, 13])
    if straight and flush:
        return 5
    if distinct == 1:
        return 4
    if straight:
        return 3
    if flush:
        return 2
    return 1 if distinct == 2 else 0


@functools.cache
def rank_table() -> tuple[np.ndarray, np.ndarray]:
    ranks = np.zeros((52, 52, 52), dtype=np.uint8)
    pps = np.zeros((52, 52, 52), dtype=np.uint8)
    for a, b, c in itertools.product(range(52), repeat=3):
        ranks[a, b, c] = oracle_rank(a, b, c)
        pps[a, b, c] = oracle_pair_plus(a, b, c)
    ranks.flags.writeable = False
    pps.flags.writeable = False
    return ranks, pps


def check_hand_value(value: Any, where: str) -> None:
    check(isinstance(value, HandValue), f"{where}: {short(value)} is not a HandValue")
    cards = value.cards
    check(isinstance(cards, tuple) and len(cards) == 3 and all(isinstance(c, Card) for c in cards),
          f"{where}: cards {short(cards)} are not three Cards")
    codes = [c.code for c in cards]
    check(all(type(c) is int and 0 <= c < 52 for c in codes), f"{where}: card codes {codes}")
    check(value.rank == oracle_rank(*codes) and type(value.rank) is int,
          f"{where}: {short(value)} has rank {short(value.rank)}, its cards rank {oracle_rank(*codes)}", "WrongRank")
    check(int(value.pair_plus) == oracle_pair_plus(*codes) and isinstance(value.pair_plus, sanggong.PairPlus),
          f"{where}: {short(value)} has pair plus {short(value.pair_plus)}, its cards {oracle_pair_plus(*codes)}",
          "WrongPairPlus")


# --- strategies: arbitrary values -----------------------------------------------------------------

HUGE_INTS = [2**31, 2**32, 2**53 + 1, 2**63 - 1, 2**63, 2**64 - 1, 2**64, -(2**63) - 1, -(2**64),
             10**15, 10**15 + 1, 10**18, 10**19, 10**30, 10**100, -(10**100), 10**5000, 2**100_000]


def _pick(values: list[Any]) -> st.SearchStrategy[Any]:
    """sampled_from, but by index: Hypothesis prints strategies, and an int of 30,000
    digits in one makes every report enormous."""
    return st.integers(0, len(values) - 1).map(values.__getitem__)


ints = st.one_of(st.integers(-3, 60), st.integers(), _pick(HUGE_INTS))
floats = st.one_of(st.floats(), st.sampled_from([0.0, -0.0, 1.0, 1.5, 100.0, 1e308, 5e-324, math.nan, math.inf, -math.inf]))
SPECIAL_DECIMALS = [
    "NaN", "-NaN", "sNaN", "-sNaN123", "Infinity", "-Infinity", "1e999999999", "-1e999999999", "1e-999999999",
    "0E+999999", "0", "-0", "0.00", "1", "1.000", "100", "0.01", "0.001", "1E+2", "1.01", "0.5", "10000000000000.00",
    "9999999999999.99", "10000000000000.01", "1E+13", "1E+31", "1E-31", "123456789012345678901234567890.12",
]
decimals = st.one_of(
    st.decimals(allow_nan=True, allow_infinity=True),
    st.decimals(min_value=Decimal("0.01"), max_value=Decimal("100000"), places=2),
    st.sampled_from([Decimal(s) for s in SPECIAL_DECIMALS]),
)
fractions_ = st.one_of(
    st.fractions(),
    st.fractions(min_value=Fraction(1, 100), max_value=100, max_denominator=10**7),
    _pick([Fraction(10**1000 + 1, 3), Fraction(1, 10**1000), Fraction(-1, 2), Fraction(1, 3), Fraction(0),
           Fraction(10**15), Fraction(10**15 + 1), Fraction(1, 10**6), Fraction(1, 10**6 + 1), Fraction(10**21, 7)]),
)
numpy_scalars = st.sampled_from([
    np.int8(5), np.uint8(51), np.int32(3), np.int64(-1), np.uint64(2**64 - 1), np.int64(2**63 - 1), np.float64("nan"),
    np.float32(1.5), np.bool_(True), np.str_("Kh"), np.bytes_(b"Kh"), np.datetime64("2020-01-01"),
    np.timedelta64(3, "D"), np.complex128(1j), np.float16(2.0), np.longdouble(1),
])
CARD_TEXTS = [
    "Kh Qs 9d", "KhQs9d", "10h Jh Qh", "K♥ Q♠ 9♦", "J♣ Q♦ K♥", "kh qs 9D", "Kh,Qs,9d", "Kh, Qs , 9d", "Ah 2h 3h",
    "Qh Kh Ah", "Ks Ks Ks", "1h", "Kh Qs", "Kh Qs 9d 8c", "", " ", "\x00", "Ｋh Qs 9d", "٣h 4h 5h", "🂡", "Kh\nQs\t9d",
    "10h10d10c", "Tc", "K♡", "Kx", "K", "h", "Kh Qs 9d\x00", "Kh" * 40, "A♠ A♠ A♠",
]
texts = st.one_of(st.text(max_size=30), st.sampled_from(CARD_TEXTS), st.text(alphabet="AKQJT0123456789cdhs♣♦♥♠ ,", max_size=20))
card_codes = st.integers(0, 51)
cards = st.builds(Card, card_codes)


def genuine_hand(codes: list[int]) -> HandValue:
    return HandValue(tuple(Card(c) for c in codes), oracle_rank(*codes), sanggong.PairPlus(oracle_pair_plus(*codes)))  # type: ignore[arg-type]


three_codes = st.lists(card_codes, min_size=3, max_size=3)


def forge(hand: HandValue, **fields: Any) -> HandValue:
    """``hand`` with some fields replaced, whether or not they fit its cards: by
    ``dataclasses.replace`` where HandValue allows it, else behind its back (a frozen
    dataclass's fields can still be set with ``object.__setattr__``)."""
    try:
        return dataclasses.replace(hand, **fields)
    except (ValueError, TypeError):  # HandValue checks itself: forge it anyway
        forged = dataclasses.replace(hand)
        for name, value in fields.items():
            object.__setattr__(forged, name, value)
        return forged


@st.composite
def forged_hands(draw: st.DrawFn) -> HandValue:
    """A HandValue whose fields need not match its cards (or be sane at all)."""
    hand = genuine_hand(draw(three_codes))
    how = draw(st.sampled_from(["rank-and-pair-plus", "one-field", "genuine"]))
    rank = draw(st.one_of(st.integers(0, 30), ints, st.sampled_from(["3P", None, 1.5])))
    pp = draw(st.one_of(st.sampled_from(list(sanggong.PairPlus)), st.integers(-2, 8), st.none()))
    if how == "rank-and-pair-plus":
        return forge(hand, rank=rank, pair_plus=pp)
    if how == "one-field":
        field = draw(st.sampled_from(["rank", "pair_plus", "cards"]))
        value = {"rank": rank, "pair_plus": pp, "cards": draw(st.one_of(
            st.tuples(cards, cards, cards), st.tuples(cards, cards), st.just((0, 1, 2)), st.just("Kh Qs 9d")))}[field]
        return forge(hand, **{field: value})
    return hand


hand_values = forged_hands()

scalars = st.one_of(ints, floats, decimals, fractions_, texts, st.binary(max_size=12), st.none(), st.booleans(),
                    numpy_scalars, st.complex_numbers(allow_nan=True), cards, st.builds(genuine_hand, three_codes),
                    st.sampled_from([object(), Ellipsis, NotImplemented, int, sanggong.Rank.KING, sanggong.Suit.HEARTS]))
small_arrays = hnp.arrays(
    st.one_of(hnp.scalar_dtypes(), hnp.unsigned_integer_dtypes(endianness="?"), hnp.integer_dtypes(endianness="?")),
    hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4),
)
anything = st.recursive(
    st.one_of(scalars, small_arrays),
    lambda kids: st.one_of(
        st.lists(kids, max_size=5),
        st.tuples(kids, kids, kids),
        st.dictionaries(st.one_of(st.text(max_size=8), st.integers(-3, 20)), kids, max_size=4),
        st.lists(kids, max_size=3).map(iter),
    ),
    max_leaves=10,
)


@st.composite
def hand_forms(draw: st.DrawFn, codes: list[int] | None = None) -> Any:
    """One valid hand in one of the forms the API takes."""
    codes = draw(three_codes) if codes is None else codes
    hand = [Card(c) for c in codes]
    form = draw(st.sampled_from(["text", "packed", "pretty", "list-str", "codes", "cards", "tuple", "mixed", "array",
                                 "handvalue", "iter", "commas", "ten"]))
    if form == "text":
        return " ".join(map(str, hand))
    if form == "packed":
        return "".join(map(str, hand))
    if form == "pretty":
        return " ".join(c.pretty for c in hand)
    if form == "list-str":
        return [str(c).lower() for c in hand]
    if form == "codes":
        return list(codes)
    if form == "cards":
        return hand
    if form == "tuple":
        return tuple(hand)
    if form == "mixed":
        return [hand[0], str(hand[1]), codes[2]]
    if form == "array":
        return np.array(codes, dtype=draw(st.sampled_from([np.uint8, np.int64, np.int16])))
    if form == "handvalue":
        return genuine_hand(codes)
    if form == "iter":
        return iter(hand)
    if form == "commas":
        return ", ".join(map(str, hand))
    return " ".join(str(c).replace("T", "10") for c in hand)


cardish = st.one_of(hand_forms(), anything, st.lists(st.one_of(cards, card_codes, texts, anything), max_size=5),
                    st.sampled_from(CARD_TEXTS), hand_values)


# --- strategies: arrays of every dtype, shape and layout ------------------------------------------

any_dtype = st.one_of(
    hnp.integer_dtypes(endianness="?"),
    hnp.unsigned_integer_dtypes(endianness="?"),
    hnp.integer_dtypes(endianness="?"),
    hnp.unsigned_integer_dtypes(endianness="?"),
    hnp.floating_dtypes(endianness="?"),
    hnp.boolean_dtypes(),
    hnp.complex_number_dtypes(endianness="?"),
    hnp.datetime64_dtypes(endianness="?"),
    hnp.timedelta64_dtypes(endianness="?"),
    hnp.unicode_string_dtypes(max_len=3),
    hnp.byte_string_dtypes(max_len=3),
    st.just(np.dtype(object)),
)
int_dtype = st.one_of(hnp.integer_dtypes(endianness="?"), hnp.unsigned_integer_dtypes(endianness="?"))


def _elements(dtype: np.dtype, lo: int = 0, hi: int = 51) -> st.SearchStrategy[Any]:
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return st.one_of(st.integers(max(lo, int(info.min)), min(hi, int(info.max))),
                         st.integers(max(lo, int(info.min)), min(hi, int(info.max))),
                         st.integers(int(info.min), int(info.max)))
    if dtype.kind == "O":
        return st.one_of(st.integers(lo, hi), st.integers(lo, hi), ints, st.sampled_from(["Kh", None, 1.5, Card(3)]))
    if dtype.kind == "f":
        return st.one_of(st.integers(lo, min(hi, 2048)).map(float), hnp.from_dtype(dtype))
    return hnp.from_dtype(dtype)


@st.composite
def layouts(draw: st.DrawFn, arr: np.ndarray) -> Any:
    """The same values in another memory layout (or as nested lists)."""
    how = draw(st.sampled_from(["as-is", "fortran", "reversed", "reversed-cols", "strided", "read-only",
                                "broadcast", "unaligned", "list", "transposed-back", "as-is", "strided"]))
    if how == "fortran":
        return np.asfortranarray(arr)
    if how == "reversed" and arr.ndim >= 1:
        return arr[::-1][::-1] if draw(st.booleans()) else np.flip(np.flip(arr, 0).copy(), 0)
    if how == "reversed-cols" and arr.ndim >= 2:
        return np.flip(np.flip(arr, 1).copy(), 1)
    if how == "strided" and arr.ndim >= 1:
        step = draw(st.integers(2, 3))
        big = np.zeros(tuple(step * s for s in arr.shape), dtype=arr.dtype)
        index = tuple(slice(None, None, step) for _ in arr.shape)
        big[index] = arr
        return big[index]
    if how == "read-only":
        view = arr.view()
        view.flags.writeable = False
        return view
    if how == "broadcast" and arr.ndim >= 1 and arr.shape[0] >= 1:
        return np.broadcast_to(arr[:1], (draw(st.integers(0, 5)), *arr.shape[1:]))
    if how == "unaligned" and arr.dtype.kind in "iuf" and arr.dtype.itemsize > 1:
        raw = b"\0" + arr.tobytes()
        return np.frombuffer(raw, dtype=arr.dtype, offset=1, count=arr.size).reshape(arr.shape)
    if how == "list" and arr.dtype.kind in "iub":
        return arr.tolist()
    if how == "transposed-back" and arr.ndim == 2:
        return np.ascontiguousarray(arr.T).T
    return arr


@st.composite
def hand_arrays(draw: st.DrawFn, dtypes: st.SearchStrategy[np.dtype] = any_dtype, rows: int | None = None) -> Any:
    """Batches of hands: mostly (n, 3) arrays of codes, also any other shape and dtype."""
    dtype = draw(dtypes)
    shape = draw(st.one_of(
        st.tuples(st.integers(0, 6), st.just(3)) if rows is None else st.just((rows, 3)),
        st.tuples(st.integers(0, 6), st.just(3)) if rows is None else st.just((rows, 3)),
        st.tuples(st.integers(0, 4), st.just(4)),
        hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4),
        st.just((3,)), st.just(()), st.just((0, 3)), st.just((2, 3, 3)),
    ))
    arr = draw(hnp.arrays(dtype, shape, elements=_elements(dtype)))
    return draw(layouts(arr))


# --- strategies: rule fields, stakes, slips and deals ---------------------------------------------

junk_values = st.one_of(
    anything, st.sampled_from(["false", "true", "False", "0", "1", "yes", "no", "", "none", "null", "NaN", "inf", "-1",
                               "1/0", "0/0", "1e999999999", "sNaN", "1/3", "0.05", "-0.05", "10000000", "1e-31"]),
    _pick(HUGE_INTS), st.sampled_from([math.nan, math.inf, -1, 0, 1, 2, 64, 65, 16, 17, 10**6, 10**6 + 1]),
)


def _stake_strategy(kind: str) -> st.SearchStrategy[Any]:
    if kind == "int":
        return st.one_of(st.integers(1, 10_000), st.integers(1, limits.MAX_STAKE), st.just(limits.MAX_STAKE))
    if kind == "decimal":
        return st.one_of(st.decimals(min_value=Decimal("0.01"), max_value=Decimal("10000"), places=2),
                         st.integers(1, 10**6).map(lambda n: Decimal(n) / 100), st.just(Decimal("10000000000000.00")))
    return st.one_of(st.fractions(min_value=Fraction(1, 1000), max_value=10**6, max_denominator=1000),
                     st.just(Fraction(10**15)))


stakes_any = st.one_of(ints, floats, decimals, fractions_, st.none(), st.booleans(), numpy_scalars, texts)


@st.composite
def slips(draw: st.DrawFn, rules: RuleSet, sane: bool = False) -> dict[Any, Any]:
    names = sorted(rules.bets)
    chosen = draw(st.lists(st.sampled_from(names), min_size=1, max_size=6, unique=True))
    kind = draw(st.sampled_from(["int", "decimal", "fraction"]))
    slip: dict[Any, Any] = {name: draw(_stake_strategy(kind)) for name in chosen}
    if rules.tie_requires_win:
        for name in list(slip):
            if name.startswith("tie:"):
                slip.setdefault(f"win:{name[4:]}", draw(_stake_strategy(kind)))
    if not sane:
        for _ in range(draw(st.integers(0, 2))):
            how = draw(st.sampled_from(["stake", "name", "kind", "drop"]))
            if how == "stake" and slip:
                slip[draw(st.sampled_from(sorted(slip, key=repr)))] = draw(stakes_any)
            elif how == "name":
                slip[draw(st.one_of(texts, ints, st.sampled_from(["win:0", "win:01", "win:99", "point:10", "pair_plus:0",
                                                                 "lose:1", "odd:1", "win:+1", "win:1 ", "WIN:1",
                                                                 "pair_plus:banker", "win:١"])))] = draw(_stake_strategy(kind))
            elif how == "kind" and slip:
                slip[draw(st.sampled_from(sorted(slip, key=repr)))] = draw(_stake_strategy(draw(st.sampled_from(["int", "decimal", "fraction"]))))
            elif slip:
                del slip[draw(st.sampled_from(sorted(slip, key=repr)))]
    return slip


@st.composite
def deals(draw: st.DrawFn, rules: RuleSet, distinct: bool = True) -> tuple[list[int], dict[int, list[int]]]:
    """A banker's hand and a hand for every position, cards the shoe can hold."""
    shoe = [c for c in range(52) for _ in range(rules.decks)]
    needed = 3 * rules.hands
    if distinct:
        picked = draw(st.permutations(shoe))[:needed]
    else:
        picked = draw(st.lists(card_codes, min_size=needed, max_size=needed))
    banker = picked[:3]
    hands = {p: picked[3 * p : 3 * p + 3] for p in range(1, rules.hands)}
    return banker, hands


# --- money ----------------------------------------------------------------------------------------

def _kind_of(stake: Any) -> type | None:
    if isinstance(stake, bool):
        return None
    for kind in (int, Decimal, Fraction):
        if isinstance(stake, kind):
            return kind
    return None


def _exact(value: Any) -> Fraction:
    """The exact value of an amount; a non-finite or non-money amount is a violation."""
    if _kind_of(value) is None or (isinstance(value, Decimal) and not value.is_finite()):
        raise Violation("BadAmount", f"{short(value)} is not an amount")
    return Fraction(value)


def _reusable(*values: Any) -> bool:
    """No iterator among the values (or their items): they can be passed again."""
    from collections.abc import Iterator

    for value in values:
        if isinstance(value, Iterator):
            return False
        if isinstance(value, Mapping) and not _reusable(*value.values()):
            return False
        if isinstance(value, list | tuple) and not _reusable(*value):
            return False
    return True


def _dump(result: Any) -> str:
    """A settlement, every amount written with its type (Decimal('1.0') != Decimal('1.00'))."""
    def amount(v: Any) -> str:
        return f"{type(v).__name__}:{v}"

    rows = [(r.bet, amount(r.stake), r.outcome, r.detail, str(r.odds), amount(r.returned), amount(r.commission),
             amount(r.carried)) for r in result.results]
    return repr((str(result.banker.cards), sorted((p, str(h.cards)) for p, h in result.hands.items()), rows,
                 amount(result.staked), amount(result.returned), amount(result.commission), amount(result.carried),
                 amount(result.house_net)))


def _hand_codes(form: Any) -> list[int] | None:
    try:
        value = hand_cards(form.cards if isinstance(form, HandValue) else form)  # a HandValue: its cards, as cards
        return [c.code for c in value]
    except Exception:  # noqa: BLE001
        return None


def _no_constant(name: str) -> Any:
    raise ValueError(f"not strict JSON: {name}")


# --- what every result must satisfy ---------------------------------------------------------------

def check_settlement(rules: RuleSet, result: Any, bets: Mapping[Any, Any], where: str) -> None:
    """The invariants of a successful settlement."""
    check(isinstance(result, sanggong.Settlement), f"{where} = {short(result)}")
    kinds = {_kind_of(s) for s in bets.values()}
    check(len(kinds) <= 1 and None not in kinds, f"{where}: accepted stakes of kinds {kinds}", "AcceptedBadStake")
    kind = kinds.pop() if kinds else int  # an empty slip: nothing staked, in any kind
    check([r.bet for r in result.results] == list(bets), f"{where}: results for {[r.bet for r in result.results]}")
    unit = {int: Fraction(1), Decimal: Fraction(rules.minor_unit), Fraction: Fraction(0)}[kind]
    largest = limits.MAX_STAKE * (unit or 1)
    for r in result.results:
        stake = bets[r.bet]
        for field in ("stake", "returned", "commission", "carried"):
            value = getattr(r, field)
            check(type(value) is kind, f"{where}: {r.bet}.{field} = {short(value)} is not {kind.__name__} money",
                  "WrongMoneyKind")
            if unit:
                check((_exact(value) / unit).denominator == 1, f"{where}: {r.bet}.{field} = {value} is not a whole number "
                      f"of the minor unit", "BadAmount")
        s = _exact(stake)
        check(_exact(r.stake) == s and s > 0, f"{where}: {r.bet} stake {short(r.stake)} for {short(stake)}")
        check(s <= largest, f"{where}: accepted stake {short(stake)} beyond MAX_STAKE", "AcceptedBeyondLimit")
        ret, com, car = _exact(r.returned), _exact(r.commission), _exact(r.carried)
        check(ret >= 0 and com >= 0 and car >= 0, f"{where}: {r.bet} returned {r.returned}, commission {r.commission}, "
              f"carried {r.carried}", "NegativeAmount")
        check(r.outcome in ("win", "lose", "push", "carried"), f"{where}: outcome {r.outcome!r}")
        if r.outcome == "lose":
            check(ret == 0 and car == 0 and com == 0, f"{where}: {r.bet} lost but returned {r.returned}", "MoneyLeak")
        elif r.outcome == "push":
            check(ret == s and car == 0 and com == 0, f"{where}: {r.bet} pushed but returned {r.returned}", "MoneyLeak")
        elif r.outcome == "carried":
            check(car == s and ret == 0 and com == 0, f"{where}: {r.bet} carried {r.carried}", "MoneyLeak")
        else:
            check(isinstance(r.odds, Fraction) and 0 <= r.odds <= limits.MAX_ODDS, f"{where}: {r.bet} won at odds {short(r.odds)}")
            gross = s * (1 + r.odds)
            charged = rules.bet(r.bet).kind in rules.commission_bets and rules.commission
            # the payout, rounded to the minor unit (never past the next unit up), never more
            # than the gross with commission, exactly the gross without either
            check(s <= ret and (ret < gross + unit if unit else ret <= gross if charged else ret == gross) and car == 0,
                  f"{where}: {r.bet} won {r.returned} of {gross}", "MoneyLeak")
            if charged:
                check(ret + com == gross, f"{where}: {r.bet}: returned {r.returned} + commission {r.commission} != {gross}",
                      "MoneyLeak")
            else:
                check(com == 0, f"{where}: {r.bet}: commission {r.commission} on a bet without commission", "MoneyLeak")
    for field in ("staked", "returned", "commission", "carried", "house_net"):
        value = getattr(result, field)
        check(type(value) is kind, f"{where}: {field} = {short(value)} is not {kind.__name__} money", "WrongMoneyKind")
    total = {f: sum((_exact(getattr(r, f)) for r in result.results), Fraction(0))
             for f in ("stake", "returned", "commission", "carried")}
    check(_exact(result.staked) == total["stake"] and _exact(result.returned) == total["returned"]
          and _exact(result.carried) == total["carried"] and _exact(result.commission) == total["commission"],
          f"{where}: totals {result.staked}, {result.returned}, {result.carried} are not the sums", "MoneyNotConserved")
    check(_exact(result.staked) - _exact(result.returned) - _exact(result.carried) == _exact(result.house_net),
          f"{where}: staked {result.staked} - returned {result.returned} - carried {result.carried} != house net "
          f"{result.house_net}", "MoneyNotConserved")
    check_hand_value(result.banker, f"{where}: banker")
    counts = Counter(c.code for c in result.banker.cards)
    for p, h in result.hands.items():
        check(_is_int(p) and 1 <= p <= rules.positions, f"{where}: position {short(p)}")
        check_hand_value(h, f"{where}: hand {p}")
        counts.update(c.code for c in h.cards)
    code, most = counts.most_common(1)[0]
    check(most <= rules.decks, f"{where}: {Card(code)} appears {most} times at a {rules.decks}-deck table",
          "ImpossibleDeal")
    json.loads(json.dumps(result.to_dict()), parse_constant=_no_constant)


def _record_money_ok(record: RoundRecord, where: str) -> None:
    kinds = {_kind_of(v) for v in record.bets.values()} | {_kind_of(v) for v in record.carried.values()}
    check(None not in kinds and len(kinds) <= 1, f"{where}: money of kinds {kinds} in {short(record.bets)}",
          "WrongMoneyKind")
    staked = returned = carried = Fraction(0)
    for r in record.results:
        try:
            amounts = {k: Fraction(r[k]) for k in ("stake", "returned", "commission", "carried", "net")}
        except Exception as exc:  # noqa: BLE001
            raise Violation("AcceptedBadField", f"{where}: result {short(r)} is not a settled bet ({exc!r})") from None
        check(amounts["net"] == amounts["returned"] + amounts["carried"] - amounts["stake"],
              f"{where}: result {r} does not add up", "MoneyNotConserved")
        check(min(amounts["returned"], amounts["commission"], amounts["carried"]) >= 0 and amounts["stake"] > 0,
              f"{where}: result {r}", "NegativeAmount")
        staked += amounts["stake"]
        returned += amounts["returned"]
        carried += amounts["carried"]
    check(sum((Fraction(v) for v in record.carried.values()), Fraction(0)) == carried,
          f"{where}: carried {dict(record.carried)} but the results carry {carried}", "MoneyNotConserved")


def check_record(rules: RuleSet, record: Any, where: str, replay: bool = True, table: bool = True) -> None:
    """A round record's invariants; ``table``: it was dealt at ``rules``' table (its
    positions and decks), not only read from a file."""
    check(isinstance(record, RoundRecord), f"{where}: {short(record)}")
    check_hand_value(record.banker, f"{where}: banker")
    counts = Counter(c.code for c in record.banker.cards)
    counts.update(c.code for c in record.burned)
    for p, h in record.hands.items():
        check(_is_int(p) and 1 <= p <= (rules.positions if table else limits.MAX_POSITIONS),
              f"{where}: position {short(p)}", "AcceptedBadField")
        check_hand_value(h, f"{where}: hand {p}")
        counts.update(c.code for c in h.cards)
    if counts and table:
        code, most = counts.most_common(1)[0]
        check(most <= rules.decks, f"{where}: {Card(code)} dealt {most} times in a round of {rules.decks} deck(s)",
              "ImpossibleDeal")
    _record_money_ok(record, where)
    text = call(record.to_json)
    check(text is not REFUSED, f"{where}: to_json refused")
    data = json.loads(text, parse_constant=_no_constant)
    back = call(RoundRecord.from_json, text)
    check(back is not REFUSED and back == record, f"{where}: from_json(to_json) gives {short(back)}", "NoRoundTrip")
    check(data == record.to_dict() or json.loads(json.dumps(record.to_dict())) == data, f"{where}: to_dict/to_json differ")
    if replay and record.shoe_state is not None:
        again = call(Game.replay_record, rules, back)
        check(again is not REFUSED and again == record,
              f"{where}: replay_record gives {short(again)}\n  record {short(record)}", "ReplayDiffers")


def check_analysis(table: Any, shoe: Any, where: str) -> None:
    counts = [int(c) for c in np.asarray(shoe).reshape(-1)]
    n = sum(counts)
    check(tuple(table.counts) == tuple(counts), f"{where}: counts {short(table.counts)}")
    check(set(table.bets) == set(table.rules.bets), f"{where}: bets {sorted(table.bets)}")
    for name, bet in table.bets.items():
        total = sum(line.combinations for line in bet.outcomes)
        check(total == bet.total, f"{where}: {name}: outcomes sum to {total}, total {bet.total}", "CountsDontAddUp")
        position = table.rules.bet(name).kind in ("win", "lose", "tie")
        expected = math.comb(n, 3) * math.comb(n - 3, 3) if position else math.comb(n, 3)
        check(bet.total == expected, f"{where}: {name}: total {bet.total}, expected {expected}", "CountsDontAddUp")
        check(all(line.combinations >= 0 and type(line.combinations) is int for line in bet.outcomes), f"{where}: {name}")
        check(isinstance(bet.ev_exact, Fraction), f"{where}: {name}: ev_exact {short(bet.ev_exact)}")
    text = json.dumps(table.to_dict())
    json.loads(text, parse_constant=_no_constant)
