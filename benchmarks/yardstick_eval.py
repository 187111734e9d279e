"""Build and load the batch-evaluation yardstick (yardstick_eval.c): the best plain-C loop
for the work of ``sanggong.evaluate_batch(hands)`` (uint8 codes, default ranking, one
thread), compiled with the system C compiler into a temporary shared library and called
through ctypes (which releases the GIL, as the core does).

    from yardstick_eval import load_eval_yardstick, YardstickUnavailable
    evaluate = load_eval_yardstick()      # raises YardstickUnavailable(reason)
    bad = evaluate(hands, rank, pair_plus)  # -1, or the first row holding a bad code
"""

from __future__ import annotations

import ctypes
import functools
import os
import platform
import shutil
import subprocess
import sysconfig
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import numpy.typing as npt

SOURCE = Path(__file__).resolve().parent / "yardstick_eval.c"

EvalYardstick = Callable[[npt.NDArray[np.uint8], npt.NDArray[np.uint8], npt.NDArray[np.uint8]], int]


class YardstickUnavailable(RuntimeError):
    """The yardstick cannot run here; the message says why."""


def _compiler() -> list[str]:
    configured = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    command = configured.split()
    for candidate in (command, ["cc"], ["gcc"], ["clang"]):
        if shutil.which(candidate[0]):
            return candidate
    raise YardstickUnavailable(f"no C compiler found (tried {configured!r}, cc, gcc, clang)")


@functools.cache
def load_eval_yardstick() -> EvalYardstick:
    """The yardstick as a function ``(hands, rank, pair_plus) -> first bad row or -1`` of
    a C-contiguous ``(n, 3)`` uint8 array and two uint8 outputs of length n; compiled once
    a process. Raises YardstickUnavailable where there is no x86-64 CPU with AVX2 or no
    working C compiler (gcc or clang)."""
    if platform.machine().lower() not in {"x86_64", "amd64"}:
        raise YardstickUnavailable(f"the yardstick is AVX2 code, and this machine is {platform.machine()}")
    compiler = _compiler()
    directory = tempfile.mkdtemp(prefix="sanggong-yardstick-")
    try:
        library = Path(directory) / "yardstick_eval.so"
        command = [*compiler, "-O3", "-shared", "-fPIC", "-o", str(library), str(SOURCE)]
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        if result.returncode != 0:
            raise YardstickUnavailable(f"{' '.join(command)} failed:\n{result.stderr.strip()}")
        lib = ctypes.CDLL(str(library))
    finally:
        shutil.rmtree(directory, ignore_errors=True)  # (the loaded library stays mapped)
    if not lib.yardstick_has_avx2():
        raise YardstickUnavailable("this CPU does not run AVX2")
    kernel = lib.yardstick_eval
    kernel.argtypes = [ctypes.c_void_p, ctypes.c_ssize_t, ctypes.c_void_p, ctypes.c_void_p]
    kernel.restype = ctypes.c_ssize_t

    def evaluate(hands: npt.NDArray[np.uint8], rank: npt.NDArray[np.uint8], pair_plus: npt.NDArray[np.uint8]) -> int:
        n = len(hands)
        if hands.dtype != np.uint8 or hands.shape != (n, 3) or not hands.flags.c_contiguous:
            raise ValueError("hands must be a C-contiguous (n, 3) uint8 array")
        for out in (rank, pair_plus):
            if out.dtype != np.uint8 or out.shape != (n,) or not (out.flags.c_contiguous and out.flags.writeable):
                raise ValueError("outputs must be contiguous, writable uint8 arrays of length n")
        if n == 0:
            return -1
        return int(kernel(hands.ctypes.data, n, rank.ctypes.data, pair_plus.ctypes.data))

    return evaluate
