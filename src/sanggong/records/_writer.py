"""A round's record written from the core's template (``LineTemplate``, ``render_rounds``):
the one place for a record's text (the record, its line and its canonical bytes) that a
``Game`` writes with and ``verify``'s fast pass (``sanggong.verify._fastlog``) checks with.

The template is made once by the record writers themselves (``json_line``,
``canonical_json``, on a record whose fields are sentinels): a round's line and canonical
bytes as their pieces between the fields its slip and chain fill. A shoe dealt ahead by
the core (``GameShoe`` of a game that owns its generator) is rendered in one call
(``render_rounds``); a round's line and canonical bytes are then its pieces with its slip's
texts and its chain's between them. A slip's settlement is made once for each slip and
outcome codes of its bets (a bet's result depends on the hands only through its outcome
code), by the per-record code (``TableSession.settle_slip``, ``make_record``), and its texts
kept.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, NamedTuple

from .. import _kernels
from .. import _logline as slots
from .._canonical import canonical_json
from .._settlement_plan import plan_for
from ..cards import Card
from ..hands import PairPlus, evaluate, trusted_hand
from ..ranking import tables_for
from ..rules import RuleSet
from ..settlement import Money, Settlement, TableSession, carried_stakes
from ._record import RoundRecord, hand_json, json_line, result_entry, rules_digest, stakes_of, winner
from ._seal import record_amounts
from ._values import ZERO_HASH

__all__ = [
    "CANONICAL_OWN",
    "CARDS",
    "CARD_JSON",
    "FIELDS",
    "LINE_OWN",
    "Deal",
    "RecordTemplate",
    "RoundWriter",
    "both",
    "make_record",
    "segments",
    "shoe_codes",
    "slip_key",
    "sorted_slip",
    "state_texts",
]

FIELDS = ("round", "shoe", "round_in_shoe", "cut_card", "last_of_shoe", "head_card", "burned", "banker", "hands",
          "winners", "money", "bets", "results", "carried", "shoe_state", "prev")
# the fields a record's own slip and chain fix, in the order of a line and of the canonical bytes
LINE_OWN = ("money", "bets", "results", "carried", "prev", "hash")
CANONICAL_OWN = ("bets", "carried", "money", "prev", "results")
CARDS = [Card(c) for c in range(52)]
CARD_JSON = [b'"%s"' % str(c).encode() for c in CARDS]
_PAIR_PLUS = {int(p): p for p in PairPlus}
_MOST_KEPT = 4096  # slips kept (a game of more goes on, reading the others anew)
_MOST_SETTLED = 4096  # settlements kept, while at least one round in three finds its own kept (a slip of many
# bets meets ever new outcomes: each is settled anew, as a record is, and none is kept)


# --- a round's record -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards of one round as they were assigned: burned cards (the head card
    included, when it is burned), the head card, the banker's hand and each position's
    (what a round's record is written from: ``make_record``)."""

    burned: tuple[Card, ...]
    head_card: Card | None
    banker: tuple[Card, Card, Card]
    hands: Mapping[int, tuple[Card, Card, Card]]


def sorted_slip(slip: Mapping[str, Any]) -> dict[str, Any]:
    """A slip (or carried stakes) in the order of its names, a player's bets too."""
    return {k: sorted_slip(v) if isinstance(v, Mapping) else v for k, v in sorted(slip.items())}


def make_record(
    rules: RuleSet, deal: Deal | Sequence[Card], result: Settlement | None, bets: Mapping[str, Money], *,
    round_: int, shoe: int, round_in_shoe: int, last: bool, cut: int | None, seed: int | None,
    state: Mapping[str, Any] | None, carried: Mapping[str, Money], prev: str = ZERO_HASH,
    key: bytes | None = None, reshuffled: int = 0,
) -> RoundRecord:
    """A round's record, bets and results in the order of their names (as the canonical
    form sorts the bets), chained to ``prev`` and MACed under ``key``. ``deal`` is the
    round's assigned cards, or for a void round the cards that came out before it was
    abandoned."""
    results = sorted((result_entry(r) for r in result.results), key=lambda r: (str(r["bet"]), r["player"] or "")) \
        if result else []
    void = not isinstance(deal, Deal)
    record = RoundRecord(
        rules=rules.name,
        rules_digest=rules_digest(rules),
        round=round_,
        shoe=shoe,
        round_in_shoe=round_in_shoe,
        burned=tuple(deal) if not isinstance(deal, Deal) else deal.burned,
        head_card=None if not isinstance(deal, Deal) else deal.head_card,
        ranking=rules.ranking,
        banker=None if not isinstance(deal, Deal) else evaluate(deal.banker, rules),
        hands={} if not isinstance(deal, Deal) else {p: evaluate(c, rules) for p, c in deal.hands.items()},
        bets=sorted_slip(bets),
        results=tuple(results),
        carried=sorted_slip(carried),
        last_of_shoe=last,
        cut_card=cut or None,
        seed=seed,
        shoe_state=state,
        prev=prev,
        void=void,
        reshuffled=reshuffled,
    )
    if key is None:
        return record
    return record.with_hmac(key)


def segments(text: bytes, fields: tuple[str, ...]) -> list[tuple[bytes, str]] | None:
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


def _template(pieces: list[tuple[bytes, str]], own: tuple[str, ...], hands: int, *,
              canonical: bool) -> tuple[tuple[bytes, int], ...]:
    """A segments' text as a template of ``render_rounds`` (``_logline``'s slots): the
    fields of ``own`` holes, a round's others its slots (the hands and the winners each
    a map of the positions, in the order of a line or of the canonical bytes)."""
    fixed = {"round": slots.ROUND, "round_in_shoe": slots.IN_SHOE, "cut_card": slots.CUT,
             "last_of_shoe": slots.LAST, "head_card": slots.HEAD, "burned": slots.BURNED, "banker": slots.HAND,
             "shoe": slots.CONST, "shoe_state": slots.CONST + (2 if canonical else 1)}
    positions = sorted(range(1, hands), key=str) if canonical else list(range(1, hands))
    ops: list[tuple[bytes, int]] = []
    text = b""
    for literal, name in pieces:
        text += literal
        if not name:
            break
        if name in own:
            ops.append((text, slots.HOLE))
            text = b""
        elif name in ("hands", "winners"):
            base = slots.HAND if name == "hands" else slots.WIN
            for k, p in enumerate(positions):
                ops.append((text + (b"{" if k == 0 else b",") + b'"%d":' % p, base + p))
                text = b""
            text += b"}"
        else:
            ops.append((text, fixed[name]))
            text = b""
    ops.append((text, slots.END))
    return tuple(ops)


def both(value: Any) -> tuple[bytes, bytes]:
    """A JSON value as a line writes it and as its canonical bytes hold it."""
    return json_line(value).encode("utf-8"), canonical_json(value)


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


def state_texts(state: dict[str, Any], formats: dict[str, Any]) -> tuple[bytes, bytes]:
    """``both(state)``, a shoe's state written by the two writers once for each shape
    of state (each number is text: ``state_json``), its digits written in after
    (``formats``: the formats made, by shape)."""
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
        return both(state)  # (never: a state's numbers are decimal text)
    key = json_line(skeleton) + leaves[0]
    found = formats.get(key)
    if found is None:
        names = tuple(str(i) for i in range(1, len(leaves)))
        made = []
        for text in both({**skeleton, "bit_generator": leaves[0]}):
            form, order = _round_format(segments(text, names) or [], ())
            places = [int(n) - 1 for n in order]
            made.append((form.replace(b"%%", b"%"), lambda v, places=places: tuple([v[i] for i in places])))
        found = formats[key] = tuple(made)
    values = [b'"%s"' % v.encode() for v in leaves[1:]]
    (line, line_order), (canonical, canonical_order) = found
    return line % line_order(values), canonical % canonical_order(values)


class RecordTemplate:
    """The template of a game's round records (``LineTemplate``), made by the record
    writers from ``body`` (a record's ``to_dict()``: its rules, seed and whether it is
    signed fix the rest), and the texts of its hands, made as they are met (``tail``).
    ``ok``: the writers' text was cut as the core writes it (else nothing is written
    or checked with it)."""

    def __init__(self, rules: RuleSet, body: dict[str, Any], signed: bool) -> None:
        self.rules = rules
        self.hands_n = rules.hands
        body = dict(body)
        line_fields = FIELDS + ("hash",) + (("hmac",) if signed else ())
        for name in line_fields:
            body[name] = f"~~{name}~~"
        body["void"], body["reshuffled"] = False, 0
        line = segments(json_line(body).encode("utf-8"), line_fields)
        canonical = segments(canonical_json({k: v for k, v in body.items() if k not in ("hash", "hmac")}), FIELDS)
        self.ok = line is not None and canonical is not None and \
            [n for _, n in line if n in LINE_OWN + ("hmac",)] == list(LINE_OWN + line_fields[len(FIELDS) + 1:]) \
            and [n for _, n in canonical if n in CANONICAL_OWN] == list(CANONICAL_OWN)
        tables = tables_for(rules.ranking)
        self.tails: list[bytes | None] = [None] * (tables.n_classes * 8)  # by class * 8 + category
        self.words = words = [b'"%s"' % winner(d, 0).encode() for d in (-1, 0, 1)]  # a hand that loses, ties, wins
        self.outputs: tuple[Any, ...] = ((), (), ())  # render's arrays, made for the longest shoe rendered
        self.template = _kernels.kernels.LineTemplate(
            _template(line or [], LINE_OWN + ("hmac",), self.hands_n, canonical=False),
            _template(canonical or [], CANONICAL_OWN, self.hands_n, canonical=True), self.hands_n, 3, words,
            CARD_JSON, *tables.by_hand())

    def tail(self, cards: list[int]) -> None:
        """Keep the text after the cards of a hand of these cards' class and category (its
        label and category, as ``hand_json`` writes them)."""
        a, b, c = cards
        head = b'{"cards":[%s,%s,%s]' % (CARD_JSON[a], CARD_JSON[b], CARD_JSON[c])
        hand = evaluate([CARDS[a], CARDS[b], CARDS[c]], self.rules)
        line, canonical = both(hand_json(hand))
        if line != canonical or not line.startswith(head):  # pragma: no cover - never
            raise ValueError("a hand written otherwise than the fast pass writes it")
        self.tails[hand.hand_class * 8 + int(hand.pair_plus)] = line[len(head):]

    def render(self, consts: tuple[bytes, ...], dealt: tuple[Any, ...], first_round: int,
               out: list[bytes]) -> tuple[Any, Any, Any]:
        """Render a shoe's rounds (``deal_chunk``'s arrays, ``_kernels.deal_arrays``) onto
        ``out``; its hands' classes, ranks and categories (``_kernels.zeros``'s arrays, the
        template's own: the next shoe's render writes them again)."""
        hands, burned, counts, heads, _, in_shoe, last, cut = dealt
        rounds = len(hands)
        if len(self.outputs[0]) < rounds:
            size = max(rounds, 2 * len(self.outputs[0]))
            self.outputs = (_kernels.zeros((size, self.hands_n), "B"), _kernels.zeros((size, self.hands_n), "H"),
                            _kernels.zeros((size, self.hands_n), "B"))
        classes, ranks, pps = (a[:rounds] for a in self.outputs)
        while True:
            missing = _kernels.kernels.render_rounds(self.template, consts, hands, burned, counts, heads, in_shoe, last,
                                                  cut, first_round, self.tails, classes, ranks, pps, out)
            if missing < 0:
                return classes, ranks, pps
            k = missing // self.hands_n
            self.tail(hands[k:k + 1].tolist()[0][missing % self.hands_n])


def shoe_codes(rules: RuleSet, plans: dict[tuple[str, ...], Any], bets: tuple[str, ...], classes: Any, ranks: Any,
               pps: Any, rounds: int) -> list[bytes]:
    """The outcome codes of ``bets`` (their names, sorted) in each of a shoe's ``rounds``
    rounds, from its hands' classes, ranks and categories (``RecordTemplate.render``'s): a
    round's as bytes, a bet's code a byte. ``plans`` keeps the settlement plans made."""
    if not bets:
        return [b""] * rounds
    plan = plans.get(bets)
    if plan is None:
        plan = plans[bets] = plan_for(rules, bets)
    out = _kernels.zeros((rounds, len(bets)), "B")
    bad = _kernels.kernels.settle_batch(plan, classes, ranks, pps, out)
    if bad >= 0:  # (its codes left unwritten: never a round's outcomes)
        raise ValueError(f"round {bad} of the shoe: hand values out of range (classes {classes[bad:bad + 1].tolist()[0]}, "
                         f"pair plus {pps[bad:bad + 1].tolist()[0]})")
    blob, width = out.tobytes(), len(bets)
    return [blob[i:i + width] for i in range(0, len(blob), width)]


def slip_key(bets: object) -> tuple[Any, ...] | None:
    """A slip as a key that tells apart every slip ``TableSession.slip`` could read
    otherwise (names and order, each stake's kind and exact text); None for a slip of any
    other types (it is then read anew)."""
    if type(bets) is not dict:
        return None
    out: list[Any] = []
    for name, value in bets.items():
        if type(name) is not str:
            return None
        if type(value) is dict:
            inner: list[Any] = []
            for bet, stake in value.items():
                if type(bet) is not str or (key := _stake_key(bet, stake)) is None:
                    return None
                inner.append(key)
            out.append((name, tuple(inner)))
        elif (key := _stake_key(name, value)) is not None:
            out.append(key)
        else:
            return None
    return tuple(out)


def _stake_key(name: str, stake: object) -> tuple[Any, ...] | None:
    """One stake of a slip as ``slip_key`` keys it: an int as itself, a Decimal or Fraction
    by its kind and exact text (``Decimal("1.0")`` and ``Decimal("1")`` stay apart), None
    for any other type."""
    kind = type(stake)
    if kind is int:
        return (name, stake)
    if kind is Decimal or kind is Fraction:
        return (name, kind, str(stake))
    return None


class _Settled(NamedTuple):
    """A slip settled on one set of its bets' outcome codes, as a record holds it."""

    results: tuple[dict[str, Any], ...]
    carried: dict[str, Any]  # the record's (sorted_slip)
    session: dict[tuple[str | None, str], Any]  # what the session carries on (TableSession's own)
    amounts: list[tuple[int, int, int]]  # record_amounts
    carried_key: tuple[Any, ...]  # slip_key of the stakes carried on
    money: tuple[bytes, bytes]
    bets: tuple[bytes, bytes]
    result_texts: tuple[bytes, bytes]
    carried_texts: tuple[bytes, bytes]


def _copy(slip: Mapping[str, Any]) -> dict[str, Any]:
    return {k: dict(v) if type(v) is dict else v for k, v in slip.items()}


class RoundWriter:
    """A game's records written from its template, a shoe dealt ahead at a time (see the
    module's doc). Not thread-safe: its game's, under the game's lock."""

    def __init__(self, rules: RuleSet, seed: int | None, key: bytes | None) -> None:
        self.rules = rules
        self.key = key
        self.seed = seed
        body = RoundRecord(rules=rules.name, rules_digest=rules_digest(rules), round=1, shoe=1, round_in_shoe=1,
                           burned=(), head_card=None, banker=None, hands={}, bets={}, results=(), carried={},
                           last_of_shoe=False, seed=seed, ranking=rules.ranking,
                           hmac=None if key is None else "0" * 64).to_dict()
        self.template = RecordTemplate(rules, body, key is not None)
        self.ok = self.template.ok
        self.after_mac = len(self.template.template.ops_line[-1][0])  # the line's text after its HMAC
        self.tables = tables_for(rules.ranking)
        self.ranking = rules.ranking
        self.digest = rules_digest(rules)
        self.shoe_id: Any = None
        self.rendered: list[bytes] = []
        self.write_line = _kernels.kernels.write_line
        self.slips: dict[tuple[Any, ...], tuple[dict[str, Any], dict[str, Any], tuple[str, ...]]] = {}
        self.settled: dict[tuple[Any, ...], _Settled] = {}
        self.plans: dict[tuple[str, ...], Any] = {}
        self.codes: dict[tuple[str, ...], list[bytes]] = {}
        self.carried_key: tuple[Any, ...] = ()
        self.state_formats: dict[str, Any] = {}
        self.hits = self.misses = 0  # settlements found kept, and made

    def _render(self, shoe: Any, first_round: int) -> None:
        """Render the shoe ``shoe`` dealt ahead (its rounds from ``first_round``)."""
        state = shoe.state
        line_state, canonical_state = state_texts(state, self.state_formats) if state is not None else both(state)
        out: list[bytes] = []
        self.classes, self.ranks, self.pps = self.template.render(
            (b"%d" % shoe.number, line_state, canonical_state), shoe.dealt, first_round, out)
        self.rendered = out
        self.hands = shoe.dealt[0].tolist()
        self.rows: list[tuple[Any, ...]] | None = None  # (made for the shoe's first record: _record)
        self.codes = {}
        self.shoe_id = (shoe.dealt_id, first_round)

    def _shoe_codes(self, bets: tuple[str, ...]) -> list[bytes]:
        found = self.codes.get(bets)
        if found is None:
            found = self.codes[bets] = shoe_codes(self.rules, self.plans, bets, self.classes, self.ranks, self.pps,
                                                  len(self.rendered))
        return found

    def slip(self, session: TableSession, bets: Any) -> tuple[tuple[Any, ...] | None, dict[str, Any],
                                                                dict[str, Any], tuple[str, ...]]:
        """The round's whole slip (``session.slip``, read once for each slip and stakes
        carried into it): its key, the slip, the slip in the order of its names and its
        bets' names."""
        key = slip_key(bets)
        full = None if key is None else (self.carried_key, key)
        found = self.slips.get(full) if full is not None else None
        if found is None:
            slip = session.slip(bets)  # checked (raises for a bad slip: nothing kept)
            found = (slip, sorted_slip(slip), tuple(sorted({bet for _, bet in stakes_of(slip)})))
            if full is not None and len(self.slips) < _MOST_KEPT:
                self.slips[full] = found
        return full, *found

    def _settle(self, slip: dict[str, Any], k: int) -> _Settled:
        cards = [(CARDS[a], CARDS[b], CARDS[c]) for a, b, c in self.hands[k]]
        banker, hands = cards[0], dict(enumerate(cards[1:], start=1))
        session = TableSession(self.rules)  # as a game settles the slip
        result = session.settle_slip(banker, hands, slip) if slip else None
        record = make_record(self.rules, Deal((), None, banker, hands), result, slip, round_=1, shoe=1,
                             round_in_shoe=1, last=False, cut=None, seed=None, state=None, carried=session.carried)
        data = record.to_dict()
        stakes = carried_stakes(session)
        carried_key = slip_key(_copy(session.carried)) if stakes else ()
        return _Settled(record.results, _copy(record.carried), dict(stakes), record_amounts(record),
                        carried_key if carried_key is not None else (object(),),  # (never: stakes are money)
                        both(data["money"]), both(data["bets"]), both(data["results"]), both(data["carried"]))

    def write(self, shoe: Any, round_: int, found: tuple[Any, ...], prev: str,
              record: bool) -> tuple[str, RoundRecord | None, _Settled, str]:
        """Write the round just dealt from ``shoe`` (the game's round ``round_``), of the
        slip ``found`` (``slip``): its line, its record (when ``record``), its settlement
        and its hash. Changes nothing (the game keeps what it returns)."""
        k = shoe.rounds - 1
        if self.shoe_id != (shoe.dealt_id, round_ - k):
            self._render(shoe, round_ - k)
        full, slip, ordered, names = found
        shoe_codes = self.codes.get(names)
        codes = (shoe_codes if shoe_codes is not None else self._shoe_codes(names))[k]
        settled = self.settled.get((full, codes)) if full is not None else None
        if settled is None:
            settled = self._settle(slip, k)
            self.misses += 1
            if full is not None and len(self.settled) < _MOST_SETTLED and \
                    (self.misses <= 16 or 2 * self.hits >= self.misses):  # (kept while they are met again)
                self.settled[(full, codes)] = settled
        else:
            self.hits += 1
        quoted = b'"%s"' % prev.encode()
        line_bytes, _, digest = self.write_line(
            self.rendered[k], (settled.bets[1], settled.carried_texts[1], settled.money[1], quoted,
                               settled.result_texts[1]),
            (settled.money[0], settled.bets[0], settled.result_texts[0], settled.carried_texts[0], quoted), self.key)
        line = line_bytes.decode("utf-8")
        made = None
        if record:
            mac = None if self.key is None else line[-self.after_mac - 65:-self.after_mac - 1]  # (its quoted HMAC's)
            made = self._record(shoe, k, round_, ordered, settled, prev, mac)
            made.__dict__["hash"] = digest  # (its canonical bytes are made again if asked for: a record kept holds
            # its line, as little memory as they took: RECORD_BYTES)
            made.__dict__["_line"] = line
        return line, made, settled, digest

    def _record(self, shoe: Any, k: int, round_: int, slip: dict[str, Any], settled: _Settled, prev: str,
                mac: str | None) -> RoundRecord:
        if self.rows is None:  # each round's fields but its hands, as lists
            _, burned_codes, counts, heads, _, in_shoes, lasts, cuts = shoe.dealt
            self.rows = list(zip(
                self.classes.tolist(), self.ranks.tolist(), self.pps.tolist(),
                [tuple([CARDS[c] for c in row[:n]]) for row, n in zip(burned_codes.tolist(), counts.tolist(),
                                                                        strict=True)],
                heads.tolist(), in_shoes.tolist(), lasts.tolist(), cuts.tolist(), strict=True))
        classes, ranks, pps, burned, head, in_shoe, last, cut_card = self.rows[k]
        ranking, trusted, pair_plus = self.ranking, trusted_hand, _PAIR_PLUS
        values = [trusted((CARDS[a], CARDS[b], CARDS[c]), ranks[p], pair_plus[pps[p]], ranking, classes[p])
                  for p, (a, b, c) in enumerate(self.hands[k])]
        return RoundRecord(
            rules=self.rules.name, rules_digest=self.digest, round=round_, shoe=shoe.number,
            round_in_shoe=in_shoe, burned=burned,
            head_card=None if head == slots.NO_CARD else CARDS[head], ranking=ranking, banker=values[0],
            hands=dict(enumerate(values[1:], start=1)), bets=_copy(slip),
            results=tuple([dict(r) for r in settled.results]), carried=_copy(settled.carried),
            last_of_shoe=bool(last), cut_card=cut_card or None, seed=self.seed, shoe_state=shoe.state, prev=prev,
            hmac=mac)
