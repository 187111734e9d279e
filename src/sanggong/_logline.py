"""The slots of a log line's template, which ``_fastlog`` writes templates with and both
implementations of ``render_rounds`` fill (the core reads these numbers at import).

A template is a tuple of ``(literal, slot)`` pairs, the last slot ``END``: the literal text,
then the slot's field of the round. A round is written as its pieces between the holes,
packed in one bytes object (``pack``).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

END = 0
ROUND = 1  # the round's number
IN_SHOE = 2  # its number in the shoe
CUT = 3  # the cut card's place, null when 0
LAST = 4  # last of its shoe: true / false
HEAD = 5  # the head card, null when 255 (none)
BURNED = 6  # the burned cards, a list
CONST = 10  # CONST + j: the template's constant j (the shoe's number, its state)
HAND = 100  # HAND + p: hand p (0: the banker's)
WIN = 200  # WIN + p: the winner word of hand p against the banker's
HOLE = 1000  # a hole: the record's slip or chain fills it (the pieces are cut here)
NO_CARD = 255


def pack(line_pieces: Sequence[bytes], canonical_pieces: Sequence[bytes]) -> bytes:
    """A round's pieces as ``render_rounds`` writes them, in one bytes object: the number
    of line pieces and of canonical pieces, each piece's length (each a 4-byte
    little-endian unsigned number), then the pieces, the line's first."""
    pieces = [*line_pieces, *canonical_pieces]
    return struct.pack(f"<{2 + len(pieces)}I", len(line_pieces), len(canonical_pieces),
                       *map(len, pieces)) + b"".join(pieces)


def unpack(rendered: bytes) -> tuple[tuple[bytes, ...], tuple[bytes, ...]]:
    """``pack``'s line pieces and canonical pieces (ValueError: not a packed round)."""
    if len(rendered) < 8:
        raise ValueError("not a rendered round")
    n_line, n_canonical = struct.unpack_from("<2I", rendered)
    if n_line > 256 or n_canonical > 256 or len(rendered) < 8 + 4 * (n_line + n_canonical):
        raise ValueError("not a rendered round")
    lengths = struct.unpack_from(f"<{n_line + n_canonical}I", rendered, 8)
    at = 8 + 4 * len(lengths)
    if at + sum(lengths) != len(rendered):
        raise ValueError("not a rendered round")
    pieces = []
    for n in lengths:
        pieces.append(rendered[at:at + n])
        at += n
    return tuple(pieces[:n_line]), tuple(pieces[n_line:])
