"""The README's command-line examples print what the README shows."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from sanggong.cli import main

pytestmark = pytest.mark.kernels  # every test here exercises the kernels: once per implementation

README = Path(__file__).resolve().parent.parent / "README.md"


def _examples() -> list[tuple[str, str]]:
    examples = []
    for block in re.findall(r"```console\n(.*?)```", README.read_text(encoding="utf-8"), re.S):
        for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command, _, output = chunk.partition("\n")
            examples.append((command, output))
    return examples


@pytest.mark.parametrize(("command", "output"), _examples(), ids=lambda x: x[:50])
def test_console_example(command: str, output: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = shlex.split(command)
    assert argv[0] == "sanggong"
    assert main(argv[1:]) == 0
    assert capsys.readouterr().out == output
