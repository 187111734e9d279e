"""Log lines (the twin of ``csrc/logline.pxi``)."""

from __future__ import annotations

import array
import hashlib
import hmac
import re
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ... import _logline as slots

__all__ = ["LineTemplate", "check_line", "render_rounds", "write_line"]

# verify's fast pass (sanggong.verify._fastlog): a shoe's rounds written from a template, and one
# round's line checked against them (the core's csrc/logline.pxi).


class LineTemplate:
    """A round's line and canonical bytes as ``render_rounds`` writes them: two templates
    of ``(literal, slot)`` pairs for a table of ``hands`` hands with ``consts`` constants,
    the winner words of a hand that loses, ties and beats the banker's, the 52 cards'
    texts, and each hand's class, rank and Pair Plus category by its cards. Immutable
    (safe to share between threads)."""

    def __init__(self, ops_line: Sequence[tuple[bytes, int]], ops_canonical: Sequence[tuple[bytes, int]], hands: int,
                 consts: int, words: Sequence[bytes], cards: Sequence[bytes], hand_class: npt.NDArray[np.uint8] | bytes,
                 hand_rank: npt.NDArray[np.uint16] | array.array[int], hand_pp: npt.NDArray[np.uint8] | bytes) -> None:
        self.ops_line = tuple((literal, int(slot)) for literal, slot in ops_line)
        self.ops_canonical = tuple((literal, int(slot)) for literal, slot in ops_canonical)
        self.hands, self.consts = hands, consts
        self.words, self.cards = tuple(words), tuple(cards)
        # (memoryview: bytes, array.array and NumPy's arrays alike; NumPy's stubs give ndarray no
        # __buffer__ before Python 3.12, hence the ignore)
        self.hand_class, self.hand_rank, self.hand_pp = (
            np.array(memoryview(a)) for a in (hand_class, hand_rank, hand_pp))  # type: ignore[arg-type]


def render_rounds(template: LineTemplate, consts: tuple[bytes, ...], hands: npt.NDArray[np.uint8],
                  burned: npt.NDArray[np.uint8], burn_counts: npt.NDArray[np.uint8], head_cards: npt.NDArray[np.uint8],
                  round_in_shoe: npt.NDArray[np.uint16], last: npt.NDArray[np.uint8], cut_card: npt.NDArray[np.uint16],
                  first_round: int, tails: Sequence[bytes | None], classes: npt.NDArray[np.uint8],
                  ranks: npt.NDArray[np.uint16], pps: npt.NDArray[np.uint8], out: list[bytes]) -> int:
    """Write each round's line and canonical bytes, as their pieces between the template's
    holes (``sanggong._logline`` names the slots) packed by ``_logline.pack``, onto ``out``,
    and each hand's class, rank and category into ``classes``, ``ranks`` and ``pps``.
    Returns -1, or where a hand has no text (``round * hands + position``)."""
    rows = hands.tolist()
    n = template.hands
    for i, row in enumerate(rows):
        for p, hand in enumerate(row):
            key = hand[0] * 2704 + hand[1] * 52 + hand[2]
            classes[i, p], ranks[i, p], pps[i, p] = template.hand_class[key], template.hand_rank[key], \
                template.hand_pp[key]
            c = int(classes[i, p]) * 8 + int(pps[i, p])
            if c >= len(tails) or tails[c] is None:
                return i * n + p
            if not isinstance(tails[c], bytes):
                raise TypeError(f"a hand's text is bytes, not {type(tails[c]).__name__}")
    rank_rows = ranks.tolist()
    cards, words = template.cards, template.words
    for i, row in enumerate(rows):

        def field(slot: int, i: int = i, row: list[list[int]] = row) -> bytes:
            if slot == slots.ROUND:
                return b"%d" % (first_round + i)
            if slot == slots.IN_SHOE:
                return b"%d" % int(round_in_shoe[i])
            if slot == slots.CUT:
                return b"%d" % int(cut_card[i]) if cut_card[i] else b"null"
            if slot == slots.LAST:
                return b"true" if last[i] else b"false"
            if slot == slots.HEAD:
                return b"null" if head_cards[i] == slots.NO_CARD else cards[int(head_cards[i])]
            if slot == slots.BURNED:
                return b"[%s]" % b",".join(cards[c] for c in burned[i, :burn_counts[i]].tolist())
            if slot < slots.HAND:
                return consts[slot - slots.CONST]
            if slot < slots.WIN:
                p = slot - slots.HAND
                tail = tails[int(classes[i, p]) * 8 + int(pps[i, p])]
                assert tail is not None  # (checked above)
                return b'{"cards":[%s]%s' % (b",".join(cards[c] for c in row[p]), tail)
            p = slot - slots.WIN
            sign = rank_rows[i][p] - rank_rows[i][0]
            return words[0 if sign < 0 else 1 if sign == 0 else 2]

        both = []
        for ops in (template.ops_line, template.ops_canonical):
            pieces, text = [], b""
            for literal, slot in ops:
                text += literal
                if slot == slots.END:
                    break
                if slot == slots.HOLE:
                    pieces.append(text)
                    text = b""
                else:
                    text += field(slot)
            pieces.append(text)
            both.append(pieces)
        out.append(slots.pack(both[0], both[1]))
    return -1


def check_line(line: bytes, rendered: bytes, canonical_owns: tuple[bytes, ...], line_owns: tuple[bytes, ...],
               mac: int, key: bytes | None) -> bytes | None:
    """Accept ``line`` as a round's record (its hash, quoted) or not (``None``): the canonical bytes
    are the rendered round's canonical pieces with their owns between them, the line its
    line pieces with its owns, the quoted hash and (``mac`` 1) the quoted HMAC under
    ``key`` or (``mac`` 2) a quoted hex digest left unchecked."""
    line_pieces, canonical_pieces = slots.unpack(rendered)
    if len(canonical_pieces) != len(canonical_owns) + 1 or \
            len(line_pieces) != len(line_owns) + 2 + (mac != 0) or mac not in (0, 1, 2):
        raise ValueError("pieces and holes do not match")
    canonical = b"".join(p + o for p, o in zip(canonical_pieces, (*canonical_owns, b""), strict=True))
    digest = hashlib.sha256(canonical).hexdigest()
    owns = [*line_owns, b'"%s"' % digest.encode()]
    if mac == 1:
        if not isinstance(key, bytes):
            raise TypeError("the key is bytes")
        owns.append(b'"%s"' % hmac.new(key, canonical, hashlib.sha256).hexdigest().encode())
    elif mac == 2:
        mark = line[-66 - len(line_pieces[-1]):len(line) - len(line_pieces[-1])]
        if not re.fullmatch(rb'"[0-9a-f]{64}"', mark):
            return None
        owns.append(mark)
    expected = b"".join(p + o for p, o in zip(line_pieces, (*owns, b""), strict=True))
    return owns[len(line_owns)] if expected == line else None


def write_line(rendered: bytes, canonical_owns: tuple[bytes, ...], line_owns: tuple[bytes, ...],
               key: bytes | None) -> tuple[bytes, bytes, str]:
    """Write a round's record (``check_line``'s writer): its line, its canonical bytes and
    its hash; the line is the rendered round's line pieces with ``line_owns``, the quoted
    hash and (``key`` bytes) the quoted HMAC under ``key`` between them."""
    if key is not None and type(key) is not bytes:
        raise TypeError("the key is bytes")
    line_pieces, canonical_pieces = slots.unpack(rendered)
    if len(canonical_pieces) != len(canonical_owns) + 1 or \
            len(line_pieces) != len(line_owns) + 2 + (key is not None):
        raise ValueError("pieces and holes do not match")
    if any(type(piece) is not bytes for piece in (*canonical_owns, *line_owns)):
        raise TypeError("a piece is bytes")
    canonical = b"".join(p + o for p, o in zip(canonical_pieces, (*canonical_owns, b""), strict=True))
    digest = hashlib.sha256(canonical).hexdigest()
    owns = [*line_owns, b'"%s"' % digest.encode()]
    if key is not None:
        owns.append(b'"%s"' % hmac.new(key, canonical, hashlib.sha256).hexdigest().encode())
    return b"".join(p + o for p, o in zip(line_pieces, (*owns, b""), strict=True)), canonical, digest
