"""The round loops of ``_core.simulate_chunk`` (``_rounds.h``: the online table's own
loop, the Macau shoe's instantiation, the general loop and its session mode, each with its
draw plan made once per chunk) against the pure-Python reference, bit for bit: the same
histograms, the same nets of a bet slip and the same draws consumed, for many table shapes
(positions 1 to 16, burns, a head card burned or dealt, one card at a time or three,
fresh decks and shoes of 1 to 64 decks, cut cards near either end) under every preset's
ranking."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

from sanggong import _core, _kernels
from sanggong._kernels import twin as _pykernels
from sanggong._table import table_params
from sanggong.money import Purse
from sanggong.ranking import DEFAULT_RANKING, tables_for
from sanggong.rules import PRESETS, RuleSet
from sanggong.settlement import bet_result, plan_for
from sanggong.simulation import _histograms, _possible

RANKINGS = {rules.ranking: name for name, rules in reversed(list(PRESETS.items()))}
RANKING_IDS = {name: ranking for ranking, name in RANKINGS.items()}

# decks, positions, fresh, burn_first, burn_later, head, head_burned, one_at_a_time, cut_lo, cut_hi
ONLINE = (1, 3, 1, 0, 0, 1, 1, 1, 30, 40)
MACAU = (8, 7, 0, 8, 1, 0, 1, 1, 30, 40)
NAMED = {
    "online": ONLINE,
    "macau": MACAU,
    "online-burn-first": (1, 3, 1, 2, 0, 1, 1, 1, 30, 40),  # not the online loop: burns
    "online-head-dealt": (1, 3, 1, 0, 0, 1, 0, 1, 30, 40),
    "online-two-decks": (2, 3, 1, 0, 0, 1, 1, 1, 30, 40),
    "online-four-positions": (1, 4, 1, 0, 0, 1, 1, 1, 30, 40),
    "macau-three-at-a-time": (8, 7, 0, 8, 1, 0, 1, 0, 30, 40),
    "macau-six-positions": (8, 6, 0, 8, 1, 0, 1, 1, 30, 40),
    "macau-head-card": (8, 7, 0, 8, 1, 1, 1, 1, 30, 40),
    "macau-head-card-dealt": (8, 7, 0, 8, 1, 1, 0, 1, 30, 40),
    "macau-no-burns": (8, 7, 0, 0, 0, 0, 1, 1, 30, 40),
    "macau-seven-decks": (7, 7, 0, 8, 1, 0, 1, 1, 30, 40),
    # a shoe cut anywhere from the second card: one round a shoe up to many
    "one-deck-shoe-cut-anywhere": (1, 1, 0, 0, 0, 0, 1, 1, 6, 51),
    "one-deck-shoe-head-card": (1, 2, 0, 3, 2, 1, 1, 0, 12, 50),
    "head-card-wraps-two-hands": (1, 1, 1, 0, 0, 1, 0, 1, 30, 40),  # the head card names hand 3 of 2
    "sixteen-positions-fresh": (1, 16, 1, 0, 0, 0, 1, 1, 30, 40),
    "sixteen-positions-head": (1, 16, 1, 0, 0, 1, 1, 0, 30, 40),  # all 52 cards
    "sixty-four-decks-shoe": (64, 16, 0, 64, 64, 1, 1, 1, 200, 3000),
    "sixty-four-decks-fresh": (64, 5, 1, 64, 0, 0, 1, 0, 30, 40),
}


def _random_shapes(count: int, seed: int) -> dict[str, tuple[int, ...]]:
    """Valid shapes drawn at random (the conditions of simulate_chunk), with a fixed seed."""
    r = random.Random(seed)
    shapes: dict[str, tuple[int, ...]] = {}
    while len(shapes) < count:
        decks = r.choice([1, 1, 2, 3, 6, 8, 8, 16])
        positions = r.randint(1, 16)
        fresh = r.randint(0, 1)
        head, head_burned, one = r.randint(0, 1), r.randint(0, 1), r.randint(0, 1)
        burn_first, burn_later = r.choice([0, 0, 1, 3, 8, 17]), r.choice([0, 1, 1, 2, 5])
        n = 52 * decks
        need = 3 * (positions + 1) + (head and head_burned)
        if burn_first + need > n or (not fresh and burn_later + need >= n - 1):
            continue
        cut_lo = r.randint(burn_later + need, min(n - 1, burn_later + need + 40))
        cut_hi = r.randint(cut_lo, n - 1)
        shapes[f"random-{len(shapes)}"] = (decks, positions, fresh, burn_first, burn_later, head, head_burned, one,
                                           cut_lo, cut_hi)
    return shapes


SHAPES = {**NAMED, **_random_shapes(40, 14)}


def _chunk(module: object, ranking: object, shape: tuple[int, ...], seed: int, rounds: int,
           stop: int = 0) -> tuple[int, np.ndarray, np.ndarray, dict]:
    source = tables_for(ranking)
    n_classes = source.n_classes
    width = 1 if source.ordered_by_class else 3
    hands = shape[1] + 1
    pairs = np.zeros((hands, n_classes * n_classes * width), np.uint64)
    single = np.zeros((hands, 6 * n_classes), np.uint64)
    bit_generator = np.random.PCG64(seed)
    done = module.simulate_chunk(bit_generator, module.Lookups(source),  # type: ignore[attr-defined]
                                 np.array(shape, np.int64), rounds, pairs, single, None, None, None,
                                 np.array([stop], np.uint8))
    return done, pairs, single, bit_generator.state


def _agree(ranking: object, shape: tuple[int, ...], seed: int, rounds: int) -> None:
    done, pairs, single, state = _chunk(_core, ranking, shape, seed, rounds)
    want = _chunk(_pykernels, ranking, shape, seed, rounds)
    assert done == want[0] == rounds
    np.testing.assert_array_equal(single, want[2])
    np.testing.assert_array_equal(pairs, want[1])
    assert state == want[3]  # the same draws, no more, no fewer
    assert int(single.sum()) == rounds * (shape[1] + 1)


@pytest.mark.parametrize("shape", list(SHAPES))
def test_round_loops_agree_with_the_reference(shape: str) -> None:
    """Every shape under the default ranking (compares the compiled core with the
    reference directly, whichever kernels the fixture installs)."""
    _agree(DEFAULT_RANKING, SHAPES[shape], 3, 150)


@pytest.mark.parametrize("ranking", list(RANKING_IDS))
@pytest.mark.parametrize("shape", ["online", "macau", "online-head-dealt", "one-deck-shoe-cut-anywhere",
                                   "sixteen-positions-head", "random-0", "random-1", "random-2"])
def test_round_loops_agree_with_the_reference_for_every_ranking(shape: str, ranking: str) -> None:
    """The specialised loops are chosen by shape and by whether the order is counted."""
    _agree(RANKING_IDS[ranking], SHAPES[shape], 8, 150)


@pytest.mark.parametrize("shape", ["online", "macau"])
def test_common_shapes_agree_with_the_reference_over_many_rounds(shape: str) -> None:
    """Many shoes (a Macau shoe deals about 15 rounds); the online loop's every rotation."""
    _agree(DEFAULT_RANKING, SHAPES[shape], 21, 1500)


@pytest.mark.parametrize("shape", ["online", "macau", "random-3"])
def test_round_loops_stop_when_asked(shape: str) -> None:
    done, pairs, single, state = _chunk(_core, DEFAULT_RANKING, SHAPES[shape], 1, 5000, stop=1)
    assert done == 0 and not single.any() and not pairs.any()
    assert state == np.random.PCG64(1).state


def test_parity_can_fail() -> None:
    """The comparison above sees a difference: another seed gives other histograms."""
    a = _chunk(_core, DEFAULT_RANKING, ONLINE, 1, 300)
    b = _chunk(_core, DEFAULT_RANKING, ONLINE, 2, 300)
    assert not np.array_equal(a[2], b[2])


def _session_rules() -> dict[str, RuleSet]:
    """Every preset, and each with a head card (burned, then dealt), other positions and
    decks, and burns, where the rules allow it: the session mode's loop under every
    ranking and layout."""
    variants = {
        "head-card": {"decks": 1, "head_card": True, "head_card_burned": True},
        "head-card-dealt": {"decks": 1, "positions": 2, "head_card": True, "head_card_burned": False},
        "two-decks-two-positions": {"decks": 2, "positions": 2},
        "three-decks-burns": {"decks": 3, "positions": 5, "burn_after_shuffle": 4,
                       "burn_per_round": 2},
    }
    rules: dict[str, RuleSet] = {}
    for name, preset in PRESETS.items():
        rules[name] = preset
        for variant, changes in variants.items():
            try:
                rules[f"{name}-{variant}"] = preset.replace(**changes)  # type: ignore[arg-type]
            except ValueError:  # not a table these rules allow
                pass
    return rules


SESSION_RULES = _session_rules()


def _session(module: object, rules: RuleSet, rounds: int) -> tuple[object, ...]:
    names = tuple(rules.bets)
    plan = plan_for(rules, names)
    money = np.zeros((len(names), 256), dtype=np.int64)
    for j, name in enumerate(names):
        for code in _possible(rules, name):
            money[j, code] = int(bet_result(rules, Purse(int, rules), rules.bet(name), Fraction(100 + 7 * j),
                                            code).net)
    pairs, single = _histograms(rules)
    net = np.zeros(rounds, np.int64)
    bit_generator = np.random.PCG64(12)
    done = module.simulate_chunk(bit_generator, module.Lookups(tables_for(rules.ranking)),  # type: ignore[attr-defined]
                                 table_params(rules).array(), rounds, pairs, single, plan, money, net, np.zeros(1, np.uint8))
    return done, pairs.tolist(), single.tolist(), net.tolist(), bit_generator.state


@pytest.mark.parametrize("rules", list(SESSION_RULES))
def test_session_mode_agrees_with_the_reference(rules: str) -> None:
    """Each round's net of a bet slip with every bet, and the histograms, in session mode."""
    got = _session(_core, SESSION_RULES[rules], 200)
    want = _session(_pykernels, SESSION_RULES[rules], 200)
    assert got == want
    assert any(got[3])  # money changed hands


@pytest.mark.parametrize("rules", [PRESETS["online"], PRESETS["macau"].replace(decks=8, positions=7)],
                         ids=["online", "macau"])
def test_counters_flushed_past_their_width_agree_with_session_counting(rules: RuleSet) -> None:
    """The default ranking's loops count in 16-bit counters added into the histograms every
    32,768 rounds; session mode's loop counts straight into the histograms. Over enough
    rounds for the commonest cells to pass 65,535 both give the same histograms from the
    same draws (the reference, about 40 us a round, is compared on shorter runs above)."""
    rounds = 64 * 32_768 + 4_321
    name = next(iter(rules.bets))
    kernel, params = _kernels.lookups(tables_for(rules.ranking)), table_params(rules).array()
    pairs, single = _histograms(rules)
    counted = _histograms(rules)
    a, b = np.random.PCG64(5), np.random.PCG64(5)
    flag = np.zeros(1, np.uint8)
    assert _core.simulate_chunk(a, kernel, params, rounds, pairs, single, None, None, None, flag) == rounds
    assert _core.simulate_chunk(b, kernel, params, rounds, *counted, plan_for(rules, (name,)),
                                np.zeros((1, 256), np.int64), np.zeros(rounds, np.int64), flag) == rounds
    np.testing.assert_array_equal(single, counted[1])
    np.testing.assert_array_equal(pairs, counted[0])
    assert a.state == b.state
    assert int(single.sum()) == rounds * rules.hands
    assert int(single.max()) > 65_535  # more than a counter holds
