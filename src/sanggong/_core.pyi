from typing import Any, Final

import numpy as np
import numpy.typing as npt

IMPLEMENTATION: Final[str]

class Tables:
    """A ranking's lookup tables as the kernels read them (``RankingTables.kernel``)."""

    source: Any
    n_ranks: int
    n_classes: int
    n_rids: int
    ordered_by_class: bool
    wide: bool
    def __init__(self, source: Any) -> None: ...

def rank3(tables: Tables, c0: int, c1: int, c2: int) -> int: ...
def class3(tables: Tables, c0: int, c1: int, c2: int) -> int: ...
def pair_plus3(c0: int, c1: int, c2: int) -> int: ...
def rank_batch(tables: Tables, hands: npt.NDArray[np.integer], out: npt.NDArray[np.uint8 | np.uint16]) -> int: ...
def pair_plus_batch(tables: Tables, hands: npt.NDArray[np.integer], out: npt.NDArray[np.uint8]) -> int: ...
def evaluate_batch(
    tables: Tables,
    hands: npt.NDArray[np.integer],
    ranks: npt.NDArray[np.uint8 | np.uint16],
    pair_plus: npt.NDArray[np.uint8],
) -> int: ...
def compare_batch(
    tables: Tables, a: npt.NDArray[np.integer], b: npt.NDArray[np.integer], out: npt.NDArray[np.int8]
) -> int: ...
def deal_chunk(
    bit_generator: Any,
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

class ShoeKernel:
    """The exact sums behind every bet's EV for an unseen composition (``sanggong.shoe``)."""

    plan: Any
    n_cards: int
    counts: list[int]
    def __init__(self, plan: Any, counts: Any) -> None: ...
    def set_counts(self, counts: Any) -> None: ...
    def remove(self, code: int) -> None: ...
    def add(self, code: int) -> None: ...
    def numerators(self, with_pairs: bool = True) -> list[int]: ...

def play_chunk(
    bit_generator: Any,
    tables: Tables,
    params: npt.NDArray[np.int64],
    shoes: int,
    plan: Any,
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

# private: the batch evaluation kernels (tests and benchmarks)
def _eval_kernels() -> tuple[str, ...]: ...
def _use_eval_kernel(name: str | None = None) -> str: ...
def _plan_mode(tables: Tables) -> int | None: ...
