"""The family of tables (RULES.md section 6): every preset's ranking against an
independent implementation written from the rules text, hand-worked comparisons,
settlement amounts worked out by hand, rule files and the presets' parameters.

Nothing here reads ``sanggong._spec``'s ranking functions: the keys below are
written from RULES.md sections 1 and 6 directly and are themselves checked against the
hand-worked examples first.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from types import ModuleType

import numpy as np
import numpy.typing as npt
import pytest

from sanggong import RuleSet, compare, evaluate, settle
from sanggong.batch import compare_batch, evaluate_batch, rank_batch
from sanggong.cards import parse_cards
from sanggong.ranking import Ranking, tables_for
from sanggong.rules import PRESETS

# --- an independent reading of RULES.md ------------------------------------------------

MACAU_FAMILY = ("macau", "online", "nagaworld", "genting", "genting_no_commission")
ALL_PRESETS = (*MACAU_FAMILY, "prosperity", "san_gong", "chinese")
FAMILY_OF = {**dict.fromkeys(MACAU_FAMILY, "macau"), "prosperity": "prosperity",
             "san_gong": "san_gong", "chinese": "chinese"}

# suits by code (0 clubs, 1 diamonds, 2 hearts, 3 spades): spades > hearts > clubs > diamonds
SUIT_ORDER = {3: 3, 2: 2, 0: 1, 1: 0}

Key = tuple[int, ...]
F = Fraction


def _rank(code: int) -> int:  # 1 = A .. 13 = K
    return code // 4 + 1


def _points(codes: Sequence[int]) -> int:  # A = 1, 2-9 pips, 10 J Q K = 0
    return sum(r if r <= 9 else 0 for r in map(_rank, codes)) % 10


def _faces(codes: Sequence[int]) -> int:  # J, Q, K only: a ten is no face
    return sum(_rank(c) >= 11 for c in codes)


def _high_card(codes: Sequence[int]) -> tuple[int, int]:
    """The highest card: by rank (K high .. A low), then suit (spades high .. diamonds)."""
    return max((_rank(c), SUIT_ORDER[c % 4]) for c in codes)


def _trips(codes: Sequence[int]) -> bool:
    return _rank(codes[0]) == _rank(codes[1]) == _rank(codes[2])


def macau_key(codes: Sequence[int]) -> Key:
    """Section 1: 3P beats everything; then points 9..0; equal points: 2 faces > 1 > 0;
    the same class ties (three of a kind is nothing special)."""
    faces = _faces(codes)
    if faces == 3:
        return (1, 0, 0)
    return (0, _points(codes), faces)


def prosperity_key(codes: Sequence[int]) -> Key:
    """Faces first (more faces wins), then points; no high card: equal ones tie."""
    return (_faces(codes), _points(codes))


def san_gong_key(codes: Sequence[int]) -> Key:
    """Any three of a kind (K-K-K high .. A-A-A low) > three faces > points 9..0; equal
    classes: the highest card, by rank then suit."""
    if _trips(codes):
        return (2, _rank(codes[0]), *_high_card(codes))
    if _faces(codes) == 3:
        return (1, 0, *_high_card(codes))
    return (0, _points(codes), *_high_card(codes))


def chinese_key(codes: Sequence[int]) -> Key:
    """大三公 (J-J-J, Q-Q-Q, K-K-K; K high) > 小三公 (other trips; 10-10-10 high ..
    A-A-A low) > 混三公 (three faces, not one rank) > points 9..0; equal tier and points:
    the highest card, by rank then suit."""
    if _trips(codes) and _rank(codes[0]) >= 11:
        return (4, _rank(codes[0]), *_high_card(codes))
    if _trips(codes):
        return (3, _rank(codes[0]), *_high_card(codes))
    if _faces(codes) == 3:
        return (2, 0, *_high_card(codes))
    return (0, _points(codes), *_high_card(codes))


KEYS: dict[str, Callable[[Sequence[int]], Key]] = {
    "macau": macau_key, "prosperity": prosperity_key, "san_gong": san_gong_key, "chinese": chinese_key,
}


def key_of(preset: str, cards: str) -> Key:
    return KEYS[FAMILY_OF[preset]]([c.code for c in parse_cards(cards)])


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


ALL_TRIPLES = np.array(list(itertools.product(range(52), repeat=3)), dtype=np.uint8)


@functools.cache
def dense_keys(family: str) -> npt.NDArray[np.int64]:
    """My key of every ordered triple (index ``52 * (52 * c0 + c1) + c2``) as a dense
    integer: equal integers for equal keys, the integers in the keys' order. The key
    depends only on the cards, not their order: computed once per multiset."""
    key = KEYS[family]
    by_multiset: dict[tuple[int, ...], Key] = {}
    keys: list[Key] = []
    for triple in itertools.product(range(52), repeat=3):
        sorted_triple = tuple(sorted(triple))
        found = by_multiset.get(sorted_triple)
        if found is None:
            found = by_multiset[sorted_triple] = key(sorted_triple)
        keys.append(found)
    order = {k: i for i, k in enumerate(sorted(set(keys)))}
    return np.array([order[k] for k in keys], dtype=np.int64)


def triple_index(hands: npt.NDArray[np.integer]) -> npt.NDArray[np.int64]:
    h = hands.astype(np.int64)
    return 52 * (52 * h[:, 0] + h[:, 1]) + h[:, 2]


def disjoint_pairs(n: int, seed: int) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """n pairs of hands dealt from one deck each: six distinct cards a pair."""
    rng = np.random.default_rng(seed)
    six = rng.random((n, 52)).argsort(axis=1)[:, :6].astype(np.uint8)
    return np.ascontiguousarray(six[:, :3]), np.ascontiguousarray(six[:, 3:])


# --- 1. the rankings against the independent keys ------------------------------------

SAMPLE = 200_000  # pairs per preset with the compiled core
REFERENCE_SAMPLE = 20_000  # with the pure-Python reference (about 0.3 s per 20,000)


def _check_sample(preset: str, n: int, seed: int) -> None:
    a, b = disjoint_pairs(n, seed)
    keys = dense_keys(FAMILY_OF[preset])
    expected = np.sign(keys[triple_index(a)] - keys[triple_index(b)]).astype(np.int8)
    got = compare_batch(a, b, rules=preset)
    bad = np.flatnonzero(got != expected)
    assert bad.size == 0, (
        f"{preset}: {bad.size} of {n} pairs disagree, e.g. {a[bad[0]].tolist()} vs {b[bad[0]].tolist()}: "
        f"got {got[bad[0]]}, the rules say {expected[bad[0]]}"
    )
    # every outcome occurs in the sample: the check is not vacuous
    assert set(np.unique(got).tolist()) >= {-1, 1}


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.kernels
def test_compare_batch_agrees_with_the_rules_on_random_pairs(impl: ModuleType, preset: str) -> None:
    n = SAMPLE if impl.IMPLEMENTATION == "cython" else REFERENCE_SAMPLE
    _check_sample(preset, n, seed=1000 + ALL_PRESETS.index(preset))


@pytest.mark.slow
@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.kernels
def test_compare_batch_agrees_with_the_rules_on_many_random_pairs(preset: str) -> None:
    """The full sample with either implementation (the reference's takes ~3 s a preset)."""
    _check_sample(preset, SAMPLE, seed=2000 + ALL_PRESETS.index(preset))


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.kernels
def test_rank_batch_orders_every_triple_as_the_rules(impl: ModuleType, preset: str) -> None:
    """Over all 140,608 ordered triples (identical cards included, as in a shoe): equal
    keys <=> equal ranks, and ranks increase with the keys; then the same sign on random
    pairs of triples, spelled out."""
    keys = dense_keys(FAMILY_OF[preset])
    ranks = rank_batch(ALL_TRIPLES, rules=preset).astype(np.int64)
    tables = tables_for(PRESETS[preset].ranking)
    assert rank_batch(ALL_TRIPLES[:1], rules=preset).dtype == tables.rank_dtype
    n_keys = int(keys.max()) + 1
    rank_of_key = np.full(n_keys, -1, dtype=np.int64)
    rank_of_key[keys] = ranks
    assert np.array_equal(rank_of_key[keys], ranks), "two triples of one key have different ranks"
    assert (np.diff(rank_of_key) > 0).all(), "ranks do not strictly increase with the keys"
    assert n_keys == len(tables.rank_keys) and set(ranks.tolist()) == set(tables.rank_values)
    if PRESETS[preset].ranking.uses_suits:
        # 256 x the place of the tier and points + the strongest card: 4 x (rank - 1) + its
        # suit's strength, spades > hearts > clubs > diamonds (the suit codes c d h s)
        codes = ALL_TRIPLES.astype(np.int64)
        strongest = (4 * (codes // 4) + np.array([1, 0, 2, 3])[codes % 4]).max(axis=1)
        assert np.array_equal(ranks % 256, strongest)
        assert set((ranks // 256).tolist()) == set(range(int(ranks.max()) // 256 + 1))
        assert tables.n_ranks == int(ranks.max()) + 1
    else:
        assert n_keys == tables.n_ranks and set(ranks.tolist()) == set(range(tables.n_ranks))
    # the tables' own view of the same triples, and evaluate_batch, agree
    assert np.array_equal(tables.rank[tables.packed_of_triple >> 3].astype(np.int64), ranks)
    step = 1 if impl.IMPLEMENTATION == "cython" else 13  # the reference's takes seconds
    evaluated = evaluate_batch(ALL_TRIPLES[::step], rules=preset).rank.astype(np.int64)
    assert np.array_equal(evaluated, ranks[::step])
    rng = np.random.default_rng(3000 + ALL_PRESETS.index(preset))
    i, j = rng.integers(0, len(ALL_TRIPLES), size=(2, 500_000))
    assert np.array_equal(np.sign(ranks[i] - ranks[j]), np.sign(keys[i] - keys[j]))
    assert np.array_equal(ranks[i] == ranks[j], keys[i] == keys[j])


# --- 2. hand-worked examples from RULES.md section 6 -----------------------------------

# (a, b, compare(a, b)), each worked out by hand; comments give each hand's reading
MACAU_EXAMPLES = [
    ("Jc Qd Kh", "Ks Qs 9d", 1),  # 3P beats everything: 3P > 2P9
    ("Kh Qs 9d", "Jh 4s 5d", 1),  # 2P9 > P9 (4 + 5 = 9, one face)
    ("Jh 4s 5d", "4c 5c Tc", 1),  # P9 > 9 (a ten is no face)
    ("Ac 2c 6d", "Kh Qs 8d", 1),  # points before faces: 9 > 2P8
    ("Ts Jh Qd", "Kh 5s 5d", 1),  # 2P0 > P0
    ("Kh 5s 5d", "Tc 4h 6c", 1),  # P0 > 0
    ("Kc 2d 6h", "9c 9d Kh", 0),  # P8 = P8 (18 -> 8): same class ties
    ("Kh 5c 2d", "Ks 4c 3d", 0),  # P7 = P7: no high card, K of spades counts for nothing
    ("Kh Kd Ks", "Jc Qd Kc", 0),  # K-K-K is just 3P
    ("9c 9h 9s", "3c 4d Td", 0),  # 9-9-9 is just 7 (27 -> 7)
    ("9c 9h 9s", "Ks Qs 8d", -1),  # 7 < 2P8
    ("Ac Ad Ah", "Kh Qs 4d", -1),  # A-A-A is 3 < 2P4
]
PROSPERITY_EXAMPLES = [
    ("Kh Qs Td", "4c 5d Tc", 1),  # two faces, 0 points beats no face, 9 points
    ("Kh Qs 2d", "Jh 4s 5d", 1),  # 2P2 > P9
    ("Kh 5s 5d", "4c 5c Tc", 1),  # P0 > 9
    ("Jc Qd Ks", "Kh Qh 9d", 1),  # three faces > 2P9
    ("Kh Qs 9d", "Kd Qc 8h", 1),  # equal faces: points, 2P9 > 2P8
    ("Kh 3s 4d", "Qc 2d 5h", 0),  # P7 = P7
    ("Jc Qd Ks", "Kh Kd Kc", 0),  # three faces = three faces
    ("Kh 5c 2d", "Ks 4c 3d", 0),  # no high card
    ("9c 9h 9s", "Jd 2c 3h", -1),  # 7 (no face) < P5: trips are nothing special
]
SAN_GONG_EXAMPLES = [
    ("Kc Kd Kh", "Qc Qd Qh", 1),  # K-K-K > Q-Q-Q
    ("Qc Qd Qh", "Tc Td Th", 1),  # Q-Q-Q > 10-10-10
    ("Tc Td Th", "Ac Ad Ah", 1),  # 10-10-10 > A-A-A
    ("2c 2d 2h", "Jc Qd Ks", 1),  # any trips > three faces
    ("Ac Ad Ah", "Jh Qh Kh", 1),  # even A-A-A
    ("Jc Qd Ks", "Kh Qh 9d", 1),  # three faces > 9 points
    ("4c 5d Tc", "Kh Qs 8d", 1),  # 9 > 8, faces count for nothing
    ("Ks 4c 5d", "Kh Qh 9d", 1),  # 9 = 9 (faces ignored): K spades > K hearts
    ("Kh 5c 2d", "Ks 4c 3d", -1),  # 7 = 7: K hearts < K spades
    ("Kh 5c 2d", "Qs 4c 3d", 1),  # 7 = 7: K > Q whatever the suit
    ("Kc 3d 4h", "Kd 2c 5s", 1),  # 7 = 7: K clubs > K diamonds
    ("Jc Qd Kh", "Jh Qs Kd", 1),  # three faces each: K hearts > K diamonds
    ("5c Jd Kh", "Qs Jc 5d", 1),  # P5 = P5: K > Q
    ("Ts 3c 4d", "9h 9d 9c", -1),  # 7 < 9-9-9
]
CHINESE_EXAMPLES = [
    ("Kc Kd Kh", "Qc Qd Qh", 1),  # 大三公: K-K-K > Q-Q-Q
    ("Qc Qd Qh", "Jc Jd Jh", 1),  # Q-Q-Q > J-J-J
    ("Jc Jd Jh", "Tc Td Th", 1),  # 大三公 > 小三公
    ("Tc Td Th", "9c 9d 9h", 1),  # 小三公: 10-10-10 high
    ("2c 2d 2h", "Ac Ad Ah", 1),  # ... A-A-A low
    ("Ac Ad Ah", "Jh Qs Kd", 1),  # 小三公 > 混三公
    ("Jc Jd Qh", "4c 5d Ts", 1),  # 混三公 (not one rank) > 9 points
    ("Jc Jd Qh", "Qc Kd Kh", -1),  # 混三公 each: Q hearts < K hearts
    ("Jc Qd Kh", "Jh Qs Kd", 1),  # 混三公 each: K hearts > K diamonds
    ("Ac 2c 6d", "Kh Ks 8d", 1),  # 9 > 8
    ("Ks 4c 5d", "Kh Qh 9d", 1),  # 9 = 9 (faces ignored): K spades > K hearts
    ("Kh 5c 2d", "Ks 4c 3d", -1),  # 7 = 7: K hearts < K spades
    ("9d 9c Kh", "8s Tc Td", 1),  # 8 = 8: K > 10
    ("Tc 3d 4h", "Td 2c 5s", 1),  # 7 = 7: 10 clubs > 10 diamonds
]
EXAMPLES = {"macau": MACAU_EXAMPLES, "prosperity": PROSPERITY_EXAMPLES,
            "san_gong": SAN_GONG_EXAMPLES, "chinese": CHINESE_EXAMPLES}
CASES = [(p, *case) for p in ALL_PRESETS for case in EXAMPLES[FAMILY_OF[p]]]


@pytest.mark.parametrize("family", list(EXAMPLES))
def test_the_independent_keys_agree_with_the_worked_examples(family: str) -> None:
    """The oracle itself, against the hand-worked examples (no kernels involved)."""
    preset = next(p for p in ALL_PRESETS if FAMILY_OF[p] == family)
    for a, b, expected in EXAMPLES[family]:
        ka, kb = key_of(preset, a), key_of(preset, b)
        assert sign((ka > kb) - (ka < kb)) == expected, (a, b)


@pytest.mark.parametrize(("preset", "a", "b", "expected"), CASES, ids=[f"{c[0]}: {c[1]} vs {c[2]}" for c in CASES])
@pytest.mark.kernels
def test_worked_examples(preset: str, a: str, b: str, expected: int) -> None:
    rules = PRESETS[preset]
    for given in (preset, rules, rules.ranking):
        assert compare(a, b, rules=given) == expected
        assert compare(b, a, rules=given) == -expected
    ra, rb = evaluate(a, rules).rank, evaluate(b, rules).rank
    assert sign(ra - rb) == expected
    ha, hb = parse_cards(a), parse_cards(b)
    codes_a = np.array([[c.code for c in ha]], dtype=np.uint8)
    codes_b = np.array([[c.code for c in hb]], dtype=np.uint8)
    assert compare_batch(codes_a, codes_b, rules=preset).tolist() == [expected]
    assert compare_batch(a, b, rules=preset).tolist() == [expected]
    # the order of the cards in a hand never matters
    assert compare(" ".join(reversed(a.split())), b, rules=preset) == expected


@pytest.mark.parametrize("family", list(EXAMPLES))
@pytest.mark.kernels
def test_all_examples_in_one_batch(family: str) -> None:
    examples = EXAMPLES[family]
    a = np.array([[c.code for c in parse_cards(x)] for x, _, _ in examples], dtype=np.uint8)
    b = np.array([[c.code for c in parse_cards(y)] for _, y, _ in examples], dtype=np.uint8)
    for preset in (p for p in ALL_PRESETS if FAMILY_OF[p] == family):
        assert compare_batch(a, b, rules=preset).tolist() == [e for _, _, e in examples]


# (preset, cards, tier, points, faces)
TIER_CASES = [
    *((p, "Kc Kd Kh", "three_faces", 0, 3) for p in MACAU_FAMILY),
    *((p, "9c 9h 9s", None, 7, 0) for p in MACAU_FAMILY),
    ("prosperity", "Kh Qs Td", None, 0, 2),
    ("san_gong", "Kc Kd Kh", "trips", 0, 3),
    ("san_gong", "Ac Ad Ah", "trips", 3, 0),
    ("san_gong", "Jc Qd Ks", "three_faces", 0, 3),
    ("san_gong", "Kh Qh 9d", None, 9, 2),
    ("chinese", "Kc Kd Kh", "face_trips", 0, 3),
    ("chinese", "Jc Jd Jh", "face_trips", 0, 3),
    ("chinese", "Tc Td Th", "trips", 0, 0),
    ("chinese", "Ac Ad Ah", "trips", 3, 0),
    ("chinese", "Jc Jd Qh", "three_faces", 0, 3),
    ("chinese", "4c 5d Ts", None, 9, 0),
]


@pytest.mark.parametrize(("preset", "cards", "tier", "points", "faces"), TIER_CASES)
@pytest.mark.kernels
def test_tiers_of_hands(preset: str, cards: str, tier: str | None, points: int, faces: int) -> None:
    hand = evaluate(cards, preset)
    assert (hand.tier, hand.points, hand.faces) == (tier, points, faces)


@pytest.mark.parametrize(("preset", "cards", "label"), [
    *((p, c, lab) for p in MACAU_FAMILY for c, lab in
      [("Jc Qd Kh", "3P"), ("Kh Qs 9d", "2P9"), ("Jh 4s 5d", "P9"), ("4c 5c Tc", "9"), ("Kh Kd Ks", "3P")]),
    *(("prosperity", c, lab) for c, lab in [("Jc Qd Kh", "3P"), ("Kh Qs Td", "2P0"), ("Kh 5s 5d", "P0")]),
])
@pytest.mark.kernels
def test_labels_of_the_faces_tables(preset: str, cards: str, label: str) -> None:
    """Display strings are exactly ``3P``, ``2Pn``, ``Pn``, ``n`` (section 1)."""
    assert evaluate(cards, preset).label == label


# --- 3. settlement, amounts worked out by hand -----------------------------------------

# (preset, banker, {position: hand}, {bet: stake}, {bet: (outcome, returned, net)})
P5 = "Kh 2c 3d"  # one face, 5 points
TWO_P5 = "Jc Qd 5h"  # two faces, 5 points
SettleCase = tuple[str, str, dict[int, str], dict[str, int], dict[str, tuple[str, int, int]]]
SETTLE_CASES: list[SettleCase] = [
    # NagaWorld: Win compares faces (2P5 beats P5: 100 + 100 - 5%), Tie 8:1 on equal points
    ("nagaworld", P5, {1: TWO_P5}, {"win:1": 100, "tie:1": 100},
     {"win:1": ("win", 195, 95), "tie:1": ("win", 900, 800)}),
    ("nagaworld", TWO_P5, {1: P5}, {"win:1": 100, "tie:1": 100},
     {"win:1": ("lose", 0, -100), "tie:1": ("win", 900, 800)}),
    # the same class: Win returned (Choice), Tie wins
    ("nagaworld", P5, {1: "Qc 4s Ah"}, {"win:1": 100, "tie:1": 100},
     {"win:1": ("push", 100, 0), "tie:1": ("win", 900, 800)}),
    # 3P ties only 3P: 2P0 against 3P has equal points (0) but no tie
    ("nagaworld", "Jc Qd Kh", {1: "Kd Qs Td"}, {"win:1": 100, "tie:1": 100, "three_faces": 100},
     {"win:1": ("lose", 0, -100), "tie:1": ("lose", 0, -100), "three_faces": ("win", 1700, 1600)}),
    ("nagaworld", "Jc Qd Kh", {1: "Jh Qc Ks"}, {"win:1": 100, "tie:1": 100},
     {"win:1": ("push", 100, 0), "tie:1": ("win", 900, 800)}),
    # 5% of 101 is 5.05: 196.95 rounded down to 196
    ("nagaworld", P5, {1: TWO_P5}, {"win:1": 101}, {"win:1": ("win", 196, 95)}),
    # Genting: Win 1:1 less 5%, Tie 8:1 on a tie (section 1: the same class), Three Knights 16:1
    ("genting", P5, {1: TWO_P5}, {"win:1": 100, "tie:1": 100, "three_faces": 100},
     {"win:1": ("win", 195, 95), "tie:1": ("lose", 0, -100), "three_faces": ("lose", 0, -100)}),
    ("genting", P5, {1: "Qc 4s Ah"}, {"tie:1": 100}, {"tie:1": ("win", 900, 800)}),  # P5 = P5
    ("genting", "Kc Kd Ks", {1: "Ac 2c 6d"}, {"win:1": 100, "three_faces": 100},
     {"win:1": ("lose", 0, -100), "three_faces": ("win", 1700, 1600)}),
    # Genting without commission: a 6-point Win pays 1:2, other Wins 1:1 in full
    ("genting_no_commission", "2c 3d Tc", {1: "Kh Qs 6d"}, {"win:1": 100}, {"win:1": ("win", 150, 50)}),
    ("genting_no_commission", "Ac 2d 3h", {1: "Kh 2s 4d"}, {"win:1": 100}, {"win:1": ("win", 150, 50)}),  # P6 > 6
    ("genting_no_commission", "2c 3d Tc", {1: "Kh 3s 4d"}, {"win:1": 100}, {"win:1": ("win", 200, 100)}),
    ("genting_no_commission", "2c 3d Tc", {1: "Kh Qs 6d"}, {"win:1": 101}, {"win:1": ("win", 151, 50)}),  # 151.5 down
    ("genting_no_commission", "Kh Qs 6d", {1: "2c 3d Tc"}, {"win:1": 100, "tie:1": 100},
     {"win:1": ("lose", 0, -100), "tie:1": ("lose", 0, -100)}),
    # Prosperity: faces first, a 6-point Win pays 1:2, Tie 10:1, a tie returns Win bets
    ("prosperity", "4c 5d Tc", {1: "Kh Qs Td"}, {"win:1": 100, "tie:1": 100},
     {"win:1": ("win", 200, 100), "tie:1": ("lose", 0, -100)}),
    ("prosperity", "Jc 9d 9h", {1: "Kh Qs 6d"}, {"win:1": 100}, {"win:1": ("win", 150, 50)}),  # 2P6 > P8
    ("prosperity", "Qc 2d 5h", {1: "Kh 3s 4d"}, {"win:1": 100, "tie:1": 100},
     {"win:1": ("push", 100, 0), "tie:1": ("win", 1100, 1000)}),
    ("prosperity", "Kh 2s 3d", {1: "4c 5d Tc"}, {"win:1": 100}, {"win:1": ("lose", 0, -100)}),  # 9 < P5
    # Chinese banker game: the loser pays stake x the winner's multiplier
    ("chinese", "2h 3s Th", {1: "4c 5d Tc"}, {"player:1": 100}, {"player:1": ("win", 400, 300)}),  # 9: x3
    ("chinese", "5c 5d 5h", {1: "Kh Qs 9d"}, {"player:1": 100}, {"player:1": ("lose", -400, -500)}),  # 小三公 x5
    ("chinese", "Kc Kd Kh", {1: "Ac Ad Ah"}, {"player:1": 100}, {"player:1": ("lose", -500, -600)}),  # 大三公 x6
    ("chinese", "Ac 2c 6d", {1: "Jc Qd Ks"}, {"player:1": 100}, {"player:1": ("win", 500, 400)}),  # 混三公 x4
    ("chinese", "7s Tc Td", {1: "9d 9c Kh"}, {"player:1": 100}, {"player:1": ("win", 300, 200)}),  # 8: x2
    ("chinese", "Ah 5c Ts", {1: "Kh 3s 4d"}, {"player:1": 100}, {"player:1": ("win", 200, 100)}),  # 7 > 6: x1
    ("chinese", "Kh 3s 4d", {1: "Ah 5c Ts"}, {"player:1": 100}, {"player:1": ("lose", 0, -100)}),  # banker 7: x1
    ("chinese", "Ks 4c 5d", {1: "Kh Qh 9d"}, {"player:1": 100}, {"player:1": ("lose", -200, -300)}),  # 9 = 9, Ks: x3
    ("chinese", "Ts Td Th", {1: "Js Jd Jh"}, {"player:1": 100}, {"player:1": ("win", 700, 600)}),  # 大三公 x6
    # several players against one banker (5 points)
    ("chinese", "2h 3s Th", {1: "4c 5d Tc", 2: "Ac Ad 2d", 3: "Jc Qd Ks", 4: "9d 9c Kh"},
     {"player:1": 10, "player:2": 20, "player:3": 30, "player:4": 40},
     {"player:1": ("win", 40, 30), "player:2": ("lose", 0, -20),  # 4 points < 5: x1
      "player:3": ("win", 150, 120), "player:4": ("win", 120, 80)}),
]


@pytest.mark.parametrize("case", SETTLE_CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(SETTLE_CASES)])
@pytest.mark.kernels
def test_settlement_examples(case: SettleCase) -> None:
    preset, banker, hands, bets, expected = case
    result = settle(PRESETS[preset], banker, hands, bets)
    got = {bet: (result[bet].outcome, result[bet].returned, result[bet].net) for bet in bets}
    assert got == expected
    assert result.house_net == -sum(net for _, _, net in expected.values())


@pytest.mark.parametrize(("dragon", "phoenix", "expected"), [
    ("9c 9d 9h", "Jc Qd Ks", {"dragon": 194, "phoenix": 0, "tie": 0}),  # trips (7) > three faces (0)
    ("4c 5d Tc", "2c 2d 2h", {"dragon": 0, "phoenix": 194, "tie": 0}),  # 9 < 2-2-2
    ("Jc Qd Ks", "Kh Qh 9d", {"dragon": 194, "phoenix": 0, "tie": 0}),  # three faces > 9
    ("Ks 4c 5d", "Kh Qh 8d", {"dragon": 194, "phoenix": 0, "tie": 0}),  # 9 > 8
])
@pytest.mark.kernels
def test_san_gong_dragon_and_phoenix(dragon: str, phoenix: str, expected: dict[str, int]) -> None:
    """Dragon is hand 1, Phoenix the "banker"; a winning bet pays 0.94:1: 100 + 94."""
    result = settle(PRESETS["san_gong"], phoenix, {1: dragon}, {"dragon": 100, "phoenix": 100, "tie": 100})
    assert {bet: result[bet].returned for bet in expected} == expected


@pytest.mark.parametrize(("dragon", "phoenix"), [
    ("Kh 5c 2d", "Ks 4c 3d"),  # 7 and 7
    ("Ac 2c 6d", "Kh Qs 9d"),  # 9 and 9, different faces
    ("Kc 3d 7s", "4h 6h Qd"),  # 0 and 0
])
@pytest.mark.kernels
def test_san_gong_tie_pays_8_to_1_on_equal_points(dragon: str, phoenix: str) -> None:
    result = settle(PRESETS["san_gong"], phoenix, {1: dragon}, {"tie": 100})
    assert (result["tie"].outcome, result["tie"].returned, result["tie"].net) == ("win", 900, 800)


@pytest.mark.kernels
def test_san_gong_odd_stakes_round_down() -> None:
    # 101 x 0.94 = 94.94: 195.94 rounded down to 195
    result = settle(PRESETS["san_gong"], "Jc Qd Ks", {1: "Kc Kd Kh"}, {"dragon": 101})
    assert result["dragon"].returned == 195


@pytest.mark.kernels
def test_san_gong_exact_tie_with_two_decks_returns_dragon_and_phoenix() -> None:
    """Identical hands (possible with two decks) tie under any reading: Dragon and
    Phoenix are returned, Tie pays 8:1."""
    rules = PRESETS["san_gong"].replace(decks=2)
    result = settle(rules, "Kh 5c 2d", {1: "Kh 5c 2d"}, {"dragon": 100, "phoenix": 100, "tie": 100})
    got = {bet: (result[bet].outcome, result[bet].returned) for bet in ("dragon", "phoenix", "tie")}
    assert got == {"dragon": ("push", 100), "phoenix": ("push", 100), "tie": ("win", 900)}


@pytest.mark.kernels
def test_chinese_multiplier_results_name_the_multiplier() -> None:
    result = settle(PRESETS["chinese"], "5c 5d 5h", {1: "Kh Qs 9d"}, {"player:1": 100})
    bet = result["player:1"]
    assert (bet.outcome, bet.odds, bet.stake, bet.returned, bet.net) == ("lose", Fraction(5), 100, -400, -500)


# Random rounds settled against the pay tables read independently from RULES.md. Half
# the rounds are dealt from a deck of A, 3, 5, 10, J, Q, K only, where ties, three faces
# and trips are common. Where RULES.md leaves an outcome open (san_gong: Dragon/Phoenix
# and Tie on equal points or between tier hands; the Win bet on a tie outside
# NagaWorld and Prosperity) the bet is not checked.

RICH = [c for c in range(52) if c // 4 + 1 in (1, 3, 5, 10, 11, 12, 13)]
COMMISSION = {"nagaworld": F(5, 100), "genting": F(5, 100)}
SIX_PAYS_HALF = {"genting_no_commission", "prosperity"}
TIE_ODDS = {"nagaworld": 8, "genting": 8, "genting_no_commission": 8, "prosperity": 10}
WIN_ON_TIE_RETURNED = {"nagaworld", "prosperity"}  # said by RULES.md section 6


def _floor(x: Fraction) -> int:  # int stakes are minor units: the payout rounds down
    return int(x // 1)


def _deal(rng: np.random.Generator, hands: int) -> list[list[int]]:
    pool = RICH if rng.random() < 0.5 else list(range(52))
    cards = rng.choice(pool, size=3 * hands, replace=False).tolist()
    return [cards[3 * i : 3 * i + 3] for i in range(hands)]


def _text(codes: list[int]) -> str:
    return " ".join(str(c) for c in parse_cards(codes))


def _tier_free(codes: list[int]) -> bool:
    return _faces(codes) < 3 and not _trips(codes)


def _expected_macau_family(preset: str, bet: str, banker: list[int], hand: list[int], stake: int) -> int | None:
    """The amount returned on a bet of ``stake``, or None where RULES.md leaves it open."""
    key = KEYS["macau"] if preset != "prosperity" else KEYS["prosperity"]
    order = sign((key(hand) > key(banker)) - (key(hand) < key(banker)))
    if bet == "win":
        if order < 0:
            return 0
        if order == 0:
            return stake if preset in WIN_ON_TIE_RETURNED else None
        odds = F(1, 2) if preset in SIX_PAYS_HALF and _faces(hand) < 3 and _points(hand) == 6 else F(1)
        return _floor(stake + stake * odds * (1 - COMMISSION.get(preset, 0)))
    if bet == "tie":
        if preset == "nagaworld":  # equal points; 3P ties only 3P
            h3, b3 = _faces(hand) == 3, _faces(banker) == 3
            tied = (h3 and b3) or (not h3 and not b3 and _points(hand) == _points(banker))
        else:
            tied = order == 0
        return stake * (1 + TIE_ODDS[preset]) if tied else 0
    assert bet == "three_faces"
    return stake * 17 if _faces(banker) == 3 else 0


MULTIPLIER = {4: 6, 3: 5, 2: 4}  # 大三公, 小三公, 混三公 by my chinese key's first field
POINT_MULTIPLIER = {8: 2, 9: 3}  # 0..7: 1


def _multiplier(codes: list[int]) -> int:
    k = chinese_key(codes)
    return MULTIPLIER[k[0]] if k[0] else POINT_MULTIPLIER.get(k[1], 1)


ROUNDS = 600


@pytest.mark.parametrize("preset", ["nagaworld", "genting", "genting_no_commission", "prosperity"])
@pytest.mark.kernels
def test_random_rounds_of_the_faces_tables(preset: str) -> None:
    rules = PRESETS[preset]
    rng = np.random.default_rng(4000 + ALL_PRESETS.index(preset))
    checked: Counter[str] = Counter()
    for _ in range(ROUNDS):
        banker, *hands = _deal(rng, 4)
        bets = {f"win:{i}": int(rng.integers(1, 1000)) for i in (1, 2, 3)}
        bets |= {f"tie:{i}": int(rng.integers(1, 1000)) for i in (1, 2, 3)}
        if "three_faces" in rules.pays:
            bets["three_faces"] = int(rng.integers(1, 1000))
        result = settle(rules, _text(banker), {i + 1: _text(h) for i, h in enumerate(hands[:3])}, bets)
        for bet, stake in bets.items():
            kind, _, where = bet.partition(":")
            hand = hands[int(where) - 1] if where else banker
            expected = _expected_macau_family(preset, kind, banker, hand, stake)
            if expected is None:
                continue
            got = result[bet]
            assert (got.returned, got.net) == (expected, expected - stake), (bet, _text(banker), _text(hand))
            checked[f"{kind} {got.outcome}"] += 1
    # the sample reaches every outcome that matters
    assert checked["win win"] and checked["win lose"] and checked["tie win"] and checked["tie lose"]
    if preset in WIN_ON_TIE_RETURNED:
        assert checked["win push"]


def _san_gong_side_bets(bets: dict[str, int], dragon: list[int], phoenix: list[int],
                        winner: list[int]) -> dict[str, int]:
    """The side bets' returns, read from the rules page: a hand's points (every hand by
    its points: three faces 0, even) odd or even, a pair (exactly two of a rank), each
    0.94:1; the winning hand's points 1-6 at 1:1, 7-8 at 2:1, 9 at 4:1, every total bet
    returned where they are 0 (both hands 0, or a three faces or three tens or faces
    winning)."""
    out = {}
    for name, hand in (("dragon", dragon), ("phoenix", phoenix)):
        points = _points(hand)
        pair = len({_rank(c) for c in hand}) == 2
        for kind, won in (("odd", points % 2 == 1), ("even", points % 2 == 0), ("pair", pair)):
            stake = bets[f"{kind}:{name}"]
            out[f"{kind}:{name}"] = _floor(stake * F(194, 100)) if won else 0
    total = _points(winner)
    for name, (low, high, odds) in {"total:1-6": (1, 6, 1), "total:7-8": (7, 8, 2), "total:9": (9, 9, 4)}.items():
        stake = bets[name]
        out[name] = stake if total == 0 else stake * (1 + odds) if low <= total <= high else 0
    return out


@pytest.mark.kernels
def test_random_rounds_of_san_gong() -> None:
    rules = PRESETS["san_gong"]
    rng = np.random.default_rng(4100)
    checked: Counter[str] = Counter()
    side = [n for n in rules.bets if ":" in n]
    for _ in range(ROUNDS):
        phoenix, dragon = _deal(rng, 2)
        bets = {"dragon": int(rng.integers(1, 1000)), "phoenix": int(rng.integers(1, 1000)),
                "tie": int(rng.integers(1, 1000))}
        bets |= {name: int(rng.integers(1, 1000)) for name in side}
        result = settle(rules, _text(phoenix), {1: _text(dragon)}, bets)
        kd, kp = san_gong_key(dragon), san_gong_key(phoenix)
        expected = _san_gong_side_bets(bets, dragon, phoenix, dragon if kd > kp else phoenix)
        assert {name: result[name].returned for name in side} == expected, (_text(dragon), _text(phoenix))
        checked.update(f"{name} {result[name].outcome}" for name in side)
        assert kd != kp  # one deck: the suits always decide
        free = _tier_free(dragon) and _tier_free(phoenix)
        if free:
            tied = _points(dragon) == _points(phoenix)
            assert result["tie"].returned == (9 * bets["tie"] if tied else 0)
            checked[f"tie {tied}"] += 1
        if not (kd[0] == kp[0] and (kd[0] or kd[1] == kp[1])):  # neither equal points nor one tier
            winner, loser = ("dragon", "phoenix") if kd > kp else ("phoenix", "dragon")
            assert result[winner].returned == _floor(bets[winner] * F(194, 100))
            assert result[loser].returned == 0
            checked[winner] += 1
    assert min(checked["tie True"], checked["tie False"], checked["dragon"], checked["phoenix"]) > 0
    assert all(checked[f"{name} win"] and checked[f"{name} lose"] for name in side)
    assert checked["total:9 push"] > 0


@pytest.mark.kernels
def test_random_rounds_of_the_banker_game() -> None:
    rules = PRESETS["chinese"]
    rng = np.random.default_rng(4200)
    checked: Counter[int] = Counter()
    for _ in range(ROUNDS):
        banker, *hands = _deal(rng, 5)
        bets = {f"player:{i}": int(rng.integers(1, 1000)) for i in (1, 2, 3, 4)}
        result = settle(rules, _text(banker), {i + 1: _text(h) for i, h in enumerate(hands)}, bets)
        for i, hand in enumerate(hands, start=1):
            stake = bets[f"player:{i}"]
            kh, kb = chinese_key(hand), chinese_key(banker)
            assert kh != kb
            m = _multiplier(hand if kh > kb else banker)
            net = stake * m if kh > kb else -stake * m
            got = result[f"player:{i}"]
            assert (got.outcome, got.returned, got.net) == ("win" if net > 0 else "lose", stake + net, net)
            checked[m if net > 0 else -m] += 1
    assert set(checked) == {1, 2, 3, 4, 5, 6, -1, -2, -3, -4, -5, -6}, checked


# --- 4. rule files ------------------------------------------------------------------


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_preset_files_round_trip(tmp_path: Path, preset: str, suffix: str) -> None:
    """Reading and writing files does not involve the kernels."""
    rules = PRESETS[preset]
    path = tmp_path / f"{preset}{suffix}"
    rules.save(path)
    loaded = RuleSet.load(path)
    assert loaded == rules
    assert loaded.digest() == rules.digest()
    assert loaded.ranking == rules.ranking and loaded.multipliers == rules.multipliers
    assert RuleSet.from_dict(rules.to_dict()) == rules


def test_preset_digests_differ() -> None:
    """Presets differ in their rules, so in their digests."""
    digests = {PRESETS[p].digest() for p in ALL_PRESETS}
    assert len(digests) == len(ALL_PRESETS)


# --- 5. the presets reproduce RULES.md's table --------------------------------------

FACES_TABLE = Ranking(order="points_faces", tiers=("three_faces",), high_card="none")


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_preset_rankings(preset: str) -> None:
    """The rankings as the table describes them (no kernels involved)."""
    ranking = PRESETS[preset].ranking
    if FAMILY_OF[preset] == "macau":  # points, then faces; 3P top
        assert ranking == FACES_TABLE
    elif preset == "prosperity":  # faces first, then points (3P is the most faces anyway)
        assert (ranking.order, ranking.high_card) == ("faces_points", "none")
        assert ranking.tiers in ((), ("three_faces",))
    elif preset == "san_gong":
        assert ranking == Ranking(order="points", tiers=("trips", "three_faces"), high_card="rank_suit")
    else:
        assert ranking == Ranking(order="points", tiers=("face_trips", "trips", "three_faces"),
                                  high_card="rank_suit")


@pytest.mark.parametrize(("preset", "n_classes"), [
    *((p, 31) for p in MACAU_FAMILY),  # 3P and 2Pn, Pn, n for n = 0..9
    ("prosperity", 31),
])
def test_class_counts(preset: str, n_classes: int) -> None:
    """Section 1's 31 classes where faces count (the tables with tiers that include trips
    split their classes further by what other bets read: not specified by RULES.md)."""
    assert tables_for(PRESETS[preset].ranking).n_classes == n_classes



def test_preset_parameters() -> None:
    """Pay tables, commission, decks and positions as RULES.md section 6 gives them."""
    p = PRESETS
    assert (p["nagaworld"].variant, p["nagaworld"].decks, p["nagaworld"].positions) == ("macau", 8, 7)
    assert dict(p["nagaworld"].pays) == {"win": 1, "tie": 8, "three_faces": 16}
    assert (p["nagaworld"].commission, p["nagaworld"].commission_bets) == (F(5, 100), frozenset({"win"}))
    assert (p["nagaworld"].tie_by, p["nagaworld"].push) == ("points", "returned")

    assert (p["genting"].variant, p["genting"].decks) == ("macau", 8)
    assert dict(p["genting"].pays) == {"win": 1, "tie": 8, "three_faces": 16}
    assert (p["genting"].commission, p["genting"].commission_bets) == (F(5, 100), frozenset({"win"}))

    assert p["genting_no_commission"].decks == 8
    assert dict(p["genting_no_commission"].pays) == {"win": 1, "win_on_six": F(1, 2), "tie": 8, "three_faces": 16}
    assert p["genting_no_commission"].commission == 0

    assert (p["prosperity"].variant, p["prosperity"].decks) == ("macau", 8)
    assert dict(p["prosperity"].pays) == {"win": 1, "win_on_six": F(1, 2), "tie": 10}
    assert (p["prosperity"].commission, p["prosperity"].push) == (F(0), "returned")

    assert (p["san_gong"].variant, p["san_gong"].decks, p["san_gong"].positions) == ("dragon_phoenix", 1, 1)
    assert dict(p["san_gong"].pays) == {"dragon": F(94, 100), "phoenix": F(94, 100), "tie": 8,
                                        "odd": F(94, 100), "even": F(94, 100), "pair": F(94, 100)}
    assert dict(p["san_gong"].total_pays) == {"1-6": 1, "7-8": 2, "9": 4}
    assert p["san_gong"].fresh_deck_each_round
    assert (p["san_gong"].burn_first, p["san_gong"].burn_per_round, p["san_gong"].head_card) == (0, 0, False)

    assert (p["chinese"].variant, p["chinese"].decks, p["chinese"].positions) == ("banker_game", 1, 4)
    assert p["chinese"].commission == 0 and p["chinese"].fresh_deck_each_round
    assert dict(p["chinese"].multipliers) == {
        **{str(n): 1 for n in range(8)}, "8": 2, "9": 3, "three_faces": 4, "trips": 5, "face_trips": 6,
    }
