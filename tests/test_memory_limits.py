"""Limits that hold on the machine they run on: every call that allocates in proportion to
a number it is given weighs the bytes it will need against the memory available, and
refuses what would not fit (a ``MemoryError`` naming the bytes needed and available)
before it allocates anything. The memory available is made small here
(``_checks.available_memory`` patched): no test allocates much.

The bytes each call says it needs are checked against what it really allocates: the
``nbytes`` of the arrays a small call returns, or the peak ``tracemalloc`` measures."""

from __future__ import annotations

import math
import re
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sanggong import (
    MACAU,
    ONLINE,
    PRESETS,
    DealtRounds,
    RuleSet,
    _checks,
    batch,
    compare_batch,
    deal_batch,
    evaluate_batch,
    pair_plus_batch,
    parse_hands,
    rank_batch,
    simulate,
    simulate_sessions,
    simulation,
)
from sanggong.cli import main
from sanggong.limits import MAX_BATCH_ROUNDS, MAX_SESSION_ROUNDS, MAX_SESSIONS, MAX_SIM_ROUNDS

DOCS = Path(__file__).resolve().parent.parent / "docs" / "limits.md"
SMALL = 1 << 27  # "available" in these tests: 128 MiB, above the size that is checked at all
WIDEST = MACAU.replace(decks=64, positions=16, burn_after_shuffle=64, burn_per_round=64, cut_card_range=(120, 200))


@pytest.fixture
def small(monkeypatch: pytest.MonkeyPatch) -> int:
    """The machine has SMALL bytes available."""
    monkeypatch.setattr(_checks, "available_memory", lambda: SMALL)
    return SMALL


def _grown(call: Callable[[], object]) -> int:
    """The most memory ``call`` allocated at once (Python objects and NumPy arrays)."""
    tracemalloc.start()
    try:
        call()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# _warm: the reference kernels keep each hand's rank and class once worked out (at most
# 24,804 hands a ranking, whatever the rounds), so a first run of N rounds grows those caches
# with the hands it meets. The measured runs use one seed, so the larger run, made first,
# has met every hand either meets: their difference is then what a round or chunk keeps.


def _refused(call: Callable[[], object], available: int) -> str:
    """``call`` is refused with a MemoryError (also a ValueError) naming the bytes needed
    and available, having allocated almost nothing; its message."""
    caught: list[BaseException] = []

    def refused() -> None:
        try:
            call()
        except MemoryError as exc:
            caught.append(exc)

    refused()  # (the tables and caches a first call makes)
    caught.clear()
    assert _grown(refused) < 1 << 20  # nothing allocated
    assert caught, "not refused"
    assert isinstance(caught[0], ValueError)
    message = str(caught[0])
    assert f"{available:,} available" in message, message
    return message


def _needed(message: str) -> int:
    found = re.search(r"([\d,]+) bytes of memory needed", message)
    assert found, message
    return int(found.group(1).replace(",", ""))


# --- deal_batch --------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_deal_batch_at_its_maximum_is_refused_where_it_does_not_fit(small: int, name: str) -> None:
    """At MAX_BATCH_ROUNDS deal_batch asked 20-46 GB: the kernel killed the process on a
    smaller machine, with no message. Refused now, naming the bytes, before allocating."""
    rules = PRESETS[name]
    message = _refused(lambda: deal_batch(rules, MAX_BATCH_ROUNDS, seed=1), small)
    per_round = deal_batch(rules, 1, seed=1)
    real = sum(a.nbytes for a in (per_round.hands, per_round.burned, per_round.burn_counts, per_round.shoe,
                                  per_round.round_in_shoe, per_round.last_of_shoe, per_round.cut_card,
                                  *(() if per_round.head_cards is None else (per_round.head_cards,))))
    assert _needed(message) >= real * MAX_BATCH_ROUNDS
    assert _needed(message) == DealtRounds.bytes_needed(rules, MAX_BATCH_ROUNDS)


@pytest.mark.parametrize("rules", [ONLINE, MACAU, PRESETS["san_gong"], PRESETS["chinese"], WIDEST,
                                   MACAU.replace(decks=1, head_card=True, head_card_burned=False, positions=16)])
@pytest.mark.parametrize(("rounds", "chunk"), [(0, 5), (1, 5), (37, 5), (40, 8), (300, 1 << 18)])
def test_deal_batch_needs_what_its_arrays_take(rules: RuleSet, rounds: int, chunk: int) -> None:
    """The formula against the arrays returned (their nbytes), and eight bytes a chunk."""
    dealt = deal_batch(rules, rounds, seed=3, chunk_size=chunk, workers=1)
    arrays = [dealt.hands, dealt.burned, dealt.burn_counts, dealt.head_cards, dealt.shoe, dealt.round_in_shoe,
              dealt.last_of_shoe, dealt.cut_card]
    real = sum(a.nbytes for a in arrays if a is not None)
    assert DealtRounds.bytes_needed(rules, rounds, chunk) == real + 8 * math.ceil(rounds / chunk)


def test_deal_batch_fits_what_is_available(monkeypatch: pytest.MonkeyPatch) -> None:
    """A call is refused only beyond what is available, and a small one never asks."""
    needed = DealtRounds.bytes_needed(ONLINE, 3_000_000)
    assert needed > _checks.UNCHECKED_BYTES
    monkeypatch.setattr(_checks, "available_memory", lambda: needed)
    assert deal_batch(ONLINE, 3_000_000, seed=1).rounds == 3_000_000
    monkeypatch.setattr(_checks, "available_memory", lambda: needed - 1)
    assert _needed(_refused(lambda: deal_batch(ONLINE, 3_000_000, seed=1), needed - 1)) == needed

    def asked() -> int:
        raise AssertionError("a small call read the system's memory figures")

    monkeypatch.setattr(_checks, "available_memory", asked)
    assert deal_batch(ONLINE, 10, seed=1).rounds == 10


def test_bytes_needed_checks_its_arguments() -> None:
    with pytest.raises(ValueError, match="rounds"):
        DealtRounds.bytes_needed(ONLINE, MAX_BATCH_ROUNDS + 1)
    with pytest.raises(TypeError, match="rounds"):
        DealtRounds.bytes_needed(ONLINE, "10")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="chunk_size"):
        DealtRounds.bytes_needed(ONLINE, 10, 0)


# --- the documentation's table -------------------------------------------------------------


def _doc_rows() -> Iterator[list[str]]:
    text = DOCS.read_text()
    table = text[text.index("| preset | hands | bytes a round |"):]
    for line in table.splitlines()[2:]:
        if not line.startswith("|"):
            break
        yield [c.strip() for c in line.strip("|").split("|")]


def test_the_docs_give_the_bytes_a_round_deal_batch_takes() -> None:
    """docs/limits.md's table of bytes a round, against the arrays of two rounds."""
    rows = list(_doc_rows())
    by_name = {name.strip(): row for row in rows[:-1] for name in row[0].split(",")}
    assert set(by_name) == set(PRESETS) and rows[-1][0] == "16 positions, 64 cards burned"
    for rules, (_, hands, per_round, billion) in [*((PRESETS[n], r) for n, r in by_name.items()), (WIDEST, rows[-1])]:
        dealt = deal_batch(rules, 2, seed=1, chunk_size=2)
        arrays = [dealt.hands, dealt.burned, dealt.burn_counts, dealt.head_cards, dealt.shoe,
                  dealt.round_in_shoe, dealt.last_of_shoe, dealt.cut_card]
        real = sum(a.nbytes for a in arrays if a is not None) // 2
        assert (rules.hands, real) == (int(hands), int(per_round)), rules.name
        assert billion == f"{real} GB"  # 10**9 rounds


# --- the batch functions and parse_hands ---------------------------------------------------


def _huge(dtype: str = "u1", n: int = 10**12) -> np.ndarray[Any, Any]:
    """n hands that take 3 items of memory: one hand broadcast."""
    return np.broadcast_to(np.array([0, 4, 8], dtype=dtype), (n, 3))


@pytest.mark.parametrize("call", [rank_batch, pair_plus_batch, lambda h: evaluate_batch(h),
                                  lambda h: compare_batch(h, "Kh Qs 9d")], ids=["rank", "pair_plus", "evaluate", "compare"])
def test_a_batch_output_beyond_the_memory_is_refused(small: int, call: Callable[[Any], object]) -> None:
    """A view of one hand takes nothing, and its output 10**12 bytes: refused, naming
    them (the bytes of the first output the call would allocate)."""
    assert _needed(_refused(lambda: call(_huge()), small)) == 10**12


def test_a_copy_of_the_input_beyond_the_memory_is_refused(small: int) -> None:
    """Hands in the other byte order are copied before the kernels read them."""
    other = ">u2" if np.little_endian else "<u2"
    assert _needed(_refused(lambda: rank_batch(_huge(other, 10**10)), small)) == 10**10 * 3 * 2


def test_a_batch_within_the_memory_is_evaluated(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_checks, "UNCHECKED_BYTES", 0)  # every size checked
    monkeypatch.setattr(_checks, "available_memory", lambda: 1000)
    hands = parse_hands(["Kh Qs 9d", "9c 9h 9s"] * 500)
    assert rank_batch(hands).nbytes == 1000
    with pytest.raises(MemoryError, match="1,002 bytes of memory needed, 1,000 available"):
        rank_batch(np.concatenate([hands, hands[:2]]))


def test_parse_hands_packs_hands_as_it_reads_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """3 bytes a hand, in blocks, the blocks joined only where the memory holds them."""
    texts = ["Ac 2c 3c", "Kh Qs 9d", "9c 9h 9s", "Jc Qd Kh", "2d 2h 2s"]
    whole = np.array([[c.code for c in batch.hand_cards(t)] for t in texts], dtype=np.uint8)
    monkeypatch.setattr(batch, "_PARSE_BLOCK", 2)
    for n in range(len(texts) + 1):
        parsed = parse_hands(iter(texts[:n]))
        assert parsed.dtype == np.uint8 and parsed.shape == (n, 3)
        assert np.array_equal(parsed, whole[:n])
    monkeypatch.setattr(_checks, "UNCHECKED_BYTES", 0)
    monkeypatch.setattr(_checks, "available_memory", lambda: 14)
    with pytest.raises(MemoryError, match="parse_hands of 5 hands: 15 bytes of memory needed, 14 available"):
        parse_hands(texts)


def test_parse_hands_takes_a_few_bytes_a_hand() -> None:
    """Measured from 100,000 hands to 300,000: a list of Python lists took about 90 bytes
    a hand; now 3 (twice, while the blocks are joined), and one block of lists."""
    few, many = ["Kh Qs 9d"] * 100_000, ["Kh Qs 9d"] * 300_000
    assert (_grown(lambda: parse_hands(many)) - _grown(lambda: parse_hands(few))) / 200_000 <= 6


# --- simulate ------------------------------------------------------------------------------


def test_simulate_of_many_chunks_is_refused(small: int) -> None:
    """simulate keeps about a kilobyte a chunk until it returns (its convergence): 10**15
    rounds in chunks of the default size would take terabytes."""
    message = _refused(lambda: simulate(ONLINE, MAX_SIM_ROUNDS, seed=1), small)
    assert "chunk_size" in message
    chunks = math.ceil(MAX_SIM_ROUNDS / simulation.DEFAULT_CHUNK)
    assert _needed(message) == chunks * simulation.SIMULATE_CHUNK_BYTES


@pytest.mark.kernels
def test_simulate_keeps_no_more_a_chunk_than_it_says() -> None:
    """The growth of the peak memory from 300 chunks to 900, per chunk (tracemalloc sees
    NumPy's arrays), is within SIMULATE_CHUNK_BYTES."""
    def run(chunks: int) -> Callable[[], object]:
        return lambda: simulate(ONLINE, chunks, seed=1, chunk_size=1, workers=1, compare_exact=False)

    run(900)()  # the tables, made once, and the reference's bounded per-hand caches filled (see _warm)
    per_chunk = (_grown(run(900)) - _grown(run(300))) / 600
    assert 0 < per_chunk <= simulation.SIMULATE_CHUNK_BYTES


def test_simulate_sessions_beyond_the_memory_is_refused(small: int) -> None:
    """Every worker running holds a net a round of its session: 10**7 rounds on 64
    workers need 16 GB."""
    message = _refused(lambda: simulate_sessions(MACAU, {"win:1": 100}, 10**6, MAX_SESSION_ROUNDS, MAX_SESSIONS,
                                                 seed=1, workers=64), small)
    assert _needed(message) >= 64 * MAX_SESSION_ROUNDS * 8


@pytest.mark.kernels
@pytest.mark.parametrize("bankroll", [10**6, 2**62 - 10**3], ids=["int64", "wide"])
def test_simulate_sessions_takes_no_more_a_round_than_it_says(bankroll: int) -> None:
    """One worker: the growth of the peak memory from 3,000 rounds a session to 9,000, per
    round, within SESSION_ROUND_BYTES (int64 sums, or Python integers where bankrolls
    may outgrow 64 bits)."""
    def run(rounds: int) -> Callable[[], object]:
        return lambda: simulate_sessions(MACAU, {"win:1": 100}, bankroll, rounds, 1, seed=1, workers=1)

    wide = simulate_sessions(MACAU, {"win:1": 100}, bankroll, 10, 1, seed=1, workers=1).finals.dtype == object
    from sanggong import _kernels

    few = 3_000 if _kernels.kernels.IMPLEMENTATION == "cython" else 1_000  # (the reference: a third of the rounds)
    run(3 * few)()  # the reference's bounded per-hand caches filled (see _warm)
    per_round = (_grown(run(3 * few)) - _grown(run(few))) / (2 * few)
    assert 0 < per_round <= simulation.SESSION_ROUND_BYTES[wide]
    assert wide == (bankroll > 2**61)


# --- the command line ----------------------------------------------------------------------


@pytest.mark.parametrize("argv", [
    ["simulate", "--rules", "online", "--rounds", str(MAX_SIM_ROUNDS), "--seed", "1"],
    ["simulate", "--rules", "macau", "--sessions", str(MAX_SESSIONS), "--session-rounds", str(MAX_SESSION_ROUNDS),
     "--bet", "win:1=100", "--bankroll", "1000000", "--seed", "1", "--workers", "64"],
])
def test_the_command_line_refuses_in_one_line(small: int, argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert captured.out == "" and len(lines) == 1, captured.err
    assert lines[0].startswith("sanggong simulate: error:") and f"{small:,} available" in lines[0], lines[0]


def test_sanggong_deal_keeps_nothing_a_round(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """``sanggong deal`` prints each round as it deals it: the same memory for 30 rounds as
    for 3, whatever is available."""
    monkeypatch.setattr(_checks, "available_memory", lambda: 0)

    def run(rounds: int) -> Callable[[], object]:
        return lambda: main(["deal", "--rules", "macau", "--rounds", str(rounds), "--seed", "1", "--json"])

    run(3)()
    grown = _grown(run(300)) - _grown(run(30))
    capsys.readouterr()
    assert grown < 100_000


# --- the memory available ------------------------------------------------------------------


def test_the_memory_available_is_known_here() -> None:
    """On Linux: MemAvailable, or a cgroup's limit less its use where that is lower."""
    available = _checks.available_memory()
    meminfo = Path("/proc/meminfo")
    if not meminfo.exists():
        pytest.skip("no /proc/meminfo")
    line = next(x for x in meminfo.read_text().splitlines() if x.startswith("MemAvailable:"))
    system = int(line.split()[1]) * 1024
    assert available is not None and 0 < available <= system * 1.1


def test_a_cgroup_limit_is_its_limit_less_what_it_uses(tmp_path: Path) -> None:
    (tmp_path / "memory.max").write_text("1000000\n")
    (tmp_path / "memory.current").write_text("600000\n")
    (tmp_path / "memory.stat").write_text("anon 400000\ninactive_file 150000\nactive_file 50000\n")
    assert _checks._cgroup_free(tmp_path, "memory.max", "memory.current", "inactive_file") == 550_000
    (tmp_path / "memory.max").write_text("max\n")
    assert _checks._cgroup_free(tmp_path, "memory.max", "memory.current", "inactive_file") is None
    (tmp_path / "memory.max").write_text(f"{2**63 - 4096}\n")  # v1's "no limit"
    assert _checks._cgroup_free(tmp_path, "memory.max", "memory.current", "inactive_file") is None
    assert _checks._cgroup_free(tmp_path / "absent", "memory.max", "memory.current", "inactive_file") is None


def test_where_nothing_is_known_nothing_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_checks, "_system_available", lambda: None)
    monkeypatch.setattr(_checks, "_cgroup_available", lambda: None)
    assert _checks.available_memory() is None
    assert _checks.memory("a call", 10**30) == 10**30
    monkeypatch.setattr(_checks, "_cgroup_available", lambda: 5 << 30)
    assert _checks.available_memory() == 5 << 30


def test_a_game_s_recall_fits_what_is_available(monkeypatch: pytest.MonkeyPatch) -> None:
    """``Game(recall=MAX_RECALL)`` kept a million records (gigabytes) with no check: the
    stake-free bound of ``recall_bytes`` is weighed against the memory available first."""
    from sanggong import Game, limits
    from sanggong.dealing._game import recall_bytes

    needed = recall_bytes(WIDEST, limits.MAX_RECALL)
    monkeypatch.setattr(_checks, "available_memory", lambda: needed)
    Game(WIDEST, seed=1, recall=limits.MAX_RECALL)  # (a deque's maxlen: nothing is allocated for it)
    monkeypatch.setattr(_checks, "available_memory", lambda: needed - 1)
    with pytest.raises(MemoryError, match=rf"Game\(recall=1,000,000\): {needed:,} bytes of memory needed"):
        Game(WIDEST, seed=1, recall=limits.MAX_RECALL)


@pytest.mark.kernels
@pytest.mark.parametrize(("positions", "players", "stakes"), [(1, 0, 0), (7, 1, 2), (16, 10, 3)])
def test_a_record_kept_takes_at_most_what_recall_bytes_says(positions: int, players: int, stakes: int) -> None:
    """The bound is what records really take: tracemalloc's growth over 200 kept records."""
    from sanggong import Game
    from sanggong.dealing._game import RECORD_STAKE_BYTES, recall_bytes

    rules = MACAU.replace(positions=positions, decks=8, cut_card_range=(100, 300))
    kinds = ["win", "tie", "point"]
    slip = {f"player {i}": {f"{kinds[k]}:{1 + i % positions}" if kinds[k] != "point" else "point:0": 10
                            for k in range(stakes)} for i in range(players)} or None
    game = Game(rules, seed=3, recall=300)
    for _ in range(20):
        game.play(slip)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(200):
            game.play(slip)
        grown = (tracemalloc.get_traced_memory()[0] - before) / 200
    finally:
        tracemalloc.stop()
    assert grown <= recall_bytes(rules, 1) + RECORD_STAKE_BYTES * players * stakes, grown
