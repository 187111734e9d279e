"""A ``VectorTable``'s table recorded (``VectorTable.record``, ``TableLog``): its log is,
byte for byte, the log a ``Game`` of the table's chunk seed writes through ``play`` for
the same stakes (carried stakes, several players, reshuffles, a house-banked and a
player-banked family); ``verify_log`` accepts it and refuses it edited; ``detect`` reads
the stakes the vector was given."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sanggong import MACAU, ONLINE, Game, detect, verify_log
from sanggong.limits import MAX_BETS
from sanggong.records import RoundRecord
from sanggong.rules import PRESETS, RuleSet
from sanggong.seeds import child
from sanggong.vector import TableLog, VectorTable

pytestmark = pytest.mark.kernels

KEY = b"operator key"


def _stakes(table: VectorTable, rng: np.random.Generator, low: np.ndarray) -> np.ndarray:
    """Random legal stakes: most bets left out, carried ones raised or kept, a Tie's Win
    bet added where the rules require it."""
    shape = low.shape
    s = np.where(rng.random(shape) < 0.3, rng.integers(1, 999, shape), 0).astype(np.int64)
    s = np.where(low > 0, low + np.where(rng.random(shape) < 0.5, 0, rng.integers(0, 50, shape)), s)
    for j, partner in enumerate(table.requires.tolist()):
        if partner >= 0:
            s[:, :, partner] = np.where((s[:, :, j] > 0) & (s[:, :, partner] == 0), 101, s[:, :, partner])
    return s


def _game_log(rules: RuleSet, seed: int, k: int, slips: list[dict[str, Any]]) -> tuple[list[str], list[RoundRecord]]:
    """The log ``Game`` writes, round by round through ``play``, for table k's seed and slips."""
    game = Game(rules, seed=child(np.random.SeedSequence(seed), k), key=KEY)
    records = [game.play(slip) for slip in slips]
    return [r.to_json() for r in records] + [game.close().to_json()], records


@pytest.mark.parametrize("name", ["macau", "online", "san_gong"])
def test_a_tables_log_is_its_games_byte_for_byte(name: str) -> None:
    rules = PRESETS[name]
    tables, players, rounds, seed = 3, 2, 40, 2026
    table = VectorTable(rules, tables, players=players, seed=seed)
    logs = {0: table.record(0, key=KEY), 2: table.record(2, key=KEY, names=["ann", "bo"])}
    rng = np.random.default_rng(7)
    _, info = table.reset(seed=seed)  # a reset ends the logs: record again
    assert all(log.closed or log.game.round == 0 for log in logs.values())
    logs = {0: table.record(0, key=KEY), 2: table.record(2, key=KEY, names=["ann", "bo"])}
    slips: dict[int, list[dict[str, Any]]] = {0: [], 2: []}
    rewards: dict[int, list[np.ndarray]] = {0: [], 2: []}
    carried = shoes = 0
    for _ in range(rounds):
        stakes = _stakes(table, rng, info["low"])
        carried += int((info["low"] > 0).any())
        for k, who in ((0, ("player_0", "player_1")), (2, ("ann", "bo"))):
            rows = [{b: int(x) for b, x in zip(table.bets, stakes[k, p].tolist(), strict=True) if x}
                    for p in range(players)]
            slips[k].append({w: row for w, row in zip(who, rows, strict=True) if row})
        _, reward, _, _, info = table.step(stakes)
        shoes += int(info["shoe_end"][0])
        for k in slips:
            rewards[k].append(reward[k])
    assert shoes >= 2 and (carried > 0 or rules is not MACAU)  # reshuffles, and at Macau a carried Win bet
    for k, log in logs.items():
        log.close()
        expected, records = _game_log(rules, seed, k, slips[k])
        assert log.lines == expected
        report = verify_log(log.lines, key=KEY, require_seal=True)
        assert report.ok and report.records == rounds + 1, report
        # each record pays each player what the vector paid them
        names = log.names
        assert names is not None
        for record, reward in zip(records, rewards[k], strict=True):
            nets = [sum(r["net"] for r in record.results if r["player"] == p) for p in names]
            assert nets == reward.tolist()


def test_one_player_records_a_slip_of_bets_alone_and_carries_stakes() -> None:
    """One player, no names: the slip is of bets alone; a Win bet carried by a tie is in the
    stakes the vector is given (kept) and in the records' carried stakes."""
    table = VectorTable(MACAU, 2, seed=11, bets=["win:1", "win:2", "point:0"])
    log = table.record(1)
    stakes = np.zeros((2, 1, 3), dtype=np.int64)
    info = {"low": np.zeros_like(stakes)}
    slips = []
    for r in range(60):
        stakes[:] = 0
        stakes[:, 0, 0] = 100 + r
        stakes[:, 0, 2] = 10 * (r % 3)
        stakes = np.maximum(stakes, info["low"])
        slips.append({b: int(x) for b, x in zip(table.bets, stakes[1, 0].tolist(), strict=True) if x})
        _, _, _, _, info = table.step(stakes)
    log.close()
    game = Game(MACAU, seed=table.table_seed(1))
    records = [game.play(slip) for slip in slips]
    assert log.lines == [r.to_json() for r in records] + [game.close().to_json()]
    assert any(r.carried for r in records)
    assert all(r["player"] is None for rec in records for r in rec.results)


def test_an_edited_record_is_refused(tmp_path: Path) -> None:
    table = VectorTable(ONLINE, 2, seed=4, players=2, bets=["win:1", "pair_plus:banker"])
    path = tmp_path / "table.jsonl"
    log = table.record(1, key=KEY, out=path)
    stakes = np.full((2, 2, 2), 50, dtype=np.int64)
    for _ in range(12):
        table.step(stakes)
    table.reset()  # ends the log: its seal written, its file closed
    assert log.closed and log.seal is not None and log.lines is None
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 13 and verify_log(path, key=KEY, require_seal=True).ok
    edited = json.loads(lines[5])
    edited["bets"]["player_0"]["win:1"] = 500  # a stake raised after the round
    report = verify_log([*lines[:5], json.dumps(edited), *lines[6:]], key=KEY)
    assert not report.ok and report.first_bad is not None


def test_detect_reads_the_stakes_the_vector_was_given() -> None:
    """Point 0 never carries: a player's stakes placed are the non-zero stakes the vector
    was given at that table, and their sum the units staked."""
    table = VectorTable(MACAU, 4, players=2, seed=8, bets=["point:0"])
    out = io.StringIO()
    log = table.record(3, names=["ann", "bo"], out=out)
    rng = np.random.default_rng(3)
    given = np.zeros((2, 2), dtype=np.int64)  # (player, [bets, units])
    rounds = np.zeros(2, dtype=np.int64)
    for _ in range(150):
        stakes = np.where(rng.random((4, 2, 1)) < 0.4, rng.integers(1, 30, (4, 2, 1)) * 10, 0).astype(np.int64)
        table.step(stakes)
        given[:, 0] += stakes[3, :, 0] > 0
        given[:, 1] += stakes[3, :, 0]
        rounds += stakes[3, :, 0] > 0
    log.close()
    found = detect([RoundRecord.from_json(line) for line in out.getvalue().splitlines()[:-1]])
    for p, name in enumerate(["ann", "bo"]):
        stats = found["player", name]
        assert (stats.bets, stats.units, stats.rounds) == (given[p, 0], given[p, 1], rounds[p])


def test_recording_is_checked() -> None:
    table = VectorTable(MACAU, 3, players=2, seed=1, bets=["win:1"])
    with pytest.raises(ValueError, match="k"):
        table.record(3)
    with pytest.raises(ValueError, match="names"):
        table.record(0, names=["ann"])
    with pytest.raises(ValueError, match="names"):
        table.record(0, names=["ann", "ann"])
    with pytest.raises(ValueError, match="^names: '' is not a player's id"):
        table.record(0, names=["ann", ""])
    with pytest.raises(TypeError, match="^names: a player is named by a string"):
        table.record(0, names=["ann", 7])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="out"):
        table.record(0, out=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="key"):
        table.record(0, key="text")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="more than a record holds"):
        VectorTable(MACAU, 1, players=MAX_BETS // len(VectorTable(MACAU, 1).bets) + 1).record(0)  # every bet
    log = table.record(0)
    assert isinstance(log, TableLog)
    with pytest.raises(ValueError, match="recorded already"):
        table.record(0)
    table.step(np.zeros((3, 2, 1), dtype=np.int64))
    with pytest.raises(ValueError, match="first round"):
        table.record(1)
    assert log.close() is not None and log.close() is not None  # closed once, then left as it is
    assert len(log.lines or ()) == 2


def test_a_table_recorded_of_no_round_has_no_seal() -> None:
    table = VectorTable(MACAU, 1, seed=1)
    log = table.record(0)
    table.reset()
    assert log.seal is None and log.lines == []
