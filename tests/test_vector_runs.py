"""run_policy: a policy's long run over many tables on an executor. Table k deals the
rounds of Game seeded by the k-th chunk seed whichever task holds it, so 1, 2 and 3
workers, any task size, processes, a fake executor and Dask give the same totals; the
totals are settle's on Game's cards, worked out table by table."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import Any

import numpy as np
import pytest

from sanggong import MACAU, ONLINE, Game
from sanggong.seeds import child
from sanggong.settlement import TableSession
from sanggong.vector_runs import Flat, run_policy

pytestmark = pytest.mark.kernels

POLICY = Flat({"win:1": 100, "tie:1": 30, "win:3": 250})


class Inline(Executor):
    """A fake executor: runs each task when submitted, in this thread, and records it."""

    def __init__(self) -> None:
        self.submitted = 0

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.submitted += 1
        future: Future[Any] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


def test_totals_are_settles_on_games_cards() -> None:
    run = run_policy(MACAU, POLICY, tables=5, steps=40, players=2, seed=21, workers=1, tables_per_task=2)
    assert run.table_rounds.tolist() == [40] * 5
    totals = np.zeros((5, 2), dtype=np.int64)
    for k in range(5):
        game = Game(MACAU, seed=child(np.random.SeedSequence(21), k))
        sessions = [TableSession(MACAU) for _ in range(2)]
        for _ in range(40):
            record = game.play()
            hands = {p: record.hands[p].cards for p in range(1, MACAU.hands)}
            for p, session in enumerate(sessions):
                slip = {"win:1": 100, "tie:1": 30, "win:3": 250}
                for name, amount in session.carried.items():
                    slip[name] = max(slip.get(name, 0), amount)
                totals[k, p] += sum(r.net for r in session.settle(record.banker.cards, hands, slip).results)
    assert np.array_equal(run.table_totals, totals)
    assert run.totals == [int(totals[:, p].sum()) for p in range(2)]


def test_workers_executors_and_task_sizes_do_not_change_the_results() -> None:
    runs = [run_policy(ONLINE, POLICY, tables=13, steps=30, seed=4, workers=w, tables_per_task=size)
            for w, size in ((1, 13), (2, 3), (3, 5))]
    fake = Inline()
    runs.append(run_policy(ONLINE, POLICY, tables=13, steps=30, seed=4, executor=fake, tables_per_task=4))
    assert fake.submitted == 4
    with ProcessPoolExecutor(max_workers=2, mp_context=multiprocessing.get_context("spawn")) as pool:
        runs.append(run_policy(ONLINE, POLICY, tables=13, steps=30, seed=4, executor=pool, workers=2, tables_per_task=6))
    first = runs[0]
    for run in runs[1:]:
        assert np.array_equal(run.table_totals, first.table_totals) and run.totals == first.totals
        assert np.array_equal(run.table_staked, first.table_staked)
    assert len(set(first.table_totals[:, 0].tolist())) > 1  # the tables dealt different shoes


def test_a_bankroll_cuts_flats_stakes_to_the_money_left() -> None:
    run = run_policy(ONLINE, Flat({"win:1": 500}), tables=4, steps=120, seed=2, bankroll=1_200, bets=["win:1"],
                     workers=1)
    for k in range(4):
        game, session, money = Game(ONLINE, seed=child(np.random.SeedSequence(2), k)), TableSession(ONLINE), 1_200
        for _ in range(120):
            record = game.play()
            stake = min(500, money)
            if stake > 0:
                hands = {p: record.hands[p].cards for p in range(1, ONLINE.hands)}
                money += sum(r.net for r in session.settle(record.banker.cards, hands, {"win:1": stake}).results)
        assert run.table_totals[k, 0] == money - 1_200
    assert (run.table_totals[:, 0] == -1_200).any()  # somebody was ruined, and staked nothing after


def test_arguments_are_checked() -> None:
    with pytest.raises(TypeError, match="policy"):
        run_policy(MACAU, 3, tables=1, steps=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="tables"):
        run_policy(MACAU, POLICY, tables=0, steps=1)
    with pytest.raises(TypeError, match="executor"):
        run_policy(MACAU, POLICY, tables=1, steps=1, executor=object())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not among the bets"):
        run_policy(MACAU, Flat({"win:2": 1}), tables=1, steps=1, bets=["win:1"], workers=1)


def test_dask_gives_the_same_totals() -> None:
    distributed = pytest.importorskip("distributed", reason="dask[distributed] is not installed")
    local = run_policy(MACAU, POLICY, tables=9, steps=20, seed=8, workers=1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        with distributed.Client(cluster) as client:
            remote = run_policy(MACAU, POLICY, tables=9, steps=20, seed=8, executor=client.get_executor(), workers=2,
                                tables_per_task=2)
    assert np.array_equal(remote.table_totals, local.table_totals) and remote.totals == local.totals
