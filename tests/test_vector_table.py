"""VectorTable: each table deals the rounds of ``Game`` seeded by its chunk seed, card for
card, and pays what ``TableSession`` pays on the same cards and stakes (carried stakes
included); a refused step changes nothing; the workers do not change the result."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import numpy as np
import pytest

from sanggong import MACAU, ONLINE, Game
from sanggong._table import ROUNDINGS
from sanggong.limits import MAX_STAKE
from sanggong.rules import PRESETS, RuleSet
from sanggong.seeds import child
from sanggong.settlement import TableSession
from sanggong.vector import VectorTable

pytestmark = pytest.mark.kernels


def _stakes(table: VectorTable, rng: np.random.Generator, low: np.ndarray) -> np.ndarray:
    """Random legal stakes: most bets left out, odd amounts (rounding), carried ones raised or kept."""
    shape = low.shape
    s = np.where(rng.random(shape) < 0.3, rng.integers(1, 999, shape), 0).astype(np.int64)
    s = np.where(low > 0, low + np.where(rng.random(shape) < 0.5, 0, rng.integers(0, 50, shape)), s)
    for j, partner in enumerate(table.requires.tolist()):
        if partner >= 0:
            s[:, :, partner] = np.where((s[:, :, j] > 0) & (s[:, :, partner] == 0), 101, s[:, :, partner])
    return s


def _unseen(rules: RuleSet, seen: Counter[int]) -> list[int]:
    return [rules.decks - seen[c] for c in range(52)]


@pytest.mark.parametrize("rules", [*PRESETS.values(), *(dataclasses.replace(ONLINE, rounding=r) for r in ROUNDINGS[1:])],
                         ids=lambda r: f"{r.name}-{r.rounding}")
def test_cards_and_money_are_games_and_sessions(rules: RuleSet) -> None:
    tables, players, rounds = 3, 2, 45 if rules.decks > 1 else 12
    table = VectorTable(rules, tables, players=players, seed=2024)
    games = [Game(rules, seed=child(np.random.SeedSequence(2024), k)) for k in range(tables)]
    assert all(table.table_seed(k).spawn_key == child(np.random.SeedSequence(2024), k).spawn_key
               for k in range(tables))
    sessions = [[TableSession(rules) for _ in range(players)] for _ in range(tables)]
    seen: list[Counter[int]] = [Counter() for _ in range(tables)]
    rng = np.random.default_rng(1)
    obs, info = table.reset()
    shoes_ended = 0
    for _ in range(rounds):
        stakes = _stakes(table, rng, info["low"])
        obs, reward, terminated, truncated, info = table.step(stakes)
        assert not terminated.any() and not truncated.any()
        for k, game in enumerate(games):
            record = game.play()
            assert [c.code for c in record.banker.cards] == obs["cards"][k, 0].tolist()
            for p in range(1, rules.hands):
                assert [c.code for c in record.hands[p].cards] == obs["cards"][k, p].tolist()
            assert obs["head_card"][k] == (255 if record.head_card is None else record.head_card.code)
            assert info["shoe"][k] == record.shoe and info["shoe_end"][k] == record.last_of_shoe
            hands = {p: record.hands[p].cards for p in range(1, rules.hands)}
            for p in range(players):
                slip = {name: int(x) for name, x in zip(table.bets, stakes[k, p], strict=True) if x}
                result = sessions[k][p].settle(record.banker.cards, hands, slip)
                assert reward[k, p] == sum(r.net for r in result.results)
                carried = dict(sessions[k][p].carried)
                assert {n: int(x) for n, x in zip(table.bets, obs["carried"][k, p], strict=True) if x} == carried
            # what the next round is dealt from: the shoe less every card seen since its shuffle
            if record.round_in_shoe == 1:
                seen[k].clear()
            seen[k].update(c.code for h in (record.banker, *record.hands.values()) for c in h.cards)
            if record.head_card is not None and rules.head_card_burned:
                seen[k][record.head_card.code] += 1
            if record.last_of_shoe:
                seen[k].clear()
                shoes_ended += 1
            assert obs["unseen"][k].tolist() == _unseen(rules, seen[k])
            assert obs["seen"][k] == sum(seen[k].values())
            assert obs["rounds"][k] == (0 if record.last_of_shoe else record.round_in_shoe)
    assert shoes_ended >= tables  # every table went through a cut card and a reshuffle


def test_by_rank_is_the_cards_summed_over_suits() -> None:
    by_card, by_rank = VectorTable(MACAU, 4, seed=3), VectorTable(MACAU, 4, seed=3, by_rank=True)
    stakes = np.zeros((4, 1, len(by_card.bets)), dtype=np.int64)
    for _ in range(20):
        a, b = by_card.step(stakes)[0], by_rank.step(stakes)[0]
        assert np.array_equal(a["unseen"].reshape(4, 13, 4).sum(axis=2), b["unseen"])
        assert np.array_equal(a["cards"], b["cards"])


def _run(table: VectorTable, rounds: int, seed: int) -> list[Any]:
    rng = np.random.default_rng(seed)
    _, info = table.reset()
    out = []
    for _ in range(rounds):
        obs, reward, _, _, info = table.step(_stakes(table, rng, info["low"]))
        out.append((obs, reward))
    return out


def test_workers_do_not_change_the_result() -> None:
    one = _run(VectorTable(MACAU, 7, players=2, seed=9, workers=1), 12, 4)
    two = _run(VectorTable(MACAU, 7, players=2, seed=9, workers=2), 12, 4)
    for (obs1, r1), (obs2, r2) in zip(one, two, strict=True):
        assert np.array_equal(r1, r2)
        assert all(np.array_equal(obs1[name], obs2[name]) for name in obs1)


def _carrying(seed: int) -> tuple[VectorTable, dict[str, Any]]:
    """A Macau vector with a Win bet carried somewhere (a tie)."""
    table = VectorTable(MACAU, 32, seed=seed, bankroll=10**6, limits={"win:1": 5_000})
    stakes = np.zeros((32, 1, len(table.bets)), dtype=np.int64)
    stakes[:, 0, : MACAU.positions] = 100
    info: dict[str, Any] = {}
    for _ in range(50):
        _, _, _, _, info = table.step(np.maximum(stakes, info.get("low", stakes)))
        if info["low"].any():
            return table, info
    raise AssertionError("no tie in 50 rounds at 32 tables")


def test_refused_steps_change_nothing() -> None:
    table, info = _carrying(5)
    twin, _ = _carrying(5)
    low, high = info["low"], info["high"]
    t, p, j = (int(x) for x in np.argwhere(low > 0)[0])
    good = low.copy()
    tie = table.bets.index("tie:1")
    cases: list[tuple[Any, str]] = [
        (good[:, :, :-1], "shape"),
        (good.astype(np.int32), "int64"),
        (good.tolist(), "numpy"),
        (np.where(np.arange(good.size).reshape(good.shape) == 7, np.nan, good.astype(float)), "table 0, player 0"),
        (good.astype(float) + 0.5, "whole number"),
        (good.astype(float), "int64"),
    ]
    for value, where, why in ((-1, (1, 0, 3), "is negative"), (5_001, (2, 0, 0), "is over the bet's limit"),
                              (int(low[t, p, j]) - 1, (t, p, j), "lowers a carried stake"),
                              (MAX_STAKE + 1, (3, 0, 5), "is over the bet's limit")):
        bad = good.copy()
        bad[where] = value
        cases.append((bad, f"table {where[0]}, player {where[1]}, bet {table.bets[where[2]]}: {value} {why}"))
    alone = good.copy()
    alone[4, 0, tie], alone[4, 0, 0] = 10, 0
    if low[4, 0, 0] == 0:
        cases.append((alone, "table 4, player 0, bet tie:1: needs a Win bet"))
    rich = good.copy()
    rich[6, 0, :] = 50_000
    rich[6, 0, 0] = 5_000
    cases.append((rich, "table 6, player 0: stakes of"))
    before = (table._kernel.state(), table.carried, table.money)
    for stakes, message in cases:
        with pytest.raises(ValueError, match=message.replace("(", r"\(")):
            table.step(stakes)
        after = (table._kernel.state(), table.carried, table.money)
        assert after[0] == before[0] and np.array_equal(after[1], before[1]) and np.array_equal(after[2], before[2])
    assert np.all(high[:, :, 0] == 5_000) and np.array_equal(low, table.carried)
    a, b = table.step(good), twin.step(good)  # and the next round is the one the untouched twin deals
    assert np.array_equal(a[1], b[1]) and np.array_equal(a[0]["cards"], b[0]["cards"])


def test_bankroll_and_round_limit() -> None:
    table = VectorTable(ONLINE, 5, seed=1, bankroll=300, max_rounds=30, bets=["tie:1", "win:1"])
    stakes = np.zeros((5, 1, 2), dtype=np.int64)
    total = np.zeros((5, 1), dtype=np.int64)
    ended = np.zeros((5, 1), dtype=bool)
    for n in range(30):
        high = table.mask()[1]
        stakes[:, :, 1] = np.minimum(100, high[:, :, 1])
        _, reward, terminated, truncated, _ = table.step(stakes)
        assert not (ended & (reward != 0)).any()  # a ruined player stakes nothing more
        total += reward
        ended |= terminated
        assert np.array_equal(terminated, 300 + total <= 0) and truncated.all() == (n == 29)
    assert np.array_equal(table.money, 300 + total)
    with pytest.raises(ValueError, match="reset"):
        table.step(stakes * 0)
    table.reset()
    assert np.array_equal(table.money, np.full((5, 1), 300))


def test_construction_is_checked() -> None:
    with pytest.raises(ValueError, match="tables"):
        VectorTable(MACAU, 0)
    with pytest.raises(ValueError, match="not one of the bets"):
        VectorTable(MACAU, 1, bets=["win:1"], limits={"win:2": 10})
    with pytest.raises(ValueError):
        VectorTable(MACAU, 1, bets=["lose:1"])  # not offered at Macau


def test_the_kernels_number_every_rounding_a_rule_set_takes() -> None:
    import typing

    from sanggong import RuleSet

    assert sorted(ROUNDINGS) == sorted(typing.get_args(typing.get_type_hints(RuleSet)["rounding"]))


def _legal_by_numpy(stakes: np.ndarray, carried: np.ndarray, high: np.ndarray, requires: np.ndarray,
                    money: np.ndarray | None) -> bool:
    """The stake rules of ``VectorTable.mask`` in whole-array numpy (an independent statement)."""
    ok = ((stakes >= carried) & (stakes <= high)).all()
    bets = stakes.shape[2]
    for j, partner in enumerate(requires.tolist()):
        if partner >= 0:
            with_partner = stakes[:, :, partner] > 0 if partner < bets else np.zeros(stakes.shape[:2], bool)
            ok &= not ((stakes[:, :, j] > 0) & ~with_partner).any()
    if money is not None:
        ok &= bool((stakes.sum(axis=2) <= money).all())
    return bool(ok)


@pytest.mark.parametrize("bankroll", [None, 400])
def test_the_one_pass_stake_check_is_the_masks(bankroll: int | None) -> None:
    """VectorKernel.legal (the core's and the twin's alike) says yes exactly where the mask's
    rules, checked apart in numpy, do: random stakes near every edge."""
    from sanggong._kernels import twin as _pykernels

    rng = np.random.default_rng(3)
    for bets in (None, ["tie:1", "win:2"]):  # (tie:1's Win bet not staked: requires == bets)
        table = VectorTable(MACAU, 6, players=2, seed=2, bets=bets, bankroll=bankroll, limits=300)
        twin = _pykernels.VectorKernel.legal
        shape = table.carried.shape
        alone = table.requires < 0  # (a carried stake is a bet's that needs no partner)
        carried = np.where((rng.random(shape) < 0.2) & alone, 50, 0).astype(np.int64)
        money = None if bankroll is None else carried.sum(axis=2) + rng.integers(0, 400, shape[:2])
        seen = Counter[bool]()
        for _ in range(300):
            s = carried.copy()
            for _ in range(rng.integers(0, 3)):  # (a few stakes moved, near the edges or anywhere)
                at = tuple(int(rng.integers(0, n)) for n in shape)
                s[at] = rng.choice([-1, 0, 1, 49, 50, 51, 299, 300, 301, int(rng.integers(0, 400))])
            expected = _legal_by_numpy(s, carried, table.high, table.requires, money)
            assert table._kernel.legal(s, carried, table.high, table.requires, money) is expected
            assert twin(table._kernel, s, carried, table.high, table.requires, money) is expected
            seen[expected] += 1
        assert seen[True] and seen[False]


def test_views_are_the_copies() -> None:
    """copy=False returns the table's own arrays, equal to what copy=True returns."""
    a = VectorTable(MACAU, 9, players=2, seed=4, bankroll=2_000, bets=["win:1", "tie:1", "odd"])
    b = VectorTable(MACAU, 9, players=2, seed=4, bankroll=2_000, bets=["win:1", "tie:1", "odd"], copy=False)
    rng = np.random.default_rng(8)
    first = a.reset(), b.reset()
    assert all(np.array_equal(x[k], y[k]) for x, y in zip(*first, strict=True) for k in x)
    ia = first[0][1]
    for _ in range(25):
        s = _stakes(a, rng, ia["low"])
        s = np.minimum(s, ia["high"])
        s[:, :, 1] = np.where(s[:, :, 0] > 0, s[:, :, 1], 0)
        s = np.where(s.sum(axis=2, keepdims=True) > a.money[:, :, None], ia["low"], s)
        ra, rb = a.step(s), b.step(s)
        for x, y in zip(ra, rb, strict=True):
            if isinstance(x, dict):
                assert x.keys() == y.keys() and all(np.array_equal(x[k], y[k]) for k in x)
            else:
                assert np.array_equal(x, y)
        ia = ra[4]
    assert rb[1] is b.step(ia["low"])[1]  # (the same array, overwritten)


def test_the_pool_is_started_once_and_stopped() -> None:
    """Two workers: the pool's thread starts at the first step, stays through reset, stops at
    close and starts again; one worker starts none. (The twin has no threads.)"""
    import sanggong

    table = VectorTable(MACAU, 300, seed=1, workers=2, bets=["win:1"])
    stakes = np.zeros((300, 1, 1), dtype=np.int64)
    table.step(stakes)
    started = 1 if sanggong.IMPLEMENTATION == "cython" else 0
    assert table._kernel.threads == started
    table.reset()
    table.step(stakes)
    assert table._kernel.threads == started
    table.close()
    assert table._kernel.threads == 0
    table.step(stakes)
    assert table._kernel.threads == started
    one = VectorTable(MACAU, 300, seed=1, bets=["win:1"])
    one.step(stakes)
    assert one._kernel.threads == 0


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="no fork here")
def test_a_forked_child_steps_without_the_parents_threads() -> None:
    """A child forked with a table whose pool runs deals the same rounds on its own thread
    and lets the table go (no join of threads it does not have)."""
    import os

    table = VectorTable(MACAU, 300, seed=6, workers=2, bets=["win:1"])
    twin = VectorTable(MACAU, 300, seed=6, bets=["win:1"])
    stakes = np.full((300, 1, 1), 5, dtype=np.int64)
    table.step(np.maximum(stakes, table.carried))
    twin.step(np.maximum(stakes, twin.carried))
    expected = twin.step(np.maximum(stakes, twin.carried))[1]
    pid = os.fork()
    if pid == 0:  # the child: exit 0 when its round is the twin's
        same = np.array_equal(table.step(np.maximum(stakes, table.carried))[1], expected)
        table.close()
        del table
        os._exit(0 if same else 1)
    assert os.waitpid(pid, 0)[1] == 0
    assert np.array_equal(table.step(np.maximum(stakes, table.carried))[1], expected)


@pytest.mark.parametrize("rounding", ROUNDINGS)
def test_every_return_is_exact_up_to_the_stake_cap(rounding: str) -> None:
    """Each return's rounded division against the exact rounding of the fraction
    (money.round_to_unit), the kernel given the factor num / den directly: divisors at the
    extremes (1, small primes, powers of two and their neighbours, up to the largest that a
    stake of 1 still allows), returns below 0 and 0, stakes from 1 to the cap that keeps
    2 stake |num| + 2 den below vector._KERNEL_BOUND (the largest stake a bet takes)."""
    from fractions import Fraction

    from sanggong import _kernels
    from sanggong.money import round_to_unit
    from sanggong.vector import _KERNEL_BOUND

    template = VectorTable(MACAU, 1, seed=0, bets=["win:1"])
    mode = ROUNDINGS.index(rounding)
    top = _KERNEL_BOUND // 4 - 2  # (the largest den with a stake of 1 under the cap for num 0 or 1)
    dens = [1, 2, 3, 7, 20, 40, 2**31 - 1, 2**31, 2**32 + 1, 2**40 - 3, 2**53 + 1, 2**59, 2**60 - 1, top - 1, top]
    nums = [0, 1, 39, 2, -1, -2, 2**33 - 7]
    rng = np.random.default_rng(8)
    for den in dens:
        for num in nums:
            cap = _KERNEL_BOUND // (2 * abs(num) + 2 * den + 2)
            if cap < 1:
                continue
            stakes = sorted({s for s in (1, 2, 3, 19, 20, 21) if s <= cap} | {max(1, cap // 2), max(1, cap - 1), cap}
                            | {int(x) for x in rng.integers(1, cap + 1, 4)})
            n = len(stakes)
            kernel = _kernels.kernels.VectorKernel(
                _lookups(),
                template._params, template._plan, [np.random.PCG64(k) for k in range(n)], 1,
                np.full((1, 256), num, dtype=np.int64), np.full((1, 256), den, dtype=np.int64),
                np.zeros((1, 256), dtype=np.uint8), mode, False)
            carried, reward = np.zeros((n, 1, 1), dtype=np.int64), np.zeros((n, 1), dtype=np.int64)
            kernel.bind(carried, reward, np.zeros((n, MACAU.hands, 3), dtype=np.uint8), np.zeros(n, dtype=np.uint8),
                        np.zeros((n, 1), dtype=np.uint8), np.zeros((n, 52), dtype=np.int16),
                        np.zeros((4, n), dtype=np.int64), np.array([cap], dtype=np.int64),
                        np.array([-1], dtype=np.int64), None)
            assert kernel.run(np.array(stakes, dtype=np.int64).reshape(n, 1, 1), 1)
            expected = [round_to_unit(Fraction(s * num, den), rounding) - s for s in stakes]
            assert reward[:, 0].tolist() == expected, (num, den)


def _lookups() -> Any:
    from sanggong import _kernels
    from sanggong.ranking import tables_for

    return _kernels.lookups(tables_for(MACAU.ranking))
