"""The seal: the closing record of a game's log, its money totals, and reading one strictly
(``sanggong.records``).

A hash chain shows that no record was changed, inserted or removed *between* two others,
never that its last records are all there: a log cut short is a shorter good chain. The
seal closes it. ``Game.close()`` writes it after the game's last round: a record of its
own kind (``"type": "seal"``), chained (``prev``, ``hash``) and signed (``hmac``) like a
round's, by the same writers, that states how far the game went (``rounds``, ``shoes``)
and what money it moved. ``verify.verify_log`` checks that it is the log's last record,
that it follows the last round and that its totals are the records' own.

The totals are defined in ``SealRecord``.
"""

from __future__ import annotations

import hmac as _hmac
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final

from ..limits import MAX_ROUND, MAX_SEED
from ._parse import loads_record, read_head, read_hex
from ._record import Chained, RoundRecord, stakes_of
from ._values import FORMAT, ZERO_HASH, check_int, check_keys, fail, int_text, show

__all__ = ["SEAL_KEYS", "SEAL_TYPE", "TOTALS", "SealRecord", "Totals", "is_seal", "record_amounts"]

SEAL_TYPE: Final = "seal"
"""A seal's ``type`` (a round record has no ``type`` field)."""

TOTALS: Final = ("staked", "returned", "commission", "on_table", "house_net")
"""A seal's money totals, in the order it writes them."""

SEAL_KEYS = ("format", "type", "rules", "rules_digest", "seed", "rounds", "shoes", *TOTALS, "prev", "hash")
"""Every field of a seal's JSON object but ``hmac`` (there where the game signs)."""

MAX_TOTAL_TEXT: Final = 1000
"""The longest total a seal holds (characters): a game's totals are far shorter, unless
its stakes are fractions of ever new denominators (``Game.close`` then refuses)."""

_TOTAL = re.compile(r"-?(?:0|[1-9][0-9]*)(?:/[1-9][0-9]*)?")
_MOST_DENOMINATORS = 4096  # the distinct denominators a sum keeps apart before it adds them up


def is_seal(data: object) -> bool:
    """Whether a record's JSON object is a seal's (it has a ``type``; read it with
    ``SealRecord.from_dict``, which checks that it is ``"seal"``)."""
    return isinstance(data, Mapping) and "type" in data


def record_amounts(record: RoundRecord) -> list[tuple[int, int, int]]:
    """A round's money as ``Totals`` adds it: (which sum, numerator, denominator) of every
    stake, amount returned and commission of its results (sums 0, 1, 2), and of every
    stake it carries into the next round (sum 3)."""
    out = []
    for result in record.results:
        out.append((0, *result["stake"].as_integer_ratio()))
        out.append((1, *result["returned"].as_integer_ratio()))
        out.append((2, *result["commission"].as_integer_ratio()))
    out.extend((3, *amount.as_integer_ratio()) for amount in stakes_of(record.carried).values())
    return out


def _exact_sum(parts: list[Fraction]) -> Fraction:
    """The sum of fractions, added in pairs (never one ever longer running sum)."""
    while len(parts) > 1:
        parts = [parts[i] + parts[i + 1] if i + 1 < len(parts) else parts[i] for i in range(0, len(parts), 2)]
    return parts[0] if parts else Fraction(0)


class Totals:
    """The money of a game's rounds, summed exactly as they are played (a ``Game``) or read
    (``verify_log``): each sum an int by denominator, so adding a round costs a few int
    additions whatever its money (an int, a ``Decimal``, a ``Fraction``). ``values`` gives
    a seal's totals (``SealRecord``). A sum whose fractions outgrow what a seal can
    hold is given up (``values`` is then None): no seal can state it.

    Not thread-safe: one game's, or one reader's.
    """

    def __init__(self) -> None:
        self._sums: tuple[dict[int, int], ...] = ({}, {}, {}, {})
        self.overflow = False

    def add(self, amounts: Iterable[tuple[int, int, int]], times: int = 1) -> None:
        """Add ``times`` rounds of these amounts (``record_amounts``)."""
        if self.overflow:
            return
        sums = self._sums
        for which, numerator, denominator in amounts:
            sums[which][denominator] = sums[which].get(denominator, 0) + numerator * times
            if len(sums[which]) > _MOST_DENOMINATORS:
                self._collapse(which)

    def _collapse(self, which: int) -> None:
        total = _exact_sum([Fraction(n, d) for d, n in self._sums[which].items()])
        self._sums[which].clear()
        if max(total.numerator.bit_length(), total.denominator.bit_length()) > 4 * MAX_TOTAL_TEXT:
            self.overflow = True
        self._sums[which][total.denominator] = total.numerator

    def values(self, on_table: Mapping[str, Any]) -> dict[str, Fraction] | None:
        """The totals of the rounds added, the last of which carried ``on_table`` (its
        ``carried``), by name (``TOTALS``); None where a sum outgrew what a seal holds."""
        if self.overflow:
            return None
        staked, returned, commission, carried = (_exact_sum([Fraction(n, d) for d, n in s.items()])
                                                 for s in self._sums)
        left = _exact_sum([Fraction(v) for v in stakes_of(on_table).values()])
        staked = staked - carried + left  # a stake carried into a round was staked before it
        out = {"staked": staked, "returned": returned, "commission": commission, "on_table": left,
               "house_net": staked - returned - left}
        if any(len(str(v)) > MAX_TOTAL_TEXT for v in out.values()):
            return None
        return out


def _total(value: object, name: str) -> Fraction:
    """A seal's total: an exact amount's text, in lowest terms as ``str(Fraction)`` writes
    it, at most ``MAX_TOTAL_TEXT`` characters."""
    if not isinstance(value, str):
        fail(name, "an amount written as a string", value)
    if len(value) > MAX_TOTAL_TEXT or not _TOTAL.fullmatch(value):
        fail(name, f"an amount such as '1250' or '2501/2' (at most {MAX_TOTAL_TEXT} characters)", value, ValueError)
    amount = Fraction(value)
    if str(amount) != value:
        fail(name, f"an amount in lowest terms ({str(amount)[:40]!r})", value, ValueError)
    return amount


@dataclass(frozen=True)
class SealRecord(Chained):
    """The closing record of a game's log (``Game.close()``): the game's rules, seed,
    rounds and shoes, and its money totals, chained to its last round's record (``prev``)
    and signed like it (``hmac``). Its line (``"type": "seal"``) is written, and its
    canonical bytes, hash and HMAC made, as a round record's are. A chain cannot show
    that a log's last records were removed; a log that ends with its seal can
    (``verify.verify_log`` checks it).

    The totals are exact, over every round's results, written as text (``"1250"``,
    ``"2501/2"``: an int, or a fraction in lowest terms).

    :ivar rounds: the round of the game's last record (the rounds the log holds).
    :ivar shoes: the shoe of the game's last record.
    :ivar staked: the stakes the players put on the table (a stake carried from a round
        into the next is staked once).
    :ivar returned: what was paid back to them (``returned`` of every result).
    :ivar commission: what the house kept of winning commission bets.
    :ivar on_table: the stakes still on the table after the last round (carried: still
        the players').
    :ivar house_net: ``staked - returned - on_table``: the house's gain (negative: its loss).
    """

    rules: str
    rules_digest: str
    seed: int | None
    rounds: int
    shoes: int
    staked: Fraction
    returned: Fraction
    commission: Fraction
    on_table: Fraction
    house_net: Fraction
    prev: str = field(default=ZERO_HASH, compare=False)
    hmac: str | None = field(default=None, compare=False)

    def totals(self) -> dict[str, Fraction]:
        """The money totals by name (``TOTALS``)."""
        return {name: getattr(self, name) for name in TOTALS}

    def _body(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "type": SEAL_TYPE,
            "rules": self.rules,
            "rules_digest": self.rules_digest,
            "seed": None if self.seed is None else str(self.seed),
            "rounds": self.rounds,
            "shoes": self.shoes,
            **{name: str(amount) for name, amount in self.totals().items()},
            "prev": self.prev,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SealRecord:
        """Read a seal strictly: every field present (``hmac`` optional) and of its exact
        type and range, the totals exact text in lowest terms, and ``hash`` the hash of its
        canonical bytes. Anything else raises TypeError (a wrong type) or ValueError,
        naming the field."""
        if not isinstance(data, Mapping):
            raise TypeError(f"a record is a JSON object, not {type(data).__name__}")
        check_keys(data, SEAL_KEYS, ("hmac",), "")
        if data["type"] != SEAL_TYPE:
            raise ValueError(f"field 'type': a record of a log is a round's (no type) or a {SEAL_TYPE!r}, "
                             f"not {show(data['type'])}")
        seed = data["seed"]
        seal = cls(
            rules=read_head(data),
            rules_digest=read_hex(data["rules_digest"], "rules_digest"),
            seed=None if seed is None else int_text(seed, "seed", 0, MAX_SEED),
            rounds=check_int(data["rounds"], "rounds", 1, MAX_ROUND),
            shoes=check_int(data["shoes"], "shoes", 1, MAX_ROUND),
            **{name: _total(data[name], name) for name in TOTALS},
            prev=read_hex(data["prev"], "prev"),
            hmac=None if "hmac" not in data else read_hex(data["hmac"], "hmac"),
        )
        if not _hmac.compare_digest(read_hex(data["hash"], "hash"), seal.hash):
            raise ValueError("hash does not match its contents")
        return seal

    @classmethod
    def from_json(cls, text: str | bytes) -> SealRecord:
        """Read a seal (one line of a log) strictly: as ``RoundRecord.from_json`` reads a
        round's line, then ``from_dict``."""
        return cls.from_dict(loads_record(text))
