"""pytest-benchmark, issue 33 item 5: vectorised card-game environments side by side in one
run, 1,024 environments x 50 steps a call, one core (benchmarks/rl_workloads.py): EnvPool's
Blackjack-v1 on one thread, Gymnasium's Blackjack-v1 in a SyncVectorEnv, sanggong's
VectorTable at 1,024 Macau tables and its Gymnasium adapter (the adapter's own cost is the
last two's ratio). A contender whose library is missing is skipped, saying which.
Steps a second = 1,024 * 50 / the time of a call (extra_info["env_steps"])."""

from __future__ import annotations

import pytest
from rl_workloads import CONTENDERS, ENVIRONMENTS, ENVS, STEPS


@pytest.mark.parametrize("name", ENVIRONMENTS)
def test_rl_env_steps(benchmark, name: str) -> None:  # type: ignore[no-untyped-def]
    try:
        run = CONTENDERS[name](STEPS)
    except ImportError as error:
        pytest.skip(f"{name}: {error.name or error} is not installed (pip install envpool / the [rl] extra)")
    # Gymnasium's Python vector is over a hundred times slower (4 s a call): two calls, no warm-up
    slow = "SyncVectorEnv" in name
    benchmark.group = f"rl environments, {ENVS:,} envs x {STEPS} steps, one core"
    benchmark.extra_info["env_steps"] = ENVS * STEPS
    benchmark.pedantic(run, rounds=2 if slow else 7, iterations=1, warmup_rounds=0 if slow else 1)
