"""Shuffling and dealing as the rules prescribe, games with records and replays, and
settlement of the cards a physical shoe actually dealt.

Randomness comes from a numpy ``BitGenerator``: pass ``seed`` (an int or a
``SeedSequence``; None draws fresh OS entropy, which is recorded so that the game can be
replayed) or ``rng`` (a ``Generator`` or ``BitGenerator`` of your own). Cards are drawn by
a lazy Fisher-Yates shuffle, so every order stays equally likely and a round costs only
the cards it takes; its unbiased bounded integers come several from each 64-bit word
(Lemire's method, batched: see ``sanggong._reference.draw``). The compiled core and the
pure-Python reference deal the same cards, bit for bit, for the bit generators whose raw
output is their 64-bit output: PCG64 (the default), PCG64DXSM, Philox and SFC64 (MT19937's
raw output is 32-bit: the compiled core works with it, but the reference does not
reproduce it).

**Real money.** A cryptographically secure generator plugs in as any ``BitGenerator``:
e.g. ``randomgen``'s ``AESCounter`` or ``ChaCha`` (``Game(rules, rng=ChaCha(key=...))``),
or a ``numpy.random.BitGenerator`` you write around your own certified source. sanggong
only calls its ``next_uint64`` (and ``random_raw`` in the reference).

>>> from sanggong import ONLINE
>>> game = Game(ONLINE, seed=7)
>>> record = game.play({"win:1": 100, "pair_plus:banker": 10})
>>> record.round, record.head_card is not None, len(record.hands)
(1, True, 3)
>>> Game.replay(ONLINE, seed=7, round=1, bets=record.bets) == record
True
"""

from __future__ import annotations

import json
from collections import Counter, deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np

from . import _impl
from .cards import Card, CardLike, parse_card
from .hands import HandValue, evaluate
from .rules import RuleSet
from .settlement import Money, Settlement, TableSession

__all__ = ["Deal", "Game", "ObservedTable", "RoundRecord", "assign", "first_hand"]


# --- dealing procedures -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards of one round as they were assigned: burned cards (the head card
    included, when it is burned), the head card, the banker's hand and each position's."""

    burned: tuple[Card, ...]
    head_card: Card | None
    banker: tuple[Card, Card, Card]
    hands: Mapping[int, tuple[Card, Card, Card]]


def first_hand(head_card: Card) -> int:
    """The hand the online head card sends the first three cards to: 0 the banker, i
    player i. A, 5, 9, K start at the banker; 2, 6, 10 at player 1; 3, 7, J at player 2;
    4, 8, Q at player 3 (counting counter-clockwise from the banker)."""
    return (int(head_card.rank) - 1) % 4


def round_length(rules: RuleSet, burn: int) -> int:
    """How many cards a round takes out of the box or shoe after ``burn`` burned cards."""
    return burn + (1 if rules.head_card and rules.head_card_burned else 0) + 3 * rules.hands


def assign(rules: RuleSet, cards: Sequence[Card], burn: int) -> Deal:
    """Assign a round's cards, in the order they came out, to the hands.

    Macau: ``burn`` cards are burned, then the cards go from position 1 clockwise, the
    banker last, one card at a time round the table (or three at a time). Online: the head
    card is turned up (and burned, by default); the hand it names gets the next three
    cards, and so on round the cycle banker, player 1, 2, 3.
    """
    if len(cards) != round_length(rules, burn):
        raise ValueError(f"a round takes {round_length(rules, burn)} cards here, got {len(cards)}")
    burned = list(cards[:burn])
    rest = list(cards[burn:])
    head = None
    order = [*range(1, rules.positions + 1), 0]  # Macau: position 1 first, banker last
    if rules.head_card:
        head = rest[0]
        first = first_hand(head)
        order = [(first + k) % rules.hands for k in range(rules.hands)]
        if rules.head_card_burned:
            burned.append(rest.pop(0))
        # else the head card stays: it is the first card of the first hand
    dealt: dict[int, list[Card]] = {h: [] for h in order}
    if rules.head_card or not rules.deal_one_at_a_time:
        for k, h in enumerate(order):
            dealt[h] = rest[3 * k : 3 * k + 3]
    else:
        for k, card in enumerate(rest):
            dealt[order[k % len(order)]].append(card)
    hands = {h: (c[0], c[1], c[2]) for h, c in sorted(dealt.items()) if h}
    b = dealt[0]
    return Deal(tuple(burned), head, (b[0], b[1], b[2]), hands)


# --- the shoe --------------------------------------------------------------------------


class _Shoe:
    """Cards in a box or shoe, drawn by lazy Fisher-Yates from a bit generator."""

    def __init__(self, rules: RuleSet, bit_generator: np.random.BitGenerator) -> None:
        self.rules = rules
        self.bit_generator = bit_generator
        self.cards = np.zeros(52 * rules.decks, dtype=np.uint8)
        self.pos = 0
        self.cut = 0  # cards before the cut card
        self.number = 0
        self.rounds = 0  # rounds dealt from this shoe
        self.last = True  # the next round needs a shuffle
        self.state: Mapping[str, Any] = {}

    def shuffle(self) -> None:
        """A fresh shoe: cards back in code order (the draws do the shuffling), the cut
        card placed uniformly in the rule set's range from the end (a shoe only)."""
        self.state = self.bit_generator.state
        self.cards[:] = np.arange(len(self.cards)) % 52
        self.pos = 0
        self.number += 1
        self.rounds = 0
        if not self.rules.fresh_deck_each_round:
            lo, hi = self.rules.cut_card_range
            from_end = lo + _impl.kernels.bounded(self.bit_generator, hi - lo + 1)
            self.cut = len(self.cards) - from_end
        self.last = False

    def deal(self) -> tuple[Deal, int]:
        """Shuffle when due, then take one round's cards; return the deal and the cut
        card's place from the end (0 where there is none)."""
        if self.last or self.rules.fresh_deck_each_round:
            self.shuffle()
        burn = self.rules.burn_first if self.rounds == 0 else self.rules.burn_per_round
        count = round_length(self.rules, burn)
        out = np.empty(count, dtype=np.uint8)
        _impl.kernels.draw(self.bit_generator, self.cards, self.pos, count, out)
        start, self.pos = self.pos, self.pos + count
        self.rounds += 1
        if self.rules.fresh_deck_each_round:
            self.last = True
            cut = 0
        else:  # the cut card comes out during this round: the shoe's last
            self.last = start <= self.cut < self.pos
            cut = len(self.cards) - self.cut
        return assign(self.rules, [Card(c) for c in out.tolist()], burn), cut


# --- records ----------------------------------------------------------------------------

_MONEY_KINDS: dict[str, type] = {"int": int, "decimal": Decimal, "fraction": Fraction}


def _money_kind(bets: Mapping[str, Money]) -> str:
    kinds = {type(v) for v in bets.values()}
    for name, kind in _MONEY_KINDS.items():
        if kinds == {kind}:
            return name
    return "int"


def _money_out(value: Money) -> int | str:
    return value if isinstance(value, int) else str(value)


@dataclass(frozen=True)
class RoundRecord:
    """Everything about one round: where it came from, its cards, hands, bets and results.

    ``shoe_state`` is the bit generator's state when this round's shoe (or deck) was
    shuffled and ``round_in_shoe`` the round's place in it: with them the round can be
    dealt again exactly (``Game.replay_record``). Both are None for observed rounds.
    """

    rules: str
    round: int
    shoe: int
    round_in_shoe: int
    burned: tuple[Card, ...]
    head_card: Card | None
    banker: HandValue
    hands: Mapping[int, HandValue]
    bets: Mapping[str, Money]
    results: tuple[dict[str, Any], ...]
    carried: Mapping[str, Money]
    last_of_shoe: bool
    cut_card: int | None = None
    seed: int | None = None
    shoe_state: Mapping[str, Any] | None = field(default=None, compare=False)

    @property
    def winners(self) -> dict[int, str]:
        """Each position against the banker: ``"win"``, ``"tie"`` or ``"lose"``."""
        words = {1: "win", 0: "tie", -1: "lose"}
        b = self.banker.rank
        return {p: words[(h.rank > b) - (h.rank < b)] for p, h in self.hands.items()}

    def to_dict(self) -> dict[str, Any]:
        def hand(h: HandValue) -> dict[str, Any]:
            return {"cards": [str(c) for c in h.cards], "label": h.label, "pair_plus": h.pair_plus.label}

        return {
            "rules": self.rules,
            "round": self.round,
            "shoe": self.shoe,
            "round_in_shoe": self.round_in_shoe,
            "seed": self.seed,
            "cut_card": self.cut_card,
            "last_of_shoe": self.last_of_shoe,
            "head_card": None if self.head_card is None else str(self.head_card),
            "burned": [str(c) for c in self.burned],
            "banker": hand(self.banker),
            "hands": {str(p): hand(h) for p, h in self.hands.items()},
            "winners": {str(p): w for p, w in self.winners.items()},
            "money": _money_kind(self.bets),
            "bets": {k: _money_out(v) for k, v in self.bets.items()},
            "results": list(self.results),
            "carried": {k: _money_out(v) for k, v in self.carried.items()},
            "shoe_state": None if self.shoe_state is None else _jsonable(self.shoe_state),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RoundRecord:
        kind = _MONEY_KINDS[data.get("money", "int")]

        def money(value: int | str) -> Money:
            return kind(value)  # type: ignore[no-any-return]

        return cls(
            rules=data["rules"],
            round=data["round"],
            shoe=data["shoe"],
            round_in_shoe=data["round_in_shoe"],
            burned=tuple(Card.parse(c) for c in data["burned"]),
            head_card=None if data["head_card"] is None else Card.parse(data["head_card"]),
            banker=evaluate(data["banker"]["cards"]),
            hands={int(p): evaluate(h["cards"]) for p, h in data["hands"].items()},
            bets={k: money(v) for k, v in data["bets"].items()},
            results=tuple(data["results"]),
            carried={k: money(v) for k, v in data["carried"].items()},
            last_of_shoe=data["last_of_shoe"],
            cut_card=data.get("cut_card"),
            seed=data.get("seed"),
            shoe_state=data.get("shoe_state"),
        )

    @classmethod
    def from_json(cls, text: str) -> RoundRecord:
        return cls.from_dict(json.loads(text))


def _jsonable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, np.ndarray):
        return {"__ndarray__": value.tolist(), "dtype": str(value.dtype)}
    if isinstance(value, np.integer):
        return int(value)
    return value


def _state(value: Any) -> Any:
    if isinstance(value, Mapping):
        if "__ndarray__" in value:
            return np.array(value["__ndarray__"], dtype=value["dtype"])
        return {k: _state(v) for k, v in value.items()}
    return value


def _record(
    rules: RuleSet, deal: Deal, result: Settlement | None, bets: Mapping[str, Money], *,
    round_: int, shoe: int, round_in_shoe: int, last: bool, cut: int | None, seed: int | None,
    state: Mapping[str, Any] | None, carried: Mapping[str, Money],
) -> RoundRecord:
    return RoundRecord(
        rules=rules.name,
        round=round_,
        shoe=shoe,
        round_in_shoe=round_in_shoe,
        burned=deal.burned,
        head_card=deal.head_card,
        banker=evaluate(deal.banker),
        hands={p: evaluate(c) for p, c in deal.hands.items()},
        bets=dict(bets),
        results=tuple(r.to_dict() for r in result.results) if result else (),
        carried=dict(carried),
        last_of_shoe=last,
        cut_card=cut or None,
        seed=seed,
        shoe_state=state,
    )


# --- a game -------------------------------------------------------------------------------


def _bit_generator(seed: int | np.random.SeedSequence | None, rng: object) -> tuple[np.random.BitGenerator, int | None]:
    if rng is not None:
        if seed is not None:
            raise TypeError("give a seed or an rng, not both")
        if isinstance(rng, np.random.Generator):
            return rng.bit_generator, None
        if isinstance(rng, np.random.BitGenerator):
            return rng, None
        raise TypeError(f"rng must be a numpy Generator or BitGenerator, not {type(rng).__name__}")
    sequence, entropy = seed_sequence(seed)
    return np.random.PCG64(sequence), entropy


def seed_sequence(seed: int | np.random.SeedSequence | None) -> tuple[np.random.SeedSequence, int | None]:
    """The ``SeedSequence`` of a seed, and the int that recreates it (None drew fresh OS
    entropy, which is returned so that the run can be repeated; a spawned sequence has
    no such int)."""
    if isinstance(seed, bool) or not (seed is None or isinstance(seed, int | np.random.SeedSequence)):
        raise TypeError(f"seed must be an int, a SeedSequence or None, not {seed!r}")
    sequence = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    entropy = sequence.entropy if isinstance(sequence.entropy, int) and not sequence.spawn_key else None
    return sequence, entropy


class Game:
    """A table that owns its shoe and its random numbers and plays round after round.

    :param rules: the rule set (already checked to deal a round from its cards).
    :param seed: an int or ``SeedSequence``; None draws OS entropy (kept in ``seed``).
    :param rng: a numpy ``Generator`` or ``BitGenerator`` to draw from instead.
    :param recall: how many round records the game keeps (``records``).
    """

    def __init__(
        self,
        rules: RuleSet,
        seed: int | np.random.SeedSequence | None = None,
        *,
        rng: np.random.Generator | np.random.BitGenerator | None = None,
        recall: int = 10,
    ) -> None:
        if not isinstance(rules, RuleSet):
            raise TypeError(f"rules must be a RuleSet, not {type(rules).__name__}")
        if isinstance(recall, bool) or not isinstance(recall, int) or recall < 0:
            raise ValueError(f"recall must be a count >= 0, got {recall!r}")
        self.rules = rules
        bit_generator, self.seed = _bit_generator(seed, rng)
        self._shoe = _Shoe(rules, bit_generator)
        self._session = TableSession(rules)
        self._records: deque[RoundRecord] = deque(maxlen=recall)
        self.round = 0

    @property
    def records(self) -> tuple[RoundRecord, ...]:
        """The last ``recall`` rounds, oldest first."""
        return tuple(self._records)

    @property
    def carried(self) -> Mapping[str, Money]:
        """Stakes on the table from the last round."""
        return self._session.carried

    def deal(self) -> Deal:
        """Deal a round without bets (kept in no record)."""
        deal, _ = self._shoe.deal()
        self.round += 1
        return deal

    def play(self, bets: Mapping[str, Money] | None = None) -> RoundRecord:
        """Deal a round, settle ``bets`` (plus any carried stakes) and record it."""
        slip = self._session.slip(bets or {})  # checked before any card comes out
        deal, cut = self._shoe.deal()
        state = self._shoe.state  # as the shoe was shuffled: enough to deal this round again
        self.round += 1
        result = self._session.settle_slip(deal.banker, deal.hands, slip) if slip else None
        record = _record(
            self.rules, deal, result, slip, round_=self.round, shoe=self._shoe.number,
            round_in_shoe=self._shoe.rounds, last=self._shoe.last, cut=cut, seed=self.seed,
            state=state, carried=self._session.carried,
        )
        self._records.append(record)
        return record

    @classmethod
    def replay(
        cls, rules: RuleSet, seed: int, round: int, bets: Mapping[str, Money] | None = None
    ) -> RoundRecord:
        """Round ``round`` (from 1) of the game seeded with ``seed``, dealt again and
        settled with ``bets`` (give the record's ``bets`` to re-settle it as it was)."""
        if isinstance(round, bool) or not isinstance(round, int) or round < 1:
            raise ValueError(f"round must be 1 or more, got {round!r}")
        game = cls(rules, seed, recall=1)
        for _ in range(round - 1):
            game._shoe.deal()
        game.round = round - 1
        return game.play(bets)  # nothing is carried into it: the earlier rounds had no bets

    @classmethod
    def replay_record(cls, rules: RuleSet, record: RoundRecord) -> RoundRecord:
        """Deal ``record``'s round again from its shoe's saved state and settle its bets:
        the result equals the record. Works for any bit generator, seeded or not."""
        if record.shoe_state is None:
            raise ValueError("this record has no shoe state (an observed round): nothing to replay")
        if record.rules != rules.name:
            raise ValueError(f"the record is of rules {record.rules!r}, not {rules.name!r}")
        state = _state(record.shoe_state)
        bit_generator = getattr(np.random, state["bit_generator"])()
        bit_generator.state = state
        game = cls(rules, rng=bit_generator, recall=1)
        game.seed = record.seed
        game._shoe.number = record.shoe - 1  # the first deal shuffles: shoe record.shoe
        for _ in range(record.round_in_shoe - 1):
            game._shoe.deal()
        game.round = record.round - 1
        return game.play(record.bets)


# --- observed shoes -------------------------------------------------------------------------


class ObservedTable:
    """Settle the cards a physical shoe or card reader actually dealt.

    Give each round's cards in the order they came out, burned cards and the head card
    included. The table checks every card against what its box or shoe can hold (a fifth
    K♠ in one deck, a ninth in eight) since the last ``shuffle()``, assigns the cards to
    the hands by the dealing procedure, and settles the bets. An invalid sequence raises,
    naming the card and its place, and leaves the table as it was.

    >>> from sanggong import ONLINE
    >>> table = ObservedTable(ONLINE)
    >>> record = table.play("5h  Ks Qs 9d  As 2d 3c  4h 4d 4c  Jh Jd Tc", {"win:1": 100})
    >>> record.banker.label, record.hands[1].label, record.results[0]["outcome"]
    ('2P9', '6', 'lose')
    >>> table.play("5h Ks Ks 9d As 2d 3c 4h 4d 4c Jh Jd Tc")
    Traceback (most recent call last):
    ...
    ValueError: card 3 of the sequence, Ks, is one more than 1 deck holds
    """

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self._session = TableSession(rules)
        self._seen: Counter[int] = Counter()
        self._rounds = 0
        self._shoes = 1
        self.round = 0

    def shuffle(self) -> None:
        """The dealer shuffled: every card is back in the shoe."""
        self._seen.clear()
        self._rounds = 0
        self._shoes += 1

    def play(
        self, cards: str | Sequence[CardLike], bets: Mapping[str, Money] | None = None
    ) -> RoundRecord:
        """Assign and settle one round's observed cards."""
        parsed = self._parse(cards)
        fresh = self.rules.fresh_deck_each_round
        burn = self.rules.burn_first if fresh or self._rounds == 0 else self.rules.burn_per_round
        need = round_length(self.rules, burn)
        if len(parsed) != need:
            raise ValueError(f"a round here takes {need} cards ({burn} burned), the sequence has {len(parsed)}")
        seen = Counter() if fresh else Counter(self._seen)
        for place, card in enumerate(parsed, start=1):
            seen[card.code] += 1
            if seen[card.code] > self.rules.decks:
                raise ValueError(
                    f"card {place} of the sequence, {card}, is one more than {self.rules.decks} "
                    f"deck{'s' if self.rules.decks > 1 else ''} hold{'s' if self.rules.decks == 1 else ''}"
                )
        slip = self._session.slip(bets or {})
        deal = assign(self.rules, parsed, burn)
        result = self._session.settle_slip(deal.banker, deal.hands, slip) if slip else None
        self._seen = Counter() if fresh else seen
        self._rounds += 1
        self.round += 1
        return _record(
            self.rules, deal, result, slip, round_=self.round, shoe=self._shoes,
            round_in_shoe=self._rounds, last=fresh, cut=None, seed=None, state=None,
            carried=self._session.carried,
        )

    @staticmethod
    def _parse(cards: str | Sequence[CardLike]) -> list[Card]:
        tokens: Sequence[CardLike] = cards.split() if isinstance(cards, str) else cards
        parsed = []
        for place, token in enumerate(tokens, start=1):
            try:
                parsed.append(parse_card(token))
            except (ValueError, TypeError) as exc:
                raise type(exc)(f"card {place} of the sequence: {exc}") from None
        return parsed
