"""The typed stream a ``LogReader`` hands another reader (``LogReader.checked``): the rounds
of a log that passed every check, each as much of its record as a reader of stakes reads
(``sanggong.detection`` reads a log this way).

A round the full checks read is a ``CheckedRound``; the rounds the fast pass accepted one
after the other within a shoe come as one ``CheckedRun``, their cards in the shoe's dealt
arrays (so that a reader can take them at once), which ``rounds()`` makes into
``CheckedRound``\\ s.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from ..records import RoundRecord

if TYPE_CHECKING:  # (a run's arrays are made where a reader asks for runs: verify alone makes none)
    import numpy as np
    import numpy.typing as npt

__all__ = ["CheckedRound", "CheckedRun"]


class CheckedRound(NamedTuple):
    """A round record that passed every check, as a reader of stakes reads it: the fields
    of the ``RoundRecord`` of the same names, and its cards as card codes (``Card.code``).
    (A named tuple: one is made for every round a log's full checks read.)

    :ivar codes: the hands' card codes, three a hand, the banker's first (a table without
        a banker: the positions' alone); empty for a void round.
    :ivar burned_codes: the burned cards' codes, in the order they were burned (a void
        round's: the cards that came out before it was abandoned).
    """

    round: int
    shoe: int
    round_in_shoe: int
    bets: Mapping[str, Any]
    carried: Mapping[str, Any]
    codes: bytes
    burned_codes: bytes

    @classmethod
    def of(cls, record: RoundRecord) -> CheckedRound:
        """A record's round (a record the caller has checked, or need not)."""
        banker = record.banker
        hands = (banker, *record.hands.values()) if banker is not None else record.hands.values()
        return cls(record.round, record.shoe, record.round_in_shoe, record.bets, record.carried,
                   bytes([c.code for hand in hands for c in hand.cards]), bytes([c.code for c in record.burned]))


@dataclass(frozen=True, slots=True)
class CheckedRun:
    """Rounds the fast pass accepted one after the other within one shoe: the first one's
    round, the shoe's number, the shoe's dealt arrays (every round of the shoe: the hands'
    card codes, ``(rounds, hands, 3)``, the banker's first; the burned cards' codes and
    their counts; each round's round in the shoe), where the run's first round is in those
    arrays (``first``), and each round's bets and carried stakes (as ``RoundRecord``
    holds them; a reader of the log may find the same mapping for every round of the same
    slip)."""

    round: int
    shoe: int
    hands: npt.NDArray[np.uint8]
    burned: npt.NDArray[np.uint8]
    burned_counts: npt.NDArray[np.uint8]
    in_shoe: npt.NDArray[Any]
    first: int
    bets: list[Mapping[str, Any]]
    carried: list[Mapping[str, Any]]

    def __len__(self) -> int:
        """The rounds of the run."""
        return len(self.bets)

    def rounds(self) -> Iterator[CheckedRound]:
        """The run's rounds, one at a time."""
        hands, burned, counts, in_shoe = self.hands, self.burned, self.burned_counts, self.in_shoe
        for i, (slip, after) in enumerate(zip(self.bets, self.carried, strict=True)):
            k = self.first + i
            yield CheckedRound(self.round + i, self.shoe, int(in_shoe[k]), slip, after, hands[k].tobytes(),
                               burned[k, :counts[k]].tobytes())
