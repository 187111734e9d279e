"""The documented numbering of hand ranks (``sanggong.ranking``), from a ranking's plain
comparison keys (the reference's ``hand_key``: tier level, order within it, high card):
the keys' places in order, or where suits break ties ``256 * p + s``, ``p`` the place of
the key's tier and order among the keys' and ``s`` its high card (0..51)."""

from __future__ import annotations

from collections.abc import Iterable

from sanggong.ranking import Ranking

Key = tuple[int, int, int]


def rank_numbers(ranking: Ranking, keys: Iterable[Key]) -> dict[Key, int]:
    distinct = sorted(set(keys))
    if ranking.high_card != "rank_suit":
        return {key: i for i, key in enumerate(distinct)}
    parts = {part: p for p, part in enumerate(sorted({key[:2] for key in distinct}))}
    assert all(0 <= key[2] < 52 for key in distinct)
    return {key: 256 * parts[key[:2]] + key[2] for key in distinct}
