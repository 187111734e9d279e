"""The default ranking's hands as the compiled core holds them, for ``sanggong.ranking``.

The core carries the default ranking's lookup tables, generated from the specification
when it is built (``_tables.h``, by ``tools/gen_tables.py``; ``_core.default_tables``):
every ordered triple's class number under the default ranking (``3 * points + faces``,
30 for three faces) and its Pair Plus category. Under the default ranking a hand's keys
follow from its class number, so ``RankingTables`` needs the keys of one hand of each
class only (31 hands) instead of all 140,608 triples': the default ranking's tables are
then made in a millisecond or two, where computing them from every triple takes some
40 ms at the start of every process that ranks a hand (``sanggong verify``'s first record
is checked in full). The tables made either way are equal, every attribute of them
(``tests/test_startup.py``); without the core (``SANGGONG_NO_EXTENSIONS=1``, or a core
not built) they are computed, as for every other ranking.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .. import _kernels

__all__ = ["Triples", "default_triples"]

Triples = tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]
"""Three arrays of card codes: the first, second and third card of each triple."""


def default_triples() -> tuple[npt.NDArray[np.intp], npt.NDArray[np.int64], Triples] | None:
    """``(classes, pair_plus, hands)`` where the compiled core is the implementation in use,
    else None. ``classes`` and ``pair_plus`` hold every ordered triple's class number under
    the default ranking and its Pair Plus category (index ``52 * (52 * c0 + c1) + c2``, as
    ``_spec.triple_keys``), and ``hands`` is one triple of each class number, in their
    order (0, 1, ...): the default ranking's keys of a triple are those of its class's hand.
    """
    if _kernels.kernels.IMPLEMENTATION != "cython":
        return None
    from .._core import default_tables  # (the compiled core: loaded already, as the kernels in use)

    state_bytes, hand_bytes = default_tables()
    state = np.frombuffer(state_bytes, dtype=np.uint16).astype(np.intp)  # a pair's state x 52
    hand = np.frombuffer(hand_bytes, dtype=np.uint8)  # class | pair plus << 5, by state x 52 + the third card
    cards = np.arange(52, dtype=np.intp)
    values = hand[(state[:, None] + cards[None, :]).reshape(-1)]
    classes = (values & 31).astype(np.intp)
    numbers, first = np.unique(hand & 31, return_index=True)  # every state and third card: every class
    if not np.array_equal(numbers, np.arange(len(numbers))):
        return None  # (not the numbering this module reads: leave it to the computation)
    pair_of_state = np.zeros(len(hand) // 52, dtype=np.int64)
    pair_of_state[state // 52] = np.arange(len(state))  # a pair of cards in each state (any one)
    pairs = pair_of_state[first // 52]
    hands: Triples = (pairs // 52, pairs % 52, (first % 52).astype(np.int64))
    return classes, (values >> 5).astype(np.int64), hands
