"""An attacker's pass over the shoe entry points of issue #12: ``ShoeEvaluator``,
``play_shoes``, ``design``, ``sanggong protect`` / ``sanggong design``, and the compiled
kernels behind them (``_core.ShoeKernel``, ``_core.play_chunk``).

Every test states the behaviour the project promises (a ValueError/TypeError naming the
bad value, or exit status 2 with one line naming it; never a crash, a hang, a huge
allocation or a silently wrong answer). Whatever could hang, allocate without bound or
crash the interpreter runs in a child process with a time limit (and a memory limit).
"""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from _harness import run_python
from cli_run import fails, run

from sanggong import MACAU, PRESETS, composition
from sanggong._table import table_params
from sanggong.shoe import CountPlay, ShoeEvaluator, design, play_shoes, shoe_terms

ONLINE = PRESETS["online"]
POINT = ["point:0"]


def _refused_quickly(call: str, needle: str, timeout: float = 30.0, memory: int | None = None) -> None:
    """``call`` (Python source, in a child) raises ValueError/TypeError naming ``needle``,
    within ``timeout`` seconds, without crashing. The hangs these tests guard against run
    for minutes; a refusal takes well under a second, and 30 s leaves room for a loaded
    machine running the suite on every core (an 8 s limit once failed there)."""
    code = f"""
        from fractions import Fraction
        import numpy as np
        from sanggong import MACAU, PRESETS
        from sanggong.shoe import CountPlay, design, play_shoes
        try:
            {call}
        except (ValueError, TypeError) as exc:
            print("REFUSED", exc)
        except BaseException as exc:
            print("OTHER", type(exc).__name__, exc)
        else:
            print("ACCEPTED")
    """
    done = run_python(code, timeout, memory)
    assert done is not None, f"{call}: still running after {timeout} s (a hang)"
    assert done.returncode == 0, f"{call}: the interpreter died ({done.returncode}): {done.stderr[-500:]}"
    out = done.stdout.strip()
    assert out.startswith("REFUSED"), f"{call}: {out[:300]}"
    assert needle in out, out


# --- ShoeEvaluator ---------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["remove", "add"])
def test_evaluator_takes_a_numpy_array_of_cards(method: str) -> None:
    """``parse_cards`` takes an array of codes (a CardsLike iterable), but ``_codes``
    compares the argument with "" first: an array of two cards raises numpy's "truth
    value of an array is ambiguous" ValueError, which names nothing (shoe.py ``_codes``)."""
    shoe = ShoeEvaluator(MACAU, bets=POINT)
    if method == "add":
        shoe.remove([5, 7])
    before = shoe.cards
    getattr(shoe, method)(np.array([5, 7]))
    assert shoe.cards == before + (2 if method == "add" else -2)


def test_evaluator_takes_an_empty_numpy_array() -> None:
    """An empty array is no card, as "" and [] are (numpy refuses the truth value of an
    empty array: shoe.py ``_codes``)."""
    shoe = ShoeEvaluator(MACAU, bets=POINT)
    shoe.remove(np.array([], dtype=np.int64))
    assert shoe.cards == 416


@pytest.mark.parametrize(("call", "error", "needle"), [
    (lambda: ShoeEvaluator(MACAU, np.ones(52)), TypeError, "float64"),
    (lambda: ShoeEvaluator(MACAU, np.ones((52, 1), int)), ValueError, "(52, 1)"),
    (lambda: ShoeEvaluator(MACAU, np.full(52, 2**63, np.uint64)), ValueError, "9223372036854775808"),
    (lambda: ShoeEvaluator(MACAU, [-1] + [8] * 51), ValueError, "-1"),
    (lambda: ShoeEvaluator(MACAU, [10**30] * 52), TypeError, "object"),
    (lambda: ShoeEvaluator(MACAU, [1] * 5 + [0] * 47), ValueError, "5"),
    (lambda: ShoeEvaluator(MACAU, bets="point:0"), TypeError, "point:0"),
    (lambda: ShoeEvaluator(MACAU, bets=[]), ValueError, "bets"),
    (lambda: ShoeEvaluator(MACAU, bets=["point:0", "point:0"]), ValueError, "point:0"),
    (lambda: ShoeEvaluator(MACAU, bets=[5]), TypeError, "5"),
    (lambda: ShoeEvaluator(MACAU, bets=POINT).ev(["point:0"]), TypeError, "point:0"),
    (lambda: ShoeEvaluator(MACAU, bets=POINT).ev("odd"), ValueError, "odd"),
    (lambda: ShoeEvaluator(MACAU, bets=POINT).remove(None), TypeError, "None"),
    (lambda: ShoeEvaluator(MACAU, bets=POINT).remove(True), TypeError, "True"),
    (lambda: ShoeEvaluator(MACAU, bets=POINT).remove(5.0), TypeError, "5.0"),
    (lambda: ShoeEvaluator(MACAU, bets=POINT).remove(10**30), ValueError, "1000000000000000000000000000000"),
    (lambda: ShoeEvaluator(MACAU, bets=POINT).remove(b"Kh"), TypeError, "bytes is not cards"),
    (lambda: ShoeEvaluator(MACAU, bets=POINT).add("Ah"), ValueError, "Ah"),
    (lambda: ShoeEvaluator(MACAU, [64] * 52, bets=POINT).add("Ah"), ValueError, "Ah"),
    (lambda: ShoeEvaluator(MACAU, [1] * 6 + [0] * 46).remove("2c 2c"), ValueError, "2c"),
])
def test_evaluator_refuses_bad_input(call: Any, error: type[Exception], needle: str) -> None:
    """(passes) Compositions, bets and cards the evaluator must refuse, naming them."""
    with pytest.raises(error) as info:
        call()
    assert needle in str(info.value)


# --- play_shoes ---------------------------------------------------------------------------------


def _play(**kw: Any) -> Any:
    strategy = kw.pop("strategy", "count")
    return play_shoes(MACAU, kw.pop("shoes", 1), strategy, seed=1, bets=kw.pop("bets", POINT), **kw)


@pytest.mark.parametrize(("kw", "needle"), [
    ({"bankroll": 10**400}, "bankroll"),
    ({"bankroll": Fraction(10**400)}, "bankroll"),
    ({"strategy": CountPlay(threshold=10**400)}, "threshold"),
    ({"strategy": CountPlay(bin_width=10**400)}, "bin_width"),
    ({"strategy": CountPlay(max_count=-(10**400))}, "max_count"),
    ({"strategy": CountPlay(spread={10**400: 1})}, "spread"),
])
def test_play_shoes_huge_ints_are_refused_by_name(kw: dict[str, Any], needle: str) -> None:
    """``_number`` calls ``math.isfinite`` on an int beyond a float: OverflowError "int too
    large to convert to float", neither a ValueError/TypeError nor naming the parameter
    (shoe.py ``_number``)."""
    with pytest.raises((ValueError, TypeError)) as info:
        _play(**kw)
    assert needle in str(info.value)


def test_play_shoes_bounds_the_true_count_bins() -> None:
    """bin_width 0.001 and max_count 10,000 are each within their bounds, but make
    2 * 10**7 + 2 bins: object histograms of bins x bets x codes, a CountBin per bin per
    bet (gigabytes, and a MemoryError after ~20 s under a 4 GB limit). The number of
    bins must be bounded and the pair refused by name (shoe.py ``play_shoes``)."""
    _refused_quickly("play_shoes(MACAU, 1, CountPlay(bin_width=1e-3, max_count=1e4), seed=1, bets=['point:0'])",
                     "bin", memory=3 * 2**30)


@pytest.mark.parametrize("tags", [{7: 1}, {"point:0": {7: 1}}])
def test_play_shoes_names_a_tag_key_that_is_not_a_string(tags: dict[Any, Any]) -> None:
    """A non-string key of a tags mapping: ``k in RANK_SYMBOLS`` (a str) raises "'in
    <string>' requires string as left operand, not int", which does not name the key
    (shoe.py ``_bet_tags``, ``_tag_vector``)."""
    with pytest.raises((ValueError, TypeError)) as info:
        _play(strategy=CountPlay(tags=tags))
    assert "7" in str(info.value)


def test_play_shoes_with_large_pay_denominators() -> None:
    """Valid pays whose scaled nets pass 32 bits make the terms ``wide``: ``_kernel`` then
    builds the reference's ShoeKernel, which ``_run_play_chunk`` hands to the compiled
    ``play_chunk``: TypeError "Argument 'kernel' has incorrect type (expected
    sanggong._core.ShoeKernel, got ShoeKernel)" for a perfectly valid table (shoe.py
    ``_run_play_chunk`` / ``_kernel``)."""
    from sanggong import _core, limits
    from sanggong._kernels import twin as _pykernels

    odds = Fraction(limits.MAX_ODDS * limits.MAX_DENOMINATOR - 1, limits.MAX_DENOMINATOR)
    rules = MACAU.replace(pays={**MACAU.pays, "win": odds})
    terms = shoe_terms(rules, ("win:1",))
    assert int(np.abs(terms.pairs_values).max()) > 2**31  # beyond 32 bits: the kernel holds 64
    counts = composition(8).tolist()
    assert _core.ShoeKernel(terms, counts).numerators() == _pykernels.ShoeKernel(terms, counts).numerators()
    result = play_shoes(rules, 1, "perfect", seed=1, bets=["win:1"])
    assert result.shoes == 1 and result["win:1"].perfect is not None


@pytest.mark.parametrize("value", ["no", 1, None])
def test_play_shoes_partial_on_interrupt_must_be_a_bool(value: Any) -> None:
    """``burned_seen`` must be True or False, but ``partial_on_interrupt`` is never
    checked: "no" (truthy) is silently taken for True (shoe.py ``play_shoes``)."""
    with pytest.raises(TypeError, match="partial_on_interrupt"):
        _play(partial_on_interrupt=value)


def test_play_shoes_progress_that_raises_propagates() -> None:
    """(passes) A progress callback's exception reaches the caller, and nothing hangs."""
    def boom(done: int, total: int) -> None:
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        _play(shoes=5, chunk_size=1, progress=boom)


@pytest.mark.parametrize(("kw", "error", "needle"), [
    ({"shoes": 0}, ValueError, "shoes"),
    ({"shoes": True}, TypeError, "True"),
    ({"shoes": 2.0}, TypeError, "2.0"),
    ({"strategy": []}, ValueError, "strategy"),
    ({"strategy": "perfectx"}, ValueError, "perfectx"),
    ({"strategy": None}, TypeError, "NoneType"),
    ({"strategy": ["perfect", "perfect"]}, ValueError, "perfect"),
    ({"workers": 0}, ValueError, "workers"),
    ({"workers": 10**9}, ValueError, "1000000000"),
    ({"chunk_size": 0}, ValueError, "chunk_size"),
    ({"chunk_size": 10**30}, ValueError, "chunk_size"),
    ({"chunk_size": 1.0}, TypeError, "1.0"),
    ({"bankroll": float("nan")}, TypeError, "nan"),
    ({"bankroll": 0}, ValueError, "bankroll"),
    ({"bankroll": "5"}, TypeError, "'5'"),
    ({"burned_seen": 1}, TypeError, "1"),
    ({"progress": 5}, TypeError, "progress"),
    ({"executor": 5}, TypeError, "executor"),
    ({"bets": "point:0"}, TypeError, "point:0"),
    ({"bets": []}, ValueError, "bets"),
    ({"bets": ["point:0", "point:0"]}, ValueError, "point:0"),
    ({"strategy": CountPlay(spread={float("nan"): 1})}, TypeError, "nan"),
    ({"strategy": CountPlay(spread={"1": 1})}, TypeError, "'1'"),
    ({"strategy": CountPlay(spread={1: 1.5})}, ValueError, "1.5"),
    ({"strategy": CountPlay(spread={})}, TypeError, "spread"),
    ({"strategy": CountPlay(spread=[(1, 1)])}, TypeError, "spread"),
    ({"strategy": CountPlay(threshold={"point:1": 1})}, ValueError, "point:1"),
    ({"strategy": CountPlay(threshold=float("inf"))}, TypeError, "inf"),
    ({"strategy": CountPlay(threshold=[1])}, TypeError, "[1]"),
    ({"strategy": CountPlay(bin_width=0)}, ValueError, "bin_width"),
    ({"strategy": CountPlay(bin_width=2, max_count=1)}, ValueError, "max_count"),
    ({"strategy": CountPlay(tags="A")}, TypeError, "str"),
    ({"strategy": CountPlay(tags={"A": 10**30})}, ValueError, "1000000000000000000000000000000"),
    ({"strategy": CountPlay(tags={"A": 127})}, ValueError, "127"),
    ({"strategy": CountPlay(tags={"A": 1.0})}, TypeError, "1.0"),
    ({"strategy": CountPlay(tags={"point:1": {"A": 1}})}, ValueError, "point:1"),
    ({"strategy": CountPlay(tags={"point:0": None})}, TypeError, "NoneType"),
    ({"strategy": CountPlay(tags={"Z": 1})}, ValueError, "Z"),
    ({"seed": -1}, ValueError, "seed must be an int in 0..2**256 - 1, got -1"),
    ({"seed": 1.5}, TypeError, "1.5"),
])
def test_play_shoes_refuses_bad_input(kw: dict[str, Any], error: type[Exception], needle: str) -> None:
    """(passes) play_shoes' own checks, one bad value at a time."""
    seed = kw.pop("seed", 1)
    with pytest.raises(error) as info:
        play_shoes(MACAU, kw.pop("shoes", 1), kw.pop("strategy", "count"), seed=seed,
                   bets=kw.pop("bets", POINT), **kw)
    assert needle in str(info.value)


def test_play_shoes_rules_not_a_rule_set() -> None:
    """(passes) What is neither a RuleSet nor a preset's name is refused, naming its type."""
    with pytest.raises(TypeError, match="int"):
        play_shoes(3, 1, "count", seed=1)  # type: ignore[arg-type]


# --- design ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "edge", "kw", "needle"), [
    (ONLINE, (-1, 1), {"shoes": "x"}, "shoes"),
    (ONLINE, (-1, 1), {"shoes": -5}, "shoes"),
    (ONLINE, (-1, 1), {"seed": "x"}, "seed"),
    (ONLINE, (-1, 1), {"workers": 0}, "workers"),
    (MACAU, (0.9, 1), {"shoes": -5}, "shoes"),
    (MACAU, (0.9, 1), {"workers": 10**9}, "workers"),
])
def test_design_validates_every_argument_up_front(rules: Any, edge: Any, kw: dict[str, Any], needle: str) -> None:
    """``shoes``, ``seed`` and ``workers`` are checked only by ``play_shoes``, which design
    calls only for a shoe game with a pay found: on a fresh-deck table, or when no pay
    has such an edge, bad values are silently accepted (shoe.py ``design``)."""
    bet = "win:1" if rules is ONLINE else "point:0"
    with pytest.raises((ValueError, TypeError)) as info:
        design(rules, bet, edge, limit=1, **kw)
    assert needle in str(info.value)


@pytest.mark.parametrize("call", [
    "design(MACAU, 'point:0', ('1e-99999999', '0.1'))",
    "design(MACAU, 'point:0', (0.02, 0.06), step='1e99999999')",
])
def test_design_string_exponents_do_not_hang(call: str) -> None:
    """``_fraction`` hands a string to ``Fraction``, which computes 10**99999999 for an
    exponent before the size check looks at it: the call runs for minutes (shoe.py
    ``_fraction``; the limits have a MAX_DECIMAL_EXPONENT for this)."""
    _refused_quickly(call, "1e")


def test_design_pair_plus_enumeration_is_bounded_in_time() -> None:
    """Pair Plus over pays 1..1,000,000 (a million odds, allowed) and every edge: the walk
    tries 2,000,000 tables of Fraction arithmetic (and loops over pruned odds that do
    not count) before refusing: 80 s. The default design of pair_plus:1 (pays up to
    twice the table's, step 0.5, edge 2%-6%) takes about 50 s. The enumeration must be
    refused (or bounded) before it runs (shoe.py ``design``, ``walk``)."""
    _refused_quickly("design(PRESETS['online'], 'pair_plus:1', (-1, 1), step=1, pays=(1, 10**6), limit=1)",
                     "pays")


@pytest.mark.parametrize(("kw", "error", "needle"), [
    ({"edge": (float("nan"), 0.1)}, ValueError, "nan"),
    ({"edge": (float("inf"), 0.1)}, ValueError, "inf"),
    ({"edge": ("1e999", 0.1)}, ValueError, "1e999"),
    ({"edge": np.array([0.02, 0.06])}, TypeError, "edge"),
    ({"edge": (0.02, 0.06, 0.1)}, TypeError, "edge"),
    ({"edge": (0.06, 0.02)}, ValueError, "0.06"),
    ({"edge": (0.02, 2)}, ValueError, "2"),
    ({"step": 0}, ValueError, "step"),
    ({"step": True}, TypeError, "True"),
    ({"step": float("nan")}, ValueError, "nan"),
    ({"pays": (0, 5)}, ValueError, "pays"),
    ({"pays": [1]}, TypeError, "pays"),
    ({"pays": (10**7, 10**7)}, ValueError, "pays"),
    ({"decks": 65}, ValueError, "65"),
    ({"decks": True}, ValueError, "True"),
    ({"limit": 0}, ValueError, "limit"),
    ({"bet": 5}, TypeError, "bet"),
    ({"bet": "zzz"}, ValueError, "zzz"),
    ({"step": Fraction(1, 10**6), "pays": (Fraction(1, 10**6), 2)}, ValueError, "million"),
])
def test_design_refuses_bad_input(kw: dict[str, Any], error: type[Exception], needle: str) -> None:
    """(passes) design's own checks, one bad value at a time."""
    with pytest.raises(error) as info:
        design(MACAU, kw.pop("bet", "point:0"), kw.pop("edge", (0.02, 0.06)), shoes=1, **kw)
    assert needle in str(info.value)


# --- the compiled kernels, handed forged arguments --------------------------------------------------


def _terms(bets: tuple[str, ...] = ("odd", "point:0")) -> Any:
    return shoe_terms(MACAU, bets)


@pytest.mark.parametrize("forge", ["object beyond int64", "uint64 beyond int64", "float"])
def test_shoe_kernel_refuses_values_it_cannot_hold(forge: str) -> None:
    """A terms's values are summed exactly in 128 bits from 64-bit values: a value beyond
    64 bits, or a float (0.5 would truncate), is refused (_shoe.pxi ``ShoeKernel.__init__``);
    first found when they were cast to int32, which wrapped 2**31 + 5 silently."""
    from sanggong import _core

    terms = _terms()
    values = terms.single_values.astype({"object beyond int64": object, "uint64 beyond int64": np.uint64,
                                        "float": np.float64}[forge])
    values[0, 0] = {"object beyond int64": 2**70, "uint64 beyond int64": 2**63 + 5, "float": 0.5}[forge]
    with pytest.raises(ValueError):
        _core.ShoeKernel(dataclasses.replace(terms, single_values=values), composition(8).tolist())


def test_shoe_kernel_sums_64_bit_values_exactly() -> None:
    """Values beyond 32 bits (up to 64) are held and summed exactly: the reference agrees."""
    from sanggong import _core
    from sanggong._kernels import twin as _pykernels

    terms = _terms()
    values = terms.single_values.astype(np.int64)
    values[:, 0] = np.where(values[:, 0] > 0, 2**62 - 1, -(2**62) + 3)
    forged = dataclasses.replace(terms, single_values=values)
    counts = composition(64).tolist()
    assert _core.ShoeKernel(forged, counts).numerators() == _pykernels.ShoeKernel(forged, counts).numerators()


def test_shoe_kernel_refuses_an_entry_beyond_16_bits() -> None:
    """An index 65,539 is cast to uint16 (3) and accepted; the reference refuses it
    (_shoe.pxi ``ShoeKernel.__init__``)."""
    from sanggong import _core

    terms = _terms()
    idx = terms.single_idx.astype(np.int64)
    idx[0, 0] = 65536 + 3
    with pytest.raises(ValueError):
        _core.ShoeKernel(dataclasses.replace(terms, single_idx=idx), composition(8).tolist())


def test_shoe_kernel_refuses_a_multiset_that_overflows_its_weight() -> None:
    """Each entry is checked alone, not the row: a "3-card multiset" of three entries
    C(c, 3) of one kind is accepted, and its weight C(768, 3)**3 overflows int64 in
    ``sg_multiset_dot`` (undefined behaviour; the compiled sums disagree with the
    reference's in sign). A row must be a multiset of ``width`` cards (_shoe.pxi
    ``ShoeKernel.__init__``)."""
    from sanggong import _core

    terms = _terms()
    idx = terms.single_idx.copy()
    idx[0, :] = 8 * 10 + 3
    with pytest.raises(ValueError):
        _core.ShoeKernel(dataclasses.replace(terms, single_idx=idx), [64] * 52)


@pytest.mark.parametrize("forge", ["fold -1", "fold 300", "fold short", "kinds 53", "idx 0-d", "values 1-d"])
@pytest.mark.kernels
def test_shoe_kernel_refuses_a_forged_terms(impl: Any, forge: str) -> None:
    """Both kernels refuse terms whose fold, kinds or arrays are malformed with a
    ValueError. (The compiled one does; the reference's ``ShoeKernel`` does not check
    ``fold`` or ``kinds`` at all: fold -1 is accepted and sums the wrong kind, fold 300
    and a short fold raise IndexError, kinds 53 is accepted, a 0-d idx raises TypeError,
    1-d values IndexError: _pykernels.py ``ShoeKernel.__init__``.)"""
    terms = _terms()
    fold = np.array(terms.fold, dtype=np.int64)
    change: dict[str, Any] = {}
    if forge == "fold -1":
        fold[0] = -1
        change["fold"] = fold
    elif forge == "fold 300":
        fold[0] = 300
        change["fold"] = fold
    elif forge == "fold short":
        change["fold"] = terms.fold[:51]
    elif forge == "kinds 53":
        change["kinds"] = 53
    elif forge == "idx 0-d":
        change["single_idx"] = np.uint16(3)
    else:
        change["single_values"] = np.zeros(len(terms.single_idx), np.int32)
    with pytest.raises(ValueError):
        impl.ShoeKernel(dataclasses.replace(terms, **change), composition(8).tolist())


@pytest.mark.parametrize(("counts", "needle"), [([65] + [8] * 51, "0..64"), ([8] * 53, "52"),
                                                ([10**30] * 52, "0..64")])
def test_shoe_kernel_refuses_bad_counts(counts: list[int], needle: str) -> None:
    """(passes) Compositions beyond the kernel's 64 of a card, or not 52 counts."""
    from sanggong import _core

    with pytest.raises(ValueError, match=needle):
        _core.ShoeKernel(_terms(), counts)


def _chunk_args(bets: tuple[str, ...] = ("point:0", "win:1")) -> dict[str, Any]:
    """The arguments ``play_shoes`` hands the compiled ``play_chunk`` for its first chunk
    (of 2 shoes of MACAU, perfect and count), by name (the reference twin's signature)."""
    import inspect

    import sanggong._kernels as _kernels
    from sanggong import _core
    from sanggong._kernels import twin as _pykernels

    names = list(inspect.signature(_pykernels.play_chunk).parameters)
    captured: list[dict[str, Any]] = []

    class Spy:
        def __getattr__(self, name: str) -> Any:
            return getattr(_core, name)

        def play_chunk(self, *args: Any) -> Any:
            captured.append(dict(zip(names, args, strict=True)))
            raise _Captured

    chosen = _kernels.kernels
    _kernels.kernels = Spy()
    try:
        play_shoes(MACAU, 2, ["perfect", "count"], seed=1, bets=list(bets), workers=1)
    except _Captured:
        pass
    finally:
        _kernels.kernels = chosen
    (args,) = captured
    args["bit_generator"] = np.random.PCG64(1)
    args["stop"] = np.zeros(1, np.uint8)
    return args


class _Captured(Exception):
    pass


def _play_chunk(args: dict[str, Any]) -> Any:
    from sanggong import _core

    return _core.play_chunk(*args.values())


def _misaligned(arr: np.ndarray) -> np.ndarray:
    """A copy of ``arr`` one byte off its type's alignment (as a pickle can make)."""
    buf = np.zeros(arr.nbytes + 1, np.uint8)
    out = np.frombuffer(buf.data, dtype=arr.dtype, count=arr.size, offset=1).reshape(arr.shape)
    out[...] = arr
    return out


def test_play_chunk_itself_is_sound() -> None:
    """(passes) The forged-argument tests below start from arguments play_chunk accepts."""
    args = _chunk_args()
    rounds, shoes = _play_chunk(args)
    assert shoes == 2 and rounds > 2
    assert int(args["count_hist"].sum()) == 2 * rounds


def test_play_chunk_refuses_a_bin_width_whose_scale_overflows() -> None:
    """bin_width 5e-324 passes ``bin_width > 0``; 52 / unseen / bin_width is inf, a running
    count of 0 times inf is NaN, and the kernel converts NaN to a bin index (undefined
    behaviour in C; this build's clamps happen to land the rounds in bin 0, silently
    wrong, where the reference raises on math.floor(nan)). The scale must be checked
    finite (_shoe.pxi ``play_chunk``). Run in a child: the conversion may crash."""
    code = f"""
        import sys
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        from test_shoe_attack import _chunk_args, _play_chunk
        args = _chunk_args(bets=("win:1",))
        args["bin_width"] = 5e-324
        try:
            _play_chunk(args)
        except ValueError as exc:
            print("REFUSED", exc)
        else:
            print("ACCEPTED", args["count_hist"].sum(axis=(1, 2)).tolist())
    """
    done = run_python(code, 30)
    assert done is not None and done.returncode == 0, done and done.stderr[-500:]
    assert done.stdout.startswith("REFUSED"), done.stdout


@pytest.mark.parametrize("name", ["tags", "bet_tag", "bet_row", "row_scale", "fixed_ev"])
def test_play_chunk_refuses_misaligned_arrays(name: str) -> None:
    """play_chunk checks the alignment of params, count_hist, perfect_hist, ev_bins and
    moments ("reading an int64 through a pointer that is not 8-byte aligned is undefined
    behaviour"), but not of tags, bet_tag, bet_row (int32) or row_scale, fixed_ev
    (double), which it reads the same way: a misaligned one is accepted (_shoe.pxi
    ``play_chunk``)."""
    args = _chunk_args()
    if name == "fixed_ev":  # a fresh deck each round: fixed EVs, no kernel
        args.update(kernel=None, params=table_params(ONLINE).array(), fixed_ev=np.array([0.1, -0.1]))
    args[name] = _misaligned(args[name])
    with pytest.raises(ValueError, match=name):
        _play_chunk(args)


@pytest.mark.parametrize("counts", [[0] * 52, [1] * 52, [64] * 52])
def test_play_chunk_refuses_a_kernel_that_is_not_the_full_shoe(counts: list[int]) -> None:
    """The kernel must hold the full shoe of ``params``' decks ("a full shoe when
    called"). One holding fewer cards is dealt below zero (``state.cards[c] -= 1`` with
    no check: negative counts, EVs from a negative number of cards, divisions by zero)
    and one holding 64 decks for an 8-deck shoe gives EVs of the wrong shoe, all
    silently; the reference's kernel raises on the first card it cannot remove
    (_shoe.pxi ``play_chunk``)."""
    from sanggong import _core

    args = _chunk_args()
    args["kernel"] = _core.ShoeKernel(args["kernel"].terms, counts)
    with pytest.raises(ValueError):
        _play_chunk(args)


@pytest.mark.parametrize(("name", "forge", "needle"), [
    ("bet_row", lambda a: np.array([99, 0], np.int32), "row"),
    ("bet_row", lambda a: np.array([-1, 0], np.int32), "row"),
    ("bet_tag", lambda a: np.array([5, 0], np.int32), "tag"),
    ("tags", lambda a: np.full((1, 13), 128, np.int32), "128"),
    ("tags", lambda a: np.full((1, 13), -128, np.int32), "-128"),
    ("tags", lambda a: np.ones((65, 13), np.int32), "tags"),
    ("tags", lambda a: np.ones((1, 12), np.int32), "tags"),
    ("tags", lambda a: np.ones((1, 26), np.int32)[:, ::2], "contiguous"),
    ("columns", lambda a: np.full(a["columns"].shape, 255, np.uint8), "column"),
    ("columns", lambda a: np.ascontiguousarray(a["columns"][:, :-1]), "columns"),
    ("count_hist", lambda a: np.zeros((0, *a["count_hist"].shape[1:]), a["count_hist"].dtype), "count_hist"),
    ("count_hist", lambda a: _misaligned(a["count_hist"]), "aligned"),
    ("params", lambda a: _misaligned(a["params"]), "aligned"),
    ("params", lambda a: np.array([65, *a["params"][1:]], np.int64), "params"),
    ("params", lambda a: np.array([8, 17, *a["params"][2:]], np.int64), "params"),
    ("params", lambda a: np.array([*a["params"], 0], np.int64), "params"),
    ("bin_zero", lambda a: a["count_hist"].shape[0], "bins"),
    ("bin_zero", lambda a: -1, "bins"),
    ("bin_width", lambda a: 0.0, "bins"),
    ("bin_width", lambda a: float("nan"), "bins"),
    ("bin_width", lambda a: float("-inf"), "bins"),
    ("stop", lambda a: np.zeros(0, np.uint8), "stop"),
    ("fixed_ev", lambda a: np.array([0.1, 0.1]), "not both"),
    ("perfect_hist", lambda a: np.zeros((1, 1), a["perfect_hist"].dtype), "shapes"),
    ("moments", lambda a: np.zeros((2, 5)), "shapes"),
    ("bit_generator", lambda a: 5, "BitGenerator"),
    ("bit_generator", lambda a: np.random.default_rng(1), "BitGenerator"),
])
def test_play_chunk_refuses_forged_arguments(name: str, forge: Any, needle: str) -> None:
    """(passes) What the compiled play_chunk already refuses before it indexes."""
    args = _chunk_args()
    args[name] = forge(args)
    with pytest.raises((ValueError, TypeError), match=needle):
        _play_chunk(args)


# --- the command line -------------------------------------------------------------------------------

PROTECT_ANY = ["protect", "--rules", "macau", "--shoes", "1", "--seed", "1", "--json"]
PROTECT = [*PROTECT_ANY, "--bets", "point:0"]
DESIGN = ["design", "--rules", "macau", "--bet", "point:0", "--shoes", "1", "--json"]


@pytest.mark.parametrize(("name", "text"), [
    ("deep.json", '{"a": ' + "[" * 30000 + "]" * 30000 + "}"),
    ("deep.toml", "a = " + "[" * 30000 + "]" * 30000 + "\n"),
], ids=["json", "toml"])
def test_cli_tags_file_nested_too_deep(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str,
                                       text: str) -> None:
    """A tags file under the size limit but nested 30,000 deep: RecursionError escapes
    ``_tags_file`` (it catches ValueError and UnicodeDecodeError), and ``main`` prints
    "maximum recursion depth exceeded", which names neither --tags nor the file
    (cli.py ``_tags_file``)."""
    path = tmp_path / name
    path.write_text(text)
    fails([*PROTECT, "--tags", str(path)], "--tags", capsys)


@pytest.mark.parametrize("tags", ['{"zzz": {"A": 1}}', '{"Z": 1}', '{"A": 1000}'])
def test_cli_tags_are_checked_whatever_the_strategy(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    tags: str) -> None:
    """``--tags`` naming an unknown bet or rank, or a tag beyond the limit, with
    ``--strategy perfect``: the file is parsed but its content never checked, exit 0,
    the bad input silently ignored (cli.py ``_cmd_protect``: the tags reach only a
    CountPlay)."""
    path = tmp_path / "tags.json"
    path.write_text(tags)
    fails([*PROTECT, "--strategy", "perfect", "--tags", str(path)], "tags", capsys)


def test_cli_plot_into_a_missing_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--plot`` into a directory that does not exist: the shoes are played, the JSON
    printed, then savefig fails (and matplotlib's legend warning goes to stderr): output
    on stdout and more than one line on stderr, after the whole run. The path is not
    checked before the work (cli.py ``_cmd_protect``)."""
    pytest.importorskip("matplotlib")
    target = tmp_path / "missing" / "plot.png"
    fails([*PROTECT, "--strategy", "count", "--plot", str(target)], "plot.png", capsys)


def test_cli_design_step_beyond_the_pays_names_step(capsys: pytest.CaptureFixture[str]) -> None:
    """``--step 999999999999`` (no --pays): the message blames the pays the user never
    gave, "pays must satisfy 0 < low <= high <= 1,000,000, got (999999999999, 16)"
    (shoe.py ``design``: the default pays start at the step)."""
    fails([*DESIGN, "--edge", "0.02-0.06", "--step", "999999999999"], "step", capsys)


@pytest.mark.parametrize(("argv", "needle"), [
    ([*PROTECT, "--cut", "1e999-2"], "1e999-2"),
    ([*PROTECT, "--cut", "nan-0.1"], "nan-0.1"),
    ([*PROTECT, "--cut=-5-10"], "-5-10"),
    ([*PROTECT, "--cut", "0-0"], "0-0"),
    ([*PROTECT, "--cut", "400-416"], "400-416"),
    ([*PROTECT, "--cut", "999999999999-999999999999"], "999999999999"),
    ([*PROTECT, "--cut", "30%-40%"], "30%-40%"),
    ([*PROTECT, "--cut", "30.5-40"], "30.5-40"),
    ([*PROTECT, "--cut", "3-2"], "3-2"),
    ([*PROTECT, "--bankroll", "0"], "0"),
    ([*PROTECT, "--workers", "0"], "0"),
    ([*PROTECT, "--shoes", "0"], "0"),
    ([*PROTECT, "--seed", "-1"], "-1"),
    ([*PROTECT, "--strategy", ""], "strategy"),
    ([*PROTECT, "--strategy", "perfect,perfect"], "perfect"),
    ([*PROTECT_ANY, "--bets", ","], "''"),
    ([*PROTECT_ANY, "--bets", "point:0,point:0"], "point:0"),
    ([*PROTECT, "--bets", "point:1"], "--bets is given twice"),
    ([*DESIGN, "--edge", "1e999-2"], "1e999-2"),
    ([*DESIGN, "--edge", "nan-0.1"], "nan-0.1"),
    ([*DESIGN, "--edge", "5%-200%"], "2"),
    ([*DESIGN, "--edge", "0.0000000000001-0.06"], "0.0000000000001"),
    ([*DESIGN, "--edge", "0.02-0.06", "--step", "0"], "0"),
    ([*DESIGN, "--edge", "0.02-0.06", "--step", "-1"], "-1"),
    ([*DESIGN, "--edge", "0.02-0.06", "--step", "1e-3"], "1e-3"),
    ([*DESIGN, "--edge", "0.02-0.06", "--step", "nan"], "nan"),
    ([*DESIGN, "--edge", "0.02-0.06", "--pays", "0-5"], "0"),
    ([*DESIGN, "--edge", "0.02-0.06", "--pays", "5-1"], "5-1"),
    ([*DESIGN, "--edge", "0.02-0.06", "--pays", "999999999999-999999999999"], "999999999999"),
    ([*DESIGN, "--edge", "0.02-0.06", "--pays", "1-2", "--step", "5"], "5"),
    ([*DESIGN, "--edge", "0.02-0.06", "--limit", "0"], "0"),
])
def test_cli_refuses_bad_ranges(argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    """(passes) Ranges and numbers the shoe commands refuse in one line."""
    fails(argv, needle, capsys)


@pytest.mark.parametrize(("name", "data", "needle"), [
    ("bin", b"\xff\xfe\x00\x01" * 10, "not JSON or TOML"),
    ("big.json", b'{"A": 1,' + b" " * 70_000 + b'"K": 1}', "larger than"),
    ("list.json", b"[1, 2]", "--tags"),
    ("digits.json", b'{"A": 1' + b"0" * 5000 + b"}", "--tags"),
    ("str.json", b'{"A": "x"}', "'x'"),
    ("float.json", b'{"A": 1.5}', "1.5"),
    ("inf.json", b'{"A": 1e999}', "inf"),
    ("nan.json", b'{"A": NaN}', "nan"),
    ("bool.toml", b"A = true\n", "True"),
    ("other.json", b'{"point:1": {"A": 1}}', "point:1"),
])
def test_cli_refuses_bad_tags_files(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, data: bytes,
                                    needle: str) -> None:
    """(passes) Binary, oversized, mistyped and misdirected tags files."""
    path = tmp_path / name
    path.write_bytes(data)
    fails([*PROTECT, "--strategy", "count", "--tags", str(path)], needle, capsys)


def test_cli_tags_path_is_a_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """(passes) A directory as the tags file: one line naming it."""
    fails([*PROTECT, "--tags", str(tmp_path)], str(tmp_path), capsys)


def test_cli_design_negative_edges(capsys: pytest.CaptureFixture[str]) -> None:
    """(passes) ``--edge=-0.5--0.1`` (a player's edge) is a range design takes."""
    out = json.loads(run([*DESIGN, "--edge=-0.5--0.1"], capsys))
    assert out["edge"] == [-0.5, -0.1]
