from __future__ import annotations

import json
import subprocess
import sys

import pytest

from sanggong import evaluate
from sanggong.cli import main


def test_eval_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "Kh", "Qs", "9d"]) == 0
    out = capsys.readouterr().out
    assert out == "Kh Qs 9d: 2P9 (points 9, faces 2, pair plus: none)\n"


def test_eval_one_argument_and_symbols(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "Q♥ K♥ A♥"]) == 0
    assert "2P1" in capsys.readouterr().out


def test_eval_json_matches_the_api(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--json", "10h", "Jh", "Qh"]) == 0
    data = json.loads(capsys.readouterr().out)
    hand = evaluate("Th Jh Qh")
    assert data == {
        "cards": ["Th", "Jh", "Qh"],
        "label": hand.label,
        "rank": hand.rank,
        "points": hand.points,
        "faces": hand.faces,
        "pair_plus": hand.pair_plus.label,
    }
    assert data["pair_plus"] == "straight flush"


@pytest.mark.parametrize(
    ("argv", "needle"),
    [(["eval", "1h", "2h", "3h"], "'1h' is not a card"), (["eval", "Kh", "Qs"], "three cards, got 2")],
)
def test_eval_bad_input_exits_2(argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and needle in lines[0] and lines[0].startswith("sanggong eval: error:")


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["eval"])
    assert info.value.code == 2
    with pytest.raises(SystemExit) as info:
        main(["nonsense"])
    assert info.value.code == 2


@pytest.mark.single_impl
def test_installed_entry_points() -> None:
    """The console script and ``python -m sanggong`` (not the kernels) work."""
    for command in (["sanggong"], [sys.executable, "-m", "sanggong"]):
        ok = subprocess.run([*command, "eval", "--json", "Kh", "Qs", "9d"], capture_output=True, text=True)
        assert ok.returncode == 0, ok.stderr
        assert json.loads(ok.stdout)["label"] == "2P9"
        bad = subprocess.run([*command, "eval", "Kx", "Qs", "9d"], capture_output=True, text=True)
        assert bad.returncode == 2 and bad.stdout == ""
        assert bad.stderr.strip().count("\n") == 0 and "'Kx'" in bad.stderr
