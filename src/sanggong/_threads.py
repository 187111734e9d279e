"""Thread-safety of sanggong's stateful objects: one lock per object, held by each call.

``Game``, ``TableSession``, ``ObservedTable``, ``Replayer``, ``Resettler``,
``ShoeEvaluator`` and ``VectorTable`` are safe to share between threads: every public method that reads or
changes the object's state runs under the object's own re-entrant lock (``locked``), so
concurrent calls take effect one at a time, in the order they take the lock, each seeing
the state the one before left. Nothing is ever half-updated, no round number is handed
out twice, and no result mixes two states. (On the free-threaded build, where there is
no GIL, the same lock is what keeps them whole.) Results and records are immutable and
may be shared freely.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

__all__ = ["Lockable", "locked", "new_lock"]

P = ParamSpec("P")
R = TypeVar("R")


class Lockable(Protocol):
    _lock: threading.RLock


def new_lock() -> threading.RLock:
    """The lock a stateful object keeps (re-entrant: its methods call one another)."""
    return threading.RLock()


def locked(method: Callable[Concatenate[Any, P], R]) -> Callable[Concatenate[Any, P], R]:
    """Run ``method`` under ``self._lock``."""

    def wrapper(self: Any, /, *args: P.args, **kwargs: P.kwargs) -> R:
        with self._lock:
            return method(self, *args, **kwargs)

    functools.update_wrapper(wrapper, method)  # its name and docstring, for help() and the docs
    return wrapper
