"""The vectorised-environment contenders of issue 33, item 5, as callables of ``STEPS``
steps at ``ENVS`` environments each, one core: EnvPool's Blackjack-v1 (one thread),
Gymnasium's Blackjack-v1 in a ``SyncVectorEnv``, sanggong's ``VectorTable`` at 1,024 Macau
tables (numpy stakes, one bet) and the Gymnasium adapter over it (``SanggongVectorEnv``,
the same bet); and beside them sanggong's own variants for the same rounds: every bet of
the table (one staked), ``copy=False`` (views, no allocation a step), two workers, the
kernel alone (``VectorKernel.run``, no check, no observation) and ``simulate``'s round
loop for as many Macau rounds (one shoe running on; the goal is a step within 2x of it).
A contender whose library is not installed is left out with the reason (``missing``).
One step is one round at every table / one action in every Blackjack hand (a stand, or a
hit, drawn beforehand; the Blackjack vectors reset a finished hand on the next step, as
their libraries count steps).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

import sanggong
from sanggong.vector import VectorTable

ENVS = 1024
STEPS = 50

Contender = Callable[[], object]


def blackjack_actions(steps: int = STEPS) -> np.ndarray:
    """Stand or hit, the same for every Blackjack contender (drawn once)."""
    return np.random.default_rng(1).integers(0, 2, (steps, ENVS)).astype(np.int32)


def envpool_blackjack(steps: int = STEPS) -> Contender:
    import envpool  # type: ignore[import-not-found, unused-ignore]

    env = envpool.make_gymnasium("Blackjack-v1", num_envs=ENVS, batch_size=ENVS, num_threads=1, seed=1)
    env.reset()
    actions = blackjack_actions(steps)

    def run() -> None:
        for a in actions:
            env.step(a)

    return run


def gymnasium_blackjack(steps: int = STEPS) -> Contender:
    import gymnasium

    env = gymnasium.make_vec("Blackjack-v1", num_envs=ENVS, vectorization_mode="sync")
    env.reset(seed=1)
    actions = blackjack_actions(steps)

    def run() -> None:
        for a in actions:
            env.step(a)

    return run


def vector_table(steps: int = STEPS, bets: tuple[str, ...] | None = ("win:1",), copy: bool = True,
                 workers: int = 1) -> Contender:
    """``steps`` steps of ``VectorTable`` (``bets`` None: every bet of the table), Win 1 staked."""
    table = VectorTable(sanggong.MACAU, ENVS, seed=1, bets=bets, copy=copy, workers=workers)
    stakes = np.zeros((ENVS, 1, len(table.bets)), dtype=np.int64)
    stakes[:, 0, 0] = 100
    state = {"low": table.mask()[0]}

    def run() -> None:
        low = state["low"]
        for _ in range(steps):
            low = table.step(np.maximum(stakes, low))[4]["low"]  # a carried stake kept (a tie)
        state["low"] = low

    return run


def vector_kernel(steps: int = STEPS) -> Contender:
    """The kernel alone at the same stakes: one ``run`` a step (the carried stakes cleared,
    as a step that never raises them would leave them)."""
    table = VectorTable(sanggong.MACAU, ENVS, seed=1, bets=["win:1"])
    stakes = np.full((ENVS, 1, 1), 100, dtype=np.int64)
    kernel, carried = table._kernel, table._carried

    def run() -> None:
        for _ in range(steps):
            carried.fill(0)
            kernel.run(stakes, 1)

    return run


def simulate_loop(steps: int = STEPS) -> Contender:
    """``simulate``'s round loop (``_core.simulate_chunk``) for ``ENVS * steps`` Macau rounds."""
    from sanggong import _core, _kernels
    from sanggong.ranking import tables_for
    from sanggong.simulation import _histograms

    rules = sanggong.MACAU
    kernel, params = _kernels.lookups(tables_for(rules.ranking)), rules.table_params.array()
    pairs, single = _histograms(rules)
    flag = np.zeros(1, np.uint8)
    return lambda: _core.simulate_chunk(np.random.PCG64(1), kernel, params, ENVS * steps, pairs, single, None, None,
                                        None, flag)


def gymnasium_adapter(steps: int = STEPS) -> Contender:
    from sanggong.envs.gym import SanggongVectorEnv

    env = SanggongVectorEnv(ENVS, "macau", seed=1, bets=["win:1"], chips=1, end_at_shoe=True)
    env.reset()
    actions = np.ones((ENVS, 1), dtype=np.int64)

    def run() -> None:
        for _ in range(steps):
            env.step(actions)

    return run


CONTENDERS: dict[str, Callable[[int], Contender]] = {
    "EnvPool Blackjack-v1, 1 thread": envpool_blackjack,
    "Gymnasium Blackjack-v1, SyncVectorEnv": gymnasium_blackjack,
    "sanggong VectorTable, Macau, one bet": vector_table,
    "sanggong SanggongVectorEnv (Gymnasium adapter), Macau, one bet": gymnasium_adapter,
    "sanggong VectorTable, Macau, every bet (one staked)": lambda steps: vector_table(steps, bets=None),
    "sanggong VectorTable, Macau, one bet, copy=False": lambda steps: vector_table(steps, copy=False),
    "sanggong VectorTable, Macau, one bet, copy=False, 2 workers": lambda steps: vector_table(steps, copy=False,
                                                                                            workers=2),
    "sanggong VectorKernel.run alone, Macau, one bet": vector_kernel,
    "sanggong simulate's round loop, as many Macau rounds": simulate_loop,
}
"""Name: maker of a contender (``steps`` a call)."""

ENVIRONMENTS = list(CONTENDERS)[:4]
"""The environments side by side (test_bench_rl.py): EnvPool's, Gymnasium's, VectorTable and its adapter."""

VARIANTS = [name for name in CONTENDERS if name.startswith("sanggong") and "Gymnasium" not in name]
"""VectorTable and its own variants for the same rounds (test_bench_vector.py)."""


def available(steps: int = STEPS) -> tuple[dict[str, Contender], dict[str, str]]:
    """The contenders this machine can run, and why each other one is left out."""
    made: dict[str, Contender] = {}
    missing: dict[str, str] = {}
    for name, make in CONTENDERS.items():
        try:
            made[name] = make(steps)
        except ImportError as error:
            missing[name] = f"not installed: {error.name or error}"
    return made, missing
