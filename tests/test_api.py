"""The public API: what ``sanggong`` exports, that it is documented, that importing it is
lazy, and the result tables (``to_frame()`` for pandas, ``_repr_html_`` for notebooks).

The documentation check reads the API reference's sources (``docs/api/*.md``) the way the
docs build's own check does (``docs/_ext/sanggong_docs.py``, ``check_public_names``), but
without building: which ``sanggong.X`` each directive documents.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import math
import re
import subprocess
import sys
import textwrap
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import sanggong
from sanggong import MACAU, ONLINE, analyze, simulate

ROOT = Path(__file__).resolve().parent.parent
API_DOCS = ROOT / "docs" / "api"

PUBLIC_MODULES = [
    "sanggong.cards", "sanggong.hands", "sanggong.batch", "sanggong.ranking", "sanggong.rules", "sanggong.money",
    "sanggong.settlement", "sanggong.dealing", "sanggong.records", "sanggong.verify", "sanggong.analysis",
    "sanggong.simulation", "sanggong.limits", "sanggong.rounds", "sanggong.shoe", "sanggong.seeds",
    "sanggong.detection", "sanggong.plot", "sanggong.mathreport", "sanggong.vector",
    "sanggong.shuffletest", "sanggong.vector_runs",
]

# The names of the public modules' __all__ that are not exported from sanggong, and why.
# A name added to a module's __all__ must be exported or listed here: the test says which.
MODULE_ONLY = {
    "sanggong.vector_runs.Flat": "an example policy, documented with run_policy",
    "sanggong.vector_runs.PolicyRun": "run_policy's result, documented with it",
    "sanggong.vector.TableLog": "VectorTable.record's log of a table, documented with it",
    "sanggong.shuffletest.Row": "a row of ShuffleTestResult.rows, documented with it",
    "sanggong.shuffletest.check_shuffles": "recorded shuffles' own check, read through shuffle_test",
    "sanggong.shuffletest.read_shuffles": "recorded shuffles' file reader, read through shuffle_test",
    "sanggong.limits": "a namespace of constants, read as sanggong.limits.MAX_...",
    "sanggong.verify.LogFailed": "the ValueError detect raises for a log that fails verify's checks, with its report",
    "sanggong.records": "the record format's own tools (canonical bytes, hashes, HMAC keys, log files); "
                        "RoundRecord itself is exported",
    "sanggong.hands.ranking_of": "resolves a rules= argument; every function that takes rules= calls it",
    "sanggong.ranking.ORDERS": "the vocabulary of a Ranking's fields, documented with sanggong.ranking",
    "sanggong.ranking.TIERS": "the vocabulary of a Ranking's fields, documented with sanggong.ranking",
    "sanggong.ranking.HIGH_CARDS": "the vocabulary of a Ranking's fields, documented with sanggong.ranking",
    "sanggong.ranking.RankingTables": "the kernels' lookup tables of a ranking",
    "sanggong.ranking.tables_for": "the kernels' lookup tables of a ranking",
    "sanggong.rules.parse_bet": "parses a bet name without a table: RuleSet.bet is the checked way",
    "sanggong.rules.as_rules": "resolves a rules= argument (a RuleSet or a preset's name); every entry point calls it",
    "sanggong.money.MoneyRules": "the fields of a rule set that money reads (a typing protocol: RuleSet has them)",
    "sanggong.money.Purse": "the arithmetic of one kind of money, inside settlement",
    "sanggong.money.check_stake": "checks one stake, inside settlement",
    "sanggong.money.exact_decimal": "a decimal context for the library's own Decimal arithmetic",
    "sanggong.money.json_money": "an amount as JSON, for records",
    "sanggong.money.money_kind": "the kind of an amount, inside settlement",
    "sanggong.settlement.SettlementPlan": "internal: the settlement tables the kernels read",
    "sanggong.dealing.assign": "a step of the dealing procedure (Game and ObservedTable run them)",
    "sanggong.dealing.dealing_sequence": "a step of the dealing procedure (Game and ObservedTable run them)",
    "sanggong.dealing.first_hand": "a step of the dealing procedure (Game and ObservedTable run them)",
    "sanggong.dealing.round_length": "a step of the dealing procedure (Game and ObservedTable run them)",
    "sanggong.money.money_text": "an amount's exact text, for records and JSON",
    "sanggong.money.to_money": "checks and normalises one stake, inside settlement",
    "sanggong.records.FORMAT": "the record format's own tools",
    "sanggong.records.result_entry": "the record format's own tools",
    "sanggong.dealing.CannotCheck": "what a replay raises for a round it cannot deal again; verify_log reports it",
    "sanggong.seeds.SeedLike": "the type of a seed argument, documented with sanggong.seeds",
    "sanggong.seeds.check_seed": "checks a seed argument; every function that takes a seed calls it",
    "sanggong.seeds.child": "a chunk's seed, for simulators that continue a run's chunks",
    "sanggong.seeds.pcg64_state": "the PCG64 state a recorded seed seeds, as numpy's (a Game's generator, no NumPy)",
    "sanggong.seeds.recorded_seed": "check_seed's recorded seed alone (no NumPy for an int or a Seed)",
    "sanggong.seeds.seed_json": "a recorded seed as JSON, for results' to_dict",
    "sanggong.plot": "the package's figures, used as sanggong.plot.<name> (matplotlib: the plot extra)",
    "sanggong.shoe.edge_by_pay": "design's edge line over every pay tried, for its figure (sanggong.plot.pay_options)",
    "sanggong.mathreport.CONFIDENCE": "the report's confidence levels, documented with sanggong.report",
    "sanggong.mathreport.ReportBet": "the figures of one bet in a MathReport, read from it",
    "sanggong.mathreport.ReportLine": "one outcome of a bet in a MathReport, read from it",
    "sanggong.mathreport.ReportSheet": "one deck count's figures in a MathReport, read from it",
    "sanggong.mathreport.percent_text": "an exact fraction as the report prints a percentage",
    "sanggong.verify.LogReader": "reads a log in one pass for another reader (detect does); verify_log is the usual way",
    "sanggong.verify.LogFiles": "a game's log kept in several files, read as one log by LogReader (detect reads so)",
    "sanggong.verify.CheckedRound": "a round of LogReader.checked's typed stream, read by detect",
    "sanggong.verify.CheckedRun": "a run of rounds of LogReader.checked's typed stream, read by detect",
    "sanggong.dealing.check_bets": "checks a record's slip as a replay reads it (verify's fast pass reads slips with it)",
    "sanggong.dealing.positioned_game": "a game where a Replayer continuing a log stands (verify's fast pass hands it)",
}


# --- exports -------------------------------------------------------------------------------------


def test_all_has_no_duplicates_and_every_name_resolves() -> None:
    """Names, not kernels: run once."""
    assert len(sanggong.__all__) == len(set(sanggong.__all__))
    for name in sanggong.__all__:
        assert getattr(sanggong, name) is not None, name
    namespace: dict[str, Any] = {}
    exec("from sanggong import *", namespace)  # noqa: S102 (a fixed statement)
    assert set(sanggong.__all__) <= set(namespace)


def test_exports_are_the_modules_objects() -> None:
    """Names, not kernels: run once. Each name is the object of the module it comes from."""
    lazy = sanggong._LAZY
    assert set(lazy) | {"__version__", "IMPLEMENTATION"} == set(sanggong.__all__)
    for name, module in lazy.items():
        assert getattr(sanggong, name) is getattr(importlib.import_module(f"sanggong.{module}"), name), name


@pytest.mark.parametrize("module_name", PUBLIC_MODULES)
def test_every_public_name_is_exported_or_module_only(module_name: str) -> None:
    """Names, not kernels: run once. A name of a public module's ``__all__`` is either
    reachable from ``sanggong`` (as the same object) or listed in MODULE_ONLY with why."""
    module = importlib.import_module(module_name)
    undecided = []
    for name in module.__all__:
        qualified = f"{module_name}.{name}"
        if qualified in MODULE_ONLY:
            assert name not in sanggong.__all__, f"{qualified} is exported: take it out of MODULE_ONLY"
            continue
        if name in sanggong.__all__:
            assert getattr(sanggong, name) is getattr(module, name), qualified
        elif module_name not in MODULE_ONLY:
            undecided.append(qualified)
    assert not undecided, f"export these from sanggong, or list them in MODULE_ONLY with a reason: {undecided}"


def test_module_only_lists_real_names() -> None:
    """Names, not kernels: run once. MODULE_ONLY does not go stale."""
    for qualified in MODULE_ONLY:
        if qualified in PUBLIC_MODULES:
            continue
        module_name, name = qualified.rsplit(".", 1)
        assert name in importlib.import_module(module_name).__all__, qualified


def _entry_points() -> dict[str, Callable[[Any], Any]]:
    """Every entry point that takes ``rules``, called with it (the online preset's hands,
    bets and records), to what it gives."""
    from sanggong import (
        Game,
        ObservedTable,
        Replayer,
        Resettler,
        ShoeEvaluator,
        TableSession,
        VectorTable,
        deal_batch,
        design,
        detect,
        effect_of_removal,
        evaluate,
        play_shoes,
        settle,
        simulate_sessions,
        verify_log,
    )
    from sanggong.rules import as_rules

    cards = "5h  Ks Qs 9d  As 2d 3c  4h 4d 4c  Jh Jd Tc"
    seeded = [Game(ONLINE, 7).play({"win:1": 100}) for _ in range(3)]
    observed = ObservedTable(ONLINE).play(cards, {"win:1": 100})
    return {
        "as_rules": as_rules,
        "evaluate": lambda r: evaluate("Kh Qs 9d", rules=r),
        "settle": lambda r: settle(r, "Kh Qs 9d", {1: "As 2d 3c"}, {"win:1": 100}).results,
        "TableSession": lambda r: TableSession(r).settle("Kh Qs 9d", {1: "As 2d 3c"}, {"win:1": 100}).results,
        "analyze": lambda r: analyze(r)["win:1"].ev_exact,
        "effect_of_removal": lambda r: effect_of_removal(r, ["win:1"]),
        "ShoeEvaluator": lambda r: ShoeEvaluator(r, bets=["win:1"]).evs(),
        "simulate": lambda r: simulate(r, 100, {"win:1": 1}, seed=1, workers=1, compare_exact=False).bets,
        "simulate_sessions": lambda r: simulate_sessions(r, {"win:1": 1}, 100, 5, 2, seed=1, workers=1).finals.tolist(),
        "deal_batch": lambda r: deal_batch(r, 5, seed=1).hands.tolist(),
        "VectorTable": lambda r: VectorTable(r, 2, seed=1).step(np.zeros((2, 1, 16), dtype=np.int64))[0][
            "cards"].tolist(),
        "play_shoes": lambda r: play_shoes(r, 2, "perfect", seed=1, workers=1, bets=["win:1"]).bets,
        "design": lambda r: design(r, "win:1", (0, 0.05), shoes=1, limit=1),
        "Game": lambda r: Game(r, 7).play({"win:1": 100}),
        "ObservedTable": lambda r: ObservedTable(r).play(cards, {"win:1": 100}),
        "Replayer": lambda r: Replayer(r).check(seeded[0]),
        "Resettler": lambda r: Resettler(r).check(observed),
        "Game.replay_record": lambda r: Game.replay_record(r, seeded[1]),
        "verify_log": lambda r: verify_log([x.to_json() for x in seeded], r),
        "detect": lambda r: detect(seeded[:1], r).players,  # (seeded: three games' round 1, one game each)
    }


@pytest.mark.parametrize("entry", list(_entry_points()))
def test_every_entry_point_takes_a_rule_set_or_a_presets_name(entry: str) -> None:
    """Names, not kernels: run once. ``rules`` is resolved by one function wherever it is
    taken (``rules.as_rules``): a preset's name gives what the preset gives, anything but a
    rule set or a name is refused naming the argument, an unknown name naming the presets."""
    call = _entry_points()[entry]
    assert call("online") == call(ONLINE)
    with pytest.raises(TypeError, match="^rules: expected a RuleSet"):
        call(3)
    with pytest.raises(ValueError, match="^rules: unknown preset 'vegas' \\(known: macau, online"):
        call("vegas")


def test_dir_and_unknown_names() -> None:
    """Names, not kernels: run once."""
    assert set(sanggong.__all__) <= set(dir(sanggong))
    with pytest.raises(AttributeError, match="no attribute 'evalute'"):
        sanggong.evalute  # type: ignore[attr-defined]  # noqa: B018
    with pytest.raises(ImportError):
        exec("from sanggong import evalute", {})  # noqa: S102


def test_version_and_implementation() -> None:
    """The attributes computed on first use; the kernels in use are the compiled core's
    here (a test without the ``kernels`` mark runs with the core)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        expected = version("sanggong")
    except PackageNotFoundError:
        expected = "0+unknown"
    assert sanggong.__version__ == expected
    assert sanggong.IMPLEMENTATION == sanggong._kernels.kernels.IMPLEMENTATION == "cython"
    from sanggong import IMPLEMENTATION, __version__

    assert (IMPLEMENTATION, __version__) == ("cython", expected)


def _fresh(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_import_is_lazy_in_a_fresh_interpreter() -> None:
    """Imports, not kernels: run once. ``import sanggong`` after numpy imports no module
    but the package itself (no submodule, no importlib.metadata, no msgspec): the rest
    comes on first use. (Its time is measured by benchmarks/import_time.py, not here.)"""
    out = _fresh("""
        import sys, numpy
        before = set(sys.modules)
        import sanggong
        print(sorted(set(sys.modules) - before))
    """)
    assert out.split() == ["['sanggong']"]


def test_every_name_imports_first_in_a_fresh_interpreter() -> None:
    """Imports, not kernels: run once. ``from sanggong import X`` for every X, each the first
    use of X in that process, gives the object of X's module."""
    out = _fresh("""
        import importlib, json, sanggong
        wrong = []
        for name in sanggong.__all__:
            namespace = {}
            exec(f"from sanggong import {name}", namespace)
            module = sanggong._LAZY.get(name)
            if module is not None and namespace[name] is not getattr(importlib.import_module("sanggong." + module), name):
                wrong.append(name)
        print(json.dumps({"wrong": wrong, "implementation": sanggong.IMPLEMENTATION}))
    """)
    result = json.loads(out)
    assert result["wrong"] == []
    assert result["implementation"] in ("cython", "python")


def test_type_checkers_see_every_name(tmp_path: Path) -> None:
    """Static typing, not kernels: run once. mypy --strict sees each name of ``__all__``
    with its type (the imports under TYPE_CHECKING) and still rejects a misspelt one (the
    module's ``__getattr__`` is hidden from it)."""
    names = ", ".join(name for name in sanggong.__all__)
    source = f"""\
        import sanggong
        from sanggong import {names}

        label: str = sanggong.evaluate("Kh Qs 9d").label
        kind: str = IMPLEMENTATION + __version__
        result: SimulationResult = simulate(ONLINE, 10)
        rules: RulesLike = "macau"
        stake: Money = 1
        sanggong.evalute("Kh Qs 9d")
        wrong: int = sanggong.IMPLEMENTATION
    """
    (tmp_path / "client.py").write_text(textwrap.dedent(source), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--no-error-summary", "client.py"],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 2, done.stdout + done.stderr
    assert 'has no attribute "evalute"' in errors[0]
    assert 'expression has type "str", variable has type "int"' in errors[1]


# --- documentation ---------------------------------------------------------------------------------

_DIRECTIVE = re.compile(
    r"^(?P<indent>[ \t]*)\.\.[ \t]+(?:py:)?(?P<kind>auto(?:module|class|function|data|exception)|module|currentmodule"
    r"|class|function|data|exception)::[ \t]*(?P<name>[\w.]+)"
)
_OPTION = re.compile(r"^[ \t]+:(?P<key>[\w-]+):[ \t]*(?P<value>.*)$")


def documented_names() -> dict[str, str]:
    """Every object the API reference documents at the top level of a page or module
    (``sanggong.X``, ``sanggong.module.X``), with the page: read from the directives of
    ``docs/api/*.md``. ``automodule`` with ``:members:`` documents its module's
    ``__all__`` (less ``:exclude-members:``). After an ``automodule``, ``module`` or
    ``currentmodule``, a ``py:`` directive's name is within that module, dotted or not
    (``.. py:data:: sanggong.ranking.ORDERS`` there would be
    ``sanggong.ranking.sanggong.ranking.ORDERS``), and so is an ``auto`` directive's bare
    name. Members inside a class are not listed."""
    out: dict[str, str] = {}
    for page in sorted(API_DOCS.glob("*.md")):
        lines = page.read_text(encoding="utf-8").splitlines()
        module = None
        for i, line in enumerate(lines):
            match = _DIRECTIVE.match(line)
            if match is None or match["indent"]:
                continue
            kind, name = match["kind"], match["name"]
            options: dict[str, str] = {}
            j = i + 1
            while j < len(lines) and lines[j].strip():
                option = _OPTION.match(lines[j])
                if option is None:
                    break
                key, value = option["key"], option["value"]
                while j + 1 < len(lines) and lines[j + 1].startswith(" " * 6) and not _OPTION.match(lines[j + 1]):
                    j += 1  # an option's value continued on the next lines
                    value += " " + lines[j].strip()
                options[key] = value
                j += 1
            if kind in ("automodule", "module", "currentmodule"):
                module = name
                out.setdefault(name, page.name)
                if kind == "automodule" and "members" in options:
                    excluded = {n.strip() for n in options.get("exclude-members", "").split(",")}
                    for member in importlib.import_module(name).__all__:
                        if member not in excluded:
                            out[f"{name}.{member}"] = page.name
                continue
            if module is not None and (not kind.startswith("auto") or "." not in name):
                name = f"{module}.{name}"  # as Sphinx does: within the module, even a dotted name
            out[name] = page.name
    return out


def _resolve(qualified: str) -> object:
    parts = qualified.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr)
        return obj
    raise ImportError(qualified)


def test_the_reader_of_the_docs_sees_what_it_should() -> None:
    """Documentation, not kernels: run once. The reader itself: directives, options with
    continued values, automodule members, bare names in a module."""
    names = documented_names()
    assert names["sanggong.evaluate"] == "hands.md"
    assert names["sanggong.limits.MAX_DECKS"] == "limits.md"  # automodule :members:
    assert names["sanggong.money.Money"] == "money.md"  # a bare name after automodule
    assert "sanggong.RuleSet.name" not in names  # :exclude-members: spread over lines
    assert "sanggong.ranking.Ranking" not in names  # excluded from an automodule


def test_every_exported_name_is_documented() -> None:
    """Documentation, not kernels: run once. What the docs build checks
    (``check_public_names``), without building."""
    names = documented_names()
    missing = [name for name in sanggong.__all__ if f"sanggong.{name}" not in names]
    assert not missing, f"in sanggong.__all__ but not documented in docs/api: {missing}"


def test_every_documented_name_imports() -> None:
    """Documentation, not kernels: run once. A documented ``sanggong.X`` is exported and
    imports from ``sanggong``; a documented ``sanggong.module.X`` imports from its module."""
    broken, unexported = [], []
    for qualified, page in documented_names().items():
        try:
            obj = _resolve(qualified)
        except (ImportError, AttributeError):
            broken.append(f"{qualified} ({page})")
            continue
        parts = qualified.split(".")
        if parts[0] != "sanggong" or (len(parts) == 2 and not isinstance(obj, type(sanggong))):
            if parts[0] != "sanggong" or parts[1] not in sanggong.__all__:
                unexported.append(f"{qualified} ({page})")
                continue
            namespace: dict[str, Any] = {}
            exec(f"from sanggong import {parts[1]}", namespace)  # noqa: S102
            assert namespace[parts[1]] is obj
    assert not broken, f"documented in docs/api, but no such object: {broken}"
    assert not unexported, f"documented as sanggong.X, but not in sanggong.__all__: {unexported}"


# --- result tables --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def analysis() -> sanggong.Analysis:
    return analyze(MACAU)


@pytest.fixture(scope="module")
def result() -> sanggong.SimulationResult:
    return simulate(ONLINE, 20_000, seed=1, workers=1)


@pytest.fixture
def no_pandas(monkeypatch: pytest.MonkeyPatch) -> None:
    """pandas as if it were not installed: ``import pandas`` raises ImportError."""
    monkeypatch.setitem(sys.modules, "pandas", None)


def _same(got: object, want: object) -> bool:
    """A frame's value is the object's: equal and of the same type, or both NaN (never
    equal to itself); for None, any missing value (pandas 3 stores a missing string as NaN)."""
    if hasattr(got, "item"):  # a numpy scalar
        got = got.item()
    if want is None:
        return got is None or (isinstance(got, float) and math.isnan(got))
    if isinstance(got, float) and isinstance(want, float) and math.isnan(got) and math.isnan(want):
        return True
    return got == want and type(got) is type(want)


def test_analysis_frame_holds_every_bet(analysis: sanggong.Analysis) -> None:
    """A table of the analysis, not the kernels' counts: run once."""
    pytest.importorskip("pandas")
    frame = analysis.to_frame()
    assert list(frame.index) == list(analysis.bets) and frame.index.name == "bet"
    assert list(frame.columns) == ["total", "ev", "ev_exact", "house_edge", "house_edge_resolved", "hit_frequency",
                                   "carry_probability", "sd", "variance", "variance_exact"]
    for name, bet in analysis.bets.items():
        row = frame.loc[name]
        for column in frame.columns:
            assert _same(row[column], getattr(bet, column)), (name, column, row[column])
    assert isinstance(frame.loc["win:1", "ev_exact"], Fraction)
    assert frame.attrs == {"rules": "macau", "decks": 8, "cards": 416}


def test_analysis_frame_of_outcomes_holds_every_line(analysis: sanggong.Analysis) -> None:
    """A table of the analysis, not the kernels' counts: run once."""
    pytest.importorskip("pandas")
    frame = analysis.to_frame(outcomes=True)
    assert list(frame.columns) == ["bet", "outcome", "detail", "combinations", "probability", "pays", "net"]
    expected = [(bet.bet, *dataclasses.astuple(line)) for bet in analysis.bets.values() for line in bet.outcomes]
    rows = list(frame.itertuples(index=False, name=None))
    assert len(rows) == len(expected)
    for got, want in zip(rows, expected, strict=True):
        assert all(_same(g, w) for g, w in zip(got, want, strict=True)), (got, want)
    assert list(frame.index) == list(range(len(expected)))
    # per bet, the lines sum to the bet's total and give its expected return
    for name, lines in frame.groupby("bet", sort=False):
        bet = analysis[name]
        assert int(lines["combinations"].sum()) == bet.total
        assert sum(n * net for n, net in zip(lines["combinations"], lines["net"], strict=True)) / bet.total == bet.ev_exact


def test_analysis_frame_of_a_huge_shoe_keeps_exact_counts() -> None:
    """Python integers beyond 64 bits stay exact in the frame (the counts, not the kernels)."""
    pytest.importorskip("pandas")
    table = analyze(MACAU.replace(decks=64))
    frame = table.to_frame()
    assert table["win:1"].total >= 2**63
    assert _same(frame.loc["win:1", "total"], table["win:1"].total)
    assert _same(frame.loc["odd", "total"], table["odd"].total)


def test_simulation_frame_holds_every_bet(result: sanggong.SimulationResult) -> None:
    """A table of the result, not the kernels: run once."""
    pytest.importorskip("pandas")
    frame = result.to_frame()
    assert list(frame.index) == list(result.bets) and frame.index.name == "bet"
    assert list(frame.columns) == ["rounds", "stake", "staked", "returned", "rtp", "sd", "ci95_low", "ci95_high",
                                   "exact", "z"]
    for name, bet in result.bets.items():
        row = dict(frame.loc[name].items())
        assert _same(row["rounds"], bet.rounds)
        assert _same(row["stake"], bet.stake) and _same(row["staked"], bet.staked)
        assert _same(row["returned"], bet.returned)
        assert _same(row["rtp"], bet.rtp) and _same(row["sd"], bet.sd)
        assert _same(row["ci95_low"], bet.ci95[0]) and _same(row["ci95_high"], bet.ci95[1])
        assert _same(row["exact"], bet.exact) and _same(row["z"], bet.z)
    assert frame.attrs["rules"] == "online" and frame.attrs["seed"] == 1 and frame.attrs["rounds"] == 20_000
    assert frame.attrs["versions"] == dict(result.versions)


def test_simulation_frame_without_exact_values_and_with_int_stakes() -> None:
    """None is NaN in the float columns; int money stays int (the table, not the kernels)."""
    pytest.importorskip("pandas")
    run = simulate(MACAU, 2_000, bets={"win:1": 100, "odd": 250}, seed=2, workers=1, compare_exact=False)
    frame = run.to_frame()
    assert frame["exact"].isna().all() and frame["z"].isna().all()
    assert str(frame["exact"].dtype) == "float64"
    assert frame.loc["odd", "stake"] == 250 and frame.loc["win:1", "returned"] == run.bets["win:1"].returned


@pytest.mark.usefixtures("no_pandas")
def test_to_frame_without_pandas_names_the_extra(analysis: sanggong.Analysis,
                                                 result: sanggong.SimulationResult) -> None:
    """The optional dependency, not the kernels: run once."""
    calls: list[Callable[[], object]] = [analysis.to_frame, lambda: analysis.to_frame(outcomes=True), result.to_frame]
    for call in calls:
        with pytest.raises(ImportError, match=re.escape("pip install 'sanggong[frame]'")) as info:
            call()
        assert info.value.name == "pandas"


@pytest.mark.usefixtures("no_pandas")
def test_html_tables_need_no_pandas(analysis: sanggong.Analysis, result: sanggong.SimulationResult) -> None:
    """Tables for notebooks, not the kernels: run once."""
    page = analysis._repr_html_()
    assert page.startswith('<table class="sanggong-analysis">') and page.endswith("</table>")
    assert "<caption>Exact analysis: macau, 8 decks (416 cards)</caption>" in page
    assert page.count("<tr>") == 1 + len(analysis.bets)
    assert f"<td style=\"text-align: right\">{analysis['win:1'].total:,}</td>" in page
    page = result._repr_html_()
    assert page.startswith('<table class="sanggong-simulation">')
    assert "Simulation: online, 20,000 rounds, seed 1" in page
    assert page.count("<tr>") == 1 + len(result.bets)
    for name in result.bets:
        assert f">{name}</th>" in page


def test_html_tables_escape_text() -> None:
    """A rule set's name is any printable text: shown escaped (not the kernels: run once)."""
    name = '<script>alert("x")</script> & <b>'
    rules = ONLINE.replace(name=name)
    escaped = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;"
    for page in (analyze(rules)._repr_html_(),
                 simulate(rules, 1_000, seed=1, workers=1, compare_exact=False)._repr_html_()):
        assert escaped in page
        assert "<script>" not in page and "<b>" not in page
    run = dataclasses.replace(simulate(ONLINE, 1_000, seed=1, workers=1), rules="a < b")
    assert "Simulation: a &lt; b, 1,000 rounds" in run._repr_html_()


def test_html_table_of_a_shoe_and_of_undefined_values() -> None:
    """A composition's caption, and an undefined figure shown as a dash (not the kernels)."""
    table = analyze(MACAU, sanggong.composition(8, "Kh Qs 9d"))
    assert "macau, a shoe of 413 cards" in table._repr_html_()
    run = simulate(ONLINE, 1_000, seed=1, workers=1, compare_exact=False)
    assert ">\u2014</td>" in run._repr_html_()  # no exact value to compare with
