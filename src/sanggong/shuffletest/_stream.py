"""The raw output for the standard batteries (Dieharder, TestU01, PractRand): the 64-bit
words the dealing path draws, and the card stream it deals, written to a file or a pipe.

**Words.** Shoes are dealt as ``shuffle_test`` deals them (chunk k from
``seeds.child(sequence, k)``, ``max(1, CHUNK_CARDS // K)`` shoes a chunk); the dealing path
draws every word of a chunk's bit generator in order, each once, so a chunk's words are the
first W of its generator's ``next_uint64`` stream, W the words its shoes took (the kernel
counts them). **Cards**:
each shoe's first K cards (those ``shuffle_test`` tests), one byte each (0..51).

Formats: ``raw``: the words as little-endian 64-bit integers (Dieharder ``-g 200`` from a pipe
or ``-g 201 -f FILE``, both reading 32-bit integers; PractRand ``RNG_test stdin64``;
TestU01's ``ufile_CreateReadBin``), the cards as bytes (PractRand ``stdin8``); ``dieharder``:
Dieharder's text input (``-g 202 -f FILE``), a header then one 32-bit integer a line, each
word as its low then its high half (words only: cards are not uniform bits).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from .. import _kernels
from .._checks import count
from .._spec import burn_of, round_length
from ..rules import RuleSet, as_rules
from ..seeds import SeedLike, check_seed, child
from ._stats import Layout

__all__ = [
    "CHUNK_CARDS", "FORMATS", "KINDS", "MAX_TEST_SHOES", "card_stream", "layout", "word_stream", "write_stream",
]

MAX_TEST_SHOES = 10**11
"""The most shoes one ``shuffle_test`` deals."""
CHUNK_CARDS = 2**20
"""About this many cards a chunk: chunk k deals ``max(1, CHUNK_CARDS // K)`` shoes from
``seeds.child(sequence, k)``, whatever the workers."""


def layout(rules: RuleSet) -> Layout:
    """Where a table's rounds lie in a shoe, over the cards every shoe deals: a fresh deck's
    one round; a shoe's first round and the later ones that come before the cut card at its
    earliest place. The burned places: each round's burns, and a burned head card."""
    table = rules.table_params
    n = 52 * table.decks
    head = 1 if table.head_card and table.head_card_burned else 0
    first, later = round_length(table, burn_of(table, True)), round_length(table, burn_of(table, False))
    bounds, burned = [0, first], list(range(burn_of(table, True) + head))
    if not table.fresh_deck:
        while bounds[-1] <= n - table.cut_high:  # the cut card is not yet out: another round follows
            burned += range(bounds[-1], bounds[-1] + burn_of(table, False) + head)
            bounds.append(bounds[-1] + later)
    cut = None if table.fresh_deck else (table.cut_low, table.cut_high)
    return Layout(n, tuple(bounds), tuple(burned), cut)


KINDS = ("words", "cards")
FORMATS = ("raw", "dieharder")


def _draw_words(bit_generator: Any, m: int) -> npt.NDArray[np.uint64]:
    """The next ``m`` words, as the dealing path's ``next_uint64`` draws them."""
    return np.random.Generator(bit_generator).integers(0, 2**64, m, dtype=np.uint64)


def _chunks(rules: RuleSet, shoes: int, seed: SeedLike) -> tuple[Iterator[tuple[np.random.SeedSequence, int]], int]:
    total = count("shoes", shoes, MAX_TEST_SHOES)
    sequence, _ = check_seed(seed)
    k = layout(rules).k
    per = max(1, CHUNK_CARDS // k)
    return ((child(sequence, c), min(per, total - c * per)) for c in range(-(-total // per))), k


def word_stream(rules: RuleSet | str, shoes: int, seed: SeedLike = None, generator: Any = np.random.PCG64,
                ) -> Iterator[npt.NDArray[np.uint64]]:
    """The words the dealing path draws for ``shoes`` shoes, a chunk at a time."""
    rules = as_rules(rules)
    params = rules.table_params.array()
    chunks, k = _chunks(rules, shoes, seed)
    for seed_k, n in chunks:
        drawn = _kernels.kernels.shuffle_cards(generator(seed_k), params, np.empty((n, k), np.uint8),
                                            np.empty(n, np.uint16))
        yield _draw_words(generator(seed_k), drawn)


def card_stream(rules: RuleSet | str, shoes: int, seed: SeedLike = None, generator: Any = np.random.PCG64,
                ) -> Iterator[npt.NDArray[np.uint8]]:
    """Each shoe's first K cards, as ``shuffle_test`` tests them, a chunk at a time."""
    rules = as_rules(rules)
    params = rules.table_params.array()
    chunks, k = _chunks(rules, shoes, seed)
    for seed_k, n in chunks:
        cards = np.empty((n, k), np.uint8)
        _kernels.kernels.shuffle_cards(generator(seed_k), params, cards, np.empty(n, np.uint16))
        yield cards.ravel()


def write_stream(out: IO[bytes], rules: RuleSet | str, shoes: int, *, kind: str = "words", format: str = "raw",
                 seed: SeedLike = None, generator: Any = np.random.PCG64) -> int:
    """Write the stream of ``kind`` (``"words"`` or ``"cards"``) in ``format`` (``"raw"``,
    ``"dieharder"``) to a binary file or pipe; returns the items written."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}"[:200])
    if format not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, got {format!r}"[:200])
    if kind == "cards" and format != "raw":
        raise ValueError("the card stream is written raw (one byte a card): cards are not uniform bits")
    if format == "dieharder":  # the header needs the count: the words first, then the text
        words = np.concatenate(list(word_stream(rules, shoes, seed, generator)))
        halves = words.astype("<u8").view("<u4")
        header = (f"#==================================================================\n"
                  f"# sanggong: the words the dealing path drew ({as_rules(rules).name}, {shoes} shoes)\n"
                  f"#==================================================================\n"
                  f"type: d\ncount: {len(halves)}\nnumbit: 32\n")
        out.write(header.encode())
        for start in range(0, len(halves), 1 << 16):
            out.write(("\n".join(map(str, halves[start:start + (1 << 16)].tolist())) + "\n").encode())
        return len(words)
    written = 0
    stream = word_stream(rules, shoes, seed, generator) if kind == "words" else card_stream(rules, shoes, seed, generator)
    for part in stream:
        out.write(part.astype("<u8" if kind == "words" else np.uint8, copy=False).tobytes())
        written += len(part)
    return written
