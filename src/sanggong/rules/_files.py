"""Rule files: a TOML or JSON file, or a mapping, read into strict ``msgspec`` structs
(exact types, no unknown fields, the failing path named), whose fields then go to
``RuleSet(...)``, where every semantic check lives (``sanggong.rules``); and a rule set's
dict written back as TOML or JSON."""

from __future__ import annotations

import functools
import json
import re
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgspec
from msgspec import UNSET, UnsetType

from .._canonical import DuplicateKey, loads_strict
from .._text import did_you_mean, show
from ..limits import MAX_RULE_FILE_BYTES
from ._variants import pay_keys

__all__ = [
    "PairPlusFile", "RankingFile", "RuleFile", "fields_from_mapping", "fields_from_text", "fields_of", "pays_file",
    "read_fields", "rule_file", "rule_file_text", "to_toml", "write_rule_file"
]

_HUGE_BITS = 1024  # ints this large are refused before msgspec sees them (see scan_ints)

# Types only: a file (or from_dict's mapping) becomes one of these, exactly typed, then its
# fields go to RuleSet(...), where every semantic check lives. UNSET: take RuleSet's default.

_Number = int | float | str


class PairPlusFile(msgspec.Struct, forbid_unknown_fields=True):
    pair: _Number | UnsetType = UNSET
    flush: _Number | UnsetType = UNSET
    straight: _Number | UnsetType = UNSET
    three_of_a_kind: _Number | UnsetType = UNSET
    straight_flush: _Number | UnsetType = UNSET


class RankingFile(msgspec.Struct, forbid_unknown_fields=True):
    order: str | UnsetType = UNSET
    tiers: list[str] | UnsetType = UNSET
    high_card: str | UnsetType = UNSET


class RuleFile(msgspec.Struct, forbid_unknown_fields=True):
    """A rule file's fields, in ``RuleSet``'s order; a file is read as ``rule_file()``,
    this with ``pays`` typed by the bet kinds registered."""

    name: str
    variant: str
    decks: int
    positions: int
    pays: Any  # the pay keys' struct of the variants registered (``rule_file``: ``pays_file``)
    pair_plus_pays: PairPlusFile | UnsetType = UNSET
    commission: _Number | UnsetType = UNSET
    commission_bets: list[str] | UnsetType = UNSET
    tie_by: str | UnsetType = UNSET
    push: str | UnsetType = UNSET
    banker_three_faces_odd_even: str | UnsetType = UNSET
    banker_three_faces_point: int | str | UnsetType | None = UNSET  # "none" (TOML) or null: None
    tie_requires_win: bool | UnsetType = UNSET
    rounding: str | UnsetType = UNSET
    minor_unit: str | int | UnsetType = UNSET  # never a float: money
    burn_after_shuffle: int | UnsetType | None = UNSET
    burn_per_round: int | UnsetType = UNSET
    cut_card_range: tuple[int, int] | UnsetType = UNSET
    deal_one_at_a_time: bool | UnsetType = UNSET
    head_card: bool | UnsetType = UNSET
    head_card_burned: bool | UnsetType = UNSET
    ranking: RankingFile | UnsetType = UNSET
    multipliers: dict[str, _Number] | UnsetType = UNSET
    total_pays: dict[str, _Number] | UnsetType = UNSET
    pair_counts_trips: bool | UnsetType = UNSET
    total_tier: str | UnsetType = UNSET
    total_zero: str | UnsetType = UNSET


@functools.cache
def _structs(keys: tuple[str, ...]) -> tuple[type[msgspec.Struct], type[msgspec.Struct]]:
    pays = msgspec.defstruct("PaysFile", [(key, _Number | UnsetType, UNSET) for key in keys],
                             forbid_unknown_fields=True, module=__name__)
    return pays, msgspec.defstruct("RuleFile", [("pays", pays)], bases=(RuleFile,), forbid_unknown_fields=True,
                                   module=__name__)


def pays_file() -> type[msgspec.Struct]:
    """A rule file's ``pays`` as a struct, made from the bet kinds registered (one
    optional odds field for each of ``pay_keys()``): a new bet kind is read with no change here."""
    return _structs(pay_keys())[0]


def rule_file() -> type[msgspec.Struct]:
    """The struct a rule file is read into: ``RuleFile`` with its ``pays`` as ``pays_file()``."""
    return _structs(pay_keys())[1]


def fields_of(parsed: msgspec.Struct) -> dict[str, Any]:
    """RuleSet's keyword arguments from a parsed file: fields left out take the defaults."""
    out: dict[str, Any] = {}
    for name in parsed.__struct_fields__:
        value = getattr(parsed, name)
        if value is UNSET:
            continue
        if isinstance(value, msgspec.Struct):
            value = {k: getattr(value, k) for k in value.__struct_fields__ if getattr(value, k) is not UNSET}
        out[name] = value
    if out.get("banker_three_faces_point") == "none":
        out["banker_three_faces_point"] = None
    return out


_AT = re.compile(r"(?P<message>.*?)(?: - at `(?P<key>key` in `)?(?P<path>[^`]*)`)?", re.DOTALL)
_UNKNOWN = {"pays": "unknown bet", "pair_plus_pays": "unknown category"}
_SECTIONS: dict[str, type[msgspec.Struct]] = {"": RuleFile, "pair_plus_pays": PairPlusFile, "ranking": RankingFile}
"""The names each section (a TOML table) of a file knows, for the closest to an unknown one
(``pays``: ``pays_file()``'s)."""
_ARTICLES = {"int": "an int", "bool": "a bool", "str": "a str", "float": "a float", "object": "a table",
             "array": "an array", "date": "a date", "time": "a time", "datetime": "a datetime"}


def explain(message: str) -> str:
    """msgspec's ``Expected `bool`, got `str` - at `$.tie_requires_win``` as
    ``tie_requires_win: expected a bool, got a str``: the failing path first."""
    match = _AT.fullmatch(message)
    assert match is not None  # the pattern matches any text
    text = match["message"]
    path = (match["path"] or "$").removeprefix("$").removeprefix(".")
    if match["key"]:
        text += " (a key)"
    missing = re.fullmatch(r"Object missing required field `(.*)`", text)
    unknown = re.fullmatch(r"Object contains unknown field `(.*)`", text, re.DOTALL)
    if missing:
        return f"{f'{path}.' if path else ''}{missing[1]}: missing"
    if unknown:
        section = pays_file() if path == "pays" else _SECTIONS.get(path)
        hint = did_you_mean(unknown[1], section.__struct_fields__) if section is not None else ""
        if path in _UNKNOWN:
            return f"{path}: {_UNKNOWN[path]} {show(unknown[1])}{hint}"
        # a name as the path it is (``deck``), unless it is long or unprintable: then shown
        name = unknown[1] if unknown[1].isprintable() and len(unknown[1]) <= 40 else show(unknown[1])
        if path == "ranking":
            return f"ranking.{name}: unknown field of a ranking{hint}"
        return f"{f'{path}.' if path else ''}{name}: unknown field of a rule set{hint}"
    text = re.sub(r"`([^`]*)`", _types, text)
    text = text[:1].lower() + text[1:]
    if not path:
        return f"a rule set is a table of fields: {text}"
    if path == "minor_unit" and text.endswith("got a float"):
        text += " (money is never a float: write it as text, such as \"0.01\")"
    return f"{path}: {text}"


def _types(match: re.Match[str]) -> str:
    names = [_ARTICLES.get(name, name) for name in match[1].split(" | ")]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def scan_ints(data: Mapping[str, Any]) -> None:
    """Refuse an int too large to be any field's value before msgspec converts it (it
    fails on ints of more digits than Python prints, naming no field). Fields nest two
    deep at most; anything deeper is refused by its type anyway."""
    def check(value: object, path: str) -> None:
        if isinstance(value, int) and value.bit_length() > _HUGE_BITS:
            raise ValueError(f"{path}: {show(value)} is out of range")

    for key, value in data.items():
        path = key if isinstance(key, str) else show(key)
        check(value, path)
        if isinstance(value, Mapping):
            for k, v in value.items():
                check(k, f"{path} (a key)")
                check(v, f"{path}.{k}" if isinstance(k, str) else path)
        elif isinstance(value, list | tuple):
            for i, v in enumerate(value):
                check(v, f"{path}[{i}]")


def huge_toml_int(text: str) -> str:
    """The dotted key of the first very long run of digits in a TOML text (for tomllib's
    error about an int too long to read, which names no key)."""
    match = re.search(r"[0-9_]{100,}", text)
    if match is None:
        return "a value"
    before = text[: match.start()]
    table = ""
    for line in before.splitlines():
        header = re.fullmatch(r"\s*\[\s*([A-Za-z0-9_.-]+)\s*\]\s*(?:#.*)?", line)
        if header:
            table = header[1] + "."
    key = re.match(r"\s*([A-Za-z0-9_.-]+)\s*=", before.rsplit("\n", 1)[-1])
    return f"{table}{key[1]}" if key else "a value"


def read_rule_file(path: Path) -> str:
    """A rule file's text: refused (ValueError naming the file) if it is missing, a
    directory, larger than ``MAX_RULE_FILE_BYTES`` (never read whole) or not UTF-8."""
    try:
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            raise ValueError(f"{path}: is a directory, not a rule file")
        if stat.S_ISREG(info.st_mode) and info.st_size > MAX_RULE_FILE_BYTES:
            raise ValueError(f"{path}: {info.st_size} bytes, more than the {MAX_RULE_FILE_BYTES} a rule file may have")
        with path.open("rb") as file:  # not regular (a pipe): read at most one byte too many
            data = file.read(MAX_RULE_FILE_BYTES + 1)
    except OSError as exc:
        raise ValueError(f"{path}: cannot read the rule file: {exc.strerror or exc}") from None
    if len(data) > MAX_RULE_FILE_BYTES:
        raise ValueError(f"{path}: more than the {MAX_RULE_FILE_BYTES} bytes a rule file may have")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not UTF-8 text (byte {exc.start})") from None


def refuse_repeated_keys(path: Path | str, text: str) -> None:
    """A JSON rule file that gives a key twice is refused (as TOML's grammar and records
    refuse it), never read as its last value: ``{"tie": 80, "tie": 8}`` is not a table
    paying 8. Text that is not JSON is left for msgspec to name."""
    try:
        loads_strict(text)
    except DuplicateKey as exc:
        raise ValueError(f"{path}: {exc}" if str(path) else str(exc)) from None
    except (ValueError, RecursionError):  # not JSON, or nested too deeply: msgspec says which
        pass


def to_toml(data: Mapping[str, Any]) -> str:
    """A rule set's dict (``RuleSet.to_dict``) as TOML text: its scalar fields, then a
    table for each mapping (pays, ranking, ...)."""
    def value(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, int):
            return str(v)
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        return json.dumps(v, ensure_ascii=False)

    lines, tables = [], []
    for key, v in data.items():
        if isinstance(v, Mapping):
            tables.append(f"\n[{key}]\n" + "".join(f"{k} = {value(x)}\n" for k, x in v.items()))
        else:
            lines.append(f"{key} = {value(v)}\n")
    return "".join(lines) + "".join(tables)


def fields_from_mapping(data: Mapping[str, Any]) -> dict[str, Any]:
    """``RuleSet``'s keyword arguments from ``to_dict``'s form, read as strictly as a file:
    exact types, no unknown fields. A value of the wrong type raises ``TypeError`` (as
    ``RuleSet(...)`` does), any other invalid field ``ValueError``; either names the field."""
    if not isinstance(data, Mapping):
        raise TypeError(f"a rule set is a table of fields, not {type(data).__name__}")
    data = dict(data)
    scan_ints(data)
    try:
        parsed = msgspec.convert(data, rule_file(), strict=True)
    except msgspec.ValidationError as exc:
        # a value of the wrong type is a TypeError, as when given to RuleSet(...)
        raise (TypeError if str(exc).startswith("Expected") else ValueError)(explain(str(exc))) from None
    return fields_of(parsed)


def read_fields(path: Path) -> dict[str, Any]:
    """``RuleSet``'s keyword arguments from a ``.toml`` or ``.json`` file (any other
    suffix: JSON). Every problem raises ``ValueError`` naming the file and the field."""
    return fields_from_text(read_rule_file(path), "toml" if path.suffix == ".toml" else "json", str(path))


def fields_from_text(text: str, format: str, where: str) -> dict[str, Any]:
    """``RuleSet``'s keyword arguments from a rule file's text in ``format`` (``"toml"`` or
    ``"json"``), read as strictly as a file (``read_fields``; ``where`` names the text in
    every error: the file; empty for none)."""
    at = f"{where}: " if where else ""
    if format not in ("toml", "json"):
        raise ValueError(f"format: expected 'toml' or 'json', got {show(format)}")
    if len(text) > MAX_RULE_FILE_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_RULE_FILE_BYTES:
        raise ValueError(f"{at}more than the {MAX_RULE_FILE_BYTES} bytes a rule file may have")
    toml = format == "toml"
    kind = "TOML" if toml else "JSON"
    if not toml:  # (TOML's grammar refuses a repeated key itself)
        refuse_repeated_keys(where, text)
    try:
        if toml:
            parsed = msgspec.toml.decode(text, type=rule_file(), strict=True)
        else:
            parsed = msgspec.json.decode(text, type=rule_file(), strict=True)
    except msgspec.ValidationError as exc:
        raise ValueError(f"{at}{explain(str(exc))}") from None
    except msgspec.DecodeError as exc:
        raise ValueError(f"{at}not valid {kind}: {exc}") from None
    except RecursionError:
        raise ValueError(f"{at}not valid {kind}: nested too deeply") from None
    except ValueError as exc:  # tomllib refuses an int of more digits than Python prints
        raise ValueError(f"{at}{huge_toml_int(text)}: not valid {kind}: {exc}") from None
    return fields_of(parsed)


def rule_file_text(data: Mapping[str, Any], format: str) -> str:
    """A rule set's dict (``RuleSet.to_dict``) as the text of a ``.toml`` or ``.json`` rule file."""
    return to_toml(data) if format == "toml" else json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def write_rule_file(path: Path, data: Mapping[str, Any]) -> None:
    """Write a rule set's dict as ``.toml`` or ``.json`` (by the file's suffix)."""
    path.write_text(rule_file_text(data, "toml" if path.suffix == ".toml" else "json"), encoding="utf-8")
