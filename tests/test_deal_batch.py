"""Raw rounds (``sanggong.deal_batch``): the compiled kernel against its pure-Python twin
bit for bit, over many table shapes; both against ``Game``'s records, chunk by chunk;
the same arrays for any number of workers; the same rounds ``simulate`` counts; and the
validation at the boundary. (The C-level twin, ``shoe_init``/``shoe_deal`` of
``_core.pxd``, is tested from another extension in test_cimport.py.)"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sanggong import (
    MACAU,
    ONLINE,
    PRESETS,
    DealtRounds,
    Game,
    RuleSet,
    Seed,
    _core,
    deal_batch,
    rank_batch,
    simulate,
)
from sanggong._kernels import twin as _pykernels
from sanggong._table import table_params
from sanggong.limits import MAX_BATCH_ROUNDS
from sanggong.rounds import NO_CARD

# name -> rule set: positions 1..16, burns, a head card burned or not, one card at a
# time or three, a fresh deck or a shoe with its cut card, several shoes a chunk
SHAPES: dict[str, RuleSet] = {
    "online": ONLINE,
    "online head kept": ONLINE.replace(head_card_burned=False),
    "online burning 4": ONLINE.replace(burn_after_shuffle=4),
    "head card, 1 position": MACAU.replace(decks=1, head_card=True, positions=1),
    "head card, 2 positions, 5 burned": MACAU.replace(decks=1, head_card=True, positions=2, burn_after_shuffle=5),
    "head card kept, 16 positions": MACAU.replace(decks=1, head_card=True, head_card_burned=False, positions=16),
    "macau": MACAU,
    "macau three at a time": MACAU.replace(deal_one_at_a_time=False),
    "one deck, one at a time": MACAU.replace(decks=1, positions=5),
    "san_gong": PRESETS["san_gong"],
    "chinese": PRESETS["chinese"],
    "2 decks, 1 position, no burns": MACAU.replace(decks=2, positions=1, burn_after_shuffle=0, burn_per_round=0,
                                                     cut_card_range=(6, 50)),
    "3 decks, 16 positions, three at a time": MACAU.replace(decks=3, positions=16, burn_after_shuffle=2,
                                                            burn_per_round=3, cut_card_range=(60, 90),
                                                            deal_one_at_a_time=False),
    "64 decks, 16 positions, 64 burned": MACAU.replace(decks=64, positions=16, burn_after_shuffle=64,
                                                       burn_per_round=64, cut_card_range=(120, 200)),
}


def _arrays(rules: RuleSet, rounds: int, width: int | None = None) -> dict[str, Any]:
    """Fresh output arrays for the kernels, filled with a value no kernel writes (0xEE)
    so that an entry left unwritten shows."""
    if width is None:
        most = rules.burn_first if rules.fresh_deck_each_round else max(rules.burn_first, rules.burn_per_round)
        width = most + (1 if rules.head_card and rules.head_card_burned else 0)
    return {
        "hands": np.full((rounds, rules.hands, 3), 0xEE, np.uint8),
        "burned": np.full((rounds, width), 0xEE, np.uint8),
        "burn_counts": np.full(rounds, 0xEE, np.uint8),
        "head_cards": np.full(rounds, 0xEE, np.uint8),
        "shoe": np.full(rounds, -7, np.int64),
        "round_in_shoe": np.full(rounds, 0xEEEE, np.uint16),
        "last": np.full(rounds, 0xEE, np.uint8),
        "cut_card": np.full(rounds, 0xEEEE, np.uint16),
    }


def _deal(
    kernels: Any, rules: RuleSet, seed: int, rounds: int, width: int | None = None
) -> tuple[int, dict[str, Any], int]:
    """Deal with ``kernels``: (shoes begun, the arrays, the generator's next word)."""
    bit_generator = np.random.PCG64(seed)
    arrays = _arrays(rules, rounds, width)
    shoes = kernels.deal_chunk(bit_generator, table_params(rules).array(), *arrays.values())
    return shoes, arrays, int(bit_generator.random_raw())


# --- the kernel and its twin ---------------------------------------------------------------


@pytest.mark.parametrize("shape", SHAPES)
def test_compiled_and_reference_deal_the_same_rounds(shape: str) -> None:
    """Compares the two implementations directly (so it runs once): every array, the
    shoes begun, and the words consumed (the next word of each generator)."""
    rules = SHAPES[shape]
    rounds = 400 if rules.decks < 8 else 120
    compiled = _deal(_core, rules, 2026, rounds)
    reference = _deal(_pykernels, rules, 2026, rounds)
    assert compiled[0] == reference[0] and compiled[2] == reference[2]
    for name, array in compiled[1].items():
        assert np.array_equal(array, reference[1][name]), name
    _, arrays, _ = compiled
    assert (arrays["hands"] < 52).all()
    counts = arrays["burn_counts"]
    for i in range(rounds):  # the padding, and nothing else, is NO_CARD
        row = arrays["burned"][i]
        assert (row[: counts[i]] < 52).all() and (row[counts[i]:] == NO_CARD).all()
    if not rules.fresh_deck_each_round:
        assert compiled[0] >= 2, "the shape should deal several shoes"


def test_a_rejected_word_is_redrawn_alike() -> None:
    """The seed of test_dealing's rejection test: an online round in about 102,000 draws
    a word that Lemire's method rejects, and these rounds meet one (both kernels must
    redraw it, and the fresh-deck loop of the compiled kernel is a loop of its own)."""
    compiled = _deal(_core, ONLINE, 20, 30_000)
    reference = _deal(_pykernels, ONLINE, 20, 30_000)
    assert compiled[2] == reference[2]
    assert all(np.array_equal(a, reference[1][n]) for n, a in compiled[1].items())
    words = np.random.PCG64(20).random_raw(60_100).tolist()
    assert compiled[2] in words[60_001:]  # two words a round, and at least one more: a rejection


@pytest.mark.parametrize("width", [3, 5])
@pytest.mark.kernels
def test_wider_burned_rows_are_padded(impl: Any, width: int) -> None:
    rules = MACAU.replace(decks=2, positions=3, burn_after_shuffle=1, burn_per_round=0, cut_card_range=(20, 30))
    _, arrays, _ = _deal(impl, rules, 5, 30, width)
    counts = arrays["burn_counts"]
    assert set(counts.tolist()) == {0, 1}
    for row, count in zip(arrays["burned"], counts, strict=True):
        assert (row[count:] == NO_CARD).all()


@pytest.mark.kernels
def test_kernel_checks_its_arrays(impl: Any) -> None:
    params = table_params(ONLINE).array()
    good = _arrays(ONLINE, 4)
    bit_generator = np.random.PCG64(1)
    for name, bad, match in [
        ("hands", np.zeros((4, 3, 3), np.uint8), "hands must have shape"),
        ("burned", np.zeros((4, 0), np.uint8), "burned must hold 1 cards"),
        ("burned", np.zeros((3, 1), np.uint8), "burned must hold 4 rounds"),
        ("shoe", np.zeros(5, np.int64), "shoe must hold 4 rounds"),
        ("cut_card", np.zeros(3, np.uint16), "cut_card must hold 4 rounds"),
        ("head_cards", np.zeros(3, np.uint8), "head_cards must hold 4 rounds"),
    ]:
        with pytest.raises(ValueError, match=match):
            impl.deal_chunk(bit_generator, params, *{**good, name: bad}.values())
    broken = params.copy()
    broken[1] = 17  # positions
    with pytest.raises(ValueError, match="do not describe a table"):
        impl.deal_chunk(bit_generator, broken, *good.values())
    with pytest.raises(ValueError, match="10 values"):
        impl.deal_chunk(bit_generator, params[:9], *good.values())
    assert impl.deal_chunk(bit_generator, params, *_arrays(ONLINE, 0).values()) == 0
    no_head = _arrays(ONLINE, 4)
    no_head["head_cards"] = None
    assert impl.deal_chunk(bit_generator, params, *no_head.values()) == 4


@st.composite
def _tables(draw: st.DrawFn) -> RuleSet:
    """Any table the rules accept: decks, positions, burns, the head card (a fresh deck
    only), one card at a time or three, the cut card's range."""
    decks = draw(st.sampled_from([1, 1, 2, 3, 6, 8, 64]))
    head = decks == 1 and draw(st.booleans())
    lo = draw(st.integers(1, 52 * decks - 1))
    try:
        return MACAU.replace(
            decks=decks, positions=draw(st.integers(1, 16)), head_card=head, head_card_burned=draw(st.booleans()),
            burn_after_shuffle=draw(st.one_of(st.none(), st.integers(0, 64))), burn_per_round=draw(st.integers(0, 64)),
            deal_one_at_a_time=draw(st.booleans()), cut_card_range=(lo, draw(st.integers(lo, 52 * decks - 1))),
        )
    except ValueError:
        assume(False)
        raise


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(rules=_tables(), seed=st.integers(0, 2**64))
def test_any_table_deals_alike_and_as_game_does(rules: RuleSet, seed: int) -> None:
    """Compares the two implementations directly (so it runs once), and the compiled
    kernel's rounds with a Game's on the same bit generator."""
    rounds = 12
    compiled = _deal(_core, rules, seed, rounds)
    reference = _deal(_pykernels, rules, seed, rounds)
    assert compiled[0] == reference[0] and compiled[2] == reference[2]
    for name, array in compiled[1].items():
        assert np.array_equal(array, reference[1][name]), name
    game = Game(rules, rng=np.random.PCG64(seed), recall=0)
    arrays = compiled[1]
    for i in range(rounds):
        record = game.play()
        assert arrays["hands"][i].tolist() == [
            [c.code for c in hand.cards] for hand in (record.banker, *(record.hands[p] for p in sorted(record.hands)))
        ]
        assert arrays["burned"][i, : arrays["burn_counts"][i]].tolist() == [c.code for c in record.burned]
        assert (arrays["shoe"][i], arrays["round_in_shoe"][i], arrays["cut_card"][i]) == (
            record.shoe, record.round_in_shoe, record.cut_card or 0)


# --- against Game ---------------------------------------------------------------------------


def _chunk_records(rules: RuleSet, dealt: DealtRounds, k: int, rounds: int) -> list[Any]:
    game = Game(rules, seed=dealt.chunk_seed(k), recall=0)
    return [game.play() for _ in range(rounds)]


@pytest.mark.parametrize("shape", ["online", "head card, 2 positions, 5 burned", "head card kept, 16 positions",
                                   "macau", "macau three at a time", "chinese", "2 decks, 1 position, no burns",
                                   "3 decks, 16 positions, three at a time"])
@pytest.mark.kernels
def test_every_chunk_is_a_games_rounds(impl: Any, shape: str) -> None:
    """Rows k * chunk_size on are the rounds ``Game(rules, seed=chunk_seed(k))`` plays:
    every dealing field of its records. Shoe numbers go on across chunks."""
    rules = SHAPES[shape]
    chunk, rounds = (40, 100) if rules.decks >= 8 else (25, 60)
    dealt = deal_batch(rules, rounds, seed=77, workers=2, chunk_size=chunk)
    assert dealt.rounds == rounds and dealt.hands.shape == (rounds, rules.hands, 3)
    assert (dealt.head_cards is None) == (not rules.head_card)
    shoes_before = 0
    for k, start in enumerate(range(0, rounds, chunk)):
        records = _chunk_records(rules, dealt, k, min(chunk, rounds - start))
        for i, record in enumerate(records, start):
            assert dealt.banker[i].tolist() == [c.code for c in record.banker.cards], i
            for p, hand in record.hands.items():
                assert dealt.hands[i, p].tolist() == [c.code for c in hand.cards], (i, p)
                assert dealt.players[i, p - 1].tolist() == dealt.hands[i, p].tolist()
            assert dealt.burned[i, : dealt.burn_counts[i]].tolist() == [c.code for c in record.burned], i
            if rules.head_card:
                assert dealt.head_cards is not None and record.head_card is not None
                assert int(dealt.head_cards[i]) == record.head_card.code
            assert int(dealt.shoe[i]) == shoes_before + record.shoe
            assert int(dealt.round_in_shoe[i]) == record.round_in_shoe
            assert bool(dealt.last_of_shoe[i]) == record.last_of_shoe
            assert int(dealt.cut_card[i]) == (record.cut_card or 0)
        shoes_before += records[-1].shoe


@pytest.mark.kernels
def test_results_do_not_depend_on_workers(impl: Any) -> None:
    rounds = 3_000 if impl is _core else 300
    for rules in (ONLINE, MACAU):
        one = deal_batch(rules, rounds, seed=5, workers=1, chunk_size=rounds // 7)
        two = deal_batch(rules, rounds, seed=5, workers=2, chunk_size=rounds // 7)
        assert one == two
        assert one != deal_batch(rules, rounds, seed=6, workers=2, chunk_size=rounds // 7)
        assert one != deal_batch(rules, rounds, seed=5, workers=2, chunk_size=rounds // 6)
        shoes = one.shoe
        assert shoes[0] == 1 and (np.diff(shoes) >= 0).all() and (np.diff(shoes) <= 1).all()
        new = np.flatnonzero(np.diff(shoes)) + 1  # the first round of each shoe after the first
        assert (one.round_in_shoe[new] == 1).all() and (one.round_in_shoe[0] == 1)


@pytest.mark.kernels
def test_the_rounds_simulate_counts(impl: Any) -> None:
    """``simulate`` with the same seed and chunk size plays the same rounds: the hands
    of each class dealt (every hand, the banker's included) agree."""
    rounds = 20_000 if impl is _core else 500
    for rules in (ONLINE, MACAU):
        dealt = deal_batch(rules, rounds, seed=9, chunk_size=rounds // 4)
        ranks = rank_batch(dealt.hands.reshape(-1, 3), rules=rules)  # the default ranking: rank is class
        counted = simulate(rules, rounds, seed=9, chunk_size=rounds // 4, compare_exact=False).classes
        assert np.bincount(ranks, minlength=len(counted)).tolist() == list(counted)


@pytest.mark.kernels
def test_a_seed_sequence_and_os_entropy(impl: Any) -> None:
    sequence = np.random.SeedSequence(123)
    dealt = deal_batch("online", 20, seed=sequence)
    assert dealt == deal_batch(ONLINE, 20, seed=123) and dealt.seed == 123
    fresh = deal_batch(ONLINE, 20)
    assert isinstance(fresh.seed, int)
    assert fresh == deal_batch(ONLINE, 20, seed=fresh.seed)
    spawned = deal_batch(ONLINE, 20, seed=sequence.spawn(1)[0])
    assert spawned.seed == Seed(123, spawn_key=(0,))  # recorded whole: it deals the same rounds again
    assert deal_batch(ONLINE, 20, seed=spawned.seed) == spawned


def test_no_rounds() -> None:
    dealt = deal_batch(MACAU, 0, seed=1)
    assert dealt.hands.shape == (0, 8, 3) and dealt.burned.shape == (0, 8) and dealt.shoe.shape == (0,)
    assert dealt.head_cards is None and dealt.rounds == 0
    online = deal_batch(ONLINE, 0, seed=1)
    assert online.head_cards is not None and online.head_cards.shape == (0,) and online.burned.shape == (0, 1)


def _dtypes(dealt: DealtRounds) -> dict[str, npt.DTypeLike]:
    return {name: getattr(dealt, name).dtype for name in
            ("hands", "burned", "burn_counts", "shoe", "round_in_shoe", "last_of_shoe", "cut_card")}


@pytest.mark.kernels
def test_result_dtypes_and_views(impl: Any) -> None:
    dealt = deal_batch(ONLINE, 10, seed=3)
    assert _dtypes(dealt) == {"hands": np.uint8, "burned": np.uint8, "burn_counts": np.uint8, "shoe": np.int64,
                              "round_in_shoe": np.uint16, "last_of_shoe": np.bool_, "cut_card": np.uint16}
    assert np.shares_memory(dealt.banker, dealt.hands) and dealt.players.shape == (10, 3, 3)
    assert dealt.last_of_shoe.all() and (dealt.cut_card == 0).all() and dealt.shoe.tolist() == list(range(1, 11))
    assert dealt != "something else"
    with pytest.raises(TypeError):
        hash(dealt)


# --- the boundary ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"rules": 3}, TypeError, "rules: expected a RuleSet or a preset name, not int"),
        ({"rules": "baccarat"}, ValueError, "unknown preset 'baccarat'"),
        ({"rules": MACAU.ranking}, TypeError, "not Ranking"),
        ({"rounds": -1}, ValueError, r"rounds must be in 0\.\.1,000,000,000, got -1"),
        ({"rounds": MAX_BATCH_ROUNDS + 1}, ValueError, "got 1,000,000,001"),
        ({"rounds": 10**40}, ValueError, "133-bit number"),
        ({"rounds": True}, TypeError, "rounds must be an int"),
        ({"rounds": 10.0}, TypeError, "rounds must be an int"),
        ({"seed": "7"}, TypeError, "seed must be an int"),
        ({"seed": 1.5}, TypeError, "seed must be an int"),
        ({"workers": 0}, ValueError, "workers must be a positive int"),
        ({"workers": True}, ValueError, "workers must be a positive int"),
        ({"chunk_size": 0}, ValueError, "chunk_size must be in 1"),
        ({"chunk_size": 2.0}, TypeError, "chunk_size must be an int"),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict[str, Any], error: type, match: str) -> None:
    call: dict[str, Any] = {"rules": ONLINE, "rounds": 10, "seed": 1, **kwargs}
    with pytest.raises(error, match=match):
        deal_batch(**call)


@pytest.mark.kernels
def test_chunk_seed(impl: Any) -> None:
    dealt = deal_batch(ONLINE, 10, seed=4, chunk_size=3)
    assert dealt.chunk_seed(2).spawn_key == np.random.SeedSequence(4).spawn(3)[2].spawn_key
    for bad in (-1, True, 1.0):
        with pytest.raises(ValueError, match="chunk number"):
            dealt.chunk_seed(bad)  # type: ignore[arg-type]


@pytest.mark.kernels
def test_module_examples(impl: Any) -> None:
    """The docstring examples of ``sanggong.rounds`` (which tests/test_doctests.py does
    not list), with both implementations."""
    import doctest

    import sanggong.rounds

    result = doctest.testmod(sanggong.rounds, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0
