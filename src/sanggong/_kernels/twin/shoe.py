"""The shoe evaluator's sums (the twin of ``csrc/shoe.pxi``)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ..._spec import N_CARDS, N_RANKS, N_SUITS, kind_of, suit_split

if TYPE_CHECKING:
    from ..inputs import ShoeTerms

__all__ = ["ShoeKernel"]


# The twin of _core.ShoeKernel (sanggong.shoe explains the method): each row's sum over
# multisets of (ways to draw the multiset) x (its scaled net value), in Python integers.
# A multiset is a row of indices into the weights: C(c_k, j) at 8 k + j for the c_k unseen
# cards of kind k, 1 at 8 K (K kinds: the padding), and past it where suits break ties
# E_t(a, b), the third of ``suit_split`` (the first hand's strongest suit above), at 8 K +
# 1 + 16 t + 4 a + b; in Pair Plus's weights (the 52 cards as kinds) the 13 ranks'
# binomials, at ``RANKS_AT`` + 8 r + j. Its ways are the product of its entries.

BINOM_STRIDE = 8
RANKS_AT = N_CARDS * BINOM_STRIDE + 1


class ShoeKernel:
    """The exact sums behind every bet's EV for an unseen composition, card by card.
    Thread-safety: not to be shared without a lock (as the compiled one)."""

    def __init__(self, terms: ShoeTerms, counts: Iterable[int]) -> None:
        self.terms = terms
        kinds_of = terms.kinds
        if isinstance(kinds_of, bool) or not isinstance(kinds_of, int) or not 1 <= kinds_of <= N_CARDS:
            raise ValueError(f"shoe terms count over 1..52 kinds, not {kinds_of!r}")
        fold = np.asarray(terms.fold)
        if fold.shape != (N_CARDS,) or fold.dtype.kind not in "iu" or not all(0 <= int(k) < kinds_of for k in fold):
            raise ValueError("the shoe terms' fold must give each of the 52 cards a kind of its own kinds")
        self._fold = [int(k) for k in fold]
        suit_order = np.asarray(terms.suit_order)
        self._suit_order = [int(s) for s in suit_order.tolist()] if suit_order.dtype.kind in "iu" else []
        if len(suit_order) and (sorted(self._suit_order) != list(range(N_SUITS)) or kinds_of != N_RANKS
                                or self._fold != [kind_of(c, N_RANKS) for c in range(N_CARDS)]):
            raise ValueError("a suit tie-break needs the 13 ranks as kinds and its suit order, each suit once")
        self._parts: list[tuple[str, int, list[list[int]], list[list[int]], int]] = []
        for name, kinds, width in (("pairs", kinds_of, 6), ("single", kinds_of, 3), ("cards", N_CARDS, 3)):
            idx, values = np.asarray(getattr(terms, name + "_idx")), np.asarray(getattr(terms, name + "_values"))
            if idx.ndim != 2 or values.ndim != 2 or values.shape[0] != len(idx) or (len(idx) and idx.shape[1] != width):
                raise ValueError(f"the shoe terms' {name} arrays have the wrong shapes")
            if idx.dtype.kind not in "iu" or not (values.dtype.kind in "iu" or all(
                    isinstance(v, int) and not isinstance(v, bool) for v in values.ravel().tolist())):
                raise ValueError(f"the shoe terms' {name} arrays must hold integers")
            rows = values.shape[1]
            ties = name == "pairs" and len(self._suit_order) > 0
            entries = [[e for e in row if e != BINOM_STRIDE * kinds] for row in idx.tolist()]  # (ints: idx's kind)
            for row in entries:
                cards, held, by_rank = 0, [], 0
                for e in row:
                    past = e - BINOM_STRIDE * kinds - 1
                    if 0 <= e < BINOM_STRIDE * kinds and 1 <= e % BINOM_STRIDE <= 6:
                        cards += e % BINOM_STRIDE
                        held.append(e // BINOM_STRIDE)
                    elif ties and 0 <= past < 16 * kinds and past % 4 and past // 4 % 4:
                        cards += past % 4 + past // 4 % 4
                        held.append(past // 16)
                    elif name == "cards" and 0 <= past < BINOM_STRIDE * N_RANKS and 1 <= past % BINOM_STRIDE <= 3:
                        cards += past % BINOM_STRIDE
                        held.append(N_CARDS + past // BINOM_STRIDE)
                        by_rank += 1
                    else:
                        raise ValueError(f"the shoe terms' {name} multisets name an entry outside the binomials")
                if cards != width or len(set(held)) != len(held) or by_rank not in (0, len(row)):
                    raise ValueError(f"the shoe terms' {name} multisets name an entry outside the binomials")
            if len({tuple(sorted(row)) for row in entries}) != len(entries):
                raise ValueError(f"a multiset of the shoe terms' {name} is given twice")
            self._parts.append((name, kinds, entries, values.tolist(), rows))
        self.set_counts(counts)

    def set_counts(self, counts: Iterable[int]) -> None:
        values = [int(x) for x in counts]
        if len(values) != N_CARDS or min(values) < 0 or max(values) > 64:
            raise ValueError("a composition is 52 counts of 0..64")
        self._cards = values

    def remove(self, code: int) -> None:
        if not 0 <= code < N_CARDS or self._cards[code] == 0:
            raise ValueError(f"no card of code {code} is left to remove")
        self._cards[code] -= 1

    def add(self, code: int) -> None:
        if not 0 <= code < N_CARDS or self._cards[code] >= 64:
            raise ValueError(f"cannot add a card of code {code}: at most 64 of a card")
        self._cards[code] += 1

    @property
    def n_cards(self) -> int:
        return sum(self._cards)

    @property
    def counts(self) -> list[int]:
        return list(self._cards)

    def _weights(self, name: str, by_kind: list[int]) -> list[int]:
        """The weights of the entries a part's rows index: binomials of its kinds, the padding
        1, then the E_t(a, b) (pairs, where suits break ties) or the ranks' binomials (Pair Plus)."""
        held = self._cards if name == "cards" else by_kind
        weights = [math.comb(c, j) if j <= c else 0 for c in held for j in range(BINOM_STRIDE)] + [1]
        if name == "pairs" and self._suit_order:
            for t in range(N_RANKS):
                suits = [self._cards[4 * t + s] for s in self._suit_order]
                weights += [suit_split(suits, a, b)[2] if a and b else 0 for a in range(4) for b in range(4)]
        if name == "cards":
            ranks = [sum(self._cards[4 * r : 4 * r + 4]) for r in range(N_RANKS)]
            weights += [math.comb(c, j) if j <= c else 0 for c in ranks for j in range(BINOM_STRIDE)]
        return weights

    def numerators(self, with_pairs: bool = True) -> list[int]:
        by_kind = [0] * self.terms.kinds
        for code, n in enumerate(self._cards):
            by_kind[self._fold[code]] += n
        out: list[int] = []
        for name, _kinds, entries, values, rows in self._parts:
            sums = [0] * rows
            if name != "pairs" or with_pairs:
                weights = self._weights(name, by_kind)
                for multiset, row in zip(entries, values, strict=True):
                    w = 1
                    for e in multiset:
                        w *= weights[e]
                    if w:
                        for r in range(rows):
                            sums[r] += w * row[r]
            out += sums
        return out

    def numerators_batch(self, cards: npt.NDArray[np.uint8], ends: npt.NDArray[np.int64], out: npt.NDArray[np.int64],
                         with_pairs: bool = True) -> int:
        """Round after round: ``out[k]`` = ``numerators(with_pairs)``, then round k's cards
        (``cards[ends[k - 1]:ends[k]]``) removed; stops at a round whose sums do not all
        fit 64 bits (the compiled core's ``numerators_batch``)."""
        rows = sum(part[4] for part in self._parts)
        codes, bounds = [int(c) for c in cards.tolist()], [int(e) for e in ends.tolist()]
        if out.shape != (len(bounds), rows):
            raise ValueError(f"out must be ({len(bounds)}, {rows}): a row of sums for each round")
        left, start = list(self._cards), 0
        for end in bounds:
            if end < start or end > len(codes):
                raise ValueError("ends must rise from 0 to at most the cards given")
            for c in codes[start:end]:
                if c >= N_CARDS or left[c] == 0:
                    raise ValueError(f"no card of code {c} is left to remove")
                left[c] -= 1
            start = end
        start = 0
        for k, end in enumerate(bounds):
            sums = self.numerators(with_pairs)
            if not all(-(2**63) <= v < 2**63 for v in sums):
                return k
            out[k] = sums
            for c in codes[start:end]:
                self._cards[c] -= 1
            start = end
        return len(bounds)

    def numerators_shoes(self, cards: npt.NDArray[np.uint8], ends: npt.NDArray[np.int64],
                         firsts: npt.NDArray[np.int64], out: npt.NDArray[np.int64], with_pairs: bool = True) -> int:
        """``numerators_batch`` shoe after shoe, each from the unseen cards now: shoe j is the
        rounds ``firsts[j]`` up to the next shoe's, its cards the next ``ends[its last round]``
        of ``cards`` and its ``ends`` counted from its first card (the compiled core's
        ``numerators_shoes``)."""
        rows = sum(part[4] for part in self._parts)
        bounds, starts = [int(e) for e in ends.tolist()], [int(f) for f in firsts.tolist()]
        if out.shape != (len(bounds), rows):
            raise ValueError(f"out must be ({len(bounds)}, {rows}): a row of sums for each round")
        if (not starts) != (not bounds) or (starts and starts[0] != 0):
            raise ValueError("firsts must rise from 0, a shoe's first round, below len(ends)")
        shoes, at = [], 0
        for j, a in enumerate(starts):
            b = starts[j + 1] if j + 1 < len(starts) else len(bounds)
            if b <= a or b > len(bounds):
                raise ValueError("firsts must rise from 0, a shoe's first round, below len(ends)")
            left, start = list(self._cards), 0
            for end in bounds[a:b]:
                if end < start or end > len(cards) - at:
                    raise ValueError("a shoe's ends must rise from 0 to at most the cards left")
                for c in cards[at + start:at + end].tolist():
                    if c >= N_CARDS or left[c] == 0:
                        raise ValueError(f"no card of code {c} is left to remove")
                    left[c] -= 1
                start = end
            shoes.append((a, b, at))
            at += start
        fresh = list(self._cards)
        for a, b, at in shoes:
            self._cards = list(fresh)
            part = np.empty((b - a, rows), dtype=np.int64)
            done = self.numerators_batch(cards[at:at + bounds[b - 1]], ends[a:b], part, with_pairs)
            out[a:a + done] = part[:done]
            if done < b - a:
                return a + done
        return len(bounds)
