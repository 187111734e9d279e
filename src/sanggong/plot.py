"""Figures of sanggong's results, drawn with matplotlib (the ``plot`` extra), in one place:
the command line's ``--plot``, the documentation's figures and your own notebooks draw
them here.

Each function takes a result and an optional matplotlib ``Axes`` to draw on (a new figure
when None) and returns the ``Axes``; ``save(ax, path)`` writes its figure. Nothing is drawn
from data a result does not hold, and a result with nothing to draw raises ``ValueError``
saying so (so that no empty figure is ever written).

>>> from sanggong import ONLINE
>>> from sanggong.simulation import simulate
>>> result = simulate(ONLINE, 200_000, seed=1, chunk_size=20_000, workers=1)
>>> ax = convergence(result)
>>> ax.get_xlabel(), len(ax.lines)
('rounds', 2)
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

__all__ = ["bankroll", "convergence", "effects_of_removal", "ev_by_count", "pay_options", "save", "stakes_against_ev"]


def pyplot() -> Any:
    """matplotlib.pyplot, or an ImportError naming the extra that brings it (``plot``): how
    every figure of the package (this module's, ``shuffle_test``'s) draws."""
    try:
        with warnings.catch_warnings():  # a dependency's import warnings are not the caller's
            warnings.simplefilter("ignore")
            import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError("sanggong.plot needs matplotlib: pip install 'sanggong[plot]'") from None
    return plt


def _axes(ax: Any, size: tuple[float, float] = (8, 4.5)) -> Any:
    if ax is not None:
        return ax
    _, ax = pyplot().subplots(figsize=size)
    return ax


def save(ax: Any, path: str | os.PathLike[str]) -> None:
    """Write the figure of ``ax`` to ``path`` (its format by the file's suffix) and close it,
    with matplotlib's own warnings (a legend with nothing to show, a layout it cannot make
    tight) kept off the terminal."""
    plt = pyplot()
    fig = ax.figure
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fig.tight_layout()
            fig.savefig(path)
    finally:
        plt.close(fig)


def convergence(result: Any, ax: Any = None) -> Any:
    """A ``SimulationResult``'s return of its first bet as rounds accumulate (chunk by chunk),
    against the exact value."""
    points = result.convergence
    if not points:
        raise ValueError("nothing to plot: no round was played")
    bet = next(iter(result.bets.values()))
    ax = _axes(ax)
    ax.plot([p[0] for p in points], [p[1] for p in points], marker="." if len(points) < 20 else None,
            label=f"simulated return of {bet.bet}")
    if bet.exact is not None:
        ax.axhline(bet.exact, color="black", linestyle="--", linewidth=1, label="exact")
    ax.set_xscale("log")
    ax.set_xlabel("rounds")
    ax.set_ylabel("return to player")
    ax.set_title(f"{result.rules}: the return as rounds accumulate")
    ax.legend()
    return ax


def bankroll(result: Any, ax: Any = None, paths: Sequence[Sequence[float]] | None = None) -> Any:
    """A ``SessionResult``'s final bankrolls (a histogram) with its risk of ruin; with
    ``paths`` (bankrolls round by round of some sessions, of your own) those instead."""
    ax = _axes(ax)
    if paths is not None:
        if not paths:
            raise ValueError("nothing to plot: no path given")
        for path in paths:
            ax.plot(range(len(path)), path, linewidth=0.8, alpha=0.7)
        ax.axhline(result.bankroll, color="black", linestyle="--", linewidth=1, label="starting bankroll")
        ax.set_xlabel("round")
        ax.set_ylabel("bankroll (minor units)")
    else:
        if not result.sessions:
            raise ValueError("nothing to plot: no session finished")
        ax.hist(result.finals, bins=60)
        ax.axvline(result.bankroll, color="black", linestyle="--", linewidth=1, label="starting bankroll")
        ax.set_xlabel("final bankroll (minor units)")
        ax.set_ylabel("sessions")
    ax.set_title(f"{result.rules}: {result.rounds:,} rounds a session, risk of ruin {result.risk_of_ruin:.1%}")
    ax.legend()
    return ax


def _styles(n: int) -> list[dict[str, Any]]:
    """``n`` line styles no two alike: ten colours, and past ten a dash pattern and a
    marker of their own (matplotlib's cycle repeats its colours after ten)."""
    colours = [f"C{i}" for i in range(10)]
    dashes = ["-", "--", ":", "-."]
    markers = [".", "s", "^", "D", "v", "x", "o"]
    return [{"color": colours[i % 10], "linestyle": dashes[(i // 10) % len(dashes)],
             "marker": markers[(i // 10) % len(markers)], "markersize": 4} for i in range(n)]


def ev_by_count(result: Any, ax: Any = None, bets: Iterable[str] | Mapping[str, str] | None = None,
                least: int = 100) -> Any:
    """A ``PlayResult``'s EV (or result) per unit by true count, for each bet counted (or
    ``bets``: names, or a mapping of name to the label it is drawn with), over the true
    counts reached in at least ``least`` rounds. Every line has a style of its own (a
    colour, and past ten a dash pattern and a marker); past eight lines, the legend beside
    the axes."""
    labels = None if bets is None else dict(bets) if isinstance(bets, Mapping) else {b: b for b in bets}
    lines = []
    chosen = result.bets.values() if labels is None else [result.bets[b] for b in labels if b in result.bets]
    for b in chosen:  # (in the order of ``bets`` where given)
        if b.count is None:
            continue
        xs, ys = [], []
        for row in b.count.bins:
            value = row.ev if row.ev is not None else row.result
            if value is None or row.rounds < least:
                continue
            low = row.low if row.low is not None else row.high - 0.5
            high = row.high if row.high is not None else row.low + 0.5
            xs.append((low + high) / 2)
            ys.append(100 * value)
        if xs:
            lines.append((b.bet if labels is None else labels[b.bet], xs, ys))
    if not lines:
        raise ValueError(f"nothing to plot: no true count was reached in {least} rounds or more by any bet "
                         "(play more shoes)")
    ax = _axes(ax)
    for (bet, xs, ys), style in zip(lines, _styles(len(lines)), strict=True):
        ax.plot(xs, ys, label=bet, linewidth=1.2, **style)
    ax.axhline(0, color="black", linewidth=1)
    ax.set_xlabel("true count (its bet's tags)")
    ax.set_ylabel("EV per unit (%)")
    ax.set_title(f"{result.rules}: EV by true count")
    ax.grid(alpha=0.3)
    if len(lines) <= 8:
        ax.legend(fontsize="small")
    else:  # beside the axes, where it hides no line (``save`` fits the figure around it)
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0,
                  ncol=1 if len(lines) <= 14 else 2)
    return ax


def effects_of_removal(removal: Mapping[str, Any], ax: Any = None, bets: Iterable[str] | None = None) -> Any:
    """``effect_of_removal``'s result: for each bet (or ``bets``), how its return moves
    when one card of each rank leaves a full shoe (in percent of a unit), bars side by side
    rank by rank, each bet's count tags in its legend entry."""
    names = list(removal) if bets is None else [b for b in bets if b in removal]
    if not names:
        raise ValueError("nothing to plot: no bet given has effects of removal")
    ranks = list(removal[names[0]].eor)
    width = 0.8 / len(names)
    ax = _axes(ax)
    for k, (name, style) in enumerate(zip(names, _styles(len(names)), strict=True)):
        r = removal[name]
        tags = " ".join(f"{t:+d}" if t else "0" for t in r.tags.values())
        ax.bar([i + (k - (len(names) - 1) / 2) * width for i in range(len(ranks))],
               [100 * r.eor[rank] for rank in ranks], width=width, color=style["color"],
               label=f"{name} (tags {tags})")
    ax.axhline(0, color="black", linewidth=1)
    ax.set_xticks(range(len(ranks)), ranks)
    ax.set_xlabel("rank removed")
    ax.set_ylabel("change in return (% of a unit)")
    ax.set_title("effect of removal: one card of a rank out of a full shoe")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize="small")
    return ax


def pay_options(options: Sequence[Any], ax: Any = None, edge: tuple[float, float] | None = None,
                key: str | None = None, line: Sequence[tuple[Any, Any]] | None = None) -> Any:
    """``design``'s pay options against their pay (``key``: the pays key to read, by
    default the first): the exact house edge of every pay tried (``line``, from
    ``sanggong.shoe.edge_by_pay``: a line over them all, the target ``edge`` range shaded,
    and the pays inside it), the options found marked on it, and, on the right-hand axis,
    what perfect play gains on each per 100 rounds where it was measured. Pays are written
    ``7.5:1``. Whole tables (Pair Plus, without ``key``) are drawn one after another, in
    the order listed.

    >>> from fractions import Fraction
    >>> from sanggong import MACAU, design
    >>> from sanggong.shoe import edge_by_pay
    >>> options = design(MACAU, "point:0", (0.02, 0.06), shoes=20, pays=(6, 10))
    >>> [str(o.pays["point"]) for o in options]
    ['15/2']
    >>> ax = pay_options(options, edge=(0.02, 0.06), line=edge_by_pay(MACAU, "point:0", pays=(6, 10)))
    >>> len(ax.lines[0].get_xdata())                          # the line over the 9 pays tried
    9
    """
    from matplotlib.ticker import FuncFormatter

    if not options and not line:
        raise ValueError("nothing to plot: no pay lies in the range")
    tables = line is None and key is None and any(len(o.pays) > 1 for o in options)
    name = key if key is not None else next(iter(options[0].pays)) if options else "pay"
    if tables:  # whole tables (Pair Plus): one after another as design lists them, numbered
        pays = [float(k) for k in range(1, len(options) + 1)]
    else:
        options = sorted(options, key=lambda o: o.pays[name])
        pays = [float(o.pays[name]) for o in options]
    ax = _axes(ax)
    if line:
        xs, ys = [float(p) for p, _ in line], [100 * float(e) for _, e in line]
        ax.plot(xs, ys, color="C0", linewidth=1.5, marker="." if len(xs) <= 60 else None,
                label="house edge (fresh shoe), every pay tried")
        if edge is not None:
            inside = [x for x, y in zip(xs, ys, strict=True) if 100 * edge[0] <= y <= 100 * edge[1]]
            if inside:
                half = (xs[1] - xs[0]) / 2 if len(xs) > 1 else 0.25
                ax.axvspan(min(inside) - half, max(inside) + half, color="green", alpha=0.08)
    if options:
        ax.plot(pays, [100 * float(o.house_edge) for o in options], linestyle="none", marker="o", markersize=8,
                markerfacecolor="none", markeredgewidth=1.8, color="C1",
                label="house edge (fresh shoe), the pays listed" if line else "house edge (fresh shoe)")
    if edge is not None:
        ax.axhspan(100 * edge[0], 100 * edge[1], color="green", alpha=0.15, label="target edge")
    ax.axhline(0, color="black", linewidth=1)
    if tables:
        ax.set_xticks(pays)
        ax.set_xlabel("pay table, as listed (nearest the middle of the range first)")
    else:
        ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:g}:1"))
        ax.set_xlabel(f"pay ({name.replace('_', ' ')})")
    ax.set_ylabel("house edge (%)")
    ax.grid(alpha=0.3)
    handles, labels = ax.get_legend_handles_labels()
    gains = [(p, o.perfect_gain_per_100) for p, o in zip(pays, options, strict=True) if o.perfect_gain_per_100 is not None]
    if gains:
        right = ax.twinx()
        right.plot([p for p, _ in gains], [g for _, g in gains], linestyle="none", marker="s", color="C3",
                   label="perfect play's gain (right)")
        right.set_ylabel("perfect play's gain, units per 100 rounds", color="C3")
        right.tick_params(axis="y", colors="C3")
        top = max(max(g for _, g in gains) * 1.25, 0.01)
        right.set_ylim(bottom=-0.03 * top, top=top)
        more_handles, more_labels = right.get_legend_handles_labels()
        handles, labels = handles + more_handles, labels + more_labels
    ax.legend(handles, labels, fontsize="small", loc="best")
    return ax


def stakes_against_ev(detection: Any, players: Iterable[str] | None = None, ax: Any = None) -> Any:
    """A ``Detection``'s stakes of each flagged player (or ``players``) against the exact EV
    of the bet at the moment it was placed."""
    chosen = [p.id for p in detection.players if p.flagged] if players is None else list(players)
    points = {p: detection.points.get(p, ()) for p in chosen}
    if not any(points.values()):
        raise ValueError("nothing to plot: no player is flagged" if players is None else
                         "nothing to plot: the players given placed no stake")
    ax = _axes(ax)
    for player, pts in points.items():
        ax.scatter([100 * e for e, _ in pts], [s for _, s in pts], s=6, alpha=0.5, label=player)
    ax.axvline(0, color="black", linewidth=1)
    ax.set_xlabel("exact EV of the bet when the stake was placed (%)")
    ax.set_ylabel("stake (minor units)")
    ax.set_title(f"{detection.rules}: stakes against the shoe")
    ax.legend(fontsize="small")
    return ax
