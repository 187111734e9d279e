"""The package's import structure, as ``tools/structure.py`` counts it: no import circle,
at run time or with the ``TYPE_CHECKING`` imports counted, no import back up, no module
importing another's private name, and the kernels' boundary (``sanggong._kernels``)
importing nothing above it."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent

# What the kernels' boundary may import: the specification, the limits, the log lines'
# slots (which the core reads too) and the compiled core.
BELOW_THE_KERNELS = ("sanggong._kernels", "sanggong._spec", "sanggong.limits", "sanggong._logline", "sanggong._core")


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("_structure_tool", ROOT / "tools" / "structure.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def figures(structure_figures: dict[str, Any]) -> dict[str, Any]:
    """The tool's figures, measured once (tests/conftest.py)."""
    return structure_figures


def test_no_import_circle_and_nothing_imports_the_package_back(figures: dict[str, Any]) -> None:
    assert figures["import circles"] == 0, figures["circles"]
    assert figures["imports back up"] == 0, figures["back_up"]
    assert figures["type-only imports back up"] == 0, figures["type_back_up"]


def test_no_type_only_circle_and_no_private_import_across_modules(figures: dict[str, Any]) -> None:
    """None since issue #35: a module that reads another's type without importing it at run
    time names what it reads (a ``Protocol``), and a private name is its module's own."""
    assert figures["import circles, type-only imports counted"] == 0, figures["typed_circles"]
    assert figures["cross-module private imports"] == 0, figures["private"]


def test_the_kernels_import_nothing_above_them() -> None:
    """The boundary knows no public module: what the kernels read of a ranking's tables or
    a settlement plan is a protocol of its own (``_kernels.protocol``)."""
    _, typed = _tool().import_graphs()
    kernels = {m for m in typed if m.startswith("sanggong._kernels")}
    assert "sanggong._kernels.twin" in kernels and "sanggong._kernels.protocol" in kernels
    above = {f"{m} -> {t}" for m in kernels for t in typed[m] if not t.startswith(BELOW_THE_KERNELS)}
    assert not above, sorted(above)


def test_the_type_only_count_sees_type_checking_imports(tmp_path: Path) -> None:
    """The counter's own check: a circle made only of ``TYPE_CHECKING`` imports is counted
    with them and not without them."""
    tool = _tool()
    package = tmp_path / "src" / "sanggong"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import B\n")
    (package / "b.py").write_text("from . import a\n")
    tool.PACKAGE = package
    runtime, typed = tool.import_graphs()
    assert tool._circles(runtime) == []
    assert tool._circles(typed) == [["sanggong.a", "sanggong.b"]]
