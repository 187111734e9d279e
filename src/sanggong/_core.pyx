# cython: language_level=3, freethreading_compatible=True
"""sanggong's compiled core: hand evaluation, settlement, dealing, exact counting,
simulation and shoe play, without the GIL.

The kernels here have twins of the same names and results in ``_kernels/twin/``; the
tables in ``_lookups.h`` are generated from that reference at build time, the limits
(``csrc/sg_limits.h``, ``_limits.pxd``) from ``limits.py`` and the table's parameters
(``csrc/sg_table.h``) from ``_table.TableParams`` (``tools/gen_headers.py``). The kernels
take already checked arguments from the public modules and check again what they index
with (card codes, shapes, alignment), so that no input can make them read out of bounds.

One extension module, its kernels by family in ``csrc/`` (each ``.pxi`` included here,
each C header beside them): ``lookups.pxi`` and ``eval.pxi`` evaluate hands
(``sg_eval.h``, ``sg_simd.h``), ``settle.pxi`` settles bets (``sg_settle.h``),
``deal.pxi`` shuffles and deals by the shoe procedure (``sg_random.h``, ``sg_deal.h``),
``pcg64.pxi`` is the core's own bit generator, numpy's PCG64 (``sg_pcg64.h``),
``count.pxi`` counts deals exactly (``sg_sums.h``), ``simulate.pxi`` runs the round loops
(``sg_simulate.h`` and the headers it includes), ``shoe.pxi`` and ``play.pxi`` evaluate
and play shoes (``sg_sums.h``), ``logline.pxi`` writes and checks log lines (``verify``'s
fast pass), ``detect.pxi`` tallies a log's stakes for ``sanggong.detect``,
``shuffletest.pxi`` deals whole shoes and tallies them for ``sanggong.shuffletest``.
"""

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

cimport cython
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset
cdef extern from "numpy/random/bitgen.h":
    # numpy's bit generator struct, from its header alone: ``from numpy.random cimport
    # bitgen_t`` would make the module's init import numpy (the types of numpy's pxd),
    # which a command that needs no NumPy (``sanggong verify``) would pay for at start
    struct bitgen:
        void* state
        uint64_t (*next_uint64)(void* st) noexcept nogil
        uint32_t (*next_uint32)(void* st) noexcept nogil
        double (*next_double)(void* st) noexcept nogil
        uint64_t (*next_raw)(void* st) noexcept nogil
    ctypedef bitgen bitgen_t

from sanggong._limits cimport SG_MAX_DECKS, SG_MAX_ROUND_CARDS

import operator

IMPLEMENTATION = "cython"

include "csrc/sg_table.pxi"
include "csrc/common.pxi"
include "csrc/lookups.pxi"
include "csrc/eval.pxi"
include "csrc/settle.pxi"
include "csrc/deal.pxi"
include "csrc/pcg64.pxi"
include "csrc/count.pxi"
include "csrc/simulate.pxi"
include "csrc/shoe.pxi"
include "csrc/play.pxi"
include "csrc/logline.pxi"
include "csrc/detect.pxi"
include "csrc/vector.pxi"
include "csrc/shuffletest.pxi"
