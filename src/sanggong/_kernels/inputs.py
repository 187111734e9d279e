"""The plain types the kernels read, named once for both implementations: a table's
dealing parameters (``TableParams``), the rounding modes (``ROUNDINGS``) and shoe terms
(``ShoeTerms``, its rows ``Row`` in the parts ``PAIRS``, ``SINGLE`` and ``CARDS``).

The compiled core reads ``TableParams``'s ten numbers as a struct whose fields are
generated, at build time, from this type's fields (in this order: ``tools/gen_headers.py``
reads this file), and the pure-Python twin reads them by name: neither spells the layout
again. ``sanggong._table.table_params(rules)`` is the one place a rule set becomes them;
``sanggong.shoe``'s ``shoe_terms`` the one place shoe terms are built.
"""

from __future__ import annotations

import array as pyarray
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:  # (NumPy is imported where an array is made: a command that makes none starts without it)
    import numpy as np
    import numpy.typing as npt

__all__ = ["CARDS", "PAIRS", "ROUNDINGS", "SINGLE", "Row", "ShoeTerms", "TableParams"]


# --- a table ---------------------------------------------------------------------------------

ROUNDINGS = ("down", "up", "half_up", "half_even")
"""``rules.rounding``'s modes, numbered as the kernels take them (``VectorKernel``): one
tuple for the core's constants, the twin and ``sanggong.vector``."""


class TableParams(NamedTuple):
    """How a table deals (every field an int; flags 0 or 1)."""

    decks: int
    """Decks in the box or shoe."""
    positions: int
    """Player positions (hands besides the banker's)."""
    fresh_deck: int
    """1: every round is dealt from a freshly shuffled deck (no cut card)."""
    burn_first: int
    """Cards burned after a shuffle."""
    burn_per_round: int
    """Cards burned before every later round of a shoe."""
    head_card: int
    """1: a head card is turned up and names the hand dealt first."""
    head_card_burned: int
    """1: the head card is burned (else it is the first card of the hand it names)."""
    one_at_a_time: int
    """1: one card at a time round the table (else three to each hand in turn)."""
    cut_low: int
    """The cut card lies at least this many cards from the end of a shoe."""
    cut_high: int
    """... and at most this many."""

    def array(self) -> npt.NDArray[np.int64]:
        """The parameters as the kernels take them: int64, in field order."""
        import numpy as np

        return np.array(self, dtype=np.int64)

    def buffer(self) -> pyarray.array[int]:
        """The same numbers as ``array()`` in an ``array.array`` (int64), which the kernels
        take as well: for a caller that makes no other array (``sanggong verify`` starts
        without NumPy)."""
        return pyarray.array("q", self)


# --- shoe terms ------------------------------------------------------------------------------

PAIRS, SINGLE, CARDS = 0, 1, 2


@dataclass(frozen=True)
class Row:
    part: int  # PAIRS, SINGLE or CARDS
    denominator: int  # the nets of this row are multiples of 1 / denominator
    kind: str


@dataclass(frozen=True)
class ShoeTerms:
    """Everything the shoe kernels read for a rule set and its bets (``ShoeKernel``)."""

    kinds: int
    fold: npt.NDArray[np.uint8]
    suit_order: npt.NDArray[np.uint8]  # where suits break ties: the suit codes, weakest first; else none
    pairs_idx: npt.NDArray[np.uint16]
    pairs_values: npt.NDArray[Any]
    single_idx: npt.NDArray[np.uint16]
    single_values: npt.NDArray[Any]
    cards_idx: npt.NDArray[np.uint16]
    cards_values: npt.NDArray[Any]
    rows: tuple[Row, ...]  # in the kernels' order: pairs, single, cards
    bet_row: tuple[int, ...]  # each bet's row
    wide: bool  # a value beyond what the core sums exactly: the sums go through the reference (Python ints)
