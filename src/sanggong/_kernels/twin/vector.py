"""A vector of tables (the twin of ``csrc/vector.pxi``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ..._spec import N_CARDS, NO_CARD, Shoe, assign, pair_plus3, round_to_unit
from ..inputs import ROUNDINGS
from .common import table_of
from .lookups import Lookups
from .settle import outcome_of

if TYPE_CHECKING:
    from ..protocol import SettlementSource

__all__ = ["VectorKernel"]


# The twin of _core.VectorKernel (csrc/vector.pxi; sanggong.vector explains it): each table a
# _spec.Shoe of its own, its rounds assigned by _spec.assign, settled by bet_outcome and paid
# by round_to_unit (the specification's; sanggong.money pays by it too).


class VectorKernel:
    """``len(bit_generators)`` shoes of the table of ``params``, settled by ``plan`` for
    ``players`` players a table; ``num / den`` and ``carry`` (bets, 256) each bet's return
    and carry on each outcome code, ``rounding`` ``vector.ROUNDINGS``'s index."""

    def __init__(self, lookups: Lookups, params: npt.NDArray[np.int64], plan: SettlementSource,
                 bit_generators: list[Any], players: int, num: npt.NDArray[np.int64], den: npt.NDArray[np.int64],
                 carry: npt.NDArray[np.uint8], rounding: int, by_rank: bool) -> None:

        self.table = table_of(params, later_apart=True)
        self.lookups, self.plan = lookups, plan
        self.hands = self.table.positions + 1
        self.n_tables, self.players, self.bets = len(bit_generators), players, len(plan.specs)
        self.n_cards = N_CARDS * self.table.decks
        if self.n_tables < 1 or players < 1 or self.bets < 1:
            raise ValueError("a vector needs a table, a player and a bet")
        if num.shape != (self.bets, 256) or den.shape != (self.bets, 256) or carry.shape != (self.bets, 256):
            raise ValueError("num, den and carry must be (bets, 256)")
        if (den < 1).any() or not 0 <= rounding <= 3:
            raise ValueError("den must be positive and rounding 0..3")
        self.num, self.den, self.carry = num, den, carry
        self.rounding, self.by_rank = ROUNDINGS[rounding], by_rank
        self.dealers = [Shoe(self.table, g) for g in bit_generators]
        self.bound: tuple[npt.NDArray[Any], ...] | None = None
        self.threads = 0  # (the twin steps on the caller's thread: no pool)

    def reseed(self, bit_generators: list[Any]) -> None:
        """Fresh shoes at every table, dealt from these bit generators."""
        if len(bit_generators) != self.n_tables:
            raise ValueError(f"{self.n_tables} bit generators are needed, not {len(bit_generators)}")
        self.dealers = [Shoe(self.table, g) for g in bit_generators]

    def bind(self, carried: npt.NDArray[np.int64], reward: npt.NDArray[np.int64], cards: npt.NDArray[np.uint8],
             head: npt.NDArray[np.uint8], outcome: npt.NDArray[np.uint8], unseen: npt.NDArray[np.int16],
             shoe_state: npt.NDArray[np.int64], high: npt.NDArray[np.int64], requires: npt.NDArray[np.int64],
             money: npt.NDArray[np.int64] | None) -> None:
        """The arrays every ``run`` writes (``step``'s after the stakes) and checks by (``legal``'s)."""
        self.bound = (carried, reward, cards, head, outcome, unseen, shoe_state)
        self.checks = (high, requires, money)

    def run(self, stakes: npt.NDArray[np.int64], workers: int) -> bool:
        """One round at every table into the bound arrays if every stake is legal: True; else
        False, nothing dealt (``workers`` does not change it)."""
        if self.bound is None:
            raise ValueError("bind the step's arrays first")
        if workers < 1:
            raise ValueError(f"workers must be at least 1, not {workers}")
        if not self.legal(stakes, self.bound[0], *self.checks):
            return False
        self.step(0, self.n_tables, stakes, *self.bound)
        return True

    def close(self) -> None:
        """Nothing to stop (the compiled kernel's pool of threads)."""

    def legal(self, stakes: npt.NDArray[np.int64], carried: npt.NDArray[np.int64], high: npt.NDArray[np.int64],
              requires: npt.NDArray[np.int64], money: npt.NDArray[np.int64] | None) -> bool:
        """Whether every stake is legal, as the compiled core's ``VectorKernel.legal``: 0
        where nothing is carried, else carried .. ``high[bet]``; a bet with a partner
        (``requires[bet]`` >= 0, ``bets`` for one not staked here) beside a stake of it; a
        player's stakes no more than ``money`` (or None)."""
        if stakes.shape != (self.n_tables, self.players, self.bets) or carried.shape != stakes.shape:
            raise ValueError("the stakes' arrays have the wrong shapes")
        for t in range(self.n_tables):
            for p in range(self.players):
                row = [int(x) for x in stakes[t, p]]
                for j, s in enumerate(row):
                    if s < int(carried[t, p, j]) or s > int(high[j]):
                        return False
                    q = int(requires[j])
                    if q >= 0 and s > 0 and (q >= self.bets or row[q] == 0):
                        return False
                if money is not None and sum(row) > int(money[t, p]):
                    return False
        return True

    def step(self, lo: int, hi: int, stakes: npt.NDArray[np.int64], carried: npt.NDArray[np.int64],
             reward: npt.NDArray[np.int64], cards: npt.NDArray[np.uint8], head: npt.NDArray[np.uint8],
             outcome: npt.NDArray[np.uint8], unseen: npt.NDArray[np.int16], shoe_state: npt.NDArray[np.int64]) -> None:
        """One round at tables lo..hi - 1, as the compiled core's ``VectorKernel.step``."""
        from fractions import Fraction


        width = 13 if self.by_rank else 52
        if not 0 <= lo <= hi <= self.n_tables:
            raise ValueError(f"tables {lo}..{hi} are not within 0..{self.n_tables}")
        bets_shape = (self.n_tables, self.players, self.bets)
        shapes: list[tuple[npt.NDArray[Any], tuple[int, ...]]] = [(stakes, bets_shape), (carried, bets_shape),
                  (reward, (self.n_tables, self.players)), (cards, (self.n_tables, self.hands, 3)),
                  (head, (self.n_tables,)), (outcome, (self.n_tables, self.bets)), (unseen, (self.n_tables, width)),
                  (shoe_state, (4, self.n_tables))]
        if any(a.shape != shape for a, shape in shapes):
            raise ValueError("the step's arrays have the wrong shapes")
        keys = self.lookups.class_keys
        per = self.n_cards // width
        for k in range(lo, hi):
            dealer = self.dealers[k]
            dealt, burn = dealer.deal()
            head_card, by_hand = assign(self.table, dealt[burn:])
            for h, hand in by_hand.items():
                cards[k, h] = list(hand)
            head[k] = NO_CARD if head_card is None else head_card
            hands = range(self.hands)
            ranks = [self.lookups.rank(*by_hand[h]) for h in hands]
            classes = [self.lookups.cls(*by_hand[h]) for h in hands]
            pps = [pair_plus3(*by_hand[h]) for h in hands]
            for j in range(self.bets):
                outcome[k, j] = outcome_of(self.plan, j, keys, classes, ranks, pps)
            for p in range(self.players):
                total = 0
                for j in range(self.bets):
                    stake, code = int(stakes[k, p, j]), int(outcome[k, j])
                    carried[k, p, j] = stake if stake and self.carry[j, code] else 0
                    if stake and not self.carry[j, code]:
                        paid = round_to_unit(Fraction(stake * int(self.num[j, code]), int(self.den[j, code])),
                                             self.rounding)
                        total += paid - stake
                reward[k, p] = total
            if dealer.last:
                unseen[k] = per
                shoe_state[0:2, k] = 0
            else:
                if dealer.rounds == 1:
                    unseen[k] = per
                    shoe_state[0, k] = 0
                seen = [c for h in hands for c in by_hand[h]]
                if head_card is not None and self.table.head_card_burned:
                    seen.append(head_card)
                for c in seen:
                    unseen[k, c >> 2 if self.by_rank else c] -= 1
                shoe_state[0, k] += len(seen)
                shoe_state[1, k] = dealer.rounds
            shoe_state[2, k] = dealer.number
            shoe_state[3, k] = dealer.last

    def state(self) -> list[tuple[Any, ...]]:
        """Each table's shoe and bit generator state (what a refused step leaves alone)."""
        return [(d.pos, d.cut, d.number, d.rounds, d.last, bytes(d.deck), repr(d.bit_generator.state))
                for d in self.dealers]
