"""The shuffle battery's calibration table (docs/shuffle-test.md): how often it fails a good
shuffle (the production dealing path from PCG64, Philox, ChaCha20 and ChaCha8, and numpy's
permutation as recorded shuffles), against the binomial bound of a test at alpha, and how
often it catches each planted fault (sanggong.shuffletest.faults) at a stated number of shoes.

    python tools/shuffle_calibration.py            # print the table (Markdown)
    python tools/shuffle_calibration.py --write    # write it into docs/shuffle-test.md

Every run is seeded: the table is the same on every machine, and tests/test_shuffle_test.py's
slow test checks the one in the docs against a fresh run.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import numpy as np
import scipy.stats

from sanggong import shuffle_test
from sanggong.cli._shuffle import generator_of
from sanggong.shuffletest import faults

ALPHA = 0.01
GOOD_RUNS = 100
FAULT_RUNS = 10
DOCS = Path(__file__).resolve().parent.parent / "docs" / "shuffle-test.md"
BEGIN, END = "<!-- calibration: begin (tools/shuffle_calibration.py --write) -->", "<!-- calibration: end -->"

GOOD = [("dealing path, online", "online", 20_000), ("dealing path, Macau (8 decks)", "macau", 2_000)]
GENERATORS = ["pcg64", "philox", "chacha20", "chacha8"]
FAULTS = [("modulo_bias", 10_000), ("naive_swap", 1_000), ("reused_shoe", 1_000), ("sticky_card", 1_000_000)]


def rows() -> list[tuple[str, str, str, str]]:
    """(shuffler, shoes, failed / runs, what is expected) for each line of the table."""
    bound = int(scipy.stats.binom.ppf(0.995, GOOD_RUNS, ALPHA))
    found = []
    for name, rules, shoes in GOOD:
        for g in GENERATORS:
            generator = generator_of(g)
            failed = sum(not shuffle_test(rules, shoes=shoes, seed=run, alpha=ALPHA, generator=generator,
                                          workers=1).passed for run in range(GOOD_RUNS))
            label = generator(np.random.SeedSequence(0)).__class__.__name__
            label = getattr(generator, "__name__", label)
            found.append((f"{name}, {label}", f"{shoes:,}", f"{failed} / {GOOD_RUNS}", f"at most {bound} (good)"))
    failed = sum(not shuffle_test(faults.uniform(np.random.default_rng(run), 2_000), alpha=ALPHA).passed
                 for run in range(GOOD_RUNS))
    found.append(("recorded: numpy's permutation (1 deck)", "2,000", f"{failed} / {GOOD_RUNS}", f"at most {bound} (good)"))
    for fault, shoes in FAULTS:
        shuffler = getattr(faults, fault)
        name = next(k for k, v in faults.FAULTS.items() if v is shuffler)
        runs = FAULT_RUNS if shoes <= 100_000 else FAULT_RUNS // 2
        caught = sum(not shuffle_test(shuffler(np.random.default_rng(run), shoes), alpha=ALPHA).passed
                     for run in range(runs))
        found.append((f"recorded: {name}", f"{shoes:,}", f"{caught} / {runs}", "all (a fault)"))
    return found


def table() -> str:
    """The Markdown table."""
    lines = ["| shuffler | shoes | battery failed | expected |", "| --- | ---: | ---: | --- |"]
    lines += [f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows()]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write the table into docs/shuffle-test.md")
    args = parser.parse_args()
    text = table()
    if not args.write:
        print(text)
        return 0
    page = DOCS.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(BEGIN) + r".*?" + re.escape(END), re.S)
    if not pattern.search(page):
        print(f"{DOCS}: no calibration markers", file=sys.stderr)
        return 1
    DOCS.write_text(pattern.sub(lambda _: f"{BEGIN}\n{text}\n{END}", page), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
