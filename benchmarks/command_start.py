"""A command's fixed start, and ``sanggong verify``'s records a second through the command.

    python benchmarks/command_start.py                       # 21 runs; makes a 100,000-round log
    python benchmarks/command_start.py --log big.jsonl -n 51  # a log of your own; steadier

Fixed start: ``python -m sanggong verify`` of a one-record log against ``python -c pass``
(and ``python -c "import numpy, sanggong._core"``, what ``verify``'s start was floored at
until it imported no NumPy: it replays from the core's own PCG64, ranks by the default
ranking's tables made from the core's and deals into the standard library's buffers; and
``sanggong bets``, another command that imports no NumPy, nor does the core), run
alternately in new interpreters so that a change in the machine's load touches them alike;
the median of each, wall and CPU (the children's user + system), and the differences.
Throughput: ``python -m sanggong verify`` of the big log (by default ``sanggong deal
--rules macau --rounds 100000 --seed 7 --json``, written once to a temporary file: about
half a minute), its median wall and CPU time and its records a second, start included.
The exit status is 1 when the median fixed start (wall) is over ``--budget`` (0.1 s) or
the records a second (wall) under ``--rate`` (100,000).

A measurement, not a unit test: run it by hand, on a quiet machine if you can.
``tests/test_startup.py`` checks what the start imports and builds, without timing it.
As ``import_time.py``, the commands read their bytecode from a temporary ``-X
pycache_prefix`` directory written by an untimed first run.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time


def _run(argv: list[str], prefix: str, env: dict[str, str], out: int | None = subprocess.DEVNULL) -> tuple[float, float]:
    """Wall and CPU seconds of a new interpreter running ``argv``; it must exit 0."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-X", f"pycache_prefix={prefix}", *argv], env=env, check=True,
                   stdin=subprocess.DEVNULL, stdout=out)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _medians(times: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(t[0] for t in times), statistics.median(t[1] for t in times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--runs", type=int, default=21, help="runs of each command (default 21)")
    parser.add_argument("--log", help="the big log to verify (default: a 100,000-round log, made once)")
    parser.add_argument("--rounds", type=int, default=100_000, help="rounds of the log made (default 100,000)")
    parser.add_argument("--budget", type=float, default=0.1, help="allowed fixed start in s (default 0.1)")
    parser.add_argument("--rate", type=float, default=100_000, help="required records a second (default 100,000)")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.rounds < 1:
        parser.error("--runs and --rounds must be at least 1")

    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPROFILEIMPORTTIME", "PYTHONPYCACHEPREFIX")}
    verify = ["-m", "sanggong", "verify"]
    with tempfile.TemporaryDirectory(prefix="sanggong-command-start-") as tmp:
        prefix = os.path.join(tmp, "pycache")
        big = args.log
        if big is None:
            big = os.path.join(tmp, "big.jsonl")
            print(f"writing a {args.rounds:,}-round log ...", file=sys.stderr)
            with open(big, "wb") as f:
                _run(["-m", "sanggong", "deal", "--rules", "macau", "--rounds", str(args.rounds), "--seed", "7",
                      "--json"], prefix, env, out=f.fileno())
        with open(big, "rb") as f:
            records = sum(1 for line in f if line.strip())
            f.seek(0)
            first = f.readline()
        small = os.path.join(tmp, "one.jsonl")
        with open(small, "wb") as f:
            f.write(first)

        commands = {"python -c pass": ["-c", "pass"],
                    "import numpy, sanggong._core": ["-c", "import numpy, sanggong._core"],
                    "sanggong verify (1 record)": [*verify, small],
                    "sanggong bets (no numpy)": ["-m", "sanggong", "bets", "--rules", "macau"]}
        for argv_ in commands.values():
            _run(argv_, prefix, env)  # untimed: writes the bytecode, warms the file cache
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, argv_ in commands.items():
                times[name].append(_run(argv_, prefix, env))
        _run([*verify, big], prefix, env)  # untimed: the big log in the file cache
        big_times = [_run([*verify, big], prefix, env) for _ in range(max(3, args.runs // 4))]

    print(f"{sys.executable} ({sys.version.split()[0]}), {args.runs} runs of each (medians)")
    medians = {name: _medians(t) for name, t in times.items()}
    for name, (wall, cpu) in medians.items():
        print(f"{name:30} wall {wall * 1000:8.1f} ms   cpu {cpu * 1000:8.1f} ms")
    start_wall = medians["sanggong verify (1 record)"][0] - medians["python -c pass"][0]
    start_cpu = medians["sanggong verify (1 record)"][1] - medians["python -c pass"][1]
    own_wall, own_cpu = (a - b for a, b in zip(medians["sanggong verify (1 record)"],
                                                medians["import numpy, sanggong._core"], strict=True))
    print(f"fixed start (over python -c pass): wall {start_wall * 1000:8.1f} ms   cpu {start_cpu * 1000:8.1f} ms"
          f"   (budget {args.budget * 1000:g} ms)")
    print(f"  over import numpy, sanggong._core: wall {own_wall * 1000:8.1f} ms   cpu {own_cpu * 1000:8.1f} ms"
          "   (below zero: verify, which imports no NumPy, starts sooner than NumPy alone)")
    bets_wall, bets_cpu = (a - b for a, b in zip(medians["sanggong bets (no numpy)"], medians["python -c pass"],
                                                  strict=True))
    print(f"sanggong bets's start (over python -c pass): wall {bets_wall * 1000:8.1f} ms   cpu {bets_cpu * 1000:8.1f} ms")
    wall, cpu = _medians(big_times)
    print(f"sanggong verify ({records:,} records), {len(big_times)} runs: wall {wall:.3f} s, cpu {cpu:.3f} s: "
          f"{records / wall:,.0f} records/s wall (required {args.rate:,.0f}), {records / cpu:,.0f} per cpu second")
    return 0 if start_wall <= args.budget and records / wall >= args.rate else 1


if __name__ == "__main__":
    sys.exit(main())
