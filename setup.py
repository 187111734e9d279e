"""Build the Cython core. Metadata lives in pyproject.toml."""

import sys
from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

sys.path.insert(0, str(Path(__file__).resolve().parent / "tools"))
import gen_tables  # noqa: E402  (tools/ is not a package: put it on the path first)

gen_tables.write_header()

if sys.platform == "win32":
    extra_compile_args = ["/O2"]
else:
    extra_compile_args = ["-O3", "-fno-strict-aliasing"]

extensions = [
    Extension(
        "sanggong._core",
        ["src/sanggong/_core.pyx"],
        include_dirs=["src/sanggong", numpy.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_2_0_API_VERSION")],
        extra_compile_args=extra_compile_args,
    )
]

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives={"language_level": "3", "embedsignature": True},
    )
)
