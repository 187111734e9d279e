"""Time every contender in one run and print ns per hand and ratios.

    python benchmarks/report.py              # 10 million hands, as in the README
    python benchmarks/report.py --hands 1e6  # quicker
    python benchmarks/report.py --vector-only  # the vectorised environments alone (issue 33, item 5)

The machines are shared and noisy: every figure is the median of several repeats, and
the ratios compare contenders timed in the same run. The pure-Python reference is timed
on a slice of the hands (it needs about a microsecond per hand) and reported per hand.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from workloads import (
    numpy_evaluate,
    numpy_permutation_deal,
    numpy_permuted_deal,
    random_one_deck_hands,
    reference_evaluate,
    same_shape_default_ranking,
)

import sanggong
from sanggong import _core, _kernels
from sanggong._kernels import twin as _pykernels
from sanggong._table import table_params


def interleaved_times(contenders: dict[str, tuple[Callable[[], object], int]], repeats: int) -> dict[str, list[float]]:
    """Seconds per call of each contender, timed round-robin: every repeat times each
    contender once, so a slow spell of the machine hits them all alike."""
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for fn, _ in contenders.values():
        fn()  # warm up: page in the inputs and outputs, load the tables
    for _ in range(repeats):
        for name, (fn, _) in contenders.items():
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    return times


def interleaved_medians(contenders: dict[str, tuple[Callable[[], object], int]], repeats: int) -> dict[str, float]:
    """Median seconds per call of each contender, timed round-robin."""
    return {name: statistics.median(t) for name, t in interleaved_times(contenders, repeats).items()}


def paired_ratio(slow: list[float], fast: list[float]) -> float:
    """The median over repeats of slow / fast, each pair timed in the same repeat: the
    machine's speed drifts within a run, and a pair timed seconds apart shares it."""
    return statistics.median(s / f for s, f in zip(slow, fast, strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=float, default=1e7, help="hands to evaluate (default 1e7)")
    parser.add_argument("--reference-hands", type=float, default=2e5, help="slice for the pure-Python reference")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--rounds", type=float, default=1e6, help="online rounds to deal (default 1e6)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--log-rounds", type=int, default=5_000, help="rounds of the Macau log verified (5,000)")
    parser.add_argument("--write-rounds", type=int, default=100_000,
                        help="rounds of the Macau log sanggong deal writes and sanggong verify checks (100,000)")
    parser.add_argument("--chunks", type=int, default=32,
                        help="simulation chunks of 2**18 rounds per contender (default 32; the docs build uses fewer)")
    parser.add_argument("--vector-only", action="store_true",
                        help="time only the vectorised environments (VectorTable, EnvPool, Gymnasium)")
    args = parser.parse_args()
    if sanggong.IMPLEMENTATION != "cython":
        raise SystemExit("the compiled core is not loaded: build it first (pip install .)")
    if args.vector_only:
        rl, rl_missing = rl_figures(args.repeats)
        if args.json:
            print(json.dumps({"rl": rl, "rl_missing": rl_missing, "load": os.getloadavg()}, indent=2))
        else:
            print_rl(rl, rl_missing, args.repeats)
        return

    n = int(args.hands)
    hands = random_one_deck_hands(n)
    slice_n = min(n, int(args.reference_hands))
    expected = sanggong.evaluate_batch(hands)
    base_ranks, base_pp = numpy_evaluate(hands)
    assert (base_ranks == expected.rank).all() and (base_pp == expected.pair_plus).all()

    out = (np.empty(n, np.uint8), np.empty(n, np.uint8))
    contenders: dict[str, tuple[Callable[[], object], int]] = {
        "cython evaluate_batch, 1 thread": (lambda: sanggong.evaluate_batch(hands), n),
        "cython evaluate_batch, 1 thread, out=": (lambda: sanggong.evaluate_batch(hands, out=out), n),
        "cython rank_batch, 1 thread": (lambda: sanggong.rank_batch(hands), n),
        f"cython evaluate_batch, {os.cpu_count()} threads, out=": (
            lambda: sanggong.evaluate_batch(hands, out=out, workers=None), n),
        "numpy baseline (rank + pair plus)": (lambda: numpy_evaluate(hands), n),
    }
    medians = interleaved_medians(contenders, args.repeats)
    rows = {name: medians[name] / count * 1e9 for name, (_, count) in contenders.items()}
    reference = {"pure-Python reference": (lambda: reference_evaluate(hands[:slice_n]), slice_n)}
    rows["pure-Python reference"] = interleaved_medians(reference, 3)["pure-Python reference"] / slice_n * 1e9

    cy = rows["cython evaluate_batch, 1 thread"]
    ratios = {
        "numpy baseline / cython": rows["numpy baseline (rank + pair plus)"] / cy,
        "reference / cython": rows["pure-Python reference"] / cy,
    }
    rankings = ranking_figures(hands, args.repeats, max(1, args.chunks // 4))
    yardstick = evaluation_yardstick_figures(hands, args.repeats)
    kernels = evaluation_kernel_figures(hands, args.repeats)
    threads = thread_split_figures(n, args.repeats)
    dealing = deal_figures(int(args.rounds), args.repeats)
    analysis = analysis_figures(args.repeats)
    simulation = simulation_figures(args.repeats, args.chunks)
    shoe = shoe_figures(args.repeats)
    yardstick_rounds = yardstick_figures(args.repeats, args.chunks)
    logs = verify_figures(args.log_rounds, args.repeats)
    writing = writing_figures(args.write_rounds, max(3, args.repeats // 2))
    rl, rl_missing = rl_figures(args.repeats)
    meta = {
        "hands": n,
        "reference_hands": slice_n,
        "repeats": args.repeats,
        "chunks": args.chunks,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "sanggong": sanggong.__version__,
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
    }
    if args.json:
        print(json.dumps({"meta": meta, "ns_per_hand": rows, "ratios": ratios, "rankings": rankings,
                          "evaluation_yardstick": yardstick,
                          "evaluation_kernels": kernels,
                          "thread_split": threads,
                          "dealing": dealing,
                          "analysis": analysis,
                          "simulation": simulation,
                          "shoe": shoe,
                          "yardstick_rounds": yardstick_rounds,
                          "logs": logs,
                          "writing": writing,
                          "rl": rl, "rl_missing": rl_missing}, indent=2))
        return
    print(f"Evaluating {n:,} random one-deck hands (uint8 codes), median of {args.repeats} runs")
    print(f"python {meta['python']}, numpy {meta['numpy']}, {meta['machine']}, {meta['cpus']} cpus\n")
    width = max(map(len, rows))
    for name, ns in rows.items():
        print(f"  {name:<{width}}  {ns:10.2f} ns/hand")
    print()
    for name, ratio in ratios.items():
        print(f"  {name:<{width}}  {ratio:10.1f}x")
    print(f"\nEvery preset's ranking: evaluate_batch (1 thread, out=) and simulate (1 core) against the default's,"
          f" median of paired ratios over {args.repeats} runs")
    width = max(map(len, rankings))
    for name, (value, unit) in rankings.items():
        print(f"  {name:<{width}}  {value:14,.2f} {unit}")
    if yardstick:
        print(f"\nevaluate_batch against the C yardstick (the same outputs), uint8, default ranking,"
              f" median of {args.repeats} runs; ratios: paired medians")
        width = max(map(len, yardstick))
        for name, (value, unit) in yardstick.items():
            print(f"  {name:<{width}}  {value:14,.3f} {unit}")
    print(f"\nEvery evaluation kernel this CPU runs, forced, evaluate_batch (uint8, default ranking, 1 thread, out=),"
          f" {max(args.repeats, 9)} interleaved runs: median ns/hand; / avx2: median (lowest - highest) of paired ratios")
    width = max(map(len, kernels), default=0)
    for name, (value, unit) in kernels.items():
        print(f"  {name:<{width}}  {value:14,.3f} {unit}")
    print(f"\nevaluate_batch, 1 thread against {os.cpu_count()} (workers=None), out=, across sizes,"
          f" {max(args.repeats, 9)} interleaved runs: median ns/hand; ratio: median (lowest - highest) of paired ratios")
    width = max(map(len, threads), default=0)
    for name, (value, unit) in threads.items():
        print(f"  {name:<{width}}  {value:14,.3f} {unit}")
    print(f"\nShuffling and dealing, one core, median of {args.repeats} runs")
    width = max(map(len, dealing))
    for name, (value, unit) in dealing.items():
        print(f"  {name:<{width}}  {value:14,.2f} {unit}")
    print(f"\nExact analysis of every bet, one core, median of {args.repeats} runs")
    width = max(map(len, analysis))
    for name, (value, unit) in analysis.items():
        print(f"  {name:<{width}}  {value:14,.2f} {unit}")
    print("\nSimulation, every bet settled every round")
    width = max(map(len, simulation))
    for name, (value, unit) in simulation.items():
        print(f"  {name:<{width}}  {value:14,.2f} {unit}")
    print(f"\nA Macau shoe (8 decks, 7 positions) as it is dealt, one core, median of {max(args.repeats, 5)} runs")
    width = max(map(len, shoe))
    for name, (value, unit) in shoe.items():
        print(f"  {name:<{width}}  {value:14,.2f} {unit}")
    print(f"\nRound loops against the best plain-C loop for the same work (benchmarks/yardstick.c),"
          f" one core, {args.repeats} interleaved runs: median (range), wall and CPU time")
    if not yardstick_rounds:
        print("  (no C compiler found: the yardstick is not built)")
    width = max(map(len, yardstick_rounds), default=0)
    for name, (value, unit) in yardstick_rounds.items():
        print(f"  {name:<{width}}  {value:14,.3f} {unit}")
    print(f"\nA Macau log ({args.log_rounds:,} rounds, 8 decks, 7 positions, 2 players) verified and read for "
          f"detection, interleaved runs: medians of CPU time (verify_log, one thread) and wall time (detect, which "
          f"sums the EVs on a second core where it has one)")
    width = max(map(len, logs))
    for name, (value, unit) in logs.items():
        print(f"  {name:<{width}}  {value:14,.2f} {unit}")
    print(f"\nA signed Macau log ({args.write_rounds:,} rounds) written by `sanggong deal --json` and checked by "
          f"`sanggong verify`, each a process, in interleaved pairs: medians of wall and CPU time, and of the "
          f"pairs' ratios; Game.play with two players' bets and a key, CPU time")
    width = max(map(len, writing))
    for name, (value, unit) in writing.items():
        print(f"  {name:<{width}}  {value:14,.2f} {unit}")
    print_rl(rl, rl_missing, args.repeats)


def rl_figures(repeats: int) -> tuple[dict[str, tuple[float, str]], dict[str, str]]:
    """Issue 33, item 5: vectorised card-game environments at 1,024 environments, one core,
    interleaved (benchmarks/rl_workloads.py): steps a second of each, and the ratios of
    sanggong's VectorTable to the others, to its own Gymnasium adapter and to its own
    variants (copy=False, two workers, the kernel alone, simulate's loop for the same
    rounds). Gymnasium's SyncVectorEnv runs a fifth of the steps (it is over a hundred
    times slower)."""
    import rl_workloads as rl

    made, missing = rl.available(rl.STEPS)
    steps = dict.fromkeys(made, rl.STEPS)
    slow = "Gymnasium Blackjack-v1, SyncVectorEnv"
    if slow in made:
        made[slow], steps[slow] = rl.gymnasium_blackjack(rl.STEPS // 5), rl.STEPS // 5
    times: dict[str, list[float]] = {name: [] for name in made}
    cpu: dict[str, list[float]] = {name: [] for name in made}  # (this process's CPU time: every thread's)
    for fn in made.values():
        fn()  # warm up
    for _ in range(max(3, repeats)):  # interleaved, as interleaved_times, with the CPU time too
        for name, fn in made.items():
            wall, used = time.perf_counter(), time.process_time()
            fn()
            times[name].append(time.perf_counter() - wall)
            cpu[name].append(time.process_time() - used)
    per_step = {name: [t / steps[name] for t in times[name]] for name in made}
    out = {name: (rl.ENVS / statistics.median(per_step[name]), "steps/s") for name in made}
    # A loaded machine's wall times hold the waits for a core; one thread's CPU time does not.
    single = [name for name in made if name.startswith("sanggong") and "workers" not in name]
    for name in single:
        out[f"{name} (CPU time)"] = (rl.ENVS * steps[name] / statistics.median(cpu[name]), "steps/s")
    loop = "sanggong simulate's round loop, as many Macau rounds"
    for name in single:
        if name != loop and loop in cpu:
            out[f"{name} CPU time / simulate's loop CPU time"] = (paired_ratio(cpu[name], cpu[loop]), "x")
    raw, adapter = "sanggong VectorTable, Macau, one bet", "sanggong SanggongVectorEnv (Gymnasium adapter), Macau, one bet"
    views = "sanggong VectorTable, Macau, one bet, copy=False"
    for other, label in (("EnvPool Blackjack-v1, 1 thread", "VectorTable / EnvPool Blackjack"),
                         (slow, "VectorTable / Gymnasium Blackjack"),
                         (adapter, "Gymnasium adapter's cost: adapter time / VectorTable time")):
        if raw in per_step and other in per_step:
            out[label] = (paired_ratio(per_step[other], per_step[raw]), "x")
    for slower, faster, label in (
            (raw, "sanggong simulate's round loop, as many Macau rounds",
             "VectorTable time / simulate's loop time, the same rounds (goal: at most 2)"),
            (views, "sanggong simulate's round loop, as many Macau rounds",
             "VectorTable copy=False time / simulate's loop time, the same rounds"),
            (raw, views, "copy=False speed-up: copy=True time / copy=False time"),
            (views, f"{views}, 2 workers", "2 workers' speed-up (copy=False): 1 worker's time / 2 workers' time"),
            (raw, "sanggong VectorKernel.run alone, Macau, one bet", "step time / kernel time (the Python side's cost)"),
            ("sanggong VectorTable, Macau, every bet (one staked)", raw, "every bet's time / one bet's time")):
        if slower in per_step and faster in per_step:
            out[label] = (paired_ratio(per_step[slower], per_step[faster]), "x")
    return out, missing


def print_rl(figures: dict[str, tuple[float, str]], missing: dict[str, str], repeats: int) -> None:
    """The section of ``rl_figures`` (kept apart from the other sections)."""
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "unknown"
    print(f"\nVectorised card-game environments, 1,024 environments, one core, {max(3, repeats)} interleaved runs: "
          f"median steps a second (a step: one round at every table, one action in every Blackjack hand; "
          f"sanggong's: table-rounds a second), ratios: medians of paired ratios; load average {load}")
    width = max(map(len, [*figures, *missing]), default=0)
    for name, (value, unit) in figures.items():
        print(f"  {name:<{width}}  {value:14,.2f} {unit}")
    for name, why in missing.items():
        print(f"  {name:<{width}}  left out: {why}")


def writing_figures(rounds: int, repeats: int) -> dict[str, tuple[float, str]]:
    """``sanggong deal --json`` against ``sanggong verify`` on the same signed Macau log
    (``rounds`` rounds), each run as the user runs it (a process), timed in interleaved
    pairs (wall time, and the children's CPU time); and ``Game.play`` rounds a second with
    two players' bets and a key (20,000 rounds, CPU time of this process)."""
    import resource
    import subprocess
    import tempfile

    def child_cpu() -> float:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    with tempfile.TemporaryDirectory() as tmp:
        key_file, log = Path(tmp) / "key", Path(tmp) / "log.jsonl"
        key_file.write_bytes(b"operator key")
        deal = [sys.executable, "-m", "sanggong", "deal", "--rules", "macau", "--rounds", str(rounds), "--seed", "7",
                "--json", "--key-file", str(key_file)]
        check = [sys.executable, "-m", "sanggong", "verify", str(log), "--key-file", str(key_file)]

        def run_deal() -> None:
            with log.open("wb") as out:
                subprocess.run(deal, stdout=out, check=True)

        def run_verify() -> None:
            subprocess.run(check, stdout=subprocess.DEVNULL, check=True)

        wall, cpu = interleaved_clocks({"deal": run_deal, "verify": run_verify}, repeats, child_cpu)
    game = sanggong.Game(sanggong.MACAU, 1, key=b"k", recall=0)
    slip = {"ann": {"win:1": 100, "point:0": 10}, "bob": {"win:2": 50}}
    plays = []
    for _ in range(repeats):
        start = time.process_time()
        for _ in range(20_000):
            game.play(slip)
        plays.append(time.process_time() - start)
    return {
        "sanggong deal --json, wall": (statistics.median(wall["deal"]), "s"),
        "sanggong verify, wall": (statistics.median(wall["verify"]), "s"),
        "deal / verify, wall (paired)": (paired_ratio(wall["deal"], wall["verify"]), "x"),
        "sanggong deal --json, CPU": (statistics.median(cpu["deal"]), "s"),
        "sanggong verify, CPU": (statistics.median(cpu["verify"]), "s"),
        "deal / verify, CPU (paired)": (paired_ratio(cpu["deal"], cpu["verify"]), "x"),
        "Game.play, two players' bets and a key, CPU": (20_000 / statistics.median(plays), "rounds/s"),
    }


def verify_figures(rounds: int, repeats: int) -> dict[str, tuple[float, str]]:
    """Records per second of ``verify_log`` with its fast pass (the whole call, and each
    record past the call's fixed start: the difference with the log's first fifth, paired
    within a repeat) and with the full checks alone (every record read, replayed and
    settled in Python), by CPU time; and ``detect`` of the same log, by wall time (it sums
    the EVs on a second thread where it may: its CPU time is both threads') and against
    ``verify_log``, paired; the medians of interleaved runs."""
    import tempfile

    from workloads import write_macau_log

    from sanggong.detection import detect
    from sanggong.verify import _log as verify_module

    with tempfile.TemporaryDirectory() as folder:
        path, head = Path(folder) / "macau.jsonl", Path(folder) / "head.jsonl"
        write_macau_log(path, rounds)
        lines = path.read_bytes().splitlines(keepends=True)
        head.write_bytes(b"".join(lines[: rounds // 5]))

        def full() -> object:
            verify_module._FAST = False
            try:
                return sanggong.verify_log(path)
            finally:
                verify_module._FAST = True

        repeat = max(3, min(repeats, 5))
        _, cpu = interleaved_clocks({"fast": lambda: sanggong.verify_log(path),
                                     "head": lambda: sanggong.verify_log(head), "full": full}, repeat,
                                    time.process_time)
        # detect against verify_log in pairs of their own (after the full checks' long runs, both
        # measured slower here, and not alike)
        wall, both = interleaved_clocks({"verify": lambda: sanggong.verify_log(path), "detect": lambda: detect(path)},
                                        max(repeat, 5), time.process_time)
    past = statistics.median(f - h for f, h in zip(cpu["fast"], cpu["head"], strict=True))
    return {
        "verify_log, fast pass, the whole call": (rounds / statistics.median(cpu["fast"]), "records/s"),
        "verify_log, fast pass, each record past the start": ((rounds - rounds // 5) / past, "records/s"),
        "verify_log, full checks alone": (rounds / statistics.median(cpu["full"]), "records/s"),
        "full checks / fast pass, time per record (paired)": (paired_ratio(cpu["full"], cpu["fast"]), "x"),
        "detect (not replayed), wall": (rounds / statistics.median(wall["detect"]), "records/s"),
        "detect / verify_log, wall (paired)": (paired_ratio(wall["detect"], wall["verify"]), "x"),
        "detect / verify_log, CPU of both threads (paired)": (paired_ratio(both["detect"], both["verify"]), "x"),
    }


def interleaved_clocks(contenders: dict[str, Callable[[], object]], repeats: int,
                       clock: Callable[[], float]) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Wall seconds and CPU seconds (by ``clock``) of each call of each contender, timed
    round-robin as in interleaved_times."""
    wall: dict[str, list[float]] = {name: [] for name in contenders}
    cpu: dict[str, list[float]] = {name: [] for name in contenders}
    for fn in contenders.values():
        fn()
    for _ in range(repeats):
        for name, fn in contenders.items():
            start_cpu, start = clock(), time.perf_counter()
            fn()
            wall[name].append(time.perf_counter() - start)
            cpu[name].append(clock() - start_cpu)
    return wall, cpu


def spread(values: list[float]) -> tuple[float, float, float]:
    """(median, lowest, highest)."""
    return statistics.median(values), min(values), max(values)


def paired_ratios(slow: list[float], fast: list[float]) -> list[float]:
    return [s / f for s, f in zip(slow, fast, strict=True)]


ROUND_WORKLOADS = ("online", "macau 8 decks 7 positions")


def yardstick_figures(repeats: int, chunks: int = 32) -> dict[str, tuple[float, str]]:
    """The project's round loops against the yardstick's plain-C loops for the same rounds
    from the same seed (benchmarks/yardstick.c; the outputs are checked equal first), one
    core, the default ranking, every bet's histograms: ``_core.simulate_chunk`` (the loop
    alone) and ``simulate()`` with one worker (the loop, the chunks' bet counts and the
    result, as a user runs it), timed round-robin by wall clock and by CPU time (the
    calling thread's for the loop and the yardstick; the process's for simulate(), whose
    one worker is a thread of its own). Millions of rounds a second (median, and the
    lowest and highest run), and project / C as the median (lowest, highest) of the ratios
    paired within a run. Empty when there is no C compiler."""
    import yardstick

    from sanggong.ranking import tables_for
    from sanggong.simulation import DEFAULT_CHUNK, _histograms, simulate

    lib = yardstick.build()
    if lib is None:
        return {}
    rounds = chunks * DEFAULT_CHUNK  # whole chunks, as simulate() splits them (and as simulation_figures times it)
    flag = np.zeros(1, np.uint8)
    loops: dict[str, Callable[[], object]] = {}
    runs: dict[str, Callable[[], object]] = {}
    for label, rules, run in zip(ROUND_WORKLOADS, (yardstick.ONLINE, yardstick.MACAU),
                                 (yardstick.online, yardstick.macau), strict=True):
        kernel, params = _kernels.lookups(tables_for(rules.ranking)), table_params(rules).array()
        pairs, single = _histograms(rules)
        y_pairs, y_single = yardstick.histograms(rules.hands)
        check = min(rounds, 1 << 17)
        _core.simulate_chunk(np.random.PCG64(1), kernel, params, check, pairs, single, None, None, None, flag)
        run(lib, np.random.PCG64(1), check, y_pairs, y_single)
        if not (np.array_equal(pairs, y_pairs) and np.array_equal(single, y_single)):
            raise AssertionError(f"the yardstick's {label} histograms differ from the core's")
        loops[f"{label}: C yardstick"] = lambda r=run, a=y_pairs, b=y_single: r(lib, np.random.PCG64(1), rounds, a, b)
        loops[f"{label}: simulate_chunk"] = lambda k=kernel, p=params, a=pairs, b=single: _core.simulate_chunk(
            np.random.PCG64(1), k, p, rounds, a, b, None, None, None, flag)
        runs[f"{label}: simulate, 1 worker"] = lambda r=rules: simulate(r, rounds, seed=1, workers=1,
                                                                        compare_exact=False)
    # one round-robin for all, so that the two clocks' contenders share the machine's spells
    contenders = {**loops, **runs}
    wall, cpu = interleaved_clocks(contenders, repeats, time.process_time)
    thread_wall, thread_cpu = interleaved_clocks(loops, repeats, time.thread_time)
    out: dict[str, tuple[float, str]] = {}
    for label in ROUND_WORKLOADS:
        base = f"{label}: C yardstick"
        for name in (base, f"{label}: simulate_chunk", f"{label}: simulate, 1 worker"):
            w = wall[name] if name in runs else thread_wall[name]
            c = cpu[name] if name in runs else thread_cpu[name]
            for clock, seconds in (("wall", w), ("CPU", c)):
                mid, low, high = spread([rounds / t / 1e6 for t in seconds])
                out[f"{name}, {clock}"] = (mid, "M rounds/s")
                out[f"{name}, {clock}, range"] = (low, f"- {high:,.2f} M rounds/s")
        for name in (f"{label}: simulate_chunk", f"{label}: simulate, 1 worker"):
            same = (wall, cpu) if name in runs else (thread_wall, thread_cpu)
            paired_base = (wall[base], cpu[base]) if name in runs else (thread_wall[base], thread_cpu[base])
            for clock, mine, theirs in (("wall", same[0][name], paired_base[0]),
                                        ("CPU", same[1][name], paired_base[1])):
                mid, low, high = spread(paired_ratios(mine, theirs))
                short = name.split(": ", 1)[1]
                out[f"{label}: {short} / C, {clock}"] = (mid, f"x  ({low:.3f} - {high:.3f})")
    return out


def ranking_figures(hands: np.ndarray, repeats: int, chunks: int = 8) -> dict[str, tuple[float, str]]:
    """Each distinct preset ranking against the default: evaluate_batch on the same hands
    and simulate() of the preset against the same table with the default ranking, timed
    round-robin; the ratio (non-default time / default time) is the median of the pairs."""
    from sanggong.ranking import DEFAULT_RANKING
    from sanggong.simulation import DEFAULT_CHUNK, simulate

    n = len(hands)
    default_out = (np.empty(n, np.uint8), np.empty(n, np.uint8))
    contenders: dict[str, tuple[Callable[[], object], int]] = {
        "evaluate, default ranking": (lambda: sanggong.evaluate_batch(hands, out=default_out), n)}
    pairs: list[tuple[str, str]] = []
    seen = {DEFAULT_RANKING}
    for rules in sanggong.PRESETS.values():
        if rules.ranking in seen:
            continue
        seen.add(rules.ranking)
        dtype = sanggong.rank_batch(hands[:1], rules=rules).dtype
        out = (np.empty(n, dtype), np.empty(n, np.uint8))
        name = f"evaluate, {rules.name} ranking"
        contenders[name] = (lambda r=rules, o=out: sanggong.evaluate_batch(hands, rules=r, out=o), n)
        pairs.append((name, "evaluate, default ranking"))
    rounds = chunks * DEFAULT_CHUNK
    for rules in sanggong.PRESETS.values():
        if rules.ranking == DEFAULT_RANKING:
            continue
        base = same_shape_default_ranking(rules)
        name, base_name = f"simulate {rules.name}", f"simulate {rules.name}, default ranking"
        contenders[name] = (lambda r=rules: simulate(r, rounds, seed=1, workers=1, compare_exact=False), rounds)
        contenders[base_name] = (lambda r=base: simulate(r, rounds, seed=1, workers=1, compare_exact=False), rounds)
        pairs.append((name, base_name))
    times = interleaved_times(contenders, repeats)
    out: dict[str, tuple[float, str]] = {}
    from sanggong.ranking import RankingTables
    from sanggong.ranking import _pair_plus_of_triples as pair_plus_once

    pair_plus_once.cache_clear()
    start = time.perf_counter()
    RankingTables(DEFAULT_RANKING)  # the first tables of a process also compute the Pair Plus categories
    out["tables built, first ranking of a process"] = ((time.perf_counter() - start) * 1e3, "ms")
    for ranking in sorted(seen, key=repr):
        builds = []
        for _ in range(repeats):
            start = time.perf_counter()
            RankingTables(ranking)  # not the cache: built afresh
            builds.append(time.perf_counter() - start)
        name = next(r.name for r in sanggong.PRESETS.values() if r.ranking == ranking)
        out[f"tables built, {name} ranking"] = (statistics.median(builds) * 1e3, "ms")
    for name, (_, count) in contenders.items():
        unit = "ns/hand" if name.startswith("evaluate") else "ns/round"
        out[name] = (statistics.median(times[name]) / count * 1e9, unit)
    for name, base_name in pairs:
        out[f"{name} / default"] = (paired_ratio(times[name], times[base_name]), "x")
    return out


def evaluation_yardstick_figures(hands: np.ndarray, repeats: int) -> dict[str, tuple[float, str]]:
    """evaluate_batch (uint8 codes, default ranking, 1 thread; with out= and without) against
    the yardstick (yardstick_eval.c: the best plain-C loop for the same work, AVX2, checked
    to give the same outputs here first), timed round-robin; the ratios are medians of the
    pairs. Empty, with the reason printed, where the yardstick cannot run."""
    from yardstick_eval import YardstickUnavailable, load_eval_yardstick

    try:
        yardstick = load_eval_yardstick()
    except YardstickUnavailable as exc:
        print(f"(no evaluation yardstick: {exc})", file=sys.stderr)
        return {}
    n = len(hands)
    rank, pp = np.empty(n, np.uint8), np.empty(n, np.uint8)
    out = (np.empty(n, np.uint8), np.empty(n, np.uint8))
    expected = sanggong.evaluate_batch(hands, workers=1)
    if yardstick(hands, rank, pp) != -1 or not (np.array_equal(rank, expected.rank)
                                                and np.array_equal(pp, expected.pair_plus)):
        raise AssertionError("the evaluation yardstick does not give evaluate_batch's outputs")
    contenders: dict[str, tuple[Callable[[], object], int]] = {
        "C yardstick (AVX2 arithmetic), 1 thread": (lambda: yardstick(hands, rank, pp), n),
        # the same, writing into new arrays each call as evaluate_batch without out= does
        # (the page faults of fresh memory are then a large part of either's time)
        "C yardstick, new output arrays each call": (
            lambda: yardstick(hands, np.empty(n, np.uint8), np.empty(n, np.uint8)), n),
        "evaluate_batch, 1 thread, out=": (lambda: sanggong.evaluate_batch(hands, out=out, workers=1), n),
        "evaluate_batch, 1 thread": (lambda: sanggong.evaluate_batch(hands, workers=1), n),
    }
    kernels = _core._eval_kernels()
    if len(kernels) > 1:  # the scalar fallback, as a CPU without AVX2 would run it

        def scalar() -> object:
            chosen = _core._use_eval_kernel("scalar")
            try:
                return sanggong.evaluate_batch(hands, out=out, workers=1)
            finally:
                _core._use_eval_kernel(chosen)

        contenders["evaluate_batch, 1 thread, out=, scalar kernel"] = (scalar, n)
    times = interleaved_times(contenders, repeats)
    figures = {name: (statistics.median(times[name]) / count * 1e9, "ns/hand")
               for name, (_, count) in contenders.items()}
    base = times["C yardstick (AVX2 arithmetic), 1 thread"]
    for name in contenders:
        if name.startswith("evaluate_batch") and name != "evaluate_batch, 1 thread":
            figures[f"{name.removeprefix('evaluate_batch, ')} / yardstick"] = (paired_ratio(times[name], base), "x")
    figures["1 thread (new arrays) / yardstick with new arrays"] = (
        paired_ratio(times["evaluate_batch, 1 thread"], times["C yardstick, new output arrays each call"]), "x")
    figures["1 thread (new arrays) / yardstick"] = (paired_ratio(times["evaluate_batch, 1 thread"], base), "x")
    return figures


def evaluation_kernel_figures(hands: np.ndarray, repeats: int) -> dict[str, tuple[float, str]]:
    """Each evaluation kernel this CPU runs (``_core._eval_kernels()``: scalar, AVX2, AVX-512,
    AVX-512 VBMI), forced in turn, on the same hands (uint8, default ranking, 1 thread,
    out=), timed round-robin: in cache (the first 2**17 hands, 0.6 MB in and out: the
    kernels' own speed) and all the hands (from memory). ns per hand, and each kernel's time
    over the AVX2 kernel's as the median (lowest - highest) of the ratios paired in a run."""
    kernels = _core._eval_kernels()
    figures: dict[str, tuple[float, str]] = {}
    for label, part in (("in cache, 2**17 hands", hands[: 1 << 17]), (f"{len(hands):,} hands", hands)):
        n = len(part)
        out = (np.empty(n, np.uint8), np.empty(n, np.uint8))
        calls = max(1, (1 << 22) // n)  # (a timing of at least ~1 ms)

        def run(kernel: str, part: np.ndarray = part, out: tuple[np.ndarray, np.ndarray] = out,
                calls: int = calls) -> object:
            chosen = _core._use_eval_kernel(kernel)
            try:
                for _ in range(calls):
                    sanggong.evaluate_batch(part, out=out, workers=1)
            finally:
                _core._use_eval_kernel(chosen)
            return None

        times = interleaved_times({k: (lambda k=k: run(k), n) for k in kernels}, max(repeats, 9))
        for k in kernels:
            figures[f"{label}: {k}"] = (statistics.median(times[k]) / (n * calls) * 1e9, "ns/hand")
        if "avx2" in kernels:
            for k in kernels:
                if k != "avx2":
                    mid, low, high = spread(paired_ratios(times[k], times["avx2"]))
                    figures[f"{label}: {k} / avx2"] = (mid, f"x  ({low:.3f} - {high:.3f})")
    return figures


def thread_split_figures(n: int, repeats: int) -> dict[str, tuple[float, str]]:
    """evaluate_batch (default ranking, out=) with 1 thread and with every core
    (workers=None) across sizes up to n, timed round-robin: uint8 codes (the vector kernel
    where the CPU has one, which batch.py never splits) and int64 codes (the table kernel,
    split in parts of at least MIN_ROWS_PER_THREAD hands). ns per hand, and the time with
    every core over the time with one as the median (lowest - highest) of paired ratios:
    at most about 1 (the same work), below 1 where the split gains."""
    cpus = os.cpu_count() or 1
    figures: dict[str, tuple[float, str]] = {}
    sizes = sorted({min(n, s) for s in (1 << 16, 1 << 20, 1 << 22, n)})
    for dtype in ("uint8", "int64"):
        for size in sizes:
            part = random_one_deck_hands(size).astype(dtype)
            out = (np.empty(size, np.uint8), np.empty(size, np.uint8))
            calls = max(1, (1 << 21) // size)

            def run(workers: int | None, part: np.ndarray = part, out: tuple[np.ndarray, np.ndarray] = out,
                    calls: int = calls) -> None:
                for _ in range(calls):
                    sanggong.evaluate_batch(part, out=out, workers=workers)

            times = interleaved_times({"1": (lambda: run(1), size), "all": (lambda: run(None), size)},
                                      max(repeats, 9))
            label = f"{dtype}, {size:,} hands"
            figures[f"{label}: 1 thread"] = (statistics.median(times["1"]) / (size * calls) * 1e9, "ns/hand")
            figures[f"{label}: {cpus} threads"] = (statistics.median(times["all"]) / (size * calls) * 1e9, "ns/hand")
            mid, low, high = spread(paired_ratios(times["all"], times["1"]))
            figures[f"{label}: {cpus} threads / 1 thread"] = (mid, f"x  ({low:.3f} - {high:.3f})")
    return figures


def simulation_figures(repeats: int, chunks: int = 32) -> dict[str, tuple[float, str]]:
    """Rounds per second of simulate(): one core, both cores, and the reference."""
    from sanggong.simulation import DEFAULT_CHUNK, simulate

    macau7 = sanggong.MACAU.replace(decks=8, positions=7)
    # 32 chunks of 2**18 rounds: a whole number of chunks per core, as in a long run, where
    # the last, lone chunk is a rounding error (with 2 million rounds, 7.6 chunks, one core
    # would wait for the other's last chunk and the scaling would measure that tail)
    n = chunks * DEFAULT_CHUNK
    few = 3000  # rounds for the pure-Python reference
    cpus = os.cpu_count()

    def reference() -> object:
        from sanggong import _kernels

        chosen = _kernels.kernels
        try:
            _kernels.kernels = _pykernels
            return simulate(sanggong.ONLINE, few, seed=1, workers=1, compare_exact=False)
        finally:
            _kernels.kernels = chosen

    contenders: dict[str, tuple[Callable[[], object], int]] = {
        "online, 1 core": (lambda: simulate(sanggong.ONLINE, n, seed=1, workers=1, compare_exact=False), n),
        f"online, {cpus} cores": (
            lambda: simulate(sanggong.ONLINE, n, seed=1, workers=None, compare_exact=False), n),
        "macau 8 decks 7 positions, 1 core": (lambda: simulate(macau7, n, seed=1, workers=1, compare_exact=False), n),
        f"macau 8 decks 7 positions, {cpus} cores": (
            lambda: simulate(macau7, n, seed=1, workers=None, compare_exact=False), n),
        "pure-Python reference, online, 1 core": (reference, few),
    }
    times = interleaved_times(contenders, repeats)
    out = {name: (count / statistics.median(times[name]), "rounds/s") for name, (_, count) in contenders.items()}
    one, ref = times["online, 1 core"], times["pure-Python reference, online, 1 core"]
    out[f"online: {cpus} cores / 1 core"] = (paired_ratio(one, times[f"online, {cpus} cores"]), "x")
    out[f"macau: {cpus} cores / 1 core"] = (
        paired_ratio(times["macau 8 decks 7 positions, 1 core"], times[f"macau 8 decks 7 positions, {cpus} cores"]), "x")
    out["online: cython / reference"] = (paired_ratio([t / few for t in ref], [t / n for t in one]), "x")
    return out


def analysis_figures(repeats: int) -> dict[str, tuple[float, str]]:
    """analyze() of every preset at 1, 8 and 64 decks, against the card-by-card enumeration;
    the suit rankings' pair counts as they were counted before issue 23 (every pair of the
    24,804 multisets of the 52 cards: seconds, so three repeats) against today's whole
    analysis of the same shoe; effect_of_removal of those presets; and every preset's
    ShoeEvaluator.evs()."""
    from itertools import combinations

    from workloads import card_multiset_joint

    from sanggong._counting import count_hands as _counts
    from sanggong.shoe import ShoeEvaluator

    contenders: dict[str, tuple[Callable[[], object], int]] = {}
    for rules in (sanggong.MACAU, sanggong.ONLINE):
        for decks in (1, 8):
            variant = rules.replace(decks=decks)
            contenders[f"analyze({rules.name}, {decks} deck{'s' if decks > 1 else ''})"] = (
                lambda v=variant: sanggong.analyze(v), 1)
    for name, rules in sanggong.PRESETS.items():
        for decks in (1, 8, 64):
            label = f"analyze({name}, {decks} deck{'s' if decks > 1 else ''})"
            if label not in contenders:
                shoe = rules.replace(decks=decks)
                contenders[label] = (lambda v=shoe: sanggong.analyze(v), 1)
    medians = interleaved_medians(contenders, max(repeats, 9))
    hands = np.array(list(combinations(range(52), 3)), dtype=np.uint8)
    classes = sanggong.rank_batch(hands)
    out = np.zeros(31 * 31 * 3, dtype=np.uint64)
    brute = interleaved_medians(
        {"brute": (lambda: _core.brute_force_one_deck(classes, classes.astype(np.uint16), 31, out), 1)}, 3
    )["brute"]
    figures = {name: (seconds * 1e3, "ms") for name, seconds in medians.items()}
    figures["card-by-card enumeration, 407,170,400 one-deck deals"] = (brute * 1e3, "ms")
    figures["enumeration / analyze(macau, 1 deck)"] = (brute / medians["analyze(macau, 1 deck)"], "x")

    suits = [name for name, rules in sanggong.PRESETS.items() if rules.ranking.uses_suits]
    for name in suits:
        rules, counts = sanggong.PRESETS[name].replace(decks=8), sanggong.composition(8)
        before = card_multiset_joint(rules.ranking, counts)
        assert [int(x) for x in before] == [int(x) for x in _counts(rules, counts).joint]
        seconds = interleaved_medians({"before": (lambda r=rules, c=counts: card_multiset_joint(r.ranking, c), 1)},
                                      3)["before"]
        figures[f"{name}, 8 decks: pair counts before (24,804 x 24,804 card multisets)"] = (seconds * 1e3, "ms")
        figures[f"{name}, 8 decks: before / analyze({name}, 8 decks)"] = (
            seconds / medians[f"analyze({name}, 8 decks)"], "x")
    removal = interleaved_medians({f"effect_of_removal({name})": (
        lambda r=sanggong.PRESETS[name]: sanggong.effect_of_removal(r), 1) for name in suits}, max(repeats, 5))
    figures.update({name: (seconds * 1e3, "ms") for name, seconds in removal.items()})

    calls = 100
    evaluators = {name: ShoeEvaluator(rules) for name, rules in sanggong.PRESETS.items()}

    def evs(shoe: ShoeEvaluator) -> Callable[[], object]:
        def run() -> None:
            for _ in range(calls):
                shoe.evs()
        return run
    timed = interleaved_medians({f"ShoeEvaluator({name}).evs(), a full shoe": (evs(shoe), 1)
                                 for name, shoe in evaluators.items()}, max(repeats, 9))
    figures.update({name: (seconds / calls * 1e6, "us") for name, seconds in timed.items()})
    return figures


def shoe_figures(repeats: int) -> dict[str, tuple[float, str]]:
    """The shoe evaluator's time for an 8-deck Macau shoe 100 cards in, and shoe play of
    that table on one core: rounds per second for perfect information (every bet, the
    banker's bets) and for a count (every bet), each timed interleaved, kernel included
    and Python's per-chunk work too (one chunk of shoes per call)."""
    from sanggong.shoe import CountPlay, ShoeEvaluator
    from sanggong.shoe._play import _run_play_chunk, _Setup
    from sanggong.shoe._strategies import bet_tags as _bet_tags

    macau = sanggong.MACAU
    banker = ("odd", "even", "three_faces", *(f"point:{n}" for n in range(10)))
    rng = np.random.default_rng(1)
    seen = [sanggong.Card(int(c)) for c in rng.permutation(np.repeat(np.arange(52), 8))[:100]]
    evaluators = {}
    for label, bets in (("every bet", None), ("the banker's bets", banker)):
        shoe = ShoeEvaluator(macau, bets=bets)
        shoe.remove(seen)
        evaluators[label] = shoe
    timed = interleaved_medians({f"shoe evaluator, {label}": (shoe.numerators, 1)
                                 for label, shoe in evaluators.items()}, max(repeats, 9) * 20)
    figures = {name: (seconds * 1e6, "us") for name, seconds in timed.items()}

    def setup(bets: tuple[str, ...], perfect: bool) -> _Setup:
        tags = _bet_tags(macau, bets, CountPlay())
        vectors = sorted(set(tags.values()))
        return _Setup(macau, bets, perfect, np.array(vectors, dtype=np.int32),
                      np.array([vectors.index(tags[b]) for b in bets], dtype=np.int32), 0.5, 51, 102, False)

    every = tuple(macau.bets)
    plays = {
        "perfect information, every bet": (setup(every, True), 100),
        "perfect information, the banker's bets": (setup(banker, True), 400),
        "count, every bet": (setup(every, False), 20_000),
    }
    rounds: dict[str, int] = {}

    def play(name: str) -> Callable[[], object]:
        configured, shoes = plays[name]

        def run() -> None:
            rounds[name] = _run_play_chunk(configured, 0, np.random.SeedSequence(1), shoes).rounds
        return run

    medians = interleaved_medians({name: (play(name), 1) for name in plays}, max(repeats, 5))
    for name, seconds in medians.items():
        figures[f"{name}, rounds/s (one core)"] = (rounds[name] / seconds, "rounds/s")
    return figures


def deal_figures(rounds: int, repeats: int) -> dict[str, tuple[float, str]]:
    """ns per card drawn and online rounds dealt per second, sanggong against NumPy; and
    deal_batch, the raw rounds (its arrays allocated each call, as a user gets them)."""
    shoes = max(1, rounds // 32)
    bit_generator = np.random.PCG64(1)
    rng = np.random.Generator(np.random.PCG64(1))
    online = np.empty((rounds, 13), np.uint8)
    shoe_rows = np.empty((shoes, 416), np.uint8)
    few = max(1, rounds // 50)
    macau_rounds = max(1, rounds // 4)
    reference_rows = np.empty((max(1, rounds // 200), 13), np.uint8)
    game = sanggong.Game(sanggong.ONLINE, 1)
    contenders: dict[str, tuple[Callable[[], object], int]] = {
        "online": (lambda: _core.deal_fresh_batch(bit_generator, 1, online), rounds),
        "deal_batch": (lambda: sanggong.deal_batch(sanggong.ONLINE, rounds, seed=1, workers=1), rounds),
        "deal_batch macau": (lambda: sanggong.deal_batch(sanggong.MACAU, macau_rounds, seed=1, workers=1),
                             macau_rounds),
        "shoe": (lambda: _core.deal_fresh_batch(bit_generator, 8, shoe_rows), shoes),
        "permutation": (lambda: numpy_permutation_deal(rng, few), few),
        "permuted": (lambda: numpy_permuted_deal(rng, rounds), rounds),
        "game": (lambda: [game.deal() for _ in range(few)], few),
    }
    times = interleaved_times(contenders, repeats)
    per = {name: statistics.median(times[name]) / count for name, (_, count) in contenders.items()}
    reference = interleaved_medians(
        {"ref": (lambda: _pykernels.deal_fresh_batch(bit_generator, 1, reference_rows), 0)}, 3
    )["ref"] / len(reference_rows)
    return {
        "cython: ns per card drawn, full 8-deck shoes": (per["shoe"] / 416 * 1e9, "ns/card"),
        "cython: ns per card drawn, online rounds (13 cards)": (per["online"] / 13 * 1e9, "ns/card"),
        "cython: online rounds dealt (deal_fresh_batch)": (1 / per["online"], "rounds/s"),
        "deal_batch: online rounds, 1 worker (hands, burns, head cards, shoes)": (1 / per["deal_batch"], "rounds/s"),
        "deal_batch: Macau rounds (8-deck shoe, 7 positions), 1 worker": (1 / per["deal_batch macau"], "rounds/s"),
        "numpy: Generator.permutation per round, in a loop": (1 / per["permutation"], "rounds/s"),
        "numpy: Generator.permuted, vectorised over rounds": (1 / per["permuted"], "rounds/s"),
        "sanggong.Game.deal, the whole procedure, per call": (1 / per["game"], "rounds/s"),
        "pure-Python reference (deal_fresh_batch)": (1 / reference, "rounds/s"),
        "cython / permutation loop": (per["permutation"] / per["online"], "x"),
        "cython / vectorised permuted": (per["permuted"] / per["online"], "x"),
        "cython / reference": (reference / per["online"], "x"),
        "deal_batch / deal_fresh_batch, online, time per round (paired)": (
            paired_ratio(times["deal_batch"], times["online"]), "x"),
        "Game.deal / deal_batch, online, time per round": (per["game"] / per["deal_batch"], "x"),
    }

if __name__ == "__main__":
    main()
