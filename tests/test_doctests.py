"""The docstring examples of every public module and the README's tour run as doctests."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

pytestmark = pytest.mark.kernels  # every test here exercises the kernels: once per implementation

README = Path(__file__).resolve().parent.parent / "README.md"
MODULES = ["sanggong", "sanggong.cards", "sanggong.hands", "sanggong.batch", "sanggong.rules", "sanggong.rules._ruleset",
           "sanggong.rules._presets", "sanggong.settlement", "sanggong.dealing", "sanggong.dealing._game",
           "sanggong.dealing._observed", "sanggong.records", "sanggong.records._record", "sanggong.records._states",
           "sanggong.verify", "sanggong.money", "sanggong.limits", "sanggong.analysis", "sanggong.simulation",
           "sanggong.rounds", "sanggong.shoe", "sanggong.shoe._design", "sanggong.plot", "sanggong.mathreport",
           "sanggong.vector", "sanggong.vector_runs"]


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name: str) -> None:
    if name == "sanggong.plot":
        pytest.importorskip("matplotlib")
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0


def test_readme_doctests() -> None:
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
