"""Raw rounds for simulators of your own: ``deal_batch`` deals many rounds in the compiled
core, without the GIL and on every core, exactly as ``Game`` deals them, and returns
their cards as NumPy arrays (``DealtRounds``), card codes as everywhere (``0..51``,
``4 * (rank - 1) + suit``).

Reproducible as ``simulate`` is: the rounds are cut into chunks of ``chunk_size``, chunk
k draws from ``SeedSequence(seed).spawn(k + 1)[k]`` (``DealtRounds.chunk_seed(k)``) and
starts from a fresh shoe, so the same seed gives the same arrays whatever ``workers``.
"The same cards as ``Game``" means, precisely: rows ``k * chunk_size`` up to the next
chunk's are the rounds ``Game(rules, seed=result.chunk_seed(k))`` deals, one after the
other from its first (its records' hands, burned cards, head card, round in shoe, last
of shoe and cut card; the shoe numbers go on counting from the earlier chunks' shoes).
They are also the rounds ``simulate(rules, rounds, seed=seed, chunk_size=chunk_size)``
plays and counts. (Not those of ``Game(rules, seed=seed)`` itself: even the first chunk
draws from a spawned child of ``seed``, as ``simulate``'s does.)

Cython code can deal from a shoe of its own, one round at a time into its own buffers,
with the same procedure: ``shoe_init`` and ``shoe_deal`` (``from sanggong._core cimport
...``, documented in ``_core.pxd``).

>>> from sanggong import ONLINE, Game
>>> dealt = deal_batch(ONLINE, 1000, seed=7)
>>> dealt.hands.shape, dealt.hands.dtype.name
((1000, 4, 3), 'uint8')
>>> game = Game(ONLINE, seed=dealt.chunk_seed(0))
>>> record = game.play()
>>> [c.code for c in record.banker.cards] == dealt.hands[0, 0].tolist()
True
>>> [c.code for c in record.burned] == dealt.burned[0, :dealt.burn_counts[0]].tolist()
True
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from . import _kernels
from ._checks import count, memory
from ._parallel import execute
from ._parallel import workers as workers_of
from ._presentation import html_sheet, pandas
from ._spec import NO_CARD as NO_CARD
from ._spec import most_burned
from .cards import Card
from .limits import MAX_BATCH_ROUNDS
from .rules import RuleSet, as_rules
from .seeds import Seed, SeedLike, check_seed, child
from .simulation import DEFAULT_CHUNK

if TYPE_CHECKING:  # pandas is optional (the "frame" extra), and typed only with pandas-stubs
    from pandas import DataFrame  # type: ignore[import-not-found, import-untyped, unused-ignore]

__all__ = ["DealtRounds", "deal_batch"]


@dataclass(frozen=True, eq=False)
class DealtRounds:
    """Rounds dealt by ``deal_batch``, one row per round, in the order they were dealt.

    :ivar rules: the rule set they were dealt under.
    :ivar seed: the seed that re-creates these rounds: an int, or the whole sequence as a
        ``seeds.Seed`` (``deal_batch(rules, n, seed=dealt.seed)`` deals them again).
    :ivar chunk_size: rounds per chunk (each chunk starts from a fresh shoe).
    :ivar hands: ``uint8``, shape ``(rounds, 1 + positions, 3)``: ``hands[i, 0]`` the
        banker's three cards, ``hands[i, p]`` position p's, each in the order the hand
        received them.
    :ivar burned: ``uint8``, shape ``(rounds, width)``: ``burned[i, :burn_counts[i]]``
        are round i's burned cards in the order they were burned, a burned head card
        last (``RoundRecord.burned``); the rest of the row is 255. ``width`` is the most
        one round burns: ``rules.burn_first`` for a fresh-deck table, else the larger of
        ``burn_first`` and ``burn_per_round``, plus one for a burned head card (0 where
        nothing is ever burned).
    :ivar burn_counts: ``uint8``, shape ``(rounds,)``: the cards burned each round.
    :ivar head_cards: ``uint8``, shape ``(rounds,)``: each round's head card, or None
        where the rules turn up none. (Where it is not burned it is also the first card
        of the hand it names.)
    :ivar shoe: ``int64``: the shoe each round was dealt from, from 1, counted across the
        whole batch (a fresh-deck table starts a shoe every round; every chunk starts a
        new shoe).
    :ivar round_in_shoe: ``uint16``: the round's place in its shoe, from 1.
    :ivar last_of_shoe: ``bool``: the cut card came out in this round (always true for
        a fresh deck). A chunk's last shoe ends with the chunk, whether or not its cut
        card came out.
    :ivar cut_card: ``uint16``: where the shoe's cut card lies, in cards from the end
        (0 for a fresh deck: ``RoundRecord.cut_card`` is then None).
    :ivar sequence: the ``SeedSequence`` the chunks' seeds are spawned from.
    """

    rules: RuleSet
    seed: int | Seed
    chunk_size: int
    hands: npt.NDArray[np.uint8]
    burned: npt.NDArray[np.uint8]
    burn_counts: npt.NDArray[np.uint8]
    head_cards: npt.NDArray[np.uint8] | None
    shoe: npt.NDArray[np.int64]
    round_in_shoe: npt.NDArray[np.uint16]
    last_of_shoe: npt.NDArray[np.bool_]
    cut_card: npt.NDArray[np.uint16]
    sequence: np.random.SeedSequence = field(repr=False)

    @property
    def rounds(self) -> int:
        """The rounds dealt."""
        return len(self.hands)

    @property
    def banker(self) -> npt.NDArray[np.uint8]:
        """The banker's hands, shape ``(rounds, 3)`` (a view of ``hands``)."""
        return self.hands[:, 0]

    @property
    def players(self) -> npt.NDArray[np.uint8]:
        """The positions' hands, shape ``(rounds, positions, 3)`` (a view of ``hands``)."""
        return self.hands[:, 1:]

    @staticmethod
    def bytes_needed(rules: RuleSet | str, rounds: int, chunk_size: int = DEFAULT_CHUNK) -> int:
        """The bytes of memory ``deal_batch(rules, rounds, chunk_size=chunk_size)``
        allocates: the result's arrays, and eight bytes a chunk, which is all it takes
        beyond a few kilobytes a worker. ``deal_batch`` refuses a call that would need
        more than the machine has available, before it allocates anything; a round takes
        ``14 + 3 * rules.hands`` bytes, and one for each card it may burn and for a head
        card (docs/limits.md).

        >>> from sanggong import MACAU, ONLINE
        >>> [DealtRounds.bytes_needed(r, 2) - DealtRounds.bytes_needed(r, 1) for r in (ONLINE, MACAU)]
        [28, 46]
        """
        rules = as_rules(rules)
        count("rounds", rounds, MAX_BATCH_ROUNDS, low=0)
        count("chunk_size", chunk_size, MAX_BATCH_ROUNDS)
        return sum(math.prod(shape) * np.dtype(dtype).itemsize
                   for shape, dtype in _arrays(rules, rounds, chunk_size).values())

    def chunk_seed(self, k: int) -> np.random.SeedSequence:
        """The seed of chunk ``k`` (rows ``k * chunk_size`` on): ``Game(rules,
        seed=chunk_seed(k))`` deals its rounds. Any k >= 0: the chunks after the last
        continue the batch (``deal_batch(rules, n, seed=chunk_seed(k))`` is not that)."""
        if isinstance(k, bool) or not isinstance(k, int) or k < 0:
            raise ValueError(f"k must be a chunk number 0 or more, got {k!r}")
        return child(self.sequence, k)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DealtRounds):
            return NotImplemented
        if (self.rules, self.seed, self.chunk_size) != (other.rules, other.seed, other.chunk_size):
            return False
        if (self.head_cards is None) != (other.head_cards is None):
            return False
        names = ("hands", "burned", "burn_counts", "head_cards", "shoe", "round_in_shoe", "last_of_shoe", "cut_card")
        return all(np.array_equal(getattr(self, n), getattr(other, n)) for n in names
                   if getattr(self, n) is not None)

    __hash__ = None  # type: ignore[assignment]  # mutable arrays

    def to_frame(self) -> DataFrame:
        """The rounds as a pandas ``DataFrame``, one row per round (index ``round``, from
        0), the cards as text. pandas is optional: ``pip install 'sanggong[frame]'``.

        Columns: ``shoe``, ``round_in_shoe``, ``last_of_shoe``, ``cut_card`` (the arrays
        of the same names), ``burned`` (the round's burned cards, ``"Ah 7c"``, empty where
        none), ``head_card`` (where the rules turn one up), ``banker`` and ``hand 1`` ..
        ``hand n`` (three cards each, ``"Kh Qs 9d"``, in the order they were received).
        ``attrs`` holds ``rules`` (its name), ``seed`` and ``chunk_size``. The arrays
        themselves (``hands``, ...) are the faster form for a simulator's own code.

        :raises ImportError: pandas is not installed (the message names the extra).
        """
        pd = pandas()
        columns: dict[str, Any] = {
            "shoe": self.shoe, "round_in_shoe": self.round_in_shoe, "last_of_shoe": self.last_of_shoe,
            "cut_card": self.cut_card, "burned": _burned_text(self.burned, self.burn_counts),
        }
        if self.head_cards is not None:
            columns["head_card"] = _card_texts()[self.head_cards]
        columns["banker"] = _hand_texts(self.hands[:, 0])
        for p in range(1, self.hands.shape[1]):
            columns[f"hand {p}"] = _hand_texts(self.hands[:, p])
        frame = pd.DataFrame(columns, index=pd.RangeIndex(self.rounds, name="round"))
        frame.attrs.update(rules=self.rules.name, seed=self.seed, chunk_size=self.chunk_size)
        return frame

    def _repr_html_(self, shown: int = 10) -> str:
        """The first rounds as an HTML table, for notebooks (needs no pandas)."""
        shoes = len(np.unique(self.shoe))
        caption = f"Dealt rounds: {self.rules.name}, {self.rounds:,} rounds from {shoes:,} shoes, seed {self.seed}"
        if self.rounds > shown:
            caption += f" (the first {shown} shown)"
        n = min(shown, self.rounds)
        hands = [_hand_texts(self.hands[:n, p]) for p in range(self.hands.shape[1])]
        burned = _burned_text(self.burned[:n], self.burn_counts[:n])
        rows = [(str(i), str(self.shoe[i]), str(self.round_in_shoe[i]), burned[i], *(h[i] for h in hands))
                for i in range(n)]
        header = ("round", "shoe", "in shoe", "burned", "banker", *(f"hand {p}" for p in range(1, len(hands))))
        return html_sheet("dealt", caption, header, rows)


@functools.cache
def _card_texts() -> npt.NDArray[np.object_]:
    """Each card code's text (``"Kh"``), and an empty text for ``NO_CARD``."""
    texts = np.full(256, "", dtype=object)
    texts[:52] = [str(Card(code)) for code in range(52)]
    return texts


@functools.cache
def _triple_texts() -> npt.NDArray[np.object_]:
    """The text of every ordered triple of card codes, at ``2704 * c0 + 52 * c1 + c2``."""
    cards = _card_texts()[:52]
    return np.array([f"{a} {b} {c}" for a in cards for b in cards for c in cards], dtype=object)


def _hand_texts(hands: npt.NDArray[np.uint8]) -> npt.NDArray[np.object_]:
    codes = hands.astype(np.int64)
    texts: npt.NDArray[np.object_] = _triple_texts()[2704 * codes[:, 0] + 52 * codes[:, 1] + codes[:, 2]]
    return texts


def _burned_text(burned: npt.NDArray[np.uint8], counts: npt.NDArray[np.uint8]) -> npt.NDArray[np.object_]:
    """Each round's burned cards as text, its first ``counts[i]`` cards (the rest are ``NO_CARD``)."""
    texts = _card_texts()
    out = np.full(len(burned), "", dtype=object)
    for j in range(burned.shape[1]):
        card = texts[burned[:, j]]
        out = np.where(counts > j, np.where(j == 0, card, out + " " + card), out)
    return out


def _deal(params: npt.NDArray[np.int64], seed: np.random.SeedSequence, arrays: tuple[Any, ...]) -> int:
    """One chunk into its slices of the arrays: a fresh shoe; returns the shoes begun."""
    return int(_kernels.kernels.deal_chunk(np.random.PCG64(seed), params, *arrays))


def _arrays(rules: RuleSet, rounds: int, chunk_size: int) -> dict[str, tuple[tuple[int, ...], type]]:
    """The shape and dtype of every array ``deal_batch`` allocates (``DealtRounds``'s, and
    the shoes each chunk begins): allocated from this, and its bytes
    (``DealtRounds.bytes_needed``) weighed against the memory available before any is."""
    width = most_burned(rules.table_params)
    arrays: dict[str, tuple[tuple[int, ...], type]] = {
        "hands": ((rounds, rules.hands, 3), np.uint8), "burned": ((rounds, width), np.uint8),
        "burn_counts": ((rounds,), np.uint8), "head_cards": ((rounds,), np.uint8), "shoe": ((rounds,), np.int64),
        "round_in_shoe": ((rounds,), np.uint16), "last_of_shoe": ((rounds,), np.uint8),
        "cut_card": ((rounds,), np.uint16), "chunk_shoes": ((-(-rounds // chunk_size),), np.int64),
    }
    if not rules.head_card:
        del arrays["head_cards"]
    return arrays


def deal_batch(
    rules: RuleSet | str,
    rounds: int,
    *,
    seed: SeedLike = None,
    workers: int | None = None,
    chunk_size: int = DEFAULT_CHUNK,
) -> DealtRounds:
    """Deal ``rounds`` rounds as ``rules`` prescribe, in the compiled core, and return
    their cards: the hands (banker first), burned cards, head cards, shoe and round
    numbers, for a simulator of your own: over 20 million online rounds a second on one
    core of the development machine.

    :param rules: a ``RuleSet`` or a preset's name.
    :param rounds: 0 .. 10**9 (``MAX_BATCH_ROUNDS``), and no more than the memory
        available holds: ``DealtRounds.bytes_needed(rules, rounds)`` bytes, 28 a round
        online and 46 at a Macau table (docs/limits.md).
    :param seed: an int, a ``SeedSequence`` or a ``seeds.Seed``; None draws OS entropy.
        The result's ``seed`` re-creates it.
    :param workers: threads dealing chunks without the GIL (None: every core); the
        result does not depend on it. At most twice as many chunks are in flight, so
        the memory beyond the output arrays stays O(workers x chunk).
    :param chunk_size: rounds per chunk; chunk k is the game of ``chunk_seed(k)``
        (see ``sanggong.rounds``), as ``simulate``'s chunk k is.
    :raises MemoryError: the arrays would take more memory than the machine has
        available (the message names both); nothing was allocated. It is also a
        ``ValueError``.

    >>> from sanggong import MACAU
    >>> dealt = deal_batch(MACAU, 100, seed=11)
    >>> dealt.hands.shape, dealt.burned.shape, dealt.burn_counts[:3].tolist()
    ((100, 8, 3), (100, 8), [8, 1, 1])
    >>> first = dealt.shoe == 1
    >>> int(first.sum()) == int(dealt.round_in_shoe[first].max()), bool(dealt.last_of_shoe[first][-1])
    (True, True)
    """
    rules = as_rules(rules)
    sequence, recorded = check_seed(seed)  # its size checked before any work
    needed = DealtRounds.bytes_needed(rules, rounds, chunk_size)  # (rounds and chunk_size checked there)
    memory(f"deal_batch of {rounds:,} rounds", needed)  # before anything is allocated
    window = workers_of(workers)
    params = rules.table_params.array()
    layout = _arrays(rules, rounds, chunk_size)
    arrays: dict[str, npt.NDArray[Any]] = {name: np.empty(shape, dtype) for name, (shape, dtype) in layout.items()}
    hands, burned, burn_counts, shoe = arrays["hands"], arrays["burned"], arrays["burn_counts"], arrays["shoe"]
    round_in_shoe, last, cut_card = arrays["round_in_shoe"], arrays["last_of_shoe"], arrays["cut_card"]
    head_cards = arrays.get("head_cards")
    starts = range(0, rounds, chunk_size)
    shoes = arrays["chunk_shoes"]  # shoes begun by each chunk
    shoes[:] = 0

    def tasks() -> Iterator[tuple[int, np.random.SeedSequence, tuple[Any, ...]]]:
        for k, start in enumerate(starts):  # made as they are submitted: none waits in memory
            part = slice(start, start + chunk_size)
            yield k, child(sequence, k), (
                hands[part], burned[part], burn_counts[part], None if head_cards is None else head_cards[part],
                shoe[part], round_in_shoe[part], last[part], cut_card[part])

    def run(k: int, seed: np.random.SeedSequence, arrays: tuple[Any, ...]) -> tuple[int, int]:
        return k, _deal(params, seed, arrays)

    def absorb(result: tuple[int, int]) -> None:
        shoes[result[0]] = result[1]

    if window == 1 or len(starts) <= 1:
        for task in tasks():
            absorb(run(*task))
    else:
        with ThreadPoolExecutor(max_workers=min(window, len(starts)), thread_name_prefix="sanggong-deal") as pool:
            if execute(tasks(), run, pool, 2 * window, absorb, None):
                raise KeyboardInterrupt  # (the chunks in flight finished; the rest never began)
    offset = 0
    for k, begun in enumerate(shoes.tolist()):  # a chunk's shoes are numbered from 1: continue the count
        if offset:
            shoe[starts[k]:starts[k] + chunk_size] += offset
        offset += begun
    return DealtRounds(
        rules=rules, seed=recorded, chunk_size=chunk_size, hands=hands, burned=burned, burn_counts=burn_counts,
        head_cards=head_cards, shoe=shoe, round_in_shoe=round_in_shoe, last_of_shoe=last.view(np.bool_),
        cut_card=cut_card, sequence=sequence,
    )
