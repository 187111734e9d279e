"""Build the Cython core. Metadata lives in pyproject.toml."""

import os
import sys
from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

sys.path.insert(0, str(Path(__file__).resolve().parent / "tools"))
import gen_tables  # noqa: E402  (tools/ is not a package: put it on the path first)

gen_tables.write_header()


def _sanitize_requested() -> bool:
    """SANGGONG_SANITIZE=1 builds the core with ASan and UBSan (tools/sanitize.sh sets it).

    Read strictly: "1" on, "0" or unset off, anything else is an error naming the value,
    so that a typo cannot quietly give an uninstrumented build."""
    value = os.environ.get("SANGGONG_SANITIZE")
    if value is None or value == "0":
        return False
    if value == "1":
        return True
    raise SystemExit(f"SANGGONG_SANITIZE must be '1' or '0' (or unset), not {value!r}")


extra_link_args: list[str] = []
if sys.platform == "win32":
    extra_compile_args = ["/O2"]
    if _sanitize_requested():
        raise SystemExit("SANGGONG_SANITIZE=1 is supported with gcc/clang only, not on Windows")
elif _sanitize_requested():
    # These come after Python's own CFLAGS, and the last -O wins. -fno-wrapv undoes
    # CPython's -fwrapv, under which gcc does not check signed overflow: the kernels must
    # not rely on it (MSVC builds the Windows wheels without any such promise).
    sanitize = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-fno-sanitize-recover=undefined",
                "-O1", "-g"]
    extra_compile_args = [*sanitize, "-fno-strict-aliasing", "-fno-wrapv"]
    extra_link_args = sanitize
else:
    extra_compile_args = ["-O3", "-fno-strict-aliasing"]

extensions = [
    Extension(
        "sanggong._core",
        ["src/sanggong/_core.pyx"],
        include_dirs=["src/sanggong", numpy.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_2_0_API_VERSION")],
        extra_compile_args=extra_compile_args,
        extra_link_args=extra_link_args,
    )
]

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives={"language_level": "3", "embedsignature": True},
    )
)
