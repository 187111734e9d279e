"""An attacker's findings against the vectorised table and its neighbours, each held shut:
concurrent steps, a log that cannot take a round, a bankroll driven past int64, a missing
file in the middle of a game's logs, bad output paths, policies that cannot travel, bad
variant records, tables too large for the machine."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest

import sanggong as sg
from sanggong import _kernels
from sanggong.vector import MAX_MONEY, VectorTable

pytestmark = pytest.mark.kernels


def _stakes(n: int, amount: int) -> np.ndarray:
    return np.full((n, 1, 1), amount, dtype=np.int64)


def test_a_refused_step_in_another_thread_never_settles_a_round() -> None:
    """One thread steps at legal stakes while another is refused again and again: every
    round the first is paid is the round a table alone pays for those stakes (the refused
    stakes never reach the kernel's workers)."""
    # (the twin steps a table in Python: 512 tables keep its steps long enough to be
    # interleaved with the refusals many times, at an eighth of 4096's minute)
    n, steps = (512 if _kernels.kernels.IMPLEMENTATION == "python" else 4096), 30
    shared = VectorTable(sg.MACAU, n, seed=5, bets=["point:0"], workers=2)
    alone = VectorTable(sg.MACAU, n, seed=5, bets=["point:0"], workers=2)
    stop = threading.Event()
    refused = 0

    def attack() -> None:
        nonlocal refused
        while not stop.is_set():
            with pytest.raises(ValueError, match="negative|table"):
                shared.step(_stakes(n, -10**12))
            refused += 1

    thread = threading.Thread(target=attack)
    thread.start()
    try:
        got = [shared.step(_stakes(n, 100))[1] for _ in range(steps)]
    finally:
        stop.set()
        thread.join()
    want = [alone.step(_stakes(n, 100))[1] for _ in range(steps)]
    assert refused > 0
    assert all(np.array_equal(g, w) for g, w in zip(got, want, strict=True))


def test_a_closed_log_refuses_the_step_before_any_card_moves(tmp_path: Path) -> None:
    table = VectorTable(sg.MACAU, 2, seed=1, bets=["point:0"], bankroll=1000)
    log = table.record(0)
    table.step(_stakes(2, 100))
    money, mask = table.money, table.mask()
    log.close()
    with pytest.raises(ValueError, match="table 0: its log is closed"):
        table.step(_stakes(2, 100))
    assert np.array_equal(table.money, money)
    assert all(np.array_equal(a, b) for a, b in zip(table.mask(), mask, strict=True))
    # the round that was refused is dealt by the next legal step, as a table never recorded deals it
    fresh = VectorTable(sg.MACAU, 2, seed=1, bets=["point:0"], bankroll=1000)
    fresh.step(_stakes(2, 100))
    table.reset(), fresh.reset()
    assert np.array_equal(table.step(_stakes(2, 100))[1], fresh.step(_stakes(2, 100))[1])


@pytest.mark.parametrize("out", ["binary", "directory", "missing"])
def test_a_log_that_cannot_be_written_is_refused_when_it_is_asked_for(tmp_path: Path, out: str) -> None:
    import io

    table = VectorTable(sg.MACAU, 2, seed=1, bets=["point:0"])
    target = {"binary": io.BytesIO(), "directory": tmp_path, "missing": tmp_path / "no" / "such" / "log"}[out]
    with pytest.raises(TypeError if out == "binary" else ValueError, match="out"):
        table.record(0, out=target)


def test_a_bankroll_never_passes_its_bound() -> None:
    """A table paying a million to one, players staking their whole bankroll: a step whose
    win could take a bankroll past MAX_MONEY is refused before it deals; no bankroll
    ever wraps (the sum of the rewards paid is each player's money less the start)."""
    rules = sg.MACAU.replace(name="millions", pays={**sg.MACAU.pays, "point": 10**6})
    start = 10**15 * 1024
    table = VectorTable(rules, 64, seed=2, bets=["point:0"], bankroll=start)
    paid = np.zeros((64, 1), dtype=object)
    refusals = 0
    for _ in range(40):
        stakes = table.mask()[1].copy()
        try:
            reward = table.step(stakes)[1]
        except ValueError as error:
            assert "past" in str(error)
            refusals += 1
            stakes //= 10**6
            reward = table.step(stakes)[1]
        paid += reward.astype(object)
        money = table.money.astype(object)
        assert (money == start + paid).all()
        assert (money <= MAX_MONEY).all()
    assert refusals > 0


def test_a_missing_file_in_the_middle_of_a_games_logs_is_an_error(tmp_path: Path) -> None:
    game = sg.Game("macau", seed=3, key=b"op")
    lines = list(game.lines(60, {"win:1": 100}))
    (tmp_path / "1.log").write_text("\n".join(lines[:30]) + "\n", encoding="utf-8")
    (tmp_path / "2.log").write_text("\n".join(lines[30:]) + "\n", encoding="utf-8")
    whole = sg.verify_log(sg.verify.LogFiles([tmp_path / "1.log", tmp_path / "2.log"]), key=b"op")
    assert whole.ok and whole.records == 60
    with pytest.raises(FileNotFoundError, match="gone.log"):
        sg.verify_log(sg.verify.LogFiles([tmp_path / "1.log", tmp_path / "gone.log", tmp_path / "2.log"]), key=b"op")


def test_a_policy_that_cannot_be_pickled_is_refused_before_a_pool_starts() -> None:
    with pytest.raises(TypeError, match="pickled"):
        sg.run_policy("macau", lambda obs, info: info["low"], tables=4, steps=1, seed=1, workers=2,
                      tables_per_task=2, bets=["win:1"])


def test_tables_beyond_the_machines_memory_are_refused_before_allocating() -> None:
    with pytest.raises(MemoryError, match="VectorTable's arrays"):
        VectorTable(sg.MACAU, 1 << 20, players=64)
    with pytest.raises(ValueError, match="run_policy's totals"):
        sg.run_policy("macau", sg.vector_runs.Flat({}), tables=1 << 30, players=64, steps=0, workers=1)


@pytest.mark.parametrize("bad", ["dict", "empty name", "kinds", "twice", "positions"])
def test_register_variant_takes_only_a_whole_record(bad: str) -> None:
    from sanggong.rules import VARIANTS, TableVariant, register_variant

    kind = VARIANTS["macau"].kinds[0]
    record = {"dict": {"name": "x"}, "empty name": TableVariant(name="", kinds=(kind,)),
              "kinds": TableVariant(name="x", kinds="abc"),  # type: ignore[arg-type]
              "twice": TableVariant(name="x", kinds=(kind, kind)),
              "positions": TableVariant(name="x", kinds=(kind,), positions=-1)}[bad]
    with pytest.raises((TypeError, ValueError)):
        register_variant(record)  # type: ignore[arg-type]
    assert "x" not in VARIANTS and "" not in VARIANTS


def test_stakes_in_a_masked_array_are_refused_and_the_other_byte_order_taken() -> None:
    table = VectorTable(sg.MACAU, 2, seed=1, bets=["point:0"])
    fresh = VectorTable(sg.MACAU, 2, seed=1, bets=["point:0"])
    masked = np.ma.masked_array(_stakes(2, 100), mask=[[[True]], [[False]]])
    with pytest.raises(ValueError, match="masked array"):
        table.step(masked)
    swapped = _stakes(2, 100).astype(">i8")
    assert np.array_equal(table.step(swapped)[1], fresh.step(_stakes(2, 100))[1])
