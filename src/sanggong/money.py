"""Money: stakes, their kinds, exact arithmetic and rounding to the minor unit.

A stake is an ``int`` (in the minor unit, e.g. cents), a ``Decimal`` (a whole number of
``rules.minor_unit``) or a ``Fraction`` (exact, never rounded); one slip uses one kind,
and every amount comes back in that kind. Arithmetic is done on exact fractions and
converted back without any rounding; ``Decimal`` amounts are built and added in a
private context sized far beyond the largest amount allowed, with every inexact
operation trapped, so a caller's ``decimal`` context (its precision, its traps) never
changes an amount:

>>> from decimal import Decimal, localcontext
>>> from sanggong.rules import MACAU
>>> purse = Purse(Decimal, MACAU)
>>> with localcontext() as ctx:
...     ctx.prec = 3
...     purse.money(purse.pay(Fraction(123456789012345, 100)))
Decimal('1234567890123.45')
>>> check_stake("win:1", Decimal("1e999999999"), MACAU)
Traceback (most recent call last):
...
ValueError: stake on win:1: 1E+999999999 is beyond the largest stake (1000000000000000 units of 0.01)
"""

from __future__ import annotations

import decimal
from contextlib import AbstractContextManager
from decimal import Decimal
from fractions import Fraction
from typing import Protocol, TypeAlias

from ._spec import round_to_unit as round_to_unit
from .limits import MAX_DECIMAL_EXPONENT, MAX_DENOMINATOR, MAX_STAKE

__all__ = [
    "Money", "MoneyRules", "Purse", "check_stake", "exact_decimal", "json_money", "money_kind", "money_text", "to_money"
]

Money: TypeAlias = int | Decimal | Fraction


class MoneyRules(Protocol):
    """The two fields of a rule set that money reads (``sanggong.rules.RuleSet`` has them):
    money knows no more of the rules than these."""

    @property
    def minor_unit(self) -> Decimal: ...
    @property
    def rounding(self) -> str: ...

# Every Decimal amount sanggong makes is below 10**(15 + 6 + 30) in 10**-30 steps, with
# sums of at most a few million of them: 200 digits hold any of them exactly, and an
# operation that would round raises instead.
_EXACT = decimal.Context(
    prec=200, rounding=decimal.ROUND_HALF_EVEN, Emax=10**6, Emin=-(10**6), capitals=1, clamp=0,
    traps=[decimal.InvalidOperation, decimal.DivisionByZero, decimal.Overflow, decimal.Underflow,
           decimal.Inexact, decimal.Rounded, decimal.Subnormal],
)


def exact_decimal() -> AbstractContextManager[decimal.Context]:
    """A local ``decimal`` context in which sanggong's amounts are exact (inexact
    operations raise): use ``with exact_decimal(): ...`` around Decimal arithmetic."""
    return decimal.localcontext(_EXACT)


def money_kind(stake: object) -> type | None:
    """``int``, ``Decimal`` or ``Fraction`` for an amount of that kind (subclasses
    included; a bool is not money), else None."""
    if isinstance(stake, bool):
        return None
    for kind in (int, Decimal, Fraction):
        if isinstance(stake, kind):
            return kind
    return None


def _decimal_in_range(value: Decimal) -> bool:
    """A finite Decimal whose exponent and size stay within the limits, checked on its
    digits alone (nothing is computed with it before this)."""
    if not value.is_finite():
        return False
    exponent = value.as_tuple().exponent
    assert isinstance(exponent, int)
    return -MAX_DECIMAL_EXPONENT <= exponent <= MAX_DECIMAL_EXPONENT and value.adjusted() <= 40


def check_stake(bet: str, stake: object, rules: MoneyRules) -> tuple[Fraction, type]:
    """A stake's exact value and money kind, or a ``TypeError``/``ValueError`` naming
    the bet: a float, a bool, a non-positive, NaN or infinite amount, a Decimal that is
    not a whole number of ``rules.minor_unit``, a Fraction with a denominator above
    ``MAX_DENOMINATOR``, anything above ``MAX_STAKE`` units."""
    kind = money_kind(stake)
    if kind is None:
        hint = " (money is never a float: use int minor units, Decimal or Fraction)" if isinstance(stake, float) else ""
        raise TypeError(f"stake on {bet}: {stake!r} is not an amount{hint}")
    unit = Fraction(1)
    if kind is Decimal:
        assert isinstance(stake, Decimal)
        if not stake.is_finite():
            raise ValueError(f"stake on {bet}: {stake} is not a finite amount")
        unit = Fraction(rules.minor_unit)
        if not _decimal_in_range(stake):
            raise ValueError(
                f"stake on {bet}: {stake} is beyond the largest stake ({MAX_STAKE} units of {rules.minor_unit})"
            )
    elif kind is Fraction:
        assert isinstance(stake, Fraction)
        if stake.denominator > MAX_DENOMINATOR:
            raise ValueError(f"stake on {bet}: {stake} has a denominator above {MAX_DENOMINATOR}")
        if abs(stake.numerator) > MAX_STAKE * stake.denominator:
            raise ValueError(f"stake on {bet}: {stake} is beyond the largest stake ({MAX_STAKE})")
    elif abs(stake) > MAX_STAKE:  # type: ignore[arg-type]
        raise ValueError(f"stake on {bet}: {stake} is beyond the largest stake ({MAX_STAKE} minor units)")
    assert isinstance(stake, int | Decimal | Fraction)
    exact = Fraction(stake)
    if exact <= 0:
        raise ValueError(f"stake on {bet}: must be positive, got {stake}")
    units = exact / unit
    if kind is Decimal and units.denominator != 1:
        raise ValueError(f"stake on {bet}: {stake} is not a whole number of {rules.minor_unit}")
    if units > MAX_STAKE:
        raise ValueError(f"stake on {bet}: {stake} is beyond the largest stake ({MAX_STAKE} units of {rules.minor_unit})")
    return exact, kind


class Purse:
    """Arithmetic in one kind of money: exact fractions in, amounts of that kind out."""

    __slots__ = ("kind", "minor_unit", "rounding", "unit")

    def __init__(self, kind: type, rules: MoneyRules) -> None:
        self.kind = kind
        self.rounding = rules.rounding
        self.minor_unit = rules.minor_unit
        self.unit = {int: Fraction(1), Decimal: Fraction(rules.minor_unit), Fraction: None}[kind]

    def pay(self, exact: Fraction) -> Fraction:
        """Round a payout to the minor unit (Fraction money is never rounded)."""
        return exact if self.unit is None else round_to_unit(exact / self.unit, self.rounding) * self.unit

    def money(self, value: Fraction) -> Money:
        """An exact amount in this purse's kind (a Fraction only where the amount is not a
        whole number of the minor unit, which ``pay`` never leaves)."""
        if self.kind is int and value.denominator == 1:
            return int(value)
        if self.kind is Decimal and self.unit is not None:
            units = value / self.unit
            if units.denominator == 1:
                with exact_decimal():
                    return Decimal(int(units)) * self.minor_unit
        return value


def to_money(bet: str, stake: object, rules: MoneyRules) -> Money:
    """A stake checked (``check_stake``) and normalised: of its base type (an ``int``,
    ``Decimal`` or ``Fraction`` subclass becomes the class itself) and in its canonical
    form (a ``Decimal`` written in the minor unit's exponent: ``Decimal("1E+2")`` and
    ``Decimal("100")`` are both ``Decimal("100.00")`` at a 0.01 table). Every entry point
    that takes money passes it through here, so that settlement, records and the
    command line see the same value whatever the caller's number types.

    >>> from sanggong.rules import MACAU
    >>> to_money("win:1", Decimal("1E+2"), MACAU), to_money("win:1", Fraction(6, 4), MACAU)
    (Decimal('100.00'), Fraction(3, 2))
    """
    exact, kind = check_stake(bet, stake, rules)
    return Purse(kind, rules).money(exact)


def money_text(value: Money) -> str:
    """An amount's exact text, the same whatever the caller's ``decimal`` context (its
    ``capitals`` setting would otherwise write ``1e+2``): an int in plain decimal, a
    Decimal as sanggong's own context writes it, a Fraction as ``n/d`` (or ``n``).

    >>> from decimal import localcontext
    >>> with localcontext(capitals=0):
    ...     money_text(Decimal("1E-29"))
    '1E-29'
    """
    if isinstance(value, Decimal):
        with exact_decimal():
            return str(value)
    if isinstance(value, bool) or not isinstance(value, int | Fraction):
        raise TypeError(f"{value!r} is not an amount")
    return str(int(value)) if isinstance(value, int) else str(Fraction(value))


def json_money(value: Money) -> int | str:
    """An amount for JSON: an int as it is, a Decimal or Fraction as its exact text
    (``money_text``)."""
    return int(value) if isinstance(value, int) and not isinstance(value, bool) else money_text(value)
