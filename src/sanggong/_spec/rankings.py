"""Rankings: how a table orders three-card hands, as keys (see ``sanggong._spec``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from .cards import (
    N_CARDS,
    PP_FLUSH,
    PP_NONE,
    PP_PAIR,
    PP_STRAIGHT,
    PP_STRAIGHT_FLUSH,
    PP_THREE_OF_A_KIND,
    card_code,
    card_rank,
    card_suit,
    hand_faces,
    hand_points,
)

if TYPE_CHECKING:  # (NumPy is imported by the functions that use it: a command that ranks nothing starts without it)
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "HIGH_CARDS",
    "ORDERS",
    "SUIT_STRENGTH",
    "TIERS",
    "TIER_LABELS",
    "RankingFields",
    "class_key",
    "class_label",
    "fits_tier",
    "hand_key",
    "hand_level",
    "high_card_key",
    "triple_keys",
    "triple_pair_plus",
    "unpack_class_key",
    "unpack_hand_key"
]

class RankingFields(Protocol):
    """What the spec reads of a ranking (``sanggong.ranking.Ranking``)."""

    @property
    def order(self) -> str: ...
    @property
    def tiers(self) -> tuple[str, ...]: ...
    @property
    def high_card(self) -> str: ...


# --- rankings ---------------------------------------------------------------------------
# A ranking orders hands in three steps, each a field of ``sanggong.ranking.Ranking``
# (read here only through its attributes ``order``, ``tiers`` and ``high_card``):
#
# 1. **tiers**, strongest first: a hand that fits a tier beats every hand that fits a later
#    tier or none; a hand belongs to the first tier it fits.
# 2. below the tiers, the **order**: ``points_faces`` (points, then more faces; today's
#    Macau and online ranking), ``points`` (points only) or ``faces_points`` (more faces
#    first, then points).
# 3. hands still equal are separated by the **high card**: ``none`` (they tie), ``rank``
#    (the rank of each hand's highest card, K high .. A low) or ``rank_suit`` (that, then
#    the highest card's suit, spades > hearts > clubs > diamonds).
#
# ``hand_key`` is the comparison key (higher wins, equal ties); ``class_key`` the coarse
# class every bet but a comparison reads: (tier level, points, faces).

ORDERS = ("points_faces", "points", "faces_points")
TIERS = ("three_threes", "face_trips", "trips", "three_faces")
TIER_LABELS = {"three_threes": "333", "face_trips": "3P trips", "trips": "trips", "three_faces": "3P"}
HIGH_CARDS = ("none", "rank", "rank_suit")
SUIT_STRENGTH = (1, 0, 2, 3)  # by suit code (clubs, diamonds, hearts, spades): d < c < h < s


def fits_tier(tier: str, ranks: Sequence[int]) -> bool:
    """Whether three cards of these ranks (1 ace .. 13 king) fit a tier."""
    trips = ranks[0] == ranks[1] == ranks[2]
    if tier == "three_threes":
        return trips and ranks[0] == 3
    if tier == "face_trips":
        return trips and ranks[0] >= 11
    if tier == "trips":
        return trips
    if tier == "three_faces":
        return min(ranks) >= 11
    raise ValueError(f"unknown tier {tier!r}")


def hand_level(ranking: RankingFields, c0: int, c1: int, c2: int) -> int:
    """0 for a hand outside every tier, else ``len(tiers) - i`` for the first tier i it fits."""
    ranks = [card_rank(card_code(c)) for c in (c0, c1, c2)]
    for i, tier in enumerate(ranking.tiers):
        if fits_tier(tier, ranks):
            return len(ranking.tiers) - i
    return 0


def high_card_key(ranking: RankingFields, c0: int, c1: int, c2: int) -> int:
    """The highest card's strength: 0 (``none``), its rank less one (``rank``) or
    4 * (rank - 1) + suit strength (``rank_suit``)."""
    if ranking.high_card == "none":
        return 0
    codes = [card_code(c) for c in (c0, c1, c2)]
    if ranking.high_card == "rank":
        return max(card_rank(c) for c in codes) - 1
    return max(4 * (card_rank(c) - 1) + SUIT_STRENGTH[card_suit(c)] for c in codes)


def hand_key(ranking: RankingFields, c0: int, c1: int, c2: int) -> tuple[int, int, int]:
    """The comparison key of a hand: (tier level, order within the level, high card).
    Of two hands the one with the larger key wins; equal keys tie."""
    level = hand_level(ranking, c0, c1, c2)
    points, faces = hand_points(c0, c1, c2), hand_faces(c0, c1, c2)
    if level:
        base = 0  # every hand of a tier is alike but for its high card
    elif ranking.order == "points_faces":
        base = 4 * points + faces
    elif ranking.order == "points":
        base = points
    elif ranking.order == "faces_points":
        base = 10 * faces + points
    else:
        raise ValueError(f"unknown order {ranking.order!r}")
    return (level, base, high_card_key(ranking, c0, c1, c2))


def class_key(ranking: RankingFields, c0: int, c1: int, c2: int) -> tuple[int, int, int]:
    """The class of a hand that bets other than a comparison read: (tier level, points,
    faces). Under an order of points only, faces count only as three (3P) or not (0):
    nothing else reads them, and the classes stay as coarse as the ranking."""
    faces = hand_faces(c0, c1, c2)
    if ranking.order == "points" and faces < 3:
        faces = 0
    return (hand_level(ranking, c0, c1, c2), hand_points(c0, c1, c2), faces)


def class_label(ranking: RankingFields, key: tuple[int, int, int]) -> str:
    """Display string of a class: a tier's label (``3P``, ``trips``, ``3P trips``,
    ``333``), else ``3P``, ``2Pn``, ``Pn`` or ``n``."""
    level, points, faces = key
    if level:
        return TIER_LABELS[ranking.tiers[len(ranking.tiers) - level]]
    if faces == 3:
        return "3P"
    return ("", "P", "2P")[faces] + str(points)


def _triples() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The three card codes of all 140,608 ordered triples (index ``52 * (52 * c0 + c1) + c2``)."""
    import numpy as np

    codes = np.arange(N_CARDS, dtype=np.int64)
    c0, c1, c2 = (a.reshape(-1) for a in np.meshgrid(codes, codes, codes, indexing="ij"))
    return c0, c1, c2


def triple_keys(
    ranking: RankingFields,
    cards: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]] | None = None,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """``hand_key`` and ``class_key`` of all 140,608 ordered triples of card codes at once,
    each key packed in one integer in the same order (index ``52 * (52 * c0 + c1) + c2``),
    or of the triples ``cards`` (three arrays of codes) only. The same rules as the
    functions above, written with NumPy so that a ranking's tables take milliseconds; the
    test suite checks the two agree on every triple."""
    import numpy as np

    c0, c1, c2 = _triples() if cards is None else cards
    r0, r1, r2 = c0 // 4 + 1, c1 // 4 + 1, c2 // 4 + 1
    pts = np.where(r0 <= 9, r0, 0) + np.where(r1 <= 9, r1, 0) + np.where(r2 <= 9, r2, 0)
    points = pts % 10
    faces = (r0 >= 11).astype(np.int64) + (r1 >= 11) + (r2 >= 11)
    trips = (r0 == r1) & (r1 == r2)
    fits = {
        "three_threes": trips & (r0 == 3),
        "face_trips": trips & (r0 >= 11),
        "trips": trips,
        "three_faces": faces == 3,
    }
    level = np.zeros_like(c0)
    for i, tier in reversed(list(enumerate(ranking.tiers))):  # the first tier fitted wins
        level = np.where(fits[tier], len(ranking.tiers) - i, level)
    base = {"points_faces": 4 * points + faces, "points": points, "faces_points": 10 * faces + points}[ranking.order]
    base = np.where(level > 0, 0, base)
    if ranking.high_card == "none":
        high = np.zeros_like(c0)
    elif ranking.high_card == "rank":
        high = np.maximum(np.maximum(r0, r1), r2) - 1
    else:
        strength = np.array(SUIT_STRENGTH)
        k0, k1, k2 = (4 * (r - 1) + strength[c % 4] for r, c in ((r0, c0), (r1, c1), (r2, c2)))
        high = np.maximum(np.maximum(k0, k1), k2)
    if ranking.order == "points":
        faces = np.where(faces == 3, 3, 0)
    return (level * 64 + base) * 64 + high, (level * 16 + points) * 4 + faces


def triple_pair_plus() -> npt.NDArray[np.int64]:
    """``pair_plus3`` of all 140,608 ordered triples at once (same index as
    ``triple_keys``), with NumPy; checked against ``pair_plus3`` by the test suite."""
    import numpy as np

    c = _triples()
    ranks = np.sort(np.stack([x // 4 + 1 for x in c]), axis=0)
    lo, mid, hi = ranks
    flush = (c[0] % 4 == c[1] % 4) & (c[1] % 4 == c[2] % 4)
    distinct = 1 + (mid != lo) + (hi != mid)
    straight = (distinct == 3) & ((hi - lo == 2) | ((lo == 1) & (mid == 12) & (hi == 13)))
    out = np.select(
        [distinct == 1, straight & flush, straight, flush, distinct == 2],
        [PP_THREE_OF_A_KIND, PP_STRAIGHT_FLUSH, PP_STRAIGHT, PP_FLUSH, PP_PAIR],
        PP_NONE,
    )
    return out.astype(np.int64)


def unpack_hand_key(packed: int) -> tuple[int, int, int]:
    return (packed // 4096, packed // 64 % 64, packed % 64)


def unpack_class_key(packed: int) -> tuple[int, int, int]:
    return (packed // 64, packed // 4 % 16, packed % 4)


