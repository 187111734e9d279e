# cython: language_level=3
"""C-level API of sanggong's compiled core, for other Cython code.

    from sanggong._core cimport hand_rank, hand_pair_plus

Both functions are pure table lookups, safe to call without the GIL. They do not check
their arguments: every card code must be in 0..51 (validate once at your own API
boundary, as sanggong's Python functions do). See ``sanggong._kernels.twin`` for the code
layout, the class numbers (0..30, higher is stronger, equal ties) and the Pair Plus
categories (0 none .. 5 straight flush).

A shoe of your own, dealt round by round exactly as ``sanggong.Game`` deals:

    from sanggong._core cimport shoe_t, shoe_init, shoe_deal, SHOE_MAX_BURNED, SHOE_MAX_HANDS

``shoe_t`` is a plain struct the caller owns (about 3.4 kB: the cards of the largest shoe,
``SHOE_MAX_CARDS``, and the table's procedure). ``shoe_init`` sets it up for a table and returns 0, or -1
(the shoe then deals nothing) when the arguments describe no table that ``RuleSet``
accepts; pass ``rules.decks``, ``rules.positions``, ``rules.fresh_deck_each_round``,
``rules.burn_first``, ``rules.burn_per_round``, ``rules.head_card``,
``rules.head_card_burned``, ``rules.deal_one_at_a_time`` and the two ends of
``rules.cut_card_range``.

``shoe_deal`` deals one round from a numpy ``bitgen_t*`` (``PyCapsule_GetPointer(
bit_generator.capsule, "BitGenerator")``; taken as ``void*``, so that cimporting this
file needs no NumPy headers). Hold the bit generator's ``lock``, or own the generator,
while dealing. It shuffles when the shoe is due (every round of a fresh-deck table; a
shoe after the round its cut card came out in), then writes

- ``hands[0:3 * (positions + 1)]``: the banker's three cards, then those of positions
  1..positions (codes 0..51, each hand's in the order it received them);
- ``burned[0:n]``: the ``n`` cards burned this round, a burned head card last (at most
  ``SHOE_MAX_BURNED``), and returns ``n`` (-1, writing nothing, for a refused shoe);
- ``head_card[0]`` (unless NULL): the head card, or ``SHOE_NO_CARD`` (255).

After the call ``shoe.number`` is the round's shoe (from 1; a fresh-deck table starts a
shoe every round), ``shoe.round_in_shoe`` its round in that shoe (from 1),
``shoe.last`` whether it was the shoe's last, and ``shoe.n_cards - shoe.cut`` the cut
card's place from the end (0 for a fresh deck): the fields of a ``RoundRecord``. A shoe
set up from ``rules`` and ``Game(rules, rng=bit_generator)`` deal the same rounds, card
for card, from the same bit generator state. Neither function allocates; both are safe
without the GIL and check nothing else (the buffers must be large enough). To declare
``bitgen_t`` yourself: ``from numpy.random cimport bitgen_t``, compiled with
``include_dirs=[numpy.get_include()]``.
"""

from libc.stdint cimport int64_t, uint8_t

# the limits of sanggong.limits, generated at build time (tools/gen_headers.py)
from sanggong._limits cimport SG_MAX_BURNED, SG_MAX_CARDS, SG_MAX_HANDS


cdef uint8_t hand_rank(uint8_t c0, uint8_t c1, uint8_t c2) noexcept nogil
cdef uint8_t hand_pair_plus(uint8_t c0, uint8_t c1, uint8_t c2) noexcept nogil


cdef enum:
    SHOE_MAX_CARDS = SG_MAX_CARDS  # the cards of the largest shoe (limits.MAX_DECKS decks)
    SHOE_MAX_HANDS = SG_MAX_HANDS  # limits.MAX_POSITIONS positions and the banker
    SHOE_MAX_BURNED = SG_MAX_BURNED  # limits.MAX_BURN burned cards and a burned head card
    SHOE_NO_CARD = 255


ctypedef struct shoe_t:
    # the table, as shoe_init set it (read only)
    int64_t decks, positions, hands, n_cards, burn_first, burn_later, cut_lo, cut_hi
    bint fresh, head, head_burned, one_at_a_time
    # the shoe: cards out, cards before the cut card, the shoe's number (0 before the
    # first deal), rounds dealt from it, and whether the last round dealt was its last
    int64_t pos, cut, number, round_in_shoe
    bint last
    uint8_t deck[SHOE_MAX_CARDS]


cdef int shoe_init(shoe_t* shoe, int64_t decks, int64_t positions, bint fresh, int64_t burn_first,
                   int64_t burn_later, bint head, bint head_burned, bint one_at_a_time, int64_t cut_lo,
                   int64_t cut_hi) noexcept nogil
cdef int64_t shoe_deal(shoe_t* shoe, void* bitgen, uint8_t* hands, uint8_t* burned,
                       uint8_t* head_card) noexcept nogil
