"""pytest-benchmark: a Macau log verified (and read for detection), with the fast pass and
with the full checks alone (see report.py for the ratios quoted)."""

from __future__ import annotations

from pathlib import Path

import pytest
from workloads import write_macau_log

from sanggong.detection import detect
from sanggong.verify import _log as verify_module
from sanggong.verify import verify_log

ROUNDS = 3_000


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("logs") / "macau.jsonl"
    write_macau_log(path, ROUNDS)
    return path


def test_verify_fast_pass(benchmark, log: Path) -> None:
    report = benchmark(verify_log, log)
    assert report.ok and report.records == ROUNDS


def test_verify_full_checks(benchmark, log: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(verify_module, "_FAST", False)
    report = benchmark.pedantic(verify_log, (log,), rounds=3, iterations=1)
    assert report.ok and report.records == ROUNDS


def test_detect_fast_pass(benchmark, log: Path) -> None:
    found = benchmark.pedantic(detect, (log,), rounds=3, iterations=1)
    assert found.records == ROUNDS
