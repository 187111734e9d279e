"""The implementation selector and the promise that the compiled core is in use."""

from __future__ import annotations

import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import sanggong
from sanggong._kernels import FALLBACK_COST, extensions_disabled


def test_compiled_core_is_used_unless_disabled() -> None:
    """Fails the suite when the extension did not build or did not load (the import
    falls back to the reference silently, so this is where a broken build shows)."""
    if extensions_disabled():
        pytest.skip("SANGGONG_NO_EXTENSIONS asks for the reference")  # never set by .ci/run
    assert sanggong.IMPLEMENTATION == "cython"


@pytest.mark.parametrize(
    ("value", "disabled"),
    [("1", True), ("true", True), ("YES", True), (" on ", True), ("0", False), ("", False),
     ("false", False), ("off", False), ("No", False)],
)
def test_environment_switch(value: str, disabled: bool) -> None:
    """The switch's parsing, independent of the kernels; "0" means off."""
    assert extensions_disabled({"SANGGONG_NO_EXTENSIONS": value}) is disabled
    assert extensions_disabled({}) is False


def test_unknown_switch_value_is_an_error() -> None:
    """An unknown value names itself rather than being guessed at."""
    with pytest.raises(ValueError, match="'maybe'"):
        extensions_disabled({"SANGGONG_NO_EXTENSIONS": "maybe"})


@pytest.mark.parametrize(("value", "expected"), [("1", "python"), ("0", "cython")])
def test_switch_in_a_fresh_interpreter(value: str, expected: str) -> None:
    """The switch is read at import: check it in a new process."""
    env = dict(os.environ, SANGGONG_NO_EXTENSIONS=value)
    code = "import sanggong; print(sanggong.IMPLEMENTATION, sanggong.evaluate('Kh Qs 9d').label)"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == [expected, "2P9"]


# A core that is there but does not load, and a core that is not there. Each case runs in a
# new interpreter (the choice is made once, when sanggong._kernels is first imported), which
# records every warning and prints what it saw as JSON.

PROBE = """
import json, sys, warnings
{prelude}
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")  # a second warning would be recorded, not folded into the first
    import sanggong
    label = sanggong.evaluate("Kh Qs 9d").label
    import sanggong._kernels  # already chosen: no second warning
    implementation = sanggong.IMPLEMENTATION
print(json.dumps({{
    "implementation": implementation,
    "label": label,
    "package": sanggong.__file__,
    "warnings": [[w.category.__name__, str(w.message)] for w in caught if "sanggong" in str(w.message)],
}}))
"""

# Stands in for the import system: the core's import fails with the given error.
BROKEN_IMPORT = """
import importlib.abc
class Broken(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "sanggong._core":
            raise {error}
        return None
sys.meta_path.insert(0, Broken())
"""


def _probe(prelude: str = "", pythonpath: Path | None = None, **environ: str) -> dict[str, Any]:
    env = {key: value for key, value in os.environ.items() if key not in ("SANGGONG_NO_EXTENSIONS", "PYTHONPATH")}
    env.update(environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    code = PROBE.format(prelude=prelude)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=pythonpath)
    assert out.returncode == 0, out.stderr
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def _copy_without_core(tmp_path: Path) -> Path:
    """The installed package's Python modules and stubs (its subpackages' too; the
    package's names are read from ``__init__.pyi``), in tmp_path/sanggong, without the core."""
    package = Path(sanggong.__file__).parent
    target = tmp_path / "sanggong"
    for module in [*package.rglob("*.py"), *package.rglob("*.pyi")]:
        (target / module.relative_to(package)).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(module, target / module.relative_to(package))
    return target


def test_a_core_that_does_not_load_warns_once_and_the_reference_is_used(tmp_path: Path) -> None:
    """A file where the core should be that is no library (a truncated download, another
    platform's build): one RuntimeWarning naming the loader's error, then the reference.
    (Does not depend on the kernels: it runs in a new interpreter.)"""
    package = _copy_without_core(tmp_path)
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    (package / f"_core{suffix}").write_bytes(b"this is not a shared library\n")
    result = _probe(pythonpath=tmp_path)
    assert result["package"] == str(package / "__init__.py")
    assert result["implementation"] == "python"
    assert result["label"] == "2P9"
    [[category, message]] = result["warnings"]
    assert category == "RuntimeWarning"
    assert "the compiled core is present but failed to import (ImportError: " in message
    assert f"_core{suffix}" in message  # the loader's error names the file
    assert f"using the pure-Python reference: {FALLBACK_COST}" in message


@pytest.mark.parametrize(
    ("error", "named"),
    [
        ('ImportError("/x/sanggong/_core.so: undefined symbol: sg_init_state16")',
         "ImportError: /x/sanggong/_core.so: undefined symbol: sg_init_state16"),
        # a module the core needs is missing: not the same as the core missing
        ('ModuleNotFoundError("No module named \'numpy._core._multiarray_umath\'", name="numpy._core._multiarray_umath")',
         "ModuleNotFoundError: No module named 'numpy._core._multiarray_umath'"),
    ],
)
def test_an_import_error_of_the_core_is_named(error: str, named: str) -> None:
    """An undefined symbol, a missing dependency: the warning names the error. (Does not
    depend on the kernels: it runs in a new interpreter.)"""
    result = _probe(BROKEN_IMPORT.format(error=error))
    assert result["implementation"] == "python"
    assert result["label"] == "2P9"
    [[category, message]] = result["warnings"]
    assert category == "RuntimeWarning"
    assert f"failed to import ({named})" in message


def test_a_missing_core_is_silent(tmp_path: Path) -> None:
    """A source tree that was never built: the reference, without a warning, as before.
    (Does not depend on the kernels: it runs in a new interpreter.)"""
    _copy_without_core(tmp_path)
    result = _probe(pythonpath=tmp_path)
    assert result["implementation"] == "python"
    assert result["warnings"] == []
    # ... and the same through the import system's own error for a missing module
    error = 'ModuleNotFoundError("No module named \'sanggong._core\'", name="sanggong._core")'
    result = _probe(BROKEN_IMPORT.format(error=error))
    assert (result["implementation"], result["warnings"]) == ("python", [])


def test_a_core_that_failed_to_build_warns(tmp_path: Path) -> None:
    """setup.py leaves _core_build_failed.txt when it installs the package without its core
    (tests/test_packaging.py builds one): importing it warns, naming the build's error.
    (Does not depend on the kernels: it runs in a new interpreter.)"""
    package = _copy_without_core(tmp_path)
    (package / "_core_build_failed.txt").write_text("sanggong._core: CompileError: command 'cc' failed: No such file\n")
    result = _probe(pythonpath=tmp_path)
    assert result["implementation"] == "python"
    [[category, message]] = result["warnings"]
    assert category == "RuntimeWarning"
    assert ("the compiled core could not be built when sanggong was installed "
            "(sanggong._core: CompileError: command 'cc' failed: No such file)") in message


def test_the_switch_never_tries_the_core(tmp_path: Path) -> None:
    """SANGGONG_NO_EXTENSIONS=1 asks for the reference: a broken core is not even tried, so
    there is nothing to warn about. (Does not depend on the kernels: a new interpreter.)"""
    package = _copy_without_core(tmp_path)
    (package / f"_core{importlib.machinery.EXTENSION_SUFFIXES[0]}").write_bytes(b"not a library\n")
    result = _probe(pythonpath=tmp_path, SANGGONG_NO_EXTENSIONS="1")
    assert (result["implementation"], result["warnings"]) == ("python", [])
