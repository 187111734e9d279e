"""sanggong.shuffle_test: the battery's kernels against the production dealing path and an
independent tally, its statistics against scipy (or a direct count), its power against
planted faults, its refusals, the command line, and the raw streams for Dieharder."""

from __future__ import annotations

import io
import itertools
import json
import shutil
import subprocess
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import scipy.stats
from cli_run import fails

import sanggong
from sanggong import MACAU, ONLINE, deal_batch, shuffle_test
from sanggong.cards import Card
from sanggong.cli import main
from sanggong.dealing import dealing_sequence
from sanggong.rules import as_rules
from sanggong.seeds import check_seed, child
from sanggong.shuffletest import check_shuffles, layout, read_shuffles
from sanggong.shuffletest._stats import (
    Layout,
    chi_square_by_position,
    holm,
    largest_cell,
    pearson_uniform,
    studentized,
)
from sanggong.shuffletest._stream import word_stream, write_stream
from sanggong.shuffletest.faults import modulo_bias, naive_swap, reused_shoe, sticky_card, uniform

SMALL_TABLE = as_rules("macau").replace(decks=2, positions=2)


@pytest.fixture
def compiled() -> Iterator[object]:
    """The statistics at a laboratory's sample sizes run on the compiled core, which this installs
    for the test: the twin's tallies are held to the same direct count on small samples
    (test_tallies_against_a_direct_count, under both implementations)."""
    import sanggong._core as core
    chosen = sanggong._kernels.kernels
    sanggong._kernels.kernels = core
    try:
        yield core
    finally:
        sanggong._kernels.kernels = chosen


def _shoes_from_deal_batch(rules: sanggong.RuleSet, rounds: int, seed: int) -> tuple[list[list[int]], list[int]]:
    """Whole shoes re-assembled from deal_batch's rounds (dealing_sequence: each round's cards in
    the order they came out), and each shoe's cut card place."""
    dealt = deal_batch(rules, rounds, seed=seed, chunk_size=rounds, workers=1)
    shoes: list[list[int]] = []
    cuts: list[int] = []
    current: list[int] = []
    for i in range(rounds):
        burned = [Card(int(c)) for c in dealt.burned[i, :dealt.burn_counts[i]]]
        head = None if dealt.head_cards is None else Card(int(dealt.head_cards[i]))
        hands = {p: tuple(Card(int(c)) for c in dealt.hands[i, p]) for p in range(1, rules.hands)}
        banker = tuple(Card(int(c)) for c in dealt.hands[i, 0])
        current += [c.code for c in dealing_sequence(rules, burned, head, banker, hands)]  # type: ignore[arg-type]
        if dealt.last_of_shoe[i]:
            shoes.append(current)
            cuts.append(int(dealt.cut_card[i]))
            current = []
    return shoes, cuts


@pytest.mark.kernels
@pytest.mark.parametrize("rules", [ONLINE, MACAU, SMALL_TABLE], ids=["online", "macau", "small"])
def test_shuffle_cards_are_the_dealing_paths(rules: sanggong.RuleSet) -> None:
    """The shoes the battery tests are deal_batch's (so Game's) cards, burns, head cards and cut card included."""
    fresh = layout(rules).cut is None
    rounds = 60 if fresh else 400
    shoes, cuts = _shoes_from_deal_batch(rules, rounds, seed=5)
    width = layout(rules).k
    cards = np.zeros((len(shoes), width), np.uint8)
    places = np.zeros(len(shoes), np.uint16)
    sequence, _ = check_seed(5)
    sanggong._kernels.kernels.shuffle_cards(np.random.PCG64(child(sequence, 0)), table_array(rules), cards, places)
    assert cards.tolist() == [s[:width] for s in shoes]
    assert all(len(s) >= width for s in shoes)
    assert places.tolist() == ([0] * len(shoes) if fresh else cuts)


def table_array(rules: sanggong.RuleSet) -> np.ndarray:
    from sanggong._table import table_params
    return table_params(rules).array()


def _direct_tallies(cards: np.ndarray, bounds: tuple[int, ...]) -> tuple[np.ndarray, list[int], list[float]]:
    """The tallies (csrc/shuffletest.pxi's notes) counted directly with numpy, pair by pair."""
    k = bounds[-1]
    c = cards[:, :k].astype(np.int64)
    y = 2 * c - 51
    counts = np.zeros((k, 52), np.int64)
    np.add.at(counts, (np.tile(np.arange(k), len(c)), c.ravel()), 1)
    t0 = ((c[:, 1:] < 26) != (c[:, :-1] < 26)).sum(axis=1)
    t1 = sum(y[:, i] * y[:, j] for a, b in itertools.pairwise(bounds) for i in range(a, b) for j in range(i + 1, b))
    t2 = sum(y[:, a + j] * y[:, b + j] for (a, b), (_, e) in itertools.pairwise(itertools.pairwise(bounds))
             for j in range(min(b - a, e - b)))
    t1 = np.broadcast_to(t1, (len(c),))
    t2 = np.broadcast_to(t2, (len(c),))
    t3 = np.concatenate([[0], (y[1:] * y[:-1]).sum(axis=1)])
    ts = [t0, t1, t2, t3]
    return counts, [int(t.sum()) for t in ts], [float((t.astype(np.float64) ** 2).sum()) for t in ts]


@pytest.mark.kernels
@pytest.mark.parametrize("rules", [ONLINE, SMALL_TABLE], ids=["online", "small"])
def test_tallies_against_a_direct_count(rules: sanggong.RuleSet) -> None:
    lay = layout(rules)
    shoes = 40
    cards = np.zeros((shoes, lay.k), np.uint8)
    kernels = sanggong._kernels.kernels
    kernels.shuffle_cards(np.random.Philox(3), table_array(rules), cards, np.zeros(shoes, np.uint16))
    counts, sums, squares = _direct_tallies(cards, lay.bounds)
    bounds = np.array(lay.bounds, np.int64)
    for tally in ("dealt", "recorded"):
        got_counts = np.zeros((lay.k, 52), np.int64)
        got_sums, got_squares = np.zeros(4, np.int64), np.zeros(4, np.float64)
        cuts = np.zeros(0 if lay.cut is None else lay.cut[1] - lay.cut[0] + 1, np.int64)
        if tally == "dealt":
            kernels.shuffle_tally(np.random.Philox(3), table_array(rules), shoes, bounds, got_counts, cuts, got_sums,
                                  got_squares)
        else:
            assert kernels.shuffle_tally_cards(cards, bounds, got_counts, got_sums, got_squares) == -1
        assert np.array_equal(got_counts, counts)
        assert got_sums.tolist() == sums
        assert got_squares.tolist() == pytest.approx(squares, rel=1e-12)


@pytest.mark.kernels
def test_kernels_refuse_what_they_cannot_tally() -> None:
    kernels = sanggong._kernels.kernels
    bounds = np.array([0, 13], np.int64)
    sums, squares = np.zeros(4, np.int64), np.zeros(4, np.float64)
    bad = np.zeros((3, 13), np.uint8)
    bad[1, 5] = 52
    assert kernels.shuffle_tally_cards(bad, bounds, np.zeros((13, 52), np.int64), sums, squares) == 1
    with pytest.raises(ValueError, match="counts must have shape"):
        kernels.shuffle_tally_cards(bad, bounds, np.zeros((12, 52), np.int64), sums, squares)
    with pytest.raises(ValueError, match="past the"):
        kernels.shuffle_tally_cards(bad, np.array([0, 14], np.int64), np.zeros((14, 52), np.int64), sums, squares)
    with pytest.raises(ValueError, match="fewer than"):  # past the cards every online shoe deals
        kernels.shuffle_cards(np.random.PCG64(1), table_array(ONLINE), np.zeros((2, 14), np.uint8),
                              np.zeros(2, np.uint16))


@pytest.mark.kernels
def test_words_are_the_prefix_the_dealing_path_draws() -> None:
    """shuffle_cards counts W words; drawing W words from the same generator leaves it where the dealing did."""
    for make in (np.random.PCG64, np.random.Philox, np.random.MT19937):
        dealer = make(9)
        drawn = sanggong._kernels.kernels.shuffle_cards(dealer, table_array(SMALL_TABLE), np.zeros((3, 40), np.uint8),
                                                     np.zeros(3, np.uint16))
        replay = make(9)
        np.random.Generator(replay).integers(0, 2**64, drawn, dtype=np.uint64)
        assert _same_state(replay.state, dealer.state) and drawn > 0


def _same_state(a: object, b: object) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same_state(a[k], b[k]) for k in a)
    return bool(np.array_equal(a, b))  # type: ignore[arg-type]


@pytest.mark.usefixtures("compiled")
def test_results_do_not_depend_on_workers() -> None:
    one = shuffle_test("online", shoes=300_000, seed=4, workers=1)
    two = shuffle_test("online", shoes=300_000, seed=4, workers=2)
    assert one.rows == two.rows and np.array_equal(one.counts, two.counts)
    assert one.shoes == 300_000 and one.cards == 300_000 * 13


# --- statistics against scipy or a direct count ------------------------------------------


def test_null_means_by_a_direct_count() -> None:
    """Layout.expected's exact means against a count over every ordered pair of a shoe's cards."""
    for decks in (1, 2):
        n = 52 * decks
        codes = np.arange(n) % 52
        low = codes < 26
        y = 2 * codes - 51
        pairs = n * (n - 1)
        differ = Fraction(int((low[:, None] != low[None, :]).sum()), pairs)
        product = Fraction(int(np.outer(y, y).sum() - (y * y).sum()), pairs)
        lay = Layout(n, (0, 5, 13, 20))
        runs, within, serial, shoes = lay.expected()
        assert runs == 19 * differ
        assert within == (10 + 28 + 21) * product
        assert serial == (5 + 7) * product
        assert shoes == 0


def test_chi_square_by_position_is_calibrated() -> None:
    """Under a uniform shuffle its p-values are uniform (K < n and K = n), by scipy's KS test, and the
    statistic is the Pearson sum decomposed (checked against scipy.stats.chisquare row by row)."""
    rng = np.random.default_rng(11)
    for decks, k in ((1, 13), (1, 52), (2, 30)):
        n = 52 * decks
        p_values = []
        for _ in range(150):
            shoes = uniform(rng, 300, decks)[:, :k]
            counts = np.zeros((k, 52), np.int64)
            np.add.at(counts, (np.tile(np.arange(k), 300), shoes.ravel()), 1)
            statistic, df = chi_square_by_position(counts, n)
            p_values.append(scipy.stats.chi2.sf(statistic, df))
            pearson = sum(scipy.stats.chisquare(row).statistic for row in counts)
            mean_part = float(((counts.sum(axis=0) / k - 300 / 52) ** 2).sum() / (300 / 52)) * k
            within = pearson - mean_part
            expected = within * (n - 1) / n + (mean_part * (n - 1) / (n - k) if k < n else 0)
            assert statistic == pytest.approx(expected, rel=1e-9)
            assert df == (k - 1) * 51 + (51 if k < n else 0)
        assert scipy.stats.kstest(p_values, "uniform").pvalue > 0.01


def test_largest_cell_against_scipy_binomtest() -> None:
    rng = np.random.default_rng(2)
    counts = rng.multinomial(500, [1 / 52] * 52, size=13).astype(np.int64)
    counts[3, 7] += 12
    z, p = largest_cell(counts)
    cell = scipy.stats.binomtest(int(counts.max()), 500, 1 / 52).pvalue
    assert p == pytest.approx(1 - (1 - min(1.0, 2 * scipy.stats.binom.sf(counts.max() - 1, 500, 1 / 52))) ** counts.size)
    assert p >= cell  # Šidák over the cells is more conservative than the cell alone
    assert z == pytest.approx((counts.max() - 500 / 52) / np.sqrt(500 / 52 * 51 / 52))


def test_studentized_against_scipy_ttest() -> None:
    values = np.random.default_rng(3).integers(-40, 60, 1000)
    z, p = studentized(int(values.sum()), float((values.astype(float) ** 2).sum()), len(values), Fraction(9, 2))
    t = scipy.stats.ttest_1samp(values, 4.5)
    assert z == pytest.approx(t.statistic, rel=1e-9)
    assert p == pytest.approx(2 * scipy.stats.norm.sf(abs(t.statistic)), rel=1e-9)
    assert studentized(3, 9.0, 1, Fraction(0)) is None
    assert studentized(6, 18.0, 2, Fraction(3)) == (0.0, 1.0)


def test_pearson_uniform_against_scipy() -> None:
    counts = np.array([10, 14, 9, 17, 11], np.int64)
    statistic, df, p = pearson_uniform(counts)  # type: ignore[misc]
    expected = scipy.stats.chisquare(counts)
    assert (statistic, df, p) == pytest.approx((expected.statistic, 4, expected.pvalue))


def test_holm_against_its_step_down_definition() -> None:
    rng = np.random.default_rng(4)
    for _ in range(200):
        p = (rng.random(7) ** 3).tolist()
        adjusted = holm(p)
        for alpha in (0.01, 0.05, 0.2):
            rejected, order = set(), sorted(range(7), key=lambda i: p[i])
            for rank, i in enumerate(order):
                if p[i] > alpha / (7 - rank):
                    break
                rejected.add(i)
            assert {i for i in range(7) if adjusted[i] <= alpha} == rejected


# --- power: planted faults caught, good generators pass ---------------------------------------

FAULT_SIZES = [(modulo_bias, 10_000), (naive_swap, 1_000), (reused_shoe, 1_000), (sticky_card, 1_000_000)]
"""Each planted fault and a number of shoes at which the battery catches it (docs/shuffle-test.md)."""


@pytest.mark.usefixtures("compiled")
@pytest.mark.parametrize(("fault", "shoes"), FAULT_SIZES, ids=[f.__name__ for f, _ in FAULT_SIZES])
def test_planted_faults_are_caught(fault: object, shoes: int) -> None:
    result = shuffle_test(fault(np.random.default_rng(21), shoes))  # type: ignore[operator]
    assert not result.passed, result.sheet()
    control = shuffle_test(uniform(np.random.default_rng(21), shoes))
    assert control.passed, control.sheet()


@pytest.mark.usefixtures("compiled")
@pytest.mark.parametrize("generator", ["PCG64", "Philox", "ChaCha20", "ChaCha8"])
@pytest.mark.parametrize("rules", ["online", "macau"])
def test_good_generators_pass_on_the_dealing_path(generator: str, rules: str) -> None:
    from sanggong.cli._shuffle import generator_of
    result = shuffle_test(rules, shoes=20_000, seed=8, generator=generator_of(generator.lower()))
    assert result.passed, result.sheet()
    assert result.generator == generator


# --- recorded shuffles: what is refused ---------------------------------------------------------


def test_recorded_shuffles_refused_naming_shoe_and_position(tmp_path: Path) -> None:
    good = uniform(np.random.default_rng(1), 4, 2)
    assert check_shuffles(good.astype(np.int64)).dtype == np.uint8
    twice = good.copy()
    twice[2, 7] = twice[2, 3]
    row = twice[2]
    first = next(p for p in range(104) if (row[:p + 1] == row[p]).sum() > 2)  # where a card comes a 3rd time
    card = Card(int(row[first]))
    with pytest.raises(ValueError, match=rf"shoe 2, position {first}: {card} \(code {card.code}\) a 3rd time, "
                                         r"more than 2 deck\(s\) hold"):
        check_shuffles(twice)
    wrong = good.astype(np.int64)
    wrong[1, 9] = 52
    with pytest.raises(ValueError, match="shoe 1, position 9: 52 is no card code"):
        check_shuffles(wrong)
    wrong[1, 9] = -1
    with pytest.raises(ValueError, match="shoe 1, position 9: -1 is no card code"):
        check_shuffles(wrong)
    with pytest.raises(ValueError, match="holds 51 cards"):
        check_shuffles(good[:, :51])
    with pytest.raises(ValueError, match=r"shape \(104,\)"):
        check_shuffles(good[0])
    with pytest.raises(TypeError, match="integer array"):
        check_shuffles(good.astype(float))
    with pytest.raises(TypeError, match="integer array"):
        check_shuffles(good.astype(bool))
    text = tmp_path / "shoes.txt"
    text.write_text("# a machine's output\n" + "\n".join(",".join(map(str, row)) for row in good) + "\n\n")
    assert np.array_equal(read_shuffles(text), good)
    np.save(tmp_path / "shoes.npy", good)
    assert np.array_equal(read_shuffles(tmp_path / "shoes.npy"), good)
    text.write_text(" ".join(map(str, good[0])) + "\n" + " ".join(map(str, good[1][:-1])) + "\n")
    with pytest.raises(ValueError, match="shoe 1 holds 103 cards, shoe 0 holds 104"):
        read_shuffles(text)
    text.write_text(" ".join(map(str, good[0][:5])) + " Ah\n")
    with pytest.raises(ValueError, match="shoe 0, position 5: 'Ah' is no card code"):
        read_shuffles(text)


def test_arguments_refused() -> None:
    with pytest.raises(ValueError, match="alpha"):
        shuffle_test("online", shoes=100, alpha=1.5)
    with pytest.raises(ValueError, match="shoes must be in 2"):
        shuffle_test("online", shoes=1)
    with pytest.raises(TypeError, match="BitGenerator"):
        shuffle_test("online", shoes=100, generator=np.random.default_rng)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="shoes, seed and generator are for rules"):
        shuffle_test(uniform(np.random.default_rng(1), 5), shoes=5)
    with pytest.raises(ValueError, match="shoes, seed and generator are for rules"):
        shuffle_test(uniform(np.random.default_rng(1), 5), generator=np.random.Philox)
    with pytest.raises(ValueError, match="rows differ in length"):
        shuffle_test([list(range(52)), list(range(51))])
    with pytest.raises(ValueError, match="deal from 8 deck"):
        shuffle_test(uniform(np.random.default_rng(1), 5), rules="macau")


@pytest.mark.kernels
def test_result_frame_table_and_plot() -> None:
    result = shuffle_test(uniform(np.random.default_rng(3), 200, 8), rules="macau")
    frame = result.to_frame()
    assert list(frame.index) == [r.name for r in result.rows]
    assert frame["verdict"].tolist() == [r.verdict for r in result.rows]
    assert "burned cards" in frame.index and result.passed
    assert result.sheet().splitlines()[0].endswith("PASSED")
    figure = result.plot()
    assert len(figure.axes) == 3  # heat map, its colour bar, the histogram
    import matplotlib.pyplot as plt
    plt.close(figure)


# --- command line and raw streams --------------------------------------------------------------


@pytest.mark.kernels
def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["shuffle-test", "--rules", "online", "--shoes", "2000", "--seed", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["passed"] and out["shoes"] == 2000
    np.save(tmp_path / "bad.npy", naive_swap(np.random.default_rng(1), 2000))
    assert main(["shuffle-test", "--file", str(tmp_path / "bad.npy")]) == 1
    assert "FAILED" in capsys.readouterr().out
    fails(["shuffle-test", "--alpha", "0"], "alpha must be", capsys)
    fails(["shuffle-test", "--file", str(tmp_path / "none.txt")], "no such file", capsys)
    fails(["shuffle-test", "--file", str(tmp_path / "bad.npy"), "--shoes", "4"], "--file tests recorded", capsys)
    (tmp_path / "bad.txt").write_text("1 2 3\n")
    fails(["shuffle-test", "--file", str(tmp_path / "bad.txt")], "shoe 0 holds 3 cards", capsys)
    fails(["shuffle-test", "--raw", "cards", "--format", "dieharder"], "cards are not uniform bits", capsys)


@pytest.mark.kernels
def test_raw_streams() -> None:
    words = np.concatenate(list(word_stream("macau", 30, seed=2)))
    raw = io.BytesIO()
    assert write_stream(raw, "macau", 30, seed=2) == len(words)
    assert np.array_equal(np.frombuffer(raw.getvalue(), "<u8"), words)
    text = io.BytesIO()
    write_stream(text, "macau", 30, seed=2, format="dieharder")
    lines = text.getvalue().decode().splitlines()
    assert lines[3:6] == ["type: d", f"count: {2 * len(words)}", "numbit: 32"]
    halves = np.array(lines[6:], np.uint64)
    assert np.array_equal(halves[0::2] | (halves[1::2] << np.uint64(32)), words)
    cards = io.BytesIO()
    write_stream(cards, "macau", 30, kind="cards", seed=2)
    sequence, _ = check_seed(2)
    dealt = np.zeros((30, layout(MACAU).k), np.uint8)
    sanggong._kernels.kernels.shuffle_cards(np.random.PCG64(child(sequence, 0)), table_array(MACAU), dealt,
                                         np.zeros(30, np.uint16))
    assert cards.getvalue() == dealt.tobytes()


def _dieharder(writer: object, psamples: int) -> str:
    """Dieharder's birthday-spacings assessment of a stream written to its standard input (about a
    million 32-bit integers a p-sample)."""
    proc = subprocess.Popen(["dieharder", "-g", "200", "-d", "0", "-p", str(psamples)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        writer(proc.stdin)  # type: ignore[operator]
    except BrokenPipeError:
        pass  # dieharder read what it needed
    finally:
        try:
            proc.stdin.close()  # type: ignore[union-attr]
        except BrokenPipeError:
            pass
    with proc.stdout:  # type: ignore[union-attr]
        out = proc.stdout.read().decode()  # type: ignore[union-attr]
    proc.wait(timeout=120)
    line = next(line for line in out.splitlines() if "diehard_birthdays" in line)
    return line.split("|")[-1].strip()


@pytest.mark.usefixtures("compiled")
@pytest.mark.skipif(shutil.which("dieharder") is None,
                    reason="dieharder is not installed (Debian: apt-get install dieharder; .ci/run installs it)")
def test_dieharder_passes_the_dealing_path_and_fails_a_planted_fault() -> None:
    from randomgen import UserBitGenerator

    def half_words(seed: np.random.SeedSequence) -> np.random.BitGenerator:
        """The planted fault: a 32-bit generator's output taken as 64-bit words (the upper half zero)."""
        source = np.random.Generator(np.random.PCG64(seed))
        buffer: list[int] = []

        def step(_: object) -> int:
            if not buffer:
                buffer.extend(source.integers(0, 2**32, 1 << 16, dtype=np.uint64).tolist()[::-1])
            return buffer.pop()
        return UserBitGenerator(step, 64)

    # dieharder's FAILED is a p-value below 1e-6; WEAK (outside 0.005..0.995) comes by chance
    assert _dieharder(lambda pipe: write_stream(pipe, "online", 3_000_000, seed=3), 10) in {"PASSED", "WEAK"}
    assert _dieharder(lambda pipe: write_stream(pipe, "online", 3_000_000, seed=3, generator=half_words), 10) == "FAILED"


@pytest.mark.slow
@pytest.mark.usefixtures("compiled")
def test_calibration_table_in_the_docs_is_fresh() -> None:
    """docs/shuffle-test.md's calibration table is what tools/shuffle_calibration.py computes now
    (seeded), and every good shuffler stays within its binomial bound, every fault caught each time."""
    import importlib.util
    path = Path(__file__).resolve().parent.parent / "tools" / "shuffle_calibration.py"
    spec = importlib.util.spec_from_file_location("shuffle_calibration", path)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    fresh = script.sheet()
    page = script.DOCS.read_text(encoding="utf-8")
    assert f"{script.BEGIN}\n{fresh}\n{script.END}" in page
    bound = int(scipy.stats.binom.ppf(0.995, script.GOOD_RUNS, script.ALPHA))
    for line in fresh.splitlines()[2:]:
        _, _, _shoes, failed, expected, _ = line.split("|")
        got, runs = (int(x) for x in failed.split("/"))
        assert got <= bound if "good" in expected else got == runs, line
