"""The round record: its fields, its canonical bytes, the hash chain and the HMAC, the
digest of its rules, and logs of records (``sanggong.records``)."""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import hmac as _hmac
import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Self

from .._canonical import canonical_json
from ..cards import Card
from ..hands import HandValue, ranking_of
from ..money import money_kind, money_text
from ..ranking import DEFAULT_RANKING, Ranking
from ..rules import RuleSet, as_rules
from ..settlement import BetResult, Money
from ._parse import check_derived, loads_record, record_fields
from ._values import AMOUNTS, FORMAT, KIND_NAMES, ZERO_HASH, copy_json, show

__all__ = [
    "Chained", "RoundRecord", "canonical_bytes", "check_key", "check_rules", "record_hash", "record_hmac", "result_entry",
    "rules_digest", "stakes_of", "stakes_text", "write_log"
]

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


def canonical_bytes(record: Chained | Mapping[str, Any]) -> bytes:
    """The canonical bytes of a record (a round's, or a log's seal) or of its JSON object
    (see the module's doc)."""
    if isinstance(record, Chained):
        return record.canonical
    if not isinstance(record, Mapping):
        raise TypeError(f"a record or its JSON object, not {type(record).__name__}")
    return _canonical_bytes(record)


def record_hash(record: Chained | Mapping[str, Any]) -> str:
    """The SHA-256 hex of a record's canonical bytes: its ``hash``, the next one's ``prev``."""
    return hashlib.sha256(canonical_bytes(record)).hexdigest()


def record_hmac(record: Chained | Mapping[str, Any], key: bytes) -> str:
    """The HMAC-SHA256 hex of a record's canonical bytes under ``key``."""
    checked = check_key(key)
    if checked is None:
        raise TypeError("key must be bytes, not None")
    return _mac(checked, canonical_bytes(record))


def rules_digest(rules: RuleSet | str) -> str:
    """The digest a record of ``rules`` carries (``RuleSet.digest()``, cached)."""
    rules = as_rules(rules)
    return _digest(rules)


def check_rules(record: RoundRecord, rules: RuleSet) -> None:
    """Check that ``record`` was played under ``rules``: its ``rules`` is their name and
    its ``rules_digest`` their digest.

    :raises ValueError: naming the field that is not the rules'.
    """
    if record.rules != rules.name:
        raise ValueError(f"field 'rules' is {show(record.rules)}, not the rules' name {rules.name!r}")
    if record.rules_digest != rules_digest(rules):
        raise ValueError(f"field 'rules_digest' is not the digest of the rules {rules.name!r} given")


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


def stakes_text(bets: Mapping[str, Any]) -> dict[str, Any]:
    """A slip (or carried stakes) as a record's JSON holds it: each amount as its text
    (``money.money_text``), a player's bets too."""
    return {k: stakes_text(v) if isinstance(v, Mapping) else money_text(v) for k, v in bets.items()}


def _money_kind(bets: Mapping[str, Any]) -> str:
    """The slip's money kind by name (a slip's stakes are of one kind; ``int`` for none)."""
    kinds = {money_kind(v) for v in stakes_of(bets).values()}
    if len(kinds) > 1 or None in kinds:
        raise ValueError(f"a record's stakes are of one kind of money, not {sorted(map(str, kinds))}")
    kind = kinds.pop() if kinds else int
    assert kind is not None
    return KIND_NAMES[kind]


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
    return {k: money_text(v) if k in AMOUNTS else v for k, v in result.items()}


def hand_json(hand: HandValue) -> dict[str, Any]:
    """A hand as a record's JSON holds it (``banker``, ``hands``)."""
    return {"cards": [str(c) for c in hand.cards], "label": hand.label, "pair_plus": hand.pair_plus.label}


_WORDS = {1: "win", 0: "tie", -1: "lose"}


def winner(rank: int, banker_rank: int) -> str:
    """A hand of ``rank`` against the banker's: ``"win"``, ``"tie"`` or ``"lose"``."""
    return _WORDS[(rank > banker_rank) - (rank < banker_rank)]


def json_line(data: Mapping[str, Any]) -> str:
    """A record's JSON object as one line of a log (``RoundRecord.to_json``)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


class Chained:
    """What a record of a log (a ``RoundRecord``, or the log's ``SealRecord``) has of its
    chain: its canonical bytes, ``hash`` and ``hmac``, and its line, all made from its
    ``_body()`` by the same writers (see this module's doc)."""

    hmac: str | None

    def _body(self) -> dict[str, Any]:
        raise NotImplementedError

    @functools.cached_property
    def canonical(self) -> bytes:
        """The bytes ``hash`` and ``hmac`` are taken over (see this module's doc)."""
        return _canonical_bytes(self._body())

    @functools.cached_property
    def hash(self) -> str:
        """SHA-256 hex of ``canonical``: the next record's ``prev``."""
        return hashlib.sha256(self.canonical).hexdigest()

    def with_hmac(self, key: bytes) -> Self:
        """This record carrying its ``hmac`` under ``key`` (``record_hmac``)."""
        sealed = dataclasses.replace(self, hmac=record_hmac(self, key))  # type: ignore[type-var]
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
        line: str | None = self.__dict__.get("_line")  # (written with the record: dealing.RoundWriter)
        return line if line is not None else json_line(self.to_dict())


@dataclass(frozen=True)
class RoundRecord(Chained):
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
        found = ranking_of(None, self.banker, *self.hands.values())  # (hands of two rankings: TypeError)
        if found != self.ranking:  # ranks of another ranking than the record's compare as nothing
            raise TypeError(f"round {self.round}: hands ranked by {found!r} in a record of {self.ranking!r}")
        b = self.banker.rank
        return {p: winner(h.rank, b) for p, h in self.hands.items()}

    def _body(self) -> dict[str, Any]:
        hand = hand_json
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
            "bets": stakes_text(self.bets),
            "results": [_result_json(r) for r in self.results],
            "carried": stakes_text(self.carried),
            "shoe_state": None if self.shoe_state is None else copy_json(self.shoe_state),
            "prev": self.prev,
        }

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
        record = cls(**record_fields(data))
        check_derived(data, record.to_dict(), record.hash)
        return record

    @classmethod
    def from_json(cls, text: str | bytes) -> RoundRecord:
        """Read one record (one line of a log) strictly: at most ``MAX_RECORD_BYTES``
        bytes, checked before parsing; JSON without floats, NaN, duplicate keys or
        numbers of more than 80 digits; then ``from_dict``."""
        return cls.from_dict(loads_record(text))


# --- logs -------------------------------------------------------------------------------------


def write_log(records: Iterable[Chained], path: str | os.PathLike[str], *, append: bool = False) -> int:
    """Write records as a JSON Lines log (``record.to_json()`` and ``\\n`` each, UTF-8),
    replacing the file (or appending to it); return how many were written. The records
    are ``RoundRecord`` s, and the game's ``SealRecord`` last where it was closed."""
    from pathlib import Path  # (here: a command that reads a log starts without it)

    count = 0
    with Path(path).open("a" if append else "w", encoding="utf-8", newline="\n") as handle:
        for record in records:
            if not isinstance(record, Chained):
                raise TypeError(f"a log holds RoundRecords (and a SealRecord), not {type(record).__name__}")
            handle.write(record.to_json() + "\n")
            count += 1
    return count
