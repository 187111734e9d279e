"""Shuffle tests, as a regulator's testing laboratory runs them: a battery of statistical
tests of the cards a shuffle deals (docs/shuffle-test.md).

``shuffle_test(rules)`` runs it on the production dealing path itself: whole shoes dealt
by the compiled core exactly as ``Game`` and ``deal_batch`` deal them (burns, head card
and cut card included), from any numpy bit generator, tallied without materialising the
cards. ``shuffle_test(array)`` runs it on recorded shuffles from outside (a shuffling
machine's output). The result's ``rows`` hold one test each, its ``passed`` says whether
none failed at ``alpha`` under Holm's control of the family-wise error.

>>> from sanggong import shuffle_test
>>> result = shuffle_test("online", shoes=20_000, seed=1)
>>> result.passed, result.cards
(True, 260000)
>>> [row.name for row in result.rows][:2]
['card by position (chi-square)', 'card by position, largest cell']
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import numpy.typing as npt

from .. import _kernels
from .._checks import count
from .._parallel import execute
from .._parallel import workers as workers_of
from .._presentation import pandas
from .._text import renamed
from ..rules import RuleSet, as_rules
from ..seeds import Seed, SeedLike, check_seed, child
from ._recorded import check_shuffles, read_shuffles
from ._stats import Layout, Row, Tallies, rows
from ._stream import CHUNK_CARDS as CHUNK_CARDS
from ._stream import MAX_TEST_SHOES as MAX_TEST_SHOES
from ._stream import layout as layout
from ._stream import write_stream as write_stream

Row.__module__ = __name__  # documented here (docs/api/shuffletest.md)

if TYPE_CHECKING:
    from pandas import DataFrame  # type: ignore[import-not-found, import-untyped, unused-ignore]

__all__ = ["Row", "ShuffleTestResult", "check_shuffles", "read_shuffles", "shuffle_test"]

DEFAULT_SHOES = 100_000
"""The shoes dealt when ``shoes`` is not given."""
ONLINE_ROUND = 13
"""Recorded shuffles with no rules are cut into rounds of this many cards (an online round)."""


def _rounds_of(n: int) -> tuple[int, ...]:
    return tuple(range(0, n, ONLINE_ROUND)) + (n,)


def _empty(lay: Layout) -> Tallies:
    cuts = None if lay.cut is None else np.zeros(lay.cut[1] - lay.cut[0] + 1, np.int64)
    return Tallies(0, np.zeros((lay.k, 52), np.int64), [0] * 4, [0.0] * 4, 0, cuts)


def _kernel_arrays() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    return np.zeros(4, np.int64), np.zeros(4, np.float64)


def _deal_chunk(generator: Generator, params: npt.NDArray[np.int64], lay: Layout,
                seed: np.random.SeedSequence, shoes: int) -> Tallies:
    t = _empty(lay)
    sums, squares = _kernel_arrays()
    cuts = t.cut_counts if t.cut_counts is not None else np.zeros(0, np.int64)
    _kernels.kernels.shuffle_tally(generator(seed), params, shoes, np.array(lay.bounds, np.int64), t.counts, cuts,
                                sums, squares)
    t.shoes, t.pairs, t.sums, t.squares = shoes, shoes - 1, [int(s) for s in sums], [float(s) for s in squares]
    return t


def _tally_recorded(cards: npt.NDArray[np.uint8], lay: Layout) -> Tallies:
    t = _empty(lay)
    sums, squares = _kernel_arrays()
    bad = _kernels.kernels.shuffle_tally_cards(cards, np.array(lay.bounds, np.int64), t.counts, sums, squares)
    if bad >= 0:  # (check_shuffles refused these already)
        raise ValueError(f"shoe {bad} holds a code that is no card")
    t.shoes, t.pairs, t.sums, t.squares = len(cards), len(cards) - 1, [int(s) for s in sums], [float(s) for s in squares]
    return t


@dataclass(frozen=True, eq=False)
class ShuffleTestResult:
    """A battery's result. ``rows``: one test each (``Row``: name, statistic, df, p-value,
    Holm-adjusted p-value, verdict); ``passed``: no test failed at ``alpha``; ``counts``:
    card by position (K positions x 52 codes); ``shoes`` and ``cards`` tested; ``source``:
    the rules' name or ``"recorded"``; ``seed``: what re-creates a dealt run (None for
    recorded shuffles)."""

    source: str
    rows: tuple[Row, ...]
    alpha: float
    shoes: int
    cards: int
    counts: npt.NDArray[np.int64] = field(repr=False)
    seed: int | Seed | None
    generator: str | None

    @property
    def passed(self) -> bool:
        """No test failed (Holm's adjusted p-value above ``alpha`` for every one)."""
        return all(row.verdict == "pass" for row in self.rows)

    def to_frame(self) -> DataFrame:
        """The verdicts as a pandas ``DataFrame`` (index ``test``; columns
        ``statistic``, ``df``, ``p_value``, ``adjusted``, ``verdict``). Needs pandas."""
        pd = pandas()
        frame = pd.DataFrame(
            {"statistic": [r.statistic for r in self.rows], "df": pd.array([r.df for r in self.rows], dtype="Int64"),
             "p_value": [r.p_value for r in self.rows], "adjusted": [r.adjusted for r in self.rows],
             "verdict": [r.verdict for r in self.rows]},
            index=pd.Index([r.name for r in self.rows], name="test"))
        frame.attrs.update(source=self.source, shoes=self.shoes, cards=self.cards, alpha=self.alpha)
        return frame

    def sheet(self) -> str:
        """The verdicts as a sheet of text: a heading line, then one line a test (what
        ``str(result)`` is)."""
        lines = [f"shuffle test of {self.source}: {self.shoes:,} shoes, {self.cards:,} cards, alpha {self.alpha} "
                 f"(Holm over {len(self.rows)} tests): {'PASSED' if self.passed else 'FAILED'}",
                 f"{'test':<40} {'statistic':>14} {'df':>7} {'p-value':>10} {'adjusted':>10}  verdict"]
        for r in self.rows:
            df = "" if r.df is None else str(r.df)
            lines.append(f"{r.name:<40} {r.statistic:>14.4f} {df:>7} {r.p_value:>10.4g} {r.adjusted:>10.4g}  {r.verdict}")
        return "\n".join(lines)

    def position_p_values(self) -> npt.NDArray[np.float64]:
        """Each position's own chi-square p-value (51 df, each uniform under the null)."""
        from ._stats import scipy_stats
        expected = self.shoes / 52
        statistic = ((self.counts - expected) ** 2).sum(axis=1) / expected
        values: npt.NDArray[np.float64] = scipy_stats().chi2.sf(statistic, 51)
        return values

    def plot(self) -> Any:
        """A matplotlib figure: the heat map of card by position (standardised counts) and
        the histogram of the positions' own p-values (flat under the null). Needs matplotlib."""
        from ..plot import pyplot
        plt = pyplot()
        figure, (heat, hist) = plt.subplots(1, 2, figsize=(11, 4), gridspec_kw={"width_ratios": [2, 1]})
        expected = self.shoes / 52
        z = (self.counts - expected) / math.sqrt(expected * 51 / 52)
        image = heat.imshow(z.T, aspect="auto", cmap="RdBu_r", vmin=-4, vmax=4, interpolation="nearest")
        heat.set(xlabel="position in the shoe", ylabel="card code", title="card by position (z)")
        figure.colorbar(image, ax=heat)
        hist.hist(self.position_p_values(), bins=20, range=(0, 1))
        hist.set(xlabel="p-value", ylabel="positions", title="positions' p-values")
        figure.tight_layout()
        return figure

    def __str__(self) -> str:
        return self.sheet()

    def table(self) -> str:
        """Deprecated: ``sheet()``."""
        renamed("sanggong.shuffletest.ShuffleTestResult.table", "sanggong.shuffletest.ShuffleTestResult.sheet")
        return self.sheet()


Generator = Callable[[np.random.SeedSequence], np.random.BitGenerator]
"""What ``generator`` is: a numpy ``BitGenerator`` class, or any callable making one from a seed."""


def _generator(value: object) -> Generator:
    if not callable(value):
        raise TypeError(f"generator must be a numpy BitGenerator class (e.g. numpy.random.PCG64), not {value!r}"[:200])
    made = value(np.random.SeedSequence(0))
    if not isinstance(made, np.random.BitGenerator):
        raise TypeError(f"generator must make a numpy BitGenerator, it made {type(made).__name__}")
    return cast(Generator, value)


def _name(generator: Generator) -> str:
    return str(getattr(generator, "__name__", type(generator(np.random.SeedSequence(0))).__name__))


def _alpha(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < 1:
        raise ValueError(f"alpha must be a number between 0 and 1, got {value!r}"[:200])
    return float(value)


def shuffle_test(
    source: RuleSet | str | npt.ArrayLike | Any,
    *,
    shoes: int | None = None,
    seed: SeedLike = None,
    alpha: float = 0.01,
    generator: Generator = np.random.PCG64,
    workers: int | None = None,
    rules: RuleSet | str | None = None,
) -> ShuffleTestResult:
    """Run the battery (docs/shuffle-test.md) and return its verdicts.

    :param source: a ``RuleSet`` or a preset's name (shoes dealt by the production dealing
        path), or recorded shuffles: an integer array ``[shoes, cards]`` of card codes, or a
        ``pathlib.Path`` to a file of them (``read_shuffles``).
    :param shoes: shoes to deal (rules only; default ``DEFAULT_SHOES``).
    :param seed: as everywhere (``sanggong.seeds``); the result's ``seed`` re-creates the run.
    :param alpha: the family-wise error rate (Holm over the battery's tests).
    :param generator: the numpy ``BitGenerator`` class each chunk draws from, or a callable making one
        from a ``SeedSequence`` (rules only).
    :param workers: threads (None: every core); the result does not depend on it.
    :param rules: for recorded shuffles, the rules whose rounds cut them (default: rounds
        of 13 cards); they must deal from as many decks as the shuffles hold.
    :raises ValueError, TypeError: a bad argument, or recorded shuffles that cannot be
        shuffles of whole decks (naming the shoe and position).
    :raises ImportError: scipy is missing (``pip install 'sanggong[lab]'``).
    """
    a = _alpha(alpha)
    count_workers = workers_of(workers)
    from ._stats import scipy_stats
    scipy_stats()  # before any work
    if isinstance(source, RuleSet | str):
        if rules is not None:
            raise ValueError("rules is for recorded shuffles; the source is rules already")
        return _dealt(as_rules(source), shoes, seed, a, _generator(generator), count_workers)
    if shoes is not None or seed is not None or generator is not np.random.PCG64:
        raise ValueError("shoes, seed and generator are for rules: recorded shuffles are tested as they are")
    cards = read_shuffles(source) if isinstance(source, os.PathLike) else check_shuffles(source)
    n = cards.shape[1]
    if rules is None:
        lay = Layout(n, _rounds_of(n))
    else:
        given = layout(as_rules(rules))
        if given.n != n:
            raise ValueError(f"rules deal from {given.n // 52} deck(s), the shuffles hold {n // 52}")
        bounds = list(given.bounds)
        while bounds[-1] < n:  # the rules' later rounds to the end of the shoe
            bounds.append(min(n, bounds[-1] + (bounds[-1] - bounds[-2])))
        lay = Layout(n, tuple(bounds), given.burned)
    t = _tally_recorded(cards, lay)
    return ShuffleTestResult("recorded", tuple(rows(t, lay, a)), a, t.shoes, t.shoes * n, t.counts, None, None)


def _dealt(rules: RuleSet, shoes: int | None, seed: SeedLike, alpha: float,
           generator: Generator, window: int) -> ShuffleTestResult:
    total = count("shoes", DEFAULT_SHOES if shoes is None else shoes, MAX_TEST_SHOES, low=2)
    sequence, recorded = check_seed(seed)
    lay = layout(rules)
    params = rules.table_params.array()
    per_chunk = max(1, CHUNK_CARDS // lay.k)
    n_chunks = -(-total // per_chunk)
    done: dict[int, Tallies] = {}
    order = [0]
    tally = _empty(lay)

    def run(k: int) -> tuple[int, Tallies]:
        return k, _deal_chunk(generator, params, lay, child(sequence, k), min(per_chunk, total - k * per_chunk))

    def absorb(result: tuple[int, Tallies]) -> None:  # in chunk order, so that the sums do not depend on workers
        done[result[0]] = result[1]
        while order[0] in done:
            tally.add(done.pop(order[0]))
            order[0] += 1

    tasks = ((k,) for k in range(n_chunks))
    if window == 1 or n_chunks == 1:
        for task in tasks:
            absorb(run(*task))
    else:
        with ThreadPoolExecutor(max_workers=min(window, n_chunks), thread_name_prefix="sanggong-shuffle") as pool:
            if execute(tasks, run, pool, 2 * window, absorb, None):
                raise KeyboardInterrupt
    return ShuffleTestResult(rules.name, tuple(rows(tally, lay, alpha)), alpha, tally.shoes, tally.shoes * lay.k,
                             tally.counts, recorded, _name(generator))
