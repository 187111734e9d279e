"""Recorded shuffles from outside (a shuffling machine's output): an integer array
``[shoes, cards]`` of card codes, or a file of them, checked to be shuffles of whole decks;
anything else is refused naming the shoe and the position."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import numpy.typing as npt

from ..cards import Card
from ..limits import MAX_DECKS

__all__ = ["MAX_FILE_BYTES", "check_shuffles", "read_shuffles"]

MAX_FILE_BYTES = 2**31
"""The largest file of recorded shuffles read (2 GiB)."""
BLOCK = 2**16
"""Shoes checked at a time (bounds the memory of the check)."""


def _decks(length: int, where: str) -> int:
    if length == 0 or length % 52 or length // 52 > MAX_DECKS:
        raise ValueError(f"{where} holds {length} cards: a shuffle of whole decks holds 52 cards a deck, "
                         f"1..{MAX_DECKS} decks")
    return length // 52


def _ordinal(k: int) -> str:
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


def check_shuffles(source: object) -> npt.NDArray[np.uint8]:
    """The recorded shuffles as a ``uint8`` array ``[shoes, cards]``, checked: every row a
    shuffle of the same whole number of decks (each of the 52 codes exactly once a deck).

    :raises TypeError: not an integer array (a bool or float array, an object array).
    :raises ValueError: not two-dimensional, no shoe, a wrong length, a code that is no card
        or a card more often than the decks hold (naming the shoe and position, from 0).
    """
    try:
        array = np.asarray(source) if not isinstance(source, np.ndarray) else source
    except ValueError:  # (numpy: "inhomogeneous shape")
        raise ValueError("recorded shuffles must be an array [shoes, cards]: its rows differ in length") from None
    if array.dtype == np.bool_ or not np.issubdtype(array.dtype, np.integer):
        raise TypeError(f"recorded shuffles must be an integer array of card codes, not {array.dtype}")
    if array.ndim != 2 or array.shape[0] == 0:
        raise ValueError(f"recorded shuffles must be an array [shoes, cards] with at least one shoe, "
                         f"got shape {array.shape}")
    shoes, length = array.shape
    decks = _decks(length, "each shoe")
    if int(array.min()) < 0 or int(array.max()) > 51:
        shoe, position = (int(i) for i in np.argwhere((array < 0) | (array > 51))[0])
        raise ValueError(f"shoe {shoe}, position {position}: {int(array[shoe, position])} is no card code (0..51)")
    codes = np.ascontiguousarray(array, dtype=np.uint8)
    wrong: list[int] = []
    for start in range(0, shoes, BLOCK):  # each shoe's count of each code, a block of shoes at a time
        block = codes[start:start + BLOCK]
        offsets = np.arange(0, 52 * len(block), 52, dtype=np.int32)[:, None]
        counts = np.bincount((block + offsets).ravel(), minlength=52 * len(block)).reshape(len(block), 52)
        wrong = (np.flatnonzero((counts != decks).any(axis=1)) + start).tolist()
        if wrong:
            break
    if wrong:
        shoe = wrong[0]
        seen = [0] * 52
        for position, code in enumerate(codes[shoe].tolist()):
            seen[code] += 1
            if seen[code] > decks:
                raise ValueError(f"shoe {shoe}, position {position}: {Card(code)} (code {code}) a "
                                 f"{_ordinal(seen[code])} time, more than {decks} deck(s) hold")
    return codes


def read_shuffles(path: str | os.PathLike[str]) -> npt.NDArray[np.uint8]:
    """Recorded shuffles from a file: a NumPy ``.npy`` array, or text with one shoe a line,
    card codes (0..51) separated by spaces or commas (blank lines and ``#`` comments
    skipped); checked by ``check_shuffles``. A line of another length than the first is
    refused naming its shoe."""
    size = os.path.getsize(path)
    if size > MAX_FILE_BYTES:
        raise ValueError(f"{os.fspath(path)}: larger than {MAX_FILE_BYTES:,} bytes")
    with open(path, "rb") as f:
        head = f.read(6)
    if head == b"\x93NUMPY":
        return check_shuffles(np.load(path, allow_pickle=False))
    rows: list[list[int]] = []
    with open(path, encoding="utf-8", errors="strict") as f:
        for line in f:
            text = line.split("#", 1)[0].replace(",", " ").split()
            if not text:
                continue
            shoe = len(rows)
            row: list[int] = []
            for position, token in enumerate(text):
                if not (token.isdigit() and len(token) <= 3):
                    raise ValueError(f"shoe {shoe}, position {position}: {token[:20]!r} is no card code (0..51)")
                row.append(int(token))
            if rows and len(row) != len(rows[0]):
                raise ValueError(f"shoe {shoe} holds {len(row)} cards, shoe 0 holds {len(rows[0])}")
            _decks(len(row), f"shoe {shoe}")
            rows.append(row)
    if not rows:
        raise ValueError(f"{os.fspath(path)}: no shoe in the file")
    shuffles: Any = np.array(rows, dtype=np.int64)
    return check_shuffles(shuffles)
