"""The kernels' own PCG64 and its seeding (``_spec.pcg64``, the core's ``csrc/pcg64.pxi``)
held to numpy's own: ``SeedSequence``'s words and ``PCG64``'s seeded states over many
entropies, spawn keys and pool sizes; every kind of draw (64-bit words, buffered 32-bit
words, doubles) from many states, interleaved, with the states after them; and the kernels'
bounded draws, card draws and dealt rounds from either generator. numpy is the independent
computation here: nothing is compared with a value the code under test produced."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from sanggong import MACAU, ONLINE, Game
from sanggong._spec import pcg64
from sanggong._table import table_params
from sanggong.seeds import Seed

pytestmark = pytest.mark.kernels

_MAKER = np.random.default_rng(20261203)  # (the test's cases: fixed, drawn once at import)


def _big(bits: int) -> int:
    return int.from_bytes(_MAKER.bytes((bits + 7) // 8), "little") >> (-bits % 8)


ENTROPIES: list[Any] = [0, 1, 7, 2**32 - 1, 2**32, 2**64 - 1, 2**64, 2**128 + 3, 2**256 - 1,
                        *(_big(bits) for bits in (20, 33, 63, 64, 65, 127, 128, 129, 200, 256)),
                        [], [0], [1, 2, 3], [2**70, 5], [_big(256), _big(100), 0, 1, 2, 3, 4, 5]]
SEQUENCES: list[tuple[Any, tuple[int, ...], int]] = [
    *((e, (), 4) for e in ENTROPIES),
    (5, (3,), 4), (5, (3, 4), 4), (2**100, (2**62,), 8), ([1, 2], (0, 0, 0), 5), (0, (), 16), (_big(256), (9,), 64),
]


def _sequence(entropy: Any, spawn_key: tuple[int, ...], pool_size: int) -> np.random.SeedSequence:
    return np.random.SeedSequence(entropy, spawn_key=spawn_key, pool_size=pool_size)


@pytest.mark.parametrize(("entropy", "spawn_key", "pool_size"), SEQUENCES)
def test_seeding_is_numpys(entropy: Any, spawn_key: tuple[int, ...], pool_size: int) -> None:
    """``SeedSequence``'s words and the state ``PCG64`` seeds from them, as numpy makes them."""
    sequence = _sequence(entropy, spawn_key, pool_size)
    assert pcg64.seed_words(entropy, 9, spawn_key, pool_size) == sequence.generate_state(9, np.uint64).tolist()
    assert pcg64.seeded_pcg64_state(entropy, spawn_key, pool_size) == np.random.PCG64(sequence).state
    if not spawn_key and pool_size == 4:  # (numpy's PCG64 takes a plain int or list as its seed)
        assert pcg64.seeded_pcg64_state(entropy) == np.random.PCG64(entropy).state


def test_seeding_refuses_what_numpy_refuses() -> None:
    for entropy in (-1, [3, -1]):
        with pytest.raises(ValueError):
            np.random.SeedSequence(entropy)
        with pytest.raises(ValueError):
            pcg64.seeded_pcg64_state(entropy)
    for entropy in (1.5, "7", b"x"):
        with pytest.raises(TypeError):
            pcg64.seeded_pcg64_state(entropy)
    with pytest.raises(ValueError, match="pool_size"):
        pcg64.seed_words(1, 4, pool_size=3)


def _states() -> list[dict[str, Any]]:
    """numpy's PCG64 states: seeded, after an odd number of 32-bit draws (a half-word
    buffered), and arbitrary 128-bit states and odd increments."""
    out = []
    for seed in (0, 1, 2026, _big(256)):
        generator = np.random.PCG64(seed)
        out.append(generator.state)
        generator.ctypes.next_uint32(generator.ctypes.state)
        out.append(generator.state)
    for _ in range(6):
        state, inc = _big(128), _big(128) | 1
        has_uint32 = int(_MAKER.integers(2))
        out.append({"bit_generator": "PCG64", "state": {"state": state, "inc": inc}, "has_uint32": has_uint32,
                    "uinteger": int(_MAKER.integers(2**32)) if has_uint32 else 0})
    out.append({"bit_generator": "PCG64", "state": {"state": 2**128 - 1, "inc": 2**128 - 1}, "has_uint32": 1,
                "uinteger": 2**32 - 1})
    return out


STATES = _states()


def _numpy_at(state: dict[str, Any]) -> np.random.PCG64:
    generator = np.random.PCG64()
    generator.state = state
    return generator


@pytest.mark.parametrize("k", range(len(STATES)))
def test_every_draw_is_numpys(impl: ModuleType, k: int) -> None:
    """From each state, 400 draws of every kind interleaved (the 32-bit ones buffered across
    the others, as numpy buffers them) give numpy's words, and leave numpy's state."""
    mine, theirs = impl.PCG64(STATES[k]), _numpy_at(STATES[k])
    assert mine.state == theirs.state == STATES[k]
    raw = theirs.ctypes
    kinds = _MAKER.integers(3, size=400).tolist()
    drawn = [mine.random_raw() if kind == 0 else mine.next_uint32() if kind == 1 else mine.next_double()
             for kind in kinds]
    expected = [raw.next_uint64(raw.state) if kind == 0 else raw.next_uint32(raw.state) if kind == 1 else
                raw.next_double(raw.state) for kind in kinds]
    assert drawn == expected
    assert mine.state == theirs.state
    assert [type(v) for v in drawn] == [float if kind == 2 else int for kind in kinds]


@pytest.mark.parametrize("k", range(0, len(STATES), 3))
def test_the_kernels_draw_from_it_as_from_numpys(impl: ModuleType, k: int) -> None:
    """The kernels' bounded draws, card draws and dealt rounds are the same from the own
    generator and from numpy's at the same state, and leave the same states."""
    mine, theirs = impl.PCG64(STATES[k]), _numpy_at(STATES[k])
    bounds = [1, 2, 3, 52, 416, 2**32 + 1, 2**63 + 5, 2**64 - 1]
    assert [impl.bounded(mine, n) for n in bounds] == [impl.bounded(theirs, n) for n in bounds]
    decks = [bytearray(range(52)) * 2, bytearray(range(52)) * 2]
    outs = [bytearray(60), bytearray(60)]
    for generator, deck, out in zip((mine, theirs), decks, outs, strict=True):
        impl.draw(generator, deck, 3, 60, out)
    assert decks[0] == decks[1] and outs[0] == outs[1]
    for rules in (MACAU, ONLINE):
        dealt = []
        for generator in (mine, theirs):
            rounds = 30
            arrays = (np.empty((rounds, rules.hands, 3), np.uint8), np.empty((rounds, 12), np.uint8),
                      np.empty(rounds, np.uint8), np.empty(rounds, np.uint8), np.empty(rounds, np.int64),
                      np.empty(rounds, np.uint16), np.empty(rounds, np.uint8), np.empty(rounds, np.uint16))
            shoes = impl.deal_chunk(generator, table_params(rules).array(), *arrays)
            dealt.append((shoes, [a.tolist() for a in arrays]))
        assert dealt[0] == dealt[1]
    assert mine.state == theirs.state


def test_a_state_is_set_as_numpy_sets_it(impl: ModuleType) -> None:
    """A state is taken whole (numpy's own states, back as given), and one numpy's setter
    refuses, or one out of a field's range, is refused naming what is wrong."""
    generator = impl.PCG64()
    assert generator.state == {"bit_generator": "PCG64", "state": {"state": 0, "inc": 1}, "has_uint32": 0,
                               "uinteger": 0}
    for state in STATES:
        generator.state = state
        assert generator.state == state and generator.state is not generator.state
    good = STATES[1]
    with pytest.raises(TypeError, match="dict"):
        generator.state = [good]  # type: ignore[assignment]
    with pytest.raises(ValueError, match="PCG64"):
        generator.state = {**good, "bit_generator": "MT19937"}
    with pytest.raises(ValueError, match="PCG64"):
        np.random.PCG64().state = {**good, "bit_generator": "MT19937"}
    for bad, error in (({**good, "state": {"state": 2**128, "inc": 1}}, ValueError),
                       ({**good, "state": {"state": -1, "inc": 1}}, ValueError),
                       ({**good, "has_uint32": 2}, ValueError), ({**good, "uinteger": 2**32}, ValueError),
                       ({**good, "uinteger": "1"}, TypeError), ({**good, "state": {"state": 1}}, TypeError),
                       ({**good, "has_uint32": True}, TypeError)):
        with pytest.raises(error):
            generator.state = bad
    assert generator.state == STATES[-1]  # (nothing refused was taken)


def test_it_pickles_and_the_core_reads_it_as_a_bit_generator(impl: ModuleType) -> None:
    generator = impl.PCG64(STATES[3])
    copy = pickle.loads(pickle.dumps(generator))
    assert type(copy) is type(generator) and copy.state == generator.state
    assert copy.random_raw() == generator.random_raw()
    with generator.lock:  # (a lock the kernels take around their draws, not reentrant)
        pass


def test_the_core_and_the_twin_hold_the_same_generator() -> None:
    """The core's generator and its twin (``_spec.pcg64.PCG64``) are the same: the twin is
    the specification's, and the core's draws are the specification's too."""
    from sanggong import _core
    from sanggong._kernels import twin

    assert twin.PCG64 is pcg64.PCG64 and _core.PCG64 is not pcg64.PCG64
    for state in STATES:
        core, spec = _core.PCG64(state), pcg64.PCG64(state)
        assert [core.random_raw() for _ in range(50)] == [spec.random_raw() for _ in range(50)]


def test_the_core_generator_needs_no_numpy() -> None:
    """Seeded, set and drawn from, dealt from by the core, in a fresh interpreter that never
    imports NumPy."""
    code = ("import sys; import sanggong._core as c; from sanggong._spec import pcg64\n"
            "g = c.PCG64(pcg64.seeded_pcg64_state(2026)); deck = bytearray(range(52)); out = bytearray(5)\n"
            "c.draw(g, deck, 0, 5, out)\n"
            "print(json.dumps([list(out), g.random_raw(), 'numpy' in sys.modules]))")
    done = subprocess.run([sys.executable, "-c", f"import json\n{code}"], capture_output=True, text=True, check=True,
                          timeout=120)
    generator = np.random.PCG64(2026)
    from sanggong import _core

    deck, out = bytearray(range(52)), bytearray(5)
    _core.draw(generator, deck, 0, 5, out)
    assert json.loads(done.stdout) == [list(out), int(generator.random_raw()), False]


@pytest.mark.parametrize("seed", [0, 7, 2**256 - 1, Seed(5, spawn_key=(2, 3)), Seed((1, 2**80), pool_size=6)])
def test_a_games_seed_deals_numpys_rounds(impl: ModuleType, seed: int | Seed) -> None:
    """A ``Game`` of a seed deals from the kernels' own PCG64 (seeded without NumPy) the
    rounds, and records the shoe states, that numpy's PCG64 of the seed's ``SeedSequence``
    gives (the seed itself is recorded where an int re-creates it)."""
    sequence = seed.sequence() if isinstance(seed, Seed) else np.random.SeedSequence(seed)
    mine, theirs = Game(MACAU, seed=seed, recall=0), Game(MACAU, rng=np.random.PCG64(sequence), recall=0)
    assert type(mine._shoe.bit_generator) is impl.PCG64
    for _ in range(60):  # (past a shoe's end: the next shoe's state too)
        a, b = mine.play({"win:1": 100}), theirs.play({"win:1": 100})
        assert (a.shoe_state, a.banker, a.hands, a.burned, a.cut_card) == \
            (b.shoe_state, b.banker, b.hands, b.burned, b.cut_card)
        assert a.seed == (seed if isinstance(seed, int) else None) and b.seed is None
