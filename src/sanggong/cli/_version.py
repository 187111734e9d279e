"""``sanggong --version``: the package, the implementation in use, and the CPU it runs on."""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Mapping, Sequence
from typing import Any

from .. import _kernels

# CPU features worth naming for the compiled core, in this order (NumPy's names): x86's SIMD
# levels, ARM's (NEON on 32 bits, ASIMD on 64), and POWER's and IBM Z's vector units.
_CPU_FEATURES = ("SSE2", "SSE41", "SSE42", "AVX", "AVX2", "FMA3", "AVX512F", "NEON", "ASIMD", "SVE", "VSX", "VX")


def _cpu_features() -> list[str] | None:
    """The CPU features of ``_CPU_FEATURES`` this machine has, by NumPy's run-time detection
    (``numpy._core._multiarray_umath.__cpu_features__``; ``numpy.core`` before NumPy 2);
    None where NumPy does not say."""
    for module in ("numpy._core._multiarray_umath", "numpy.core._multiarray_umath"):
        try:
            found = getattr(importlib.import_module(module), "__cpu_features__", None)
        except ImportError:
            continue
        if isinstance(found, Mapping):
            return [name for name in _CPU_FEATURES if found.get(name)]
    return None


def _version_text() -> str:
    """``sanggong --version``: the package, the implementation in use, the CPU."""
    implementation = _kernels.kernels.IMPLEMENTATION
    what = {"cython": "the compiled core", "python": "the pure-Python reference"}.get(implementation)
    if what is None:  # an unknown SANGGONG_NO_EXTENSIONS value
        what = _kernels.CONFIG_ERROR or "unknown"
    try:
        import numpy

        numpy_version = f", NumPy {numpy.__version__}"
    except ImportError:  # pragma: no cover - a dependency
        numpy_version = ""
    features = _cpu_features()
    shown = "unknown" if features is None else " ".join(features) or "none of " + " ".join(_CPU_FEATURES)
    import platform  # (here: a command that prints no version starts without it)

    machine = platform.machine() or "unknown machine"
    from .._about import package_version  # read here: the package metadata costs ~10 ms a start

    return (f"sanggong {package_version()}, implementation {implementation} ({what})\n"
            f"CPU {machine} ({platform.system() or 'unknown system'}), features: {shown} "
            f"(NumPy's run-time detection); Python {platform.python_version()}{numpy_version}")


class Version(argparse.Action):
    """``--version``: print ``_version_text()`` on standard output and exit 0 (worked out
    only when asked for, unlike argparse's own version action)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None) -> None:
        print(_version_text())
        parser.exit()
