"""Peak memory of the chunked entry points: the output, plus a bounded number of chunks in
flight whatever the number of chunks.

    python benchmarks/memory.py            # deal_batch, 200,000 and 1,000,000 rounds
    python benchmarks/memory.py --quick    # 50,000 and 200,000

Each configuration runs in a fresh interpreter, so that its peak resident set size
(``ru_maxrss``) is its own; the interpreter's own size (``import sanggong`` and a first
tiny call, measured the same way) is subtracted. ``deal_batch`` with ``chunk_size=1`` is
the worst case: one chunk per round. Before the work in flight was bounded it submitted
every chunk at once, and 200,000 rounds of 5 MB of output peaked at 630 MB; now the peak
is the output and O(workers x chunk), the same for every number of chunks.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import textwrap

CHILD = textwrap.dedent("""
    import json, resource, sys
    import sanggong
    rounds, chunk, workers = (int(x) for x in sys.argv[1:4])
    sanggong.deal_batch("online", 10, seed=1)  # the tables and the thread pool's first use
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    dealt = sanggong.deal_batch("online", rounds, seed=1, chunk_size=chunk, workers=workers)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    arrays = (dealt.hands, dealt.burned, dealt.burn_counts, dealt.head_cards, dealt.shoe,
              dealt.round_in_shoe, dealt.last_of_shoe, dealt.cut_card)
    print(json.dumps({"base_kb": base, "peak_kb": peak, "output": sum(a.nbytes for a in arrays)}))
""")


def measure(rounds: int, chunk: int, workers: int) -> dict[str, int]:
    done = subprocess.run([sys.executable, "-c", CHILD, str(rounds), str(chunk), str(workers)],
                          capture_output=True, text=True, check=True)
    result: dict[str, int] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    sizes = (50_000, 200_000) if args.quick else (200_000, 1_000_000)
    print("deal_batch, online: peak resident memory beyond the interpreter's (ru_maxrss, one process each)")
    print(f"{'rounds':>10} {'chunk':>6} {'workers':>7} {'output MB':>10} {'peak MB':>8} {'peak - output MB':>17}")
    for rounds in sizes:
        for chunk, workers in ((1, 2), (1, 1), (1 << 18, 2)):
            r = measure(rounds, chunk, workers)
            grown = (r["peak_kb"] - r["base_kb"]) / 1024
            output = r["output"] / 2**20
            print(f"{rounds:>10,} {chunk:>6} {workers:>7} {output:>10.1f} {grown:>8.1f} {grown - output:>17.1f}")


if __name__ == "__main__":
    main()
