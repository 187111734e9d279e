"""Settlement: every bet and outcome of both presets and a points-only-tie variant,
exact money, carried stakes, invalid slips, and the compiled settlement tables against
the reference's plain rules on every input."""

from __future__ import annotations

import itertools
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

from sanggong import MACAU, ONLINE, RuleSet, TableSession, evaluate, settle
from sanggong import _spec as ref
from sanggong.ranking import Ranking, tables_for
from sanggong.rules import PRESETS
from sanggong.settlement import outcome_codes

THREE_PICTURES = MACAU.replace(name="three pictures", tie_by="points", pays={**MACAU.pays, "tie": 8})
POINTS_ONLY = MACAU.replace(name="points only", ranking=Ranking(order="points"))

THREE = "9c 9d 5h"  # 3 points, no face: "3" (odd)
THREE_TOO = "9h 9s 5c"  # the same class
P3 = "Jc 9h 4d"  # one face, 3 points
TWO_P9 = "Kh Qs 9s"
THREE_FACES = "Jc Qd Kh"
TWO_P6 = "Kd Qc 6d"
SIX = "5c 5d 6h"  # 6 points, no face
ZERO = "Tc Th Ts"


# (banker, hand 1, bet, outcome, returned, commission, carried) for a stake of 100,
# each amount worked out by hand from the pay tables of RULES.md.
MACAU_CASES = [
    (THREE, TWO_P9, "win:1", "win", 195, 5, 0),  # 1:1 less 5%
    (TWO_P9, THREE, "win:1", "lose", 0, 0, 0),
    (THREE, THREE_TOO, "win:1", "carried", 0, 0, 100),  # a tie leaves the stake on the table
    (THREE, P3, "win:1", "win", 195, 5, 0),  # P3 beats 3
    (THREE, THREE_TOO, "tie:1", "win", 2100, 0, 0),  # 20:1, no commission
    (THREE, TWO_P9, "tie:1", "lose", 0, 0, 0),
    (THREE, TWO_P9, "odd", "win", 195, 5, 0),
    (THREE, TWO_P9, "even", "lose", 0, 0, 0),
    (TWO_P9, THREE, "odd", "win", 195, 5, 0),
    (ZERO, THREE, "even", "win", 195, 5, 0),  # 0 points is even
    (THREE_FACES, THREE, "odd", "carried", 0, 0, 100),  # banker 3P: push, stake stays
    (THREE_FACES, THREE, "even", "carried", 0, 0, 100),
    (THREE_FACES, THREE, "three_faces", "win", 1700, 0, 0),  # 16:1
    (THREE, THREE_FACES, "three_faces", "lose", 0, 0, 0),  # a position's 3P is not the banker's
    (THREE, TWO_P9, "point:3", "win", 900, 0, 0),  # 8:1
    (THREE, TWO_P9, "point:4", "lose", 0, 0, 0),
    (THREE_FACES, THREE, "point:0", "win", 900, 0, 0),  # choice: banker 3P counts as 0
    (ZERO, THREE, "point:0", "win", 900, 0, 0),
    (THREE_FACES, THREE, "win:1", "lose", 0, 0, 0),
    (THREE_FACES, THREE_FACES, "win:1", "carried", 0, 0, 100),
]

ONLINE_CASES = [
    (THREE, TWO_P9, "win:1", "win", 200, 0, 0),
    (THREE, SIX, "win:1", "win", 150, 0, 0),  # player wins with 6 points: 1:0.5
    (THREE, TWO_P6, "win:1", "win", 150, 0, 0),
    (TWO_P9, THREE, "win:1", "lose", 0, 0, 0),
    (THREE, THREE_TOO, "win:1", "push", 100, 0, 0),  # returned on a tie
    (TWO_P9, THREE, "lose:1", "win", 200, 0, 0),
    (TWO_P6, THREE, "lose:1", "win", 150, 0, 0),  # banker wins with 6 points: 1:0.5
    (TWO_P6, TWO_P9, "lose:1", "lose", 0, 0, 0),
    (SIX, THREE, "win:1", "lose", 0, 0, 0),
    (THREE, THREE_TOO, "lose:1", "push", 100, 0, 0),
    (THREE, THREE_TOO, "tie:1", "win", 900, 0, 0),  # 8:1
    (THREE, P3, "tie:1", "lose", 0, 0, 0),  # faces differ: no tie
    (THREE, THREE_FACES, "three_faces:1", "win", 1700, 0, 0),
    (THREE_FACES, THREE, "three_faces:1", "lose", 0, 0, 0),
    (THREE, "Ah 2h 3h", "pair_plus:1", "win", 4100, 0, 0),  # straight flush 40:1
    (THREE, "Ts Td Tc", "pair_plus:1", "win", 3100, 0, 0),  # three of a kind 30:1
    (THREE, "Ts Js Qc", "pair_plus:1", "win", 700, 0, 0),  # straight 6:1
    (THREE, "2s 7s Qs", "pair_plus:1", "win", 400, 0, 0),  # flush 3:1
    (THREE, "Ts Tc Qs", "pair_plus:1", "win", 200, 0, 0),  # pair 1:1
    (THREE, "Ks As 2s", "pair_plus:1", "win", 400, 0, 0),  # K-A-2 is a flush, not a straight
    (THREE, "Kd As 2c", "pair_plus:1", "lose", 0, 0, 0),
    ("Qh Kh Ah", THREE, "pair_plus:banker", "win", 4100, 0, 0),
    ("9c 7d 5h", "Qh Kh Ah", "pair_plus:banker", "lose", 0, 0, 0),
]

POINTS_TIE_CASES = [
    (THREE, P3, "tie:1", "win", 900, 0, 0),  # same points, faces ignored: 8:1
    (THREE, P3, "win:1", "win", 195, 5, 0),  # the Tie is on points, Win still compares faces (NagaWorld)
    (THREE_FACES, THREE_FACES, "tie:1", "win", 900, 0, 0),
    (ZERO, THREE_FACES, "tie:1", "lose", 0, 0, 0),  # 3P still beats a 0-point hand
    (ZERO, THREE_FACES, "win:1", "win", 195, 5, 0),
    (THREE, TWO_P9, "win:1", "win", 195, 5, 0),
]


SAN_GONG = PRESETS["san_gong"]
# (Phoenix, Dragon, bet, ...) at the San Gong table: the side bets pay 0.94:1 (194 back
# for 100), the totals 1:1, 2:1 and 4:1 on the winning hand's points.
SAN_GONG_CASES = [
    ("8d Js 8s", "7h 9c 5s", "odd:dragon", "win", 194, 0, 0),  # Dragon 21: 1 point
    ("8d Js 8s", "7h 9c 5s", "even:dragon", "lose", 0, 0, 0),
    ("8d Js 8s", "7h 9c 5s", "odd:phoenix", "lose", 0, 0, 0),  # Phoenix 16: 6 points
    ("8d Js 8s", "7h 9c 5s", "even:phoenix", "win", 194, 0, 0),
    ("8d Js 8s", "7h 9c 5s", "pair:phoenix", "win", 194, 0, 0),  # 8-8
    ("8d Js 8s", "7h 9c 5s", "pair:dragon", "lose", 0, 0, 0),
    ("8d Js 8s", "Kc Kd Kh", "pair:dragon", "lose", 0, 0, 0),  # three of a kind is not a pair
    ("8d Js 8s", "Jc Qd Kh", "even:dragon", "win", 194, 0, 0),  # three faces: 0 points, even
    ("8d Js 8s", "Jc Qd Kh", "odd:dragon", "lose", 0, 0, 0),
    ("8d Js 8s", "Tc Th Ts", "even:dragon", "win", 194, 0, 0),  # three tens: 0 points
    ("9c 7d 5h", "Kh Qs 9d", "total:9", "win", 500, 0, 0),  # Dragon 9 beats Phoenix 1: 4:1
    ("9c 7d 5h", "Kh Qs 9d", "total:1-6", "lose", 0, 0, 0),
    ("9c 7d 5h", "Kh Qs 9d", "total:7-8", "lose", 0, 0, 0),
    ("2c 3h Qd", "4c 3d Kh", "total:7-8", "win", 300, 0, 0),  # 7 beats 5: 2:1
    ("Kh Qs 9d", "9c 7d 5h", "total:9", "win", 500, 0, 0),  # Phoenix wins with 9
    ("9c 9d 5h", "Jc 9h 4d", "total:1-6", "win", 200, 0, 0),  # 3 and 3: the total is 3
    ("Kc 5d 5h", "Tc Jd Qh", "total:1-6", "push", 100, 0, 0),  # both hands 0: returned
    ("Kc 5d 5h", "Tc Jd Qh", "total:9", "push", 100, 0, 0),
    ("4c 3d 9h", "Jc Qd Kh", "total:1-6", "push", 100, 0, 0),  # three faces (0) beat 6: returned
    ("Kh Qs 9d", "5c 5d 5h", "total:1-6", "win", 200, 0, 0),  # 5-5-5 beats a 9: the total is 5
    ("9c 9d 9h", "Kc Kd Ks", "total:7-8", "push", 100, 0, 0),  # K-K-K (0) beats 9-9-9 (7)
    ("9c 9d 9h", "5c 5d 5h", "total:7-8", "win", 300, 0, 0),  # Phoenix's 9-9-9 (7) beats 5-5-5
    ("9c 9d 9h", "5c 5d 5h", "total:1-6", "lose", 0, 0, 0),
    ("Kh Qs 9d", "5c 5d 5h", "dragon", "win", 194, 0, 0),
]


def _slip(rules: RuleSet, bet: str) -> dict[str, int]:
    slip = {bet: 100}
    if rules.tie_requires_win and bet.startswith("tie:"):
        slip["win:" + bet.split(":")[1]] = 100
    return slip


@pytest.mark.parametrize(
    ("rules", "case"),
    [(MACAU, c) for c in MACAU_CASES] + [(ONLINE, c) for c in ONLINE_CASES]
    + [(THREE_PICTURES, c) for c in POINTS_TIE_CASES] + [(SAN_GONG, c) for c in SAN_GONG_CASES]
    + [(POINTS_ONLY, (THREE, P3, "win:1", "carried", 0, 0, 100)),  # a ranking of points only: a tie
       (POINTS_ONLY, (THREE, P3, "tie:1", "win", 2100, 0, 0)),
       (POINTS_ONLY, (ZERO, THREE_FACES, "win:1", "win", 195, 5, 0))],
)
@pytest.mark.kernels
def test_every_bet_and_outcome(rules: RuleSet, case: tuple[object, ...]) -> None:
    banker, hand, bet, outcome, returned, commission, carried = case
    result = settle(rules, banker, {1: hand}, _slip(rules, bet))[bet]  # type: ignore[arg-type]
    assert (result.outcome, result.returned, result.commission, result.carried) == (
        outcome, returned, commission, carried)
    assert result.net == returned + carried - 100


def test_every_offered_bet_has_a_case() -> None:
    def kinds(cases: list[tuple[object, ...]]) -> set[str]:
        return {str(c[2]).split(":")[0] for c in cases}

    assert kinds(MACAU_CASES) == {n.split(":")[0] for n in MACAU.bets}
    assert kinds(ONLINE_CASES) == {n.split(":")[0] for n in ONLINE.bets}
    assert kinds(SAN_GONG_CASES) >= {n.split(":")[0] for n in SAN_GONG.bets} - {"phoenix", "tie"}
    assert {c[2] for c in SAN_GONG_CASES} >= {n for n in SAN_GONG.bets if ":" in n}
    outcomes = {c[3] for c in MACAU_CASES} | {c[3] for c in ONLINE_CASES}
    assert outcomes == {"win", "lose", "push", "carried"}


@pytest.mark.kernels
def test_variants_change_the_answer() -> None:
    no_zero = MACAU.replace(banker_three_faces_point=None)
    assert settle(no_zero, THREE_FACES, {}, {"point:0": 100})["point:0"].outcome == "lose"
    lose_3p = MACAU.replace(banker_three_faces_odd_even="lose")
    assert settle(lose_3p, THREE_FACES, {}, {"odd": 100})["odd"].outcome == "lose"
    returned = MACAU.replace(push="returned")
    tie = settle(returned, THREE, {1: THREE_TOO}, {"win:1": 100})["win:1"]
    assert (tie.outcome, tie.returned, tie.carried) == ("push", 100, 0)
    three_percent = MACAU.replace(commission=Fraction(3, 100))
    assert settle(three_percent, THREE, {1: TWO_P9}, {"win:1": 100})["win:1"].returned == 197
    no_commission = MACAU.replace(commission=0)
    assert settle(no_commission, THREE, {1: TWO_P9}, {"win:1": 100})["win:1"].returned == 200
    no_six = ONLINE.replace(pays={k: v for k, v in ONLINE.pays.items() if not k.endswith("_on_six")})
    assert settle(no_six, THREE, {1: SIX}, {"win:1": 100})["win:1"].returned == 200


@pytest.mark.parametrize(
    ("change", "phoenix", "dragon", "bet", "outcome", "returned", "preset"),
    [
        ({"pair_counts_trips": True}, "8d Js 8s", "Kc Kd Kh", "pair:dragon", "win", 194, "lose"),
        ({"pair_counts_trips": True}, "8d Js 8s", "7h 9c 5s", "pair:phoenix", "win", 194, "win"),
        ({"total_zero": "both"}, "4c 3d 9h", "Jc Qd Kh", "total:1-6", "lose", 0, "push"),  # 3P (0) beats 6
        ({"total_zero": "both"}, "Kc 5d 5h", "Tc Jd Qh", "total:1-6", "push", 100, "push"),  # both 0: always
        ({"total_tier": "push"}, "Kh Qs 9d", "5c 5d 5h", "total:1-6", "push", 100, "win"),  # 5-5-5 wins
        ({"total_tier": "push"}, "9c 7d 5h", "Kh Qs 9d", "total:9", "win", 500, "win"),
        ({"banker_three_faces_odd_even": "push"}, "8d Js 8s", "Jc Qd Kh", "even:dragon", "push", 100, "win"),
        ({"banker_three_faces_odd_even": "lose"}, "Jc Qd Kh", "7h 9c 5s", "even:phoenix", "lose", 0, "win"),
        ({"banker_three_faces_odd_even": "lose"}, "8d Js 8s", "Tc Th Ts", "even:dragon", "win", 194, "win"),
        ({"total_pays": {"1-3": 1, "2-9": "1/2"}}, "9c 9d 5h", "Jc 9h 4d", "total:2-9", "win", 150, None),
        ({"commission": "1/20", "commission_bets": {"total"}}, "2c 3h Qd", "4c 3d Kh", "total:7-8", "win", 290,
         "win"),
    ],
)
@pytest.mark.kernels
def test_the_readings_of_the_side_bets_are_fields(
    change: dict[str, object], phoenix: str, dragon: str, bet: str, outcome: str, returned: int, preset: str | None
) -> None:
    """Each reading the San Gong table takes is a field: the other reading settles some
    cards the other way (a total's winning ranges as data, its commission too)."""
    rules = SAN_GONG.replace(**change)
    result = settle(rules, phoenix, {1: dragon}, {bet: 100})[bet]
    assert (result.outcome, result.returned) == (outcome, returned)
    if preset is not None:  # (the preset has no total:2-9)
        assert settle(SAN_GONG, phoenix, {1: dragon}, {bet: 100})[bet].outcome == preset


@pytest.mark.kernels
def test_an_exact_tie_of_unequal_totals_returns_the_total_bets() -> None:
    """Two decks and a ranking without a high card: 5-5-5 and 7-7-7 tie as trips, with
    5 and 1 points: no one winning total, so every total bet is returned; equal totals
    (the same hand from two decks) are that total."""
    rules = SAN_GONG.replace(decks=2, ranking=Ranking(order="points", tiers=("trips",)))
    slip = {"total:1-6": 100, "dragon": 100}
    tied = settle(rules, "5c 5d 5h", {1: "7c 7d 7h"}, slip)
    assert (tied["dragon"].outcome, tied["total:1-6"].outcome) == ("push", "push")
    same = settle(rules, "5c 5d 5h", {1: "5c 5d 5h"}, slip)
    assert (same["dragon"].outcome, same["total:1-6"].outcome, same["total:1-6"].returned) == ("push", "win", 200)


# --- money ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rounding", "stake", "returned"),
    [
        ("down", 101, 196), ("half_up", 101, 197), ("half_even", 101, 197), ("up", 101, 197),  # 196.95
        ("down", 110, 214), ("half_up", 110, 215), ("half_even", 110, 214), ("up", 110, 215),  # 214.5
        ("down", 100, 195), ("up", 100, 195),  # exact
    ],
)
@pytest.mark.kernels
def test_commission_rounding(rounding: str, stake: int, returned: int) -> None:
    rules = MACAU.replace(rounding=rounding)
    result = settle(rules, THREE, {1: TWO_P9}, {"win:1": stake})["win:1"]
    assert result.returned == returned
    assert result.returned + result.commission == 2 * stake  # nothing created or lost


@pytest.mark.kernels
def test_decimal_and_fraction_money() -> None:
    dec = settle(MACAU, THREE, {1: TWO_P9}, {"win:1": Decimal("1.01")})["win:1"]
    assert (dec.returned, dec.commission) == (Decimal("1.96"), Decimal("0.06"))
    assert isinstance(dec.returned, Decimal) and isinstance(dec.stake, Decimal)
    frac = settle(MACAU, THREE, {1: TWO_P9}, {"win:1": Fraction(101)})["win:1"]
    assert (frac.returned, frac.commission) == (Fraction(3939, 20), Fraction(101, 20))
    six = settle(ONLINE, THREE, {1: SIX}, {"win:1": 101, "tie:1": 1})["win:1"]
    assert six.returned == 151  # 101 + 50.5, rounded down
    exact_six = settle(ONLINE, THREE, {1: SIX}, {"win:1": Fraction(101)})["win:1"]
    assert exact_six.returned == Fraction(303, 2)
    cents = settle(ONLINE.replace(minor_unit=Decimal("0.05")), THREE, {1: SIX}, {"win:1": Decimal("1.05")})
    assert cents["win:1"].returned == Decimal("1.55")  # 1.575 down to the 0.05 unit


@pytest.mark.kernels
def test_large_stakes_are_exact() -> None:
    from sanggong.limits import MAX_STAKE

    stake = MAX_STAKE - 1
    result = settle(MACAU, THREE, {1: TWO_P9}, {"win:1": stake, "tie:1": stake})
    assert result["win:1"].returned == stake * 39 // 20
    assert result["win:1"].returned + result["win:1"].commission == 2 * stake
    assert result.house_net == 2 * stake - result["win:1"].returned
    with pytest.raises(ValueError, match="beyond the largest stake"):
        settle(MACAU, THREE, {1: TWO_P9}, {"win:1": MAX_STAKE + 1})


@pytest.mark.kernels
def test_totals_and_conservation() -> None:
    rng = np.random.default_rng(5)
    for _ in range(300):
        cards = rng.choice(52, size=12, replace=False).tolist()
        hands = {i: cards[3 * i : 3 * i + 3] for i in (1, 2, 3)}
        bets = {name: int(rng.integers(1, 10_000)) for name in ONLINE.bets if rng.random() < 0.5}
        if not bets:
            continue
        result = settle(ONLINE, cards[:3], hands, bets)
        for r in result.results:
            if r.outcome == "win":
                assert r.odds is not None
                assert r.returned == (r.stake * (1 + r.odds)).__floor__()
            elif r.outcome == "push":
                assert r.returned == r.stake
            else:
                assert r.returned == 0 and r.outcome == "lose"
        assert result.staked == sum(bets.values())
        assert result.house_net == result.staked - result.returned - result.carried


@pytest.mark.parametrize(
    ("bets", "error", "match"),
    [
        ({"win:1": 1.5}, TypeError, "stake on win:1: 1.5 is not an amount .*never a float"),
        ({"win:1": True}, TypeError, "stake on win:1: True"),
        ({"win:1": "100"}, TypeError, "stake on win:1: '100'"),
        ({"win:1": -100}, ValueError, "stake on win:1: must be positive, got -100"),
        ({"win:1": 0}, ValueError, "stake on win:1: must be positive, got 0"),
        ({"win:1": Decimal("NaN")}, ValueError, "stake on win:1: NaN is not a finite amount"),
        ({"win:1": Decimal("Infinity")}, ValueError, "stake on win:1: Infinity"),
        ({"win:1": Decimal("1.005")}, ValueError, "1.005 is not a whole number of 0.01"),
        ({"win:1": Fraction(-1, 2)}, ValueError, "must be positive"),
        ({"win:1": 100, "odd": Decimal("1.00")}, ValueError, "of one kind"),
        ({"lose:1": 100}, ValueError, "unknown bet 'lose:1'"),
        ({"win:9": 100}, ValueError, "no such win bet"),
        ({"tie:1": 100}, ValueError, "bet tie:1: a Tie bet needs a Win bet on position 1"),
        ({"win:2": 100}, ValueError, "bet win:2: no hand given for position 2"),
        ([("win:1", 100)], TypeError, "bets: expected a mapping"),
    ],
)
@pytest.mark.kernels
def test_invalid_slips_name_the_bet(bets: object, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        settle(MACAU, THREE, {1: TWO_P9}, bets)  # type: ignore[arg-type]


@pytest.mark.kernels
def test_invalid_hands() -> None:
    with pytest.raises(ValueError, match="8 is not a position"):
        settle(MACAU, THREE, {8: TWO_P9}, {"odd": 100})
    with pytest.raises(TypeError, match="not one string"):
        settle(MACAU, THREE, TWO_P9, {"odd": 100})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="'9x' is not a card"):
        settle(MACAU, "9c 9d 9x", {1: TWO_P9}, {"odd": 100})
    assert settle(MACAU, THREE, [TWO_P9, THREE], {"win:2": 100})["win:2"].outcome == "carried"


# --- a table session -------------------------------------------------------------------


@pytest.mark.kernels
def test_session_carries_stakes() -> None:
    seat = TableSession(MACAU)
    first = seat.settle(THREE, {1: THREE_TOO}, {"win:1": 100, "tie:1": 10, "even": 50})
    assert first["win:1"].outcome == "carried" and first["tie:1"].returned == 210
    assert dict(seat.carried) == {"win:1": 100}
    # the carried stake plays by itself, and a Tie may lean on it
    second = seat.settle(THREE, {1: TWO_P9}, {"tie:1": 10})
    assert second["win:1"].stake == 100 and second["win:1"].returned == 195
    assert second["tie:1"].outcome == "lose"
    assert dict(seat.carried) == {}
    seat.settle(THREE_FACES, {}, {"odd": 40})
    assert dict(seat.carried) == {"odd": 40}
    raised = seat.settle(THREE, {}, {"odd": 60})  # may be increased
    assert raised["odd"].stake == 60 and raised["odd"].returned == 117


@pytest.mark.parametrize(
    ("stake", "error", "match"),
    [(50, ValueError, "may be increased, not reduced or withdrawn"), (0, ValueError, "not reduced or withdrawn"),
     (1.5, TypeError, "never a float")],
)
@pytest.mark.kernels
def test_session_refuses_to_reduce_or_withdraw(stake: object, error: type[Exception], match: str) -> None:
    seat = TableSession(MACAU)
    seat.settle(THREE, {1: THREE_TOO}, {"win:1": 100})
    with pytest.raises(error, match=match):
        seat.settle(THREE, {1: TWO_P9}, {"win:1": stake})  # type: ignore[dict-item]
    assert dict(seat.carried) == {"win:1": 100}  # nothing changed


@pytest.mark.kernels
def test_online_session_returns_pushes() -> None:
    seat = TableSession(ONLINE)
    result = seat.settle(THREE, {1: THREE_TOO}, {"win:1": 100})
    assert result["win:1"].returned == 100 and dict(seat.carried) == {}


# --- the compiled tables against the reference, on every input ---------------------------


@pytest.mark.parametrize("rules", [MACAU, ONLINE, THREE_PICTURES, POINTS_ONLY, *(PRESETS[n] for n in (
    "nagaworld", "genting_no_commission", "prosperity", "san_gong", "chinese"))], ids=lambda r: r.name)
@pytest.mark.kernels
def test_outcome_codes_match_the_plain_rules_everywhere(rules: RuleSet) -> None:
    """Every pair of hand classes x every Pair Plus category of both hands (x every order
    of the two hands, where their classes do not decide it) x every bet: the active
    implementation's ``outcome_codes`` equals ``bet_outcome`` called plainly."""
    tables = tables_for(rules.ranking)
    n, keys = tables.n_classes, tables.class_keys
    pp_range = range(6) if any(ref.reads(rules.bet(n).kind) == "category" for n in rules.bets) else range(1)
    orders = [None] if tables.ordered_by_class else [-1, 0, 1]
    grid = list(itertools.product(range(n), pp_range, range(n), pp_range, orders))
    hand_cls, hand_pp, banker_cls, banker_pp = (np.array(c, dtype=np.int64) for c in list(zip(*grid, strict=True))[:4])
    if tables.ordered_by_class:  # the classes' ranks
        hand_rank, banker_rank = tables.class_rank[hand_cls], tables.class_rank[banker_cls]
    else:  # ranks that give the order
        banker_rank = np.ones(len(grid), dtype=np.int64)
        hand_rank = 1 + np.array([g[4] for g in grid], dtype=np.int64)
    classes = np.column_stack([banker_cls] + [hand_cls] * rules.positions)
    ranks = np.column_stack([banker_rank] + [hand_rank] * rules.positions)
    pps = np.column_stack([banker_pp] + [hand_pp] * rules.positions)
    bets = list(rules.bets)
    codes = outcome_codes(rules, bets, classes, ranks, pps)
    for j, name in enumerate(bets):
        spec = rules.bet(name)
        on_banker = not ref.on_hand(spec.kind) or spec.position == 0
        hc, hp, hr = (banker_cls, banker_pp, banker_rank) if on_banker else (hand_cls, hand_pp, hand_rank)
        expected = [
            ref.bet_outcome(rules, spec.kind, spec.number, keys[a], b, keys[c], (r > q) - (r < q))
            for a, b, c, r, q in zip(hc.tolist(), hp.tolist(), banker_cls.tolist(), hr.tolist(),
                                     banker_rank.tolist(), strict=True)
        ]
        assert codes[:, j].tolist() == expected, name


@pytest.mark.kernels
def test_outcome_codes_reject_bad_input() -> None:
    zero = [[0, 0, 0, 0]]
    with pytest.raises(ValueError, match=r"round 1: classes \[0, 31"):
        outcome_codes(ONLINE, ["win:1"], [[0, 0, 0, 0], [0, 31, 0, 0]], zero * 2, np.zeros((2, 4), dtype=np.int64))
    with pytest.raises(ValueError, match=r"round 0: classes \[0, 287"):  # not 287 % 256 = 31 .. or 0..30
        outcome_codes(ONLINE, ["win:1"], np.array([[0, 287, 0, 0]], dtype=np.int64), zero,
                      np.zeros((1, 4), dtype=np.int8))
    with pytest.raises(ValueError, match=r"ranks \[0, 65536, 0, 0\]"):  # a rank is 16 bits
        outcome_codes(ONLINE, ["win:1"], zero, [[0, 65536, 0, 0]], zero)
    with pytest.raises(TypeError, match="pair_plus must be an integer array, not dtype float64"):
        outcome_codes(ONLINE, ["win:1"], zero, zero, np.full((1, 4), 0.5))
    with pytest.raises(ValueError, match=r"pair plus \[6, 0, 0, 0\]"):
        outcome_codes(ONLINE, ["win:1"], zero, zero, [[6, 0, 0, 0]])
    with pytest.raises(ValueError, match=r"shape \(rounds, 4\)"):
        outcome_codes(ONLINE, ["win:1"], [[0, 0, 0]], [[0, 0, 0]], [[0, 0, 0]])
    with pytest.raises(ValueError, match="unknown bet"):
        outcome_codes(ONLINE, ["odd"], zero, zero, zero)


@pytest.mark.kernels
def test_evaluated_rounds_settle_alike_through_both_paths() -> None:
    rng = np.random.default_rng(11)
    bets = list(ONLINE.bets)
    for _ in range(200):
        cards = rng.choice(52, size=12, replace=False).tolist()
        hands = [evaluate(cards[3 * i : 3 * i + 3]) for i in range(4)]
        codes = outcome_codes(ONLINE, bets, [[h.hand_class for h in hands]], [[h.rank for h in hands]],
                              [[int(h.pair_plus) for h in hands]])
        result = settle(ONLINE, hands[0], hands[1:], dict.fromkeys(bets, 1))
        labels = {0: "lose", 1: "win", 2: "win", 3: "push"} | dict.fromkeys(range(5, 10), "win")
        assert [labels[c] for c in codes[0].tolist()] == [r.outcome for r in result.results]


# --- hardening: impossible tables, forged values, exact money whatever the context ---------


@pytest.mark.kernels
def test_a_table_the_decks_cannot_hold_is_refused() -> None:
    with pytest.raises(ValueError, match="9d 2 times, more than 1 deck holds"):
        settle(ONLINE, "9c 9d 5h", {1: "Kh Qs 9d"}, {"win:1": 100})
    eight_decks = dict.fromkeys(range(1, 4), "Ks Ks Ks")  # nine K♠ with the banker's
    with pytest.raises(ValueError, match="Ks 9 times, more than 8 decks hold"):
        settle(MACAU, "Kc Kd Kh", {**eight_decks, 4: "Qs 2c 3c"}, {"win:1": 100})
    assert settle(MACAU, "Ks Ks 2c", {1: "Ks Ks Ks", 2: "Ks Ks Ks"}, {"win:1": 100})["win:1"].outcome == "win"
    seat = TableSession(ONLINE)
    with pytest.raises(ValueError, match="Ah 2 times"):
        seat.settle("Ah 2c 3c", {1: "Ah 5d 6d"}, {"win:1": 100})


@pytest.mark.kernels
def test_forged_hand_values_are_evaluated_from_their_cards() -> None:
    banker = evaluate("9c 9d 5h")  # 3
    forged = evaluate("2c 3d 4h")  # really 9 points, no face
    object.__setattr__(forged, "rank", 30)
    result = settle(ONLINE, banker, {1: forged}, {"win:1": 100, "three_faces:1": 100})
    assert result.hands[1] == evaluate("2c 3d 4h")
    assert (result["win:1"].outcome, result["three_faces:1"].outcome) == ("win", "lose")
    garbage = evaluate("9c 9d 5h")
    object.__setattr__(garbage, "rank", 200)
    object.__setattr__(garbage, "cards", ("9c", 33, evaluate("5h 5d 5c").cards[0]))
    assert settle(ONLINE, garbage, {1: "2c 3d 4h"}, {"win:1": 100})["win:1"].outcome == "win"


@pytest.mark.parametrize("precision", [1, 3, 28, 60])
@pytest.mark.kernels
def test_decimal_amounts_do_not_depend_on_the_callers_context(precision: int) -> None:
    import decimal

    stake = Decimal("123456789012.37")
    expected = Fraction(stake) * Fraction(39, 20)  # 1:1 less 5%, then rounded down to the cent
    expected = Fraction(int(expected * 100), 100)
    with decimal.localcontext() as ctx:
        ctx.prec = precision
        ctx.traps[decimal.Inexact] = True
        ctx.rounding = decimal.ROUND_UP
        result = settle(MACAU, "9c 9d 5h", {1: "Kh Qs 9s"}, {"win:1": stake, "odd": stake})
        assert Fraction(result["win:1"].returned) == expected
        assert Fraction(result.returned) == 2 * expected
        assert Fraction(result.house_net) == 2 * Fraction(stake) - 2 * expected
        assert Fraction(result["win:1"].net) == expected - Fraction(stake)


@pytest.mark.kernels
def test_the_largest_decimal_stake_is_exact() -> None:
    from sanggong.limits import MAX_STAKE

    stake = Decimal(MAX_STAKE) * MACAU.minor_unit
    result = settle(MACAU, "9c 9d 5h", {1: "Kh Qs 9s"}, {"win:1": stake})["win:1"]
    assert Fraction(result.returned) == Fraction(stake) * Fraction(39, 20)
    for bad in (Decimal("1e999999999"), Decimal("1e-999999999"), Decimal("NaN"), Decimal("sNaN"), Decimal("-Inf")):
        with pytest.raises(ValueError, match="stake on win:1"):
            settle(MACAU, "9c 9d 5h", {1: "Kh Qs 9s"}, {"win:1": bad})
    with pytest.raises(ValueError, match="denominator"):
        settle(MACAU, "9c 9d 5h", {1: "Kh Qs 9s"}, {"win:1": Fraction(1, 10**40)})


@pytest.mark.kernels
def test_a_carried_stake_keeps_its_kind_of_money() -> None:
    seat = TableSession(MACAU)
    seat.settle(THREE, {1: THREE_TOO}, {"win:1": Decimal("1.50")})
    assert seat.carried["win:1"] == Decimal("1.50")
    with pytest.raises(ValueError, match="keeps its kind of money"):
        seat.slip({"win:1": 2})  # 2 minor units would have lost 1.48
    with pytest.raises(ValueError, match="keeps its kind of money"):
        seat.settle_slip(THREE, {1: THREE_TOO}, {"win:1": Fraction(3, 2)})
    # a whole slip without the carried stake gets it back: it is still the player's
    result = seat.settle_slip(THREE, {1: TWO_P9}, {"odd": Decimal("1.00")})
    assert result["win:1"].stake == Decimal("1.50") and result["win:1"].outcome == "win"


def _money_strategy():  # type: ignore[no-untyped-def]
    from hypothesis import strategies as st

    ints = st.integers(1, 10**15)
    decimals = st.integers(1, 10**15).map(lambda n: Decimal(n).scaleb(-2))
    fractions = st.fractions(min_value=Fraction(1, 10**6), max_value=10**9, max_denominator=10**6)
    return st.sampled_from([ints, decimals, fractions])


@pytest.mark.kernels
def test_money_is_conserved_on_random_slips() -> None:
    """staked - returned - carried == house net, exactly, each amount recomputed here
    from the pay table with Fractions; every amount in the slip's kind."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    rules_list = [MACAU, ONLINE, THREE_PICTURES, MACAU.replace(rounding="half_even", commission=Fraction(3, 100))]

    @settings(max_examples=150, deadline=None)
    @given(st.data())
    def check(data: st.DataObject) -> None:
        rules = data.draw(st.sampled_from(rules_list))
        deck = data.draw(st.permutations(range(52)))
        banker = list(deck[:3])
        hands = {p: list(deck[3 * p : 3 * p + 3]) for p in range(1, min(rules.positions, 16) + 1)}
        amount = data.draw(_money_strategy())
        names = data.draw(st.lists(st.sampled_from(sorted(rules.bets)), min_size=1, max_size=8, unique=True))
        bets = {n: data.draw(amount) for n in names}
        if rules.tie_requires_win:
            for n in list(bets):
                if n.startswith("tie:"):
                    bets.setdefault("win:" + n[4:], bets[n])
        result = settle(rules, banker, hands, bets)
        kind = type(next(iter(bets.values())))
        total = Fraction(0)
        for r in result.results:
            for amount_ in (r.stake, r.returned, r.commission, r.carried):
                assert type(amount_) is kind or (kind is not Fraction and type(amount_) is Fraction)
                assert Fraction(amount_) >= 0
            stake = Fraction(bets[r.bet])
            if r.outcome == "win":
                assert r.odds is not None
                rate = rules.commission if r.bet.split(":")[0] in rules.commission_bets else 0
                exact = stake * (1 + r.odds * (1 - rate))
                unit = 1 if kind is int else Fraction(1, 100) if kind is Decimal else Fraction(0)
                error = exact - Fraction(r.returned)
                assert abs(error) < unit or error == 0
                assert error >= 0 or rules.rounding != "down"
                assert Fraction(r.returned) + Fraction(r.commission) == stake * (1 + r.odds) or not rate
            elif r.outcome == "push":
                assert Fraction(r.returned) == stake
            elif r.outcome == "carried":
                assert Fraction(r.carried) == stake and Fraction(r.returned) == 0
            else:
                assert Fraction(r.returned) == 0
            total += stake - Fraction(r.returned) - Fraction(r.carried)
        assert Fraction(result.staked) == sum(Fraction(v) for v in bets.values())
        assert Fraction(result.house_net) == total
        assert Fraction(result.staked) - Fraction(result.returned) - Fraction(result.carried) == Fraction(result.house_net)

    check()
