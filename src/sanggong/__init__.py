"""sanggong: the fast, exact engine for Sam Gong (三公), the three-card baccarat of Macau.

>>> import sanggong
>>> sanggong.evaluate("Kh Qs 9d").label
'2P9'
>>> sanggong.IMPLEMENTATION in ("cython", "python")
True
>>> sanggong.compare("Kh Kd Ks", "Qh Qd Qs", rules="chinese"), sanggong.compare("Kh Kd Ks", "Qh Qd Qs")
(1, 0)

Importing the package is cheap: each name of ``__all__`` is imported from its module the
first time it is used (PEP 562), so ``import sanggong`` costs little more than ``import
numpy``, and ``from sanggong import X`` works for every X.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what type checkers see; at run time __getattr__ imports each name on first use
    from .analysis import (
        Analysis,
        BetAnalysis,
        OutcomeLine,
        Removal,
        analyze,
        composition,
        effect_of_removal,
    )
    from .batch import BatchValues, compare_batch, evaluate_batch, pair_plus_batch, parse_hands, rank_batch
    from .cards import Card, CardLike, CardsLike, Rank, Suit, parse_card, parse_cards
    from .dealing import Deal, Game, ObservedTable, Replayer, Resettler, RoundRecord
    from .detection import Detection, PlayerStats, detect
    from .hands import CLASS_LABELS, HandValue, PairPlus, RulesLike, compare, evaluate, hand_cards
    from .money import Money
    from .ranking import DEFAULT_RANKING, Ranking
    from .rounds import DealtRounds, deal_batch
    from .seeds import Seed
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
        BetSpec,
        RuleSet,
    )
    from .settlement import BetResult, Settlement, TableSession, settle
    from .shoe import (
        BetPlay,
        CountBin,
        CountPlay,
        CountStats,
        PayOption,
        PerfectPlay,
        PlayResult,
        ShoeEvaluator,
        StrategyStats,
        design,
        play_shoes,
    )
    from .simulation import BetStats, SessionResult, SimulationResult, simulate, simulate_sessions
    from .verify import VerifyReport, verify_log

__version__: str
"""The installed version of sanggong (``"0+unknown"`` in a source tree that was never installed)."""

IMPLEMENTATION: str
"""``"cython"`` when the compiled core is in use, ``"python"`` for the pure-Python reference."""

# Every public name but the two above, and the module it comes from.
_LAZY: dict[str, str] = {
    # sanggong.cards
    "Card": "cards", "CardLike": "cards", "CardsLike": "cards", "Rank": "cards", "Suit": "cards",
    "parse_card": "cards", "parse_cards": "cards",
    # sanggong.hands
    "CLASS_LABELS": "hands", "HandValue": "hands", "PairPlus": "hands", "RulesLike": "hands",
    "compare": "hands", "evaluate": "hands", "hand_cards": "hands",
    # sanggong.batch
    "BatchValues": "batch", "compare_batch": "batch", "evaluate_batch": "batch", "pair_plus_batch": "batch",
    "parse_hands": "batch", "rank_batch": "batch",
    # sanggong.ranking
    "DEFAULT_RANKING": "ranking", "Ranking": "ranking",
    # sanggong.rules
    "CHINESE": "rules", "GENTING": "rules", "GENTING_NO_COMMISSION": "rules", "MACAU": "rules",
    "NAGAWORLD": "rules", "ONLINE": "rules", "PRESETS": "rules", "PROSPERITY": "rules", "SAN_GONG": "rules",
    "BetSpec": "rules", "RuleSet": "rules",
    # sanggong.money
    "Money": "money",
    # sanggong.settlement
    "BetResult": "settlement", "Settlement": "settlement", "TableSession": "settlement", "settle": "settlement",
    # sanggong.dealing
    "Deal": "dealing", "Game": "dealing", "ObservedTable": "dealing", "Replayer": "dealing",
    "Resettler": "dealing", "RoundRecord": "dealing",
    # sanggong.rounds
    "DealtRounds": "rounds", "deal_batch": "rounds",
    # sanggong.seeds
    "Seed": "seeds",
    # sanggong.verify
    "VerifyReport": "verify", "verify_log": "verify",
    # sanggong.detection
    "Detection": "detection", "PlayerStats": "detection", "detect": "detection",
    # sanggong.analysis
    "Analysis": "analysis", "BetAnalysis": "analysis", "OutcomeLine": "analysis", "Removal": "analysis",
    "analyze": "analysis", "composition": "analysis", "effect_of_removal": "analysis",
    # sanggong.simulation
    "BetStats": "simulation", "SessionResult": "simulation", "SimulationResult": "simulation",
    "simulate": "simulation", "simulate_sessions": "simulation",
    # sanggong.shoe
    "BetPlay": "shoe", "CountBin": "shoe", "CountPlay": "shoe", "CountStats": "shoe", "PayOption": "shoe",
    "PerfectPlay": "shoe", "PlayResult": "shoe", "ShoeEvaluator": "shoe", "StrategyStats": "shoe",
    "design": "shoe", "play_shoes": "shoe",
}

__all__ = [
    "__version__",
    "IMPLEMENTATION",
    # cards and hands
    "Card",
    "CardLike",
    "CardsLike",
    "Rank",
    "Suit",
    "parse_card",
    "parse_cards",
    "CLASS_LABELS",
    "HandValue",
    "PairPlus",
    "RulesLike",
    "compare",
    "evaluate",
    "hand_cards",
    # batches
    "BatchValues",
    "compare_batch",
    "evaluate_batch",
    "pair_plus_batch",
    "parse_hands",
    "rank_batch",
    # rankings and rule sets
    "DEFAULT_RANKING",
    "Ranking",
    "CHINESE",
    "GENTING",
    "GENTING_NO_COMMISSION",
    "MACAU",
    "NAGAWORLD",
    "ONLINE",
    "PRESETS",
    "PROSPERITY",
    "SAN_GONG",
    "BetSpec",
    "RuleSet",
    # money and settlement
    "Money",
    "BetResult",
    "Settlement",
    "TableSession",
    "settle",
    # dealing, records and verification
    "Deal",
    "Game",
    "ObservedTable",
    "Replayer",
    "Resettler",
    "RoundRecord",
    "DealtRounds",
    "deal_batch",
    "Seed",
    "VerifyReport",
    "verify_log",
    # advantage-play detection
    "detect",
    "Detection",
    "PlayerStats",
    # exact analysis
    "Analysis",
    "BetAnalysis",
    "OutcomeLine",
    "Removal",
    "analyze",
    "composition",
    "effect_of_removal",
    # simulation
    "BetStats",
    "SessionResult",
    "SimulationResult",
    "simulate",
    "simulate_sessions",
    # a shoe as it is dealt: exact EVs, counting, game protection, pay tables
    "ShoeEvaluator",
    "play_shoes",
    "PerfectPlay",
    "CountPlay",
    "PlayResult",
    "BetPlay",
    "StrategyStats",
    "CountStats",
    "CountBin",
    "design",
    "PayOption",
]

if not TYPE_CHECKING:  # hidden from type checkers, which would otherwise accept any attribute

    def __getattr__(name: str) -> object:
        """Import a public name from its module on first use (PEP 562) and keep it."""
        module = _LAZY.get(name)
        if module is not None:
            from importlib import import_module

            value = getattr(import_module(f"{__name__}.{module}"), name)
            globals()[name] = value  # later lookups skip this function
            return value
        if name == "IMPLEMENTATION":
            # not kept: it names the kernels in use, which the test suite swaps
            from . import _impl

            return _impl.kernels.IMPLEMENTATION
        if name == "__version__":
            from ._about import package_version

            found = package_version()
            globals()["__version__"] = found
            return found
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted(set(globals()) | set(__all__))
