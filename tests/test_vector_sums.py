"""run_policy's sums of money stay exact where int64 would wrap: its running sums against
Python ints, and a run at the largest stakes (once, under the default implementation: the
sums are Python's, the same for either kernel)."""

from __future__ import annotations

import numpy as np

from sanggong import MACAU
from sanggong.vector_runs import Flat, run_policy


def test_sums_stay_exact_past_int64() -> None:
    """The task's running sums against Python ints, with steps near int64's ends (NumPy's
    int64 addition would wrap)."""
    from sanggong.vector_runs import _Sums

    top = (1 << 63) - 1
    rng = np.random.default_rng(5)
    sums, net, staked = _Sums((3, 2)), np.zeros((3, 2), dtype=object), np.zeros((3, 2), dtype=object)
    for step in range(40):
        a = rng.integers(-top, top, size=(3, 2), dtype=np.int64, endpoint=True)
        b = rng.integers(0, top, size=(3, 2), dtype=np.int64, endpoint=True)
        if step % 7 == 0:
            a[:] = top if step % 2 else -top
        sums.add(a, b)
        net += a.astype(object)
        staked += b.astype(object)
    got_net, got_staked = sums.value()
    assert [int(x) for x in got_net.flat] == [int(x) for x in net.flat]
    assert [int(x) for x in got_staked.flat] == [int(x) for x in staked.flat]
    assert got_staked.dtype == object  # 40 non-negative draws near 2**63 left int64
    small = _Sums((1, 1))
    small.add(np.array([[-5]], dtype=np.int64), np.array([[7]], dtype=np.int64))
    assert [x.dtype for x in small.value()] == [np.int64, np.int64]


def test_a_run_at_the_largest_stakes_is_summed_exactly() -> None:
    """9,300 rounds staking limits.MAX_STAKE: the stakes' sum passes 2**63 - 1 (where int64
    would have wrapped negative); the nets summed round by round in Python ints agree."""
    from sanggong.limits import MAX_STAKE
    from sanggong.vector import VectorTable

    steps = 9_300
    assert steps * MAX_STAKE > (1 << 63) - 1
    run = run_policy(MACAU, Flat({"win:1": MAX_STAKE}), tables=1, steps=steps, seed=8, bets=["win:1"], workers=1)
    assert run.staked == [steps * MAX_STAKE]
    assert [int(x) for x in run.table_staked.flat] == [steps * MAX_STAKE]
    table = VectorTable(MACAU, 1, seed=8, bets=["win:1"])  # (table k: the k-th chunk seed of 8, as in run_policy)
    table.reset()
    nets = [0]
    stakes = np.full((1, 1, 1), MAX_STAKE, dtype=np.int64)
    for _ in range(steps):
        reward = table.step(stakes)[1]
        nets = [n + int(r) for n, r in zip(nets, reward[:, 0], strict=True)]
    assert [int(x) for x in run.table_totals[:, 0]] == nets
