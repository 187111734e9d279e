"""Rule sets, properties: any mutated dict builds or is refused; any valid rule set
round-trips through its files, and can be dealt, analysed and simulated.
"""

from __future__ import annotations

import dataclasses
import json
import tempfile
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from sanggong import analyze, limits
from sanggong._table import table_params
from sanggong.dealing import Game
from sanggong.ranking import HIGH_CARDS, ORDERS, TIERS, Ranking, tables_for
from sanggong.rules import MACAU, ONLINE, PAIR_PLUS_CATEGORIES, VARIANTS, RuleSet

FIELDS = [f.name for f in dataclasses.fields(RuleSet)]
HUGE = 10**100000

_PAY_KEYS = {name: variant.pay_keys for name, variant in VARIANTS.items()}


_BIG = {"huge": HUGE, "-huge": -HUGE, "big": 10**400, "-big": -(10**400)}


def _big(name: str) -> int:
    return _BIG[name]


_JSON_LEAVES = (
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=50)
    | st.sampled_from(sorted(_BIG)).map(_big)  # (mapped: hypothesis cannot print HUGE)
    | st.sampled_from([2**64, "1e999999999", "1/0", "-1", "0.05", "19/20", "none", "0", "", "macau",
                       "online", "points", "carried", "win", "\x00", 10**6, 65, 17, 0, 1, 3, 52, 415, 416])
)
_JSON = st.recursive(
    _JSON_LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=12,
)
_KEYS = st.sampled_from([*FIELDS, "colour", "", "pays.win"])
_ODDS_KEYS = st.sampled_from([*sorted(_PAY_KEYS["macau"] | _PAY_KEYS["online"]), *PAIR_PLUS_CATEGORIES, "x"])


@st.composite
def _mutated(draw: st.DrawFn) -> dict[str, Any]:
    data = draw(st.sampled_from([MACAU, ONLINE])).to_dict()
    for _ in range(draw(st.integers(1, 3))):
        action = draw(st.sampled_from(["set", "plausible", "plausible", "plausible", "delete", "odds"]))
        if action == "set":
            data[draw(_KEYS)] = draw(_JSON)
        elif action == "plausible":  # a value of about the right kind, so that some build
            key = draw(st.sampled_from(FIELDS))
            other = draw(st.sampled_from([MACAU, ONLINE])).to_dict()
            data[key] = draw(st.sampled_from([other.get(key), other.get(key)]) | st.integers(0, 70) | st.booleans()
                             | st.sampled_from(["class", "returned", "lose", "half_up", "1/2", "0.25", "none"]))
        elif action == "delete":
            data.pop(draw(_KEYS), None)
        else:
            table = draw(st.sampled_from(["pays", "pair_plus_pays"]))
            if isinstance(data.get(table), dict):
                data[table] = {**data[table], draw(_ODDS_KEYS): draw(_JSON)}
    return data


@settings(max_examples=200, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=_mutated())
def test_any_mutated_dict_builds_or_raises_value_or_type_error(data: dict[str, Any]) -> None:
    """Rule sets do not touch the kernels. Whatever a dict holds, from_dict, the
    constructor and a JSON file built from it either make the same rule set or refuse it
    with ValueError/TypeError (ValueError for a file) -- never anything else, and fast."""
    started = time.perf_counter()
    try:
        built: RuleSet | None = RuleSet.from_dict(data)
    except (ValueError, TypeError) as exc:
        built = None
        assert str(exc)
    event("built" if built is not None else "refused")
    if built is not None:
        assert RuleSet.from_dict(built.to_dict()) == built
    try:
        direct: RuleSet | None = RuleSet(**data)
    except (ValueError, TypeError):
        direct = None
    if built is not None:
        assert direct == built
    try:
        text = json.dumps(data)
    except ValueError:  # an int too long for Python to print
        text = None
    if text is not None:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "table.json"
            path.write_text(text, encoding="utf-8")
            try:
                loaded: RuleSet | None = RuleSet.load(path)
            except ValueError as exc:
                assert type(exc) is ValueError
                loaded = None
        assert loaded == built or (built is None and loaded is None) or "NaN" in text or "Infinity" in text
    assert time.perf_counter() - started < 1


_PRINTABLE = st.characters(codec="utf-8", exclude_categories=["Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs"],
                           include_characters=" ")
_KINDS_OF = {"macau": {"win", "tie", "odd", "even", "three_faces", "point"},
             "online": {"win", "lose", "tie", "three_faces", "pair_plus"},
             "dragon_phoenix": {"dragon", "phoenix", "tie", "odd", "even", "pair", "total"},
             "banker_game": {"player"}}


_POSITIVE_ODDS = st.one_of(
    st.integers(0, limits.MAX_ODDS),
    st.fractions(min_value=0, max_value=1000, max_denominator=limits.MAX_DENOMINATOR),
    st.sampled_from(["1/2", "0.95", "19/20", "8.5", "0", "1000000"]),
)


@st.composite
def _valid_rule_sets(draw: st.DrawFn) -> RuleSet:
    variant = draw(st.sampled_from(["macau", "online", "dragon_phoenix", "banker_game"]))
    online = variant == "online"
    ranking = Ranking(
        order=draw(st.sampled_from(ORDERS)),
        tiers=tuple(draw(st.permutations(TIERS))[: draw(st.integers(0, len(TIERS)))]),
        high_card=draw(st.sampled_from(HIGH_CARDS)),
    )
    # a suit tie-break counts by cards: at most two decks, to keep the analysis quick here
    decks = draw(st.integers(1, 2 if ranking.uses_suits else limits.MAX_DECKS))
    positions = 3 if online else 1 if variant == "dragon_phoenix" else draw(st.integers(1, limits.MAX_POSITIONS))
    multipliers = {}
    if variant == "banker_game":
        multipliers = {key: draw(st.integers(1, 100) | st.fractions(Fraction(1, 100), 100, max_denominator=100)
                                 .filter(lambda x: x > 0)) for key in
                       (*(str(n) for n in range(10)), *ranking.tiers)}
    pays = draw(st.dictionaries(st.sampled_from(sorted(_PAY_KEYS[variant])), _POSITIVE_ODDS)) if _PAY_KEYS[variant] else {}
    pair_plus = draw(st.sampled_from([{}, {c: draw(_POSITIVE_ODDS) for c in PAIR_PLUS_CATEGORIES}])) if online else {}
    low = draw(st.integers(1, 52 * decks - 1))
    fresh = online or decks == 1
    two_hands = variant == "dragon_phoenix"
    ranges = [str(a) if a == b else f"{a}-{b}" for a in range(1, 10) for b in range(a, 10)]
    totals = draw(st.dictionaries(st.sampled_from(ranges), _POSITIVE_ODDS, max_size=4)) if two_hands else {}
    kwargs: dict[str, Any] = {
        "name": draw(st.text(_PRINTABLE, min_size=1, max_size=64).filter(lambda s: s.strip() != "")),
        "variant": variant, "decks": decks, "positions": positions, "pays": pays, "pair_plus_pays": pair_plus,
        "commission": draw(st.fractions(min_value=0, max_value=Fraction(99, 100), max_denominator=1000)),
        "commission_bets": draw(st.frozensets(st.sampled_from(sorted(_KINDS_OF[variant])))),
        "tie_by": draw(st.sampled_from(["class", "points"])),
        "push": draw(st.sampled_from(["carried", "returned"])),
        "banker_three_faces_odd_even": draw(st.sampled_from(["push", "lose", "points"])),
        "banker_three_faces_point": draw(st.none() | st.integers(0, 9)),
        "tie_requires_win": draw(st.booleans()) if "win" in pays or "tie" not in pays else False,
        "rounding": draw(st.sampled_from(["down", "half_up", "half_even", "up"])),
        "minor_unit": draw(st.sampled_from(["0.01", "1", "0.05", "100", "1E-30", "0.125", "25"])),
        "burn_after_shuffle": draw(st.none() | st.integers(0, limits.MAX_BURN)),
        "burn_per_round": draw(st.integers(0, limits.MAX_BURN)),
        "cut_card_range": (low, draw(st.integers(low, 52 * decks - 1))),
        "deal_one_at_a_time": draw(st.booleans()),
        "head_card": draw(st.booleans()) if fresh else False,
        "head_card_burned": draw(st.booleans()),
        "ranking": ranking,
        "multipliers": multipliers,
        "total_pays": totals,
        "pair_counts_trips": draw(st.booleans()) if two_hands else False,
        "total_tier": draw(st.sampled_from(["points", "push"])) if two_hands else "points",
        "total_zero": draw(st.sampled_from(["winner", "both"])) if two_hands else "winner",
    }
    try:
        return RuleSet(**kwargs)
    except ValueError as exc:
        assert str(exc).startswith("positions: ")  # only the deal may not fit
        assume(False)
        raise


@settings(max_examples=200, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(rules=_valid_rule_sets())
def test_files_round_trip_any_valid_rule_set(rules: RuleSet) -> None:
    """Rule sets do not touch the kernels. save then load gives the same rule set, in
    both formats, and the same digest; every round it can be asked to deal fits."""
    assert rules.round_cards(True) <= 52 * rules.decks
    assert rules.fresh_deck_each_round or rules.round_cards(False) <= rules.cut_card_range[0]
    assert RuleSet.from_dict(rules.to_dict()) == rules
    with tempfile.TemporaryDirectory() as tmp:
        for suffix in (".toml", ".json"):
            path = Path(tmp) / f"table{suffix}"
            rules.save(path)
            loaded = RuleSet.load(path)
            assert loaded == rules and loaded.digest() == rules.digest()
            assert hash(loaded) == hash(rules)


@settings(max_examples=30, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(rules=_valid_rule_sets())
def test_any_accepted_rule_set_can_be_dealt_analysed_and_simulated(rules: RuleSet) -> None:
    """One validation shared by all three: what RuleSet accepts, the dealer deals, the
    analysis counts (every bet's outcomes covering every deal) and the compiled round
    loop simulates, the reference's loop dealing the same hands."""
    from sanggong import _core
    from sanggong._kernels import twin as _pykernels
    from sanggong.simulation import _histograms, simulate

    game = Game(rules, seed=5)
    for _ in range(3):
        assert len(game.play().hands) == rules.positions
    if rules.bets:
        table = analyze(rules)
        for bet in table.bets.values():
            assert sum(line.combinations for line in bet.outcomes) == bet.total
        result = simulate(rules, 300, seed=2, workers=1)
        assert result.rounds == 300 and set(result.bets) == set(rules.bets)
    pairs, single = _histograms(rules)
    pairs_ref, single_ref = _histograms(rules)
    stop = np.zeros(1, dtype=np.uint8)
    source = tables_for(rules.ranking)
    assert _core.simulate_chunk(np.random.PCG64(9), _core.Lookups(source), table_params(rules).array(), 50, pairs, single, None,
                                None, None, stop) == 50
    assert _pykernels.simulate_chunk(np.random.PCG64(9), _pykernels.Lookups(source), table_params(rules).array(), 50, pairs_ref,
                                     single_ref, None, None, None, stop) == 50
    assert (pairs == pairs_ref).all() and (single == single_ref).all()
