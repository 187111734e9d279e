"""The yardstick (yardstick.c): the best plain-C round loops, built with the system C
compiler into a temporary shared library and loaded with ctypes.

    lib = build()                      # None when no C compiler is found
    pairs, single = histograms(4)      # the default ranking's, as simulate_chunk's
    online(lib, np.random.PCG64(1), 1000, pairs, single)

Each loop deals from the bit generator's ``bitgen_t`` exactly as ``_core.simulate_chunk``
deals ONLINE and MACAU (8 decks, 7 positions), so the histograms must be the same for the
same seed; report.py times the project against it.
"""

from __future__ import annotations

import atexit
import ctypes
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np

import sanggong
from sanggong.ranking import DEFAULT_RANKING, tables_for

SOURCE = Path(__file__).resolve().parent / "yardstick.c"
FLAGS = ["-O3", "-fno-strict-aliasing"]  # the core's own (setup.py), no -march: the same code a wheel runs

ONLINE = sanggong.ONLINE
MACAU = sanggong.MACAU.replace(decks=8, positions=7)


def compiler() -> str | None:
    """The C compiler: $CC, else cc, gcc or clang on the PATH, else None."""
    if os.environ.get("CC"):
        return shutil.which(os.environ["CC"].split()[0])
    for name in ("cc", "gcc", "clang"):
        found = shutil.which(name)
        if found:
            return found
    return None


def build(directory: str | None = None) -> ctypes.CDLL | None:
    """Compile yardstick.c into a shared library in ``directory`` (default: a temporary
    one, removed at exit) and load it; None when there is no C compiler (a compiler that
    fails raises)."""
    cc = compiler()
    if cc is None:
        return None
    if directory is None:
        directory = tempfile.mkdtemp(prefix="sanggong-yardstick-")
        atexit.register(shutil.rmtree, directory, True)
    library = os.path.join(directory, "yardstick.so")
    subprocess.run([cc, *FLAGS, "-shared", "-fPIC", "-o", library, str(SOURCE)], check=True,
                   capture_output=True, text=True)
    lib = ctypes.CDLL(library)
    arguments = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64,
                 ctypes.c_void_p, ctypes.c_void_p]
    for name in ("yard_online", "yard_macau"):
        getattr(lib, name).argtypes = arguments
        getattr(lib, name).restype = None
    return lib


def _default_lookups() -> tuple[np.ndarray, np.ndarray, int]:
    source = tables_for(DEFAULT_RANKING)
    state = np.ascontiguousarray(source.state, dtype=np.uint16)
    value = np.ascontiguousarray(source.value, dtype=np.uint16)
    return state, value, int(source.n_classes)


_TABLES: tuple[np.ndarray, np.ndarray, int] | None = None


def histograms(hands: int) -> tuple[np.ndarray, np.ndarray]:
    """Zeroed pairs and single histograms for ``hands`` hands, the default ranking's."""
    n = _tables()[2]
    return np.zeros((hands, n * n), np.uint64), np.zeros((hands, 6 * n), np.uint64)


def _tables() -> tuple[np.ndarray, np.ndarray, int]:
    global _TABLES
    if _TABLES is None:
        _TABLES = _default_lookups()
    return _TABLES


def _run(function: ctypes._CFuncPtr, hands: int, bit_generator: np.random.BitGenerator, rounds: int,
         pairs: np.ndarray, single: np.ndarray) -> None:
    state, value, n = _tables()
    for array, shape in ((pairs, (hands, n * n)), (single, (hands, 6 * n))):
        if array.dtype != np.uint64 or array.shape != shape or not array.flags.c_contiguous:
            raise ValueError(f"histograms must be C-contiguous uint64 of shape {shape}")
    with bit_generator.lock:
        function(bit_generator.ctypes.bit_generator, state.ctypes.data, value.ctypes.data, n, int(rounds),
                 pairs.ctypes.data, single.ctypes.data)


def online(lib: ctypes.CDLL, bit_generator: np.random.BitGenerator, rounds: int, pairs: np.ndarray,
           single: np.ndarray) -> None:
    """``rounds`` ONLINE rounds added to ``pairs`` and ``single`` (4 hands)."""
    _run(lib.yard_online, 4, bit_generator, rounds, pairs, single)


def macau(lib: ctypes.CDLL, bit_generator: np.random.BitGenerator, rounds: int, pairs: np.ndarray,
          single: np.ndarray) -> None:
    """``rounds`` rounds of MACAU with 8 decks and 7 positions from a fresh shoe (8 hands)."""
    _run(lib.yard_macau, 8, bit_generator, rounds, pairs, single)
