"""The limits of what sanggong accepts, in one place.

Every public entry point (the Python API and the command line) checks its input against
these before any work or allocation, and refuses anything beyond them with a
``ValueError`` (or exit status 2) that names the value. The compiled core is only ever
handed what it was built for; each limit below says which part of it sets the bound.

A limit is what the code handles, not what every machine holds: a call that allocates in
proportion to a count (``deal_batch``'s rounds, ``simulate``'s chunks, a batch's hands)
also weighs the bytes it will need against the memory available, and refuses, before
allocating anything, what would not fit: a ``MemoryError`` (also a ``ValueError``) naming
the bytes needed and available (docs/limits.md, "Memory", gives each call's bytes).

>>> from sanggong import limits
>>> limits.MAX_DECKS, limits.MAX_POSITIONS
(64, 16)
>>> limits.MAX_STAKE
1000000000000000
"""

from __future__ import annotations

__all__ = [
    "MAX_BATCH_ROUNDS",
    "MAX_BETS",
    "MAX_BURN",
    "MAX_DEAL_ROUNDS",
    "MAX_DECIMAL_EXPONENT",
    "MAX_DECKS",
    "MAX_DENOMINATOR",
    "MAX_NAME_LENGTH",
    "MAX_ODDS",
    "MAX_PLAYER_ID",
    "MAX_POSITIONS",
    "MAX_RECALL",
    "MAX_RECORD_BYTES",
    "MAX_REPLAY_ROUNDS",
    "MAX_RESHUFFLES",
    "MAX_ROUND",
    "MAX_RULE_FILE_BYTES",
    "MAX_SEED",
    "MAX_SESSIONS",
    "MAX_SESSION_ROUNDS",
    "MAX_SHOES",
    "MAX_SIM_ROUNDS",
    "MAX_STAKE",
    "MAX_TAG",
    "MAX_TEXT_NUMBER",
    "MAX_THREADS",
]

MAX_DECKS = 64
"""Decks in a box or shoe: the core's draws cover 52 x 64 cards."""

MAX_POSITIONS = 16
"""Player positions at a table: the round loop keeps 17 hands (with the banker's)."""

MAX_BURN = 64
"""Cards burned after a shuffle or before a round."""

MAX_STAKE = 10**15
"""The largest stake of one bet, in minor units (``int`` stakes), in units of the rule
set's ``minor_unit`` (``Decimal`` stakes) or in units (``Fraction`` stakes)."""

MAX_DENOMINATOR = 10**6
"""The largest denominator of a ``Fraction`` stake, of odds and of a commission rate."""

MAX_ODDS = 10**6
"""The largest odds ("to 1") of any bet, and the largest winner's multiplier."""

MAX_DECIMAL_EXPONENT = 30
"""A ``Decimal`` amount's exponent must lie within +-30 (a stake, a minor unit): beyond
that its exact value is refused before it is ever expanded."""

MAX_NAME_LENGTH = 64
"""The longest rule set name (it is printed by the command line and kept in records)."""

MAX_TEXT_NUMBER = 40
"""The longest number written as text in a rule file (``"1/2"``, ``"0.05"``)."""

MAX_RULE_FILE_BYTES = 1 << 16
"""The largest rule file read (TOML or JSON)."""

MAX_RECORD_BYTES = 1 << 20
"""The largest round record (one line of a JSON Lines log)."""

MAX_SIM_ROUNDS = 10**15
"""Rounds in one simulation (about a year of both cores of the development machine). A
run keeps about 1.5 kB a chunk, so this many need a ``chunk_size`` of about 10**9."""

MAX_SESSIONS = 10**7
"""Sessions in one session-mode simulation."""

MAX_BATCH_ROUNDS = 10**9
"""Rounds one ``deal_batch`` call deals, where the memory available holds them: 20 to 129
bytes of arrays a round (28 online, 46 at a Macau table: ``DealtRounds.bytes_needed``),
so 28 GB online; a call the machine cannot hold is refused with a ``MemoryError``. Deal
more in several calls (``chunk_seed`` continues the chunks of one seed: see
``deal_batch``)."""

MAX_SHOES = 10**12
"""Shoes one ``play_shoes`` call plays (a Macau shoe is about 16 rounds)."""

MAX_TAG = 100
"""The largest tag (in absolute value) of a card-counting system."""

MAX_SESSION_ROUNDS = 10**7
"""Rounds in one session (a session keeps one net amount per round: about 17 bytes a round on
each worker, weighed against the memory available)."""

MAX_RECALL = 10**6
"""Round records a ``Game`` keeps."""

MAX_DEAL_ROUNDS = 10**6
"""Rounds ``sanggong deal`` deals in one call."""

MAX_THREADS = 1024
"""Threads or workers one call may ask for."""

MAX_ROUND = 10**15
"""The largest round or shoe number a record may carry (the rounds of the longest
simulation, ``MAX_SIM_ROUNDS``)."""

MAX_REPLAY_ROUNDS = 10**6
"""The most rounds a replay deals to reach one record's round from its seed: a skipped
round costs about 4 us in the core (30 in the reference), so at most about 4 s (30 s).
A whole log is replayed incrementally (``verify.verify_log``), whatever its length."""

MAX_SEED = 2**256 - 1
"""The largest seed a game or record takes (OS entropy is 128 bits)."""

MAX_RESHUFFLES = 1000
"""The most times a shoe may be shuffled again before its first round (a record's
``reshuffled``)."""

MAX_BETS = 1024
"""The most stakes of one slip or record (a Macau table of 16 positions offers 45 bets;
in a slip by player, every player's stakes count)."""

MAX_PLAYER_ID = 64
"""The longest player's id in a slip by player (``{player: {bet: stake}}``)."""
