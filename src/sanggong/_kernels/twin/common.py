"""What the twin's families share (the twin of ``csrc/common.pxi`` and ``csrc/sg_table.pxi``):
a kernel's table parameters, checked as the compiled core checks them."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..._spec import table_fits
from ...limits import MAX_BURN, MAX_DECKS, MAX_POSITIONS
from ..inputs import TableParams


def table_of(params: npt.NDArray[np.int64], *, later_apart: bool) -> TableParams:
    """The table of a kernel's ``params``, checked as the compiled core checks them: the
    limits, and that its rounds fit its cards (``_spec.table_fits``); a later round that
    may not fit behind the cut card is refused on its own where ``later_apart``."""
    if len(params) != len(TableParams._fields):
        raise ValueError(f"params must hold {len(TableParams._fields)} values")
    table = TableParams(*(int(x) for x in params))
    first, later = table_fits(table)
    in_range = (1 <= table.decks <= MAX_DECKS and 1 <= table.positions <= MAX_POSITIONS
                and 0 <= table.burn_first <= MAX_BURN and 0 <= table.burn_per_round <= MAX_BURN)
    if not (in_range and first and (later or later_apart)):
        raise ValueError(f"params {list(table)} do not describe a table this kernel deals")
    if not later:
        raise ValueError("a later round may need more cards than the cut card leaves")
    return table
