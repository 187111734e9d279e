"""Every test runs against both implementations of the kernels.

The ``impl`` fixture is applied to every test and parametrized over ``cython`` and
``python``. For ``cython`` it imports ``sanggong._core`` directly, so a missing or
broken build fails the suite instead of quietly testing the reference twice. It installs
the chosen kernels as ``sanggong._impl.kernels`` (what every public function calls) for
the tests of that parameter, and puts back the import's choice afterwards.

A test marked ``@pytest.mark.single_impl`` runs once, with the compiled core: it tests
something that does not depend on the kernels (and says why in its docstring).

``SANGGONG_TEST_IMPLS=cython`` runs only the compiled core's half (the sanitizer run,
``tools/sanitize.sh``, whose instruments see only the compiled core); unset, both.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterator
from types import ModuleType

import pytest

import sanggong._impl as _impl

MODULES = {"cython": "sanggong._core", "python": "sanggong._pykernels"}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "single_impl: run once, not once per implementation")
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


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "impl" in metafunc.fixturenames:
        names = ["cython"] if metafunc.definition.get_closest_marker("single_impl") else _implementations()
        metafunc.parametrize("impl", names, indirect=True, scope="session")


@pytest.fixture(autouse=True, scope="session")
def impl(request: pytest.FixtureRequest) -> Iterator[ModuleType]:
    module = importlib.import_module(MODULES[request.param])
    assert module.IMPLEMENTATION == request.param
    chosen = _impl.kernels
    _impl.kernels = module
    try:
        yield module
    finally:
        _impl.kernels = chosen
