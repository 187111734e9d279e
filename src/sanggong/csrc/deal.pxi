# Shuffling and dealing (included into _core.pyx): bounded integers, draws, and rounds dealt
# by the shoe procedure (sg_deal.h), which simulate_chunk and play_chunk deal by too.
#
# Cards are drawn by a lazy Fisher-Yates shuffle: the i-th card drawn swaps a uniformly
# chosen card of deck[i:] into place i, so a round draws only as many numbers as it
# takes cards, and every order of the cards drawn stays equally likely. The choices are
# unbiased bounded integers, several from each 64-bit draw of a numpy BitGenerator's
# bitgen_t (sg_draw in sg_random.h), taken under its lock with the GIL released.

cdef extern from "sg_random.h" nogil:
    uint64_t sg_bounded(uint64_t (*next)(void *), void *state, uint64_t n)
    void sg_init_groups()
    void sg_draw(uint64_t (*next)(void *), void *state, uint8_t *deck, int64_t n,
                 int64_t start, int64_t count, uint8_t *out, int64_t *picked)
    void sg_reset(uint8_t *deck, const uint8_t *fresh, int64_t n, int64_t count, const int64_t *picked)

cdef extern from "sg_deal.h" nogil:
    enum:
        SG_DEALABLE
        SG_NOT_A_TABLE
        SG_CUT_TOO_EARLY
    int sg_dealable(const sg_params* p)
    int64_t sg_hands(const sg_params* p)
    int64_t sg_n_cards(const sg_params* p)
    int64_t sg_burn(int64_t in_shoe, int64_t burn_first, int64_t burn_later)
    int64_t sg_round_cards(int64_t burn, bint head_burned, int64_t hands)
    int64_t sg_cut_card(uint64_t (*next)(void *), void *state, int64_t n, int64_t low, int64_t high)
    bint sg_takes_cut(int64_t start, int64_t count, int64_t cut)
    int64_t sg_shoe_round(uint64_t (*next)(void *), void *rng, uint8_t *deck, const uint8_t *ordered, int64_t n,
                          int64_t hands, int64_t burn_first, int64_t burn_later, bint head_burned, int64_t cut_low,
                          int64_t cut_high, int64_t *pos, int64_t *cut, int64_t *in_shoe, int64_t *number,
                          bint *last, uint8_t *cards)
    int64_t sg_named_hand(uint8_t head, int64_t hands)
    int64_t sg_first_dealt(bint head, uint8_t head_code, int64_t hands)
    int64_t sg_dealt_hand(int64_t k, int64_t first, int64_t hands)
    int64_t sg_next_hand(int64_t h, int64_t hands)
    bint sg_one_by_one(bint head, bint one_at_a_time)
    int64_t sg_card_of(int64_t k, int64_t j, int64_t hands, bint one_by_one)
    int64_t sg_assign(const uint8_t *cards, int64_t burn, int64_t hands, bint head, bint head_burned,
                      bint one_by_one, uint8_t no_card, uint8_t *hand_cards, uint8_t *burned, uint8_t *head_card)

sg_init_groups()  # fills a table sg_draw reads, once, at import

cdef uint8_t _FRESH_SHOE[SG_MAX_CARDS]  # the largest shoe in code order, copied in at a shuffle


cdef void _init_fresh_shoe() noexcept nogil:
    cdef Py_ssize_t i
    for i in range(SG_MAX_CARDS):
        _FRESH_SHOE[i] = i % 52


_init_fresh_shoe()


cdef int _dealt_table(const int64_t[::1] params, sg_params* table, bint cut_apart) except -1:
    """The table of a kernel's ``params``, which the kernel must be able to deal (RuleSet's
    conditions, sg_dealable); a later round the cut card leaves too few cards for is named
    apart where ``cut_apart``."""
    _table_params(params, table)
    cdef int why = sg_dealable(table)
    if why == SG_CUT_TOO_EARLY and cut_apart:
        raise ValueError("a later round may need more cards than the cut card leaves")
    if why != SG_DEALABLE:
        raise ValueError(f"params {list(params)} do not describe a table this kernel deals")
    return 0


cdef inline uint64_t _below(bitgen_t* rng, uint64_t n) noexcept nogil:
    return sg_bounded(rng.next_uint64, rng.state, n)


def bounded(bit_generator, n):
    """A uniform integer in [0, n), n >= 1 (Lemire's method on 64-bit draws)."""
    cdef uint64_t bound = n
    if bound < 1:
        raise ValueError(f"bound {n} must be at least 1")
    cdef bitgen_t* rng = _bitgen(bit_generator)
    cdef uint64_t value
    with bit_generator.lock, nogil:
        value = _below(rng, bound)
    return value


@cython.boundscheck(False)
@cython.wraparound(False)
def draw(bit_generator, uint8_t[::1] deck not None, Py_ssize_t start, Py_ssize_t count, uint8_t[::1] out not None):
    """Draw ``count`` cards from ``deck[start:]`` into ``out`` by lazy Fisher-Yates,
    permuting ``deck`` in place (``deck[start:start + count]`` ends up equal to ``out``)."""
    cdef Py_ssize_t n = deck.shape[0]
    if n > SG_MAX_CARDS:  # sg_draw's group table covers the largest shoe
        raise ValueError(f"cannot draw from a {n}-card deck: at most {SG_MAX_CARDS} cards")
    if start < 0 or count < 0 or start + count > n:
        raise ValueError(f"cannot draw {count} cards from position {start} of a {n}-card deck")
    if out.shape[0] < count:
        raise ValueError(f"out holds {out.shape[0]} cards, {count} are drawn")
    cdef bitgen_t* rng = _bitgen(bit_generator)
    if count == 0:
        return None
    with bit_generator.lock, nogil:
        sg_draw(rng.next_uint64, rng.state, &deck[0], n, start, count, &out[0], NULL)
    return None


@cython.boundscheck(False)
@cython.wraparound(False)
def deal_fresh_batch(bit_generator, Py_ssize_t decks, uint8_t[:, ::1] out not None):
    """For each row of ``out``: a fresh shoe of ``decks`` decks in code order, then the
    first ``out.shape[1]`` cards of a lazy Fisher-Yates shuffle (as ``draw`` would)."""
    if decks < 1 or decks > SG_MAX_DECKS:
        raise ValueError(f"decks must be in 1..{SG_MAX_DECKS}, got {decks}")
    cdef Py_ssize_t n = 52 * decks, rows = out.shape[0], k = out.shape[1], r
    if k > n:
        raise ValueError(f"cannot draw {k} cards from {decks} deck(s)")
    cdef uint8_t deck[SG_MAX_CARDS]
    cdef int64_t picked[SG_MAX_CARDS]
    cdef bitgen_t* rng = _bitgen(bit_generator)
    memcpy(deck, _FRESH_SHOE, n)
    if k == 0:
        return None
    with bit_generator.lock, nogil:
        for r in range(rows):
            sg_draw(rng.next_uint64, rng.state, deck, n, 0, k, &out[r, 0], picked)
            sg_reset(deck, _FRESH_SHOE, n, k, picked)
    return None


# --- raw rounds ------------------------------------------------------------------------------
# A shoe dealt round after round exactly as sanggong.dealing.Game deals (the draws of
# simulate_chunk, in the same order), its cards assigned to the hands and written out:
# for simulators of their own. shoe_init and shoe_deal are the C-level API (_core.pxd
# documents them); deal_chunk, the kernel of sanggong.rounds.deal_batch, is the same
# round in a loop over caller arrays. The twin is _kernels.twin.deal_chunk.

cdef int shoe_init(shoe_t* shoe, int64_t decks, int64_t positions, bint fresh, int64_t burn_first,
                   int64_t burn_later, bint head, bint head_burned, bint one_at_a_time, int64_t cut_lo,
                   int64_t cut_hi) noexcept nogil:
    cdef sg_params table
    table.decks = decks
    table.positions = positions
    table.fresh_deck = fresh
    table.burn_first = burn_first
    table.burn_per_round = burn_later
    table.head_card = head
    table.head_card_burned = head_burned
    table.one_at_a_time = one_at_a_time
    table.cut_low = cut_lo
    table.cut_high = cut_hi
    shoe.n_cards = 0  # unusable unless the table is one this deals
    if sg_dealable(&table) != SG_DEALABLE:
        return -1
    shoe.decks = decks
    shoe.positions = positions
    shoe.hands = sg_hands(&table)
    shoe.n_cards = sg_n_cards(&table)
    shoe.burn_first = burn_first
    shoe.burn_later = burn_later
    shoe.cut_lo = cut_lo if not fresh else 0
    shoe.cut_hi = cut_hi if not fresh else 0
    shoe.fresh = fresh
    shoe.head = head
    shoe.head_burned = head and head_burned
    shoe.one_at_a_time = one_at_a_time
    shoe.pos = 0
    shoe.cut = shoe.n_cards
    shoe.number = 0
    shoe.round_in_shoe = 0
    shoe.last = True
    memcpy(shoe.deck, _FRESH_SHOE, shoe.n_cards)  # a fresh deck stays in code order between rounds
    return 0


cdef inline int64_t _shoe_round(shoe_t* s, bitgen_t* rng, uint8_t* hands, uint8_t* burned,
                                uint8_t* head_card) noexcept nogil:
    """One round of shoe_deal (the shoe set up by shoe_init), by the shoe procedure: the
    burned cards' count."""
    cdef uint8_t cards[SG_MAX_ROUND_CARDS]
    cdef int64_t picked[SG_MAX_ROUND_CARDS]
    cdef int64_t n = s.n_cards, nh = s.hands, burn, count
    if s.fresh:  # a shuffle every round: the deck is in code order, put back after the draw
        burn = sg_burn(0, s.burn_first, s.burn_later)
        count = sg_round_cards(burn, s.head_burned, nh)
        sg_draw(rng.next_uint64, rng.state, s.deck, n, 0, count, cards, picked)
        sg_reset(s.deck, _FRESH_SHOE, n, count, picked)
        s.number += 1
        s.round_in_shoe = 1
        s.last = True
    else:
        burn = sg_shoe_round(rng.next_uint64, rng.state, s.deck, _FRESH_SHOE, n, nh, s.burn_first, s.burn_later,
                             s.head_burned, s.cut_lo, s.cut_hi, &s.pos, &s.cut, &s.round_in_shoe, &s.number,
                             &s.last, cards)
    return sg_assign(cards, burn, nh, s.head, s.head_burned, sg_one_by_one(s.head, s.one_at_a_time), SHOE_NO_CARD,
                     hands, burned, head_card)


cdef int64_t shoe_deal(shoe_t* shoe, void* bitgen, uint8_t* hands, uint8_t* burned,
                       uint8_t* head_card) noexcept nogil:
    if shoe.n_cards == 0:  # not set up (shoe_init refused the table): deal nothing
        return -1
    return _shoe_round(shoe, <bitgen_t*>bitgen, hands, burned, head_card)


@cython.boundscheck(False)
@cython.wraparound(False)
def deal_chunk(bit_generator, const int64_t[::1] params, uint8_t[:, :, ::1] hands not None,
               uint8_t[:, ::1] burned not None, uint8_t[::1] burn_counts not None, uint8_t[::1] head_cards,
               int64_t[::1] shoe not None, uint16_t[::1] round_in_shoe not None, uint8_t[::1] last not None,
               uint16_t[::1] cut_card not None):
    """Deal ``hands.shape[0]`` rounds from a fresh shoe (the table of ``params``,
    ``TableParams.array()``) as ``sanggong.Game`` deals them, and write for round i: its
    hands (``hands[i, 0]`` the banker's, ``hands[i, p]`` position p's), its burned cards
    (``burned[i, :burn_counts[i]]``, a burned head card last; the rest of the row 255),
    its head card (``head_cards[i]``, 255 where there is none; ``head_cards`` may be
    None), its shoe (from 1), round in shoe (from 1), whether it was the shoe's last (1
    or 0) and the cut card's place from the end (0 for a fresh deck). Returns the shoes
    begun."""
    cdef sg_params table
    _dealt_table(params, &table, False)
    cdef shoe_t* s = <shoe_t*>malloc(sizeof(shoe_t))
    if s == NULL:
        raise MemoryError()
    shoe_init(s, table.decks, table.positions, table.fresh_deck != 0, table.burn_first, table.burn_per_round,
              table.head_card != 0, table.head_card_burned != 0, table.one_at_a_time != 0, table.cut_low,
              table.cut_high)
    try:
        _check_deal_arrays(s, hands, burned, burn_counts, head_cards, shoe, round_in_shoe, last, cut_card)
        if hands.shape[0] == 0:
            return 0
        return _deal_rows(bit_generator, s, hands.shape[0], &hands[0, 0, 0], &burned[0, 0], burned.shape[1],
                          &burn_counts[0], &head_cards[0] if head_cards is not None else NULL, &shoe[0],
                          &round_in_shoe[0], &last[0], &cut_card[0])
    finally:
        free(s)


cdef int _check_deal_arrays(const shoe_t* s, uint8_t[:, :, ::1] hands, uint8_t[:, ::1] burned,
                            uint8_t[::1] burn_counts, uint8_t[::1] head_cards, int64_t[::1] shoe,
                            uint16_t[::1] round_in_shoe, uint8_t[::1] last, uint16_t[::1] cut_card) except -1:
    """deal_chunk's arrays hold a value for every round (and burned a row as long as a
    round's most burns), and the wider ones are aligned."""
    cdef Py_ssize_t rounds = hands.shape[0], width = burned.shape[1]
    cdef int64_t most = (s.burn_first if s.fresh else max(s.burn_first, s.burn_later)) + s.head_burned
    if hands.shape[1] != s.hands or hands.shape[2] != 3:
        raise ValueError(f"hands must have shape (rounds, {s.hands}, 3), "
                         f"got ({hands.shape[0]}, {hands.shape[1]}, {hands.shape[2]})")
    if width < most:
        raise ValueError(f"burned must hold {most} cards a round, it holds {width}")
    for name, length in (("burned", burned.shape[0]), ("burn_counts", burn_counts.shape[0]),
                         ("shoe", shoe.shape[0]), ("round_in_shoe", round_in_shoe.shape[0]),
                         ("last", last.shape[0]), ("cut_card", cut_card.shape[0])):
        if length != rounds:
            raise ValueError(f"{name} must hold {rounds} rounds, it holds {length}")
    if head_cards is not None and head_cards.shape[0] != rounds:
        raise ValueError(f"head_cards must hold {rounds} rounds, it holds {head_cards.shape[0]}")
    if rounds:
        _check_aligned(&shoe[0], sizeof(int64_t), "shoe")
        _check_aligned(&round_in_shoe[0], sizeof(uint16_t), "round_in_shoe")
        _check_aligned(&cut_card[0], sizeof(uint16_t), "cut_card")
    return 0


cdef int64_t _deal_rows(object bit_generator, shoe_t* s, Py_ssize_t rounds, uint8_t* hands, uint8_t* burned,
                        Py_ssize_t width, uint8_t* burn_counts, uint8_t* head_cards, int64_t* shoe,
                        uint16_t* round_in_shoe, uint8_t* last, uint16_t* cut_card) except -1:
    """deal_chunk's loop (the arrays checked), without the GIL: the same rounds as
    _shoe_round's, in a loop of its own for a fresh-deck table (every online table) and one
    for a shoe."""
    cdef bitgen_t* rng = _bitgen(bit_generator)
    with bit_generator.lock, nogil:
        if s.fresh:
            _deal_fresh_rows(rng, s, rounds, hands, burned, width, burn_counts, head_cards, shoe, round_in_shoe,
                             last, cut_card)
        else:
            _deal_shoe_rows(rng, s, rounds, hands, burned, width, burn_counts, head_cards, shoe, round_in_shoe,
                            last, cut_card)
    return s.number


# The two loops of _deal_rows keep what every round shares in locals, a shoe's state too (a
# store through uint8_t* may alias any field read through a pointer, which would then be
# reloaded after each), and write a round's burned cards padded with SHOE_NO_CARD.

cdef void _deal_fresh_rows(bitgen_t* rng, shoe_t* s, Py_ssize_t rounds, uint8_t* hands, uint8_t* burned,
                           Py_ssize_t width, uint8_t* burn_counts, uint8_t* head_cards, int64_t* shoe,
                           uint16_t* round_in_shoe, uint8_t* last, uint16_t* cut_card) noexcept nogil:
    cdef uint64_t (*next_word)(void *) noexcept nogil
    next_word = rng.next_uint64
    cdef void* state = rng.state
    cdef Py_ssize_t i, k, row = 3 * s.hands
    cdef int64_t n = s.n_cards, nh = s.hands, number = s.number, n_burned
    cdef bint head = s.head, head_burned = s.head_burned, one = sg_one_by_one(s.head, s.one_at_a_time)
    cdef int64_t burn = sg_burn(0, s.burn_first, s.burn_later)
    cdef int64_t count = sg_round_cards(burn, head_burned, nh)
    cdef uint8_t* deck = s.deck
    cdef uint8_t cards[SG_MAX_ROUND_CARDS]
    cdef int64_t picked[SG_MAX_ROUND_CARDS]
    for i in range(rounds):
        sg_draw(next_word, state, deck, n, 0, count, cards, picked)
        sg_reset(deck, _FRESH_SHOE, n, count, picked)
        sg_assign(cards, burn, nh, head, head_burned, one, SHOE_NO_CARD, hands + i * row, burned + i * width,
                  head_cards + i if head_cards != NULL else NULL)
    # every round a shoe of its own, with the same burns: the rest filled apart, in loops of their own
    n_burned = burn + head_burned
    for i in range(rounds):
        for k in range(n_burned, width):
            burned[i * width + k] = SHOE_NO_CARD
        burn_counts[i] = <uint8_t>n_burned
        last[i] = 1
    for i in range(rounds):
        shoe[i] = number + 1 + i
    for i in range(rounds):
        round_in_shoe[i] = 1
        cut_card[i] = 0
    s.number = number + rounds
    s.round_in_shoe = 1
    s.last = True


cdef void _deal_shoe_rows(bitgen_t* rng, shoe_t* s, Py_ssize_t rounds, uint8_t* hands, uint8_t* burned,
                          Py_ssize_t width, uint8_t* burn_counts, uint8_t* head_cards, int64_t* shoe,
                          uint16_t* round_in_shoe, uint8_t* last, uint16_t* cut_card) noexcept nogil:
    cdef uint64_t (*next_word)(void *) noexcept nogil
    next_word = rng.next_uint64
    cdef void* state = rng.state
    cdef Py_ssize_t i, k, row = 3 * s.hands
    cdef int64_t n = s.n_cards, nh = s.hands, burn_first = s.burn_first, burn_later = s.burn_later
    cdef int64_t cut_low = s.cut_lo, cut_high = s.cut_hi, n_burned, burn
    cdef int64_t pos = s.pos, cut = s.cut, in_shoe = s.round_in_shoe, number = s.number
    cdef bint head = s.head, head_burned = s.head_burned, last_one = s.last
    cdef bint one = sg_one_by_one(s.head, s.one_at_a_time)
    cdef uint8_t* deck = s.deck
    cdef uint8_t cards[SG_MAX_ROUND_CARDS]
    for i in range(rounds):
        burn = sg_shoe_round(next_word, state, deck, _FRESH_SHOE, n, nh, burn_first, burn_later, head_burned,
                             cut_low, cut_high, &pos, &cut, &in_shoe, &number, &last_one, cards)
        n_burned = sg_assign(cards, burn, nh, head, head_burned, one, SHOE_NO_CARD, hands + i * row,
                             burned + i * width, head_cards + i if head_cards != NULL else NULL)
        for k in range(n_burned, width):
            burned[i * width + k] = SHOE_NO_CARD
        burn_counts[i] = <uint8_t>n_burned
        shoe[i] = number
        round_in_shoe[i] = <uint16_t>in_shoe
        last[i] = last_one
        cut_card[i] = <uint16_t>(n - cut)
    s.pos, s.cut, s.round_in_shoe, s.number, s.last = pos, cut, in_shoe, number, last_one
