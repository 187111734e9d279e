"""The battery's statistics, from the tallies the kernels add up (``csrc/shuffletest.pxi``'s
notes): each test's statistic, its p-value under a uniform shuffle, and Holm's control of
the family-wise error over the battery.

The null distributions, for shoes of ``n`` cards (``n / 52`` decks) dealt by a uniform
shuffle, of which the first ``K`` are tallied:

* **card by position**: the Pearson statistic of each position's 52 counts is not
  independent of the other positions' (the cards are drawn without replacement); the
  standardised count vectors of positions p and q have covariance ``-(I - J/52) / (n - 1)``.
  The total splits exactly into the part within positions (``X_within``, the counts about
  their mean over positions, asymptotically ``n / (n - 1)`` times chi-square with ``(K - 1)
  * 51`` degrees of freedom) and the mean over positions (``X_mean``, ``(n - K) / (n - 1)``
  times chi-square with 51; identically 0 when ``K = n``): the statistic is ``X_within (n -
  1) / n + X_mean (n - 1) / (n - K)``, chi-square with ``(K - 1) * 51 (+ 51 if K < n)``.
* **largest cell**: the most extreme of the ``52 K`` counts, each binomial(shoes, 1/52),
  two-sided, Šidák-corrected over the cells (conservative: the cells are dependent).
* **runs, within-round correlation, serial correlations**: per-shoe statistics ``t`` whose
  mean under the null is exact (below, by exchangeability) and whose variance is estimated
  from the shoes (they are independent): ``z = (sum t - N E[t]) / sqrt(N s^2)``, two-sided
  normal. For ``y = 2 c - 51`` (mean 0, variance 901 over the shoe's cards) two different
  positions of one shoe have ``E[y_i y_j] = -901 / (n - 1)``; low and high cards (codes
  below 26, half of the shoe) alternate at ``n / (2 (n - 1))`` of adjacent places; two
  different shoes are independent (``E = 0``).
* **cut card**, **burned cards**: Pearson against uniform (the burned cards' pooled counts
  scaled by ``(n - 1) / (n - B)`` for ``B`` burned places a shoe, as ``X_mean`` above).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["Layout", "Row", "Tallies", "holm", "rows", "scipy_stats"]

Y_VARIANCE = 901
"""The variance of ``y = 2 c - 51`` over a shoe's cards (each code equally often): (52² - 1) / 3."""


def scipy_stats() -> Any:
    """scipy.stats, imported on first use: an optional dependency (the ``lab`` extra)."""
    try:
        import scipy.stats  # type: ignore[import-untyped, unused-ignore]  # (no stubs: an optional extra)
    except ImportError as exc:
        raise ImportError(f"shuffle_test needs scipy: pip install 'sanggong[lab]' ({exc})", name="scipy") from exc
    return scipy.stats


@dataclass(frozen=True)
class Layout:
    """Where the rounds of a shoe lie: ``n`` cards a shoe, the rounds cut at ``bounds``
    (from 0 to the ``K`` cards tallied), the burned places, the cut card's range (None:
    no cut card)."""

    n: int
    bounds: tuple[int, ...]
    burned: tuple[int, ...] = ()
    cut: tuple[int, int] | None = None

    @property
    def k(self) -> int:
        """The cards of a shoe that are tallied."""
        return self.bounds[-1]

    def expected(self) -> tuple[Fraction, Fraction, Fraction, Fraction]:
        """The exact mean of each per-shoe statistic under a uniform shuffle (the module's notes)."""
        n, k, pair = self.n, self.k, Fraction(-Y_VARIANCE, self.n - 1)
        lengths = [b - a for a, b in zip(self.bounds, self.bounds[1:], strict=False)]
        runs = Fraction((k - 1) * n, 2 * (n - 1)) if k else Fraction(0)
        within = pair * sum(m * (m - 1) // 2 for m in lengths)
        serial = pair * sum(min(a, b) for a, b in itertools.pairwise(lengths))
        return runs, within, serial, Fraction(0)


@dataclass
class Tallies:
    """The sums the kernels add up over shoes: ``counts`` (K, 52), the four per-shoe
    statistics' sums and sums of squares, how many shoes had a shoe before them, and the cut
    card's places."""

    shoes: int
    counts: npt.NDArray[np.int64]
    sums: list[int]
    squares: list[float]
    pairs: int
    cut_counts: npt.NDArray[np.int64] | None = None

    def add(self, other: Tallies) -> None:
        """Add another chunk's tallies (in chunk order: the float sums then do not depend
        on the workers)."""
        self.shoes += other.shoes
        self.counts += other.counts
        self.sums = [a + b for a, b in zip(self.sums, other.sums, strict=True)]
        self.squares = [a + b for a, b in zip(self.squares, other.squares, strict=True)]
        self.pairs += other.pairs
        if self.cut_counts is not None and other.cut_counts is not None:
            self.cut_counts += other.cut_counts


@dataclass(frozen=True)
class Row:
    """One test of the battery: its statistic (chi-square or z), degrees of freedom (None
    for a z or an extreme count), p-value, Holm-adjusted p-value and verdict."""

    name: str
    statistic: float
    df: int | None
    p_value: float
    adjusted: float
    verdict: str


def chi_square_by_position(counts: npt.NDArray[np.int64], n: int) -> tuple[float, int]:
    """The card-by-position statistic and its degrees of freedom (the module's notes)."""
    k, shoes = counts.shape[0], int(counts[0].sum())
    z = (counts - shoes / 52) / math.sqrt(shoes / 52)
    mean = z.mean(axis=0)
    within = float(((z - mean) ** 2).sum())
    statistic, df = within * (n - 1) / n, (k - 1) * 51
    if k < n:
        statistic += float(k * (mean**2).sum()) * (n - 1) / (n - k)
        df += 51
    return statistic, df


def largest_cell(counts: npt.NDArray[np.int64]) -> tuple[float, float]:
    """The most extreme cell's standardised count and its Šidák-corrected two-sided p-value."""
    stats = scipy_stats()
    shoes, cells = int(counts[0].sum()), counts.size
    high, low = int(counts.max()), int(counts.min())
    p = min(1.0, 2 * min(float(stats.binom.sf(high - 1, shoes, 1 / 52)), float(stats.binom.cdf(low, shoes, 1 / 52))))
    sd = math.sqrt(shoes * (1 / 52) * (51 / 52))
    z = max(high - shoes / 52, shoes / 52 - low) / sd
    return z, float(-math.expm1(cells * math.log1p(-p))) if p < 1 else 1.0


def studentized(total: int, squares: float, count: int, mean: Fraction) -> tuple[float, float] | None:
    """z and its two-sided p-value for ``count`` independent values summing to ``total``
    (``squares`` their squares) against the exact ``mean``; None for fewer than two."""
    if count < 2:
        return None
    centred = Fraction(total) - count * mean
    variance = (squares - total * total / count) / (count - 1)
    if variance <= 0:
        return (0.0, 1.0) if centred == 0 else (math.inf, 0.0)
    z = float(centred) / math.sqrt(count * variance)
    return z, float(2 * scipy_stats().norm.sf(abs(z)))


def pearson_uniform(counts: npt.NDArray[np.int64], scale: float = 1.0) -> tuple[float, int, float] | None:
    """Pearson's statistic of counts against equal cells (times ``scale``), its df and p-value."""
    total, cells = int(counts.sum()), len(counts)
    if cells < 2 or total == 0:
        return None
    expected = total / cells
    statistic = float(((counts - expected) ** 2).sum() / expected) * scale
    return statistic, cells - 1, float(scipy_stats().chi2.sf(statistic, cells - 1))


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values: rejecting where adjusted <= alpha keeps the
    family-wise error at most alpha, whatever the tests' dependence."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted, running = [0.0] * m, 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def rows(tallies: Tallies, layout: Layout, alpha: float) -> list[Row]:
    """The battery's rows, Holm-adjusted over the tests that apply."""
    stats = scipy_stats()
    found: list[tuple[str, float, int | None, float]] = []
    statistic, df = chi_square_by_position(tallies.counts, layout.n)
    found.append(("card by position (chi-square)", statistic, df, float(stats.chi2.sf(statistic, df))))
    z, p = largest_cell(tallies.counts)
    found.append(("card by position, largest cell", z, None, p))
    means = layout.expected()
    names = ("runs of low and high cards", "correlation within a round",
             "serial correlation, consecutive rounds", "serial correlation, consecutive shoes")
    for i, name in enumerate(names):
        count = tallies.pairs if i == 3 else tallies.shoes
        if i == 2 and len(layout.bounds) < 3:
            continue  # one round a shoe: no consecutive rounds within one
        if i == 1 and all(b - a < 2 for a, b in zip(layout.bounds, layout.bounds[1:], strict=False)):
            continue
        result = studentized(tallies.sums[i], tallies.squares[i], count, means[i])
        if result is not None:
            found.append((name, result[0], None, result[1]))
    if layout.cut is not None and tallies.cut_counts is not None:
        cut = pearson_uniform(tallies.cut_counts)
        if cut is not None:
            found.append(("cut card's place", *cut))
    if layout.burned:
        pooled = tallies.counts[list(layout.burned)].sum(axis=0)
        b = len(layout.burned)
        burned = pearson_uniform(pooled, (layout.n - 1) / (layout.n - b)) if b < layout.n else None
        if burned is not None:
            found.append(("burned cards", *burned))
    adjusted = holm([p for *_, p in found])
    return [Row(name, statistic, df, p, adj, "pass" if adj > alpha else "FAIL")
            for (name, statistic, df, p), adj in zip(found, adjusted, strict=True)]
