# The core's own bit generator (included into _core.pyx): numpy's PCG64 (sg_pcg64.h) behind
# numpy's bitgen_t, so that every kernel draws from it as from numpy's (``_bitgen``: its
# ``capsule``, under its ``lock``), and its ``state`` is numpy's ``PCG64.state``, checked as
# numpy's setter takes it (``sanggong._spec.pcg64.check_pcg64_state``). A replay deals from it
# where no NumPy need be imported (``sanggong verify``); its twin is ``_spec.pcg64.PCG64``.

from cpython.pycapsule cimport PyCapsule_New

cdef extern from "sg_pcg64.h" nogil:
    ctypedef struct _pcg64 "sg_pcg64":  # (vector.pxi declares sg_pcg64 by its name)
        uint64_t hi, lo, inc_hi, inc_lo
    ctypedef struct sg_pcg64_state:
        _pcg64 g
        int has_uint32
        uint32_t uinteger
    uint64_t sg_pcg64_next_uint64(void* state) noexcept nogil
    uint32_t sg_pcg64_next_uint32(void* state) noexcept nogil
    double sg_pcg64_next_double(void* state) noexcept nogil

import threading as _threading


cdef class PCG64:
    """numpy's PCG64, the core's own: the same states and words as
    ``numpy.random.PCG64``, drawn by the kernels through numpy's ``bitgen_t``.

    :param state: a state as ``state`` holds it (numpy's ``PCG64.state``, or
        ``sanggong._spec.pcg64.seeded_pcg64_state``'s); None: the state 0 of the stream 1 (a
        generator to set a state on).
    """

    cdef sg_pcg64_state rng
    cdef bitgen_t bitgen
    cdef readonly object capsule
    cdef readonly object lock

    def __cinit__(self):
        self.rng.g.hi = self.rng.g.lo = self.rng.g.inc_hi = 0
        self.rng.g.inc_lo = 1
        self.rng.has_uint32 = 0
        self.rng.uinteger = 0
        self.bitgen.state = &self.rng
        self.bitgen.next_uint64 = sg_pcg64_next_uint64
        self.bitgen.next_uint32 = sg_pcg64_next_uint32
        self.bitgen.next_double = sg_pcg64_next_double
        self.bitgen.next_raw = sg_pcg64_next_uint64
        self.capsule = PyCapsule_New(&self.bitgen, "BitGenerator", NULL)
        self.lock = _threading.Lock()

    def __init__(self, state=None):
        if state is not None:
            self.state = state

    @property
    def state(self):
        """The generator's state, as numpy's ``PCG64.state`` gives it (a fresh dict)."""
        with self.lock:
            return {"bit_generator": "PCG64",
                    "state": {"state": (<object>self.rng.g.hi) << 64 | self.rng.g.lo,
                              "inc": (<object>self.rng.g.inc_hi) << 64 | self.rng.g.inc_lo},
                    "has_uint32": self.rng.has_uint32, "uinteger": self.rng.uinteger}

    @state.setter
    def state(self, value):
        from sanggong._spec.pcg64 import check_pcg64_state

        state, inc, has_uint32, uinteger = check_pcg64_state(value)
        mask = (1 << 64) - 1
        with self.lock:
            self.rng.g.hi, self.rng.g.lo = state >> 64, state & mask
            self.rng.g.inc_hi, self.rng.g.inc_lo = inc >> 64, inc & mask
            self.rng.has_uint32, self.rng.uinteger = has_uint32, uinteger

    def random_raw(self):
        """The next 64-bit word (numpy's ``next_uint64``, which ``random_raw`` draws)."""
        cdef uint64_t word
        with self.lock:
            word = sg_pcg64_next_uint64(&self.rng)
        return word

    def next_uint32(self):
        """The next 32-bit word: the low half of a new 64-bit word, then its high half."""
        cdef uint32_t word
        with self.lock:
            word = sg_pcg64_next_uint32(&self.rng)
        return word

    def next_double(self):
        """A double in [0, 1): the top 53 bits of the next 64-bit word."""
        cdef double value
        with self.lock:
            value = sg_pcg64_next_double(&self.rng)
        return value

    def __reduce__(self):
        return type(self), (self.state,)
