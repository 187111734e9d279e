"""A variant and a preset are each one record: a throwaway variant registered here (and
a preset of it) is offered by the rule set, its files and the command line without any
other change, and is forgotten again at the end of each test."""

from __future__ import annotations

import json
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest
from cli_run import fails, run

from sanggong import settle
from sanggong._spec import OUT_LOSE, OUT_WIN, OUTCOMES, ClassKey, RuleFields, outcome
from sanggong.rules import MACAU, PRESETS, VARIANTS, BetKind, RuleSet, TableVariant, register_variant, variant_of
from sanggong.rules._files import pays_file
from sanggong.rules._ruleset import forget_preset, preset
from sanggong.rules._variants import forget_variant

# A two-bet table of seats: Win (1:1) and Tie on each seat, the seat's hand against the
# banker's, and a fixed table of four seats.
SEATS = TableVariant(
    "seats",
    (
        BetKind("win", "position", "seat {t} beats the banker", on_six=True),
        BetKind("tie", "position", "seat {t} ties the banker"),
    ),
    positions=4,
    positions_text="positions: a seats table has 4 seats, got {got}",
    position_hand="seat {}",
    table_text="{n} seat{s}",
)


@pytest.fixture
def seats() -> Iterator[RuleSet]:
    register_variant(SEATS)
    try:
        rules = preset(RuleSet(name="seats_table", variant="seats", decks=6, positions=4,
                               pays={"win": Fraction(1), "win_on_six": Fraction(1, 2), "tie": Fraction(9)}),
                       "a table of four seats: Win and Tie")
        try:
            yield rules
        finally:
            forget_preset("seats_table")
    finally:
        forget_variant("seats")
    assert "seats" not in VARIANTS and "seats_table" not in PRESETS


def test_the_rule_set_reads_the_variants_record(seats: RuleSet) -> None:
    assert variant_of("seats") is SEATS
    assert list(seats.bets) == [*(f"win:{i}" for i in range(1, 5)), *(f"tie:{i}" for i in range(1, 5))]
    assert seats.bets["tie:3"] == "seat 3 ties the banker"
    assert seats.bet("win:4").position == 4
    with pytest.raises(ValueError, match="positions: a seats table has 4 seats, got 5"):
        seats.replace(positions=5)
    with pytest.raises(ValueError, match="unknown bet 'lose' for the seats variant"):
        seats.replace(pays={"lose": 1})
    with pytest.raises(ValueError, match="Pair Plus is a bet of the online variant"):
        seats.replace(pair_plus_pays={"pair": 1, "flush": 1, "straight": 1, "three_of_a_kind": 1,
                                      "straight_flush": 1})
    assert RuleSet.loads(seats.to_toml()) == seats
    # no other variant knows the seats: a macau table still refuses its name
    with pytest.raises(ValueError, match="variant: expected one of"):
        MACAU.replace(variant="nope")


def test_settlement_follows_the_outcomes_of_its_kinds(seats: RuleSet) -> None:
    """A seat's Win and Tie settle as a Macau table's Win and Tie settle the same hands
    (the outcome functions are the kinds', whatever the variant)."""
    macau = MACAU.replace(commission=0, push="returned", tie_requires_win=False,
                          pays={"win": 1, "tie": 9}, commission_bets=frozenset())
    hands = {1: "4c 4d 9h", 2: "9s 9d 9c", 3: "Kh Qd 6c", 4: "Ah 2s 2d"}  # 7, 7, 6 and 5 points
    slip = {"win:1": 100, "win:2": 100, "win:3": 100, "tie:4": 10}
    got = settle(seats, "As 2c 2h", hands, slip)  # the banker: 5 points
    same = settle(macau, "As 2c 2h", hands, slip)
    assert [(r.bet, r.outcome, r.returned) for r in got.results if r.bet != "win:3"] == \
        [(r.bet, r.outcome, r.returned) for r in same.results if r.bet != "win:3"]
    # win:3 won with 6 points: 1:2 here (win_on_six), 1:1 at the Macau table
    (three,) = [r for r in got.results if r.bet == "win:3"]
    assert (three.outcome, three.returned) == ("win", 100 + 50)
    assert [r.outcome for r in got.results] == ["win", "win", "win", "win"]


def test_the_command_line_asks_the_records(seats: RuleSet, capsys: pytest.CaptureFixture[str]) -> None:
    listed = json.loads(run(["rules", "list", "--json"], capsys))["presets"]
    assert {"name": "seats_table", "variant": "seats", "decks": 6, "positions": 4,
            "description": "a table of four seats: Win and Tie"} in listed
    bets = run(["bets", "--rules", "seats_table"], capsys)
    assert bets.splitlines()[0] == "rules: seats_table (variant seats), 6 decks, 4 seats: 8 bets"
    assert "seat 2 beats the banker" in bets
    settled = run(["settle", "--rules", "seats_table", "--banker", "Kh Qs Jd", "--hand", "2=9s 9d 9c",
                   "--bet", "win:2=100"], capsys)
    assert "seat 2:" in settled
    fails(["settle", "--rules", "seats_table", "--banker", "Kh Qs Jd", "--hand", "1=As 2d 3c", "--bet", "odd=5"],
          "the seats table offers win, tie", capsys)
    assert run(["rules", "show", "seats_table"], capsys) == seats.to_toml()


# A throwaway bet kind paid from ``pays``: High wins where the banker's hand has 8 or 9
# points. It is its record (a ``BetKind``) and its outcome function (``_spec``'s
# ``outcome``): the rule files read its pay key with no change to ``rules._files``.
HIGHS = TableVariant(
    "highs",
    (
        BetKind("win", "position", "seat {t} beats the banker"),
        BetKind("high", "banker", "the banker's hand has 8 or 9 points"),
        BetKind("rich", "position", "seat {t}'s hand has 8 or 9 points"),
    ),
    position_hand="seat {}",
)


def _high(rules: RuleFields, kind: str, number: int, hand: ClassKey, hand_pp: int, banker: ClassKey,
          order: int) -> int:
    return OUT_WIN if hand[0] == 0 and hand[1] >= 8 else OUT_LOSE


@pytest.fixture
def highs() -> Iterator[None]:
    outcome("high", reads="banker")(_high)
    outcome("rich", reads="hand")(_high)  # the same test, of the hand at the bet's seat
    register_variant(HIGHS)
    try:
        yield
    finally:
        forget_variant("highs")
        del OUTCOMES["high"], OUTCOMES["rich"]
    assert "high" not in pays_file().__struct_fields__


HIGHS_TOML = """name = "high_table"
variant = "highs"
decks = 6
positions = 2

[pays]
win = 1
high = "3/2"
"""


def test_a_new_bet_kind_is_read_from_a_rule_file(highs: None, tmp_path: Path) -> None:
    """A rule file giving the new kind's pay key is read (TOML, JSON, a mapping), its
    bets offered and settled by the kind's outcome; the key joins the struct a file is
    read into after every key there was, and a mistyped one is hinted at it."""
    assert pays_file().__struct_fields__[-2:] == ("high", "rich")
    path = tmp_path / "highs.toml"
    path.write_text(HIGHS_TOML, encoding="utf-8")
    rules = RuleSet.load(path)
    assert (rules.variant, dict(rules.pays)) == ("highs", {"win": Fraction(1), "high": Fraction(3, 2)})
    assert RuleSet.loads(rules.to_json(), format="json") == rules == RuleSet.from_dict(rules.to_dict())
    assert list(rules.bets) == ["win:1", "win:2", "high"]
    hands = {1: "As 2c 2h", 2: "Ah 2s 2d"}
    assert [(r.outcome, r.returned) for r in settle(rules, "4c 4d Kh", hands, {"high": 100}).results] == [("win", 250)]
    assert [(r.outcome, r.returned) for r in settle(rules, "9c Qd Kh", hands, {"high": 100}).results] == [("win", 250)]
    assert [(r.outcome, r.returned) for r in settle(rules, "7c Qd Kh", hands, {"high": 100}).results] == [("lose", 0)]
    path.write_text(HIGHS_TOML.replace("high =", "hihg ="), encoding="utf-8")
    with pytest.raises(ValueError, match=r"pays: unknown bet 'hihg' \(did you mean 'high'\?\)"):
        RuleSet.load(path)


def test_a_kind_registered_late_reads_the_hand_at_its_seat(highs: None) -> None:
    """A kind registered after import that reads a seat's hand is settled on that hand,
    not the banker's: what a kind reads is asked of the registry when it is settled."""
    rules = RuleSet.loads(HIGHS_TOML + 'rich = "2"\n')
    assert list(rules.bets) == ["win:1", "win:2", "high", "rich:1", "rich:2"]
    hands = {1: "As 2c 2h", 2: "9s Kc Qd"}  # seat 1 five points, seat 2 nine; the banker eight
    results = settle(rules, "4c 4d Kh", hands, {"rich:1": 100, "rich:2": 100, "high": 10}).results
    assert [(r.bet, r.outcome, r.returned) for r in results] == \
        [("rich:1", "lose", 0), ("rich:2", "win", 300), ("high", "win", 25)]


def test_a_forgotten_bet_kind_is_refused_by_the_rule_files(tmp_path: Path) -> None:
    """Without the kind registered its pay key is an unknown field of a rule file (the
    struct is made from the kinds registered when the file is read)."""
    assert "high" not in pays_file().__struct_fields__
    path = tmp_path / "highs.toml"
    path.write_text(HIGHS_TOML.replace('"highs"', '"macau"'), encoding="utf-8")
    with pytest.raises(ValueError, match="pays: unknown bet 'high'"):
        RuleSet.load(path)
