"""What the commands print: strict JSON, sheets of text, one-line messages, progress bars and
plots (matplotlib only when a plot is asked for)."""

from __future__ import annotations

import json
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from .._presentation import odds_text as odds_text  # (where the commands read it)
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


def plural(n: int, what: str) -> str:
    """``1 deck``, ``8 decks``, ``1,000 shoes``: a count and its noun, never ``deck(s)``."""
    return f"{n:,} {what}{'' if n == 1 else 's'}"


def terminal_width() -> int | None:
    """The width sheets and notes are fitted to where standard output is a terminal: its
    width (or ``COLUMNS``), at least 40; else None (what goes to a file or a pipe is never
    wrapped, so that it reads the same everywhere)."""
    isatty = getattr(sys.stdout, "isatty", None)
    if isatty is None or not isatty():
        return None
    import shutil  # (here: a command that writes to a file or a pipe starts without it)

    return max(40, shutil.get_terminal_size().columns)


def print_text(text: str) -> None:
    """A paragraph: wrapped to the terminal's width (one line where there is none)."""
    width = terminal_width()
    if width is None:
        print(text)
        return
    import textwrap  # (here, as shutil: only what goes to a terminal is wrapped)

    print(textwrap.fill(text, width, break_on_hyphens=False))


def _fit(widths: list[int], cells: Sequence[Sequence[str]], wrap: Sequence[int], width: int) -> list[int]:
    """Column widths that fit ``width``: the columns ``wrap`` narrowed, widest first, down
    to their longest word; the others (figures) never. As narrow as they can be if even
    that is too wide."""
    fitted = list(widths)
    floor = {i: max((len(word) for row in cells for word in row[i].split()), default=1) for i in wrap}
    excess = sum(fitted) + 2 * (len(fitted) - 1) - width
    while excess > 0:
        candidates = [i for i in wrap if fitted[i] > floor[i]]
        if not candidates:
            break
        widest = max(candidates, key=lambda i: fitted[i])
        fitted[widest] -= 1
        excess -= 1
    return fitted


def print_sheet(header: Sequence[str], rows: Sequence[Sequence[str]], right: Sequence[int] = (),
                wrap: Sequence[int] = ()) -> None:
    """Columns two spaces apart, left-aligned but for the columns ``right``; no trailing
    blanks. On a terminal the sheet fits its width: the text columns ``wrap`` are wrapped
    (a cell over several lines), never a figure."""
    cells = [header, *rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    width = terminal_width()
    if width is not None and wrap:
        widths = _fit(widths, cells, wrap, width)
        import textwrap  # (only a sheet fitted to a terminal wraps a cell)
    for row in cells:
        parts = [textwrap.wrap(c, w, break_on_hyphens=False) or [""] if i in wrap and len(c) > w else [c]
                 for i, (c, w) in enumerate(zip(row, widths, strict=True))]
        for k in range(max(len(p) for p in parts)):
            line = [p[k] if k < len(p) else "" for p in parts]
            print("  ".join(c.rjust(w) if i in right else c.ljust(w)
                            for i, (c, w) in enumerate(zip(line, widths, strict=True))).rstrip())


def _numbered(names: Sequence[str]) -> str:
    """Bet names of one kind as one: ``win:1..5``, ``win:1,3``, ``pair_plus:banker,1..3``."""
    kind = names[0].partition(":")[0]
    words = [n.partition(":")[2] for n in names if not n.partition(":")[2].isdigit()]
    numbers = sorted(int(n.partition(":")[2]) for n in names if n.partition(":")[2].isdigit())
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    words += [str(r[0]) if len(r) == 1 else f"{r[0]},{r[1]}" if len(r) == 2 else f"{r[0]}..{r[-1]}" for r in runs]
    return f"{kind}:{','.join(words)}"


def same_figures(names: Sequence[str], figures: Sequence[object]) -> list[tuple[str, list[int]]]:
    """Bets whose figures are identical (every position's Win, say), named once: a list
    of (the name shown, the indices of the bets it stands for), in the order the bets
    come. Only bets of one kind that differ by what follows the colon are merged;
    ``figures`` are compared exactly (each bet's, as values, not as text)."""
    groups: dict[tuple[str, object], list[int]] = {}
    for i, (name, fig) in enumerate(zip(names, figures, strict=True)):
        kind, colon, _ = name.partition(":")
        key = (kind, fig) if colon else (name, i)
        groups.setdefault(key, []).append(i)
    return [(names[g[0]] if len(g) == 1 else _numbered([names[i] for i in g]), g)
            for g in sorted(groups.values(), key=lambda g: g[0])]


def same_figures_note(names: Sequence[str], shown: Sequence[tuple[str, list[int]]]) -> None:
    """Say what a merged name (``same_figures``) stands for, where any was merged."""
    merged = next(((name, group) for name, group in shown if len(group) > 1), None)
    if merged is not None:
        name, group = merged
        members = [names[i] for i in group]
        listed = ", ".join(members) if len(members) <= 3 else f"{members[0]}, {members[1]}, ..., {members[-1]}"
        print_text(f"One line for the bets of a kind with the same figures: {name} is each of {listed}.")


def table_text(rules: RuleSet) -> str:
    """The hands a table deals, for the header of ``deal`` and ``bets``."""
    return rules.table_variant.hands_text(rules.positions)


class Bar:
    """A progress bar on standard error (tqdm's), shown only where standard error is a
    terminal (and ``show``: not with ``--json``), fed with the running total a long run
    reports (``update(done, total)``: the total may be known only then, as ``design``'s is)."""

    def __init__(self, total: int | None = None, unit: str = " rounds", show: bool = True) -> None:
        from ._progress import tqdm  # (tqdm itself only where a bar is shown)

        # disable=None: tqdm's own test, no bar where standard error is no terminal
        self._bar = tqdm(total=total, unit=unit, unit_scale=True, file=sys.stderr, disable=None if show else True,
                         leave=False)
        self._last = 0

    def update(self, done: int, total: int) -> None:
        if self._bar.total != total:
            self._bar.total = total
        self._bar.update(done - self._last)
        self._last = done

    def close(self) -> None:
        self._bar.close()

    def __enter__(self) -> Bar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


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


def draw(path: str, plotter: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
    """``--plot FILE``: the figure ``plotter`` of ``sanggong.plot`` draws from ``args``,
    written to ``path``; where the result holds nothing to draw, a note says so plainly and
    no file is written."""
    plt = _pyplot()  # (the Agg backend: a figure is written, never shown)
    from ..plot import save

    with warnings.catch_warnings():  # matplotlib's (an empty legend, a layout it cannot make tight)
        warnings.simplefilter("ignore")
        try:
            ax = plotter(*args, **kwargs)
        except ValueError as exc:  # sanggong.plot's one refusal: nothing to plot
            plt.close("all")
            print(one_line(f"note: --plot {path} not written: {exc}"), file=sys.stderr)
            return
        save(ax, path)


def nothing_to_plot(path: str, why: str) -> None:
    """Say plainly that there is nothing to draw (no file is written)."""
    print(one_line(f"note: --plot {path} not written: nothing to plot ({why})"), file=sys.stderr)
