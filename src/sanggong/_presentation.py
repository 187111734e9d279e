"""Presentation: results shown to people, as HTML sheets for notebooks, and handed to
pandas, as ``DataFrame`` rows.

Odds are written one way everywhere, ``pay_text`` (``7.5:1``, never ``15/2:1``): the
commands' sheets (``analyze``, ``bets``, ``design``), the figures and the documentation.

Every result type of the package (``Analysis``, ``SimulationResult``, ``PlayResult``,
``Detection``, ...) presents itself through here: ``_repr_html_`` builds its sheet with
``html_sheet`` and formats its figures with ``percent`` and ``fixed``, and ``to_frame``
imports pandas with ``pandas()``, which names the extra to install where pandas is
missing; a result indexed by name (a ``Mapping``) refuses a name it does not hold with
``missing``. Nothing here needs pandas.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Iterable, Sequence
from decimal import Context, Decimal
from fractions import Fraction
from typing import Any

from ._text import did_you_mean, show

__all__ = ["FRAME_EXTRA", "fixed", "html_sheet", "missing", "money_column", "odds_text", "pandas", "pay_text",
           "percent"]

FRAME_EXTRA = "pip install 'sanggong[frame]'"
"""The install command that brings pandas, which ``to_frame()`` needs."""


def pandas() -> Any:
    """pandas, imported on first use: it is an optional dependency (the ``frame`` extra).

    :raises ImportError: pandas is not installed (the message names the extra).
    """
    try:
        return importlib.import_module("pandas")
    except ImportError as exc:
        raise ImportError(f"to_frame() needs pandas: {FRAME_EXTRA} ({exc})", name="pandas") from exc


def money_column(values: Iterable[Any]) -> Any:
    """Amounts as a NumPy column for a frame, exact: ``int64`` where every one is an int
    that fits it, else an object column of the amounts themselves (``int``, ``Decimal``,
    ``Fraction``): never floats, which pandas would otherwise make of big ints or a None.
    """
    import numpy as np

    items = list(values)
    if all(type(v) is int and -(2**63) <= v < 2**63 for v in items):
        return np.array(items, dtype=np.int64)
    column = np.empty(len(items), dtype=object)
    column[:] = items
    return column


def percent(value: float | None) -> str:
    """A fraction as a percentage to four places (``0.0123`` is ``1.2300%``); a dash for
    none (None, NaN)."""
    return "\u2014" if value is None or math.isnan(value) else f"{value:.4%}"


def fixed(value: float | None, places: int = 4) -> str:
    """A number to ``places`` decimal places; a dash for none (None, NaN)."""
    return "\u2014" if value is None or math.isnan(value) else f"{value:.{places}f}"


def odds_text(value: Fraction) -> str:
    """Odds or a rate as people read them: ``8``, ``0.94`` (a terminating decimal), else ``1/3``."""
    if value.denominator == 1:
        return str(value.numerator)
    rest = value.denominator
    for factor in (2, 5):
        while rest % factor == 0:
            rest //= factor
    if rest != 1:
        return f"{value.numerator}/{value.denominator}"
    exact = Context(prec=60).divide(Decimal(value.numerator), Decimal(value.denominator))
    return format(exact, "f")


def pay_text(odds: Fraction) -> str:
    """A pay as people write it, the one way the package writes one: ``8:1``, ``7.5:1``,
    ``0.94:1``, ``1/3:1`` (odds to 1, by ``odds_text``)."""
    return f"{odds_text(odds)}:1"


def html_sheet(kind: str, caption: str, header: Iterable[str], rows: Iterable[Iterable[str]]) -> str:
    """A sheet of text as an HTML ``<table>``, every piece escaped here: the first cell of
    each row heads the row, the others (numbers) are aligned right (``class="sanggong-<kind>"``)."""
    from html import escape  # (here: a command starts without it)

    out = [f'<table class="sanggong-{escape(kind)}">', f"<caption>{escape(caption)}</caption>", "<thead><tr>"]
    out += [f"<th>{escape(cell)}</th>" for cell in header]
    out.append("</tr></thead><tbody>")
    for row in rows:
        first, *rest = row
        out.append(f'<tr><th style="text-align: left">{escape(first)}</th>')
        out += [f'<td style="text-align: right">{escape(cell)}</td>' for cell in rest]
        out.append("</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


_SHOWN = 10  # names listed in a KeyError of a result, at most


def missing(what: str, key: object, where: str, names: str, known: Sequence[str], *, near: object = None) -> KeyError:
    """The error of a result indexed by a name it does not hold: the key (shortened, as
    ``show`` does), the closest name it holds (``did_you_mean``, to ``near`` if given, else
    to the key) and the first names it holds.

    >>> missing("bet", "win:9", "analysis", "its bets", ["win:1", "odd"])
    KeyError("no bet 'win:9' (did you mean 'win:1'?) in this analysis; its bets: 'win:1', 'odd'")
    """
    shown = (f"({', '.join(show(part) for part in key)})" if isinstance(key, tuple) and len(key) == 2
             else show(key))
    held = ", ".join(show(name) for name in known[:_SHOWN]) + (f", ... ({len(known)} in all)" if len(known) > _SHOWN else "")
    hint = did_you_mean(key if near is None else near, known)
    return KeyError(f"no {what} {shown}{hint} in this {where}; {names}: {held or 'none'}")
