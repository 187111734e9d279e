"""Pick the implementation of the kernels: the compiled core, or the pure-Python reference.

``SANGGONG_NO_EXTENSIONS`` set to a true value (``1``, ``true``, ``yes``, ``on``) forces
the reference; unset, empty or a false value (``0``, ``false``, ``no``, ``off``) leaves
the choice to the import; any other value is an error, not a guess: every function that
needs the kernels raises ``ValueError`` naming it (``sanggong.IMPLEMENTATION`` is then
``"unconfigured"``, and the command line exits with status 2). When the compiled core cannot be imported (a platform with no
wheel and no compiler), the reference is used and ``sanggong.IMPLEMENTATION`` says so.

Public modules call ``_impl.kernels.<name>`` at call time, never a copy taken at import,
so the test suite can run every public function against both implementations.
"""

from __future__ import annotations

import os
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
    from . import _reference

    try:
        disabled = extensions_disabled()
    except ValueError as exc:
        CONFIG_ERROR = str(exc)
        return _Unconfigured("sanggong._unconfigured")
    if disabled:
        return _reference
    try:
        from . import _core
    except ImportError:
        return _reference
    return _core


if TYPE_CHECKING:
    from . import _reference as kernels
else:
    kernels: ModuleType = _load()
