"""Rankings as data: how a table orders three-card hands, and the lookup tables the
compiled core evaluates them with, generated at run time from the game's specification.

A ranking has three parts (the rules page of the documentation tells them in full):

- ``tiers``, strongest first, from ``"three_threes"`` (3-3-3, 爆玖), ``"face_trips"``
  (J-J-J, Q-Q-Q, K-K-K: 大三公), ``"trips"`` (any three of a kind; 小三公 when below
  ``face_trips``) and ``"three_faces"`` (three face cards: 3P, 混三公 when below a trips
  tier). A hand belongs to the first tier it fits and beats every hand of a later tier
  or of none.
- ``order`` below the tiers: ``"points_faces"`` (points, then more faces: ``2P9 > P9 >
  9``), ``"points"`` (points only: equal points tie) or ``"faces_points"`` (more faces
  first, then points).
- ``high_card`` for hands still equal: ``"none"`` (they tie), ``"rank"`` (each hand's
  highest card, K high .. A low) or ``"rank_suit"`` (then that card's suit, spades >
  hearts > clubs > diamonds). With several decks two hands can still tie exactly.

>>> Ranking()                                      # Macau and online: the default
Ranking(order='points_faces', tiers=('three_faces',), high_card='none')
>>> chinese = Ranking(order="points", tiers=("face_trips", "trips", "three_faces"), high_card="rank_suit")
>>> tables_for(chinese).n_ranks > 256             # suits break ties: 16-bit ranks
True
>>> Ranking(tiers=("trips", "trips"))
Traceback (most recent call last):
...
ValueError: ranking.tiers: 'trips' appears twice

Hand **ranks** under a ranking are integers ``0 .. n_ranks - 1``: a higher rank wins and
equal ranks tie. Without a suit tie-break they number the ranking's distinct strengths
from 0 up; under the default ranking they are today's 31 class numbers (``3 * points +
faces``, 30 for 3P). Where suits break ties a rank is ``256 * p + s`` instead: ``p``
numbers the hand's tier and its place in the order below the tiers (points, or points and
faces) from 0 up, and ``s`` is its highest card's strength, four times its rank less one
plus its suit's (♦ 0, ♣ 1, ♥ 2, ♠ 3): A♦ 0 .. K♠ 51. Not every integer below ``n_ranks``
is then a rank. A hand's **class** (tier, points, faces) is what the bets other than a
comparison read (Odd/Even, Point, Three Faces, a multiplier).
"""

from __future__ import annotations

import array
import functools
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from . import _kernels
from ._spec import (
    HIGH_CARDS,
    ORDERS,
    SUIT_STRENGTH,
    TIERS,
    class_key,
    class_label,
    hand_key,
    triple_keys,
    triple_pair_plus,
    unpack_class_key,
    unpack_hand_key,
)
from ._text import check_choice, show

if TYPE_CHECKING:  # (NumPy is imported where tables are built: a command that ranks nothing starts without it)
    import numpy as np
    import numpy.typing as npt

__all__ = ["DEFAULT_RANKING", "HIGH_CARDS", "ORDERS", "TIERS", "Ranking", "RankingTables", "tables_for"]



@dataclass(frozen=True, slots=True)
class Ranking:
    """How hands are ordered: tiers above the points, the order of points and faces,
    and the high-card tie-break. Hashable: a ranking keys the cache of its tables.

    :raises TypeError: a field of the wrong type, named.
    :raises ValueError: an unknown order, tier or tie-break, or a tier given twice.
    """

    order: str = "points_faces"
    tiers: tuple[str, ...] = ("three_faces",)
    high_card: str = "none"

    def __post_init__(self) -> None:
        for name, allowed in (("order", ORDERS), ("high_card", HIGH_CARDS)):
            check_choice(getattr(self, name), f"ranking.{name}", allowed)
        tiers = self.tiers
        if isinstance(tiers, str | bytes) or not isinstance(tiers, Sequence):
            raise TypeError(f"ranking.tiers: expected a list of tier names, got {show(tiers)}")
        if len(tiers) > len(TIERS):
            raise ValueError(f"ranking.tiers: at most {len(TIERS)} tiers, got {len(tiers)}")
        for tier in tiers:
            if not isinstance(tier, str):
                raise TypeError(f"ranking.tiers: tier names are strings, got {show(tier)}")
            if tier not in TIERS:
                raise ValueError(f"ranking.tiers: expected tiers from {TIERS}, got {show(tier)}")
            if list(tiers).count(tier) > 1:
                raise ValueError(f"ranking.tiers: {tier!r} appears twice")
        object.__setattr__(self, "tiers", tuple(tiers))

    @property
    def uses_suits(self) -> bool:
        """Whether a hand's rank depends on its cards' suits (``high_card="rank_suit"``)."""
        return self.high_card == "rank_suit"

    @property
    def kinds(self) -> int:
        """How finely exact counting must tell cards apart: 11 (A..9, ten, a face: J, Q
        and K alike), 13 (ranks) or 52 (cards, where suits break ties)."""
        if self.uses_suits:
            return 52
        if self.high_card == "rank" or {"trips", "face_trips"} & set(self.tiers):
            return 13
        return 11

    def to_dict(self) -> dict[str, Any]:
        """The ranking as plain data (a rule file's ``[ranking]`` table)."""
        return {"order": self.order, "tiers": list(self.tiers), "high_card": self.high_card}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ranking:
        """Read ``to_dict``'s form; fields left out take the default's, unknown ones are refused."""
        if not isinstance(data, Mapping):
            raise TypeError(f"ranking: expected a table with order, tiers and high_card, got {show(data)}")
        unknown = set(data) - {"order", "tiers", "high_card"}
        if unknown:
            raise ValueError(f"ranking.{sorted(map(str, unknown))[0]}: unknown field of a ranking")
        tiers = data.get("tiers", ("three_faces",))
        if isinstance(tiers, list):
            tiers = tuple(tiers)
        return cls(order=data.get("order", "points_faces"), tiers=tiers, high_card=data.get("high_card", "none"))


DEFAULT_RANKING = Ranking()
"""Points, then faces; three faces (3P) on top; equal classes tie (Macau, online)."""


class LookupBuffers(NamedTuple):
    """A ranking's lookup tables as the compiled core reads them (``RankingTables``'s
    ``state``, ``state16``, ``value``, ``rank`` and ``cls``, the same numbers): read-only
    memoryviews (``H`` uint16, ``B`` uint8), made without NumPy where the core holds the
    ranking's tables. Read-only, as the core keeps their addresses: no write, and no
    resize that would move them (``frozen``)."""

    state: memoryview
    state16: memoryview
    value: memoryview
    rank: memoryview
    cls: memoryview

    @classmethod
    def frozen(cls, *tables: array.array[int]) -> LookupBuffers:
        """The tables, copied into read-only buffers of their item types."""
        views = []
        for table in tables:
            code: Any = table.typecode  # (typeshed's cast overloads name each code as a literal)
            views.append(memoryview(table.tobytes()).cast(code))
        return cls(*views)


class RankingTables:
    """Everything the kernels need to rank hands under one ranking, generated from the
    specification's ``triple_keys`` (checked against its plain ``hand_key``/``class_key`` by
    the test suite) and checked complete here before use.

    - ``state`` (2,704 uint16): ``state[52 * c0 + c1]`` = the first two cards' state x 52;
      ``value[state[52 * c0 + c1] + c2]`` = ``rid << 3 | pair_plus`` (uint16), where a
      *rid* numbers the distinct (rank, class) pairs. ``state16`` re-lays ``state`` so
      that two uint8 codes read as one 16-bit word index it.
    - ``rank`` (uint16 per rid): the comparable rank, below ``n_ranks``; ``cls`` (uint8
      per rid): the class.
    - ``rank_keys``: the distinct comparison keys (``hand_key``), ascending, and
      ``rank_values`` the rank of each.
    - ``class_keys``: (tier level, points, faces) of each class; ``labels`` its display.
    - ``ordered_by_class``: a comparison depends on the two classes alone (no high card,
      and each class one rank); ``class_rank`` is then each class's rank.

    The arrays are NumPy's (read-only), made on first use from ``buffers``
    (``LookupBuffers``: the same tables as read-only buffers, which the compiled core reads): the
    default ranking's tables are made from the core's own (``_kernels.default_lookups``)
    without NumPy, so that a command that ranks hands in the core alone (``sanggong
    verify``) starts without it; any other ranking's are computed with NumPy.
    """

    def __init__(self, ranking: Ranking) -> None:
        self.ranking = ranking
        held = _kernels.default_lookups() if ranking == DEFAULT_RANKING else None
        made = None if held is None else _from_core(ranking, *held)
        if made is None:
            made = _computed(ranking)
        (self.n_rids, self.n_classes, self.n_ranks, self.class_keys, self.rank_keys, self.rank_values,
         self.ordered_by_class, self._class_rank, self.buffers) = made
        self.labels: tuple[str, ...] = tuple(class_label(ranking, k) for k in self.class_keys)
        self._by_hand: tuple[bytes, array.array[int], bytes] | None = None
        self.kernel_lookups: dict[str, Any] = {}  # each implementation's Lookups of these (sanggong._kernels.lookups)

    # the tables as NumPy's arrays (views of ``buffers``), made when first read

    @functools.cached_property
    def state(self) -> npt.NDArray[np.uint16]:
        return _view(self.buffers.state, "uint16")

    @functools.cached_property
    def state16(self) -> npt.NDArray[np.uint16]:
        return _view(self.buffers.state16, "uint16")

    @functools.cached_property
    def value(self) -> npt.NDArray[np.uint16]:
        return _view(self.buffers.value, "uint16")

    @functools.cached_property
    def rank(self) -> npt.NDArray[np.uint16]:
        return _view(self.buffers.rank, "uint16")

    @functools.cached_property
    def cls(self) -> npt.NDArray[np.uint8]:
        return _view(self.buffers.cls, "uint8")

    @functools.cached_property
    def class_rank(self) -> npt.NDArray[np.int64]:
        import numpy as np

        return np.array(self._class_rank, dtype=np.int64)

    @functools.cached_property
    def packed_of_triple(self) -> npt.NDArray[np.int64]:
        """(140,608,) ``rid << 3 | pair plus`` of every ordered triple (index ``52 * (52 *
        c0 + c1) + c2``), from the lookups (for the tests and the counting tables)."""
        import numpy as np

        cards = np.arange(52, dtype=np.int64)
        packed: npt.NDArray[np.int64] = self.value.astype(np.int64)[
            (self.state.astype(np.int64)[:, None] + cards[None, :]).reshape(-1)]
        return packed

    @functools.cached_property
    def rank_dtype(self) -> np.dtype[Any]:
        import numpy as np

        return np.dtype(np.uint8 if self.n_ranks <= 256 else np.uint16)

    def by_hand(self) -> tuple[bytes, array.array[int], bytes]:
        """Every ordered triple's class (uint8), rank (uint16) and Pair Plus category
        (uint8), at ``52 * (52 * c0 + c1) + c2`` (what ``LineTemplate`` takes), from the
        lookups without NumPy: a row of 52 for each state, laid out by ``state``. Made once.

        Each value's fields are looked up at C speed (``bytes.translate``) where every value
        is below 256, as the default ranking's are (its 31 rids); a ranking of more rids was
        computed with NumPy, which then looks them up."""
        if self._by_hand is None:
            state, value, rank, cls = self.buffers.state, self.buffers.value, self.buffers.rank, self.buffers.cls
            low, high = _bytes_of(value)
            if high.count(0) == len(high):
                codes = range(256)  # (a value's rid, v >> 3, where it is one; any other byte is never looked up)
                ranks_of = [rank[v >> 3] if v >> 3 < len(rank) else 0 for v in codes]
                classes = low.translate(bytes(cls[v >> 3] if v >> 3 < len(cls) else 0 for v in codes))
                ranks = _words(low.translate(bytes(r & 255 for r in ranks_of)),
                               low.translate(bytes(r >> 8 for r in ranks_of))).tobytes()
                pps = low.translate(bytes(v & 7 for v in codes))
            else:
                values = self.value
                classes = self.cls[values >> 3].tobytes()
                ranks = self.rank[values >> 3].tobytes()
                pps = (values & 7).astype("uint8").tobytes()
            by_rank = array.array("H")
            by_rank.frombytes(b"".join([ranks[2 * s:2 * s + 104] for s in state]))
            self._by_hand = (b"".join([classes[s:s + 52] for s in state]), by_rank,
                             b"".join([pps[s:s + 52] for s in state]))
        return self._by_hand

    def __reduce__(self) -> tuple[Any, ...]:  # sent to workers by description, not bytes
        return (tables_for, (self.ranking,))

    def __repr__(self) -> str:
        return (f"RankingTables({self.ranking!r}: {self.n_ranks} ranks, {self.n_classes} classes, "
                f"{len(self.buffers.value) // 52} states)")


_Made = tuple[int, int, int, tuple[tuple[int, int, int], ...], tuple[tuple[int, int, int], ...], tuple[int, ...], bool,
              list[int], LookupBuffers]
"""What both ways of making a ranking's tables give: ``n_rids``, ``n_classes``,
``n_ranks``, ``class_keys``, ``rank_keys``, ``rank_values``, ``ordered_by_class``, each
class's rank and the ``LookupBuffers``."""


def _view(buffer: memoryview | array.array[int], dtype: str) -> npt.NDArray[Any]:
    import numpy as np

    return np.frombuffer(buffer, dtype=dtype)


def _bytes_of(words: memoryview | array.array[int]) -> tuple[bytes, bytes]:
    """The low bytes and the high bytes of a uint16 array's words."""
    raw = words.tobytes()
    return (raw[0::2], raw[1::2]) if sys.byteorder == "little" else (raw[1::2], raw[0::2])


def _words(low: bytes, high: bytes) -> array.array[int]:
    """The uint16 array of words of these low and high bytes (``_bytes_of``'s inverse)."""
    raw = bytearray(2 * len(low))
    raw[0::2], raw[1::2] = (low, high) if sys.byteorder == "little" else (high, low)
    words = array.array("H")
    words.frombytes(raw)
    return words


def _keys_of_rids(ranking: Ranking, rid_keys: Sequence[tuple[tuple[int, int, int], tuple[int, int, int]]]) \
        -> tuple[list[int], list[int], tuple[tuple[int, int, int], ...], tuple[tuple[int, int, int], ...]]:
    """Of the distinct (hand key, class key) pairs, ascending (the rids): each one's rank
    and class, the class keys (classes numbered in the order of their first rid, so that
    under a ranking whose classes are its ranks, the default, class, rid and rank are one
    number) and the distinct hand keys (ranked without a suit tie-break: their places)."""
    assert not ranking.uses_suits  # (the ranks of a suit ranking: _computed)
    rank_keys = sorted({h for h, _ in rid_keys})
    place = {k: i for i, k in enumerate(rank_keys)}
    class_index: dict[tuple[int, int, int], int] = {}
    for _, c in rid_keys:
        class_index.setdefault(c, len(class_index))
    return [place[h] for h, _ in rid_keys], [class_index[c] for _, c in rid_keys], tuple(class_index), \
        tuple(rank_keys)


def _from_core(ranking: Ranking, state_bytes: bytes, hand_bytes: bytes) -> _Made | None:
    """The default ranking's tables from the compiled core's (``_core.default_lookups``:
    ``SG_STATE``, each pair's state x 52 in the core's numbering, and ``SG_HAND``, by state x
    52 + the third card, ``class | pair plus << 5``), in plain Python: the keys of one hand
    of each class number (the default ranking's keys of a hand follow from its class
    number), and the states renumbered as ``_state_lookups`` numbers them. None where the
    core's tables are not laid out as this reads them (then they are computed)."""
    core_state = array.array("H")
    core_state.frombytes(state_bytes)
    class_bytes = hand_bytes.translate(bytes([h & 31 for h in range(256)]))  # each one's class number
    numbers = sorted(set(class_bytes))
    if numbers != list(range(len(numbers))) or len(core_state) != 2704 or len(hand_bytes) % 52:
        return None
    pair_of = {s: p for p, s in enumerate(core_state)}  # a pair of cards in each of the core's states
    keys = []
    for number in numbers:
        at = class_bytes.index(number)  # (where the class number is first met)
        cards = (*divmod(pair_of[at - at % 52], 52), at % 52)
        keys.append((hand_key(ranking, *cards), class_key(ranking, *cards)))
    rid_keys = sorted(set(keys))
    rid_of = [rid_keys.index(k) for k in keys]  # by the core's class number
    rank_of, cls_of, class_keys, rank_keys = _keys_of_rids(ranking, rid_keys)
    of_byte = [rid_of[h & 31] << 3 | h >> 5 if h & 31 < len(rid_of) else 0 for h in range(256)]
    packed = _words(hand_bytes.translate(bytes(v & 255 for v in of_byte)),  # by the core's state x 52 + the
                    hand_bytes.translate(bytes(v >> 8 for v in of_byte)))  # third card (a lookup at C speed)
    # the states as _state_lookups numbers them: by their key, ascending; each one's row that
    # of a state of the core's, which every pair of it must share
    key_of = _state_keys(ranking)
    distinct = sorted(set(key_of))
    number_of = {k: i for i, k in enumerate(distinct)}
    numbers = list(map(number_of.__getitem__, key_of))  # of each pair
    row_of = dict(zip(numbers, core_state, strict=True))  # (the last pair's core state of each number)
    if len(set(zip(numbers, core_state, strict=True))) != len(row_of):  # a number of two core states
        return None
    value = array.array("H")
    for n in range(len(distinct)):
        value.extend(packed[row_of[n]:row_of[n] + 52])
    state = array.array("H", [52 * n for n in numbers])
    buffers = LookupBuffers.frozen(state, _relay(state), value, array.array("H", rank_of), array.array("B", cls_of))
    return (len(rid_keys), len(class_keys), len(rank_keys), class_keys, rank_keys, tuple(range(len(rank_keys))),
            *_class_ranks(ranking, len(class_keys), cls_of, rank_of), buffers)


def _state_keys(ranking: Ranking) -> list[int]:
    """What of two cards a state keeps, of each pair ``52 * a + b``: everything the third
    card can change the value with (their ranks, a common suit, and where suits break
    ties the highest card's suit)."""
    cards = [divmod(c, 4) for c in range(52)]  # (rank, suit) of each card
    suits = ranking.uses_suits
    return [((min(ra, rb) * 13 + max(ra, rb)) * 5 + (sa if sa == sb else 4)) * 4
            + (max(4 * ra + SUIT_STRENGTH[sa], 4 * rb + SUIT_STRENGTH[sb]) % 4 if suits else 0)
            for ra, sa in cards for rb, sb in cards]


def _class_ranks(ranking: Ranking, n_classes: int, cls_of: Sequence[int], rank_of: Sequence[int]) \
        -> tuple[bool, list[int]]:
    """``ordered_by_class`` (no high card, and each class one rank) and each class's
    (least) rank, of each rid's class and rank."""
    ranks_of_class: list[set[int]] = [set() for _ in range(n_classes)]
    for c, r in zip(cls_of, rank_of, strict=True):
        ranks_of_class[c].add(r)
    return ranking.high_card == "none" and all(len(r) == 1 for r in ranks_of_class), [min(r) for r in ranks_of_class]


def _relay(state: array.array[int]) -> array.array[int]:
    """``state`` indexed by the 16-bit word two uint8 codes make in memory."""
    out = array.array("H", bytes(2 * 52 * 256))  # the largest word, 51 | 51 << 8, is below it
    little = sys.byteorder == "little"
    for x in range(52):  # the bytes (a, b) read as one word: a | b << 8 (little-endian), else a << 8 | b
        out[256 * x:256 * x + 52] = state[x::52] if little else state[52 * x:52 * x + 52]  # (b = x, or a = x)
    return out


def _computed(ranking: Ranking) -> _Made:
    """A ranking's tables computed from every triple's keys, with NumPy."""
    import numpy as np

    keys, classes = triple_keys(ranking)
    pair_key = keys * 4096 + classes  # class keys < 4096
    rid_keys, rid_of = np.unique(pair_key, return_inverse=True)
    pp = _pair_plus_of_triples()
    rank_keys, rank_of_rid = np.unique(rid_keys // 4096, return_inverse=True)
    # classes numbered in the order of their first rid, so that under a ranking whose
    # classes are its ranks (the default) class, rid and rank are one number
    class_of_rid_key = rid_keys % 4096
    class_keys_found, first = np.unique(class_of_rid_key, return_index=True)  # (an index: no numpy.ma)
    order = np.argsort(first, kind="stable")
    class_key_sorted = class_keys_found[order]
    class_index = {int(k): i for i, k in enumerate(class_key_sorted.tolist())}
    cls_of_rid = np.array([class_index[int(k)] for k in class_of_rid_key.tolist()], dtype=np.uint8)
    n_rids, n_classes = len(rid_keys), len(class_key_sorted)
    # the rank of each distinct key: its place among them, or where suits break ties
    # 256 x the place of its tier and points among theirs + its highest card's strength
    # (0..51), which the vector kernel writes without a table (_simd.h)
    if ranking.uses_suits:
        _, part = np.unique(rank_keys // 64, return_inverse=True)
        rank_values = part.reshape(-1) * 256 + rank_keys % 64
    else:
        rank_values = np.arange(len(rank_keys))
    rank = rank_values[rank_of_rid].astype(np.uint16)
    packed = (rid_of.astype(np.int64) << 3) | pp
    state, value = _state_lookups(ranking, packed)

    def buffer(code: str, values: Any) -> array.array[int]:
        out = array.array(code)
        out.frombytes(values.tobytes())
        return out

    state_buffer = buffer("H", state)
    buffers = LookupBuffers.frozen(state_buffer, _relay(state_buffer), buffer("H", value), buffer("H", rank),
                                   buffer("B", cls_of_rid))
    return (n_rids, n_classes, int(rank_values[-1]) + 1,
            tuple(unpack_class_key(int(k)) for k in class_key_sorted.tolist()),
            tuple(unpack_hand_key(int(k)) for k in rank_keys.tolist()), tuple(rank_values.tolist()),
            *_class_ranks(ranking, n_classes, cls_of_rid.tolist(), rank.tolist()), buffers)


@functools.cache
def _pair_plus_of_triples() -> npt.NDArray[np.int64]:
    """Pair Plus category of every ordered triple, from the specification (once a process)."""
    return triple_pair_plus()


def _state_lookups(ranking: Ranking, packed: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.uint16], npt.NDArray[np.uint16]]:
    """Two-step lookup tables: the first two cards give a state that keeps everything the
    third card can change the value with (their ranks, a common suit, and where suits
    break ties the highest card's suit), then state and third card give the value.
    Checked against every ordered triple before it is returned."""
    import numpy as np

    codes = np.arange(52)
    key = np.array(_state_keys(ranking), dtype=np.int64)
    _, first, state = np.unique(key, return_index=True, return_inverse=True)
    value = packed.reshape(2704, 52)[first].reshape(-1)
    state_of = (state * 52).astype(np.int64)
    rebuilt = value[(state_of[:, None] + codes[None, :]).reshape(-1)]
    if not np.array_equal(rebuilt, packed):
        raise AssertionError(f"the state table of {ranking!r} loses information")
    if value.max() >= 1 << 16 or state_of.max() + 52 > len(value) or len(value) >= 1 << 16:
        raise AssertionError(f"the tables of {ranking!r} do not fit 16 bits")
    return state_of.astype(np.uint16), value.astype(np.uint16)


@functools.lru_cache(maxsize=64)
def tables_for(ranking: Ranking) -> RankingTables:
    """The (cached) tables of a ranking: built once per ranking and process."""
    if not isinstance(ranking, Ranking):
        raise TypeError(f"expected a Ranking, not {type(ranking).__name__}")
    return RankingTables(ranking)
