"""Exact analysis: the combinatorial counts against a card-by-card enumeration of every
one-deck deal and against an ordered-draw count for other shoes; suit tie-breaks against
every draw of a rank's cards and every pair of hands of small multi-deck shoes; returns,
variants and effects of removal."""

from __future__ import annotations

import functools
import itertools
import random
from fractions import Fraction
from math import comb
from types import ModuleType

import numpy as np
import pytest
from rank_numbers import rank_numbers

from sanggong import MACAU, ONLINE, RuleSet, _core, _kernels, rank_batch
from sanggong import _spec as ref
from sanggong._counting import count_hands as _counts
from sanggong._kernels import twin as _pykernels
from sanggong.analysis import analyze, composition, effect_of_removal
from sanggong.ranking import DEFAULT_RANKING, ORDERS, TIERS, Ranking, tables_for
from sanggong.rules import PRESETS
from sanggong.settlement import result_of

THREE_PICTURES = MACAU.replace(name="three pictures", tie_by="points", pays={**MACAU.pays, "tie": 8})
RANKING = ("win", "lose", "tie")


# --- independent counts ------------------------------------------------------------------


def _class_of_ranks(ranks: tuple[int, ...]) -> int:
    """Class number from RULES.md: ranks 1..13, J Q K faces, points mod 10."""
    faces = sum(r >= 11 for r in ranks)
    points = sum(r for r in ranks if r <= 9) % 10
    return 30 if faces == 3 else 3 * points + faces


def _pair_plus_of_cards(cards: tuple[int, ...]) -> int:
    """Pair Plus category from RULES.md (ace high or low, the highest category wins)."""
    ranks = sorted(c // 4 + 1 for c in cards)
    suited = len({c % 4 for c in cards}) == 1
    straight = len(set(ranks)) == 3 and (ranks[2] - ranks[0] == 2 or ranks == [1, 12, 13])
    if len(set(ranks)) == 1:
        return 4
    if straight:
        return 5 if suited else 3
    if suited:
        return 2
    return 1 if len(set(ranks)) == 2 else 0


@functools.cache
def _ordered_draw_counts(counts52: tuple[int, ...]) -> tuple[list[list[int]], list[int], list[int]]:
    """Joint and marginal class counts and Pair Plus counts by drawing cards one at a
    time (falling counts), then dividing out the orders: a method apart from the
    multiset counting under test. J, Q and K are told apart here."""
    by_rank = np.array([sum(counts52[4 * r : 4 * r + 4]) for r in range(13)], dtype=np.int64)
    triples = np.array(list(itertools.product(range(13), repeat=3)))
    cls = np.array([_class_of_ranks(tuple(int(r) + 1 for r in t)) for t in triples])
    a, b, d = triples[:, 0], triples[:, 1], triples[:, 2]

    def ways(left: np.ndarray) -> np.ndarray:  # for every ordered rank triple at once
        la = left[a]
        lb = left[b] - (b == a)
        ld = left[d] - (d == a) - (d == b)
        return la * np.clip(lb, 0, None) * np.clip(ld, 0, None) * (la > 0)

    first = ways(by_rank)
    joint = np.zeros((31, 31), dtype=np.int64)  # < 2**63 for the shoes used here
    for t in np.flatnonzero(first):
        left = by_rank.copy()
        np.subtract.at(left, triples[t], 1)
        np.add.at(joint[cls[t]], cls, first[t] * ways(left))
    marginal = np.zeros(31, dtype=np.int64)
    np.add.at(marginal, cls, first)
    pair_plus = [0] * 6
    c = list(counts52)
    for x, y, z in itertools.product(range(52), repeat=3):
        w = c[x] * (c[y] - (y == x)) * (c[z] - (z == x) - (z == y))
        if w > 0 and c[y] - (y == x) > 0:
            pair_plus[_pair_plus_of_cards((x, y, z))] += w
    return (joint // 36).tolist(), (marginal // 6).tolist(), [n // 6 for n in pair_plus]


def ordered_draw_counts(counts52: np.ndarray) -> tuple[list[list[int]], list[int], list[int]]:
    return _ordered_draw_counts(tuple(int(x) for x in counts52))


def _flat(joint: list[list[int]]) -> list[int]:
    """A (31, 31) joint count under the default ranking as the analysis lays it out:
    (position class, banker class, order), the order of two default classes being the
    order of their numbers."""
    out = [0] * (31 * 31 * 3)
    for p, b in itertools.product(range(31), repeat=2):
        out[(p * 31 + b) * 3 + 1 + (p > b) - (p < b)] = joint[p][b]
    return out


ONE_DECK_RANKINGS = sorted({rules.ranking for rules in PRESETS.values()}, key=repr)


@pytest.mark.parametrize("ranking", ONE_DECK_RANKINGS, ids=repr)
def test_card_by_card_enumeration_of_one_deck(ranking: Ranking) -> None:
    """The 407,170,400 ordered deals of one deck, enumerated card by card in the
    compiled core (a tool of the tests, not a kernel with a twin), for the ranking of
    every preset: they give the same integers for every outcome of every comparison bet
    of every preset of that ranking as the combinatorial analysis. The hands' classes and
    ranks come from the reference's plain keys (the default ranking's also from RULES.md
    directly)."""
    tables = tables_for(ranking)
    n = tables.n_classes
    hands = np.array(list(itertools.combinations(range(52), 3)), dtype=np.uint8)
    class_of = {key: i for i, key in enumerate(tables.class_keys)}
    classes = np.array([class_of[ref.class_key(ranking, *h)] for h in hands.tolist()], dtype=np.uint8)
    keys = [ref.hand_key(ranking, *h) for h in hands.tolist()]
    rank_of = rank_numbers(ranking, keys)
    ranks = np.array([rank_of[k] for k in keys], dtype=np.uint16)
    if ranking == DEFAULT_RANKING:
        assert classes.tolist() == [_class_of_ranks(tuple(c // 4 + 1 for c in h)) for h in hands.tolist()]
    brute = np.zeros(n * n * 3, dtype=np.uint64)
    _core.brute_force_one_deck(classes, ranks, n, brute)
    assert int(brute.sum()) == comb(52, 3) * comb(49, 3)  # every ordered pair of disjoint hands
    presets = [r for r in PRESETS.values() if r.ranking == ranking]
    if ranking == DEFAULT_RANKING:
        presets.append(THREE_PICTURES)
    keys = tables.class_keys
    for rules in presets:
        rules = rules.replace(decks=1) if rules.decks > 1 else rules
        table = analyze(rules)
        for name in rules.bets:
            spec = rules.bet(name)
            if ref.reads(spec.kind) != "two hands":
                continue
            want: dict[tuple[str, str | None], int] = {}
            for p, b, order in itertools.product(range(n), range(n), (-1, 0, 1)):
                count = int(brute[(p * n + b) * 3 + order + 1])
                if count:
                    code = ref.bet_outcome(rules, spec.kind, spec.number, keys[p], 0, keys[b], order)
                    result = result_of(rules, code)
                    want[result] = want.get(result, 0) + count
            got: dict[tuple[str, str | None], int] = {}
            for line in table[name].outcomes:
                got[line.outcome, line.detail] = got.get((line.outcome, line.detail), 0) + line.combinations
            assert got == want, (rules.name, name)


@pytest.mark.kernels
def test_one_deck_single_hand_counts_by_evaluating_every_hand() -> None:
    hands = np.array(list(itertools.combinations(range(52), 3)), dtype=np.uint8)
    counts = _counts(MACAU, composition(1))
    assert np.bincount(rank_batch(hands), minlength=31).tolist() == counts.marginal.tolist()
    pp = np.bincount([_pair_plus_of_cards(tuple(h)) for h in hands.tolist()], minlength=6)
    assert pp.tolist() == counts.pair_plus.tolist()
    # and the category counts everyone publishes for three-card hands of one deck
    assert counts.pair_plus.tolist() == [16440, 3744, 1096, 720, 52, 48]


@pytest.mark.parametrize(
    "counts",
    [composition(2), composition(8), composition(1, "Kh Qs 9d 9c Jh 2s"),
     composition(2, "As As Ad 5c Tc Th Ts"), np.array([1] * 10 + [0] * 30 + [2] * 12)],
    ids=["two decks", "eight decks", "one deck less six", "two decks less seven", "odd shoe"],
)
@pytest.mark.kernels
def test_counts_against_ordered_draws(counts: np.ndarray) -> None:
    joint, marginal, pair_plus = ordered_draw_counts(counts)
    got = _counts(MACAU, counts)
    assert got.joint.tolist() == _flat(joint)
    assert got.marginal.tolist() == marginal
    assert got.pair_plus.tolist() == pair_plus
    n = int(counts.sum())
    assert int(got.joint.sum()) == got.pairs == comb(n, 3) * comb(n - 3, 3)


@pytest.mark.kernels
def test_huge_shoes_count_in_python_integers() -> None:
    counts = composition(60)  # 3,120 cards: the pair counts pass 2**63
    got = _counts(MACAU, counts)
    assert got.pairs > 2**63 and int(sum(got.joint.ravel().tolist())) == got.pairs
    assert sum(got.marginal.tolist()) == comb(3120, 3)


# --- suit tie-breaks ---------------------------------------------------------------------
# Where suits break ties the analysis counts over the 13 ranks and splits the shared highest
# rank's draws by suit (suit_split). Checked here against counts that know nothing of that:
# every draw of the suits' cards, and every pair of hands of a small shoe, card by card.

SUIT_RANKINGS = sorted({r.ranking for r in PRESETS.values() if r.ranking.uses_suits}, key=repr) + random.Random(
    23).sample([Ranking(order=order, tiers=tiers, high_card="rank_suit") for order in ORDERS
                for k in range(len(TIERS) + 1) for tiers in itertools.permutations(TIERS, k)], 4)


def _suit_draws(suits: tuple[int, ...], a: int, b: int) -> tuple[int, int, int]:
    """(lower, equal, higher) of suit_split, by drawing every a cards, then every b of the
    others, of one rank held in these numbers by suit (weakest first), one card at a time."""
    cards = [s for s, held in enumerate(suits) for _ in range(held)]
    out = [0, 0, 0]
    for first in itertools.combinations(range(len(cards)), a):
        rest = [i for i in range(len(cards)) if i not in first]
        for second in itertools.combinations(rest, b):
            x, y = max(cards[i] for i in first), max(cards[i] for i in second)
            out[1 + (x > y) - (x < y)] += 1
    return out[0], out[1], out[2]


@pytest.mark.kernels
def test_suit_split_against_every_draw(impl: ModuleType) -> None:
    rng = np.random.default_rng(4)
    shoes = [(0, 0, 0, 0), (1, 1, 1, 1), (3, 0, 0, 3), (0, 2, 0, 1), (2, 2, 2, 2)] + [
        tuple(int(x) for x in rng.integers(0, 4, size=4)) for _ in range(12)]
    for suits in shoes:
        for a, b in itertools.product((1, 2, 3), repeat=2):
            assert impl.suit_split(suits, a, b) == _suit_draws(suits, a, b), (suits, a, b)


def test_suit_split_of_the_core_equals_the_reference() -> None:
    """The core's prefix sums against the reference's spreads over the suits, up to the
    64 cards of a suit a 64-deck shoe holds (and the 1,024 a kind may count)."""
    rng = np.random.default_rng(5)
    for suits in [(64, 64, 64, 64), (1024, 0, 0, 0), (0, 0, 0, 1024)] + [
            tuple(int(x) for x in rng.integers(0, 65, size=4)) for _ in range(300)]:
        for a, b in itertools.product((1, 2, 3), repeat=2):
            expected = ref.suit_split(suits, a, b)
            assert _core.suit_split(suits, a, b) == expected, (suits, a, b)
            assert sum(expected) == comb(sum(suits), a) * comb(sum(suits) - a, b)
    with pytest.raises(ValueError):
        _core.suit_split((1025, 0, 0, 0), 1, 1)
    with pytest.raises(ValueError):
        _core.suit_split((1, 1, 1, 1), 0, 1)


def _every_pair_of_hands(ranking: Ranking, counts52: np.ndarray) -> list[int]:
    """The joint counts (position class, banker class, order) of every ordered pair of
    disjoint hands of a small shoe, its cards told apart one by one (two copies of a card
    are two cards), each hand keyed by the reference's plain hand_key and class_key."""
    cards = [code for code, held in enumerate(counts52.tolist()) for _ in range(held)]
    assert len(cards) <= 64
    hands = list(itertools.combinations(range(len(cards)), 3))
    class_of = {key: i for i, key in enumerate(tables_for(ranking).class_keys)}
    n = len(class_of)
    keys = [ref.hand_key(ranking, *(cards[i] for i in h)) for h in hands]
    place = {key: i for i, key in enumerate(sorted(set(keys)))}  # the keys' order: the hands'
    strength = np.array([place[key] for key in keys], dtype=np.int64)
    cls = np.array([class_of[ref.class_key(ranking, *(cards[i] for i in h))] for h in hands], dtype=np.int64)
    masks = np.array([(1 << i) | (1 << j) | (1 << k) for i, j, k in hands], dtype=np.uint64)
    out = np.zeros(n * n * 3, dtype=np.int64)
    for i in range(len(hands)):
        apart = (masks & masks[i]) == 0
        out += np.bincount((cls[i] * n + cls[apart]) * 3 + 1 + np.sign(strength[i] - strength[apart]),
                           minlength=n * n * 3)
    return out.tolist()


def _small_shoe(seed: int) -> np.ndarray:
    """About two dozen cards of a few ranks, each card up to three times (three decks' worth):
    hands that share their highest rank, and copies of one card, are common."""
    rng = np.random.default_rng(seed)
    ranks = rng.choice(13, size=6, replace=False)
    counts = np.zeros(52, dtype=np.int64)
    for code in rng.choice((4 * ranks[:, None] + np.arange(4)).ravel(), size=11, replace=False):
        counts[code] = rng.integers(1, 4)
    return counts


@pytest.mark.parametrize("ranking", SUIT_RANKINGS, ids=repr)
@pytest.mark.kernels
def test_suit_rankings_against_every_pair_of_hands(ranking: Ranking) -> None:
    """Small multi-deck shoes, identical cards included, where suits decide most ties: the
    analysis's counts equal the card-by-card count (each implementation's kernels)."""
    rules = MACAU.replace(ranking=ranking, decks=3)
    for seed in (1, 2):
        counts = _small_shoe(seed + 10 * SUIT_RANKINGS.index(ranking))
        got = _counts(rules, counts)
        assert [int(x) for x in got.joint] == _every_pair_of_hands(ranking, counts)
        assert sum(int(x) for x in got.joint) == got.pairs


def _joint_with(kernels: ModuleType, rules: RuleSet, counts: np.ndarray) -> list[int]:
    chosen = _kernels.kernels
    _kernels.kernels = kernels
    try:
        return [int(x) for x in _counts(rules, counts).joint]
    finally:
        _kernels.kernels = chosen


@pytest.mark.parametrize("ranking", SUIT_RANKINGS[:3], ids=repr)
def test_suit_rankings_core_against_the_reference_on_large_shoes(ranking: Ranking) -> None:
    """Full and depleted shoes of 1 to 64 decks (from 51 decks on, counts beyond 64 bits:
    the core sums in 128, into Python integers)."""
    rng = np.random.default_rng(6)
    for decks in (1, 8, 64):
        rules = MACAU.replace(ranking=ranking, decks=decks)
        full = composition(decks)
        cards = np.repeat(np.arange(52), decks)
        depleted = np.bincount(rng.choice(cards, size=len(cards) - 7 * decks, replace=False), minlength=52)
        for counts in (full, depleted.astype(np.int64)):
            core = _joint_with(_core, rules, counts)
            assert core == _joint_with(_pykernels, rules, counts), decks
            n = int(counts.sum())
            assert sum(core) == comb(n, 3) * comb(n - 3, 3)


def test_the_core_refuses_what_it_cannot_count() -> None:
    """Sums beyond a uint64 output (one that holds 2**64 - 1 already), suits that do not add
    up to the kinds' counts, two multisets of equal rank whose highest kinds differ, a kind
    beyond 1,024 cards."""
    rules = PRESETS["san_gong"]
    from sanggong._counting import by_kind as _by_kind
    from sanggong._counting import class_lookups as _class_lookups
    from sanggong._counting import suits_by_strength as _suits

    sets, classes, ranks = _class_lookups(rules.ranking)
    n = tables_for(rules.ranking).n_classes
    counts = composition(64)
    folded = _by_kind(counts, 13)
    with pytest.raises(OverflowError):
        _core.joint_class_counts(folded, sets, classes, ranks, n, np.full(n * n * 3, 2**64 - 1, dtype=np.uint64),
                                 _suits(counts))
    wrong = _suits(counts).copy()
    wrong[0, 0] -= 1
    with pytest.raises(ValueError, match="add up"):
        _core.joint_class_counts(folded, sets, classes, ranks, n, np.zeros(n * n * 3, dtype=object), wrong)
    forged = ranks.copy()
    forged[:] = forged[0]
    with pytest.raises(ValueError, match="highest kinds"):
        _core.joint_class_counts(folded, sets, classes, forged, n, np.zeros(n * n * 3, dtype=object), _suits(counts))
    with pytest.raises(ValueError, match="1024"):
        _core.joint_class_counts(folded * 5, sets, classes, ranks, n, np.zeros(n * n * 3, dtype=object))


# --- returns ----------------------------------------------------------------------------


@pytest.mark.kernels
def test_returns_follow_from_the_counts() -> None:
    table = analyze(MACAU.replace(decks=1))
    win = table["win:1"]
    lines = {line.outcome: line.combinations for line in win.outcomes}
    expected = Fraction(lines["win"] * Fraction(95, 100) - lines["lose"], win.total)
    assert win.ev_exact == expected and win.ev == float(expected)
    second = Fraction(lines["win"] * Fraction(95, 100) ** 2 + lines["lose"], win.total)
    assert abs(win.variance - float(second - expected**2)) < 1e-15
    assert win.hit_frequency == lines["win"] / win.total
    assert abs(win.house_edge_resolved - win.house_edge / (1 - lines["carried"] / win.total)) < 1e-15
    three = table["three_faces"]
    assert {line.outcome: line.combinations for line in three.outcomes}["win"] == comb(12, 3)
    assert three.ev_exact == Fraction(comb(12, 3) * 16 - (22100 - comb(12, 3)), 22100)
    points = [table[f"point:{n}"] for n in range(10)]
    assert sum(p.hit_frequency for p in points) == pytest.approx(1, abs=1e-12)  # 3P counts as 0
    assert all(t.total == sum(line.combinations for line in t.outcomes) for t in table.bets.values())


@pytest.mark.kernels
def test_same_bets_at_every_position_and_json_shape() -> None:
    table = analyze(ONLINE)
    assert table["win:1"].ev_exact == table["win:3"].ev_exact
    assert table["pair_plus:1"].ev_exact == table["pair_plus:banker"].ev_exact
    data = table.to_dict()
    assert data["rules"] == "online" and data["decks"] == 1 and data["cards"] == 52
    first = data["bets"][0]
    assert set(first) >= {"bet", "ev", "ev_exact", "house_edge", "sd", "outcomes"}
    assert Fraction(first["ev_exact"]) == table[first["bet"]].ev_exact


@pytest.mark.kernels
def test_rule_variants_change_the_answer() -> None:
    one = MACAU.replace(decks=1)
    base = analyze(one)
    points_tie = analyze(THREE_PICTURES.replace(decks=1))
    assert points_tie["tie:1"].hit_frequency > base["tie:1"].hit_frequency
    three_pct = analyze(one.replace(commission=Fraction(3, 100)))
    lines = {line.outcome: line.combinations for line in base["win:1"].outcomes}
    assert three_pct["win:1"].ev_exact - base["win:1"].ev_exact == Fraction(2, 100) * Fraction(lines["win"], base["win:1"].total)
    assert analyze(MACAU)["win:1"].ev_exact != base["win:1"].ev_exact  # 8 decks against 1
    richer = analyze(ONLINE.replace(pair_plus_pays={**ONLINE.pair_plus_pays, "flush": 4}))
    assert richer["pair_plus:1"].ev_exact - analyze(ONLINE)["pair_plus:1"].ev_exact == Fraction(1096, 22100)


@pytest.mark.parametrize(
    ("shoe", "error", "match"),
    [
        (np.zeros(51, dtype=int), ValueError, "52 counts"),
        (np.full(52, 1.0), TypeError, "dtype float64"),
        (np.array([-1] + [1] * 51), ValueError, "holds -1 of card code 0"),
        (np.array([1] * 5 + [0] * 47), ValueError, "6 cards at the least"),
        # absurd counts: refused before any counting (they once gave probabilities above 1)
        (np.full(52, 10**6), ValueError, "holds 1000000 of card code 0: a shoe holds at most 64 decks"),
        (np.full(52, 2**64 - 1, dtype=np.uint64), ValueError, "holds 18446744073709551615 of card code 0"),
        (np.array([65] + [1] * 51, dtype=np.int8), ValueError, "holds 65 of card code 0"),
    ],
)
def test_bad_compositions(shoe: np.ndarray, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        analyze(ONLINE, shoe)


def test_bad_removals_and_rules() -> None:
    with pytest.raises(ValueError, match="cannot remove Kh"):
        composition(1, "Kh Kh")
    with pytest.raises(ValueError, match="'Kx' is not a card"):
        composition(1, "Kx")
    with pytest.raises(ValueError, match="decks must be a positive int"):
        composition(0)
    with pytest.raises(ValueError, match="at most 64"):
        composition(10**6)
    with pytest.raises(TypeError, match="RuleSet"):
        analyze(3)  # type: ignore[arg-type]


# --- effect of removal ------------------------------------------------------------------


@pytest.mark.parametrize("rules", [MACAU.replace(decks=1), ONLINE], ids=["macau", "online"])
@pytest.mark.kernels
def test_effects_of_removal_balance(rules: RuleSet) -> None:
    """Removing a card drawn at random leaves every bet's return as it was, so the
    effects weighted by how many of each rank the shoe holds sum to zero; the tags
    make a balanced count."""
    bets = ["win:1", "tie:1", "odd", "point:0"] if rules.variant == "macau" else ["win:1", "lose:1", "pair_plus:1"]
    if _kernels.kernels.IMPLEMENTATION == "python":  # (the reference's sums take seconds a bet: one of each kind)
        bets = bets[::2]
    removal = effect_of_removal(rules, bets)
    for name, r in removal.items():
        assert abs(sum(r.eor.values())) < 1e-12, name
        assert sum(r.tags.values()) == 0 and max(abs(t) for t in r.tags.values()) <= 3
        assert r.correlation > 0.8, name
        ev_less_king = analyze(rules, composition(rules.decks, "Kc" if rules.variant == "macau" else None))
        if rules.variant == "macau":
            assert r.eor["K"] == pytest.approx(ev_less_king[name].ev - r.ev, abs=1e-15)


@pytest.mark.kernels
def test_a_shoe_in_which_a_bet_never_resolves() -> None:
    """Eight nines: every hand is 7 points, no face, so every Win bet ties and stays on the
    table. The resolved edge is undefined: NaN in Python, null in strict JSON (it once
    divided by zero)."""
    import json
    import math

    shoe = np.zeros(52, dtype=np.int64)
    shoe[32:36] = 2
    result = analyze(MACAU, shoe)
    win = result["win:1"]
    assert [line.outcome for line in win.outcomes] == ["carried"] and math.isnan(win.house_edge_resolved)
    data = json.loads(json.dumps(result.to_dict(), allow_nan=False))
    assert data["bets"][0]["house_edge_resolved"] is None and data["bets"][0]["house_edge"] == 0
