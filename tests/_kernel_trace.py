"""Which tests exercise a kernel: a pytest plugin that checks the ``kernels`` marks.

    SANGGONG_TEST_IMPLS=cython pytest -p _kernel_trace [-m ""] [tests/...]

puts ``sanggong._kernels.kernels`` behind a recording proxy for the run, records every kernel
each test touches (in forked children too), and at the end lists the tests that touched
a kernel but are not marked ``kernels`` (they would run under one implementation only:
mark them), and the tests marked ``kernels`` that touched none (they could run once).
sanggong's own caches (``functools`` caches of its modules, the ranking tables' aside)
are cleared before each test, so that a result cached by an earlier test cannot hide a
kernel call. A test that installs each implementation itself (the core-vs-twin
agreement tests) touches the kernels and needs no mark: it is expected in the first list.

This is how the marks were made (tests/conftest.py); run it after adding tests.
"""

from __future__ import annotations

import os
import sys
import tempfile
import types
from collections import defaultdict
from typing import Any

import pytest

import sanggong._kernels

_LOG = tempfile.mkstemp(prefix="sanggong-kernel-trace-", suffix=".tsv")[1]
_CURRENT = ["<collection>"]
_SEEN: set[tuple[str, str, int]] = set()


def _record(name: str) -> None:
    key = (_CURRENT[0], name, os.getpid())
    if key in _SEEN:
        return
    _SEEN.add(key)
    fd = os.open(_LOG, os.O_WRONLY | os.O_APPEND)  # one write per line: forked children append safely
    try:
        os.write(fd, f"{_CURRENT[0]}\t{name}\n".encode())
    finally:
        os.close(fd)


class _Recording:
    """The kernels, every attribute read recorded against the running test."""

    __slots__ = ("_real",)

    def __init__(self, real: Any) -> None:
        object.__setattr__(self, "_real", real)

    def __getattr__(self, name: str) -> Any:
        _record(name)
        return getattr(object.__getattribute__(self, "_real"), name)


def _unwrap(value: Any) -> Any:
    while isinstance(value, _Recording):
        value = object.__getattribute__(value, "_real")
    return value


class _TracedImpl(types.ModuleType):
    """``sanggong._kernels`` whose ``kernels`` is read through a ``_Recording`` (and set as usual)."""

    @property
    def kernels(self) -> Any:
        return _Recording(self.__dict__["_traced_kernels"])

    @kernels.setter
    def kernels(self, value: Any) -> None:
        self.__dict__["_traced_kernels"] = _unwrap(value)


def pytest_configure(config: pytest.Config) -> None:
    module = sanggong._kernels
    module.__dict__["_traced_kernels"] = module.__dict__.pop("kernels")
    module.__class__ = _TracedImpl


def _clear_caches() -> None:
    for name, module in list(sys.modules.items()):
        if not name.startswith("sanggong") or module is None or name == "sanggong.ranking":
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear) and getattr(value, "__module__", None) == name:
                clear()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    _CURRENT[0] = item.nodeid
    _clear_caches()
    yield
    _CURRENT[0] = "<between tests>"


def _function(item: pytest.Item) -> str:
    return item.nodeid.split("[", 1)[0]


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    touched: dict[str, set[str]] = defaultdict(set)
    with open(_LOG, encoding="utf-8") as f:
        for line in f:
            nodeid, name = line.rstrip("\n").split("\t")
            touched[nodeid].add(name)
    os.unlink(_LOG)
    items = getattr(config, "_kernel_trace_items", [])
    marked: dict[str, bool] = {}
    hit: dict[str, bool] = defaultdict(bool)
    for item in items:
        function = _function(item)
        marked[function] = marked.get(function, False) or item.get_closest_marker("kernels") is not None
        hit[function] |= bool(touched.get(item.nodeid))
    unmarked = sorted(f for f in marked if hit[f] and not marked[f])
    idle = sorted(f for f in marked if marked[f] and not hit[f])
    write = terminalreporter.write_line
    terminalreporter.section("kernel trace")
    write(f"{len(marked)} test functions run; {sum(hit.values())} touched a kernel")
    write(f"touched a kernel, not marked kernels ({len(unmarked)}): mark them, unless they install each implementation themselves")
    for function in unmarked:
        write(f"  {function}")
    write(f"marked kernels, touched none ({len(idle)}): they could run once (a test taking impl calls it directly: keep)")
    for function in idle:
        write(f"  {function}")


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    session.config._kernel_trace_items = list(session.items)  # type: ignore[attr-defined]
