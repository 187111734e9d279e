"""Who is beating the table: advantage-play detection from the game log.

At the moment a bet is placed, the cards already seen in the shoe fix its exact EV (the
unseen cards' composition, ``ShoeEvaluator``). A player whose stakes follow the shoe stakes
more where the EV is higher; one whose stakes do not, does not. ``detect`` reads a log (or
records, or many logs), computes the exact EV of every stake at the moment it was placed,
and tests each player for stakes that follow the shoe, long before results could show it.

**What is counted.** A stake is a decision: the amount placed on a bet in a round, less
any stake carried into the round (which the player could not withdraw). A record by player
names each stake's player; a record of bets alone reads as one anonymous player per
position (``"position 3"``: its Win, Tie and other bets on that hand) and one for the
table's bets (``"table"``: Odd, Even, Point, the banker's Three Faces and Pair Plus). A
staker is its kind and its id together (``PlayerStats.kind``: ``"player"``, ``"position"``
or ``"table"``), so a player is never an anonymous staker, whatever the player's id reads
as. Each game is counted once: several logs are known by their hash chain and seed, and
two that hold the same round are refused (``detect``'s ``records``).
Seen cards are every hand of the earlier rounds of the shoe (shown at settlement);
burned cards, and the cards of a void round, stay unseen unless ``burned_seen``. A log
that starts within a shoe is read from the next shoe's first round (the earlier cards of
that shoe are unknown).

**The test.** For each player, with stakes s_i on bets b_i at EVs e_i (fresh-shoe EVs ē_i),
the excess D = Σ s_i (e_i − ē_i). Under the null hypothesis that the player's stakes are
independent of the shoe's state, condition on the stakes (however they vary: the test
never assumes flat bets). The exact EV of a fixed bet is a martingale as a shoe's cards
are revealed (by exchangeability, the expected EV after more random cards are seen is the
EV now), so e_i − ē_i is the sum of the EV's changes Δ_k(b_i) over the rounds k before i
in its shoe, and D = Σ_k Y_k with Y_k = Σ_b W_k(b) Δ_k(b), where W_k(b) are the stakes on
bet b after round k in that shoe. Given the stakes, the Y_k are martingale differences
(each has mean zero given the cards seen before round k), shoes are independent, so the
self-normalised sum z = D / sqrt(Σ_k Y_k²) is approximately standard normal under the
null (the martingale central limit theorem; no independence between rounds, and no
model of the stakes, is assumed). The test is one-sided: a player is flagged for stakes
that follow the EV up, ``p_value = P(Z >= z)``, and ``flagged`` is Holm's step-down
correction of the players' p-values at ``alpha`` (the family-wise error rate over the
players examined). A player with no EV variation to follow (a fresh deck every round,
or stakes only on a shoe's first rounds) has no z and a p-value of 1.

The calibration (``benchmarks/detection.py`` and the docs' tutorial) measures the false
alarm rate of flat and random bettors (at most ``alpha``) and the power against perfect
and counting players as a function of rounds observed.

**How a log is read.** In one pass with ``verify``'s checks: its fast pass hands each
record it accepts as the record's cards and stakes. Ended shoes are kept until they hold
some thousands of rounds; the exact EVs of every round of such a batch are one call of
the shoe kernel (``numerators_shoes``, in the compiled core without the GIL), made on a
helper thread where the process may run on a second core, beside the reading of the next
batch; the batch's stakes are then tallied in one call (``tally_stakes``). The results are
the same floats with the helper thread or without it. ``detect`` may be called from
several threads at once (each call reads with readers of its own, and stops their helper
threads before it returns).

>>> from sanggong import MACAU, Game
>>> game = Game(MACAU, seed=1)
>>> records = [game.play({"ann": {"point:0": 10}, "bo": {"odd": 10}}) for _ in range(200)]
>>> found = detect(records)
>>> [(p.id, p.bets, p.flagged) for p in found.players]   # bo's Odd is carried, not staked, on a banker 3P
[('bo', 196, False), ('ann', 200, False)]
"""

from __future__ import annotations

from ._detect import NO_STAKES as NO_STAKES
from ._detect import Detection, PlayerStats, detect
from ._detect import shoe_terms as shoe_terms

__all__ = ["Detection", "PlayerStats", "detect"]
