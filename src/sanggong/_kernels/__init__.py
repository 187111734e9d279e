"""The kernels' boundary: which implementation runs them, the compiled core or its
pure-Python twin, chosen here and nowhere else (shoe terms too wide for the core's sums
included: ``shoe_kernel``).

``SANGGONG_NO_EXTENSIONS`` set to a true value (``1``, ``true``, ``yes``, ``on``) forces
the pure-Python reference (``sanggong._kernels.twin``, the core's twin); unset, empty or a
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

Public modules call ``_kernels.kernels.<name>`` at call time, never a copy taken at import,
so the test suite can run every public function against both implementations.

The package's modules: ``protocol`` (**what a kernel is**: ``Kernels``, a protocol of every
kernel's signature, the arrays' dtypes included, and the protocols of what the kernels
read of a ranking's tables and a settlement plan), ``inputs`` (the plain types the kernels
read: ``TableParams``, ``ShoeTerms``), ``conformance`` (mypy checks the compiled core,
through its stubs ``_core.pyi``, and the twin against ``Kernels``), ``twin`` (the twin, a
module for each family of ``csrc/``) and ``vector_formula`` (the batch kernels' vector formula).
The public modules see ``kernels`` as a ``Kernels``, so every kernel call they make is
type-checked too.
"""

from __future__ import annotations

import importlib
import os
import sys
import warnings
from collections.abc import Iterable
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from .inputs import ShoeTerms
    from .protocol import Kernels, RankingSource, ShoeSums

__all__ = ["CONFIG_ERROR", "FALLBACK_COST", "deal_arrays", "default_lookups", "extensions_disabled", "kernels",
           "shoe_kernel", "tables", "zeros"]

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
    name = f"{__name__.rpartition('.')[0]}._core"
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
    from . import twin

    return twin


BUILD_FAILED_NOTE = "_core_build_failed.txt"
"""Left beside the package's modules by ``setup.py`` when the build of the core failed."""


def _build_failure_note() -> str | None:
    """The error ``setup.py`` recorded when it could not build the core, or None."""
    from pathlib import Path  # (only where the core is missing)

    try:
        text = (Path(__file__).parent.parent / BUILD_FAILED_NOTE).read_text(encoding="utf-8", errors="replace")
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


# --- what the public modules ask of the implementation chosen ----------------------------

_SELF = sys.modules[__name__]  # (read ``kernels`` as the public modules do: the test suite swaps and traces it)


def lookups(source: RankingSource) -> Any:
    """The kernels' ``Lookups`` of a ranking's tables (``sanggong.ranking.RankingTables``):
    the implementation in use's, built on first use and kept with the tables
    (``source.kernel_lookups``, by implementation)."""
    chosen = _SELF.kernels
    name = chosen.IMPLEMENTATION
    found = source.kernel_lookups.get(name)
    if found is None:
        found = source.kernel_lookups[name] = chosen.Lookups(source)
    return found


def shoe_kernel(terms: ShoeTerms, counts: Iterable[int]) -> ShoeSums:
    """The implementation in use's ``ShoeKernel``, or the pure-Python twin's where a value is
    beyond what the compiled one sums exactly (64 bits; 59 for the terms of a suit
    tie-break: ``terms.wide``)."""
    if terms.wide:
        return _twin().ShoeKernel(terms, counts)  # type: ignore[no-any-return]
    return _SELF.kernels.ShoeKernel(terms, counts)  # type: ignore[no-any-return]


# --- arrays for the kernels to write, without NumPy under the compiled core ------------------
# The compiled core's kernels take any buffer of the right item type and shape (typed
# memoryviews): a ``bytearray`` cast to the shape serves, so that a command whose work is
# done by the kernels (``sanggong verify``) starts without NumPy's import. The twin writes
# its arrays by NumPy's indexing and gets NumPy's arrays. Read them by what both have:
# ``tolist()``, ``tobytes()``, ``len()``, slices of the first dimension, and an item of a
# one-dimensional one through ``int()``.

_ITEM_TYPES = {"B": ("uint8", 1), "H": ("uint16", 2), "i": ("int32", 4), "q": ("int64", 8)}
ItemCode = Literal["B", "H", "i", "q"]


def zeros(shape: tuple[int, ...], code: ItemCode) -> Any:
    """A zeroed array of ``shape`` (no dimension 0) and item type ``code`` (``B`` uint8, ``H``
    uint16, ``i`` int32, ``q`` int64) as the kernels in use write it: under the compiled
    core a ``bytearray`` cast to it, under the twin a NumPy array."""
    name, size = _ITEM_TYPES[code]
    if _SELF.kernels.IMPLEMENTATION != "cython":
        import numpy as np

        return np.zeros(shape, dtype=name)
    count = 1
    for n in shape:
        if n < 1:
            raise ValueError(f"an array of shape {shape}: every dimension at least 1")
        count *= n
    return memoryview(bytearray(count * size)).cast(code, shape)


def deal_arrays(rounds: int, hands: int, width: int) -> tuple[Any, ...]:
    """``deal_chunk``'s arrays for ``rounds`` rounds of ``hands`` hands (``zeros``'s): the
    hands, the burned cards (a row of ``width`` cards, at least one), their counts, the head
    cards, the shoes, each round's round in its shoe, whether it was its shoe's last and
    the cut card's place."""
    return (zeros((rounds, hands, 3), "B"), zeros((rounds, max(width, 1)), "B"), zeros((rounds,), "B"),
            zeros((rounds,), "B"), zeros((rounds,), "q"), zeros((rounds,), "H"), zeros((rounds,), "B"),
            zeros((rounds,), "H"))


# --- the default ranking's tables as the compiled core holds them (for sanggong.ranking) ------
# The core carries the default ranking's lookup tables, generated from the specification
# when it is built (``_lookups.h``, by ``tools/gen_lookups.py``; ``_core.default_lookups``):
# every ordered triple's class number under the default ranking (``3 * points + faces``,
# 30 for three faces) and its Pair Plus category, by a pair's state and the third card.
# Under the default ranking a hand's keys follow from its class number, so
# ``RankingTables`` needs the keys of one hand of each class only (31 hands) instead of all
# 140,608 triples', and makes the default ranking's tables from the core's in plain Python
# (a few milliseconds, no NumPy: ``sanggong verify`` starts without it), where computing
# them from every triple takes some 40 ms and NumPy. The tables made either way are equal,
# every attribute of them (``tests/test_startup.py``); without the core
# (``SANGGONG_NO_EXTENSIONS=1``, or a core not built) they are computed, as for every other
# ranking.


def default_lookups() -> tuple[bytes, bytes] | None:
    """The compiled core's tables of the default ranking (``_core.default_lookups``: each
    pair's state x 52, uint16 in the machine's order, and by state x 52 + the third card
    ``class | pair plus << 5``) where it is the implementation in use, else None."""
    if _SELF.kernels.IMPLEMENTATION != "cython":
        return None
    from .._core import default_lookups as held  # (the compiled core: loaded already, as the kernels in use)

    return held()


if TYPE_CHECKING:
    kernels: Kernels[Any, ShoeSums]
else:
    kernels: ModuleType = _load()
