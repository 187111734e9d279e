"""Shuffling and dealing: bit-for-bit parity of the two implementations, the dealing
procedures of both rule sets, shoes and cut cards, games and their replays (``Replayer``,
``Resettler``), observed shoes. The records themselves and the verification of a log are
tested in test_records.py."""

from __future__ import annotations

import dataclasses
import json
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

import sanggong._kernels as _kernels
from sanggong import (
    MACAU,
    ONLINE,
    PRESETS,
    Card,
    Game,
    ObservedTable,
    RoundRecord,
    RuleSet,
    _core,
    _spec,
    limits,
)
from sanggong._kernels import twin as _pykernels
from sanggong.dealing import Replayer, Resettler, assign, first_hand

PARITY_BIT_GENERATORS = [np.random.PCG64, np.random.PCG64DXSM, np.random.Philox, np.random.SFC64]


# --- the random numbers ------------------------------------------------------------------


@pytest.mark.parametrize("bit_generator", PARITY_BIT_GENERATORS, ids=lambda b: b.__name__)
def test_compiled_and_reference_draw_the_same_cards(bit_generator: type) -> None:
    """Compares the two implementations directly (so it runs once)."""
    a, b = bit_generator(2026), bit_generator(2026)
    fresh_a, fresh_b = np.empty((500, 13), np.uint8), np.empty((500, 13), np.uint8)
    _core.deal_fresh_batch(a, 1, fresh_a)
    _pykernels.deal_fresh_batch(b, 1, fresh_b)
    assert (fresh_a == fresh_b).all()
    shoe_a = np.arange(416, dtype=np.uint8) % 52
    shoe_b = shoe_a.copy()
    out_a, out_b = np.empty(416, np.uint8), np.empty(416, np.uint8)
    _core.draw(a, shoe_a, 0, 416, out_a)
    _pykernels.draw(b, shoe_b, 0, 416, out_b)
    assert (out_a == out_b).all() and (shoe_a == shoe_b).all()
    for n in (1, 2, 3, 7, 52, 2**32 + 1, 2**63 + 5, 2**64 - 1):
        assert _core.bounded(a, n) == _pykernels.bounded(b, n)
    assert a.random_raw() == b.random_raw()  # the same number of words was consumed


@pytest.mark.parametrize(("decks", "cards"), [(2, 13), (8, 30), (8, 416)])
def test_fresh_shoes_of_several_decks_agree(decks: int, cards: int) -> None:
    """Both ways the compiled core puts a fresh shoe back in order between rows."""
    a, b = np.random.PCG64(11), np.random.PCG64(11)
    rows_a, rows_b = np.empty((40, cards), np.uint8), np.empty((40, cards), np.uint8)
    _core.deal_fresh_batch(a, decks, rows_a)
    _pykernels.deal_fresh_batch(b, decks, rows_b)
    assert (rows_a == rows_b).all()
    assert (np.sort(rows_a, axis=1)[:, -1] < 52).all() and all(
        np.bincount(row, minlength=52).max() <= decks for row in rows_a)
    assert a.random_raw() == b.random_raw()


def _words_consumed(seed: int, after: np.random.PCG64, most: int) -> int:
    """How many 64-bit words a PCG64 seeded with ``seed`` gave before ``after``'s next."""
    following = int(after.random_raw())
    words = [int(w) for w in np.random.PCG64(seed).random_raw(most + 1)]
    return words.index(following)


def test_rejected_words_are_redrawn_alike() -> None:
    """An online round takes two words, one for the first nine cards (bounds 52 .. 44, a
    product P near 2**50) and one for the last four; a word is rejected with probability
    (2**64 mod P) / 2**64, one round in about 102,000, and this seed's rounds meet one.
    Both implementations must reject the same words."""
    seed, rows = 20, 30_000
    a, b = np.random.PCG64(seed), np.random.PCG64(seed)
    rows_a, rows_b = np.empty((rows, 13), np.uint8), np.empty((rows, 13), np.uint8)
    _core.deal_fresh_batch(a, 1, rows_a)
    _pykernels.deal_fresh_batch(b, 1, rows_b)
    assert (rows_a == rows_b).all()
    consumed = _words_consumed(seed, a, 2 * rows + 100)
    assert consumed > 2 * rows, "no word was rejected: choose another seed for this test"
    assert _words_consumed(seed, b, 2 * rows + 100) == consumed


@pytest.mark.kernels
def test_every_order_of_a_small_deck_is_equally_likely(impl: object) -> None:
    """Five cards drawn from five: one word gives all five numbers (a product of 120)."""
    rng = np.random.PCG64(8)
    counts: Counter[tuple[int, ...]] = Counter()
    out = np.empty(5, np.uint8)
    for _ in range(24_000):
        deck = np.arange(5, dtype=np.uint8)
        impl.draw(rng, deck, 0, 5, out)  # type: ignore[attr-defined]
        counts[tuple(int(c) for c in out)] += 1
    assert len(counts) == 120 and sum(counts.values()) == 24_000
    assert _chi_square(np.array(list(counts.values())), np.full(120, 200.0)) < chi_square_critical(119)


@pytest.mark.parametrize("seed", [0, 7, 2**70])
def test_games_are_identical_on_both_implementations(seed: int) -> None:
    """A whole Macau shoe and online rounds, dealt once with each implementation."""
    records = {}
    chosen = _kernels.kernels
    try:
        for module in (_core, _pykernels):
            _kernels.kernels = module
            macau, online = Game(MACAU, seed), Game(ONLINE, seed)
            records[module.IMPLEMENTATION] = (
                [macau.play({"win:1": 10}).to_dict() for _ in range(40)],
                [online.play({"pair_plus:banker": 10}).to_dict() for _ in range(40)],
            )
    finally:
        _kernels.kernels = chosen
    assert records["cython"] == records["python"]


@pytest.mark.kernels
def test_bounded_is_uniform(impl: object) -> None:
    rng = np.random.PCG64(3)
    draws = [impl.bounded(rng, 6) for _ in range(6000)]  # type: ignore[attr-defined]
    counts = np.bincount(draws, minlength=6)
    assert counts.sum() == 6000 and len(counts) == 6
    assert _chi_square(counts, np.full(6, 1000.0)) < chi_square_critical(5)
    assert impl.bounded(rng, 1) == 0  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda k: k.bounded(np.random.PCG64(1), 0), ValueError, "bound 0"),
        (lambda k: k.bounded(object(), 5), TypeError, "not a numpy BitGenerator"),
        (lambda k: k.draw(np.random.PCG64(1), np.zeros(52, np.uint8), 50, 5, np.zeros(5, np.uint8)),
         ValueError, "cannot draw 5 cards from position 50"),
        (lambda k: k.draw(np.random.PCG64(1), np.zeros(52, np.uint8), 0, 5, np.zeros(4, np.uint8)),
         ValueError, "out holds 4 cards"),
        (lambda k: k.deal_fresh_batch(np.random.PCG64(1), 0, np.zeros((2, 3), np.uint8)), ValueError, "decks"),
        (lambda k: k.deal_fresh_batch(np.random.PCG64(1), 1, np.zeros((2, 53), np.uint8)), ValueError, "53 cards"),
    ],
)
@pytest.mark.kernels
def test_random_kernels_check_their_arguments(impl: object, call: object, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):  # (both implementations: the same error)
        call(impl)  # type: ignore[operator]


# --- dealing procedures -----------------------------------------------------------------

# RULES.md section 3, as the online document's table lists it: head card -> first hand
# (0 the banker, i player i).
HEAD_CARD_TABLE = {"A": 0, "5": 0, "9": 0, "K": 0, "2": 1, "6": 1, "T": 1, "3": 2, "7": 2, "J": 2,
                   "4": 3, "8": 3, "Q": 3}


def test_head_card_table() -> None:
    """The head-card rule against the document's table (no kernels involved)."""
    for symbol, hand in HEAD_CARD_TABLE.items():
        for suit in "cdhs":
            assert first_hand(Card.parse(symbol + suit)) == hand


def test_online_dealing_order() -> None:
    cards = [Card(c) for c in range(13)]  # Ac (head), then 12 cards in order
    for symbol, first in HEAD_CARD_TABLE.items():
        head = Card.parse(symbol + "s")
        deal = assign(ONLINE, [head, *cards[1:]], 0)
        assert deal.head_card == head and deal.burned == (head,)
        cycle = [(first + k) % 4 for k in range(4)]  # banker -> P1 -> P2 -> P3 -> banker
        hands = {0: deal.banker, **deal.hands}
        for k, h in enumerate(cycle):
            assert hands[h] == tuple(cards[1 + 3 * k : 4 + 3 * k])
    unburned = ONLINE.replace(head_card_burned=False)
    deal = assign(unburned, cards[:12], 0)  # Ac: the banker first, the head card is its first card
    assert deal.burned == () and deal.banker == tuple(cards[:3])


def test_macau_dealing_order() -> None:
    rules = MACAU.replace(positions=3)
    cards = [Card(c) for c in range(1 + 12)]
    deal = assign(rules, cards, 1)
    assert deal.burned == (cards[0],)
    # one card at a time: position 1, 2, 3, then the banker, three times round
    assert deal.hands[1] == (cards[1], cards[5], cards[9])
    assert deal.hands[3] == (cards[3], cards[7], cards[11])
    assert deal.banker == (cards[4], cards[8], cards[12])
    three = assign(rules.replace(deal_one_at_a_time=False), cards, 1)
    assert three.hands[1] == tuple(cards[1:4]) and three.banker == tuple(cards[10:13])
    with pytest.raises(ValueError, match="takes 13 cards here, got 12"):
        assign(rules, cards[:12], 1)


@pytest.mark.kernels
def test_macau_shoe_burns_cut_card_and_reshuffles() -> None:
    game = Game(MACAU, seed=12)
    records = [game.play() for _ in range(80)]
    by_shoe: dict[int, list[RoundRecord]] = {}
    for r in records:
        by_shoe.setdefault(r.shoe, []).append(r)
    assert len(by_shoe) >= 4
    for _shoe, rounds in list(by_shoe.items())[:-1]:  # the complete shoes
        assert [r.round_in_shoe for r in rounds] == list(range(1, len(rounds) + 1))
        assert len(rounds[0].burned) == MACAU.decks  # as many burned as decks after a shuffle
        assert all(len(r.burned) == 1 for r in rounds[1:])  # then one before every round
        assert [r.last_of_shoe for r in rounds] == [False] * (len(rounds) - 1) + [True]
        cut = rounds[0].cut_card
        assert cut is not None and 30 <= cut <= 40 and all(r.cut_card == cut for r in rounds)
        dealt = 8 + 24 * len(rounds) + len(rounds) - 1
        assert 416 - cut < dealt <= 416 - cut + 25  # the cut card came out in the last round
        counts = Counter(c.code for r in rounds for c in [*r.burned, *r.banker.cards,
                                                          *(c for h in r.hands.values() for c in h.cards)])
        assert max(counts.values()) <= 8 and sum(counts.values()) == dealt


@pytest.mark.kernels
def test_single_deck_macau_is_fresh_every_round() -> None:
    game = Game(MACAU.replace(decks=1), seed=4)
    for record in (game.play() for _ in range(30)):
        cards = [*record.burned, *record.banker.cards, *(c for h in record.hands.values() for c in h.cards)]
        assert len(record.burned) == 1 and len(set(cards)) == len(cards) == 25
        assert record.round_in_shoe == 1 and record.last_of_shoe


# --- games and replays ---------------------------------------------------------------------


@pytest.mark.kernels
def test_same_seed_same_game_and_recall() -> None:
    a, b, c = Game(ONLINE, 99, recall=3), Game(ONLINE, 99), Game(ONLINE, 100)
    ra = [a.play().to_dict() for _ in range(5)]
    assert ra == [b.play().to_dict() for _ in range(5)]
    assert ra != [c.play().to_dict() for _ in range(5)]
    assert [r.round for r in a.records] == [3, 4, 5]
    unseeded = Game(ONLINE)
    assert isinstance(unseeded.seed, int)
    first = unseeded.play()
    assert Game.replay(ONLINE, unseeded.seed, 1) == first


@pytest.mark.parametrize("rules", [MACAU, ONLINE, MACAU.replace(decks=1, positions=4)], ids=["macau", "online", "one-deck"])
@pytest.mark.kernels
def test_records_round_trip_and_replay(rules: object) -> None:
    game = Game(rules, seed=31)  # type: ignore[arg-type]
    bets = {"win:1": 100, "tie:1": 10} if rules is not ONLINE else {"win:1": 100, "pair_plus:banker": 5}
    records = [game.play(bets if i % 4 == 0 else {}) for i in range(35)]
    for record in records[::5] + [r for r in records if r.carried][:3] + records[-1:]:
        text = record.to_json()
        assert RoundRecord.from_json(text) == record
        assert json.loads(text)["winners"] == {str(k): v for k, v in record.winners.items()}
        assert Game.replay_record(rules, RoundRecord.from_json(text)) == record  # type: ignore[arg-type]
        assert Game.replay(rules, 31, record.round, record.bets) == record  # type: ignore[arg-type]


@pytest.mark.kernels
def test_carried_stakes_follow_the_game() -> None:
    game = Game(MACAU, seed=5)
    for _ in range(200):
        record = game.play({} if game.carried else {"win:1": 100})
        if record.carried:
            nxt = game.play()
            assert nxt.bets == record.carried and nxt.results[0]["stake"] == 100
            break
    else:
        pytest.fail("no tie in 200 rounds")


@pytest.mark.kernels
def test_replay_of_an_unseeded_generator() -> None:
    game = Game(MACAU, rng=np.random.Generator(np.random.Philox(8)))
    records = [game.play({"odd": Fraction(5)}) for _ in range(20)]
    assert game.seed is None
    for record in records[-3:]:
        assert Game.replay_record(MACAU, RoundRecord.from_json(record.to_json())) == record


@pytest.mark.parametrize(
    ("make", "error", "match"),
    [
        (lambda: Game(MACAU, seed=1.5), TypeError, "seed must be an int"),
        (lambda: Game(MACAU, seed=1, rng=np.random.default_rng()), TypeError, "a seed or an rng"),
        (lambda: Game(MACAU, rng=np.random.RandomState(1)), TypeError, "Generator or BitGenerator"),
        (lambda: Game(3), TypeError, "RuleSet"),  # type: ignore[arg-type]
        (lambda: Game(MACAU, recall=-1), ValueError, "recall"),
        (lambda: Game(MACAU, recall=limits.MAX_RECALL + 1), ValueError, r"recall must be in 0..1,000,000"),
        (lambda: Game(MACAU, recall=True), TypeError, "recall must be an int"),  # (a bool is no count: _checks.count)
        (lambda: Game(MACAU, seed=2**256), ValueError, r"seed must be an int in 0..2\*\*256 - 1, got a 257-bit number"),
        (lambda: Game(MACAU, 1, key="secret"), TypeError, "key must be bytes"),  # type: ignore[arg-type]
        (lambda: Game.replay(MACAU, 1, 10**6 + 2), ValueError, "a replay deals at most 1000000 rounds"),
        (lambda: Game(MACAU.replace(positions=9)), ValueError, "positions: 9 positions need 31 cards"),
        (lambda: Game(MACAU, 1).play({"lose:1": 5}), ValueError, "unknown bet 'lose:1'"),
        (lambda: Game(MACAU, 1).play({"win:1": 0.5}), TypeError, "never a float"),
        (lambda: Game.replay(MACAU, 1, 0), ValueError, "round must be 1 or more"),
    ],
)
@pytest.mark.kernels
def test_bad_games(make: object, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        make()  # type: ignore[operator]


@pytest.mark.kernels
def test_seed_sequences_that_a_seed_cannot_recreate_are_not_recorded() -> None:
    assert Game(MACAU, np.random.SeedSequence(5)).seed == 5
    assert Game(MACAU, np.random.SeedSequence(5, pool_size=8)).seed is None  # replays from its shoe state
    assert Game(MACAU, np.random.SeedSequence(5).spawn(1)[0]).seed is None
    game = Game(MACAU, np.random.SeedSequence(5, pool_size=8))
    record = game.play({"odd": 5})
    assert Game.replay_record(MACAU, RoundRecord.from_json(record.to_json())) == record


@pytest.mark.kernels
def test_a_refused_slip_deals_no_card() -> None:
    game = Game(ONLINE, seed=2)
    with pytest.raises(ValueError):
        game.play({"odd": 5})
    assert game.round == 0 and game.play() == Game(ONLINE, seed=2).play()


@pytest.mark.kernels
def test_a_replayer_continues_a_game_and_starts_again_elsewhere() -> None:
    """One deal a round along a game; a record out of order starts again from its seed."""
    game = Game(MACAU, seed=21)
    records = [game.play({"win:1": 100} if i % 3 == 0 else {}) for i in range(30)]
    replayer = Replayer(MACAU)
    assert [replayer.check(r) for r in records] == records
    assert replayer.game is not None and replayer.game.round == 30
    assert replayer.check(records[9]) == records[9]  # out of order: dealt again from the seed
    assert replayer.game is not None and replayer.game.round == 10
    changed = dataclasses.replace(records[10], bets={"win:1": 200})
    with pytest.raises(ValueError, match="^field 'results' disagrees with the replay$"):
        replayer.check(changed)
    assert replayer.game is None  # a record that fails leaves nothing to continue
    assert replayer.check(records[10]) == records[10]
    observed = ObservedTable(ONLINE).play("5h Ks Qs 9d As 2d 3c 4h 4d 4c Jh Jd Tc")
    with pytest.raises(ValueError, match="no seed and no shoe state .*: nothing to replay"):
        Replayer(ONLINE).check(observed)
    with pytest.raises(TypeError, match="rules: expected a RuleSet or a preset name"):
        Replayer(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="record must be a RoundRecord"):
        replayer.check(records[0].to_dict())  # type: ignore[arg-type]


# --- observed shoes ------------------------------------------------------------------------


SMALL_SHOE = MACAU.replace(decks=2, positions=3, cut_card_range=(20, 24))


def _observe(rules: RuleSet, seed: int, rounds: int) -> list[tuple[RoundRecord, RoundRecord]]:
    """A game's rounds, each with the record of its cards played on an ObservedTable."""
    game = Game(rules, seed=seed)
    table = ObservedTable(rules)
    shoe = 1
    pairs = []
    for _ in range(rounds):
        record = game.play({"win:1": 100, "odd": 10})
        if record.shoe != shoe:
            table.shuffle()
            shoe = record.shoe
        cards = [*record.burned] + _dealing_order(record)
        pairs.append((record, table.play(cards, {"win:1": 100, "odd": 10})))  # the game's slip, carried stakes and all
    return pairs


@pytest.mark.kernels
def test_observed_rounds_settle_as_dealt() -> None:
    for record, observed in _observe(SMALL_SHOE, 9, 30):
        assert observed.banker == record.banker and observed.hands == record.hands
        assert observed.results == record.results


def _dealing_order(record: RoundRecord) -> list[Card]:
    positions = sorted(record.hands)
    order = [*positions, 0]
    hands = {0: record.banker, **record.hands}
    return [hands[h].cards[k] for k in range(3) for h in order]


@pytest.mark.kernels
def test_observed_sequence_errors_name_the_card() -> None:
    table = ObservedTable(ONLINE)
    good = "5h Ks Qs 9d As 2d 3c 4h 4d 4c Jh Jd Tc"
    with pytest.raises(ValueError, match="card 3 of the sequence, Ks, is one more than 1 deck holds"):
        table.play(good.replace("Qs", "Ks"))
    with pytest.raises(ValueError, match="card 4 of the sequence: '9x' is not a card"):
        table.play(good.replace("9d", "9x"))
    with pytest.raises(ValueError, match="takes 13 cards .* has 12"):
        table.play(good.rsplit(" ", 1)[0])
    with pytest.raises(ValueError, match="unknown bet"):
        table.play(good, {"odd": 5})
    assert table.round == 0  # nothing was settled
    assert table.play(good).round == 1
    assert table.play(good).round == 2  # online: every round is a fresh deck


@pytest.mark.kernels
def test_observed_shoe_counts_cards_until_the_shuffle() -> None:
    rules = MACAU.replace(decks=8, positions=1)
    table = ObservedTable(rules)
    first = ["2c"] * 8 + ["Ks"] * 6
    table.play(first)  # 8 burned after the shuffle, then 6 cards
    later = ["2d", "Ks", "Ks", "Ks", "3d", "3h", "3s"]  # the 7th, 8th and a 9th K of spades
    with pytest.raises(ValueError, match=r"card 4 of the sequence, Ks, is one more than 8 decks hold"):
        table.play(later)
    table.shuffle()
    with pytest.raises(ValueError, match="takes 14 cards"):
        table.play(later)  # after a shuffle the round burns 8 again
    assert table.play(first).shoe == 2


@pytest.mark.kernels
def test_a_resettler_plays_the_cards_of_a_log_again() -> None:
    """Observed records are checked by playing their cards again along the log."""
    observed = [o for _, o in _observe(SMALL_SHOE, 9, 30)]
    assert max(r.shoe for r in observed) >= 3
    resettler = Resettler(SMALL_SHOE)
    assert [resettler.check(r) for r in observed] == observed
    assert resettler.table is not None and resettler.table.round == 30
    later = next(r for r in observed[1:] if r.round_in_shoe > 2)  # a log that starts within a shoe
    assert Resettler(SMALL_SHOE).check(later) == later
    changed = dataclasses.replace(later, bets={"win:1": 200, "odd": 10})
    with pytest.raises(ValueError, match="^field 'results' disagrees with the cards as dealt and settled$"):
        resettler.check(changed)
    assert resettler.table is None  # a record that fails leaves nothing to continue
    seeded = Game(SMALL_SHOE, seed=9).play()
    with pytest.raises(ValueError, match="the record can be dealt again: replay it"):
        resettler.check(seeded)
    with pytest.raises(TypeError, match="rules: expected a RuleSet or a preset name"):
        Resettler(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="record must be a RoundRecord"):
        resettler.check(later.to_dict())  # type: ignore[arg-type]


# --- the tests regulators ask of a shuffle (99.9% confidence, fixed seeds) ------------------


def _chi_square_cdf(x: float, df: int) -> float:
    """P(chi-square(df) <= x): the regularized lower incomplete gamma P(df/2, x/2),
    summed as its power series (no SciPy in the test dependencies)."""
    a, y = df / 2, x / 2
    term = total = 1 / a
    n = 0
    while term > total * 1e-16:
        n += 1
        term *= y / (a + n)
        total += term
    return total * math.exp(a * math.log(y) - y - math.lgamma(a))


def chi_square_critical(df: int, confidence: float = 0.999) -> float:
    """The ``confidence`` point of chi-square with ``df`` degrees of freedom (bisection)."""
    lo, hi = 0.0, 10.0 * df + 100
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _chi_square_cdf(mid, df) < confidence else (lo, mid)
    return (lo + hi) / 2


def _chi_square(observed: np.ndarray, expected: np.ndarray) -> float:
    return float(((observed - expected) ** 2 / expected).sum())


def test_chi_square_critical_value() -> None:
    # the exact 99.9% points for 3 and 51 degrees of freedom are 16.266 and 87.968
    assert abs(chi_square_critical(3) - 16.266) < 0.001 and abs(chi_square_critical(51) - 87.968) < 0.001
    assert abs(chi_square_critical(5, 0.95) - 11.070) < 0.001


def _deal_many(rules: object, rounds: int, seed: int) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """Codes at each dealt slot (burns and head card left out), the first hand of each
    online round, and the banker's rank of each round."""
    game = Game(rules, seed)  # type: ignore[arg-type]
    slots, firsts, bankers = [], [], []
    for _ in range(rounds):
        deal = game.deal()
        order = sorted(deal.hands)
        slots.append([c.code for h in (deal.banker, *(deal.hands[p] for p in order)) for c in h])
        if deal.head_card is not None:
            firsts.append(first_hand(deal.head_card))
        bankers.append(evaluate_rank(deal.banker))
    return np.array(slots), np.array(firsts), bankers


def evaluate_rank(cards: tuple[Card, Card, Card]) -> int:
    return _spec.default_rank3(*(c.code for c in cards))


@pytest.mark.parametrize(
    ("rules", "rounds"),
    [pytest.param(ONLINE, 20_000, id="one deck"), pytest.param(MACAU, 8_000, id="eight decks"),
     pytest.param(ONLINE, 400_000, id="one deck, large", marks=pytest.mark.slow),
     pytest.param(MACAU, 200_000, id="eight decks, large", marks=pytest.mark.slow)],
)
@pytest.mark.kernels
def test_each_card_equally_likely_at_each_position(rules: object, rounds: int) -> None:
    slots, _, _ = _deal_many(rules, rounds, seed=1234)
    critical = chi_square_critical(51)
    for position in range(slots.shape[1]):
        counts = np.bincount(slots[:, position], minlength=52)
        assert _chi_square(counts, np.full(52, rounds / 52)) < critical, position


@pytest.mark.parametrize("rounds", [20_000, pytest.param(400_000, marks=pytest.mark.slow)])
@pytest.mark.kernels
def test_head_card_first_hand_frequencies(rounds: int) -> None:
    _, firsts, _ = _deal_many(ONLINE, rounds, seed=77)
    counts = np.bincount(firsts, minlength=4)
    expected = rounds * np.array([16, 12, 12, 12]) / 52
    assert _chi_square(counts, expected) < chi_square_critical(3)


@pytest.mark.parametrize(
    ("rules", "rounds"),
    [(ONLINE, 20_000), (MACAU, 8_000), pytest.param(MACAU, 200_000, marks=pytest.mark.slow)],
    ids=["online", "macau", "macau, large"],
)
@pytest.mark.kernels
def test_runs_and_serial_correlation_of_results(rules: object, rounds: int) -> None:
    slots, _, bankers = _deal_many(rules, rounds, seed=4321)
    player = [_spec.default_rank3(*row[3:6]) for row in slots.tolist()]
    wins = np.array([p > b for p, b in zip(player, bankers, strict=True)])
    # Wald-Wolfowitz runs test on "position 1 beats the banker", round after round
    n1, n2 = int(wins.sum()), int((~wins).sum())
    runs = 1 + int((wins[1:] != wins[:-1]).sum())
    mean = 1 + 2 * n1 * n2 / (n1 + n2)
    var = (mean - 1) * (mean - 2) / (n1 + n2 - 1)
    assert abs((runs - mean) / var**0.5) < 3.2905
    # lag-1 serial correlation of the banker's class
    x = np.array(bankers, dtype=float)
    r = np.corrcoef(x[:-1], x[1:])[0, 1]
    assert abs(r * (len(x) - 1) ** 0.5) < 3.2905


@pytest.mark.parametrize("name", ["san_gong", "chinese", "prosperity"])
@pytest.mark.kernels
def test_observed_rounds_of_every_table_shape(name: str) -> None:
    """Dragon/Phoenix and the banker game (three cards to each hand in turn, the banker or
    Phoenix last) and a faces-first shoe: the cards a Game dealt, played on an
    ObservedTable, settle alike, ranked by the preset's ranking."""
    rules = PRESETS[name].replace(decks=2, positions=3, cut_card_range=(20, 24)) if name == "prosperity" else PRESETS[name]
    slip = dict.fromkeys(list(rules.bets)[:2], 100)
    game = Game(rules, seed=4)
    table = ObservedTable(rules)
    shoe = 1
    for _ in range(40):
        record = game.play(slip)
        if record.shoe != shoe:
            table.shuffle()
            shoe = record.shoe
        hands = {0: record.banker, **record.hands}
        order = [*sorted(record.hands), 0]
        if rules.deal_one_at_a_time:
            cards = [hands[h].cards[k] for k in range(3) for h in order]
        else:
            cards = [c for h in order for c in hands[h].cards]
        observed = table.play([*record.burned, *cards], slip)
        assert observed.banker == record.banker and observed.hands == record.hands
        assert observed.results == record.results
        assert observed.banker.ranking == rules.ranking
