"""Round records a regulator can rely on: the record, its strict reading, its canonical
form, the hash chain and the HMAC.

**A log** is a JSON Lines file: one round record (``RoundRecord.to_json()``) on each
line, UTF-8, each line ending in ``\\n``, the records of one game in the order they were
played, from the game's first round. Write one as the game goes::

    game = Game(rules, seed, key=operator_key)
    with open("records.jsonl", "a", encoding="utf-8") as log:
        for bets in slips:
            log.write(game.play(bets).to_json() + "\\n")

or all at once with ``write_log(records, path)`` (``"\\n".join(r.to_json() for r in
records) + "\\n"``). Check one with ``sanggong.verify.verify_log(path)``.

**The canonical bytes** of a record: take the record's JSON object (as on its line),
drop the keys ``hash`` and ``hmac``, and canonicalise what is left by RFC 8785, the JSON
Canonicalization Scheme (JCS): keys sorted, no whitespace, minimal string escapes,
UTF-8. A record holds no floats, and no integer beyond what a JSON number holds exactly
(``2**53 - 1``): money is always written as text (``"100"``, ``"1.05"``, ``"7/2"``, read
by the record's ``money`` kind), and so are the seed and the bit generator's state. Any
JCS library gives the same bytes (``rfc8785.dumps(body)`` in Python);
``sanggong._canonical`` says how sanggong writes them.

**The chain.** ``prev`` is the lower-case hex SHA-256 of the canonical bytes of the
game's previous record (64 zeros for its first record); ``hash`` is the SHA-256 of the
record's own canonical bytes (``prev`` included). **The HMAC**, where the operator keeps
a key, is ``hmac``: the lower-case hex HMAC-SHA256 of the same canonical bytes under the
key. Without a key anyone can recompute a consistent chain; with one, only the key's
holder can. A game signs every record or none: a log whose signatures stop (or start)
part way is refused even without the key. A record's fields are described in
``RoundRecord``; ``rules_digest`` is ``RuleSet.digest()`` of the rules it was played
under, and ``format`` the record format (``FORMAT``).

**Normalised money.** A record never depends on the caller's state: stakes are
normalised where they enter (``money.to_money``: a ``Decimal`` subclass is a ``Decimal``,
written in the minor unit's exponent) and written by ``money.money_text``, whatever the
caller's ``decimal`` context.

**Shoe states.** A record names its bit generator only from ``REPLAYABLE``, and its
``shoe_state`` is checked against that generator's schema before numpy sees it
(``check_state``, ``bit_generator_from_state``).

>>> import json
>>> from sanggong import MACAU, Game
>>> game = Game(MACAU, seed=3, key=b"operator key")
>>> first, second = game.play({"win:1": 100}), game.play({"win:1": 100})
>>> first.prev == ZERO_HASH and second.prev == first.hash == record_hash(first)
True
>>> second.hmac == record_hmac(second, b"operator key")
True
>>> line = second.to_json()
>>> canonical_bytes(json.loads(line)) == second.canonical
True
>>> RoundRecord.from_json(line) == second
True
>>> RoundRecord.from_json(line.replace('"win:1":"100"', '"win:1":"200"', 1))
Traceback (most recent call last):
...
ValueError: hash does not match its contents
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import hmac as _hmac
import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, Final, NoReturn

import numpy as np

from ._canonical import canonical_json, loads_strict
from .cards import Card
from .hands import HandValue, PairPlus, evaluate
from .limits import (
    MAX_BETS,
    MAX_BURN,
    MAX_DECIMAL_EXPONENT,
    MAX_DECKS,
    MAX_DENOMINATOR,
    MAX_ODDS,
    MAX_PLAYER_ID,
    MAX_POSITIONS,
    MAX_RECORD_BYTES,
    MAX_RESHUFFLES,
    MAX_ROUND,
    MAX_SEED,
    MAX_STAKE,
    MAX_TEXT_NUMBER,
)
from .ranking import DEFAULT_RANKING, Ranking
from .rules import RuleSet, parse_bet
from .money import money_kind, money_text
from .settlement import BetResult, Money

__all__ = [
    "FORMAT",
    "REPLAYABLE",
    "ZERO_HASH",
    "RoundRecord",
    "bit_generator_from_state",
    "canonical_bytes",
    "check_key",
    "check_rules",
    "check_state",
    "loads_record",
    "record_hash",
    "record_hmac",
    "result_entry",
    "rules_digest",
    "stakes_of",
    "state_json",
    "write_log",
]

ZERO_HASH: Final = "0" * 64
"""The ``prev`` of a game's first record."""

REPLAYABLE: Final = ("PCG64", "PCG64DXSM", "Philox", "SFC64", "MT19937")
"""The numpy bit generators whose state a record carries and a replay restores."""


# --- the canonical form, the digest, the key ------------------------------------------------


def _canonical_bytes(data: Mapping[str, Any]) -> bytes:
    """The canonical bytes of a record's dict (see the module's doc): RFC 8785 (JCS) of
    every field but ``hash`` and ``hmac``."""
    return canonical_json({k: v for k, v in data.items() if k not in ("hash", "hmac")})


def _mac(key: bytes, canonical: bytes) -> str:
    return _hmac.new(key, canonical, hashlib.sha256).hexdigest()


@functools.lru_cache(maxsize=64)
def _digest(rules: RuleSet) -> str:
    """``rules.digest()`` (SHA-256 hex of the rules' canonical JSON), cached: a record
    carries it, and a game makes one record a round."""
    return rules.digest()


def check_key(key: object) -> bytes | None:
    """The operator's HMAC key as ``bytes`` (None for none), checked.

    >>> check_key(bytearray(b"operator key")), check_key(None)
    (b'operator key', None)
    >>> check_key(b"")
    Traceback (most recent call last):
    ...
    ValueError: key must not be empty

    :raises TypeError: a key that is not bytes (a ``str`` is refused: encode it).
    :raises ValueError: an empty key.
    """
    if key is None:
        return None
    if not isinstance(key, bytes | bytearray):
        raise TypeError(f"key must be bytes (the operator's HMAC key) or None, not {type(key).__name__}")
    if not key:
        raise ValueError("key must not be empty")
    return bytes(key)


def canonical_bytes(record: RoundRecord | Mapping[str, Any]) -> bytes:
    """The canonical bytes of a record or of its JSON object (see the module's doc)."""
    if isinstance(record, RoundRecord):
        return record.canonical
    if not isinstance(record, Mapping):
        raise TypeError(f"a record or its JSON object, not {type(record).__name__}")
    return _canonical_bytes(record)


def record_hash(record: RoundRecord | Mapping[str, Any]) -> str:
    """The SHA-256 hex of a record's canonical bytes: its ``hash``, the next one's ``prev``."""
    return hashlib.sha256(canonical_bytes(record)).hexdigest()


def record_hmac(record: RoundRecord | Mapping[str, Any], key: bytes) -> str:
    """The HMAC-SHA256 hex of a record's canonical bytes under ``key``."""
    checked = check_key(key)
    if checked is None:
        raise TypeError("key must be bytes, not None")
    return _mac(checked, canonical_bytes(record))


def rules_digest(rules: RuleSet) -> str:
    """The digest a record of ``rules`` carries (``RuleSet.digest()``, cached)."""
    if not isinstance(rules, RuleSet):
        raise TypeError(f"rules must be a RuleSet, not {type(rules).__name__}")
    return _digest(rules)


def check_rules(record: RoundRecord, rules: RuleSet) -> None:
    """Check that ``record`` was played under ``rules``: its ``rules`` is their name and
    its ``rules_digest`` their digest.

    :raises ValueError: naming the field that is not the rules'.
    """
    if record.rules != rules.name:
        raise ValueError(f"field 'rules' is {_show(record.rules)}, not the rules' name {rules.name!r}")
    if record.rules_digest != rules_digest(rules):
        raise ValueError(f"field 'rules_digest' is not the digest of the rules {rules.name!r} given")


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


def state_json(state: Mapping[str, Any]) -> dict[str, Any] | None:
    """A live bit generator's ``state`` as plain JSON, as a record's ``shoe_state`` holds
    it: every integer as its decimal text (they pass what JSON numbers hold exactly),
    arrays as lists of them; None for a bit generator a record cannot name (one not in
    ``REPLAYABLE``).

    >>> state = state_json(np.random.PCG64(1).state)
    >>> state["bit_generator"], check_state(state) == state
    ('PCG64', True)
    """
    name = state.get("bit_generator")
    if name not in _STATE_SCHEMAS:
        return None

    def plain(value: Any) -> Any:  # every integer as its decimal text (I-JSON: they pass 2**53)
        if isinstance(value, Mapping):
            return {str(k): plain(v) for k, v in value.items()}
        if isinstance(value, np.ndarray):
            return [str(int(x)) for x in value.tolist()]
        if isinstance(value, np.integer | int) and not isinstance(value, bool):
            return str(int(value))
        return value

    out: dict[str, Any] = plain(state)
    return out


def check_state(value: object) -> dict[str, Any]:
    """Check a record's ``shoe_state`` against its bit generator's schema (the name on the
    allow-list, every key, type and range) and return a fresh copy.

    :raises TypeError: a value of a wrong JSON type, naming its path.
    :raises ValueError: a name not in ``REPLAYABLE``, a missing or unknown key, a value
        out of range, or a state the generator never reaches, naming its path.
    """
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
            return str(_int_text(value, path, schema[1], schema[2] - 1))
        if not isinstance(value, list):
            raise TypeError(f"field {path!r}: expected a list of {schema[1]} integers, got {_show(value)}")
        if len(value) != schema[1]:
            raise ValueError(f"field {path!r}: expected {schema[1]} integers, got {len(value)}")
        return [str(_int_text(x, f"{path}[{i}]", 0, schema[2] - 1)) for i, x in enumerate(value)]

    state: dict[str, Any] = check(value, schema, "shoe_state")
    inner = state["state"]
    if name in ("PCG64", "PCG64DXSM") and not int(inner["inc"]) % 2:
        # numpy's seeding makes the increment odd; an even one can stall the generator
        raise ValueError("field 'shoe_state.state.inc': must be odd")
    if name == "MT19937" and not (int(inner["key"][0]) & 0x80000000 or any(k != "0" for k in inner["key"][1:])):
        raise ValueError("field 'shoe_state.state.key': the all-zero state of MT19937 never leaves zero")
    return state


def bit_generator_from_state(state: object) -> np.random.BitGenerator:
    """A new bit generator of a record's (allow-listed, fully checked) ``shoe_state``.

    Only the classes of ``REPLAYABLE`` are ever made; the state is checked before numpy
    sees it, and a state numpy does not take exactly as given raises ValueError.

    >>> original = np.random.Philox(5)
    >>> copy = bit_generator_from_state(state_json(original.state))
    >>> type(copy).__name__, copy.random_raw() == original.random_raw()
    ('Philox', True)
    """
    checked = check_state(state)
    name = checked["bit_generator"]
    cls: type[np.random.BitGenerator] = {
        "PCG64": np.random.PCG64, "PCG64DXSM": np.random.PCG64DXSM, "Philox": np.random.Philox,
        "SFC64": np.random.SFC64, "MT19937": np.random.MT19937,
    }[name]
    bit_generator = cls(0)
    dtype = np.uint32 if name == "MT19937" else np.uint64

    def native(value: Any, key: str = "") -> Any:
        if isinstance(value, dict):
            return {k: native(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return np.array([int(x) for x in value], dtype=dtype)
        return value if key == "bit_generator" else int(value)

    try:
        bit_generator.state = native(checked)
    except (ValueError, TypeError, OverflowError, KeyError) as exc:  # pragma: no cover - checked above
        raise ValueError(f"field 'shoe_state': numpy refuses this state ({exc})") from None
    if state_json(bit_generator.state) != checked:
        raise ValueError("field 'shoe_state': numpy does not take this state as given")
    return bit_generator



# --- the record ---------------------------------------------------------------------------

_MONEY_KINDS: dict[str, type] = {"int": int, "decimal": Decimal, "fraction": Fraction}
_KIND_NAMES = {kind: name for name, kind in _MONEY_KINDS.items()}

FORMAT: Final = 1
"""The record format this version writes and reads (a record's ``format`` field)."""


def stakes_of(bets: Mapping[str, Any]) -> dict[tuple[str | None, str], Money]:
    """A record's ``bets`` (or ``carried``) as ``{(player, bet): stake}``, whether it is a
    slip of bets alone (``{bet: stake}``: player None) or by player."""
    out: dict[tuple[str | None, str], Money] = {}
    for key, value in bets.items():
        if isinstance(value, Mapping):
            out.update(((key, bet), stake) for bet, stake in value.items())
        else:
            out[(None, key)] = value
    return out


def _texts(bets: Mapping[str, Any]) -> dict[str, Any]:
    return {k: _texts(v) if isinstance(v, Mapping) else money_text(v) for k, v in bets.items()}


def _money_kind(bets: Mapping[str, Any]) -> str:
    """The slip's money kind by name (a slip's stakes are of one kind; ``int`` for none)."""
    kinds = {money_kind(v) for v in stakes_of(bets).values()}
    if len(kinds) > 1 or None in kinds:
        raise ValueError(f"a record's stakes are of one kind of money, not {sorted(map(str, kinds))}")
    kind = kinds.pop() if kinds else int
    assert kind is not None
    return _KIND_NAMES[kind]


_AMOUNTS = ("stake", "returned", "commission", "carried", "net")


def result_entry(result: BetResult) -> dict[str, Any]:
    """A bet's result as a record holds it: amounts as money (written as their exact
    text, ``money.money_text``, in the record's JSON), odds as ``n/d`` text."""
    return {
        "player": result.player,
        "bet": str(result.bet),
        "stake": result.stake,
        "outcome": result.outcome,
        "detail": result.detail,
        "odds": None if result.odds is None else str(result.odds),
        "returned": result.returned,
        "commission": result.commission,
        "carried": result.carried,
        "net": result.net,
    }


def _result_json(result: Mapping[str, Any]) -> dict[str, Any]:
    return {k: money_text(v) if k in _AMOUNTS else v for k, v in result.items()}


@dataclass(frozen=True)
class RoundRecord:
    """Everything about one round: where it came from, its cards, hands, bets and results.

    ``shoe_state`` is the bit generator's state (plain JSON) when this round's shoe (or
    deck) was shuffled and ``round_in_shoe`` the round's place in it: with them the round
    can be dealt again exactly (``Game.replay_record``). Both are None for observed
    rounds. ``rules_digest`` binds the record to the exact rules it was played under;
    ``ranking`` is those rules' ranking, by which the hands' labels and ``winners`` are
    read (a two-hand table's Dragon is hand 1 and its Phoenix the ``banker``).

    ``prev`` (the SHA-256 of the game's previous record, 64 zeros for its first) and
    ``hmac`` (under the operator's key, if any) place the record in its game's log:
    ``hash`` is the SHA-256 of its canonical bytes (see this module's doc). Equality
    compares the round, every field but ``prev`` and ``hmac``; ``verify.verify_log``
    checks those.

    **Irregular rounds.** A ``void`` round (a misdeal that could not be put right:
    ``ObservedTable.void``) holds in ``burned`` every card that came out before it was
    abandoned, in order (they are out of the shoe, and belong to no hand), no banker
    (None), no hands and no winners; every bet's outcome is ``"void"``: its stake
    returned, or a stake carried into the round carried on. ``reshuffled`` counts the
    times the shoe (or deck) was shuffled again before this, its first round (a card
    dropped or exposed while shuffling); 0 for every other round.
    """

    rules: str
    round: int
    shoe: int
    round_in_shoe: int
    burned: tuple[Card, ...]
    head_card: Card | None
    banker: HandValue | None
    hands: Mapping[int, HandValue]
    bets: Mapping[str, Any]
    results: tuple[dict[str, Any], ...]
    carried: Mapping[str, Any]
    last_of_shoe: bool
    cut_card: int | None = None
    seed: int | None = None
    shoe_state: Mapping[str, Any] | None = None
    rules_digest: str | None = None
    prev: str = field(default=ZERO_HASH, compare=False)
    hmac: str | None = field(default=None, compare=False)
    ranking: Ranking = DEFAULT_RANKING
    void: bool = False
    reshuffled: int = 0

    @property
    def winners(self) -> dict[int, str]:
        """Each position against the banker: ``"win"``, ``"tie"`` or ``"lose"`` (none in
        a void round)."""
        if self.banker is None:
            return {}
        words = {1: "win", 0: "tie", -1: "lose"}
        b = self.banker.rank
        return {p: words[(h.rank > b) - (h.rank < b)] for p, h in self.hands.items()}

    def _body(self) -> dict[str, Any]:
        def hand(h: HandValue) -> dict[str, Any]:
            return {"cards": [str(c) for c in h.cards], "label": h.label, "pair_plus": h.pair_plus.label}

        return {
            "format": FORMAT,
            "rules": self.rules,
            "rules_digest": self.rules_digest,
            "round": self.round,
            "shoe": self.shoe,
            "round_in_shoe": self.round_in_shoe,
            "seed": None if self.seed is None else str(self.seed),
            "cut_card": self.cut_card,
            "last_of_shoe": self.last_of_shoe,
            "void": self.void,
            "reshuffled": self.reshuffled,
            "head_card": None if self.head_card is None else str(self.head_card),
            "burned": [str(c) for c in self.burned],
            "ranking": self.ranking.to_dict(),
            "banker": None if self.banker is None else hand(self.banker),
            "hands": {str(p): hand(h) for p, h in self.hands.items()},
            "winners": {str(p): w for p, w in self.winners.items()},
            "money": _money_kind(self.bets),
            "bets": _texts(self.bets),
            "results": [_result_json(r) for r in self.results],
            "carried": _texts(self.carried),
            "shoe_state": None if self.shoe_state is None else _copy_json(self.shoe_state),
            "prev": self.prev,
        }

    @functools.cached_property
    def canonical(self) -> bytes:
        """The bytes ``hash`` and ``hmac`` are taken over (see this module's doc)."""
        return _canonical_bytes(self._body())

    @functools.cached_property
    def hash(self) -> str:
        """SHA-256 hex of ``canonical``: the next record's ``prev``."""
        return hashlib.sha256(self.canonical).hexdigest()

    def with_hmac(self, key: bytes) -> RoundRecord:
        """This record carrying its ``hmac`` under ``key`` (``record_hmac``)."""
        sealed = dataclasses.replace(self, hmac=record_hmac(self, key))
        sealed.__dict__["canonical"] = self.canonical  # the HMAC is not part of it
        return sealed

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
        version = data["format"]
        if version != FORMAT or isinstance(version, bool):
            raise ValueError(f"field 'format': this version of sanggong reads record format {FORMAT}, "
                             f"not {_show(version)}")
        seed = data["seed"]
        void = _bool(data["void"], "void")
        if void and (data["banker"] is not None or data["hands"] != {} or data["head_card"] is not None):
            raise ValueError("field 'void': a void round's cards are all in 'burned': it has no banker, no hands "
                             "and no head card")
        record = cls(
            rules=rules,
            rules_digest=_hex(data["rules_digest"], "rules_digest"),
            round=_int(data["round"], "round", 1, MAX_ROUND),
            shoe=_int(data["shoe"], "shoe", 1, MAX_ROUND),
            round_in_shoe=_int(data["round_in_shoe"], "round_in_shoe", 1, MAX_ROUND),
            seed=None if seed is None else _int_text(seed, "seed", 0, MAX_SEED),
            cut_card=None if data["cut_card"] is None else _int(data["cut_card"], "cut_card", 1, 52 * MAX_DECKS - 1),
            last_of_shoe=_bool(data["last_of_shoe"], "last_of_shoe"),
            void=void,
            reshuffled=_int(data["reshuffled"], "reshuffled", 0, MAX_RESHUFFLES),
            head_card=None if data["head_card"] is None else _card(data["head_card"], "head_card"),
            burned=_cards(data["burned"], "burned", _MOST_VOID if void else MAX_BURN + 1),
            ranking=(ranking := _ranking(data["ranking"])),
            banker=None if void else _hand(data["banker"], "banker", ranking),
            hands={} if void else _hands(data["hands"], ranking),
            bets=_stakes(data["bets"], "bets", kind_name),
            results=_results(data["results"], kind_name),
            carried=_stakes(data["carried"], "carried", kind_name),
            shoe_state=None if data["shoe_state"] is None else check_state(data["shoe_state"]),
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


# --- strict reading -------------------------------------------------------------------------

_RECORD_KEYS = (
    "format", "rules", "rules_digest", "round", "shoe", "round_in_shoe", "seed", "cut_card", "last_of_shoe",
    "void", "reshuffled", "head_card", "burned", "ranking", "banker", "hands", "winners", "money", "bets", "results", "carried",
    "shoe_state", "prev", "hash",
)
_RESULT_KEYS = ("player", "bet", "stake", "outcome", "detail", "odds", "returned", "commission", "carried", "net")
_OUTCOMES = ("win", "lose", "push", "carried", "void")
_MOST_VOID = MAX_BURN + 1 + 3 * (MAX_POSITIONS + 1)  # the cards of the longest round
_DETAILS = (None, "with a 6-point hand", *(p.label for p in PairPlus if p is not PairPlus.NONE))
_MULTIPLIER = re.compile(r"x[1-9][0-9]*(?:/[1-9][0-9]*)?")  # a banker game's "x3"
_HEX = re.compile(r"[0-9a-f]{64}")
_NATURAL = re.compile(r"0|[1-9][0-9]*")
_DECIMAL = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:E[+-](?:0|[1-9][0-9]*))?")
_FRACTION = re.compile(r"-?(?:0|[1-9][0-9]*)(?:/[1-9][0-9]*)?")
_BET_NAME = re.compile(r"[a-z_]{1,32}(?::(?:banker|dragon|phoenix|0|[1-9][0-9]?|[1-9]-[1-9]))?")
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


def _int_text(value: object, name: str, low: int, high: int) -> int:
    """An integer written as decimal text (no sign, no leading zero), as a record writes
    the integers that pass what a JSON number holds exactly (seeds, generator states)."""
    if not isinstance(value, str):
        _fail(name, "an integer written as a string", value)
    top = f"2**{high.bit_length()} - 1" if high > _U64 and not high & (high + 1) else str(high)
    if len(value) > len(str(high)) or not _NATURAL.fullmatch(value):
        _fail(name, f"an integer in {low}..{top}, written as a string", value, ValueError)
    number = int(value)
    if not low <= number <= high:
        _fail(name, f"an integer in {low}..{top}", value, ValueError)
    return number


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


def _ranking(value: object) -> Ranking:
    """The record's ranking: an object of exactly order, tiers (a list) and high_card."""
    if not isinstance(value, Mapping):
        _fail("ranking", "a ranking (an object of order, tiers and high_card)", value)
    _check_keys(value, ("order", "tiers", "high_card"), (), "ranking")
    if not isinstance(value["tiers"], list) or len(value["tiers"]) > 8:
        _fail("ranking.tiers", "a list of tier names", value["tiers"])
    try:
        return Ranking(order=value["order"], tiers=tuple(value["tiers"]), high_card=value["high_card"])
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"field {exc}") from None


def _hand(value: object, name: str, ranking: Ranking = DEFAULT_RANKING) -> HandValue:
    if not isinstance(value, Mapping):
        _fail(name, "a hand (an object of cards, label and pair_plus)", value)
    _check_keys(value, ("cards", "label", "pair_plus"), (), name)
    cards = _cards(value["cards"], f"{name}.cards", 3)
    if len(cards) != 3:
        _fail(f"{name}.cards", "three cards", value["cards"], ValueError)
    return evaluate(cards, ranking)  # label and pair_plus are compared with these cards' by from_dict


def _hands(value: object, ranking: Ranking = DEFAULT_RANKING) -> dict[int, HandValue]:
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
    return {p: _hand(value[str(p)], f"hands.{p}", ranking) for p in sorted(positions)}


def _bet_name(value: object, name: str) -> str:
    if not isinstance(value, str):
        _fail(name, "a bet name", value)
    if not _BET_NAME.fullmatch(value) or parse_bet(value).name != value:
        _fail(name, "a bet name such as 'win:1' or 'odd'", value, ValueError)
    return value


def _decimal(value: str, name: str) -> Decimal:
    """A decimal amount's text (already matched), its exponent bounded."""
    amount = Decimal(value)
    exponent = amount.as_tuple().exponent
    assert isinstance(exponent, int)
    if abs(exponent) > MAX_DECIMAL_EXPONENT:
        _fail(name, f"a decimal exponent within +-{MAX_DECIMAL_EXPONENT}", value, ValueError)
    return amount


def _stake(value: object, name: str, kind: str) -> Money:
    """A stake of ``kind`` money, strictly: positive, at most ``MAX_STAKE``, a bounded
    decimal exponent, a bounded denominator; never an unbounded number."""
    if not isinstance(value, str):
        _fail(name, f"a stake written as a string (the record's money is {kind!r})", value)
    amount: Money
    if len(value) > MAX_TEXT_NUMBER:
        _fail(name, f"an amount of at most {MAX_TEXT_NUMBER} characters", value, ValueError)
    if kind == "int":
        return _int_text(value, name, 1, MAX_STAKE)
    if kind == "decimal":
        if not _DECIMAL.fullmatch(value):
            _fail(name, "a decimal amount such as '1.05'", value, ValueError)
        amount = _decimal(value, name)
    else:
        if not _FRACTION.fullmatch(value):
            _fail(name, "a fraction such as '7/2'", value, ValueError)
        amount = Fraction(value)
        if amount.denominator > MAX_DENOMINATOR:
            _fail(name, f"a denominator of at most {MAX_DENOMINATOR}", value, ValueError)
    if not 0 < amount <= MAX_STAKE:
        _fail(name, f"a positive stake of at most {MAX_STAKE}", value, ValueError)
    return amount


def _stakes(value: object, name: str, kind: str) -> dict[str, Any]:
    """A slip: ``{bet: stake}``, or by player ``{player: {bet: stake}}`` (not both)."""
    if not isinstance(value, Mapping):
        _fail(name, "an object of bet -> stake (or of player -> such an object)", value)
    if len(value) > MAX_BETS:
        _fail(name, f"at most {MAX_BETS} stakes", value, ValueError)
    if not any(isinstance(v, Mapping) for v in value.values()):
        return {_bet_name(k, f"{name} key"): _stake(v, f"{name}.{k}", kind) for k, v in value.items()}
    out: dict[str, Any] = {}
    total = 0
    for player, slip in value.items():
        who = _player(player, f"{name} key")
        if not isinstance(slip, Mapping) or not slip:
            _fail(f"{name}.{who}", "a player's object of bet -> stake (a slip by player gives one for every player)",
                  slip)
        total += len(slip)
        if total > MAX_BETS:
            _fail(name, f"at most {MAX_BETS} stakes", value, ValueError)
        out[who] = {_bet_name(k, f"{name}.{who} key"): _stake(v, f"{name}.{who}.{k}", kind) for k, v in slip.items()}
    return out


def _player(value: object, name: str) -> str:
    if not isinstance(value, str):
        _fail(name, "a player's id", value)
    if not 1 <= len(value) <= MAX_PLAYER_ID or not value.isprintable() or not value.strip():
        _fail(name, f"a player's id (1 to {MAX_PLAYER_ID} printable characters)", value, ValueError)
    return value


def _amount(value: object, name: str, kind: str) -> Money:
    """A result's amount: of the record's money kind, or an exact fraction (a commission
    that leaves a part of the minor unit); bounded in size."""
    if not isinstance(value, str):
        _fail(name, "an amount", value)
    if len(value) > 2 * MAX_TEXT_NUMBER + 1:
        _fail(name, f"an amount of at most {2 * MAX_TEXT_NUMBER + 1} characters", value, ValueError)
    if _FRACTION.fullmatch(value):
        amount: Fraction | Decimal = Fraction(value)
    elif kind == "decimal" and _DECIMAL.fullmatch(value):
        amount = _decimal(value, name)
    else:
        _fail(name, f"an amount of the record's money ({kind!r})", value, ValueError)
    if not -_MAX_AMOUNT <= amount <= _MAX_AMOUNT:
        _fail(name, f"an amount of at most {_MAX_AMOUNT}", value, ValueError)
    if kind == "int" and isinstance(amount, Fraction) and amount.denominator == 1:
        return int(amount)
    if kind == "decimal" and isinstance(amount, Fraction) and "/" not in value:
        return Decimal(amount.numerator)  # "5" in a decimal record: written as Decimal writes 5
    return amount


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
        if result["player"] is not None:
            _player(result["player"], f"{name}.player")
        _bet_name(result["bet"], f"{name}.bet")
        if result["outcome"] not in _OUTCOMES or not isinstance(result["outcome"], str):
            _fail(f"{name}.outcome", f"one of {', '.join(_OUTCOMES)}", result["outcome"], ValueError)
        detail = result["detail"]
        if not (detail is None or isinstance(detail, str)) or (detail not in _DETAILS and not (
                isinstance(detail, str) and len(detail) <= MAX_TEXT_NUMBER + 1 and _MULTIPLIER.fullmatch(detail))):
            _fail(f"{name}.detail", "null or what won (such as 'flush')", result["detail"], ValueError)
        odds = result["odds"]
        if odds is not None:
            if not isinstance(odds, str) or len(odds) > MAX_TEXT_NUMBER or not _FRACTION.fullmatch(odds):
                _fail(f"{name}.odds", "null or odds such as '1/2'", odds, ValueError)
            if not 0 <= Fraction(odds) <= MAX_ODDS or Fraction(odds).denominator > MAX_DENOMINATOR:
                _fail(f"{name}.odds", f"odds of at most {MAX_ODDS}", odds, ValueError)
        entry = {k: result[k] for k in _RESULT_KEYS}
        for money_field in _AMOUNTS:
            entry[money_field] = _amount(result[money_field], f"{name}.{money_field}", kind)
        out.append(entry)
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
        return loads_strict(
            text, parse_int=_json_int,
            parse_float=lambda s: _reject(f"a number with a fraction or an exponent ({s[:20]}): records hold none"),
            parse_constant=lambda s: _reject(f"{s} is not a number a record holds"),
        )
    except RecursionError:
        raise ValueError("not a record: nested too deeply") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON ({exc.msg} at character {exc.pos})") from None


# --- logs -------------------------------------------------------------------------------------


def write_log(records: Iterable[RoundRecord], path: str | os.PathLike[str], *, append: bool = False) -> int:
    """Write records as a JSON Lines log (``record.to_json()`` and ``\\n`` each, UTF-8),
    replacing the file (or appending to it); return how many were written."""
    count = 0
    with Path(path).open("a" if append else "w", encoding="utf-8", newline="\n") as handle:
        for record in records:
            if not isinstance(record, RoundRecord):
                raise TypeError(f"a log holds RoundRecords, not {type(record).__name__}")
            handle.write(record.to_json() + "\n")
            count += 1
    return count
