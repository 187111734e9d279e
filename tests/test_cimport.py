"""Other Cython code can ``cimport`` the core's nogil evaluation functions."""

from __future__ import annotations

import itertools
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from sanggong import _reference as ref

PROBE = textwrap.dedent(
    """
    # cython: language_level=3
    from libc.stdint cimport uint8_t
    from sanggong._core cimport hand_rank, hand_pair_plus

    def evaluate_all():
        cdef list out = []
        cdef uint8_t a, b, c, r, p
        for a in range(52):
            for b in range(52):
                for c in range(52):
                    with nogil:
                        r = hand_rank(a, b, c)
                        p = hand_pair_plus(a, b, c)
                    out.append((r, p))
        return out
    """
)

BUILD = textwrap.dedent(
    """
    from Cython.Build import cythonize
    from setuptools import Extension, setup

    setup(
        name="probe",
        ext_modules=cythonize([Extension("probe", ["probe.pyx"])], quiet=True),
        script_args=["build_ext", "--inplace", "--quiet"],
    )
    """
)


@pytest.mark.single_impl
def test_cimport_from_another_extension(tmp_path: Path) -> None:
    """Compiles a small extension against the installed ``sanggong/_core.pxd`` (this
    tests the compiled core's C-level API, so it runs once) and checks every ordered
    triple of codes against the reference."""
    (tmp_path / "probe.pyx").write_text(PROBE)
    (tmp_path / "build_probe.py").write_text(BUILD)
    build = subprocess.run(
        [sys.executable, "build_probe.py"], cwd=tmp_path, capture_output=True, text=True
    )
    assert build.returncode == 0, build.stdout + build.stderr
    sys.path.insert(0, str(tmp_path))
    try:
        import probe  # type: ignore[import-not-found]

        got = probe.evaluate_all()
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("probe", None)
    expected = [
        (ref.default_rank3(a, b, c), ref.pair_plus3(a, b, c))
        for a, b, c in itertools.product(range(52), repeat=3)
    ]
    assert got == expected
