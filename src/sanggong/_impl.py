"""Pick the implementation of the kernels: the compiled core, or the pure-Python reference.

``SANGGONG_NO_EXTENSIONS`` set to a true value (``1``, ``true``, ``yes``, ``on``) forces
the reference; unset, empty or a false value (``0``, ``false``, ``no``, ``off``) leaves
the choice to the import. When the compiled core cannot be imported (a platform with no
wheel and no compiler), the reference is used and ``sanggong.IMPLEMENTATION`` says so.

Public modules call ``_impl.kernels.<name>`` at call time, never a copy taken at import,
so the test suite can run every public function against both implementations.
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import TYPE_CHECKING

__all__ = ["extensions_disabled", "kernels"]

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


def _load() -> ModuleType:
    from . import _reference

    if extensions_disabled():
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
