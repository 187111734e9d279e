"""Many tables stepped at once, at the core's speed: ``VectorTable``, for agents and other
simulators that choose their stakes round by round.

``tables`` independent tables of one rule set, each dealing its own shoe exactly as
``Game`` deals it, under the seeding contract of ``deal_batch`` and ``simulate``: table k
deals the rounds of ``Game(rules, seed=<the k-th chunk seed>)`` (``table.table_seed(k)``,
``seeds.child(SeedSequence(seed), k)``), one round a step, its shoe continuing through
cut card and reshuffle. ``step(stakes)`` deals and settles a round at every table in the
compiled core, without the GIL, split over ``workers`` threads (the result does not
depend on them: a pool the table starts once, stopped by ``close``), into arrays allocated
once. Its stakes are checked in one pass in the core first; only a refused step looks
further, to name the table, player and bet. With ``copy=False`` a step returns views of
the table's own arrays (overwritten by the next step) and allocates nothing.

Money is int minor units throughout (``int64``). A bet's return is its stake times an
exact rational (the odds, less commission), rounded to the minor unit by
``rules.rounding`` as ``settle`` rounds an int stake, so every reward is the exact net
``settle`` (``TableSession``, for carried stakes) gives on the same cards and stakes; no
rule set is refused for its payouts. The kernel computes in 64 bits: each bet's largest
stake is capped (``table.high``) so that no product can overflow; the cap is far above
``limits.MAX_STAKE`` for every preset.

>>> from sanggong import MACAU
>>> import numpy as np
>>> table = VectorTable(MACAU, 4, seed=7, bets=["win:1", "tie:1"])
>>> obs, info = table.reset()
>>> obs["unseen"].shape, int(obs["unseen"][0].sum())
((4, 52), 416)
>>> stakes = np.zeros((4, 1, 2), dtype=np.int64); stakes[:, 0, 0] = 100
>>> obs, reward, terminated, truncated, info = table.step(stakes)
>>> reward.shape, reward.dtype.name
((4, 1), 'int64')

A table's rounds, with its players' stakes, are recorded as ``Game``'s signed log by
``record`` (``TableLog``, ``sanggong._vector_log``).

Design (draft; docs/vector.md): done here are items 1 and 2 of the issue (the table, its
observations, masks, bankroll, round limit, the kernel and its twin); left for later:
Gymnasium / PettingZoo adapters (the observation dict and ``low``/``high`` masks
are shaped for their spaces), autoreset per table, benchmarks against EnvPool, an RL
tutorial, Dask.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import IO, Any, NoReturn

import numpy as np
import numpy.typing as npt

from . import _kernels
from ._checks import count, flag, memory
from ._parallel import workers as check_workers
from ._settlement_plan import plan_for
from ._table import ROUNDINGS
from ._threads import locked, new_lock
from ._vector_log import TableLog
from .limits import MAX_STAKE
from .ranking import tables_for
from .rules import RuleSet, as_rules, offered_bets
from .seeds import SeedLike, check_seed, child
from .settlement import payout, result_of

__all__ = ["TableLog", "VectorTable"]

MAX_TABLES = 1 << 20
"""The most tables one ``VectorTable`` holds."""

MAX_PLAYERS = 64
"""The most players a table."""

_KERNEL_BOUND = 1 << 62
MAX_MONEY = 1 << 62
"""The most a player's bankroll may hold (minor units): a step whose best outcome could
take it further is refused before it deals (the int64 sums stay exact)."""
"""What 2 * stake * numerator + 2 * denominator must stay below in the kernel (64 bits)."""

Int64s = npt.NDArray[np.int64]
_INT64 = np.dtype(np.int64)


def pay_factors(rules: RuleSet, bets: tuple[str, ...]) -> tuple[Int64s, Int64s, npt.NDArray[np.uint8]]:
    """Each bet's return on each outcome code (bets, 256): ``num / den`` a unit staked
    (commission taken; 1 on a push, 0 on a loss: ``settlement.payout``'s net plus the
    stake), and whether the code carries the stake (a Macau Win bet on a tie)."""
    plan = plan_for(rules, bets)
    num = np.zeros((len(bets), 256), dtype=np.int64)
    den = np.ones((len(bets), 256), dtype=np.int64)
    carry = np.zeros((len(bets), 256), dtype=np.uint8)
    for j, spec in enumerate(plan.specs):
        for code in sorted(set(plan.row_of(j).tolist()) - {0xFF}):
            if result_of(rules, code)[0] == "carried":
                carry[j, code] = 1
                continue
            factor = 1 + Fraction(payout(rules, spec.kind, code)[1])
            num[j, code], den[j, code] = factor.numerator, factor.denominator
    return num, den, carry


class VectorTable:
    """``tables`` tables of ``rules``, ``players`` players at each, stepped a round at a
    time at every table (see the module's notes).

    :param rules: a ``RuleSet`` or a preset's name.
    :param tables: 1 .. ``MAX_TABLES``.
    :param players: players a table, 1 .. ``MAX_PLAYERS``, each staking on their own.
    :param seed: as ``deal_batch``'s; table k deals ``Game(rules, seed=table_seed(k))``.
    :param workers: threads a step is split over (the result does not depend on it).
    :param bets: the bets staked (canonical names, default every bet of the table), in the
        order of a stake array's last axis (``table.bets``).
    :param limits: each bet's table limit in minor units: an int for every bet, or
        ``{bet: limit}`` (the rest unlimited); ``MAX_STAKE`` where none is given.
    :param bankroll: each player's starting money in minor units (an int), or None for
        none; a player whose bankroll is spent is terminated and may stake nothing more.
        A step's stakes, carried ones included, may not exceed a player's bankroll, nor
        could a win take it past ``MAX_MONEY``.
    :param max_rounds: the episode's rounds (truncated after them), or None.
    :param by_rank: observe the unseen cards by rank (13 counts) instead of by card (52).
    :param end_at_shoe: truncate a table's episode at its shoe's end too.
    :param copy: return copies from ``step`` and ``reset`` (the default); False returns
        views of arrays the table owns and overwrites at the next step (no allocation a
        step: for a loop that reads a step's results before it takes the next).

    Thread-safety: a table may be shared between threads; ``step``, ``reset``, ``record``,
    ``mask`` and ``close`` run under the table's own lock, one call at a time (a step's
    ``workers`` are the kernel's own threads, not the callers'). With ``copy=False`` the
    arrays a step returns are overwritten by the next step, whichever thread takes it.
    """

    def __init__(
        self, rules: RuleSet | str, tables: int, *, players: int = 1, seed: SeedLike = None, workers: int = 1,
        bets: Sequence[str] | None = None, limits: int | Mapping[str, int] | None = None, bankroll: int | None = None,
        max_rounds: int | None = None, by_rank: bool = False, end_at_shoe: bool = False, copy: bool = True,
    ) -> None:
        self.rules = rules = as_rules(rules)
        self.n_tables = count("tables", tables, MAX_TABLES)
        self.players = count("players", players, MAX_PLAYERS)
        self.workers = check_workers(workers)
        self.bets = offered_bets(rules, bets, "stake")
        self.by_rank = flag("by_rank", by_rank)
        self.end_at_shoe = flag("end_at_shoe", end_at_shoe)
        self.copy = flag("copy", copy)
        self.max_rounds = None if max_rounds is None else count("max_rounds", max_rounds, 1 << 62)
        self.bankroll = None if bankroll is None else count("bankroll", bankroll, MAX_STAKE * 1024)
        self._sequence, self.seed = check_seed(seed)
        cells = self.n_tables * self.players * len(self.bets)
        memory("VectorTable's arrays", 8 * (6 * cells + 64 * self.n_tables), "fewer tables, players or bets")
        self._num, self._den, self._carry = pay_factors(rules, self.bets)
        self._best = np.maximum((self._num / self._den).max(axis=1), 0.0) + 1.0  # (a bound on a unit's return)
        self._lock = new_lock()
        cap = _KERNEL_BOUND // (2 * np.abs(self._num).max(axis=1) + 2 * self._den.max(axis=1) + 2)
        self.high = np.minimum(self._limits(limits), cap).astype(np.int64)
        """Each bet's largest stake: its limit, capped where 64 bits need it."""
        self.requires = np.full(len(self.bets), -1, dtype=np.int64)
        """For each bet, the bet it may be staked only with (-1: none): a Tie bet's Win bet
        where ``rules.tie_requires_win``."""
        if rules.tie_requires_win:
            for j, name in enumerate(self.bets):
                spec = rules.bet(name)
                if spec.kind == "tie":
                    win = f"win:{spec.position}"
                    self.requires[j] = self.bets.index(win) if win in self.bets else len(self.bets)
        self._params = rules.table_params.array()
        self._plan = plan_for(rules, self.bets)
        shape = (self.n_tables, self.players, len(self.bets))
        self._carried = np.zeros(shape, dtype=np.int64)
        self._reward = np.zeros(shape[:2], dtype=np.int64)
        self._cards = np.zeros((self.n_tables, rules.hands, 3), dtype=np.uint8)
        self._head = np.full(self.n_tables, 255, dtype=np.uint8)
        self._outcome = np.zeros((self.n_tables, len(self.bets)), dtype=np.uint8)
        self._unseen = np.zeros((self.n_tables, 13 if self.by_rank else 52), dtype=np.int16)
        self._shoe = np.zeros((4, self.n_tables), dtype=np.int64)  # (rows seen, rounds, shoe, ended: each contiguous)
        self._money = np.zeros(shape[:2], dtype=np.int64)
        self._high = np.zeros(shape, dtype=np.int64)
        self._terminated = np.zeros(shape[:2], dtype=np.bool_)
        self._truncated = np.zeros(shape[:2], dtype=np.bool_)
        self._shoe_end = np.zeros(self.n_tables, dtype=np.bool_)
        self._high[:] = self.high
        self._limits_full = self._high.copy()  # (never handed out: mask copies it)
        self._rounds = 0
        self._logs: dict[int, TableLog] = {}  # the tables recorded (record): empty, a step pays nothing for them
        self._kernel: Any = _kernels.kernels.VectorKernel(
            _kernels.lookups(tables_for(rules.ranking)), self._params, self._plan, self._generators(), self.players, self._num,
            self._den, self._carry, ROUNDINGS.index(rules.rounding), self.by_rank)
        self._kernel.bind(self._carried, self._reward, self._cards, self._head, self._outcome, self._unseen,
                          self._shoe, self.high, self.requires, None if self.bankroll is None else self._money)
        observation: dict[str, Any] = {
            "unseen": self._unseen, "seen": self._shoe[0], "rounds": self._shoe[1], "cards": self._cards,
            "head_card": self._head, "outcomes": self._outcome, "carried": self._carried}
        info: dict[str, Any] = {"shoe": self._shoe[2], "shoe_end": self._shoe_end, "low": self._carried,
                                "high": self._high}
        self._views = (observation, info)  # (copy=False: what every step returns, overwritten)
        self.reset()

    def _limits(self, limits: int | Mapping[str, int] | None) -> Int64s:
        out = np.full(len(self.bets), MAX_STAKE, dtype=np.int64)
        if limits is None:
            return out
        if isinstance(limits, Mapping):
            for name, limit in limits.items():
                spec = self.rules.bet(name)
                if spec.name not in self.bets:
                    raise ValueError(f"limits: {spec.name} is not one of the bets staked ({', '.join(self.bets)})")
                out[self.bets.index(spec.name)] = count(f"limit of {spec.name}", limit, MAX_STAKE)
            return out
        out[:] = count("limits", limits, MAX_STAKE)
        return out

    @locked
    def record(self, k: int, *, key: bytes | None = None, names: Sequence[str] | None = None,
               out: str | os.PathLike[str] | IO[str] | None = None) -> TableLog:
        """Record table k from now on: its rounds, with its players' stakes, written as the
        signed log ``Game(rules, seed=table_seed(k), key=key)`` writes for the same stakes,
        byte for byte (``TableLog``; ``sanggong.verify.verify_log`` checks it and
        ``sanggong.detect`` reads it). A table is recorded from its first round: call it
        after ``reset`` (or building the table), before the first step. ``reset`` ends
        every log (its seal written, ``TableLog.close``).

        :param key: the operator's HMAC key: every record carries an ``hmac``.
        :param names: the players' ids in the records, one a player (default: a slip of
            bets alone for one player, ``player_0``, ... for several).
        :param out: a path (the file written and closed at the log's end), a text file
            (a line a round), or None: the lines kept in ``TableLog.lines``.

        >>> from sanggong import MACAU, verify_log
        >>> table = VectorTable(MACAU, 4, seed=7, bets=["point:0"])
        >>> log = table.record(2, key=b"operator")
        >>> _ = table.step(np.full((4, 1, 1), 100, dtype=np.int64))
        >>> seal = log.close()
        >>> verify_log(log.lines, key=b"operator").ok
        True
        """
        count("k", k, self.n_tables - 1, low=0)
        if self._rounds:
            raise ValueError(f"table {k}: a table is recorded from its first round (this episode has dealt "
                             f"{self._rounds}): record it after reset()")
        if k in self._logs:
            raise ValueError(f"table {k} is recorded already")
        log = self._logs[k] = TableLog(self.rules, self.bets, self.players, k, self.table_seed(k), key=key,
                                          names=names, out=out)
        return log

    def table_seed(self, k: int) -> np.random.SeedSequence:
        """Table k's seed since the last reset: ``Game(rules, seed=table_seed(k))`` deals its rounds."""
        count("k", k, self.n_tables - 1, low=0)
        return child(self._sequence, k)

    @locked
    def reset(self, seed: SeedLike = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """Fresh shoes at every table (from ``seed``, or the table's seed again where None),
        no stakes carried, every bankroll full: the first observation and info."""
        for log in self._logs.values():  # their games end with the episode
            log.close()
        self._logs = {}
        if seed is not None:
            self._sequence, self.seed = check_seed(seed)
            self._kernel.reseed(self._generators())
        elif self._rounds:
            self._kernel.reseed(self._generators())
        self._carried[:] = 0
        self._reward[:] = 0
        self._cards[:] = 255
        self._head[:] = 255
        self._outcome[:] = 0
        self._unseen[:] = self.rules.decks * (4 if self.by_rank else 1)
        self._shoe[:] = 0
        self._money[:] = 0 if self.bankroll is None else self.bankroll
        self._rounds = 0
        self._terminated[:] = False
        self._truncated[:] = False
        return self._observation(), self._info()

    def _generators(self) -> list[np.random.PCG64]:
        return [np.random.PCG64(child(self._sequence, k)) for k in range(self.n_tables)]

    @property
    def carried(self) -> Int64s:
        """The stakes carried into the next round (tables, players, bets): a copy."""
        return self._carried.copy()

    @property
    def money(self) -> Int64s | None:
        """Each player's bankroll now (tables, players), stakes on the table included, or None."""
        return None if self.bankroll is None else self._money.copy()

    @locked
    def mask(self) -> tuple[Int64s, Int64s]:
        """The legal stakes of the next step, (tables, players, bets) each: a bet's stake is
        0 or in ``low .. high``, and 0 is allowed only where ``low`` is 0 (a carried stake
        may be raised, not lowered or withdrawn). ``high`` is 0 where a player may not
        stake (ruined). Beyond the box: a bet of ``requires`` only with its partner, and
        (with a bankroll) a player's stakes summed no more than their money."""
        return self._mask()

    def _mask(self) -> tuple[Int64s, Int64s]:
        low = self._carried.copy()
        if self.bankroll is None:  # (the limits: no stake over them was taken, so none is carried)
            return low, self._limits_full.copy()
        high = np.minimum(self.high, np.maximum(self._money, 0)[:, :, None])
        return low, np.maximum(high, low)

    def _where(self, bad: npt.NDArray[np.bool_]) -> str:
        t, p, j = (int(x) for x in np.argwhere(bad)[0])
        return f"table {t}, player {p}, bet {self.bets[j]}"

    def _check(self, stakes: object) -> Int64s:
        """The stakes' type, shape and dtype checked (the values are checked by the kernel's
        ``run``, in one pass before it deals: ``_refuse`` names what it refused)."""
        shape = self._carried.shape
        s = stakes  # (a plain, native, aligned C-ordered int64 array of the shape, the usual case, as it is)
        if not (type(s) is np.ndarray and s.dtype == _INT64 and s.shape == shape and (flags := s.flags).c_contiguous
                and flags.aligned):
            s = self._coerced(stakes, shape)
        if self.max_rounds is not None and self._rounds >= self.max_rounds:
            if not self._kernel.legal(s, self._carried, self.high, self.requires,
                                      None if self.bankroll is None else self._money):
                self._refuse(s)
            raise ValueError(f"the episode ended after {self.max_rounds} rounds: reset() first")
        return s

    def _coerced(self, stakes: object, shape: tuple[int, ...]) -> Int64s:
        """Stakes that are not a plain int64 array of the shape: refused, or taken as one."""
        if not isinstance(stakes, np.ndarray):
            raise ValueError(f"stakes must be a numpy int64 array of shape {shape}, not {type(stakes).__name__}")
        if isinstance(stakes, np.ma.MaskedArray):  # (its masked stakes would be staked at their hidden values)
            raise ValueError("stakes: a masked array; give a plain int64 array (masked stakes filled: .filled(0))")
        if stakes.shape != shape:
            raise ValueError(f"stakes must have shape {shape} (tables, players, bets), got {stakes.shape}")
        if stakes.dtype.kind == "f":
            bad = ~np.isfinite(stakes) | (stakes != np.floor(stakes))
            if bad.any():
                raise ValueError(f"stakes: {self._where(bad)}: {stakes[tuple(np.argwhere(bad)[0])]} is not a whole "
                                 "number of minor units")
        if stakes.dtype.kind == "i" and stakes.dtype.itemsize == 8 and not stakes.dtype.isnative:
            stakes = stakes.astype(np.int64)  # (int64 in the other byte order: the same whole numbers)
        if stakes.dtype != np.int64:
            money = "money is never a float" if stakes.dtype.kind in "fc" else "minor units as int64"
            raise ValueError(f"stakes must be int64 minor units ({money}), not {stakes.dtype}")
        flags = stakes.flags
        return stakes if flags.c_contiguous and flags.aligned else np.require(stakes, np.int64, ["C", "A"])

    def _refuse(self, s: Int64s) -> NoReturn:
        """Name the first stake the kernel's check refused (numpy, on a refused step only)."""
        lowered = s < self._carried  # (0 <= carried: a stake below it is below a carried stake, or negative)
        if (lowered | (s > self.high)).any():
            for bad, why in ((s < 0, "is negative"), (s > self.high, "is over the bet's limit"),
                             (lowered, "lowers a carried stake")):
                if bad.any():
                    at = tuple(np.argwhere(bad)[0])
                    raise ValueError(f"stakes: {self._where(bad)}: {int(s[at])} {why} "
                                     f"(limit {int(self.high[at[2]])}, carried {int(self._carried[at])})")
        for j, partner in enumerate(self.requires.tolist()):
            if partner >= 0:
                alone = s[:, :, j] > 0
                if partner < len(self.bets):
                    alone &= s[:, :, partner] == 0
                if alone.any():
                    t, p = (int(x) for x in np.argwhere(alone)[0])
                    raise ValueError(f"stakes: table {t}, player {p}, bet {self.bets[j]}: needs a Win bet on its "
                                     "position")
        if self.bankroll is not None:
            over = s.sum(axis=2) > self._money
            if over.any():
                t, p = (int(x) for x in np.argwhere(over)[0])
                raise ValueError(f"stakes: table {t}, player {p}: stakes of {int(s[t, p].sum())} are over the "
                                 f"bankroll of {int(self._money[t, p])}")
        raise AssertionError("the kernel refused stakes that no check names")  # (the two checks disagree)

    @locked
    def step(self, stakes: Int64s) -> tuple[dict[str, Any], Int64s, npt.NDArray[np.bool_], npt.NDArray[np.bool_],
                                            dict[str, Any]]:
        """One round at every table at ``stakes`` (tables, players, bets; int64 minor units,
        0 no bet, a carried stake included): ``(observation, reward, terminated,
        truncated, info)``, reward each player's exact net (tables, players), a carried
        stake counted as still the player's.

        :raises ValueError: a wrong shape or dtype, a negative, NaN or non-integer stake, a
            stake over its limit, against the mask or the bankroll (naming the table,
            player and bet): nothing is dealt, no money moves.
        """
        s = self._check(stakes)
        for log in self._logs.values():  # (a log that could not take the round: refused before any card moves)
            log.check_open()
        if self.bankroll is not None:
            self._check_money(s)
        if not self._kernel.run(s, self.workers):  # (one call: the stakes checked, then every table dealt)
            self._refuse(s)
        self._rounds += 1
        if self.bankroll is not None:
            self._money += self._reward
            np.less_equal(self._money, 0, out=self._terminated)
        if self.max_rounds is not None and self._rounds >= self.max_rounds:
            self._truncated[:] = True
        elif self.end_at_shoe:
            self._truncated[:] = self._shoe[3, :, None] != 0
        for k, log in self._logs.items():  # (the table's own state is whole before a write can fail)
            log.write(s[k])
        if not self.copy:
            return self._views[0], self._reward, self._terminated, self._truncated, self._info()
        return (self._observation(), self._reward.copy(), self._terminated.copy(), self._truncated.copy(),
                self._info())

    def _check_money(self, s: Int64s) -> None:
        """Refuse stakes whose best outcome would take a player's money past ``MAX_MONEY``
        (the bankroll's int64 arithmetic stays exact however long a player wins)."""
        best = self._money + s.astype(np.float64) @ self._best  # (float: a bound, far from the limit's rounding)
        if (best > MAX_MONEY).any():
            t, p = (int(i) for i in np.argwhere(best > MAX_MONEY)[0])
            raise ValueError(f"table {t}, player {p}: at these stakes a win could take the player's money "
                             f"({int(self._money[t, p])}) past {MAX_MONEY} minor units; stake less")

    def _observation(self) -> dict[str, Any]:
        """What a player at each table knows: copies, never the kernel's arrays (views of
        them with ``copy=False``)."""
        if not self.copy:
            return self._views[0]
        return {
            "unseen": self._unseen.copy(), "seen": self._shoe[0].copy(), "rounds": self._shoe[1].copy(),
            "cards": self._cards.copy(), "head_card": self._head.copy(), "outcomes": self._outcome.copy(),
            "carried": self._carried.copy(),
        }

    def _info(self) -> dict[str, Any]:
        if not self.copy:
            info = self._views[1]
            np.not_equal(self._shoe[3], 0, out=self._shoe_end)
            if self.bankroll is not None:  # (else high is the limits, set once: no carried stake is over them)
                np.minimum(self.high, np.maximum(self._money, 0)[:, :, None], out=self._high)
                np.maximum(self._high, self._carried, out=self._high)
            info["round"] = self._rounds
            return info
        low, high = self._mask()
        return {"shoe": self._shoe[2].copy(), "shoe_end": self._shoe[3].astype(np.bool_),
                "round": self._rounds, "low": low, "high": high}

    @locked
    def close(self) -> None:
        """Stop the worker threads (a later step starts them again; they stop too when the
        table is collected)."""
        self._kernel.close()

    def __repr__(self) -> str:
        return (f"VectorTable({self.rules.name!r}, {self.n_tables}, players={self.players}, seed={self.seed!r}, "
                f"bets={list(self.bets)!r})")
