"""pytest-benchmark: the exact analysis and the simulation (see report.py for the ratios
quoted in the README)."""

from __future__ import annotations

import pytest

import sanggong
from sanggong import _impl, _reference
from sanggong.simulation import DEFAULT_CHUNK, simulate

MACAU7 = sanggong.MACAU.replace(decks=8, positions=7)
ROUNDS = 8 * DEFAULT_CHUNK  # whole chunks: four per core on two cores


@pytest.mark.parametrize("rules", [sanggong.MACAU, sanggong.ONLINE], ids=["macau", "online"])
@pytest.mark.parametrize("decks", [1, 8])
def test_analyze(benchmark, rules: sanggong.RuleSet, decks: int) -> None:
    benchmark(sanggong.analyze, rules.replace(decks=decks))


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("rules", [sanggong.ONLINE, MACAU7], ids=["online", "macau-8-decks-7-positions"])
def test_simulate(benchmark, rules: sanggong.RuleSet, workers: int) -> None:
    benchmark.pedantic(simulate, args=(rules, ROUNDS), kwargs={"seed": 1, "workers": workers, "compare_exact": False},
                       rounds=5, iterations=1)


def test_simulate_reference(benchmark, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_impl, "kernels", _reference)
    benchmark.pedantic(simulate, args=(sanggong.ONLINE, 2000), kwargs={"seed": 1, "workers": 1, "compare_exact": False},
                       rounds=3, iterations=1)
