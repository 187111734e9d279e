"""pytest-benchmark: VectorTable's step at 1,024 Macau tables (one core, numpy stakes on one
bet and on every bet), its kernel alone, and simulate's round loop for the same rounds
(``_core.simulate_chunk``): the issue's goal is 10 million table-rounds a second, within
2x of simulate's loop. Compare the groups' ratios (a shared machine is noisy)."""

from __future__ import annotations

import numpy as np
import pytest

import sanggong
from sanggong import _core, _kernels
from sanggong._table import table_params
from sanggong.ranking import tables_for
from sanggong.simulation import _histograms
from sanggong.vector import VectorTable

TABLES = 1024
STEPS = 50
BETS = pytest.mark.parametrize("bets", [["win:1"], None], ids=["one-bet", "every-bet"])


def _table(bets: list[str] | None) -> tuple[VectorTable, np.ndarray]:
    table = VectorTable(sanggong.MACAU, TABLES, seed=1, bets=bets)
    stakes = np.zeros((TABLES, 1, len(table.bets)), dtype=np.int64)
    stakes[:, 0, 0] = 100  # (a tie carries it: the step keeps it, raised never)
    return table, stakes


def _steps(table: VectorTable, stakes: np.ndarray) -> None:
    low = table.mask()[0]
    for _ in range(STEPS):
        low = table.step(np.maximum(stakes, low))[4]["low"]


@BETS
def test_vector_step(benchmark, bets: list[str] | None) -> None:  # type: ignore[no-untyped-def]
    """STEPS steps of the public API at 1,024 tables: TABLES * STEPS table-rounds a call."""
    table, stakes = _table(bets)
    benchmark.group = "vector, macau, 1,024 tables x 50 rounds"
    benchmark.extra_info["table_rounds"] = TABLES * STEPS
    benchmark.pedantic(_steps, args=(table, stakes), rounds=5, iterations=1)


@BETS
def test_vector_kernel(benchmark, bets: list[str] | None) -> None:  # type: ignore[no-untyped-def]
    """The kernel alone (no checks, no observation copies), the same rounds."""
    table, stakes = _table(bets)
    kernel = table._kernel
    args = (stakes, table._carried, table._reward, table._cards, table._head, table._outcome, table._unseen,
            table._shoe)

    def run() -> None:
        for _ in range(STEPS):
            table._carried[:] = 0
            kernel.step(0, TABLES, *args)

    benchmark.group = "vector, macau, 1,024 tables x 50 rounds"
    benchmark.pedantic(run, rounds=5, iterations=1)


def test_simulate_loop_same_rounds(benchmark) -> None:  # type: ignore[no-untyped-def]
    """simulate's round loop for as many Macau rounds (one shoe running on)."""
    rules = sanggong.MACAU
    kernel, params = _kernels.tables(tables_for(rules.ranking)), table_params(rules).array()
    pairs, single = _histograms(rules)
    flag = np.zeros(1, np.uint8)
    benchmark.group = "vector, macau, 1,024 tables x 50 rounds"
    benchmark.pedantic(lambda: _core.simulate_chunk(np.random.PCG64(1), kernel, params, TABLES * STEPS, pairs, single,
                                                    None, None, None, flag), rounds=5, iterations=1)
