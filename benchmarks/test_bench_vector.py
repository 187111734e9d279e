"""pytest-benchmark: VectorTable's step at 1,024 Macau tables (one core, numpy stakes on one
bet and on every bet, copies or views, one worker or two), its kernel alone, and
simulate's round loop for the same rounds (``_core.simulate_chunk``): the issue's goal is
10 million table-rounds a second, within 2x of simulate's loop. The contenders are
rl_workloads.py's (``python benchmarks/report.py --vector-only`` times them interleaved
with EnvPool and Gymnasium and prints the ratios). Compare the groups' ratios (a shared
machine is noisy)."""

from __future__ import annotations

import pytest
from rl_workloads import CONTENDERS, ENVS, STEPS, VARIANTS


@pytest.mark.parametrize("name", VARIANTS)
def test_vector(benchmark, name: str) -> None:  # type: ignore[no-untyped-def]
    """STEPS steps at 1,024 tables: ENVS * STEPS table-rounds a call."""
    run = CONTENDERS[name](STEPS)
    benchmark.group = f"vector, macau, {ENVS:,} tables x {STEPS} rounds"
    benchmark.extra_info["table_rounds"] = ENVS * STEPS
    benchmark.pedantic(run, rounds=7, iterations=1, warmup_rounds=1)
