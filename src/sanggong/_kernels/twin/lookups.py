"""Hands' ranks and classes under a ranking (the twin of ``csrc/lookups.pxi``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..._spec import ClassKey, card_code, class_key, hand_key, pair_plus3

if TYPE_CHECKING:
    from ..protocol import RankingSource

__all__ = ["Lookups", "class3", "pair_plus3", "rank3"]


class Lookups:
    """A ranking's hand ranks and classes, computed plainly: the twin of the compiled
    core's ``Lookups``. ``source`` is a ``sanggong.ranking.RankingSource``, whose
    ``rank_keys`` and ``rank_values`` number the ranks and sorted ``class_keys`` the
    classes; every hand is ranked here by ``hand_key`` and ``class_key`` themselves, not by
    its lookup tables. Each hand's rank and class are kept once worked out, by its cards in
    order (a hand's keys are those of its set of cards: at most 24,804 hands a ranking)."""

    def __init__(self, source: RankingSource) -> None:
        self.source = source
        self.ranking = source.ranking
        self.rank_of_key: dict[ClassKey, int] = dict(zip(source.rank_keys, source.rank_values, strict=True))
        self.class_of_key = {key: i for i, key in enumerate(source.class_keys)}
        self.class_keys: tuple[ClassKey, ...] = tuple(source.class_keys)
        self.n_ranks, self.n_classes = int(source.n_ranks), len(source.class_keys)
        self.ordered_by_class = bool(source.ordered_by_class)
        self.wide = self.n_ranks > 256
        self._ranks: dict[tuple[int, ...], int] = {}
        self._classes: dict[tuple[int, ...], int] = {}

    def rank(self, c0: int, c1: int, c2: int) -> int:
        hand = _hand(c0, c1, c2)
        found = self._ranks.get(hand)
        if found is None:
            found = self._ranks[hand] = self.rank_of_key[hand_key(self.ranking, *hand)]
        return found

    def cls(self, c0: int, c1: int, c2: int) -> int:
        hand = _hand(c0, c1, c2)
        found = self._classes.get(hand)
        if found is None:
            found = self._classes[hand] = self.class_of_key[class_key(self.ranking, *hand)]
        return found

    def __reduce__(self) -> tuple[Any, ...]:
        return (Lookups, (self.source,))


def _hand(c0: int, c1: int, c2: int) -> tuple[int, ...]:
    """A hand's three card codes, checked (``card_code``), in order."""
    return tuple(sorted((card_code(c0), card_code(c1), card_code(c2))))


def rank3(lookups: Lookups, c0: int, c1: int, c2: int) -> int:
    """Rank (higher wins, equal ties) of the hand of these three card codes."""
    return lookups.rank(c0, c1, c2)


def class3(lookups: Lookups, c0: int, c1: int, c2: int) -> int:
    """Class number of the hand of these three card codes."""
    return lookups.cls(c0, c1, c2)
