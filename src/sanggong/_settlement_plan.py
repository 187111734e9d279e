"""The settlement plan: the outcome codes with which the kernels settle a bet slip, each
generated from the specification's ``bet_outcome`` (``sanggong.settlement`` settles
through it and re-exports it)."""

from __future__ import annotations

import array
import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ._spec import N_PAIR_PLUS, bet_outcome, on_hand, reads
from ._text import renamed
from .ranking import tables_for
from .rules import BetSpec, RuleSet

if TYPE_CHECKING:  # (a plan's arrays are the standard library's: settling a slip imports no NumPy)
    import numpy as np
    import numpy.typing as npt

__all__ = ["SettlementPlan", "key_coefficients", "key_space", "plan_for"]

# --- the settlement plan: outcome codes generated from the specification ----------------


class SettlementPlan:
    """The outcome codes and per-bet coefficients with which the compiled core settles
    ``specs`` under ``rules`` (see ``_core.settle_batch``); built by ``plan_for``.

    Row ``r`` of ``outcome_codes`` (``key_space`` codes a row, one after the other) holds
    the outcome of one bet kind for every key
    ``ka * hand_class + kb * hand_pair_plus + kc * banker_class + kd * (order + 1)``
    (``key_space`` keys a row; classes of ``rules.ranking``, order 1, 0 or -1 as the hand
    beats, ties or loses to the banker's), each code computed by
    ``_spec.bet_outcome``. Bets on the same kind share a row. (``table`` is a deprecated
    name of ``outcome_codes``.) Each array is an ``array.array`` (``outcome_codes`` of
    uint8, the coefficients of int32: buffers the kernels read as NumPy's arrays, made
    without NumPy, so that settling a slip imports none; ``row_of`` is a NumPy view).
    """

    def __init__(self, rules: RuleSet, specs: Sequence[BetSpec]) -> None:
        self.rules = rules
        self.specs = tuple(specs)
        tables = tables_for(rules.ranking)
        self.n_classes = tables.n_classes
        self.class_keys = tables.class_keys
        self.key_space = key_space(rules)
        rows: dict[tuple[str, int], int] = {}
        codes: list[tuple[int, ...]] = []
        coefficients = []
        for spec in self.specs:
            number = spec.number
            if (spec.kind, number) not in rows:
                rows[(spec.kind, number)] = len(codes)
                codes.append(_outcome_row(self.rules, spec.kind, number))
            coefficients.append(
                (rows[(spec.kind, number)], spec.position if on_hand(spec.kind) else 0,
                 *key_coefficients(rules, spec.kind))
            )
        self.outcome_codes = array.array("B", [code for row in codes for code in row])
        self.row, self.hand, self.ka, self.kb, self.kc, self.kd = (
            array.array("i", [c[k] for c in coefficients]) for k in range(6))

    def row_of(self, j: int) -> npt.NDArray[np.uint8]:
        """Bet j's row of ``outcome_codes``: its outcome code for every key (a NumPy view)."""
        import numpy as np

        start = self.row[j] * self.key_space
        return np.frombuffer(self.outcome_codes, dtype=np.uint8)[start : start + self.key_space]

    @property
    def table(self) -> array.array[int]:
        """Deprecated: ``outcome_codes``."""
        renamed("sanggong.settlement.SettlementPlan.table", "sanggong.settlement.SettlementPlan.outcome_codes")
        return self.outcome_codes

    def __reduce__(self) -> tuple[Any, ...]:  # small to send: the codes are rebuilt
        return (plan_for, (self.rules, tuple(s.name for s in self.specs)))


def key_space(rules: RuleSet) -> int:
    """Keys of a settlement plan's row: every (hand class, banker class, order)."""
    n = tables_for(rules.ranking).n_classes
    return max(n * n * 3, N_PAIR_PLUS)


def key_coefficients(rules: RuleSet, kind: str) -> tuple[int, int, int, int]:
    """``(ka, kb, kc, kd)`` of a bet kind: a comparison (and a total bet) reads both
    classes and the order (key ``(hand_class * n + banker_class) * 3 + order + 1``, as the
    round loop counts pairs), Pair Plus and a pair bet the category, the other bets the
    class of their hand."""
    if reads(kind) == "two hands":
        return (tables_for(rules.ranking).n_classes * 3, 0, 3, 1)
    if reads(kind) == "category":
        return (0, 1, 0, 0)
    return (1, 0, 0, 0)  # odd, even, three_faces, point: the hand's class alone


@functools.lru_cache(maxsize=1024)
def _outcome_row(rules: RuleSet, kind: str, number: int) -> tuple[int, ...]:
    """One bet kind's outcome for every key, from the specification's ``bet_outcome``.
    Cached apart from the plans: a new bet slip reuses the rows of the bets it shares
    with earlier ones, so a live table pays for each row once, not for each slip."""
    tables = tables_for(rules.ranking)
    keys, n = tables.class_keys, tables.n_classes
    row = [0xFF] * key_space(rules)  # keys no input reaches
    if reads(kind) == "two hands":
        for hand in range(n):
            for banker in range(n):
                for order in (-1, 0, 1):
                    row[(hand * n + banker) * 3 + order + 1] = bet_outcome(
                        rules, kind, number, keys[hand], 0, keys[banker], order
                    )
    elif reads(kind) == "category":
        for pp in range(N_PAIR_PLUS):
            row[pp] = bet_outcome(rules, kind, number, keys[0], pp, keys[0], 0)
    else:
        for hand in range(n):
            row[hand] = bet_outcome(rules, kind, number, keys[hand], 0, keys[hand], 0)
    return tuple(row)


@functools.lru_cache(maxsize=256)
def plan_for(rules: RuleSet, bets: tuple[str, ...]) -> SettlementPlan:
    """The (cached) settlement plan of these canonical bet names under ``rules``."""
    return SettlementPlan(rules, [rules.bet(name) for name in bets])
