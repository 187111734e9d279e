"""Running the command line in-process in tests: ``run`` for a command that must succeed,
``fails`` for one that must exit 2 with one line naming what is wrong."""

from __future__ import annotations

import pytest

from sanggong.cli import main


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """``sanggong argv``: exit 0, nothing on standard error; its standard output."""
    status = main(argv)
    captured = capsys.readouterr()
    assert status == 0, (argv, captured.err)
    assert captured.err == "", (argv, captured.err)
    return captured.out


def fails(argv: list[str], needle: str, capsys: pytest.CaptureFixture[str], status: int = 2,
          prog: str | None = None) -> str:
    """``sanggong argv``: exit ``status`` (2) with one line on standard error (``sanggong
    CMD: error: ...``, ``prog`` naming a nested command such as ``rules show``) holding
    ``needle``, nothing on standard output, never a traceback."""
    assert main(argv) == status
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith(f"sanggong {prog or argv[0]}: error:"), lines[0]
    assert needle in lines[0], lines[0]
    assert "Traceback" not in captured.err
    return lines[0]
