"""A log's stakes read and tallied for ``sanggong.detection`` (which explains the
statistic): each round's decision set, the shoes kept in batches, the batches' exact EVs
(``sanggong.shoe.ShoeRounds``: its kernel's call on a helper thread where the process has
a second core) and their stakes tallied (``tally_stakes``)."""

from __future__ import annotations

import math
from collections import Counter, deque
from collections.abc import Iterable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import numpy.typing as npt

from .. import _kernels
from .._presentation import missing
from .._spec import on_hand
from ..records import stakes_of
from ..rules import RuleSet
from ..verify import CheckedRound, CheckedRun

if TYPE_CHECKING:  # (shoe imports analysis; detect sits above both: imported where a tallier is made)
    from ..shoe import RoundSums

__all__ = ["BATCH_ROUNDS", "MAX_POINTS", "Names", "Points", "Staker", "Tallier", "Tally"]

MAX_POINTS = 100_000
"""The (EV, stake) points kept per player for the plot (the first ones)."""


@dataclass
class Tally:
    """One player's sums over a log (picklable, and added across logs)."""

    rounds: int = 0
    bets: int = 0
    units: float = 0.0
    ev_units: float = 0.0  # sum of s * e
    base_units: float = 0.0  # sum of s * fresh e
    excess: float = 0.0  # D
    square: float = 0.0  # sum of Y_k ** 2
    span: int = 0  # rounds from the player's first stake to the last, summed over logs
    points: list[tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]] = field(default_factory=list)  # the
    # first MAX_POINTS (EV, stake) points, as pieces of two arrays

    @property
    def n_points(self) -> int:
        return sum(len(evs) for evs, _ in self.points)

    def add(self, other: Tally) -> None:
        for name in ("rounds", "bets", "units", "ev_units", "base_units", "excess", "square", "span"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        room = MAX_POINTS - self.n_points
        for evs, stakes in other.points:
            if room <= 0:
                break
            self.points.append((evs[:room], stakes[:room]))
            room -= len(evs)


Staker = tuple[str, str]
"""Who placed a stake, as ``(kind, id)``: ``("player", name)`` for a record's player, or an
anonymous staker of a record of bets alone, ``("position", "position <p>")`` (a position's
bets) or ``("table", "table")`` (the table's). A player is so never an anonymous staker,
whatever the player's name reads as: they are told apart by the kind, not the spelling."""

PLAYER = "player"


def anonymous(rules: RuleSet, bet: str) -> Staker:
    """The anonymous staker of a bet of a record of bets alone: its position's, or the table's."""
    spec = rules.bet(bet)
    return ("position", f"position {spec.position}") if on_hand(spec.kind) and spec.position > 0 else \
        ("table", "table")


class Names:
    """Stakers by name: a staker's name is its id, or its ``(kind, id)`` where another
    staker has the same id (a player called ``"table"`` and the anonymous table); a pair
    names its staker either way. What ``Detection`` and ``Detection.points`` are keyed by."""

    def __init__(self, stakers: Iterable[Staker]) -> None:
        order = list(stakers)
        count = Counter(i for _, i in order)
        self.shared = {i for i, n in count.items() if n > 1}  # the ids of more than one staker
        self.by_name: dict[Staker | str, Staker] = {s if s[1] in self.shared else s[1]: s for s in order}

    def find(self, wanted: object) -> Staker:
        """The staker ``wanted`` names; KeyError where none (or more than one) is, naming
        the closest name held where none is."""
        if isinstance(wanted, str):  # (a str subclass names what its characters name)
            wanted = str.__str__(wanted)
        if type(wanted) is tuple and len(wanted) == 2 and all(type(x) is str for x in wanted):
            found = self.by_name.get(wanted if wanted[1] in self.shared else wanted[1])
            if found == wanted:
                return found
        elif type(wanted) is str:
            if wanted in self.shared:
                stakers = sorted(s for s in self.by_name.values() if s[1] == wanted)
                raise KeyError(f"{wanted!r} is the id of more than one staker ({', '.join(map(repr, stakers))}): "
                               f"name one by its (kind, id)")
            found = self.by_name.get(wanted)
            if found is not None:
                return found
        names = [name if isinstance(name, str) else f"{name[0]}:{name[1]}" for name in self.by_name]
        raise missing("staker", wanted, "detection", "its stakers", names)


class Points(Mapping[Staker | str, tuple[tuple[float, float], ...]]):
    """Each staker's (EV, stake) points, made into tuples when first read (``Detection.points``),
    by its name (``Names``)."""

    def __init__(self, pieces: Mapping[Staker, list[tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]]]
                 ) -> None:
        self._pieces = dict(pieces)
        self._names = Names(self._pieces)
        self._made: dict[Staker, tuple[tuple[float, float], ...]] = {}

    def __getitem__(self, wanted: Staker | str) -> tuple[tuple[float, float], ...]:
        player = self._names.find(wanted)
        found = self._made.get(player)
        if found is None:
            pieces = self._pieces[player]
            evs = np.concatenate([e for e, _ in pieces]) if pieces else np.zeros(0)
            stakes = np.concatenate([s for _, s in pieces]) if pieces else np.zeros(0)
            found = self._made[player] = tuple(zip(evs.tolist(), stakes.tolist(), strict=True))
        return found

    def __iter__(self) -> Iterator[Staker | str]:
        return iter(self._names.by_name)

    def __len__(self) -> int:
        return len(self._pieces)


BATCH_ROUNDS = 4096  # rounds of ended shoes evaluated and tallied at once (numpy's calls paid once for them)
IN_FLIGHT = 2  # batches started before the oldest is tallied (the helper thread's head start)


class EndedShoe(NamedTuple):
    """An ended shoe with a stake, kept until its batch is tallied: where its cards and its
    rounds begin in the batch's, and the decision sets staked in it."""

    base: int
    first: int
    sets: frozenset[int]


class Batch(NamedTuple):
    """Ended shoes whose sums are being computed (by the helper thread, or done): each
    round's end among its shoe's cards (``ends``), and their rounds with a stake: each
    one's row among the batch's rounds, its round and its set."""

    shoes: list[EndedShoe]
    ends: npt.NDArray[np.int64]
    rows: list[int]
    rounds: list[int]
    sets: list[int]
    bets: list[str]  # the bets staked in the shoes, sorted
    sums: Future[RoundSums]  # every round's sums (ShoeRounds.start)


class Tallier:
    """Read records in order and tally every stake, a batch of shoes at a time. A shoe's
    rounds are kept (the cards each shows, and its decision set) until it ends; ended shoes
    are kept until they hold some thousands of rounds, a batch. A batch's EVs are
    ``ShoeRounds``': its sums one call of the shoe kernel, on a helper thread where the
    machine has a second core (the call runs without the GIL, beside the reading of the
    next batch), then ``ShoeEvaluator.float_evs``' floats; its stakes are then tallied in
    arrays (``_tally``).

    A round's stakes are a *decision set* (``_decisions``: each stake's player, bet, amount
    less what was carried into it, and whether it is the player's first in the round), kept
    once for each distinct content as an array. ``shared``: the records' ``bets`` and
    ``carried`` mappings are the tallier's own (a log read by ``LogReader``, whose fast pass
    hands the same mapping for every line of the same slip), so a round's set is found by
    the pair of them (the mappings are kept while they are, so that their ids stay theirs);
    records a caller gives are read afresh every round.

    Thread-safety: none; one tallier is fed by one thread (``detect`` makes one per log).
    Its helper thread only ever runs the kernel's call of a batch, one batch at a time,
    and is stopped by ``finish`` or ``close``.
    """

    def __init__(self, rules: RuleSet, burned_seen: bool, shared: bool = False, helper: bool = False) -> None:
        from ..shoe import ShoeRounds

        self.rules = rules
        self.burned_seen = burned_seen
        self.fresh_each = rules.fresh_deck_each_round
        self.evaluator = ShoeRounds(rules)  # the batches' EVs
        self.helper: ThreadPoolExecutor | None = ThreadPoolExecutor(1, "sanggong-detect") if helper else None
        self.shoe: int | None = None
        self.live = False  # the shoe's earlier cards are known (it began in the log)
        self.codes = bytearray()  # the cards seen in the rounds of the shoes not yet in a batch, this one's included
        self.ends: list[int] = []  # where each of those rounds' cards end, counted from its shoe's first card
        self.base = 0  # where this shoe's cards and rounds begin in them
        self.begins = 0
        self.staked: tuple[list[int], list[int], list[int]] = ([], [], [])  # the rounds with a stake of the shoes
        # not yet in a batch, this one's included: each one's row among their rounds, its round, its decision set
        self.staked_at = 0  # where this shoe's rounds with a stake begin in them
        self.carried: Mapping[str, Any] = {}
        self.decided: dict[tuple[int, int], tuple[Any, Any, int]] | None = {} if shared else None
        self.set_ids: dict[tuple[tuple[Staker, str, float, bool], ...], int] = {}  # a decision set's id by its content
        self.set_start = [0]  # set s's stakes: set_start[s] .. set_start[s + 1] - 1 of these lists
        self.stake_player: list[int] = []
        self.stake_bet: list[int] = []  # (the bet's column)
        self.stake_amount: list[float] = []
        self.stake_first: list[bool] = []
        self.table: tuple[npt.NDArray[Any], ...] = ()  # those lists as arrays, made for the sets there were
        self.set_players: list[frozenset[int]] = []
        self.set_bets: list[frozenset[str]] = []
        self.player_of: dict[Staker, int] = {}  # the stakers and bets by their numbers in the sets' arrays
        self.column_of: dict[str, int] = {}
        self.fresh_of: list[float] = []  # each column's fresh-shoe EV (NaN until a batch stakes the bet: every
        # shoe read begins in the log, so its first round's EVs are the fresh shoe's, the same floats as
        # float(analyze(rules)[bet].ev_exact): both the exact quotient, correctly rounded)
        self.sums = np.zeros((0, 7))  # each player's rounds, bets, units, ev_units, base_units, excess, square
        self.first: list[int | None] = []  # each player's first and last round with a stake
        self.last: list[int | None] = []
        self.points: list[list[tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]]] = []  # (see Tally)
        self.room: list[int] = []  # the points each player has room for
        self.pending: list[EndedShoe] = []  # ended shoes not yet in a batch
        self.batches: deque[Batch] = deque()
        self.records = 0
        self.skipped = 0

    def close(self) -> None:
        """Stop the helper thread (what it was computing is dropped)."""
        if self.helper is not None:
            self.helper.shutdown(wait=True, cancel_futures=True)
            self.helper = None

    def _units(self, amount: Any) -> float:
        if type(amount) is int:
            return float(amount)  # (the same float as float(Fraction(amount)): both correctly rounded)
        if isinstance(amount, Decimal):
            return float(Fraction(amount) / Fraction(self.rules.minor_unit))
        return float(Fraction(amount))

    def _decisions(self, bets: Mapping[str, Any], carried: Mapping[str, Any]) -> int:
        """The round's decision set: its stakes that are decisions, in the order of its bets
        (player, bet, the stake less what was carried into it, the player's first in the
        round), by its number (-1: none); found by the mappings' ids where they are shared."""
        decided = self.decided
        if decided is not None:
            found_by_id = decided.get((id(bets), id(carried)))
            if found_by_id is not None and found_by_id[0] is bets and found_by_id[1] is carried:
                return found_by_id[2]
        before = stakes_of(carried)
        out = []
        placed: set[Staker] = set()
        for (player, bet), stake in stakes_of(bets).items():
            new = self._units(stake) - self._units(before.get((player, bet), 0))
            if new <= 0:
                continue  # only a carried stake: no decision this round
            who = (PLAYER, player) if player is not None else anonymous(self.rules, bet)
            out.append((who, bet, new, who not in placed))
            placed.add(who)
        made = tuple(out)
        found = self.set_ids.get(made, -1) if made else -1
        if made and found < 0:
            found = self.set_ids[made] = len(self.set_bets)
            for who, bet, new, first in made:
                if who not in self.player_of:
                    self.player_of[who] = len(self.player_of)
                    self.first.append(None)
                    self.last.append(None)
                    self.points.append([])
                    self.room.append(MAX_POINTS)
                if bet not in self.column_of:
                    self.column_of[bet] = len(self.column_of)
                    self.fresh_of.append(math.nan)
                self.stake_player.append(self.player_of[who])
                self.stake_bet.append(self.column_of[bet])
                self.stake_amount.append(new)
                self.stake_first.append(first)
            self.set_start.append(len(self.stake_player))
            self.set_players.append(frozenset(self.player_of[who] for who, _, _, _ in made))
            self.set_bets.append(frozenset(bet for _, bet, _, _ in made))
        if decided is not None:
            if len(decided) >= 4096:
                decided.clear()
            decided[(id(bets), id(carried))] = (bets, carried, found)
        return found

    def feed(self, record: CheckedRound) -> None:
        """Read the next round (``verify.CheckedRound``: a log's, or a record's)."""
        number, shoe, in_shoe, bets, carried_on, codes, burned_codes = record
        self.records += 1
        if shoe != self.shoe or self.fresh_each:
            self._close_shoe()
            self.shoe, self.live = shoe, in_shoe == 1  # (a shoe begun before the log: its earlier cards are unknown)
        if not self.live:
            self.skipped += 1
            self.carried = carried_on
            return
        chosen = self._decisions(bets, self.carried)
        if chosen >= 0:
            rows, rounds, sets = self.staked
            rows.append(len(self.ends))
            rounds.append(number)
            sets.append(chosen)
        self.carried = carried_on
        self.codes.extend(codes)
        if self.burned_seen:
            self.codes.extend(burned_codes)
        self.ends.append(len(self.codes) - self.base)

    def read(self, checked: CheckedRound | CheckedRun) -> None:
        """Read the next item of a log's checked stream (``verify.LogReader.checked``): a
        round by ``feed``, and a run of rounds the fast pass accepted within a shoe
        (``verify.CheckedRun``) at once, its cards from the shoe's dealt arrays."""
        if isinstance(checked, CheckedRound):
            self.feed(checked)
            return
        if self.fresh_each or self.decided is None:  # (a run, round by round)
            for one in checked.rounds():
                self.feed(one)
            return
        number, shoe, first, bets_of, carried_of = checked.round, checked.shoe, checked.first, checked.bets, \
            checked.carried
        hands, burned, counts, in_shoe = checked.hands, checked.burned, checked.burned_counts, checked.in_shoe
        n = len(bets_of)
        if shoe != self.shoe:
            self._close_shoe()
            self.shoe, self.live = shoe, int(in_shoe[first]) == 1  # (a shoe begun before the log: its earlier
            # cards are unknown)
        self.records += n
        if not self.live:
            self.skipped += n
            self.carried = carried_of[-1]
            return
        (rows, rounds, sets), ends, codes = self.staked, self.ends, self.codes
        carried, row = self.carried, len(ends)
        last_bets = last_carried = None
        chosen = -1
        for i in range(n):
            bets = bets_of[i]
            if bets is not last_bets or carried is not last_carried:
                chosen = self._decisions(bets, carried)
                last_bets, last_carried = bets, carried
            if chosen >= 0:
                rows.append(row + i)
                rounds.append(number + i)
                sets.append(chosen)
            carried = carried_of[i]
        self.carried = carried
        at = len(codes) - self.base
        if not self.burned_seen:  # (each round's cards: its hands', the banker's first)
            width = hands.shape[1] * 3
            codes += hands[first:first + n].tobytes()
            ends.extend(range(at + width, at + width * n + 1, width))
            return
        for k in range(first, first + n):  # (and its burned cards after them)
            codes += hands[k].tobytes()
            codes += burned[k, :counts[k]].tobytes()
            ends.append(len(codes) - self.base)

    def _close_shoe(self) -> None:
        """Keep the shoe for its batch (a shoe without a stake: only its cards checked)."""
        base, first = self.base, self.begins
        if len(self.ends) == first:
            return
        sets = frozenset(self.staked[2][self.staked_at:])
        self.staked_at = len(self.staked[2])
        if not sets:
            from ..shoe import check_rounds

            try:
                check_rounds(self.evaluator.counts, bytes(self.codes[base:]), self.ends[first:])  # (the error a
                # shoe of cards it cannot hold raises)
            finally:
                del self.codes[base:], self.ends[first:]
            return
        self.pending.append(EndedShoe(base, first, sets))
        self.base, self.begins = len(self.codes), len(self.ends)
        if len(self.ends) >= BATCH_ROUNDS:
            self._submit()

    def _submit(self) -> None:
        """Start the pending shoes' sums as a batch (on the helper thread, if any), and
        tally the oldest batch if more than ``IN_FLIGHT`` are started."""
        shoes, self.pending = self.pending, []
        (rows, rounds, sets), self.staked, self.staked_at = self.staked, ([], [], []), 0
        codes, ends = bytes(self.codes), np.array(self.ends, dtype=np.int64)
        self.codes, self.ends, self.base, self.begins = bytearray(), [], 0, 0
        set_bets = self.set_bets
        staked = sorted(frozenset().union(*[set_bets[s] for s in set().union(*[s.sets for s in shoes])]))
        task = self.evaluator.start(staked, codes, ends, np.array([s.first for s in shoes], dtype=np.int64))
        if self.helper is not None:
            sums = self.helper.submit(task)
        else:
            sums = Future()
            sums.set_result(task())
        self.batches.append(Batch(shoes, ends, rows, rounds, sets, staked, sums))
        if len(self.batches) > IN_FLIGHT:
            self._tally(self.batches.popleft())

    def _tally(self, batch: Batch) -> None:
        """Tally a batch's stakes, once its sums are done."""
        shoe_ends = np.array([s.first for s in batch.shoes[1:]] + [len(batch.ends)], dtype=np.int64)
        self._add(shoe_ends, batch.rows, batch.rounds, batch.sets, batch.bets,
                  self.evaluator.float_evs(batch.sums.result()))

    def _add(self, shoe_ends: npt.NDArray[np.int64], rows: list[int], rounds: list[int], sets: list[int],
             bets: list[str], ev: npt.NDArray[np.float64]) -> None:
        """Add the stakes of shoes (each one's rounds ending before ``shoe_ends``; their rounds
        with a stake: ``rows``, ``rounds`` their numbers, ``sets`` their decision sets) to every player's
        sums, their EVs ``ev`` (each round's EV of each of ``bets``): the kernel's
        ``tally_stakes`` (each stake's EV, the sums of the stakes, and the martingale
        differences Y_k, see the module's doc); then each player's first and last round,
        and the points for the plot."""
        for j, b in enumerate(bets):
            if math.isnan(self.fresh_of[self.column_of[b]]):
                self.fresh_of[self.column_of[b]] = float(ev[0, j])  # (the batch's first round: a shoe's first)
        if not self.table or len(self.table[1]) != len(self.stake_player):
            self.table = (np.array(self.set_start, dtype=np.int64), np.array(self.stake_player, dtype=np.int64),
                          np.array(self.stake_bet, dtype=np.int64), np.array(self.stake_amount, dtype=np.float64),
                          np.array(self.stake_first, dtype=np.uint8))
        set_start, player, bet, amount, first = self.table
        fresh = np.array(self.fresh_of, dtype=np.float64)
        players = len(self.player_of)
        if len(self.sums) < players:
            self.sums = np.concatenate([self.sums, np.zeros((players - len(self.sums), 7))])
        column = np.full(len(self.column_of), -1, dtype=np.int64)  # a bet's column of ev
        column[[self.column_of[b] for b in bets]] = np.arange(len(bets))
        chosen = np.array(sets, dtype=np.int64)
        counts = set_start[chosen + 1] - set_start[chosen]
        at_stake = np.empty(int(counts.sum()))
        _kernels.kernels.tally_stakes(ev, shoe_ends, np.array(rows, dtype=np.int64),
                                   chosen, set_start, player, bet, amount, first, fresh, column, self.sums,
                                   at_stake)
        kinds, first_at = np.unique(chosen, return_index=True)  # each set's first and last round in the batch
        last_at = len(chosen) - 1 - np.unique(chosen[::-1], return_index=True)[1]
        for s, i, j in zip(kinds.tolist(), first_at.tolist(), last_at.tolist(), strict=True):
            for p in self.set_players[s]:
                if self.first[p] is None or rounds[i] < self.first[p]:
                    self.first[p] = rounds[i]
                if self.last[p] is None or rounds[j] > self.last[p]:
                    self.last[p] = rounds[j]
        room = [p for p in range(players) if self.room[p] > 0]
        if room:  # each stake's place in the table, its player, and the points of the players with room
            place = np.repeat(set_start[chosen] - np.cumsum(counts) + counts, counts) + np.arange(len(at_stake))
            whose = player[place]
            order = np.argsort(whose, kind="stable")
            bounds = np.searchsorted(whose[order], np.arange(players + 1))
            for p in room:
                mine = order[bounds[p]:bounds[p + 1]][:self.room[p]]
                if len(mine):
                    self.points[p].append((at_stake[mine], amount[place[mine]]))
                    self.room[p] -= len(mine)

    def finish(self) -> dict[Staker, Tally]:
        try:
            self._close_shoe()
            if self.pending:
                self._submit()
            while self.batches:
                self._tally(self.batches.popleft())
        finally:
            self.close()
        out = {}
        for player, p in self.player_of.items():
            rounds, bets, units, ev_units, base_units, excess, square = self.sums[p].tolist()
            first, last = self.first[p], self.last[p]
            out[player] = Tally(int(rounds), int(bets), units, ev_units, base_units, excess, square,
                                 last - first + 1 if first is not None and last is not None else 0,
                                 points=self.points[p])
        return out
