"""The batch evaluation kernels (the twin of ``csrc/eval.pxi``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..._spec import N_CARDS, pair_plus3
from .lookups import Lookups

__all__ = ["compare_batch", "evaluate_batch", "pair_plus_batch", "rank_batch"]

# Same contract as the compiled core: ``hands`` is an (n, 3) integer array already
# checked for shape and dtype by ``sanggong.batch``; the kernels check every code and
# return the index of the first row holding one outside 0..51 (-1 when all are valid),
# leaving the outputs from that row on unspecified.

Hands = npt.NDArray[np.integer[Any]]


def _first_bad_row(rows: Sequence[Sequence[int]]) -> int:
    for i, row in enumerate(rows):
        if any(not 0 <= code < N_CARDS for code in row):
            return i
    return -1


def _rows(hands: Hands) -> list[list[int]]:
    rows: list[list[int]] = hands.tolist()
    return rows


def rank_batch(lookups: Lookups, hands: Hands, out: npt.NDArray[np.integer[Any]]) -> int:
    """Write the rank of each row of ``hands`` into ``out``."""
    rows = _rows(hands)
    bad = _first_bad_row(rows)
    for i, (c0, c1, c2) in enumerate(rows[: bad if bad >= 0 else len(rows)]):
        out[i] = lookups.rank(c0, c1, c2)
    return bad


def pair_plus_batch(lookups: Lookups, hands: Hands, out: npt.NDArray[np.uint8]) -> int:
    """Write the Pair Plus category of each row of ``hands`` into ``out``."""
    rows = _rows(hands)
    bad = _first_bad_row(rows)
    for i, (c0, c1, c2) in enumerate(rows[: bad if bad >= 0 else len(rows)]):
        out[i] = pair_plus3(c0, c1, c2)
    return bad


def evaluate_batch(lookups: Lookups, hands: Hands, ranks: npt.NDArray[np.integer[Any]],
                   pair_plus: npt.NDArray[np.uint8]) -> int:
    """Write both the rank and the Pair Plus category of each row."""
    rows = _rows(hands)
    bad = _first_bad_row(rows)
    for i, (c0, c1, c2) in enumerate(rows[: bad if bad >= 0 else len(rows)]):
        ranks[i] = lookups.rank(c0, c1, c2)
        pair_plus[i] = pair_plus3(c0, c1, c2)
    return bad


def compare_batch(lookups: Lookups, a: Hands, b: Hands, out: npt.NDArray[np.int8]) -> int:
    """Write 1, 0 or -1 as row i of ``a`` beats, ties or loses to row i of ``b``."""
    rows_a, rows_b = _rows(a), _rows(b)
    bad_a, bad_b = _first_bad_row(rows_a), _first_bad_row(rows_b)
    bad = min((i for i in (bad_a, bad_b) if i >= 0), default=-1)
    stop = bad if bad >= 0 else len(rows_a)
    for i in range(stop):
        ra = lookups.rank(*rows_a[i])
        rb = lookups.rank(*rows_b[i])
        out[i] = (ra > rb) - (ra < rb)
    return bad
