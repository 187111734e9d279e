"""Argument checks that every entry point shares and that no domain module owns: counts
(rounds, shoes, sessions, chunk sizes) and flags.

The other kinds of argument have their one check in the module of their concept: a rule
set or a preset's name, ``rules.as_rules``; a seed, ``seeds.check_seed``; a stake,
``money.to_money``; ``workers``, ``executor`` and ``progress``, ``_parallel``. Each
raises ``TypeError`` or ``ValueError`` naming the argument, before any work.
"""

from __future__ import annotations

__all__ = ["count", "flag"]


def count(name: str, value: object, high: int, *, low: int = 1) -> int:
    """An int in ``low..high`` (a bool is not a count), or an error naming it (and never
    printing a huge one's digits)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {value!r}"[:200])
    if not low <= value <= high:
        shown = f"{value:,}" if abs(value) < 10**30 else f"a {value.bit_length()}-bit number"
        raise ValueError(f"{name} must be in {low}..{high:,}, got {shown}")
    return value


def flag(name: str, value: object) -> bool:
    """True or False (not 1, not "yes"), or a TypeError naming it."""
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, not {value!r}"[:200])
    return value
