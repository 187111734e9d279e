"""A log's records checked at the core's speed: each line compared, byte for byte, with the
line its replay writes (``verify``'s fast pass).

``verify_log`` checks every record by reading it strictly and replaying it (``verify``'s
``_Verifier``): some thousands of records a second. Once a record of a dealt game (a seed or
a shoe state) has passed every one of those checks at a shoe's first round, the rest of the
game is fixed by its bit generator: each round's cards, the shoe's state and every field
derived from them. ``FastReplay`` deals the shoes ahead in the core (``deal_chunk``, shoe by
shoe, keeping each shuffle's state), settles each slip for a whole shoe at once
(``settle_batch``), and writes, for each line, the line the replay writes (``json_line``) and
its canonical bytes (``canonical_json``) from templates made once by those very functions:
the record is accepted when its line is that line, byte for byte, its hash the hash of those
bytes, its ``prev`` the last record's hash (and its HMAC the key's).

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

import hashlib
import hmac as _hmac
import re
from collections.abc import Callable, Mapping
from operator import itemgetter
from typing import Any, NamedTuple

import numpy as np

from . import _impl
from ._canonical import canonical_json
from ._settlement_plan import plan_for
from ._spec import most_burned
from ._table import table_params
from .cards import Card
from .dealing import Game
from .dealing._game import check_bets, make_record, sorted_slip
from .dealing._procedure import Deal
from .hands import evaluate
from .ranking import tables_for
from .records import RoundRecord, bit_generator_from_state, loads_record, stakes_of, state_json
from .records._reader import read_stakes
from .records._record import hand_json, json_line, stakes_text, winner
from .records._values import MONEY_KINDS
from .rules import RuleSet
from .settlement import TableSession

__all__ = ["FastReplay", "Seen", "positioned_game"]

_HEX64 = re.compile(rb"[0-9a-f]{64}")
_NO_CARD = 255
_FIELDS = ("round", "shoe", "round_in_shoe", "cut_card", "last_of_shoe", "head_card", "burned", "banker", "hands",
           "winners", "money", "bets", "results", "carried", "shoe_state", "prev")
# the fields a record's own slip and chain fix, in the order of a line and of the canonical bytes
_ROUND = ("round", "shoe", "round_in_shoe", "cut_card", "last_of_shoe", "head_card", "burned", "banker", "hands",
          "winners", "shoe_state")  # the fields a round's deal fixes, as _shoe writes them
_LINE_OWN = ("money", "bets", "results", "carried", "prev", "hash")
_CANONICAL_OWN = ("bets", "carried", "money", "prev", "results")
_CARDS = [Card(c) for c in range(52)]
_CARD_JSON = [b'"%s"' % str(c).encode() for c in _CARDS]


_MOST_KEPT = 1 << 16  # slips and settlements kept (a log of more goes on, slower)
_Slip = tuple[dict[str, Any], tuple[str, ...], bytes]  # the slip, its bets' names, its canonical bytes
_Settled = tuple[bytes, bytes, bytes, bytes, bytes, bytes, Mapping[str, Any], Any]


class _Cards(NamedTuple):
    cards: tuple[Card, ...]


class Seen(NamedTuple):
    """A record accepted by the fast pass, as much of it as ``sanggong.detection`` reads
    (the fields of a ``RoundRecord`` of the same names)."""

    round: int
    shoe: int
    round_in_shoe: int
    bets: Mapping[str, Any]
    carried: Mapping[str, Any]
    banker: _Cards
    hands: dict[int, _Cards]
    burned: tuple[Card, ...]


def _segments(text: bytes, fields: tuple[str, ...]) -> list[tuple[bytes, str]] | None:
    """``text`` cut at each field's sentinel (each once): [(the text before it, the field)],
    the text after the last field last (with the field ``""``)."""
    places = []
    for name in fields:
        sentinel = f'"~~{name}~~"'.encode()
        if text.count(sentinel) != 1:
            return None
        places.append((text.index(sentinel), len(sentinel), name))
    out, at = [], 0
    for start, size, name in sorted(places):
        out.append((text[at:start], name))
        at = start + size
    out.append((text[at:], ""))
    return out


def _round_format(segments: list[tuple[bytes, str]], own: tuple[str, ...]) -> tuple[bytes, list[str]]:
    """A segments' text as a format of formats, and the order of its round's fields:
    ``format % values`` (the round's fields in that order, free of ``%``) is a bytes
    format of the ``own`` fields (``%s``, in their order)."""
    parts, order = [], []
    for text, name in segments:
        parts.append(text.replace(b"%", b"%%%%"))
        if name:
            parts.append(b"%%s" if name in own else b"%s")
            if name not in own:
                order.append(name)
    return b"".join(parts), order


def _both(value: Any) -> tuple[bytes, bytes]:
    """A JSON value as a line writes it and as its canonical bytes hold it."""
    return json_line(value).encode("utf-8"), canonical_json(value)


def positioned_game(rules: RuleSet, state: Mapping[str, Any], seed: int | None, shoe: int, rounds_done: int,
                    round_: int) -> Game:
    """A game whose shoe ``shoe`` was shuffled from ``state`` and has dealt ``rounds_done``
    rounds, the game ``round_`` rounds: what a ``Replayer`` continuing a log holds there."""
    game = Game(rules, rng=bit_generator_from_state(state), recall=0)
    game.seed = seed
    dealer = game._shoe
    dealer.number = shoe - 1  # the first deal shuffles: shoe `shoe`
    for _ in range(rounds_done):
        dealer.skip()
    game.round = round_
    return game


class FastReplay:
    """The fast pass over a dealt game's log, from a record that passed every check at its
    shoe's first round (see the module's doc).

    ``check(line)`` accepts the next line (True) or leaves it to the full checks (False,
    nothing changed); after they accept one, ``follow(record)`` goes on from it.
    """

    def __init__(self, rules: RuleSet, record: RoundRecord, key: bytes | None) -> None:
        assert record.round_in_shoe == 1 and record.shoe_state is not None
        self.rules = rules
        self.key = key
        self.signed = record.hmac is not None
        self.seed = record.seed
        self.params = table_params(rules).array()
        self.hands_n = rules.hands
        self.width = most_burned(table_params(rules))
        self.kernels = _impl.kernels
        body = record.to_dict()
        line_fields = _FIELDS + ("hash",) + (("hmac",) if self.signed else ())
        for name in line_fields:
            body[name] = f"~~{name}~~"
        body["void"], body["reshuffled"] = False, 0
        line = _segments(json_line(body).encode("utf-8"), line_fields)
        canonical = _segments(canonical_json({k: v for k, v in body.items() if k not in ("hash", "hmac")}), _FIELDS)
        self.ok = line is not None and canonical is not None and \
            [n for _, n in line if n in _LINE_OWN + ("hmac",)] == list(_LINE_OWN + line_fields[len(_FIELDS) + 1:]) \
            and [n for _, n in canonical if n in _CANONICAL_OWN] == list(_CANONICAL_OWN)
        self.line_format, line_order = _round_format(line or [], _LINE_OWN + ("hmac",))
        self.canonical_format, canonical_order = _round_format(canonical or [], _CANONICAL_OWN)
        self.line_order = itemgetter(*[_ROUND.index(name) for name in line_order])
        self.canonical_order = itemgetter(*[_ROUND.index(name) for name in canonical_order])
        self.hand_text: list[bytes | None] = [None] * 52 ** 3  # by c0 * 2704 + c1 * 52 + c2
        self.known = np.zeros(52 ** 3, np.bool_)
        self.hand_class = np.zeros(52 ** 3, np.uint8)
        self.hand_rank = np.zeros(52 ** 3, np.uint16)
        self.hand_pp = np.zeros(52 ** 3, np.uint8)
        self.tails: dict[tuple[int, int], bytes] = {}
        positions = range(1, self.hands_n)
        self.hands_line = b"{%s}" % b",".join(b'"%d":%%s' % p for p in positions)
        self.hands_canonical = b"{%s}" % b",".join(b'"%d":%%s' % p for p in sorted(positions, key=str))
        self.order = sorted(range(len(positions)), key=lambda p: str(p + 1))  # "10" before "2" (canonical)
        self.powers = 3 ** np.arange(len(positions), dtype=np.int64)
        self.winners_text: dict[int, tuple[bytes, bytes]] = {}
        self.state_formats: dict[str, Any] = {}
        self.tables = tables_for(rules.ranking).kernel
        self.word = {d: b'"%s"' % winner(d, 0).encode() for d in (-1, 0, 1)}  # by the sign of rank - banker's
        self.slips: dict[tuple[bytes, bytes], _Slip | None] = {}
        self.results: dict[tuple[bytes, bytes, bytes], _Settled] = {}
        self.follows: dict[Any, bool] = {}
        self.shoe_rounds: list[Any] = []
        self.shoe_number = self.first_round = 0
        self.accepted = 0  # lines accepted here
        self.follow(record)

    # --- the shoes, dealt ahead ------------------------------------------------------------

    def _deal(self, bit_generator: Any, rounds: int) -> tuple[np.ndarray, ...]:
        hands = np.empty((rounds, self.hands_n, 3), np.uint8)
        burned = np.empty((rounds, self.width), np.uint8)
        arrays = (hands, burned, np.empty(rounds, np.uint8), np.empty(rounds, np.uint8), np.empty(rounds, np.int64),
                  np.empty(rounds, np.uint16), np.empty(rounds, np.uint8), np.empty(rounds, np.uint16))
        self.kernels.deal_chunk(bit_generator, self.params, *arrays)
        return arrays

    def _hands(self, keys: np.ndarray) -> None:
        """Keep the JSON text of the hands of cards ``keys`` (``c0 * 2704 + c1 * 52 + c2``: as
        a line and as canonical bytes, the same) and their class, rank and Pair Plus
        category (the kernels' batch evaluation), the label and category written by
        ``hand_json`` once for each class and category."""
        kernels, tables = self.kernels, self.tables
        cards = np.stack([keys // 2704, keys // 52 % 52, keys % 52], axis=1).astype(np.uint8)
        ranks: np.ndarray[Any, np.dtype[np.uint8 | np.uint16]] = np.empty(
            len(keys), np.uint16 if tables.wide else np.uint8)
        pps = np.empty(len(keys), np.uint8)
        kernels.evaluate_batch(tables, cards, ranks, pps)
        classes = [kernels.class3(tables, a, b, c) for a, b, c in cards.tolist()]
        self.hand_class[keys], self.hand_rank[keys], self.hand_pp[keys] = classes, ranks, pps
        tails, text = self.tails, self.hand_text
        values = zip(classes, ranks.tolist(), pps.tolist(), strict=True)
        for key, (a, b, c), value in zip(keys.tolist(), cards.tolist(), values, strict=True):
            head = b'{"cards":[%s,%s,%s]' % (_CARD_JSON[a], _CARD_JSON[b], _CARD_JSON[c])
            tail = tails.get((value[0], value[2]))
            if tail is None:
                hand = evaluate([_CARDS[a], _CARDS[b], _CARDS[c]], self.rules)
                line, canonical = _both(hand_json(hand))
                if line != canonical or not line.startswith(head) or b"%" in line or \
                        (hand.hand_class, hand.rank, int(hand.pair_plus)) != value:  # pragma: no cover - never
                    raise ValueError("a hand written otherwise than the fast pass writes it")
                tail = tails[(value[0], value[2])] = line[len(head):]
            text[key] = head + tail
        self.known[keys] = True

    def _shoe(self, state: dict[str, Any], number: int, bit_generator: Any, first_round: int) -> None:
        """Deal shoe ``number`` (from round ``first_round``) from ``bit_generator`` (at the
        state it is shuffled from, ``state``), leaving the generator where the next shoe is
        shuffled, and write each round's line and canonical bytes but for the fields of its
        slip and chain (``_LINE_OWN``, ``_CANONICAL_OWN``)."""
        probe = type(bit_generator)()
        probe.state = bit_generator.state
        most = self.rules.decks * 52 // (3 * self.hands_n) + 2  # more rounds than a shoe can hold
        ends = np.flatnonzero(self._deal(probe, most)[6])
        if not len(ends):  # pragma: no cover - every shoe ends within `most` rounds
            raise RuntimeError("a shoe dealt without end")
        hands, burned, counts, heads, _, in_shoe, last, cut = self._deal(bit_generator, int(ends[0]) + 1)
        width = self.hands_n
        wide = hands.astype(np.int32)
        keys = wide[:, :, 0] * 2704 + wide[:, :, 1] * 52 + wide[:, :, 2]
        flat = keys.ravel()
        missing = flat[~self.known[flat]]
        if len(missing):
            self._hands(np.unique(missing))
        table = self.hand_text
        texts = [table[k] for k in flat.tolist()]
        self.classes = self.hand_class[keys]
        self.ranks = self.hand_rank[keys]
        self.pps = self.hand_pp[keys]
        signs = np.sign(self.ranks[:, 1:].astype(np.int32) - self.ranks[:, :1]) + 1  # 0 lose, 1 tie, 2 win
        winners = (signs * self.powers).sum(axis=1).tolist()
        shoe = b"%d" % number
        state_line, state_canonical = self._state_texts(state)
        line_format, canonical_format = self.line_format, self.canonical_format
        line_order, canonical_order = self.line_order, self.canonical_order
        hands_line, hands_canonical, winners_text = self.hands_line, self.hands_canonical, self.winners_text
        rounds = []
        for i, (in_shoe_i, last_i, cut_i, head_i, burn_i, burn_n, won) in enumerate(zip(
                in_shoe.tolist(), last.tolist(), cut.tolist(), heads.tolist(), burned.tolist(), counts.tolist(),
                winners, strict=True)):
            row = texts[i * width:(i + 1) * width]
            won_text = winners_text.get(won) or self._winners(won)
            burn = burn_i[:burn_n]
            fields = (
                b"%d" % (first_round + i), shoe, b"%d" % in_shoe_i, b"%d" % cut_i if cut_i else b"null",
                b"true" if last_i else b"false", b"null" if head_i == _NO_CARD else _CARD_JSON[head_i],
                b"[%s]" % b",".join([_CARD_JSON[c] for c in burn]), row[0], hands_line % tuple(row[1:]),
                won_text[0], state_line,
            )
            line = line_format % line_order(fields)
            hands_text = fields[8] if width < 11 else hands_canonical % tuple([row[1 + p] for p in self.order])
            fields = (*fields[:8], hands_text, won_text[1], state_canonical)
            rounds.append((line, canonical_format % canonical_order(fields), keys[i], in_shoe_i, burn))
        self.shoe_rounds = rounds
        self.first_round = first_round
        self.shoe_number = number
        self.shoe_state = state
        self.next = 0
        self.codes: dict[tuple[str, ...], list[bytes]] = {}

    def _state_texts(self, state: dict[str, Any]) -> tuple[bytes, bytes]:
        """``_both(state)``, a shoe's state written by the two writers once for each shape
        of state (each number is text: ``state_json``), its digits written in after."""
        leaves: list[Any] = []

        def shape(value: Any) -> Any:
            if isinstance(value, dict):
                return {k: shape(v) for k, v in value.items()}
            if isinstance(value, list):
                return [shape(v) for v in value]
            leaves.append(value)
            return f"~~{len(leaves) - 1}~~"

        skeleton = shape(state)
        if not all(isinstance(v, str) and v.isascii() and v.isdigit() for v in leaves[1:]):
            return _both(state)  # (never: a state's numbers are decimal text)
        key = json_line(skeleton) + leaves[0]
        found = self.state_formats.get(key)
        if found is None:
            names = tuple(str(i) for i in range(1, len(leaves)))
            formats = []
            for text in _both({**skeleton, "bit_generator": leaves[0]}):
                form, order = _round_format(_segments(text, names) or [], ())
                places = [int(n) - 1 for n in order]
                formats.append((form.replace(b"%%", b"%"), lambda v, places=places: tuple([v[i] for i in places])))
            found = self.state_formats[key] = tuple(formats)
        values = [b'"%s"' % v.encode() for v in leaves[1:]]
        (line, line_order), (canonical, canonical_order) = found
        return line % line_order(values), canonical % canonical_order(values)

    def _winners(self, won: int) -> tuple[bytes, bytes]:
        """The ``winners`` text of a round (as a line, as canonical bytes) by its signs in base 3."""
        words, left = [], won
        for _ in range(self.hands_n - 1):
            words.append(self.word[left % 3 - 1])
            left //= 3
        found = self.winners_text[won] = (self.hands_line % tuple(words),
                                          self.hands_canonical % tuple([words[p] for p in self.order]))
        return found

    def _shoe_codes(self, bets: tuple[str, ...]) -> list[bytes]:
        found = self.codes.get(bets)
        if found is None:
            out = np.empty((len(self.shoe_rounds), len(bets)), np.uint8)
            if bets:
                self.kernels.settle_batch(plan_for(self.rules, bets), self.classes, self.ranks, self.pps, out)
            found = self.codes[bets] = [bytes(row) for row in out]
        return found

    def _advance(self) -> None:
        """The shoe ended with the last record: deal the next one."""
        state = state_json(self.bit_generator.state)
        assert state is not None  # (made from a record's state: a generator a record names)
        self._shoe(state, self.shoe_number + 1, self.bit_generator, self.round + 1)

    # --- the records -----------------------------------------------------------------------

    def follow(self, record: RoundRecord) -> None:
        """Go on from ``record`` (which passed every check): the next line is the next round's."""
        self.round = record.round
        self.hash = record.hash
        data = record.to_dict()
        self.carried = (json_line(data["carried"]).encode("utf-8"), data["money"])
        self.carried_value: Mapping[str, Any] = record.carried
        if record.round_in_shoe == 1 and record.shoe_state is not None:  # deal its shoe (and the next) again
            self.bit_generator = bit_generator_from_state(record.shoe_state)
            self._shoe(dict(record.shoe_state), record.shoe, self.bit_generator, record.round)
        elif record.shoe != self.shoe_number or record.round_in_shoe > len(self.shoe_rounds) or \
                record.round != self.first_round + record.round_in_shoe - 1:
            self.ok = False  # (not a round of the shoe dealt here: the full checks go on alone)
        self.next = record.round_in_shoe

    def game(self) -> Game:
        """The game a ``Replayer`` would hold after the last record accepted here."""
        return positioned_game(self.rules, self.shoe_state, self.seed, self.shoe_number, self.next, self.round)

    def _slip(self, money: bytes, bets: bytes) -> _Slip | None:
        key = (money, bets)
        if key in self.slips:
            return self.slips[key]
        found: _Slip | None = None
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
                    found = (slip, tuple(sorted({bet for _, bet in stakes_of(slip)})), canonical_json(value))
        if len(self.slips) < _MOST_KEPT:
            self.slips[key] = found
        return found

    def _settled(self, slip: _Slip, key: tuple[bytes, bytes, bytes], values: np.ndarray) -> _Settled:
        found = self.results.get(key)
        if found is None:
            cards = [(_CARDS[k // 2704], _CARDS[k // 52 % 52], _CARDS[k % 52]) for k in values.tolist()]
            banker, hands = cards[0], dict(enumerate(cards[1:], start=1))
            session = TableSession(self.rules)  # as the replay settles a record's slip
            result = session.settle_slip(banker, hands, slip[0]) if slip[0] else None
            record = make_record(self.rules, Deal((), None, banker, hands), result, slip[0], round_=1, shoe=1,
                                 round_in_shoe=1, last=False, cut=None, seed=None, state=None,
                                 carried=session.carried)
            data = record.to_dict()
            found = (*_both(data["results"]), *_both(data["carried"]), *_both(data["money"]), record.carried,
                     data["money"])
            if len(self.results) < _MOST_KEPT:
                self.results[key] = found
        return found

    def check(self, line: bytes, carried_on: Callable[[Mapping[str, Any], Mapping[str, Any]], bool]) -> bool:
        """Accept ``line`` as the next record (True), or leave it to the full checks (False,
        nothing changed). ``carried_on(carried, bets)``: the stakes carried from the last
        record stay on the table in ``bets`` (the full checks' own test)."""
        if not self.ok:
            return False
        if self.next >= len(self.shoe_rounds):
            self._advance()
        i = line.find(b',"money":"')
        j = line.find(b'","bets":', i)
        e = line.find(b',"results":', j)
        if i < 0 or j < 0 or e < 0:
            return False
        money, bets = line[i + 10:j], line[j + 9:e]
        slip = self.slips.get((money, bets)) or self._slip(money, bets)
        if slip is None:
            return False
        if self.carried[0] != b"{}":
            follows = (self.carried, money, bets)
            ok = self.follows.get(follows)
            if ok is None:
                ok = carried_on(self.carried_value, slip[0])
                if len(self.follows) < _MOST_KEPT:
                    self.follows[follows] = ok
            if not ok:
                return False
        k = self.next
        line_format, canonical_format, values, _, _ = self.shoe_rounds[k]
        codes = self.codes.get(slip[1]) or self._shoe_codes(slip[1])
        settled = self.results.get((money, bets, codes[k])) or self._settled(slip, (money, bets, codes[k]), values)
        prev = b'"%s"' % self.hash.encode()
        canonical = canonical_format % (slip[2], settled[3], settled[5], prev, settled[1])
        digest = hashlib.sha256(canonical).hexdigest()
        if self.signed:
            if self.key is not None:
                mac = _hmac.new(self.key, canonical, hashlib.sha256).hexdigest().encode()
            else:  # not checked without a key, but present and a hex digest (the full checks' test)
                mac = line[-66:-2]
                if not _HEX64.fullmatch(mac):
                    return False
            expected = line_format % (settled[4], bets, settled[0], settled[2], prev, b'"%s"' % digest.encode(),
                                      b'"%s"' % mac)
        else:
            expected = line_format % (settled[4], bets, settled[0], settled[2], prev, b'"%s"' % digest.encode())
        if expected != line:
            return False
        self.accepted += 1
        self.round += 1
        self.hash = digest
        self.carried = (settled[2], settled[7])
        self.carried_value = settled[6]
        self.bets_value = slip[0]
        self.next = k + 1
        return True

    def record(self) -> Seen:
        """The last record accepted here, as much of it as ``sanggong.detection`` reads."""
        _, _, keys, in_shoe, burned = self.shoe_rounds[self.next - 1]
        hands = [_Cards((_CARDS[k // 2704], _CARDS[k // 52 % 52], _CARDS[k % 52])) for k in keys.tolist()]
        return Seen(self.round, self.shoe_number, in_shoe, self.bets_value, self.carried_value, hands[0],
                    dict(enumerate(hands[1:], start=1)), tuple([_CARDS[c] for c in burned]))
