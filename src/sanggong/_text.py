"""The texts of a bad value in a message: a short, safe rendering of any value
(``show``), the closest known name to a mistyped one (``did_you_mean``), and the check of
a value against a list of names that uses both (``check_choice``), and the warning of a
deprecated name (``renamed``). The one place each is
written: every module that names a bad value or suggests a name takes them from here (it
imports nothing of sanggong, so the lowest module may use it)."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from fractions import Fraction

__all__ = ["check_choice", "did_you_mean", "renamed", "show"]


def did_you_mean(name: object, known: Iterable[str]) -> str:
    """`` (did you mean 'win:1'?)``: the known name closest to a mistyped ``name``, or
    nothing where none is close (or ``name`` is no short string)."""
    if not isinstance(name, str) or not name or len(name) > 40:
        return ""
    import difflib  # (only where a name is wrong: not at every import of sanggong)

    known = list(known)
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6) or difflib.get_close_matches(
        name.lower(), known, n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close and close[0] != name else ""


def show(value: object) -> str:
    """A short text for a bad value in a message: never a huge int's digits (Python
    refuses to print them) nor a whole container."""
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        return repr(value) if value.bit_length() <= 64 else f"an int of {value.bit_length()} bits"
    if isinstance(value, Fraction):
        bits = max(value.numerator.bit_length(), value.denominator.bit_length())
        return repr(value) if bits <= 64 else f"a Fraction of {bits} bits"
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else repr(value[:40]) + f"... ({len(value)} characters)"
    if isinstance(value, Decimal):
        digits = len(value.as_tuple().digits)
        return repr(value) if digits <= 40 else f"a Decimal of {digits} digits"
    return f"a {type(value).__name__}"


def check_choice(value: object, name: str, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name}: expected one of {allowed}, got {show(value)}")
    if value not in allowed:
        raise ValueError(f"{name}: expected one of {allowed}, got {show(value)}{did_you_mean(value, allowed)}")
    return value


def renamed(old: str, new: str) -> None:
    """Warn that the public name ``old`` (dotted, from ``sanggong``) is a deprecated alias
    of ``new``, pointing at the caller of the alias: called from a property, a method or a
    module's ``__getattr__`` that stands for the old name."""
    import warnings

    warnings.warn(f"{old} is deprecated: use {new}", DeprecationWarning, stacklevel=3)
