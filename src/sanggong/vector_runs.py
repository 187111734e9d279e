"""Long runs of a caller's policy over many tables, spread over processes or any
``concurrent.futures.Executor`` (Dask's ``Client.get_executor()`` included):
``run_policy``.

The tables are cut into tasks of ``tables_per_task``; a task steps its tables with a
``VectorTable`` for ``steps`` rounds, calling ``policy(obs, info)`` for every round's stakes
(int64 ``(tables, players, bets)`` minor units, as ``VectorTable.step`` takes them). Table
k deals from the k-th chunk seed of ``seed`` (``seeds.child(SeedSequence(seed), k)``:
``Game(rules, seed=...)``'s rounds, the seeding contract of ``deal_batch`` and
``simulate``), whichever task holds it, so the results do not depend on the workers, the
executor or ``tables_per_task``, as long as the policy stakes at each table from that
table's row of the observation alone (as ``Flat`` does). Money is summed exactly: int64 a
table while its sums provably fit (NumPy's int64 addition wraps silently, and a long run at
``limits.MAX_STAKE`` stakes leaves int64 within ten thousand rounds), folded into Python
ints before they could leave it (``table_totals`` and ``table_staked`` are then arrays of
Python ints), and Python ints over tables.

>>> from sanggong import MACAU
>>> run = run_policy(MACAU, Flat({"win:1": 100}), tables=8, steps=50, seed=1, workers=1)
>>> run.table_totals.shape, run.table_rounds.tolist() == [50] * 8
((8, 1), True)
>>> run.totals == [int(run.table_totals[:, 0].sum())]
True
"""

from __future__ import annotations

import dataclasses
import pickle
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from typing import Any

import numpy as np
import numpy.typing as npt

from ._checks import count, memory
from ._parallel import check_executor, execute
from ._parallel import workers as check_workers
from .rules import RuleSet, as_rules
from .seeds import Seed, SeedLike, check_seed
from .vector import MAX_PLAYERS, MAX_TABLES, VectorTable

__all__ = ["Flat", "PolicyRun", "run_policy"]

Int64s = npt.NDArray[np.int64]
Policy = Callable[[dict[str, Any], dict[str, Any]], Int64s]


class Flat:
    """A policy that stakes the same amounts every round at every table (minor units,
    ``{bet: stake}``), a carried stake kept (raised to the flat stake, never lowered) and
    each stake cut to what the mask allows (a ruined player stakes nothing). Picklable:
    the example policy of ``run_policy``."""

    def __init__(self, stakes: Mapping[str, int]) -> None:
        self.stakes = {name: count(f"stake of {name}", amount, 1 << 62, low=0) for name, amount in stakes.items()}
        self._row: Int64s | None = None
        self._bets: tuple[str, ...] = ()

    def __call__(self, obs: dict[str, Any], info: dict[str, Any]) -> Int64s:
        low, high = info["low"], info["high"]
        bets = tuple(info["bets"])
        if self._row is None or self._bets != bets:
            missing = set(self.stakes) - set(bets)
            if missing:
                raise ValueError(f"Flat: {', '.join(sorted(missing))} not among the bets staked ({', '.join(bets)})")
            self._row = np.array([self.stakes.get(name, 0) for name in bets], dtype=np.int64)
            self._bets = bets
        stakes: Int64s = np.maximum(np.minimum(self._row, high), low)
        return stakes

    def __repr__(self) -> str:
        return f"Flat({self.stakes!r})"


@dataclasses.dataclass(frozen=True)
class PolicyRun:
    """What ``run_policy`` returns."""

    rules: RuleSet
    seed: int | Seed
    """The run's seed, as recorded (table k deals from its k-th child)."""
    steps: int
    bets: tuple[str, ...]
    table_totals: Int64s
    """Each player's net at each table (tables, players), int64 minor units (Python ints,
    dtype object, if one of them leaves int64)."""
    table_staked: Int64s
    """Each player's stakes at each table, summed (tables, players), int64 minor units
    (a carried stake counted in every round it stands; Python ints, dtype object, if one
    of them leaves int64)."""
    table_rounds: Int64s
    """Rounds dealt at each table (tables,)."""

    @property
    def totals(self) -> list[int]:
        """Each player's net over every table: exact ints (minor units)."""
        return [int(x) for x in self.table_totals.astype(object).sum(axis=0)]

    @property
    def staked(self) -> list[int]:
        """Each player's stakes over every table: exact ints (minor units)."""
        return [int(x) for x in self.table_staked.astype(object).sum(axis=0)]


def _offset(sequence: np.random.SeedSequence, first: int) -> np.random.SeedSequence:
    """A sequence whose i-th child is ``sequence``'s (first + i)-th (``seeds.child``
    keys a child by ``n_children_spawned`` plus its index)."""
    return np.random.SeedSequence(sequence.entropy, spawn_key=sequence.spawn_key, pool_size=sequence.pool_size,
                                  n_children_spawned=sequence.n_children_spawned + first)


def _run_tables(
    rules: RuleSet, policy: Policy, sequence: np.random.SeedSequence, first: int, n: int, steps: int, players: int,
    options: dict[str, Any],
) -> tuple[int, Int64s, Int64s, Int64s]:
    """One task: tables first .. first + n - 1 for ``steps`` rounds (picklable, for any executor)."""
    table = VectorTable(rules, n, players=players, seed=_offset(sequence, first), **options)
    obs, info = table.reset()
    info["bets"] = table.bets
    sums = _Sums((n, players))
    for _ in range(steps):
        stakes = policy(obs, info)
        obs, reward, _, _, info = table.step(stakes)
        info["bets"] = table.bets
        sums.add(reward, stakes.sum(axis=2))
    table.close()
    totals, staked = sums.value()
    return first, totals, staked, np.full(n, steps, dtype=np.int64)


class _Sums:
    """Two running sums of int64 arrays (a step's nets and stakes), exact: added in int64
    while the room left below 2**63 - 1 covers the step's largest magnitude (so no element
    can wrap, as NumPy's int64 addition would silently), otherwise first folded into Python
    ints (object arrays). Not thread-safe: one task's loop owns it."""

    _ROOM = (1 << 63) - 1

    def __init__(self, shape: tuple[int, int]) -> None:
        self.parts = [np.zeros(shape, dtype=np.int64), np.zeros(shape, dtype=np.int64)]
        self.folded: list[npt.NDArray[Any]] = []
        self.room = self._ROOM

    def add(self, *steps: Int64s) -> None:
        reach = max(max(int(step.max()), -int(step.min())) for step in steps)
        if reach > self.room:
            self._fold()
        self.room -= reach
        for part, step in zip(self.parts, steps, strict=True):
            part += step

    def _fold(self) -> None:
        if not self.folded:
            self.folded = [np.zeros(part.shape, dtype=object) for part in self.parts]
        for exact, part in zip(self.folded, self.parts, strict=True):
            exact += part.astype(object)
            part[:] = 0
        self.room = self._ROOM

    def value(self) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
        """The sums: int64 arrays, or arrays of Python ints where a sum left int64."""
        if not self.folded:
            return self.parts[0], self.parts[1]
        self._fold()
        return _narrowed(self.folded[0]), _narrowed(self.folded[1])


def _narrowed(exact: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """Python ints as int64 when every one fits, else as they are."""
    fits = all(-(1 << 63) <= int(x) < (1 << 63) for x in exact.flat)
    return exact.astype(np.int64) if fits else exact


def run_policy(
    rules: RuleSet | str, policy: Policy, *, tables: int, steps: int, players: int = 1, seed: SeedLike = None,
    bets: Sequence[str] | None = None, limits: int | Mapping[str, int] | None = None, bankroll: int | None = None,
    by_rank: bool = False, tables_per_task: int = 256, workers: int | None = None, executor: Executor | None = None,
) -> PolicyRun:
    """``policy`` over ``steps`` rounds at each of ``tables`` tables (see the module's notes).

    :param policy: ``policy(obs, info) -> stakes``: ``VectorTable.step``'s observation and
        info for a task's tables (``info["low"]`` / ``["high"]`` the mask, ``info["bets"]``
        the bets' order), returning int64 stakes ``(tables, players, bets)``; picklable for
        an executor of processes (a module's function or class, as ``Flat``). A stake the
        mask refuses raises ``VectorTable.step``'s ``ValueError``.
    :param tables: 1 .. ``MAX_TABLES`` tables; ``players``, ``bets``, ``limits``,
        ``bankroll``, ``by_rank``: ``VectorTable``'s.
    :param tables_per_task: tables a task steps at once (does not change the results).
    :param workers: processes (None: every core; 1, or a single task: in this process, no pool), started by
        forkserver (spawn where there is none: the policy is imported by name), or with an
        ``executor`` the tasks in flight.
    :param executor: run the tasks on this executor instead (e.g. Dask's ``Client.get_executor()``).
    """
    rules = as_rules(rules)
    if not callable(policy):
        raise TypeError(f"policy must be callable, not {type(policy).__name__}")
    tables = count("tables", tables, MAX_TABLES * 1024)
    steps = count("steps", steps, 1 << 62, low=0)
    players = count("players", players, MAX_PLAYERS)
    per_task = count("tables_per_task", tables_per_task, MAX_TABLES)
    window = check_workers(workers)
    check_executor(executor)
    sequence, recorded = check_seed(seed)
    options: dict[str, Any] = {"bets": bets, "limits": limits, "bankroll": bankroll, "by_rank": by_rank}
    probe = VectorTable(rules, 1, players=players, seed=0, **options)  # the arguments checked before any task runs
    names = probe.bets
    memory("run_policy's totals", 3 * 8 * tables * players, "fewer tables or players")
    in_pool = executor is None and not (window == 1 or tables <= per_task)
    if in_pool or executor is not None:  # (a task's policy crosses to another process: pickled)
        try:
            pickle.dumps(policy)
        except Exception as exc:  # noqa: BLE001 - whatever pickling raises, the policy cannot go
            raise TypeError(f"policy: a run over several processes pickles the policy, and this one cannot be "
                            f"pickled ({type(exc).__name__}: {exc}); use a module's function or class, or "
                            f"workers=1") from None
    totals = np.zeros((tables, players), dtype=np.int64)
    staked = np.zeros((tables, players), dtype=np.int64)
    rounds = np.zeros(tables, dtype=np.int64)

    def absorb(result: tuple[int, Int64s, Int64s, Int64s]) -> None:
        nonlocal totals, staked
        first, net, stakes, dealt = result
        if net.dtype == object and totals.dtype != object:  # (a table's sum left int64: Python ints)
            totals = totals.astype(object)
        if stakes.dtype == object and staked.dtype != object:
            staked = staked.astype(object)
        totals[first:first + len(dealt)] = net
        staked[first:first + len(dealt)] = stakes
        rounds[first:first + len(dealt)] = dealt

    tasks = ((rules, policy, sequence, first, min(per_task, tables - first), steps, players, options)
             for first in range(0, tables, per_task))
    if not in_pool and executor is None:  # (one task: no pool to start)
        for task in tasks:
            absorb(_run_tables(*task))
    elif executor is None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        # forkserver (spawn where there is none): a fork of a process running threads may deadlock
        method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
        with ProcessPoolExecutor(max_workers=window, mp_context=multiprocessing.get_context(method)) as pool:
            if execute(tasks, _run_tables, pool, 2 * window, absorb, None):
                raise KeyboardInterrupt
    elif execute(tasks, _run_tables, executor, 2 * window, absorb, None):
        raise KeyboardInterrupt
    return PolicyRun(rules, recorded, steps, names, totals, staked, rounds)
