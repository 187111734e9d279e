"""What the commands print: strict JSON, text tables, one-line messages, progress bars and
plots (matplotlib only when a plot is asked for)."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import warnings
from collections.abc import Iterator, Sequence
from decimal import Context, Decimal
from fractions import Fraction
from typing import Any

from ..rules import RuleSet


def json_text(data: object, **kwargs: Any) -> str:
    """Strict JSON: a NaN or an infinity is an error here, never an output."""
    return json.dumps(data, allow_nan=False, **kwargs)


def one_line(text: str) -> str:
    """A message as one printable line: runs of white space folded to one space, any
    other character that is not printable (a control character from a bad argument,
    which some terminals and ``str.splitlines`` take for a line break) escaped."""
    text = " ".join(text.split())
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


def print_table(header: Sequence[str], rows: Sequence[Sequence[str]], right: Sequence[int] = ()) -> None:
    """Columns two spaces apart, left-aligned but for the columns ``right``; no trailing blanks."""
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        print("  ".join(c.rjust(w) if i in right else c.ljust(w)
                        for i, (c, w) in enumerate(zip(row, widths, strict=True))).rstrip())


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


def table_text(rules: RuleSet) -> str:
    """The hands a table deals, for the header of ``deal`` and ``bets``."""
    if rules.variant == "dragon_phoenix":
        return "two hands (Dragon and Phoenix)"
    if rules.variant == "banker_game":
        return f"{rules.positions} player{'s' if rules.positions > 1 else ''} against the banker"
    return f"{rules.positions} position{'s' if rules.positions > 1 else ''}"


class Bar:
    """A progress bar on standard error (tqdm's; silent where standard error is not a
    terminal), fed with the running total a long run reports."""

    def __init__(self, total: int, unit: str = " rounds") -> None:
        from tqdm import tqdm

        self._bar = tqdm(total=total, unit=unit, unit_scale=True, file=sys.stderr, disable=None)
        self._last = 0

    def update(self, done: int, total: int) -> None:
        self._bar.update(done - self._last)
        self._last = done

    def close(self) -> None:
        self._bar.close()


# --- plots ----------------------------------------------------------------------------------


def plot_target(path: str) -> None:
    """``--plot FILE``, checked before any work: matplotlib is there, FILE's suffix is a
    format it writes, and FILE's folder exists."""
    plt = _pyplot()
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ValueError(f"--plot {path}: no such folder {folder}")
    if os.path.isdir(path):
        raise ValueError(f"--plot {path}: a folder, not a file")
    formats = plt.figure().canvas.get_supported_filetypes()
    plt.close("all")
    suffix = os.path.splitext(path)[1].lstrip(".").lower()
    if suffix not in formats:
        said = f"'.{suffix}' is not a format matplotlib writes" if suffix else "no suffix to name the format"
        raise ValueError(f"--plot {path}: {said} (use one of {', '.join(sorted(formats))})")


def _pyplot() -> Any:
    try:
        with warnings.catch_warnings():  # a dependency's warnings never reach the terminal
            warnings.simplefilter("ignore")
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
    except ImportError:
        raise ValueError("--plot needs matplotlib: pip install 'sanggong[plot]'") from None
    return plt


@contextlib.contextmanager
def figure(path: str, title: str) -> Iterator[Any]:
    """One figure's axes, saved to ``path`` when the block ends; matplotlib's warnings
    (an empty legend, a layout it cannot make tight) are kept off the terminal."""
    plt = _pyplot()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fig, ax = plt.subplots(figsize=(8, 4.5))
        try:
            yield ax
            ax.set_title(title)
            fig.tight_layout()
            fig.savefig(path)
        finally:
            plt.close(fig)


def nothing_to_plot(path: str, why: str) -> None:
    """Say plainly that there is nothing to draw (no file is written)."""
    print(one_line(f"note: --plot {path} not written: nothing to plot ({why})"), file=sys.stderr)
