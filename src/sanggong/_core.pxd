# cython: language_level=3
"""C-level API of sanggong's compiled core, for other Cython code.

    from sanggong._core cimport hand_rank, hand_pair_plus

Both functions are pure table lookups, safe to call without the GIL. They do not check
their arguments: every card code must be in 0..51 (validate once at your own API
boundary, as sanggong's Python functions do). See ``sanggong._reference`` for the code
layout, the class numbers (0..30, higher is stronger, equal ties) and the Pair Plus
categories (0 none .. 5 straight flush).
"""

from libc.stdint cimport uint8_t


cdef uint8_t hand_rank(uint8_t c0, uint8_t c1, uint8_t c2) noexcept nogil
cdef uint8_t hand_pair_plus(uint8_t c0, uint8_t c1, uint8_t c2) noexcept nogil
