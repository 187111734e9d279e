"""Both implementations checked against what a kernel is (``protocol.Kernels``), by mypy
(``mypy --strict -p sanggong``, as the test suite runs it): the compiled core through its
stubs (``_core.pyi``) and the pure-Python twin (``twin``). A kernel missing from either,
or with another signature, fails the type check. Nothing here runs: the module is only
read by the type checker (and importing it costs nothing).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .. import _core
    from . import twin
    from .protocol import Kernels

    _compiled: Kernels[_core.Lookups, _core.ShoeKernel] = _core
    _python: Kernels[twin.Lookups, twin.ShoeKernel] = twin
