"""A table of a ``VectorTable`` recorded: its rounds, with its players' stakes, written as
the signed log ``Game`` writes (``TableLog``; ``VectorTable.record``).

Table k deals the rounds of ``Game(rules, seed=table.table_seed(k))`` (the vector's seeding
contract), so its log is that game's: a ``TableLog`` keeps such a ``Game`` beside the table
and plays each step's stakes of table k on it through ``Game.lines``, the game's own record
path (``RoundWriter``: the core's template, the hash chain, the HMAC under ``key``). The log
is byte for byte the one ``Game`` writes for the same seed and stakes, so
``sanggong.verify.verify_log`` checks it (dealing every round again) and
``sanggong.detect`` reads its stakes, as for any table's log. Its cost is the game's record
path for the tables recorded only: a ``VectorTable`` that records none pays nothing.

A table's stakes of a step are its players' (the step's stakes of table k: a carried stake
included in the amount, as ``TableSession`` takes a slip): one player's slip of bets alone
(``{bet: stake}``) where the vector seats one player and no ``names`` are given, else a slip
by player (``{name: {bet: stake}}``, a player who stakes nothing left out of it).
"""

from __future__ import annotations

import io
import os
from collections.abc import Sequence
from typing import IO, Any

import numpy as np

from .dealing import Game
from .limits import MAX_BETS
from .records import SealRecord, check_key
from .rules import RuleSet
from .settlement import check_player

__all__ = ["TableLog"]


class TableLog:
    """The log of one table of a ``VectorTable`` (``VectorTable.record``, which makes it):
    the log of a ``Game`` of the table's rules and ``seed`` (its chunk seed), playing the
    table's stakes of the ``bets`` of its ``players``, a line a step.

    :ivar k: the table recorded.
    :ivar names: the players' ids in the records (None: a slip of bets alone).
    :ivar lines: the log's lines so far, where it is kept in memory (``out=None``), else
        None.
    :ivar game: the ``Game`` the log is written by (its ``round``, ``carried``).
    """

    def __init__(self, rules: RuleSet, bets: tuple[str, ...], players: int, k: int, seed: np.random.SeedSequence, *,
                 key: bytes | None = None, names: Sequence[str] | None = None,
                 out: str | os.PathLike[str] | IO[str] | None = None) -> None:
        if players * len(bets) > MAX_BETS:
            raise ValueError(f"table {k}: {players} players x {len(bets)} bets could stake more than a record "
                             f"holds ({MAX_BETS} stakes): record a table of fewer players or bets")
        self.k = k
        self.bets = bets
        self.names = _names(names, players)
        self.game = Game(rules, seed=seed, recall=0, key=check_key(key))
        self.lines: list[str] | None = None
        self._own = False
        self._out: IO[str] | None = None
        if out is None:
            self.lines = []
        elif isinstance(out, str | os.PathLike):
            try:
                self._out = open(out, "w", encoding="utf-8")  # noqa: SIM115 (closed by close())
            except OSError as exc:
                raise ValueError(f"out: cannot write {os.fspath(out)!r}: {exc.strerror or exc}") from None
            self._own = True
        elif isinstance(out, io.TextIOBase) or (callable(getattr(out, "write", None))
                                                and not isinstance(out, io.BufferedIOBase | io.RawIOBase)):
            self._out = out
        else:
            raise TypeError(f"out must be a path, a text file or None, not {type(out).__name__}")
        self.check_open()
        self.seal: SealRecord | None = None
        """The log's seal, once closed (``close``)."""

    @property
    def closed(self) -> bool:
        """The log was closed: it records no more rounds."""
        return self.game.sealed

    def slip(self, stakes: np.ndarray[Any, np.dtype[np.int64]]) -> dict[str, Any]:
        """The slip of one step's stakes of this table ((players, bets) int64)."""
        rows = [{name: int(x) for name, x in zip(self.bets, row.tolist(), strict=True) if x} for row in stakes]
        if self.names is None:
            return rows[0]
        return {name: row for name, row in zip(self.names, rows, strict=True) if row}

    def check_open(self) -> None:
        """Raise ValueError if a round could not be written: the log closed, or the file
        it writes closed (``VectorTable.step`` asks before it deals)."""
        if self.closed:
            raise ValueError(f"table {self.k}: its log is closed (after round {self.game.round}): "
                             f"reset() the table to record again")
        if self._out is not None and getattr(self._out, "closed", False):
            raise ValueError(f"table {self.k}: the file its log writes is closed")

    def write(self, stakes: np.ndarray[Any, np.dtype[np.int64]]) -> None:
        """Record the round just dealt at the table, at these stakes (players, bets)."""
        for line in self.game.lines(1, self.slip(stakes)):
            self._emit(line)

    def _emit(self, line: str) -> None:
        if self.lines is not None:
            self.lines.append(line)
        else:
            assert self._out is not None
            self._out.write(line + "\n")

    def close(self) -> SealRecord | None:
        """End the log: its seal (``Game.close``) written as its last line, the file closed
        where the log opened it. None where no round was recorded (no log to seal). A log
        closed already is left as it is."""
        if not self.closed and self.game.round:
            self.seal = self.game.close()
            self._emit(self.seal.to_json())
        if self._own and self._out is not None:
            self._out.close()
        return self.seal

    def __repr__(self) -> str:
        return f"TableLog(table {self.k}, {self.game.round} rounds{', closed' if self.closed else ''})"


def _names(names: Sequence[str] | None, players: int) -> tuple[str, ...] | None:
    if names is None:
        return None if players == 1 else tuple(f"player_{p}" for p in range(players))
    if isinstance(names, str) or not isinstance(names, Sequence):
        raise TypeError(f"names must be a sequence of the players' ids, not {type(names).__name__}")
    ids = tuple(check_player(name, "names") for name in names)
    if len(ids) != players or len(set(ids)) != players:
        raise ValueError(f"names: give {players} different ids, one a player, got {list(names)!r}"[:200])
    return ids
