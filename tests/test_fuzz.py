"""Fuzzing the public API: arbitrary values in, only ``ValueError``/``TypeError`` out.

Every public function is called with arbitrary values (text, bytes, numbers of every type
and size, Decimal and Fraction specials, NumPy arrays of every dtype, shape and layout,
nested containers, forged ``HandValue`` objects). The contract checked:

* the call succeeds, or raises ``ValueError`` or ``TypeError`` (anything else, a crash or
  a hang is a failure);
* on success the invariants hold: money is conserved exactly and every amount is of the
  stake's kind; a ``HandValue`` agrees with a fresh evaluation of its cards (by an oracle
  written here from RULES.md, independent of both implementations); the compiled core
  gives what the reference gives.

Each example runs in a forked child (``in_child``) with a memory limit and a time limit,
so a segfault, an allocation of everything or a hang fails one example instead of the
run. Each test runs ``QUICK_EXAMPLES`` examples by default, and reports a failure as
found, without shrinking it (set ``SANGGONG_FUZZ_SHRINK=1`` to shrink); the same test
with ``LONG_FACTOR`` times as many examples, shrinking included, is defined beside it as
``<name>_long`` and marked ``fuzz`` (deselected by default: ``pytest -m fuzz``).

Set ``SANGGONG_FUZZ_LOG=<file>`` to log every crash, hang and contract violation seen
(shrinking included) to that file.
"""

from __future__ import annotations

import dataclasses
import decimal
import functools
import itertools
import json
import math
import os
import pickle
import re
import resource
import select
import signal
import sys
import tempfile
import time
import traceback
import warnings
from collections import Counter
from collections.abc import Callable, Mapping
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

with warnings.catch_warnings():  # its first import warns (libcst's mypy_extensions), which
    warnings.simplefilter("ignore")  # filterwarnings=error turns into an INTERNALERROR when
    try:  # Hypothesis writes the patch of a failing example: import it once, quietly, here
        import hypothesis.extra._patching  # noqa: F401
    except ImportError:
        pass

import sanggong
from sanggong import (
    MACAU,
    ONLINE,
    Card,
    Game,
    HandValue,
    ObservedTable,
    RoundRecord,
    RuleSet,
    TableSession,
    analyze,
    compare,
    compare_batch,
    composition,
    effect_of_removal,
    evaluate,
    evaluate_batch,
    hand_cards,
    pair_plus_batch,
    parse_card,
    parse_cards,
    parse_hands,
    rank_batch,
    settle,
)
from sanggong import _impl, limits
from sanggong import _pykernels as ref
from sanggong.simulation import simulate, simulate_sessions

# --- budget ----------------------------------------------------------------------------------

QUICK_EXAMPLES = 30  # with the other two files, the default run stays under 90 s for both implementations
LONG_FACTOR = int(os.environ.get("SANGGONG_FUZZ_FACTOR", "50"))
SHRINK = os.environ.get("SANGGONG_FUZZ_SHRINK", "") not in ("", "0")  # the quick run reports failures unshrunk
TIMEOUT = 20.0  # seconds an example may take in its child before it counts as a hang
FAST = 2.0  # seconds within which an out-of-limits value must be refused

BASE = settings(
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
    print_blob=True,
)


NO_SHRINK = [p for p in Phase if p not in (Phase.shrink, Phase.explain)]


def fuzz(*given_args: Any, examples: int = QUICK_EXAMPLES, **given_kwargs: Any) -> Callable[[Any], Any]:
    """``@given`` with this suite's budget: the decorated test runs ``examples`` examples,
    and a twin named ``<test>_long``, marked ``fuzz``, runs ``LONG_FACTOR`` times as many."""

    def decorate(body: Callable[..., None]) -> Any:
        scope = sys._getframe(1).f_globals
        long_test = settings(BASE, max_examples=examples * LONG_FACTOR)(given(*given_args, **given_kwargs)(body))
        scope[f"{body.__name__}_long"] = pytest.mark.fuzz(long_test)
        quick = settings(BASE, max_examples=examples, phases=list(Phase) if SHRINK else NO_SHRINK)
        return quick(given(*given_args, **given_kwargs)(body))

    return decorate


# --- running one example in a child --------------------------------------------------------------

INT_DIGITS = sys.get_int_max_str_digits()

# Hypothesis warns when the repr of a drawn value is huge (an int of 30,000 digits is):
# not a failure of sanggong's, and filterwarnings=error would make it one
pytestmark = pytest.mark.filterwarnings("ignore:Generating overly large repr:hypothesis.errors.HypothesisWarning")


@pytest.fixture(autouse=True, scope="module")
def _unlimited_int_repr() -> Any:
    """Hypothesis prints (and checks) the values it draws, ints of 30,000 digits
    included: lift Python's limit on int-to-text in this process while these tests run.
    The children, which call sanggong, run with the interpreter's default limit."""
    sys.set_int_max_str_digits(0)
    yield
    sys.set_int_max_str_digits(INT_DIGITS)


_FAILURES: dict[str, type[AssertionError]] = {}


def failure(kind: str) -> type[AssertionError]:
    """An AssertionError subclass per kind of failure, so that Hypothesis reports distinct
    failures (a KeyError and a crash) separately instead of shrinking them into one."""
    name = "".join(ch if ch.isalnum() else "_" for ch in kind) or "Failure"
    if name not in _FAILURES:
        _FAILURES[name] = type(name, (AssertionError,), {})
    return _FAILURES[name]


class Violation(Exception):
    """Raised in a child: a call broke the contract. ``kind`` names what it raised."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def _log(kind: str, message: str) -> None:
    path = os.environ.get("SANGGONG_FUZZ_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps({"impl": _impl.kernels.IMPLEMENTATION, "kind": kind, "message": message[:3000]}) + "\n")


def _vm_bytes() -> int:
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


@functools.cache
def _warm() -> None:
    """Fill the caches every child would otherwise fill again (oracle tables, analysis
    tables, settlement plans) once, in the parent, before the first fork."""
    rank_table()
    for kernels in (ref, _core_module()):
        chosen, _impl.kernels = _impl.kernels, kernels
        try:
            analyze(MACAU)
            analyze(ONLINE)
            settle(MACAU, "Kh Qs 9d", {1: "9c 9h 5h"}, {"win:1": 100, "tie:1": 10, "odd": 5})
            settle(ONLINE, "Kh Qs 9d", {1: "9c 9h 5h"}, {"win:1": 100, "pair_plus:banker": 10})
        finally:
            _impl.kernels = chosen


def in_child(fn: Callable[..., Any], /, *args: Any, timeout: float = TIMEOUT, **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)`` in a forked child under a memory limit (3 GiB more than
    now) and a time limit; returns its result (pickled back). A crash (a signal), a hang
    or any exception in the child fails here with a failure class named after it."""
    _warm()
    sys.stdout.flush()
    sys.stderr.flush()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 0
        try:
            os.close(r)
            sys.set_int_max_str_digits(INT_DIGITS)
            limit = _vm_bytes() + (3 << 30)
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
            try:
                payload = ("ok", fn(*args, **kwargs))
                data = pickle.dumps(payload)
            except Violation as exc:
                data = pickle.dumps(("violation", exc.kind, str(exc)))
            except BaseException as exc:  # noqa: BLE001 - everything is reported
                text = "".join(traceback.format_exception(exc))
                data = pickle.dumps(("raised", type(exc).__name__, text))
            with os.fdopen(w, "wb") as out:
                out.write(data)
        except BaseException:  # noqa: BLE001
            code = 3
        finally:
            os._exit(code)
    os.close(w)
    chunks, deadline, hung = [], time.monotonic() + timeout, False
    with os.fdopen(r, "rb") as pipe:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                hung = True
                break
            ready, _, _ = select.select([pipe], [], [], left)
            if ready:
                chunk = os.read(pipe.fileno(), 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
    if hung:
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    where = f"{getattr(fn, '__name__', fn)}({', '.join(short(a) for a in args)}" + "".join(
        f", {k}={short(v)}" for k, v in kwargs.items()) + ")"
    if hung:
        message = f"HANG: {where} took more than {timeout} s"
        _log("hang", message)
        raise failure("Hang")(message)
    if os.WIFSIGNALED(status):
        name = signal.Signals(os.WTERMSIG(status)).name
        message = f"CRASH: {where} killed the process with {name}"
        _log(f"crash {name}", message)
        raise failure(f"Crash_{name}")(message)
    if not chunks:
        raise failure("ChildLost")(f"{where}: the child exited with status {os.WEXITSTATUS(status)} and no report")
    payload = pickle.loads(b"".join(chunks))
    if payload[0] == "ok":
        return payload[1]
    if payload[0] == "violation":
        _log(payload[1], payload[2])
        raise failure(payload[1])(payload[2])
    _log(f"check raised {payload[1]}", payload[2])
    raise failure(f"CheckRaised{payload[1]}")(f"{where}:\n{payload[2]}")


def short(value: Any, limit: int = 300) -> str:
    """A repr that never fails (ints beyond the str limit, sNaN) and stays short."""
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001
        if isinstance(value, int):
            text = f"<int of {value.bit_length()} bits>"
        else:
            text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 20] + f"...<{len(text)} chars>"


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
    except BaseException as exc:  # noqa: BLE001 - anything else breaks the contract
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
    return ref if _impl.kernels is not ref else _core_module()


class kernels_swapped:  # noqa: N801 - a context manager used like a function
    """Run a block with the other implementation's kernels."""

    def __enter__(self) -> Any:
        self.chosen = _impl.kernels
        _impl.kernels = other_kernels()
        return _impl.kernels

    def __exit__(self, *exc: object) -> None:
        _impl.kernels = self.chosen


# --- an oracle written from RULES.md, independent of both implementations ------------------------


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


# --- strategies: arbitrary values ------------------------------------------------------------------

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

# --- strategies: arrays of every dtype, shape and layout --------------------------------------------

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


# --- cards and hands -------------------------------------------------------------------------------------


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
def test_card_functions_take_anything(name: str, x: Any) -> None:
    in_child(check_card_function, name, x)


@fuzz(st.sampled_from(CARD_FUNCTIONS), hand_forms())
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
def test_parse_hands_takes_anything(x: Any) -> None:
    in_child(check_parse_hands, x)


# --- batches ---------------------------------------------------------------------------------------------


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
            check(all(o is None or r is o for r, o in zip((result.rank, result.pair_plus), out)),
                  "evaluate_batch(out=...) did not return out")
    else:
        got = (result,)
        want = (expected_rank if kind == "rank" else expected_pp,)
        if out is not None:
            check(result is out, f"{kind}_batch(out=...) did not return out")
    for g, w in zip(got, want):
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
def test_batch_functions_take_any_array(case: tuple[Any, ...]) -> None:
    in_child(check_batch, *case)


@fuzz(batch_calls(int_dtype))
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
        except BaseException as exc:  # noqa: BLE001
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
@pytest.mark.single_impl
def test_kernels_agree(name: str, arrays: tuple[np.ndarray, np.ndarray]) -> None:
    """Compares the two implementations directly, so it runs once."""
    in_child(check_kernels_agree, name, *arrays)


# --- rule sets -----------------------------------------------------------------------------------------------

BOOL_FIELDS = ("tie_requires_win", "deal_one_at_a_time", "head_card", "head_card_burned")
junk_values = st.one_of(
    anything, st.sampled_from(["false", "true", "False", "0", "1", "yes", "no", "", "none", "null", "NaN", "inf", "-1",
                               "1/0", "0/0", "1e999999999", "sNaN", "1/3", "0.05", "-0.05", "10000000", "1e-31"]),
    _pick(HUGE_INTS), st.sampled_from([math.nan, math.inf, -1, 0, 1, 2, 64, 65, 16, 17, 10**6, 10**6 + 1]),
)


@st.composite
def rule_dicts(draw: st.DrawFn) -> dict[str, Any]:
    """A rule set's dict: a preset's, some fields changed to sensible values, some to junk."""
    data = draw(st.sampled_from([MACAU, ONLINE, MACAU.replace(decks=1, positions=3)])).to_dict()
    sensible = {
        "decks": st.integers(1, 10) | st.sampled_from([64, 65, 1000]),
        "positions": st.integers(1, 8) | st.sampled_from([16, 17]),
        "commission": st.sampled_from([0, "1/20", "3/100", "0.05", 0.05, "1/3", "999999/1000000", "1/1000001"]),
        "tie_by": st.sampled_from(["class", "points"]),
        "push": st.sampled_from(["carried", "returned"]),
        "rounding": st.sampled_from(["down", "up", "half_up", "half_even"]),
        "minor_unit": st.sampled_from(["0.01", "1", "0.5", "0.001", "1e-30", "1e-31", "1E+30", 1, 0.01]),
        "burn_after_shuffle": st.integers(0, 5) | st.sampled_from([64, 65]),
        "burn_per_round": st.integers(0, 3) | st.sampled_from([64, 65]),
        "cut_card_range": st.tuples(st.integers(1, 60), st.integers(1, 80)).map(list),
        "banker_three_faces_point": st.sampled_from([0, 9, "none", None, 10]),
        "tie_requires_win": st.booleans(), "deal_one_at_a_time": st.booleans(),
        "head_card": st.booleans(), "head_card_burned": st.booleans(),
        "name": st.text(min_size=1, max_size=10),
    }
    for key in draw(st.lists(st.sampled_from(sorted(sensible)), max_size=4, unique=True)):
        data[key] = draw(sensible[key])
    if draw(st.booleans()):
        pays = dict(data["pays"])
        key = draw(st.sampled_from(sorted(pays)))
        pays[key] = draw(st.one_of(st.integers(0, 50), st.sampled_from(["1/2", "19/20", "1000000", "1000001", "1/1000001",
                                                                           10**6, 10**6 + 1, 10**30, "0.94"]), junk_values))
        data["pays"] = pays
    for _ in range(draw(st.integers(0, 2))):
        how = draw(st.sampled_from(["junk", "delete", "unknown", "bool-string"]))
        if how == "junk" and data:
            data[draw(st.sampled_from(sorted(data)))] = draw(junk_values)
        elif how == "delete" and data:
            del data[draw(st.sampled_from(sorted(data)))]
        elif how == "unknown":
            data[draw(st.text(max_size=8))] = draw(junk_values)
        else:
            data[draw(st.sampled_from(BOOL_FIELDS))] = draw(st.sampled_from(["false", "true", "0", "no", 0, 1, 2, None]))
    return data


def check_rules_valid(rules: RuleSet, where: str) -> None:
    """What every accepted rule set must satisfy (the limits of sanggong.limits)."""
    check(isinstance(rules, RuleSet), f"{where} = {short(rules)}")
    for name in ("decks", "positions", "burn_per_round"):
        value = getattr(rules, name)
        check(_is_int(value), f"{where}: {name} = {short(value)} is not an int", "AcceptedBadField")
    check(1 <= rules.decks <= limits.MAX_DECKS, f"{where}: decks = {short(rules.decks)}", "AcceptedBeyondLimit")
    check(1 <= rules.positions <= limits.MAX_POSITIONS, f"{where}: positions = {short(rules.positions)}",
          "AcceptedBeyondLimit")
    check(0 <= rules.burn_per_round <= limits.MAX_BURN and 0 <= rules.burn_first <= limits.MAX_BURN,
          f"{where}: burns {short(rules.burn_first)}, {short(rules.burn_per_round)}", "AcceptedBeyondLimit")
    for name in BOOL_FIELDS:
        check(type(getattr(rules, name)) is bool, f"{where}: {name} = {short(getattr(rules, name))} is not a bool",
              "AcceptedNonBool")
    odds = [*rules.pays.values(), *rules.pair_plus_pays.values()]
    for value in odds:
        check(isinstance(value, Fraction) and 0 <= value <= limits.MAX_ODDS and value.denominator <= limits.MAX_DENOMINATOR,
              f"{where}: odds {short(value)}", "AcceptedBeyondLimit")
    c = rules.commission
    check(isinstance(c, Fraction) and 0 <= c < 1 and c.denominator <= limits.MAX_DENOMINATOR,
          f"{where}: commission {short(c)}", "AcceptedBeyondLimit")
    unit = rules.minor_unit
    check(isinstance(unit, Decimal) and unit.is_finite() and unit > 0
          and -limits.MAX_DECIMAL_EXPONENT <= unit.as_tuple().exponent <= limits.MAX_DECIMAL_EXPONENT,
          f"{where}: minor_unit {short(unit)}", "AcceptedBeyondLimit")
    check(isinstance(rules.name, str) and rules.name, f"{where}: name {short(rules.name)}")
    lo, hi = rules.cut_card_range
    check(_is_int(lo) and _is_int(hi), f"{where}: cut_card_range {short(rules.cut_card_range)}", "AcceptedBadField")


def check_rules_usable(rules: RuleSet, where: str) -> None:
    """An accepted rule set round-trips through dicts and files, deals, settles,
    analyses and simulates."""
    check_rules_valid(rules, where)
    again = call(RuleSet.from_dict, rules.to_dict())
    check(again is not REFUSED and again == rules, f"{where}: to_dict/from_dict gives {short(again)}", "NoRoundTrip")
    with tempfile.TemporaryDirectory() as tmp:
        for suffix in (".json", ".toml"):
            path = Path(tmp) / f"rules{suffix}"
            saved = call(rules.save, path)
            check(saved is not REFUSED, f"{where}: save({suffix}) refused")
            loaded = call(RuleSet.load, path)
            check(loaded is not REFUSED and loaded == rules, f"{where}: save/load {suffix} gives {short(loaded)}",
                  "NoRoundTrip")
    game = call(Game, rules, seed=1)
    check(game is not REFUSED, f"{where}: Game refused an accepted rule set", "Unplayable")
    for _ in range(3):
        record = call(game.play, {})
        check(record is not REFUSED, f"{where}: play() refused", "Unplayable")
        check_record(rules, record, f"{where}: round {record.round}")
    result = call(simulate, rules, 3, seed=1, workers=1, compare_exact=False)
    check(result is not REFUSED, f"{where}: simulate refused an accepted rule set", "Unplayable")
    table = call(analyze, rules)
    check(table is not REFUSED, f"{where}: analyze refused an accepted rule set", "Unplayable")
    check_analysis(table, composition(rules.decks), where)


def check_rule_dict(data: Any, how: str) -> None:
    if how == "from_dict":
        rules = call(RuleSet.from_dict, data)
    elif how == "RuleSet":
        rules = call(RuleSet, **data) if isinstance(data, dict) and all(isinstance(k, str) for k in data) else call(RuleSet, data)
    else:
        base = MACAU if not isinstance(data, dict) or data.get("variant") != "online" else ONLINE
        changes = {k: v for k, v in data.items() if isinstance(k, str)} if isinstance(data, dict) else {}
        rules = call(base.replace, **changes)
    if rules is REFUSED:
        return
    check_rules_usable(rules, f"{how}({short(data)})")


@fuzz(st.one_of(rule_dicts(), rule_dicts(), anything), st.sampled_from(["from_dict", "RuleSet", "replace"]), examples=15)
def test_rule_sets_take_anything(data: Any, how: str) -> None:
    in_child(check_rule_dict, data, how)


@st.composite
def rule_files(draw: st.DrawFn) -> tuple[str, bytes]:
    suffix = draw(st.sampled_from([".json", ".toml", ".txt", ""]))
    kind = draw(st.sampled_from(["valid", "mutated", "bytes", "non-utf8", "nested", "huge", "empty", "bool-string"]))
    data = draw(rule_dicts())
    if kind in ("valid", "mutated", "bool-string"):
        rules = draw(st.sampled_from([MACAU, ONLINE]))
        data = rules.to_dict() if kind != "mutated" else data
        if kind == "bool-string":
            data[draw(st.sampled_from(BOOL_FIELDS))] = "false"
        try:
            text = json.dumps(data, default=str) if suffix != ".toml" else _toml_text(data)
        except (ValueError, TypeError, OverflowError):
            text = "{}"
        body = text.encode("utf-8", "surrogatepass")
    elif kind == "bytes":
        body = draw(st.binary(max_size=200))
    elif kind == "non-utf8":
        body = b'{"name": "\xff\xfe", "variant": "macau"}'
    elif kind == "nested":
        depth = draw(st.sampled_from([100, 1000, 10_000, 100_000]))
        body = (("[" * depth + "]" * depth) if suffix != ".toml" else ("a = " + "[" * depth + "]" * depth)).encode()
    elif kind == "huge":
        pad = limits.MAX_RULE_FILE_BYTES + draw(st.sampled_from([1, 1000, 10_000_000]))
        body = b'{"name": "' + b"x" * pad + b'"}'
    else:
        body = b""
    return suffix, body


def _toml_text(data: Mapping[str, Any]) -> str:
    lines, tables = [], []
    for key, value in data.items():
        if isinstance(value, Mapping):
            tables.append(f"\n[{json.dumps(str(key))}]\n" + "".join(f"{json.dumps(str(k))} = {json.dumps(v, default=str)}\n"
                                                               for k, v in value.items()))
        else:
            lines.append(f"{json.dumps(str(key))} = {json.dumps(value, default=str)}\n")
    return "".join(lines) + "".join(tables)


def check_rule_file(suffix: str, body: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"table{suffix}"
        path.write_bytes(body)
        start = time.perf_counter()
        rules = call(RuleSet.load, path)
        seconds = time.perf_counter() - start
        check(seconds < FAST, f"RuleSet.load of a {len(body)}-byte file took {seconds:.1f} s", "Slow")
        if rules is REFUSED:
            return
        check(len(body) <= limits.MAX_RULE_FILE_BYTES, f"RuleSet.load read a {len(body)}-byte file", "AcceptedBeyondLimit")
        check_rules_usable(rules, f"RuleSet.load({short(body[:200])})")


@fuzz(rule_files(), examples=20)
def test_rule_files_take_anything(case: tuple[str, bytes]) -> None:
    in_child(check_rule_file, *case)


@pytest.mark.parametrize("path", ["/dev/zero", "/dev/urandom"])
def test_rule_file_that_never_ends(path: str) -> None:
    """RuleSet.load reads at most MAX_RULE_FILE_BYTES (+1) of a file: a device that never
    ends is refused quickly (ValueError), not read into memory."""

    def load() -> None:
        result = call(RuleSet.load, path)
        check(result is REFUSED, f"RuleSet.load({path}) gave {short(result)}")

    in_child(load, timeout=5)


def test_rule_file_path_of_any_type() -> None:
    def load_all() -> None:
        for path in (123, None, b"\xff.json", "\x00.json", "", Path(tempfile.gettempdir()), 1.5, ["a"], "no/such/file.json"):
            try:
                RuleSet.load(path)  # type: ignore[arg-type]
            except (ValueError, TypeError, FileNotFoundError, IsADirectoryError):
                continue
            except BaseException as exc:  # noqa: BLE001
                raise Violation(type(exc).__name__, f"RuleSet.load({short(path)}) raised {type(exc).__name__}: {exc}") from exc

    in_child(load_all)


# --- settlement ---------------------------------------------------------------------------------------------

TABLES = [MACAU, ONLINE, MACAU.replace(decks=1), MACAU.replace(decks=1, positions=3),
          MACAU.replace(name="three pictures", tie_by="points", pays={**MACAU.pays, "tie": 8}, push="returned"),
          ONLINE.replace(decks=2), MACAU.replace(rounding="half_up", minor_unit=Decimal("0.05")),
          MACAU.replace(rounding="up", commission=Fraction(3, 100)), ONLINE.replace(rounding="up")]


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


@st.composite
def settle_cases(draw: st.DrawFn, sane: bool = False) -> tuple[Any, ...]:
    rules = draw(st.sampled_from(TABLES))
    banker, hands = draw(deals(rules, distinct=sane or draw(st.integers(0, 3)) > 0))
    banker_form = draw(hand_forms(banker))
    hands_form: Any = {p: draw(hand_forms(h)) for p, h in hands.items() if draw(st.integers(0, 5)) > 0}
    bets = draw(slips(rules, sane=sane))
    if not sane:
        how = draw(st.sampled_from(["none", "none", "forged-banker", "forged-hand", "junk-banker", "junk-hands",
                                    "list-hands", "junk-bets", "bad-position", "duplicate"]))
        if how == "forged-banker":
            banker_form = draw(hand_values)
        elif how == "forged-hand" and hands_form:
            hands_form[draw(st.sampled_from(sorted(hands_form)))] = draw(hand_values)
        elif how == "junk-banker":
            banker_form = draw(cardish)
        elif how == "junk-hands":
            hands_form = draw(anything)
        elif how == "list-hands":
            hands_form = [hands_form[p] for p in sorted(hands_form)]
        elif how == "junk-bets":
            bets = draw(anything)
        elif how == "bad-position":
            hands_form[draw(st.one_of(ints, texts, st.booleans(), st.none()))] = draw(hand_forms())
        elif how == "duplicate":
            card = Card(draw(card_codes))
            banker_form = [card, card, Card(draw(card_codes))]
    return rules, banker_form, hands_form, bets


def _kind_of(stake: Any) -> type | None:
    if isinstance(stake, bool):
        return None
    for kind in (int, Decimal, Fraction):
        if isinstance(stake, kind):
            return kind
    return None


def _exact(value: Any) -> Fraction:
    """The exact value of an amount; a non-finite or non-money amount is a violation."""
    if _kind_of(value) is None or isinstance(value, Decimal) and not value.is_finite():
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


def _no_constant(name: str) -> Any:
    raise ValueError(f"not strict JSON: {name}")


def check_settle(rules: RuleSet, banker: Any, hands: Any, bets: Any) -> None:
    where = f"settle({rules.name}, {short(banker)}, {short(hands)}, {short(bets)})"
    start = time.perf_counter()
    result = call(settle, rules, banker, hands, bets)
    seconds = time.perf_counter() - start
    check(seconds < FAST, f"{where} took {seconds:.1f} s", "Slow")
    if result is REFUSED:
        return
    check(isinstance(bets, Mapping), f"{where}: accepted bets {short(bets)}")
    check_settlement(rules, result, bets, where)
    if not _reusable(banker, hands, bets):
        return
    # the hands as their cards say, whatever a HandValue claimed
    banker_codes = _hand_codes(banker)
    hand_codes = {p: _hand_codes(h) for p, h in (hands.items() if isinstance(hands, Mapping) else enumerate(hands, 1))}
    check(banker_codes is not None and None not in hand_codes.values(), f"{where}: settled hands hand_cards refuses",
          "AcceptedBadHand")
    honest = call(settle, rules, " ".join(str(Card(c)) for c in banker_codes),
                  {p: [Card(c) for c in codes] for p, codes in hand_codes.items()}, bets)
    check(honest is not REFUSED and _dump(honest) == _dump(result),
          f"{where} = {_dump(result)}, but its cards settle as {_dump(honest) if honest is not REFUSED else 'refused'}",
          "TrustedForgedHand")
    with kernels_swapped():
        again = call(settle, rules, banker, hands, bets)
    check(again is not REFUSED and _dump(again) == _dump(result),
          f"{where}: {_dump(result)} here, {_dump(again) if again is not REFUSED else 'refused'} with the other kernels",
          "ImplementationsDiffer")
    if any(isinstance(s, Decimal) for s in bets.values()):
        for context in (decimal.Context(prec=3), decimal.Context(prec=3, rounding=decimal.ROUND_UP),
                        decimal.Context(prec=28, traps=[decimal.Inexact, decimal.Rounded, decimal.InvalidOperation]),
                        decimal.Context(prec=1, Emax=2, Emin=-2)):
            with decimal.localcontext(context):
                local = call(settle, rules, banker, hands, bets)
            check(local is not REFUSED and _dump(local) == _dump(result),
                  f"{where}: under {context} settles as {_dump(local) if local is not REFUSED else 'refused'}, "
                  f"under the default context as {_dump(result)}", "DependsOnDecimalContext")


@fuzz(settle_cases())
def test_settle_takes_anything(case: tuple[Any, ...]) -> None:
    in_child(check_settle, *case)


@fuzz(settle_cases(sane=True), examples=20)
def test_settle_valid_rounds(case: tuple[Any, ...]) -> None:
    in_child(check_settle, *case)


@st.composite
def forged_cases(draw: st.DrawFn) -> tuple[Any, ...]:
    rules = draw(st.sampled_from(TABLES[:3]))
    banker, hands = draw(deals(rules))
    forged_banker = forge(genuine_hand(banker), rank=draw(st.integers(0, 30)),
                          pair_plus=sanggong.PairPlus(draw(st.integers(0, 5))))
    forged = {p: forge(genuine_hand(h), rank=draw(st.integers(0, 30)),
                       pair_plus=sanggong.PairPlus(draw(st.integers(0, 5)))) for p, h in hands.items()}
    return rules, forged_banker, forged, draw(slips(rules, sane=True))


@fuzz(forged_cases(), examples=20)
def test_settle_never_trusts_a_forged_hand_value(case: tuple[Any, ...]) -> None:
    """HandValues whose rank and Pair Plus lie about their cards settle as their cards."""
    in_child(check_settle, *case)


@pytest.mark.parametrize(
    ("rules", "banker", "hands"),
    [
        (ONLINE, "Kh Kh 9d", {1: "As 2d 3c"}),  # the same card twice in one hand, one deck
        (ONLINE, "Kh Qs 9d", {1: "Kh 2d 3c"}),  # the same card in two hands, one deck
        (MACAU.replace(decks=1), "9c 9d 5h", {1: "9c 9h 5c"}),
        (MACAU, "Ks Ks Ks", {1: "Ks Ks Ks", 2: "Ks Ks Ks"}),  # nine K♠ from eight decks
    ],
)
def test_settle_refuses_deals_the_shoe_cannot_hold(rules: RuleSet, banker: str, hands: dict[int, str]) -> None:
    bets = {"win:1": 100, "tie:1": 10} if rules.variant == "macau" else {"win:1": 100}

    def run() -> None:
        result = call(settle, rules, banker, hands, bets)
        check(result is REFUSED, f"settle({rules.name} x{rules.decks}, {banker}, {hands}) = {short(result)}",
              "ImpossibleDeal")

    in_child(run)


def test_settle_decimal_under_a_caller_context() -> None:
    """A caller's decimal context (precision 3) changes no amount."""

    def run() -> None:
        bets = {"win:1": Decimal("123456.78"), "tie:1": Decimal("0.01"), "odd": Decimal("99999.99")}
        plain = settle(MACAU, "9c 9d 5h", {1: "Kh Qs 9d"}, bets)
        with decimal.localcontext(prec=3):
            local = call(settle, MACAU, "9c 9d 5h", {1: "Kh Qs 9d"}, bets)
        check(local is not REFUSED and _dump(local) == _dump(plain), f"prec=3 gives {short(local)}, default {_dump(plain)}",
              "DependsOnDecimalContext")
        check(plain["win:1"].returned == Decimal("240740.72"), f"win:1 returned {plain['win:1'].returned}", "WrongAmount")

    in_child(run)


HUGE_STAKES = [limits.MAX_STAKE + 1, 10**100, 2**100_000, Decimal("1e999999999"), Decimal("-1e999999999"),
               Decimal("1e-999999999"), Decimal("1E+16"), Decimal("10000000000000.01") * 10, Fraction(10**1000 + 1, 3),
               Fraction(1, 10**1000), Fraction(1, limits.MAX_DENOMINATOR + 1), Decimal("sNaN"), Decimal("NaN"),
               Decimal("Infinity"), math.nan, math.inf, -(10**100), Decimal("0.001"), Decimal("1E-31")]


@pytest.mark.parametrize("stake", HUGE_STAKES, ids=[short(s, 30) for s in HUGE_STAKES])
def test_huge_stakes_are_refused_fast(stake: Any) -> None:
    def run() -> None:
        start = time.perf_counter()
        result = call(settle, MACAU, "9c 9d 5h", {1: "Kh Qs 9d"}, {"win:1": stake})
        seconds = time.perf_counter() - start
        check(seconds < FAST, f"settle with stake {short(stake)} took {seconds:.1f} s", "Slow")
        check(result is REFUSED, f"settle accepted stake {short(stake)}: {short(result)}", "AcceptedBeyondLimit")

    in_child(run, timeout=10)


@pytest.mark.parametrize("stake", [limits.MAX_STAKE, Decimal(limits.MAX_STAKE) / 100, Fraction(limits.MAX_STAKE)])
def test_the_largest_stake_settles_exactly(stake: Any) -> None:
    def run() -> None:
        for rules, banker, hand, bets in (
            (MACAU, "9c 9d 5h", "Kh Qs 9d", {"win:1": stake, "tie:1": stake, "odd": stake, "point:3": stake}),
            (ONLINE, "9c 9d 5h", "Ah 2h 3h", {"win:1": stake, "pair_plus:1": stake, "lose:1": stake}),
        ):
            result = call(settle, rules, banker, {1: hand}, bets)
            check(result is not REFUSED, f"settle refused the largest stake {short(stake)}")
            check_settlement(rules, result, bets, f"settle(stake={short(stake)})")

    in_child(run)


# --- table sessions -------------------------------------------------------------------------------------------


@st.composite
def carried_then(draw: st.DrawFn) -> tuple[Any, Any]:
    first = draw(st.sampled_from([100, Decimal("1.00"), Fraction(1), Decimal("2.50"), 7]))
    then = draw(st.one_of(stakes_any, st.sampled_from([100, 101, Decimal("1.00"), Decimal("100"), Fraction(100), 1,
                                                       Fraction(1), Decimal("1"), 1.0, True, Decimal("3.00")])))
    return first, then


def check_session_kinds(first: Any, then: Any) -> None:
    seat = TableSession(MACAU)
    result = seat.settle("9c 9d 5h", {1: "9h 9s 5c"}, {"win:1": first})  # a tie: carried
    check(result["win:1"].outcome == "carried" and dict(seat.carried) == {"win:1": first}, f"carried {dict(seat.carried)}")
    check(type(seat.carried["win:1"]) is type(first), f"carried {short(seat.carried['win:1'])} for {short(first)}",
          "WrongMoneyKind")
    before = dict(seat.carried)
    result = call(seat.settle, "9c 9d 5h", {1: "Kh Qs 9d"}, {"win:1": then})
    if result is REFUSED:
        check(dict(seat.carried) == before and all(type(seat.carried[k]) is type(v) for k, v in before.items()),
              f"a refused slip changed the carried stakes to {dict(seat.carried)}", "StateChanged")
        return
    stake = result["win:1"].stake
    check(_kind_of(then) is _kind_of(first), f"carried {short(first)}, then {short(then)} was accepted as {short(stake)}",
          "MoneyKindConverted")
    check(type(stake) is type(first) and _exact(stake) >= _exact(first),
          f"carried {short(first)}, then {short(then)}: stake {short(stake)}", "CarriedStakeReduced")
    check_settlement(MACAU, result, {"win:1": then}, "TableSession.settle")


@fuzz(carried_then())
def test_table_session_keeps_the_money_kind(case: tuple[Any, Any]) -> None:
    in_child(check_session_kinds, *case)


def test_table_session_refuses_an_int_on_a_carried_decimal() -> None:
    def run() -> None:
        for first, then in ((Decimal("1.00"), 100), (Decimal("1.00"), 1), (100, Decimal("100")), (100, Fraction(100)),
                            (Fraction(1), Decimal("1")), (Decimal("1.00"), Fraction(1))):
            seat = TableSession(MACAU)
            seat.settle("9c 9d 5h", {1: "9h 9s 5c"}, {"win:1": first})
            result = call(seat.settle, "9c 9d 5h", {1: "Kh Qs 9d"}, {"win:1": then})
            check(result is REFUSED, f"carried {short(first)}, then {short(then)}: accepted as "
                  f"{short(result['win:1'].stake) if result is not REFUSED else ''}", "MoneyKindConverted")
            check(dict(seat.carried) == {"win:1": first}, f"carried stakes changed to {dict(seat.carried)}", "StateChanged")

    in_child(run)


# --- games, records, replays ----------------------------------------------------------------------------------

GAME_TABLES = [ONLINE, MACAU, MACAU.replace(decks=1, positions=3), MACAU.replace(decks=2, positions=5,
               cut_card_range=(20, 30)), MACAU.replace(decks=1, positions=16, burn_after_shuffle=0)]
BIT_GENERATORS = ["PCG64", "PCG64DXSM", "Philox", "SFC64", "MT19937"]


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


@st.composite
def game_cases(draw: st.DrawFn) -> tuple[Any, ...]:
    rules = draw(st.sampled_from(GAME_TABLES))
    how = draw(st.sampled_from(["seed", "seed", "rng", "generator", "junk-seed", "junk-rng", "both"]))
    seed: Any = None
    rng: Any = None
    if how == "seed":
        seed = draw(st.one_of(st.integers(0, 2**64), _pick([0, 2**128, 2**10_000, -1, -(2**70)]),
                              st.just(np.random.SeedSequence(draw(st.integers(0, 99))))))
    elif how in ("rng", "generator"):
        seed_value = draw(st.integers(0, 2**32))
        bg = getattr(np.random, draw(st.sampled_from(BIT_GENERATORS)))(seed_value)
        rng = bg if how == "rng" else np.random.Generator(bg)
    elif how == "junk-seed":
        seed = draw(anything)
    elif how == "junk-rng":
        rng = draw(st.one_of(anything, st.just(np.random.default_rng), st.just(np.random.RandomState(1))))
    else:
        seed, rng = 1, np.random.PCG64(1)
    recall = draw(st.one_of(st.integers(0, 12), st.sampled_from([limits.MAX_RECALL, limits.MAX_RECALL + 1, 10**100, 2**63,
                                                                  -1, 1.5, True, None, "3"])))
    plays = draw(st.lists(st.one_of(slips(rules, sane=True), slips(rules), st.none(), st.just("deal"), anything),
                          min_size=1, max_size=5))
    return rules, seed, rng, recall, plays


def check_game(rules: RuleSet, seed: Any, rng: Any, recall: Any, plays: list[Any]) -> None:
    kwargs: dict[str, Any] = {"recall": recall}
    if rng is not None:
        kwargs["rng"] = rng
    saved = None
    if isinstance(rng, np.random.BitGenerator):
        saved = (type(rng), rng.state)
    elif isinstance(rng, np.random.Generator):
        saved = (type(rng.bit_generator), rng.bit_generator.state)
    start = time.perf_counter()
    game = call(Game, rules, seed, **kwargs)
    check(time.perf_counter() - start < FAST, f"Game(recall={short(recall)}) took {time.perf_counter() - start:.1f} s", "Slow")
    if game is REFUSED:
        return
    check(_is_int(recall) and 0 <= recall <= limits.MAX_RECALL, f"Game accepted recall={short(recall)}",
          "AcceptedBeyondLimit")
    history: list[Any] = []
    records: list[RoundRecord] = []
    for slip in plays:
        if slip == "deal":
            deal = call(game.deal)
            check(deal is not REFUSED, "Game.deal refused")
            history.append(("deal", None))
            continue
        round_before, carried_before = game.round, dict(game.carried)
        record = call(game.play, slip)
        if record is REFUSED:
            check(game.round == round_before and dict(game.carried) == carried_before,
                  f"a refused play({short(slip)}) changed the game", "StateChanged")
            continue
        check(record.round == round_before + 1, f"round {record.round} after {round_before}")
        check_record(rules, record, f"Game.play({short(slip)})")
        check(dict(record.carried) == dict(game.carried), "record and game disagree on carried stakes")
        records.append(record)
        history.append(("play", slip))
    check(len(game.records) <= recall and list(game.records) == records[len(records) - len(game.records):],
          f"records {len(game.records)} for recall {recall}")
    _check_shoes(rules, records)
    # the same game with the other kernels deals the same rounds (bit for bit for these generators)
    if isinstance(seed, int) and rng is None or saved is not None:  # (MT19937 too: both draw next_uint64)
        with kernels_swapped():
            if saved is not None:
                bg = saved[0]()
                bg.state = saved[1]
                twin = Game(rules, rng=bg, recall=recall)
            else:
                twin = Game(rules, seed, recall=recall)
            for kind, slip in history:
                if kind == "deal":
                    twin.deal()
                else:
                    twin.play(slip)
        check(list(twin.records) == list(game.records), "the other kernels dealt other rounds", "ImplementationsDiffer")
    if isinstance(seed, int) and not isinstance(seed, bool) and seed >= 0:
        for record in records:
            if record.round <= 6:
                again = call(Game.replay, rules, seed, record.round, record.bets)
                check(again is not REFUSED and again.banker == record.banker and again.hands == record.hands,
                      f"Game.replay(seed={seed}, round={record.round}) deals other cards", "ReplayDiffers")


def _check_shoes(rules: RuleSet, records: list[RoundRecord]) -> None:
    """No card more often in a shoe (from its shuffle) than the decks hold."""
    if rules.fresh_deck_each_round:
        return
    per_shoe: dict[int, Counter[int]] = {}
    for record in records:
        seen = per_shoe.setdefault(record.shoe, Counter())
        seen.update(c.code for c in record.burned)
        seen.update(c.code for c in record.banker.cards)
        for hand in record.hands.values():
            seen.update(c.code for c in hand.cards)
        code, most = seen.most_common(1)[0]
        check(most <= rules.decks, f"shoe {record.shoe}: {Card(code)} dealt {most} times from {rules.decks} decks",
              "ImpossibleDeal")


@fuzz(game_cases(), examples=20)
def test_games_take_anything(case: tuple[Any, ...]) -> None:
    in_child(check_game, *case)


@pytest.mark.parametrize("round_", [10**12, 10**15 + 1, 2**63, 10**100])
def test_replay_of_an_absurd_round_is_refused_fast(round_: int) -> None:
    def run() -> None:
        start = time.perf_counter()
        result = call(Game.replay, ONLINE, 1, round_)
        check(result is REFUSED, f"Game.replay(round={round_}) = {short(result)}")
        check(time.perf_counter() - start < FAST, "slow")

    in_child(run, timeout=5)


@functools.cache
def _base_records() -> list[dict[str, Any]]:
    out = []
    for rules, seed, bets in ((ONLINE, 6, {"win:1": 100, "pair_plus:banker": 10}),
                              (MACAU, 3, {"win:1": Decimal("1.00"), "tie:1": Decimal("0.10"), "odd": Decimal("2.00")}),
                              (MACAU.replace(decks=1, positions=3), 4, {"win:2": Fraction(1, 3)})):
        game = Game(rules, seed)
        for _ in range(3):
            out.append((rules, game.play(bets).to_dict()))
    return out


def _mutate(draw: st.DrawFn, data: Any, depth: int = 0) -> Any:
    if isinstance(data, dict) and data and depth < 4 and draw(st.integers(0, 3)):
        data = dict(data)
        key = draw(st.sampled_from(sorted(data, key=str)))
        how = draw(st.sampled_from(["deeper", "deeper", "junk", "delete", "add", "type"]))
        if how == "deeper":
            data[key] = _mutate(draw, data[key], depth + 1)
        elif how == "junk":
            data[key] = draw(junk_values)
        elif how == "delete":
            del data[key]
        elif how == "add":
            data[draw(st.text(max_size=6))] = draw(junk_values)
        else:
            data[key] = draw(st.sampled_from([[], {}, None, "", 0, -1, 2**64, "x", [data[key]], {"a": data[key]}]))
        return data
    if isinstance(data, list) and data and depth < 4:
        data = list(data)
        i = draw(st.integers(0, len(data) - 1))
        data[i] = _mutate(draw, data[i], depth + 1) if draw(st.booleans()) else draw(junk_values)
        return data
    return draw(junk_values)


@st.composite
def record_dicts(draw: st.DrawFn) -> tuple[Any, Any]:
    rules, data = draw(st.sampled_from(_base_records()))
    for _ in range(draw(st.integers(0, 3))):
        data = _mutate(draw, data)
    if draw(st.integers(0, 9)) == 0:
        data = draw(anything)
    return rules, data


def check_record_dict(rules: RuleSet, data: Any, as_json: bool) -> None:
    if as_json:
        try:
            text = json.dumps(data, default=str)
        except Exception:  # noqa: BLE001 - not JSON (a forged HandValue's str may raise too)
            return
        record = call(RoundRecord.from_json, text)
    else:
        record = call(RoundRecord.from_dict, data)
    if record is REFUSED:
        return
    where = f"RoundRecord.from_{'json' if as_json else 'dict'}({short(data, 600)})"
    check(_is_int(record.round) and record.round >= 1 and _is_int(record.shoe) and record.shoe >= 1
          and _is_int(record.round_in_shoe) and record.round_in_shoe >= 1,
          f"{where}: round {short(record.round)}, shoe {short(record.shoe)}, in shoe {short(record.round_in_shoe)}",
          "AcceptedBadField")
    check(isinstance(record.rules, str) and type(record.last_of_shoe) is bool, f"{where}: rules/last_of_shoe",
          "AcceptedBadField")
    check(all(isinstance(c, Card) for c in record.burned), f"{where}: burned {short(record.burned)}", "AcceptedBadField")
    for amount in [*record.bets.values(), *record.carried.values()]:
        check(_kind_of(amount) is not None and (not isinstance(amount, Decimal) or amount.is_finite()) and amount > 0,
              f"{where}: amount {short(amount)}", "AcceptedBadStake")
    check_record(rules, record, where, replay=False, table=False)
    again = call(Game.replay_record, rules, record)
    if again is not REFUSED:
        check_record(rules, again, f"replay_record({where})", replay=False)


@fuzz(record_dicts(), st.booleans())
def test_round_records_take_anything(case: tuple[Any, Any], as_json: bool) -> None:
    in_child(check_record_dict, case[0], case[1], as_json)


@pytest.mark.parametrize("text", [
    "[" * 100_000 + "]" * 100_000,
    '{"a": ' * 50_000 + "1" + "}" * 50_000,
    '{"rules": "online", "round": 1' + ", \"x\": 1" * 200_000 + "}",
    "NaN", "", "\x00", "\udcff", b"\xff\xfe".decode("latin-1"),
], ids=["deep-list", "deep-dict", "huge", "nan", "empty", "nul", "surrogate", "latin1"])
def test_round_record_from_json_of_hostile_text(text: str) -> None:
    def run() -> None:
        start = time.perf_counter()
        result = call(RoundRecord.from_json, text)
        check(result is REFUSED, f"from_json accepted {short(text)}")
        check(time.perf_counter() - start < FAST, "slow", "Slow")

    in_child(run, timeout=10)


def check_replay_state(state: Any) -> None:
    rules, data = _base_records()[0]
    record = RoundRecord.from_dict(data)
    forged = dataclasses.replace(record, shoe_state=state)
    again = call(Game.replay_record, rules, forged)
    if again is not REFUSED:
        check_record(rules, again, "replay_record(forged state)", replay=False)


@fuzz(st.one_of(
    anything,
    st.fixed_dictionaries({"bit_generator": st.one_of(st.sampled_from(
        ["PCG64", "Philox", "MT19937", "default_rng", "seed", "SeedSequence", "Generator", "RandomState", "__class__",
         "BitGenerator", "bit_generator", "random", "__loader__", "os", "sys"]), texts),
        "state": anything, "has_uint32": anything, "uinteger": anything}),
), examples=15)
@example(1)  # found by a fuzz run: a state that is not an object (a forged record) reached .get()
def test_replay_record_with_any_shoe_state(state: Any) -> None:
    in_child(check_replay_state, state)


# --- logs of records: verification ------------------------------------------------------------------------------

try:
    from sanggong.verify import verify_log
except ImportError:  # not there yet
    verify_log = None
needs_verify = pytest.mark.skipif(verify_log is None, reason="no sanggong.verify yet")
GAME_TAKES_KEY = "key" in __import__("inspect").signature(Game).parameters


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    if isinstance(value, dict):
        return [leaf for k, v in value.items() for leaf in _leaves(v, (*path, k))]
    if isinstance(value, list):
        return [leaf for i, v in enumerate(value) for leaf in _leaves(v, (*path, i))]
    return [(path, value)]


def _other_value(draw: st.DrawFn, value: Any) -> Any:
    """A different value of the same look: another card, the next number, a changed hash."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + draw(st.sampled_from([1, -1, 100]))
    if isinstance(value, str) and len(value) == 2 and value[0] in "A23456789TJQK" and value[1] in "cdhs":
        return draw(st.sampled_from([f"{r}{s}" for r in "A23456789TJQK" for s in "cdhs" if f"{r}{s}" != value]))
    if isinstance(value, str) and len(value) >= 16 and all(c in "0123456789abcdef" for c in value):
        return ("0" if value[0] != "0" else "1") + value[1:]
    if isinstance(value, str):
        try:  # an amount written as text: another amount
            return str(Fraction(value) + 1)
        except (ValueError, ZeroDivisionError):
            return value + draw(st.sampled_from(["x", "0", " "]))
    if value is None:
        return draw(st.sampled_from([0, "x", 1]))
    return draw(st.sampled_from([0, "x", []]))


@st.composite
def played_logs(draw: st.DrawFn) -> tuple[Any, ...]:
    """A game's log (its records' JSON lines, bets and carried stakes included), and the
    same log changed in a way that matters: a value in a record, two records swapped, a
    record repeated or taken out (not the last: a log cut short is still a log)."""
    rules = draw(st.sampled_from([ONLINE, MACAU, MACAU.replace(decks=1, positions=3)]))
    key = draw(st.sampled_from([None, b"operator key"])) if GAME_TAKES_KEY else None
    game = Game(rules, draw(st.integers(0, 2**64)), **({"key": key} if key else {}))
    lines = []
    for _ in range(draw(st.integers(2, 5))):
        slip = draw(slips(rules, sane=True)) if draw(st.booleans()) else {}
        try:
            lines.append(game.play(slip).to_json())
        except (ValueError, TypeError):  # a carried stake of another kind: play on without bets
            lines.append(game.play({}).to_json())
    how = draw(st.sampled_from(["field", "field", "field", "swap", "repeat", "drop"]))
    tampered = list(lines)
    if how == "field":
        i = draw(st.integers(0, len(lines) - 1))
        record = json.loads(lines[i])
        path, value = draw(st.sampled_from(_leaves(record)))
        target = record
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = _other_value(draw, value)
        tampered[i] = json.dumps(record, separators=(",", ":"), ensure_ascii=False)
        how = f"{path} of line {i + 1}: {short(value)} -> {short(target[path[-1]])}"
    elif how == "swap":
        i = draw(st.integers(0, len(lines) - 2))
        tampered[i], tampered[i + 1] = tampered[i + 1], tampered[i]
    elif how == "repeat":
        i = draw(st.integers(0, len(lines) - 1))
        tampered.insert(i, tampered[i])
    else:
        del tampered[draw(st.integers(0, len(lines) - 2))]
    given_rules = None if rules in (ONLINE, MACAU) and draw(st.booleans()) else rules
    return given_rules, key, lines, tampered, how, draw(st.booleans())


def check_verify(rules: Any, key: Any, lines: list[str], tampered: list[str], how: str, replay: bool) -> None:
    report = call(verify_log, lines, rules, key=key, replay=replay)
    check(report is not REFUSED and report.ok and report.records == len(lines),
          f"verify_log of a genuine log: {short(report)}\n{lines[0][:300]}", "GenuineLogRefused")
    if tampered == lines:
        return
    report = call(verify_log, tampered, rules, key=key, replay=replay)
    check(report is not REFUSED, "verify_log raised on a tampered log (a bad log never raises)")
    check(not report.ok, f"verify_log(replay={replay}) accepted a log changed at {how}: {report}", "TamperingNotDetected")


@needs_verify
@fuzz(played_logs(), examples=20)
def test_verify_log_detects_tampering(case: tuple[Any, ...]) -> None:
    in_child(check_verify, *case)


@needs_verify
@fuzz(st.one_of(anything, st.lists(st.one_of(texts, st.binary(max_size=50), anything), max_size=4)),
      st.one_of(st.none(), st.sampled_from([MACAU, ONLINE]), anything),
      st.one_of(st.none(), st.binary(max_size=10), anything), st.one_of(st.booleans(), anything))
def test_verify_log_takes_anything(log: Any, rules: Any, key: Any, replay: Any) -> None:
    def run() -> None:
        if isinstance(log, str | bytes | os.PathLike):
            return  # a path: would read (or fail to open) a file of the machine
        report = call(verify_log, log, rules, key=key, replay=replay)
        if report is not REFUSED:
            check(not report.ok or isinstance(log, list) and len(log) > 0, f"verify_log({short(log)}) = {report}",
                  "AcceptedJunk")

    in_child(run)


@needs_verify
@pytest.mark.parametrize("path", ["/dev/zero", "/dev/urandom"])
def test_verify_log_of_a_file_that_never_ends(path: str) -> None:
    """A line longer than MAX_RECORD_BYTES is a bad record: reported (or refused) at
    once, not read to its end when it has none."""

    def run() -> None:
        start = time.perf_counter()
        try:
            report = verify_log(path)
        except (ValueError, TypeError, OSError):
            return
        check(not report.ok, f"verify_log({path}) = {report}", "AcceptedJunk")
        check(time.perf_counter() - start < FAST, f"verify_log({path}) took {time.perf_counter() - start:.1f} s", "Slow")

    in_child(run, timeout=5)


# --- observed tables ------------------------------------------------------------------------------------------


@st.composite
def observed_cases(draw: st.DrawFn) -> tuple[Any, ...]:
    rules = draw(st.sampled_from([ONLINE, MACAU.replace(decks=1, positions=3), MACAU.replace(decks=2, positions=2,
                                                                                               cut_card_range=(20, 30))]))
    need = 3 * rules.hands + rules.burn_first + (1 if rules.head_card and rules.head_card_burned else 0)
    shoe = [c for c in range(52) for _ in range(rules.decks)]
    valid = [Card(c) for c in draw(st.permutations(shoe))[:need]]
    how = draw(st.sampled_from(["valid", "text", "duplicate", "short", "long", "junk", "anything", "codes"]))
    seq: Any = valid
    if how == "text":
        seq = "  ".join(map(str, valid))
    elif how == "duplicate":
        seq = list(valid)
        seq[draw(st.integers(1, need - 1))] = seq[0]
    elif how == "short":
        seq = valid[: draw(st.integers(0, need - 1))]
    elif how == "long":
        seq = valid + [Card(draw(card_codes))]
    elif how == "junk":
        seq = list(valid)
        seq[draw(st.integers(0, need - 1))] = draw(anything)
    elif how == "anything":
        seq = draw(anything)
    elif how == "codes":
        seq = [c.code for c in valid]
    bets = draw(st.one_of(slips(rules, sane=True), slips(rules), st.none()))
    return rules, seq, bets


def _valid_round(rules: RuleSet) -> list[Card]:
    need = 3 * rules.hands + rules.burn_first + (1 if rules.head_card and rules.head_card_burned else 0)
    return [Card(c) for c in range(need)]


def check_observed(rules: RuleSet, seq: Any, bets: Any) -> None:
    table = ObservedTable(rules)
    result = call(table.play, seq, bets)
    if result is REFUSED:
        # left as it was: the next round plays as on a fresh table
        check(table.round == 0, "a refused play changed the table's round", "StateChanged")
        slip = {"win:1": 100} if rules.variant == "online" or not rules.tie_requires_win else {"win:1": 100}
        after = call(table.play, _valid_round(rules), slip)
        fresh = ObservedTable(rules).play(_valid_round(rules), slip)
        check(after is not REFUSED and after.to_dict() == fresh.to_dict(),
              f"after a refused play({short(seq)}, {short(bets)}) the table plays {short(after)}", "StateChanged")
        return
    check_record(rules, result, f"ObservedTable.play({short(seq)}, {short(bets)})", replay=False)


@fuzz(observed_cases(), examples=20)
def test_observed_tables_take_anything(case: tuple[Any, ...]) -> None:
    in_child(check_observed, *case)


# --- analysis ---------------------------------------------------------------------------------------------------


@st.composite
def shoes(draw: st.DrawFn) -> Any:
    how = draw(st.sampled_from(["counts", "counts", "huge", "negative", "any-array", "anything", "layout", "object",
                                "sparse"]))
    dtype = draw(st.one_of(int_dtype, any_dtype)) if how == "any-array" else draw(int_dtype)
    if how == "counts":
        arr = np.array(draw(st.lists(st.integers(0, 8), min_size=52, max_size=52)), dtype=np.int64)
        return draw(layouts(arr.astype(dtype) if np.iinfo(dtype).max >= 8 else arr))
    if how == "huge":
        value = draw(st.sampled_from([2**20, 2**31 - 1, 2**40, 2**62, 2**63 - 1, 10**12]))
        arr = np.full(52, 0, dtype=np.int64)
        arr[draw(st.lists(st.integers(0, 51), min_size=1, max_size=52))] = value
        return arr
    if how == "negative":
        arr = np.full(52, 4, dtype=np.int64)
        arr[draw(st.integers(0, 51))] = draw(st.sampled_from([-1, -(2**63)]))
        return arr
    if how == "any-array":
        shape = draw(st.one_of(st.just((52,)), hnp.array_shapes(min_dims=0, max_dims=3, max_side=60)))
        return draw(layouts(draw(hnp.arrays(dtype, shape, elements=_elements(dtype, 0, 8)))))
    if how == "object":
        return np.array(draw(st.lists(st.one_of(st.integers(0, 8), st.sampled_from([10**30, 2**64, -1])), min_size=52,
                                      max_size=52)), dtype=object)
    if how == "sparse":
        arr = np.zeros(52, dtype=np.int64)
        for code in draw(st.lists(card_codes, min_size=0, max_size=8)):
            arr[code] += 1
        return arr
    return draw(anything)


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


def check_analyze(rules: RuleSet, shoe: Any) -> None:
    where = f"analyze({rules.name}, {short(shoe)})"
    start = time.perf_counter()
    table = call(analyze, rules, shoe)
    check(time.perf_counter() - start < 10, f"{where} took {time.perf_counter() - start:.1f} s", "Slow")
    if table is REFUSED:
        return
    for name, bet in table.bets.items():  # every property a caller may read
        for prop in ("ev", "house_edge", "house_edge_resolved", "hit_frequency", "carry_probability", "variance", "sd"):
            value = call(getattr, bet, prop)
            undefined = prop == "house_edge_resolved" and bet.carry_probability == 1  # no bet ever resolves
            check(value is not REFUSED and isinstance(value, float) and (math.isfinite(value) or undefined),
                  f"{where}: {name}.{prop} = {short(value)}", "NotFinite")
    check_analysis(table, shoe, where)
    with kernels_swapped():
        again = call(analyze, rules, shoe)
    check(again is not REFUSED and {k: b.outcomes for k, b in again.bets.items()} == {k: b.outcomes for k, b in table.bets.items()},
          f"{where}: the other kernels count differently", "ImplementationsDiffer")


@fuzz(st.sampled_from([MACAU, ONLINE, MACAU.replace(decks=1), MACAU.replace(tie_by="points")]), shoes(), examples=15)
def test_analyze_takes_any_shoe(rules: RuleSet, shoe: Any) -> None:
    in_child(check_analyze, rules, shoe)


def _only(*codes: int, copies: int = 1) -> np.ndarray:
    shoe = np.zeros(52, dtype=np.int64)
    for code in codes:
        shoe[code] += copies
    return shoe


DEGENERATE_SHOES = {
    "eight-kings": _only(48, 49, 50, 51, copies=2),  # every hand 3P: every Win bet carried, none resolved
    "six-cards": _only(0, 1, 2, 3, 4, 5),
    "five-cards": _only(0, 1, 2, 3, 4),
    "one-rank": _only(0, copies=6),  # the same card six times
    "tens-and-faces": _only(*range(36, 52)),  # every hand 0 points
    "one-card-huge": _only(7, copies=2**40),
    "empty": np.zeros(52, dtype=np.int64),
}


@pytest.mark.parametrize("rules", [MACAU, ONLINE, MACAU.replace(tie_by="points")], ids=["macau", "online", "points"])
@pytest.mark.parametrize("name", sorted(DEGENERATE_SHOES))
def test_analyze_degenerate_shoes(rules: RuleSet, name: str) -> None:
    """Shoes where a bet never resolves, never wins or holds one card only: the
    analysis is refused or every number a caller reads is defined, and its JSON strict."""
    in_child(check_analyze, rules, DEGENERATE_SHOES[name])


NAMING_CASES = {
    "composition-huge-decks": (lambda: composition(2**16610, "7s"), ["decks"]),
    "effect-of-removal-twice": (lambda: effect_of_removal(MACAU, ["win:1", "win:1"]), ["win:1"]),
    "compare-batch-uint64": (lambda: compare_batch(np.array([[2**63, 50, 49]], np.uint64), np.array([[1, 2, 3]], np.int8)),
                             [r"(?<![-\d])9223372036854775808"]),
    "rank-batch-uint64": (lambda: rank_batch(np.array([[2**64 - 1, 50, 49]], np.uint64)), [r"(?<![-\d])18446744073709551615"]),
    "settle-unknown-bet": (lambda: settle(MACAU, "9c 9d 5h", {1: "Kh Qs 9d"}, {"lose:1": 100}), ["lose:1"]),
}


@pytest.mark.parametrize("name", sorted(NAMING_CASES))
def test_errors_name_the_bad_value(name: str) -> None:
    """README: "Bad input raises an error that names it". Where a call is refused, its
    message names the value (or the argument) that is wrong, not an internal detail.
    (A call that succeeds, doing something sensible, passes too.)"""
    fn, names = NAMING_CASES[name]

    def run() -> None:
        try:
            fn()
        except ALLOWED as exc:
            check(any(re.search(n, str(exc)) for n in names), f"{name}: the message {str(exc)!r} names none of {names}",
                  "DoesNotNameTheValue")
        except BaseException as exc:  # noqa: BLE001
            raise Violation(f"Raised{type(exc).__name__}", f"{name} raised {type(exc).__name__}: {exc}") from exc

    in_child(run)


def check_composition(decks: Any, remove: Any) -> None:
    result = call(composition, decks, remove)
    if result is REFUSED or not _reusable(remove):
        return
    check(isinstance(result, np.ndarray) and result.shape == (52,) and result.dtype.kind in "iu",
          f"composition({short(decks)}, {short(remove)}) = {short(result)}")
    check(_is_int(decks) and 1 <= decks <= limits.MAX_DECKS, f"composition accepted decks={short(decks)}",
          "AcceptedBeyondLimit")
    removed = Counter(c.code for c in parse_cards(remove)) if remove not in (None, "") else Counter()
    for code in range(52):
        check(int(result[code]) == decks - removed[code] >= 0, f"composition({decks}, {short(remove)})[{code}] = {result[code]}",
              "WrongComposition")


@fuzz(st.one_of(st.integers(1, 8), ints, anything), st.one_of(st.none(), hand_forms(), cardish, texts))
def test_composition_takes_anything(decks: Any, remove: Any) -> None:
    in_child(check_composition, decks, remove)


def check_effect_of_removal(rules: RuleSet, bets: Any) -> None:
    result = call(effect_of_removal, rules, bets)
    if result is REFUSED or not _reusable(bets):
        return
    names = list(rules.bets) if bets is None else list(bets)
    check(list(result) == names or set(result) == set(names), f"effect_of_removal bets {list(result)} for {names}")
    for name, removal in result.items():
        check(sum(removal.tags.values()) == 0, f"{name}: tags {removal.tags} do not balance", "Unbalanced")
        check(all(math.isfinite(v) for v in removal.eor.values()) and math.isfinite(removal.correlation),
              f"{name}: {removal}", "NotFinite")


@fuzz(st.sampled_from([MACAU.replace(decks=1), MACAU, MACAU.replace(positions=1)]),
      st.one_of(st.none(), st.lists(st.sampled_from(sorted(MACAU.bets)), max_size=3), anything, texts), examples=3)
def test_effect_of_removal_takes_anything(rules: RuleSet, bets: Any) -> None:
    in_child(check_effect_of_removal, rules, bets, timeout=60)


# --- simulation ----------------------------------------------------------------------------------------------------


@st.composite
def simulate_cases(draw: st.DrawFn) -> tuple[Any, ...]:
    rules = draw(st.sampled_from([ONLINE, MACAU, MACAU.replace(decks=1, positions=3), MACAU.replace(decks=64)]))
    rounds = draw(st.one_of(st.integers(1, 40), st.sampled_from([limits.MAX_SIM_ROUNDS + 1, 10**16, 2**63, 2**64, 10**100,
                                                                  0, -1, 1.5, True, "10", None, Decimal(5)])))
    bets = draw(st.one_of(st.none(), slips(rules, sane=True), slips(rules), anything))
    seed = draw(st.one_of(st.integers(0, 2**32), st.none(), st.sampled_from([-1, 2**200, 1.5, "1", True]), anything))
    workers = draw(st.one_of(st.just(1), st.integers(1, 3), st.sampled_from([None, 0, -1, 10**9, 2**63, 1.5, "2"])))
    chunk = draw(st.one_of(st.integers(1, 50), st.sampled_from([1 << 18, 10**30, 2**63, 0, -5, 1.5, None])))
    return rules, rounds, bets, seed, workers, chunk


def check_simulate(rules: RuleSet, rounds: Any, bets: Any, seed: Any, workers: Any, chunk: Any) -> None:
    where = f"simulate({rules.name}, {short(rounds)}, {short(bets)}, seed={short(seed)}, workers={short(workers)}, " \
            f"chunk_size={short(chunk)})"
    start = time.perf_counter()
    result = call(simulate, rules, rounds, bets, seed=seed, workers=workers, chunk_size=chunk)
    seconds = time.perf_counter() - start
    if result is REFUSED:
        check(seconds < FAST, f"{where} took {seconds:.1f} s to refuse", "SlowRefusal")
        return
    check(_is_int(rounds) and 1 <= rounds <= limits.MAX_SIM_ROUNDS, f"{where} accepted rounds", "AcceptedBeyondLimit")
    check(result.rounds == rounds, f"{where}: {result.rounds} rounds")
    slip = bets if bets is not None else {n: Fraction(1) for n in rules.bets}
    for name, stats in result.bets.items():
        check(sum(stats.outcomes.values()) == rounds, f"{where}: {name} outcomes {stats.outcomes}", "CountsDontAddUp")
        kind = _kind_of(slip[name])
        check(type(stats.staked) is kind and _exact(stats.staked) == _exact(slip[name]) * rounds,
              f"{where}: {name} staked {short(stats.staked)}", "WrongMoneyKind")
        check(type(stats.returned) is kind and _exact(stats.returned) >= 0, f"{where}: {name} returned {short(stats.returned)}",
              "WrongMoneyKind")
    if isinstance(seed, int) and not isinstance(seed, bool) and seed >= 0:
        with kernels_swapped():
            again = call(simulate, rules, rounds, bets, seed=seed, workers=1, chunk_size=chunk)
        check(again is not REFUSED and repr(again.bets) == repr(result.bets),
              f"{where}: the other kernels simulate differently", "ImplementationsDiffer")


@fuzz(simulate_cases(), examples=20)
def test_simulate_takes_anything(case: tuple[Any, ...]) -> None:
    in_child(check_simulate, *case)


class Stop(Exception):
    """Raised by a progress callback to stop a simulation once it has started."""


def check_simulation_starts_promptly(rules: RuleSet, rounds: int, chunk: int) -> None:
    def progress(done: int, total: int) -> None:
        raise Stop(done)

    start = time.perf_counter()
    try:
        simulate(rules, rounds, {"win:1": 1}, seed=1, workers=1, executor=None, progress=progress, chunk_size=chunk,
                 compare_exact=False)
    except Stop:
        pass
    except ALLOWED:
        pass
    except BaseException as exc:  # noqa: BLE001
        raise Violation(type(exc).__name__, f"simulate(rounds={rounds}, chunk_size={chunk}) raised {type(exc).__name__}: {exc}") from exc
    else:
        raise Violation("Invariant", "the progress callback was never called")
    seconds = time.perf_counter() - start
    check(seconds < FAST, f"simulate(rounds={rounds}, chunk_size={chunk}) took {seconds:.1f} s to start", "SlowStart")


@pytest.mark.parametrize("chunk", [1, 7, 1000])
@pytest.mark.parametrize("rounds", [limits.MAX_SIM_ROUNDS, 10**12])
def test_an_accepted_huge_simulation_starts_promptly(rounds: int, chunk: int) -> None:
    """Work or memory in proportion to the rounds (a seed per chunk spawned up front) is
    not spent before the first chunk: a run within the limits starts at once (or its
    chunk size is refused)."""
    in_child(check_simulation_starts_promptly, ONLINE, rounds, chunk, timeout=10)


@st.composite
def session_cases(draw: st.DrawFn) -> tuple[Any, ...]:
    rules = draw(st.sampled_from([MACAU, ONLINE, MACAU.replace(pays={**MACAU.pays, "win": 1000})]))
    bets = draw(st.one_of(slips(rules, sane=True).map(lambda s: {k: int(_exact(v)) or 1 for k, v in s.items()}),
                          slips(rules), anything))
    bankroll = draw(st.one_of(st.integers(1, 10**6), st.sampled_from([10**15, 2**63 - 1, 2**63, 10**30, 0, -5, 1.5, None])))
    rounds = draw(st.one_of(st.integers(1, 30), st.sampled_from([limits.MAX_SESSION_ROUNDS + 1, 10**30, 0, 1.5])))
    sessions = draw(st.one_of(st.integers(1, 4), st.sampled_from([limits.MAX_SESSIONS + 1, 10**30, 0, True])))
    seed = draw(st.one_of(st.integers(0, 1000), st.none(), anything))
    return rules, bets, bankroll, rounds, sessions, seed


def _session_bounds(rules: RuleSet, bets: Mapping[str, int], bankroll: int, rounds: int) -> tuple[int, int]:
    total = sum(bets.values())
    best = 0
    for name, stake in bets.items():
        kind = rules.bet(name).kind
        odds = [*rules.pays.values(), *rules.pair_plus_pays.values()] if kind != "pair_plus" else list(rules.pair_plus_pays.values())
        best += stake * int(max(odds, default=Fraction(0)) + 1)
    return bankroll - rounds * total, bankroll + rounds * best


def check_sessions(rules: RuleSet, bets: Any, bankroll: Any, rounds: Any, sessions: Any, seed: Any) -> None:
    where = f"simulate_sessions({rules.name}, {short(bets)}, {short(bankroll)}, {short(rounds)}, {short(sessions)}, {short(seed)})"
    start = time.perf_counter()
    result = call(simulate_sessions, rules, bets, bankroll, rounds, sessions, seed=seed, workers=1)
    seconds = time.perf_counter() - start
    if result is REFUSED:
        check(seconds < FAST, f"{where} took {seconds:.1f} s to refuse", "SlowRefusal")
        return
    check(_is_int(rounds) and 1 <= rounds <= limits.MAX_SESSION_ROUNDS and _is_int(sessions)
          and 1 <= sessions <= limits.MAX_SESSIONS, f"{where} accepted", "AcceptedBeyondLimit")
    finals = [int(f) for f in result.finals]
    check(len(finals) == sessions and 0 <= result.ruined <= sessions, f"{where}: {len(finals)} finals, {result.ruined} ruined")
    lo, hi = _session_bounds(rules, bets, bankroll, rounds)
    for f in finals:
        check(lo <= f <= hi, f"{where}: a final bankroll of {f} outside [{lo}, {hi}] (wrapped at 64 bits?)", "Wrapped")
    data = result.to_dict()
    json.loads(json.dumps(data), parse_constant=_no_constant)
    if isinstance(seed, int) and not isinstance(seed, bool) and seed >= 0:
        with kernels_swapped():
            again = call(simulate_sessions, rules, bets, bankroll, rounds, sessions, seed=seed, workers=1)
        check(again is not REFUSED and [int(f) for f in again.finals] == finals and again.ruined == result.ruined,
              f"{where}: the other kernels give {short(again)}", "ImplementationsDiffer")


@fuzz(session_cases(), examples=20)
def test_simulate_sessions_takes_anything(case: tuple[Any, ...]) -> None:
    in_child(check_sessions, *case)


@pytest.mark.parametrize(
    ("rules", "bets", "bankroll", "rounds"),
    [
        # a big favourite (Win pays 1000:1) at the largest stake: the totals pass 2**63 within 20 rounds
        (MACAU.replace(pays={**MACAU.pays, "win": 1000}), {"win:1": limits.MAX_STAKE}, limits.MAX_STAKE, 200),
        (MACAU.replace(pays={**MACAU.pays, "win": 1000}), {f"win:{p}": limits.MAX_STAKE for p in range(1, 8)},
         7 * limits.MAX_STAKE, 50),
        # the largest odds at the largest stake: one round's net is beyond 64 bits
        (MACAU.replace(pays={**MACAU.pays, "win": limits.MAX_ODDS}), {"win:1": limits.MAX_STAKE}, limits.MAX_STAKE, 20),
        # a bankroll beyond 64 bits
        (MACAU, {"win:1": 100}, 10**30, 20),
        (MACAU, {"point:0": limits.MAX_STAKE}, 2**63 - 1, 100),
    ],
    ids=["favourite", "seven-positions", "max-odds", "huge-bankroll", "long-loser"],
)
def test_session_totals_do_not_wrap(rules: RuleSet, bets: dict[str, int], bankroll: int, rounds: int) -> None:
    in_child(check_sessions, rules, bets, bankroll, rounds, 3, 7)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"rounds": limits.MAX_SESSION_ROUNDS + 1},
        {"rounds": 10**30},
        {"sessions": limits.MAX_SESSIONS + 1},
        {"sessions": 10**30},
        {"bets": {"win:1": limits.MAX_STAKE + 1}},
        {"bets": {"win:1": 10**100}},
    ],
    ids=["rounds", "rounds-huge", "sessions", "sessions-huge", "stake", "stake-huge"],
)
def test_sessions_beyond_the_limits_are_refused_fast(kwargs: dict[str, Any]) -> None:
    args = {"rules": MACAU, "bets": {"win:1": 100}, "bankroll": 10_000, "rounds": 10, "sessions": 2, "seed": 1} | kwargs

    def run() -> None:
        start = time.perf_counter()
        result = call(simulate_sessions, **args)
        check(result is REFUSED, f"simulate_sessions({kwargs}) was accepted", "AcceptedBeyondLimit")
        check(time.perf_counter() - start < FAST, f"simulate_sessions({kwargs}) took {time.perf_counter() - start:.1f} s",
              "SlowRefusal")

    in_child(run, timeout=10)


@pytest.mark.parametrize("rounds", [limits.MAX_SIM_ROUNDS + 1, 10**16, 2**63, 2**64, 10**100, 10**5000],
                         ids=["max+1", "1e16", "2**63", "2**64", "1e100", "1e5000"])
def test_simulations_beyond_the_limits_are_refused_fast(rounds: int) -> None:
    def run() -> None:
        start = time.perf_counter()
        result = call(simulate, ONLINE, rounds, {"win:1": 1}, seed=1, workers=1)
        check(result is REFUSED, f"simulate(rounds={short(rounds)}) was accepted", "AcceptedBeyondLimit")
        check(time.perf_counter() - start < FAST, "slow", "SlowRefusal")

    in_child(run, timeout=10)

