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
ALLOWED = {
    "plan": {"SettlementPlan", "plan_for"},  # the settlement plan: what a set of bets pays
    "reader": {"LogReader"},  # reads a log
    "tables": {
        "RankingTables", "tables_for",  # the public face of a ranking's lookup tables (API)
        "_tables",  # hands.HandValue's RankingTables (that public face)
        "MAX_TABLES", "n_tables", "_run_tables",  # gaming tables
        "MAX_DESIGN_TABLES", "pair_plus_tables",  # pay tables
        "tables",  # mathreport.MathReport.tables: a report's tables (public; "not yet one meaning")
    },
}
# Each word's identifiers in C and Cython (comments read as prose: the word itself passes).
C_ALLOWED = {
    "plan": {"plan", "plans", "SettlementPlan"},  # a settlement plan (sg_settlement) and its name
    "reader": {"reader", "LogReader"},
    "tables": {"tables", "n_tables", "tables_for", "RankingTables"},
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
            "Tallier", "EndedShoe", "Shoe"} <= defined
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
