"""Presentation: results shown to people, as HTML tables for notebooks, and handed to
pandas, as ``DataFrame`` rows.

Every result type of the package (``Analysis``, ``SimulationResult``, ``PlayResult``,
``Detection``, ...) presents itself through here: ``_repr_html_`` builds its table with
``html_table`` and formats its figures with ``percent`` and ``fixed``, and ``to_frame``
imports pandas with ``pandas()``, which names the extra to install where pandas is
missing. Nothing here needs pandas.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Iterable
from typing import Any

__all__ = ["FRAME_EXTRA", "fixed", "html_table", "money_column", "pandas", "percent"]

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


def html_table(kind: str, caption: str, header: Iterable[str], rows: Iterable[Iterable[str]]) -> str:
    """An HTML table of text, every piece escaped here: the first cell of each row heads
    the row, the others (numbers) are aligned right (``class="sanggong-<kind>"``)."""
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
