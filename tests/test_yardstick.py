"""The yardstick of the round loops (benchmarks/yardstick.c, the best plain-C loop the
benchmark report times the core against) does the core's work exactly: from the same
PCG64 seed it gives the same histograms as ``_core.simulate_chunk`` and leaves the bit
generator in the same state (it consumed the same draws). Built here with the system C
compiler; skipped where there is none."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sanggong import _core
from sanggong._kernels import twin as _pykernels
from sanggong._table import table_params
from sanggong.ranking import tables_for
from sanggong.simulation import _histograms

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
if not (BENCHMARKS / "yardstick.c").exists():
    pytest.skip("the benchmarks directory (yardstick.c) is not next to the tests", allow_module_level=True)
sys.path.insert(0, str(BENCHMARKS))
import yardstick  # noqa: E402

SHAPES = {"online": (yardstick.ONLINE, yardstick.online), "macau": (yardstick.MACAU, yardstick.macau)}


@pytest.fixture(scope="module")
def lib() -> object:
    if yardstick.compiler() is None:
        pytest.skip("no C compiler found (set CC, or put cc, gcc or clang on the PATH) to build the yardstick")
    try:
        return yardstick.build()
    except subprocess.CalledProcessError as error:
        if sys.platform.startswith("linux"):  # CI's gcc must build it
            raise
        pytest.skip(f"the C compiler could not build the yardstick (GCC/Clang C is needed): {error.stderr}")


def _core_chunk(module: object, rules: object, seed: int, rounds: int) -> tuple[np.ndarray, np.ndarray, dict]:
    pairs, single = _histograms(rules)  # type: ignore[arg-type]
    bit_generator = np.random.PCG64(seed)
    tables = module.Lookups(tables_for(rules.ranking))  # type: ignore[attr-defined]
    done = module.simulate_chunk(bit_generator, tables, table_params(rules).array(), rounds,  # type: ignore[attr-defined]
                                 pairs, single, None, None, None, np.zeros(1, np.uint8))
    assert done == rounds
    return pairs, single, bit_generator.state


@pytest.mark.parametrize("seed", [1, 2, 17, 2024, 987654321])
@pytest.mark.parametrize("shape", list(SHAPES))
def test_yardstick_gives_the_core_histograms(lib: object, shape: str, seed: int) -> None:
    """Compares with the compiled core directly (not the kernels the fixture installs),
    over many shoes for Macau (a shoe deals about 15 rounds)."""
    rules, run = SHAPES[shape]
    rounds = 20_000
    pairs, single, state = _core_chunk(_core, rules, seed, rounds)
    y_pairs, y_single = yardstick.histograms(rules.hands)
    bit_generator = np.random.PCG64(seed)
    run(lib, bit_generator, rounds, y_pairs, y_single)
    assert int(y_single.sum()) == rounds * rules.hands  # every hand counted once
    assert int(y_pairs.sum()) == rounds * rules.positions
    np.testing.assert_array_equal(y_single, single)
    np.testing.assert_array_equal(y_pairs, pairs)
    assert bit_generator.state == state  # the same draws consumed, no more, no fewer


@pytest.mark.parametrize("shape", list(SHAPES))
def test_yardstick_counts_past_its_counters_width(lib: object, shape: str) -> None:
    """The yardstick counts in 16-bit counters added into the histograms every 65,535
    rounds (so that no counter can pass 65,535): a run of three such blocks and a part
    still gives the core's histograms."""
    rules, run = SHAPES[shape]
    rounds = 3 * 65_535 + 7
    pairs, single, state = _core_chunk(_core, rules, 3, rounds)
    y_pairs, y_single = yardstick.histograms(rules.hands)
    bit_generator = np.random.PCG64(3)
    run(lib, bit_generator, rounds, y_pairs, y_single)
    np.testing.assert_array_equal(y_single, single)
    np.testing.assert_array_equal(y_pairs, pairs)
    assert bit_generator.state == state


@pytest.mark.parametrize("shape", list(SHAPES))
def test_yardstick_gives_the_reference_histograms(lib: object, shape: str) -> None:
    """The pure-Python reference, the source of truth, on a short chunk."""
    rules, run = SHAPES[shape]
    pairs, single, state = _core_chunk(_pykernels, rules, 11, 300)
    y_pairs, y_single = yardstick.histograms(rules.hands)
    bit_generator = np.random.PCG64(11)
    run(lib, bit_generator, 300, y_pairs, y_single)
    np.testing.assert_array_equal(y_single, single)
    np.testing.assert_array_equal(y_pairs, pairs)
    assert bit_generator.state == state


def test_yardstick_histograms_depend_on_the_seed(lib: object) -> None:
    """The comparison above can fail: another seed gives other histograms."""
    rules, run = SHAPES["online"]
    a = yardstick.histograms(rules.hands)
    b = yardstick.histograms(rules.hands)
    run(lib, np.random.PCG64(1), 2000, *a)
    run(lib, np.random.PCG64(2), 2000, *b)
    assert not np.array_equal(a[0], b[0])


def test_yardstick_rejects_histograms_of_the_wrong_shape(lib: object) -> None:
    _rules, run = SHAPES["macau"]
    pairs, single = yardstick.histograms(4)
    with pytest.raises(ValueError, match="shape"):
        run(lib, np.random.PCG64(1), 10, pairs, single)
