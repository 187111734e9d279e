"""Types of sanggong's compiled core (``_core.pyx``), every name it exports; checked against
the built module by ``tools/stubtest.sh`` (``python -m mypy.stubtest sanggong._core``).

The kernels' twins in ``_kernels/twin/`` take the same arguments, and both are checked against
what a kernel is, ``_kernels.protocol.Kernels`` (``_kernels.conformance``). Arrays are read in place:
the dtypes below are the ones each kernel accepts (``np.integer`` where any integer dtype
is read, as the batch kernels do).
"""

import array
from collections.abc import Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

from sanggong._kernels.protocol import SettlementSource

IMPLEMENTATION: Final[str]

# --- hand evaluation (csrc/lookups.pxi, csrc/eval.pxi) ---------------------------------------

@disjoint_base
class Lookups:
    """A ranking's lookup tables as the kernels read them (``sanggong._kernels.lookups``)."""

    def __init__(self, source: Any) -> None: ...
    @property
    def source(self) -> Any: ...
    @property
    def n_ranks(self) -> int: ...
    @property
    def n_classes(self) -> int: ...
    @property
    def n_rids(self) -> int: ...
    @property
    def ordered_by_class(self) -> bool: ...
    @property
    def wide(self) -> bool: ...

def rank3(lookups: Lookups, c0: int, c1: int, c2: int) -> int: ...
def class3(lookups: Lookups, c0: int, c1: int, c2: int) -> int: ...
def pair_plus3(c0: int, c1: int, c2: int) -> int: ...
def default_lookups() -> tuple[bytes, bytes]: ...
def rank_batch(lookups: Lookups, hands: npt.NDArray[np.integer], out: npt.NDArray[np.uint8 | np.uint16]) -> int: ...
def pair_plus_batch(lookups: Lookups, hands: npt.NDArray[np.integer], out: npt.NDArray[np.uint8]) -> int: ...
def evaluate_batch(
    lookups: Lookups,
    hands: npt.NDArray[np.integer],
    ranks: npt.NDArray[np.uint8 | np.uint16],
    pair_plus: npt.NDArray[np.uint8],
) -> int: ...
def compare_batch(
    lookups: Lookups, a: npt.NDArray[np.integer], b: npt.NDArray[np.integer], out: npt.NDArray[np.int8]
) -> int: ...

# private: the batch evaluation kernels and the vector formula (tests, benchmarks, _kernels.vector_formula)
def _eval_kernels() -> tuple[str, ...]: ...
def _eval_kernel() -> str: ...
def _use_eval_kernel(name: str | None = None) -> str: ...
def _dot_kernels() -> tuple[str, ...]: ...
def _use_dot_kernel(name: str | None = None) -> str: ...
def _formula_mode(lookups: Lookups) -> int | None: ...
def _formula_run(
    formula: bytes, hands: npt.NDArray[np.uint8], ranks: npt.NDArray[np.uint8 | np.uint16], pp: npt.NDArray[np.uint8]
) -> int: ...

# --- settlement (csrc/settle.pxi) -------------------------------------------------------------

def settle_batch(
    plan: SettlementSource,
    classes: npt.NDArray[np.uint8],
    ranks: npt.NDArray[np.uint16],
    pps: npt.NDArray[np.uint8],
    out: npt.NDArray[np.uint8],
) -> int: ...

# --- the core's own bit generator (csrc/pcg64.pxi) --------------------------------------------

@disjoint_base
class PCG64:
    """numpy's PCG64, the core's own: numpy's states and words, drawn through numpy's ``bitgen_t``."""

    def __init__(self, state: dict[str, Any] | None = None) -> None: ...
    @property
    def state(self) -> dict[str, Any]: ...
    @state.setter
    def state(self, value: dict[str, Any]) -> None: ...
    @property
    def capsule(self) -> Any: ...
    @property
    def lock(self) -> Any: ...
    def random_raw(self) -> int: ...
    def next_uint32(self) -> int: ...
    def next_double(self) -> float: ...

# --- shuffling and dealing (csrc/deal.pxi) ----------------------------------------------------

def bounded(bit_generator: np.random.BitGenerator | PCG64, n: int) -> int: ...
def draw(
    bit_generator: np.random.BitGenerator | PCG64, deck: bytearray | npt.NDArray[np.uint8], start: int, count: int,
    out: bytearray | npt.NDArray[np.uint8],
) -> None: ...
def deal_fresh_batch(bit_generator: np.random.BitGenerator | PCG64, decks: int, out: npt.NDArray[np.uint8]) -> None: ...
def deal_chunk(
    bit_generator: np.random.BitGenerator | PCG64,
    params: npt.NDArray[np.int64],
    hands: npt.NDArray[np.uint8],
    burned: npt.NDArray[np.uint8],
    burn_counts: npt.NDArray[np.uint8],
    head_cards: npt.NDArray[np.uint8] | None,
    shoe: npt.NDArray[np.int64],
    round_in_shoe: npt.NDArray[np.uint16],
    last: npt.NDArray[np.uint8],
    cut_card: npt.NDArray[np.uint16],
) -> int: ...

# --- shuffle tests (csrc/shuffletest.pxi) -----------------------------------------------------

def shuffle_cards(
    bit_generator: np.random.BitGenerator | PCG64, params: npt.NDArray[np.int64], cards: npt.NDArray[np.uint8],
    cut_places: npt.NDArray[np.uint16],
) -> int: ...
def shuffle_tally(
    bit_generator: np.random.BitGenerator | PCG64,
    params: npt.NDArray[np.int64],
    shoes: int,
    bounds: npt.NDArray[np.int64],
    counts: npt.NDArray[np.int64],
    cut_counts: npt.NDArray[np.int64],
    sums: npt.NDArray[np.int64],
    squares: npt.NDArray[np.float64],
) -> None: ...
def shuffle_tally_cards(
    cards: npt.NDArray[np.uint8],
    bounds: npt.NDArray[np.int64],
    counts: npt.NDArray[np.int64],
    sums: npt.NDArray[np.int64],
    squares: npt.NDArray[np.float64],
) -> int: ...

# --- exact counting (csrc/count.pxi) ----------------------------------------------------------

def suit_split(suits: Any, a: int, b: int) -> tuple[int, int, int]: ...
def joint_class_counts(
    counts: npt.NDArray[np.int64],
    multisets: npt.NDArray[np.uint8],
    classes: npt.NDArray[np.uint8],
    ranks: npt.NDArray[np.uint16],
    n_classes: int,
    out: npt.NDArray[np.uint64] | npt.NDArray[np.object_],
    suits: npt.NDArray[np.int64] | None = None,
) -> None: ...
def hand_counts(
    counts: npt.NDArray[np.int64],
    multisets: npt.NDArray[np.uint8],
    values: npt.NDArray[np.uint8],
    out: npt.NDArray[np.uint64],
) -> None: ...
def brute_force_one_deck(
    hand_class: npt.NDArray[np.uint8], hand_rank: npt.NDArray[np.uint16], n_classes: int, out: npt.NDArray[np.uint64]
) -> None: ...

# --- simulation (csrc/simulate.pxi) -----------------------------------------------------------

def simulate_chunk(
    bit_generator: np.random.BitGenerator | PCG64,
    lookups: Lookups,
    params: npt.NDArray[np.int64],
    rounds: int,
    pairs: npt.NDArray[np.uint64],
    single: npt.NDArray[np.uint64],
    plan: SettlementSource | None,
    money: npt.NDArray[np.int64] | None,
    net: npt.NDArray[np.int64] | None,
    stop: npt.NDArray[np.uint8],
) -> int: ...

# --- the shoe evaluator and shoe play (csrc/shoe.pxi, csrc/play.pxi) --------------------------

@disjoint_base
class ShoeKernel:
    """The exact sums behind every bet's EV for an unseen composition (``sanggong.shoe``).
    Thread-safety: not to be shared without a lock (``numerators_batch`` changes it without the GIL)."""

    def __init__(self, terms: Any, counts: Any) -> None: ...
    @property
    def terms(self) -> Any: ...
    @property
    def n_cards(self) -> int: ...
    @property
    def counts(self) -> list[int]: ...
    def set_counts(self, counts: Any) -> None: ...
    def remove(self, code: int) -> None: ...
    def add(self, code: int) -> None: ...
    def numerators(self, with_pairs: bool = True) -> list[int]: ...
    def numerators_batch(
        self,
        cards: npt.NDArray[np.uint8],
        ends: npt.NDArray[np.int64],
        out: npt.NDArray[np.int64],
        with_pairs: bool = True,
    ) -> int: ...
    def numerators_shoes(
        self,
        cards: npt.NDArray[np.uint8],
        ends: npt.NDArray[np.int64],
        firsts: npt.NDArray[np.int64],
        out: npt.NDArray[np.int64],
        with_pairs: bool = True,
    ) -> int: ...

def play_chunk(
    bit_generator: np.random.BitGenerator | PCG64,
    lookups: Lookups,
    params: npt.NDArray[np.int64],
    shoes: int,
    plan: SettlementSource,
    columns: npt.NDArray[np.uint8],
    kernel: ShoeKernel | None,
    bet_row: npt.NDArray[np.int32],
    row_scale: npt.NDArray[np.float64],
    row_part: npt.NDArray[np.uint8],
    fixed_ev: npt.NDArray[np.float64],
    tags: npt.NDArray[np.int32],
    bet_tag: npt.NDArray[np.int32],
    bin_width: float,
    bin_zero: int,
    burned_seen: bool,
    count_hist: npt.NDArray[np.uint64],
    perfect_hist: npt.NDArray[np.uint64],
    ev_bins: npt.NDArray[np.float64],
    moments: npt.NDArray[np.float64],
    stop: npt.NDArray[np.uint8],
) -> tuple[int, int]: ...

# --- log lines (csrc/logline.pxi) -------------------------------------------------------------

@disjoint_base
class LineTemplate:
    """A round's line and canonical bytes as ``render_rounds`` writes them (checked once)."""

    def __init__(
        self,
        ops_line: Sequence[tuple[bytes, int]],
        ops_canonical: Sequence[tuple[bytes, int]],
        hands: int,
        consts: int,
        words: Sequence[bytes],
        cards: Sequence[bytes],
        hand_class: npt.NDArray[np.uint8] | bytes,
        hand_rank: npt.NDArray[np.uint16] | array.array[int],
        hand_pp: npt.NDArray[np.uint8] | bytes,
    ) -> None: ...
    @property
    def ops_line(self) -> tuple[tuple[bytes, int], ...]: ...
    @property
    def ops_canonical(self) -> tuple[tuple[bytes, int], ...]: ...
    @property
    def hands(self) -> int: ...
    @property
    def consts(self) -> int: ...

def render_rounds(
    template: LineTemplate,
    consts: tuple[bytes, ...],
    hands: npt.NDArray[np.uint8],
    burned: npt.NDArray[np.uint8],
    burn_counts: npt.NDArray[np.uint8],
    head_cards: npt.NDArray[np.uint8],
    round_in_shoe: npt.NDArray[np.uint16],
    last: npt.NDArray[np.uint8],
    cut_card: npt.NDArray[np.uint16],
    first_round: int,
    tails: list[bytes | None],
    classes: npt.NDArray[np.uint8],
    ranks: npt.NDArray[np.uint16],
    pps: npt.NDArray[np.uint8],
    out: list[bytes],
) -> int: ...
def check_line(
    line: bytes,
    rendered: bytes,
    canonical_owns: tuple[bytes, ...],
    line_owns: tuple[bytes, ...],
    mac: int,
    key: bytes | None,
) -> bytes | None: ...
def write_line(
    rendered: bytes,
    canonical_owns: tuple[bytes, ...],
    line_owns: tuple[bytes, ...],
    key: bytes | None,
) -> tuple[bytes, bytes, str]: ...
def tally_stakes(
    ev: npt.NDArray[np.float64],
    shoe_ends: npt.NDArray[np.int64],
    rows: npt.NDArray[np.int64],
    sets: npt.NDArray[np.int64],
    set_start: npt.NDArray[np.int64],
    stake_player: npt.NDArray[np.int64],
    stake_bet: npt.NDArray[np.int64],
    stake_amount: npt.NDArray[np.float64],
    stake_first: npt.NDArray[np.uint8],
    bet_fresh: npt.NDArray[np.float64],
    bet_column: npt.NDArray[np.int64],
    sums: npt.NDArray[np.float64],
    at_stake: npt.NDArray[np.float64],
) -> int: ...

# --- a vector of tables (csrc/vector.pxi) -----------------------------------------------------

@disjoint_base
class VectorKernel:
    """Shoes of one table, each dealt from its own bit generator, settled for every player."""

    def __init__(
        self,
        lookups: Lookups,
        params: npt.NDArray[np.int64],
        plan: SettlementSource,
        bit_generators: list[Any],
        players: int,
        num: npt.NDArray[np.int64],
        den: npt.NDArray[np.int64],
        carry: npt.NDArray[np.uint8],
        rounding: int,
        by_rank: bool,
    ) -> None: ...
    @property
    def n_tables(self) -> int: ...
    @property
    def players(self) -> int: ...
    @property
    def bets(self) -> int: ...
    @property
    def hands(self) -> int: ...
    @property
    def n_cards(self) -> int: ...
    def step(
        self,
        lo: int,
        hi: int,
        stakes: npt.NDArray[np.int64],
        carried: npt.NDArray[np.int64],
        reward: npt.NDArray[np.int64],
        cards: npt.NDArray[np.uint8],
        head: npt.NDArray[np.uint8],
        outcome: npt.NDArray[np.uint8],
        unseen: npt.NDArray[np.int16],
        shoe_state: npt.NDArray[np.int64],
    ) -> None: ...
    def reseed(self, bit_generators: list[Any]) -> None: ...
    def bind(
        self,
        carried: npt.NDArray[np.int64],
        reward: npt.NDArray[np.int64],
        cards: npt.NDArray[np.uint8],
        head: npt.NDArray[np.uint8],
        outcome: npt.NDArray[np.uint8],
        unseen: npt.NDArray[np.int16],
        shoe_state: npt.NDArray[np.int64],
        high: npt.NDArray[np.int64],
        requires: npt.NDArray[np.int64],
        money: npt.NDArray[np.int64] | None,
    ) -> None: ...
    def run(self, stakes: npt.NDArray[np.int64], workers: int) -> bool: ...
    def close(self) -> None: ...
    @property
    def threads(self) -> int: ...
    def legal(
        self,
        stakes: npt.NDArray[np.int64],
        carried: npt.NDArray[np.int64],
        high: npt.NDArray[np.int64],
        requires: npt.NDArray[np.int64],
        money: npt.NDArray[np.int64] | None,
    ) -> bool: ...
    def state(self) -> list[tuple[Any, ...]]: ...
