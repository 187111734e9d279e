"""One way to say each thing in the Python API (issue 24): hand values ordered by strength,
a preset's name wherever rules are taken, ``workers=`` for parallelism, numpy Generators as
seeds, and every result as a frame and as HTML."""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from sanggong import HandValue, compare, evaluate
from sanggong import _spec as spec
from sanggong.rules import PRESETS

ONE_DECK_HANDS = list(itertools.combinations(range(52), 3))
RANKINGS = {rules.ranking: name for name, rules in PRESETS.items()}  # one preset naming each ranking
OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "==": operator.eq, "!=": operator.ne,
}


def _sign(x: Any, y: Any) -> int:
    return int(x > y) - int(x < y)


# --- hand values order by strength -----------------------------------------------------------------


@pytest.mark.parametrize("preset", sorted(RANKINGS.values()))
def test_values_sort_as_the_specification_ranks_every_hand(preset: str) -> None:
    """All 22,100 one-deck hands: ``sorted`` puts them in the order of the specification's
    plain comparison key (``_spec.hand_key``, computed without the kernels' tables), equal
    values are exactly the hands of one key, and the hash follows equality."""
    ranking = PRESETS[preset].ranking
    values = [evaluate(hand, preset) for hand in ONE_DECK_HANDS]
    key = {id(v): spec.hand_key(ranking, *(c.code for c in v.cards)) for v in values}
    ordered = sorted(values)
    keys = [key[id(v)] for v in ordered]
    assert keys == sorted(keys)
    for v, w in itertools.pairwise(ordered):  # neighbours: ties and steps alike
        assert (v == w) is (key[id(v)] == key[id(w)])
        assert (v < w) is (key[id(v)] < key[id(w)])
        assert (hash(v) == hash(w)) or v != w
    assert len(set(values)) == len(set(keys))


@pytest.mark.parametrize("preset", sorted(RANKINGS.values()))
def test_every_operator_agrees_with_compare_and_the_specification(preset: str) -> None:
    """Pairs of hands drawn at random (ties included: half the pairs share a class): each
    of the six operators says what ``compare`` says, and ``compare`` what the
    specification's key says."""
    ranking = PRESETS[preset].ranking
    rng = np.random.default_rng(24)
    values = [evaluate(ONE_DECK_HANDS[i], preset) for i in rng.integers(0, len(ONE_DECK_HANDS), 3000)]
    by_label: dict[str, list[HandValue]] = {}
    for v in values:
        by_label.setdefault(v.label, []).append(v)
    pairs = list(zip(values[::2], values[1::2], strict=True))
    pairs += [(group[i], group[i + 1]) for group in by_label.values() for i in range(len(group) - 1)]
    ties = 0
    for a, b in pairs:
        order = compare(a, b, preset)
        truth = _sign(spec.hand_key(ranking, *(c.code for c in a.cards)), spec.hand_key(ranking, *(c.code for c in b.cards)))
        assert order == truth, (a, b)
        expected = {"<": order < 0, "<=": order <= 0, ">": order > 0, ">=": order >= 0, "==": order == 0, "!=": order != 0}
        assert {name: op(a, b) for name, op in OPERATORS.items()} == expected, (a, b)
        ties += order == 0
    assert ties > 100  # the pairs of one class made ties happen
    best = max(values)
    assert all(compare(best, v, preset) >= 0 for v in values)


def test_values_of_two_rankings_are_never_equal_and_not_ordered() -> None:
    """``==`` is False (a set or a dict holds both), ordering raises a TypeError naming
    both rankings, whichever side is which."""
    macau, chinese = evaluate("Kh Kd Ks", "macau"), evaluate("Kh Kd Ks", "chinese")
    assert macau != chinese and not macau == chinese  # noqa: SIM201 - both operators are under test
    assert len({macau, chinese}) == 2
    for op in (operator.lt, operator.le, operator.gt, operator.ge):
        for a, b in ((macau, chinese), (chinese, macau)):
            with pytest.raises(TypeError) as caught:
                op(a, b)
            assert str(caught.value) == f"cannot order hands of two rankings: {a.ranking!r} and {b.ranking!r}"
    with pytest.raises(TypeError, match="two rankings"):
        sorted([macau, chinese])


def test_values_against_other_types() -> None:
    """Not a hand value: never equal, never ordered (Python's own TypeError)."""
    value = evaluate("Kh Qs 9d")
    assert value != "Kh Qs 9d" and value != value.rank and value != value.cards
    with pytest.raises(TypeError, match="not supported"):
        value < 29  # noqa: B015
    with pytest.raises(TypeError, match="not supported"):
        value <= 29  # noqa: B015


# --- a numpy Generator as a seed -------------------------------------------------------------------


def _drawn(generator: np.random.Generator) -> int:
    """The seed a run takes from a generator, computed here from the words numpy documents
    for full-range uint64 draws: a bit generator's raw 64-bit outputs (PCG64's and Philox's)."""
    return sum(int(w) << (64 * i) for i, w in enumerate(generator.bit_generator.random_raw(4).tolist()))


def _runs() -> dict[str, Callable[[Any], tuple[object, object]]]:
    """Each seeded entry point as (what it recorded as its seed, what it produced)."""
    from sanggong import Game, deal_batch, design, play_shoes, simulate, simulate_sessions

    def game(seed: Any) -> tuple[object, object]:
        g = Game("online", seed)
        return g.seed, [g.play({"win:1": 10}).to_json() for _ in range(3)]

    return {
        "simulate": lambda seed: (lambda r: (r.seed, r.to_dict()["bets"]))(simulate("online", 2000, seed=seed, workers=1)),
        "simulate_sessions": lambda seed: (lambda r: (r.seed, r.finals.tolist()))(
            simulate_sessions("online", {"win:1": 10}, 1000, 50, 20, seed=seed, workers=1)),
        "deal_batch": lambda seed: (lambda r: (r.seed, r.hands.tolist()))(deal_batch("macau", 300, seed=seed, workers=1)),
        "play_shoes": lambda seed: (lambda r: (r.seed, r.to_dict()["bets"]))(
            play_shoes("macau", 2, "perfect", seed=seed, workers=1, bets=["tie:1"])),
        "Game": game,
        "design": lambda seed: (None, design("macau", "point:0", (0.0, 0.05), shoes=2, seed=seed, workers=1, limit=2)),
    }


@pytest.mark.parametrize("entry", list(_runs()))
@pytest.mark.parametrize("bit_generator", ["PCG64", "Philox"])
def test_a_generator_seeds_a_run_that_its_recorded_seed_recreates(entry: str, bit_generator: str) -> None:
    """Given a Generator (or its BitGenerator), a run draws a 256-bit seed from it (the four
    next words of its stream), records that int, and the int re-creates the run bit for
    bit; the generator moves on, so the next run differs (and records its own seed)."""
    run = _runs()[entry]
    make = getattr(np.random, bit_generator)
    given = np.random.Generator(make(2024))
    recorded, produced = run(given if bit_generator == "PCG64" else given.bit_generator)
    twin = np.random.Generator(make(2024))
    expected = _drawn(twin)
    if recorded is not None:  # design records no seed: the pay options it found re-create
        assert recorded == expected
    again = run(expected)
    assert again == (recorded, produced)
    assert given.bit_generator.random_raw(3).tolist() == twin.bit_generator.random_raw(3).tolist()  # four words drawn, no more
    assert run(given)[1] != produced


def test_a_generator_seed_is_bounded_work_and_a_legacy_state_is_refused() -> None:
    """A RandomState (numpy's legacy generator) is not taken: numpy's own default_rng refuses it too."""
    from sanggong import simulate

    with pytest.raises(TypeError, match=r"seed must be an int, a SeedSequence or None \(or a numpy Generator\), not"):
        simulate("online", 10, seed=np.random.RandomState(1))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="got a 4000000-bit number"):
        simulate("online", 10, seed=1 << 3_999_999)


# --- a preset's name wherever rules are taken; workers= for parallelism ---------------------------

_HAND, _OTHER = "Kh Kd Ks", "Qh Jd 9s"
_BETS = {"win:1": 100, "point:0": 10}


def _game_log(rules: Any) -> list[str]:
    from sanggong import Game

    game = Game(rules, seed=5)
    return [game.play(_BETS).to_json() for _ in range(4)]


def _entry_points() -> dict[str, Callable[[Any], object]]:
    """Every public entry point that takes rules, called with ``rules`` (a rule set or its
    name) and reduced to something comparable: what it gives must not depend on which."""
    import sanggong as sg

    return {
        "evaluate": lambda r: (lambda v: (v.rank, v.label, v.ranking))(sg.evaluate(_HAND, r)),
        "compare": lambda r: sg.compare(_HAND, _OTHER, r),
        "evaluate_batch": lambda r: sg.evaluate_batch(sg.parse_hands([_HAND, _OTHER]), rules=r).rank.tolist(),
        "rank_batch": lambda r: sg.rank_batch(sg.parse_hands([_HAND, _OTHER]), rules=r).tolist(),
        "pair_plus_batch": lambda r: sg.pair_plus_batch(sg.parse_hands([_HAND, _OTHER]), rules=r).tolist(),
        "compare_batch": lambda r: sg.compare_batch(_HAND, sg.parse_hands([_OTHER, _HAND]), rules=r).tolist(),
        "settle": lambda r: sg.settle(r, banker=_OTHER, hands={1: _HAND}, bets=_BETS).to_dict(),
        "TableSession": lambda r: sg.TableSession(r).settle(banker=_OTHER, hands={1: _HAND}, bets=_BETS).to_dict(),
        "Game": _game_log,
        "Game.replay": lambda r: sg.Game.replay(r, 5, 3, _BETS).to_json(),
        "Game.replay_record": lambda r: sg.Game.replay_record(r, sg.RoundRecord.from_json(_game_log("macau")[2])).to_json(),
        "ObservedTable": lambda r: sg.ObservedTable(r).rules,
        "Replayer": lambda r: [sg.Replayer(r).check(sg.RoundRecord.from_json(line)) for line in _game_log("macau")[:1]],
        "Resettler": lambda r: sg.Resettler(r).rules,
        "deal_batch": lambda r: sg.deal_batch(r, 50, seed=1, workers=1).hands.tolist(),
        "verify_log": lambda r: str(sg.verify_log(_game_log("macau"), r)),
        "detect": lambda r: sg.detect([sg.RoundRecord.from_json(x) for x in _game_log("macau")], r).to_dict(),
        "analyze": lambda r: sg.analyze(r).to_dict(),
        "report": lambda r: sg.report(r, decks=(1,)).json(),
        "effect_of_removal": lambda r: sg.effect_of_removal(r, ["win:1"]),
        "ShoeEvaluator": lambda r: sg.ShoeEvaluator(r).evs(),
        "simulate": lambda r: sg.simulate(r, 500, seed=1, workers=1).to_dict()["bets"],
        "simulate_sessions": lambda r: sg.simulate_sessions(r, {"win:1": 10}, 500, 20, 5, seed=1, workers=1).to_dict(),
        "play_shoes": lambda r: sg.play_shoes(r, 1, "perfect", seed=1, workers=1, bets=["win:1"]).to_dict()["bets"],
        "design": lambda r: sg.design(r, "point:0", (0.0, 0.05), shoes=1, seed=1, workers=1, limit=1),
        "VectorTable": _vector_rewards,
        "run_policy": lambda r: sg.run_policy(r, sg.vector_runs.Flat({"win:1": 100}), tables=3, steps=3, seed=1, workers=1, bets=["win:1"]).totals,
        "shuffle_test": lambda r: [(row.name, row.statistic) for row in sg.shuffle_test(r, shoes=50, seed=1, workers=1).rows],
    }


def _vector_rewards(rules: Any) -> list[Any]:
    import numpy as np

    import sanggong as sg

    table = sg.VectorTable(rules, 3, seed=1)
    table.reset()
    stakes = np.zeros((3, 1, len(table.bets)), np.int64)
    stakes[:, 0, table.bets.index("win:1")] = 100
    return [table.step(stakes)[1].tolist() for _ in range(3)]


@pytest.mark.parametrize("entry", list(_entry_points()))
def test_every_entry_point_takes_a_preset_by_name(entry: str) -> None:
    """``f("macau")`` is ``f(MACAU)`` for every entry point (a hand's ranking by name too)."""
    call = _entry_points()[entry]
    name = "chinese" if entry in ("evaluate", "compare", "evaluate_batch", "rank_batch", "compare_batch") else "macau"
    assert call(name) == call(PRESETS[name])
    with pytest.raises(ValueError, match=r"^rules: unknown preset 'baccarat' \(known: macau, "):
        call("baccarat")


# result types carry the rules they were computed under; they are made by the entry points
RESULTS = {"Settlement", "Analysis", "DealtRounds", "RoundRecord", "Detection", "PlayResult", "SessionResult",
           "SimulationResult", "VerifyReport", "HandValue", "MathReport"}


def test_the_list_of_entry_points_is_complete() -> None:
    """Signatures, not kernels: run once. Every public callable with a ``rules`` parameter
    is one of the entry points tested above (or a result type), and every one that runs
    in parallel says so with ``workers`` (never ``threads``, ``n_jobs``, ``processes``)."""
    import inspect

    import sanggong

    tested = {name.split(".")[0] for name in _entry_points()}
    parallel = set()
    for name in sanggong.__all__:
        obj = getattr(sanggong, name)
        if not callable(obj):
            continue
        try:
            parameters = inspect.signature(obj).parameters
        except (TypeError, ValueError):  # an enum, a type alias
            continue
        if "rules" in parameters:
            assert name in tested | RESULTS, f"{name} takes rules: add it to _entry_points"
        assert not {"threads", "n_jobs", "jobs", "processes", "n_threads", "cores"} & set(parameters), name
        if "workers" in parameters:
            parallel.add(name)
    assert parallel == {"simulate", "simulate_sessions", "deal_batch", "play_shoes", "design", "detect",
                        "evaluate_batch", "rank_batch", "pair_plus_batch", "compare_batch", "VectorTable", "shuffle_test",
                        "run_policy"}


@pytest.mark.parametrize("function", ["evaluate_batch", "rank_batch", "pair_plus_batch"])
def test_threads_is_a_deprecated_name_for_workers(function: str) -> None:
    """The batch functions' old ``threads=`` still works, warns, and means ``workers=``."""
    import sanggong

    call = getattr(sanggong, function)
    hands = sanggong.parse_hands([_HAND, _OTHER] * 1000)
    expected = call(hands, workers=2)
    with pytest.warns(DeprecationWarning, match=rf"^{function}\(threads=...\) is deprecated: use workers="):
        given = call(hands, threads=2)
    pick = (lambda v: v.rank.tolist()) if function == "evaluate_batch" else (lambda v: v.tolist())
    assert pick(given) == pick(expected)
    with pytest.raises(TypeError, match="give workers= or threads= \\(deprecated\\), not both"):
        with pytest.warns(DeprecationWarning):
            call(hands, threads=2, workers=2)


# --- every result as a frame and as HTML --------------------------------------------------------


def _settlements() -> dict[str, Any]:
    from decimal import Decimal
    from fractions import Fraction

    import sanggong as sg

    return {
        "int": sg.settle("online", banker="Kh Qs 6d", hands={1: "5c 5d 6h", 2: "As 2s 3s"},
                         bets={"lose:1": 100, "win:2": 100, "pair_plus:2": 10}),
        "decimal": sg.settle("macau", banker="Kh Qs 6d", hands=["5c 5d 6h", "9c Kd Qs"],
                             bets={"win:1": Decimal("10.05"), "win:2": Decimal("0.01"), "point:6": Decimal("1")}),
        "fraction": sg.settle("macau", banker="Kh Qs 6d", hands=["5c 5d 6h", "9c Kd Qs"],
                              bets={"win:2": Fraction(1, 3), "point:6": Fraction(7, 2)}),
        "by player": sg.settle("macau", banker="Kh Qs 6d", hands=["5c 5d 6h", "9c Kd Qs"],
                               bets={"ann": {"win:1": 20}, "bob": {"win:2": 30, "point:6": 5}}),
    }


@pytest.mark.parametrize("case", list(_settlements()))
def test_a_settlement_frame_holds_every_result_exactly(case: str) -> None:
    """Each row is a bet's result, every amount the result's own (same value, same type:
    never a float), the totals add up, and the round's hands are in ``attrs``."""
    pytest.importorskip("pandas")
    settlement = _settlements()[case]
    frame = settlement.to_frame()
    assert len(frame) == len(settlement.results)
    money = ("stake", "returned", "commission", "carried", "net")
    for (key, row), result in zip(frame.iterrows(), settlement.results, strict=True):
        assert key == (result.bet if result.player is None else (result.player, result.bet))
        for column in money:
            got = row[column].item() if hasattr(row[column], "item") else row[column]
            want = getattr(result, column)
            assert got == want and type(got) is type(want), (column, got, want)
        assert row["odds"] == result.odds and row["outcome"] == result.outcome
        assert row["detail"] == result.detail or (result.detail is None and row["detail"] is None)
    for column in money:
        assert all(not isinstance(v, float) for v in frame[column].tolist()), column
    assert sum(frame["stake"].tolist()) == settlement.staked
    assert sum(frame["net"].tolist()) == -settlement.house_net
    assert frame.attrs["house_net"] == settlement.house_net and frame.attrs["rules"] == settlement.rules.name
    assert frame.attrs["banker"] == f"Kh Qs 6d ({settlement.banker.label})"
    page = settlement._repr_html_()
    assert page.startswith('<table class="sanggong-settlement">') and page.endswith("</table>")
    assert page.count("<tr>") == 1 + len(settlement.results) + 1  # the header, the bets, the total
    from sanggong.money import money_text

    for result in settlement.results:
        assert f">{money_text(result.returned)}</td>" in page and f">{money_text(result.net)}</td>" in page


def test_session_frame_and_html() -> None:
    """The finals as they are (exact ints), the summary in attrs and in the HTML table,
    the mean to the hundredth exactly."""
    pytest.importorskip("pandas")
    from fractions import Fraction

    from sanggong import simulate_sessions

    result = simulate_sessions("online", {"win:1": 10}, 200, 60, 9, seed=4, workers=1)
    frame = result.to_frame()
    assert frame.index.name == "session" and frame["final"].tolist() == [int(x) for x in result.finals]
    assert str(frame["final"].dtype) == "int64"
    assert frame.attrs["ruined"] == result.ruined and frame.attrs["seed"] == 4
    page = result._repr_html_()
    assert page.startswith('<table class="sanggong-sessions">')
    mean = Fraction(sum(int(x) for x in result.finals), 9)
    assert f">{round(mean * 100) // 100}.{round(mean * 100) % 100:02d}</td>" in page
    assert "9 sessions of 60 rounds from 200, slip win:1 10, seed 4" in page


@pytest.mark.parametrize("preset", ["online", "macau", "chinese"])
def test_dealt_rounds_frame_reads_back_as_the_arrays(preset: str) -> None:
    """The frame's card text, parsed again (``parse_cards``), is the arrays' codes: every
    hand, the burned cards and the head card, round by round."""
    pytest.importorskip("pandas")
    from sanggong import deal_batch, parse_cards

    dealt = deal_batch(preset, 300, seed=9, workers=1, chunk_size=100)
    frame = dealt.to_frame()
    assert len(frame) == 300 and frame.attrs == {"rules": preset, "seed": 9, "chunk_size": 100}
    assert frame["shoe"].tolist() == dealt.shoe.tolist()
    assert frame["last_of_shoe"].tolist() == dealt.last_of_shoe.tolist()
    codes = lambda text: [c.code for c in parse_cards(text)] if text else []  # noqa: E731
    for p in range(dealt.hands.shape[1]):
        column = "banker" if p == 0 else f"hand {p}"
        assert [codes(t) for t in frame[column]] == dealt.hands[:, p].tolist()
    assert [codes(t) for t in frame["burned"]] == [row[:n].tolist() for row, n in zip(dealt.burned, dealt.burn_counts, strict=True)]
    if dealt.head_cards is None:
        assert "head_card" not in frame
    else:
        assert [codes(t) for t in frame["head_card"]] == [[c] for c in dealt.head_cards.tolist()]
    page = dealt._repr_html_()
    assert page.count("<tr>") == 1 + 10 and "(the first 10 shown)" in page


def test_money_columns_never_hold_floats() -> None:
    """ints that fit are int64; a bigger int, a Decimal or a Fraction stays itself."""
    from decimal import Decimal
    from fractions import Fraction

    from sanggong._presentation import money_column

    assert money_column([1, -(2**63), 2**63 - 1]).dtype == np.int64
    for values in ([1, 2**63], [Decimal("0.01"), Decimal(2)], [Fraction(1, 3), 1]):
        column = money_column(values)
        assert column.dtype == object and column.tolist() == values
        assert [type(v) for v in column] == [type(v) for v in values]


def test_new_frames_without_pandas_name_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """The optional dependency, not the kernels: run once. HTML still works."""
    import re
    import sys

    from sanggong import deal_batch, settle, simulate_sessions

    results = [settle("macau", banker="Kh Qs 6d", hands=["5c 5d 6h"], bets={"win:1": 5}),
               simulate_sessions("online", {"win:1": 10}, 200, 10, 3, seed=1, workers=1),
               deal_batch("online", 20, seed=1, workers=1)]
    monkeypatch.setitem(sys.modules, "pandas", None)
    for result in results:
        with pytest.raises(ImportError, match=re.escape("pip install 'sanggong[frame]'")) as info:
            result.to_frame()
        assert info.value.name == "pandas"
        assert result._repr_html_().endswith("</table>")
