"""The game, specified: Sam Gong written as plain functions and constants, the one source
of truth of every other part of sanggong.

Cards, hand classes, rankings, Pair Plus, every bet's outcome, the counting kinds of exact
analysis, how cards are drawn from a bit generator and how a table deals its rounds are
defined here, once, for Python (the C side mirrors them, and the test suite holds the
two to each other). The public modules read their vocabulary from here
(``sanggong.cards``' symbols, ``sanggong.settlement``'s outcome codes, ...); the compiled
core's lookup tables are generated from these functions, at build time by
``tools/gen_lookups.py`` and at run time by ``sanggong.ranking`` and
``sanggong.settlement``; the pure-Python twin of the core's kernels,
``sanggong._kernels.twin``, runs on them; and the test suite checks the core against them.

This package depends on the standard library and NumPy only and imports nothing of
sanggong's but its own modules, so that the build can load it by path
(``tools/gen_lookups.py``), before the package is built. What it reads of the package's
objects (a ranking, a rule set, a table's dealing parameters) it names by the attributes
it reads: ``RankingFields``, ``RuleFields``, ``TableFields``. Its modules, each
re-exported here:

- ``cards``: card codes, hand classes of the default ranking, Pair Plus categories;
- ``rankings``: a ranking's comparison and class keys, one hand or all 140,608 triples;
- ``bets``: outcome codes and every bet's outcome (``bet_outcome``);
- ``counting``: the counting kinds and multisets of exact analysis (``suit_split``);
- ``draws``: uniform integers and lazy Fisher-Yates draws from a bit generator;
- ``pcg64``: numpy's PCG64 and its seeding (``SeedSequence``), the words a record's replay draws;
- ``procedure``: the dealing procedure, and ``Shoe``, a table dealt round after round.

Card codes
----------
A card is an integer ``code = 4 * (rank - 1) + suit`` in ``0..51``: ``rank`` is
1 (ace) .. 13 (king) and ``suit`` is 0 clubs, 1 diamonds, 2 hearts, 3 spades.
So ``code // 4`` is the rank index, ``code % 4`` the suit, ``0`` is the ace of clubs
and ``51`` the king of spades; integer order is rank order.

Hand ranks
----------
The 31 hand classes of the default ranking are numbered ``0..30`` so that a higher number
is a stronger hand and equal numbers tie: ``rank = 3 * points + faces`` for hands with 0,
1 or 2 faces (``0`` is "0", ``29`` is "2P9") and ``30`` is three faces ("3P").

Pair Plus categories
--------------------
``0`` none, ``1`` pair, ``2`` flush, ``3`` straight, ``4`` three of a kind,
``5`` straight flush: a higher number is a better category.
"""

from .bets import *  # noqa: F403
from .cards import *  # noqa: F403
from .counting import *  # noqa: F403
from .draws import *  # noqa: F403
from .pcg64 import *  # noqa: F403
from .procedure import *  # noqa: F403
from .rankings import *  # noqa: F403
