"""How much ``import sanggong`` adds to ``import numpy``, in fresh processes.

    python benchmarks/import_time.py          # 30 runs of each
    python benchmarks/import_time.py -n 100   # steadier on a busy machine

Runs ``python -c "import numpy"`` and ``python -c "import numpy, sanggong"``
alternately (so that a change in the machine's load touches both alike), each in a new
interpreter, and prints the median wall time of each and the difference in ms. The
budget is 10 ms (``--budget``); the exit status is 1 when the median difference is over
it. This is a measurement, not a unit test: run it by hand, on a quiet machine if you
can. ``python -X importtime -c "import sanggong"`` shows where the time goes.

Both commands read their bytecode from a temporary ``-X pycache_prefix`` directory,
written by an untimed first run, so that a source tree (or ``PYTHONDONTWRITEBYTECODE``)
times like an installed package, whose bytecode is compiled at install, and nothing is
written next to the sources.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time


def _run(code: str, prefix: str, env: dict[str, str]) -> float:
    """Seconds to start an interpreter, run ``code`` and exit."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-X", f"pycache_prefix={prefix}", "-c", code], env=env, check=True,
                   stdin=subprocess.DEVNULL)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--runs", type=int, default=30, help="runs of each command (default 30)")
    parser.add_argument("--budget", type=float, default=10.0, help="allowed difference in ms (default 10)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")

    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPROFILEIMPORTTIME", "PYTHONPYCACHEPREFIX")}
    base_code, with_code = "import numpy", "import numpy, sanggong"
    base: list[float] = []
    with_sanggong: list[float] = []
    with tempfile.TemporaryDirectory(prefix="sanggong-import-time-") as prefix:
        _run(with_code, prefix, env)  # untimed: writes the bytecode, warms the file cache
        for _ in range(args.runs):
            base.append(_run(base_code, prefix, env))
            with_sanggong.append(_run(with_code, prefix, env))

    base_ms = statistics.median(base) * 1000
    with_ms = statistics.median(with_sanggong) * 1000
    diff = with_ms - base_ms
    print(f"{sys.executable} ({sys.version.split()[0]}), {args.runs} runs of each")
    print(f"import numpy:           median {base_ms:8.1f} ms")
    print(f"import numpy, sanggong: median {with_ms:8.1f} ms")
    print(f"difference:                    {diff:8.1f} ms (budget {args.budget:g} ms)")
    return 0 if diff <= args.budget else 1


if __name__ == "__main__":
    sys.exit(main())
