"""One way to say each thing in the Python API (issue 24): hand values ordered by strength,
a preset's name wherever rules are taken, ``workers=`` for parallelism, numpy Generators as
seeds, and every result as a frame and as HTML."""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from sanggong import HandValue, compare, evaluate
from sanggong import _spec as spec
from sanggong.rules import PRESETS

ONE_DECK_HANDS = list(itertools.combinations(range(52), 3))
RANKINGS = {rules.ranking: name for name, rules in PRESETS.items()}  # one preset naming each ranking
OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "==": operator.eq, "!=": operator.ne,
}


def _sign(x: Any, y: Any) -> int:
    return int(x > y) - int(x < y)


# --- hand values order by strength -----------------------------------------------------------------


@pytest.mark.parametrize("preset", sorted(RANKINGS.values()))
def test_values_sort_as_the_specification_ranks_every_hand(preset: str) -> None:
    """All 22,100 one-deck hands: ``sorted`` puts them in the order of the specification's
    plain comparison key (``_spec.hand_key``, computed without the kernels' tables), equal
    values are exactly the hands of one key, and the hash follows equality."""
    ranking = PRESETS[preset].ranking
    values = [evaluate(hand, preset) for hand in ONE_DECK_HANDS]
    key = {id(v): spec.hand_key(ranking, *(c.code for c in v.cards)) for v in values}
    ordered = sorted(values)
    keys = [key[id(v)] for v in ordered]
    assert keys == sorted(keys)
    for v, w in itertools.pairwise(ordered):  # neighbours: ties and steps alike
        assert (v == w) is (key[id(v)] == key[id(w)])
        assert (v < w) is (key[id(v)] < key[id(w)])
        assert (hash(v) == hash(w)) or v != w
    assert len(set(values)) == len(set(keys))


@pytest.mark.parametrize("preset", sorted(RANKINGS.values()))
def test_every_operator_agrees_with_compare_and_the_specification(preset: str) -> None:
    """Pairs of hands drawn at random (ties included: half the pairs share a class): each
    of the six operators says what ``compare`` says, and ``compare`` what the
    specification's key says."""
    ranking = PRESETS[preset].ranking
    rng = np.random.default_rng(24)
    values = [evaluate(ONE_DECK_HANDS[i], preset) for i in rng.integers(0, len(ONE_DECK_HANDS), 3000)]
    by_label: dict[str, list[HandValue]] = {}
    for v in values:
        by_label.setdefault(v.label, []).append(v)
    pairs = list(zip(values[::2], values[1::2], strict=True))
    pairs += [(group[i], group[i + 1]) for group in by_label.values() for i in range(len(group) - 1)]
    ties = 0
    for a, b in pairs:
        order = compare(a, b, preset)
        truth = _sign(spec.hand_key(ranking, *(c.code for c in a.cards)), spec.hand_key(ranking, *(c.code for c in b.cards)))
        assert order == truth, (a, b)
        expected = {"<": order < 0, "<=": order <= 0, ">": order > 0, ">=": order >= 0, "==": order == 0, "!=": order != 0}
        assert {name: op(a, b) for name, op in OPERATORS.items()} == expected, (a, b)
        ties += order == 0
    assert ties > 100  # the pairs of one class made ties happen
    best = max(values)
    assert all(compare(best, v, preset) >= 0 for v in values)


def test_values_of_two_rankings_are_never_equal_and_not_ordered() -> None:
    """``==`` is False (a set or a dict holds both), ordering raises a TypeError naming
    both rankings, whichever side is which."""
    macau, chinese = evaluate("Kh Kd Ks", "macau"), evaluate("Kh Kd Ks", "chinese")
    assert macau != chinese and not macau == chinese
    assert len({macau, chinese}) == 2
    for op in (operator.lt, operator.le, operator.gt, operator.ge):
        for a, b in ((macau, chinese), (chinese, macau)):
            with pytest.raises(TypeError) as caught:
                op(a, b)
            assert str(caught.value) == f"cannot order hands of two rankings: {a.ranking!r} and {b.ranking!r}"
    with pytest.raises(TypeError, match="two rankings"):
        sorted([macau, chinese])


def test_values_against_other_types() -> None:
    """Not a hand value: never equal, never ordered (Python's own TypeError)."""
    value = evaluate("Kh Qs 9d")
    assert value != "Kh Qs 9d" and value != value.rank and value != value.cards
    with pytest.raises(TypeError, match="not supported"):
        value < 29  # noqa: B015
    with pytest.raises(TypeError, match="not supported"):
        29 >= value  # noqa: B015


# --- a numpy Generator as a seed -------------------------------------------------------------------


def _drawn(generator: np.random.Generator) -> int:
    """The seed a run takes from a generator, computed here from the words numpy documents
    for full-range uint64 draws: a bit generator's raw 64-bit outputs (PCG64's and Philox's)."""
    return sum(int(w) << (64 * i) for i, w in enumerate(generator.bit_generator.random_raw(4).tolist()))


def _runs() -> dict[str, Callable[[Any], tuple[object, object]]]:
    """Each seeded entry point as (what it recorded as its seed, what it produced)."""
    from sanggong import Game, deal_batch, design, play_shoes, simulate, simulate_sessions

    def game(seed: Any) -> tuple[object, object]:
        g = Game("online", seed)
        return g.seed, [g.play({"win:1": 10}).to_json() for _ in range(3)]

    return {
        "simulate": lambda seed: (lambda r: (r.seed, r.to_dict()["bets"]))(simulate("online", 2000, seed=seed, workers=1)),
        "simulate_sessions": lambda seed: (lambda r: (r.seed, r.finals.tolist()))(
            simulate_sessions("online", {"win:1": 10}, 1000, 50, 20, seed=seed, workers=1)),
        "deal_batch": lambda seed: (lambda r: (r.seed, r.hands.tolist()))(deal_batch("macau", 300, seed=seed, workers=1)),
        "play_shoes": lambda seed: (lambda r: (r.seed, r.to_dict()["bets"]))(
            play_shoes("macau", 2, "perfect", seed=seed, workers=1, bets=["tie:1"])),
        "Game": game,
        "design": lambda seed: (None, design("macau", "point:0", (0.0, 0.05), shoes=2, seed=seed, workers=1, limit=2)),
    }


@pytest.mark.parametrize("entry", list(_runs()))
@pytest.mark.parametrize("bit_generator", ["PCG64", "Philox"])
def test_a_generator_seeds_a_run_that_its_recorded_seed_recreates(entry: str, bit_generator: str) -> None:
    """Given a Generator (or its BitGenerator), a run draws a 256-bit seed from it (the four
    next words of its stream), records that int, and the int re-creates the run bit for
    bit; the generator moves on, so the next run differs (and records its own seed)."""
    run = _runs()[entry]
    make = getattr(np.random, bit_generator)
    given = np.random.Generator(make(2024))
    recorded, produced = run(given if bit_generator == "PCG64" else given.bit_generator)
    twin = np.random.Generator(make(2024))
    expected = _drawn(twin)
    if recorded is not None:  # design records no seed: the pay options it found re-create
        assert recorded == expected
    again = run(expected)
    assert again == (recorded, produced)
    assert given.bit_generator.random_raw(3).tolist() == twin.bit_generator.random_raw(3).tolist()  # four words drawn, no more
    assert run(given)[1] != produced


def test_a_generator_seed_is_bounded_work_and_a_legacy_state_is_refused() -> None:
    """A RandomState (numpy's legacy generator) is not taken: numpy's own default_rng refuses it too."""
    from sanggong import simulate

    with pytest.raises(TypeError, match=r"seed must be an int, a SeedSequence or None \(or a numpy Generator\), not"):
        simulate("online", 10, seed=np.random.RandomState(1))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="got a 4000000-bit number"):
        simulate("online", 10, seed=1 << 3_999_999)
