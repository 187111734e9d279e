# The public names of sanggong, and the module each comes from: the one list of them.
# Type checkers and IDEs read this stub; at run time sanggong/__init__.py reads it too and
# derives __all__ (in this order), its lazy __getattr__ and __dir__ from it. A name is
# exported by adding it here (``from .module import Name as Name``: the redundant alias is
# what makes a stub re-export a name), each statement on one line: __init__.py reads it line
# by line and refuses any other form. tests/test_api.py checks every name resolves.

__version__: str
"""The installed version of sanggong (``"0+unknown"`` in a source tree that was never installed)."""

IMPLEMENTATION: str
"""``"cython"`` when the compiled core is in use, ``"python"`` for the pure-Python reference."""

# cards and hands
from .cards import Card as Card, CardLike as CardLike, CardsLike as CardsLike, Rank as Rank, Suit as Suit
from .cards import parse_card as parse_card, parse_cards as parse_cards
from .hands import CLASS_LABELS as CLASS_LABELS, HandValue as HandValue, PairPlus as PairPlus
from .hands import RulesLike as RulesLike, compare as compare, evaluate as evaluate, hand_cards as hand_cards

# batches
from .batch import BatchValues as BatchValues, compare_batch as compare_batch, evaluate_batch as evaluate_batch
from .batch import pair_plus_batch as pair_plus_batch, parse_hands as parse_hands, rank_batch as rank_batch

# rankings and rule sets
from .ranking import DEFAULT_RANKING as DEFAULT_RANKING, Ranking as Ranking
from .rules import CHINESE as CHINESE, GENTING as GENTING, GENTING_NO_COMMISSION as GENTING_NO_COMMISSION
from .rules import MACAU as MACAU, NAGAWORLD as NAGAWORLD, ONLINE as ONLINE, PRESETS as PRESETS
from .rules import PROSPERITY as PROSPERITY, SAN_GONG as SAN_GONG, BetSpec as BetSpec, RuleSet as RuleSet

# money and settlement
from .money import Money as Money
from .settlement import BetResult as BetResult, Settlement as Settlement, TableSession as TableSession
from .settlement import settle as settle

# dealing, records and verification
from .dealing import Deal as Deal, Game as Game, ObservedTable as ObservedTable, Replayer as Replayer
from .dealing import Resettler as Resettler, RoundRecord as RoundRecord
from .rounds import DealtRounds as DealtRounds, deal_batch as deal_batch
from .vector import VectorTable as VectorTable
from .vector_runs import run_policy as run_policy
from .seeds import Seed as Seed
from .shuffletest import ShuffleTestResult as ShuffleTestResult, shuffle_test as shuffle_test
from .verify import VerifyReport as VerifyReport, verify_log as verify_log

# advantage-play detection
from .detection import detect as detect, Detection as Detection, PlayerStats as PlayerStats

# exact analysis
from .analysis import Analysis as Analysis, BetAnalysis as BetAnalysis, OutcomeLine as OutcomeLine
from .analysis import Removal as Removal, analyze as analyze, composition as composition
from .analysis import effect_of_removal as effect_of_removal

# the math report
from .mathreport import MathReport as MathReport, report as report

# simulation
from .simulation import BetStats as BetStats, SessionResult as SessionResult
from .simulation import SimulationResult as SimulationResult, simulate as simulate
from .simulation import simulate_sessions as simulate_sessions

# a shoe as it is dealt: exact EVs, counting, game protection, pay tables
from .shoe import ShoeEvaluator as ShoeEvaluator, play_shoes as play_shoes, PerfectPlay as PerfectPlay
from .shoe import CountPlay as CountPlay, PlayResult as PlayResult, BetPlay as BetPlay
from .shoe import StrategyStats as StrategyStats, CountStats as CountStats, CountBin as CountBin
from .shoe import design as design, PayOption as PayOption
