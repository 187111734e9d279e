"""The implementations the tests run under, and the suite's Hypothesis profiles.

sanggong's kernels have two implementations: the compiled core (``sanggong._core``) and
its pure-Python twin (``sanggong._kernels.twin``), which must give the same answers. A test
that exercises a kernel (evaluates, compares, ranks, settles, deals, simulates, analyzes,
counts or plays a shoe through the public API, or calls a kernel) is marked ``kernels``
and runs once per implementation: ``@pytest.mark.kernels`` on the test, or
``pytestmark = pytest.mark.kernels`` for a whole module. Every other test (parsing,
arguments refused before any kernel runs, the command line's options, files, packaging,
documentation, the typing) cannot tell the two apart and runs once, under the compiled
core. Which tests touch a kernel was measured, not guessed: every test's kernel calls were
recorded once (``sanggong._kernels.kernels`` behind a recording proxy), and a test that
touched one is marked.

The ``impl`` fixture (applied to every test) installs the chosen implementation as
``sanggong._kernels.kernels`` (what every public function calls) for the test, and puts
back the import's choice afterwards; a test that takes ``impl`` as an argument gets the
module. For ``cython`` it imports ``sanggong._core`` directly, so a missing or broken
build fails the suite instead of quietly testing the reference twice.

``SANGGONG_TEST_IMPLS=cython`` runs the ``kernels`` tests under the compiled core only
(the sanitizer run, ``tools/sanitize.sh``, whose instruments see only the compiled core);
unset, under both.
"""

from __future__ import annotations

import gc
import importlib
import importlib.util
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import sanggong._kernels as _kernels

MODULES = {"cython": "sanggong._core", "python": "sanggong._kernels.twin"}
DEFAULT = "cython"


def pytest_configure(config: pytest.Config) -> None:
    _load_hypothesis_profile(config)


def _load_hypothesis_profile(config: pytest.Config) -> None:
    """Hypothesis runs derandomized by default (the README's ``pytest`` gives the same
    examples on every machine, every run: a failure is reproducible, never luck), and
    randomized under ``-m fuzz`` (new examples every run, the examples database kept).
    ``SANGGONG_HYPOTHESIS_PROFILE=default|fuzz`` chooses explicitly. Loaded here, before
    any test module is imported, so every ``settings(...)`` of the suite inherits it. A
    failure a randomized run finds is added to its test as an explicit ``@example``."""
    from hypothesis import settings

    settings.register_profile("default", derandomize=True, database=None, print_blob=True)
    settings.register_profile("fuzz", derandomize=False, print_blob=True)
    chosen = os.environ.get("SANGGONG_HYPOTHESIS_PROFILE", "").strip()
    if not chosen:
        marks = str(config.getoption("markexpr", "") or "")
        chosen = "fuzz" if "fuzz" in marks.replace("not fuzz", "") else "default"
    if chosen not in ("default", "fuzz"):
        raise pytest.UsageError(f"SANGGONG_HYPOTHESIS_PROFILE={chosen!r}: expected 'default' or 'fuzz'")
    settings.load_profile(chosen)


def _implementations() -> list[str]:
    wanted = os.environ.get("SANGGONG_TEST_IMPLS", "").strip()
    if not wanted:
        return list(MODULES)
    names = [name.strip() for name in wanted.split(",")]
    unknown = [name for name in names if name not in MODULES]
    if unknown or not names:
        raise pytest.UsageError(f"SANGGONG_TEST_IMPLS={wanted!r}: expected a comma-separated choice of {list(MODULES)}")
    return names


def pytest_collection_finish(session: pytest.Session) -> None:
    """Move what collection built (every test module, NumPy, hypothesis, the package) out of
    the cyclic garbage collector's sight. A full collection otherwise walks all of it, and
    did so often enough to make an allocating test three to six times slower inside the
    suite than alone (``test_effects_of_removal_balance``: 3.5 s alone, 12-15 s in the
    suite; 1.9 s frozen). Each xdist worker collects, so each freezes its own."""
    gc.collect()
    gc.freeze()


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Before each test, freeze what earlier tests left alive (the package's caches, module
    and session fixtures), for the same reason: the suite 4 min 28 s against 4 min 56 s
    with the freeze after collection alone and 5 min 33 s without (README command, two
    cores, quiet). Frozen objects are still freed by reference counting; only a reference
    cycle alive at a test's start outlives the run (a worker's peak about 1.2 GB). A
    test's own objects are collected as usual while it runs."""
    gc.freeze()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if metafunc.definition.get_closest_marker("kernels"):
        metafunc.parametrize("impl", _implementations(), indirect=True, scope="session")
    elif "impl" in metafunc.definition._fixtureinfo.argnames:
        raise pytest.UsageError(f"{metafunc.definition.nodeid} takes impl: mark it kernels (tests/conftest.py)")


@pytest.fixture(autouse=True, scope="session")
def impl(request: pytest.FixtureRequest) -> Iterator[ModuleType]:
    name = getattr(request, "param", DEFAULT)
    module = importlib.import_module(MODULES[name])
    assert module.IMPLEMENTATION == name
    chosen = _kernels.kernels
    _kernels.kernels = module
    try:
        yield module
    finally:
        _kernels.kernels = chosen


@pytest.fixture(scope="module")
def unlimited_int_repr() -> Iterator[None]:
    """Hypothesis prints (and checks) the values it draws, ints of 30,000 digits
    included: lift Python's limit on int-to-text in this process while a module's tests
    run (the fuzz modules use it). Their children, which call sanggong, run with the
    interpreter's default limit (``tests/_harness.py``)."""
    digits = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(digits)


@pytest.fixture(scope="session")
def structure_figures() -> dict[str, Any]:
    """``tools/structure.py``'s figures of the package (every tracked source parsed: a few
    seconds), measured once for tests/test_structure.py and tests/test_structure_members.py."""
    path = Path(__file__).resolve().parent.parent / "tools" / "structure.py"
    spec = importlib.util.spec_from_file_location("_structure_tool", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    found: dict[str, Any] = module.measure()
    return found
