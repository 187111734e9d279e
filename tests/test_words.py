"""One word, one meaning (docs/architecture.md, "One word, one meaning"): the package's
classes, functions, modules and C identifiers keep each word to its one sense, and the
public names that carried a retired sense stay as deprecated aliases.

The scans read the source (``ast`` for Python, identifiers for C and Cython): a new name
with one of these words passes only where it means the word's one thing, said here."""

from __future__ import annotations

import ast
import re
import warnings
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "sanggong"

# Each word's names in Python: the one sense (or a public name kept as the API), nothing else.
_TABLES = {
    "RankingTables", "tables_for",  # the public face of a ranking's lookup tables (API)
    "_tables",  # hands.HandValue's RankingTables (that public face)
    "MAX_TABLES", "n_tables", "_run_tables",  # gaming tables
    "MAX_DESIGN_TABLES", "pair_plus_tables",  # pay tables
    "tables",  # MathReport.tables: the deprecated alias of MathReport.sheets
}
ALLOWED = {
    "plan": {"SettlementPlan", "plan_for"},  # the settlement plan: what a set of bets pays
    "reader": {"LogReader"},  # reads a log
    "tables": _TABLES,
    "table": _TABLES | {
        # the gaming table
        "TableParams", "TableFields", "TableLog", "TableSession", "TableVariant", "VectorTable", "ObservedTable",
        "table_params", "table_fits", "table_of", "table_rounds", "table_seed", "table_staked", "table_totals",
        "table_variant", "table_text", "assign_by_table", "on_table",
        "table",  # a gaming table (the envs' VectorTable, the command line's rule-set options); as a
        # method or property of SettlementPlan, ShuffleTestResult or CountStats, a deprecated alias
        # (test_the_retired_senses_of_table_are_deprecated_aliases)
        # a pay table (two words, the casino's term): a bet's odds, several of them
        "check_table", "whole_table",
    },
    "sheet": {  # rows and columns of text (and a math report's sheet for one deck count)
        "ReportSheet", "sheets", "sheet", "print_sheet", "html_sheet", "_md_sheet", "_html_sheet",
    },
}
# Each word's identifiers in C and Cython (comments read as prose: the word itself passes).
C_ALLOWED = {
    "plan": {"plan", "plans", "SettlementPlan"},  # a settlement plan (sg_settlement) and its name
    "reader": {"reader", "LogReader"},
    "tables": {"tables", "n_tables", "tables_for", "RankingTables"},
    "table": {"tables", "n_tables", "tables_for", "RankingTables",  # as "tables" above
              # the gaming table: its parameters (sg_table.h), a kernel's, a vector of them
              "table", "sg_table", "_table", "_table_params", "_dealt_table", "TableParams", "VectorTable",
              "SANGGONG_SG_TABLE_H", "SG_NOT_A_TABLE", "SG_MACAU_TABLE"},
}
C_SOURCES = ("*.h", "*.pxi", "*.pyx", "*.pxd")


def _defined(tree: ast.Module) -> list[str]:
    """The names a module defines: its classes and functions (methods too), and what its
    module and class bodies assign."""
    names: list[str] = []
    bodies = [tree.body]
    for node in ast.walk(tree):
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            names.append(node.name)
        if isinstance(node, ast.ClassDef):
            bodies.append(node.body)
    for body in bodies:
        for statement in body:
            targets = statement.targets if isinstance(statement, ast.Assign) else (
                [statement.target] if isinstance(statement, ast.AnnAssign) else [])
            names += [t.id for t in targets if isinstance(t, ast.Name)]
    return names


def _has(name: str, word: str) -> bool:
    """Whether one of the name's words (snake_case or CamelCase parts) is ``word`` or
    begins with it (``ShoePlan``, ``plan_rows``, ``planned``; not ``TableSession``)."""
    parts = re.findall(r"[A-Z]{2,}(?![a-z])|[A-Z]?[a-z0-9]+", name)
    return any(part.lower().startswith(word) for part in parts)


def _python_files() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*") if p.suffix in (".py", ".pyi"))


def test_the_scans_read_the_package() -> None:
    """The scans see the package (so that an empty scan cannot pass): the words' allowed
    names are found where they are defined."""
    defined = {name for path in _python_files() for name in _defined(ast.parse(path.read_text(encoding="utf-8")))}
    assert {"SettlementPlan", "plan_for", "LogReader", "RankingTables", "tables_for", "ShoeTerms", "Lookups",
            "Tallier", "EndedShoe", "Shoe", "VectorTable", "TableParams", "ReportSheet", "print_sheet",
            "html_sheet"} <= defined
    assert list(PACKAGE.glob("csrc/*.h")) and list(PACKAGE.glob("csrc/*.pxi"))


@pytest.mark.parametrize("word", sorted(ALLOWED))
def test_python_names_keep_the_word_to_one_sense(word: str) -> None:
    found = {}
    for path in _python_files():
        for name in _defined(ast.parse(path.read_text(encoding="utf-8"))):
            if _has(name, word) and name not in ALLOWED[word]:
                found[name] = str(path.relative_to(PACKAGE))
    assert not found, f"names with '{word}' in another sense than its one (docs/architecture.md): {found}"


def test_only_the_dealing_procedure_is_a_shoe() -> None:
    """``Shoe`` is the dealing shoe (``_spec.procedure``); other classes of a shoe say which."""
    found = [str(path.relative_to(PACKAGE)) for path in _python_files()
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if isinstance(node, ast.ClassDef) and node.name == "Shoe"]
    assert found == ["_spec/procedure.py"]


@pytest.mark.parametrize("word", sorted(C_ALLOWED))
def test_c_identifiers_keep_the_word_to_one_sense(word: str) -> None:
    found = {}
    for pattern in C_SOURCES:
        for path in PACKAGE.rglob(pattern):
            for name in set(re.findall(r"\b\w*" + word + r"\w*\b", path.read_text(encoding="utf-8"), re.IGNORECASE)):
                if _has(name, word) and name not in C_ALLOWED[word]:
                    found[name] = str(path.relative_to(PACKAGE))
    assert not found, f"C identifiers with '{word}' in another sense than its one: {found}"


def test_module_names_keep_one_sense() -> None:
    """Modules and sources: "plan" only the settlement plan's, no "reader" (a record is
    parsed, a log read by ``verify``), no "tables" (lookups; a gaming table is ``_table``)."""
    stems = {p.relative_to(PACKAGE).with_suffix("").as_posix() for p in PACKAGE.rglob("*")
             if p.suffix in (".py", ".pyi", ".pxi", ".pyx", ".pxd", ".h")}
    assert [s for s in stems if "plan" in s.rsplit("/", 1)[-1]] == ["_settlement_plan"]
    assert [s for s in stems if re.search("reader|tables", s.rsplit("/", 1)[-1])] == []


RETIRED_TABLES = {"ReportTable", "print_table", "html_table", "_md_table", "_html_table", "_bet_table"}
"""Names that gave "table" a sense other than the gaming table's: a report's sheet of text,
the analyses of the bets (``_bet_analyses``)."""


def test_the_retired_names_of_table_are_gone() -> None:
    """No module defines a retired name (``mathreport.ReportTable`` is only the module's
    deprecated alias, answered by its ``__getattr__``)."""
    found = {name: str(path.relative_to(PACKAGE)) for path in _python_files()
             for name in _defined(ast.parse(path.read_text(encoding="utf-8"))) if name in RETIRED_TABLES}
    assert not found


def _report() -> object:
    from sanggong.mathreport import report

    return report("macau", decks=(1,))


def _plan() -> object:
    from sanggong.rules import MACAU
    from sanggong.settlement import plan_for

    return plan_for(MACAU, ("win:1", "tie:2"))


def _shuffle_result() -> object:
    from sanggong.shuffletest import shuffle_test

    return shuffle_test("online", shoes=50, seed=1)


def _count_stats() -> object:
    from sanggong.shoe import CountPlay, play_shoes

    played = play_shoes("online", 4, CountPlay(tags={"A": 1}), seed=2, bets=["tie:1"])
    return played["tie:1"].count


@pytest.mark.parametrize(("make", "old", "new", "what"), [
    (_report, "tables", "sheets", "sanggong.mathreport.MathReport"),
    (_plan, "table", "outcome_codes", "sanggong.settlement.SettlementPlan"),
    (_count_stats, "table", "bins", "sanggong.shoe.CountStats"),
])
def test_the_retired_senses_of_table_are_deprecated_aliases(make: object, old: str, new: str, what: str) -> None:
    """A report's ``tables`` (now its sheets), a settlement plan's ``table`` (its outcome
    codes) and a count's ``table`` (its bins of the true count): each old name warns and
    gives what the new one gives."""
    assert callable(make)
    made = make()
    with pytest.warns(DeprecationWarning, match=f"{what}.{old} is deprecated: use {what}.{new}"):
        alias = getattr(made, old)
    assert alias is getattr(made, new)


def test_the_shuffle_tests_table_is_its_sheet() -> None:
    result = _shuffle_result()
    with pytest.warns(DeprecationWarning, match="ShuffleTestResult.table is deprecated: use "
                                                "sanggong.shuffletest.ShuffleTestResult.sheet"):
        old = result.table()  # type: ignore[attr-defined]
    assert old == result.sheet() == str(result)  # type: ignore[attr-defined]


def test_the_report_sheet_old_name_warns_and_gives_the_new() -> None:
    import sanggong.mathreport as mathreport

    with pytest.warns(DeprecationWarning, match="sanggong.mathreport.ReportTable is deprecated: use "
                                                "sanggong.mathreport.ReportSheet"):
        alias = mathreport.ReportTable  # type: ignore[attr-defined]
    assert alias is mathreport.ReportSheet
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert mathreport.ReportSheet is not None and _report().sheets  # type: ignore[attr-defined]
    with pytest.raises(AttributeError, match="no attribute 'ReportTables'"):
        _ = mathreport.ReportTables  # type: ignore[attr-defined]


@pytest.mark.parametrize(("old", "new"), [("ShoePlan", "ShoeTerms"), ("shoe_plan", "shoe_terms")])
def test_the_shoe_terms_old_names_warn_and_give_the_new(old: str, new: str) -> None:
    import sanggong.shoe as shoe

    with pytest.warns(DeprecationWarning, match=f"sanggong.shoe.{old} is deprecated: use sanggong.shoe.{new}"):
        alias = getattr(shoe, old)
    assert alias is getattr(shoe, new)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert getattr(shoe, new) is not None  # the new name: no warning
    with pytest.raises(AttributeError, match="no attribute 'ShoePlans'"):
        _ = shoe.ShoePlans  # type: ignore[attr-defined]
