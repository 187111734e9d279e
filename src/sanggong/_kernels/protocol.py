"""What a kernel is: ``Kernels``, a protocol of every kernel's signature (the arrays' dtypes
included), and the protocols of what the kernels read of the objects the public modules
hand them (``RankingSource``: a ranking's tables; ``SettlementSource``: a settlement plan;
``ShoeSums``: what the public modules read back of a shoe kernel).

The compiled core (``_core``, typed by ``_core.pyi``) and its pure-Python twin (``twin``)
are both checked against ``Kernels`` by mypy (``conformance``). A new kernel is a pair of
like-named entries: its signature here and in the core's stub (and its body in the
``.pxi`` and the twin's module of that family).

Nothing here imports the modules above the kernels: the objects the kernels read are
described by what they read, so ``sanggong.ranking`` and ``sanggong.settlement`` satisfy
these protocols without the kernels knowing them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias, TypeVar

if TYPE_CHECKING:
    import array

    import numpy as np
    import numpy.typing as npt

    from .._spec import ClassKey, RankingFields, RuleFields
    from .inputs import ShoeTerms

__all__ = ["BetSource", "CardBuffer", "Hands", "Kernels", "OwnBitGenerator", "RankingSource", "SettlementSource",
           "ShoeSums"]

Hands: TypeAlias = "npt.NDArray[np.integer[Any]]"
"""An (n, 3) array of card codes, of any integer dtype (``sanggong.batch`` checks it)."""


# --- what the kernels read ----------------------------------------------------------------


class RankingSource(Protocol):
    """What the kernels read of a ranking's tables (``sanggong.ranking.RankingTables``,
    which says what each holds): the compiled core its lookup tables, the twin its keys;
    ``kernel_lookups`` keeps each implementation's ``Lookups`` of them (the selector's
    ``tables``)."""

    @property
    def ranking(self) -> RankingFields: ...
    @property
    def state(self) -> npt.NDArray[np.uint16]: ...
    @property
    def state16(self) -> npt.NDArray[np.uint16]: ...
    @property
    def value(self) -> npt.NDArray[np.uint16]: ...
    @property
    def rank(self) -> npt.NDArray[np.uint16]: ...
    @property
    def cls(self) -> npt.NDArray[np.uint8]: ...
    @property
    def n_ranks(self) -> int: ...
    @property
    def n_classes(self) -> int: ...
    @property
    def ordered_by_class(self) -> bool: ...
    @property
    def rank_keys(self) -> tuple[ClassKey, ...]: ...
    @property
    def rank_values(self) -> tuple[int, ...]: ...
    @property
    def class_keys(self) -> tuple[ClassKey, ...]: ...
    @property
    def kernel_lookups(self) -> dict[str, Any]: ...


class BetSource(Protocol):
    """What the twin reads of a bet of a settlement plan (``sanggong.rules.BetSpec``)."""

    @property
    def kind(self) -> str: ...
    @property
    def number(self) -> int: ...
    @property
    def position(self) -> int: ...


class SettlementSource(Protocol):
    """What the kernels read of a settlement plan (``sanggong.settlement.SettlementPlan``):
    each bet's outcome is ``outcome_codes[row[j] * key_space + ka[j] * class + kb[j] * pair_plus +
    kc[j] * banker_class + kd[j] * (order + 1)]`` for its hand ``hand[j]`` (the compiled
    core); the twin settles each bet of ``specs`` under ``rules`` by the specification."""

    @property
    def outcome_codes(self) -> array.array[int]: ...  # (uint8; the others int32: any buffer of them serves the core)
    @property
    def row(self) -> array.array[int]: ...
    @property
    def hand(self) -> array.array[int]: ...
    @property
    def ka(self) -> array.array[int]: ...
    @property
    def kb(self) -> array.array[int]: ...
    @property
    def kc(self) -> array.array[int]: ...
    @property
    def kd(self) -> array.array[int]: ...
    @property
    def key_space(self) -> int: ...
    @property
    def n_classes(self) -> int: ...
    @property
    def class_keys(self) -> tuple[ClassKey, ...]: ...
    @property
    def rules(self) -> RuleFields: ...
    @property
    def specs(self) -> Sequence[BetSource]: ...


# --- what a kernel is ---------------------------------------------------------------------

class OwnBitGenerator(Protocol):
    """The kernels' own bit generator (``Kernels.PCG64``): numpy's PCG64, whose ``state``
    is numpy's ``PCG64.state`` and whose words are numpy's, drawn under its ``lock`` by the
    kernels (as from numpy's) or one at a time here."""

    @property
    def state(self) -> dict[str, Any]: ...
    @state.setter
    def state(self, value: dict[str, Any]) -> None: ...
    @property
    def lock(self) -> Any: ...
    def random_raw(self) -> int: ...
    def next_uint32(self) -> int: ...
    def next_double(self) -> float: ...


LookupsT = TypeVar("LookupsT")
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


class Kernels(Protocol[LookupsT, SumsT]):
    """The kernels: what the compiled core (``_core``, typed by ``_core.pyi``) and its
    pure-Python twin (``twin``) both provide, with the same signatures and results.
    ``LookupsT`` is an implementation's own ``Lookups`` (a ranking's tables as its kernels
    read them) and ``SumsT`` its ``ShoeKernel``: a kernel takes only what its own
    implementation made. mypy checks both modules against this protocol (``conformance``); the
    public modules call ``kernels``, typed ``Kernels[Any, ShoeSums]``.

    Arrays are checked by the public modules before a kernel sees them (shape, dtype,
    contiguity, alignment: the one validation boundary); a kernel checks only what it
    must to stay memory-safe, and says so by raising ``ValueError``.
    """

    @property
    def IMPLEMENTATION(self) -> str: ...  # noqa: N802 (a module's constant)

    # hands
    def Lookups(self, source: RankingSource) -> LookupsT: ...  # noqa: N802 (a module's class)
    def rank3(self, lookups: LookupsT, c0: int, c1: int, c2: int) -> int: ...
    def class3(self, lookups: LookupsT, c0: int, c1: int, c2: int) -> int: ...
    def pair_plus3(self, c0: int, c1: int, c2: int) -> int: ...
    def rank_batch(self, lookups: LookupsT, hands: Hands, out: npt.NDArray[np.uint8 | np.uint16]) -> int: ...
    def pair_plus_batch(self, lookups: LookupsT, hands: Hands, out: npt.NDArray[np.uint8]) -> int: ...
    def evaluate_batch(self, lookups: LookupsT, hands: Hands, ranks: npt.NDArray[np.uint8 | np.uint16],
                       pair_plus: npt.NDArray[np.uint8]) -> int: ...
    def compare_batch(self, lookups: LookupsT, a: Hands, b: Hands, out: npt.NDArray[np.int8]) -> int: ...

    # settlement
    def settle_batch(self, plan: SettlementSource, classes: npt.NDArray[np.uint8], ranks: npt.NDArray[np.uint16],
                     pps: npt.NDArray[np.uint8], out: npt.NDArray[np.uint8]) -> int: ...

    # dealing
    def PCG64(self, state: dict[str, Any] | None = None) -> OwnBitGenerator: ...  # noqa: N802 (a module's class)
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
        self, bit_generator: Any, lookups: LookupsT, params: npt.NDArray[np.int64], rounds: int,
        pairs: npt.NDArray[np.uint64], single: npt.NDArray[np.uint64], plan: SettlementSource | None,
        money: npt.NDArray[np.int64] | None, net: npt.NDArray[np.int64] | None, stop: npt.NDArray[np.uint8],
    ) -> int: ...

    # a shoe as it is dealt
    def ShoeKernel(self, terms: ShoeTerms, counts: Iterable[int]) -> SumsT: ...  # noqa: N802 (a module's class)
    def play_chunk(
        self, bit_generator: Any, lookups: LookupsT, params: npt.NDArray[np.int64], shoes: int, plan: SettlementSource,
        columns: npt.NDArray[np.uint8], kernel: SumsT | None, bet_row: npt.NDArray[np.int32],
        row_scale: npt.NDArray[np.float64], row_part: npt.NDArray[np.uint8], fixed_ev: npt.NDArray[np.float64],
        tags: npt.NDArray[np.int32], bet_tag: npt.NDArray[np.int32], bin_width: float, bin_zero: int,
        burned_seen: bool, count_hist: npt.NDArray[np.uint64], perfect_hist: npt.NDArray[np.uint64],
        ev_bins: npt.NDArray[np.float64], moments: npt.NDArray[np.float64], stop: npt.NDArray[np.uint8],
    ) -> tuple[int, int]: ...

    # a vector of tables (sanggong.vector)
    def VectorKernel(  # noqa: N802 (a module's class)
        self, lookups: LookupsT, params: npt.NDArray[np.int64], plan: SettlementSource, bit_generators: list[Any],
        players: int, num: npt.NDArray[np.int64], den: npt.NDArray[np.int64], carry: npt.NDArray[np.uint8],
        rounding: int, by_rank: bool,
    ) -> Any: ...

    # log lines (verify's fast pass: sanggong.verify._fastlog; the slots and the packing are sanggong._logline's)
    def LineTemplate(  # noqa: N802 (a module's class)
        self, ops_line: Sequence[tuple[bytes, int]], ops_canonical: Sequence[tuple[bytes, int]], hands: int,
        consts: int, words: Sequence[bytes], cards: Sequence[bytes], hand_class: npt.NDArray[np.uint8] | bytes,
        hand_rank: npt.NDArray[np.uint16] | array.array[int], hand_pp: npt.NDArray[np.uint8] | bytes,
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


