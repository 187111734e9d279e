"""Playing shoes: the strategies ``play_shoes`` plays (``PerfectPlay``, ``CountPlay``) and
what it reports (``PlayResult``: each bet's ``BetPlay``, each strategy's ``StrategyStats``)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .._presentation import html_sheet, missing, pandas, percent
from .._spec import RANK_SYMBOLS as _RANKS
from .._text import renamed
from ..analysis import effect_of_removal
from ..limits import MAX_TAG
from ..rules import RuleSet
from ..seeds import Seed, seed_json

__all__ = [
    "DEFAULT_BIN_WIDTH", "DEFAULT_MAX_COUNT", "MAX_COUNT_BINS", "RANK_SYMBOLS", "BetPlay", "CountBin", "CountPlay",
    "CountStats", "PerfectPlay", "PlayResult", "Strategy", "StrategyStats", "bet_tags", "number", "strategies",
    "tag_vector"
]

# --- playing shoes -------------------------------------------------------------------------------

RANK_SYMBOLS = tuple(_RANKS)  # (a tuple: "23" in a string of the symbols would be a rank)
DEFAULT_BIN_WIDTH = 0.5
DEFAULT_MAX_COUNT = 25.0
MAX_COUNT_BINS = 4096  # true-count bins (bets x bins x outcomes counts a chunk)


@dataclass(frozen=True)
class PerfectPlay:
    """Bet one unit on each bet whose exact EV of the unseen cards is positive."""

    name: str = "perfect"


@dataclass(frozen=True)
class CountPlay:
    """A card count: a running sum of per-rank tags over the seen cards; the true count is
    it per 52 unseen cards. Bet one unit on a bet when its true count reaches
    ``threshold``, or as many units as ``spread`` gives for the true count.

    :param tags: None: each bet's own balanced tags from its effect of removal
        (``effect_of_removal``); a mapping of rank symbol (``A 2 .. 9 T J Q K``) to int for
        every bet; or a mapping of bet name to such a mapping (bets left out: their own).
    :param threshold: None: for each bet the threshold that maximises its gain over the
        shoes played (by the exact EVs when perfect information is played alongside,
        else by the results); a number for every bet; or a mapping of bet name to number.
        Thresholds fall on the true-count bins: multiples of ``bin_width``.
    :param spread: units bet by true count: a mapping of true count to units, the units
        of the largest true count not above the round's (none below the smallest).
        Overrides ``threshold``.
    :param bin_width: the width of the true-count bins the results are tabled by.
    :param max_count: true counts beyond +-max_count share the outermost bins.
    """

    tags: Mapping[str, Any] | None = None
    threshold: float | Mapping[str, float] | None = None
    spread: Mapping[float, int] | None = None
    bin_width: float = DEFAULT_BIN_WIDTH
    max_count: float = DEFAULT_MAX_COUNT
    name: str = "count"


Strategy = PerfectPlay | CountPlay


def strategies(strategy: object) -> tuple[PerfectPlay | None, CountPlay | None]:
    items = [strategy] if isinstance(strategy, str | PerfectPlay | CountPlay) else strategy
    if not isinstance(items, Iterable):
        raise TypeError(f"strategy: expected 'perfect', 'count', a PerfectPlay or CountPlay, or a list of them, "
                        f"not {type(strategy).__name__}")
    perfect: PerfectPlay | None = None
    count: CountPlay | None = None
    for item in list(items):
        if item == "perfect":
            item = PerfectPlay()
        elif item == "count":
            item = CountPlay()
        if isinstance(item, PerfectPlay) and perfect is None:
            perfect = item
        elif isinstance(item, CountPlay) and count is None:
            count = item
        elif isinstance(item, PerfectPlay | CountPlay):
            raise ValueError(f"strategy: {item.name} is given twice")
        else:
            raise ValueError(f"strategy: unknown strategy {item!r}: expected 'perfect' or 'count'")
    if perfect is None and count is None:
        raise ValueError("strategy: give at least one strategy ('perfect', 'count')")
    return perfect, count


def number(name: str, value: object, lo: float, hi: float) -> float:
    """A finite number in lo..hi, as a float (ints and Fractions compared exactly first: a
    huge one is refused by name, never converted)."""
    if isinstance(value, bool) or not isinstance(value, int | float | Fraction):
        raise TypeError(f"{name} must be a finite number, not {value!r}"[:200])
    if isinstance(value, float) and not math.isfinite(value):
        raise TypeError(f"{name} must be a finite number, not {value!r}")
    if not lo <= value <= hi:
        shown = f"a {value.bit_length()}-bit number" if isinstance(value, int) and abs(value) > 10**30 else repr(value)
        raise ValueError(f"{name} must be in {lo:g}..{hi:g}, got {shown}"[:200])
    return float(value)


def tag_vector(where: str, tags: object) -> tuple[int, ...]:
    if not isinstance(tags, Mapping):
        raise TypeError(f"{where}: tags are a mapping of rank symbol to int, not {type(tags).__name__}")
    unknown = [k for k in tags if k not in RANK_SYMBOLS]
    if unknown:
        raise ValueError(f"{where}: unknown rank {unknown[0]!r}: ranks are {' '.join(RANK_SYMBOLS)}")
    out = []
    for symbol in RANK_SYMBOLS:
        value = tags.get(symbol, 0)
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{where}: the tag of {symbol} must be an int, not {value!r}")
        if abs(value) > MAX_TAG:
            raise ValueError(f"{where}: the tag of {symbol} is {value}, beyond +-{MAX_TAG}")
        out.append(value)
    return tuple(out)


def bet_tags(rules: RuleSet, bets: tuple[str, ...], count: CountPlay) -> dict[str, tuple[int, ...]]:
    """Each bet's tag vector (13 ints, A..K)."""
    given = count.tags
    per_bet: dict[str, tuple[int, ...]] = {}
    if given is not None:
        if not isinstance(given, Mapping):
            raise TypeError(f"tags: expected a mapping, not {type(given).__name__}")
        odd = next((k for k in given if not isinstance(k, str)), None)
        if odd is not None:
            raise TypeError(f"tags: keys are rank symbols or bet names, not {odd!r}"[:200])
        if given and all(k in RANK_SYMBOLS for k in given):
            vector = tag_vector("tags", given)
            per_bet = dict.fromkeys(bets, vector)
        else:
            for bet, tags in given.items():
                if bet not in bets:
                    rules.bet(bet)  # names an unknown bet
                    raise ValueError(f"tags: {bet} is not among the bets played")
                per_bet[bet] = tag_vector(f"tags of {bet}", tags)
    missing = [b for b in bets if b not in per_bet]
    if missing:
        if rules.fresh_deck_each_round:  # a fresh deck each round: nothing to count
            per_bet.update({b: (0,) * len(RANK_SYMBOLS) for b in missing})
        else:
            removal = effect_of_removal(rules, missing)
            per_bet.update({b: tuple(removal[b].tags[s] for s in RANK_SYMBOLS) for b in missing})
    return per_bet


@dataclass(frozen=True)
class CountBin:
    """The rounds whose true count fell in [low, high) (None: unbounded)."""

    low: float | None
    high: float | None
    rounds: int
    ev: float | None  # the mean exact EV there (with perfect information played alongside)
    result: float | None  # the mean result per unit staked there


@dataclass(frozen=True)
class StrategyStats:
    """How one strategy fared with one bet (units won per unit staked; every figure per
    round dealt unless it says per unit bet).

    ``frequency``: the fraction of rounds it bet. ``advantage``: its mean exact EV per unit
    bet (None where the EVs were not computed). ``result_per_unit``: the mean result per
    unit bet. ``gain_per_100``: units won per 100 rounds dealt, with its standard error
    (rounds treated as independent); ``expected_gain_per_100``: the same from the exact
    EVs of the rounds it bet (a far smaller error). ``sd``: the standard deviation of the
    result per round dealt. ``risk_of_ruin``: with ``bankroll``, the chance of losing it
    (the diffusion approximation ``exp(-2 gain bankroll / sd**2)``)."""

    strategy: str
    rounds: int
    rounds_bet: int
    units_bet: float
    frequency: float
    advantage: float | None
    result_per_unit: float | None
    gain_per_100: float
    gain_per_100_se: float
    expected_gain_per_100: float | None
    sd: float
    risk_of_ruin: float | None

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "strategy"}


@dataclass(frozen=True)
class CountStats(StrategyStats):
    """A count's results, with its tags, the threshold it bet from, the correlation of
    the true count with the exact EV, and the results by true count: ``bins``, one for
    each bin of the true count (its dict's key for them keeps the name ``"table"``)."""

    tags: Mapping[str, int]
    threshold: float | None
    correlation: float | None
    bins: tuple[CountBin, ...]

    @property
    def table(self) -> tuple[CountBin, ...]:
        """Deprecated: ``bins``."""
        renamed("sanggong.shoe.CountStats.table", "sanggong.shoe.CountStats.bins")
        return self.bins

    def to_dict(self) -> dict[str, Any]:
        out = {k: v for k, v in super().to_dict().items() if k != "bins"}
        out["tags"] = dict(self.tags)
        out["table"] = [b.__dict__ for b in self.bins if b.rounds]  # the published key (--json), kept
        return out


@dataclass(frozen=True)
class BetPlay:
    """One bet over the shoes played: its fresh-shoe EV and each strategy's results."""

    bet: str
    ev: Fraction  # exact, fresh shoe
    always: StrategyStats  # betting every round: the control
    perfect: StrategyStats | None
    count: CountStats | None

    @property
    def house_edge(self) -> float:
        return -float(self.ev)

    @property
    def gain_per_100(self) -> float:
        """The most a strategy played gains on this bet, in units per 100 rounds dealt: by
        the exact EVs of the rounds it bet where they were computed (perfect information
        played), else by its results; 0.0 where no strategy bets (what ``sanggong protect``
        ranks the bets by, and holds against ``--min-gain``)."""
        gains = [s.gain_per_100 if s.expected_gain_per_100 is None else s.expected_gain_per_100
                 for s in (self.perfect, self.count) if s is not None]
        return max(0.0, *gains)

    @property
    def beatable(self) -> bool:
        """Whether a strategy gains over the shoes played: by the exact EVs of the rounds
        it bet where they were computed (perfect information played), else by the count's
        results, more than 3 standard errors above 0 (its threshold was chosen on these
        same shoes, which flatters it)."""
        if self.perfect is not None:
            return any(s is not None and (s.expected_gain_per_100 or 0.0) > 0 for s in (self.perfect, self.count))
        return self.count is not None and self.count.gain_per_100 - 3 * self.count.gain_per_100_se > 0

    def to_dict(self) -> dict[str, Any]:
        return {"bet": self.bet, "house_edge": self.house_edge, "beatable": self.beatable,
                "always": self.always.to_dict(),
                "perfect": None if self.perfect is None else self.perfect.to_dict(),
                "count": None if self.count is None else self.count.to_dict()}


@dataclass(frozen=True)
class PlayResult(Mapping[str, BetPlay]):
    """What ``play_shoes`` found, per bet: a read-only mapping of each bet's name to its
    :class:`BetPlay`, in the order of ``bets`` (``in``, iteration, ``len``, ``keys()``,
    ``items()``, ``get()`` are those of ``bets``; equality is the dataclass's, never a
    plain ``dict``'s). A bet it did not play is a ``KeyError`` naming the closest it did."""

    rules: str
    decks: int
    positions: int
    shoes: int
    rounds: int
    seed: int | Seed
    burned_seen: bool
    bets: Mapping[str, BetPlay]
    interrupted: bool = False
    seconds: float = field(default=0.0, compare=False)

    def __getitem__(self, bet: str) -> BetPlay:
        found = self.bets.get(bet) if isinstance(bet, str) else None
        if found is None:
            raise missing("bet", bet, "result of play_shoes", "its bets", list(self.bets))
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self.bets)

    def __len__(self) -> int:
        return len(self.bets)

    def to_dict(self) -> dict[str, Any]:
        return {"rules": self.rules, "decks": self.decks, "positions": self.positions, "shoes": self.shoes,
                "rounds": self.rounds, "seed": seed_json(self.seed), "burned_seen": self.burned_seen,
                "interrupted": self.interrupted, "bets": [b.to_dict() for b in self.bets.values()]}

    def to_frame(self) -> Any:
        """One row per bet and strategy (pandas, the ``frame`` extra)."""
        rows = []
        for b in self.bets.values():
            for s in (b.always, b.perfect, b.count):
                if s is not None:
                    rows.append({"bet": b.bet, "house_edge": b.house_edge,
                                 **{k: v for k, v in s.__dict__.items() if k != "bins"},
                                 **({"tags": None, "table": None} if isinstance(s, CountStats) else {})})
        return pandas().DataFrame(rows).set_index(["bet", "strategy"])

    def _repr_html_(self) -> str:
        def f(s: StrategyStats | None, what: str) -> str:
            if s is None:
                return ""
            value = getattr(s, what)
            return "" if value is None else (percent(value) if what == "frequency" else f"{value:+.4f}")

        rows = [(b.bet, percent(b.house_edge), f(b.perfect, "frequency"), f(b.perfect, "expected_gain_per_100"),
                 f(b.count, "frequency"), f(b.count, "gain_per_100"), "yes" if b.beatable else "")
                for b in self.bets.values()]
        header = ("bet", "house edge", "perfect: frequency", "perfect: gain/100", "count: frequency",
                  "count: gain/100", "beatable")
        return html_sheet("play", f"{self.rules}: {self.shoes:,} shoes, {self.rounds:,} rounds", header, rows)


