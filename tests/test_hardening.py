"""Nothing bad gets in, round two: a regression test for each class an attacker's second
pass found (seeds, records, replay honesty, repeats, memory, threads, bytes). Each test
fails on the code before its fix; the section headers give the class's number in the
issue that found them.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import os
import sys
import threading
import tracemalloc
import warnings
from collections import Counter
from decimal import Decimal, localcontext
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from cli_run import fails, run

import sanggong
from sanggong import (
    MACAU,
    ONLINE,
    Game,
    ObservedTable,
    Replayer,
    RoundRecord,
    RuleSet,
    Seed,
    ShoeEvaluator,
    TableSession,
    composition,
    deal_batch,
    dealing,
    evaluate,
    parse_cards,
    parse_hands,
    play_shoes,
    seeds,
    settle,
    simulate,
    simulate_sessions,
    verify_log,
)
from sanggong._canonical import canonical_json
from sanggong.cli import main
from sanggong.records import record_hash
from sanggong.shoe import design

HUGE = 1 << 4_000_000  # a seed of four million bits: numpy takes seconds to hash one
KEY = b"operator key"


# --- 1. seeds are bounded before any work ---------------------------------------------------


ENTRY_POINTS = {
    "Game": lambda seed: Game(MACAU, seed),
    "deal_batch": lambda seed: deal_batch(ONLINE, 10, seed=seed),
    "simulate": lambda seed: simulate(ONLINE, 10, seed=seed, workers=1),
    "simulate_sessions": lambda seed: simulate_sessions(MACAU, {"win:1": 1}, 100, 10, 2, seed=seed),
    "play_shoes": lambda seed: play_shoes(MACAU, 1, "count", seed=seed, bets=["point:0"]),
    "design": lambda seed: design(MACAU, "point:0", (0.02, 0.06), seed=seed, shoes=1),
}


def _forged_seed() -> Seed:
    """A ``Seed`` that skipped its own checks (as ``object.__new__`` or a pickle can make one)."""
    forged = object.__new__(Seed)
    for field, value in (("entropy", HUGE), ("spawn_key", ()), ("pool_size", 4), ("n_children_spawned", 0)):
        object.__setattr__(forged, field, value)
    return forged


@pytest.mark.parametrize("name", list(ENTRY_POINTS))
@pytest.mark.parametrize("seed", [HUGE, -1, 2**256, np.random.SeedSequence(2**300), "forged"],
                         ids=["4M bits", "negative", "2**256", "sequence of 300 bits", "forged Seed"])
def test_a_seed_is_bounded_before_numpy_hashes_it(name: str, seed: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    if seed == "forged":
        seed = _forged_seed()

    def never(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("numpy was handed the seed before its size was checked")

    monkeypatch.setattr(seeds, "_sequence", never)
    with pytest.raises(ValueError, match=r"seed"):
        ENTRY_POINTS[name](seed)


@pytest.mark.kernels
def test_the_command_line_bounds_a_seed_as_the_api_does(capsys: pytest.CaptureFixture[str]) -> None:
    fails(["deal", "--rules", "online", "--seed", str(2**256)], "seed must be an int in 0..2**256 - 1", capsys)
    fails(["simulate", "--rules", "online", "--rounds", "10", "--seed", "9" * 5000], "is not a seed", capsys)
    top = str(2**256 - 1)  # the API's largest seed is the command line's too (it was 2**128 - 1)
    assert json.loads(run(["deal", "--rules", "online", "--seed", top, "--json"], capsys).splitlines()[0])["seed"] == top


# --- 2. a recorded seed re-creates the run --------------------------------------------------


def _sequences() -> dict[str, np.random.SeedSequence]:
    spawned = np.random.SeedSequence(42)
    spawned.spawn(3)
    return {
        "has spawned": spawned,
        "a child": np.random.SeedSequence(42).spawn(2)[1],
        "list entropy": np.random.SeedSequence([1, 2, 3]),
        "pool size 8": np.random.SeedSequence(5, pool_size=8),
    }


@pytest.mark.parametrize("which", list(_sequences()))
@pytest.mark.kernels
def test_a_results_seed_deals_the_same_rounds_again(which: str) -> None:
    sequence = _sequences()[which]
    dealt = deal_batch(ONLINE, 300, seed=sequence, chunk_size=100)
    assert isinstance(dealt.seed, Seed)
    assert deal_batch(ONLINE, 300, seed=dealt.seed, chunk_size=100) == dealt
    assert deal_batch(ONLINE, 300, seed=Seed.from_dict(json.loads(json.dumps(dealt.seed.to_dict()))),
                      chunk_size=100) == dealt
    if which == "has spawned":  # the seed it used to record, 42, deals other rounds
        assert deal_batch(ONLINE, 300, seed=42, chunk_size=100) != dealt
    result = simulate(ONLINE, 3000, seed=sequence, chunk_size=1000, workers=1, compare_exact=False)
    again = simulate(ONLINE, 3000, seed=result.seed, chunk_size=1000, workers=2, compare_exact=False)
    assert again.bets == result.bets and again.seed == result.seed
    sessions = simulate_sessions(MACAU, {"win:1": 10}, 300, 50, 20, seed=sequence, workers=1)
    assert np.array_equal(simulate_sessions(MACAU, {"win:1": 10}, 300, 50, 20, seed=sessions.seed).finals,
                          sessions.finals)
    played = play_shoes(MACAU, 4, "count", seed=sequence, bets=["point:0"], chunk_size=2)
    assert play_shoes(MACAU, 4, "count", seed=played.seed, bets=["point:0"], chunk_size=2) == played
    assert json.dumps(result.to_dict()["seed"])  # a Seed writes itself as JSON


@pytest.mark.kernels
def test_a_plain_seed_is_still_an_int_and_a_spawned_game_replays_from_its_state() -> None:
    assert deal_batch(ONLINE, 5, seed=np.random.SeedSequence(7)).seed == 7
    assert Game(MACAU, np.random.SeedSequence(7)).seed == 7
    spawned = np.random.SeedSequence(7)
    spawned.spawn(2)  # a game draws from the sequence's own state, which spawning does not change
    assert Game(MACAU, spawned).seed == 7
    game = Game(MACAU, np.random.SeedSequence(7).spawn(1)[0])  # no int re-creates it: the shoe state does
    record = game.play({"odd": 5})
    assert game.seed is None and Game.replay_record(MACAU, record) == record


def test_seed_values_are_checked() -> None:
    with pytest.raises(ValueError, match="pool size"):
        Seed(1, pool_size=3)
    with pytest.raises(ValueError, match="spawn key"):
        Seed(1, spawn_key=(-1,))
    with pytest.raises(TypeError, match="seed must be an int, a SeedSequence or None"):
        deal_batch(ONLINE, 5, seed=1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seed must be an int"):
        Game(MACAU, seed=True)  # type: ignore[arg-type]


# --- 3. records never depend on the caller's state -------------------------------------------


class MyDecimal(Decimal):
    pass


class MyFraction(Fraction):
    pass


class MyInt(int):
    pass


def _log(stake: Any, rounds: int = 30) -> list[str]:
    game = Game(MACAU, seed=11, key=KEY)
    return [game.play({"win:1": stake, "point:0": stake}).to_json() for _ in range(rounds)]


@pytest.mark.parametrize(("given", "base"), [
    (MyDecimal("100"), Decimal("100")), (Decimal("1E+2"), Decimal("100")), (Decimal("100.000"), Decimal("100")),
    (MyFraction(7, 2), Fraction(7, 2)), (MyInt(100), 100), (np.int64(100), None),
])
@pytest.mark.kernels
def test_a_record_is_the_same_bytes_whatever_the_number_types(given: Any, base: Any) -> None:
    if base is None:  # a numpy int is not money: refused, not recorded as something else
        with pytest.raises(TypeError, match="is not an amount"):
            Game(MACAU, seed=1).play({"win:1": given})
        return
    assert _log(given) == _log(base)
    record = RoundRecord.from_json(_log(given, 1)[0])
    assert all(type(v) is type(base) for v in record.bets.values())
    assert verify_log(_log(given), key=KEY).ok


@pytest.mark.kernels
def test_a_record_is_the_same_bytes_whatever_the_decimal_context() -> None:
    tiny = MACAU.replace(name="tiny units", minor_unit=Decimal("1E-30"))
    stake = Decimal("1E-27")
    plain = [Game(tiny, seed=2).play({"win:1": stake}).to_json() for _ in range(1)]
    with localcontext() as context:
        context.capitals = 0
        context.prec = 3
        lowered = [Game(tiny, seed=2).play({"win:1": stake}).to_json() for _ in range(1)]
        digest = tiny.digest()
        log = _log(Decimal("100"))
        assert verify_log(log, key=KEY).ok  # the game's own log verifies under the caller's context
    assert lowered == plain and digest == tiny.digest()
    assert "e-" not in plain[0] and "1.00E-27" not in plain[0]  # written as sanggong's own context writes it
    assert log == _log(Decimal("100"))


@pytest.mark.kernels
def test_the_canonical_form_is_rfc_8785() -> None:
    rfc8785 = pytest.importorskip("rfc8785")
    records = []
    for rules, stake, rng in [(MACAU, 100, None), (MACAU, Decimal("2.50"), None), (ONLINE, Fraction(7, 3), None),
                              (ONLINE, 5, np.random.MT19937(3)), (MACAU, 5, np.random.Philox(4))]:
        game = Game(rules, seed=None if rng is not None else 9, rng=rng, key=KEY)
        bets = {"win:1": stake, "odd": stake} if rules is MACAU else {"lose:1": stake, "pair_plus:2": stake}
        records += [game.play(bets) for _ in range(20)]
    records.append(ObservedTable(ONLINE).play("5h Ks Qs 9d As 2d 3c 4h 4d 4c Jh Jd Tc", {"tie:1": 3}))
    for record in records:
        body = {k: v for k, v in record.to_dict().items() if k not in ("hash", "hmac")}
        assert record.canonical == rfc8785.dumps(body)
        assert record.hash == record_hash(json.loads(record.to_json()))
    assert MACAU.digest() == __import__("hashlib").sha256(rfc8785.dumps(MACAU.to_dict())).hexdigest()
    # the orders differ where a key holds a character beyond U+FFFF: JCS sorts by UTF-16
    odd = {"\U0001f600": 1, "\ufb01": 2, "a": [True, None, "\x07\u2028"]}
    assert canonical_json(odd) == rfc8785.dumps(odd)
    with pytest.raises(ValueError, match="2\\*\\*53"):
        canonical_json({"n": 2**53})


# --- 4. verify is honest about what it cannot check -----------------------------------------


@pytest.mark.kernels
def test_an_mt19937_log_replays_on_both_implementations(impl: Any) -> None:
    game = Game(MACAU, rng=np.random.MT19937(5), key=KEY)
    lines = [game.play({"win:1": 100}).to_json() for _ in range(60)]
    report = verify_log(lines, key=KEY)
    assert report.ok and report.replayed, report.reason  # the reference once called this tampered


@pytest.mark.parametrize("name", ["MT19937", "PCG64", "Philox"])
def test_both_implementations_draw_the_same_words(name: str) -> None:
    from sanggong import _core
    from sanggong._kernels import twin as _pykernels

    decks = []
    for kernels in (_core, _pykernels):
        generator = getattr(np.random, name)(17)
        deck = (np.arange(416) % 52).astype(np.uint8)
        out = np.zeros(400, np.uint8)
        kernels.draw(generator, deck, 0, 400, out)
        decks.append((out.tolist(), kernels.bounded(generator, 10**9), str(generator.state)))
    assert decks[0] == decks[1]


@pytest.mark.kernels
def test_a_log_that_cannot_be_replayed_here_is_unchecked_not_tampered(monkeypatch: pytest.MonkeyPatch,
                                                                         tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    game = Game(MACAU, rng=np.random.MT19937(5))
    path = tmp_path / "log.jsonl"
    path.write_text("".join(game.play({"odd": 5}).to_json() + "\n" for _ in range(5)))
    monkeypatch.setitem(dealing._game.CANNOT_REPLAY, sanggong._kernels.kernels.IMPLEMENTATION, frozenset({"MT19937"}))
    report = verify_log(path)
    assert (report.ok, report.status, report.first_bad) == (False, "unchecked", 1)
    assert str(report).startswith("cannot check: line 1 (round 1): the ") and "bad" not in str(report)
    assert main(["verify", str(path)]) == 3
    captured = capsys.readouterr()
    assert captured.out.startswith("cannot check:") and captured.err == ""
    assert main(["verify", str(path), "--json"]) == 3
    assert json.loads(capsys.readouterr().out)["status"] == "unchecked"


@pytest.mark.kernels
def test_a_round_too_far_from_its_seed_is_unchecked() -> None:
    record = Game(MACAU, seed=3).play({"odd": 5})
    far = dataclasses.replace(record, round=sanggong.limits.MAX_REPLAY_ROUNDS + 5, shoe_state=None, prev="ab" * 32)
    with pytest.raises(dealing.CannotCheck, match="deals at most"):
        Replayer(MACAU).check(far)
    report = verify_log([far.to_json()], start_prev="ab" * 32)  # a log that continues another, far in
    assert report.status == "unchecked" and "a replay from the seed deals at most" in str(report.reason)


@pytest.mark.parametrize("cut", [1, 10, 29])
@pytest.mark.kernels
def test_signatures_cannot_vanish_part_way(cut: int) -> None:
    lines = _log(100)
    stripped = [*lines[:cut], *(_strip(line) for line in lines[cut:])]
    report = verify_log(stripped, replay=False)  # without the key
    assert (report.ok, report.first_bad) == (False, cut + 1), report
    assert "has no HMAC, but line 1 has one" in str(report.reason)
    appearing = [*(_strip(line) for line in lines[:cut]), *lines[cut:]]
    assert "has an HMAC, but line 1 has none" in str(verify_log(appearing, replay=False).reason)
    assert verify_log(lines, replay=False).signed
    assert "signed (HMAC not checked: no key given)" in str(verify_log(lines, replay=False))


def _strip(line: str) -> str:
    data = json.loads(line)
    data.pop("hmac")
    return json.dumps(data)


# --- 5. key files are read whole or refused -------------------------------------------------


@pytest.mark.kernels
def test_a_key_file_is_read_whole_or_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = bytes(range(256)) * 16  # 4,096 bytes
    good, longer = tmp_path / "good.key", tmp_path / "longer.key"
    good.write_bytes(key + b"\r\n")
    longer.write_bytes(key + b"\r\nand more")  # the same first 4,096 bytes
    log = tmp_path / "log.jsonl"
    log.write_text(run(["deal", "--rules", "online", "--rounds", "3", "--seed", "1", "--json", "--key-file",
                        str(good)], capsys))
    assert run(["verify", str(log), "--key-file", str(good)], capsys).startswith("ok:")
    fails(["verify", str(log), "--key-file", str(longer)], "a key is 1 to 4,096 bytes", capsys)
    fails(["deal", "--rules", "online", "--key-file", str(longer)], "the file holds more", capsys)
    one_more = tmp_path / "4097.key"
    one_more.write_bytes(key + b"x")
    fails(["deal", "--rules", "online", "--key-file", str(one_more)], "the file holds more", capsys)


# --- 6. rule files: one rule for duplicates -------------------------------------------------


def test_a_json_rule_file_with_a_key_twice_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "table.json"
    path.write_text('{"name": "t", "variant": "macau", "pays": {"tie": 80, "tie": 8}}')
    with pytest.raises(ValueError, match="the key 'tie' appears twice in one object"):
        RuleSet.load(path)
    nested = tmp_path / "nested.json"
    nested.write_text('{"name": "t", "name": "u", "variant": "macau"}')
    with pytest.raises(ValueError, match="the key 'name' appears twice"):
        RuleSet.load(nested)
    fails(["analyze", "--rules-file", str(path)], "appears twice", capsys)
    toml = tmp_path / "table.toml"
    toml.write_text('name = "t"\nvariant = "macau"\n[pays]\ntie = 80\ntie = 8\n')
    with pytest.raises(ValueError):  # TOML's grammar refuses it too
        RuleSet.load(toml)
    tags = tmp_path / "tags.json"
    tags.write_text('{"A": 1, "A": -1}')
    fails(["protect", "--rules", "macau", "--shoes", "1", "--tags", str(tags)], "appears twice", capsys)


# --- 7. the command line never drops what it was told ---------------------------------------

SETTLE = ["settle", "--rules", "online", "--banker", "Kh 5d 6h"]


@pytest.mark.parametrize(("argv", "needle"), [
    ([*SETTLE, "--hand", '1=Kh 5d 6h', "--hand", "01=As 2s 3s", "--bet", "win:1=5"], "'01' is not a position"),
    ([*SETTLE, "--hand", "1=2h 5d 6h", "--hand", "1=As 2s 3s", "--bet", "win:1=5"], "position 1 is given twice"),
    ([*SETTLE, "--hand", "1=2h 5d 6h", "--bet", "win:1=5", "--bet", "win:1=6"], "win:1 is given twice"),
    ([*SETTLE, "--hand", "1=2h 5d 6h", "--bet", "win:1=5", "--banker", "As 2s 3s"], "--banker is given twice"),
    (["settle", "--rules", "san_gong", "--dragon", "As 2s 3s", "--hand", "1=2h 5d 6h", "--phoenix", "Kh 5d 6h",
      "--bet", "dragon=5"], "both name the Dragon hand"),
    (["simulate", "--rules", "online", "--rounds", "10", "--bet", "win:1=5", "--bet", "win:1=6"], "given twice"),
    (["simulate", "--rules", "online", "--rounds", "10", "--rounds", "20"], "--rounds is given twice"),
    (["deal", "--rules", "online", "--seed", "1", "--seed", "2"], "--seed is given twice"),
    (["deal", "--rules", "online", "--json", "--json"], "--json is given twice"),
    (["analyze", "--rules", "macau", "--rules-file", "x.toml"], "not allowed with argument --rules"),
    (["verify", "x.jsonl", "--key-file", "a", "--key-file", "b"], "--key-file is given twice"),
    (["protect", "--rules", "macau", "--bets", "point:0", "--bets", "point:1"], "--bets is given twice"),
])
def test_a_repeated_or_aliased_option_is_refused(argv: list[str], needle: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    fails(argv, needle, capsys)


# --- 8. plots are checked before the work and never print stray warnings ---------------------


def test_a_plot_is_checked_before_the_work(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / "x.png"
    fails(["protect", "--rules", "macau", "--decks", "1", "--shoes", "5", "--plot", str(target)],
          "nothing to plot", capsys)
    fails(["protect", "--rules", "macau", "--shoes", "5", "--plot", str(tmp_path / "x.xyz")],
          "'.xyz' is not a format matplotlib writes", capsys)
    fails(["simulate", "--rules", "online", "--rounds", "1e12", "--plot", str(tmp_path / "x")], "no suffix", capsys)
    assert not list(tmp_path.iterdir())


@pytest.mark.kernels
def test_nothing_to_plot_is_said_plainly_and_no_warning_leaks(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / "counts.png"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning would fail the command
        assert main(["protect", "--rules", "macau", "--shoes", "2", "--seed", "1", "--bets", "point:0",
                     "--plot", str(target)]) == 0
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [f"note: --plot {target} not written: nothing to plot: no true count was "
                                         "reached in 100 rounds or more by any bet (play more shoes)"]
    assert not target.exists()
    drawn = tmp_path / "drawn.svg"
    assert main(["simulate", "--rules", "online", "--rounds", "40000", "--chunk", "10000", "--seed", "1",
                 "--plot", str(drawn)]) == 0
    assert capsys.readouterr().err == "" and drawn.read_text().startswith("<?xml")


# --- 9. memory stays bounded ------------------------------------------------------------------


@pytest.mark.kernels
def test_deal_batch_keeps_a_bounded_number_of_chunks_in_flight() -> None:
    # 20,000 one-round chunks under both implementations: with every chunk submitted at once
    # the peak was over 3 KB a chunk (60 MB here), ten times the bound below
    rounds = 20_000
    output = deal_batch(ONLINE, 1, seed=1)
    per_round = sum(a.nbytes for a in (output.hands, output.burned, output.burn_counts, output.head_cards,
                                       output.shoe, output.round_in_shoe, output.last_of_shoe, output.cut_card))
    tracemalloc.start()
    try:
        dealt = deal_batch(ONLINE, rounds, seed=1, chunk_size=1, workers=2)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # the output, the shoes-per-chunk counts (8 bytes a chunk) and a few chunks in flight;
    # with every chunk submitted at once it was over 3 KB a chunk (630 MB for 200,000)
    assert peak < rounds * (per_round + 8) + 4_000_000, peak
    assert dealt == deal_batch(ONLINE, rounds, seed=1, chunk_size=1, workers=1)


# --- 10. the README's test command is deterministic -----------------------------------------


def test_hypothesis_runs_derandomized_by_default(pytestconfig: pytest.Config) -> None:
    """The profile, not the kernels: run once."""
    from hypothesis import settings

    marks = str(pytestconfig.getoption("markexpr"))
    if "fuzz" in marks.replace("not fuzz", "") or os.environ.get("SANGGONG_HYPOTHESIS_PROFILE"):
        pytest.skip("a randomized run was asked for")
    assert settings.default.derandomize and settings.default.database is None


# --- 11. a thread-safety contract, kept -----------------------------------------------------


@pytest.fixture
def switchy() -> Any:
    """Threads switch every microsecond: races show up at once."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def _hammer(work: Any, threads: int = 8) -> list[Any]:
    results: list[Any] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(threads)

    def body() -> None:
        barrier.wait()
        try:
            results.extend(work())
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    pool = [threading.Thread(target=body) for _ in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    assert not errors, errors
    return results


@pytest.mark.parametrize("rules", [MACAU, ONLINE], ids=["macau", "online"])
@pytest.mark.kernels
def test_a_game_shared_by_threads_deals_each_round_once_and_chains(rules: RuleSet, switchy: Any, impl: Any) -> None:
    game = Game(rules, seed=4, key=KEY, recall=1000)
    bets = {"win:1": 100} if rules is MACAU else {"lose:2": 100}
    records = _hammer(lambda: [game.play(bets) for _ in range(25)])
    rounds = sorted(r.round for r in records)
    assert rounds == list(range(1, 201))  # no round number handed out twice
    chained = sorted(records, key=lambda r: r.round)
    assert list(game.records) == chained
    assert verify_log([r.to_json() for r in chained], key=KEY).ok  # the same rounds as one thread deals
    alone = Game(rules, seed=4, key=KEY)
    assert [alone.play(bets) for _ in range(200)] == chained


@pytest.mark.kernels
def test_a_table_session_shared_by_threads_conserves_money(switchy: Any) -> None:
    seat = TableSession(MACAU)
    results = _hammer(lambda: [seat.settle("9c 9d 5h", {1: "9h 9s 5c"}, {"win:1": 100}) for _ in range(20)])
    assert len(results) == 160 and dict(seat.carried) == {"win:1": 100}
    assert all(r.staked == r.carried + r.returned + r.house_net for r in results)


@pytest.mark.kernels
def test_an_observed_table_shared_by_threads(switchy: Any) -> None:
    table = ObservedTable(ONLINE)
    cards = "5h Ks Qs 9d As 2d 3c 4h 4d 4c Jh Jd Tc"
    records = _hammer(lambda: [table.play(cards, {"win:1": 100}) for _ in range(10)])
    assert sorted(r.round for r in records) == list(range(1, 81)) and table.round == 80
    by_round = sorted(records, key=lambda r: r.round)
    assert all(b.prev == a.hash for a, b in itertools.pairwise(by_round))


@pytest.mark.kernels
def test_a_replayer_shared_by_threads(switchy: Any) -> None:
    game = Game(MACAU, seed=6)
    records = [game.play({"odd": 5}) for _ in range(40)]
    replayer = Replayer(MACAU)
    checked = _hammer(lambda: [replayer.check(r) for r in records[:10]], threads=4)
    assert Counter(r.round for r in checked) == dict.fromkeys(range(1, 11), 4)



def test_a_shoe_evaluator_shared_by_threads(switchy: Any) -> None:
    """Eight threads take the two black aces of a one-deck shoe out and put them back while
    they read the EVs: at most one holds them at a time (a remove is checked and done whole,
    never one ace of the two), and every EV read is the full shoe's or the shoe without
    them, never a mix of the two."""
    shared = ShoeEvaluator(MACAU, composition(1))
    without = ShoeEvaluator(MACAU, composition(1))
    without.remove("As Ac")
    states = [shared.evs(), without.evs()]
    holders = [0]
    guard = threading.Lock()

    def work() -> list[bool]:
        seen: list[bool] = []
        for _ in range(100):
            try:
                shared.remove("As Ac")
            except ValueError:
                pass  # another thread holds them
            else:
                with guard:
                    holders[0] += 1
                    assert holders[0] == 1
                    holders[0] -= 1
                shared.add("Ac As")
            seen.append(shared.evs() in states)
        return seen

    seen = _hammer(work)
    assert len(seen) == 800 and all(seen)
    assert shared.evs() == states[0] and shared.cards == 52

# --- 12. text is text -----------------------------------------------------------------------


@pytest.mark.parametrize("call", [
    lambda: evaluate(b"123"),
    lambda: parse_cards(b"Kh Qs 9d"),
    lambda: parse_cards([b"Kh", "Qs", "9d"]),
    lambda: parse_hands(b"Kh Qs 9d"),
    lambda: parse_hands([b"Kh Qs 9d"]),
    lambda: ObservedTable(ONLINE).play(b"5h Ks Qs 9d As 2d 3c 4h 4d 4c Jh Jd Tc"),
    lambda: settle(ONLINE, "Kh Qs 9d", {1: bytearray(b"\x01\x02\x03")}, {"win:1": 1}),
    lambda: composition(1, memoryview(b"\x00")),
    lambda: sanggong.ShoeEvaluator(ONLINE, bets=["pair_plus:1"]).remove(b"Kh"),
])
@pytest.mark.kernels
def test_bytes_are_never_read_as_card_codes(call: Any) -> None:
    with pytest.raises(TypeError, match="bytes|bytearray|memoryview"):
        call()
