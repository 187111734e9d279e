"""Fuzzing settlement: any banker, hands and slip; stakes of every kind and size; table sessions.

The contract, the harness and the budget: ``tests/_fuzzing.py``.
"""

from __future__ import annotations

import decimal
import math
import time
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from _fuzzing import (
    FAST,
    FUZZ_MODULE,
    REFUSED,
    _dump,
    _exact,
    _hand_codes,
    _kind_of,
    _reusable,
    anything,
    call,
    card_codes,
    cardish,
    check,
    check_settlement,
    deals,
    forge,
    genuine_hand,
    hand_forms,
    hand_values,
    in_child,
    ints,
    kernels_swapped,
    slips,
    stakes_any,
    texts,
)
from _harness import fuzz, short
from hypothesis import strategies as st

import sanggong
from sanggong import MACAU, ONLINE, Card, RuleSet, TableSession, limits, settle

pytestmark = FUZZ_MODULE


# --- settlement -----------------------------------------------------------------------------------

TABLES = [MACAU, ONLINE, MACAU.replace(decks=1), MACAU.replace(decks=1, positions=3),
          MACAU.replace(name="three pictures", tie_by="points", pays={**MACAU.pays, "tie": 8}, push="returned"),
          ONLINE.replace(decks=2), MACAU.replace(rounding="half_up", minor_unit=Decimal("0.05")),
          MACAU.replace(rounding="up", commission=Fraction(3, 100)), ONLINE.replace(rounding="up")]


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
@pytest.mark.kernels
def test_settle_takes_anything(case: tuple[Any, ...]) -> None:
    in_child(check_settle, *case)


@fuzz(settle_cases(sane=True), examples=20)
@pytest.mark.kernels
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
@pytest.mark.kernels
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
@pytest.mark.kernels
def test_settle_refuses_deals_the_shoe_cannot_hold(rules: RuleSet, banker: str, hands: dict[int, str]) -> None:
    bets = {"win:1": 100, "tie:1": 10} if rules.variant == "macau" else {"win:1": 100}

    def run() -> None:
        result = call(settle, rules, banker, hands, bets)
        check(result is REFUSED, f"settle({rules.name} x{rules.decks}, {banker}, {hands}) = {short(result)}",
              "ImpossibleDeal")

    in_child(run)


@pytest.mark.kernels
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
@pytest.mark.kernels
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


# --- table sessions -------------------------------------------------------------------------------

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
@pytest.mark.kernels
def test_table_session_keeps_the_money_kind(case: tuple[Any, Any]) -> None:
    in_child(check_session_kinds, *case)


@pytest.mark.kernels
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
