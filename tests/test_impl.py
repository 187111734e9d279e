"""The implementation selector and the promise that the compiled core is in use."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import sanggong
from sanggong._impl import extensions_disabled


@pytest.mark.single_impl
def test_compiled_core_is_used_unless_disabled() -> None:
    """Fails the suite when the extension did not build or did not load (the import
    falls back to the reference silently, so this is where a broken build shows)."""
    if extensions_disabled():
        pytest.skip("SANGGONG_NO_EXTENSIONS asks for the reference")  # never set by .ci/run
    assert sanggong.IMPLEMENTATION == "cython"


@pytest.mark.single_impl
@pytest.mark.parametrize(
    ("value", "disabled"),
    [("1", True), ("true", True), ("YES", True), (" on ", True), ("0", False), ("", False),
     ("false", False), ("off", False), ("No", False)],
)
def test_environment_switch(value: str, disabled: bool) -> None:
    """The switch's parsing, independent of the kernels; "0" means off."""
    assert extensions_disabled({"SANGGONG_NO_EXTENSIONS": value}) is disabled
    assert extensions_disabled({}) is False


@pytest.mark.single_impl
def test_unknown_switch_value_is_an_error() -> None:
    """An unknown value names itself rather than being guessed at."""
    with pytest.raises(ValueError, match="'maybe'"):
        extensions_disabled({"SANGGONG_NO_EXTENSIONS": "maybe"})


@pytest.mark.single_impl
@pytest.mark.parametrize(("value", "expected"), [("1", "python"), ("0", "cython")])
def test_switch_in_a_fresh_interpreter(value: str, expected: str) -> None:
    """The switch is read at import: check it in a new process."""
    env = dict(os.environ, SANGGONG_NO_EXTENSIONS=value)
    code = "import sanggong; print(sanggong.IMPLEMENTATION, sanggong.evaluate('Kh Qs 9d').label)"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == [expected, "2P9"]
