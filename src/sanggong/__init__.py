"""sanggong: the fast, exact engine for Sam Gong (三公), the three-card baccarat of Macau.

>>> import sanggong
>>> sanggong.evaluate("Kh Qs 9d").label
'2P9'
>>> sanggong.IMPLEMENTATION in ("cython", "python")
True
>>> sanggong.compare("Kh Kd Ks", "Qh Qd Qs", rules="chinese"), sanggong.compare("Kh Kd Ks", "Qh Qd Qs")
(1, 0)
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from . import _impl
from .analysis import Analysis, BetAnalysis, analyze, composition, effect_of_removal
from .batch import BatchValues, compare_batch, evaluate_batch, pair_plus_batch, parse_hands, rank_batch
from .cards import Card, CardLike, CardsLike, Rank, Suit, parse_card, parse_cards
from .dealing import Game, ObservedTable, RoundRecord
from .hands import CLASS_LABELS, HandValue, PairPlus, compare, evaluate, hand_cards
from .ranking import DEFAULT_RANKING, Ranking
from .rules import (
    CHINESE,
    GENTING,
    GENTING_NO_COMMISSION,
    MACAU,
    NAGAWORLD,
    ONLINE,
    PRESETS,
    PROSPERITY,
    SAN_GONG,
    RuleSet,
)
from .settlement import BetResult, Settlement, TableSession, settle

try:
    __version__ = version("sanggong")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"

IMPLEMENTATION: str = _impl.kernels.IMPLEMENTATION
"""``"cython"`` when the compiled core is in use, ``"python"`` for the pure-Python reference."""

__all__ = [
    "CHINESE",
    "CLASS_LABELS",
    "DEFAULT_RANKING",
    "GENTING",
    "GENTING_NO_COMMISSION",
    "IMPLEMENTATION",
    "MACAU",
    "NAGAWORLD",
    "ONLINE",
    "PRESETS",
    "PROSPERITY",
    "SAN_GONG",
    "Ranking",
    "BetResult",
    "Game",
    "ObservedTable",
    "RoundRecord",
    "RuleSet",
    "Settlement",
    "TableSession",
    "settle",
    "Analysis",
    "BatchValues",
    "BetAnalysis",
    "Card",
    "CardLike",
    "CardsLike",
    "HandValue",
    "PairPlus",
    "Rank",
    "Suit",
    "__version__",
    "analyze",
    "compare",
    "compare_batch",
    "composition",
    "effect_of_removal",
    "evaluate",
    "evaluate_batch",
    "hand_cards",
    "pair_plus_batch",
    "parse_card",
    "parse_cards",
    "parse_hands",
    "rank_batch",
]
