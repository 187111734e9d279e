"""Who and what ``detect`` counts: a staker is one staker (a player is never an anonymous
staker of a record of bets alone, whatever the player's id reads as), and one game is
counted once (several logs are known by their hash chain and seed: overlapping ones are
refused, a game continued in another file is read as one)."""

from __future__ import annotations

import json
import os
import tempfile
from collections import Counter
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from cli_run import fails, run
from hypothesis import given, settings
from hypothesis import strategies as st

from sanggong import MACAU, Card, Game, ObservedTable, RoundRecord, detect
from sanggong.records import stakes_of, write_log

pytestmark = pytest.mark.kernels

SMALL = MACAU.replace(name="small", decks=2, positions=2, cut_card_range=(20, 30))
BETS = ["win:1", "win:2", "odd", "even", "point:0", "point:5", "three_faces"]
ADVERSARIAL = ["table", "position 1", "position 2", "position 3", "Table", "position 01", "table ", " position 1",
               "Position 1", "position  1", "player", "anonymous", "('table', 'table')", "position 1 (anonymous)"]


def _valid(player: str) -> bool:
    return player.isprintable() and bool(player.strip())


ids = st.one_of(st.sampled_from(ADVERSARIAL), st.text(min_size=1, max_size=8).filter(_valid))
alone = st.dictionaries(st.sampled_from(BETS), st.integers(1, 20), min_size=1, max_size=3)
by_player = st.dictionaries(ids, alone, min_size=1, max_size=3)


def _play(seed: int, slips: list[dict[str, Any]]) -> list[RoundRecord]:
    """A game of these slips, in turn (where stakes are carried into a round: those alone)."""
    game = Game(SMALL, seed=seed)
    return [game.play({} if game.carried else slip) for slip in slips]


def _expected_bets(records: list[RoundRecord]) -> Counter[tuple[str, str]]:
    """Each staker's stakes, written out: a stake is a decision where it exceeds what was
    carried into the round; a named player's as ``("player", id)``, a bet alone's as its
    position's (Win bets name one) or the table's."""
    out: Counter[tuple[str, str]] = Counter()
    before: dict[tuple[str | None, str], Any] = {}
    for record in records:
        for (player, bet), stake in stakes_of(record.bets).items():
            if stake > before.get((player, bet), 0):
                kind, _, where = bet.partition(":")
                out[("player", player) if player is not None else
                    ("position", f"position {where}") if kind == "win" else ("table", "table")] += 1
        before = stakes_of(record.carried)
    return out


@settings(max_examples=25, deadline=None)
@given(st.lists(st.one_of(alone, by_player), min_size=4, max_size=30), st.integers(0, 2**16))
def test_a_staker_is_one_staker_whatever_its_id_reads_as(slips: list[dict[str, Any]], seed: int) -> None:
    """Slips by player and of bets alone in one log, players' ids read as anonymous ones:
    every staker is there once, with its kind, its own stakes; and the same as with every
    player renamed to an id nothing else could have (the report is the names' alone)."""
    records = _play(seed, slips)
    names = sorted({p for slip in slips for p, v in slip.items() if isinstance(v, dict)})
    safe = {name: f"player number {k}" for k, name in enumerate(names)}
    renamed = _play(seed, [{safe.get(k, k): v for k, v in slip.items()} for slip in slips])
    assert [r.hands for r in renamed] == [r.hands for r in records]  # (the same cards)
    found, plain = detect(records, SMALL), detect(renamed, SMALL)
    expected = _expected_bets(records)
    assert len(found.players) == len(expected) and sum(p.bets for p in found.players) == expected.total()
    assert Counter({p.key: p.bets for p in found.players}) == expected
    ids = Counter(p.id for p in found.players)  # a staker's name: its id, or (kind, id) where another has the id
    assert list(found) == [p.id if ids[p.id] == 1 else p.key for p in found.players] and len(found) == len(expected)
    assert set(found.points) == set(found) and all(found[p.key] is found[name] is p
                                                   for name, p in zip(found, found.players, strict=True))
    assert all(len(found.points[p.key]) == p.bets for p in found.players)
    back = {("player", v): ("player", k) for k, v in safe.items()}
    for p in plain.players:
        twin = found[back.get(p.key, p.key)]
        assert twin.kind == p.kind and twin.anonymous == (p.kind != "player")
        assert (twin.rounds, twin.bets, twin.flagged) == (p.rounds, p.bets, p.flagged)
        assert [twin.units, twin.mean_ev, twin.baseline_ev, twin.p_value, twin.expected_gain_per_100] == \
            pytest.approx([p.units, p.mean_ev, p.baseline_ev, p.p_value, p.expected_gain_per_100], rel=1e-12)
    with tempfile.TemporaryDirectory() as folder:  # a log file (read by verify's fast pass): the same report
        path = Path(folder) / "log.jsonl"
        write_log(records, path)
        read = detect(path, SMALL)
        assert read == found and read.points == found.points


def test_a_player_called_table_is_not_the_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = _play(3, [{"table": {"point:0": 5}} if k % 2 else {"point:0": 7, "win:1": 1} for k in range(40)])
    found = detect(records, SMALL)
    assert sorted(p.key for p in found.players) == [("player", "table"), ("position", "position 1"),
                                                    ("table", "table")]
    expected = _expected_bets(records)
    assert found["player", "table"].bets == expected["player", "table"] > 0
    assert found["table", "table"].bets == expected["table", "table"] > 0
    assert found["position 1"] is found["position", "position 1"]
    assert set(found) == set(found.points) == {("player", "table"), "position 1", ("table", "table")}
    assert "table" not in found and ("player", "table") in found and "position 1" in found
    with pytest.raises(KeyError, match="more than one"):
        found["table"]
    with pytest.raises(KeyError, match="more than one"):
        found.points["table"]
    with pytest.raises(KeyError):
        found["player", "position 1"]
    data = found.to_dict()["players"]
    assert sorted((p["kind"], p["id"]) for p in data) == sorted(p.key for p in found.players)
    path = tmp_path / "log.jsonl"
    write_log(records, path)
    printed = json.loads(run(["detect", str(path), "--rules-file", str(_rules_file(tmp_path)), "--json"], capsys))
    assert printed["players"] == json.loads(json.dumps(data))
    table = run(["detect", str(path), "--rules-file", str(_rules_file(tmp_path))], capsys).splitlines()
    assert table[1].split()[:2] == ["player", "kind"]
    rows = sorted(line.split()[:2] for line in table[2:] if line.split()[:1] in (["table"], ["position"]))
    assert rows == [["position", "1"], ["table", "player"], ["table", "table"]]


def test_the_frame_says_each_stakers_kind() -> None:
    pytest.importorskip("pandas")
    records = _play(4, [{"table": {"odd": 2}, "ann": {"win:2": 1}} if k % 3 else {"odd": 2} for k in range(30)])
    frame = detect(records, SMALL).to_frame()
    assert sorted(zip(frame.index, frame["kind"], strict=True)) == [("ann", "player"), ("table", "player"),
                                                                      ("table", "table")]


def _rules_file(folder: Path) -> Path:
    path = folder / "small.json"
    if not path.exists():
        path.write_text(json.dumps(SMALL.to_dict()))
    return path


# --- one game, counted once -------------------------------------------------------------------------------


def _log(folder: Path, name: str, records: list[RoundRecord]) -> Path:
    path = folder / name
    write_log(records, path)
    return path


def _records(seed: int = 1, rounds: int = 60, player: str = "p") -> list[RoundRecord]:
    return _play(seed, [{player: {"point:0": 1 + (k * 7) % 5, "odd": 2}} for k in range(rounds)])


def test_a_game_continued_in_other_files_is_read_as_one_in_any_order(tmp_path: Path) -> None:
    records = _records()
    whole = detect(_log(tmp_path, "whole.jsonl", records), SMALL)
    parts = [_log(tmp_path, f"part{k}.jsonl", records[a:b]) for k, (a, b) in enumerate([(0, 17), (17, 18), (18, 60)])]
    other = _log(tmp_path, "other.jsonl", _records(seed=2, player="q"))
    alone = detect(other, SMALL)
    for order in ([0, 1, 2], [2, 1, 0], [1, 0, 2], [2, 0, 1]):
        found = detect([parts[k] for k in order], SMALL)
        assert found == whole and found.points == whole.points
        both = detect([parts[k] for k in order] + [other], SMALL, workers=2)
        assert both.records == whole.records + alone.records
        assert (both["p"], both["q"]) == (whole["p"], alone["q"])


@pytest.mark.parametrize("case", ["twice", "copy", "link", "longer", "overlap", "same start", "same seed"])
def test_a_round_given_twice_is_refused_naming_both_logs(tmp_path: Path, case: str) -> None:
    records = _records()
    first = _log(tmp_path, "first.jsonl", records[:40])
    second = {
        "twice": lambda: first,
        "copy": lambda: _log(tmp_path, "copy.jsonl", records[:40]),
        "link": lambda: _link(first, tmp_path / "link.jsonl"),
        "longer": lambda: _log(tmp_path, "longer.jsonl", records),
        "overlap": lambda: _log(tmp_path, "overlap.jsonl", records[25:]),
        "same start": lambda: _log(tmp_path, "from 30.jsonl", records[30:]),  # (with first going on from 29)
        "same seed": lambda: _log(tmp_path, "other bets.jsonl", _records(player="q")[:50]),
    }[case]()
    logs = [_log(tmp_path, "start.jsonl", records[:30]), _log(tmp_path, "rest.jsonl", records[30:45])] \
        if case == "same start" else [first]
    rounds = {"overlap": "rounds 26-40", "same start": "rounds 31-45"}.get(case, "rounds 1-40")
    for given_ in (logs + [second], [second] + logs):
        with pytest.raises(ValueError, match=rounds) as refused:
            detect(given_, SMALL)
        message = str(refused.value)
        assert os.fspath(second) in message and any(os.fspath(log) in message for log in logs)


def _link(target: Path, link: Path) -> Path:
    link.symlink_to(target)
    return link


def test_a_log_going_on_from_none_given_is_refused(tmp_path: Path) -> None:
    """Observed cards (no seed): a log that starts within the game, its start not given."""
    from sanggong.dealing._procedure import round_length

    table = ObservedTable(SMALL)
    shoe: list[Card] = []
    records: list[RoundRecord] = []
    for k in range(12):
        if not records or records[-1].last_of_shoe:
            shoe = [Card(code) for code in np.random.default_rng(k).permutation(np.repeat(np.arange(52), 2)).tolist()]
        need = round_length(SMALL, SMALL.burn_first if not records or records[-1].last_of_shoe else
                            SMALL.burn_per_round)
        cards, shoe = shoe[:need], shoe[need:]
        records.append(table.play(cards, {"p": {"point:0": 1}}))
        if records[-1].last_of_shoe:
            table.shuffle()
    assert records[0].seed is None
    start, rest = _log(tmp_path, "start.jsonl", records[:8]), _log(tmp_path, "rest.jsonl", records[5:])
    with pytest.raises(ValueError, match="rest.jsonl: its first record, round 6, goes on from none"):
        detect([start, rest], SMALL)
    assert detect([_log(tmp_path, "end.jsonl", records[8:]), start], SMALL) == detect(records, SMALL)


def test_a_pipe_among_several_logs_is_refused_unopened(tmp_path: Path) -> None:
    """Each of several logs is read twice (its ends, then its lines): a pipe cannot be, and
    opening one would wait for a writer."""
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    with pytest.raises(ValueError, match="pipe: not a regular file"):
        detect([_log(tmp_path, "log.jsonl", _records(rounds=5)), pipe], SMALL)


def test_records_given_twice_or_out_of_order_are_refused() -> None:
    records = _records(rounds=20)
    for bad in (records + records, records[:5] + records[6:], records[:10] + records[3:], records[::-1]):
        with pytest.raises(ValueError, match="does not go on from the record before it"):
            detect(bad, SMALL)
    assert detect(records[3:], SMALL).records == 17  # (a game's later records, in order: read)


def test_the_command_line_refuses_a_log_given_twice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = _records(rounds=30)
    path = _log(tmp_path, "log.jsonl", records)
    rules = str(_rules_file(tmp_path))
    fails(["detect", str(path), str(path), "--rules-file", rules], f"{path}, given twice, hold rounds 1-30", capsys)
    start, rest = _log(tmp_path, "a.jsonl", records[:12]), _log(tmp_path, "b.jsonl", records[12:])
    assert run(["detect", str(rest), str(start), "--rules-file", rules, "--json"], capsys) == \
        run(["detect", str(path), "--rules-file", rules, "--json"], capsys)


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(1, 39), max_size=4, unique=True), st.randoms(use_true_random=False),
       st.integers(0, 39), st.integers(1, 40))
def test_split_logs_read_as_the_whole_and_a_round_twice_is_refused(cuts: list[int], random: Any, a: int,
                                                                   b: int) -> None:
    """A game cut into files, given in any order: the whole game's report; with another
    file of some of its rounds (any that starts at round 1 or at a cut), refused."""
    records = _records(seed=5, rounds=40)
    whole = detect(records, SMALL)
    bounds = [0, *sorted(cuts), 40]
    with tempfile.TemporaryDirectory() as folder:
        paths = [_log(Path(folder), f"part{k}.jsonl", records[x:y]) for k, (x, y) in
                 enumerate(pairwise(bounds))]
        random.shuffle(paths)
        assert detect(paths, SMALL) == whole
        start = max(x for x in bounds[:-1] if x <= a)
        extra = _log(Path(folder), "extra.jsonl", records[start:max(b, start + 1)])
        paths.insert(random.randrange(len(paths) + 1), extra)
        with pytest.raises(ValueError, match=r"extra\.jsonl.*hold|hold.*extra\.jsonl"):
            detect(paths, SMALL)



def test_a_sealed_log_is_one_game_split_or_whole_and_refused_twice(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """A log ends with its seal (``Game.close``): its last line is no round record. The
    parts of a sealed game read as the whole, in either order, and a part given with the
    whole is refused (once read as a log that is not one, and exit 0: the seal's report
    says ok)."""
    from sanggong.cli import main

    game = Game(SMALL, seed=4)
    records: list[Any] = [game.play({"p": {"point:0": 1 + k % 3}} if not game.carried else {}) for k in range(50)]
    records.append(game.close())
    whole = _log(tmp_path, "whole.jsonl", records)
    morning, afternoon = _log(tmp_path, "morning.jsonl", records[:20]), _log(tmp_path, "afternoon.jsonl", records[20:])
    expected = detect(whole, SMALL)
    assert expected.records == 50
    for parts in ([morning, afternoon], [afternoon, morning]):
        assert detect(parts, SMALL) == expected
    with pytest.raises(ValueError, match="rounds 1-20"):
        detect([morning, whole], SMALL)
    assert main(["detect", "--rules-file", str(_rules_file(tmp_path)), str(morning), str(whole)]) == 2
    assert "rounds 1-20" in capsys.readouterr().err


def _rules_file(folder: Path) -> Path:
    path = folder / "small.toml"
    SMALL.save(path)
    return path
