"""Hands' ranks and classes under a ranking (the twin of ``csrc/lookups.pxi``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..._spec import ClassKey, class_key, hand_key, pair_plus3

if TYPE_CHECKING:
    from ..protocol import RankingSource

__all__ = ["Lookups", "class3", "pair_plus3", "rank3"]


class Lookups:
    """A ranking's hand ranks and classes, computed plainly: the twin of the compiled
    core's ``Lookups``. ``source`` is a ``sanggong.ranking.RankingSource``, whose
    ``rank_keys`` and ``rank_values`` number the ranks and sorted ``class_keys`` the
    classes; every hand is ranked here by ``hand_key`` and ``class_key`` themselves, not by
    its lookup tables."""

    def __init__(self, source: RankingSource) -> None:
        self.source = source
        self.ranking = source.ranking
        self.rank_of_key: dict[ClassKey, int] = dict(zip(source.rank_keys, source.rank_values, strict=True))
        self.class_of_key = {key: i for i, key in enumerate(source.class_keys)}
        self.class_keys: tuple[ClassKey, ...] = tuple(source.class_keys)
        self.n_ranks, self.n_classes = int(source.n_ranks), len(source.class_keys)
        self.ordered_by_class = bool(source.ordered_by_class)
        self.wide = self.n_ranks > 256

    def rank(self, c0: int, c1: int, c2: int) -> int:
        return self.rank_of_key[hand_key(self.ranking, c0, c1, c2)]

    def cls(self, c0: int, c1: int, c2: int) -> int:
        return self.class_of_key[class_key(self.ranking, c0, c1, c2)]

    def __reduce__(self) -> tuple[Any, ...]:
        return (Lookups, (self.source,))


def rank3(lookups: Lookups, c0: int, c1: int, c2: int) -> int:
    """Rank (higher wins, equal ties) of the hand of these three card codes."""
    return lookups.rank(c0, c1, c2)


def class3(lookups: Lookups, c0: int, c1: int, c2: int) -> int:
    """Class number of the hand of these three card codes."""
    return lookups.cls(c0, c1, c2)
