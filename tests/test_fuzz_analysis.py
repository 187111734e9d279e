"""Fuzzing the exact analysis: any shoe, degenerate shoes, compositions, the effect of removal.

The contract, the harness and the budget: ``tests/_fuzzing.py``.
"""

from __future__ import annotations

import math
import re
import time
from collections import Counter
from typing import Any

import numpy as np
import pytest
from _fuzzing import (
    ALLOWED,
    FUZZ_MODULE,
    REFUSED,
    _elements,
    _is_int,
    _reusable,
    any_dtype,
    anything,
    call,
    card_codes,
    cardish,
    check,
    check_analysis,
    hand_forms,
    in_child,
    int_dtype,
    ints,
    kernels_swapped,
    layouts,
    texts,
)
from _harness import Violation, fuzz, short
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from sanggong import (
    MACAU,
    ONLINE,
    RuleSet,
    analyze,
    compare_batch,
    composition,
    effect_of_removal,
    limits,
    parse_cards,
    rank_batch,
    settle,
)

pytestmark = [*FUZZ_MODULE, pytest.mark.kernels]


# --- analysis -------------------------------------------------------------------------------------

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
@pytest.mark.kernels
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
@pytest.mark.kernels
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
@pytest.mark.kernels
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
        except BaseException as exc:
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
@pytest.mark.kernels
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
@pytest.mark.kernels
def test_effect_of_removal_takes_anything(rules: RuleSet, bets: Any) -> None:
    in_child(check_effect_of_removal, rules, bets, timeout=60)
