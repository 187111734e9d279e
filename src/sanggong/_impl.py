"""Pick the implementation of the kernels: the compiled core, or its pure-Python twin.

``SANGGONG_NO_EXTENSIONS`` set to a true value (``1``, ``true``, ``yes``, ``on``) forces
the pure-Python reference (``sanggong._pykernels``, the core's twin); unset, empty or a
false value (``0``, ``false``, ``no``, ``off``) leaves the choice to the import; any
other value is an error, not a guess: every function that needs the kernels raises
``ValueError`` naming it (``sanggong.IMPLEMENTATION`` is then ``"unconfigured"``, and the
command line exits with status 2).

When the compiled core is not there, the reference is used and ``sanggong.IMPLEMENTATION``
says so: silently for a source tree that was never built, with one ``RuntimeWarning`` when
the install tried to build the core and could not (``setup.py`` then leaves a note,
``_core_build_failed.txt``, naming the error). A core that is there but fails to import
(an undefined symbol, a wrong architecture, a NumPy it was not built for) warns once,
naming the error, and the reference is used: slower, never a crash.

Public modules call ``_impl.kernels.<name>`` at call time, never a copy taken at import,
so the test suite can run every public function against both implementations.

**What a kernel is** is ``Kernels``, a protocol of every kernel's signature (the arrays'
dtypes included). mypy checks the pure-Python twin (``_pykernels``) against it, and checks
the compiled core the same way, through its stubs (``_core.pyi``), once they declare every
kernel (the line to enable is below). The public modules see ``kernels`` as a
``Kernels``, so every kernel call they make is type-checked too.
"""

from __future__ import annotations

import importlib
import os
import warnings
from collections.abc import Iterable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias, TypeVar

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from ._settlement_plan import SettlementPlan
    from .ranking import RankingTables
    from .shoe import ShoePlan

__all__ = ["CONFIG_ERROR", "FALLBACK_COST", "Kernels", "ShoeSums", "extensions_disabled", "kernels"]

Hands: TypeAlias = "npt.NDArray[np.integer[Any]]"
"""An (n, 3) array of card codes, of any integer dtype (``sanggong.batch`` checks it)."""

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"", "0", "false", "no", "off"})


def extensions_disabled(environ: os._Environ[str] | dict[str, str] = os.environ) -> bool:
    """Read ``SANGGONG_NO_EXTENSIONS``; an unknown value is an error, not a guess."""
    value = environ.get("SANGGONG_NO_EXTENSIONS", "").strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ValueError(
        f"SANGGONG_NO_EXTENSIONS={value!r} is not understood (use 1 to force pure Python, 0 or unset for the compiled core)"
    )


CONFIG_ERROR: str | None = None
"""Why the kernels could not be chosen (an unknown ``SANGGONG_NO_EXTENSIONS`` value), or None."""


class _Unconfigured(ModuleType):
    """Stands in for the kernels when the switch holds an unknown value: importing
    sanggong still works (so the command line can say what is wrong in one line), and
    every function that needs the kernels raises ``ValueError`` naming the value."""

    IMPLEMENTATION = "unconfigured"

    def __getattr__(self, name: str) -> object:
        raise ValueError(str(CONFIG_ERROR))


def _load() -> ModuleType:
    global CONFIG_ERROR
    try:
        disabled = extensions_disabled()
    except ValueError as exc:
        CONFIG_ERROR = str(exc)
        return _Unconfigured("sanggong._unconfigured")
    if disabled:
        return _twin()
    name = f"{__package__}._core"
    try:  # (not `from . import _core`: its error for a missing module is no ModuleNotFoundError)
        core = importlib.import_module(name)
    except ImportError as exc:
        if isinstance(exc, ModuleNotFoundError) and exc.name == name:
            # Not there: a source tree never built (silent), or an install that could not build it.
            if (note := _build_failure_note()) is not None:
                _warn(f"the compiled core could not be built when sanggong was installed ({note})")
        else:  # there, but it does not load (an undefined symbol, a module it needs is missing, ...)
            _warn(f"the compiled core is present but failed to import ({type(exc).__name__}: {exc})")
        return _twin()
    return core


def _twin() -> ModuleType:
    """The pure-Python twin, imported only where it is the implementation chosen (or the
    fallback): loading it costs a command's start some 10 ms the compiled core never needs."""
    from . import _pykernels

    return _pykernels


BUILD_FAILED_NOTE = "_core_build_failed.txt"
"""Left beside the package's modules by ``setup.py`` when the build of the core failed."""


def _build_failure_note() -> str | None:
    """The error ``setup.py`` recorded when it could not build the core, or None."""
    from pathlib import Path  # (only where the core is missing)

    try:
        text = (Path(__file__).parent / BUILD_FAILED_NOTE).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    note = " ".join(text.split()) or "no detail recorded"
    return note if len(note) <= 240 else f"{note[:150]} ... {note[-80:]}"  # a compiler's command line is long


FALLBACK_COST = (
    "correct, but hundreds to thousands of times slower in batches and simulations"
    " (analyze about 25x; Game and settle, a round at a time, about as fast)"
)
"""What the pure-Python reference costs, for the warnings that it is in use (here and
``setup.py``'s banner, which reads this assignment from this file: keep it a literal).
Measured side by side, the reference against the core (interleaved runs, CPU time):
``evaluate_batch`` 6,000-8,200x, ``simulate`` 2,000-2,200x, ``deal_batch`` about 300x,
``analyze`` 25-28x, ``Game.play`` about 1.2x (the installation page has the details)."""


def _warn(what: str) -> None:
    warnings.warn(
        f"sanggong: {what}; using the pure-Python reference: {FALLBACK_COST}"
        " (set SANGGONG_NO_EXTENSIONS=1 to choose it and silence this warning)",
        RuntimeWarning,
        stacklevel=3,
    )


# --- what a kernel is ---------------------------------------------------------------------

TablesT = TypeVar("TablesT")
SumsT = TypeVar("SumsT", bound="ShoeSums")
CardBuffer: TypeAlias = "bytearray | npt.NDArray[np.uint8]"
"""Cards the dealing kernels read and write in place (``_spec.Shoe`` keeps a ``bytearray``)."""


class ShoeSums(Protocol):
    """What the public modules read of a shoe kernel (``ShoeKernel``): the exact sums behind
    every bet's EV for an unseen composition, which follows the cards removed and added."""

    @property
    def n_cards(self) -> int: ...
    @property
    def counts(self) -> list[int]: ...
    def set_counts(self, counts: Iterable[int]) -> None: ...
    def remove(self, code: int) -> None: ...
    def add(self, code: int) -> None: ...
    def numerators(self, with_pairs: bool = True) -> list[int]: ...
    def numerators_batch(self, cards: npt.NDArray[np.uint8], ends: npt.NDArray[np.int64], out: npt.NDArray[np.int64],
                         with_pairs: bool = True) -> int: ...
    def numerators_shoes(self, cards: npt.NDArray[np.uint8], ends: npt.NDArray[np.int64],
                         firsts: npt.NDArray[np.int64], out: npt.NDArray[np.int64], with_pairs: bool = True) -> int: ...


class Kernels(Protocol[TablesT, SumsT]):
    """The kernels: what the compiled core (``_core``, typed by ``_core.pyi``) and its
    pure-Python twin (``_pykernels``) both provide, with the same signatures and results.
    ``TablesT`` is an implementation's own ``Tables`` (a ranking's tables as its kernels
    read them) and ``SumsT`` its ``ShoeKernel``: a kernel takes only what its own
    implementation made. mypy checks both modules against this protocol (below); the
    public modules call ``kernels``, typed ``Kernels[Any, ShoeSums]``.

    Arrays are checked by the public modules before a kernel sees them (shape, dtype,
    contiguity, alignment: the one validation boundary); a kernel checks only what it
    must to stay memory-safe, and says so by raising ``ValueError``.
    """

    @property
    def IMPLEMENTATION(self) -> str: ...  # noqa: N802 (a module's constant)

    # hands
    def Tables(self, source: RankingTables) -> TablesT: ...  # noqa: N802 (a module's class)
    def rank3(self, tables: TablesT, c0: int, c1: int, c2: int) -> int: ...
    def class3(self, tables: TablesT, c0: int, c1: int, c2: int) -> int: ...
    def pair_plus3(self, c0: int, c1: int, c2: int) -> int: ...
    def rank_batch(self, tables: TablesT, hands: Hands, out: npt.NDArray[np.uint8 | np.uint16]) -> int: ...
    def pair_plus_batch(self, tables: TablesT, hands: Hands, out: npt.NDArray[np.uint8]) -> int: ...
    def evaluate_batch(self, tables: TablesT, hands: Hands, ranks: npt.NDArray[np.uint8 | np.uint16],
                       pair_plus: npt.NDArray[np.uint8]) -> int: ...
    def compare_batch(self, tables: TablesT, a: Hands, b: Hands, out: npt.NDArray[np.int8]) -> int: ...

    # settlement
    def settle_batch(self, plan: SettlementPlan, classes: npt.NDArray[np.uint8], ranks: npt.NDArray[np.uint16],
                     pps: npt.NDArray[np.uint8], out: npt.NDArray[np.uint8]) -> int: ...

    # dealing
    def bounded(self, bit_generator: Any, n: int) -> int: ...
    def draw(self, bit_generator: Any, deck: CardBuffer, start: int, count: int, out: CardBuffer) -> None: ...
    def deal_fresh_batch(self, bit_generator: Any, decks: int, out: npt.NDArray[np.uint8]) -> None: ...
    def deal_chunk(
        self, bit_generator: Any, params: npt.NDArray[np.int64], hands: npt.NDArray[np.uint8],
        burned: npt.NDArray[np.uint8], burn_counts: npt.NDArray[np.uint8], head_cards: npt.NDArray[np.uint8] | None,
        shoe: npt.NDArray[np.int64], round_in_shoe: npt.NDArray[np.uint16], last: npt.NDArray[np.uint8],
        cut_card: npt.NDArray[np.uint16],
    ) -> int: ...

    # shuffle tests
    def shuffle_cards(self, bit_generator: Any, params: npt.NDArray[np.int64], cards: npt.NDArray[np.uint8],
                      cut_places: npt.NDArray[np.uint16]) -> int: ...
    def shuffle_tally(
        self, bit_generator: Any, params: npt.NDArray[np.int64], shoes: int, bounds: npt.NDArray[np.int64],
        counts: npt.NDArray[np.int64], cut_counts: npt.NDArray[np.int64], sums: npt.NDArray[np.int64],
        squares: npt.NDArray[np.float64],
    ) -> None: ...
    def shuffle_tally_cards(self, cards: npt.NDArray[np.uint8], bounds: npt.NDArray[np.int64],
                            counts: npt.NDArray[np.int64], sums: npt.NDArray[np.int64],
                            squares: npt.NDArray[np.float64]) -> int: ...

    # exact counting
    def suit_split(self, suits: Sequence[int], a: int, b: int) -> tuple[int, int, int]: ...
    def joint_class_counts(
        self, counts: npt.NDArray[np.int64], multisets: npt.NDArray[np.uint8], classes: npt.NDArray[np.uint8],
        ranks: npt.NDArray[np.uint16], n_classes: int, out: npt.NDArray[np.uint64] | npt.NDArray[np.object_],
        suits: npt.NDArray[np.int64] | None = None,
    ) -> None: ...
    def hand_counts(self, counts: npt.NDArray[np.int64], multisets: npt.NDArray[np.uint8],
                    values: npt.NDArray[np.uint8], out: npt.NDArray[np.uint64]) -> None: ...

    # the round loops
    def simulate_chunk(
        self, bit_generator: Any, tables: TablesT, params: npt.NDArray[np.int64], rounds: int,
        pairs: npt.NDArray[np.uint64], single: npt.NDArray[np.uint64], plan: SettlementPlan | None,
        money: npt.NDArray[np.int64] | None, net: npt.NDArray[np.int64] | None, stop: npt.NDArray[np.uint8],
    ) -> int: ...

    # a shoe as it is dealt
    def ShoeKernel(self, plan: ShoePlan, counts: Iterable[int]) -> SumsT: ...  # noqa: N802 (a module's class)
    def play_chunk(
        self, bit_generator: Any, tables: TablesT, params: npt.NDArray[np.int64], shoes: int, plan: SettlementPlan,
        columns: npt.NDArray[np.uint8], kernel: SumsT | None, bet_row: npt.NDArray[np.int32],
        row_scale: npt.NDArray[np.float64], row_part: npt.NDArray[np.uint8], fixed_ev: npt.NDArray[np.float64],
        tags: npt.NDArray[np.int32], bet_tag: npt.NDArray[np.int32], bin_width: float, bin_zero: int,
        burned_seen: bool, count_hist: npt.NDArray[np.uint64], perfect_hist: npt.NDArray[np.uint64],
        ev_bins: npt.NDArray[np.float64], moments: npt.NDArray[np.float64], stop: npt.NDArray[np.uint8],
    ) -> tuple[int, int]: ...

    # a vector of tables (sanggong.vector)
    def VectorKernel(  # noqa: N802 (a module's class)
        self, tables: TablesT, params: npt.NDArray[np.int64], plan: SettlementPlan, bit_generators: list[Any],
        players: int, num: npt.NDArray[np.int64], den: npt.NDArray[np.int64], carry: npt.NDArray[np.uint8],
        rounding: int, by_rank: bool,
    ) -> Any: ...

    # log lines (verify's fast pass: sanggong._fastlog; the slots and the packing are sanggong._logline's)
    def LineTemplate(  # noqa: N802 (a module's class)
        self, ops_line: Sequence[tuple[bytes, int]], ops_canonical: Sequence[tuple[bytes, int]], hands: int,
        consts: int, words: Sequence[bytes], cards: Sequence[bytes], hand_class: npt.NDArray[np.uint8],
        hand_rank: npt.NDArray[np.uint16], hand_pp: npt.NDArray[np.uint8],
    ) -> Any: ...
    def render_rounds(
        self, template: Any, consts: tuple[bytes, ...], hands: npt.NDArray[np.uint8], burned: npt.NDArray[np.uint8],
        burn_counts: npt.NDArray[np.uint8], head_cards: npt.NDArray[np.uint8], round_in_shoe: npt.NDArray[np.uint16],
        last: npt.NDArray[np.uint8], cut_card: npt.NDArray[np.uint16], first_round: int,
        tails: list[bytes | None], classes: npt.NDArray[np.uint8], ranks: npt.NDArray[np.uint16],
        pps: npt.NDArray[np.uint8], out: list[bytes],
    ) -> int: ...
    def check_line(
        self, line: bytes, rendered: bytes, canonical_owns: tuple[bytes, ...], line_owns: tuple[bytes, ...], mac: int,
        key: bytes | None,
    ) -> bytes | None: ...
    def write_line(
        self, rendered: bytes, canonical_owns: tuple[bytes, ...], line_owns: tuple[bytes, ...], key: bytes | None,
    ) -> tuple[bytes, bytes, str]: ...

    # detection (sanggong.detection)
    def tally_stakes(
        self, ev: npt.NDArray[np.float64], shoe_ends: npt.NDArray[np.int64], rows: npt.NDArray[np.int64],
        sets: npt.NDArray[np.int64], set_start: npt.NDArray[np.int64], stake_player: npt.NDArray[np.int64],
        stake_bet: npt.NDArray[np.int64], stake_amount: npt.NDArray[np.float64], stake_first: npt.NDArray[np.uint8],
        bet_fresh: npt.NDArray[np.float64], bet_column: npt.NDArray[np.int64], sums: npt.NDArray[np.float64],
        at_stake: npt.NDArray[np.float64],
    ) -> int: ...


if TYPE_CHECKING:
    from . import _pykernels

    # Both implementations are checked against the protocol: the twin here; the compiled
    # core the same way once its stubs (_core.pyi) declare every kernel:
    #     _compiled: Kernels[_core.Tables, _core.ShoeKernel] = _core
    _python: Kernels[_pykernels.Tables, _pykernels.ShoeKernel] = _pykernels
    kernels: Kernels[Any, ShoeSums]
else:
    kernels: ModuleType = _load()
