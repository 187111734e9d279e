"""The shoe evaluator: exact EVs of an unseen composition, against ``analyze``.

``analyze`` counts pairs of hands by a different method (for each first hand, the ways
to draw every second hand from what it leaves; checked elsewhere against a card-by-card
enumeration), so the two agreeing in Fractions on random depleted shoes is the proof
the issue asks for.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

import sanggong
from sanggong import PRESETS, analyze, composition, settle
from sanggong.ranking import Ranking
from sanggong.rules import RuleSet
from sanggong.shoe import ShoeEvaluator, shoe_terms


def _depleted(rng: np.random.Generator, decks: int, left: int) -> np.ndarray:
    """A shoe of ``decks`` decks with all but ``left`` cards drawn at random."""
    cards = np.repeat(np.arange(52), decks)
    keep = rng.choice(len(cards), size=left, replace=False)
    return np.bincount(cards[keep], minlength=52).astype(np.int64)


def _check(rules: RuleSet, counts: np.ndarray) -> None:
    evaluator = ShoeEvaluator(rules, counts)
    table = analyze(rules, counts)
    got = evaluator.evs()
    assert set(got) == set(rules.bets)
    for bet in rules.bets:
        assert got[bet] == table[bet].ev_exact, bet


@pytest.mark.parametrize("name", ["macau", "online", "nagaworld", "genting_no_commission", "prosperity"])
@pytest.mark.parametrize("decks", [1, 2, 5, 8])
@pytest.mark.kernels
def test_equals_analyze_on_depleted_shoes(impl, name: str, decks: int) -> None:
    rng = np.random.default_rng([decks, len(name)])
    rules = PRESETS[name].replace(decks=decks)
    sizes = [52 * decks, 52 * decks - 1] + sorted(rng.integers(6, 52 * decks, size=2 if impl.IMPLEMENTATION == "cython" else 1))
    for left in sizes:
        _check(rules, _depleted(rng, decks, int(left)))


@pytest.mark.parametrize("name", ["san_gong", "chinese"])
@pytest.mark.parametrize("decks", [1, 2, 8])
@pytest.mark.kernels
def test_suit_rankings_equal_analyze(impl, name: str, decks: int) -> None:
    """Suit tie-breaks: the kernel's six-card multisets and tie terms against analyze's
    pairs of hands (checked card by card in test_analysis), full and depleted shoes."""
    rng = np.random.default_rng([decks, len(name), 7])
    rules = PRESETS[name].replace(decks=decks)
    for left in (52 * decks, int(rng.integers(6, 52 * decks))):
        _check(rules, _depleted(rng, decks, left))


@pytest.mark.parametrize("ranking", [
    Ranking(order="points_faces", high_card="rank_suit"),
    Ranking(order="faces_points", tiers=("three_threes", "face_trips", "trips", "three_faces"), high_card="rank_suit"),
    Ranking(order="points", tiers=("trips",), high_card="rank_suit"),
], ids=repr)
@pytest.mark.kernels
def test_suit_rankings_of_a_macau_table_equal_analyze(impl, ranking: Ranking) -> None:
    """Win (less commission), Tie and the banker's bets of a shoe whose ranking breaks ties
    by suit: every outcome's net differs, so each tie term counts."""
    rng = np.random.default_rng(13)
    rules = PRESETS["macau"].replace(decks=3, ranking=ranking)
    _check(rules, _depleted(rng, 3, 120))
    _check(rules, _depleted(rng, 3, 19))


@pytest.mark.parametrize("name", ["macau", "san_gong", "online"])
def test_the_core_sums_in_64_or_128_bits_as_the_reference(name: str) -> None:
    """An 8-deck shoe's sums fit 64 bits (the core's narrow loop); a 64-deck shoe's weights
    sum to C(3,328, 6) > 2**60, times values of 2 and more: its sums go in 128. Both equal
    the reference's Python integers."""
    import sanggong._core as core
    from sanggong._kernels import twin as ref

    rules = PRESETS[name]
    terms = shoe_terms(rules, tuple(rules.bets))
    rng = np.random.default_rng(17)
    for decks in (8, 64):
        for counts in (composition(decks), _depleted(rng, decks, 52 * decks - 100)):
            assert core.ShoeKernel(terms, counts.tolist()).numerators() == ref.ShoeKernel(terms, counts.tolist()).numerators()
    assert ShoeEvaluator(rules.replace(decks=64)).evs() == {b: t.ev_exact for b, t in analyze(rules.replace(decks=64)).bets.items()}


@pytest.mark.parametrize("ranking", [
    Ranking(order="points"),
    Ranking(order="faces_points", tiers=("three_threes", "face_trips", "trips", "three_faces")),
    Ranking(high_card="rank"),  # 13 kinds
])
@pytest.mark.kernels
def test_other_rankings_equal_analyze(impl, ranking: Ranking) -> None:
    rng = np.random.default_rng(11)
    rules = PRESETS["macau"].replace(decks=3, ranking=ranking)
    _check(rules, _depleted(rng, 3, 100))


@pytest.mark.kernels
def test_small_shoe_against_every_deal(impl) -> None:
    """An independent count: every ordered (position, banker) pair of disjoint hands of
    an 8-card shoe, settled by ``settle``, averaged."""
    rules = PRESETS["macau"].replace(decks=1, positions=1)
    cards = ["Ah", "5d", "9c", "Ts", "Jh", "Qd", "Kc", "Kh"]
    counts = composition(1) * 0
    for card in sanggong.parse_cards(" ".join(cards)):
        counts[card.code] += 1
    bets = ("win:1", "tie:1", "odd", "three_faces", "point:0")
    total = {b: Fraction(0) for b in bets}
    n = 0
    for pos in itertools.permutations(cards, 3):
        rest = [c for c in cards if c not in pos]
        for banker in itertools.permutations(rest, 3):
            n += 1
            result = settle(rules, banker=banker, hands={1: pos}, bets={b: Fraction(1) for b in bets})
            for b in bets:
                r = result[b]
                total[b] += Fraction(r.returned) + Fraction(r.carried) - 1
    got = ShoeEvaluator(rules, counts, bets=bets).evs()
    assert got == {b: total[b] / n for b in bets}


@pytest.mark.kernels
def test_remove_and_add_follow_the_shoe(impl) -> None:
    rules = PRESETS["macau"]
    shoe = ShoeEvaluator(rules)
    fresh = shoe.evs()
    shoe.remove("Kh Kh Qs 9d 9d 9d Ac")
    assert shoe.cards == 416 - 7
    assert shoe.evs() == ShoeEvaluator(rules, composition(8, "Kh Kh Qs 9d 9d 9d Ac")).evs()
    shoe.add("Ac 9d 9d 9d Qs Kh Kh")
    assert shoe.evs() == fresh and shoe.cards == 416


@pytest.mark.kernels
def test_bad_input_is_refused_whole(impl) -> None:
    shoe = ShoeEvaluator(PRESETS["macau"].replace(decks=1))
    with pytest.raises(ValueError, match="cannot remove Kh"):
        shoe.remove("Ah Kh Kh")
    assert shoe.cards == 52  # nothing was removed
    with pytest.raises(ValueError, match="cannot add As"):
        shoe.add("As")
    with pytest.raises(ValueError):
        shoe.remove("Xx")
    with pytest.raises(ValueError, match="unknown bet|does not offer|offers"):
        ShoeEvaluator(PRESETS["macau"], bets=["pair_plus:1"])
    with pytest.raises(ValueError, match="twice"):
        ShoeEvaluator(PRESETS["macau"], bets=["odd", "odd"])
    with pytest.raises(TypeError):
        ShoeEvaluator(PRESETS["macau"], bets="odd")
    with pytest.raises(TypeError):
        ShoeEvaluator(3)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        ShoeEvaluator(PRESETS["macau"], np.full(52, 65))
    with pytest.raises(TypeError):
        ShoeEvaluator(PRESETS["macau"], np.full(52, 1.0))
    small = ShoeEvaluator(PRESETS["macau"], composition(1) * 0 + (np.arange(52) < 7))
    small.remove("Ah As")
    with pytest.raises(ValueError, match="6 cards"):
        small.evs()


@pytest.mark.kernels
def test_the_kernel_refuses_a_forged_terms(impl) -> None:
    terms = shoe_terms(PRESETS["macau"], ("win:1", "odd"))
    bad = np.array(terms.single_idx)
    bad[0, 0] = 8 * 11 + 3  # past the padding entry
    forged = type(terms)(**{**terms.__dict__, "single_idx": bad})
    with pytest.raises(ValueError):
        impl.ShoeKernel(forged, [1] * 52)
    with pytest.raises(ValueError):
        impl.ShoeKernel(terms, [1] * 51)
    kernel = impl.ShoeKernel(terms, [0] * 52)
    with pytest.raises(ValueError):
        kernel.remove(3)
    with pytest.raises(ValueError):
        kernel.add(52)


def _forged(terms, **changes):  # type: ignore[no-untyped-def]
    return type(terms)(**{**terms.__dict__, **changes})


@pytest.mark.kernels
def test_the_kernel_refuses_forged_tie_terms(impl) -> None:
    """A suit ranking's terms: its tie entries only with the suit order (and then the 13
    ranks as kinds), a multiset given twice (its weights would pass the sums' bound), a
    suit order that is not the four suits."""
    terms = shoe_terms(PRESETS["san_gong"], ("dragon", "tie"))
    assert len(terms.suit_order) == 4 and len(terms.pairs_idx) > 18_564  # tie terms beside the six-card multisets
    impl.ShoeKernel(terms, [1] * 52)  # as made: accepted
    no_order = _forged(terms, suit_order=np.zeros(0, dtype=np.uint8))
    twice = _forged(terms, pairs_idx=np.concatenate([terms.pairs_idx, terms.pairs_idx[-1:]]),
                    pairs_values=np.concatenate([terms.pairs_values, terms.pairs_values[-1:]]))
    bad_order = _forged(terms, suit_order=np.array([1, 0, 2, 2], dtype=np.uint8))
    other_fold = _forged(terms, fold=np.array(terms.fold[::-1]))
    for forged in (no_order, twice, bad_order, other_fold):
        with pytest.raises(ValueError):
            impl.ShoeKernel(forged, [1] * 52)


@pytest.mark.kernels
def test_the_kernel_refuses_forged_pair_plus_terms(impl) -> None:
    """Pair Plus's rows are rank multisets (past the cards' binomials) or three cards of one
    suit: a row that mixes the two, or names a rank past the 13, is refused."""
    terms = shoe_terms(PRESETS["online"], ("pair_plus:1",))
    idx = np.array(terms.cards_idx)
    ranks_at = 52 * 8 + 1
    assert (idx >= ranks_at).all(axis=1).any() and (idx < ranks_at).all(axis=1).any()  # both kinds of row
    impl.ShoeKernel(terms, [1] * 52)
    rank_row = int(np.flatnonzero((idx >= ranks_at).all(axis=1) & (idx % 8 != 0).all(axis=1))[0])
    mixed = idx.copy()
    mixed[rank_row, 0] = 8 * 51 + 1  # a king of spades beside two rank entries
    past = idx.copy()
    past[rank_row, 0] = ranks_at + 8 * 13 + 1
    for forged in (mixed, past):
        with pytest.raises(ValueError):
            impl.ShoeKernel(_forged(terms, cards_idx=forged), [1] * 52)


def test_the_core_refuses_tie_values_beyond_its_bound() -> None:
    """With tie terms the weights may sum to 2**6 times C(n, 6): values below 2**59 keep
    the 128-bit sums exact, and shoe_terms sends terms beyond it to the reference."""
    import sanggong._core as core
    from sanggong._kernels import twin as ref

    terms = shoe_terms(PRESETS["san_gong"], ("dragon",))
    values = np.array(terms.pairs_values)
    values[0, 0] = 2**59
    forged = _forged(terms, pairs_values=values)
    with pytest.raises(ValueError, match="2\\*\\*59"):
        core.ShoeKernel(forged, [1] * 52)
    assert ref.ShoeKernel(forged, [1] * 52).numerators()[0] == ref.ShoeKernel(terms, [1] * 52).numerators()[0] + (
        2**59 - int(terms.pairs_values[0, 0])) * _ways_of(terms.pairs_idx[0], [1] * 52)


def _ways_of(row: np.ndarray, counts: list[int]) -> int:
    """The ways of one row of the terms for a composition: C(c_k, m) for each kind's entry, or the
    tie entry's E_t(a, b) from suit_split (13-kind terms)."""
    import math

    import sanggong._spec as ref

    ways = 1
    for e in (int(x) for x in row):
        if e < 8 * 13:
            ways *= math.comb(sum(counts[4 * (e // 8): 4 * (e // 8) + 4]), e % 8)
        elif e > 8 * 13:
            t, a, b = (e - 8 * 13 - 1) // 16, (e - 8 * 13 - 1) // 4 % 4, (e - 8 * 13 - 1) % 4
            by_strength = [counts[4 * t + s] for s in np.argsort(ref.SUIT_STRENGTH)]
            ways *= ref.suit_split(by_strength, a, b)[2]
    return ways


@pytest.mark.kernels
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_float_evs_are_the_exact_evs_correctly_rounded(preset: str) -> None:
    """float_evs (for statistics) is evs' Fractions, each rounded to the nearest float, on a
    full shoe and on one with cards seen."""
    ev = ShoeEvaluator(preset)
    for seen in ("", "As Ac 5d 9h Kd Qs 7c 7d Th"):
        ev.remove(seen)
        exact = ev.evs()
        assert ev.float_evs() == {name: float(value) for name, value in exact.items()}


def _rounds(rng: np.random.Generator, decks: int, rounds: int) -> tuple[np.ndarray, np.ndarray]:
    """A shoe's cards in a random order cut into ``rounds`` rounds of 0 to 21 cards."""
    order = rng.permutation(np.repeat(np.arange(52), decks)).astype(np.uint8)
    ends = np.minimum(np.cumsum(rng.integers(0, 22, size=rounds)), len(order)).astype(np.int64)
    return order[: int(ends[-1])], ends


def _one_at_a_time(kernel, cards: np.ndarray, ends: np.ndarray, with_pairs: bool) -> list[list[int]]:  # type: ignore[no-untyped-def]
    sums, start = [], 0
    for end in ends.tolist():
        sums.append(kernel.numerators(with_pairs))
        for code in cards[start:end].tolist():
            kernel.remove(code)
        start = end
    return sums


@pytest.mark.parametrize(("name", "decks"), [("macau", 8), ("san_gong", 2), ("online", 6), ("nagaworld", 1)])
@pytest.mark.parametrize("with_pairs", [True, False])
@pytest.mark.kernels
def test_the_kernel_batch_is_the_rounds_one_at_a_time(impl, name: str, decks: int, with_pairs: bool) -> None:
    """numerators_batch over a shoe's rounds equals numerators and remove round by round
    (the same implementation), and leaves the same unseen cards."""
    rules = PRESETS[name].replace(decks=decks)
    terms = shoe_terms(rules, tuple(rules.bets))
    rng = np.random.default_rng([decks, len(name)])
    cards, ends = _rounds(rng, decks, 11 if impl.IMPLEMENTATION == "cython" else 2)  # (a chunk of 8 and 3 after it)
    fresh = composition(decks).tolist()
    batch, alone = impl.ShoeKernel(terms, fresh), impl.ShoeKernel(terms, fresh)
    out = np.full((len(ends), len(terms.rows)), -1, dtype=np.int64)
    assert batch.numerators_batch(cards, ends, out, with_pairs) == len(ends)
    assert out.tolist() == _one_at_a_time(alone, cards, ends, with_pairs)
    assert batch.counts == alone.counts and batch.n_cards == alone.n_cards


@pytest.mark.parametrize("name", ["macau", "san_gong", "online"])
def test_the_core_batch_equals_the_twins(name: str) -> None:
    """The compiled numerators_batch against the pure-Python twin's, on whole shoes."""
    import sanggong._core as core
    from sanggong._kernels import twin as ref

    rules = PRESETS[name]
    terms = shoe_terms(rules, tuple(rules.bets))
    cards, ends = _rounds(np.random.default_rng(len(name)), rules.decks, 8)
    outs, kernels = [], []
    for module in (core, ref):
        kernel = module.ShoeKernel(terms, composition(rules.decks).tolist())
        out = np.zeros((len(ends), len(terms.rows)), dtype=np.int64)
        assert kernel.numerators_batch(cards, ends, out) == len(ends)
        outs.append(out.tolist())
        kernels.append(kernel)
    assert outs[0] == outs[1]
    assert kernels[0].counts == kernels[1].counts


@pytest.mark.kernels
def test_the_kernel_batch_stops_at_sums_beyond_64_bits(impl) -> None:
    """A 64-deck shoe's sums pass 64 bits: the batch stops at the first round whose sums
    do not fit (found here one round at a time, in Python integers), with the kernel at
    that round's unseen cards."""
    rules = PRESETS["macau"]
    terms = shoe_terms(rules, tuple(rules.bets))
    decks = 64
    rng = np.random.default_rng(5)
    order = rng.permutation(np.repeat(np.arange(52), decks)).astype(np.uint8)
    ends = np.array([400, 800, 1200, 2400, 3000], dtype=np.int64)  # big rounds: the sums come back within 64 bits
    cards = order[: int(ends[-1])]
    sums = _one_at_a_time(impl.ShoeKernel(terms, composition(decks).tolist()), cards, ends, True)
    fits = [all(-(2**63) <= v < 2**63 for v in row) for row in sums]
    assert not fits[0]
    first = fits.index(False)
    kernel = impl.ShoeKernel(terms, composition(decks).tolist())
    out = np.zeros((len(ends), len(terms.rows)), dtype=np.int64)
    assert kernel.numerators_batch(cards, ends, out) == first == 0
    assert kernel.numerators() == sums[0]
    later = impl.ShoeKernel(terms, composition(decks).tolist())
    for code in cards[: int(ends[2])].tolist():
        later.remove(code)
    tail = np.zeros((2, len(terms.rows)), dtype=np.int64)
    assert later.numerators_batch(cards[int(ends[2]):], ends[3:] - ends[2], tail) == (2 if all(fits[3:]) else
                                                                                     fits[3:].index(False))
    assert tail.tolist()[: sum(fits[3:])] == sums[3 : 3 + sum(fits[3:])]


@pytest.mark.kernels
def test_the_kernel_batch_refuses_what_it_cannot_do_and_changes_nothing(impl) -> None:
    terms = shoe_terms(PRESETS["macau"], ("win:1", "odd"))
    counts = [1] * 52
    kernel = impl.ShoeKernel(terms, counts)
    rows = len(terms.rows)
    cases = [
        (np.array([3, 3], np.uint8), np.array([2], np.int64), (1, rows)),  # a card not left (its second copy)
        (np.array([60], np.uint8), np.array([1], np.int64), (1, rows)),  # no such card
        (np.array([1, 2], np.uint8), np.array([2, 1], np.int64), (2, rows)),  # ends that fall
        (np.array([1, 2], np.uint8), np.array([3], np.int64), (1, rows)),  # past the cards
        (np.array([1, 2], np.uint8), np.array([2], np.int64), (2, rows)),  # out of the wrong shape
    ]
    for cards, ends, shape in cases:
        with pytest.raises(ValueError):
            kernel.numerators_batch(cards, ends, np.zeros(shape, np.int64))
        assert kernel.counts == counts
    assert kernel.numerators_batch(np.zeros(0, np.uint8), np.zeros(0, np.int64), np.zeros((0, rows), np.int64)) == 0


def _shoes(rng: np.random.Generator, decks: int, lengths: list[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Shoes of ``lengths`` rounds (_rounds' each), as numerators_shoes takes them: the
    cards one after the other, each shoe's ends counted from its first card, and its first
    round."""
    parts = [_rounds(rng, decks, n) for n in lengths]
    firsts = np.cumsum([0] + lengths[:-1]).astype(np.int64)
    return (np.concatenate([c for c, _ in parts]), np.concatenate([e for _, e in parts]), firsts)


@pytest.mark.parametrize(("name", "decks"), [("macau", 8), ("san_gong", 2), ("online", 6)])
@pytest.mark.kernels
def test_the_kernel_shoes_are_each_shoe_batched_from_the_same_cards(impl, name: str, decks: int) -> None:
    """numerators_shoes over several shoes equals numerators_batch shoe by shoe, each from
    the composition the kernel held at the call (shoes of 1 to 13 rounds: chunks of 8 and
    the rounds after them, and shoes of a round or two)."""
    rules = PRESETS[name].replace(decks=decks)
    terms = shoe_terms(rules, tuple(rules.bets))
    fresh = composition(decks).tolist()
    lengths = [5, 1, 13, 2, 9] if impl.IMPLEMENTATION == "cython" else [2, 1, 3]
    cards, ends, firsts = _shoes(np.random.default_rng([decks, 7]), decks, lengths)
    for with_pairs in (True, False):
        kernel = impl.ShoeKernel(terms, fresh)
        out = np.full((len(ends), len(terms.rows)), -1, dtype=np.int64)
        assert kernel.numerators_shoes(cards, ends, firsts, out, with_pairs) == len(ends)
        alone, expected, at = impl.ShoeKernel(terms, fresh), [], 0
        for j, first in enumerate(firsts.tolist()):
            last = int(firsts[j + 1]) if j + 1 < len(firsts) else len(ends)
            alone.set_counts(fresh)
            part = np.full((last - first, len(terms.rows)), -1, dtype=np.int64)
            assert alone.numerators_batch(cards[at:at + int(ends[last - 1])], ends[first:last], part,
                                          with_pairs) == last - first
            expected += part.tolist()
            at += int(ends[last - 1])
        assert out.tolist() == expected


def test_the_core_shoes_equal_the_twins() -> None:
    import sanggong._core as core
    from sanggong._kernels import twin as ref

    rules = PRESETS["macau"]
    terms = shoe_terms(rules, ("win:1", "tie:2", "odd", "point:0"))
    cards, ends, firsts = _shoes(np.random.default_rng(12), rules.decks, [3, 9, 1])
    outs = []
    for module in (core, ref):
        out = np.zeros((len(ends), len(terms.rows)), dtype=np.int64)
        kernel = module.ShoeKernel(terms, composition(rules.decks).tolist())
        assert kernel.numerators_shoes(cards, ends, firsts, out) == len(ends)
        outs.append(out.tolist())
    assert outs[0] == outs[1]


@pytest.mark.kernels
def test_the_kernel_shoes_stop_at_sums_beyond_64_bits(impl) -> None:
    """A 64-deck shoe after a 1-deck one: the call stops at the second shoe's first round
    (its sums pass 64 bits), with the first shoe's rows written."""
    rules = PRESETS["macau"]
    terms = shoe_terms(rules, ("win:1", "odd"))
    rng = np.random.default_rng(4)
    small = rng.permutation(np.arange(52)).astype(np.uint8)[:24]
    big = rng.permutation(np.repeat(np.arange(52), 64)).astype(np.uint8)[:24]
    counts = composition(64).tolist()
    cards, ends = np.concatenate([small, big]), np.array([12, 24, 24], dtype=np.int64)
    kernel = impl.ShoeKernel(terms, composition(1).tolist())
    out = np.zeros((3, len(terms.rows)), dtype=np.int64)
    assert kernel.numerators_shoes(cards[:24], ends[:2], np.array([0], np.int64), out[:2]) == 2
    kernel = impl.ShoeKernel(terms, counts)
    assert kernel.numerators_shoes(big, ends[2:], np.array([0], np.int64), out[2:]) == 0
    assert kernel.counts == counts  # (the first round's unseen cards: none removed)


@pytest.mark.kernels
def test_the_kernel_shoes_refuse_what_they_cannot_do_and_change_nothing(impl) -> None:
    terms = shoe_terms(PRESETS["macau"], ("win:1", "odd"))
    counts = [1] * 52
    kernel = impl.ShoeKernel(terms, counts)
    rows = len(terms.rows)
    one, two = np.array([0], np.int64), np.array([0, 1], np.int64)
    cases = [
        (np.array([3, 3], np.uint8), np.array([2], np.int64), one, (1, rows)),  # a card not left (its second copy)
        (np.array([3, 4, 3, 3], np.uint8), np.array([2, 2], np.int64), two, (2, rows)),  # the second shoe's
        (np.array([60], np.uint8), np.array([1], np.int64), one, (1, rows)),  # no such card
        (np.array([1, 2], np.uint8), np.array([2, 1], np.int64), one, (2, rows)),  # ends that fall
        (np.array([1, 2], np.uint8), np.array([1, 2], np.int64), two, (2, rows)),  # past the cards left
        (np.array([1, 2], np.uint8), np.array([2], np.int64), one, (2, rows)),  # out of the wrong shape
        (np.array([1, 2], np.uint8), np.array([1, 1], np.int64), np.array([1], np.int64), (2, rows)),  # not from 0
        (np.array([1, 2], np.uint8), np.array([1, 1], np.int64), np.array([0, 0], np.int64), (2, rows)),  # flat
        (np.array([1, 2], np.uint8), np.array([1, 1], np.int64), np.array([0, 2], np.int64), (2, rows)),  # past
        (np.array([1, 2], np.uint8), np.array([1], np.int64), np.zeros(0, np.int64), (1, rows)),  # no shoe
    ]
    for cards, ends, firsts, shape in cases:
        with pytest.raises(ValueError):
            kernel.numerators_shoes(cards, ends, firsts, np.zeros(shape, np.int64))
        assert kernel.counts == counts
    assert kernel.numerators_shoes(np.zeros(0, np.uint8), np.zeros(0, np.int64), np.zeros(0, np.int64),
                                   np.zeros((0, rows), np.int64)) == 0


@pytest.mark.parametrize("decks", [1, 8])
def test_every_kernel_of_the_sums_in_doubles_gives_the_integer_sums(decks: int) -> None:
    """numerators_batch's chunks in doubles by each kernel this CPU runs (baseline, AVX2)
    against the rounds one at a time in integers (sg_multiset_dot), on Macau's terms with
    every bet and on one of a row a part."""
    import sanggong._core as core

    rules = PRESETS["macau"].replace(decks=decks)
    before = core._use_dot_kernel(None)
    try:
        for bets in (tuple(rules.bets), ("win:1", "odd")):
            terms = shoe_terms(rules, bets)
            cards, ends = _rounds(np.random.default_rng([decks, len(bets)]), decks, 11)
            expected = _one_at_a_time(core.ShoeKernel(terms, composition(decks).tolist()), cards, ends, True)
            for name in core._dot_kernels():
                core._use_dot_kernel(name)
                out = np.zeros((len(ends), len(terms.rows)), dtype=np.int64)
                kernel = core.ShoeKernel(terms, composition(decks).tolist())
                assert kernel.numerators_batch(cards, ends, out) == len(ends)
                assert out.tolist() == expected, name
    finally:
        core._use_dot_kernel(before)
    with pytest.raises(ValueError, match="not available"):
        core._use_dot_kernel("sse9")


def test_the_core_batches_read_copies_of_their_inputs() -> None:
    """``out`` laid over ``ends`` or ``cards`` (or anything else changing them during the
    call): the kernel reads the inputs it checked, and gives what separate arrays give; no
    input may be None."""
    import sanggong._core as core

    rules = PRESETS["macau"]
    terms = shoe_terms(rules, tuple(rules.bets))
    rows, fresh = len(terms.rows), composition(rules.decks).tolist()
    cards, ends = _rounds(np.random.default_rng(17), rules.decks, 12)
    expected = np.zeros((len(ends), rows), np.int64)
    assert core.ShoeKernel(terms, fresh).numerators_batch(cards, ends, expected) == len(ends)
    for what in ("ends", "cards"):
        for shoes in (False, True):
            out = np.zeros((len(ends), rows), np.int64)
            if what == "ends":
                laid = out.ravel()[: len(ends)]
                laid[:] = ends
                args = (cards, laid)
            else:
                laid = out.view(np.uint8).ravel()[: len(cards)]
                laid[:] = cards
                args = (laid, ends)
            kernel = core.ShoeKernel(terms, fresh)
            done = kernel.numerators_shoes(*args, np.array([0], np.int64), out) if shoes else \
                kernel.numerators_batch(*args, out)
            assert done == len(ends) and out.tolist() == expected.tolist(), (what, shoes)
    kernel = core.ShoeKernel(terms, fresh)
    for args in ((None, ends, np.array([0], np.int64)), (cards, None, np.array([0], np.int64)),
                 (cards, ends, None)):
        with pytest.raises(TypeError):
            kernel.numerators_shoes(*args, np.zeros((len(ends), rows), np.int64))
    with pytest.raises(TypeError):
        kernel.numerators_batch(None, ends, np.zeros((len(ends), rows), np.int64))


# --- the EVs from the sums (shoe._ev), and many shoes' rounds at once (ShoeRounds) ---------------


def _every_deal(rules: RuleSet, cards: list[str], bets: tuple[str, ...]) -> tuple[int, int, dict[str, Fraction]]:
    """An independent count: every (position 1, banker) pair of disjoint hands of ``cards``
    (a card given twice is two cards), settled by ``settle``: how many pairs, how many
    banker hands, and each bet's mean net per unit."""
    total = {b: Fraction(0) for b in bets}
    pairs = 0
    for pos in itertools.combinations(range(len(cards)), 3):
        rest = [i for i in range(len(cards)) if i not in pos]
        for banker in itertools.combinations(rest, 3):
            pairs += 1
            result = settle(rules, banker=[cards[i] for i in banker], hands={1: [cards[i] for i in pos]},
                            bets={b: Fraction(1) for b in bets})
            for b in bets:
                r = result[b]
                total[b] += Fraction(r.returned) + Fraction(r.carried) - 1
    hands = len(list(itertools.combinations(range(len(cards)), 3)))
    return pairs, hands, {b: total[b] / pairs for b in bets}


# A small shoe of each part: Win and Tie (a position against the banker), the banker's
# Odd, Point and Three Faces (one hand), Pair Plus (one hand, by suits too).
SMALL_SHOES = [
    ("macau", 2, ("win:1", "tie:1", "odd", "point:3", "three_faces"),
     ["Ah", "Ah", "5d", "9c", "Ts", "Jh", "Qd", "Kc", "Kc"], [1, 3]),
    ("online", 1, ("win:1", "tie:1", "three_faces:1", "pair_plus:1", "pair_plus:banker"),
     ["Ah", "2h", "3h", "Kh", "Kd", "Ks", "9c", "Tc", "Jc"], [2, 3]),
]


@pytest.mark.parametrize(("name", "decks", "bets", "cards", "rounds"), SMALL_SHOES, ids=[s[0] for s in SMALL_SHOES])
def test_the_evs_from_the_sums_are_every_deals_mean(name: str, decks: int, bets: tuple[str, ...], cards: list[str],
                                                     rounds: list[int]) -> None:
    """shoe._ev against every deal of small shoes settled one by one: its counts are the
    deals counted, its Fractions their mean nets, its floats those rounded; and round by
    round as the shoe is dealt (``round_floats``: ``rounds`` cards removed each time)."""
    from sanggong._kernels import shoe_kernel
    from sanggong.shoe import PAIRS, _ev, part_count

    rules = PRESETS[name].replace(decks=decks)
    terms = shoe_terms(rules, bets)
    codes = [c.code for c in sanggong.parse_cards(" ".join(cards))]
    kernel = shoe_kernel(terms, np.bincount(codes, minlength=52).tolist())
    n = len(cards)
    pairs, hands, want = _every_deal(rules, cards, bets)
    assert (part_count(PAIRS, n), part_count(PAIRS + 1, n)) == (pairs, hands)
    assert _ev.counts(terms.rows, n) == [row.denominator * (pairs if row.part == PAIRS else hands)
                                        for row in terms.rows]
    sums = kernel.numerators()
    exact = _ev.exact(sums, terms.rows, n)
    floats = _ev.floats(sums, terms.rows, n)
    assert {b: exact[terms.bet_row[j]] for j, b in enumerate(bets)} == want
    assert {b: floats[terms.bet_row[j]] for j, b in enumerate(bets)} == {b: float(v) for b, v in want.items()}
    ends = np.cumsum(rounds, dtype=np.int64)
    out = np.empty((len(ends), len(terms.rows)), dtype=np.int64)
    assert kernel.numerators_batch(np.array(codes, dtype=np.uint8), ends, out) == len(ends)
    unseen = [n, *(n - int(e) for e in ends[:-1])]
    # (the whole shoe's count is ``want``, counted above: the same call)
    expected = [[float((want if u == n else _every_deal(rules, cards[n - u:], bets)[2])[b]) for b in bets]
                for u in unseen]
    rows = [terms.bet_row[j] for j in range(len(bets))]
    for given in (out[:, rows], out[:, rows].tolist()):  # (in doubles, and in Python's integers)
        got = _ev.round_floats(given, [terms.rows[r] for r in rows], unseen)
        assert got.shape == (len(unseen), len(bets)) and got.tolist() == expected


def test_the_evs_divided_in_doubles_are_pythons_integer_quotients() -> None:
    """round_floats' doubles against Python's division of the integers (correctly rounded,
    written out here), where every sum and count is a double; and where a sum or a count
    passes 2**53 (then divided in Python's integers)."""
    import math

    from sanggong.shoe import _ev
    from sanggong.shoe._terms import CARDS, PAIRS, SINGLE, Row

    rows = [Row(part=PAIRS, denominator=20, kind="win"), Row(part=SINGLE, denominator=3, kind="odd"),
            Row(part=CARDS, denominator=1, kind="pair_plus")]
    count = {PAIRS: lambda n: math.comb(n, 3) * math.comb(n - 3, 3), SINGLE: lambda n: math.comb(n, 3),
             CARDS: lambda n: math.comb(n, 3)}

    def quotients(sums: np.ndarray, unseen: list[int]) -> list[list[float]]:
        return [[int(sums[k, j]) / (row.denominator * count[row.part](n)) for j, row in enumerate(rows)]
                for k, n in enumerate(unseen)]

    rng = np.random.default_rng(11)
    unseen = [416, 395, 374, 353, 7, 6]
    sums = rng.integers(-(2**53), 2**53, size=(len(unseen), 3), dtype=np.int64)
    assert _ev._in_doubles(sums, rows, np.array(unseen)) is not None
    assert _ev.round_floats(sums, rows, unseen).tolist() == quotients(sums, unseen)
    sums[2, 1] = 2**53 + 2  # a sum beyond
    assert _ev._in_doubles(sums, rows, np.array(unseen)) is None
    assert _ev.round_floats(sums, rows, unseen).tolist() == quotients(sums, unseen)
    sums[2, 1] = 1
    big = [5000] * len(unseen)  # C(5000, 3)**2 > 2**53: counts beyond
    assert _ev._in_doubles(sums, rows, np.array(big)) is None
    assert _ev.round_floats(sums, rows, big).tolist() == quotients(sums, big)


@pytest.mark.parametrize("decks", [2, 64])
@pytest.mark.kernels
def test_shoe_rounds_are_the_evaluators_floats_round_by_round(impl, decks: int) -> None:
    """ShoeRounds' EVs of three shoes' rounds at once are ShoeEvaluator.float_evs read
    round by round, to the last bit: in one kernel call (2 decks), and a shoe at a time
    where the sums pass 64 bits (64 decks); a second batch staking another bet too."""
    from sanggong.shoe import ShoeRounds

    rules = PRESETS["macau"].replace(decks=decks)
    rng = np.random.default_rng(decks)
    rounds = ShoeRounds(rules)
    for bets in (["odd", "win:1"], ["point:0", "tie:2", "win:1"]):
        codes, ends, firsts = bytearray(), [], []
        expected = []
        for length in (3, 1, 4):
            shoe = rng.permutation(np.repeat(np.arange(52, dtype=np.uint8), decks))
            firsts.append(len(ends))
            evaluator, start = ShoeEvaluator(rules, bets=bets), 0
            for _ in range(length):
                now = evaluator.float_evs()
                expected.append([now[b] for b in bets])
                end = start + int(rng.integers(6, 22))
                evaluator.remove([sanggong.Card(int(c)) for c in shoe[start:end]])
                ends.append(end)
                start = end
            codes += shoe[:start].tobytes()
        task = rounds.start(bets, bytes(codes), np.array(ends, dtype=np.int64), np.array(firsts, dtype=np.int64))
        found = task()
        assert (found.done < len(ends)) == (decks == 64)
        assert rounds.float_evs(found).tolist() == expected


@pytest.mark.kernels
def test_shoe_rounds_refuse_a_shoe_as_the_evaluator_reads_it(impl) -> None:
    """A card a shoe no longer holds, or a round dealt from fewer than 6 cards: ShoeRounds
    and check_rounds raise the ValueError a ShoeEvaluator raises reading the rounds one by
    one (the first round's error that it meets), and check_rounds passes a shoe it reads."""
    from sanggong.shoe import ShoeRounds, check_rounds

    rules = PRESETS["macau"].replace(decks=1)
    deck = [sanggong.Card(c) for c in np.random.default_rng(3).permutation(52).tolist()]

    def read(rounds: list[list[sanggong.Card]]) -> str:
        evaluator = ShoeEvaluator(rules)
        with pytest.raises(ValueError) as caught:
            for cards in rounds:
                evaluator.float_evs()
                evaluator.remove(cards)
        return str(caught.value)

    twice = [deck[:6], deck[6:12] + deck[:1], deck[20:26]]  # a card seen twice, in round 2
    short = [deck[:23], deck[23:47], deck[47:50]]  # 5 cards left before round 3
    for rounds in (twice, short):
        codes = b"".join(bytes(c.code for c in cards) for cards in rounds)
        ends = np.cumsum([len(cards) for cards in rounds]).tolist()
        message = read(rounds)
        with pytest.raises(ValueError) as caught:
            check_rounds(composition(1).tolist(), codes, ends)
        assert str(caught.value) == message
        batch = ShoeRounds(rules)
        task = batch.start(["odd"], codes, np.array(ends, dtype=np.int64), np.zeros(1, dtype=np.int64))
        with pytest.raises(ValueError) as caught:
            batch.float_evs(task())
        assert str(caught.value) == message
    check_rounds(composition(1).tolist(), bytes(c.code for c in deck[:46]), [23, 46])
