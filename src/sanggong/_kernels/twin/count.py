"""Exact counting (the twin of ``csrc/count.pxi``): ``suit_split`` is the specification's own."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from ..._spec import suit_split

__all__ = ["hand_counts", "joint_class_counts", "suit_split"]

# The counting kinds and their multisets are the specification's (``_spec.counting``).


def _ways(left: npt.NDArray[Any], kinds: npt.NDArray[np.intp], mult: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """The ways to draw each multiset from a shoe holding ``left[k]`` of kind k:
    prod C(left[kind], multiplicity), for every multiset at once."""
    w = np.ones(len(kinds), dtype=left.dtype)
    for t in range(3):
        n, k = left[kinds[:, t]], mult[:, t]
        choose = np.where(k == 0, 1, np.where(k == 1, n, np.where(k == 2, n * (n - 1) // 2, n * (n - 1) * (n - 2) // 6)))
        w = w * np.where(n >= k, choose, 0)
    return w


def joint_class_counts(
    counts: npt.NDArray[np.int64], multisets: npt.NDArray[np.uint8], classes: npt.NDArray[np.uint8],
    ranks: npt.NDArray[np.uint16], n_classes: int, out: npt.NDArray[np.uint64] | npt.NDArray[np.object_],
    suits: npt.NDArray[np.int64] | None = None,
) -> None:
    """``out[(p * n_classes + b) * 3 + order + 1]`` += ordered (position hand, banker hand)
    pairs of disjoint hands with classes p and b, the position's hand beating (order 1),
    tying (0) or losing to (-1) the banker's, from a shoe holding ``counts[k]`` cards of
    kind k. ``multisets`` is (n, 3, 2) (kind, multiplicity; multiplicity 0 pads), each
    with its hand's class and rank. For each first hand, the ways to draw every second
    hand from what it leaves, all at once (in Python integers where ``out`` holds them).

    ``suits``, for a ranking that breaks ties by suit, holds the cards of each kind (the 13
    ranks) by suit, weakest suit first, as a (kinds, 4) array; ``ranks`` are then the
    hands' ranks with the strongest card's suit left out. Two hands of equal rank share
    their highest kind t, a cards of it in the first and b in the second: their pairs are
    counted without kind t, times ``suit_split(suits[t], a, b)``, which orders them."""
    exact = out.dtype == object
    left = np.array([int(x) for x in counts], dtype=object if exact else np.int64)
    ms = np.asarray(multisets)
    kinds, mult = ms[:, :, 0].astype(np.intp), ms[:, :, 1].astype(np.int64)
    if exact:
        mult = mult.astype(object)
    cls = np.asarray(classes, dtype=np.int64)
    rk = np.asarray(ranks, dtype=np.int64)
    first = _ways(left, kinds, mult)
    plain = [{int(k): int(m) for k, m in row if m} for row in ms.tolist()]  # each multiset as {kind: count}
    for i in np.flatnonzero(first):
        rest = left.copy()
        for t in range(3):
            rest[kinds[i, t]] -= mult[i, t]
        w = first[i] * _ways(rest, kinds, mult)
        keep = w != 0
        if suits is not None:
            tied = keep & (rk == rk[i])
            keep &= ~tied
            for j in np.flatnonzero(tied):
                _count_suit_ties(out, plain[i], plain[j], left, suits, (cls[i] * n_classes + cls[j]) * 3)
        index = (cls[i] * n_classes + cls[keep]) * 3 + 1 + np.sign(rk[i] - rk[keep])
        np.add.at(out, index, w[keep].astype(out.dtype))


def _count_suit_ties(out: npt.NDArray[Any], first: dict[int, int], second: dict[int, int], left: npt.NDArray[Any],
                     suits: npt.NDArray[np.int64], base: int) -> None:
    """Two hands of equal rank but for the suits: their highest kind's draws split by how
    the hands' strongest suits compare (``suit_split``), the other kinds counted plainly."""
    top = max(first)  # the highest kind: of both hands
    ways = 1
    for k, m in first.items():
        if k != top:
            ways *= math.comb(int(left[k]), m)
    for k, m in second.items():
        if k != top:
            ways *= math.comb(int(left[k]) - first.get(k, 0), m)
    for order, split in enumerate(suit_split([int(x) for x in suits[top]], first[top], second[top])):
        out[base + order] += ways * split


def hand_counts(counts: npt.NDArray[np.int64], multisets: npt.NDArray[np.uint8], values: npt.NDArray[np.uint8],
                out: npt.NDArray[np.uint64]) -> None:
    """``out[values[i]]`` += the ways to draw multiset i (of card kinds or class ranks)
    from a shoe holding ``counts[k]`` of kind k: ``_ways``, all multisets at once, in
    64-bit integers (three cards of at most 52 x 64 are at most C(3328, 3) < 2**33 ways)."""
    ms = np.asarray(multisets)
    left = np.array([int(x) for x in counts], dtype=np.int64)
    ways = _ways(left, ms[:, :, 0].astype(np.intp), ms[:, :, 1].astype(np.int64))
    np.add.at(out, np.asarray(values, dtype=np.intp), ways.astype(out.dtype))
