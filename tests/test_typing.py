"""The installed package type-checks under ``mypy --strict`` (py.typed, the .pyi of the core)."""

from __future__ import annotations

import subprocess
import sys


def test_mypy_strict_on_the_installed_package(tmp_path: object) -> None:
    """Static checking does not depend on the kernels in use: run once."""
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "-p", "sanggong"],
        cwd=str(tmp_path),
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
