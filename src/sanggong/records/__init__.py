"""Round records a regulator can rely on: the record, its strict reading, its canonical
form, the hash chain and the HMAC.

**A log** is a JSON Lines file: one round record (``RoundRecord.to_json()``) on each
line, UTF-8, each line ending in ``\\n``, the records of one game in the order they were
played, from the game's first round, and last, where the game was closed, its seal
(``SealRecord``: ``"type": "seal"``, the game's rounds and money totals, chained and
signed like a round's record; a round record has no ``type``). Write one as the game
goes::

    game = Game(rules, seed, key=operator_key)
    with open("records.jsonl", "a", encoding="utf-8") as log:
        for bets in slips:
            log.write(game.play(bets).to_json() + "\\n")
        log.write(game.close().to_json() + "\\n")  # the seal: a log cut short is caught

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

The package's modules: ``_record`` (the record, its canonical form, chain, digest and
HMAC; logs), ``_parse`` (parsing a record strictly), ``_writer`` (writing a round's
record, its line and its canonical bytes: ``make_record``, and ``RoundWriter`` through the
core's template, which a ``Game``, verify's fast pass and the vectorised table share),
``_seal`` (a log's seal and its totals), ``_states`` (bit generator states) and
``_values`` (the format's vocabulary, reading one value).
"""

from __future__ import annotations

from ._parse import loads_record
from ._parse import read_stakes as read_stakes
from ._record import (
    Chained,
    RoundRecord,
    canonical_bytes,
    check_key,
    check_rules,
    record_hash,
    record_hmac,
    result_entry,
    rules_digest,
    stakes_of,
    write_log,
)
from ._record import json_line as json_line
from ._record import stakes_text as stakes_text
from ._seal import TOTALS, SealRecord, Totals, is_seal, record_amounts
from ._states import REPLAYABLE, bit_generator_from_state, check_state, state_json
from ._values import FORMAT, ZERO_HASH, check_hash
from ._values import MONEY_KINDS as MONEY_KINDS
from ._writer import CANONICAL_OWN as CANONICAL_OWN
from ._writer import CARD_JSON as CARD_JSON
from ._writer import CARDS as CARDS
from ._writer import FIELDS as FIELDS
from ._writer import LINE_OWN as LINE_OWN
from ._writer import Deal as Deal
from ._writer import RecordTemplate as RecordTemplate
from ._writer import RoundWriter as RoundWriter
from ._writer import both as both
from ._writer import make_record as make_record
from ._writer import segments as segments
from ._writer import shoe_codes as shoe_codes
from ._writer import slip_key as slip_key
from ._writer import sorted_slip as sorted_slip
from ._writer import state_texts as state_texts

# The names above imported ``as`` themselves are the package's own, not its API: what writes
# a record (``_writer``) and reads its parts, shared by ``dealing``, verify's fast pass and
# the vectorised table's log; ``__all__`` is the public face.
__all__ = [
    "FORMAT",
    "REPLAYABLE",
    "TOTALS",
    "ZERO_HASH",
    "Chained",
    "RoundRecord",
    "SealRecord",
    "Totals",
    "bit_generator_from_state",
    "canonical_bytes",
    "check_hash",
    "check_key",
    "check_rules",
    "check_state",
    "is_seal",
    "loads_record",
    "record_amounts",
    "record_hash",
    "record_hmac",
    "result_entry",
    "rules_digest",
    "stakes_of",
    "state_json",
    "write_log",
]
