"""Shuffling and dealing as the rules prescribe, games with records and replays, and
settlement of the cards a physical shoe actually dealt.

Randomness comes from numpy's PCG64: pass ``seed`` (an int or a ``SeedSequence``; None
draws fresh OS entropy, which is recorded so that the game can be replayed), which seeds
it as numpy's ``PCG64(SeedSequence(seed))`` (the kernels' own PCG64, ``_spec.pcg64``:
numpy's states and words, without NumPy; a replay restores a record's PCG64 state into it
too), or ``rng`` (a numpy ``Generator`` or ``BitGenerator`` of your own). Cards are drawn by
a lazy Fisher-Yates shuffle, so every order stays equally likely and a round costs only
the cards it takes; its unbiased bounded integers come several from each 64-bit word
(Lemire's method, batched: see ``sanggong._spec.draw``). The dealing procedure itself
(when to shuffle, the cut card, the burns, the head card, which hand gets which card) is
the specification's, ``sanggong._spec.procedure``, which the pure-Python twins of the
core's round loops deal through too. The compiled core and the pure-Python reference
deal the same cards, bit for bit, from any bit generator (both draw its
``next_uint64``).

**Records.** Every round a ``Game`` or an ``ObservedTable`` plays comes back as a
``RoundRecord``: its cards, hands, bets and results, where it came from (seed, shoe, the
bit generator's state at the shuffle) and the digest of the rules it was played under.
Records of one game form a hash chain (each carries the SHA-256 of the one before), and
with an operator ``key`` each carries an HMAC: see ``sanggong.records`` for the record and
its exact canonical form, and ``sanggong.verify`` for ``verify_log``, which checks a whole
JSON Lines log (dealing it again round by round with ``Replayer`` and ``Resettler``).
``RoundRecord.from_dict``/``from_json`` read a record strictly (every field checked and
every derived field, such as a hand's label, recomputed from the cards), and
``Game.replay_record`` deals a record's round again from its own evidence and compares
every field.

**Real money.** A cryptographically secure generator plugs in as any ``BitGenerator``:
e.g. ``randomgen``'s ``AESCounter`` or ``ChaCha`` (``Game(rules, rng=ChaCha(key=...))``),
or a ``numpy.random.BitGenerator`` you write around your own certified source. sanggong
only calls its ``next_uint64``. Records name and
replay only the bit generators of ``records.REPLAYABLE`` (a record never makes sanggong
call anything else); the records of other generators carry no shoe state, and are
checked like observed rounds (chain, HMAC, continuity, the shoe's cards and the
settlement).

>>> from sanggong import ONLINE
>>> game = Game(ONLINE, seed=7)
>>> record = game.play({"win:1": 100, "pair_plus:banker": 10})
>>> record.round, record.head_card is not None, len(record.hands)
(1, True, 3)
>>> Game.replay(ONLINE, seed=7, round=1, bets=record.bets) == record
True
>>> Game.replay_record(ONLINE, RoundRecord.from_json(record.to_json())) == record
True

The package's modules: ``_procedure`` (a round's cards assigned to the hands and back; a
game's shoe), ``_game`` (``Game``, its records, ``Replayer``) and ``_observed``
(``ObservedTable``, ``Resettler``).
"""

from __future__ import annotations

from ..records import RoundRecord
from ._game import CannotCheck, Game, Replayer, check_bets, positioned_game
from ._observed import ObservedTable, Resettler
from ._procedure import Deal, assign, dealing_sequence, first_hand, round_length

__all__ = [
    "CannotCheck",
    "Deal",
    "Game",
    "ObservedTable",
    "Replayer",
    "Resettler",
    "RoundRecord",
    "assign",
    "check_bets",
    "dealing_sequence",
    "first_hand",
    "positioned_game",
    "round_length",
]
