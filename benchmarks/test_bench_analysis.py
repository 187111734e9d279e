"""pytest-benchmark: the exact analysis of every preset, its effect of removal and the
shoe evaluator's exact EVs (see report.py's analysis_figures for the figures the README
quotes, with the suit rankings' counting before issue 23 timed beside them)."""

from __future__ import annotations

import pytest
from workloads import card_multiset_joint

import sanggong
from sanggong._counting import count_hands as _counts
from sanggong.shoe import ShoeEvaluator

PRESETS = sanggong.PRESETS
SUIT_PRESETS = [name for name, rules in PRESETS.items() if rules.ranking.uses_suits]


@pytest.mark.parametrize("name", list(PRESETS))
@pytest.mark.parametrize("decks", [1, 8, 64])
def test_analyze(benchmark, name: str, decks: int) -> None:
    """Every preset, any deck count: <= 5 ms warm (issue 23)."""
    benchmark(sanggong.analyze, PRESETS[name].replace(decks=decks))


@pytest.mark.parametrize("name", SUIT_PRESETS)
def test_suit_pairs_before(benchmark, name: str) -> None:
    """The pair counts of an 8-deck suit-ranking shoe as they were counted before (every
    pair of the 24,804 card multisets): the figure the analysis above replaces."""
    rules = PRESETS[name].replace(decks=8)
    counts = sanggong.composition(8)
    assert [int(x) for x in card_multiset_joint(rules.ranking, counts)] == [int(x) for x in _counts(rules, counts).joint]
    benchmark.pedantic(card_multiset_joint, args=(rules.ranking, counts), rounds=3, iterations=1)


@pytest.mark.parametrize("name", SUIT_PRESETS)
def test_effect_of_removal(benchmark, name: str) -> None:
    benchmark(sanggong.effect_of_removal, PRESETS[name])


@pytest.mark.parametrize("name", list(PRESETS))
def test_shoe_evaluator_evs(benchmark, name: str) -> None:
    """Every bet's exact EV (Fractions) for the preset's full shoe: <= 100 us (issue 23)."""
    benchmark(ShoeEvaluator(PRESETS[name]).evs)
