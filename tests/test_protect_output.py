"""What ``sanggong protect`` and ``sanggong design`` tell the analyst: the bets that matter,
ranked, with a materiality threshold (``--min-gain``); no empty column; identical rows
merged; figures whose lines can be told apart; a pay written one way everywhere."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from cli_run import fails, run

import sanggong.plot
from sanggong import MACAU, analyze, play_shoes
from sanggong._presentation import pay_text
from sanggong.cli import main
from sanggong.shoe import edge_by_pay

PROTECT = ["protect", "--rules", "macau", "--decks", "2", "--shoes", "20", "--seed", "1", "--workers", "1"]


def _gains(data: dict[str, Any]) -> dict[str, float]:
    """Each bet's gain per 100 rounds from ``--json``: the better strategy's, by the exact EVs
    of the rounds bet where they were computed, else by the results (0 where none bets)."""
    out = {}
    for bet in data["bets"]:
        gains = [0.0]
        for name in ("perfect", "count"):
            s = bet[name]
            if s is not None:
                gains.append(s["gain_per_100"] if s["expected_gain_per_100"] is None else s["expected_gain_per_100"])
        out[bet["bet"]] = max(gains)
    return out


def _members(shown: str) -> list[str]:
    """The bets a merged name stands for: ``tie:1..7``, ``win:4,5``, ``odd``."""
    kind, colon, rest = shown.partition(":")
    if not colon:
        return [shown]
    out = []
    for part in rest.split(","):
        low, dots, high = part.partition("..")
        out += [f"{kind}:{n}" for n in range(int(low), int(high) + 1)] if dots else [f"{kind}:{part}"]
    return out


def _table(text: str) -> tuple[list[str], list[list[str]], list[str]]:
    """``protect``'s table: its header's columns, its rows' cells (split on two spaces and
    more), and the bets named on the "Not material" line."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("bet "))
    header = re.split(r" {2,}", lines[start].strip())
    rows = []
    for line in lines[start + 1:]:
        if not re.match(r"^[a-z_]+(:\S+)? ", line) or line.startswith(("house edge:", "Not material", "One line")):
            break
        rows.append(re.split(r" {2,}", line.strip()))
    rest = next((line for line in lines if line.startswith("Not material")), "")
    named = rest.partition("): ")[2].rstrip(".").split(", ") if rest else []
    return header, rows, named


@pytest.mark.kernels
def test_protect_lists_the_bets_that_gain_at_least_min_gain_most_first(capsys: pytest.CaptureFixture[str]) -> None:
    """The bets a strategy gains at least --min-gain on, and only those, most gained first,
    each bet once; the others named on one line. (Against main: every bet was listed and
    marked "beatable" down to +0.000, in the table's order.)"""
    data = json.loads(run([*PROTECT, "--json", "--min-gain", "0"], capsys))
    gains = _gains(data)
    assert data["material"] == sorted(gains, key=lambda b: -gains[b])  # --min-gain 0: every bet
    distinct = sorted(set(gains.values()))
    assert len(distinct) >= 3
    threshold = f"{(distinct[-2] + distinct[-3]) / 2:.6f}"  # between two gains: two bets or more above it
    header, rows, named = _table(run([*PROTECT, "--min-gain", threshold], capsys))
    listed = [_members(row[0]) for row in rows]
    flat = [b for group in listed for b in group]
    assert sorted(flat) == sorted(b for b, g in gains.items() if g >= Fraction(threshold))
    assert sorted(flat + [b for name in named for b in _members(name)]) == sorted(gains)
    order = [gains[group[0]] for group in listed]
    assert order == sorted(order, reverse=True)
    assert "beatable" not in header


@pytest.mark.kernels
def test_protect_merges_identical_rows_and_shows_no_empty_column(capsys: pytest.CaptureFixture[str]) -> None:
    """Bets of a kind whose figures are the same are one row (every position's Tie, as
    ``analyze`` has them); a column no row fills is left out: with perfect information
    played the count's gains come from the exact EVs, and no standard error is shown."""
    data = json.loads(run([*PROTECT, "--json", "--min-gain", "0"], capsys))
    header, rows, _ = _table(run([*PROTECT, "--min-gain", "0"], capsys))
    assert "± se" not in header
    for i in range(1, len(header)):
        assert any(len(row) == len(header) and row[i] for row in rows), header[i]

    def figures(bet: dict[str, Any]) -> tuple[Any, ...]:  # what the table shows of a bet, from --json
        p, c = bet["perfect"], bet["count"]
        return (bet["bet"].partition(":")[0], bet["house_edge"], p["frequency"], p["advantage"],
                p["expected_gain_per_100"], c["threshold"], c["frequency"], c["expected_gain_per_100"],
                c["correlation"])

    by_bet = {b["bet"]: figures(b) for b in data["bets"]}
    shown = [[by_bet[b] for b in _members(row[0])] for row in rows]
    assert all(len(set(group)) == 1 for group in shown), "a row merges bets whose figures differ"
    firsts = [group[0] for group in shown]
    assert len(firsts) == len(set(firsts)), "two rows of one kind with the same figures"
    assert any(len(group) > 1 for group in shown)  # (Macau's Win: the same on every position)


@pytest.mark.kernels
def test_a_count_alone_shows_its_standard_error(capsys: pytest.CaptureFixture[str]) -> None:
    """Without perfect information the count's gains come from its results: each with its
    standard error, and no correlation column (it needs the exact EVs)."""
    argv = [*PROTECT, "--strategy", "count", "--min-gain", "0"]
    data = json.loads(run([*argv, "--json"], capsys))
    header, rows, _ = _table(run(argv, capsys))
    assert "± se" in header and "corr" not in header and "advantage" not in header
    se = {b["bet"]: b["count"]["gain_per_100_se"] for b in data["bets"]}
    at = header.index("± se")
    for row in rows:
        assert row[at] == f"{se[_members(row[0])[0]]:.3f}"


@pytest.mark.parametrize("given", ["-1", "abc", "nan", "1e3", "0.5.1", ""])
def test_a_bad_min_gain_exits_2(given: str, capsys: pytest.CaptureFixture[str]) -> None:
    fails(["protect", "--shoes", "1", "--min-gain", given], "--min-gain", capsys)


@pytest.mark.kernels
def test_protect_plot_draws_the_bets_listed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    drawn: dict[str, Any] = {}
    real = sanggong.plot.ev_by_count

    def spy(result: Any, **kwargs: Any) -> Any:
        drawn.update(kwargs)
        return real(result, **kwargs)

    monkeypatch.setattr(sanggong.plot, "ev_by_count", spy)
    argv = [a if a != "20" else "200" for a in PROTECT]  # 200 shoes: true counts reached in 100 rounds and more
    gains = _gains(json.loads(run([*argv, "--json", "--min-gain", "0"], capsys)))
    threshold = f"{sorted(set(gains.values()))[-3] / 2:.6f}"
    _, rows, _ = _table(run([*argv, "--min-gain", threshold, "--plot", str(tmp_path / "ev.png")], capsys))
    assert len(rows) >= 2 and (tmp_path / "ev.png").stat().st_size > 0
    assert list(drawn["bets"].values()) == [row[0] for row in rows]
    assert [_members(label)[0] for label in drawn["bets"].values()] == list(drawn["bets"])
    # no bet gains that much: nothing to draw, said plainly, and no file
    assert main([*PROTECT, "--min-gain", "1000", "--plot", str(tmp_path / "none.png")]) == 0
    err = capsys.readouterr().err
    assert "not written" in err and "--min-gain 0" in err and not (tmp_path / "none.png").exists()


@pytest.mark.kernels
def test_every_line_of_ev_by_count_has_a_style_of_its_own() -> None:
    """27 bets drawn: no two lines alike (matplotlib's colours repeat after ten)."""
    pytest.importorskip("matplotlib")
    result = play_shoes(MACAU.replace(decks=2), 30, "count", seed=1, workers=1)
    ax = sanggong.plot.ev_by_count(result, least=1)
    styles = [(line.get_color(), line.get_linestyle(), line.get_marker()) for line in ax.lines
              if line.get_label() in result.bets]
    assert len(styles) == len(result.bets) > 10
    assert len(set(styles)) == len(styles)
    import matplotlib.pyplot as plt

    plt.close("all")


# --- design -------------------------------------------------------------------------------------


@pytest.mark.kernels
def test_design_plot_draws_the_edge_over_every_pay_tried(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """``design --plot``: the edge of every pay tried (not only the one pay inside the range:
    once one dot), each the exact edge ``analyze`` gives with that pay."""
    pytest.importorskip("matplotlib")
    drawn: dict[str, Any] = {}
    real = sanggong.plot.pay_options

    def spy(options: Any, **kwargs: Any) -> Any:
        drawn.update(kwargs, options=options)
        return real(options, **kwargs)

    monkeypatch.setattr(sanggong.plot, "pay_options", spy)
    run(["design", "--rules", "macau", "--bet", "point:0", "--edge", "2%-6%", "--pays", "6-10", "--shoes", "2",
         "--workers", "1", "--plot", str(tmp_path / "pays.png")], capsys)
    assert len(drawn["options"]) == 1
    pays = [Fraction(12 + k, 2) for k in range(9)]  # 6 to 10 in steps of 0.5
    edges = [-analyze(MACAU.replace(pays={**MACAU.pays, "point": p}))["point:0"].ev_exact for p in pays]
    assert drawn["line"] == list(zip(pays, edges, strict=True))
    assert (tmp_path / "pays.png").stat().st_size > 0
    thinned = edge_by_pay(MACAU, "point:0", step=Fraction(1, 1000), pays=(1, 100))  # 99,001 pays: 1,001 drawn
    assert len(thinned) == 1001 and thinned[0][0] == 1 and thinned[-1][0] == 100
    p, e = thinned[500]
    assert e == -analyze(MACAU.replace(pays={**MACAU.pays, "point": p}))["point:0"].ev_exact
    with pytest.raises(ValueError, match="whole table"):
        edge_by_pay("online", "pair_plus:1")


# --- a pay, written one way ---------------------------------------------------------------------


def test_pay_text_is_odds_to_one_as_a_decimal_where_one_is_exact() -> None:
    for odds in (Fraction(8), Fraction(15, 2), Fraction(47, 50), Fraction(1, 2), Fraction(7, 40)):
        assert pay_text(odds) == f"{Decimal(odds.numerator) / Decimal(odds.denominator)}:1"
    assert pay_text(Fraction(1, 3)) == "1/3:1"  # no decimal is exact


@pytest.mark.kernels
def test_analyze_bets_and_design_write_a_pay_the_same_way(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Point at 7.5 to 1: ``7.5:1`` in analyze's, bets' and design's tables (analyze once
    wrote ``15/2:1`` and design ``point 7.5``)."""
    table = tmp_path / "half.toml"
    MACAU.replace(name="half", decks=1, pays={**MACAU.pays, "point": Fraction(15, 2)}).save(table)
    outputs = {
        "analyze": run(["analyze", "--rules-file", str(table)], capsys),
        "bets": run(["bets", "--rules-file", str(table)], capsys),
        "design": run(["design", "--rules", "macau", "--bet", "point:0", "--edge", "2%-6%", "--shoes", "1",
                       "--workers", "1"], capsys),
    }
    for command, out in outputs.items():
        assert "7.5:1" in out, command
        assert "15/2" not in out, command
        assert not re.search(r"\bpoint 7\.5(?!:1)", out), command
