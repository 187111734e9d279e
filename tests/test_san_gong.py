"""The San Gong table's side bets (issue #26): every bet's exact figures against a count
written here, card by card, from the rules page's readings, at one deck, for depleted
shoes and for a shoe holding twin cards; the published figures as a check on the readings;
the table as dealt; shoe play, simulation and records with the new bets.

Nothing here reads ``sanggong._spec``: a hand's points, tier, pair and order are
written from the rules page directly (the key is test_families' ``san_gong_key``, as one
integer), and so is what each bet does with them.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import numpy.typing as npt
import pytest

from sanggong import ShoeEvaluator, analyze, composition, effect_of_removal, settle, simulate
from sanggong.analysis import Analysis
from sanggong.cards import Card, parse_cards
from sanggong.dealing import Game
from sanggong.records import RoundRecord
from sanggong.rules import PRESETS
from sanggong.verify import verify_log

SAN_GONG = PRESETS["san_gong"]
F = Fraction
SIDE = F(94, 100)  # odd, even and pair on either hand, Dragon and Phoenix
TOTALS = {"total:1-6": (1, 6, F(1)), "total:7-8": (7, 8, F(2)), "total:9": (9, 9, F(4))}
SUIT_ORDER = {3: 3, 2: 2, 0: 1, 1: 0}  # by suit code (c d h s): spades > hearts > clubs > diamonds


# --- the readings, written from the rules page ---------------------------------------------


def _facts(cards: Sequence[int]) -> tuple[int, int, bool, bool, int]:
    """(points, tier, pair, trips, key) of a hand: points 0-9 (A 1, 2-9 pips, 10 J Q K 0);
    tier 2 for three of a kind, 1 for three faces (J Q K), else 0; a pair is exactly two
    cards of one rank, not all of one suit (a suited pair from twin decks is a flush, as
    Pair Plus reads it); the key orders hands: tier, then the trips' rank (K high) or the
    points, then the highest card by rank and suit."""
    ranks = [c // 4 + 1 for c in cards]
    points = sum(r for r in ranks if r <= 9) % 10
    trips = ranks[0] == ranks[1] == ranks[2]
    tier = 2 if trips else 1 if min(ranks) >= 11 else 0
    pair = len(set(ranks)) == 2 and len({c % 4 for c in cards}) > 1
    high_rank, high_suit = max((r, SUIT_ORDER[c % 4]) for r, c in zip(ranks, cards, strict=True))
    base = ranks[0] if trips else 0 if tier else points
    return points, tier, pair, trips, ((tier * 14 + base) * 14 + high_rank) * 4 + high_suit


Tally = dict[str, Counter[str]]


@functools.cache
def card_by_card(cards: tuple[int, ...]) -> tuple[Tally, int, int]:
    """Every bet's outcomes over every deal from these physical cards (codes, twins
    allowed): each 3-card hand for a bet on one hand, each ordered pair of disjoint hands
    (Dragon's, Phoenix's) for the others. Returns the tallies, the hands and the pairs."""
    n = len(cards)
    hands = list(itertools.combinations(range(n), 3))
    facts = [_facts([cards[i] for i in h]) for h in hands]
    points, tier, _, _, key = (np.array(column, dtype=np.int64) for column in zip(*facts, strict=True))
    pair = np.array([f[2] for f in facts], dtype=bool)
    tally: Tally = {name: Counter() for name in SAN_GONG.bets}
    for hand in ("dragon", "phoenix"):  # one hand: Dragon's and Phoenix's are alike
        tally[f"odd:{hand}"].update({"win": int((points % 2 == 1).sum()), "lose": int((points % 2 == 0).sum())})
        tally[f"even:{hand}"].update({"win": int((points % 2 == 0).sum()), "lose": int((points % 2 == 1).sum())})
        tally[f"pair:{hand}"].update({"win": int(pair.sum()), "lose": int((~pair).sum())})
    # The ordered pairs of disjoint hands (Dragon's, Phoenix's), counted by the two hands'
    # keys: a pair's outcome on every bet depends on its hands' keys alone (a key gives
    # its hand's tier and points). disjoint[a, b] is the number of pairs of a hand of key
    # a and a hand of key b with no card's place in common: all pairs, less those that
    # share a place, counted by inclusion and exclusion over the places they share (each
    # place, each two places, and all three: the pair of a hand with itself).
    keys, of_key = np.unique(key, return_inverse=True)
    kinds = len(keys)
    k_points, k_tier = np.zeros(kinds, np.int64), np.zeros(kinds, np.int64)
    k_points[of_key], k_tier[of_key] = points, tier
    assert (k_points[of_key] == points).all() and (k_tier[of_key] == tier).all()  # (a key gives them)
    by_key = np.bincount(of_key, minlength=kinds)
    at = np.array(hands)  # (each hand's places, in order)
    per_place = np.bincount((at * kinds + of_key[:, None]).ravel(), minlength=n * kinds).reshape(n, kinds)
    sharing_one = per_place.T @ per_place  # [a, b]: the pairs of hands of keys a, b on each place they share
    two = np.concatenate([at[:, x] * n + at[:, y] for x, y in ((0, 1), (0, 2), (1, 2))])  # a hand's two places
    order = np.argsort(two, kind="stable")
    assert (np.bincount(two)[np.unique(two)] == n - 2).all()  # the n - 2 hands on each two places
    on_two = np.tile(of_key, 3)[order].reshape(-1, n - 2)  # the keys of the hands on each two places
    sharing_two = np.bincount((on_two[:, :, None] * kinds + on_two[:, None, :]).ravel(),
                              minlength=kinds * kinds).reshape(kinds, kinds)  # ... on each two places they share
    disjoint = np.outer(by_key, by_key) - sharing_one + sharing_two - np.diag(by_key)
    assert (disjoint >= 0).all()
    pairs = int(disjoint.sum())

    def count(where: npt.NDArray[np.bool_]) -> int:
        return int(disjoint[where].sum())

    mine, theirs = keys[:, None], keys[None, :]  # the Dragon's key (rows), the Phoenix's (columns)
    dragon_wins, phoenix_wins = mine > theirs, mine < theirs
    tied = ~dragon_wins & ~phoenix_wins  # the same key: twin cards
    tally["dragon"].update({"win": count(dragon_wins), "lose": count(phoenix_wins), "push": count(tied)})
    tally["phoenix"].update({"win": count(phoenix_wins), "lose": count(dragon_wins), "push": count(tied)})
    p, t = k_points[None, :], k_tier[None, :]
    points_tie = (t == k_tier[:, None]) & ((t > 0) | (p == k_points[:, None]))  # tie_by points: a tier ties its own tier
    tally["tie"].update({"win": count(points_tie), "lose": count(~points_tie)})
    total = np.where(phoenix_wins, p, k_points[:, None])  # the winner's points (on a tie, both hands')
    returned = total == 0  # both hands 0, or a three faces (or three tens or faces) beating points
    for name, (low, high, _) in TOTALS.items():
        won = ~returned & (low <= total) & (total <= high)
        tally[name].update({"win": count(won), "push": count(returned), "lose": count(~returned & ~won)})
    for bets in tally.values():
        for outcome in [o for o, c in bets.items() if c == 0]:
            del bets[outcome]
    return tally, len(hands), pairs


def odds(name: str) -> Fraction:
    """The pays of each bet, from the issue's text (not from the rule set)."""
    if name in TOTALS:
        return TOTALS[name][2]
    return F(8) if name == "tie" else SIDE


def exact_ev(bets: Counter[str], name: str) -> Fraction:
    return F(bets["win"] * odds(name) - bets["lose"], sum(bets.values()))


def _cards(text: str) -> tuple[int, ...]:
    return tuple(card.code for card in parse_cards(text))


ONE_DECK = tuple(range(52))
# one deck less 20 cards (every ten, three faces, and more), and a shoe of twin cards:
# two of each of 16 cards, so that hands tie exactly and a pair can be suited
DEPLETED = tuple(c for c in range(52) if c not in _cards(
    "Tc Td Th Ts Jc Qd Kh 9c 9d 9h 5c 5s Ah As 2d 2h 7c 7s 8d 3h"))
TWINS = _cards("Ah 2h 5h 9h Kh Ks Qd Jc Tc 5c 4d 3s 8s 7d 6c 9c") * 2


def _composition(cards: tuple[int, ...]) -> npt.NDArray[np.int64]:
    return np.bincount(np.array(cards), minlength=52).astype(np.int64)


def _tally(table: Analysis) -> dict[str, Counter[str]]:
    out: dict[str, Counter[str]] = {}
    for name, bet in table.bets.items():
        lines: Counter[str] = Counter()
        for line in bet.outcomes:
            lines[line.outcome] += line.combinations
        out[name] = lines
    return out


# --- the exact figures ----------------------------------------------------------------------


@pytest.mark.kernels
def test_every_bet_of_one_deck_card_by_card() -> None:
    """The 22,100 hands and the 407,170,400 ordered pairs of hands of one deck, counted
    card by card here: every outcome of every bet, and so its exact EV, equals the
    analysis (of the implementation under test: both agree with the count)."""
    tally, hands, pairs = card_by_card(ONE_DECK)
    assert (hands, pairs) == (22_100, 407_170_400)
    table = analyze(SAN_GONG)
    assert _tally(table) == tally
    for name, bets in tally.items():
        assert table[name].ev_exact == exact_ev(bets, name), name
        assert table[name].total == (hands if ":" in name and name.split(":")[1] in ("dragon", "phoenix") else pairs)


@pytest.mark.parametrize("cards", [DEPLETED, TWINS], ids=["one deck less 20", "twin cards"])
@pytest.mark.kernels
def test_every_bet_of_other_shoes_card_by_card(cards: tuple[int, ...]) -> None:
    """A depleted shoe and one of twin cards (exact ties of Dragon and Phoenix, suited
    pairs that Pair Plus calls flushes): the analysis and the shoe evaluator, the latter
    followed from a full shoe card by card, equal the count. The rule set holds as many
    decks as the shoe needs."""
    rules = SAN_GONG.replace(decks=max(Counter(cards).values()))
    tally, _, _ = card_by_card(cards)
    counts = _composition(cards)
    assert _tally(analyze(rules, counts)) == tally
    if rules.decks == 1:
        shoe = ShoeEvaluator(rules)
        shoe.remove([Card(c) for c in range(52) if c not in cards])
    else:
        shoe = ShoeEvaluator(rules, counts)
    for name, bets in tally.items():
        assert shoe.ev(name) == exact_ev(bets, name), name
    if cards == TWINS:  # the shoe reaches what one deck cannot
        assert tally["dragon"]["push"] and tally["total:9"]["push"]
        suited = _facts(_cards("Ah Ah 5h"))
        assert not suited[2] and not suited[3]  # a suited pair is no pair here


@pytest.mark.kernels
def test_single_hand_bets_of_two_decks_by_ordered_draws() -> None:
    """Two full decks (104 cards: beyond one mask) for the bets on one hand, by ordered
    draws of three cards with falling counts, divided by the 6 orders."""
    counts = [2] * 52
    wins: Counter[str] = Counter()
    for x, y, z in itertools.product(range(52), repeat=3):
        ways = counts[x] * (counts[y] - (y == x)) * (counts[z] - (z == x) - (z == y))
        if ways <= 0 or counts[y] - (y == x) <= 0:
            continue
        points, _, pair, _, _ = _facts((x, y, z))
        wins["odd" if points % 2 else "even"] += ways
        wins["pair"] += ways if pair else 0
    hands = 104 * 103 * 102
    one_hand = {k: v for k, v in SAN_GONG.pays.items() if k in ("odd", "even", "pair")}  # no pair of hands to count
    table = analyze(SAN_GONG.replace(decks=2, pays=one_hand, total_pays={}))
    for kind in ("odd", "even", "pair"):
        for hand in ("dragon", "phoenix"):
            assert table[f"{kind}:{hand}"].ev_exact == F(wins[kind] * SIDE - (hands - wins[kind]), hands)


# --- the published figures as a check on the readings ---------------------------------------


def test_the_readings_agree_with_the_published_figures() -> None:
    """The published analysis puts every bet but the pair near a 3% house edge and the
    pair near 67%: so do the readings the preset takes (the Tie aside: the rules page says
    how far its reading is). Once: a check on the readings, from an analysis that the
    card-by-card count checks in both implementations."""
    table = analyze(SAN_GONG)
    for name, bet in table.bets.items():
        if name.startswith("pair:"):
            assert abs(bet.house_edge - 0.67) < 0.005, name
        elif name != "tie":
            assert abs(bet.house_edge - 0.03) < 0.0025, name


@pytest.mark.parametrize(
    ("change", "bets", "low", "high"),
    [
        ({"total_zero": "both"}, ("total:1-6", "total:7-8", "total:9"), 0.045, 0.055),  # the literal reading
        ({"total_tier": "push"}, ("total:1-6", "total:7-8", "total:9"), 0.0275, 0.0325),  # agrees too
        ({"banker_three_faces_odd_even": "lose"}, ("even:dragon",), 0.045, 0.055),  # 3P is no total
        ({"banker_three_faces_odd_even": "push"}, ("even:dragon",), 0.035, 0.045),
        ({"pair_counts_trips": True}, ("pair:dragon",), 0.665, 0.670),  # agrees too
    ],
)
def test_the_other_readings(change: dict[str, object], bets: tuple[str, ...], low: float, high: float) -> None:
    """What the rules page says of the readings not taken: the literal zero rule for the
    totals and a 3P without a total for Even land far from 3%; every tier returning the
    totals, and three of a kind counting as a pair, would agree with the figures too.
    Once, as the test above."""
    table = analyze(SAN_GONG.replace(**change))
    for name in bets:
        assert low < table[name].house_edge < high, (name, table[name].house_edge)


# --- the table as dealt, and the rest of the engine -----------------------------------------


@pytest.mark.kernels
def test_the_table_deals_each_round_from_a_fresh_deck() -> None:
    """An online game: every round is a fresh shoe of one deck, shuffled, with no burn,
    no head card and no cut card, Dragon's three cards dealt first, then Phoenix's."""
    assert SAN_GONG.fresh_deck_each_round and SAN_GONG.decks == 1 and SAN_GONG.cards_per_round == 6
    assert (SAN_GONG.burn_first, SAN_GONG.burn_per_round, SAN_GONG.head_card) == (0, 0, False)
    game = Game(SAN_GONG, seed=26)
    for number in range(1, 40):
        record = game.play()
        assert (record.shoe, record.round_in_shoe, record.last_of_shoe) == (number, 1, True)
        assert (record.burned, record.head_card, record.cut_card) == ((), None, None)


@pytest.mark.kernels
def test_game_records_and_verify_with_every_bet(tmp_path: object) -> None:
    """Rounds played with every bet settle as settle() settles their hands, write and read
    back as JSON, and verify as a log."""
    game = Game(SAN_GONG, seed=7)
    slip = {name: 10 + i for i, name in enumerate(SAN_GONG.bets)}
    records = [game.play(slip) for _ in range(30)]
    outcomes: Counter[str] = Counter()
    for record in records:
        again = settle(SAN_GONG, record.banker, dict(record.hands), slip)
        assert {r.bet: r.to_dict() for r in again.results} == {r["bet"]: r for r in record.results}
        assert RoundRecord.from_json(record.to_json()) == record
        outcomes.update(f"{r['bet'].split(':')[0]} {r['outcome']}" for r in record.results)
    assert outcomes["odd win"] and outcomes["even win"] and outcomes["pair win"] and outcomes["total win"]
    report = verify_log([r.to_json() for r in records], SAN_GONG)
    assert report.ok, report


@pytest.mark.kernels
def test_simulation_agrees_with_the_exact_figures() -> None:
    """Every bet simulated, against its exact return (the implementations deal the same
    rounds: the test of simulate_chunk compares their histograms)."""
    result = simulate(SAN_GONG, 20_000, seed=26, workers=1)
    for name, bet in result.bets.items():
        assert bet.z is not None and abs(bet.z) < 4.5, (name, bet.z)
        assert bet.outcomes.get("win", 0) > 0, name
    assert result.bets["total:9"].outcomes["push"] == result.bets["total:1-6"].outcomes["push"] > 0


@pytest.mark.kernels
def test_simulated_sessions_pay_the_totals_odds() -> None:
    """Int stakes on the totals: a session's money is the outcome counts times each
    range's own odds (4:1 on the 9, 2:1 on 7-8)."""
    bets = {"total:9": 10, "total:7-8": 10, "pair:phoenix": 100}
    result = simulate(SAN_GONG, 8_000, seed=3, workers=1, bets=bets)
    nine, seven = result.bets["total:9"], result.bets["total:7-8"]
    assert nine.returned == 50 * nine.outcomes["win"] + 10 * nine.outcomes.get("push", 0)
    assert seven.returned == 30 * seven.outcomes["win"] + 10 * seven.outcomes.get("push", 0)
    pair = result.bets["pair:phoenix"]
    assert pair.returned == 194 * pair.outcomes["win"]


def test_effect_of_removal_of_the_side_bets() -> None:
    """Removing a card changes the side bets as the exact analysis of the shoe less that
    card says (averaged over the four suits), and Dragon's and Phoenix's alike. Once: the
    analyses it is made of are compared across the implementations above, and a suit
    ranking takes 52 of them (minutes in the reference)."""
    removal = effect_of_removal(SAN_GONG, ["odd:dragon", "pair:phoenix", "total:9", "odd:phoenix"])
    base = analyze(SAN_GONG)
    for _rank, symbol in ((0, "A"), (9, "T")):
        for name in ("pair:phoenix", "total:9"):
            shifted = [analyze(SAN_GONG, composition(1, f"{symbol}{s}"))[name].ev for s in "cdhs"]
            assert removal[name].eor[symbol] == pytest.approx(sum(shifted) / 4 - base[name].ev, abs=1e-15), name
    assert removal["odd:dragon"].eor == removal["odd:phoenix"].eor
    assert sum(removal["pair:phoenix"].tags.values()) == 0


@pytest.mark.parametrize("perfect", [True, False])
def test_shoe_play_of_the_core_equals_the_reference(perfect: bool) -> None:
    """Rounds of shoe play (a count and, where the table deals fresh decks, perfect
    information from the exact EVs) with every side bet: the compiled core and the
    reference count the same outcomes. Once: it runs both itself."""
    import sanggong._core as core
    import sanggong._kernels as impl
    from sanggong._kernels import twin as ref
    from sanggong.shoe._play import _run_play_chunk, _Setup

    bets = tuple(name for name in SAN_GONG.bets if ":" in name)
    tags = np.array([[1, 1, 0, 0, -1, -1, 0, 0, 1, -1, 0, 0, 0]], dtype=np.int32)
    setup = _Setup(SAN_GONG, bets, perfect, tags, np.zeros(len(bets), dtype=np.int32), 0.5, 9, 20, False)
    seed = np.random.SeedSequence(26)
    chosen = impl.kernels
    try:
        impl.kernels = core
        fast = _run_play_chunk(setup, 0, seed, 200)
        impl.kernels = ref
        slow = _run_play_chunk(setup, 0, seed, 200)
    finally:
        impl.kernels = chosen
    assert (fast.rounds, fast.shoes) == (slow.rounds, slow.shoes) == (200, 200)
    assert (fast.count_hist == slow.count_hist).all() and (fast.perfect_hist == slow.perfect_hist).all()
    assert fast.count_hist.sum() == 200 * len(bets)
