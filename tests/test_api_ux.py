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
