"""Build the Cython core. Metadata lives in pyproject.toml.

The core is optional: when it cannot be compiled (no C compiler, no Python headers, a
compiler error), the build prints a banner saying so, records why in
``sanggong/_core_build_failed.txt`` and installs the pure-Python package, which is correct
but hundreds to thousands of times slower (``sanggong._kernels.FALLBACK_COST``). pip shows
a build's output only with ``-v``, so the note is what the user sees: ``sanggong._kernels``
finds it and warns (RuntimeWarning) when it loads the kernels. ``SANGGONG_REQUIRE_CORE=1``
makes such a failure fail the build instead
(the wheels, the tests workflow, ``tools/check_wheel.sh``).

The core's generated headers (limits, table parameters, lookup tables) are committed
sources: ``tools/gen_headers.py`` writes them and checks them (``--check``); the build
only compiles.
"""

import os
import sys
from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, ExecError, PlatformError


def _flag(name: str) -> bool:
    """Read a build switch strictly: "1" on, "0" or unset off, anything else is an error
    naming the value, so that a typo cannot quietly give another build."""
    value = os.environ.get(name)
    if value is None or value == "0":
        return False
    if value == "1":
        return True
    raise SystemExit(f"{name} must be '1' or '0' (or unset), not {value!r}")


def _sanitize_requested() -> bool:
    """SANGGONG_SANITIZE=1 builds the core with ASan and UBSan (tools/sanitize.sh sets it)."""
    return _flag("SANGGONG_SANITIZE")


def _core_required() -> bool:
    """SANGGONG_REQUIRE_CORE=1: a core that does not build fails the build (no fallback).
    A sanitizer build is always required: an uninstrumented fallback would test nothing."""
    return _flag("SANGGONG_REQUIRE_CORE") or _sanitize_requested()


def _fallback_cost() -> str:
    """``sanggong._kernels.FALLBACK_COST``, the one text of what the reference costs, read
    from its assignment (the package cannot be imported before it is built)."""
    import ast

    path = Path(__file__).resolve().parent / "src" / "sanggong" / "_kernels" / "__init__.py"
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["FALLBACK_COST"]:
            return str(ast.literal_eval(node.value))
    raise SystemExit(f"setup.py: no FALLBACK_COST assignment in {path}")


FALLBACK_COST = _fallback_cost()
CORE_REQUIRED = _core_required()  # (read now: a bad value stops every build, not only a failing one)
BUILD_FAILED_NOTE = "_core_build_failed.txt"  # the name sanggong._kernels looks for
# What a missing or failing compiler raises: CCompilerError covers CompileError and
# LinkError, ExecError a compiler that cannot be run, PlatformError no compiler at all
# (MSVC not installed).
BUILD_ERRORS = (CCompilerError, ExecError, PlatformError)


class optional_build_ext(build_ext):  # noqa: N801 (named like the command it replaces)
    """build_ext that installs the pure-Python package when the core cannot be compiled.

    setuptools builds into build_lib and, for --inplace and editable installs, then copies
    the results into the source tree; the note of a failure goes where the core would
    have gone, and a note or a core left there by an earlier build is removed."""

    def run(self) -> None:
        inplace = self.inplace
        for ext in self.extensions:
            for where in {False, inplace}:
                self._path(ext, where).with_name(BUILD_FAILED_NOTE).unlink(missing_ok=True)
        try:
            super().run()
        except BUILD_ERRORS as exc:  # raised before any extension was tried
            self.inplace = inplace  # (setuptools' run() clears it while it builds)
            for ext in self.extensions:
                self._fall_back(ext, exc)
            if inplace:
                self.copy_extensions_to_source()

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except BUILD_ERRORS as exc:
            self._fall_back(ext, exc)

    def copy_extensions_to_source(self) -> None:
        super().copy_extensions_to_source()  # skips an optional extension that was not built
        for ext in self.extensions:
            note = self._path(ext, False).with_name(BUILD_FAILED_NOTE)
            if note.exists():
                self._leave_note(self._path(ext, True), note.read_text(encoding="utf-8"))

    def _path(self, ext: Extension, inplace: bool) -> Path:
        """Where the built extension goes: in build_lib, or in the source tree."""
        saved, self.inplace = self.inplace, inplace
        try:
            return Path(self.get_ext_fullpath(ext.name))
        finally:
            self.inplace = saved

    @staticmethod
    def _leave_note(target: Path, text: str) -> None:
        target.unlink(missing_ok=True)  # no stale core beside the note
        target.parent.mkdir(parents=True, exist_ok=True)
        target.with_name(BUILD_FAILED_NOTE).write_text(text, encoding="utf-8")

    def _fall_back(self, ext: Extension, exc: Exception) -> None:
        if CORE_REQUIRED:
            raise exc
        error = f"{type(exc).__name__}: {exc}"
        ext.optional = True  # (what tells setuptools' in-place copy to skip it)
        self._leave_note(self._path(ext, False), f"{ext.name}: {error}\n")
        bar = "*" * 78
        print(
            f"\n{bar}\n"
            f"sanggong: the compiled core could not be built ({error}); installing the pure-Python reference: {FALLBACK_COST}\n"
            "Install a C compiler (and the Python headers) and reinstall for the compiled\n"
            "core; set SANGGONG_REQUIRE_CORE=1 to make this an error. Until then sanggong warns\n"
            "(RuntimeWarning) when it loads its kernels.\n"
            f"{bar}\n",
            file=sys.stderr,
            flush=True,
        )


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
    # No debug information, and on Linux a stripped symbol table (-s): the core shrinks
    # from 3.1 MB to 0.56 MB, the x86-64 wheel from 1.3 MB to 0.36 MB (its size budget is
    # in pyproject.toml, checked by tools/check_wheel.sh and the wheels workflow). Python's
    # own CFLAGS may hold -g; these come after them, and the last -g wins.
    extra_compile_args = ["-O3", "-fno-strict-aliasing", "-g0"]
    if sys.platform.startswith("linux"):
        extra_link_args = ["-s"]
    elif sys.platform == "darwin":
        extra_link_args = ["-Wl,-S", "-Wl,-x"]  # ld64: no debug notes, no local symbols

# The core is one extension module: _core.pyx includes its kernel families' .pxi files from
# src/sanggong/csrc/, where their C headers are too. The headers are listed as dependencies,
# so that a change to one rebuilds the core (Cython sees only those it includes by name).
CSRC = Path("src/sanggong/csrc")
extensions = [
    Extension(
        "sanggong._core",
        ["src/sanggong/_core.pyx"],
        include_dirs=["src/sanggong", str(CSRC), numpy.get_include()],
        depends=sorted(str(p) for p in (*CSRC.glob("*.h"), *CSRC.glob("*.pxi"))),
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_2_0_API_VERSION")],
        extra_compile_args=extra_compile_args,
        extra_link_args=extra_link_args,
    )
]

setup(
    cmdclass={"build_ext": optional_build_ext},
    ext_modules=cythonize(
        extensions,
        compiler_directives={"language_level": "3", "embedsignature": True},
    )
)
