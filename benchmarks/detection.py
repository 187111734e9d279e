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

from sanggong import MACAU, ShoeEvaluator, analyze, deal_batch, effect_of_removal
from sanggong.detection import shoe_terms

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


def calibrate(tables: int, rounds: int, randoms: int = 20, alpha: float = 0.001,
              checkpoints: tuple[int, ...] = (50, 100, 200, 300, 400, 500, 1_000, 2_000, 5_000, 10_000, 20_000),
              seed: int = 2026) -> dict[str, Any]:
    """Deal the tables, seat the players, and measure: the null players' z (flat and
    random bettors over whole tables) and the share of perfect players and counters
    flagged at ``alpha`` after each number of rounds of ``checkpoints`` (up to ``rounds``)."""
    rng = np.random.default_rng(seed)
    fresh = {b: float(line.ev_exact) for b, line in analyze(MACAU).bets.items()}
    dealt = [_table(seed, rounds, rng, randoms) for seed in range(tables)]
    marks = sorted({n for n in checkpoints if n <= rounds} | {rounds})
    p_of = lambda z: 1.0 if z is None else 0.5 * math.erfc(z / math.sqrt(2))  # noqa: E731
    nulls = [_z_at(t, fresh, p, len(t["shoe"])) for t in dealt for p in t["stakes"] if p.startswith(("flat", "random"))]
    curves = {kind: [float(np.mean([p_of(_z_at(t, fresh, kind, _boundary(t, n))) < alpha for t in dealt]))
                     for n in marks] for kind in ("perfect", "counter")}
    return {
        "tables": tables, "rounds": rounds, "alpha": alpha, "checkpoints": marks, "curves": curves,
        "null_z": [z for z in nulls if z is not None], "null_players": len(nulls),
        "false_alarms": sum(p_of(z) < alpha for z in nulls),
        "frequency": {kind: float(np.mean([len(t["stakes"][kind]) / rounds for t in dealt]))
                      for kind in ("counter", "perfect")},
    }


def plot(result: dict[str, Any], path: str | None = None) -> Any:
    """The power curves of ``calibrate``'s result (to ``path``, or the figure returned)."""
    import matplotlib

    if path is not None:
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for kind, curve in result["curves"].items():
        ax.plot(result["checkpoints"], [100 * x for x in curve], marker="o", label=f"{kind} (Point 0)")
    ax.axhline(100 * result["alpha"], color="grey", linestyle=":", label=f"alpha = {result['alpha']}")
    ax.set_xscale("log")
    ax.set_xlabel("rounds observed")
    ax.set_ylabel(f"players flagged at alpha {result['alpha']} (%)")
    ax.set_title(f"detect's power: {result['tables']} Macau tables (8 decks, 7 positions)")
    ax.legend()
    fig.tight_layout()
    if path is not None:
        fig.savefig(path)
        plt.close(fig)
    return fig


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
    result = calibrate(args.tables, args.rounds, args.randoms, args.alpha)
    nulls, alarms = result["null_players"], result["false_alarms"]
    zs = np.array(result["null_z"])
    low, high = _interval(alarms, nulls)
    print(f"detect's calibration: {args.tables} Macau tables (8 decks, 7 positions) of {args.rounds:,} rounds, "
          f"alpha {args.alpha} ({time.perf_counter() - start:.0f} s)")
    print(f"false alarms: {alarms} of {nulls:,} flat and random bettors = {alarms / nulls:.5f} "
          f"(95% interval {low:.5f} to {high:.5f}; alpha {args.alpha}): "
          f"{'within' if low <= args.alpha else 'ABOVE'} the test's size")
    print(f"null z: mean {zs.mean():+.3f}, sd {zs.std():.3f} (a standard normal: 0, 1); share above 1.645 "
          f"{np.mean(zs > 1.645):.4f} (0.05), above 2.326 {np.mean(zs > 2.326):.4f} (0.01), above 3.090 "
          f"{np.mean(zs > 3.090):.4f} (0.001)")
    print(f"the counter bets in {result['frequency']['counter']:.1%} of rounds; the perfect player in "
          f"{result['frequency']['perfect']:.1%}")
    print("rounds observed  " + "  ".join(f"{n:>7,}" for n in result["checkpoints"]))
    for kind, curve in result["curves"].items():
        print(f"{kind + ' flagged':<16} " + "  ".join(f"{x:>7.0%}" for x in curve))
    for kind, curve in result["curves"].items():
        reached = next((n for n, x in zip(result["checkpoints"], curve, strict=True) if x >= 0.9), None)
        print(f"90% of {kind} players flagged by {reached:,} rounds" if reached else
              f"{kind}: 90% not reached in {args.rounds:,} rounds")
    if args.plot:
        plot(result, args.plot)


def _boundary(table: dict[str, Any], n: int) -> int:
    """The first shoe boundary at or after round n."""
    shoe = table["shoe"]
    while 0 < n < len(shoe) and shoe[n] == shoe[n - 1]:
        n += 1
    return min(n, len(shoe))


if __name__ == "__main__":
    main()
