"""Argument checks that every entry point shares and that no domain module owns: counts
(rounds, shoes, sessions, chunk sizes), flags, and the memory a size will take.

The other kinds of argument have their one check in the module of their concept: a rule
set or a preset's name, ``rules.as_rules``; a seed, ``seeds.check_seed``; a stake,
``money.to_money``; ``workers``, ``executor`` and ``progress``, ``_parallel``. Each
raises ``TypeError`` or ``ValueError`` naming the argument, before any work.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (pathlib is imported where a system figure is read: a command that weighs no size starts without it)
    from pathlib import Path

__all__ = ["NotEnoughMemory", "available_memory", "count", "flag", "memory"]

UNCHECKED_BYTES = 1 << 26
"""Allocations below 64 MiB are not weighed against the memory available: reading the
system's figures costs more than a small call itself (``rank_batch`` of a few hands)."""

_NO_LIMIT = 1 << 62  # a cgroup's "no limit" (v1 writes it as a page-rounded 2**63 - 1)


def count(name: str, value: object, high: int, *, low: int = 1) -> int:
    """An int in ``low..high`` (a bool is not a count), or an error naming it (and never
    printing a huge one's digits)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {value!r}"[:200])
    if not low <= value <= high:
        shown = f"{value:,}" if abs(value) < 10**30 else f"a {value.bit_length()}-bit number"
        raise ValueError(f"{name} must be in {low}..{high:,}, got {shown}")
    return value


def flag(name: str, value: object) -> bool:
    """True or False (not 1, not "yes"), or a TypeError naming it."""
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, not {value!r}"[:200])
    return value


class NotEnoughMemory(MemoryError, ValueError):
    """A call would need more memory than the machine has available: refused before
    anything is allocated, naming the bytes needed and available. A ``MemoryError`` (what
    it is) and a ``ValueError`` (the size asked for is what to change), so that either
    ``except`` catches it; the command line prints it as one line and exits 2."""


def memory(what: str, needed: int, less: str = "less, in several calls") -> int:
    """``needed`` (the bytes ``what`` will allocate), or ``NotEnoughMemory`` naming the
    bytes needed and available and what to ask for instead (``less``), before anything is
    allocated. Not checked below ``UNCHECKED_BYTES``, nor where the memory available is
    unknown."""
    if needed >= UNCHECKED_BYTES:
        available = available_memory()
        if available is not None and needed > available:
            raise NotEnoughMemory(
                f"{what}: {needed:,} bytes of memory needed, {available:,} available on this machine; "
                f"ask for {less}"
            )
    return needed


def available_memory() -> int | None:
    """The bytes this process can still allocate without swapping or being killed, or
    None where no figure is known (no check is then made): the least of the system's
    available memory (Linux ``MemAvailable``; ``GlobalMemoryStatusEx`` on Windows;
    ``sysconf`` on other POSIX systems) and what the process's cgroups (v1 or v2) still
    allow."""
    figures = [_system_available(), _cgroup_available()]
    known = [f for f in figures if f is not None]
    return max(0, min(known)) if known else None


def _read(path: Path) -> str | None:
    try:
        return path.read_text()
    except (OSError, ValueError):
        return None


def _system_available() -> int | None:
    from pathlib import Path

    meminfo = _read(Path("/proc/meminfo"))
    if meminfo is not None:
        for line in meminfo.splitlines():
            if line.startswith("MemAvailable:"):
                fields = line.split()
                if len(fields) >= 2 and fields[1].isdigit():
                    return int(fields[1]) * (1024 if fields[2:] == ["kB"] else 1)
    if sys.platform == "win32":
        return _windows_available()
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):  # not POSIX, or the names are unknown here
        return None


if sys.platform == "win32":
    import ctypes

    class _MemoryStatus(ctypes.Structure):
        _fields_ = [("dwLength", ctypes.c_ulong), ("dwMemoryLoad", ctypes.c_ulong),
                    ("ullTotalPhys", ctypes.c_ulonglong), ("ullAvailPhys", ctypes.c_ulonglong),
                    ("ullTotalPageFile", ctypes.c_ulonglong), ("ullAvailPageFile", ctypes.c_ulonglong),
                    ("ullTotalVirtual", ctypes.c_ulonglong), ("ullAvailVirtual", ctypes.c_ulonglong),
                    ("ullAvailExtendedVirtual", ctypes.c_ulonglong)]

    def _windows_available() -> int | None:
        status = _MemoryStatus()
        status.dwLength = ctypes.sizeof(_MemoryStatus)
        if not ctypes.windll.kernel32.GlobalMemoryStatusEx(ctypes.byref(status)):
            return None
        return min(int(status.ullAvailPhys), int(status.ullAvailVirtual))  # (a 32-bit process's space)


def _cgroup_available() -> int | None:
    """The least any of the process's cgroups (and their ancestors) still allows: its limit
    less what it uses, reclaimable page cache (``inactive_file``) not counted as used."""
    from pathlib import Path

    table = _read(Path("/proc/self/cgroup"))
    if table is None:
        return None
    least: int | None = None
    for line in table.splitlines():
        hierarchy, _, rest = line.partition(":")
        controllers, _, path = rest.partition(":")
        if hierarchy == "0" and not controllers:  # v2
            root, files = Path("/sys/fs/cgroup"), ("memory.max", "memory.current", "inactive_file")
        elif "memory" in controllers.split(","):  # v1
            root, files = Path("/sys/fs/cgroup/memory"), ("memory.limit_in_bytes", "memory.usage_in_bytes",
                                                           "total_inactive_file")
        else:
            continue
        group = root / path.strip().lstrip("/")
        for directory in (group, *group.parents):
            if len(directory.parts) < len(root.parts):
                break
            free = _cgroup_free(directory, *files)
            if free is not None:
                least = free if least is None else min(least, free)
    return least


def _cgroup_free(directory: Path, limit_file: str, usage_file: str, inactive: str) -> int | None:
    limit, usage = _read(directory / limit_file), _read(directory / usage_file)
    if limit is None or usage is None or not limit.strip().isdigit() or not usage.strip().isdigit():
        return None  # no such group here, or "max": no limit
    if int(limit) >= _NO_LIMIT:
        return None
    cache = 0
    for line in (_read(directory / "memory.stat") or "").splitlines():
        name, _, value = line.partition(" ")
        if name == inactive and value.strip().isdigit():
            cache = int(value)
    return int(limit) - max(0, int(usage) - cache)
