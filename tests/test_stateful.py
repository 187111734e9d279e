"""Stateful fuzzing: table sessions, games and observed tables driven by random programs.

Each machine is a ``hypothesis.stateful.RuleBasedStateMachine`` that keeps a model of
what the object must hold and checks it after every step:

* ``TableSessionMachine``: rounds settled with random hands and slips, carried stakes
  raised, reduced, withdrawn or given in another kind of money. A refused slip changes
  nothing; a carried stake never decreases and never changes its kind; money is
  conserved across the session (every unit the player put down is returned, still on
  the table, or the house's).
* ``GameMachine``: rounds played with random slips (carried stakes included) and dealt
  without bets. Every record replays equal from its JSON through
  ``Game.replay_record``; no card comes out of a shoe more often than its decks hold;
  money adds up in every record; a refused slip deals no card.
* ``ObservedTableMachine``: card sequences, valid or not, fed to an ``ObservedTable``
  whose shoe is modelled card by card: the table accepts a sequence exactly when the
  shoe can hold it, an invalid one raises ``ValueError`` and leaves the table as it was.

The machines run in this process (their steps are cheap and their inputs mostly valid).
The quick run executes ``QUICK_EXAMPLES`` programs per machine and reports failures
unshrunk (``SANGGONG_FUZZ_SHRINK=1`` shrinks them); ``<test>_long`` (marked ``fuzz``,
deselected by default) runs ``LONG_FACTOR`` times as many and shrinks.
"""

from __future__ import annotations

import decimal
import os
import warnings
from collections import Counter
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from sanggong import MACAU, ONLINE, Card, Game, ObservedTable, RoundRecord, RuleSet, TableSession, limits, verify_log

pytestmark = pytest.mark.kernels  # every test here exercises the kernels: once per implementation

with warnings.catch_warnings():  # see tests/test_fuzz.py: imported once, quietly
    warnings.simplefilter("ignore")
    try:
        import hypothesis.extra._patching  # noqa: F401
    except ImportError:
        pass

QUICK_EXAMPLES = 30  # with the other two files, the default run stays under 90 s for both implementations
LONG_FACTOR = int(os.environ.get("SANGGONG_FUZZ_FACTOR", "50"))
SHRINK = os.environ.get("SANGGONG_FUZZ_SHRINK", "") not in ("", "0")
NO_SHRINK = [p for p in Phase if p not in (Phase.shrink, Phase.explain)]
BASE = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large,
                           HealthCheck.large_base_example],
    stateful_step_count=12,
    print_blob=True,
)


def machine_tests(machine: type[RuleBasedStateMachine], examples: int = QUICK_EXAMPLES) -> tuple[Any, Any]:
    """A test running ``machine`` with the quick budget, and its ``fuzz``-marked long twin.

    Plain functions (not ``machine.TestCase``), so that the ``impl`` fixture parametrizes
    them; marked as Hypothesis tests so that ``--hypothesis-show-statistics`` counts them."""

    def quick() -> None:
        run_state_machine_as_test(machine, settings=settings(
            BASE, max_examples=examples, phases=list(Phase) if SHRINK else NO_SHRINK))

    def long() -> None:
        run_state_machine_as_test(machine, settings=settings(BASE, max_examples=examples * LONG_FACTOR))

    for test in (quick, long):
        test.is_hypothesis_test = True  # type: ignore[attr-defined]
        test.__doc__ = machine.__doc__
    return quick, pytest.mark.fuzz(long)


def exact(value: Any) -> Fraction:
    return Fraction(value)


def kind_of(value: Any) -> type | None:
    if isinstance(value, bool):
        return None
    for kind in (int, Decimal, Fraction):
        if isinstance(value, kind):
            return kind
    return None


STAKES = {
    int: st.integers(1, 10_000) | st.sampled_from([limits.MAX_STAKE, 7, 101]),
    Decimal: st.integers(1, 10**6).map(lambda n: Decimal(n) / 100) | st.just(Decimal("1.00")),
    Fraction: st.fractions(min_value=Fraction(1, 100), max_value=1000, max_denominator=100),
}
JUNK_STAKES = st.sampled_from([0, -1, 1.5, True, None, "100", Decimal("NaN"), Decimal("sNaN"), Decimal("-Infinity"),
                               Decimal("0.001"), Fraction(1, 10**7), limits.MAX_STAKE + 1, Decimal("1e999999999"),
                               np.int64(5), float("nan")])

# a banker and a hand of the same class, from distinct cards: a Win bet on it is carried
TIES = [("9c 9d 5h", "9h 9s 5c"), ("Tc Th 5s", "Td Ts 5c"), ("Ac 2c 3c", "Ad 2d 3d"), ("Kc Qc Jc", "Kd Qd Jd"),
        ("Jh Qh Kh", "Js Qs Ks")]


@st.composite
def round_hands(draw: st.DrawFn, rules: RuleSet) -> tuple[str, dict[int, str]]:
    """A banker's hand and every position's, distinct cards of the shoe; often a tie on
    position 1 (or a banker's 3P), so that stakes get carried."""
    used: Counter[int] = Counter()
    hands: list[list[int]] = []
    if draw(st.booleans()):
        banker, first = draw(st.sampled_from(TIES))
        for text in (banker, first):
            codes = [Card.parse(t).code for t in text.split()]
            hands.append(codes)
            used.update(codes)
    while len(hands) < rules.hands:
        hand = []
        while len(hand) < 3:
            code = draw(st.integers(0, 51))
            if used[code] < rules.decks:
                used[code] += 1
                hand.append(code)
        hands.append(hand)
    text = [" ".join(str(Card(c)) for c in h) for h in hands]
    return text[0], {p: text[p] for p in range(1, rules.hands)}


def bet_names(rules: RuleSet) -> list[str]:
    return sorted(rules.bets)


# --- a table session ---------------------------------------------------------------------------------------

SESSION_TABLES = [MACAU.replace(positions=3), MACAU.replace(decks=1, positions=3), ONLINE,
                  MACAU.replace(name="three pictures", tie_by="points", pays={**MACAU.pays, "tie": 8}, decks=2,
                                positions=4)]


class TableSessionMachine(RuleBasedStateMachine):
    """A player's seat: rounds with random hands and slips; carried stakes kept, raised,
    reduced or re-kinded; money conserved across the session."""

    @initialize(rules=st.sampled_from(SESSION_TABLES), kind=st.sampled_from([int, Decimal, Fraction]))
    def start(self, rules: RuleSet, kind: type) -> None:
        self.rules, self.kind = rules, kind
        self.session = TableSession(rules)
        self.put_down = Fraction(0)  # new money the player put on the table
        self.paid_back = Fraction(0)  # returned to the player
        self.house = Fraction(0)  # the house's net, summed
        self.rounds = 0

    def _slip(self, data: st.DataObject, honest: bool) -> dict[Any, Any]:
        names = data.draw(st.lists(st.sampled_from(bet_names(self.rules)), max_size=4, unique=True), label="bets")
        slip: dict[Any, Any] = {n: data.draw(STAKES[self.kind], label=n) for n in names}
        if self.rules.tie_requires_win:
            for name in list(slip):
                if name.startswith("tie:"):
                    slip.setdefault(f"win:{name[4:]}", data.draw(STAKES[self.kind]))
        for name, carried in self.session.carried.items():  # raise a carried stake, or leave it
            if data.draw(st.booleans(), label=f"raise {name}"):
                slip[name] = carried + data.draw(STAKES[self.kind]) if not honest else carried
        if not honest:
            how = data.draw(st.sampled_from(["reduce", "zero", "other-kind", "junk", "unknown-bet"]), label="dishonest")
            carried = dict(self.session.carried)
            if how in ("reduce", "zero", "other-kind") and carried:
                name = data.draw(st.sampled_from(sorted(carried)))
                if how == "reduce":
                    slip[name] = carried[name] - data.draw(STAKES[self.kind]) if data.draw(st.booleans()) else carried[name] / 2
                elif how == "zero":
                    slip[name] = 0 if self.kind is int else self.kind(0)
                else:
                    other = data.draw(st.sampled_from([k for k in (int, Decimal, Fraction) if k is not self.kind]))
                    slip[name] = other(100) if other is not Fraction else Fraction(carried[name]) * 2
            elif how == "junk" or not carried:
                slip[data.draw(st.sampled_from(bet_names(self.rules)))] = data.draw(JUNK_STAKES)
            else:
                slip[data.draw(st.sampled_from(["win:0", "lose:9", "odd:1", "point:10", "nonsense"]))] = data.draw(
                    STAKES[self.kind])
        return slip

    def _settle(self, data: st.DataObject, honest: bool) -> None:
        banker, hands = data.draw(round_hands(self.rules), label="hands")
        slip = self._slip(data, honest)
        before = dict(self.session.carried)
        try:
            result = self.session.settle(banker, hands, slip)
        except (ValueError, TypeError):
            assert dict(self.session.carried) == before, "a refused slip changed the carried stakes"
            assert all(type(self.session.carried[k]) is type(v) for k, v in before.items())
            return
        whole = {**before, **slip}
        assert {r.bet for r in result.results} == set(whole), f"settled {[r.bet for r in result.results]}, slip {whole}"
        for name, carried in before.items():  # a carried stake: never less, never another kind
            stake = result[name].stake
            assert type(stake) is type(carried), f"{name}: carried {carried!r}, staked {stake!r}"
            assert exact(stake) >= exact(carried), f"{name}: carried {carried}, staked only {stake}"
        for name, stake in slip.items():
            assert kind_of(stake) is self.kind, f"accepted a stake {stake!r} at a {self.kind.__name__} session"
            assert type(result[name].stake) is self.kind
        for r in result.results:
            for field in ("stake", "returned", "commission", "carried"):
                assert type(getattr(r, field)) is self.kind, f"{r.bet}.{field} = {getattr(r, field)!r}"
            assert exact(r.returned) >= 0 and exact(r.commission) >= 0 and exact(r.carried) >= 0
        staked = exact(result.staked)
        assert staked - exact(result.returned) - exact(result.carried) == exact(result.house_net)
        self.put_down += staked - sum((exact(v) for v in before.values()), Fraction(0))  # carried money was down already
        self.paid_back += exact(result.returned)
        self.house += exact(result.house_net)
        assert dict(self.session.carried) == {r.bet: r.carried for r in result.results if r.carried}
        self.rounds += 1

    @rule(data=st.data())
    def settle_a_round(self, data: st.DataObject) -> None:
        self._settle(data, honest=True)

    @rule(data=st.data())
    def settle_a_dishonest_slip(self, data: st.DataObject) -> None:
        self._settle(data, honest=False)

    @precondition(lambda self: bool(self.session.carried))
    @rule(data=st.data())
    def withdraw_a_carried_stake(self, data: st.DataObject) -> None:
        """Leaving a carried bet out keeps it; a smaller stake or another kind is refused."""
        carried = dict(self.session.carried)
        name = data.draw(st.sampled_from(sorted(carried)))
        for stake in (carried[name] * 0, exact(carried[name]) / 2 if self.kind is Fraction else carried[name] - 1,
                      int(exact(carried[name])) + 1 if self.kind is not int else Decimal(carried[name])):
            if exact(stake) == exact(carried[name]) and type(stake) is type(carried[name]):
                continue
            try:
                self.session.slip({name: stake})
            except (ValueError, TypeError):
                assert dict(self.session.carried) == carried
                continue
            raise AssertionError(f"carried {carried[name]!r} on {name}, then {stake!r} was accepted")

    @invariant()
    def money_is_conserved(self) -> None:
        if not hasattr(self, "session"):
            return
        on_table = sum((exact(v) for v in self.session.carried.values()), Fraction(0))
        assert self.put_down == self.paid_back + on_table + self.house, (
            f"put down {self.put_down}, paid back {self.paid_back}, on the table {on_table}, house {self.house}")
        assert all(type(v) is self.kind and exact(v) > 0 for v in self.session.carried.values()), dict(self.session.carried)


test_table_session_machine, test_table_session_machine_long = machine_tests(TableSessionMachine, examples=20)


# --- a game -----------------------------------------------------------------------------------------------------


class _Int(int):
    pass


class _Decimal(Decimal):
    pass


class _Fraction(Fraction):
    pass


_SUBCLASS: dict[type, Any] = {int: _Int, Decimal: _Decimal, Fraction: _Fraction}

GAME_TABLES = [ONLINE, MACAU.replace(decks=1, positions=3), MACAU.replace(decks=2, positions=4, cut_card_range=(30, 40)),
               MACAU.replace(decks=1, positions=2, deal_one_at_a_time=False)]
GENERATORS = ["seed", "PCG64", "PCG64DXSM", "Philox", "SFC64", "MT19937"]


class GameMachine(RuleBasedStateMachine):
    """A game: rounds played with random slips and dealt without bets; every record
    replays, shoes hold their cards, money adds up."""

    @initialize(rules=st.sampled_from(GAME_TABLES), seed=st.integers(0, 2**64), how=st.sampled_from(GENERATORS),
                recall=st.integers(0, 6), kind=st.sampled_from([int, Decimal, Fraction]))
    def start(self, rules: RuleSet, seed: int, how: str, recall: int, kind: type) -> None:
        self.rules, self.kind, self.recall = rules, kind, recall
        if how == "seed":
            self.game = Game(rules, seed, recall=recall)
        else:
            self.game = Game(rules, rng=getattr(np.random, how)(seed), recall=recall)
        self.records: list[RoundRecord] = []
        self.shoes: dict[int, Counter[int]] = {}
        self.pending: list[list[int]] = []  # cards dealt without a record since the last record
        self.last_shoe: int | None = None

    def _slip(self, data: st.DataObject) -> dict[Any, Any]:
        names = data.draw(st.lists(st.sampled_from(bet_names(self.rules)), max_size=3, unique=True))
        slip: dict[Any, Any] = {n: data.draw(STAKES[self.kind]) for n in names}
        if self.rules.tie_requires_win:
            for name in list(slip):
                if name.startswith("tie:"):
                    slip.setdefault(f"win:{name[4:]}", data.draw(STAKES[self.kind]))
        for name, carried in self.game.carried.items():
            choice = data.draw(st.sampled_from(["keep", "raise", "reduce", "other-kind"]))
            if choice == "raise":
                slip[name] = carried + data.draw(STAKES[self.kind])
            elif choice == "reduce":
                slip[name] = carried * 0
            elif choice == "other-kind":
                slip[name] = 100 if self.kind is not int else Decimal(100)
        if data.draw(st.integers(0, 6)) == 0:
            slip[data.draw(st.sampled_from(bet_names(self.rules) + ["win:0", "x"]))] = data.draw(JUNK_STAKES)
        return slip

    @rule(data=st.data())
    def play(self, data: st.DataObject) -> None:
        self._play(self._slip(data))

    @rule(data=st.data(), subclassed=st.booleans(), capitals=st.sampled_from([0, 1]), prec=st.integers(1, 28))
    def play_as_any_caller(self, data: st.DataObject, subclassed: bool, capitals: int, prec: int) -> None:
        """Stakes of number subclasses, under any decimal context: the record is what the
        plain stakes make (its replay compares canonical forms, byte for byte)."""
        slip = self._slip(data)
        if subclassed:
            slip = {k: _SUBCLASS.get(type(v), lambda x: x)(v) for k, v in slip.items()}
        with decimal.localcontext() as context:
            context.capitals, context.prec = capitals, prec
            self._play(slip)

    def _play(self, slip: dict[Any, Any]) -> None:
        round_before, carried_before = self.game.round, dict(self.game.carried)
        try:
            record = self.game.play(slip)
        except (ValueError, TypeError):
            assert self.game.round == round_before and dict(self.game.carried) == carried_before, "a refused slip changed the game"
            return
        assert record.round == round_before + 1
        for name, carried in carried_before.items():
            stake = record.bets[name]
            assert type(stake) is type(carried) and exact(stake) >= exact(carried), f"{name}: {carried!r} -> {stake!r}"
        self._check(record)

    @rule()
    def deal(self) -> None:
        deal = self.game.deal()
        cards = [c.code for c in deal.burned] + [c.code for c in deal.banker]
        for hand in deal.hands.values():
            cards += [c.code for c in hand]
        self.pending.append(cards)
        self._check_round(Counter(cards), "a dealt round")

    def _check_round(self, counts: Counter[int], where: str) -> None:
        code, most = counts.most_common(1)[0]
        assert most <= self.rules.decks, f"{where}: {Card(code)} {most} times from {self.rules.decks} deck(s)"

    def _check(self, record: RoundRecord) -> None:
        cards = [c.code for c in record.burned] + [c.code for c in record.banker.cards]
        for hand in record.hands.values():
            cards += [c.code for c in hand.cards]
        self._check_round(Counter(cards), f"round {record.round}")
        if not self.rules.fresh_deck_each_round:  # the cards of one shoe, from its shuffle
            seen = self.shoes.setdefault(record.shoe, Counter())
            if record.shoe == self.last_shoe:
                for dealt in self.pending:
                    seen.update(dealt)
            seen.update(cards)
            self._check_round(seen, f"shoe {record.shoe}")
        self.pending, self.last_shoe = [], record.shoe
        text = record.to_json()
        back = RoundRecord.from_json(text)
        assert back == record, "from_json(to_json) differs"
        again = Game.replay_record(self.rules, back)
        assert again == record, f"replay_record differs:\n{again}\n{record}"
        staked = returned = carried = Fraction(0)
        for r in record.results:
            amounts = {k: Fraction(r[k]) for k in ("stake", "returned", "commission", "carried", "net")}
            assert amounts["net"] == amounts["returned"] + amounts["carried"] - amounts["stake"], r
            assert min(amounts["returned"], amounts["commission"], amounts["carried"]) >= 0, r
            staked, returned, carried = staked + amounts["stake"], returned + amounts["returned"], carried + amounts["carried"]
        assert sum((exact(v) for v in record.carried.values()), Fraction(0)) == carried
        assert dict(record.carried) == dict(self.game.carried)
        self.records.append(record)

    def teardown(self) -> None:
        """A game's records from its first round, with no round dealt outside them, are a
        log that verifies (under any context the records were made in)."""
        rounds = [r.round for r in self.records]
        if rounds and rounds == list(range(1, len(rounds) + 1)):
            report = verify_log([r.to_json() for r in self.records], rules=self.rules)
            assert report.ok, report.reason

    @invariant()
    def records_kept(self) -> None:
        if not hasattr(self, "game"):
            return
        kept = list(self.game.records)
        assert len(kept) <= self.recall
        assert kept == self.records[len(self.records) - len(kept):]
        assert all(type(v) is self.kind for v in self.game.carried.values()), dict(self.game.carried)


test_game_machine, test_game_machine_long = machine_tests(GameMachine)


# --- an observed table --------------------------------------------------------------------------------------------

OBSERVED_TABLES = [ONLINE, MACAU.replace(decks=1, positions=3), MACAU.replace(decks=2, positions=2, cut_card_range=(20, 30)),
                   MACAU.replace(decks=3, positions=1, cut_card_range=(10, 20), burn_per_round=0)]


class ObservedTableMachine(RuleBasedStateMachine):
    """A table settling what a physical shoe dealt: its shoe modelled card by card."""

    @initialize(rules=st.sampled_from(OBSERVED_TABLES))
    def start(self, rules: RuleSet) -> None:
        self.rules = rules
        self.table = ObservedTable(rules)
        self.seen: Counter[int] = Counter()  # cards out of the shoe since the shuffle
        self.rounds_in_shoe = 0
        self.round = 0
        self.records: list[RoundRecord] = []
        self.reshuffles = 0  # shuffles done again before the next shoe's first round

    def _need(self) -> int:
        fresh = self.rules.fresh_deck_each_round
        burn = self.rules.burn_first if fresh or self.rounds_in_shoe == 0 else self.rules.burn_per_round
        return burn + (1 if self.rules.head_card and self.rules.head_card_burned else 0) + 3 * self.rules.hands

    def _left(self) -> Counter[int]:
        seen = Counter() if self.rules.fresh_deck_each_round else self.seen
        return Counter({c: self.rules.decks - seen[c] for c in range(52) if self.rules.decks - seen[c] > 0})

    def _must_shuffle(self) -> bool:
        """The cut card has come out for certain (it lies at least ``cut_card_range[0]``
        cards from the end): the shoe's last round was played."""
        if self.rules.fresh_deck_each_round:
            return False
        return sum(self.seen.values()) > 52 * self.rules.decks - self.rules.cut_card_range[0]

    def _holds(self, cards: list[int]) -> bool:
        if self._must_shuffle():
            return False
        seen = Counter() if self.rules.fresh_deck_each_round else Counter(self.seen)
        for code in cards:
            seen[code] += 1
            if seen[code] > self.rules.decks:
                return False
        return True

    def _accepted(self, cards: list[int]) -> None:
        if self.rules.fresh_deck_each_round:
            self.seen = Counter()
        else:
            self.seen.update(cards)
            self.rounds_in_shoe += 1
        self.round += 1

    def _valid(self, data: st.DataObject) -> list[int] | None:
        if self._must_shuffle():
            return None
        left = self._left()
        pool = [c for c, n in left.items() for _ in range(n)]
        if len(pool) < self._need():
            return None
        picks = data.draw(st.lists(st.integers(0, len(pool) - 1), min_size=self._need(), max_size=self._need(), unique=True))
        return [pool[i] for i in picks]

    def _form(self, data: st.DataObject, cards: list[int]) -> Any:
        form = data.draw(st.sampled_from(["cards", "text", "codes", "mixed"]))
        if form == "cards":
            return [Card(c) for c in cards]
        if form == "text":
            return " ".join(str(Card(c)) for c in cards)
        if form == "codes":
            return list(cards)
        return [Card(c) if i % 2 else str(Card(c)) for i, c in enumerate(cards)]

    def _snapshot(self) -> Any:
        return self.table.round

    @rule(data=st.data())
    def play_valid(self, data: st.DataObject) -> None:
        cards = self._valid(data)
        if cards is None:
            self.shuffle()
            cards = self._valid(data)
            assert cards is not None
        bets = data.draw(st.one_of(st.none(), st.just({"win:1": 100}), st.just({"win:1": Decimal("1.00")})))
        if bets and self.rules.variant == "macau" and self.table.round and data.draw(st.booleans()):
            bets = None
        try:
            record = self.table.play(self._form(data, cards), bets)
        except ValueError as exc:
            if "carried" in str(exc) or "kind" in str(exc) or "stake" in str(exc):
                return  # the slip, not the cards (a carried stake of another kind)
            raise AssertionError(f"a valid sequence {[str(Card(c)) for c in cards]} was refused: {exc}") from exc
        got = [c.code for c in record.burned] + [c.code for c in record.banker.cards]
        for hand in record.hands.values():
            got += [c.code for c in hand.cards]
        assert Counter(got) == Counter(cards), "the record's cards are not the sequence's"
        self._recorded(record)
        self._accepted(cards)

    @rule(data=st.data())
    def play_any_cards(self, data: st.DataObject) -> None:
        """A sequence of the right length from all 52 cards: accepted exactly when the
        shoe can hold it."""
        cards = data.draw(st.lists(st.integers(0, 51), min_size=self._need(), max_size=self._need()))
        valid = self._holds(cards)
        before = self._snapshot()
        try:
            record = self.table.play(self._form(data, cards))
        except ValueError as exc:
            assert not valid, f"refused {[str(Card(c)) for c in cards]}, which the shoe holds: {exc}"
            assert self._snapshot() == before, "a refused sequence changed the table"
            return
        assert valid, (f"accepted {[str(Card(c)) for c in cards]}: a card more often than {self.rules.decks} deck(s) "
                       f"hold, with {sorted(self.seen.elements())[:60]} out of the shoe")
        self._recorded(record)
        self._accepted(cards)

    @rule(data=st.data())
    def void(self, data: st.DataObject) -> None:
        """A misdealt round voided after some of its cards came out: they leave the shoe
        (accepted exactly when the shoe holds them), and every stake comes back."""
        cards = data.draw(st.lists(st.integers(0, 51), max_size=self._need()))
        if data.draw(st.booleans()):  # mostly cards the shoe still holds
            pool = [c for c, n in self._left().items() for _ in range(n)]
            cards = [pool[i] for i in data.draw(st.lists(st.integers(0, len(pool) - 1), max_size=self._need(),
                                                         unique=True))] if pool else []
        valid = self._holds(cards)
        carried = dict(self.table._session.carried)
        bets = data.draw(st.one_of(st.just({}), st.just({"win:1": 100}), st.just({"win:1": Decimal("2.50")})))
        before = self._snapshot()
        try:
            record = self.table.void(self._form(data, cards), bets)
        except ValueError as exc:
            if "carried" in str(exc) or "kind" in str(exc) or "stake" in str(exc):
                return
            assert not valid, f"a void of {[str(Card(c)) for c in cards]}, which the shoe holds, was refused: {exc}"
            assert self._snapshot() == before, "a refused void changed the table"
            return
        assert valid, f"a void of {[str(Card(c)) for c in cards]} was accepted: the shoe does not hold them"
        assert record.void and [c.code for c in record.burned] == cards and record.banker is None
        for result in record.results:
            assert result["outcome"] == "void" and result["net"] == 0, result
            assert result["carried"] == carried.get(result["bet"], 0), result
        assert dict(record.carried) == carried, "a void round changed the carried stakes"
        self._recorded(record)
        self._accepted(cards)

    def _recorded(self, record: RoundRecord) -> None:
        expected = self.reshuffles if record.round_in_shoe == 1 else 0
        assert record.reshuffled == expected, (record.reshuffled, expected)
        self.reshuffles = 0
        self.records.append(record)

    def teardown(self) -> None:
        """The table's records are a log that verifies, void rounds and reshuffles included."""
        if getattr(self, "records", None):
            report = verify_log([r.to_json() for r in self.records], rules=self.rules)
            assert report.ok, report.reason
            assert report.void_rounds == sum(r.void for r in self.records)

    @rule(data=st.data())
    def play_invalid(self, data: st.DataObject) -> None:
        cards = self._valid(data) or [0] * self._need()
        how = data.draw(st.sampled_from(["short", "long", "junk-token", "junk-type", "one-too-many", "empty", "bad-code"]))
        seq: Any
        if how == "short":
            seq = [Card(c) for c in cards[: data.draw(st.integers(0, len(cards) - 1))]]
        elif how == "long":
            seq = [Card(c) for c in cards] + [Card(data.draw(st.integers(0, 51)))]
        elif how == "junk-token":
            seq = " ".join(str(Card(c)) for c in cards[:-1]) + " " + data.draw(st.sampled_from(["1h", "Kx", "10", "♠K", "Ｋh"]))
        elif how == "junk-type":
            seq = [Card(c) for c in cards[:-1]] + [data.draw(st.sampled_from([None, 1.5, b"Kh", [1], Decimal(3), True]))]
        elif how == "one-too-many":  # a card once more than the shoe holds, at the end
            code = data.draw(st.integers(0, 51))
            left = self._left()[code]
            if left + 1 > len(cards):
                return
            seq = [Card(c) for c in cards[: len(cards) - left - 1]] + [Card(code)] * (left + 1)
        elif how == "empty":
            seq = data.draw(st.sampled_from(["", " ", []]))
        else:
            seq = cards[:-1] + [data.draw(st.sampled_from([52, -1, 2**64, 255]))]
        before = self._snapshot()
        try:
            self.table.play(seq)
        except ValueError:
            pass
        except TypeError:
            assert how == "junk-type", f"TypeError for a sequence of cards ({how})"
        else:
            raise AssertionError(f"an invalid sequence ({how}) was accepted: {seq!r}")
        assert self._snapshot() == before, "a refused sequence changed the table"

    @rule()
    def shuffle(self) -> None:
        if self.rules.fresh_deck_each_round or self.rounds_in_shoe == 0:
            self.reshuffles += 1  # before the shoe's first round: a shuffle done again
        self.table.shuffle()
        self.seen = Counter()
        self.rounds_in_shoe = 0

    @invariant()
    def rounds_counted(self) -> None:
        if hasattr(self, "table"):
            assert self.table.round == self.round


test_observed_table_machine, test_observed_table_machine_long = machine_tests(ObservedTableMachine)
