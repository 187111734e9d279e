"""Parsing a record strictly: every field of its JSON object of its exact type and range,
the derived fields recomputed and compared, and the JSON itself bounded before it is
parsed (``sanggong.records``)."""

from __future__ import annotations

import hmac as _hmac
import json
import re
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

from .._canonical import loads_strict
from ..cards import Card
from ..hands import HandValue, PairPlus, evaluate
from ..limits import (
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
from ..money import Money
from ..ranking import DEFAULT_RANKING, Ranking
from ..rules import parse_bet
from ._states import check_state
from ._values import AMOUNTS, FORMAT, MONEY_KINDS, check_int, check_keys, fail, int_text, show

__all__ = ["RECORD_KEYS", "check_derived", "loads_record", "read_head", "read_hex", "read_stakes", "record_fields"]

RECORD_KEYS = (
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
_DECIMAL = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:E[+-](?:0|[1-9][0-9]*))?")
_FRACTION = re.compile(r"-?(?:0|[1-9][0-9]*)(?:/[1-9][0-9]*)?")
_BET_NAME = re.compile(r"[a-z_]{1,32}(?::(?:banker|dragon|phoenix|0|[1-9][0-9]?|[1-9]-[1-9]))?")
_POSITION = re.compile(r"[1-9][0-9]?")
_MAX_AMOUNT = MAX_STAKE * (MAX_ODDS + 1)  # the most a result's amount can be
_MAX_JSON_DIGITS = 80


def _bool(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        fail(name, "true or false", value)
    return value


def _hex(value: object, name: str) -> str:
    if not isinstance(value, str):
        fail(name, "64 lower-case hex digits", value)
    if not _HEX.fullmatch(value):
        fail(name, "64 lower-case hex digits", value, ValueError)
    return value


def _card(value: object, name: str) -> Card:
    if not isinstance(value, str):
        fail(name, "a card such as 'Kh'", value)
    if len(value) != 2:
        fail(name, "a card written as two characters, such as 'Th' or 'Kh'", value, ValueError)
    try:
        card = Card.parse(value)
    except ValueError:
        fail(name, "a card such as 'Kh'", value, ValueError)
    if str(card) != value:
        raise ValueError(f"field {name!r}: {value!r} is not written canonically ({str(card)!r})")
    return card


def _cards(value: object, name: str, most: int) -> tuple[Card, ...]:
    if not isinstance(value, list):
        fail(name, "a list of cards", value)
    if len(value) > most:
        fail(name, f"at most {most} cards", value, ValueError)
    return tuple(_card(c, f"{name}[{i}]") for i, c in enumerate(value))


def _ranking(value: object) -> Ranking:
    """The record's ranking: an object of exactly order, tiers (a list) and high_card."""
    if not isinstance(value, Mapping):
        fail("ranking", "a ranking (an object of order, tiers and high_card)", value)
    check_keys(value, ("order", "tiers", "high_card"), (), "ranking")
    if not isinstance(value["tiers"], list) or len(value["tiers"]) > 8:
        fail("ranking.tiers", "a list of tier names", value["tiers"])
    try:
        return Ranking(order=value["order"], tiers=tuple(value["tiers"]), high_card=value["high_card"])
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"field {exc}") from None


def _hand(value: object, name: str, ranking: Ranking = DEFAULT_RANKING) -> HandValue:
    if not isinstance(value, Mapping):
        fail(name, "a hand (an object of cards, label and pair_plus)", value)
    check_keys(value, ("cards", "label", "pair_plus"), (), name)
    cards = _cards(value["cards"], f"{name}.cards", 3)
    if len(cards) != 3:
        fail(f"{name}.cards", "three cards", value["cards"], ValueError)
    return evaluate(cards, ranking)  # label and pair_plus are compared with these cards' by from_dict


def _hands(value: object, ranking: Ranking = DEFAULT_RANKING) -> dict[int, HandValue]:
    if not isinstance(value, Mapping):
        fail("hands", "an object of position -> hand", value)
    if not 1 <= len(value) <= MAX_POSITIONS:
        fail("hands", f"the hands of 1..{MAX_POSITIONS} positions", value, ValueError)
    positions = []
    for key in value:
        if not isinstance(key, str) or not _POSITION.fullmatch(key):
            raise ValueError(f"field 'hands': {show(key)} is not a position")
        positions.append(int(key))
    if sorted(positions) != list(range(1, len(value) + 1)):
        raise ValueError(f"field 'hands': expected positions 1..{len(value)}, got {sorted(positions)}")
    return {p: _hand(value[str(p)], f"hands.{p}", ranking) for p in sorted(positions)}


def _bet_name(value: object, name: str) -> str:
    if not isinstance(value, str):
        fail(name, "a bet name", value)
    if not _BET_NAME.fullmatch(value) or parse_bet(value).name != value:
        fail(name, "a bet name such as 'win:1' or 'odd'", value, ValueError)
    return value


def _decimal(value: str, name: str) -> Decimal:
    """A decimal amount's text (already matched), its exponent bounded."""
    amount = Decimal(value)
    exponent = amount.as_tuple().exponent
    assert isinstance(exponent, int)
    if abs(exponent) > MAX_DECIMAL_EXPONENT:
        fail(name, f"a decimal exponent within +-{MAX_DECIMAL_EXPONENT}", value, ValueError)
    return amount


def _stake(value: object, name: str, kind: str) -> Money:
    """A stake of ``kind`` money, strictly: positive, at most ``MAX_STAKE``, a bounded
    decimal exponent, a bounded denominator; never an unbounded number."""
    if not isinstance(value, str):
        fail(name, f"a stake written as a string (the record's money is {kind!r})", value)
    amount: Money
    if len(value) > MAX_TEXT_NUMBER:
        fail(name, f"an amount of at most {MAX_TEXT_NUMBER} characters", value, ValueError)
    if kind == "int":
        return int_text(value, name, 1, MAX_STAKE)
    if kind == "decimal":
        if not _DECIMAL.fullmatch(value):
            fail(name, "a decimal amount such as '1.05'", value, ValueError)
        amount = _decimal(value, name)
    else:
        if not _FRACTION.fullmatch(value):
            fail(name, "a fraction such as '7/2'", value, ValueError)
        amount = Fraction(value)
        if amount.denominator > MAX_DENOMINATOR:
            fail(name, f"a denominator of at most {MAX_DENOMINATOR}", value, ValueError)
    if not 0 < amount <= MAX_STAKE:
        fail(name, f"a positive stake of at most {MAX_STAKE}", value, ValueError)
    return amount


def read_stakes(value: object, name: str, kind: str) -> dict[str, Any]:
    """A slip: ``{bet: stake}``, or by player ``{player: {bet: stake}}`` (not both)."""
    if not isinstance(value, Mapping):
        fail(name, "an object of bet -> stake (or of player -> such an object)", value)
    if len(value) > MAX_BETS:
        fail(name, f"at most {MAX_BETS} stakes", value, ValueError)
    if not any(isinstance(v, Mapping) for v in value.values()):
        return {_bet_name(k, f"{name} key"): _stake(v, f"{name}.{k}", kind) for k, v in value.items()}
    out: dict[str, Any] = {}
    total = 0
    for player, slip in value.items():
        who = _player(player, f"{name} key")
        if not isinstance(slip, Mapping) or not slip:
            fail(f"{name}.{who}", "a player's object of bet -> stake (a slip by player gives one for every player)",
                  slip)
        total += len(slip)
        if total > MAX_BETS:
            fail(name, f"at most {MAX_BETS} stakes", value, ValueError)
        out[who] = {_bet_name(k, f"{name}.{who} key"): _stake(v, f"{name}.{who}.{k}", kind) for k, v in slip.items()}
    return out


def _player(value: object, name: str) -> str:
    if not isinstance(value, str):
        fail(name, "a player's id", value)
    if not 1 <= len(value) <= MAX_PLAYER_ID or not value.isprintable() or not value.strip():
        fail(name, f"a player's id (1 to {MAX_PLAYER_ID} printable characters)", value, ValueError)
    return value


def _amount(value: object, name: str, kind: str) -> Money:
    """A result's amount: of the record's money kind, or an exact fraction (a commission
    that leaves a part of the minor unit); bounded in size."""
    if not isinstance(value, str):
        fail(name, "an amount", value)
    if len(value) > 2 * MAX_TEXT_NUMBER + 1:
        fail(name, f"an amount of at most {2 * MAX_TEXT_NUMBER + 1} characters", value, ValueError)
    if _FRACTION.fullmatch(value):
        amount: Fraction | Decimal = Fraction(value)
    elif kind == "decimal" and _DECIMAL.fullmatch(value):
        amount = _decimal(value, name)
    else:
        fail(name, f"an amount of the record's money ({kind!r})", value, ValueError)
    if not -_MAX_AMOUNT <= amount <= _MAX_AMOUNT:
        fail(name, f"an amount of at most {_MAX_AMOUNT}", value, ValueError)
    if kind == "int" and isinstance(amount, Fraction) and amount.denominator == 1:
        return int(amount)
    if kind == "decimal" and isinstance(amount, Fraction) and "/" not in value:
        return Decimal(amount.numerator)  # "5" in a decimal record: written as Decimal writes 5
    return amount


def _results(value: object, kind: str) -> tuple[dict[str, Any], ...]:
    if not isinstance(value, list):
        fail("results", "a list of bet results", value)
    if len(value) > MAX_BETS:
        fail("results", f"at most {MAX_BETS} results", value, ValueError)
    out = []
    for i, result in enumerate(value):
        name = f"results[{i}]"
        if not isinstance(result, Mapping):
            fail(name, "a bet result (an object)", result)
        check_keys(result, _RESULT_KEYS, (), name)
        if result["player"] is not None:
            _player(result["player"], f"{name}.player")
        _bet_name(result["bet"], f"{name}.bet")
        if result["outcome"] not in _OUTCOMES or not isinstance(result["outcome"], str):
            fail(f"{name}.outcome", f"one of {', '.join(_OUTCOMES)}", result["outcome"], ValueError)
        detail = result["detail"]
        if not (detail is None or isinstance(detail, str)) or (detail not in _DETAILS and not (
                isinstance(detail, str) and len(detail) <= MAX_TEXT_NUMBER + 1 and _MULTIPLIER.fullmatch(detail))):
            fail(f"{name}.detail", "null or what won (such as 'flush')", result["detail"], ValueError)
        odds = result["odds"]
        if odds is not None:
            if not isinstance(odds, str) or len(odds) > MAX_TEXT_NUMBER or not _FRACTION.fullmatch(odds):
                fail(f"{name}.odds", "null or odds such as '1/2'", odds, ValueError)
            if not 0 <= Fraction(odds) <= MAX_ODDS or Fraction(odds).denominator > MAX_DENOMINATOR:
                fail(f"{name}.odds", f"odds of at most {MAX_ODDS}", odds, ValueError)
        entry = {k: result[k] for k in _RESULT_KEYS}
        for money_field in AMOUNTS:
            entry[money_field] = _amount(result[money_field], f"{name}.{money_field}", kind)
        out.append(entry)
    return tuple(out)


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


def read_head(data: Mapping[str, Any]) -> str:
    """The fields every record of a log opens with, read strictly: its ``format`` (this
    version's, ``FORMAT``) and its rules' name (returned)."""
    rules = data["rules"]
    if not isinstance(rules, str):
        raise TypeError(f"field 'rules': expected a string, got {show(rules)}")
    if not rules or len(rules) > 200 or not rules.isprintable():
        raise ValueError(f"field 'rules': expected a rule set's name, got {show(rules)}")
    version = data["format"]
    if version != FORMAT or isinstance(version, bool):
        raise ValueError(f"field 'format': this version of sanggong reads record format {FORMAT}, "
                         f"not {show(version)}")
    return rules


read_hex = _hex
"""A hash (or an HMAC) of a record, read strictly: 64 lower-case hex digits."""


def record_fields(data: object) -> dict[str, Any]:
    """A record's JSON object read strictly into ``RoundRecord``'s fields (see
    ``RoundRecord.from_dict``): every field present (``hmac`` optional) and of its exact
    type and range, the hands evaluated again from their cards. Raises TypeError (a wrong
    type) or ValueError, naming the field."""
    if not isinstance(data, Mapping):
        raise TypeError(f"a record is a JSON object, not {type(data).__name__}")
    check_keys(data, RECORD_KEYS, ("hmac",), "")
    kind_name = data["money"]
    if not isinstance(kind_name, str) or kind_name not in MONEY_KINDS:
        raise ValueError(f"field 'money': expected 'int', 'decimal' or 'fraction', got {show(kind_name)}")
    rules = read_head(data)
    seed = data["seed"]
    void = _bool(data["void"], "void")
    if void and (data["banker"] is not None or data["hands"] != {} or data["head_card"] is not None):
        raise ValueError("field 'void': a void round's cards are all in 'burned': it has no banker, no hands "
                         "and no head card")
    return dict(
        rules=rules,
        rules_digest=_hex(data["rules_digest"], "rules_digest"),
        round=check_int(data["round"], "round", 1, MAX_ROUND),
        shoe=check_int(data["shoe"], "shoe", 1, MAX_ROUND),
        round_in_shoe=check_int(data["round_in_shoe"], "round_in_shoe", 1, MAX_ROUND),
        seed=None if seed is None else int_text(seed, "seed", 0, MAX_SEED),
        cut_card=None if data["cut_card"] is None else check_int(data["cut_card"], "cut_card", 1, 52 * MAX_DECKS - 1),
        last_of_shoe=_bool(data["last_of_shoe"], "last_of_shoe"),
        void=void,
        reshuffled=check_int(data["reshuffled"], "reshuffled", 0, MAX_RESHUFFLES),
        head_card=None if data["head_card"] is None else _card(data["head_card"], "head_card"),
        burned=_cards(data["burned"], "burned", _MOST_VOID if void else MAX_BURN + 1),
        ranking=(ranking := _ranking(data["ranking"])),
        banker=None if void else _hand(data["banker"], "banker", ranking),
        hands={} if void else _hands(data["hands"], ranking),
        bets=read_stakes(data["bets"], "bets", kind_name),
        results=_results(data["results"], kind_name),
        carried=read_stakes(data["carried"], "carried", kind_name),
        shoe_state=None if data["shoe_state"] is None else check_state(data["shoe_state"]),
        prev=_hex(data["prev"], "prev"),
        hmac=None if "hmac" not in data else _hex(data["hmac"], "hmac"),
    )


def check_derived(data: Mapping[str, Any], derived: Mapping[str, Any], record_hash: str) -> None:
    """Every field of a record's JSON object (``data``) that the others determine must be
    what they make it (``derived``: the record read from it, as a dict), and its ``hash``
    the hash of its canonical bytes (``record_hash``)."""
    for name in RECORD_KEYS:
        if name == "hash":
            continue
        path = _difference(data[name], derived[name], name)
        if path is not None:
            raise ValueError(f"field {path!r} is not what the record's other fields make it "
                             f"(the record says {show(_at(data, path))}, they make {show(_at(derived, path))})")
    if not _hmac.compare_digest(_hex(data["hash"], "hash"), record_hash):
        raise ValueError("hash does not match its contents")
