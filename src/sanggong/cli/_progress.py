"""The command line's progress bars: tqdm's, imported only where one is shown.

Importing tqdm costs a command's start some 30 ms (it reads its own version through
``importlib.metadata``), and most runs show no bar: standard error is a file or a pipe, or
``--json`` asked for none. ``tqdm`` here takes tqdm's arguments and makes the same
decision tqdm makes (``disable=True``, or ``disable=None`` and a ``file`` that says it is
no terminal); where no bar would be shown it returns ``NoBar``, which does what a
disabled tqdm does (nothing) without importing tqdm.
"""

from __future__ import annotations

from typing import Any

__all__ = ["NoBar", "tqdm"]


class NoBar:
    """A progress bar that shows nothing: a disabled tqdm's ``total``, ``n``, ``update``
    and ``close``, the parts the commands use."""

    disable = True

    def __init__(self, total: float | None = None, initial: float = 0) -> None:
        self.total = total
        self.n = initial

    def update(self, n: float | None = 1) -> None:
        """Nothing to show (a disabled tqdm counts nothing either)."""

    def close(self) -> None:
        """Nothing to close."""


def tqdm(*, file: Any, disable: bool | None = False, total: float | None = None, initial: float = 0,
         **kwargs: Any) -> Any:
    """``tqdm.tqdm(file=file, disable=disable, total=total, initial=initial, **kwargs)``,
    or a ``NoBar`` where that bar would be disabled (tqdm's own test, ``tqdm.std``)."""
    if disable or (disable is None and hasattr(file, "isatty") and not file.isatty()):
        return NoBar(total, initial)
    from tqdm import tqdm as shown

    return shown(file=file, disable=disable, total=total, initial=initial, **kwargs)
