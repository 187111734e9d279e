"""The pure-Python twin of the compiled core's kernels: the same names, signatures and
results, written plainly on the game's specification (``sanggong._spec``).

``sanggong._impl`` picks this module where the compiled core is not there or is switched
off (``SANGGONG_NO_EXTENSIONS=1``), and the test suite runs every public function against
both. Every kernel of the core has its twin here, and ``sanggong._impl.Kernels`` says
what a kernel is: mypy checks this module against it (and the core's stubs, ``_core.pyi``,
once they declare every kernel). Kernels that are plain functions of the game (``pair_plus3``, ``suit_split``,
``bounded``, ``draw``) are the specification's own; the round loops deal through the one
Python definition of the dealing procedure, ``_spec.Shoe``, and so deal the core's cards
bit for bit from the same bit generator.

Everything is computed from the rules themselves, never from the core's lookup tables: a
hand is ranked by ``_spec.hand_key``, a bet settled by ``_spec.bet_outcome``, a shoe's
exact sums taken card by card in Python integers.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import itertools
import math
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from . import _logline as slots
from ._spec import (
    N_CARDS,
    N_PAIR_PLUS,
    N_RANKS,
    N_SUITS,
    NO_CARD,
    ON_HAND,
    Shoe,
    assign,
    bet_outcome,
    bounded,
    card_rank,
    class_key,
    draw,
    hand_key,
    kind_of,
    most_burned,
    next_uint64,
    pair_plus3,
    suit_split,
    table_fits,
)
from ._table import ROUNDINGS, TableParams
from .limits import MAX_BURN, MAX_DECKS, MAX_POSITIONS

if TYPE_CHECKING:
    from ._settlement_plan import SettlementPlan
    from .ranking import RankingTables
    from .shoe import ShoePlan

__all__ = [
    "IMPLEMENTATION", "NO_CARD", "LineTemplate", "ShoeKernel", "Tables", "VectorKernel", "bounded", "check_line",
    "class3",
    "compare_batch", "deal_chunk", "deal_fresh_batch", "draw", "evaluate_batch", "hand_counts", "joint_class_counts",
    "pair_plus3", "pair_plus_batch", "play_chunk", "rank3", "rank_batch", "render_rounds", "settle_batch",
    "shuffle_cards", "shuffle_tally", "shuffle_tally_cards", "simulate_chunk", "suit_split", "tally_stakes",
    "write_line",
]

IMPLEMENTATION = "python"

ClassKey = tuple[int, int, int]


# --- hands ------------------------------------------------------------------------------


class Tables:
    """A ranking's hand ranks and classes, computed plainly: the twin of the compiled
    core's ``Tables``. ``source`` is a ``sanggong.ranking.RankingTables``, whose
    ``rank_keys`` and ``rank_values`` number the ranks and sorted ``class_keys`` the
    classes; every hand is ranked here by ``hand_key`` and ``class_key`` themselves, not by
    its lookup tables."""

    def __init__(self, source: RankingTables) -> None:
        self.source = source
        self.ranking = source.ranking
        self.rank_of_key: dict[ClassKey, int] = dict(zip(source.rank_keys, source.rank_values, strict=True))
        self.class_of_key = {key: i for i, key in enumerate(source.class_keys)}
        self.class_keys: tuple[ClassKey, ...] = tuple(source.class_keys)
        self.n_ranks, self.n_classes = int(source.n_ranks), len(source.class_keys)
        self.ordered_by_class = bool(source.ordered_by_class)
        self.wide = self.n_ranks > 256

    def rank(self, c0: int, c1: int, c2: int) -> int:
        return self.rank_of_key[hand_key(self.ranking, c0, c1, c2)]

    def cls(self, c0: int, c1: int, c2: int) -> int:
        return self.class_of_key[class_key(self.ranking, c0, c1, c2)]

    def __reduce__(self) -> tuple[Any, ...]:
        return (Tables, (self.source,))


def rank3(tables: Tables, c0: int, c1: int, c2: int) -> int:
    """Rank (higher wins, equal ties) of the hand of these three card codes."""
    return tables.rank(c0, c1, c2)


def class3(tables: Tables, c0: int, c1: int, c2: int) -> int:
    """Class number of the hand of these three card codes."""
    return tables.cls(c0, c1, c2)


# --- batch kernels -----------------------------------------------------------------
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


def rank_batch(tables: Tables, hands: Hands, out: npt.NDArray[np.integer[Any]]) -> int:
    """Write the rank of each row of ``hands`` into ``out``."""
    rows = _rows(hands)
    bad = _first_bad_row(rows)
    for i, (c0, c1, c2) in enumerate(rows[: bad if bad >= 0 else len(rows)]):
        out[i] = tables.rank(c0, c1, c2)
    return bad


def pair_plus_batch(tables: Tables, hands: Hands, out: npt.NDArray[np.uint8]) -> int:
    """Write the Pair Plus category of each row of ``hands`` into ``out``."""
    rows = _rows(hands)
    bad = _first_bad_row(rows)
    for i, (c0, c1, c2) in enumerate(rows[: bad if bad >= 0 else len(rows)]):
        out[i] = pair_plus3(c0, c1, c2)
    return bad


def evaluate_batch(tables: Tables, hands: Hands, ranks: npt.NDArray[np.integer[Any]],
                   pair_plus: npt.NDArray[np.uint8]) -> int:
    """Write both the rank and the Pair Plus category of each row."""
    rows = _rows(hands)
    bad = _first_bad_row(rows)
    for i, (c0, c1, c2) in enumerate(rows[: bad if bad >= 0 else len(rows)]):
        ranks[i] = tables.rank(c0, c1, c2)
        pair_plus[i] = pair_plus3(c0, c1, c2)
    return bad


def compare_batch(tables: Tables, a: Hands, b: Hands, out: npt.NDArray[np.int8]) -> int:
    """Write 1, 0 or -1 as row i of ``a`` beats, ties or loses to row i of ``b``."""
    rows_a, rows_b = _rows(a), _rows(b)
    bad_a, bad_b = _first_bad_row(rows_a), _first_bad_row(rows_b)
    bad = min((i for i in (bad_a, bad_b) if i >= 0), default=-1)
    stop = bad if bad >= 0 else len(rows_a)
    for i in range(stop):
        ra = tables.rank(*rows_a[i])
        rb = tables.rank(*rows_b[i])
        out[i] = (ra > rb) - (ra < rb)
    return bad


# --- settlement ----------------------------------------------------------------------


def _order(ranks: Sequence[int], h: int) -> int:
    """1, 0 or -1 as hand h beats, ties or loses to the banker's (hand 0)."""
    return (ranks[h] > ranks[0]) - (ranks[h] < ranks[0])


def _outcome(plan: SettlementPlan, j: int, keys: Sequence[ClassKey], classes: Sequence[int], ranks: Sequence[int],
             pps: Sequence[int]) -> int:
    """The outcome code of bet j of ``plan`` in a round of these hands (0 the banker's)."""
    spec = plan.specs[j]
    h = spec.position if spec.kind in ON_HAND else 0
    return bet_outcome(plan.rules, spec.kind, spec.number, keys[classes[h]], pps[h], keys[classes[0]],
                       _order(ranks, h))


def settle_batch(plan: SettlementPlan, classes: npt.NDArray[np.uint8], ranks: npt.NDArray[np.uint16],
                 pps: npt.NDArray[np.uint8], out: npt.NDArray[np.uint8]) -> int:
    """Outcome of every bet of ``plan`` in every round: ``classes``, ``ranks`` and ``pps``
    are (n, hands) arrays (column 0 the banker, column i position i), ``out`` is
    (n, bets). Returns the first round holding a class of ``plan.n_classes`` or more or a
    category above 5, or -1."""
    keys = plan.class_keys
    rows_c, rows_r, rows_p = classes.tolist(), ranks.tolist(), pps.tolist()
    for i, (hand_classes, hand_ranks, hand_pps) in enumerate(zip(rows_c, rows_r, rows_p, strict=True)):
        if any(not 0 <= c < plan.n_classes for c in hand_classes) or any(not 0 <= p < N_PAIR_PLUS for p in hand_pps):
            return i
        for j in range(len(plan.specs)):
            out[i, j] = _outcome(plan, j, keys, hand_classes, hand_ranks, hand_pps)
    return -1


# --- dealing -------------------------------------------------------------------------------


def deal_fresh_batch(bit_generator: Any, decks: int, out: npt.NDArray[np.uint8]) -> None:
    """For each row of ``out``: a fresh shoe in code order, then the first cards of a
    lazy Fisher-Yates shuffle."""
    if not 1 <= decks <= MAX_DECKS:
        raise ValueError(f"decks must be in 1..{MAX_DECKS}, got {decks}")
    n = N_CARDS * decks
    rows, k = out.shape
    if k > n:
        raise ValueError(f"cannot draw {k} cards from {decks} deck(s)")
    for r in range(rows):
        deck = [i % N_CARDS for i in range(n)]
        cards = [0] * k
        draw(bit_generator, deck, 0, k, cards)
        out[r, :] = cards


def _table(params: npt.NDArray[np.int64], *, later_apart: bool) -> TableParams:
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


def deal_chunk(
    bit_generator: Any, params: npt.NDArray[np.int64], hands: npt.NDArray[np.uint8], burned: npt.NDArray[np.uint8],
    burn_counts: npt.NDArray[np.uint8], head_cards: npt.NDArray[np.uint8] | None, shoe: npt.NDArray[np.int64],
    round_in_shoe: npt.NDArray[np.uint16], last: npt.NDArray[np.uint8], cut_card: npt.NDArray[np.uint16],
) -> int:
    """Deal ``len(hands)`` rounds from a fresh shoe (the table of ``params``, laid out as
    ``TableParams``) as ``sanggong.dealing.Game`` deals them, and write for round i:
    its hands (``hands[i, 0]`` the banker's, ``hands[i, p]`` position p's), its burned
    cards (``burned[i, :burn_counts[i]]``, a burned head card last; the rest of the row
    ``NO_CARD``), its head card (``head_cards[i]``, ``NO_CARD`` where there is none;
    ``head_cards`` may be None), its shoe (from 1), round in shoe (from 1), whether it was
    the shoe's last (1 or 0) and the cut card's place from the end (0 for a fresh deck).
    Returns the shoes begun."""
    table = _table(params, later_apart=False)
    head_burned = 1 if table.head_card and table.head_card_burned else 0
    rounds = hands.shape[0]
    most = most_burned(table)
    if hands.shape[1:] != (table.positions + 1, 3):
        raise ValueError(f"hands must have shape (rounds, {table.positions + 1}, 3), got {hands.shape}")
    width = burned.shape[1]
    if width < most:
        raise ValueError(f"burned must hold {most} cards a round, it holds {width}")
    for name, array in (("burned", burned), ("burn_counts", burn_counts), ("shoe", shoe),
                        ("round_in_shoe", round_in_shoe), ("last", last), ("cut_card", cut_card)):
        if len(array) != rounds:
            raise ValueError(f"{name} must hold {rounds} rounds, it holds {len(array)}")
    if head_cards is not None and len(head_cards) != rounds:
        raise ValueError(f"head_cards must hold {rounds} rounds, it holds {len(head_cards)}")
    dealer = Shoe(table, bit_generator)
    for i in range(rounds):
        cards, burn = dealer.deal()
        head, by_hand = assign(table, cards[burn:])
        gone = list(cards[:burn]) + ([head] if head is not None and head_burned else [])
        for h, hand in by_hand.items():
            hands[i, h] = list(hand)
        burned[i] = gone + [NO_CARD] * (width - len(gone))
        burn_counts[i] = len(gone)
        if head_cards is not None:
            head_cards[i] = NO_CARD if head is None else head
        shoe[i] = dealer.number
        round_in_shoe[i] = dealer.rounds
        last[i] = dealer.last
        cut_card[i] = dealer.cut_card
    return dealer.number


# --- shuffle tests (csrc/shuffletest.pxi) ------------------------------------------------


def _dealt_shoes(bit_generator: Any, params: npt.NDArray[np.int64], shoes: int) -> Iterable[tuple[bytearray, int]]:
    """``shoes`` whole shoes dealt by ``_spec.Shoe`` from a fresh shoe, each to the round
    that takes its cut card: its cards in the order they came out, its cut card's place."""
    table = _table(params, later_apart=True)
    dealer = Shoe(table, bit_generator)
    for _ in range(shoes):
        cards = bytearray()
        while True:
            dealt, _burn = dealer.deal()
            cards += dealt
            if dealer.last:
                break
        yield cards, dealer.cut_card


def shuffle_cards(bit_generator: Any, params: npt.NDArray[np.int64], cards: npt.NDArray[np.uint8],
                  cut_places: npt.NDArray[np.uint16]) -> int:
    """Each shoe's first ``cards.shape[1]`` cards and its cut card's place (the core's notes);
    returns the words drawn, counted by drawing them again from a copy of the generator
    until it is where the shoes left it."""
    shoes, width = cards.shape
    if len(cut_places) != shoes:
        raise ValueError(f"cut_places must hold {shoes} shoes, it holds {len(cut_places)}")
    replay = copy.deepcopy(bit_generator)
    for i, (dealt, place) in enumerate(_dealt_shoes(bit_generator, params, shoes)):
        if len(dealt) < width:
            raise ValueError(f"a shoe dealt {len(dealt)} cards, fewer than the {width} asked for")
        cards[i] = list(dealt[:width])
        cut_places[i] = place
    words, after = 0, bit_generator.state
    while not _same_state(replay.state, after):
        next_uint64(replay)
        words += 1
    return words


def _same_state(a: Any, b: Any) -> bool:
    """Two bit generators' states equal (an MT19937's holds an array)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same_state(a[k], b[k]) for k in a)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return bool(np.array_equal(a, b))
    return bool(a == b)


def _check_tallies(bounds: npt.NDArray[np.int64], counts: npt.NDArray[np.int64], sums: npt.NDArray[np.int64],
                   squares: npt.NDArray[np.float64], width: int) -> None:
    rounds = len(bounds) - 1
    if rounds < 1 or bounds[0] != 0:
        raise ValueError("bounds must start at 0 and hold at least one round")
    if any(bounds[r + 1] < bounds[r] for r in range(rounds)):
        raise ValueError("bounds must not decrease")
    if bounds[rounds] > width:
        raise ValueError(f"bounds end at card {bounds[rounds]}, past the {width} there are")
    if counts.shape != (bounds[rounds], 52):
        raise ValueError(f"counts must have shape ({bounds[rounds]}, 52)")
    if len(sums) != 4 or len(squares) != 4:
        raise ValueError("sums and squares must hold 4 values")


def _tally_shoe(c: Sequence[int], prev: Sequence[int] | None, bounds: list[int], counts: npt.NDArray[np.int64],
                sums: npt.NDArray[np.int64], squares: npt.NDArray[np.float64]) -> None:
    """One shoe's tallies, from their definitions (csrc/shuffletest.pxi's notes)."""
    k = bounds[-1]
    y = [2 * int(card) - 51 for card in c[:k]]
    for p in range(k):
        counts[p, c[p]] += 1
    t = [0, 0, 0, 0]
    t[0] = sum((c[p] < 26) != (c[p - 1] < 26) for p in range(1, k))
    rounds = [y[a:b] for a, b in itertools.pairwise(bounds)]
    t[1] = sum(y[i] * y[j] for a, b in itertools.pairwise(bounds) for i in range(a, b) for j in range(i + 1, b))
    t[2] = sum(u * v for r, s in itertools.pairwise(rounds) for u, v in zip(r, s, strict=False))
    if prev is not None:
        t[3] = sum(u * (2 * int(v) - 51) for u, v in zip(y, prev[:k], strict=True))
    for i, value in enumerate(t):
        sums[i] += value
        squares[i] += float(value * value)


def shuffle_tally(bit_generator: Any, params: npt.NDArray[np.int64], shoes: int, bounds: npt.NDArray[np.int64],
                  counts: npt.NDArray[np.int64], cut_counts: npt.NDArray[np.int64], sums: npt.NDArray[np.int64],
                  squares: npt.NDArray[np.float64]) -> None:
    """Deal ``shoes`` shoes and add their tallies (the core's notes)."""
    table = _table(params, later_apart=True)
    if shoes < 0:
        raise ValueError(f"shoes must be 0 or more, got {shoes}")
    _check_tallies(bounds, counts, sums, squares, N_CARDS * table.decks)
    if not table.fresh_deck and len(cut_counts) != table.cut_high - table.cut_low + 1:
        raise ValueError(f"cut_counts must hold {table.cut_high - table.cut_low + 1} places")
    edges = [int(b) for b in bounds]
    before: bytearray | None = None
    for dealt, place in _dealt_shoes(bit_generator, params, shoes):
        if len(dealt) < edges[-1]:
            raise ValueError(f"a shoe dealt {len(dealt)} cards, fewer than the {edges[-1]} tallied")
        _tally_shoe(dealt, before, edges, counts, sums, squares)
        if not table.fresh_deck:
            cut_counts[place - table.cut_low] += 1
        before = dealt


def shuffle_tally_cards(cards: npt.NDArray[np.uint8], bounds: npt.NDArray[np.int64], counts: npt.NDArray[np.int64],
                        sums: npt.NDArray[np.int64], squares: npt.NDArray[np.float64]) -> int:
    """Add recorded shoes' tallies; -1, or the first row holding a code that is no card."""
    _check_tallies(bounds, counts, sums, squares, cards.shape[1])
    edges = [int(b) for b in bounds]
    rows = cards[:, :edges[-1]].tolist()
    for i, row in enumerate(rows):
        if any(card >= 52 for card in row):
            return i
        _tally_shoe(row, rows[i - 1] if i else None, edges, counts, sums, squares)
    return -1


# --- exact counting ---------------------------------------------------------------------
# The counting kinds and their multisets are the specification's (``_spec.counting``).


def _comb(n: int, k: int) -> int:
    if n < k:
        return 0
    if k == 1:
        return n
    if k == 2:
        return n * (n - 1) // 2
    if k == 3:
        return n * (n - 1) * (n - 2) // 6
    return 1


def _ways(left: npt.NDArray[Any], kinds: npt.NDArray[np.intp], mult: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """The ways to draw each multiset from a shoe holding ``left[k]`` of kind k:
    prod C(left[kind], multiplicity), for every multiset at once."""
    w = np.ones(len(kinds), dtype=left.dtype)
    for t in range(3):
        n, k = left[kinds[:, t]], mult[:, t]
        choose = np.where(k == 0, 1, np.where(k == 1, n, np.where(k == 2, n * (n - 1) // 2, n * (n - 1) * (n - 2) // 6)))
        w = w * np.where(n >= k, choose, 0)
    return w


def joint_class_counts(
    counts: npt.NDArray[np.int64], multisets: npt.NDArray[np.uint8], classes: npt.NDArray[np.uint8],
    ranks: npt.NDArray[np.uint16], n_classes: int, out: npt.NDArray[np.uint64] | npt.NDArray[np.object_],
    suits: npt.NDArray[np.int64] | None = None,
) -> None:
    """``out[(p * n_classes + b) * 3 + order + 1]`` += ordered (position hand, banker hand)
    pairs of disjoint hands with classes p and b, the position's hand beating (order 1),
    tying (0) or losing to (-1) the banker's, from a shoe holding ``counts[k]`` cards of
    kind k. ``multisets`` is (n, 3, 2) (kind, multiplicity; multiplicity 0 pads), each
    with its hand's class and rank. For each first hand, the ways to draw every second
    hand from what it leaves, all at once (in Python integers where ``out`` holds them).

    ``suits``, for a ranking that breaks ties by suit, holds the cards of each kind (the 13
    ranks) by suit, weakest suit first, as a (kinds, 4) array; ``ranks`` are then the
    hands' ranks with the strongest card's suit left out. Two hands of equal rank share
    their highest kind t, a cards of it in the first and b in the second: their pairs are
    counted without kind t, times ``suit_split(suits[t], a, b)``, which orders them."""
    exact = out.dtype == object
    left = np.array([int(x) for x in counts], dtype=object if exact else np.int64)
    ms = np.asarray(multisets)
    kinds, mult = ms[:, :, 0].astype(np.intp), ms[:, :, 1].astype(np.int64)
    if exact:
        mult = mult.astype(object)
    cls = np.asarray(classes, dtype=np.int64)
    rk = np.asarray(ranks, dtype=np.int64)
    first = _ways(left, kinds, mult)
    plain = [{int(k): int(m) for k, m in row if m} for row in ms.tolist()]  # each multiset as {kind: count}
    for i in np.flatnonzero(first):
        rest = left.copy()
        for t in range(3):
            rest[kinds[i, t]] -= mult[i, t]
        w = first[i] * _ways(rest, kinds, mult)
        keep = w != 0
        if suits is not None:
            tied = keep & (rk == rk[i])
            keep &= ~tied
            for j in np.flatnonzero(tied):
                _count_suit_ties(out, plain[i], plain[j], left, suits, (cls[i] * n_classes + cls[j]) * 3)
        index = (cls[i] * n_classes + cls[keep]) * 3 + 1 + np.sign(rk[i] - rk[keep])
        np.add.at(out, index, w[keep].astype(out.dtype))


def _count_suit_ties(out: npt.NDArray[Any], first: dict[int, int], second: dict[int, int], left: npt.NDArray[Any],
                     suits: npt.NDArray[np.int64], base: int) -> None:
    """Two hands of equal rank but for the suits: their highest kind's draws split by how
    the hands' strongest suits compare (``suit_split``), the other kinds counted plainly."""
    top = max(first)  # the highest kind: of both hands
    ways = 1
    for k, m in first.items():
        if k != top:
            ways *= math.comb(int(left[k]), m)
    for k, m in second.items():
        if k != top:
            ways *= math.comb(int(left[k]) - first.get(k, 0), m)
    for order, split in enumerate(suit_split([int(x) for x in suits[top]], first[top], second[top])):
        out[base + order] += ways * split


def hand_counts(counts: npt.NDArray[np.int64], multisets: npt.NDArray[np.uint8], values: npt.NDArray[np.uint8],
                out: npt.NDArray[np.uint64]) -> None:
    """``out[values[i]]`` += the ways to draw multiset i (of card kinds or class ranks)
    from a shoe holding ``counts[k]`` of kind k."""
    c = [int(x) for x in counts]
    for ms, value in zip(multisets.tolist(), values.tolist(), strict=True):
        w = 1
        for k, m in ms:
            if m:
                w *= _comb(c[k], m)
        out[value] += w


# --- the round loops -----------------------------------------------------------------------


class _Round:
    """One round's hands, dealt by ``_spec.Shoe`` and assigned by ``_spec.assign``: each
    hand's rank, class and Pair Plus category (0 the banker's)."""

    def __init__(self, tables: Tables, table: TableParams, cards: bytearray, burn: int) -> None:
        _, dealt = assign(table, cards[burn:])
        hands = range(table.positions + 1)
        self.ranks = [tables.rank(*dealt[h]) for h in hands]
        self.classes = [tables.cls(*dealt[h]) for h in hands]
        self.pps = [pair_plus3(*dealt[h]) for h in hands]


def simulate_chunk(
    bit_generator: Any, tables: Tables, params: npt.NDArray[np.int64], rounds: int, pairs: npt.NDArray[np.uint64],
    single: npt.NDArray[np.uint64], plan: SettlementPlan | None, money: npt.NDArray[np.int64] | None,
    net: npt.NDArray[np.int64] | None, stop: npt.NDArray[np.uint8],
) -> int:
    """Deal and evaluate ``rounds`` rounds from a fresh shoe and count what settles
    every bet, exactly as the compiled core's ``simulate_chunk`` (and
    ``sanggong.dealing.Game``) do."""
    table = _table(params, later_apart=True)
    dealer = Shoe(table, bit_generator)
    n_classes, width = tables.n_classes, 1 if tables.ordered_by_class else 3
    for done in range(rounds):
        if done % 4096 == 0 and stop[0]:
            return done
        hand = _Round(tables, table, *dealer.deal())
        for h in range(table.positions + 1):
            single[h, 6 * hand.classes[h] + hand.pps[h]] += 1
            if h:
                order = _order(hand.ranks, h)
                pairs[h, (hand.classes[h] * n_classes + hand.classes[0]) * width + (order + 1 if width == 3 else 0)] += 1
        if plan is not None and money is not None and net is not None:
            codes = (_outcome(plan, j, tables.class_keys, hand.classes, hand.ranks, hand.pps)
                     for j in range(len(plan.specs)))
            net[done] = sum(int(money[j, code]) for j, code in enumerate(codes))
    return rounds


# --- the shoe evaluator -----------------------------------------------------------------------
# The twin of _core.ShoeKernel (sanggong.shoe explains the method): each row's sum over
# multisets of (ways to draw the multiset) x (its scaled net value), in Python integers.
# A multiset is a row of indices into a table: C(c_k, j) at 8 k + j for the c_k unseen
# cards of kind k, 1 at 8 K (K kinds: the padding), and past it where suits break ties
# E_t(a, b), the third of ``suit_split`` (the first hand's strongest suit above), at 8 K +
# 1 + 16 t + 4 a + b; in Pair Plus's table (the 52 cards as kinds) the 13 ranks'
# binomials, at ``RANKS_AT`` + 8 r + j. Its ways are the product of its entries.

BINOM_STRIDE = 8
RANKS_AT = N_CARDS * BINOM_STRIDE + 1
class ShoeKernel:
    """The exact sums behind every bet's EV for an unseen composition, card by card.
    Thread-safety: not to be shared without a lock (as the compiled one)."""

    def __init__(self, plan: ShoePlan, counts: Iterable[int]) -> None:
        self.plan = plan
        kinds_of = plan.kinds
        if isinstance(kinds_of, bool) or not isinstance(kinds_of, int) or not 1 <= kinds_of <= N_CARDS:
            raise ValueError(f"a shoe plan counts over 1..52 kinds, not {kinds_of!r}")
        fold = np.asarray(plan.fold)
        if fold.shape != (N_CARDS,) or fold.dtype.kind not in "iu" or not all(0 <= int(k) < kinds_of for k in fold):
            raise ValueError("the shoe plan's fold must give each of the 52 cards a kind of its own kinds")
        self._fold = [int(k) for k in fold]
        suit_order = np.asarray(plan.suit_order)
        self._suit_order = [int(s) for s in suit_order.tolist()] if suit_order.dtype.kind in "iu" else []
        if len(suit_order) and (sorted(self._suit_order) != list(range(N_SUITS)) or kinds_of != N_RANKS
                                or self._fold != [kind_of(c, N_RANKS) for c in range(N_CARDS)]):
            raise ValueError("a suit tie-break needs the 13 ranks as kinds and its suit order, each suit once")
        self._parts: list[tuple[str, int, list[list[int]], list[list[int]], int]] = []
        for name, kinds, width in (("pairs", kinds_of, 6), ("single", kinds_of, 3), ("cards", N_CARDS, 3)):
            idx, values = np.asarray(getattr(plan, name + "_idx")), np.asarray(getattr(plan, name + "_values"))
            if idx.ndim != 2 or values.ndim != 2 or values.shape[0] != len(idx) or (len(idx) and idx.shape[1] != width):
                raise ValueError(f"the shoe plan's {name} arrays have the wrong shapes")
            if idx.dtype.kind not in "iu" or not all(isinstance(v, int) and not isinstance(v, bool)
                                                    for v in values.ravel().tolist()):
                raise ValueError(f"the shoe plan's {name} arrays must hold integers")
            rows = values.shape[1]
            ties = name == "pairs" and len(self._suit_order) > 0
            entries = [[int(e) for e in row if int(e) != BINOM_STRIDE * kinds] for row in idx.tolist()]
            for row in entries:
                cards, held, by_rank = 0, [], 0
                for e in row:
                    past = e - BINOM_STRIDE * kinds - 1
                    if 0 <= e < BINOM_STRIDE * kinds and 1 <= e % BINOM_STRIDE <= 6:
                        cards += e % BINOM_STRIDE
                        held.append(e // BINOM_STRIDE)
                    elif ties and 0 <= past < 16 * kinds and past % 4 and past // 4 % 4:
                        cards += past % 4 + past // 4 % 4
                        held.append(past // 16)
                    elif name == "cards" and 0 <= past < BINOM_STRIDE * N_RANKS and 1 <= past % BINOM_STRIDE <= 3:
                        cards += past % BINOM_STRIDE
                        held.append(N_CARDS + past // BINOM_STRIDE)
                        by_rank += 1
                    else:
                        raise ValueError(f"the shoe plan's {name} multisets name an entry outside the binomials")
                if cards != width or len(set(held)) != len(held) or by_rank not in (0, len(row)):
                    raise ValueError(f"the shoe plan's {name} multisets name an entry outside the binomials")
            if len({tuple(sorted(row)) for row in entries}) != len(entries):
                raise ValueError(f"a multiset of the shoe plan's {name} is given twice")
            self._parts.append((name, kinds, entries, values.tolist(), rows))
        self.set_counts(counts)

    def set_counts(self, counts: Iterable[int]) -> None:
        values = [int(x) for x in counts]
        if len(values) != N_CARDS or min(values) < 0 or max(values) > 64:
            raise ValueError("a composition is 52 counts of 0..64")
        self._cards = values

    def remove(self, code: int) -> None:
        if not 0 <= code < N_CARDS or self._cards[code] == 0:
            raise ValueError(f"no card of code {code} is left to remove")
        self._cards[code] -= 1

    def add(self, code: int) -> None:
        if not 0 <= code < N_CARDS or self._cards[code] >= 64:
            raise ValueError(f"cannot add a card of code {code}: at most 64 of a card")
        self._cards[code] += 1

    @property
    def n_cards(self) -> int:
        return sum(self._cards)

    @property
    def counts(self) -> list[int]:
        return list(self._cards)

    def _table(self, name: str, by_kind: list[int]) -> list[int]:
        """The entries a part's rows index: binomials of its kinds, the padding 1, then the
        E_t(a, b) (pairs, where suits break ties) or the ranks' binomials (Pair Plus)."""
        held = self._cards if name == "cards" else by_kind
        table = [math.comb(c, j) if j <= c else 0 for c in held for j in range(BINOM_STRIDE)] + [1]
        if name == "pairs" and self._suit_order:
            for t in range(N_RANKS):
                suits = [self._cards[4 * t + s] for s in self._suit_order]
                table += [suit_split(suits, a, b)[2] if a and b else 0 for a in range(4) for b in range(4)]
        if name == "cards":
            ranks = [sum(self._cards[4 * r : 4 * r + 4]) for r in range(N_RANKS)]
            table += [math.comb(c, j) if j <= c else 0 for c in ranks for j in range(BINOM_STRIDE)]
        return table

    def numerators(self, with_pairs: bool = True) -> list[int]:
        by_kind = [0] * self.plan.kinds
        for code, n in enumerate(self._cards):
            by_kind[self._fold[code]] += n
        out: list[int] = []
        for name, _kinds, entries, values, rows in self._parts:
            sums = [0] * rows
            if name != "pairs" or with_pairs:
                table = self._table(name, by_kind)
                for multiset, row in zip(entries, values, strict=True):
                    w = 1
                    for e in multiset:
                        w *= table[e]
                    if w:
                        for r in range(rows):
                            sums[r] += w * row[r]
            out += sums
        return out

    def numerators_batch(self, cards: npt.NDArray[np.uint8], ends: npt.NDArray[np.int64], out: npt.NDArray[np.int64],
                         with_pairs: bool = True) -> int:
        """Round after round: ``out[k]`` = ``numerators(with_pairs)``, then round k's cards
        (``cards[ends[k - 1]:ends[k]]``) removed; stops at a round whose sums do not all
        fit 64 bits (the compiled core's ``numerators_batch``)."""
        rows = sum(part[4] for part in self._parts)
        codes, bounds = [int(c) for c in cards.tolist()], [int(e) for e in ends.tolist()]
        if out.shape != (len(bounds), rows):
            raise ValueError(f"out must be ({len(bounds)}, {rows}): a row of sums for each round")
        left, start = list(self._cards), 0
        for end in bounds:
            if end < start or end > len(codes):
                raise ValueError("ends must rise from 0 to at most the cards given")
            for c in codes[start:end]:
                if c >= N_CARDS or left[c] == 0:
                    raise ValueError(f"no card of code {c} is left to remove")
                left[c] -= 1
            start = end
        start = 0
        for k, end in enumerate(bounds):
            sums = self.numerators(with_pairs)
            if not all(-(2**63) <= v < 2**63 for v in sums):
                return k
            out[k] = sums
            for c in codes[start:end]:
                self._cards[c] -= 1
            start = end
        return len(bounds)

    def numerators_shoes(self, cards: npt.NDArray[np.uint8], ends: npt.NDArray[np.int64],
                         firsts: npt.NDArray[np.int64], out: npt.NDArray[np.int64], with_pairs: bool = True) -> int:
        """``numerators_batch`` shoe after shoe, each from the unseen cards now: shoe j is the
        rounds ``firsts[j]`` up to the next shoe's, its cards the next ``ends[its last round]``
        of ``cards`` and its ``ends`` counted from its first card (the compiled core's
        ``numerators_shoes``)."""
        rows = sum(part[4] for part in self._parts)
        bounds, starts = [int(e) for e in ends.tolist()], [int(f) for f in firsts.tolist()]
        if out.shape != (len(bounds), rows):
            raise ValueError(f"out must be ({len(bounds)}, {rows}): a row of sums for each round")
        if (not starts) != (not bounds) or (starts and starts[0] != 0):
            raise ValueError("firsts must rise from 0, a shoe's first round, below len(ends)")
        shoes, at = [], 0
        for j, a in enumerate(starts):
            b = starts[j + 1] if j + 1 < len(starts) else len(bounds)
            if b <= a or b > len(bounds):
                raise ValueError("firsts must rise from 0, a shoe's first round, below len(ends)")
            left, start = list(self._cards), 0
            for end in bounds[a:b]:
                if end < start or end > len(cards) - at:
                    raise ValueError("a shoe's ends must rise from 0 to at most the cards left")
                for c in cards[at + start:at + end].tolist():
                    if c >= N_CARDS or left[c] == 0:
                        raise ValueError(f"no card of code {c} is left to remove")
                    left[c] -= 1
                start = end
            shoes.append((a, b, at))
            at += start
        fresh = list(self._cards)
        for a, b, at in shoes:
            self._cards = list(fresh)
            part = np.empty((b - a, rows), dtype=np.int64)
            done = self.numerators_batch(cards[at:at + bounds[b - 1]], ends[a:b], part, with_pairs)
            out[a:a + done] = part[:done]
            if done < b - a:
                return a + done
        return len(bounds)




# --- shoe play -------------------------------------------------------------------------------


def _columns_of(plan: SettlementPlan, columns: npt.NDArray[np.uint8]) -> list[dict[int, int]]:
    """Each bet's outcome code -> its column (``columns`` by the plan's row and key)."""
    column_of = []
    for j in range(len(plan.specs)):
        start = int(plan.row[j]) * plan.key_space
        codes = plan.table[start : start + plan.key_space].tolist()
        column_of.append(dict(zip(codes, columns[int(plan.row[j])].tolist(), strict=True)))
    return column_of


def _true_counts(running: list[int], unseen: int, bin_width: float, bin_zero: int,
                 bins: int) -> tuple[list[float], list[int]]:
    """Each tag vector's true count (its running count per 52 unseen cards) and its bin."""
    tcs, tc_bins = [], []
    per_card = 52.0 / unseen
    scale = per_card / bin_width
    for value in running:
        tc = value * per_card
        b = value * scale + bin_zero
        tcs.append(tc)
        tc_bins.append(0 if b < 0 else bins - 1 if b >= bins else min(math.floor(b), bins - 1))
    return tcs, tc_bins


def _round_evs(kernel: ShoeKernel | None, fixed_ev: npt.NDArray[np.float64], row_scale: npt.NDArray[np.float64],
               row_part: npt.NDArray[np.uint8]) -> tuple[list[float], list[bool]]:
    """Each shoe plan row's EV before the round (the kernel's exact sums, or a fresh
    deck's fixed EVs), and whether it is positive."""
    if kernel is None:
        evs = [float(x) for x in fixed_ev]
        return evs, [x > 0 for x in evs]
    sums, n = kernel.numerators(), kernel.n_cards
    totals = (math.comb(n, 3) * math.comb(n - 3, 3), math.comb(n, 3))
    evs = [float(s) * float(row_scale[r]) / float(totals[0 if row_part[r] == 0 else 1]) for r, s in enumerate(sums)]
    return evs, [s > 0 for s in sums]


def play_chunk(
    bit_generator: Any, tables: Tables, params: npt.NDArray[np.int64], shoes: int, plan: SettlementPlan,
    columns: npt.NDArray[np.uint8], kernel: ShoeKernel | None, bet_row: npt.NDArray[np.int32],
    row_scale: npt.NDArray[np.float64], row_part: npt.NDArray[np.uint8], fixed_ev: npt.NDArray[np.float64],
    tags: npt.NDArray[np.int32], bet_tag: npt.NDArray[np.int32], bin_width: float, bin_zero: int, burned_seen: bool,
    count_hist: npt.NDArray[np.uint64], perfect_hist: npt.NDArray[np.uint64], ev_bins: npt.NDArray[np.float64],
    moments: npt.NDArray[np.float64], stop: npt.NDArray[np.uint8],
) -> tuple[int, int]:
    """Deal ``shoes`` shoes as ``simulate_chunk`` does and count every bet's outcomes by
    true count and, where its exact EV is positive, as a perfect-information bet (the
    compiled core's ``play_chunk``; outcomes from ``bet_outcome`` directly, EVs from the
    kernel's exact sums)."""
    table = _table(params, later_apart=True)
    if kernel is not None and len(fixed_ev):
        raise ValueError("give a kernel or fixed EVs, not both")
    bins = count_hist.shape[0]
    perfect = kernel is not None or len(fixed_ev) > 0
    full = kernel.counts if kernel is not None else None
    rounds = shoes_done = 0
    tag_rows = [[int(x) for x in row] for row in tags]
    column_of = _columns_of(plan, columns)
    dealer = Shoe(table, bit_generator)
    while shoes_done < shoes and not stop[0]:
        unseen = N_CARDS * table.decks
        if kernel is not None and full is not None:
            kernel.set_counts(full)
        running = [0] * len(tag_rows)
        while True:
            evs, positive = _round_evs(kernel, fixed_ev, row_scale, row_part) if perfect else ([], [])
            tcs, tc_bins = _true_counts(running, unseen, bin_width, bin_zero, bins)
            cards, burn = dealer.deal()
            hand = _Round(tables, table, cards, burn)
            for j in range(len(plan.specs)):
                col = column_of[j][_outcome(plan, j, tables.class_keys, hand.classes, hand.ranks, hand.pps)]
                t = int(bet_tag[j])
                count_hist[tc_bins[t], j, col] += 1
                if perfect:
                    r = int(bet_row[j])
                    e, x = evs[r], tcs[t]
                    if positive[r]:
                        perfect_hist[j, col] += 1
                        moments[j, 0] += e
                    ev_bins[tc_bins[t], j] += e
                    moments[j, 1:] += (e, e * e, x, x * x, x * e)
            rounds += 1
            seen = cards if burned_seen else cards[burn:]
            for c in seen:
                if kernel is not None:
                    kernel.remove(c)
                for t, row in enumerate(tag_rows):
                    running[t] += row[card_rank(c) - 1]
            unseen -= len(seen)
            if dealer.last:
                break
        shoes_done += 1
    if kernel is not None and full is not None:
        kernel.set_counts(full)
    return rounds, shoes_done


# --- log lines -------------------------------------------------------------------------------
# verify's fast pass (sanggong._fastlog): a shoe's rounds written from a template, and one
# round's line checked against them (the core's csrc/logline.pxi).


class LineTemplate:
    """A round's line and canonical bytes as ``render_rounds`` writes them: two templates
    of ``(literal, slot)`` pairs for a table of ``hands`` hands with ``consts`` constants,
    the winner words of a hand that loses, ties and beats the banker's, the 52 cards'
    texts, and each hand's class, rank and Pair Plus category by its cards. Immutable
    (safe to share between threads)."""

    def __init__(self, ops_line: Sequence[tuple[bytes, int]], ops_canonical: Sequence[tuple[bytes, int]], hands: int,
                 consts: int, words: Sequence[bytes], cards: Sequence[bytes], hand_class: npt.NDArray[np.uint8],
                 hand_rank: npt.NDArray[np.uint16], hand_pp: npt.NDArray[np.uint8]) -> None:
        self.ops_line = tuple((literal, int(slot)) for literal, slot in ops_line)
        self.ops_canonical = tuple((literal, int(slot)) for literal, slot in ops_canonical)
        self.hands, self.consts = hands, consts
        self.words, self.cards = tuple(words), tuple(cards)
        self.hand_class, self.hand_rank, self.hand_pp = hand_class.copy(), hand_rank.copy(), hand_pp.copy()


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


# --- detection ----------------------------------------------------------------------------------


def tally_stakes(ev: npt.NDArray[np.float64], shoe_ends: npt.NDArray[np.int64], rows: npt.NDArray[np.int64],
                 sets: npt.NDArray[np.int64], set_start: npt.NDArray[np.int64], stake_player: npt.NDArray[np.int64],
                 stake_bet: npt.NDArray[np.int64], stake_amount: npt.NDArray[np.float64],
                 stake_first: npt.NDArray[np.uint8], bet_fresh: npt.NDArray[np.float64],
                 bet_column: npt.NDArray[np.int64], sums: npt.NDArray[np.float64],
                 at_stake: npt.NDArray[np.float64]) -> int:
    """A batch's stakes added to every player's sums, the stakes' EVs to ``at_stake``, and
    each player's martingale differences shoe by shoe from its last round back (the
    compiled core's ``tally_stakes``, which documents the arguments)."""
    n, m = ev.shape
    players = sums.shape[0]
    ends, staked, starts = shoe_ends.tolist(), rows.tolist(), set_start.tolist()
    chosen, player, bet = sets.tolist(), stake_player.tolist(), stake_bet.tolist()
    amount, first, fresh, column = stake_amount.tolist(), stake_first.tolist(), bet_fresh.tolist(), bet_column.tolist()
    if sums.shape[1] != 7:
        raise ValueError("sums must be (players, 7)")
    if len(chosen) != len(staked) or not len(player) == len(bet) == len(amount) == len(first) \
            or len(fresh) != len(column) or not starts:
        raise ValueError("the stakes' arrays must be of one length, and the sets' too")
    if any(e <= d for d, e in zip([0, *ends], ends, strict=False)) or any(e > n for e in ends) or \
            (ends[-1] if ends else 0) != n:
        raise ValueError("shoe_ends must rise within the rounds, the last at len(ev)")
    if any(s < r for r, s in zip([0, *starts], starts, strict=False)) or starts[-1] > len(player):
        raise ValueError("set_start must rise within the stakes")
    if any(not 0 <= p < players for p in player) or any(not 0 <= b < len(column) for b in bet):
        raise ValueError("a stake's player or bet is out of range")
    if any(not -1 <= c < m for c in column):
        raise ValueError("bet_column must name columns of ev (or -1)")
    total = 0
    for i, (k, s) in enumerate(zip(staked, chosen, strict=True)):
        if not 0 <= k < n or (i and k <= staked[i - 1]) or not 0 <= s < len(starts) - 1:
            raise ValueError("rows must rise within the rounds, and sets name sets")
        if any(column[bet[t]] < 0 for t in range(starts[s], starts[s + 1])):
            raise ValueError("a stake's bet has no column of ev")
        total += starts[s + 1] - starts[s]
    if len(at_stake) < total:
        raise ValueError(f"at_stake must hold the batch's {total} stakes")
    evs = ev.tolist()
    out = sums.tolist()
    total = 0
    for k, s in zip(staked, chosen, strict=True):
        for t in range(starts[s], starts[s + 1]):
            p, e = player[t], evs[k][column[bet[t]]]
            at_stake[total] = e
            total += 1
            row = out[p]
            row[0] += first[t]
            row[1] += 1
            row[2] += amount[t]
            row[3] += amount[t] * e
            row[4] += amount[t] * fresh[bet[t]]
    hi = len(staked)
    for i in range(len(ends) - 1, -1, -1):
        a, b = ends[i - 1] if i else 0, ends[i]
        lo = hi
        while lo > 0 and staked[lo - 1] >= a:
            lo -= 1
        w: dict[tuple[int, int], float] = {}  # W(p, b), the pairs in the order first staked from the end back
        for k in range(b - 2, a - 1, -1):
            while hi > lo and staked[hi - 1] == k + 1:
                hi -= 1
                for t in range(starts[chosen[hi]], starts[chosen[hi] + 1]):
                    pair = (player[t], column[bet[t]])
                    w[pair] = w.get(pair, 0.0) + amount[t]
            if not w:
                continue
            ys: dict[int, float] = {}
            for (p, c), x in w.items():
                ys[p] = ys.get(p, 0.0) + x * (evs[k + 1][c] - evs[k][c])
            for p, y in ys.items():
                out[p][5] += y
                out[p][6] += y * y
        hi = lo
    sums[:] = out
    return total


# --- a vector of tables ---------------------------------------------------------------------
# The twin of _core.VectorKernel (csrc/vector.pxi; sanggong.vector explains it): each table a
# _spec.Shoe of its own, its rounds assigned by _spec.assign, settled by bet_outcome and paid
# by money.round_to_unit.


class VectorKernel:
    """``len(bit_generators)`` shoes of the table of ``params``, settled by ``plan`` for
    ``players`` players a table; ``num / den`` and ``carry`` (bets, 256) each bet's return
    and carry on each outcome code, ``rounding`` ``vector.ROUNDINGS``'s index."""

    def __init__(self, tables: Tables, params: npt.NDArray[np.int64], plan: SettlementPlan,
                 bit_generators: list[Any], players: int, num: npt.NDArray[np.int64], den: npt.NDArray[np.int64],
                 carry: npt.NDArray[np.uint8], rounding: int, by_rank: bool) -> None:

        self.table = _table(params, later_apart=True)
        self.tables, self.plan = tables, plan
        self.hands = self.table.positions + 1
        self.n_tables, self.players, self.bets = len(bit_generators), players, len(plan.specs)
        self.n_cards = N_CARDS * self.table.decks
        if self.n_tables < 1 or players < 1 or self.bets < 1:
            raise ValueError("a vector needs a table, a player and a bet")
        if num.shape != (self.bets, 256) or den.shape != (self.bets, 256) or carry.shape != (self.bets, 256):
            raise ValueError("num, den and carry must be (bets, 256)")
        if (den < 1).any() or not 0 <= rounding <= 3:
            raise ValueError("den must be positive and rounding 0..3")
        self.num, self.den, self.carry = num, den, carry
        self.rounding, self.by_rank = ROUNDINGS[rounding], by_rank
        self.dealers = [Shoe(self.table, g) for g in bit_generators]
        self.bound: tuple[npt.NDArray[Any], ...] | None = None
        self.threads = 0  # (the twin steps on the caller's thread: no pool)

    def reseed(self, bit_generators: list[Any]) -> None:
        """Fresh shoes at every table, dealt from these bit generators."""
        if len(bit_generators) != self.n_tables:
            raise ValueError(f"{self.n_tables} bit generators are needed, not {len(bit_generators)}")
        self.dealers = [Shoe(self.table, g) for g in bit_generators]

    def bind(self, carried: npt.NDArray[np.int64], reward: npt.NDArray[np.int64], cards: npt.NDArray[np.uint8],
             head: npt.NDArray[np.uint8], outcome: npt.NDArray[np.uint8], unseen: npt.NDArray[np.int16],
             shoe_state: npt.NDArray[np.int64], high: npt.NDArray[np.int64], requires: npt.NDArray[np.int64],
             money: npt.NDArray[np.int64] | None) -> None:
        """The arrays every ``run`` writes (``step``'s after the stakes) and checks by (``legal``'s)."""
        self.bound = (carried, reward, cards, head, outcome, unseen, shoe_state)
        self.checks = (high, requires, money)

    def run(self, stakes: npt.NDArray[np.int64], workers: int) -> bool:
        """One round at every table into the bound arrays if every stake is legal: True; else
        False, nothing dealt (``workers`` does not change it)."""
        if self.bound is None:
            raise ValueError("bind the step's arrays first")
        if workers < 1:
            raise ValueError(f"workers must be at least 1, not {workers}")
        if not self.legal(stakes, self.bound[0], *self.checks):
            return False
        self.step(0, self.n_tables, stakes, *self.bound)
        return True

    def close(self) -> None:
        """Nothing to stop (the compiled kernel's pool of threads)."""

    def legal(self, stakes: npt.NDArray[np.int64], carried: npt.NDArray[np.int64], high: npt.NDArray[np.int64],
              requires: npt.NDArray[np.int64], money: npt.NDArray[np.int64] | None) -> bool:
        """Whether every stake is legal, as the compiled core's ``VectorKernel.legal``: 0
        where nothing is carried, else carried .. ``high[bet]``; a bet with a partner
        (``requires[bet]`` >= 0, ``bets`` for one not staked here) beside a stake of it; a
        player's stakes no more than ``money`` (or None)."""
        if stakes.shape != (self.n_tables, self.players, self.bets) or carried.shape != stakes.shape:
            raise ValueError("the stakes' arrays have the wrong shapes")
        for t in range(self.n_tables):
            for p in range(self.players):
                row = [int(x) for x in stakes[t, p]]
                for j, s in enumerate(row):
                    if s < int(carried[t, p, j]) or s > int(high[j]):
                        return False
                    q = int(requires[j])
                    if q >= 0 and s > 0 and (q >= self.bets or row[q] == 0):
                        return False
                if money is not None and sum(row) > int(money[t, p]):
                    return False
        return True

    def step(self, lo: int, hi: int, stakes: npt.NDArray[np.int64], carried: npt.NDArray[np.int64],
             reward: npt.NDArray[np.int64], cards: npt.NDArray[np.uint8], head: npt.NDArray[np.uint8],
             outcome: npt.NDArray[np.uint8], unseen: npt.NDArray[np.int16], shoe_state: npt.NDArray[np.int64]) -> None:
        """One round at tables lo..hi - 1, as the compiled core's ``VectorKernel.step``."""
        from fractions import Fraction

        from .money import round_to_unit

        width = 13 if self.by_rank else 52
        if not 0 <= lo <= hi <= self.n_tables:
            raise ValueError(f"tables {lo}..{hi} are not within 0..{self.n_tables}")
        bets_shape = (self.n_tables, self.players, self.bets)
        shapes: list[tuple[npt.NDArray[Any], tuple[int, ...]]] = [(stakes, bets_shape), (carried, bets_shape),
                  (reward, (self.n_tables, self.players)), (cards, (self.n_tables, self.hands, 3)),
                  (head, (self.n_tables,)), (outcome, (self.n_tables, self.bets)), (unseen, (self.n_tables, width)),
                  (shoe_state, (self.n_tables, 4))]
        if any(a.shape != shape for a, shape in shapes):
            raise ValueError("the step's arrays have the wrong shapes")
        keys = self.tables.class_keys
        per = self.n_cards // width
        for k in range(lo, hi):
            dealer = self.dealers[k]
            dealt, burn = dealer.deal()
            head_card, by_hand = assign(self.table, dealt[burn:])
            for h, hand in by_hand.items():
                cards[k, h] = list(hand)
            head[k] = NO_CARD if head_card is None else head_card
            hands = range(self.hands)
            ranks = [self.tables.rank(*by_hand[h]) for h in hands]
            classes = [self.tables.cls(*by_hand[h]) for h in hands]
            pps = [pair_plus3(*by_hand[h]) for h in hands]
            for j in range(self.bets):
                outcome[k, j] = _outcome(self.plan, j, keys, classes, ranks, pps)
            for p in range(self.players):
                total = 0
                for j in range(self.bets):
                    stake, code = int(stakes[k, p, j]), int(outcome[k, j])
                    carried[k, p, j] = stake if stake and self.carry[j, code] else 0
                    if stake and not self.carry[j, code]:
                        paid = round_to_unit(Fraction(stake * int(self.num[j, code]), int(self.den[j, code])),
                                             self.rounding)
                        total += paid - stake
                reward[k, p] = total
            if dealer.last:
                unseen[k] = per
                shoe_state[k, 0:2] = 0
            else:
                if dealer.rounds == 1:
                    unseen[k] = per
                    shoe_state[k, 0] = 0
                seen = [c for h in hands for c in by_hand[h]]
                if head_card is not None and self.table.head_card_burned:
                    seen.append(head_card)
                for c in seen:
                    unseen[k, c >> 2 if self.by_rank else c] -= 1
                shoe_state[k, 0] += len(seen)
                shoe_state[k, 1] = dealer.rounds
            shoe_state[k, 2] = dealer.number
            shoe_state[k, 3] = dealer.last

    def state(self) -> list[tuple[Any, ...]]:
        """Each table's shoe and bit generator state (what a refused step leaves alone)."""
        return [(d.pos, d.cut, d.number, d.rounds, d.last, bytes(d.deck), repr(d.bit_generator.state))
                for d in self.dealers]
