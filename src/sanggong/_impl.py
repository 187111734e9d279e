"""Pick the implementation of the kernels: the compiled core, or its pure-Python twin.

``SANGGONG_NO_EXTENSIONS`` set to a true value (``1``, ``true``, ``yes``, ``on``) forces
the pure-Python reference (``sanggong._pykernels``, the core's twin); unset, empty or a
false value (``0``, ``false``, ``no``, ``off``) leaves the choice to the import; any
other value is an error, not a guess: every function that needs the kernels raises
``ValueError`` naming it (``sanggong.IMPLEMENTATION`` is then ``"unconfigured"``, and the
command line exits with status 2).

When the compiled core is not there, the reference is used and ``sanggong.IMPLEMENTATION``
says so: silently for a source tree that was never built, with one ``RuntimeWarning`` when
the install tried to build the core and could not (``setup.py`` then leaves a note,
``_core_build_failed.txt``, naming the error). A core that is there but fails to import
(an undefined symbol, a wrong architecture, a NumPy it was not built for) warns once,
naming the error, and the reference is used: slower, never a crash.

Public modules call ``_impl.kernels.<name>`` at call time, never a copy taken at import,
so the test suite can run every public function against both implementations.
"""

from __future__ import annotations

import importlib
import os
import warnings
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

__all__ = ["CONFIG_ERROR", "extensions_disabled", "kernels"]

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"", "0", "false", "no", "off"})


def extensions_disabled(environ: os._Environ[str] | dict[str, str] = os.environ) -> bool:
    """Read ``SANGGONG_NO_EXTENSIONS``; an unknown value is an error, not a guess."""
    value = environ.get("SANGGONG_NO_EXTENSIONS", "").strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ValueError(
        f"SANGGONG_NO_EXTENSIONS={value!r} is not understood (use 1 to force pure Python, 0 or unset for the compiled core)"
    )


CONFIG_ERROR: str | None = None
"""Why the kernels could not be chosen (an unknown ``SANGGONG_NO_EXTENSIONS`` value), or None."""


class _Unconfigured(ModuleType):
    """Stands in for the kernels when the switch holds an unknown value: importing
    sanggong still works (so the command line can say what is wrong in one line), and
    every function that needs the kernels raises ``ValueError`` naming the value."""

    IMPLEMENTATION = "unconfigured"

    def __getattr__(self, name: str) -> object:
        raise ValueError(str(CONFIG_ERROR))


def _load() -> ModuleType:
    global CONFIG_ERROR
    from . import _pykernels

    try:
        disabled = extensions_disabled()
    except ValueError as exc:
        CONFIG_ERROR = str(exc)
        return _Unconfigured("sanggong._unconfigured")
    if disabled:
        return _pykernels
    name = f"{__package__}._core"
    try:  # (not `from . import _core`: its error for a missing module is no ModuleNotFoundError)
        core = importlib.import_module(name)
    except ImportError as exc:
        if isinstance(exc, ModuleNotFoundError) and exc.name == name:
            # Not there: a source tree never built (silent), or an install that could not build it.
            if (note := _build_failure_note()) is not None:
                _warn(f"the compiled core could not be built when sanggong was installed ({note})")
        else:  # there, but it does not load (an undefined symbol, a module it needs is missing, ...)
            _warn(f"the compiled core is present but failed to import ({type(exc).__name__}: {exc})")
        return _pykernels
    return core


BUILD_FAILED_NOTE = "_core_build_failed.txt"
"""Left beside the package's modules by ``setup.py`` when the build of the core failed."""


def _build_failure_note() -> str | None:
    """The error ``setup.py`` recorded when it could not build the core, or None."""
    try:
        text = (Path(__file__).parent / BUILD_FAILED_NOTE).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    note = " ".join(text.split()) or "no detail recorded"
    return note if len(note) <= 240 else f"{note[:150]} ... {note[-80:]}"  # a compiler's command line is long


def _warn(what: str) -> None:
    warnings.warn(
        f"sanggong: {what}; using the pure-Python reference, about 500x slower"
        " (set SANGGONG_NO_EXTENSIONS=1 to choose it and silence this warning)",
        RuntimeWarning,
        stacklevel=3,
    )


if TYPE_CHECKING:
    from . import _pykernels as kernels
else:
    kernels: ModuleType = _load()
