from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from sanggong import evaluate
from sanggong.cli import main


@pytest.mark.kernels
def test_eval_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "Kh", "Qs", "9d"]) == 0
    out = capsys.readouterr().out
    assert out == "Kh Qs 9d: 2P9 (rank 29, points 9, faces 2, pair plus: none)\n"
    assert main(["eval", "Jh", "Qd", "Ks"]) == 0  # a tier's hand names its tier
    assert capsys.readouterr().out == "Jh Qd Ks: 3P (rank 30, tier three_faces, points 0, faces 3, pair plus: straight)\n"


@pytest.mark.kernels
def test_eval_one_argument_and_symbols(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "Q♥ K♥ A♥"]) == 0
    assert "2P1" in capsys.readouterr().out


@pytest.mark.kernels
def test_eval_json_matches_the_api(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--json", "10h", "Jh", "Qh"]) == 0
    data = json.loads(capsys.readouterr().out)
    hand = evaluate("Th Jh Qh")
    assert data == {
        "cards": ["Th", "Jh", "Qh"],
        "label": hand.label,
        "rank": hand.rank,
        "tier": None,
        "points": hand.points,
        "faces": hand.faces,
        "pair_plus": hand.pair_plus.label,
        "rules": "macau",
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


def test_usage_errors_exit_2_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, needle in [(["eval"], "the following arguments are required: CARD"),
                         (["nonsense"], "invalid choice: 'nonsense'"),
                         (["deal", "--rounds", "0"], "'0' is not a positive whole number"),
                         (["deal", "--rounds", "99999999999999999999"], "more than the limit of 1,000,000"),
                         (["deal", "--decks", "1000"], "more than the limit of 64"),
                         (["simulate", "--seed", "-1"], "is not a seed")]:
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert len(err.splitlines()) == 1 and needle in err, (argv, err)


@pytest.mark.parametrize("text", ["1000000", "1,000,000", "1_000_000", "1e6", "1E6", "1.5e6"])
def test_counts_are_read_as_people_write_them(text: str) -> None:
    from sanggong.cli._options import count

    assert count(10**7)(text) == (1_500_000 if text == "1.5e6" else 1_000_000)


@pytest.mark.parametrize("text", ["1,00,000", "1e-6", "1.5e0", "0x10", "1__0", "-5", "1e999", "nan", ""])
def test_counts_refuse_anything_else(text: str) -> None:
    import argparse

    from sanggong.cli._options import count

    with pytest.raises(argparse.ArgumentTypeError):
        count(10**7)(text)


@pytest.mark.parametrize(
    ("stake", "needle"),
    [("1e999999", "is not an amount"), ("NaN", "is not an amount"), ("Infinity", "is not an amount"),
     ("-5", "must be positive"), ("1" * 30, "is not an amount"), ("0", "must be positive"),
     ("10000000000000001", "beyond the largest stake")],
)
def test_bad_stakes_exit_2_with_one_line(stake: str, needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["settle", "--rules", "online", "--banker", "Kh Qs 9d", "--hand", "1=As 2d 3c", "--bet", f"win:1={stake}"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and needle in err and "Traceback" not in err


def test_a_bad_environment_value_exits_2_with_one_line() -> None:
    import os

    env = dict(os.environ, SANGGONG_NO_EXTENSIONS="maybe")
    out = subprocess.run(["sanggong", "eval", "Kh", "Qs", "9d"], env=env, capture_output=True, text=True)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.splitlines() == [
        "sanggong eval: error: SANGGONG_NO_EXTENSIONS='maybe' is not understood "
        "(use 1 to force pure Python, 0 or unset for the compiled core)"
    ]


def test_installed_entry_points() -> None:
    """The console script and ``python -m sanggong`` (not the kernels) work."""
    for command in (["sanggong"], [sys.executable, "-m", "sanggong"]):
        ok = subprocess.run([*command, "eval", "--json", "Kh", "Qs", "9d"], capture_output=True, text=True)
        assert ok.returncode == 0, ok.stderr
        assert json.loads(ok.stdout)["label"] == "2P9"
        bad = subprocess.run([*command, "eval", "Kx", "Qs", "9d"], capture_output=True, text=True)
        assert bad.returncode == 2 and bad.stdout == ""
        assert bad.stderr.strip().count("\n") == 0 and "'Kx'" in bad.stderr


@pytest.mark.kernels
def test_settle_text(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["settle", "--rules", "online", "--banker", "Kh Qs 9d", "--hand", "1=As 2d 3c",
            "--bet", "win:1=100", "--bet", "pair_plus:1=10"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "hand 1:  As 2d 3c  6  (straight)" in out
    assert "staked 110, returned 70, commission 0, carried 0, house net 40" in out


@pytest.mark.kernels
def test_settle_json_matches_the_api(capsys: pytest.CaptureFixture[str]) -> None:
    from sanggong import MACAU, settle

    argv = ["settle", "--banker", "9c 9d 5h", "--hand", "1=Kh Qs 9d", "--hand", "2=9h 9s 5c",
            "--bet", "win:1=101", "--bet", "win:2=100", "--bet", "tie:2=5", "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    expected = settle(MACAU, "9c 9d 5h", {1: "Kh Qs 9d", 2: "9h 9s 5c"}, {"win:1": 101, "win:2": 100, "tie:2": 5})
    assert data == json.loads(json.dumps(expected.to_dict()))
    assert [b["outcome"] for b in data["bets"]] == ["win", "carried", "win"]


@pytest.mark.kernels
def test_settle_decimal_stakes_and_rules_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from sanggong import MACAU

    table = tmp_path / "table.toml"
    MACAU.replace(name="three percent", commission=Fraction(3, 100)).save(table)
    argv = ["settle", "--rules-file", str(table), "--banker", "9c 9d 5h", "--hand", "1=Kh Qs 9d",
            "--bet", "win:1=10.00", "--unit", "major", "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rules"] == "three percent" and data["bets"][0]["returned"] == "19.70"


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        (["--bet", "win:1=1.5x"], "'1.5x' is not an amount"),
        (["--bet", "win:1=-5"], "must be positive"),
        (["--bet", "lose:1=5"], "unknown bet 'lose:1'"),
        (["--bet", "win:1"], "expected NAME=VALUE"),
        (["--bet", "win:1=5", "--bet", "win:1=6"], "given twice"),
        (["--hand", "x=Kh Qs 9d", "--bet", "odd=5"], "'x' is not a position"),
        (["--hand", "2=Kh Qs 1d", "--bet", "odd=5"], "'1d' is not a card"),
        (["--hand", "1=As 2s 3s", "--bet", "odd=5"], "position 1 is given twice"),
        (["--hand", "01=As 2s 3s", "--bet", "odd=5"], "'01' is not a position number (write it as 1)"),
        (["--banker", "As 2s 3s", "--bet", "odd=5"], "--banker is given twice"),
        (["--rules-file", "/nonexistent/table.toml", "--bet", "odd=5"], "No such file"),
        ([], "no bets"),
    ],
)
@pytest.mark.kernels
def test_settle_bad_input_exits_2(extra: list[str], needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["settle", "--banker", "9c 9d 5h", "--hand", "1=Kh Qs 9d", *extra]) == 2
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert captured.out == "" and len(lines) == 1 and needle in lines[0]


@pytest.mark.kernels
def test_analyze_json_matches_the_api(capsys: pytest.CaptureFixture[str]) -> None:
    from sanggong import MACAU, analyze

    assert main(["analyze", "--rules", "macau", "--decks", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    expected = analyze(MACAU.replace(decks=1))
    assert data["rules"] == "macau" and data["decks"] == 1
    assert [b["bet"] for b in data["bets"]] == list(expected.bets)
    for bet in data["bets"]:
        assert Fraction(bet["ev_exact"]) == expected[bet["bet"]].ev_exact
        assert set(bet) >= {"ev", "house_edge", "sd", "outcomes"}


@pytest.mark.kernels
def test_analyze_text_remove_and_eor(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["analyze", "--rules", "online", "--remove", "Kh Qs 9d 9c"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("rules: online, 1 deck, 48 cards, less Kh Qs 9d 9c")
    assert "house edge" in out and "pair_plus:banker" in out
    from sanggong import ONLINE, _kernels

    if _kernels.kernels.IMPLEMENTATION == "cython":  # (the reference's removal sums take seconds: tested in test_analysis)
        assert main(["analyze", "--rules", "online", "--eor"]) == 0
        assert "tags" in capsys.readouterr().out

    table = tmp_path / "table.json"
    ONLINE.replace(name="rich flush", pair_plus_pays={**ONLINE.pair_plus_pays, "flush": 4}).save(table)
    assert main(["analyze", "--rules-file", str(table), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rules"] == "rich flush"
    assert main(["analyze", "--remove", "Kh Kh Kh Kh Kh Kh Kh Kh Kh"]) == 2
    assert "cannot remove Kh" in capsys.readouterr().err


# --- records: deal a log, verify it, catch an edit ---------------------------------------------


def _deal_log(tmp_path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> Path:
    assert main(["deal", "--rules", "macau", "--decks", "2", "--rounds", "40", "--seed", "11", "--json", *extra]) == 0
    log = tmp_path / "log.jsonl"
    log.write_text(capsys.readouterr().out, encoding="utf-8")
    return log


@pytest.mark.kernels
def test_deal_writes_a_log_that_verifies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = _deal_log(tmp_path, capsys)
    lines = log.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 41 and all(json.loads(line)["round"] == k for k, line in enumerate(lines[:-1], 1))
    assert json.loads(lines[-1])["type"] == "seal"  # the log's last line: its seal
    assert main(["verify", str(log)]) == 1  # the records name macau, but were dealt from 2 decks
    assert "give the rules" in capsys.readouterr().out
    assert main(["verify", "--decks", "2", str(log)]) == 2
    assert "name it with --rules" in capsys.readouterr().err
    assert main(["verify", "--rules", "macau", "--decks", "2", str(log)]) == 0
    out = capsys.readouterr().out
    assert len(out.splitlines()) == 1 and out.startswith("ok")
    assert main(["verify", "--rules", "macau", "--decks", "2", "--json", str(log)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is True and report["records"] == 41 and report["sealed"] is True and report["replayed"] is True


@pytest.mark.kernels
def test_verify_names_the_first_edited_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = _deal_log(tmp_path, capsys)
    lines = log.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[16])
    record["seed"] = 12  # an edited seed: the replay no longer deals these cards
    lines[16] = json.dumps(record)
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["verify", "--rules", "macau", "--decks", "2", str(log)]) == 1
    out = capsys.readouterr().out
    assert len(out.splitlines()) == 1 and "line 17" in out


@pytest.mark.kernels
def test_signed_logs_need_the_right_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key, other, empty = tmp_path / "key", tmp_path / "other", tmp_path / "empty"
    key.write_bytes(b"operator secret\n")
    other.write_bytes(b"another secret")
    empty.write_bytes(b"\n")
    log = _deal_log(tmp_path, capsys, "--key-file", str(key))
    macau2 = ["--rules", "macau", "--decks", "2"]
    assert main(["verify", *macau2, "--key-file", str(key), str(log)]) == 0
    capsys.readouterr()
    assert main(["verify", *macau2, "--key-file", str(other), str(log)]) == 1
    assert "line 1" in capsys.readouterr().out
    unsigned = _deal_log(tmp_path, capsys)
    assert main(["verify", *macau2, "--key-file", str(key), str(unsigned)]) == 1
    capsys.readouterr()
    for argv in (["verify", "--key-file", str(empty), str(log)], ["verify", str(tmp_path / "missing.jsonl")],
                 ["deal", "--key-file", str(tmp_path / "missing"), "--json"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert len(err.splitlines()) == 1 and "Traceback" not in err
