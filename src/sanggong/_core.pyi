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

# private: the batch evaluation kernels (tests and benchmarks)
def _eval_kernels() -> tuple[str, ...]: ...
def _use_eval_kernel(name: str | None = None) -> str: ...
def _plan_mode(tables: Tables) -> int | None: ...
