"""Planted faults: shufflers that are wrong in the ways real ones have been, each writing
recorded shuffles (``[shoes, 52 * decks]`` card codes) for ``shuffle_test`` to catch, beside
a correct one. They show the battery's power (docs/shuffle-test.md's calibration table,
``tools/shuffle_calibration.py``); none is used by the dealing path.

>>> import numpy as np
>>> from sanggong.shuffletest import check_shuffles
>>> [check_shuffles(f(np.random.default_rng(1), 3)).shape for f in FAULTS.values()]
[(3, 52), (3, 52), (3, 52), (3, 52), (3, 52)]
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

__all__ = ["FAULTS", "modulo_bias", "naive_swap", "reused_shoe", "sticky_card", "uniform"]

Shoes = npt.NDArray[np.uint8]


def _fresh(shoes: int, decks: int) -> Shoes:
    return np.tile((np.arange(52 * decks) % 52).astype(np.uint8), (shoes, 1))


def _swap(deck: Shoes, i: int, j: npt.NDArray[np.int64]) -> None:
    rows = np.arange(len(deck))
    held = deck[rows, i].copy()
    deck[rows, i] = deck[rows, j]
    deck[rows, j] = held


def uniform(rng: np.random.Generator, shoes: int, decks: int = 1) -> Shoes:
    """A correct shuffle (numpy's ``permuted``): the control."""
    return rng.permuted(_fresh(shoes, decks), axis=1)


def modulo_bias(rng: np.random.Generator, shoes: int, decks: int = 1, bits: int = 8) -> Shoes:
    """Fisher-Yates with the bounded integer taken as ``word % bound`` from a ``bits``-bit
    word: the small remainders come up more often (the classic ``rand() % n``)."""
    deck = _fresh(shoes, decks)
    n = deck.shape[1]
    for i in range(n - 1):
        _swap(deck, i, i + rng.integers(0, 2**bits, shoes) % (n - i))
    return deck


def naive_swap(rng: np.random.Generator, shoes: int, decks: int = 1) -> Shoes:
    """Each place swapped with a place drawn from the whole deck (n^n equally likely
    paths onto n! orders: not uniform)."""
    deck = _fresh(shoes, decks)
    n = deck.shape[1]
    for i in range(n):
        _swap(deck, i, rng.integers(0, n, shoes))
    return deck


def reused_shoe(rng: np.random.Generator, shoes: int, decks: int = 1, kept: int = 4) -> Shoes:
    """Each shoe after the first reuses the one before without a full reshuffle: the cards
    behind the cut card (the last 1..``kept``, uniformly) stay where they were, the rest
    are shuffled (uniformly) in front of them."""
    deck = uniform(rng, shoes, decks)
    n = deck.shape[1]
    behind = rng.integers(1, kept + 1, shoes)
    for s in range(1, shoes):
        m = int(behind[s])
        rest = deck[s - 1, :n - m].copy()
        deck[s, n - m:] = deck[s - 1, n - m:]
        deck[s, :n - m] = rng.permutation(rest)
    return deck


def sticky_card(rng: np.random.Generator, shoes: int, decks: int = 1, rate: float = 1e-3, card: int = 0) -> Shoes:
    """A correct shuffle, but once in ``1 / rate`` shoes the card ``card`` sticks at the top
    (a card caught in a shuffling machine's elevator)."""
    deck = uniform(rng, shoes, decks)
    stuck = np.flatnonzero(rng.random(shoes) < rate)
    where = (deck[stuck] == card).argmax(axis=1)
    _swap_rows = deck[stuck]
    _swap_rows[np.arange(len(stuck)), where] = _swap_rows[:, 0]
    _swap_rows[:, 0] = card
    deck[stuck] = _swap_rows
    return deck


FAULTS: dict[str, Callable[..., Shoes]] = {
    "uniform (control)": uniform, "modulo-biased bounded integer (8-bit word)": modulo_bias,
    "naive swap shuffle": naive_swap, "shoe reused without a full reshuffle": reused_shoe,
    "one card sticks once in 1000 shoes": sticky_card,
}
"""The shufflers by name, the control first."""
