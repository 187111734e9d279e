"""Workloads shared by the pytest-benchmark suite and the report script.

``numpy_evaluate`` is the baseline: the best hand evaluator we think a user could write
with NumPy alone, without sanggong. It uses the same lookup-table ideas as our core
(a per-card key summed into a class table; rank indices and a suited flag indexing a
Pair Plus table), builds its tables with its own plain Python, and is checked against
sanggong before it is timed.
"""

from __future__ import annotations

from itertools import product

import numpy as np
import numpy.typing as npt


def random_one_deck_hands(n: int, seed: int = 1) -> npt.NDArray[np.uint8]:
    """``n`` hands of three distinct cards each, uniform over one deck, as uint8 codes."""
    rng = np.random.default_rng(seed)
    c0 = rng.integers(0, 52, n)
    c1 = rng.integers(0, 51, n)
    c1 += c1 >= c0
    lo, hi = np.minimum(c0, c1), np.maximum(c0, c1)
    c2 = rng.integers(0, 50, n)
    c2 += c2 >= lo
    c2 += c2 >= hi
    return np.stack([c0, c1, c2], axis=1).astype(np.uint8)


def _baseline_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    ranks = [c // 4 + 1 for c in range(52)]
    key = np.array([(r if r <= 9 else 0) + 32 * (r >= 11) for r in ranks], dtype=np.uint8)
    rank_by_key = np.zeros(128, dtype=np.uint8)
    for faces, total in product(range(4), range(28)):
        rank_by_key[total + 32 * faces] = 30 if faces == 3 else 3 * (total % 10) + faces
    pp = np.zeros(13 * 13 * 13 * 2, dtype=np.uint8)
    straights = {frozenset({a, a + 1, a + 2}) for a in range(13)} | {frozenset({11, 12, 0})}
    for r0, r1, r2 in product(range(13), repeat=3):
        distinct = len({r0, r1, r2})
        straight = frozenset({r0, r1, r2}) in straights and distinct == 3
        base = ((r0 * 13 + r1) * 13 + r2) * 2
        if distinct == 1:
            pp[base : base + 2] = 4
        else:
            pp[base] = 3 if straight else (1 if distinct == 2 else 0)
            pp[base + 1] = 5 if straight else 2
    return key, rank_by_key, pp


KEY, RANK_BY_KEY, PAIR_PLUS = _baseline_tables()


def numpy_evaluate(hands: npt.NDArray[np.uint8]) -> tuple[np.ndarray, np.ndarray]:
    """Class numbers and Pair Plus categories of an (n, 3) uint8 array, NumPy only."""
    c0, c1, c2 = hands[:, 0], hands[:, 1], hands[:, 2]
    ranks = RANK_BY_KEY[KEY[c0] + KEY[c1] + KEY[c2]]
    r0, r1, r2 = (c0 >> 2).astype(np.uint16), (c1 >> 2).astype(np.uint16), c2 >> 2
    s0, s1, s2 = c0 & 3, c1 & 3, c2 & 3
    suited = (s0 == s1) & (s1 == s2)
    idx = ((r0 * 13 + r1) * 13 + r2) * 2 + suited
    return ranks, PAIR_PLUS[idx]


def reference_evaluate(hands: npt.NDArray[np.uint8]) -> tuple[np.ndarray, np.ndarray]:
    from sanggong._kernels import twin as _pykernels
    from sanggong.ranking import DEFAULT_RANKING, tables_for

    ranks = np.empty(len(hands), dtype=np.uint8)
    pp = np.empty(len(hands), dtype=np.uint8)
    _pykernels.evaluate_batch(_pykernels.Lookups(tables_for(DEFAULT_RANKING)), hands, ranks, pp)
    return ranks, pp


def same_shape_default_ranking(rules):  # type: ignore[no-untyped-def]
    """``rules`` with the default ranking instead of its own (a banker game keeps its
    multipliers, with the default's one tier, three faces, at its own three faces' one):
    the table whose speed a non-default ranking is held to."""
    from sanggong.ranking import DEFAULT_RANKING

    if rules.variant != "banker_game":
        return rules.replace(name=f"{rules.name} (default ranking)", ranking=DEFAULT_RANKING)
    multipliers = {k: v for k, v in rules.multipliers.items() if k.isdigit()}
    multipliers["three_faces"] = rules.multipliers.get("three_faces", max(rules.multipliers.values()))
    return rules.replace(name=f"{rules.name} (default ranking)", ranking=DEFAULT_RANKING, multipliers=multipliers)


def numpy_permutation_deal(rng: np.random.Generator, rounds: int) -> np.ndarray:
    """Online rounds dealt the way a user would with NumPy: a permutation per round."""
    out = np.empty((rounds, 13), dtype=np.uint8)
    for r in range(rounds):
        out[r] = rng.permutation(52)[:13]
    return out


def numpy_permuted_deal(rng: np.random.Generator, rounds: int) -> np.ndarray:
    """The same, vectorised: shuffle every row of a (rounds, 52) table at once."""
    decks = np.broadcast_to(np.arange(52, dtype=np.uint8), (rounds, 52))
    return rng.permuted(decks, axis=1)[:, :13]


def card_multiset_joint(ranking: object, counts52: npt.NDArray[np.int64]) -> npt.NDArray[np.uint64]:
    """A suit ranking's pair counts as they were counted before issue 23: over every pair of
    the 24,804 multisets of the 52 cards (each with its full rank, suit included), by the
    core's pair loop. Kept only to be timed beside the analysis (and checked equal to it)."""
    from sanggong import _core
    from sanggong import _spec as ref
    from sanggong._counting import pack as _pack
    from sanggong.ranking import tables_for

    tables = tables_for(ranking)  # type: ignore[arg-type]
    sets = _pack(ref.kind_multisets(ref.N_CARDS))
    cards = np.repeat(sets[:, :, 0].ravel(), sets[:, :, 1].ravel()).reshape(-1, 3).astype(np.int64)
    rid = tables.packed_of_triple[(cards[:, 0] * 52 + cards[:, 1]) * 52 + cards[:, 2]] >> 3
    held = ((sets[:, :, 1] <= counts52[sets[:, :, 0]]) | (sets[:, :, 1] == 0)).all(axis=1)
    out = np.zeros(tables.n_classes ** 2 * 3, dtype=np.uint64)
    _core.joint_class_counts(counts52, np.ascontiguousarray(sets[held]), tables.cls[rid][held].astype(np.uint8),
                             tables.rank[rid][held].astype(np.uint16), tables.n_classes, out)
    return out


def write_macau_log(path: object, rounds: int, seed: int = 7, key: bytes | None = None) -> None:
    """A Macau (8 decks, 7 positions) log of ``rounds`` rounds as ``sanggong.Game`` writes
    it, two players betting Win, Odd and Tie (stakes carried by ties included): the log
    ``verify`` and ``detect`` are timed on."""
    from sanggong import MACAU, Game

    game = Game(MACAU, seed=seed, recall=0, key=key)
    slip = {"ann": {"win:1": 100, "odd": 20}, "bo": {"win:3": 50, "tie:3": 10}}
    with open(str(path), "w", encoding="utf-8") as log:
        for _ in range(rounds):
            log.write(game.play(slip).to_json() + "\n")
