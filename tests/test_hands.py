"""Hand evaluation: examples from RULES.md, exhaustive agreement of the two
implementations, combinatorial counts computed independently, and properties."""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from math import comb, prod

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from rank_numbers import rank_numbers

from sanggong import (
    CLASS_LABELS,
    Card,
    HandValue,
    PairPlus,
    _kernels,
    compare,
    compare_batch,
    evaluate,
    hand_cards,
    pair_plus_batch,
    rank_batch,
)
from sanggong import _spec as ref
from sanggong.hands import ranking_of
from sanggong.ranking import DEFAULT_RANKING, Ranking, tables_for
from sanggong.rules import PRESETS

ALL_TRIPLES = np.array(list(itertools.product(range(52), repeat=3)), dtype=np.uint8)
ONE_DECK_HANDS = np.array(list(itertools.combinations(range(52), 3)), dtype=np.uint8)


def test_class_order_is_the_rules_order() -> None:
    # RULES.md: 3P > 2P9 > P9 > 9 > 2P8 > P8 > 8 > ... > 2P0 > P0 > 0, listed weakest first.
    spelled = [label for p in range(10) for label in (f"{p}", f"P{p}", f"2P{p}")] + ["3P"]
    assert list(CLASS_LABELS) == spelled


@pytest.mark.parametrize(
    ("cards", "label", "points", "faces"),
    [
        ("Jc Qd Kh", "3P", 0, 3),
        ("Kh Qs 9d", "2P9", 9, 2),
        ("Kh Qs Td", "2P0", 0, 2),  # face, face, ten
        ("Kh 5s 5d", "P0", 0, 1),  # one face, the rest summing to 10
        ("Jh 9s Ad", "P0", 0, 1),
        ("Jh 9s 9d", "P8", 8, 1),
        ("9c 9h 9s", "7", 7, 0),
        ("Tc Th Ts", "0", 0, 0),  # tens are worth 0 but are not faces
        ("Ac 2c 3c", "6", 6, 0),
        ("As Kc Qd", "2P1", 1, 2),
    ],
)
@pytest.mark.kernels
def test_rule_examples(cards: str, label: str, points: int, faces: int) -> None:
    hand = evaluate(cards)
    assert (hand.label, hand.points, hand.faces, str(hand)) == (label, points, faces, label)
    assert CLASS_LABELS[hand.rank] == label


@pytest.mark.parametrize(
    ("cards", "category"),
    [
        ("Ah 2h 3h", PairPlus.STRAIGHT_FLUSH),
        ("Qs Ks As", PairPlus.STRAIGHT_FLUSH),
        ("Ks As 2s", PairPlus.FLUSH),  # K-A-2 is no straight
        ("Kd As 2s", PairPlus.NONE),
        ("Ts Js Qc", PairPlus.STRAIGHT),
        ("Qh Kd Ac", PairPlus.STRAIGHT),
        ("Ts Td Tc", PairPlus.THREE_OF_A_KIND),
        ("Ts Tc Qs", PairPlus.PAIR),
        ("2s 7s Qs", PairPlus.FLUSH),
        # multi-deck choices (RULES.md): identical cards take the highest category
        ("Kh Kh Kh", PairPlus.THREE_OF_A_KIND),
        ("Kh Kh 2h", PairPlus.FLUSH),
        ("Kh Kh 2c", PairPlus.PAIR),
    ],
)
@pytest.mark.kernels
def test_pair_plus_examples(cards: str, category: PairPlus) -> None:
    assert evaluate(cards).pair_plus is category


@pytest.mark.kernels
def test_exhaustive_against_reference_scalar() -> None:
    """All 140,608 ordered triples of codes (identical cards included): the batch
    kernels and the scalar kernels of the active implementation agree with the
    reference's plain functions, for rank, label and Pair Plus category."""
    expected_rank = np.array([ref.default_rank3(*map(int, t)) for t in ALL_TRIPLES], dtype=np.uint8)
    expected_pp = np.array([ref.pair_plus3(*map(int, t)) for t in ALL_TRIPLES], dtype=np.uint8)
    ranks = rank_batch(ALL_TRIPLES)
    np.testing.assert_array_equal(ranks, expected_rank)
    np.testing.assert_array_equal(pair_plus_batch(ALL_TRIPLES), expected_pp)
    labels = np.array(CLASS_LABELS)
    assert (labels[ranks] == np.array([ref.rank_label(int(r)) for r in expected_rank])).all()


@pytest.mark.kernels
def test_scalar_kernel_matches_reference_on_sample(impl: object) -> None:
    rng = np.random.default_rng(2)
    tables = _kernels.lookups(tables_for(DEFAULT_RANKING))
    for c0, c1, c2 in rng.integers(0, 52, size=(3000, 3)).tolist():
        assert impl.rank3(tables, c0, c1, c2) == ref.default_rank3(c0, c1, c2)  # type: ignore[attr-defined]
        assert impl.pair_plus3(c0, c1, c2) == ref.pair_plus3(c0, c1, c2)  # type: ignore[attr-defined]


RANKINGS = sorted({rules.ranking for rules in PRESETS.values()}, key=repr) + [
    Ranking(order="points", tiers=(), high_card="rank"),
    Ranking(tiers=("three_threes", "face_trips", "trips", "three_faces"), high_card="rank"),
    Ranking(order="faces_points", tiers=("trips",), high_card="rank_suit"),
]


@functools.cache
def _plain_keys(ranking: Ranking) -> tuple[list[object], list[object]]:
    """The reference's plain keys and classes of every triple: the same for both
    implementations, so worked out once a process."""
    triples = ALL_TRIPLES.tolist()
    return [ref.hand_key(ranking, *t) for t in triples], [ref.class_key(ranking, *t) for t in triples]


@pytest.mark.parametrize("ranking", RANKINGS, ids=repr)
@pytest.mark.kernels
def test_every_ranking_against_the_plain_reference_on_all_triples(ranking: Ranking) -> None:
    """For every preset's ranking and a few others, on all 140,608 ordered triples: the
    active implementation's batch ranks, classes and categories equal the reference's
    plain ``hand_key``/``class_key`` (numbered as documented: tests/rank_numbers.py), and the tables'
    vectorized keys (``triple_keys``, which the run-time tables are built from) equal the
    plain keys."""
    tables = tables_for(ranking)
    class_of = {key: i for i, key in enumerate(tables.class_keys)}
    plain_keys, plain_classes = _plain_keys(ranking)
    rank_of = rank_numbers(ranking, plain_keys)
    assert sorted(set(plain_keys)) == list(tables.rank_keys)
    assert list(tables.rank_values) == [rank_of[k] for k in tables.rank_keys]
    assert tables.n_ranks == max(rank_of.values()) + 1
    vector_keys, vector_classes = ref.triple_keys(ranking)
    assert [ref.unpack_hand_key(k) for k in vector_keys.tolist()] == plain_keys
    assert [ref.unpack_class_key(k) for k in vector_classes.tolist()] == plain_classes
    ranks = rank_batch(ALL_TRIPLES, rules=ranking)
    assert ranks.dtype == (np.uint16 if tables.n_ranks > 256 else np.uint8)
    np.testing.assert_array_equal(ranks, [rank_of[k] for k in plain_keys])
    kernel = _kernels.lookups(tables)
    classes = [_kernels.kernels.class3(kernel, *t) for t in ALL_TRIPLES[::7].tolist()]
    assert classes == [class_of[k] for k in plain_classes[::7]]


@pytest.mark.parametrize("ranking", RANKINGS, ids=repr)
@pytest.mark.kernels
def test_compare_batch_follows_the_plain_keys(ranking: Ranking) -> None:
    """200,000 random pairs of hands (20,000 for the twin, whose comparison is made of these
    very keys: it checks the batching): the batch comparison is the order of their plain keys."""
    rng = np.random.default_rng(11)
    pairs = 200_000 if _kernels.kernels.IMPLEMENTATION == "cython" else 20_000
    a, b = rng.integers(0, 52, size=(2, pairs, 3))
    got = compare_batch(a, b, rules=ranking)
    key = functools.cache(functools.partial(ref.hand_key, ranking))  # (a triple's key computed once: 52**3 triples, 400,000 drawn)
    keys_a = [key(*t) for t in a.tolist()]
    keys_b = [key(*t) for t in b.tolist()]
    np.testing.assert_array_equal(got, [(x > y) - (x < y) for x, y in zip(keys_a, keys_b, strict=True)])


# --- counts by combinatorics over ranks, written apart from the evaluator -----------


def _label_of_ranks(ranks: tuple[int, ...]) -> str:
    faces = sum(r >= 11 for r in ranks)
    if faces == 3:
        return "3P"
    points = sum(r for r in ranks if r <= 9) % 10
    return ("", "P", "2P")[faces] + str(points)


STRAIGHTS = {frozenset({a, a + 1, a + 2}) for a in range(1, 12)} | {frozenset({12, 13, 1})}


def _independent_counts() -> tuple[Counter[str], Counter[str]]:
    classes: Counter[str] = Counter()
    categories: Counter[str] = Counter()
    for ranks in itertools.combinations_with_replacement(range(1, 14), 3):
        mult = Counter(ranks)
        ways = prod(comb(4, k) for k in mult.values())  # choose suits from one deck
        classes[_label_of_ranks(ranks)] += ways
        if len(mult) == 1:
            categories["three of a kind"] += ways
        elif len(mult) == 2:
            categories["pair"] += ways
        else:  # 4**3 suit choices, 4 of them one suit
            straight = frozenset(ranks) in STRAIGHTS
            categories["straight flush" if straight else "flush"] += 4
            categories["straight" if straight else "none"] += 60
    return classes, categories


@pytest.mark.kernels
def test_one_deck_counts_match_combinatorics() -> None:
    classes, categories = _independent_counts()
    assert sum(classes.values()) == sum(categories.values()) == comb(52, 3) == len(ONE_DECK_HANDS)
    ranks = rank_batch(ONE_DECK_HANDS)
    got_classes = Counter(CLASS_LABELS[r] for r in ranks.tolist())
    got_categories = Counter(ref.PAIR_PLUS_NAMES[p] for p in pair_plus_batch(ONE_DECK_HANDS).tolist())
    assert got_classes == classes
    assert len(got_classes) == 31
    assert got_categories == categories


# --- properties ----------------------------------------------------------------------

codes = st.integers(min_value=0, max_value=51)
triples = st.tuples(codes, codes, codes)


def _key(cards: tuple[int, int, int]) -> tuple[bool, int, int]:
    """An ordering key written from RULES.md, apart from the class numbers."""
    ranks = [c // 4 + 1 for c in cards]
    faces = sum(r >= 11 for r in ranks)
    return (faces == 3, 0 if faces == 3 else sum(r for r in ranks if r <= 9) % 10, faces if faces < 3 else 0)


@given(triples, st.permutations([0, 1, 2]))
@pytest.mark.kernels
def test_card_order_never_matters(cards: tuple[int, int, int], order: list[int]) -> None:
    shuffled = [cards[i] for i in order]
    a, b = evaluate(list(cards)), evaluate(shuffled)
    assert (a.rank, a.pair_plus) == (b.rank, b.pair_plus)


@given(triples, st.tuples(*[st.integers(0, 3)] * 3))
@pytest.mark.kernels
def test_suits_never_change_the_rank(cards: tuple[int, int, int], suits: tuple[int, int, int]) -> None:
    resuited = [4 * (c // 4) + s for c, s in zip(cards, suits, strict=True)]
    assert evaluate(list(cards)).rank == evaluate(resuited).rank


@given(triples, triples)
@pytest.mark.kernels
def test_compare_follows_the_rules_order(a: tuple[int, int, int], b: tuple[int, int, int]) -> None:
    ka, kb = _key(a), _key(b)
    assert compare(list(a), list(b)) == (ka > kb) - (ka < kb)
    assert compare(list(b), list(a)) == -compare(list(a), list(b))


@pytest.mark.kernels
def test_compare_accepts_hand_values() -> None:
    a, b = evaluate("Kh Qs 9d"), evaluate("9c 9d 9h")
    assert compare(a, b) == 1 and compare(b, "Kh Qs 9d") == -1 and compare(a, a) == 0
    assert evaluate(a) == a


@pytest.mark.kernels
def test_a_forged_hand_value_is_evaluated_again_from_its_cards() -> None:
    import dataclasses

    real = evaluate("9c 9d 9h")
    with pytest.raises(ValueError, match="is not the value of 9c 9d 9h: rank 21, pair plus three of a kind"):
        dataclasses.replace(real, rank=30, pair_plus=PairPlus.STRAIGHT_FLUSH)
    with pytest.raises(ValueError, match="three cards"):
        HandValue((real.cards[0],), 21, PairPlus.THREE_OF_A_KIND)  # type: ignore[arg-type]
    forged = evaluate("9c 9d 9h")
    object.__setattr__(forged, "rank", 30)  # past every check: only evaluate's re-derivation is left
    object.__setattr__(forged, "pair_plus", 6)
    assert "rank=30" in repr(forged)
    assert evaluate(forged) == real
    assert compare(forged, "Kh Qs 9d") == -1


@pytest.mark.kernels
def test_hand_value_repr_and_fields() -> None:
    hand = evaluate("Jc Qd Kh")
    assert isinstance(hand, HandValue)
    assert hand.cards == (Card(40), Card(45), Card(50))
    assert repr(hand) == "HandValue(cards='Jc Qd Kh', label='3P', rank=30, pair_plus='straight')"


@pytest.mark.parametrize(
    ("bad", "error", "match"),
    [
        ("Kh Qs", ValueError, "three cards, got 2: Kh Qs"),
        ("Kh Qs 9d 9c", ValueError, "three cards, got 4"),
        ("Kh Qs 1d", ValueError, "'1d' is not a card"),
        ([50, 47, 52], ValueError, "card code 52"),
        ([50, 47, -1], ValueError, "card code -1"),
        ([50, 47, 3.0], TypeError, "3.0"),
        (None, TypeError, "None"),
    ],
)
@pytest.mark.kernels
def test_bad_hands(bad: object, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        evaluate(bad)  # type: ignore[arg-type]
    with pytest.raises(error, match=match):
        compare("Kh Qs 9d", bad)  # type: ignore[arg-type]
    with pytest.raises(error, match=match):
        hand_cards(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [52, -1, 255, 2**40])
@pytest.mark.kernels
def test_scalar_kernels_check_codes(impl: object, bad: int) -> None:
    tables = _kernels.lookups(tables_for(DEFAULT_RANKING))
    for kernel in (functools.partial(impl.rank3, tables), functools.partial(impl.class3, tables),  # type: ignore[attr-defined]
                   impl.pair_plus3):  # type: ignore[attr-defined]
        with pytest.raises((ValueError, OverflowError), match=str(bad)):
            kernel(1, bad, 2)


# --- one answer to "which hand wins": values carry their ranking -------------------------

rankings = st.sampled_from(RANKINGS)


@given(rankings, triples, triples)
@pytest.mark.kernels
def test_compare_and_compare_batch_agree_with_the_operators(
    ranking: Ranking, a: tuple[int, int, int], b: tuple[int, int, int],
) -> None:
    """Two values of one ranking: ``compare`` (without ``rules=``, with it, and with one side
    given as its cards) and ``compare_batch`` say what the operators say."""
    va, vb = evaluate(list(a), ranking), evaluate(list(b), ranking)
    by_operators = (va > vb) - (va < vb)
    assert (va >= vb) - (va <= vb) == by_operators
    assert compare(va, vb) == by_operators
    assert compare(va, vb, rules=ranking) == by_operators
    assert compare(va, list(b)) == by_operators and compare(list(a), vb) == by_operators
    assert compare(list(a), list(b), rules=ranking) == by_operators
    assert compare_batch(va, vb).tolist() == [by_operators]
    assert compare_batch([a], vb).tolist() == [by_operators] and compare_batch(va, [b]).tolist() == [by_operators]
    assert compare_batch([a], [b], rules=ranking).tolist() == [by_operators]
    assert evaluate(va) == va and evaluate(va).ranking == ranking


def _operator_error(a: HandValue, b: HandValue) -> str:
    """The operators' message for two values of two rankings (the one the others must give)."""
    with pytest.raises(TypeError) as caught:
        a < b  # noqa: B015
    return str(caught.value)


@pytest.mark.kernels
def test_values_of_two_rankings_are_refused_everywhere() -> None:
    import heapq

    chinese, macau = evaluate("Kh Kd Ks", "chinese"), evaluate("Qh Qd Qs", "macau")
    message = _operator_error(chinese, macau)
    assert repr(chinese.ranking) in message and repr(macau.ranking) in message
    for call in (lambda: compare(chinese, macau), lambda: compare_batch(chinese, macau),
                 lambda: compare(chinese, macau, rules=None), lambda: compare_batch(chinese, macau, workers=2)):
        with pytest.raises(TypeError) as caught:
            call()
        assert str(caught.value) == message
    with pytest.raises(TypeError) as caught:
        compare(macau, chinese)
    assert str(caught.value) == _operator_error(macau, chinese)  # the hands' order, whichever side
    table = [evaluate("2c 3d 4h"), macau, evaluate("9c 9d 9h"), chinese, evaluate("5c 5d 8s")]
    for order in (sorted, max, min, heapq.heapify, lambda t: heapq.nlargest(2, t), lambda t: heapq.nsmallest(2, t)):
        with pytest.raises(TypeError, match="cannot order hands of two rankings"):
            order(list(table))
    assert chinese != macau and evaluate("Kh Kd Ks") != chinese and len({chinese, evaluate("Kh Kd Ks")}) == 2


@pytest.mark.kernels
def test_rules_of_another_ranking_than_a_value_is_refused() -> None:
    """``rules=`` naming the value's own ranking is accepted (and changes nothing); naming
    another is refused, naming both, rather than ranking the value's cards again."""
    value = evaluate("5c Jd Kh", "san_gong")
    other = "Qs Jc 5d"
    assert compare(value, other, rules="san_gong") == compare(value, evaluate(other, "san_gong"))
    default = repr(ranking_of(None))
    for call in (lambda: compare(value, other, rules="macau"), lambda: compare(other, value, rules=ranking_of(None)),
                 lambda: compare_batch([[0, 1, 2]], value, rules="macau"), lambda: evaluate(value, "macau")):
        with pytest.raises(TypeError) as caught:
            call()
        assert str(caught.value).startswith(f"cannot order hands of two rankings: {value.ranking!r} and {default}")
    assert compare(value.cards, other, rules="macau") == compare(evaluate(value.cards, "macau"), other)


@pytest.mark.kernels
def test_a_value_with_a_forged_ranking_is_refused() -> None:
    value = evaluate("Kh Qs 9d")
    object.__setattr__(value, "ranking", "chinese")
    for call in (lambda: compare(value, "9c 9d 9h"), lambda: compare_batch(value, "9c 9d 9h"), lambda: evaluate(value)):
        with pytest.raises(TypeError, match="ranking: expected a Ranking, not str"):
            call()
