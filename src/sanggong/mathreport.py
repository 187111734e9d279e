"""The game's math report, as a regulator or a testing laboratory asks for it: for any rule
set and the deck counts asked, each bet's outcome table (event, pays, combinations,
probability, return) as exact fractions and fixed decimals, its hit frequency, house edge,
element of risk, standard deviation, volatility index, the hold's confidence interval after
N rounds and the theoretical win per hour; the rules in words, from the rule set itself;
the method; the package version and the rules' digest. As JSON, Markdown or one
self-contained HTML page (its figures inline), byte for byte the same on every run.

Every figure is computed from :func:`sanggong.analyze`'s exact counts, as a ``Fraction``
where it is rational, else (a square root) a ``Decimal`` to 40 significant digits; no
float touches a figure. Decimals are printed to a stated number of places, rounded half to
even.

>>> from sanggong import MACAU
>>> book = report(MACAU, decks=(1, 8))
>>> [sheet.decks for sheet in book.sheets]
[1, 8]
>>> win = book.sheets[0].bets[0]
>>> win.bets[:2], win.house_edge, percent_text(win.house_edge)
(('win:1', 'win:2'), Fraction(306091, 12724075), '2.4056%')
>>> book.json() == report(MACAU, decks=(1, 8)).json()
True
"""

from __future__ import annotations

import base64
import io
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Context, Decimal
from fractions import Fraction
from html import escape
from typing import Any

from ._presentation import odds_text, pay_text
from ._text import renamed
from .analysis import BetAnalysis, analyze
from .limits import MAX_DECKS
from .money import check_stake
from .rules import RuleSet, as_rules

__all__ = ["CONFIDENCE", "MathReport", "ReportBet", "ReportLine", "ReportSheet", "percent_text", "report"]

SCHEMA = "sanggong.report/1"
"""The JSON document's ``schema``: changed whenever a field is renamed or removed."""

CONFIDENCE: dict[str, Decimal] = {"90%": Decimal("1.645"), "95%": Decimal("1.960"), "99%": Decimal("2.576")}
"""Each confidence level of the report and its two-sided normal quantile z, as printed."""

ROUNDS = (1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000)
"""The numbers of rounds of the hold's confidence intervals."""

PLACES = 8
"""Decimal places of a probability, a return, a standard deviation."""

PERCENT_PLACES = 4
"""Decimal places of a percentage."""

_CONTEXT = Context(prec=60)  # a local context: the caller's decimal context changes nothing
_SD_DIGITS = 40

METHOD = (
    "Exact enumeration. Every figure comes from sanggong.analyze: for a bet on a position, the count of every "
    "ordered pair of disjoint hands (the position's three cards and the banker's) the shoe can deal; for a bet on "
    "one hand, the count of every 3-card hand. The counts are made combinatorially, over multisets of ranks weighted "
    "by the ways to choose their suits, not by walking every deal; sanggong's test suite checks them against an "
    "independent card-by-card enumeration of the 407,170,400 one-deck deals (C(52,3) x C(49,3)), against an "
    "ordered-draw count for other shoes, against the compiled core's twin in pure Python, and against the published "
    "figures of the family (docs/report.md). Probabilities, returns, the house edge, the element of risk and the "
    "variance are exact fractions; the standard deviation is the variance's square root to 40 significant digits."
)

DEFINITIONS = {
    "pays": "what one unit staked wins on the event, net of any commission (0.95:1 is 1:1 less 5%), or loses "
            "(-1; in a banker game -m, m the winner's multiplier); 0: the stake is pushed or carried",
    "return": "per unit staked: the pays (odds to 1, less any commission) times the probability; a loss is -1 "
              "(in a banker game -m, the winner's multiplier m, per unit of base stake); a pushed or carried "
              "stake returns 0 that round",
    "house_edge": "minus the expected return per unit staked per round, a pushed or carried stake counting as a round "
                  "bet",
    "hit_frequency": "the probability that the bet wins; one in N is its reciprocal",
    "element_of_risk": "the expected loss per unit of money at risk: a pushed or carried stake is not at risk that "
                       "round, so it is the house edge divided by the probability that the bet is resolved "
                       "(BetAnalysis.house_edge_resolved: a carried stake plays on until it is resolved)",
    "sd": "the standard deviation of one round's return per unit staked (the variance's square root)",
    "volatility_index": "z x SD, with z the two-sided normal quantile of the confidence: 1.645 (90%), 1.960 (95%), "
                        "2.576 (99%)",
    "hold_interval": "after N rounds the hold (the house's win per unit staked) lies, to that confidence, within "
                     "house edge +/- z x SD / sqrt(N) (the normal approximation: independent rounds of equal stakes)",
    "win_per_hour": "rounds per hour x average stake x house edge: the house's theoretical win per hour at one "
                    "betting spot, in the stake's units",
}


# --- exact numbers as text ---------------------------------------------------------------------


def _decimal(value: Fraction | Decimal) -> Decimal:
    if isinstance(value, Decimal):
        return value
    return _CONTEXT.divide(Decimal(value.numerator), Decimal(value.denominator))


def fixed_text(value: Fraction | Decimal, places: int = PLACES) -> str:
    """An exact value to ``places`` decimal places, rounded half to even (never ``-0``).

    >>> fixed_text(Fraction(2, 3)), fixed_text(Fraction(-1, 3 * 10**9)), fixed_text(Fraction(5, 2), 0)
    ('0.66666667', '0.00000000', '2')
    """
    rounded = _CONTEXT.quantize(_decimal(value), Decimal(1).scaleb(-places))
    if rounded.is_zero():
        rounded = abs(rounded)
    return format(rounded, "f")


def percent_text(value: Fraction | Decimal, places: int = PERCENT_PLACES) -> str:
    """An exact fraction as a percentage to ``places`` places: ``2.4056%``."""
    return fixed_text(_CONTEXT.multiply(value, 100) if isinstance(value, Decimal) else value * 100, places) + "%"


def fraction_text(value: Fraction) -> str:
    """``n/d`` (or ``n``): an exact fraction as the JSON holds it."""
    return str(value)


def _sqrt(value: Fraction) -> Decimal:
    context = Context(prec=_SD_DIGITS, rounding=ROUND_HALF_EVEN)
    return context.sqrt(context.divide(Decimal(value.numerator), Decimal(value.denominator)))


# --- the report's figures ----------------------------------------------------------------------


@dataclass(frozen=True)
class ReportLine:
    """One outcome of a bet: its event, pays, count, probability and return (exact)."""

    event: str
    pays: str
    net: Fraction
    combinations: int
    probability: Fraction
    ret: Fraction


@dataclass(frozen=True)
class ReportBet:
    """The figures of one bet (or of several bets whose figures are all equal, ``bets``) for
    one shoe. Exact values are ``Fraction``; the standard deviation and what follows from
    it are ``Decimal`` (40 significant digits)."""

    bets: tuple[str, ...]
    total: int
    lines: tuple[ReportLine, ...]
    house_edge: Fraction
    hit_frequency: Fraction
    element_of_risk: Fraction | None  # None: the bet is never resolved
    variance: Fraction
    sd: Decimal

    @property
    def one_in(self) -> Fraction | None:
        """The bet wins once in this many rounds (None: it never wins)."""
        return 1 / self.hit_frequency if self.hit_frequency else None

    def volatility(self, confidence: str) -> Decimal:
        """The volatility index at ``confidence`` (a key of ``CONFIDENCE``): z x SD."""
        return _CONTEXT.multiply(CONFIDENCE[confidence], self.sd)

    def hold(self, rounds: int, confidence: str) -> tuple[Decimal, Decimal]:
        """The hold's confidence interval after ``rounds`` rounds: edge -/+ z x SD / sqrt(N)."""
        half = _CONTEXT.divide(self.volatility(confidence), _CONTEXT.sqrt(Decimal(rounds)))
        edge = _decimal(self.house_edge)
        return _CONTEXT.subtract(edge, half), _CONTEXT.add(edge, half)


@dataclass(frozen=True)
class ReportSheet:
    """Every bet of the rule set for one deck count: the report's sheet of that count (a
    laboratory's par sheet; the JSON document's ``tables`` hold one each). Its name was
    ``ReportTable`` (a deprecated alias)."""

    decks: int
    cards: int
    digest: str
    bets: tuple[ReportBet, ...]


def _event(outcome: str, detail: str | None) -> str:
    return outcome + (f" ({detail})" if detail else "")


def _bet_figures(names: tuple[str, ...], bet: BetAnalysis) -> ReportBet:
    lines = []
    for line in bet.outcomes:
        probability = Fraction(line.combinations, bet.total)
        # what one unit staked wins, less any commission (0.95:1), or loses (-1; in a banker
        # game -m, the winner's multiplier), as the published return tables print it
        pays = pay_text(line.net) if line.net > 0 else odds_text(line.net)
        lines.append(ReportLine(_event(line.outcome, line.detail), pays, line.net, line.combinations, probability,
                                line.net * probability))
    hit = sum((ln.probability for ln, o in zip(lines, bet.outcomes, strict=True) if o.outcome == "win"), Fraction(0))
    resolved = sum((ln.probability for ln, o in zip(lines, bet.outcomes, strict=True)
                    if o.outcome in ("win", "lose")), Fraction(0))
    edge = -bet.ev_exact
    return ReportBet(names, bet.total, tuple(lines), edge, hit, edge / resolved if resolved else None,
                     bet.variance_exact, _sqrt(bet.variance_exact))


def _figures(bet: BetAnalysis) -> tuple[Any, ...]:
    return tuple((o.outcome, o.detail, o.combinations, o.pays, o.net) for o in bet.outcomes)


@dataclass(frozen=True)
class MathReport:
    """The math report of one rule set: ``sheets``, one per deck count, each bet's figures;
    ``pace`` (rounds an hour) and ``stake`` (the average stake) for the win per hour.
    ``json()``, ``markdown()`` and ``html()`` write it; each is the same bytes on every run."""

    rules: RuleSet
    sheets: tuple[ReportSheet, ...]
    pace: int
    stake: Fraction
    version: str

    @property
    def tables(self) -> tuple[ReportSheet, ...]:
        """Deprecated: ``sheets`` (the JSON document's key keeps the name ``tables``)."""
        renamed("sanggong.mathreport.MathReport.tables", "sanggong.mathreport.MathReport.sheets")
        return self.sheets

    # --- the rules in words ------------------------------------------------------------------

    def rules_text(self) -> list[str]:
        """The rules in words, read from the rule set's own fields: one sentence each."""
        r = self.rules
        ranking = r.ranking
        out = [
            f"Rule set {r.name!r} (variant {r.variant}): {r.positions} position{'s' if r.positions != 1 else ''}, "
            f"{r.decks} deck{'s' if r.decks != 1 else ''} as the rule set has it (this report: "
            f"{', '.join(str(t.decks) for t in self.sheets)}).",
            f"Ranking: order {ranking.order}, tiers above the points {', '.join(ranking.tiers) or 'none'}, "
            f"high-card tie-break {ranking.high_card}.",
        ]
        if r.commission:
            out.append(f"Commission: {fixed_text(100 * r.commission, 2).rstrip('0').rstrip('.')}% of the winnings of "
                       f"{', '.join(sorted(r.commission_bets))}.")
        out.append(f"A pushed stake is {r.push}; a Tie bet compares the hands by {r.tie_by}.")
        if r.pair_plus_pays:
            out.append("Pair Plus pays: " + ", ".join(f"{k.replace('_', ' ')} {pay_text(v)}"
                                                     for k, v in r.pair_plus_pays.items()) + ".")
        if r.multipliers:
            out.append("Multipliers (the loser pays the stake times the winner's): " + ", ".join(
                f"{k} x{v}" for k, v in r.multipliers.items()) + ".")
        for bet in self.sheets[0].bets:
            odds = r.bet_odds(bet.bets[0])
            pays = f"; pays {pay_text(odds)}" if odds is not None else "; pays by the hand (the outcome table)"
            out.append(f"{_names(bet.bets)}: wins when {r.bets[bet.bets[0]]}{pays}.")
        return out

    # --- JSON ------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON types (the schema is ``docs/report.md``'s): exact values as
        ``"n/d"`` strings, decimals as strings to the stated places."""
        return {
            "schema": SCHEMA,
            "sanggong": self.version,
            "rules": {"name": self.rules.name, "digest": self.rules.digest(), "rule_set": self.rules.to_dict(),
                      "text": self.rules_text()},
            "method": METHOD,
            "definitions": DEFINITIONS,
            "places": {"decimal": PLACES, "percent": PERCENT_PLACES},
            "confidence": {k: str(z) for k, z in CONFIDENCE.items()},
            "pace": self.pace,
            "stake": fraction_text(self.stake),
            "tables": [{
                "decks": t.decks, "cards": t.cards, "digest": t.digest,
                "bets": [self._bet_dict(b) for b in t.bets],
            } for t in self.sheets],  # "tables": the published key (docs/report.md), kept
        }

    def _bet_dict(self, b: ReportBet) -> dict[str, Any]:
        return {
            "bets": list(b.bets),
            "combinations": b.total,
            "outcomes": [{"event": ln.event, "pays": ln.pays, "net": fraction_text(ln.net),
                          "combinations": ln.combinations, "probability": fraction_text(ln.probability),
                          "probability_decimal": fixed_text(ln.probability), "return": fraction_text(ln.ret),
                          "return_decimal": fixed_text(ln.ret)} for ln in b.lines],
            "house_edge": fraction_text(b.house_edge), "house_edge_percent": percent_text(b.house_edge),
            "hit_frequency": fraction_text(b.hit_frequency), "hit_frequency_percent": percent_text(b.hit_frequency),
            "one_in": None if b.one_in is None else fixed_text(b.one_in, 2),
            "element_of_risk": None if b.element_of_risk is None else fraction_text(b.element_of_risk),
            "element_of_risk_percent": None if b.element_of_risk is None else percent_text(b.element_of_risk),
            "variance": fraction_text(b.variance), "sd": fixed_text(b.sd),
            "volatility_index": {k: fixed_text(b.volatility(k)) for k in CONFIDENCE},
            "hold": [{"rounds": n, **{k: [percent_text(x) for x in b.hold(n, k)] for k in CONFIDENCE}}
                     for n in ROUNDS],
            "win_per_hour": fixed_text(self.pace * self.stake * b.house_edge, 2),
        }

    def json(self) -> str:
        """The report as JSON text (keys in a fixed order, two-space indents, a final newline)."""
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n"

    # --- Markdown ----------------------------------------------------------------------------

    def _sections(self) -> list[tuple[str, list[tuple[str, list[str], list[list[str]]]]]]:
        """Each deck count's sheets of text: (heading, [(caption, header, rows)])."""
        out = []
        for t in self.sheets:
            parts = []
            for b in t.bets:
                rows = [[ln.event, ln.pays, f"{ln.combinations:,}", fraction_text(ln.probability),
                         fixed_text(ln.probability), fixed_text(ln.ret)] for ln in b.lines]
                rows.append(["total", "", f"{b.total:,}", "1", fixed_text(Fraction(1)), fixed_text(-b.house_edge)])
                parts.append((f"{_names(b.bets)}: outcomes", ["event", "pays", "combinations", "probability",
                              "probability (decimal)", "return"], rows))
                one_in = "never wins" if b.one_in is None else fixed_text(b.one_in, 2)
                eor = "never resolved" if b.element_of_risk is None else percent_text(b.element_of_risk)
                figures = [
                    ["house edge", fraction_text(b.house_edge), percent_text(b.house_edge)],
                    ["hit frequency", fraction_text(b.hit_frequency), f"{percent_text(b.hit_frequency)}, one in {one_in}"],
                    ["element of risk", "" if b.element_of_risk is None else fraction_text(b.element_of_risk), eor],
                    ["variance", fraction_text(b.variance), fixed_text(b.variance)],
                    ["standard deviation", "", fixed_text(b.sd)],
                    *[[f"volatility index {k}", "", fixed_text(b.volatility(k))] for k in CONFIDENCE],
                    [f"win per hour ({self.pace} rounds x stake {odds_text(self.stake)})", "",
                     fixed_text(self.pace * self.stake * b.house_edge, 2)],
                ]
                parts.append((f"{_names(b.bets)}: figures", ["figure", "exact", "decimal"], figures))
                hold = [[f"{n:,}", *(f"{percent_text(lo)} to {percent_text(hi)}" for lo, hi in
                                     (b.hold(n, k) for k in CONFIDENCE))] for n in ROUNDS]
                parts.append((f"{_names(b.bets)}: the hold after N rounds",
                              ["rounds", *(f"{k} interval" for k in CONFIDENCE)], hold))
            out.append((f"{t.decks} deck{'s' if t.decks != 1 else ''} ({t.cards:,} cards), rules digest {t.digest}",
                        parts))
        return out

    def _summary(self) -> tuple[list[str], list[list[str]]]:
        header = ["bet", *(f"edge, {t.decks} deck{'s' if t.decks != 1 else ''}" for t in self.sheets)]
        rows = [[_names(b.bets), *(percent_text(t.bets[i].house_edge) for t in self.sheets)]
                for i, b in enumerate(self.sheets[0].bets)]
        return header, rows

    def _head(self) -> list[str]:
        return [f"sanggong {self.version}; rule set {self.rules.name!r}, digest {self.rules.digest()}",
                f"Decimals to {PLACES} places, percentages to {PERCENT_PLACES}, rounded half to even; win per hour at "
                f"{self.pace} rounds an hour and an average stake of {odds_text(self.stake)}."]

    def markdown(self) -> str:
        """The report as Markdown (no figures: its sheets say everything the figures show)."""
        out = [f"# Math report: {self.rules.name}", "", *(f"{line}  " for line in self._head()), "", "## The rules", ""]
        out += [f"- {line}" for line in self.rules_text()]
        out += ["", "## Method", "", METHOD, "", "## Definitions", ""]
        out += [f"- **{k.replace('_', ' ')}**: {v}" for k, v in DEFINITIONS.items()]
        header, rows = self._summary()
        out += ["", "## House edge by decks", "", *_md_sheet(header, rows)]
        for heading, parts in self._sections():
            out += ["", f"## {heading}"]
            for caption, head, body in parts:
                out += ["", f"### {caption}", "", *_md_sheet(head, body)]
        return "\n".join(out) + "\n"

    # --- HTML --------------------------------------------------------------------------------

    def html(self, *, figures: bool = True) -> str:
        """The report as one self-contained HTML page: no script, no external file, its
        figures (with ``figures`` and matplotlib installed, the ``plot`` extra) inline as
        SVG images. Without matplotlib the page says so where the figures would be."""
        drawn = _figures_of(self) if figures else None
        head = "".join(f"<p>{escape(line)}</p>" for line in self._head())
        out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
               f"<title>Math report: {escape(self.rules.name)}</title>", f"<style>{_CSS}</style></head><body>",
               f"<h1>Math report: {escape(self.rules.name)}</h1>", head, "<h2>The rules</h2><ul>"]
        out += [f"<li>{escape(line)}</li>" for line in self.rules_text()]
        out += ["</ul>", "<h2>Method</h2>", f"<p>{escape(METHOD)}</p>", "<h2>Definitions</h2><dl>"]
        out += [f"<dt>{escape(k.replace('_', ' '))}</dt><dd>{escape(v)}</dd>" for k, v in DEFINITIONS.items()]
        out.append("</dl><h2>House edge by decks</h2>")
        header, rows = self._summary()
        out.append(_html_sheet(header, rows))
        if drawn is None and figures:
            out.append("<p>(The figures need matplotlib: pip install 'sanggong[plot]'.)</p>")
        elif drawn is not None and drawn.get("edge"):
            out.append(_img(drawn["edge"], "house edge by decks"))
        for k, (heading, parts) in enumerate(self._sections()):
            out.append(f"<h2>{escape(heading)}</h2>")
            for j, (caption, columns, body) in enumerate(parts):
                if j % 3 == 0:
                    out.append(f"<h3>{escape(caption.rpartition(':')[0])}</h3>")
                out.append(_html_sheet(columns, body, caption))
                if j % 3 == 2 and drawn is not None and k == 0:
                    out.append(_img(drawn["bets"][j // 3], "the return's distribution and the hold's funnel"))
        out.append("</body></html>")
        return "\n".join(out) + "\n"

    def write(self, directory: str, format: str = "html") -> str:
        """Write ``report.<format>`` (``html``, ``md`` or ``json``) into ``directory`` (made
        if missing) and return its path."""
        import os

        texts = {"html": self.html, "md": self.markdown, "json": self.json}
        if format not in texts:
            raise ValueError(f"format must be one of {', '.join(texts)}, got {format!r}")
        os.makedirs(directory, exist_ok=True)
        path = os.path.join(directory, f"report.{format}")
        with open(path, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(texts[format]())
        return path


_RENAMED = {"ReportTable": "ReportSheet"}
"""Public names given a one-sense word (docs/architecture.md, "One word, one meaning"):
deprecated aliases."""


def __getattr__(name: str) -> object:
    """The deprecated aliases of ``_RENAMED``, with a ``DeprecationWarning``."""
    if name in _RENAMED:
        renamed(f"sanggong.mathreport.{name}", f"sanggong.mathreport.{_RENAMED[name]}")
        return globals()[_RENAMED[name]]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _names(bets: Sequence[str]) -> str:
    return bets[0] if len(bets) == 1 else f"{bets[0]} (and {', '.join(bets[1:])}: the same figures)"


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|")


def _md_sheet(header: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    out = ["| " + " | ".join(_md_cell(h) for h in header) + " |",
           "|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|"]
    out += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows]
    return out


_CSS = ("body{font-family:sans-serif;max-width:70em;margin:auto;padding:1em}"
        "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .5em}"
        "td{text-align:right;font-variant-numeric:tabular-nums}caption{text-align:left;font-weight:bold}"
        "img{max-width:100%}")


def _html_sheet(header: Sequence[str], rows: Iterable[Sequence[str]], caption: str = "") -> str:
    out = ["<table>", f"<caption>{escape(caption)}</caption>" if caption else "", "<thead><tr>"]
    out += [f"<th>{escape(h)}</th>" for h in header]
    out.append("</tr></thead><tbody>")
    for row in rows:
        first, *rest = row
        out.append(f'<tr><th style="text-align:left">{escape(first)}</th>'
                   + "".join(f"<td>{escape(c)}</td>" for c in rest) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _img(svg: bytes, alt: str) -> str:
    return f'<p><img alt="{escape(alt)}" src="data:image/svg+xml;base64,{base64.b64encode(svg).decode("ascii")}"></p>'


# --- figures -------------------------------------------------------------------------------------


def _svg(fig: Any) -> bytes:
    """A figure as SVG bytes that are the same on every run: no date, a fixed hash salt,
    text kept as text."""
    import matplotlib

    buffer = io.BytesIO()
    with matplotlib.rc_context({"svg.hashsalt": "sanggong", "svg.fonttype": "none"}):
        fig.tight_layout()
        fig.savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()


def _figures_of(book: MathReport) -> dict[str, Any] | None:
    """The report's figures as SVG: the edge by decks (with several deck counts), and for
    each bet of the first deck count its return's distribution beside the hold's funnel.
    None where matplotlib is not installed."""
    try:
        import matplotlib  # noqa: F401
        from matplotlib.figure import Figure
    except ImportError:
        return None
    out: dict[str, Any] = {"edge": None, "bets": []}
    if len(book.sheets) > 1:
        fig = Figure(figsize=(8, 4.5))
        ax = fig.add_subplot()
        decks = [t.decks for t in book.sheets]
        for i, b in enumerate(book.sheets[0].bets):
            ax.plot(decks, [float(100 * t.bets[i].house_edge) for t in book.sheets], marker="o", label=b.bets[0])
        ax.set_xlabel("decks")
        ax.set_ylabel("house edge (%)")
        ax.set_xticks(decks)
        ax.grid(alpha=0.3)
        if len(book.sheets[0].bets) <= 12:
            ax.legend(fontsize="small")
        else:
            ax.legend(fontsize="x-small", loc="upper left", bbox_to_anchor=(1.01, 1), ncol=2)
        out["edge"] = _svg(fig)
    for b in book.sheets[0].bets:
        fig = Figure(figsize=(9, 3.2))
        left, right = fig.subplots(1, 2)
        left.bar([ln.event for ln in b.lines], [float(ln.probability) for ln in b.lines], color="C0")
        left.set_ylabel("probability")
        left.set_title(f"{b.bets[0]}: the return's distribution", fontsize="medium")
        left.tick_params(axis="x", labelrotation=30, labelsize="x-small")
        ns = [10**k for k in range(2, 9)]
        edge = float(100 * b.house_edge)
        right.axhline(edge, color="black", linewidth=1, label="house edge")
        for k in CONFIDENCE:
            half = [100 * float(b.volatility(k)) / n**0.5 for n in ns]  # (a figure's coordinates)
            right.fill_between(ns, [edge - h for h in half], [edge + h for h in half], alpha=0.2, label=k)
        right.set_xscale("log")
        right.set_xlabel("rounds")
        right.set_ylabel("hold (%)")
        right.set_title("the hold's confidence interval", fontsize="medium")
        right.legend(fontsize="x-small")
        out["bets"].append(_svg(fig))
    return out


# --- the entry point -----------------------------------------------------------------------------


def report(rules: RuleSet | str, decks: Iterable[int] | None = None, *, pace: int = 60,
           stake: int | Decimal | Fraction = 100) -> MathReport:
    """The math report of ``rules`` (a ``RuleSet`` or a preset's name) for each deck count
    of ``decks`` (distinct, in the order given; default: the rule set's own), with the
    theoretical win per hour at ``pace`` rounds an hour and an average ``stake`` (money: an
    int, ``Decimal`` or ``Fraction``, never a float).

    :raises TypeError: an argument of the wrong type (named).
    :raises ValueError: no deck count, one repeated or out of range, one the rule set cannot
        deal (named), a pace out of 1 .. 100,000, a stake that is not a positive amount.
    """
    rules = as_rules(rules)
    asked = (rules.decks,) if decks is None else _deck_counts(decks)
    if isinstance(pace, bool) or not isinstance(pace, int):
        raise TypeError(f"pace must be an int (rounds an hour), got {type(pace).__name__}")
    if not 1 <= pace <= 100_000:
        raise ValueError(f"pace must be 1 to 100,000 rounds an hour, got {pace:,}")
    value, _ = check_stake("report(stake=...)", stake, rules)
    sheets = []
    for d in asked:
        try:
            shoe = rules if d == rules.decks else rules.replace(decks=d)
        except ValueError as exc:
            raise ValueError(f"decks {d}: {exc}") from None
        analysis = analyze(shoe)
        sheets.append((d, analysis.cards, shoe.digest(), dict(analysis.bets)))
    from ._about import package_version

    return MathReport(rules, _grouped(sheets), pace, value, package_version())


def _grouped(sheets: list[tuple[int, int, str, dict[str, BetAnalysis]]]) -> tuple[ReportSheet, ...]:
    """Each deck count's sheet, the bets whose figures are equal at every deck count shown
    once, named together."""
    groups: dict[tuple[Any, ...], list[str]] = {}
    for name in sheets[0][3]:
        groups.setdefault(tuple(_figures(t[3][name]) for t in sheets), []).append(name)
    return tuple(ReportSheet(decks, cards, digest, tuple(_bet_figures(tuple(names), by_name[names[0]])
                                                         for names in groups.values()))
                 for decks, cards, digest, by_name in sheets)


def _deck_counts(decks: Iterable[int]) -> tuple[int, ...]:
    if isinstance(decks, (str, bytes, int)):
        raise TypeError(f"decks must be an iterable of ints (e.g. (1, 6, 8)), got {type(decks).__name__}")
    out: list[int] = []
    for d in decks:
        if isinstance(d, bool) or not isinstance(d, int):
            raise TypeError(f"decks must hold ints, got {d!r:.40}")
        if not 1 <= d <= MAX_DECKS:
            raise ValueError(f"decks must be 1 to {MAX_DECKS}, got {d}")
        if d in out:
            raise ValueError(f"decks: {d} is given twice")
        out.append(d)
        if len(out) > 64:
            raise ValueError("decks: at most 64 deck counts")
    if not out:
        raise ValueError("decks: give at least one deck count")
    return tuple(out)
