"""Shuffling and dealing as the rules prescribe, games with records and replays, and
settlement of the cards a physical shoe actually dealt.

Randomness comes from a numpy ``BitGenerator``: pass ``seed`` (an int or a
``SeedSequence``; None draws fresh OS entropy, which is recorded so that the game can be
replayed) or ``rng`` (a ``Generator`` or ``BitGenerator`` of your own). Cards are drawn by
a lazy Fisher-Yates shuffle, so every order stays equally likely and a round costs only
the cards it takes; its unbiased bounded integers come several from each 64-bit word
(Lemire's method, batched: see ``sanggong._reference.draw``). The compiled core and the
pure-Python reference deal the same cards, bit for bit, for the bit generators whose raw
output is their 64-bit output: PCG64 (the default), PCG64DXSM, Philox and SFC64 (MT19937's
raw output is 32-bit: the compiled core works with it, but the reference does not
reproduce it).

**Records.** Every round a ``Game`` or an ``ObservedTable`` plays comes back as a
``RoundRecord``: its cards, hands, bets and results, where it came from (seed, shoe, the
bit generator's state at the shuffle) and the digest of the rules it was played under.
Records of one game form a hash chain (each carries the SHA-256 of the one before), and
with an operator ``key`` each carries an HMAC: see ``sanggong.records`` for the exact
canonical form and for ``verify_log``, which checks a whole JSON Lines log.
``RoundRecord.from_dict``/``from_json`` read a record strictly (every field checked and
every derived field, such as a hand's label, recomputed from the cards), and
``Game.replay_record`` deals a record's round again from its own evidence and compares
every field.

**Real money.** A cryptographically secure generator plugs in as any ``BitGenerator``:
e.g. ``randomgen``'s ``AESCounter`` or ``ChaCha`` (``Game(rules, rng=ChaCha(key=...))``),
or a ``numpy.random.BitGenerator`` you write around your own certified source. sanggong
only calls its ``next_uint64`` (and ``random_raw`` in the reference). Records name and
replay only the bit generators of ``REPLAYABLE`` (a record never makes sanggong call
anything else); the records of other generators carry no shoe state, and are checked
like observed rounds (chain, HMAC, continuity, the shoe's cards and the settlement).

>>> from sanggong import ONLINE
>>> game = Game(ONLINE, seed=7)
>>> record = game.play({"win:1": 100, "pair_plus:banker": 10})
>>> record.round, record.head_card is not None, len(record.hands)
(1, True, 3)
>>> Game.replay(ONLINE, seed=7, round=1, bets=record.bets) == record
True
>>> Game.replay_record(ONLINE, RoundRecord.from_json(record.to_json())) == record
True
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import hmac as _hmac
import json
import re
from collections import Counter, deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any, Final, NoReturn

import numpy as np

from . import _impl
from . import _reference as _ref
from .cards import Card, CardLike, parse_card
from .hands import HandValue, evaluate
from .limits import (
    MAX_BURN,
    MAX_DECIMAL_EXPONENT,
    MAX_DECKS,
    MAX_DENOMINATOR,
    MAX_ODDS,
    MAX_POSITIONS,
    MAX_BETS,
    MAX_RECALL,
    MAX_RECORD_BYTES,
    MAX_REPLAY_ROUNDS,
    MAX_ROUND,
    MAX_SEED,
    MAX_STAKE,
    MAX_TEXT_NUMBER,
)
from .rules import RuleSet, parse_bet
from .settlement import Money, Settlement, TableSession, check_slip

__all__ = [
    "REPLAYABLE",
    "ZERO_HASH",
    "Deal",
    "Game",
    "ObservedTable",
    "RoundRecord",
    "assign",
    "bit_generator_from_state",
    "dealing_sequence",
    "first_hand",
    "loads_record",
]

ZERO_HASH: Final = "0" * 64
"""The ``prev`` of a game's first record."""

REPLAYABLE: Final = ("PCG64", "PCG64DXSM", "Philox", "SFC64", "MT19937")
"""The numpy bit generators whose state a record carries and a replay restores."""


# --- dealing procedures -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards of one round as they were assigned: burned cards (the head card
    included, when it is burned), the head card, the banker's hand and each position's."""

    burned: tuple[Card, ...]
    head_card: Card | None
    banker: tuple[Card, Card, Card]
    hands: Mapping[int, tuple[Card, Card, Card]]


def first_hand(head_card: Card) -> int:
    """The hand the online head card sends the first three cards to: 0 the banker, i
    player i. A, 5, 9, K start at the banker; 2, 6, 10 at player 1; 3, 7, J at player 2;
    4, 8, Q at player 3 (counting counter-clockwise from the banker)."""
    return (int(head_card.rank) - 1) % 4


def round_length(rules: RuleSet, burn: int) -> int:
    """How many cards a round takes out of the box or shoe after ``burn`` burned cards."""
    return burn + (1 if rules.head_card and rules.head_card_burned else 0) + 3 * rules.hands


def _order(rules: RuleSet, head: Card | None) -> list[int]:
    """The hands in the order they are dealt: Macau position 1 first and the banker last;
    online from the hand the head card names, round the cycle banker, 1, 2, 3."""
    if rules.head_card:
        assert head is not None
        first = first_hand(head)
        return [(first + k) % rules.hands for k in range(rules.hands)]
    return [*range(1, rules.positions + 1), 0]


def assign(rules: RuleSet, cards: Sequence[Card], burn: int) -> Deal:
    """Assign a round's cards, in the order they came out, to the hands.

    Macau: ``burn`` cards are burned, then the cards go from position 1 clockwise, the
    banker last, one card at a time round the table (or three at a time). Online: the head
    card is turned up (and burned, by default); the hand it names gets the next three
    cards, and so on round the cycle banker, player 1, 2, 3.
    """
    if len(cards) != round_length(rules, burn):
        raise ValueError(f"a round takes {round_length(rules, burn)} cards here, got {len(cards)}")
    burned = list(cards[:burn])
    rest = list(cards[burn:])
    head = None
    if rules.head_card:
        head = rest[0]
        if rules.head_card_burned:
            burned.append(rest.pop(0))
        # else the head card stays: it is the first card of the first hand
    order = _order(rules, head)
    dealt: dict[int, list[Card]] = {h: [] for h in order}
    if rules.head_card or not rules.deal_one_at_a_time:
        for k, h in enumerate(order):
            dealt[h] = rest[3 * k : 3 * k + 3]
    else:
        for k, card in enumerate(rest):
            dealt[order[k % len(order)]].append(card)
    hands = {h: (c[0], c[1], c[2]) for h, c in sorted(dealt.items()) if h}
    b = dealt[0]
    return Deal(tuple(burned), head, (b[0], b[1], b[2]), hands)


def dealing_sequence(
    rules: RuleSet, burned: Sequence[Card], head_card: Card | None,
    banker: tuple[Card, Card, Card], hands: Mapping[int, tuple[Card, Card, Card]],
) -> list[Card]:
    """The inverse of ``assign``: a round's cards in the order they came out of the box
    or shoe. Raises ValueError (naming the field) where the cards cannot have been dealt
    so: hands of positions other than 1..positions, a head card where the rules have none
    or none where they have one, or a burned head card that is not the last card burned."""
    if sorted(hands) != list(range(1, rules.positions + 1)):
        raise ValueError(f"field 'hands': expected the hands of positions 1..{rules.positions}, "
                         f"got positions {sorted(hands)}")
    by_hand = {0: banker, **hands}
    pre = list(burned)
    if rules.head_card:
        if head_card is None:
            raise ValueError("field 'head_card': these rules turn up a head card, the record has none")
        order = _order(rules, head_card)
        if rules.head_card_burned:
            if not pre or pre[-1] != head_card:
                raise ValueError("field 'burned': the burned head card must be the last card burned")
        elif by_hand[order[0]][0] != head_card:
            raise ValueError("field 'head_card': it must be the first card of the hand it names")
    else:
        if head_card is not None:
            raise ValueError("field 'head_card': these rules turn up no head card")
        order = _order(rules, None)
    if rules.head_card or not rules.deal_one_at_a_time:
        return pre + [c for h in order for c in by_hand[h]]
    return pre + [by_hand[h][k] for k in range(3) for h in order]


# --- bit generator states ----------------------------------------------------------------

_U32, _U64, _U128 = 2**32, 2**64, 2**128
# Each replayable bit generator's state as JSON: ("int", low, high) an int in
# [low, high); ("ints", n, high) a list of n ints in [0, high) (a numpy array of the
# matching dtype); a dict: exactly these keys.
_Schema = Any
_EXTRA: dict[str, _Schema] = {"has_uint32": ("int", 0, 2), "uinteger": ("int", 0, _U32)}
_STATE_SCHEMAS: dict[str, dict[str, _Schema]] = {
    "PCG64": {"state": {"state": ("int", 0, _U128), "inc": ("int", 0, _U128)}, **_EXTRA},
    "PCG64DXSM": {"state": {"state": ("int", 0, _U128), "inc": ("int", 0, _U128)}, **_EXTRA},
    "Philox": {"state": {"counter": ("ints", 4, _U64), "key": ("ints", 2, _U64)},
               "buffer": ("ints", 4, _U64), "buffer_pos": ("int", 0, 5), **_EXTRA},
    "SFC64": {"state": {"state": ("ints", 4, _U64)}, **_EXTRA},
    "MT19937": {"state": {"key": ("ints", 624, _U32), "pos": ("int", 0, 625)}},
}
assert tuple(_STATE_SCHEMAS) == REPLAYABLE


def _state_json(state: Mapping[str, Any]) -> dict[str, Any] | None:
    """A live bit generator's ``state`` as plain JSON (arrays as lists of ints), or None
    for a bit generator a record cannot name."""
    name = state.get("bit_generator")
    if name not in _STATE_SCHEMAS:
        return None

    def plain(value: Any) -> Any:
        if isinstance(value, Mapping):
            return {str(k): plain(v) for k, v in value.items()}
        if isinstance(value, np.ndarray):
            return [int(x) for x in value.tolist()]
        if isinstance(value, np.integer):
            return int(value)
        return value

    out: dict[str, Any] = plain(state)
    return out


def _check_state(value: object) -> dict[str, Any]:
    """Check a record's ``shoe_state`` against its bit generator's schema (the name on the
    allow-list, every key, type and range) and return a fresh copy."""
    if not isinstance(value, Mapping):
        raise TypeError(f"field 'shoe_state': expected an object or null, got {_show(value)}")
    name = value.get("bit_generator")
    if not isinstance(name, str) or name not in _STATE_SCHEMAS:
        raise ValueError(f"field 'shoe_state.bit_generator': {_show(name)} is not a bit generator a record "
                         f"may name ({', '.join(REPLAYABLE)})")
    schema: dict[str, _Schema] = {"bit_generator": None, **_STATE_SCHEMAS[name]}

    def check(value: object, schema: _Schema, path: str) -> Any:
        if schema is None:
            return value
        if isinstance(schema, dict):
            if not isinstance(value, Mapping):
                raise TypeError(f"field {path!r}: expected an object, got {_show(value)}")
            _check_keys(value, tuple(schema), (), path)
            return {k: check(value[k], s, f"{path}.{k}") for k, s in schema.items()}
        if schema[0] == "int":
            return _int(value, path, schema[1], schema[2] - 1)
        if not isinstance(value, list):
            raise TypeError(f"field {path!r}: expected a list of {schema[1]} ints, got {_show(value)}")
        if len(value) != schema[1]:
            raise ValueError(f"field {path!r}: expected {schema[1]} ints, got {len(value)}")
        return [_int(x, f"{path}[{i}]", 0, schema[2] - 1) for i, x in enumerate(value)]

    state: dict[str, Any] = check(value, schema, "shoe_state")
    inner = state["state"]
    if name in ("PCG64", "PCG64DXSM") and not inner["inc"] % 2:
        # numpy's seeding makes the increment odd; an even one can stall the generator
        raise ValueError("field 'shoe_state.state.inc': must be odd")
    if name == "MT19937" and not (inner["key"][0] & 0x80000000 or any(inner["key"][1:])):
        raise ValueError("field 'shoe_state.state.key': the all-zero state of MT19937 never leaves zero")
    return state


def bit_generator_from_state(state: object) -> np.random.BitGenerator:
    """A new bit generator of a record's (allow-listed, fully checked) ``shoe_state``.

    Only the classes of ``REPLAYABLE`` are ever made; the state is checked before numpy
    sees it, and a state numpy does not take exactly as given raises ValueError."""
    checked = _check_state(state)
    name = checked["bit_generator"]
    cls: type[np.random.BitGenerator] = {
        "PCG64": np.random.PCG64, "PCG64DXSM": np.random.PCG64DXSM, "Philox": np.random.Philox,
        "SFC64": np.random.SFC64, "MT19937": np.random.MT19937,
    }[name]
    bit_generator = cls(0)
    dtype = np.uint32 if name == "MT19937" else np.uint64

    def native(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: native(v) for k, v in value.items()}
        if isinstance(value, list):
            return np.array(value, dtype=dtype)
        return value

    try:
        bit_generator.state = native(checked)
    except (ValueError, TypeError, OverflowError, KeyError) as exc:  # pragma: no cover - checked above
        raise ValueError(f"field 'shoe_state': numpy refuses this state ({exc})") from None
    if _state_json(bit_generator.state) != checked:
        raise ValueError("field 'shoe_state': numpy does not take this state as given")
    return bit_generator


# --- the shoe --------------------------------------------------------------------------


class _Shoe:
    """Cards in a box or shoe, drawn by lazy Fisher-Yates from a bit generator."""

    def __init__(self, rules: RuleSet, bit_generator: np.random.BitGenerator) -> None:
        self.rules = rules
        self.bit_generator = bit_generator
        self.cards = np.zeros(52 * rules.decks, dtype=np.uint8)
        self.pos = 0
        self.cut = 0  # cards before the cut card
        self.number = 0
        self.rounds = 0  # rounds dealt from this shoe
        self.last = True  # the next round needs a shuffle
        self.state: dict[str, Any] | None = None  # as JSON; None: not a replayable generator

    def shuffle(self) -> None:
        """A fresh shoe: cards back in code order (the draws do the shuffling), the cut
        card placed uniformly in the rule set's range from the end (a shoe only)."""
        self.state = _state_json(self.bit_generator.state)
        self.cards[:] = np.arange(len(self.cards)) % 52
        self.pos = 0
        self.number += 1
        self.rounds = 0
        if not self.rules.fresh_deck_each_round:
            lo, hi = self.rules.cut_card_range
            from_end = lo + _impl.kernels.bounded(self.bit_generator, hi - lo + 1)
            self.cut = len(self.cards) - from_end
        self.last = False

    def _take(self) -> tuple[np.ndarray, int, int]:
        if self.last or self.rules.fresh_deck_each_round:
            self.shuffle()
        burn = self.rules.burn_first if self.rounds == 0 else self.rules.burn_per_round
        count = round_length(self.rules, burn)
        out = np.empty(count, dtype=np.uint8)
        _impl.kernels.draw(self.bit_generator, self.cards, self.pos, count, out)
        start, self.pos = self.pos, self.pos + count
        self.rounds += 1
        if self.rules.fresh_deck_each_round:
            self.last = True
        else:  # the cut card comes out during this round: the shoe's last
            self.last = start <= self.cut < self.pos
        return out, burn, 0 if self.rules.fresh_deck_each_round else len(self.cards) - self.cut

    def skip(self) -> None:
        """Take one round's cards without assigning them (a replay's fast-forward)."""
        self._take()

    def deal(self) -> tuple[Deal, int]:
        """Shuffle when due, then take one round's cards; return the deal and the cut
        card's place from the end (0 where there is none)."""
        out, burn, cut = self._take()
        return assign(self.rules, [Card(c) for c in out.tolist()], burn), cut


# --- records ----------------------------------------------------------------------------

_MONEY_KINDS: dict[str, type] = {"int": int, "decimal": Decimal, "fraction": Fraction}


def _money_kind(bets: Mapping[str, Money]) -> str:
    kinds = {type(v) for v in bets.values()}
    for name, kind in _MONEY_KINDS.items():
        if kinds == {kind}:
            return name
    return "int"


def _money_out(value: Money) -> int | str:
    return value if isinstance(value, int) else str(value)


def _canonical_bytes(data: Mapping[str, Any]) -> bytes:
    """The canonical bytes of a record's dict (see ``sanggong.records``): JSON of every
    field but ``hash`` and ``hmac``, keys sorted, no whitespace, UTF-8 unescaped."""
    body = {k: v for k, v in data.items() if k not in ("hash", "hmac")}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("the record holds text that is not valid Unicode (a lone surrogate)") from None


def _mac(key: bytes, canonical: bytes) -> str:
    return _hmac.new(key, canonical, hashlib.sha256).hexdigest()


@functools.lru_cache(maxsize=64)
def _rules_digest(rules: RuleSet) -> str:
    """``rules.digest()`` (SHA-256 hex of the rules' canonical JSON), cached: a record
    carries it, and a game makes one record a round."""
    return rules.digest()


def _check_key(key: object) -> bytes | None:
    if key is None:
        return None
    if not isinstance(key, bytes | bytearray):
        raise TypeError(f"key must be bytes (the operator's HMAC key) or None, not {type(key).__name__}")
    if not key:
        raise ValueError("key must not be empty")
    return bytes(key)


@dataclass(frozen=True)
class RoundRecord:
    """Everything about one round: where it came from, its cards, hands, bets and results.

    ``shoe_state`` is the bit generator's state (plain JSON) when this round's shoe (or
    deck) was shuffled and ``round_in_shoe`` the round's place in it: with them the round
    can be dealt again exactly (``Game.replay_record``). Both are None for observed
    rounds. ``rules_digest`` binds the record to the exact rules it was played under.

    ``prev`` (the SHA-256 of the game's previous record, 64 zeros for its first) and
    ``hmac`` (under the operator's key, if any) place the record in its game's log:
    ``hash`` is the SHA-256 of its canonical bytes (``sanggong.records``). Equality
    compares the round, every field but ``prev`` and ``hmac``; ``records.verify_log``
    checks those.
    """

    rules: str
    round: int
    shoe: int
    round_in_shoe: int
    burned: tuple[Card, ...]
    head_card: Card | None
    banker: HandValue
    hands: Mapping[int, HandValue]
    bets: Mapping[str, Money]
    results: tuple[dict[str, Any], ...]
    carried: Mapping[str, Money]
    last_of_shoe: bool
    cut_card: int | None = None
    seed: int | None = None
    shoe_state: Mapping[str, Any] | None = None
    rules_digest: str | None = None
    prev: str = field(default=ZERO_HASH, compare=False)
    hmac: str | None = field(default=None, compare=False)

    @property
    def winners(self) -> dict[int, str]:
        """Each position against the banker: ``"win"``, ``"tie"`` or ``"lose"``."""
        words = {1: "win", 0: "tie", -1: "lose"}
        b = self.banker.rank
        return {p: words[(h.rank > b) - (h.rank < b)] for p, h in self.hands.items()}

    def _body(self) -> dict[str, Any]:
        def hand(h: HandValue) -> dict[str, Any]:
            return {"cards": [str(c) for c in h.cards], "label": h.label, "pair_plus": h.pair_plus.label}

        return {
            "rules": self.rules,
            "rules_digest": self.rules_digest,
            "round": self.round,
            "shoe": self.shoe,
            "round_in_shoe": self.round_in_shoe,
            "seed": self.seed,
            "cut_card": self.cut_card,
            "last_of_shoe": self.last_of_shoe,
            "head_card": None if self.head_card is None else str(self.head_card),
            "burned": [str(c) for c in self.burned],
            "banker": hand(self.banker),
            "hands": {str(p): hand(h) for p, h in self.hands.items()},
            "winners": {str(p): w for p, w in self.winners.items()},
            "money": _money_kind(self.bets),
            "bets": {k: _money_out(v) for k, v in self.bets.items()},
            "results": [dict(r) for r in self.results],
            "carried": {k: _money_out(v) for k, v in self.carried.items()},
            "shoe_state": None if self.shoe_state is None else _copy_json(self.shoe_state),
            "prev": self.prev,
        }

    @functools.cached_property
    def canonical(self) -> bytes:
        """The bytes ``hash`` and ``hmac`` are taken over (``sanggong.records``)."""
        return _canonical_bytes(self._body())

    @functools.cached_property
    def hash(self) -> str:
        """SHA-256 hex of ``canonical``: the next record's ``prev``."""
        return hashlib.sha256(self.canonical).hexdigest()

    def to_dict(self) -> dict[str, Any]:
        out = self._body()
        out["hash"] = self.hash
        if self.hmac is not None:
            out["hmac"] = self.hmac
        return out

    def to_json(self) -> str:
        """One line of a JSON Lines log (no newline in it)."""
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"), allow_nan=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RoundRecord:
        """Read a record strictly.

        Every field must be present (``hmac`` is optional) and of its exact JSON type and
        range; cards are written canonically (``Th``, not ``10h``); money is parsed by the
        record's ``money`` kind; the state is checked against its bit generator's schema.
        Every field the others determine (hand labels and Pair Plus categories, winners,
        the money kind) must be what they determine, and ``hash`` must be the hash of the
        record's canonical bytes. Anything else raises TypeError (a wrong type) or
        ValueError, naming the field.
        """
        if not isinstance(data, Mapping):
            raise TypeError(f"a record is a JSON object, not {type(data).__name__}")
        _check_keys(data, _RECORD_KEYS, ("hmac",), "")
        kind_name = data["money"]
        if not isinstance(kind_name, str) or kind_name not in _MONEY_KINDS:
            raise ValueError(f"field 'money': expected 'int', 'decimal' or 'fraction', got {_show(kind_name)}")
        rules = data["rules"]
        if not isinstance(rules, str):
            raise TypeError(f"field 'rules': expected a string, got {_show(rules)}")
        if not rules or len(rules) > 200 or not rules.isprintable():
            raise ValueError(f"field 'rules': expected a rule set's name, got {_show(rules)}")
        seed = data["seed"]
        record = cls(
            rules=rules,
            rules_digest=_hex(data["rules_digest"], "rules_digest"),
            round=_int(data["round"], "round", 1, MAX_ROUND),
            shoe=_int(data["shoe"], "shoe", 1, MAX_ROUND),
            round_in_shoe=_int(data["round_in_shoe"], "round_in_shoe", 1, MAX_ROUND),
            seed=None if seed is None else _int(seed, "seed", 0, MAX_SEED),
            cut_card=None if data["cut_card"] is None else _int(data["cut_card"], "cut_card", 1, 52 * MAX_DECKS - 1),
            last_of_shoe=_bool(data["last_of_shoe"], "last_of_shoe"),
            head_card=None if data["head_card"] is None else _card(data["head_card"], "head_card"),
            burned=_cards(data["burned"], "burned", MAX_BURN + 1),
            banker=_hand(data["banker"], "banker"),
            hands=_hands(data["hands"]),
            bets=_stakes(data["bets"], "bets", kind_name),
            results=_results(data["results"], kind_name),
            carried=_stakes(data["carried"], "carried", kind_name),
            shoe_state=None if data["shoe_state"] is None else _check_state(data["shoe_state"]),
            prev=_hex(data["prev"], "prev"),
            hmac=None if "hmac" not in data else _hex(data["hmac"], "hmac"),
        )
        derived = record.to_dict()
        for name in _RECORD_KEYS:
            if name == "hash":
                continue
            path = _difference(data[name], derived[name], name)
            if path is not None:
                raise ValueError(f"field {path!r} is not what the record's other fields make it "
                                 f"(the record says {_show(_at(data, path))}, they make {_show(_at(derived, path))})")
        if not _hmac.compare_digest(_hex(data["hash"], "hash"), record.hash):
            raise ValueError("hash does not match its contents")
        return record

    @classmethod
    def from_json(cls, text: str | bytes) -> RoundRecord:
        """Read one record (one line of a log) strictly: at most ``MAX_RECORD_BYTES``
        bytes, checked before parsing; JSON without floats, NaN, duplicate keys or
        numbers of more than 80 digits; then ``from_dict``."""
        return cls.from_dict(loads_record(text))


_RECORD_KEYS = (
    "rules", "rules_digest", "round", "shoe", "round_in_shoe", "seed", "cut_card", "last_of_shoe",
    "head_card", "burned", "banker", "hands", "winners", "money", "bets", "results", "carried",
    "shoe_state", "prev", "hash",
)
_RESULT_KEYS = ("bet", "stake", "outcome", "detail", "odds", "returned", "commission", "carried", "net")
_OUTCOMES = ("win", "lose", "push", "carried")
_DETAILS = (None, "with a 6-point hand", *_ref.PAIR_PLUS_NAMES[1:])
_HEX = re.compile(r"[0-9a-f]{64}")
_DECIMAL = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:E[+-](?:0|[1-9][0-9]*))?")
_FRACTION = re.compile(r"-?(?:0|[1-9][0-9]*)(?:/[1-9][0-9]*)?")
_BET_NAME = re.compile(r"[a-z_]{1,32}(?::(?:banker|0|[1-9][0-9]?))?")
_POSITION = re.compile(r"[1-9][0-9]?")
_MAX_AMOUNT = MAX_STAKE * (MAX_ODDS + 1)  # the most a result's amount can be
_MAX_JSON_DIGITS = 80


def _show(value: object) -> str:
    """A short, safe description of a value from a record (never a huge repr)."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        return repr(value) if value.bit_length() <= 64 else f"an int of {value.bit_length()} bits"
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else repr(value[:40]) + "..."
    if isinstance(value, Mapping):
        return f"an object of {len(value)} keys"
    if isinstance(value, list | tuple):
        return f"a list of {len(value)} items"
    return f"a {type(value).__name__}"


def _fail(name: str, expected: str, value: object, error: type[Exception] = TypeError) -> NoReturn:
    raise error(f"field {name!r}: expected {expected}, got {_show(value)}")


def _check_keys(data: Mapping[Any, Any], required: Sequence[str], optional: Sequence[str], path: str) -> None:
    prefix = f"{path}." if path else ""
    unknown = [k for k in data if k not in required and k not in optional]
    if unknown:
        key = unknown[0]
        shown = repr(prefix + key) if isinstance(key, str) and len(key) <= 40 else f"{prefix}{_show(key)}"
        raise ValueError(f"field {shown}: not a field of {'a record' if not path else repr(path)}")
    for name in required:
        if name not in data:
            raise ValueError(f"field {prefix + name!r}: missing")


def _int(value: object, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        _fail(name, "an integer", value)
    if not low <= value <= high:
        top = f"2**{high.bit_length()} - 1" if high > _U64 and not high & (high + 1) else str(high)
        _fail(name, f"an integer in {low}..{top}", value, ValueError)
    return value


def _bool(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        _fail(name, "true or false", value)
    return value


def _hex(value: object, name: str) -> str:
    if not isinstance(value, str):
        _fail(name, "64 lower-case hex digits", value)
    if not _HEX.fullmatch(value):
        _fail(name, "64 lower-case hex digits", value, ValueError)
    return value


def _card(value: object, name: str) -> Card:
    if not isinstance(value, str):
        _fail(name, "a card such as 'Kh'", value)
    if len(value) != 2:
        _fail(name, "a card written as two characters, such as 'Th' or 'Kh'", value, ValueError)
    try:
        card = Card.parse(value)
    except ValueError:
        _fail(name, "a card such as 'Kh'", value, ValueError)
    if str(card) != value:
        raise ValueError(f"field {name!r}: {value!r} is not written canonically ({str(card)!r})")
    return card


def _cards(value: object, name: str, most: int) -> tuple[Card, ...]:
    if not isinstance(value, list):
        _fail(name, "a list of cards", value)
    if len(value) > most:
        _fail(name, f"at most {most} cards", value, ValueError)
    return tuple(_card(c, f"{name}[{i}]") for i, c in enumerate(value))


def _hand(value: object, name: str) -> HandValue:
    if not isinstance(value, Mapping):
        _fail(name, "a hand (an object of cards, label and pair_plus)", value)
    _check_keys(value, ("cards", "label", "pair_plus"), (), name)
    cards = _cards(value["cards"], f"{name}.cards", 3)
    if len(cards) != 3:
        _fail(f"{name}.cards", "three cards", value["cards"], ValueError)
    return evaluate(cards)  # label and pair_plus are compared with these cards' by from_dict


def _hands(value: object) -> dict[int, HandValue]:
    if not isinstance(value, Mapping):
        _fail("hands", "an object of position -> hand", value)
    if not 1 <= len(value) <= MAX_POSITIONS:
        _fail("hands", f"the hands of 1..{MAX_POSITIONS} positions", value, ValueError)
    positions = []
    for key in value:
        if not isinstance(key, str) or not _POSITION.fullmatch(key):
            raise ValueError(f"field 'hands': {_show(key)} is not a position")
        positions.append(int(key))
    if sorted(positions) != list(range(1, len(value) + 1)):
        raise ValueError(f"field 'hands': expected positions 1..{len(value)}, got {sorted(positions)}")
    return {p: _hand(value[str(p)], f"hands.{p}") for p in sorted(positions)}


def _bet_name(value: object, name: str) -> str:
    if not isinstance(value, str):
        _fail(name, "a bet name", value)
    if not _BET_NAME.fullmatch(value) or parse_bet(value).name != value:
        _fail(name, "a bet name such as 'win:1' or 'odd'", value, ValueError)
    return value


def _stake(value: object, name: str, kind: str) -> Money:
    """A stake of ``kind`` money, strictly: positive, at most ``MAX_STAKE``, a bounded
    decimal exponent, a bounded denominator; never an unbounded number."""
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            _fail(name, "an integer stake (the record's money is 'int')", value)
        return _int(value, name, 1, MAX_STAKE)
    if not isinstance(value, str):
        _fail(name, f"a stake written as a string (the record's money is {kind!r})", value)
    amount: Money
    if len(value) > MAX_TEXT_NUMBER:
        _fail(name, f"an amount of at most {MAX_TEXT_NUMBER} characters", value, ValueError)
    if kind == "decimal":
        if not _DECIMAL.fullmatch(value):
            _fail(name, "a decimal amount such as '1.05'", value, ValueError)
        amount = Decimal(value)
        exponent = amount.as_tuple().exponent
        assert isinstance(exponent, int)
        if abs(exponent) > MAX_DECIMAL_EXPONENT:
            _fail(name, f"a decimal exponent within +-{MAX_DECIMAL_EXPONENT}", value, ValueError)
    else:
        if not _FRACTION.fullmatch(value):
            _fail(name, "a fraction such as '7/2'", value, ValueError)
        amount = Fraction(value)
        if amount.denominator > MAX_DENOMINATOR:
            _fail(name, f"a denominator of at most {MAX_DENOMINATOR}", value, ValueError)
    if not 0 < amount <= MAX_STAKE:
        _fail(name, f"a positive stake of at most {MAX_STAKE}", value, ValueError)
    return amount


def _stakes(value: object, name: str, kind: str) -> dict[str, Money]:
    if not isinstance(value, Mapping):
        _fail(name, "an object of bet -> stake", value)
    if len(value) > MAX_BETS:
        _fail(name, f"at most {MAX_BETS} bets", value, ValueError)
    return {_bet_name(k, f"{name} key"): _stake(v, f"{name}.{k}", kind) for k, v in value.items()}


def _amount(value: object, name: str, kind: str) -> None:
    """A result's amount: of the record's money kind, or an exact fraction (a commission
    that leaves a part of the minor unit); bounded in size."""
    if kind == "int" and isinstance(value, int) and not isinstance(value, bool):
        _int(value, name, -_MAX_AMOUNT, _MAX_AMOUNT)
        return
    if not isinstance(value, str):
        _fail(name, "an amount", value)
    if len(value) > 2 * MAX_TEXT_NUMBER + 1:
        _fail(name, f"an amount of at most {2 * MAX_TEXT_NUMBER + 1} characters", value, ValueError)
    if _FRACTION.fullmatch(value):
        amount: Fraction | Decimal = Fraction(value)
    elif kind == "decimal" and _DECIMAL.fullmatch(value):
        amount = Decimal(value)
        exponent = amount.as_tuple().exponent
        assert isinstance(exponent, int)
        if abs(exponent) > MAX_DECIMAL_EXPONENT:
            _fail(name, f"a decimal exponent within +-{MAX_DECIMAL_EXPONENT}", value, ValueError)
    else:
        _fail(name, f"an amount of the record's money ({kind!r})", value, ValueError)
    if not -_MAX_AMOUNT <= amount <= _MAX_AMOUNT:
        _fail(name, f"an amount of at most {_MAX_AMOUNT}", value, ValueError)


def _results(value: object, kind: str) -> tuple[dict[str, Any], ...]:
    if not isinstance(value, list):
        _fail("results", "a list of bet results", value)
    if len(value) > MAX_BETS:
        _fail("results", f"at most {MAX_BETS} results", value, ValueError)
    out = []
    for i, result in enumerate(value):
        name = f"results[{i}]"
        if not isinstance(result, Mapping):
            _fail(name, "a bet result (an object)", result)
        _check_keys(result, _RESULT_KEYS, (), name)
        _bet_name(result["bet"], f"{name}.bet")
        if result["outcome"] not in _OUTCOMES or not isinstance(result["outcome"], str):
            _fail(f"{name}.outcome", f"one of {', '.join(_OUTCOMES)}", result["outcome"], ValueError)
        if not (result["detail"] is None or isinstance(result["detail"], str)) or result["detail"] not in _DETAILS:
            _fail(f"{name}.detail", "null or what won (such as 'flush')", result["detail"], ValueError)
        odds = result["odds"]
        if odds is not None:
            if not isinstance(odds, str) or len(odds) > MAX_TEXT_NUMBER or not _FRACTION.fullmatch(odds):
                _fail(f"{name}.odds", "null or odds such as '1/2'", odds, ValueError)
            if not 0 <= Fraction(odds) <= MAX_ODDS or Fraction(odds).denominator > MAX_DENOMINATOR:
                _fail(f"{name}.odds", f"odds of at most {MAX_ODDS}", odds, ValueError)
        for money_field in ("stake", "returned", "commission", "carried", "net"):
            _amount(result[money_field], f"{name}.{money_field}", kind)
        out.append({k: result[k] for k in _RESULT_KEYS})
    return tuple(out)


def _copy_json(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _copy_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_copy_json(v) for v in value]
    return value


def _difference(given: Any, derived: Any, path: str) -> str | None:
    """The path of the first place where two JSON values differ (types strictly: 1 is
    not 1.0 nor true), or None."""
    if type(given) is not type(derived):
        return path
    if isinstance(derived, dict):
        if set(given) != set(derived):
            return path
        for key in sorted(derived):
            found = _difference(given[key], derived[key], f"{path}.{key}")
            if found is not None:
                return found
        return None
    if isinstance(derived, list):
        if len(given) != len(derived):
            return path
        for i, (a, b) in enumerate(zip(given, derived, strict=True)):
            found = _difference(a, b, f"{path}[{i}]")
            if found is not None:
                return found
        return None
    return None if given == derived else path


def _at(data: Any, path: str) -> Any:
    """The value at a path ``_difference`` returned."""
    for part in re.findall(r"[^.\[\]]+|\[\d+\]", path):
        if part.startswith("["):
            data = data[int(part[1:-1])]
        else:
            data = data[part]
    return data


def _reject(what: str) -> Any:
    raise ValueError(what)


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > _MAX_JSON_DIGITS:
        raise ValueError(f"a number of more than {_MAX_JSON_DIGITS} digits")
    return int(text)


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key {_show(key)} appears twice in one object")
        out[key] = value
    return out


def loads_record(text: str | bytes) -> Any:
    """Parse one record's JSON strictly (no dict check): at most ``MAX_RECORD_BYTES``
    bytes (refused before parsing), UTF-8, no floats, NaN or Infinity, no duplicate keys,
    no number of more than 80 digits. Raises ValueError (or TypeError for a non-text)."""
    if isinstance(text, bytes | bytearray):
        size = len(text)
    elif isinstance(text, str):
        size = len(text) if len(text) > MAX_RECORD_BYTES else len(text.encode("utf-8", "surrogatepass"))
    else:
        raise TypeError(f"a record is a line of text, not {type(text).__name__}")
    if size > MAX_RECORD_BYTES:
        raise ValueError(f"a record is at most {MAX_RECORD_BYTES} bytes, this one is {size}")
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ValueError(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    try:
        return json.loads(
            text, object_pairs_hook=_object, parse_int=_json_int,
            parse_float=lambda s: _reject(f"a number with a fraction or an exponent ({s[:20]}): records hold none"),
            parse_constant=lambda s: _reject(f"{s} is not a number a record holds"),
        )
    except RecursionError:
        raise ValueError("not a record: nested too deeply") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON ({exc.msg} at character {exc.pos})") from None


def _record(
    rules: RuleSet, deal: Deal, result: Settlement | None, bets: Mapping[str, Money], *,
    round_: int, shoe: int, round_in_shoe: int, last: bool, cut: int | None, seed: int | None,
    state: Mapping[str, Any] | None, carried: Mapping[str, Money], prev: str = ZERO_HASH,
    key: bytes | None = None,
) -> RoundRecord:
    """A round's record, bets and results in the order of their names (as the canonical
    form sorts the bets), chained to ``prev`` and MACed under ``key``."""
    results = sorted((r.to_dict() for r in result.results), key=lambda r: str(r["bet"])) if result else []
    record = RoundRecord(
        rules=rules.name,
        rules_digest=_rules_digest(rules),
        round=round_,
        shoe=shoe,
        round_in_shoe=round_in_shoe,
        burned=deal.burned,
        head_card=deal.head_card,
        banker=evaluate(deal.banker),
        hands={p: evaluate(c) for p, c in deal.hands.items()},
        bets=dict(sorted(bets.items())),
        results=tuple(results),
        carried=dict(sorted(carried.items())),
        last_of_shoe=last,
        cut_card=cut or None,
        seed=seed,
        shoe_state=state,
        prev=prev,
    )
    if key is None:
        return record
    sealed = dataclasses.replace(record, hmac=_mac(key, record.canonical))
    sealed.__dict__["canonical"] = record.canonical  # the HMAC is not part of it
    return sealed


# --- a game -------------------------------------------------------------------------------


def _bit_generator(seed: int | np.random.SeedSequence | None, rng: object) -> tuple[np.random.BitGenerator, int | None]:
    if rng is not None:
        if seed is not None:
            raise TypeError("give a seed or an rng, not both")
        if isinstance(rng, np.random.Generator):
            return rng.bit_generator, None
        if isinstance(rng, np.random.BitGenerator):
            return rng, None
        raise TypeError(f"rng must be a numpy Generator or BitGenerator, not {type(rng).__name__}")
    sequence, entropy = seed_sequence(seed)
    return np.random.PCG64(sequence), entropy


def seed_sequence(seed: int | np.random.SeedSequence | None) -> tuple[np.random.SeedSequence, int | None]:
    """The ``SeedSequence`` of a seed, and the int that recreates it (None drew fresh OS
    entropy, which is returned so that the run can be repeated; a spawned sequence, or
    one of another pool size, has no such int)."""
    if isinstance(seed, bool) or not (seed is None or isinstance(seed, int | np.random.SeedSequence)):
        raise TypeError(f"seed must be an int, a SeedSequence or None, not {seed!r}")
    sequence = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    entropy = sequence.entropy
    plain = isinstance(entropy, int) and not sequence.spawn_key
    if not plain or sequence.pool_size != 4:  # numpy's default pool size, which Game(rules, seed) uses
        return sequence, None
    assert isinstance(entropy, int)
    return sequence, entropy


class Game:
    """A table that owns its shoe and its random numbers and plays round after round.

    :param rules: the rule set (already checked to deal a round from its cards).
    :param seed: an int (at most 2**256 - 1) or ``SeedSequence``; None draws OS entropy
        (kept in ``seed``).
    :param rng: a numpy ``Generator`` or ``BitGenerator`` to draw from instead.
    :param recall: how many round records the game keeps (``records``), at most
        ``limits.MAX_RECALL``.
    :param key: the operator's HMAC key: every record then carries an ``hmac``.

    The records of one game form a hash chain; write each as a line of a log
    (``record.to_json()``) and check the log with ``sanggong.records.verify_log``.
    """

    def __init__(
        self,
        rules: RuleSet,
        seed: int | np.random.SeedSequence | None = None,
        *,
        rng: np.random.Generator | np.random.BitGenerator | None = None,
        recall: int = 10,
        key: bytes | None = None,
    ) -> None:
        if not isinstance(rules, RuleSet):
            raise TypeError(f"rules must be a RuleSet, not {type(rules).__name__}")
        if isinstance(recall, bool) or not isinstance(recall, int) or not 0 <= recall <= MAX_RECALL:
            raise ValueError(f"recall must be a count 0..{MAX_RECALL}, got {recall!r}")
        self._key = _check_key(key)
        self.rules = rules
        bit_generator, self.seed = _bit_generator(seed, rng)
        if self.seed is not None and self.seed > MAX_SEED:
            raise ValueError(f"seed must be at most 2**256 - 1 (a record carries it), got {self.seed.bit_length()} bits")
        self._shoe = _Shoe(rules, bit_generator)
        self._session = TableSession(rules)
        self._records: deque[RoundRecord] = deque(maxlen=recall)
        self._prev = ZERO_HASH
        self.round = 0

    @property
    def records(self) -> tuple[RoundRecord, ...]:
        """The last ``recall`` rounds, oldest first."""
        return tuple(self._records)

    @property
    def carried(self) -> Mapping[str, Money]:
        """Stakes on the table from the last round."""
        return self._session.carried

    def deal(self) -> Deal:
        """Deal a round without bets (kept in no record)."""
        deal, _ = self._shoe.deal()
        self.round += 1
        return deal

    def play(self, bets: Mapping[str, Money] | None = None) -> RoundRecord:
        """Deal a round, settle ``bets`` (plus any carried stakes) and record it."""
        slip = self._session.slip(bets or {})  # checked before any card comes out
        record = self._next(slip, self._session, prev=self._prev, key=self._key)
        self._prev = record.hash
        self._records.append(record)
        return record

    def _next(self, slip: Mapping[str, Money], session: TableSession, *, prev: str, key: bytes | None) -> RoundRecord:
        deal, cut = self._shoe.deal()
        state = self._shoe.state  # as the shoe was shuffled: enough to deal this round again
        self.round += 1
        result = session.settle_slip(deal.banker, deal.hands, slip) if slip else None
        return _record(
            self.rules, deal, result, slip, round_=self.round, shoe=self._shoe.number,
            round_in_shoe=self._shoe.rounds, last=self._shoe.last, cut=cut, seed=self.seed,
            state=state, carried=session.carried, prev=prev, key=key,
        )

    @classmethod
    def replay(
        cls, rules: RuleSet, seed: int, round: int, bets: Mapping[str, Money] | None = None
    ) -> RoundRecord:
        """Round ``round`` (from 1) of the game seeded with ``seed``, dealt again and
        settled with ``bets`` (give the record's ``bets`` to re-settle it as it was).
        The result is a one-record game's (its ``prev`` is the zero hash)."""
        if isinstance(round, bool) or not isinstance(round, int) or round < 1:
            raise ValueError(f"round must be 1 or more, got {round!r}")
        if round - 1 > MAX_REPLAY_ROUNDS:
            raise ValueError(f"round: a replay deals at most {MAX_REPLAY_ROUNDS} rounds before its own, got {round}")
        game = cls(rules, seed, recall=1)
        for _ in range(round - 1):
            game._shoe.skip()
        game.round = round - 1
        return game.play(bets)  # nothing is carried into it: the earlier rounds had no bets

    @classmethod
    def replay_record(cls, rules: RuleSet, record: RoundRecord) -> RoundRecord:
        """Deal ``record``'s round again from its own evidence, settle its bets, and
        compare every field of the result with the record; return the result.

        With a ``seed``, the game is dealt again from the seed up to the record's round:
        that derives the round, shoe and round-in-shoe numbers and the shoe's state, and
        all must be the record's. Without one (a bit generator of your own), the round
        is dealt again from ``shoe_state`` (a bit generator of ``REPLAYABLE`` only) for
        ``round_in_shoe`` rounds; its round and shoe numbers are then the record's (a
        log's chain checks them: ``records.verify_log``). The record must carry the
        digest of ``rules``. ``prev`` and ``hmac`` are the record's (nothing deals them).

        :raises ValueError: ``record round N: field 'F' disagrees with the replay``,
            naming the first field that differs (or what cannot be replayed).
        """
        if not isinstance(rules, RuleSet):
            raise TypeError(f"rules must be a RuleSet, not {type(rules).__name__}")
        if not isinstance(record, RoundRecord):
            raise TypeError(f"record must be a RoundRecord, not {type(record).__name__}")
        try:
            return _Replayer(rules).check(record)
        except ValueError as exc:
            raise ValueError(f"record round {record.round}: {exc}") from None


_COMPARED = ("seed", "round", "shoe", "round_in_shoe", "shoe_state", "cut_card", "last_of_shoe",
             "head_card", "burned", "banker", "hands", "bets", "results", "carried")


def _compare(derived: RoundRecord, record: RoundRecord, how: str) -> None:
    for name in _COMPARED:
        if getattr(derived, name) != getattr(record, name):
            raise ValueError(f"field {name!r} disagrees with {how}")
    if derived.hash != record.hash:  # every field agrees: the canonical forms must too
        raise ValueError(f"the record's canonical form disagrees with {how}")


def _check_rules(rules: RuleSet, record: RoundRecord) -> None:
    if record.rules != rules.name:
        raise ValueError(f"field 'rules' is {_show(record.rules)}, not the rules' name {rules.name!r}")
    if record.rules_digest != _rules_digest(rules):
        raise ValueError(f"field 'rules_digest' is not the digest of the rules {rules.name!r} given")


def _check_bets(rules: RuleSet, bets: Mapping[str, Money]) -> None:
    try:
        check_slip(rules, bets)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"field 'bets': {exc}") from None


class _Replayer:
    """Deals a game's records again, one after the other: a record that follows the last
    one replayed (round + 1) continues its game, so a whole log costs one deal a round
    and every field of every record, its seed included, is derived from the first."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.game: Game | None = None

    def check(self, record: RoundRecord) -> RoundRecord:
        _check_rules(self.rules, record)
        game = self.game
        self.game = None  # until this record replays equal
        if game is None or record.round != game.round + 1:
            if record.seed is not None:
                game = self._from_seed(record)
            elif record.shoe_state is not None:
                game = self._from_state(record)
            else:
                raise ValueError("no seed and no shoe state (an observed round): nothing to replay")
        _check_bets(self.rules, record.bets)
        derived = game._next(record.bets, TableSession(self.rules), prev=record.prev, key=None)
        derived = dataclasses.replace(derived, hmac=record.hmac)
        _compare(derived, record, "the replay")
        self.game = game
        return derived

    def _from_seed(self, record: RoundRecord) -> Game:
        if record.round - 1 > MAX_REPLAY_ROUNDS:
            raise ValueError(f"field 'round': a replay from the seed deals at most {MAX_REPLAY_ROUNDS} "
                             f"rounds before the record's, this is round {record.round}")
        game = Game(self.rules, record.seed, recall=0)
        for _ in range(record.round - 1):
            game._shoe.skip()
        game.round = record.round - 1
        return game

    def _from_state(self, record: RoundRecord) -> Game:
        game = Game(self.rules, rng=bit_generator_from_state(record.shoe_state), recall=0)
        shoe = game._shoe
        shoe.number = record.shoe - 1  # the first deal shuffles: shoe record.shoe
        for _ in range(record.round_in_shoe - 1):
            shoe.skip()
            if shoe.last:
                raise ValueError(f"field 'round_in_shoe' disagrees with the replay: the shoe ends "
                                 f"after round {shoe.rounds}")
        game.round = record.round - 1
        return game


# --- observed shoes -------------------------------------------------------------------------


class ObservedTable:
    """Settle the cards a physical shoe or card reader actually dealt.

    Give each round's cards in the order they came out, burned cards and the head card
    included. The table checks every card against what its box or shoe can hold (a fifth
    K♠ in one deck, a ninth in eight) since the last shuffle, assigns the cards to the
    hands by the dealing procedure, and settles the bets. An invalid sequence raises,
    naming the card and its place, and leaves the table as it was.

    A shoe (not a fresh-deck table) holds its cut card between ``low`` and ``high`` cards
    from the end (``rules.cut_card_range``): once more than ``52 * decks - low`` cards are
    out, the cut card has come out, the round in progress is the shoe's last
    (``last_of_shoe``), and no round may start before ``shuffle()``. The house may also
    shuffle after any round.

    :param key: the operator's HMAC key: every record then carries an ``hmac``.

    >>> from sanggong import ONLINE
    >>> table = ObservedTable(ONLINE)
    >>> record = table.play("5h  Ks Qs 9d  As 2d 3c  4h 4d 4c  Jh Jd Tc", {"win:1": 100})
    >>> record.banker.label, record.hands[1].label, record.results[0]["outcome"]
    ('2P9', '6', 'lose')
    >>> table.play("5h Ks Ks 9d As 2d 3c 4h 4d 4c Jh Jd Tc")
    Traceback (most recent call last):
    ...
    ValueError: card 3 of the sequence, Ks, is one more than 1 deck holds
    """

    def __init__(self, rules: RuleSet, *, key: bytes | None = None) -> None:
        if not isinstance(rules, RuleSet):
            raise TypeError(f"rules must be a RuleSet, not {type(rules).__name__}")
        self._key = _check_key(key)
        self.rules = rules
        self._session = TableSession(rules)
        self._seen: Counter[int] = Counter()
        self._shoes = 0  # shoes begun
        self._rounds = 0  # rounds dealt from the current shoe
        self._taken = 0  # cards out of the current shoe
        self._cut: int | None = None  # the current shoe's cut card (cards from the end), where known
        self._fresh = True  # the next round starts a new shoe (after a shuffle)
        self._prev = ZERO_HASH
        self.round = 0

    def shuffle(self) -> None:
        """The dealer shuffled: every card is back in the shoe, and the next round starts
        a new one (a shuffle before any card of a shoe came out changes nothing)."""
        if self._rounds:
            self._fresh = True

    def play(
        self, cards: str | Sequence[CardLike], bets: Mapping[str, Money] | None = None
    ) -> RoundRecord:
        """Assign and settle one round's observed cards."""
        return self._play(self._parse(cards), bets or {}, cut_card=None)

    def _play(self, parsed: list[Card], bets: Mapping[str, Money], *, cut_card: int | None) -> RoundRecord:
        """``play`` on parsed cards; ``cut_card`` (cards from the end) where it is known
        (a game's record whose bit generator a record cannot name)."""
        rules = self.rules
        fresh = rules.fresh_deck_each_round
        new = fresh or self._fresh
        burn = rules.burn_first if new else rules.burn_per_round
        need = round_length(rules, burn)
        if len(parsed) != need:
            raise ValueError(f"a round here takes {need} cards ({burn} burned), the sequence has {len(parsed)}")
        total = 52 * rules.decks
        start = 0 if new else self._taken
        limit = total
        if fresh:
            if cut_card is not None:
                raise ValueError("field 'cut_card': a fresh deck has no cut card")
        else:
            low, high = rules.cut_card_range
            if cut_card is not None:
                if not low <= cut_card <= high:
                    raise ValueError(f"field 'cut_card': the cut card lies {low}..{high} cards from the end, "
                                     f"not {cut_card}")
                if not new and cut_card != self._cut:
                    raise ValueError("field 'cut_card': the cut card moved within the shoe")
            limit = total - (low if cut_card is None else cut_card)
            if start > limit:
                raise ValueError(
                    f"a round cannot start after {start} cards of the shoe: the cut card lies at least "
                    f"{low} cards from the end of the {total}, so it came out by card {limit}, in an "
                    f"earlier round, which was the shoe's last: the dealer must shuffle first (shuffle())"
                )
        seen = Counter() if new else Counter(self._seen)
        for place, card in enumerate(parsed, start=1):
            seen[card.code] += 1
            if seen[card.code] > rules.decks:
                raise ValueError(
                    f"card {place} of the sequence, {card}, is one more than {rules.decks} "
                    f"deck{'s' if rules.decks > 1 else ''} hold{'s' if rules.decks == 1 else ''}"
                )
        slip = self._session.slip(bets)
        deal = assign(rules, parsed, burn)
        result = self._session.settle_slip(deal.banker, deal.hands, slip) if slip else None
        # the round is valid: keep it
        if new:
            self._shoes += 1
            self._rounds = 0
            self._cut = cut_card
        self._fresh = False
        self._seen = seen
        self._rounds += 1
        self._taken = start + need
        self.round += 1
        last = fresh or self._taken > limit  # the cut card is out: the shoe's last round
        record = _record(
            rules, deal, result, slip, round_=self.round, shoe=self._shoes,
            round_in_shoe=self._rounds, last=last, cut=cut_card, seed=None, state=None,
            carried=self._session.carried, prev=self._prev, key=self._key,
        )
        self._prev = record.hash
        return record

    @staticmethod
    def _parse(cards: str | Sequence[CardLike]) -> list[Card]:
        tokens: Sequence[CardLike] = cards.split() if isinstance(cards, str) else cards
        parsed = []
        for place, token in enumerate(tokens, start=1):
            try:
                parsed.append(parse_card(token))
            except (ValueError, TypeError) as exc:
                raise type(exc)(f"card {place} of the sequence: {exc}") from None
        return parsed


class _Resettler:
    """Checks records that cannot be dealt again (observed rounds, or a bit generator a
    record cannot name) by playing their cards, in the order the procedure dealt them,
    on an ``ObservedTable`` along the log: the burns, the cards each shoe can hold, the
    cut card, the hands and the settlement of the bets (carried stakes included) must
    all be the record's."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.table: ObservedTable | None = None

    def check(self, record: RoundRecord) -> RoundRecord:
        rules = self.rules
        _check_rules(rules, record)
        if record.seed is not None or record.shoe_state is not None:
            raise ValueError("the record can be dealt again: replay it")
        table = self.table
        self.table = None
        if table is None or record.round != table.round + 1:
            table = ObservedTable(rules)
            table.round = record.round - 1
            table._shoes = record.shoe - 1
            if record.round_in_shoe > 1 and not rules.fresh_deck_each_round:
                # the log starts within a shoe: its earlier cards are unknown
                done = record.round_in_shoe - 1
                table._shoes, table._rounds, table._fresh, table._cut = record.shoe, done, False, record.cut_card
                table._taken = round_length(rules, rules.burn_first) + (done - 1) * round_length(rules, rules.burn_per_round)
        elif record.shoe != table._shoes:
            table.shuffle()
        sequence = dealing_sequence(rules, record.burned, record.head_card, record.banker.cards,
                                    {p: h.cards for p, h in record.hands.items()})
        _check_bets(rules, record.bets)
        table._prev = record.prev
        try:
            derived = table._play(sequence, record.bets, cut_card=record.cut_card)
        except ValueError as exc:
            raise ValueError(str(exc) if str(exc).startswith("field ") else f"the cards as dealt: {exc}") from None
        derived = dataclasses.replace(derived, hmac=record.hmac)
        _compare(derived, record, "the cards as dealt and settled")
        self.table = table
        return derived
