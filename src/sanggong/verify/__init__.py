"""Verification of a log of round records: the chain, the HMAC, the continuity of
rounds and shoes, and every round dealt (or settled) again.

A log is a JSON Lines file of ``RoundRecord.to_json()`` lines, one game's records in
the order they were played, and where the game was closed its seal last
(``records.SealRecord``; ``sanggong.records`` describes the format, the canonical bytes,
the hash chain and the HMAC). ``verify_log`` reads it line by line, reports the
first bad record and why, and never raises for a bad log; seeded records and those of a
``records.REPLAYABLE`` bit generator are dealt again incrementally (``dealing.Replayer``),
observed rounds are played again on an ``ObservedTable`` (``dealing.Resettler``).

>>> from sanggong import MACAU, Game
>>> game = Game(MACAU, seed=3, key=b"operator key")
>>> lines = [game.play({"win:1": 100}).to_json() for _ in range(30)]
>>> report = verify_log(lines, key=b"operator key")
>>> report.ok, report.records, report.replayed, report.authenticated
(True, 30, True, True)
>>> print(report)
ok: 30 records, rules 'macau', chained, HMAC verified, every round replayed, not sealed
>>> seal = game.close()  # the game's seal: a log cut short is caught (see verify_log)
>>> print(verify_log([*lines, seal.to_json()], key=b"operator key", require_seal=True))
ok: 31 records, rules 'macau', chained, HMAC verified, every round replayed, sealed
>>> print(verify_log(lines[:-1], key=b"operator key", require_seal=True))
bad: the log is not sealed: it ends at line 29 without its game's seal (its last records may have been removed) (29 records read)
>>> lines[6] = lines[6].replace('"win:1":"100"', '"win:1":"200"', 1)
>>> print(verify_log(lines, key=b"operator key"))
bad: line 7 (round 7): hash does not match its contents (7 records read)
"""

from __future__ import annotations

from ._log import LogFailed, LogFiles, LogReader, VerifyReport, verify_log
from ._stream import CheckedRound, CheckedRun

__all__ = ["CheckedRound", "CheckedRun", "LogFailed", "LogFiles", "LogReader", "VerifyReport", "verify_log"]
