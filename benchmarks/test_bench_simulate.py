"""pytest-benchmark: the exact analysis and the simulation (see report.py for the ratios
quoted in the README): simulate() on one and two workers, and its round loop alone
(``_core.simulate_chunk``) beside the yardstick's plain-C loop for the same rounds
(yardstick.c, checked equal in tests/test_yardstick.py), for the two tables of the
README's goals: online, and Macau with 8 decks and 7 positions."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
import yardstick

import sanggong
from sanggong import _core, _kernels
from sanggong._kernels import twin as _pykernels
from sanggong._table import table_params
from sanggong.ranking import tables_for
from sanggong.simulation import DEFAULT_CHUNK, _histograms, simulate

MACAU7 = sanggong.MACAU.replace(decks=8, positions=7)
ROUNDS = 8 * DEFAULT_CHUNK  # whole chunks: four per core on two cores
TABLES = pytest.mark.parametrize("rules", [sanggong.ONLINE, MACAU7], ids=["online", "macau-8-decks-7-positions"])


@pytest.fixture(scope="module")
def lib():  # type: ignore[no-untyped-def]
    if yardstick.compiler() is None:
        pytest.skip("no C compiler found: the yardstick is not built")
    return yardstick.build()


@pytest.mark.parametrize("rules", [sanggong.MACAU, sanggong.ONLINE], ids=["macau", "online"])
@pytest.mark.parametrize("decks", [1, 8])
def test_analyze(benchmark, rules: sanggong.RuleSet, decks: int) -> None:
    benchmark(sanggong.analyze, rules.replace(decks=decks))


@pytest.mark.parametrize("workers", [1, 2])
@TABLES
def test_simulate(benchmark, rules: sanggong.RuleSet, workers: int) -> None:
    benchmark.pedantic(simulate, args=(rules, ROUNDS), kwargs={"seed": 1, "workers": workers, "compare_exact": False},
                       rounds=5, iterations=1)


@TABLES
def test_simulate_chunk(benchmark, rules: sanggong.RuleSet) -> None:
    """The round loop alone: one core, the default ranking, every bet's histograms."""
    kernel, params = _kernels.lookups(tables_for(rules.ranking)), table_params(rules).array()
    pairs, single = _histograms(rules)
    flag = np.zeros(1, np.uint8)
    benchmark.group = f"round loop, {rules.name}"
    benchmark.pedantic(lambda: _core.simulate_chunk(np.random.PCG64(1), kernel, params, ROUNDS, pairs, single,
                                                    None, None, None, flag), rounds=5, iterations=1)


@TABLES
def test_yardstick_rounds(benchmark, lib, rules: sanggong.RuleSet) -> None:  # type: ignore[no-untyped-def]
    """The yardstick's loop for the same rounds (the same draws and histograms)."""
    run: Callable[..., None] = yardstick.online if rules is sanggong.ONLINE else yardstick.macau
    pairs, single = yardstick.histograms(rules.hands)
    benchmark.group = f"round loop, {rules.name}"
    benchmark.pedantic(lambda: run(lib, np.random.PCG64(1), ROUNDS, pairs, single), rounds=5, iterations=1)


def test_simulate_reference(benchmark, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_kernels, "kernels", _pykernels)
    benchmark.pedantic(simulate, args=(sanggong.ONLINE, 2000), kwargs={"seed": 1, "workers": 1, "compare_exact": False},
                       rounds=3, iterations=1)
