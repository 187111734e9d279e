"""The pure-Python twin of the compiled core's kernels: the same names, signatures and
results, written plainly on the game's specification (``sanggong._spec``).

``sanggong._kernels`` picks this package where the compiled core is not there or is
switched off (``SANGGONG_NO_EXTENSIONS=1``), and the test suite runs every public function
against both. Every kernel of the core has its twin here, and
``sanggong._kernels.protocol.Kernels`` says what a kernel is: mypy checks this package
against it, and the core's stubs (``_core.pyi``) the same way
(``sanggong._kernels.conformance``). Kernels that are plain functions of the game
(``pair_plus3``, ``suit_split``, ``bounded``, ``draw``) are the specification's own; the
round loops deal through the one Python definition of the dealing procedure,
``_spec.Shoe``, and so deal the core's cards bit for bit from the same bit generator.

Everything is computed from the rules themselves, never from the core's lookup tables: a
hand is ranked by ``_spec.hand_key``, a bet settled by ``_spec.bet_outcome``, a shoe's
exact sums taken card by card in Python integers.

A module for each family of the core's ``csrc/`` (``lookups.py`` is ``lookups.pxi``'s twin,
``eval.py`` ``eval.pxi``'s, and so on; ``common.py`` what they share), as
``_multidict_py.py`` mirrors ``_multidict.c``: a kernel and its twin are found by the
same name. Each module's ``__all__`` names its kernels, and this package hands them all on:
a new kernel is written in its family's module alone.
"""

from __future__ import annotations

from ..._spec import NO_CARD as NO_CARD
from .count import *  # noqa: F403
from .deal import *  # noqa: F403
from .detect import *  # noqa: F403
from .eval import *  # noqa: F403
from .logline import *  # noqa: F403
from .lookups import *  # noqa: F403
from .pcg64 import *  # noqa: F403
from .play import *  # noqa: F403
from .settle import *  # noqa: F403
from .shoe import *  # noqa: F403
from .shuffletest import *  # noqa: F403
from .simulate import *  # noqa: F403
from .vector import *  # noqa: F403

IMPLEMENTATION = "python"
"""The twin's name, as ``sanggong.IMPLEMENTATION`` says it."""
