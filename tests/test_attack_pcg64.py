"""An attacker's inputs to the kernels' own PCG64 (the core's ``csrc/pcg64.pxi`` and its twin
``_spec.pcg64.PCG64``) and to the seeds that set it (``seeds.recorded_seed``): ints that are
not what they say (an ``int`` subclass whose ``__int__``/``__index__`` or comparisons
disagree with its value), states numpy's setter refuses, and threads. numpy's own PCG64 is
the independent computation: what the kernels' take, numpy takes the same way, and draws
the same words from."""

from __future__ import annotations

from enum import IntEnum
from types import MappingProxyType, ModuleType
from typing import Any

import numpy as np
import pytest

from sanggong import MACAU, Game
from sanggong.seeds import Seed, check_seed, pcg64_state, recorded_seed

pytestmark = pytest.mark.kernels


class Lying(int):
    """An int whose conversions give another number than its value."""

    def __int__(self) -> int:
        return 2**200

    def __index__(self) -> int:
        return 2**200


class Negative(int):
    """A negative int that says it is not below anything."""

    def __lt__(self, other: object) -> bool:
        return False

    def __le__(self, other: object) -> bool:
        return True

    def __gt__(self, other: object) -> bool:
        return True

    def __ge__(self, other: object) -> bool:
        return True

    def bit_length(self) -> int:
        return 3


def _good() -> dict[str, Any]:
    return np.random.PCG64(2026).state


def _numpy_at(state: Any) -> np.random.PCG64:
    generator = np.random.PCG64()
    generator.state = state
    return generator


@pytest.mark.parametrize("field", ["state", "inc", "has_uint32", "uinteger"])
def test_an_int_subclass_is_taken_at_its_value(impl: ModuleType, field: str) -> None:
    """An int subclass is its value, whatever its conversions say: taken as numpy takes it
    (numpy's setter does arithmetic on it), never as what ``__int__`` returns (the core
    overflowed converting it, the twin kept a 200-bit state)."""
    state = _good()
    value = {"state": 5, "inc": 7, "has_uint32": 1, "uinteger": 9}[field]
    if field in ("state", "inc"):
        state["state"][field] = Lying(value)
    else:
        state[field] = Lying(value)
    mine, theirs = impl.PCG64(state), _numpy_at(state)
    assert mine.state == theirs.state
    assert all(type(v) is int for v in (*mine.state["state"].values(), mine.state["has_uint32"],
                                          mine.state["uinteger"]))
    raw = theirs.ctypes
    assert [mine.random_raw() for _ in range(5)] == [raw.next_uint64(raw.state) for _ in range(5)]


@pytest.mark.parametrize("field", ["state", "inc", "has_uint32", "uinteger"])
def test_a_negative_int_that_hides_it_is_refused(impl: ModuleType, field: str) -> None:
    state = _good()
    if field in ("state", "inc"):
        state["state"][field] = Negative(-5)
    else:
        state[field] = Negative(-5)
    generator = impl.PCG64()
    with pytest.raises(ValueError, match=field):
        generator.state = state
    assert generator.state == impl.PCG64().state  # (nothing taken)


def test_a_state_out_of_range_is_named_however_long(impl: ModuleType) -> None:
    """An int of any size, or a name that is no string, is refused naming the field (an int
    past Python's 4300 digits once raised the digits limit's error from the message)."""
    generator = impl.PCG64()
    for value in (10**5000, -(10**5000), 2**128):
        state = _good()
        state["state"]["inc"] = value
        with pytest.raises(ValueError, match="state's inc must be in 0"):
            generator.state = state
    for name in (np.array(["PCG64", "PCG64"]), b"PCG64", None):
        with pytest.raises(ValueError, match="PCG64 PRNG"):
            generator.state = {**_good(), "bit_generator": name}
    assert generator.state == impl.PCG64().state


class Seven(IntEnum):
    SEED = 7


def _dealt(game: Game, rounds: int = 3) -> list[Any]:
    return [(r.banker, r.hands, r.burned, r.cut_card, r.shoe_state) for r in
            (game.play({"win:1": 100}) for _ in range(rounds))]


@pytest.mark.parametrize("seed", [Lying(5), Seven.SEED, np.uint64(9), 2**256 - 1])
def test_a_seed_is_recorded_as_its_exact_int(seed: Any) -> None:
    """An int subclass (an IntEnum, one whose ``__int__`` lies) or a numpy int is recorded
    as the plain int it is, and a Game deals what numpy's PCG64 of that int's
    SeedSequence deals (a lying int was recorded as itself: simulate's numpy seeding hashed
    its ``__int__``, the Game's own seeding its value)."""
    recorded = recorded_seed(seed)
    assert type(recorded) is int and type(check_seed(seed)[1]) is int
    assert pcg64_state(recorded) == np.random.PCG64(np.random.SeedSequence(recorded)).state
    mine = Game(MACAU, seed=seed, recall=0)
    assert type(mine.seed) is int
    theirs = Game(MACAU, rng=np.random.PCG64(np.random.SeedSequence(recorded)), recall=0)
    assert _dealt(mine) == _dealt(theirs)


def test_a_negative_int_seed_that_hides_it_is_refused() -> None:
    """(it was recorded as it came, and seeding it then never ended: its words were
    shifted right for ever, -1 >> 32 being -1)"""
    with pytest.raises(ValueError, match="seed must be an int in 0"):
        recorded_seed(Negative(-5))


@pytest.mark.parametrize("parts", [
    (np.uint64(5), (), 4, 0), (np.uint64(5), (np.int64(1),), 4, 0), ((np.uint8(5), 3), (), np.int32(5), 0),
    (Seven.SEED, (Seven.SEED,), 4, np.uint16(2)), (Lying(5), (Lying(2),), 6, 0),
])
def test_a_seeds_parts_are_kept_as_exact_ints(parts: tuple[Any, ...]) -> None:
    """A ``Seed`` of numpy ints or int subclasses holds their exact ints: it writes its
    JSON, seeds the kernels' PCG64 without NumPy as numpy's SeedSequence of it does, and a
    Game deals from it (a numpy int's entropy was refused by the own seeding, TypeError,
    once the Seed had been taken, and broke its ``to_dict``)."""
    seed = Seed(*parts)
    held = (seed.entropy if isinstance(seed.entropy, tuple) else (seed.entropy,), seed.spawn_key,
            (seed.pool_size, seed.n_children_spawned))
    assert all(type(v) is int for group in held for v in group)
    assert Seed.from_dict(seed.to_dict()) == seed
    recorded = recorded_seed(seed)
    sequence = recorded.sequence() if isinstance(recorded, Seed) else np.random.SeedSequence(recorded)
    assert pcg64_state(recorded) == np.random.PCG64(sequence).state
    assert _dealt(Game(MACAU, seed=seed, recall=0)) == _dealt(Game(MACAU, rng=np.random.PCG64(sequence), recall=0))


def test_a_state_is_a_dict_as_numpys_setter_takes(impl: ModuleType) -> None:
    """A mapping that is no dict is refused, as numpy's setter refuses it (it was taken);
    a dict subclass is taken, read once, as numpy takes it."""
    good = _good()
    for value in (MappingProxyType(good), MappingProxyType({**good, "state": dict(good["state"])})):
        with pytest.raises(TypeError, match="dict"):
            _numpy_at(value)
        with pytest.raises(TypeError, match="dict"):
            impl.PCG64(value)

    class Sub(dict):  # type: ignore[type-arg]
        pass

    assert impl.PCG64(Sub(good)).state == _numpy_at(Sub(good)).state == good


def test_seeding_refuses_what_numpys_seed_sequence_refuses() -> None:
    """Entropy that is a set (no order: the own seeding hashed it in its iteration order)
    and a negative count of words (the own seeding gave none) are refused, as numpy's
    ``SeedSequence`` refuses them; a tuple, a nested list and any iterable spawn key are
    taken as numpy takes them."""
    from sanggong._spec import pcg64

    for entropy in ({1, 2}, frozenset({3}), iter([1, 2])):
        with pytest.raises(TypeError):
            np.random.SeedSequence(entropy)
        with pytest.raises(TypeError):
            pcg64.seed_words(entropy, 4)
    with pytest.raises(ValueError):
        np.random.SeedSequence(5).generate_state(-1, np.uint64)
    with pytest.raises(ValueError, match="n_words"):
        pcg64.seed_words(5, -1)
    for entropy, key in (((1, 2), ()), ([1, [2, 3]], ()), (5, [1, 2]), (5, {7: 0})):
        sequence = np.random.SeedSequence(entropy, spawn_key=key)
        assert pcg64.seed_words(entropy, 3, iter(key)) == sequence.generate_state(3, np.uint64).tolist()


def test_a_rankings_tables_cannot_be_changed_under_the_core() -> None:
    """The tables the kernels read (``RankingTables.buffers``, and the NumPy views of them)
    are read-only: a write is refused, and no buffer can be resized (an ``array.array``
    extended after the core had taken its address moved, and the core then read freed
    memory: a Game's next rounds hung)."""
    from sanggong import DEFAULT_RANKING, Ranking, _kernels
    from sanggong.ranking import tables_for

    for ranking in (DEFAULT_RANKING, Ranking(high_card="rank_suit")):
        tables = tables_for(ranking)
        _kernels.lookups(tables)
        for name in tables.buffers._fields:
            buffer = getattr(tables.buffers, name)
            with pytest.raises((TypeError, AttributeError)):
                buffer[0] = 1
            with pytest.raises((TypeError, AttributeError)):
                buffer.extend([0] * 1000)
            view = getattr(tables, name)
            assert not view.flags.writeable
            with pytest.raises(ValueError):
                view[0] = 1


@pytest.mark.parametrize("bad", [31, 255])
def test_shoe_codes_refuse_a_class_out_of_range(impl: ModuleType, bad: int) -> None:
    """A round whose hand class is out of range is refused, naming it (its outcome codes
    were left zero, and returned as the round's: another outcome, silently)."""
    from sanggong import _kernels
    from sanggong.records import shoe_codes

    arrays = [_kernels.zeros((3, MACAU.hands), code) for code in ("B", "H", "B")]
    good = shoe_codes(MACAU, {}, ("tie:1", "win:1"), *arrays, 3)
    assert good[0] == good[1] == good[2] and len(good[0]) == 2
    arrays[0][1, 0] = bad
    with pytest.raises(ValueError, match="round 1 of the shoe"):
        shoe_codes(MACAU, {}, ("tie:1", "win:1"), *arrays, 3)


@pytest.mark.parametrize("text", ["\u0665", "\uff15", "\u00b2", "1\u0660", " 5", "+5", "5_0"])
def test_a_seeds_json_reads_ascii_digits_alone(text: str) -> None:
    """A ``Seed``'s JSON is read strictly: an integer of ASCII digits alone (another
    script's digits were read as the number: Arabic-Indic five as 5, and a superscript two
    raised int()'s own error)."""
    for field in ("entropy", "n_children_spawned"):
        data = {**Seed(5).to_dict(), field: text}
        with pytest.raises(ValueError, match="seed: expected an integer written as a string"):
            Seed.from_dict(data)
