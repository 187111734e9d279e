"""Evaluate and compare many hands at once, held as NumPy arrays of card codes.

A batch of hands is an ``(n, 3)`` integer array of card codes (see ``sanggong.cards``).
Any integer dtype is read in place, whatever its strides (``uint8`` is the compact
choice, and what ``parse_hands`` returns); other dtypes are refused rather than cast.
Every code is checked: a code outside ``0..51`` raises ``ValueError`` naming its row.
The compiled kernels run without the GIL, so ``workers=k`` splits a large batch over
``k`` threads (``workers=None`` uses every core; ``threads=`` is a deprecated name for it),
where that is faster: not a batch the vector kernel reads (C-contiguous ``uint8`` or ``int8``
codes on a CPU with AVX2 or AVX-512), which one thread runs at the memory's speed, and other
batches only in parts of at least ``MIN_ROWS_PER_THREAD`` hands.

>>> hands = parse_hands(["Kh Qs 9d", "9c 9h 9s", "Jc Qd Kh"])
>>> rank_batch(hands)
array([29, 21, 30], dtype=uint8)
>>> [CLASS_LABELS[r] for r in rank_batch(hands)]
['2P9', '7', '3P']
>>> compare_batch(hands, "9c 9h 9s")
array([1, 0, 1], dtype=int8)

Every function takes ``rules=`` (a rule set, a preset name or a ``Ranking``; default: the
default ranking) and ranks by its ranking. Ranks are ``uint8`` where they are all below 256
(``tables_for(ranking).n_ranks <= 256``) and ``uint16`` where suits break ties:

>>> compare_batch(hands, "9c 9h 9s", rules="chinese")
array([-1,  0, -1], dtype=int8)
>>> rank_batch(hands, rules="chinese").dtype
dtype('uint16')
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, NamedTuple, TypeAlias, TypedDict, Unpack

import numpy as np
import numpy.typing as npt

from . import _kernels
from ._checks import memory
from ._parallel import workers as check_workers
from .cards import CardsLike
from .hands import CLASS_LABELS, HandValue, RulesLike, hand_cards, ranking_of
from .ranking import tables_for

__all__ = [
    "CLASS_LABELS",
    "BatchValues",
    "compare_batch",
    "evaluate_batch",
    "pair_plus_batch",
    "parse_hands",
    "rank_batch",
]

MIN_ROWS_PER_THREAD = 1 << 20
"""A batch the table kernel evaluates (any dtype or layout but C-contiguous byte codes, or
any batch on a CPU without a vector kernel) is split over threads only in parts of at
least this many hands: starting a thread costs about as much as 50,000 hands."""

MIN_ROWS_PER_THREAD_VECTOR: int | None = None
"""The same for a batch the core's vector kernel evaluates (C-contiguous ``uint8`` or
``int8`` codes on an x86-64 CPU with AVX2 or AVX-512): None, never split. One thread runs
it at the memory's speed, and two measured slower at every size from 2**14 to 2**24 hands
(docs/performance.md): ``workers`` then changes nothing."""

_KERNEL_DTYPES = frozenset(
    np.dtype(t)
    for t in (np.uint8, np.int8, np.uint16, np.int16, np.uint32, np.int32, np.uint64, np.int64)
)

_PARSE_BLOCK = 1 << 16
"""Hands ``parse_hands`` gathers as Python lists before it packs them into bytes."""

Hands: TypeAlias = npt.NDArray[np.integer[Any]]
HandsLike: TypeAlias = npt.ArrayLike


class BatchValues(NamedTuple):
    """Ranks (under the default ranking the class numbers 0..30) and Pair Plus
    categories (0..5) of a batch."""

    rank: npt.NDArray[np.integer[Any]]
    pair_plus: npt.NDArray[np.uint8]


def parse_hands(hands: Iterable[CardsLike | HandValue]) -> npt.NDArray[np.uint8]:
    """Parse hands (strings such as ``"Kh Qs 9d"``, or three card-likes each) into an
    ``(n, 3)`` ``uint8`` array of card codes.

    >>> parse_hands(["Ac 2c 3c", [51, 50, "Qs"]])
    array([[ 0,  4,  8],
           [51, 50, 47]], dtype=uint8)
    """
    if isinstance(hands, str):
        raise TypeError(f"parse_hands takes an iterable of hands, not one string: use [{hands!r}]")
    if isinstance(hands, bytes | bytearray | memoryview):  # never read as card codes
        raise TypeError(f"parse_hands takes an iterable of hands, not {type(hands).__name__}: write hands as text")
    if not isinstance(hands, Iterable):
        raise TypeError(f"parse_hands takes an iterable of hands, not {type(hands).__name__}")
    blocks, rows = [], []  # parsed into blocks of bytes as it goes: 3 bytes a hand, not a Python list's 90
    for h in hands:
        rows.append([c.code for c in hand_cards(h.cards if isinstance(h, HandValue) else h)])
        if len(rows) == _PARSE_BLOCK:
            blocks.append(np.array(rows, dtype=np.uint8))
            rows = []
    blocks.append(np.array(rows, dtype=np.uint8).reshape(len(rows), 3))
    if len(blocks) == 1:
        return blocks[0]
    memory(f"parse_hands of {sum(len(b) for b in blocks):,} hands", sum(b.nbytes for b in blocks))  # joined
    return np.concatenate(blocks)


def as_hands(hands: HandsLike, name: str = "hands") -> Hands:
    """Check that ``hands`` is an ``(n, 3)`` integer array (copy-free where it already is).

    Codes are not checked here: the kernels check every one as they read it.

    >>> as_hands([[1.0, 2.0, 3.0]])
    Traceback (most recent call last):
    ...
    TypeError: hands must be an integer array of card codes, not dtype float64
    """
    if isinstance(hands, str):
        raise TypeError(f"{name} is a string ({hands!r}): use parse_hands() for card strings")
    arr = np.asarray(hands)
    if arr.dtype.kind not in "iu":
        hint = ": use parse_hands() for card strings" if arr.dtype.kind in "USO" else ""
        raise TypeError(f"{name} must be an integer array of card codes, not dtype {arr.dtype}{hint}")
    if arr.ndim != 2 or arr.shape[1] != 3:
        raise ValueError(f"{name} must have shape (n, 3), got shape {arr.shape}")
    if arr.dtype not in _KERNEL_DTYPES:  # e.g. non-native byte order
        memory(f"{name} copied in native byte order", arr.size * arr.dtype.itemsize)
        arr = arr.astype(arr.dtype.newbyteorder("="))
    if not arr.flags.aligned:  # e.g. a view into bytes at an odd offset: the kernels read aligned items
        memory(f"{name} copied aligned", arr.size * arr.dtype.itemsize)
        arr = np.require(arr, requirements="A")
    return arr


class Deprecated(TypedDict, total=False):
    """The batch functions' deprecated keyword arguments."""

    threads: int | None
    """The old name of ``workers`` (a ``DeprecationWarning``)."""


def _workers(function: str, workers: int | None, deprecated: Deprecated) -> int | None:
    """``workers``, or the deprecated ``threads`` where it is given instead (with a
    ``DeprecationWarning``); any other keyword is refused as Python refuses it."""
    unknown = [name for name in deprecated if name != "threads"]
    if unknown:
        raise TypeError(f"{function}() got an unexpected keyword argument {unknown[0]!r}")
    if "threads" not in deprecated:
        return workers
    warnings.warn(f"{function}(threads=...) is deprecated: use workers= (the same count of threads)",
                  DeprecationWarning, stacklevel=3)
    if workers != 1:
        raise TypeError(f"{function}(): give workers= or threads= (deprecated), not both")
    return deprecated["threads"]


def _output(
    out: npt.NDArray[Any] | None,
    n: int,
    dtype: type,
    inputs: Sequence[npt.NDArray[Any]],
    name: str = "out",
) -> npt.NDArray[Any]:
    """A fresh output array (its bytes weighed against the memory available first: the
    inputs may be views that take none, ``np.broadcast_to`` of one hand), or the
    caller's, checked: 1-d, contiguous, writable, n long, and clear of the inputs (the
    kernels read and write without the GIL, in parts)."""
    if out is None:
        memory(f"{name} of {n:,} hands", n * np.dtype(dtype).itemsize)
        return np.empty(n, dtype=dtype)
    if not isinstance(out, np.ndarray):
        raise TypeError(f"{name} must be a NumPy array, not {type(out).__name__}")
    if out.dtype != np.dtype(dtype):
        raise TypeError(f"{name} must have dtype {np.dtype(dtype)}, not {out.dtype}")
    if out.shape != (n,):
        raise ValueError(f"{name} must have shape ({n},), got shape {out.shape}")
    if not (out.flags.c_contiguous and out.flags.writeable):
        raise ValueError(f"{name} must be a contiguous, writable array")
    if any(np.may_share_memory(out, x) for x in inputs):
        raise ValueError(f"{name} overlaps the input hands")
    return out


def _bad_code_error(name: str, arr: Hands, row: int) -> ValueError:
    values = arr[row].tolist()
    bad = next(v for v in values if not 0 <= v < 52)
    return ValueError(f"{name}[{row}] = {values} holds {bad}, which is not a card code (0..51)")


def _vector_kernel_reads(inputs: Sequence[Hands]) -> bool:
    """Whether the core's vector kernel evaluates these codes (every input C-contiguous
    bytes, and a vector kernel in use): the rule of ``_eval_batch`` in csrc/eval.pxi."""
    chosen = getattr(_kernels.kernels, "_eval_kernel", None)  # (the compiled core only)
    return chosen is not None and chosen() != "scalar" and all(
        x.dtype.itemsize == 1 and x.flags.c_contiguous for x in inputs)


def _parts(n: int, workers: int | None, inputs: Sequence[Hands]) -> int:
    """How many threads share a batch of n hands: ``workers``, fewer where a part would be
    smaller than the kernel's minimum (MIN_ROWS_PER_THREAD, MIN_ROWS_PER_THREAD_VECTOR)."""
    count = check_workers(workers)
    least = MIN_ROWS_PER_THREAD_VECTOR if _vector_kernel_reads(inputs) else MIN_ROWS_PER_THREAD
    return 1 if least is None else min(count, max(1, n // least))


def _run(
    kernel: Callable[..., int],
    inputs: Sequence[Hands],
    outputs: Sequence[npt.NDArray[Any]],
    workers: int | None,
) -> int:
    """Run a batch kernel, in parts over threads when the batch is large (the first part
    in the calling thread, the others in new ones).

    Returns the first bad row over all parts, or -1.
    """
    n = len(outputs[0])
    parts = _parts(n, workers, inputs)
    if parts == 1:
        return kernel(*inputs, *outputs)
    bounds = [n * k // parts for k in range(parts + 1)]

    def part(k: int) -> int:
        lo, hi = bounds[k], bounds[k + 1]
        bad = kernel(*(x[lo:hi] for x in inputs), *(o[lo:hi] for o in outputs))
        return bad if bad < 0 else lo + bad

    with ThreadPoolExecutor(max_workers=parts - 1, thread_name_prefix="sanggong") as pool:
        others = pool.map(part, range(1, parts))
        bads = [part(0), *others]
    return min((b for b in bads if b >= 0), default=-1)


def _kernel(name: str, rules: RulesLike) -> tuple[Callable[..., int], Any]:
    """The active kernel ``name`` bound to the tables of ``rules``'s ranking, and the
    ranks' dtype."""
    tables = tables_for(ranking_of(rules))
    return functools.partial(getattr(_kernels.kernels, name), _kernels.lookups(tables)), tables.rank_dtype


def _one_output(
    kernel: str, hands: HandsLike, out: npt.NDArray[Any] | None, workers: int | None, rules: RulesLike,
) -> npt.NDArray[Any]:
    run, rank_dtype = _kernel(kernel, rules)
    arr = as_hands(hands)
    result = _output(out, len(arr), rank_dtype if kernel == "rank_batch" else np.uint8, [arr])
    bad = _run(run, [arr], [result], workers)
    if bad >= 0:
        raise _bad_code_error("hands", arr, bad)
    return result


def rank_batch(
    hands: HandsLike,
    *,
    rules: RulesLike = None,
    out: npt.NDArray[Any] | None = None,
    workers: int | None = 1,
    **deprecated: Unpack[Deprecated],
) -> npt.NDArray[Any]:
    """Rank (higher is stronger, equal ties) of each hand: under the default ranking the
    class number 0..30.

    :param hands: an ``(n, 3)`` integer array of card codes.
    :param rules: whose ranking: a rule set, a preset name, a ``Ranking`` or None.
    :param out: an array of length ``n`` to write into (reusing one saves the allocation
        and page faults of a fresh array on every call): ``uint8``, or ``uint16`` for a
        ranking with ranks of 256 and up (``sanggong.ranking.tables_for(r).rank_dtype``).
    :param workers: split large batches over this many threads (None: every core).
        ``threads=`` is its deprecated name.
    :raises TypeError: not an integer array.
    :raises ValueError: wrong shape, or a code outside 0..51 (the message names the row).

    >>> rank_batch([[0, 4, 8], [40, 44, 48]])
    array([18, 30], dtype=uint8)
    >>> rank_batch([[0, 4, 8], [40, 44, 52]])
    Traceback (most recent call last):
    ...
    ValueError: hands[1] = [40, 44, 52] holds 52, which is not a card code (0..51)
    """
    return _one_output("rank_batch", hands, out, _workers("rank_batch", workers, deprecated), rules)


def pair_plus_batch(
    hands: HandsLike,
    *,
    rules: RulesLike = None,
    out: npt.NDArray[np.uint8] | None = None,
    workers: int | None = 1,
    **deprecated: Unpack[Deprecated],
) -> npt.NDArray[np.uint8]:
    """Pair Plus category (0 none, 1 pair, 2 flush, 3 straight, 4 three of a kind,
    5 straight flush) of each hand, the same under every ranking; see ``rank_batch``
    for the arguments.

    >>> pair_plus_batch(parse_hands(["Qh Kh Ah", "Tc Td Js"]))
    array([5, 1], dtype=uint8)
    """
    return _one_output("pair_plus_batch", hands, out, _workers("pair_plus_batch", workers, deprecated), rules)


def evaluate_batch(
    hands: HandsLike,
    *,
    rules: RulesLike = None,
    out: tuple[npt.NDArray[Any], npt.NDArray[np.uint8]] | None = None,
    workers: int | None = 1,
    **deprecated: Unpack[Deprecated],
) -> BatchValues:
    """Both the rank and the Pair Plus category of each hand, in one pass.

    ``out`` is an optional pair of arrays (ranks, as for ``rank_batch``; Pair Plus,
    ``uint8``) to write into.

    >>> evaluate_batch(parse_hands(["Qh Kh Ah"]))
    BatchValues(rank=array([5], dtype=uint8), pair_plus=array([5], dtype=uint8))
    """
    run, rank_dtype = _kernel("evaluate_batch", rules)
    arr = as_hands(hands)
    if out is not None and (not isinstance(out, tuple) or len(out) != 2):
        raise TypeError(f"out must be a pair of arrays (ranks, pair_plus), not {out!r}")
    ranks = _output(None if out is None else out[0], len(arr), rank_dtype, [arr], "out[0]")
    pair_plus = _output(None if out is None else out[1], len(arr), np.uint8, [arr], "out[1]")
    if np.may_share_memory(ranks, pair_plus):
        raise ValueError("out[0] and out[1] must not overlap")
    bad = _run(run, [arr], [ranks, pair_plus], _workers("evaluate_batch", workers, deprecated))
    if bad >= 0:
        raise _bad_code_error("hands", arr, bad)
    return BatchValues(ranks, pair_plus)


def _one_or_many(hands: HandsLike | CardsLike | HandValue, name: str) -> Hands:
    if isinstance(hands, str | HandValue):
        return parse_hands([hands])
    arr = np.asarray(hands)
    if arr.ndim == 1 and arr.shape[0] == 3:
        arr = arr.reshape(1, 3)
    return as_hands(arr, name)


def compare_batch(
    a: HandsLike | CardsLike | HandValue,
    b: HandsLike | CardsLike | HandValue,
    *,
    rules: RulesLike = None,
    out: npt.NDArray[np.int8] | None = None,
    workers: int | None = 1,
    **deprecated: Unpack[Deprecated],
) -> npt.NDArray[np.int8]:
    """Row by row, 1 where ``a`` beats ``b``, 0 for a tie, -1 where ``b`` wins, under the
    ranking of ``rules``.

    Either side may be a single hand (a string, a ``HandValue`` or three codes), which is
    compared with every row of the other, e.g. many players against one banker. Codes
    carry no ranking, but a ``HandValue`` carries its own: as for ``compare``, the rows are
    then ranked by it (``rules`` may be left out or name the same ranking), and values of
    two rankings, or ``rules`` of another, raise ``TypeError`` naming both
    (``sanggong.hands.ranking_of``).

    >>> compare_batch([[0, 4, 8], [40, 44, 48]], [[36, 37, 38], [36, 37, 38]])
    array([1, 1], dtype=int8)
    >>> from sanggong import evaluate
    >>> compare_batch(parse_hands(["Kh 5c 4d", "9c 9d 9h"]), evaluate("Ks 2c 7d", "san_gong"))   # its ranking
    array([-1,  1], dtype=int8)
    >>> compare_batch([[0, 4, 8], [1, 5, 9]], [[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    Traceback (most recent call last):
    ...
    ValueError: a and b must hold the same number of hands (or one hand), got 2 and 3
    """
    run, _ = _kernel("compare_batch", ranking_of(rules, a, b))
    x, y = _one_or_many(a, "a"), _one_or_many(b, "b")
    given = x, y  # before broadcasting and casting (which may wrap a huge code): errors name these
    if len(x) != len(y):
        if len(x) == 1:
            x = np.broadcast_to(x, y.shape)
        elif len(y) == 1:
            y = np.broadcast_to(y, x.shape)
        else:
            raise ValueError(
                f"a and b must hold the same number of hands (or one hand), got {len(x)} and {len(y)}"
            )
    if x.dtype != y.dtype:  # the kernel reads both sides with one dtype
        common = np.result_type(x.dtype, y.dtype)
        common = common if common.kind in "iu" else np.dtype(np.int64)
        x, y = x.astype(common), y.astype(common)
    out = _output(out, len(x), np.int8, [x, y])
    bad = _run(run, [x, y], [out], _workers("compare_batch", workers, deprecated))
    if bad >= 0:
        gx = given[0][0] if len(given[0]) == 1 else given[0][bad]
        side, arr, row = ("a", given[0], 0 if len(given[0]) == 1 else bad) \
            if any(not 0 <= v < 52 for v in gx.tolist()) else ("b", given[1], 0 if len(given[1]) == 1 else bad)
        raise _bad_code_error(side, arr, row)
    return out
