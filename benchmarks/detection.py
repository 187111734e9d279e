"""Calibration of ``sanggong.detect``: its false-alarm rate and its power, measured.

    python benchmarks/detection.py                  # 120 tables of 20,000 Macau rounds
    python benchmarks/detection.py --quick          # 30 tables of 6,000 rounds
    python benchmarks/detection.py --plot power.png # and draw the power curve

Tables of the Macau preset (8 decks, 7 positions) are dealt as ``Game`` deals them
(``deal_batch``), and each round's exact EV of every bet is taken before the round from
the cards seen so far (``ShoeEvaluator``, as ``detect`` takes it). At every table sit:

- **flat bettors**, one unit on one bet every round, one for each of the table's 27 bets;
- **random bettors** of Point 0, betting in as many rounds as the counter does, with the
  counter's stakes, at rounds drawn independently of the cards;
- a **perfect** player, one unit on Point 0 whenever its exact EV is positive;
- a **counter** of Point 0: its balanced tags (``effect_of_removal``), a true count per
  52 unseen cards, and a spread of 1, 2 and 4 units at true counts of 2, 4 and 6.

Each player's z and one-sided p-value are computed by ``detect``'s own statistic
(``shoe_terms``) over the first N rounds (N a shoe boundary), for N up to the tables'
length. The false-alarm rate is the share of flat and random bettors with p < alpha (it
must be at most alpha, within its binomial interval: the test's size); the power is the
share of perfect players and of counters with p < alpha, as N grows. (In a log, ``detect``
also corrects for the players examined: Holm's step-down over them.)
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sanggong import MACAU, ShoeEvaluator, analyze, deal_batch, effect_of_removal  # noqa: E402
from sanggong.detect import shoe_terms  # noqa: E402

RANKS = "A23456789TJQK"
BET = "point:0"
SPREAD = ((6.0, 4.0), (4.0, 2.0), (2.0, 1.0))  # (true count at least, units)


def _table(seed: int, rounds: int, rng: np.random.Generator, randoms: int) -> dict[str, Any]:
    """One table: every round's EVs, and every player's stakes."""
    rules = MACAU
    dealt = deal_batch(rules, rounds, seed=seed, workers=1)
    tags = effect_of_removal(rules, [BET])[BET].tags
    tag = np.array([tags[RANKS[c // 4]] for c in range(52)])
    bets = list(rules.bets)
    evs: list[dict[str, float]] = []
    shoe_of: list[int] = []
    counts: list[float] = []
    evaluator = None
    running = 0
    for i in range(rounds):
        if dealt.round_in_shoe[i] == 1:
            evaluator, running = ShoeEvaluator(rules), 0
        assert evaluator is not None
        evs.append({b: float(v) for b, v in evaluator.evs().items()})
        shoe_of.append(int(dealt.shoe[i]))
        counts.append(running / (evaluator.cards / 52))
        seen = dealt.hands[i].ravel()
        evaluator.remove(seen.tolist())
        running += int(tag[seen].sum())
    stakes: dict[str, list[tuple[int, str, float]]] = defaultdict(list)
    for b in bets:
        stakes[f"flat {b}"] = [(i, b, 1.0) for i in range(rounds)]
    counter = []
    for i, tc in enumerate(counts):
        units = next((u for level, u in SPREAD if tc >= level), 0.0)
        if units:
            counter.append((i, BET, units))
    stakes["counter"] = counter
    stakes["perfect"] = [(i, BET, 1.0) for i in range(rounds) if evs[i][BET] > 0]
    spread = [s for _, _, s in counter] or [1.0]
    for k in range(randoms):  # at the counter's frequency, with its stakes, independently of the cards
        chosen = np.flatnonzero(rng.random(rounds) < len(counter) / rounds)
        stakes[f"random {k}"] = [(int(i), BET, float(rng.choice(spread))) for i in chosen]
    return {"evs": evs, "shoe": shoe_of, "stakes": stakes}


def _z_at(table: dict[str, Any], fresh: dict[str, float], player: str, upto: int) -> float | None:
    """The player's z over the table's rounds before ``upto`` (a shoe boundary)."""
    evs, shoe = table["evs"], table["shoe"]
    by_shoe: dict[int, list[tuple[int, str, float]]] = defaultdict(list)
    for i, bet, stake in table["stakes"][player]:
        if i < upto:
            by_shoe[shoe[i]].append((i, bet, stake))
    starts: dict[int, int] = {}
    for i in range(upto):
        starts.setdefault(shoe[i], i)
    excess = square = 0.0
    for number, stakes in by_shoe.items():
        first = starts[number]
        last = first
        while last < upto and shoe[last] == number:
            last += 1
        terms = shoe_terms(evs[first:last], [(i - first, b, s) for i, b, s in stakes])
        excess += sum(terms)
        square += sum(t * t for t in terms)
    return excess / math.sqrt(square) if square > 0 else None


def _tail(hits: int, n: int, p: float) -> float:
    """P(X <= hits) for X binomial(n, p), summed in logs (hits is small here)."""
    if p <= 0:
        return 1.0
    if p >= 1:
        return 0.0 if hits < n else 1.0
    logs = [math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * math.log(p)
            + (n - i) * math.log1p(-p) for i in range(hits + 1)]
    top = max(logs)
    return min(1.0, math.exp(top) * sum(math.exp(x - top) for x in logs))


def _interval(hits: int, n: int) -> tuple[float, float]:
    """The exact (Clopper-Pearson) 95% interval of a binomial proportion, by bisection."""
    def solve(target: float, k: int) -> float:  # the p at which P(X <= k) = target
        low, high = 0.0, 1.0
        for _ in range(100):
            mid = (low + high) / 2
            low, high = (mid, high) if _tail(k, n, mid) > target else (low, mid)
        return (low + high) / 2

    lower = 0.0 if hits == 0 else solve(0.975, hits - 1)
    upper = 1.0 if hits == n else solve(0.025, hits)
    return lower, upper


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=120)
    parser.add_argument("--rounds", type=int, default=20_000)
    parser.add_argument("--randoms", type=int, default=20, help="random bettors at each table")
    parser.add_argument("--alpha", type=float, default=0.001)
    parser.add_argument("--quick", action="store_true", help="30 tables of 6,000 rounds")
    parser.add_argument("--plot", metavar="FILE", help="draw the power curve to FILE")
    args = parser.parse_args()
    if args.quick:
        args.tables, args.rounds = 30, 6_000
    start = time.perf_counter()
    rng = np.random.default_rng(2026)
    fresh = {b: float(line.ev_exact) for b, line in analyze(MACAU).bets.items()}
    tables = [_table(seed, args.rounds, rng, args.randoms) for seed in range(args.tables)]
    dealt = time.perf_counter() - start
    checkpoints = sorted({n for n in (50, 100, 200, 300, 500, 1_000, 2_000, 5_000, 10_000, 20_000) if n <= args.rounds}
                         | {args.rounds})
    p_of = lambda z: 1.0 if z is None else 0.5 * math.erfc(z / math.sqrt(2))  # noqa: E731
    print(f"detect's calibration: {args.tables} Macau tables (8 decks, 7 positions) of {args.rounds:,} rounds, "
          f"alpha {args.alpha}; EVs of every round in {dealt:.0f} s")
    # size: the null players over whole tables
    nulls = [_z_at(t, fresh, p, len(t["shoe"])) for t in tables for p in t["stakes"]
             if p.startswith(("flat", "random"))]
    zs = [z for z in nulls if z is not None]
    alarms = sum(p_of(z) < args.alpha for z in nulls)
    low, high = _interval(alarms, len(nulls))
    print(f"false alarms: {alarms} of {len(nulls):,} flat and random bettors = {alarms / len(nulls):.5f} "
          f"(95% interval {low:.5f} to {high:.5f}; alpha {args.alpha}): "
          f"{'within' if low <= args.alpha else 'ABOVE'} the test's size")
    print(f"null z: mean {np.mean(zs):+.3f}, sd {np.std(zs):.3f} (a standard normal: 0, 1); "
          f"share above 1.645 {np.mean(np.array(zs) > 1.645):.4f} (0.05), above 2.326 "
          f"{np.mean(np.array(zs) > 2.326):.4f} (0.01)")
    curves: dict[str, list[float]] = {}
    for kind in ("perfect", "counter"):
        curve = []
        for n in checkpoints:
            flagged = [p_of(_z_at(t, fresh, kind, _boundary(t, n))) < args.alpha for t in tables]
            curve.append(sum(flagged) / len(flagged))
        curves[kind] = curve
    frequency = np.mean([len(t["stakes"]["counter"]) / args.rounds for t in tables])
    print(f"the counter bets in {frequency:.1%} of rounds; the perfect player in "
          f"{np.mean([len(t['stakes']['perfect']) / args.rounds for t in tables]):.1%}")
    print("rounds observed  " + "  ".join(f"{n:>7,}" for n in checkpoints))
    for kind, curve in curves.items():
        print(f"{kind + ' flagged':<16} " + "  ".join(f"{x:>7.0%}" for x in curve))
    for kind, curve in curves.items():
        reached = next((n for n, x in zip(checkpoints, curve) if x >= 0.9), None)
        print(f"90% of {kind} players flagged by {reached:,} rounds" if reached else
              f"{kind}: 90% not reached in {args.rounds:,} rounds")
    print(f"({time.perf_counter() - start:.0f} s in all)")
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(7, 4))
        for kind, curve in curves.items():
            ax.plot(checkpoints, [100 * x for x in curve], marker="o", label=f"{kind} (Point 0)")
        ax.axhline(100 * args.alpha, color="grey", linestyle=":", label=f"alpha = {args.alpha}")
        ax.set_xscale("log")
        ax.set_xlabel("rounds observed")
        ax.set_ylabel(f"players flagged at alpha {args.alpha} (%)")
        ax.set_title("detect: power against advantage players, Macau 8 decks")
        ax.legend()
        fig.tight_layout()
        fig.savefig(args.plot)
        plt.close(fig)


def _boundary(table: dict[str, Any], n: int) -> int:
    """The first shoe boundary at or after round n."""
    shoe = table["shoe"]
    while 0 < n < len(shoe) and shoe[n] == shoe[n - 1]:
        n += 1
    return min(n, len(shoe))


if __name__ == "__main__":
    main()
