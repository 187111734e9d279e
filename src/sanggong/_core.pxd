# cython: language_level=3
"""C-level API of sanggong's compiled core, for other Cython code.

    from sanggong._core cimport hand_rank, hand_pair_plus

Both functions are pure table lookups, safe to call without the GIL. They do not check
their arguments: every card code must be in 0..51 (validate once at your own API
boundary, as sanggong's Python functions do). See ``sanggong._reference`` for the code
layout, the class numbers (0..30, higher is stronger, equal ties) and the Pair Plus
categories (0 none .. 5 straight flush).

A shoe of your own, dealt round by round exactly as ``sanggong.Game`` deals:

    from sanggong._core cimport shoe_t, shoe_init, shoe_deal, SHOE_MAX_BURNED, SHOE_MAX_HANDS

``shoe_t`` is a plain struct the caller owns (about 3.4 kB: the cards of up to 64 decks
and the table's procedure); ``shoe_init`` sets it up for a table and returns 0, or -1
(and leaves it unusable) when the arguments describe no table ``sanggong.RuleSet``
accepts (the same conditions; pass ``rules.decks``, ``rules.positions``,
``rules.fresh_deck_each_round``, ``rules.burn_first``, ``rules.burn_per_round``,
``rules.head_card``, ``rules.head_card_burned``, ``rules.deal_one_at_a_time`` and the
two ends of ``rules.cut_card_range``). ``shoe_deal`` deals one round from a numpy
``bitgen_t`` (``PyCapsule_GetPointer(bit_generator.capsule, "BitGenerator")``; hold the
bit generator's ``lock``, or own the generator, while dealing): it shuffles when the
shoe is due (every round of a fresh-deck table; after the round the cut card came out
of, for a shoe), then writes

- ``hands[0:3 * (positions + 1)]``: the banker's three cards, then those of positions
  1..positions (codes 0..51, in the order each hand received them);
- ``burned[0:n]``: the ``n`` cards burned this round, a burned head card last, and
  returns ``n`` (at most ``SHOE_MAX_BURNED``);
- ``head_card[0]`` (when not NULL): the head card, ``SHOE_NO_CARD`` (255) where the
  table turns none up.

After the call ``shoe.number`` is the round's shoe (from 1; a fresh-deck table starts a
shoe every round), ``shoe.round_in_shoe`` its round in that shoe (from 1),
``shoe.last`` whether it was the shoe's last, and ``shoe.n_cards - shoe.cut`` the cut
card's place from the end (0 for a fresh deck): the fields of ``sanggong.RoundRecord``.
From ``Game(rules, rng=bit_generator)`` and a shoe set up from the same ``rules``, the
same bit generator state gives the same rounds, card for card. Nothing is allocated;
both functions are safe without the GIL. Compile against NumPy's headers
(``include_dirs=[numpy.get_include()]``), which declare ``bitgen_t``.
"""

from libc.stdint cimport int64_t, uint8_t
from numpy.random cimport bitgen_t


cdef uint8_t hand_rank(uint8_t c0, uint8_t c1, uint8_t c2) noexcept nogil
cdef uint8_t hand_pair_plus(uint8_t c0, uint8_t c1, uint8_t c2) noexcept nogil


cdef enum:
    SHOE_MAX_CARDS = 3328  # 64 decks
    SHOE_MAX_HANDS = 17  # 16 positions and the banker
    SHOE_MAX_BURNED = 65  # 64 burned cards and a burned head card
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
cdef int64_t shoe_deal(shoe_t* shoe, bitgen_t* rng, uint8_t* hands, uint8_t* burned,
                       uint8_t* head_card) noexcept nogil
