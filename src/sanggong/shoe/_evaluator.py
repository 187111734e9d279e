"""``ShoeEvaluator``: the exact EV of every bet for the unseen cards of a shoe, which follow
the cards removed and put back (``sanggong.shoe`` tells the method); ``ShoeRounds``: the
EVs before every round of many shoes at once, as the evaluator gives them round by round
(``detect``'s), and ``check_rounds``, the error the evaluator raises for a shoe's rounds."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from itertools import pairwise
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from .._counting import check_counts
from .._kernels import shoe_kernel
from .._kernels.protocol import ShoeSums
from .._threads import locked, new_lock
from ..analysis import composition
from ..cards import Card, CardsLike, parse_cards
from ..rules import RuleSet, as_rules, offered_bets
from . import _ev
from ._terms import PAIRS, ShoeTerms, shoe_terms

__all__ = ["RoundSums", "ShoeEvaluator", "ShoeRounds", "check_rounds"]


def _too_few(n: int) -> ValueError:
    return ValueError(f"a round needs 6 cards at the least; {n} are unseen")


def _not_left(card: Card) -> ValueError:
    return ValueError(f"cannot remove {card}: no such card is left unseen")


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
        self._terms = shoe_terms(rules, names)
        self._capacity: list[int] = np.maximum(counts, rules.decks).tolist()
        self._kernel = shoe_kernel(self._terms, counts.tolist())
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
                raise _not_left(Card(code))
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
            raise _too_few(self.cards)

    @locked
    def numerators(self) -> list[int]:
        """Each row's exact sum (the kernel's output), for benchmarks and tests."""
        return list(self._kernel.numerators())

    @locked
    def evs(self) -> dict[str, Fraction]:
        """Every bet's exact EV per unit staked."""
        self._check_dealable()
        terms = self._terms
        values = _ev.exact(self._kernel.numerators(), terms.rows, self.cards)
        return {name: values[terms.bet_row[j]] for j, name in enumerate(self.bets)}

    @locked
    def float_evs(self) -> dict[str, float]:
        """Every bet's EV per unit staked as the float nearest its exact value (each is the
        exact sum divided by the exact count, correctly rounded): for statistics over many
        rounds, such as ``detect``'s, where making Fractions would cost more than the count."""
        self._check_dealable()
        terms = self._terms
        values = _ev.floats(self._kernel.numerators(), terms.rows, self.cards)
        return {name: values[terms.bet_row[j]] for j, name in enumerate(self.bets)}

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




# --- many shoes' rounds at once ------------------------------------------------------------------


def check_rounds(counts: Sequence[int], codes: bytes, ends: Sequence[int]) -> None:
    """Raise the ValueError a ``ShoeEvaluator`` of the unseen ``counts`` raises reading a
    shoe's rounds one at a time (each round's EVs, then its cards ``codes[ends[k - 1]:ends[k]]``
    removed): for a round dealt from fewer than 6 cards, or a card no longer unseen;
    nothing where it would read every round."""
    total = sum(counts)
    seen = np.bincount(np.frombuffer(codes, dtype=np.uint8), minlength=len(counts))
    if not ends or (total - (ends[-2] if len(ends) > 1 else 0) >= 6 and len(seen) == len(counts)
                    and not (seen > np.asarray(counts)).any()):
        return
    left, n, start = list(counts), total, 0
    for end in ends:  # (the evaluator's order: the round's EVs, then its cards all or none)
        if n < 6:
            raise _too_few(n)
        cards = [Card(c) for c in codes[start:end]]
        for card in cards:
            if left[card.code] == 0:
                raise _not_left(card)
            left[card.code] -= 1
        n -= end - start
        start = end


class RoundSums(NamedTuple):
    """Shoes' rounds and the kernel's exact sums of them (``ShoeRounds.start``): the shoes'
    cards one after the other (``codes``), each round's end among its shoe's cards
    (``ends``), each shoe's first round (``firsts``), the bets and each one's row of the
    terms, and every round's sums of the terms's rows (``sums``: its first ``done`` rounds;
    -1 where the kernel refused a card)."""

    codes: bytes
    ends: npt.NDArray[np.int64]
    firsts: npt.NDArray[np.int64]
    bets: tuple[str, ...]
    terms: ShoeTerms
    rows: tuple[int, ...]
    sums: npt.NDArray[np.int64]
    done: int


class ShoeRounds:
    """The EVs of bets before every round of many shoes, each dealt from a full shoe of
    ``rules``: the very floats a ``ShoeEvaluator`` gives round by round (``float_evs``),
    and the error it raises where it refuses a shoe's cards. A batch's sums are one call
    of the shoe kernel (``numerators_shoes``, which runs without the GIL: ``start``
    returns it, to be run on any thread), its EVs divided here (``float_evs``); a batch
    the kernel cannot sum whole (sums beyond 64 bits, a card refused) goes a shoe at a time.

    The terms hold the bets of the first batch, then every bet of the table once a batch
    stakes another (at most two sets of terms: making one costs some shoes' worth of sums).

    Thread-safety: none, but for the calls ``start`` returns, which may run on one other
    thread, one at a time (they share a kernel that nothing else here uses).

    :raises KeyError: a bet the table does not offer (``start``).
    """

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.counts: list[int] = composition(rules.decks).tolist()
        self._offered: set[str] = set()
        self._covered: tuple[str, ...] = ()
        self._terms: ShoeTerms | None = None
        self._row_of: dict[str, int] = {}
        self._kernel: ShoeSums | None = None  # the batches' kernel, and this thread's own (a shoe alone)
        self._own_kernel: ShoeSums | None = None

    def _terms_for(self, bets: Iterable[str]) -> ShoeTerms:
        if not self._offered:
            self._offered = set(offered_bets(self.rules, None, "evaluate"))  # ShoeEvaluator(rules)'s bets
        wanted = sorted(bets)
        for bet in wanted:
            if bet not in self._offered:
                raise KeyError(bet)  # (as the evaluator's EVs hold none of it)
        if self._terms is None or not set(wanted) <= set(self._covered):
            self._covered = tuple(sorted(wanted if not self._covered else self._offered))
            self._terms = shoe_terms(self.rules, self._covered)
            self._row_of = {bet: self._terms.bet_row[j] for j, bet in enumerate(self._covered)}
            self._kernel = shoe_kernel(self._terms, self.counts)
            self._own_kernel = None
        return self._terms

    def start(self, bets: Sequence[str], codes: bytes, ends: npt.NDArray[np.int64],
              firsts: npt.NDArray[np.int64]) -> Callable[[], RoundSums]:
        """The sums of shoes' rounds, made by calling what is returned: ``bets`` the bets
        to evaluate, ``codes`` the shoes' cards one after the other, ``ends`` each round's
        end among its shoe's cards, ``firsts`` each shoe's first round."""
        terms = self._terms_for(bets)
        staked = tuple(bets)
        rows = tuple(self._row_of[bet] for bet in staked)
        with_pairs = any(terms.rows[r].part == PAIRS for r in rows)
        kernel, counts = self._kernel, self.counts
        assert kernel is not None

        def sums() -> RoundSums:
            kernel.set_counts(counts)
            out = np.empty((len(ends), len(terms.rows)), dtype=np.int64)
            try:
                done = kernel.numerators_shoes(np.frombuffer(codes, dtype=np.uint8), ends, firsts, out, with_pairs)
            except ValueError:  # (a card a shoe no longer holds: float_evs raises the evaluator's error)
                done = -1
            return RoundSums(codes, ends, firsts, staked, terms, rows, out, done)
        return sums

    def float_evs(self, found: RoundSums) -> npt.NDArray[np.float64]:
        """Every round's EV of each of the bets (rounds, bets): the exact sum over the exact
        count, correctly rounded (``ShoeEvaluator.float_evs``' floats)."""
        ends, firsts = found.ends, found.firsts
        seen = np.zeros_like(ends)  # the cards seen before each round
        seen[1:] = ends[:-1]
        seen[firsts] = 0
        unseen = sum(self.counts) - seen
        if found.done == len(unseen) > 0 and unseen.min() >= 6:
            rows = list(found.rows)
            return _ev.round_floats(found.sums[:, rows], [found.terms.rows[r] for r in rows], unseen)
        evs = np.zeros((len(unseen), len(found.bets)))
        bounds, base = [*firsts.tolist(), len(unseen)], 0
        for a, b in pairwise(bounds):  # one shoe at a time, as ShoeEvaluator reads it
            cards = found.codes[base:base + int(ends[b - 1])]
            evs[a:b] = self._shoe_evs(cards, ends[a:b].tolist(), found.bets, unseen[a:b].tolist())
            base += int(ends[b - 1])
        return evs

    def _shoe_evs(self, codes: bytes, ends: list[int], bets: tuple[str, ...],
                  unseen: list[int]) -> npt.NDArray[np.float64]:
        """One shoe's EVs before each of its rounds: the evaluator's error where it refuses
        them, else its sums in 64 bits where they fit, in Python's integers beyond."""
        check_rounds(self.counts, codes, ends)
        terms = self._terms_for(bets)
        if self._own_kernel is None:
            self._own_kernel = shoe_kernel(terms, self.counts)
        kernel, rows = self._own_kernel, [self._row_of[bet] for bet in bets]
        with_pairs = any(terms.rows[r].part == PAIRS for r in rows)
        kernel.set_counts(self.counts)
        out = np.empty((len(ends), len(terms.rows)), dtype=np.int64)
        done = kernel.numerators_batch(np.frombuffer(codes, dtype=np.uint8), np.array(ends, dtype=np.int64), out,
                                       with_pairs)
        sums = out[:done, rows].tolist()
        for k in range(done, len(ends)):  # (sums beyond 64 bits: the rest one round at a time)
            found = kernel.numerators(with_pairs)
            sums.append([found[r] for r in rows])
            for code in codes[ends[k - 1] if k else 0:ends[k]]:
                kernel.remove(code)
        return _ev.round_floats(sums, [terms.rows[r] for r in rows], unseen)
