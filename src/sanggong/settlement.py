"""Exact settlement of every bet of a round, and a table session that carries stakes.

Money is exact. Stakes are ``int`` (in the minor unit, e.g. cents), ``Decimal`` (in
units of ``rules.minor_unit``, 0.01 by default) or ``Fraction`` (exact, never rounded);
one bet slip uses one kind, and amounts come back in the same kind. A float, a bool, a
negative, zero, NaN or infinite stake is refused. Where a payout leaves a fraction of
the minor unit (5% commission on an odd amount, 1:0.5 on an odd stake), the player's
payout is rounded by ``rules.rounding`` (down by default) and the remainder stays with
the house, counted in ``commission`` for commission bets.

>>> from sanggong.rules import MACAU, ONLINE
>>> round_ = settle(ONLINE, banker="Kh Qs 9d", hands={1: "As 2d 3c"},
...                 bets={"win:1": 100, "lose:1": 100, "pair_plus:1": 10})
>>> [(r.bet, r.outcome, r.returned) for r in round_.results]
[('win:1', 'lose', 0), ('lose:1', 'win', 200), ('pair_plus:1', 'win', 70)]
>>> round_.staked, round_.returned, round_.house_net
(210, 270, -60)
>>> macau = settle(MACAU, banker="9c 9d 5h", hands={1: "Kh Qs 9d"}, bets={"win:1": 101})
>>> r = macau.results[0]; (r.outcome, r.returned, r.commission)   # 101 + 101 - 5.05, down
('win', 196, 6)
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias

from . import _kernels
from ._presentation import html_sheet, missing, money_column, pandas
from ._settlement_plan import SettlementPlan, plan_for
from ._spec import (
    N_PAIR_PLUS,
    OUT_CARRIED,
    OUT_LOSE,
    OUT_MULTIPLIED,
    OUT_PAIR_PLUS,
    OUT_PUSH,
    OUT_TOTAL,
    OUT_WIN,
    OUT_WIN_ON_SIX,
    PAIR_PLUS_NAMES,
    on_hand,
)
from ._threads import locked, new_lock
from .cards import Card, CardsLike
from .hands import HandValue, evaluate
from .limits import MAX_BETS, MAX_PLAYER_ID
from .money import Money, Purse, check_stake, exact_decimal, json_money, money_kind, money_text
from .ranking import tables_for
from .rules import BetSpec, RuleSet, as_rules

if TYPE_CHECKING:  # pandas is optional (the "frame" extra), and typed only with pandas-stubs
    import numpy as np  # (imported where arrays are made: settling a slip makes the kernels' own, no NumPy's)
    import numpy.typing as npt
    from pandas import DataFrame  # type: ignore[import-not-found, import-untyped, unused-ignore]

__all__ = ["BetResult", "Money", "Settlement", "SettlementPlan", "TableSession", "settle"]

HandLike: TypeAlias = CardsLike | HandValue

RESULTS = {
    OUT_LOSE: ("lose", None),
    OUT_WIN: ("win", None),
    OUT_WIN_ON_SIX: ("win", "with a 6-point hand"),
    OUT_PUSH: ("push", None),
    OUT_CARRIED: ("carried", None),
} | {
    OUT_PAIR_PLUS + pp: ("win", PAIR_PLUS_NAMES[pp])
    for pp in range(1, N_PAIR_PLUS)
}
_PP_KEYS = {
    OUT_PAIR_PLUS + pp: key
    for pp, key in enumerate(("", "pair", "flush", "straight", "three_of_a_kind", "straight_flush"))
    if key
}


def result_of(rules: RuleSet, code: int) -> tuple[str, str | None]:
    """``(outcome, detail)`` of an outcome code: ``"win"``, ``"lose"``, ``"push"`` or
    ``"carried"``, and what decided it where it matters (a Pair Plus category, a 6-point
    hand, a banker game's multiplier such as ``"x3"``; a total bet's range is its name's)."""
    if code < OUT_MULTIPLIED:
        return RESULTS[code]
    if code >= OUT_TOTAL:
        return "win", None
    index, lost = divmod(code - OUT_MULTIPLIED, 2)
    return ("lose" if lost else "win"), f"x{rules.multiplier_values[index]}"


def multiplied(code: int) -> bool:
    """Whether an outcome code is a banker game's (the stake times a multiplier, won or lost)."""
    return OUT_MULTIPLIED <= code < OUT_TOTAL


# --- results ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BetResult:
    """How one bet ended.

    :ivar outcome: ``"win"``, ``"lose"``, ``"push"`` (stake returned), ``"carried"``
        (the stake stays on the table for the next round) or ``"void"`` (the round was
        void: the stake returned, or a stake carried into it carried on).
    :ivar detail: what won, where it matters (``"flush"``, ``"with a 6-point hand"``).
    :ivar odds: the odds paid ("to 1"), for a win.
    :ivar returned: paid back to the player now: stake and winnings less commission,
        rounded to the minor unit; the stake alone on a push; 0 on a loss or a carry. In a
        banker game (``player:<i>``) a win returns stake + stake x multiplier and a loss
        stake - stake x multiplier, which is negative where the player owes more than the
        stake: ``net`` is then -stake x multiplier.
    :ivar commission: kept by the house from a winning commission bet (the commission
        and the rounding of the payout to the minor unit).
    :ivar carried: the stake left on the table for the next round.
    :ivar player: the player whose stake it is, in a slip by player (None: a slip of
        bets alone).
    """

    bet: str
    stake: Money
    outcome: str
    detail: str | None
    odds: Fraction | None
    returned: Money
    commission: Money
    carried: Money
    player: str | None = None

    @property
    def net(self) -> Money:
        """The player's gain (negative: loss) this round, counting a carried stake as
        still the player's."""
        with exact_decimal():  # never the caller's decimal context
            return self.returned + self.carried - self.stake  # type: ignore[operator]

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "bet": self.bet,
            "stake": json_money(self.stake),
            "outcome": self.outcome,
            "detail": self.detail,
            "odds": None if self.odds is None else str(self.odds),
            "returned": json_money(self.returned),
            "commission": json_money(self.commission),
            "carried": json_money(self.carried),
            "net": json_money(self.net),
        }


@dataclass(frozen=True, slots=True)
class Settlement(Mapping["str | tuple[str, str]", BetResult]):
    """A settled round: the hands and every bet's result, with exact totals. A void round
    (``TableSession.void``) has no hands (``banker`` None) and ``void`` set.

    It is a read-only mapping of each bet to its :class:`BetResult`, in the order of
    ``results``: keyed by the bet's name for a slip of bets alone, by ``(player, bet)``
    for a slip by player (``in``, iteration, ``len``, ``keys()``, ``items()``, ``get()``;
    equality is the dataclass's, never a plain ``dict``'s). A round with no bets is an
    empty mapping, so false.

    >>> from sanggong.rules import ONLINE
    >>> round_ = settle(ONLINE, "Kh Qs 9d", {1: "As 2d 3c"}, {"win:1": 100, "lose:1": 100})
    >>> list(round_), "lose:1" in round_, round_["lose:1"].returned
    (['win:1', 'lose:1'], True, 200)
    >>> by_player = settle(ONLINE, "Kh Qs 9d", {1: "As 2d 3c"}, {"ann": {"win:1": 5}, "bo": {"lose:1": 5}})
    >>> list(by_player), by_player["bo", "lose:1"].returned
    ([('ann', 'win:1'), ('bo', 'lose:1')], 10)
    >>> by_player["an", "win:1"]
    Traceback (most recent call last):
    ...
    KeyError: "no bet ('an', 'win:1') (did you mean 'ann'?) in this settlement; its players: 'ann', 'bo'"
    """

    rules: RuleSet
    banker: HandValue | None
    hands: Mapping[int, HandValue]
    results: tuple[BetResult, ...]
    void: bool = False

    def __getitem__(self, bet: str | tuple[str, str]) -> BetResult:
        """The result of ``bet`` (a slip of bets alone), or of ``(player, bet)``."""
        player, name = bet if isinstance(bet, tuple) and len(bet) == 2 and isinstance(bet[0], str) else (None, bet)
        if isinstance(name, str):  # (anything else is no bet: never compared with one)
            for result in self.results:
                if result.bet == name and result.player == player:
                    return result
        raise self._missing(bet, player, name)

    def __iter__(self) -> Iterator[str | tuple[str, str]]:
        return iter(self._keys())

    def __len__(self) -> int:
        return len(self._keys())

    def _keys(self) -> dict[str | tuple[str, str], None]:
        """The results' keys, each once, in their order."""
        return dict.fromkeys(r.bet if r.player is None else (r.player, r.bet) for r in self.results)

    def _missing(self, bet: object, player: str | None, name: object) -> KeyError:
        """The KeyError of a bet this round does not hold, naming the closest it does."""
        players = list(dict.fromkeys(r.player for r in self.results if r.player is not None))
        alone = [r.bet for r in self.results if r.player is None]
        if player is None and (alone or not players):
            return missing("bet", bet, "settlement", "its bets", alone)
        if player is None:
            return missing("bet", bet, "settlement (a slip by player: index it by (player, bet))", "its players",
                           players, near=name)
        if player in players:
            return missing("bet", bet, "settlement", f"the bets of {player!r}",
                           [r.bet for r in self.results if r.player == player], near=name)
        if players:
            return missing("bet", bet, "settlement", "its players", players, near=player)
        return missing("bet", bet, "settlement (a slip of bets alone: index it by bet)", "its bets", alone, near=name)

    def of(self, player: str) -> tuple[BetResult, ...]:
        """The results of one player's bets (a slip by player)."""
        return tuple(r for r in self.results if r.player == player)

    def _total(self, field: str) -> Money:
        with exact_decimal():  # never the caller's decimal context
            total: Money = sum((getattr(r, field) for r in self.results), start=self._zero())
        return total

    def _zero(self) -> Money:
        return self.results[0].stake * 0 if self.results else 0

    @property
    def staked(self) -> Money:
        return self._total("stake")

    @property
    def returned(self) -> Money:
        return self._total("returned")

    @property
    def commission(self) -> Money:
        return self._total("commission")

    @property
    def carried(self) -> Money:
        return self._total("carried")

    @property
    def house_net(self) -> Money:
        """Stakes taken less amounts returned, carried stakes left out (they are still
        the players'): the house's result for the round."""
        with exact_decimal():
            return self.staked - self.returned - self.carried  # type: ignore[operator]

    _COLUMNS = ("stake", "outcome", "detail", "odds", "returned", "commission", "carried", "net")

    def to_frame(self) -> DataFrame:
        """The bets' results as a pandas ``DataFrame``, one row per bet in the order of
        ``results``. pandas is optional: ``pip install 'sanggong[frame]'``.

        Indexed by the bet's name (``bet``), or by ``(player, bet)`` for a slip by player;
        columns ``stake``, ``outcome``, ``detail``, ``odds``, ``returned``,
        ``commission``, ``carried`` and ``net``. Amounts are exact: ``int64`` for int
        amounts, else the amounts themselves (``Decimal``, ``Fraction``) in object
        columns; ``odds`` is an object column of ``Fraction`` (None where there are none).
        ``attrs`` holds the round: ``rules``, ``void``, ``banker`` and ``hands`` (each
        hand's cards and label as text) and the totals ``staked``, ``returned``,
        ``commission``, ``carried`` and ``house_net``.

        :raises ImportError: pandas is not installed (the message names the extra).
        """
        pd = pandas()
        results = self.results
        if any(r.player is not None for r in results):
            index = pd.MultiIndex.from_tuples([(r.player, r.bet) for r in results], names=["player", "bet"])
        else:
            index = pd.Index([r.bet for r in results], name="bet", dtype=object)
        columns = {
            "stake": money_column(r.stake for r in results),
            "outcome": [r.outcome for r in results],
            "detail": pd.Series([r.detail for r in results], index=index, dtype=object),  # None kept
            "odds": pd.Series([r.odds for r in results], index=index, dtype=object),
            "returned": money_column(r.returned for r in results),
            "commission": money_column(r.commission for r in results),
            "carried": money_column(r.carried for r in results),
            "net": money_column(r.net for r in results),
        }
        frame = pd.DataFrame(columns, index=index, columns=list(self._COLUMNS))
        frame.attrs.update(
            rules=self.rules.name, void=self.void, banker=None if self.banker is None else _hand_text(self.banker),
            hands={p: _hand_text(h) for p, h in self.hands.items()}, staked=self.staked, returned=self.returned,
            commission=self.commission, carried=self.carried, house_net=self.house_net,
        )
        return frame

    def _repr_html_(self) -> str:
        """The round as an HTML table, for notebooks (needs no pandas): the hands in the
        caption, a row per bet, the totals last."""
        if self.void:
            hands = "void round"
        else:
            assert self.banker is not None
            hands = "; ".join([f"banker {_hand_text(self.banker)}",
                               *(f"hand {p} {_hand_text(h)}" for p, h in self.hands.items())])
        caption = f"Settlement: {self.rules.name}: {hands}"
        rows = [
            (r.bet if r.player is None else f"{r.player}: {r.bet}", money_text(r.stake), r.outcome, r.detail or "",
             money_text(r.returned), money_text(r.commission), money_text(r.carried), money_text(r.net))
            for r in self.results
        ]
        with exact_decimal():
            net: Money = self._zero() - self.house_net  # type: ignore[operator]  # the players' net: one kind of money
        rows.append(("total", money_text(self.staked), "", "", money_text(self.returned), money_text(self.commission),
                     money_text(self.carried), money_text(net)))
        header = ("bet", "stake", "outcome", "detail", "returned", "commission", "carried", "net")
        return html_sheet("settlement", caption, header, rows)

    def to_dict(self) -> dict[str, Any]:
        def hand(h: HandValue) -> dict[str, Any]:
            return {"cards": [str(c) for c in h.cards], "label": h.label, "pair_plus": h.pair_plus.label}

        return {
            "rules": self.rules.name,
            "void": self.void,
            "banker": None if self.banker is None else hand(self.banker),
            "hands": {str(k): hand(v) for k, v in self.hands.items()},
            "bets": [r.to_dict() for r in self.results],
            "staked": json_money(self.staked),
            "returned": json_money(self.returned),
            "commission": json_money(self.commission),
            "carried": json_money(self.carried),
            "house_net": json_money(self.house_net),
        }


def _hand_text(hand: HandValue) -> str:
    return f"{' '.join(map(str, hand.cards))} ({hand.label})"


# --- settling ---------------------------------------------------------------------------


def _hands(rules: RuleSet, hands: Mapping[int, HandLike] | Sequence[HandLike]) -> dict[int, HandValue]:
    if isinstance(hands, str | bytes):
        raise TypeError("hands: give a mapping {position: hand} or a list of hands, not one string")
    if not isinstance(hands, Mapping | Sequence):
        raise TypeError(f"hands: give a mapping {{position: hand}} or a list of hands, not {type(hands).__name__}")
    if len(hands) > rules.positions:
        raise ValueError(f"hands: {len(hands)} hands given, the table has {rules.positions} positions")
    items = hands.items() if isinstance(hands, Mapping) else enumerate(hands, start=1)
    out: dict[int, HandValue] = {}
    for position, hand in items:
        if isinstance(position, bool) or not isinstance(position, int) or not 1 <= position <= rules.positions:
            raise ValueError(f"hands: {position!r} is not a position of this table (1..{rules.positions})")
        out[position] = evaluate(hand, rules)  # a HandValue is evaluated again from its cards
    return out


def check_cards(rules: RuleSet, hands: Sequence[HandValue]) -> None:
    """Refuse a table whose cards the rule set's decks cannot hold (the same card twice
    at a one-deck table, a ninth K♠ from eight decks), naming the card."""
    counts = Counter(card.code for hand in hands for card in hand.cards)
    code, most = max(counts.items(), key=lambda item: (item[1], -item[0]))
    if most > rules.decks:
        raise ValueError(
            f"the hands hold {Card(code)} {most} times, more than {rules.decks} "
            f"deck{'s' if rules.decks > 1 else ''} hold{'s' if rules.decks == 1 else ''}"
        )


SlipLike: TypeAlias = Mapping[str, Money] | Mapping[str, Mapping[str, Money]]
"""A bet slip: ``{bet: stake}``, or by player ``{player: {bet: stake}}`` (several players may
stake the same bet, each settled and paid on their own)."""


def plain_text(value: object) -> object:
    """A ``str`` subclass as the plain ``str`` of its characters, anything else as it is.
    ``str.__str__`` copies the characters without calling the subclass's own ``__str__``,
    ``__hash__`` or ``__eq__``: a key that prints, hashes or compares as something else
    than its characters can neither name another bet or player nor stand twice in a slip."""
    return str.__str__(value) if isinstance(value, str) else value


def check_player(player: object, what: str = "bets") -> str:
    """A player's id: a non-empty printable string of at most ``MAX_PLAYER_ID`` characters, not only
    spaces (a ``str`` subclass becomes the ``str`` of its characters); an error names ``what``."""
    if not isinstance(player, str):
        raise TypeError(f"{what}: a player is named by a string, not {type(player).__name__} {player!r}"[:120])
    player = str.__str__(player)
    if not 1 <= len(player) <= MAX_PLAYER_ID or not player.isprintable() or not player.strip():
        shown = repr(player) if len(player) <= 80 else repr(player[:80]) + "..."
        raise ValueError(f"{what}: {shown} is not a player's id (1 to {MAX_PLAYER_ID} printable characters)")
    return player


def _entries(bets: object) -> tuple[bool, list[tuple[str | None, object, object]]]:
    """A slip's (player, bet, stake) entries, and whether it is by player."""
    if not isinstance(bets, Mapping):
        raise TypeError(f"bets: expected a mapping of bet name to stake (or of player to such a mapping), "
                        f"not {type(bets).__name__}")
    items = list(bets.items())  # (read once: a mapping that answers differently twice is read as it first did)
    nested = [isinstance(v, Mapping) for _, v in items]
    if not any(nested):
        return False, _once([(None, plain_text(name), stake) for name, stake in items])
    if not all(nested):
        raise TypeError("bets: give {bet: stake}, or {player: {bet: stake}} by player, not both in one slip")
    entries: list[tuple[str | None, object, object]] = []
    for player, slip in items:
        who = check_player(player)
        entries.extend((who, plain_text(name), stake) for name, stake in slip.items())
        if len(entries) > MAX_BETS:
            raise ValueError(f"bets: at most {MAX_BETS} stakes in one slip")
    return True, _once(entries)


def _once(entries: list[tuple[str | None, object, object]]) -> list[tuple[str | None, object, object]]:
    """``entries``, refused where one player (or the slip of bets alone) names a bet twice:
    two keys of one text (``str`` subclasses that hash or compare apart) are one bet."""
    seen: set[tuple[str | None, object]] = set()
    for player, name, _ in entries:
        if isinstance(name, str):
            if (player, name) in seen:
                whose = f" by {player!r}" if player is not None else ""
                raise ValueError(f"bets: {name!r} is staked twice{whose} (two keys of one name)"[:200])
            seen.add((player, name))
    return entries


class SlipEntry(NamedTuple):
    """One stake of a checked slip."""

    player: str | None
    spec: BetSpec
    exact: Fraction
    stake: Money  # normalised (money.to_money)


class CheckedSlip(NamedTuple):
    """A bet slip as ``check_slip`` found it."""

    entries: list[SlipEntry]
    """Each stake, in the slip's order."""
    kinds: set[type]
    """The slip's money kind (one, or none for an empty slip)."""
    slip: dict[str, Any]
    """The slip normalised (``money.to_money``), of the shape it was given in (``{bet:
    stake}`` or ``{player: {bet: stake}}``): plain ``str`` names, every stake of its base
    type and canonical form. Records, sessions and results hold this one."""
    by_player: bool
    """The slip names its players."""

    @property
    def names(self) -> tuple[str, ...]:
        """The bets staked, each once, in the order they first appear."""
        return tuple(dict.fromkeys(e.spec.name for e in self.entries))


def check_slip(rules: RuleSet, bets: SlipLike) -> CheckedSlip:
    """Check a bet slip against the table without any hands: every bet offered, every
    stake an amount of one kind, no Tie without its Win (the same player's) where the
    rules need one; and normalise it (``CheckedSlip.slip``)."""
    by_player, raw = _entries(bets)
    entries: list[SlipEntry] = []
    kinds: set[type] = set()
    for player, name, stake in raw:
        spec = rules.bet(name)  # type: ignore[arg-type]  # (names a bet that is not a string)
        exact, kind = check_stake(spec.name, stake, rules)
        kinds.add(kind)
        entries.append(SlipEntry(player, BetSpec(str(spec.name), spec.kind, spec.position), exact, exact))
    if len(kinds) > 1:
        raise ValueError("bets: all stakes of a slip must be of one kind (int minor units, Decimal or Fraction)")
    if rules.tie_requires_win:
        placed = {(e.player, e.spec.name) for e in entries}
        for e in entries:
            if e.spec.kind == "tie" and (e.player, f"win:{e.spec.position}") not in placed:
                whose = f" (by {e.player})" if e.player is not None else ""
                raise ValueError(f"bet {e.spec.name}{whose}: a Tie bet needs a Win bet on position {e.spec.position}")
    normal = [e._replace(stake=Purse(kinds.copy().pop(), rules).money(e.exact)) for e in entries]
    slip: dict[str, Any] = {}
    for e in normal:
        if e.player is None:
            slip[e.spec.name] = e.stake
        else:
            slip.setdefault(e.player, {})[e.spec.name] = e.stake
    return CheckedSlip(normal, kinds, slip, by_player)


def settle(
    rules: RuleSet | str,
    banker: HandLike,
    hands: Mapping[int, HandLike] | Sequence[HandLike],
    bets: SlipLike,
) -> Settlement:
    """Settle a bet slip on one round's hands.

    :param rules: the table's rule set, or a preset's name.
    :param banker: the banker's hand.
    :param hands: position -> hand (or a list, position 1 first); a position needs a
        hand only if a bet is on it.
    :param bets: canonical bet name -> stake, or player -> (bet name -> stake): several
        players may stake the same bet, and each is settled and paid on their own. Stakes
        carried from the last round must be included (``TableSession`` does that).
    :raises ValueError: an unknown bet, a bet the table does not offer, a bad stake, a
        Tie without a Win bet where the rules require one, a missing hand.
    :raises TypeError: a float or otherwise non-money stake.

    >>> from sanggong.rules import ONLINE
    >>> settle(ONLINE, "Kh Qs 6d", ["5c 5d 6h"], {"lose:1": 100})["lose:1"].returned
    150
    >>> by_player = settle(ONLINE, "Kh Qs 6d", ["5c 5d 6h"], {"ann": {"lose:1": 100}, "bo": {"lose:1": 30, "win:1": 10}})
    >>> [(r.player, r.bet, r.returned) for r in by_player.results]
    [('ann', 'lose:1', 150), ('bo', 'lose:1', 45), ('bo', 'win:1', 0)]
    """
    rules = as_rules(rules)
    checked = check_slip(rules, bets)
    banker_value = evaluate(banker, rules)  # a HandValue is evaluated again from its cards
    hand_values = _hands(rules, hands)
    check_cards(rules, [banker_value, *hand_values.values()])
    specs = {e.spec.name: e.spec for e in checked.entries}  # each bet once: every stake on it shares its outcome
    for spec in specs.values():
        if on_hand(spec.kind) and spec.position and spec.position not in hand_values:
            raise ValueError(f"bet {spec.name}: no hand given for position {spec.position}")

    classes = _kernels.zeros((1, rules.hands), "B")  # (the kernels' arrays: no NumPy under the core)
    ranks = _kernels.zeros((1, rules.hands), "H")
    pps = _kernels.zeros((1, rules.hands), "B")
    for position, value in [(0, banker_value), *hand_values.items()]:
        classes[0, position], ranks[0, position], pps[0, position] = value.hand_class, value.rank, value.pair_plus
    code_of: dict[str, int] = {}
    if specs:
        outcomes = _kernels.zeros((1, len(specs)), "B")
        plan = plan_for(rules, tuple(specs))
        if _kernels.kernels.settle_batch(plan, classes, ranks, pps, outcomes) >= 0:  # cannot happen: values re-derived
            raise ValueError(f"hand values out of range: classes {classes.tolist()[0]}, pair plus {pps.tolist()[0]}")
        code_of = dict(zip(specs, outcomes.tolist()[0], strict=True))

    purse = Purse(checked.kinds.copy().pop(), rules) if checked.kinds else None
    results = []
    for e in checked.entries:
        assert purse is not None
        results.append(bet_result(rules, purse, e.spec, e.exact, code_of[e.spec.name], e.player))
    return Settlement(rules, banker_value, MappingProxyType(hand_values), tuple(results))


def odds_of(rules: RuleSet, kind: str, code: int) -> Fraction:
    """The odds (a banker game: the multiplier) an outcome code pays or costs."""
    if code >= OUT_TOTAL:  # a total bet: the odds of its range
        return rules.total_pays[list(rules.total_pays)[code - OUT_TOTAL]]
    if multiplied(code):
        return rules.multiplier_values[(code - OUT_MULTIPLIED) // 2]
    if code == OUT_WIN_ON_SIX:
        return rules.pays[f"{kind}_on_six"]
    if code in _PP_KEYS:
        return rules.pair_plus_pays[_PP_KEYS[code]]
    return rules.pays[kind]


@functools.lru_cache(maxsize=1024)
def payout(rules: RuleSet, kind: str, code: int) -> tuple[Fraction | None, Fraction]:
    """``(odds, net)`` of one outcome code of a bet kind: the odds it pays (None where it
    pays none), and its net return per unit staked, commission taken (a banker game: +-
    the multiplier). Exact analysis and the shoe evaluator sum these."""
    outcome = result_of(rules, code)[0]
    if multiplied(code):  # a banker game: the stake times the multiplier, won or lost
        pays = odds_of(rules, kind, code)
        return pays, pays if outcome == "win" else -pays
    if outcome == "win":
        pays = odds_of(rules, kind, code)
        rate = rules.commission if kind in rules.commission_bets else Fraction(0)
        return pays, pays * (1 - rate)
    return None, Fraction(-1 if outcome == "lose" else 0)


def bet_result(rules: RuleSet, purse: Purse, spec: BetSpec, stake: Fraction, code: int,
               player: str | None = None) -> BetResult:
    outcome, detail = result_of(rules, code)
    zero = Fraction(0)
    odds, returned, commission, carried = None, zero, zero, zero
    if multiplied(code):  # a banker game: the loser pays stake x multiplier
        odds = odds_of(rules, spec.kind, code)
        returned = purse.pay(stake + stake * odds if outcome == "win" else stake - stake * odds)
    elif outcome == "win":
        odds = odds_of(rules, spec.kind, code)
        winnings = stake * odds
        rate = rules.commission if spec.kind in rules.commission_bets else zero
        returned = purse.pay(stake + winnings - winnings * rate)
        commission = stake + winnings - returned if rate else zero
    elif outcome == "push":
        returned = stake
    elif outcome == "carried":
        carried = stake
    return BetResult(
        bet=spec.name,
        stake=purse.money(stake),
        outcome=outcome,
        detail=detail,
        odds=odds,
        returned=purse.money(returned),
        commission=purse.money(commission),
        carried=purse.money(carried),
        player=player,
    )


def outcome_codes(
    rules: RuleSet | str,
    bets: Sequence[str],
    classes: npt.ArrayLike,
    ranks: npt.ArrayLike,
    pair_plus: npt.ArrayLike,
) -> npt.NDArray[np.uint8]:
    """Outcome codes of ``bets`` for many rounds at once (for simulations and tests).

    :param classes: ``(rounds, positions + 1)`` hand classes under ``rules.ranking``
        (``HandValue.hand_class``), column 0 the banker's.
    :param ranks: the same shape, hand ranks (``HandValue.rank``; only their order counts).
    :param pair_plus: the same shape, Pair Plus categories.
    :returns: ``(rounds, len(bets))`` codes: 0 lose, 1 win, 2 win with a 6-point hand,
        3 push, 4 carried, 5..9 Pair Plus pair .. straight flush, 10 + 2 i (11 + 2 i) a
        banker-game win (loss) at ``rules.multiplier_values[i]``, 42 + i a total bet's win
        at the odds of the i-th range of ``rules.total_pays``.
    """
    import numpy as np

    rules = as_rules(rules)
    if isinstance(bets, str) or not isinstance(bets, Sequence):
        raise TypeError(f"bets: expected a sequence of bet names, not {type(bets).__name__}")
    n_classes = tables_for(rules.ranking).n_classes
    checked = []
    tops = (("classes", classes, n_classes), ("ranks", ranks, 1 << 16), ("pair_plus", pair_plus, N_PAIR_PLUS))
    for name, values, _ in tops:
        arr = np.asarray(values)
        if arr.dtype.kind not in "iu":
            raise TypeError(f"{name} must be an integer array, not dtype {arr.dtype}")
        checked.append(arr)
    if checked[0].ndim != 2 or checked[0].shape[1] != rules.hands or any(a.shape != checked[0].shape for a in checked):
        raise ValueError(f"classes, ranks and pair_plus must all have shape (rounds, {rules.hands}), "
                         f"got {', '.join(str(a.shape) for a in checked)}")
    bad_rows = np.zeros(len(checked[0]), dtype=bool)
    for (_, _, top), arr in zip(tops, checked, strict=True):
        bad_rows |= ((arr < 0) | (arr >= top)).any(axis=1)
    if bad_rows.any():  # checked before any cast: nothing wraps
        bad = int(np.argmax(bad_rows))
        raise ValueError(f"round {bad}: classes {checked[0][bad].tolist()} / ranks {checked[1][bad].tolist()} / "
                         f"pair plus {checked[2][bad].tolist()} hold a value out of range")
    c, r, p = (np.ascontiguousarray(x, dtype=t) for x, t in zip(checked, (np.uint8, np.uint16, np.uint8), strict=True))
    out = np.empty((len(c), len(bets)), dtype=np.uint8)
    bad = _kernels.kernels.settle_batch(plan_for(rules, tuple(bets)), c, r, p, out)
    if bad >= 0:
        raise ValueError(f"round {bad}: classes {c[bad].tolist()} / pair plus {p[bad].tolist()} hold a value out of range")
    return out


# --- a table session: stakes carried from round to round ----------------------------------


class TableSession:
    """A player's seat across rounds: carried stakes stay on the table.

    A stake carried by a push (a Macau Win bet on a tie, Odd/Even on a banker 3P) is
    added to the next round's slip by itself; the slip may raise it, but a smaller
    stake, or a zero, is refused: a carried stake cannot be reduced or withdrawn.

    >>> from sanggong.rules import MACAU
    >>> seat = TableSession(MACAU)
    >>> seat.settle("9c 9d 5h", {1: "9h 9s 5c"}, {"win:1": 100}).results[0].outcome
    'carried'
    >>> dict(seat.carried)
    {'win:1': 100}
    >>> seat.settle("9c 9d 5h", {1: "9h 9s 5c"}, {"win:1": 50})
    Traceback (most recent call last):
    ...
    ValueError: bet win:1: a carried stake of 100 may be increased, not reduced or withdrawn (got 50)

    Thread-safety: safe to share between threads; each call holds the session's lock,
    so concurrent rounds are settled one after the other (``sanggong._threads``).
    """

    def __init__(self, rules: RuleSet | str) -> None:
        self.rules = as_rules(rules)
        self._carried: dict[tuple[str | None, str], Money] = {}  # (player or None, bet) -> stake
        self._lock = new_lock()

    @property
    def carried(self) -> Mapping[str, Any]:
        """Stakes on the table from the last round: ``{bet: stake}``, or by player
        ``{player: {bet: stake}}`` (the shape of the slips that carried them)."""
        return MappingProxyType(_shaped(self._carried))

    @locked
    def settle(
        self,
        banker: HandLike,
        hands: Mapping[int, HandLike] | Sequence[HandLike],
        bets: SlipLike | None = None,
    ) -> Settlement:
        """Settle a round with the carried stakes plus ``bets`` (``{bet: stake}``, or by
        player ``{player: {bet: stake}}``)."""
        return self.settle_slip(banker, hands, self.slip({} if bets is None else bets))

    @locked
    def settle_slip(
        self,
        banker: HandLike,
        hands: Mapping[int, HandLike] | Sequence[HandLike],
        slip: SlipLike,
    ) -> Settlement:
        """Settle a whole slip made by ``slip`` (carried stakes included) and keep what
        it carries to the next round. A carried stake missing from ``slip`` is put back,
        and one reduced or changed in kind is refused, as ``slip`` does."""
        result = settle(self.rules, banker, hands, self.slip(slip))
        self._carried = {(r.player, r.bet): r.carried for r in result.results if r.carried}
        return result

    @locked
    def void(self, bets: SlipLike | None = None) -> Settlement:
        """A void round (a misdeal that could not be put right: Macau's article 2.5):
        every stake of the slip (the carried stakes plus ``bets``, checked as ``settle``
        checks them) is returned in full, but a stake carried into the round, which stays
        carried to the next; nothing is won or lost.

        >>> from sanggong.rules import MACAU
        >>> seat = TableSession(MACAU)
        >>> _ = seat.settle("9c 9d 5h", {1: "9h 9s 5c"}, {"win:1": 100})   # a tie carries it
        >>> void = seat.void({"win:1": 150, "odd": 20})
        >>> [(r.bet, r.outcome, r.returned, r.carried) for r in void.results], dict(seat.carried)
        ([('win:1', 'void', 50, 100), ('odd', 'void', 20, 0)], {'win:1': 100})
        """
        return self.void_slip(self.slip({} if bets is None else bets))

    @locked
    def void_slip(self, slip: SlipLike) -> Settlement:
        """``void`` of a whole slip made by ``slip`` (carried stakes included)."""
        checked = check_slip(self.rules, self.slip(slip))
        purse = Purse(checked.kinds.pop(), self.rules) if checked.kinds else None
        results = []
        for e in checked.entries:
            assert purse is not None
            carried = Fraction(self._carried.get((e.player, e.spec.name), 0))
            results.append(BetResult(
                bet=e.spec.name, stake=purse.money(e.exact), outcome="void", detail=None, odds=None,
                returned=purse.money(e.exact - carried), commission=purse.money(Fraction(0)),
                carried=purse.money(carried), player=e.player,
            ))
        return Settlement(self.rules, None, MappingProxyType({}), tuple(results), void=True)

    @locked
    def slip(self, bets: SlipLike) -> dict[str, Any]:
        """The next round's whole slip: the carried stakes, raised or joined by ``bets``,
        checked as ``settle`` would check it (an empty slip is allowed), in the shape of
        ``bets`` (a slip by player keeps the stakes players carried)."""
        by_player, entries = _entries(bets)
        carried_by_player = any(player is not None for player, _ in self._carried)
        if entries and self._carried and by_player != carried_by_player:
            raise ValueError("bets: the stakes carried from the last round were " +
                             ("by player: give this round's by player too ({player: {bet: stake}})" if carried_by_player
                              else "a slip of bets alone: give this round's the same way ({bet: stake})"))
        merged: dict[tuple[str | None, str], object] = dict(self._carried)
        for player, name, stake in entries:
            key = (player, str(name))
            if key in self._carried:
                carried = self._carried[key]
                whose = f" (by {player})" if player is not None else ""
                if money_kind(stake) is None:
                    check_stake(str(name), stake, self.rules)  # raises, naming the bet
                if money_kind(stake) is not money_kind(carried):
                    raise ValueError(
                        f"bet {name}{whose}: a carried stake of {carried!r} keeps its kind of money, "
                        f"not {type(stake).__name__} {stake!r}"
                    )
                comparable = not (isinstance(stake, Decimal) and not stake.is_finite())  # NaN: check_slip names it
                if comparable and stake < carried:  # type: ignore[operator]
                    raise ValueError(
                        f"bet {name}{whose}: a carried stake of {carried} may be increased, "
                        f"not reduced or withdrawn (got {stake})"
                    )
            merged[key] = stake
        return check_slip(self.rules, _shaped(merged)).slip


def _shaped(stakes: Mapping[tuple[str | None, str], Any]) -> dict[str, Any]:
    """``{(player, bet): stake}`` as a slip: ``{bet: stake}`` where no player is named,
    else ``{player: {bet: stake}}``."""
    out: dict[str, Any] = {}
    for (player, bet), stake in stakes.items():
        if player is None:
            out[bet] = stake
        else:
            out.setdefault(player, {})[bet] = stake
    return out


def carried_stakes(session: TableSession) -> Mapping[tuple[str | None, str], Money]:
    """The stakes ``session`` carries, by (player or None, bet) (read only)."""
    return session._carried


def carry(session: TableSession, stakes: Mapping[tuple[str | None, str], Money]) -> None:
    """Carry ``stakes`` to ``session``'s next round, as ``settle_slip`` keeps a slip's."""
    if stakes or session._carried:
        session._carried = dict(stakes)
