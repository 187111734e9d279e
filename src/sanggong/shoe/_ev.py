"""A bet's EV from the shoe kernel's exact sums: the one place a sum is divided.

A row of the shoe terms sums ``ways x scaled net`` over the draws of its part
(``sanggong.shoe`` tells the method), so its EV per unit staked is the exact sum over
the row's *count*: its denominator (the nets' scale) times the draws of its part for
``n`` unseen cards (``part_count``). Here that count is made, and the quotient taken as
an exact ``Fraction`` (``exact``), as the float nearest it (``floats``: Python's
division of the integers, correctly rounded), or as those floats for many rounds at
once (``round_floats``: in doubles where every sum and count is a double, which is then
the same correctly rounded quotient; in Python's integers where one is not).
``ShoeEvaluator``, ``ShoeRounds`` (``detect``'s rounds) and the shoes' strategies read
their EVs from here. The play kernel (``play_shoes``), which judges a bet by its sum's
sign, divides in doubles within its loop, ``sum x scale / part count``, by the rows'
``scales`` made here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from ._terms import PAIRS, Row

__all__ = ["counts", "exact", "floats", "part_count", "round_floats", "scales"]

EXACT = 2**53
"""Integers up to it are doubles: the quotient of two of them, divided in doubles, is
correctly rounded, the float Python's division of the integers gives."""


def part_count(part: int, n: int) -> int:
    """The count a part's sums are over for ``n`` unseen cards: the draws of a position's
    hand and the banker's (PAIRS), or of one hand (SINGLE, CARDS). A row's EV is its sum over
    its denominator times this count."""
    triples = math.comb(n, 3)
    return triples * math.comb(n - 3, 3) if part == PAIRS else triples


def counts(rows: Sequence[Row], n: int) -> list[int]:
    """Each row's count for ``n`` unseen cards: what its sum is divided by."""
    return [row.denominator * part_count(row.part, n) for row in rows]


def scales(rows: Sequence[Row]) -> npt.NDArray[np.float64]:
    """Each row's ``1 / denominator``: what the play kernel multiplies a sum by before it
    divides by the part's count (in doubles: its EVs are statistics' figures, not these
    correctly rounded quotients)."""
    return np.array([1 / row.denominator for row in rows], dtype=np.float64)


def exact(sums: Sequence[int], rows: Sequence[Row], n: int) -> list[Fraction]:
    """Each row's exact EV: its sum over its count."""
    return [Fraction(s, c) for s, c in zip(sums, counts(rows, n), strict=True)]


def floats(sums: Sequence[int], rows: Sequence[Row], n: int) -> list[float]:
    """Each row's EV as the float nearest the exact one (the integers' quotient, correctly
    rounded)."""
    return [s / c for s, c in zip(sums, counts(rows, n), strict=True)]


def round_floats(sums: npt.NDArray[np.int64] | Sequence[Sequence[int]], rows: Sequence[Row],
                 unseen: Sequence[int] | npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
    """``floats`` of many rounds: ``sums[k]`` the rows' sums before round k, ``unseen[k]``
    the cards then unseen; (rounds, rows). In doubles where every sum and count is at most
    2**53 (the same floats: both quotients are correctly rounded), else in Python's
    integers (sums beyond 64 bits are given as lists of them)."""
    if isinstance(sums, np.ndarray) and len(unseen):
        quotients = _in_doubles(sums, rows, np.asarray(unseen, dtype=np.int64))
        if quotients is not None:
            return quotients
    listed = sums.tolist() if isinstance(sums, np.ndarray) else sums
    out = [floats(sums_k, rows, int(n)) for sums_k, n in zip(listed, unseen, strict=True)]
    return np.array(out, dtype=np.float64).reshape(len(unseen), len(rows))


def _in_doubles(sums: npt.NDArray[np.int64], rows: Sequence[Row],
                unseen: npt.NDArray[np.int64]) -> npt.NDArray[np.float64] | None:
    """``round_floats`` in doubles, or None where a sum or a count passes 2**53."""
    if max(-int(sums.min(initial=0)), int(sums.max(initial=0))) > EXACT:
        return None
    n = unseen.astype(np.float64)
    triples = n * (n - 1) * (n - 2) / 6  # (approximate here: only to bound the exact counts below)
    pairs = triples * ((n - 3) * (n - 4) * (n - 5) / 6)
    scale = np.array([row.denominator for row in rows], dtype=np.float64)
    is_pairs = np.array([row.part == PAIRS for row in rows], dtype=bool)
    approximate = np.where(is_pairs, pairs[:, None], triples[:, None]) * scale
    if approximate.size and approximate.max() >= EXACT / 2:
        return None  # (counts below 2**52 in doubles: exact ones below 2**53, whatever the rounding here)
    exact_triples = unseen * (unseen - 1) * (unseen - 2) // 6
    exact_pairs = exact_triples * ((unseen - 3) * (unseen - 4) * (unseen - 5) // 6)  # (wraps only where unused)
    count = np.where(is_pairs, exact_pairs[:, None], exact_triples[:, None]) * scale.astype(np.int64)
    quotients: npt.NDArray[np.float64] = sums.astype(np.float64) / count.astype(np.float64)
    return quotients
