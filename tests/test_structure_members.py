"""The structure tool's counters of crossing internals (``tools/structure.py``): names taken
from another package's private modules, and private members used from another module. Issue
#35 left none of either, so that what it removed cannot come back. (Sources, not kernels.)"""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent



def _tool() -> Any:
    spec = importlib.util.spec_from_file_location("structure", ROOT / "tools" / "structure.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def figures(request: pytest.FixtureRequest) -> dict[str, Any]:
    if not (ROOT / ".git").exists():
        pytest.skip("the structure tool reads the sources git tracks")
    found: dict[str, Any] = request.getfixturevalue("structure_figures")  # (measured once: tests/conftest.py)
    return found


def test_no_name_is_taken_from_another_packages_private_modules(figures: dict[str, Any]) -> None:
    """(Before issue #35: 22, 17 of them the fast pass's.) Another package is reached
    through its face (``shoe``'s ``play_setup``, ``shuffletest``'s ``write_stream``)."""
    taken = figures["taken"]
    assert figures["names taken from another package's private modules"] == len(taken) == 0, taken


def test_no_private_member_is_used_from_another_module(figures: dict[str, Any]) -> None:
    """(Before issue #35: 14, among them detection's call of the reader's ``_seen_lists``,
    the fast pass's ``game._shoe``, a Game's session's ``_carry``.) The owning module
    gives what another needs a name of its own (``settlement.carry``, ``GameLog``)."""
    uses = figures["member_uses"]
    assert figures["private members used from another module"] == len(uses) == 0, uses


def test_the_counters_see_what_they_count() -> None:
    """The counters on small sources written for them: each pattern counted, and its
    allowed neighbour not."""
    tool = _tool()
    foreign = tool._foreign_private
    assert foreign("sanggong.dealing._writer", "sanggong.verify._fastlog")
    assert foreign("sanggong.records._reader", "sanggong.dealing._game")
    assert not foreign("sanggong._spec", "sanggong.verify._fastlog")  # (the package's shared private module)
    assert not foreign("sanggong.records._reader", "sanggong.records._writer")  # (its own package's)
    assert not foreign("sanggong.records", "sanggong.verify._log")  # (a public face)

    modules = {"sanggong.a", "sanggong.b._x", "sanggong.b", "sanggong.c"}
    taker = tool._Imports("sanggong.c", False, modules)
    taker.visit(ast.parse("from .b._x import f, g\nfrom .b import h\nfrom . import a\n"))
    assert taker.taken == ["sanggong.c: from sanggong.b._x import f", "sanggong.c: from sanggong.b._x import g"]

    owner = ast.parse("class Reader:\n    def _lines(self): ...\n    def _seen(self):\n        self._log = 1\n")
    others = dict.fromkeys(tool._members(owner), "sanggong.b._x")
    assert set(others) == {"_lines", "_seen", "_log"}
    user = ast.parse(
        "from .b import Reader, Game\n"
        "class Files(Reader):\n"
        "    def _lines(self):\n"
        "        return super()._lines()\n"  # counted: a private method of another module's class, overridden
        "def f(reader, game):\n"
        "    reader._seen()\n"  # counted: another module's private member
        "    made = Game()\n"
        "    made._shoe\n"  # counted: an instance of another module's class
        "    reader.seen()\n"  # public: not counted
    )
    own = tool._members(user)
    uses = tool._member_uses("sanggong.c", user, own, others, set(), {"Game": {"_shoe"}})
    assert sorted(uses) == sorted([
        "sanggong.c: super()._lines (sanggong.b._x's)", "sanggong.c: ._seen (sanggong.b._x's)",
        "sanggong.c: made._shoe (an instance of another module's class)"])
