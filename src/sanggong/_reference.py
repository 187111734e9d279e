"""The pure-Python reference: the game's logic written plainly, the single source of truth.

Every kernel of the compiled core (``_core.pyx``) has a twin here with the same name,
signature and results; the lookup tables of the core are generated from the functions
of this module (``tools/gen_tables.py``), never typed in by hand.

This module depends on the standard library and NumPy only and uses no relative
import, so that the build can load it by path to generate the tables.

Card codes
----------
A card is an integer ``code = 4 * (rank - 1) + suit`` in ``0..51``: ``rank`` is
1 (ace) .. 13 (king) and ``suit`` is 0 clubs, 1 diamonds, 2 hearts, 3 spades.
So ``code // 4`` is the rank index, ``code % 4`` the suit, ``0`` is the ace of clubs
and ``51`` the king of spades; integer order is rank order.

Hand ranks
----------
The 31 hand classes are numbered ``0..30`` so that a higher number is a stronger hand
and equal numbers tie: ``rank = 3 * points + faces`` for hands with 0, 1 or 2 faces
(``0`` is "0", ``29`` is "2P9") and ``30`` is three faces ("3P").

Pair Plus categories
--------------------
``0`` none, ``1`` pair, ``2`` flush, ``3`` straight, ``4`` three of a kind,
``5`` straight flush: a higher number is a better category.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

N_CARDS = 52
N_RANKS = 13
N_SUITS = 4
N_CLASSES = 31
THREE_FACES_RANK = 30
RANK_SYMBOLS = "A23456789TJQK"
SUIT_SYMBOLS = "cdhs"

PP_NONE = 0
PP_PAIR = 1
PP_FLUSH = 2
PP_STRAIGHT = 3
PP_THREE_OF_A_KIND = 4
PP_STRAIGHT_FLUSH = 5
N_PAIR_PLUS = 6
PAIR_PLUS_NAMES = ("none", "pair", "flush", "straight", "three of a kind", "straight flush")

IMPLEMENTATION = "python"


# --- cards -------------------------------------------------------------------------


def card_rank(code: int) -> int:
    """Rank of a card code: 1 (ace) .. 13 (king)."""
    return code // 4 + 1


def card_suit(code: int) -> int:
    """Suit of a card code: 0 clubs, 1 diamonds, 2 hearts, 3 spades."""
    return code % 4


def card_points(code: int) -> int:
    """Points of a card: ace 1, two to nine their pips, ten and the faces 0."""
    rank = card_rank(code)
    return rank if rank <= 9 else 0


def card_is_face(code: int) -> bool:
    """True for J, Q and K only; a ten is worth 0 but is not a face (公)."""
    return card_rank(code) >= 11


# --- hand classes ------------------------------------------------------------------


def class_rank(points: int, faces: int) -> int:
    """The class number of a hand with these points (0..9) and faces (0..3)."""
    if faces == 3:
        return THREE_FACES_RANK
    return 3 * points + faces


def rank_points(rank: int) -> int:
    """Points of a hand class (three faces count 0 points)."""
    return 0 if rank == THREE_FACES_RANK else rank // 3


def rank_faces(rank: int) -> int:
    """Number of face cards of a hand class."""
    return 3 if rank == THREE_FACES_RANK else rank % 3


def rank_label(rank: int) -> str:
    """Display string of a hand class: ``3P``, ``2Pn``, ``Pn`` or ``n``."""
    faces = rank_faces(rank)
    if faces == 3:
        return "3P"
    points = rank_points(rank)
    return ("", "P", "2P")[faces] + str(points)


def _code(value: int) -> int:
    if isinstance(value, bool):
        raise TypeError(f"card code {value!r} is a bool, not an int")
    code = operator.index(value)
    if not 0 <= code < N_CARDS:
        raise ValueError(f"card code {code} is out of range (expected 0..51)")
    return code


def rank3(c0: int, c1: int, c2: int) -> int:
    """Class number (0..30) of the hand of these three card codes."""
    c0, c1, c2 = _code(c0), _code(c1), _code(c2)
    points = (card_points(c0) + card_points(c1) + card_points(c2)) % 10
    faces = card_is_face(c0) + card_is_face(c1) + card_is_face(c2)
    return class_rank(points, faces)


def pair_plus3(c0: int, c1: int, c2: int) -> int:
    """Pair Plus category (0..5) of the hand of these three card codes.

    Aces play high or low (A-2-3 and Q-K-A are straights, K-A-2 is not). With
    identical cards from a multi-deck shoe a hand may fit several categories and
    takes the highest: suited three of a kind is three of a kind, a suited pair a flush.
    """
    c0, c1, c2 = _code(c0), _code(c1), _code(c2)
    ranks = sorted((card_rank(c0), card_rank(c1), card_rank(c2)))
    flush = card_suit(c0) == card_suit(c1) == card_suit(c2)
    distinct = len(set(ranks))
    straight = distinct == 3 and (ranks[2] - ranks[0] == 2 or ranks == [1, 12, 13])
    if distinct == 1:
        return PP_THREE_OF_A_KIND
    if straight and flush:
        return PP_STRAIGHT_FLUSH
    if straight:
        return PP_STRAIGHT
    if flush:
        return PP_FLUSH
    if distinct == 2:
        return PP_PAIR
    return PP_NONE


# --- batch kernels -----------------------------------------------------------------
# Same contract as the compiled core: ``hands`` is an (n, 3) integer array already
# checked for shape and dtype by ``sanggong.batch``; the kernels check every code and
# return the index of the first row holding one outside 0..51 (-1 when all are valid),
# leaving the outputs from that row on unspecified.

Rows = Sequence[Sequence[int]]


def _first_bad_row(rows: Rows) -> int:
    for i, row in enumerate(rows):
        if any(not 0 <= code < N_CARDS for code in row):
            return i
    return -1


def _rows(hands: npt.NDArray[np.integer]) -> list[list[int]]:
    rows: list[list[int]] = hands.tolist()
    return rows


def rank_batch(hands: npt.NDArray[np.integer], out: npt.NDArray[np.uint8]) -> int:
    """Write the class number of each row of ``hands`` into ``out``."""
    rows = _rows(hands)
    bad = _first_bad_row(rows)
    for i, (c0, c1, c2) in enumerate(rows[: bad if bad >= 0 else len(rows)]):
        out[i] = rank3(c0, c1, c2)
    return bad


def pair_plus_batch(hands: npt.NDArray[np.integer], out: npt.NDArray[np.uint8]) -> int:
    """Write the Pair Plus category of each row of ``hands`` into ``out``."""
    rows = _rows(hands)
    bad = _first_bad_row(rows)
    for i, (c0, c1, c2) in enumerate(rows[: bad if bad >= 0 else len(rows)]):
        out[i] = pair_plus3(c0, c1, c2)
    return bad


def evaluate_batch(
    hands: npt.NDArray[np.integer],
    ranks: npt.NDArray[np.uint8],
    pair_plus: npt.NDArray[np.uint8],
) -> int:
    """Write both the class number and the Pair Plus category of each row."""
    rows = _rows(hands)
    bad = _first_bad_row(rows)
    for i, (c0, c1, c2) in enumerate(rows[: bad if bad >= 0 else len(rows)]):
        ranks[i] = rank3(c0, c1, c2)
        pair_plus[i] = pair_plus3(c0, c1, c2)
    return bad


def compare_batch(
    a: npt.NDArray[np.integer], b: npt.NDArray[np.integer], out: npt.NDArray[np.int8]
) -> int:
    """Write 1, 0 or -1 as row i of ``a`` beats, ties or loses to row i of ``b``."""
    rows_a, rows_b = _rows(a), _rows(b)
    bad_a, bad_b = _first_bad_row(rows_a), _first_bad_row(rows_b)
    bad = min((i for i in (bad_a, bad_b) if i >= 0), default=-1)
    stop = bad if bad >= 0 else len(rows_a)
    for i in range(stop):
        ra = rank3(rows_a[i][0], rows_a[i][1], rows_a[i][2])
        rb = rank3(rows_b[i][0], rows_b[i][1], rows_b[i][2])
        out[i] = (ra > rb) - (ra < rb)
    return bad


# --- settlement ----------------------------------------------------------------------
# The outcome of a bet, written plainly from the rules (docs/rules.md). The compiled core
# settles by table lookup; its tables (``sanggong.settlement``) are generated from
# ``bet_outcome`` below and the two are compared on every input in the test suite.

OUT_LOSE = 0
OUT_WIN = 1
OUT_WIN_ON_SIX = 2  # online Win/Lose when the winning hand has 6 points
OUT_PUSH = 3  # the stake is returned
OUT_CARRIED = 4  # the stake stays on the table for the next round
OUT_PAIR_PLUS = 4  # Pair Plus wins: OUT_PAIR_PLUS + category (5 pair .. 9 straight flush)
N_OUTCOMES = 10


def hand_order(rank_a: int, rank_b: int, tie_by: str) -> int:
    """1, 0 or -1 as hand class ``rank_a`` beats, ties or loses to ``rank_b``.

    With ``tie_by="points"`` two hands of equal points tie whatever their faces, but
    three faces still beat every other hand and tie only each other.
    """
    if tie_by == "points" and rank_a != THREE_FACES_RANK and rank_b != THREE_FACES_RANK:
        a, b = rank_points(rank_a), rank_points(rank_b)
        if a == b:
            return 0
    return (rank_a > rank_b) - (rank_a < rank_b)


def bet_outcome(rules, kind: str, number: int, hand_rank: int, hand_pp: int, banker_rank: int) -> int:  # type: ignore[no-untyped-def]
    """Outcome code of one bet. ``hand_*`` describe the hand the bet is on (the banker's
    for bets on the banker), ``banker_rank`` the banker's hand; ``number`` is n of
    ``point:n``. ``rules`` is a ``sanggong.rules.RuleSet``."""
    push = OUT_CARRIED if rules.push == "carried" else OUT_PUSH
    if kind in ("win", "lose", "tie"):
        order = hand_order(hand_rank, banker_rank, rules.tie_by)
        if kind == "tie":
            return OUT_WIN if order == 0 else OUT_LOSE
        if order == 0:
            return push
        if kind == "lose":
            order, winner = -order, banker_rank
        else:
            winner = hand_rank
        if order < 0:
            return OUT_LOSE
        on_six = rank_points(winner) == 6 and rank_faces(winner) < 3
        return OUT_WIN_ON_SIX if on_six and f"{kind}_on_six" in rules.pays else OUT_WIN
    if kind in ("odd", "even"):
        if hand_rank == THREE_FACES_RANK:
            return push if rules.banker_three_faces_odd_even == "push" else OUT_LOSE
        odd = rank_points(hand_rank) % 2 == 1
        return OUT_WIN if odd == (kind == "odd") else OUT_LOSE
    if kind == "three_faces":
        return OUT_WIN if hand_rank == THREE_FACES_RANK else OUT_LOSE
    if kind == "point":
        if hand_rank == THREE_FACES_RANK:
            points = rules.banker_three_faces_point
        else:
            points = rank_points(hand_rank)
        return OUT_WIN if points == number else OUT_LOSE
    if kind == "pair_plus":
        return OUT_LOSE if hand_pp == PP_NONE else OUT_PAIR_PLUS + hand_pp
    raise ValueError(f"unknown bet kind {kind!r}")


def settle_batch(plan, ranks, pps, out) -> int:  # type: ignore[no-untyped-def]
    """Outcome of every bet of ``plan`` in every round: ``ranks`` and ``pps`` are
    (n, hands) arrays (column 0 the banker, column i position i), ``out`` is (n, bets).
    Returns the first round holding a rank above 30 or a category above 5, or -1."""
    rows_r, rows_p = ranks.tolist(), pps.tolist()
    for i, (hand_ranks, hand_pps) in enumerate(zip(rows_r, rows_p)):
        if any(not 0 <= r < N_CLASSES for r in hand_ranks) or any(not 0 <= p < N_PAIR_PLUS for p in hand_pps):
            return i
        for j, spec in enumerate(plan.specs):
            h = spec.position if spec.kind in ("win", "lose", "tie", "three_faces", "pair_plus") else 0
            out[i, j] = bet_outcome(
                plan.rules, spec.kind, spec.position, hand_ranks[h], hand_pps[h], hand_ranks[0]
            )
    return -1


# --- shuffling and dealing -------------------------------------------------------------
# The same algorithms as the compiled core, drawing the same 64-bit words through
# ``random_raw()``: for bit generators whose raw output is their 64-bit output (PCG64,
# PCG64DXSM, Philox, SFC64) both produce the same cards, bit for bit, from one seed.
# (``random_raw`` takes the bit generator's lock for each draw itself, so the reference
# does not hold it around a loop: the lock is not reentrant.)

_MASK64 = (1 << 64) - 1


def _bounded_raw(bit_generator, n: int) -> int:  # type: ignore[no-untyped-def]
    product = int(bit_generator.random_raw()) * n
    if product & _MASK64 < n:
        threshold = (1 << 64) % n
        while product & _MASK64 < threshold:
            product = int(bit_generator.random_raw()) * n
    return product >> 64


def bounded(bit_generator, n: int) -> int:  # type: ignore[no-untyped-def]
    """A uniform integer in [0, n), n >= 1 (Lemire's method on 64-bit draws)."""
    if n < 1:
        raise ValueError(f"bound {n} must be at least 1")
    return _bounded_raw(bit_generator, n)


# Batched bounded integers (the compiled sg_draw in _random.h takes the same words): the
# Fisher-Yates bounds of a draw are grouped, each group the longest run of the next bounds
# whose product stays at most 2**52, and one 64-bit word x gives a whole group. Here the
# group's numbers are read plainly as the mixed-radix digits of floor(x * P / 2**64),
# rejected (and x redrawn) while x * P mod 2**64 < 2**64 mod P; the compiled core gets
# the same digits by a chain of multiplications instead, and the tests compare the two.

BATCH_LIMIT = 1 << 52


def _fisher_yates_offsets(bit_generator, n: int, start: int, count: int) -> list[int]:  # type: ignore[no-untyped-def]
    """For drawing cards start .. start + count - 1 of an n-card deck: the offset r of
    each (card i is swapped with card i + r, r uniform in [0, n - i))."""
    offsets: list[int] = []
    i, end = start, start + count
    while i < end:
        bounds = [n - i]
        product = n - i
        while i + len(bounds) < end and product * (n - i - len(bounds)) <= BATCH_LIMIT:
            product *= n - i - len(bounds)
            bounds.append(n - i - len(bounds))
        number = _bounded_raw(bit_generator, product)  # one word: floor(x * P / 2**64), Lemire
        digits = []
        for bound in reversed(bounds):
            number, digit = divmod(number, bound)
            digits.append(digit)
        offsets.extend(reversed(digits))
        i += len(bounds)
    return offsets


def draw(bit_generator, deck, start: int, count: int, out) -> None:  # type: ignore[no-untyped-def]
    """Draw ``count`` cards from ``deck[start:]`` into ``out`` by lazy Fisher-Yates."""
    n = len(deck)
    if n > 52 * 64:  # as the compiled core, whose group table covers 64 decks
        raise ValueError(f"cannot draw from a {n}-card deck: at most {52 * 64} cards")
    if start < 0 or count < 0 or start + count > n:
        raise ValueError(f"cannot draw {count} cards from position {start} of a {n}-card deck")
    if len(out) < count:
        raise ValueError(f"out holds {len(out)} cards, {count} are drawn")
    for i, offset in enumerate(_fisher_yates_offsets(bit_generator, n, start, count), start):
        j = i + offset
        deck[i], deck[j] = deck[j], deck[i]
        out[i - start] = deck[i]


def deal_fresh_batch(bit_generator, decks: int, out) -> None:  # type: ignore[no-untyped-def]
    """For each row of ``out``: a fresh shoe in code order, then the first cards of a
    lazy Fisher-Yates shuffle."""
    if not 1 <= decks <= 64:
        raise ValueError(f"decks must be in 1..64, got {decks}")
    n = 52 * decks
    rows, k = out.shape
    if k > n:
        raise ValueError(f"cannot draw {k} cards from {decks} deck(s)")
    for r in range(rows):
        deck = [i % 52 for i in range(n)]
        cards = [0] * k
        draw(bit_generator, deck, 0, k, cards)
        out[r, :] = cards


# --- exact counting ---------------------------------------------------------------------
# A hand's class depends only on its ranks, and J, Q and K are alike for it (faces worth
# 0): so counting goes over 11 "class ranks" (A..9, T, face), whose hands are the 286
# multisets of 3. A multiset with m_k cards of class rank k can be drawn in
# prod C(c_k, m_k) ways from a shoe holding c_k such cards; a second hand then in
# prod C(c_k - m_k, m'_k). Pair Plus needs suits: its counts go over the 52 card kinds.

N_CLASS_RANKS = 11


def class_rank_of(code: int) -> int:
    """0..8 for A..9, 9 for a ten, 10 for a face (J, Q, K)."""
    return min(card_rank(code) - 1, 10)


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


def class_multisets() -> list[tuple[tuple[int, int], ...]]:
    """The 286 hands over class ranks, each as ((class rank, multiplicity), ...)."""
    out = []
    for a in range(N_CLASS_RANKS):
        for b in range(a, N_CLASS_RANKS):
            for c in range(b, N_CLASS_RANKS):
                counts: dict[int, int] = {}
                for k in (a, b, c):
                    counts[k] = counts.get(k, 0) + 1
                out.append(tuple(sorted(counts.items())))
    return out


def multiset_class(multiset: tuple[tuple[int, int], ...]) -> int:
    """The class number of a hand of these class ranks."""
    points = sum((k + 1) * m for k, m in multiset if k <= 8) % 10
    faces = sum(m for k, m in multiset if k == 10)
    return class_rank(points, faces)


def joint_class_counts(counts, multisets, classes, out) -> None:  # type: ignore[no-untyped-def]
    """``out[p, b]`` += ordered (position hand, banker hand) pairs of disjoint hands with
    classes p and b, from a shoe holding ``counts[k]`` cards of class rank k.
    ``multisets`` is (286, 3, 2) (class rank, multiplicity; multiplicity 0 pads)."""
    c = [int(x) for x in counts]
    sets = [[(int(k), int(m)) for k, m in ms if m] for ms in multisets.tolist()]
    cls = [int(x) for x in classes]
    for i, first in enumerate(sets):
        w1 = 1
        for k, m in first:
            w1 *= _comb(c[k], m)
        if not w1:
            continue
        rest = list(c)
        for k, m in first:
            rest[k] -= m
        for j, second in enumerate(sets):
            w2 = w1
            for k, m in second:
                w2 *= _comb(rest[k], m)
            if w2:
                out[cls[i], cls[j]] += w2


def hand_counts(counts, multisets, values, out) -> None:  # type: ignore[no-untyped-def]
    """``out[values[i]]`` += the ways to draw multiset i (of card kinds or class ranks)
    from a shoe holding ``counts[k]`` of kind k."""
    c = [int(x) for x in counts]
    for ms, value in zip(multisets.tolist(), values.tolist()):
        w = 1
        for k, m in ms:
            if m:
                w *= _comb(c[k], m)
        out[value] += w


# --- simulation ----------------------------------------------------------------------------


def simulate_chunk(bit_generator, params, rounds: int, pairs, single, plan, money, net, stop) -> int:  # type: ignore[no-untyped-def]
    """Deal and evaluate ``rounds`` rounds from a fresh shoe and count what settles
    every bet, exactly as the compiled core's ``simulate_chunk`` (and
    ``sanggong.dealing.Game``) do."""
    decks, positions, fresh, burn_first, burn_later, head, head_burned, one_at_a_time, cut_lo, cut_hi = (
        int(x) for x in params
    )
    hands = positions + 1
    n_cards = 52 * decks
    head_card = 1 if head and head_burned else 0
    if not (1 <= decks <= 64 and 1 <= positions < 17 and 0 <= burn_first <= 64 and 0 <= burn_later <= 64
            and burn_first + head_card + 3 * hands <= n_cards and (fresh or 1 <= cut_lo <= cut_hi < n_cards)):
        raise ValueError(f"params {[int(x) for x in params]} do not describe a table this kernel deals")
    if not fresh and burn_later + head_card + 3 * hands > cut_lo:
        raise ValueError("a later round may need more cards than the cut card leaves")
    deck = [0] * n_cards
    pos = cut = in_shoe = 0
    last = True
    for done in range(rounds):
        if done % 4096 == 0 and stop[0]:
            return done
        if last or fresh:
            deck = [i % 52 for i in range(n_cards)]
            pos = in_shoe = 0
            if not fresh:
                cut = n_cards - (cut_lo + bounded(bit_generator, cut_hi - cut_lo + 1))
            last = False
        burn = burn_first if in_shoe == 0 else burn_later
        count = burn + (1 if head and head_burned else 0) + 3 * hands
        cards = [0] * count
        draw(bit_generator, deck, pos, count, cards)
        start, pos = pos, pos + count
        in_shoe += 1
        last = bool(fresh) or start <= cut < pos
        rest = cards[burn:]
        dealt: dict[int, list[int]] = {}
        if head:
            first = (card_rank(rest[0]) - 1) % 4
            if head_burned:
                rest = rest[1:]
            for k in range(hands):
                dealt[(first + k) % hands] = rest[3 * k : 3 * k + 3]
        else:
            for k in range(hands):
                h = (k + 1) % hands
                dealt[h] = rest[k::hands][:3] if one_at_a_time else rest[3 * k : 3 * k + 3]
        ranks = {h: rank3(*c) for h, c in dealt.items()}
        pps = {h: pair_plus3(*c) for h, c in dealt.items()}
        for h in range(hands):
            single[h, 6 * ranks[h] + pps[h]] += 1
            if h:
                pairs[h, 31 * ranks[h] + ranks[0]] += 1
        if money is not None:
            total = 0
            for j, spec in enumerate(plan.specs):
                h = spec.position if spec.kind in ("win", "lose", "tie", "three_faces", "pair_plus") else 0
                code = bet_outcome(plan.rules, spec.kind, spec.position, ranks[h], pps[h], ranks[0])
                total += int(money[j, code])
            net[done] = total
    return rounds
