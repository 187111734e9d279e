"""``ShoeEvaluator``: the exact EV of every bet for the unseen cards of a shoe, which follow
the cards removed and put back (``sanggong.shoe`` tells the method)."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from .._counting import check_counts
from .._kernels import shoe_kernel
from .._threads import locked, new_lock
from ..analysis import composition
from ..cards import Card, CardsLike, parse_cards
from ..rules import RuleSet, as_rules, offered_bets
from ._plan import part_count, shoe_plan

__all__ = ["ShoeEvaluator"]

# --- the public evaluator ------------------------------------------------------------------------


class ShoeEvaluator:
    """The exact EV of every bet of ``rules`` (or of ``bets``) for the unseen cards of a
    shoe, which start as a full shoe of ``rules.decks`` decks (or ``shoe``: 52 counts,
    as ``composition`` makes) and change as cards are removed or put back.

    ``ev`` equals ``analyze(rules, counts)[bet].ev_exact``: a Fraction, per unit staked
    for one round (a carried stake counts as neither won nor lost, as in ``analyze``).

    Safe to share between threads: each call runs under the evaluator's own lock, so a
    ``remove`` or ``add`` takes effect whole and ``evs`` always reads one state (see
    ``sanggong._threads``).

    :raises ValueError: a composition ``analyze`` refuses; a bet the table does not offer.
    """

    def __init__(self, rules: RuleSet | str, shoe: npt.ArrayLike | None = None, *,
                 bets: Iterable[str] | None = None) -> None:
        rules = as_rules(rules)
        counts = composition(rules.decks) if shoe is None else check_counts(shoe)
        names = offered_bets(rules, bets, "evaluate")
        self.rules = rules
        self.bets = names
        self._plan = shoe_plan(rules, names)
        self._capacity: list[int] = np.maximum(counts, rules.decks).tolist()
        self._kernel = shoe_kernel(self._plan, counts.tolist())
        self._lock = new_lock()

    @property
    @locked
    def counts(self) -> npt.NDArray[np.int64]:
        """The unseen cards of each of the 52 codes (a copy)."""
        return np.array(self._kernel.counts, dtype=np.int64)

    @property
    @locked
    def cards(self) -> int:
        """How many cards are unseen."""
        return int(self._kernel.n_cards)

    def _codes(self, cards: CardsLike) -> list[int]:
        if isinstance(cards, str) and not cards.strip():
            return []  # no card (parse_cards reads any other empty collection as none too)
        if type(cards) in (list, tuple) and all(type(c) is Card for c in cards):  # type: ignore[union-attr]
            return [c.code for c in cards]  # type: ignore[union-attr]
        return [c.code for c in parse_cards(cards)]

    @locked
    def remove(self, cards: CardsLike) -> None:
        """Take ``cards`` out of the unseen cards (all or none: a card the shoe no longer
        holds raises ValueError naming it, and nothing is removed)."""
        codes = self._codes(cards)
        left = list(self._kernel.counts)
        for code in codes:
            if left[code] == 0:
                raise ValueError(f"cannot remove {Card(code)}: no such card is left unseen")
            left[code] -= 1
        for code in codes:
            self._kernel.remove(code)

    @locked
    def add(self, cards: CardsLike) -> None:
        """Put ``cards`` back among the unseen cards (all or none: a card beyond what the
        shoe holds of it raises ValueError naming it)."""
        codes = self._codes(cards)
        held = list(self._kernel.counts)
        for code in codes:
            if held[code] >= self._capacity[code]:
                raise ValueError(f"cannot add {Card(code)}: the shoe holds at most "
                                 f"{self._capacity[code]} of it")
            held[code] += 1
        for code in codes:
            self._kernel.add(code)

    def _check_dealable(self) -> None:
        if self.cards < 6:
            raise ValueError(f"a round needs 6 cards at the least; {self.cards} are unseen")

    @locked
    def numerators(self) -> list[int]:
        """Each row's exact sum (the kernel's output), for benchmarks and tests."""
        return list(self._kernel.numerators())

    @locked
    def evs(self) -> dict[str, Fraction]:
        """Every bet's exact EV per unit staked."""
        self._check_dealable()
        plan = self._plan
        sums = self._kernel.numerators()
        n = self.cards
        values = [Fraction(s, row.denominator * part_count(row.part, n)) for s, row in zip(sums, plan.rows,
                                                                                           strict=True)]
        return {name: values[plan.bet_row[j]] for j, name in enumerate(self.bets)}

    @locked
    def float_evs(self) -> dict[str, float]:
        """Every bet's EV per unit staked as the float nearest its exact value (each is the
        exact sum divided by the exact count, correctly rounded): for statistics over many
        rounds, such as ``detect``'s, where making Fractions would cost more than the count."""
        self._check_dealable()
        plan = self._plan
        sums = self._kernel.numerators()
        n = self.cards
        values = [s / (row.denominator * part_count(row.part, n)) for s, row in zip(sums, plan.rows, strict=True)]
        return {name: values[plan.bet_row[j]] for j, name in enumerate(self.bets)}

    @locked
    def ev(self, bet: str) -> Fraction:
        """One bet's exact EV per unit staked."""
        if bet not in self.bets:
            self.rules.bet(bet)  # names a bet the table does not offer
            raise ValueError(f"{bet} is not among this evaluator's bets")
        return self.evs()[bet]

    @locked
    def positive(self) -> list[str]:
        """The bets whose EV is positive now: what perfect-information play bets."""
        return [name for name, value in self.evs().items() if value > 0]

    def __repr__(self) -> str:
        return f"ShoeEvaluator({self.rules.name!r}, cards={self.cards}, bets={len(self.bets)})"


