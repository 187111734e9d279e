"""Scheduling: work cut into chunks, each chunk seeded on its own, run on threads or any
``concurrent.futures.Executor`` with a bounded number of chunks in flight.

Every chunked entry point (``simulate``, ``simulate_sessions``, ``deal_batch``,
``play_shoes``, ``detect`` over several logs) runs through here, so that its results do
not depend on the workers or the executor (chunk k draws from ``seeds.child(sequence,
k)``), and its memory does not grow with the number of chunks (``execute`` keeps at most
``window`` of them in flight). The arguments of scheduling are checked here too, once for
every entry point: ``workers`` (the batch functions' too), ``executor`` and ``progress``.
Thread-safety: stateless functions; ``execute`` calls ``on_result`` in the calling
thread only.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from .limits import MAX_THREADS
from .seeds import child

if TYPE_CHECKING:  # (imported where an executor is used: verify and the commands start without it)
    from concurrent.futures import Executor, Future

    import numpy as np  # (and NumPy where arrays are: verify starts without it)
    import numpy.typing as npt

__all__ = ["check_executor", "check_progress", "chunks", "execute", "workers"]


def chunks(total: int, chunk_size: int, sequence: np.random.SeedSequence) -> Iterator[tuple[int, np.random.SeedSequence, int]]:
    """``(k, chunk k's seed, its size)`` for ``total`` items cut into chunks of ``chunk_size``."""
    for k in range(-(-total // chunk_size)):
        yield k, child(sequence, k), min(chunk_size, total - k * chunk_size)


def workers(value: int | None) -> int:
    """A ``workers=`` argument: a count of threads (or processes, or chunks in flight on an
    executor) of 1 .. ``MAX_THREADS``; None: every core."""
    if value is None:
        return os.cpu_count() or 1
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_THREADS:
        raise ValueError(f"workers must be a positive int (at most {MAX_THREADS}) or None, got {value!r}")
    return value


def check_executor(executor: object) -> None:
    """An ``executor=`` argument: None (threads of this process) or a
    ``concurrent.futures.Executor`` (e.g. Dask's ``Client.get_executor()``)."""
    if executor is None:
        return
    from concurrent.futures import Executor

    if not isinstance(executor, Executor):
        raise TypeError(f"executor must be a concurrent.futures.Executor, not {type(executor).__name__}")


def check_progress(progress: object) -> None:
    """A ``progress=`` argument: None or a callable (called in the calling thread only)."""
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be callable, not {type(progress).__name__}")


def execute(
    tasks: Iterator[tuple[Any, ...]], run: Callable[..., Any], executor: Executor, window: int,
    on_result: Callable[[Any], None], stop: npt.NDArray[np.uint8] | None,
) -> bool:
    """Run ``run(*task)`` for every task, at most ``window`` at once; returns True when
    interrupted (KeyboardInterrupt), after the running tasks have stopped."""
    from concurrent.futures import FIRST_COMPLETED, wait

    pending: set[Future[Any]] = set()
    interrupted = False
    try:
        for task in tasks:
            while len(pending) >= window:
                finished, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                for future in finished:
                    on_result(future.result())
            pending.add(executor.submit(run, *task))
        while pending:
            finished, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
            for future in finished:
                on_result(future.result())
    except KeyboardInterrupt:
        interrupted = True
        if stop is not None:
            stop[0] = 1
        for future in pending:
            future.cancel()
        for future in pending:  # the running chunks stop within STOP_EVERY rounds
            if not future.cancelled():
                try:
                    on_result(future.result())  # a chunk stopped short still counts
                except (Exception, KeyboardInterrupt):  # noqa: BLE001 - a second Ctrl-C, a progress callback
                    pass
    return interrupted
