"""The formula by which the compiled core's vector kernel (``csrc/sg_simd.h``) ranks hands under a
ranking: tables A (by key) and B (for the keys 16..31) with

    rank = A[K] + H - (H >= G) * B[K]

on every ordered triple of card codes, where K and H are a hand's key and high card as
the kernel computes them (``keys``, the twin of its arithmetic) and G is
``GAP_FROM[high]``. Where suits break ties (H the highest card's rank and suit) the ranks
are 16-bit and numbered ``256 * p + H`` (``sanggong.ranking``): A is then 256 times a byte
and B is 0, and the formula holds A / 256. Made here from the ranks a ranking's tables give
every triple, checked on all of them by the formula and then by the kernel itself; tables
no formula fits (no ranking today: all 585 have one) keep the scalar kernel. In Python, not in
the core: it runs once per ranking, and compiled it would only grow the wheel.
"""

from __future__ import annotations

import functools
import struct
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

GAP_FROM = (255, 4, 16)
"""G of each high-card mode (none, rank, rank and suit): the first high card past every
gap, a five (sg_simd.h says why one G serves every ranking). The kernel reads it in mode 1
only: in mode 2 the ranks leave the gaps unused, and a formula needs B to be 0."""

TRIPS_KEY = (7, 11, 15, 19, 23, 27, 31, 35, 39, 40, 41, 42, 43)
"""K of trips of each rank, A..K: the keys 4 * points + 3 no other hand has, then 40..43."""

POINTS = np.array([1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0])

Int64s = npt.NDArray[np.int64]
FormulaRun = Callable[[bytes, npt.NDArray[np.uint8], npt.NDArray[Any], npt.NDArray[np.uint8]], int]


@functools.cache
def triples() -> npt.NDArray[np.uint8]:
    """Every ordered triple of codes, (140,608, 3) uint8, row 52 * (52 * c0 + c1) + c2."""
    codes = np.arange(52, dtype=np.uint8)
    grid = np.meshgrid(codes, codes, codes, indexing="ij")
    return np.ascontiguousarray(np.stack([g.reshape(-1) for g in grid], axis=1))


@functools.cache
def keys(high: int) -> tuple[Int64s, Int64s]:
    """K and H of every triple in a high-card mode, as the vector kernel computes them."""
    c = triples().astype(np.int64)
    r = c >> 2
    points = POINTS[r].sum(axis=1) % 10
    faces = (r >= 10).sum(axis=1)
    trips = (r[:, 0] == r[:, 1]) & (r[:, 1] == r[:, 2])
    key = np.where(trips, np.array(TRIPS_KEY)[r[:, 0]], 4 * points + faces)
    if high == 0:
        hc = np.zeros(len(c), dtype=np.int64)
    elif high == 1:
        hc = r.max(axis=1)
    else:  # 4 * rank + suit strength: the suit codes 0 1 2 3 (c d h s) rank 1 0 2 3
        hc = (c ^ (((c >> 1) & 1) ^ 1)).max(axis=1)
    return key.astype(np.int64), hc.astype(np.int64)


def fit_formula(rank: Int64s, high: int) -> tuple[Int64s, Int64s] | None:
    """A (64) and B (64, 0 but for the keys 16..31) with rank == A[K] + H - (H >= G) * B[K]
    on every triple, or None where no such tables exist for this high-card mode."""
    key, hc = keys(high)
    d = rank - hc
    past = hc >= GAP_FROM[high]
    a = np.zeros(64, dtype=np.int64)
    a[key[past]] = d[past]
    a[key[~past]] = d[~past]  # (where a key has high cards below G, they give A)
    b = np.zeros(64, dtype=np.int64)
    b[key[past]] = a[key[past]] - d[past]
    if (b < 0).any() or (b > 255).any() or b[:16].any() or b[32:].any() or (a < -32768).any() or (a > 65535).any():
        return None
    if not np.array_equal(a[key] + hc - past * b[key], rank):
        return None
    return a, b


def make_formula(source: Any, wide: bool, size: int, run: FormulaRun | None) -> bytes | None:
    """The formula of a ranking's tables (``RankingTables``, or anything with its ``state``,
    ``value`` and ``rank``) as the bytes of an ``sg_eval_formula`` (``size`` of them), or None
    where none fits. ``run`` runs the vector kernel with a formula, where this CPU has it: the
    formula is checked with it on every triple (AssertionError if they disagree)."""
    tri = triples().astype(np.int64)
    state = np.asarray(source.state, dtype=np.int64)
    value = np.asarray(source.value, dtype=np.int64)[state[52 * tri[:, 0] + tri[:, 1]] + tri[:, 2]]
    rank = np.asarray(source.rank, dtype=np.int64)[value >> 3]  # the scalar kernel's ranks
    for high in range(3):
        found = fit_formula(rank, high)
        if found is not None:
            break
    else:
        return None
    if wide != (high == 2):  # (every ranking's pairing, and all the kernel has loops for)
        return None
    a, b = found
    if high == 2:  # rank = 256 * (A[K] / 256) + H: the kernel's only 16-bit form
        if (a & 0xFF).any() or b.any() or (a < 0).any():
            return None
        a_lo, a_hi = np.zeros(64, dtype=np.int64), a >> 8
    else:
        a_lo, a_hi = a & 0xFF, np.zeros(64, dtype=np.int64)
    formula = struct.pack(
        "=64s64s16sii", a_lo.astype(np.uint8).tobytes(), a_hi.astype(np.uint8).tobytes(),
        b[16:32].astype(np.uint8).tobytes(), high, int(wide),
    )
    if len(formula) != size:  # (a layout this module does not know: no formula)
        return None
    if run is not None:
        got_rank = np.empty(len(rank), dtype=np.uint16 if wide else np.uint8)
        got_pp = np.empty(len(rank), dtype=np.uint8)
        bad = run(formula, triples(), got_rank, got_pp)
        if bad != -1 or not np.array_equal(got_rank, rank) or not np.array_equal(got_pp, value & 7):
            raise AssertionError(f"the vector kernel disagrees with the tables of {source!r}")
    return formula
