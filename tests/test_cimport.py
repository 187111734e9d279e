"""Other Cython code can ``cimport`` the core's nogil evaluation functions."""

from __future__ import annotations

import itertools
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np

from sanggong import _spec as ref

PROBE = textwrap.dedent(
    """
    # cython: language_level=3
    from libc.stdint cimport uint8_t
    from sanggong._core cimport hand_rank, hand_pair_plus

    def evaluate_all():
        cdef list out = []
        cdef uint8_t a, b, c, r, p
        for a in range(52):
            for b in range(52):
                for c in range(52):
                    with nogil:
                        r = hand_rank(a, b, c)
                        p = hand_pair_plus(a, b, c)
                    out.append((r, p))
        return out
    """
)

BUILD = textwrap.dedent(
    """
    from Cython.Build import cythonize
    from setuptools import Extension, setup

    setup(
        name="probe",
        ext_modules=cythonize([Extension("probe", ["probe.pyx"])], quiet=True),
        script_args=["build_ext", "--inplace", "--quiet"],
    )
    """
)


def test_cimport_from_another_extension(tmp_path: Path) -> None:
    """Compiles a small extension against the installed ``sanggong/_core.pxd`` (this
    tests the compiled core's C-level API, so it runs once) and checks every ordered
    triple of codes against the reference."""
    (tmp_path / "probe.pyx").write_text(PROBE)
    (tmp_path / "build_probe.py").write_text(BUILD)
    build = subprocess.run(
        [sys.executable, "build_probe.py"], cwd=tmp_path, capture_output=True, text=True
    )
    assert build.returncode == 0, build.stdout + build.stderr
    sys.path.insert(0, str(tmp_path))
    try:
        import probe  # type: ignore[import-not-found]

        got = probe.evaluate_all()
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("probe", None)
    expected = [
        (ref.default_rank3(a, b, c), ref.pair_plus3(a, b, c))
        for a, b, c in itertools.product(range(52), repeat=3)
    ]
    assert got == expected


SHOE_PROBE = textwrap.dedent(
    """
    # cython: language_level=3
    from libc.stdint cimport int64_t, uint8_t
    from cpython.pycapsule cimport PyCapsule_GetPointer
    from numpy.random cimport bitgen_t
    from sanggong._core cimport (
        SHOE_MAX_BURNED, SHOE_MAX_HANDS, SHOE_NO_CARD, shoe_deal, shoe_init, shoe_t
    )

    def deal(bit_generator, rules, Py_ssize_t rounds):
        cdef shoe_t shoe
        cdef bitgen_t* rng = <bitgen_t*>PyCapsule_GetPointer(bit_generator.capsule, "BitGenerator")
        cdef uint8_t hands[3 * SHOE_MAX_HANDS]
        cdef uint8_t burned[SHOE_MAX_BURNED]
        cdef uint8_t head
        cdef int64_t n, i
        lo, hi = rules.cut_card_range
        if shoe_init(&shoe, rules.decks, rules.positions, rules.fresh_deck_each_round, rules.burn_first,
                     rules.burn_per_round, rules.head_card, rules.head_card_burned,
                     rules.deal_one_at_a_time, lo, hi) != 0:
            raise ValueError("refused")
        out = []
        with bit_generator.lock:
            for _ in range(rounds):
                with nogil:
                    n = shoe_deal(&shoe, rng, hands, burned, &head)
                out.append((
                    [hands[i] for i in range(3 * (rules.positions + 1))], [burned[i] for i in range(n)],
                    None if head == SHOE_NO_CARD else head, shoe.number, shoe.round_in_shoe,
                    bool(shoe.last), shoe.n_cards - shoe.cut,
                ))
        return out

    def refused(bit_generator):
        cdef shoe_t shoe
        cdef bitgen_t* rng = <bitgen_t*>PyCapsule_GetPointer(bit_generator.capsule, "BitGenerator")
        cdef uint8_t hands[3 * SHOE_MAX_HANDS]
        cdef uint8_t burned[SHOE_MAX_BURNED]
        # 17 positions; then a cut card too close to the end for a later round of 8 hands
        a = shoe_init(&shoe, 8, 17, False, 8, 1, False, True, True, 30, 40)
        b = shoe_deal(&shoe, rng, hands, burned, NULL)
        c = shoe_init(&shoe, 8, 7, False, 8, 1, False, True, True, 20, 40)
        return a, b, c
    """
)

SHOE_BUILD = textwrap.dedent(
    """
    import numpy
    from Cython.Build import cythonize
    from setuptools import Extension, setup

    setup(
        name="shoe_probe",
        ext_modules=cythonize([Extension("shoe_probe", ["shoe_probe.pyx"], include_dirs=[numpy.get_include()])],
                              quiet=True),
        script_args=["build_ext", "--inplace", "--quiet"],
    )
    """
)


def test_cimport_a_shoe_from_another_extension(tmp_path: Path) -> None:
    """Compiles a small extension that deals from its own ``shoe_t`` with ``shoe_init``
    and ``shoe_deal`` (the compiled core's C-level API, so it runs once) and compares
    every round with the records of a ``Game`` on the same bit generator state, for a
    shoe with its cut card and burns, and for online rounds with their head card."""
    from sanggong import MACAU, ONLINE, Game

    (tmp_path / "shoe_probe.pyx").write_text(SHOE_PROBE)
    (tmp_path / "build_shoe_probe.py").write_text(SHOE_BUILD)
    build = subprocess.run(
        [sys.executable, "build_shoe_probe.py"], cwd=tmp_path, capture_output=True, text=True
    )
    assert build.returncode == 0, build.stdout + build.stderr
    sys.path.insert(0, str(tmp_path))
    try:
        import shoe_probe  # type: ignore[import-not-found]

        for rules, rounds in ((MACAU, 70), (ONLINE, 300), (MACAU.replace(decks=1, deal_one_at_a_time=False), 50)):
            got = shoe_probe.deal(np.random.PCG64(41), rules, rounds)
            game = Game(rules, rng=np.random.PCG64(41), recall=0)
            expected = []
            for _ in range(rounds):
                r = game.play()
                expected.append((
                    [c.code for h in (r.banker, *(r.hands[p] for p in sorted(r.hands))) for c in h.cards],
                    [c.code for c in r.burned], None if r.head_card is None else r.head_card.code,
                    r.shoe, r.round_in_shoe, r.last_of_shoe, r.cut_card or 0,
                ))
            assert got == expected, rules.name
        assert shoe_probe.refused(np.random.PCG64(1)) == (-1, -1, -1)
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("shoe_probe", None)
