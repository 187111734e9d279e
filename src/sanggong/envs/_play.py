"""What the Gymnasium and PettingZoo adapters share (NumPy only): a ``VectorTable`` played
in chips, with episodes of its own at each table.

An action is a count of chips on each bet, a chip ``unit`` minor units; the stake staked
is made legal, never refused (a random agent's every action is playable):

- a carried stake is kept: a bet's stake is at least what it carries (raised, never lowered);
- with a bankroll, the raises above the carried stakes are cut, first bet first, to what
  the player has (a ruined player stakes nothing);
- a bet the rules allow only with another (a Tie bet without its Win bet, where
  ``rules.tie_requires_win``) is dropped when the other has no stake.

The stakes staked are in ``info["stakes"]`` (int64 minor units). Episodes: an episode ends
at the shoe's end (``end_at_shoe``, truncated), after ``max_rounds`` rounds of it
(truncated), or at ruin (terminated). The next episode starts where it ended: the shoe
goes on (the cards are the world's, not the episode's: over every episode table k deals
the rounds of ``Game(rules, seed=table_seed(k))``), the bankroll is full again and the
round count starts at 0. A stake carried over an episode's end stays on the table: the
next episode's (it shows in the observation's ``carried``). Only ``reset(seed=...)``
deals fresh shoes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .._checks import count, flag
from ..limits import MAX_STAKE
from ..rules import RuleSet, as_rules
from ..seeds import SeedLike
from ..vector import VectorTable

Int64s = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]

MONEY_BOUND = 1 << 62
"""The money observation's bounds (either sign): beyond any bankroll a run can reach."""


def default_unit(rules: RuleSet) -> int:
    """Minor units in one unit of the currency (100 where the minor unit is 0.01): a chip by default."""
    return max(1, int(1 / rules.minor_unit))


class Play:
    """``tables`` tables of ``players`` players, played in chips (see the module's notes)."""

    def __init__(
        self, rules: RuleSet | str, tables: int, players: int, *, seed: SeedLike, bets: Sequence[str] | None,
        unit: int | None, chips: int, bankroll: int | None, max_rounds: int | None, end_at_shoe: bool,
        by_rank: bool, workers: int,
    ) -> None:
        rules = as_rules(rules)
        self.unit = default_unit(rules) if unit is None else count("unit", unit, MAX_STAKE)
        self.chips = count("chips", chips, MAX_STAKE // self.unit)
        self.bankroll = None if bankroll is None else count("bankroll", bankroll, MONEY_BOUND >> 2)
        self.max_rounds = None if max_rounds is None else count("max_rounds", max_rounds, 1 << 62)
        self.end_at_shoe = flag("end_at_shoe", end_at_shoe)
        self.table = VectorTable(rules, tables, players=players, seed=seed, workers=workers, bets=bets,
                                 limits=self.chips * self.unit, by_rank=by_rank)
        self.rules = rules
        self.bets = self.table.bets
        shape = (tables, players)
        self.money: Int64s = np.full(shape, 0 if self.bankroll is None else self.bankroll, dtype=np.int64)
        self.rounds: Int64s = np.zeros(tables, dtype=np.int64)
        """Rounds played in each table's episode."""
        self._pairs = [(j, p) for j, p in enumerate(self.table.requires.tolist()) if p >= 0]
        self.obs, self.info = self.table.reset()

    def reset(self, seed: SeedLike) -> None:
        """Fresh shoes from ``seed`` (None: the same seeds again), every episode anew."""
        self.obs, self.info = self.table.reset(seed)
        self.new_episodes(None)

    def new_episodes(self, tables: Bools | None) -> None:
        """New episodes at ``tables`` (None: every table): the shoe goes on."""
        if tables is None:
            self.rounds[:] = 0
            if self.bankroll is not None:
                self.money[:] = self.bankroll
        else:
            self.rounds[tables] = 0
            if self.bankroll is not None:
                self.money[tables] = self.bankroll

    def stakes(self, chips: npt.NDArray[Any], active: Bools | None) -> Int64s:
        """The stakes staked for ``chips`` (tables, players, bets): legal (see the notes).
        ``active`` (tables, players): players who stake (None: all)."""
        carried: Int64s = self.obs["carried"]
        s: Int64s = np.minimum(chips.astype(np.int64) * self.unit, self.table.high)
        if active is not None:
            s[~active] = 0
        s = np.maximum(s, carried)
        if self.bankroll is not None:
            raises = s - carried
            room = np.maximum(self.money - carried.sum(axis=2), 0)[:, :, None]
            before = np.cumsum(raises, axis=2) - raises
            s = carried + np.clip(room - before, 0, raises)
        for j, partner in self._pairs:
            alone = (s[:, :, j] > 0) & (carried[:, :, j] == 0)
            if partner < len(self.bets):
                alone &= s[:, :, partner] == 0
            s[:, :, j] = np.where(alone, 0, s[:, :, j])
        return s

    def check_chips(self, chips: object, shape: tuple[int, ...]) -> npt.NDArray[Any]:
        """An action array: integers 0..chips of ``shape``, else ValueError naming the place."""
        a = np.asarray(chips)
        if a.shape != shape:
            raise ValueError(f"actions must have shape {shape}, got {a.shape}")
        if a.dtype.kind not in "iu":
            raise ValueError(f"actions must be integer counts of chips, not {a.dtype}")
        bad = (a < 0) | (a > self.chips)
        if bad.any():
            at = tuple(int(x) for x in np.argwhere(bad)[0])
            raise ValueError(f"actions: {at} (bet {self.bets[at[-1]]}): {int(a[at])} chips is not in 0..{self.chips}")
        return a

    def observe(self, player: int = 0) -> dict[str, Any]:
        """Every table's observation for ``player`` (tables first): the table's arrays."""
        obs = dict(self.obs)
        obs["carried"] = obs["carried"][:, player]
        if self.bankroll is not None:
            obs["money"] = self.money[:, player].copy()
        return obs

    def step(self, chips: npt.NDArray[Any], active: Bools | None = None) -> tuple[Int64s, Int64s, Bools, Bools]:
        """A round at every table: (stakes, reward in minor units, terminated, truncated),
        each (tables, players) but the stakes; ``self.obs`` / ``self.info`` the table's."""
        stakes = self.stakes(chips, active)
        self.obs, reward, _, _, self.info = self.table.step(stakes)
        self.rounds += 1
        truncated = np.zeros(reward.shape, dtype=np.bool_)
        ended = self.info["shoe_end"] if self.end_at_shoe else np.zeros(len(self.rounds), dtype=np.bool_)
        if self.max_rounds is not None:
            ended = ended | (self.rounds >= self.max_rounds)
        truncated[ended] = True
        if self.bankroll is not None:
            self.money += reward
            terminated = self.money <= 0
        else:
            terminated = np.zeros(reward.shape, dtype=np.bool_)
        return stakes, reward, terminated, truncated
