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

MODULES = {"cython": "sanggong._core", "python": "sanggong._reference"}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "single_impl: run once, not once per implementation")


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
