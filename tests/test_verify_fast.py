"""verify's fast pass (``sanggong.verify._fastlog``) against the full checks: for good logs and for
logs changed in every field, at every kind of place, the reports are the same, field by
field (which record, which field, why), with the fast pass on and off."""

from __future__ import annotations

import json
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sanggong import MACAU, ONLINE, Game, _kernels
from sanggong.records import record_hash, record_hmac
from sanggong.verify import CheckedRound, CheckedRun, LogReader, VerifyReport, verify_log
from sanggong.verify import _log as verify_module

pytestmark = pytest.mark.kernels  # the fast pass deals and settles through the kernels

KEY = b"operator key"


def _slips(rounds: int, kind: str) -> Iterator[dict[str, Any]]:
    """Slips that change along the log: by player and alone, stakes carried by a tie."""
    money = {"int": lambda n: n, "decimal": lambda n: Decimal(n) / 100}[kind]
    for i in range(rounds):
        if i % 9 == 5:
            yield {}
        elif kind == "int" and i % 5 == 3:
            yield {"ann": {"win:1": money(100 + i), "odd": money(20)}, "bo": {"win:3": money(50), "tie:3": money(10)}}
        else:
            yield {"ann": {"win:1": money(100), "odd": money(20)}, "bo": {"win:3": money(50), "tie:3": money(10)}}


def _log(rules: Any = MACAU, rounds: int = 40, key: bytes | None = None, kind: str = "int", seed: int = 3,
         rng: bool = False) -> list[str]:
    game = Game(rules, rng=np.random.Generator(np.random.PCG64(seed))) if rng else Game(rules, seed, key=key)
    if rng and key is not None:
        game = Game(rules, rng=np.random.PCG64(seed), key=key)
    lines = []
    for slip in _slips(rounds, kind):
        try:
            lines.append(game.play(slip).to_json())
        except ValueError:  # a carried stake the slip would reduce: play the carried stakes alone
            lines.append(game.play({}).to_json())
    return lines


def _both(lines: list[str], **kwargs: Any) -> tuple[VerifyReport, VerifyReport, int]:
    """The report with the fast pass and without it, and how many lines the fast pass took."""
    reader = LogReader(lines, **kwargs)
    fast = reader._run()
    fast_pass = reader._verifier.fast
    taken = 0 if fast_pass is None else fast_pass.accepted
    verify_module._FAST = False
    try:
        full = verify_log(lines, **kwargs)
    finally:
        verify_module._FAST = True
    return fast, full, taken


def _changes(line: str) -> Iterator[str]:
    """Lines a little different from ``line``: every field's value changed at its start,
    a space, the keys in another order, a digit of the hash."""
    data = json.loads(line)
    for name in data:
        at = line.index(f'"{name}":') + len(name) + 3
        char = line[at]
        for new in {"0": "1", "1": "2", "9": "8", '"': ' "', "[": " [", "{": "{ ", "t": "f", "f": "t", "n": "0"}.get(
                char, "x"), :
            yield line[:at] + new + line[at + 1:]
        inner = line.find('"', at + 1)
        if char == '"' and inner > at + 1:  # the first character inside a string
            yield line[:at + 1] + ("A" if line[at + 1] != "A" else "B") + line[at + 2:]
    yield json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)  # the same record
    yield json.dumps(data, ensure_ascii=False)  # with spaces: the same record
    yield line[:-3] + ("0" if line[-3] != "0" else "1") + line[-2:]


@pytest.mark.parametrize("rules", [MACAU, ONLINE], ids=["macau", "online"])
def test_good_logs_are_read_by_the_fast_pass(rules: Any) -> None:
    lines = _log(rules, 60)
    fast, full, taken = _both(lines)
    assert fast == full and fast.ok
    assert taken == 59  # every line but the first (read by the full checks, which start the fast pass)


@pytest.mark.parametrize("half", ["early", "late"])  # (two tests of two places each: one 20 s test was the suite's tail)
@pytest.mark.parametrize("kind", ["int", "decimal"])
@pytest.mark.parametrize("signed", [False, True], ids=["unsigned", "signed"])
def test_changed_lines_are_named_as_the_full_checks_name_them(kind: str, signed: bool, half: str) -> None:
    lines = _log(MACAU, 24, key=KEY if signed else None, kind=kind)
    cases = 0
    twin = _kernels.kernels.IMPLEMENTATION == "python"  # (the reference: one place of each two, the same kinds of change)
    places = {"early": (1, 7), "late": (16, 23)}[half]
    for where in places[1:] if twin else places:
        for changed in _changes(lines[where]):
            log = [*lines[:where], changed, *lines[where + 1:]]
            for key in ((KEY, None) if signed else (None,)):
                fast, full, _ = _both(log, key=key)
                assert fast == full, (where, changed)
                cases += 1
    assert cases > (25 if twin else 50)


def test_records_removed_moved_or_repeated() -> None:
    lines = _log(MACAU, 30, key=KEY)
    logs = [
        lines[:10] + lines[11:],  # removed
        lines[:10] + [lines[11], lines[10]] + lines[12:],  # swapped
        lines[:10] + [lines[10]] + lines[10:],  # repeated
        lines[:10] + [json.dumps({k: v for k, v in json.loads(lines[10]).items() if k != "hmac"})] + lines[11:],
        lines[:10] + [""] + lines[10:],
        lines + ["{}"],
    ]
    for log in logs:
        fast, full, _ = _both(log, key=KEY)
        assert fast == full and not fast.ok
    fast, full, taken = _both(lines[12:], start_prev=json.loads(lines[11])["hash"])  # a log that goes on another
    assert fast == full and fast.ok and taken > 0


def test_a_record_made_again_consistently_is_named_by_its_replay() -> None:
    """A record changed and given a consistent hash and HMAC (the key holder's forgery): the
    replay names it, the same with the fast pass."""
    lines = _log(MACAU, 20)
    data = json.loads(lines[9])
    data["results"][0]["returned"] = str(int(data["results"][0]["returned"]) + 1) \
        if data["results"] else data["results"]
    data["hash"] = record_hash(data)
    forged = [*lines[:9], json.dumps(data, ensure_ascii=False, separators=(",", ":")), *lines[10:]]
    fast, full, _ = _both(forged)
    assert fast == full and not fast.ok
    signed = _log(MACAU, 20, key=KEY)
    data = json.loads(signed[4])
    data["round_in_shoe"] += 1
    data["hash"] = record_hash(data)
    data["hmac"] = record_hmac(data, KEY)
    fast, full, _ = _both([*signed[:4], json.dumps(data, ensure_ascii=False, separators=(",", ":")), *signed[5:]],
                          key=KEY)
    assert fast == full and not fast.ok


def test_logs_of_a_generator_of_the_callers() -> None:
    lines = _log(MACAU, 40, rng=True)
    fast, full, taken = _both(lines)
    assert fast == full and fast.ok and taken == 39
    changed = [*lines[:20], lines[20].replace('"shoe_state":{"bit_generator":"PCG64","state":{"state":"1',
                                                   '"shoe_state":{"bit_generator":"PCG64","state":{"state":"2'),
               *lines[21:]]
    fast, full, _ = _both(changed)
    assert fast == full


def test_replay_off_and_files(tmp_path: Path) -> None:
    lines = _log(MACAU, 30)
    path = tmp_path / "log.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert verify_log(path) == _both(lines)[1]
    fast, full, taken = _both(lines, replay=False)
    assert fast == full and taken == 29
    changed = [*lines[:5], lines[5].replace('"round":6', '"round":7'), *lines[6:]]
    fast, full, _ = _both(changed, replay=False)
    assert fast == full and not fast.ok


# --- detection shares the pass -------------------------------------------------------------------


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_detection_reads_by_the_fast_pass_as_by_the_full_checks(tmp_path: Path) -> None:
    from sanggong.detection import detect

    path = _write(tmp_path / "log.jsonl", _log(MACAU, 80, key=KEY))
    fast = detect(path, key=KEY, verify=True)
    verify_module._FAST = False
    try:
        full = detect(path, key=KEY, verify=True)
    finally:
        verify_module._FAST = True
    assert fast == full and fast.points == full.points and fast.records == 80


def _rounds(stream: Any) -> list[CheckedRound]:
    """A checked stream's rounds, its runs' one at a time."""
    return [one for item in stream for one in ([item] if isinstance(item, CheckedRound) else item.rounds())]


def test_records_read_for_detection_are_the_full_checks_records() -> None:
    """``LogReader.checked`` (what detection reads), over more lines than the fast pass takes
    at a time and across a line it leaves to the full checks: each round as the full checks
    read it (its fields, and its cards' codes as its record holds the cards), and the same
    verdict."""
    from sanggong.verify._log import _SEEN_AT_A_TIME

    lines = _log(MACAU, _SEEN_AT_A_TIME + 150)
    at = _SEEN_AT_A_TIME + 40  # a line written otherwise (a space), which the full checks accept
    changed = [*lines[:at], lines[at].replace('"round":', '"round": '), *lines[at + 1:]]
    bad = [*lines[:_SEEN_AT_A_TIME + 60], lines[_SEEN_AT_A_TIME + 60].replace('"round":', '"round":1'), *lines]
    # the records themselves, as iterating a reader gives them: the good log's, which are
    # every log's here (a line written otherwise is the same record; bad stops before its
    # bad line; bytes are the same lines), read once
    verify_module._FAST = False
    try:
        every = list(LogReader(lines))
    finally:
        verify_module._FAST = True
    logs: list[Any] = [(lines, every), (changed, every), (bad, every[:_SEEN_AT_A_TIME + 60]),
                       ([line.encode() for line in changed], every)]
    for log, records in logs:
        reader = LogReader(log)
        stream = list(reader.checked())
        verify_module._FAST = False
        try:
            full_reader = LogReader(log)
            full = list(full_reader.checked())
        finally:
            verify_module._FAST = True
        assert reader.report() == full_reader.report()
        assert all(isinstance(item, CheckedRound) for item in full)
        if isinstance(log[0], bytes):  # (lines of bytes: the pass's own loop reads them, as runs)
            assert sum(len(item) for item in stream if isinstance(item, CheckedRun)) >= len(log) - 3
        fast = _rounds(stream)
        assert fast == full and len(fast) == len(records)
        for a, record in zip(fast, records, strict=True):
            assert (a.round, a.shoe, a.round_in_shoe, a.bets, a.carried) == \
                (record.round, record.shoe, record.round_in_shoe, record.bets, record.carried)
            assert record.banker is not None
            assert list(a.codes) == [c.code for h in (record.banker, *record.hands.values()) for c in h.cards]
            assert list(a.burned_codes) == [c.code for c in record.burned]


def test_detection_of_several_logs_on_dask(tmp_path: Path) -> None:
    """Several logs read on a Dask cluster's executor: the serial result."""
    from sanggong.detection import detect

    distributed = pytest.importorskip("distributed", reason="the test extra installs dask[distributed]")
    paths = [str(_write(tmp_path / f"log{i}.jsonl", _log(MACAU, 30 + 10 * i, seed=i))) for i in range(4)]
    serial = detect(paths)
    told: list[int] = []
    with distributed.Client(processes=False, n_workers=2, threads_per_worker=1, dashboard_address=":0") as client:
        remote = detect(paths, executor=client.get_executor(), progress=told.append)
    assert remote == serial and remote.points == serial.points
    assert sum(told) == serial.records == sum(30 + 10 * i for i in range(4))


# --- the report, progress, standard input ----------------------------------------------------------


def test_report_to_frame_and_html() -> None:
    pd = pytest.importorskip("pandas")
    lines = _log(MACAU, 12)
    good = verify_log(lines)
    bad = verify_log([*lines[:3], lines[4]])
    for report in (good, bad):
        frame = report.to_frame()
        assert isinstance(frame, pd.DataFrame) and len(frame) == 1
        assert frame.iloc[0].to_dict() == report.to_dict()
        assert json.loads(json.dumps(report.to_dict())) == report.to_dict()
        html = report._repr_html_()
        assert html.startswith('<table class="sanggong-verify">') and report.status in html
    assert "line 4 (round 5): prev is not the hash of line 3" in bad._repr_html_()


def test_progress_counts_every_record_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(verify_module, "_PROGRESS_EVERY", 7)
    lines = _log(MACAU, 30)
    told: list[int] = []
    assert verify_log(lines, progress=told.append).ok
    assert sum(told) == 30 and len(told) >= 4 and all(7 <= n <= 8 for n in told[:-1])
    told.clear()
    bad = verify_log([*lines[:20], lines[21], *lines[22:]], progress=told.append)
    assert sum(told) == bad.records == 21
    with pytest.raises(TypeError, match="progress must be callable"):
        verify_log(lines, progress=3)  # type: ignore[arg-type]


def test_a_binary_file_is_read_as_a_path_is(tmp_path: Path) -> None:
    import io

    lines = _log(MACAU, 20)
    data = ("\n".join(lines) + "\n").encode()
    assert verify_log(io.BytesIO(data)) == verify_log(_write(tmp_path / "log.jsonl", lines))
    endless = io.BytesIO(data + b"x" * 10_000_000)  # a last line longer than a record may be
    assert "longer than" in (verify_log(endless).reason or "")


def test_cli_reads_standard_input(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import sys

    from cli_run import fails, run

    lines = _log(MACAU, 20)
    path = _write(tmp_path / "log.jsonl", lines)

    class Stdin:
        def __init__(self, data: bytes) -> None:
            self.buffer = io.BytesIO(data)

    monkeypatch.setattr(sys, "stdin", Stdin(path.read_bytes()))
    from_stdin = run(["verify", "-"], capsys)
    assert from_stdin == run(["verify", str(path)], capsys) and from_stdin.startswith("ok: 20 records")
    monkeypatch.setattr(sys, "stdin", Stdin(path.read_bytes()))
    detected = run(["detect", "-", "--json"], capsys)
    assert json.loads(detected) == json.loads(run(["detect", str(path), "--json"], capsys))
    fails(["detect", "-", str(path)], "standard input is read alone", capsys)


@pytest.mark.parametrize("name", ["PCG64", "PCG64DXSM", "Philox", "SFC64", "MT19937"])
def test_a_shoe_state_is_written_as_the_writers_write_it(name: str) -> None:
    """The fast pass writes each shoe's state in a shape the two writers wrote once."""
    from sanggong.records import REPLAYABLE, state_json
    from sanggong.records import both as _both

    assert name in REPLAYABLE
    lines = _log(MACAU, 3, rng=True)
    reader = LogReader(lines)
    reader._run()
    fast = reader._verifier.fast
    assert fast is not None
    for seed in range(3):
        state = state_json(getattr(np.random, name)(seed).state)
        assert state is not None
        assert fast._state_texts(state) == _both(state)


@pytest.mark.parametrize("name", sorted(__import__("sanggong.rules", fromlist=["PRESETS"]).PRESETS))
def test_every_preset_is_read_by_the_fast_pass(name: str) -> None:
    from sanggong.rules import PRESETS

    game = Game(PRESETS[name], 5)
    lines = [game.play().to_json() for _ in range(30)]
    fast, full, taken = _both(lines)
    assert fast == full and fast.ok and taken == 29
    changed = [*lines[:12], lines[12].replace('"round":13', '"round":14'), *lines[13:]]
    fast, full, _ = _both(changed)
    assert fast == full and not fast.ok and fast.first_bad == 13


def test_a_fast_pass_that_fails_leaves_the_lines_to_the_full_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever goes wrong inside the fast pass, the report is the full checks' (it never
    raises, nor changes a verdict)."""
    from sanggong.verify._fastlog import FastReplay

    lines = _log(MACAU, 30)
    bad = [*lines[:20], lines[20].replace('"round":21', '"round":22'), *lines[21:]]
    check = FastReplay.check
    calls = [0]

    def failing(self: FastReplay, line: bytes, keeps: Any) -> bool:
        calls[0] += 1
        if calls[0] == 10:
            raise RuntimeError("a fault in the fast pass")
        return check(self, line, keeps)

    monkeypatch.setattr(FastReplay, "check", failing)
    for log in (lines, bad):
        calls[0] = 0
        fast, full, _ = _both(log)
        assert fast == full and calls[0] >= 10
    monkeypatch.setattr(FastReplay, "check", check)
    advance = FastReplay._advance
    advances = [0]

    def failing_advance(self: FastReplay) -> None:  # (inside the pass's own loop: a shoe's end)
        advances[0] += 1
        if advances[0] == 2:
            raise RuntimeError("a fault in the fast pass's loop")
        advance(self)

    monkeypatch.setattr(FastReplay, "_advance", failing_advance)
    longer = _log(MACAU, 60)
    for log in (longer, [*longer[:40], longer[40].replace('"round":41', '"round":42'), *longer[41:]]):
        advances[0] = 0
        fast, full, _ = _both(log)
        assert fast == full and advances[0] >= 2
