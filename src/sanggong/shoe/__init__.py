"""A shoe as it is dealt: the exact EV of every bet for the cards still unseen, card by card.

Before a round, the next hands are a uniformly random deal from the unseen cards, so a
bet's exact EV is ``analyze`` of that composition (the rules' section on playing a shoe).
``ShoeEvaluator`` gives the same Fractions in microseconds, and follows the shoe as cards
are removed or put back.

**The method.** A bet on one hand (the banker's Odd/Even, Point, Three Faces, a player's
Three Faces) is settled by the hand's class, which its multiset of counting kinds fixes
(11 class ranks A..9, ten, face for the usual rankings; the 13 ranks where the ranking
needs them): the EV is a sum over the 286 multisets ``B`` of
``ways(B) x net(B)``, where ``ways(B) = prod_k C(c_k, b_k)`` draws ``B`` from ``c_k``
unseen cards of kind k. A position's bet against the banker reads two disjoint hands: the
ordered pairs ``(P, B)`` with multisets ``P`` and ``B`` can be drawn in
``prod_k C(c_k, m_k) x prod_k C(m_k, p_k)`` ways, where ``M = P + B`` is the round's six
cards, so the EV is a sum over the 8,008 six-card multisets ``M`` of
``ways(M) x V(M)``, ``V(M) = sum over splits of prod_k C(m_k, p_k) x net(P, B)``: V does
not depend on the shoe and is computed once (and a multiset whose V is 0 for every bet is
left out). Nets are scaled to integers by a common denominator per bet, and the core sums
in 64 bits where the shoe's size and the largest value prove it cannot overflow, in 128
otherwise: exact for any shoe. Pair Plus reads suits only as "all three of one suit" or
not: its EV is a sum over the 455 rank multisets ``R`` of ``ways(R) x net(R, not suited)``
plus, over the 1,820 multisets of three cards of one suit, ``ways x (net(R, suited) -
net(R, not suited))``, rather than a sum over the 24,804 multisets of the 52 cards.

**Suit tie-breaks.** Where suits break ties, the kinds are the 13 ranks and two hands
compare by their ranks with the strongest card's suit left out; where those are equal
the hands share their highest rank t, a cards of it in ``P`` and b in ``B``, and the
suits of those a + b cards decide. Their ``C(c_t, a) C(c_t - a, b)`` draws split into
``E_t(a, b)`` with ``P``'s strongest suit above ``B``'s, ``E_t(b, a)`` below and the
rest tied, so such a pair adds ``ways(M) x net(tie)`` to the sum over ``M`` like any pair,
plus ``ways(M') x E_t(a, b) x (net(win) - net(tie))`` and the same with ``E_t(b, a)`` and
``net(lose)``, ``M'`` the six cards less those of rank t. Those are more terms of the same
sum: products of binomials of ``M'`` and one ``E``, which the kernel computes from the
unseen cards of each suit (``_spec.suit_split``): 1,678 terms for the San Gong and
Chinese rankings, beside the 18,564 six-card multisets of 13 ranks.

>>> from sanggong import MACAU, analyze, composition
>>> shoe = ShoeEvaluator(MACAU)
>>> shoe.ev("point:0") == analyze(MACAU)["point:0"].ev_exact
True
>>> shoe.remove("Kh Qs Jd Kd")
>>> shoe.cards
412
>>> shoe.ev("three_faces") == analyze(MACAU, composition(8, "Kh Qs Jd Kd"))["three_faces"].ev_exact
True

The package's modules: ``_terms`` (what the shoe kernels read: the multisets and their
scaled nets, ``ShoeTerms``; ``sanggong._kernels.shoe_kernel`` picks the kernel that sums
them), ``_ev`` (a bet's EV from the kernel's exact sums: the one
place they are divided), ``_evaluator`` (``ShoeEvaluator``, and ``ShoeRounds``: the EVs
of many shoes' rounds at once, ``detect``'s), ``_strategies`` (the
strategies and the results of ``play_shoes``), ``_play`` (``play_shoes``) and ``_design``
(``design``, ``edge_by_pay``).
"""

from __future__ import annotations

from .._text import renamed
from ._design import DESIGN_LIMIT as DESIGN_LIMIT
from ._design import MAX_DESIGN_TABLES as MAX_DESIGN_TABLES
from ._design import PayOption, design, edge_by_pay
from ._ev import part_count as part_count
from ._evaluator import RoundSums as RoundSums
from ._evaluator import ShoeEvaluator
from ._evaluator import ShoeRounds as ShoeRounds
from ._evaluator import check_rounds as check_rounds
from ._play import play_setup as play_setup
from ._play import play_shoes
from ._strategies import DEFAULT_BIN_WIDTH as DEFAULT_BIN_WIDTH
from ._strategies import DEFAULT_MAX_COUNT as DEFAULT_MAX_COUNT
from ._strategies import MAX_COUNT_BINS as MAX_COUNT_BINS
from ._strategies import RANK_SYMBOLS as RANK_SYMBOLS
from ._strategies import BetPlay, CountBin, CountPlay, CountStats, PerfectPlay, PlayResult, StrategyStats
from ._strategies import Strategy as Strategy
from ._terms import CARDS as CARDS
from ._terms import PAIRS as PAIRS
from ._terms import SINGLE as SINGLE
from ._terms import ShoeTerms as ShoeTerms
from ._terms import shoe_terms as shoe_terms

__all__ = ["BetPlay", "CountBin", "CountPlay", "CountStats", "PayOption", "PerfectPlay", "PlayResult", "ShoeEvaluator",
           "StrategyStats", "design", "edge_by_pay", "play_shoes"]

_RENAMED = {"ShoePlan": "ShoeTerms", "shoe_plan": "shoe_terms"}
"""Old names of the shoe kernels' terms ("plan" names the settlement plan alone), kept as
deprecated aliases."""


def __getattr__(name: str) -> object:
    """The deprecated aliases of ``_RENAMED``, with a ``DeprecationWarning``."""
    if name in _RENAMED:
        renamed(f"sanggong.shoe.{name}", f"sanggong.shoe.{_RENAMED[name]}")
        return globals()[_RENAMED[name]]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
