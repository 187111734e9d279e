"""A log's records checked at the core's speed: each line compared, byte for byte, with the
line its replay writes (``verify``'s fast pass).

``verify_log`` checks every record by reading it strictly and replaying it (``verify``'s
``_Verifier``): some thousands of records a second. Once a record of a dealt game (a seed or
a shoe state) has passed every one of those checks at a shoe's first round, the rest of the
game is fixed by its bit generator: each round's cards, the shoe's state and every field
derived from them. ``FastReplay`` deals the shoes ahead in the core (``deal_chunk``, shoe by
shoe, keeping each shuffle's state), settles each slip for a whole shoe at once
(``settle_batch``), and writes each of the shoe's rounds in the core (``render_rounds``) from
templates made once by the record writers themselves (``json_line``, ``canonical_json``, on a
record whose fields are sentinels): a round's line and canonical bytes as their pieces between
the fields its slip and chain fill. A line is accepted (``check_line``, in the core) when it is
those pieces with the slip's and the chain's texts between them, byte for byte, its hash the
hash of the canonical bytes so made, its ``prev`` the last record's hash (and its HMAC the
key's). ``FastReplay.run`` takes the lines while it accepts them.

It only ever accepts: a line that is not exactly the replay's (a changed record, a record
written otherwise, anything it has not seen) goes to the full checks, which name what is
wrong, or accept it (the fast pass then goes on from it). So the verdicts, and every
message, are the full checks'; a line accepted here is one they accept (it is the line a
``Game`` writes for that round, chained, and what a ``Game`` writes they read back).

The parts that depend on a slip (``money``, ``bets``, ``results``, ``carried``) come from the
replay's own code: a slip's text is read by the strict reader once (``read_stakes``) and checked
(``check_bets``), and for each slip and outcome codes of its bets (a bet's result depends on
the hands only through its outcome code, ``settlement.settle``) the record is made once by
``make_record``, as the replay makes it, and its texts kept.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from .. import _kernels
from .._canonical import canonical_json
from .._spec import most_burned
from ..dealing import Game, check_bets, positioned_game
from ..records import (
    CARDS,
    MONEY_KINDS,
    Deal,
    RecordTemplate,
    RoundRecord,
    Totals,
    bit_generator_from_state,
    both,
    json_line,
    loads_record,
    make_record,
    read_stakes,
    record_amounts,
    shoe_codes,
    sorted_slip,
    stakes_of,
    stakes_text,
    state_json,
    state_texts,
)
from ..rules import RuleSet
from ..settlement import TableSession
from ._stream import CheckedRound, CheckedRun

__all__ = ["FastReplay"]

_NO_CARD = 255


_MOST_KEPT = 1 << 16  # slips and settlements kept (a log of more goes on, slower)
_Slip = tuple[dict[str, Any], tuple[str, ...], bytes, bytes]  # the slip, its bets' names, its canonical bytes,
# its line's text
_Settled = tuple[bytes, bytes, bytes, bytes, bytes, bytes, Mapping[str, Any], Any, list[Any], list[int]]
# a settlement's results, carried and money texts (a line's and the canonical bytes'), its carried stakes and money
# kind, its money as ``records.Totals`` adds it (``record_amounts``), and [the lines accepted with it, not yet added]
_MOST_LOOSE = 4096  # settlements not kept (beyond _MOST_KEPT) whose lines' money is yet to be added




class FastReplay:
    """The fast pass over a dealt game's log, from a record that passed every check at its
    shoe's first round (see the module's doc).

    ``run(lines)`` accepts the next lines while they are the replay's, ``check(line)`` the
    next line (True) or leaves it to the full checks (False, nothing changed); after they
    accept one, ``follow(record)`` goes on from it. Not thread-safe: one log reader's own
    (``verify_log`` makes one per call).
    """

    def __init__(self, rules: RuleSet, record: RoundRecord, key: bytes | None, totals: Totals | None = None) -> None:
        assert record.round_in_shoe == 1 and record.shoe_state is not None
        self.rules = rules
        self.key = key
        self.signed = record.hmac is not None
        self.seed = record.seed
        self.params: Any = rules.table_params.buffer()
        self.hands_n = rules.hands
        self.width = most_burned(rules.table_params)
        self.kernels = _kernels.kernels
        self.made = made = RecordTemplate(rules, record.to_dict(), self.signed)  # (the template a game writes with)
        self.ok = made.ok
        self.template, self.tails, self.words = made.template, made.tails, made.words
        self.probe: Any = None
        self.probe_arrays: tuple[Any, ...] | None = None
        self.shoe_arrays: tuple[Any, ...] = ((),)  # the shoe's dealt arrays (_deal), made for the longest shoe
        self.state_formats: dict[str, Any] = {}
        self.raw_formats: dict[Any, tuple[bytes, bytes, list[int], list[int]]] = {}
        self.slips: dict[bytes, _Slip | None] = {}
        self.results: dict[tuple[bytes, bytes], _Settled] = {}
        self.follows: dict[Any, bool] = {}
        self.plans: dict[tuple[str, ...], Any] = {}  # a settlement plan by its bets (kept as the slips are)
        self.shoe_rounds: list[bytes] = []  # the shoe's rounds, rendered (render_rounds)
        self.shoe_number = self.first_round = 0
        self.mac = 0 if not self.signed else 1 if key is not None else 2
        self.accepted = 0  # lines accepted here
        self.totals = totals if totals is not None else Totals()  # the money of the lines accepted, when folded
        self.loose: list[_Settled] = []  # settlements not kept, whose lines are counted but not yet added
        self.follow(record)

    # --- the shoes, dealt ahead ------------------------------------------------------------

    def _deal(self, bit_generator: Any, rounds: int, arrays: tuple[Any, ...] | None = None) -> tuple[Any, ...]:
        """Deal ``rounds`` rounds into the front of ``self.shoe_arrays`` (each shoe's in
        turn: what a reader keeps, it copies), or all of ``arrays``."""
        if arrays is None:
            if len(self.shoe_arrays[0]) < rounds:
                self.shoe_arrays = _kernels.deal_arrays(max(rounds, 2 * len(self.shoe_arrays[0])), self.hands_n,
                                                        self.width)
            arrays = tuple(a[:rounds] for a in self.shoe_arrays)
        self.kernels.deal_chunk(bit_generator, self.params, *arrays)
        return arrays

    def _shoe(self, state: Any, texts: tuple[bytes, bytes], number: int, bit_generator: Any,
              first_round: int) -> None:
        """Deal shoe ``number`` (from round ``first_round``) from ``bit_generator`` (at the
        state it is shuffled from: ``state``, a record's ``shoe_state`` or the generator's
        own, ``texts`` its text in a line and in the canonical bytes), leaving the generator where the next shoe is
        shuffled, and write each round's line and canonical bytes but for the fields of its
        slip and chain (``records.LINE_OWN``, ``records.CANONICAL_OWN``): their pieces between them."""
        if type(self.probe) is not type(bit_generator):
            self.probe = type(bit_generator)()
        probe = self.probe
        probe.state = bit_generator.state
        if self.probe_arrays is None:
            self.probe_arrays = _kernels.deal_arrays(self.rules.decks * 52 // (3 * self.hands_n) + 2, self.hands_n,
                                                     self.width)  # (more rounds than a shoe holds)
        ends = self._deal(probe, 0, self.probe_arrays)[6].tolist()
        if 1 not in ends:  # pragma: no cover - every shoe ends within `most` rounds
            raise RuntimeError("a shoe dealt without end")
        rounds = ends.index(1) + 1
        dealt = self._deal(bit_generator, rounds)
        hands, burned, counts, heads, _, in_shoe, _, _ = dealt
        consts = (b"%d" % number, *texts)
        self.shoe_rounds = []
        self.classes, self.ranks, self.pps = self.made.render(consts, dealt, first_round, self.shoe_rounds)
        self.dealt = (hands, burned, counts, in_shoe)
        self.dealt_arrays: tuple[Any, Any, Any, Any] | None = None  # (NumPy's views of them, for the runs seen: _dealt_arrays)
        self.hand_codes: list[list[list[int]]] = hands.tolist()  # (read as the slips are settled: _settled)
        self.heads = heads  # (the shoe's head cards: the template's tests render the shoe again from these)
        self.first_round = first_round
        self.shoe_number = number
        self.shoe_state = state
        self.next = 0
        self.codes: dict[tuple[str, ...], list[bytes]] = {}

    def _state_texts(self, state: dict[str, Any]) -> tuple[bytes, bytes]:
        """``both(state)``, made by the writer's formats (``records.state_texts``)."""
        return state_texts(state, self.state_formats)

    def _shoe_codes(self, bets: tuple[str, ...]) -> list[bytes]:
        found = self.codes.get(bets)
        if found is None:
            found = self.codes[bets] = shoe_codes(self.rules, self.plans, bets, self.classes, self.ranks, self.pps,
                                                  len(self.shoe_rounds))
        return found

    def _advance(self) -> None:
        """The shoe ended with the last record: deal the next one."""
        raw = self.bit_generator.state
        shape = tuple((k, tuple(v) if type(v) is dict else type(v)) for k, v in raw.items())  # (numbers at depth 2)
        found = self.raw_formats.get(shape)
        if found is not None:  # its numbers written into the texts the writers made for this shape
            values = [b'"%d"' % v for k, v in raw.items() if type(v) is int] + \
                [b'"%d"' % w for v in raw.values() if type(v) is dict for w in v.values()]
            texts = (found[0] % tuple([values[i] for i in found[2]]), found[1] % tuple([values[i] for i in found[3]]))
            self._shoe(raw, texts, self.shoe_number + 1, self.bit_generator, self.round + 1)
            return
        state = state_json(raw)
        assert state is not None  # (made from a record's state: a generator a record names)
        texts = self._state_texts(state)
        self._shoe(state, texts, self.shoe_number + 1, self.bit_generator, self.round + 1)
        self._raw_format(raw, shape, texts)

    def _raw_format(self, raw: Mapping[str, Any], shape: Any, texts: tuple[bytes, bytes]) -> None:
        """Keep the formats of a generator's state of this shape (a name, and integers at
        depth 1 or 2, as numpy's generators but MT19937 hold it), made by the writers from
        a state of numbers no text holds by chance, if writing ``raw``'s numbers into them
        makes its ``texts``."""
        if raw.get("bit_generator") is None or any(t is not str and t is not int and type(t) is not tuple
                                                    for _, t in shape) or \
                any(type(w) is not int for v in raw.values() if type(v) is dict for w in v.values()):
            return
        marks = iter(range(10 ** 30 + 1, 10 ** 30 + 1000))
        marked = {k: str(next(marks)) if type(v) is int else
                  {str(a): str(next(marks)) for a in v} if type(v) is dict else v for k, v in raw.items()}
        leaves = [v for v in marked.values() if type(v) is str][1:] + \
            [w for v in marked.values() if type(v) is dict for w in v.values()]
        formats = []
        for text in self._state_texts(marked):
            places = []
            form = text.replace(b"%", b"%%")
            for i, leaf in enumerate(leaves):
                quoted = b'"%s"' % leaf.encode()
                if form.count(quoted) != 1:
                    return
                places.append((form.index(quoted), i, quoted))
            for _, _, quoted in places:
                form = form.replace(quoted, b"%s")
            formats.append((form, [i for _, i, _ in sorted(places)]))
        found = (formats[0][0], formats[1][0], formats[0][1], formats[1][1])
        values = [b'"%d"' % v for v in raw.values() if type(v) is int] + \
            [b'"%d"' % w for v in raw.values() if type(v) is dict for w in v.values()]
        if (found[0] % tuple([values[i] for i in found[2]]), found[1] % tuple([values[i] for i in found[3]])) == texts:
            self.raw_formats[shape] = found

    # --- the records -----------------------------------------------------------------------

    def follow(self, record: RoundRecord) -> None:
        """Go on from ``record`` (which passed every check): the next line is the next round's."""
        self.round = record.round
        self.prev = b'"%s"' % record.hash.encode()
        data = record.to_dict()
        self.carried = (json_line(data["carried"]).encode("utf-8"), data["money"])
        self.carried_value: Mapping[str, Any] = record.carried
        self.bets_value: Mapping[str, Any] = record.bets
        if record.round_in_shoe == 1 and record.shoe_state is not None:  # deal its shoe (and the next) again
            self.bit_generator = bit_generator_from_state(record.shoe_state)
            state = dict(record.shoe_state)
            self._shoe(state, self._state_texts(state), record.shoe, self.bit_generator, record.round)
        elif record.shoe != self.shoe_number or record.round_in_shoe > len(self.shoe_rounds) or \
                record.round != self.first_round + record.round_in_shoe - 1:
            self.ok = False  # (not a round of the shoe dealt here: the full checks go on alone)
        self.next = record.round_in_shoe

    def game(self) -> Game:
        """The game a ``Replayer`` would hold after the last record accepted here."""
        state = self.shoe_state
        if "state" in state and any(type(v) is int for v in state["state"].values()):  # a generator's own
            state = state_json(state)
        return positioned_game(self.rules, state, self.seed, self.shoe_number, self.next, self.round)

    def _slip(self, key: bytes) -> _Slip | None:
        """The slip of a line's text from its money's kind to its slip's end (None: the full
        checks read it)."""
        if key in self.slips:
            return self.slips[key]
        found: _Slip | None = None
        money, _, bets = key.partition(b'","bets":')
        kind = money.decode("utf-8", "replace")
        if kind in MONEY_KINDS:
            try:
                slip = read_stakes(loads_record(bets), "bets", kind)
                check_bets(self.rules, slip)
            except (ValueError, TypeError):
                slip = None
            if slip is not None:
                value = stakes_text(sorted_slip(slip))
                if json_line(value).encode("utf-8") == bets:  # as the replay writes it (else: the full checks)
                    found = (slip, tuple(sorted({bet for _, bet in stakes_of(slip)})), canonical_json(value), bets)
        if len(self.slips) < _MOST_KEPT:
            self.slips[key] = found
        return found

    def _settled(self, slip: _Slip, key: tuple[bytes, bytes], k: int) -> _Settled:
        found = self.results.get(key)
        if found is None:
            cards = [(CARDS[a], CARDS[b], CARDS[c]) for a, b, c in self.hand_codes[k]]
            banker, hands = cards[0], dict(enumerate(cards[1:], start=1))
            session = TableSession(self.rules)  # as the replay settles a record's slip
            result = session.settle_slip(banker, hands, slip[0]) if slip[0] else None
            record = make_record(self.rules, Deal((), None, banker, hands), result, slip[0], round_=1, shoe=1,
                                 round_in_shoe=1, last=False, cut=None, seed=None, state=None,
                                 carried=session.carried)
            data = record.to_dict()
            found = (*both(data["results"]), *both(data["carried"]), *both(data["money"]), record.carried,
                     data["money"], record_amounts(record), [0])
            if len(self.results) < _MOST_KEPT:
                self.results[key] = found
            else:
                if len(self.loose) >= _MOST_LOOSE:
                    self._fold(self.loose)
                    self.loose = []
                self.loose.append(found)
        return found

    def _fold(self, settled: Any) -> None:
        for found in settled:
            count = found[9]
            if count[0]:
                self.totals.add(found[8], count[0])
                count[0] = 0

    def fold(self) -> None:
        """Add the money of the lines accepted here to ``totals`` (``records.Totals``):
        each settlement's, as many times as lines of it were accepted (counted as they
        are, at the cost of one addition a line)."""
        self._fold(self.results.values())
        self._fold(self.loose)
        self.loose = []

    def check(self, line: bytes, carried_on: Callable[[Mapping[str, Any], Mapping[str, Any]], bool]) -> bool:
        """Accept ``line`` as the next record (True), or leave it to the full checks (False,
        nothing changed). ``carried_on(carried, bets)``: the stakes carried from the last
        record stay on the table in ``bets`` (the full checks' own test)."""
        return self.run(iter(((0, line),)), carried_on)[2] is None

    def run(self, lines: Iterator[tuple[int, Any]], carried_on: Callable[[Mapping[str, Any], Mapping[str, Any]], bool],
            tick: Callable[[int], None] | None = None, seen: list[CheckedRun] | None = None,
            most: int = -1) -> tuple[int, Any, tuple[int, Any] | None]:
        """Accept the lines of ``lines`` (numbered) while each is the next record: returns
        how many it accepted, the last of them (None if none) and the first line it did not
        accept (its number and text; None at the end of ``lines``, or after ``most`` lines
        accepted), which it leaves to the full checks (nothing changed by it, whatever it
        is). ``tick(number)`` is called after every 4096 lines accepted; each line accepted
        is added to ``seen``: the lines of one shoe as one run (a ``CheckedRun``, whose rounds
        are the ``CheckedRound`` that ``record()`` would give)."""
        accepted, last, rest = 0, None, None
        if not self.ok:
            return 0, None, next(lines, None)
        kernels_check, shoe_rounds, k, n_rounds = self.kernels.check_line, self.shoe_rounds, self.next, \
            len(self.shoe_rounds)
        slips, follows, results, codes_of = self.slips, self.follows, self.results, self.codes
        prev, carried, carried_value, bets_value = self.prev, self.carried, self.carried_value, self.bets_value
        mac, key = self.mac, self.key
        run_bets: list[Mapping[str, Any]] | None = None  # the run of records seen (see CheckedRun)
        run_carried: list[Mapping[str, Any]] = []
        try:
            for number, line in lines:
                rest = (number, line)
                if type(line) is not bytes:
                    break
                if k >= n_rounds:
                    self.round += accepted  # (where the next shoe's rounds start; put back below)
                    try:
                        self._advance()
                    finally:
                        self.round -= accepted
                    shoe_rounds, k, n_rounds, codes_of = self.shoe_rounds, 0, len(self.shoe_rounds), self.codes
                    run_bets = None
                i = line.find(b',"money":"')
                e = line.find(b',"results":', i)
                if i < 0 or e < 0:
                    break
                text = line[i + 10:e]  # the money's kind and the slip (a line's text), which fix the slip
                slip = slips.get(text) or self._slip(text)
                if slip is None:
                    break
                if carried[0] != b"{}":
                    ok = follows.get((carried, text))
                    if ok is None:
                        ok = carried_on(carried_value, slip[0])
                        if len(follows) < _MOST_KEPT:
                            follows[(carried, text)] = ok
                    if not ok:
                        break
                codes = codes_of.get(slip[1]) or self._shoe_codes(slip[1])
                settled = results.get((text, codes[k])) or self._settled(slip, (text, codes[k]), k)
                digest = kernels_check(line, shoe_rounds[k], (slip[2], settled[3], settled[5], prev, settled[1]),
                                       (settled[4], slip[3], settled[0], settled[2], prev), mac, key)
                if digest is None:
                    break
                prev = digest
                settled[9][0] += 1  # (its money, added to the totals when they are read: fold)
                carried, carried_value, bets_value = (settled[2], settled[7]), settled[6], slip[0]
                if seen is not None:
                    if run_bets is None:
                        run_bets, run_carried = [], []
                        seen.append(CheckedRun(self.round + accepted + 1, self.shoe_number, *self._dealt_arrays(), k,
                                               run_bets, run_carried))
                    run_bets.append(slip[0])
                    run_carried.append(settled[6])
                k += 1
                accepted += 1
                last = line
                rest = None
                if tick is not None and not accepted & 4095:
                    tick(number)
                if accepted == most:
                    break
        except Exception:  # noqa: BLE001 - (cannot happen) the full checks take the line
            pass
        finally:
            if accepted:
                self.accepted += accepted
                self.round += accepted
                self.next = k
                self.prev, self.carried, self.carried_value, self.bets_value = prev, carried, carried_value, bets_value
        return accepted, last, rest

    @property
    def hash(self) -> str:
        """The last record's hash."""
        return self.prev[1:-1].decode()

    def record(self) -> CheckedRound:
        """The last record accepted here, as a log's checked stream holds it (``LogReader.checked``)."""
        k = self.next - 1
        hands_of, burned, counts, in_shoe = self.dealt
        return CheckedRound(self.round, self.shoe_number, int(in_shoe[k]), self.bets_value, self.carried_value,
                            hands_of[k:k + 1].tobytes(), burned[k:k + 1].tobytes()[:int(counts[k])])

    def _dealt_arrays(self) -> tuple[Any, Any, Any, Any]:
        """The shoe's dealt arrays as a ``CheckedRun`` holds them (NumPy's: its readers
        index them so), copied once a shoe (the next shoe is dealt into the same buffers)."""
        if self.dealt_arrays is None:
            import numpy as np

            hands, burned, counts, in_shoe = (np.array(a) for a in self.dealt)
            self.dealt_arrays = (hands, burned, counts, in_shoe)
        return self.dealt_arrays
