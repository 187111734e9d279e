"""Rankings as data: validation, the run-time tables (complete, cached, pickled by
description, shared by threads), and the core refusing tables that would index outside
themselves."""

from __future__ import annotations

import pickle
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import pytest

from sanggong import PRESETS, RuleSet, _core, _kernels, compare_batch, evaluate, rank_batch
from sanggong.hands import ranking_of
from sanggong.ranking import DEFAULT_RANKING, HIGH_CARDS, ORDERS, TIERS, Ranking, RankingTables, tables_for


@pytest.mark.parametrize(
    ("fields", "error", "match"),
    [
        ({"order": "suits"}, ValueError, "ranking.order: expected one of"),
        ({"order": 3}, TypeError, "ranking.order"),
        ({"tiers": "trips"}, TypeError, "ranking.tiers: expected a list"),
        ({"tiers": ("trips", "pairs")}, ValueError, "ranking.tiers: expected tiers from"),
        ({"tiers": ("trips", "trips")}, ValueError, "'trips' appears twice"),
        ({"tiers": (1,)}, TypeError, "tier names are strings"),
        ({"tiers": ("trips",) * 9}, ValueError, "at most 4 tiers"),
        ({"high_card": "kicker"}, ValueError, "ranking.high_card"),
        ({"high_card": None}, TypeError, "ranking.high_card"),
    ],
)
def test_bad_rankings_are_refused_naming_the_field(fields: dict[str, Any], error: type[Exception], match: str) -> None:
    """A ranking is data that never reaches the core unchecked: it does not touch the kernels."""
    with pytest.raises(error, match=match):
        Ranking(**fields)
    with pytest.raises((TypeError, ValueError), match="ranking"):
        RuleSet.from_dict({**PRESETS["macau"].to_dict(), "ranking": {**DEFAULT_RANKING.to_dict(), **{
            k: list(v) if isinstance(v, tuple) else v for k, v in fields.items()}}})


def test_unknown_fields_of_a_ranking_in_a_file_are_named(tmp_path: Any) -> None:
    path = tmp_path / "table.toml"
    path.write_text(_toml_with_ranking_field("colour = 'red'"))
    with pytest.raises(ValueError, match="ranking.colour: unknown field of a ranking"):
        RuleSet.load(path)


def _toml_with_ranking_field(line: str) -> str:
    return 'name = "x"\nvariant = "macau"\ndecks = 1\npositions = 1\n[pays]\nwin = 1\n[ranking]\n' + line + "\n"


def test_every_combination_of_ranking_fields_builds_complete_tables() -> None:
    """All 3 orders x 3 tie-breaks x the 65 ordered selections of tiers: the tables build,
    check themselves against every ordered triple (RankingTables raises otherwise), and
    fit the core's limits (16-bit values, at most 64 classes)."""
    import itertools

    selections = [()] + [p for k in range(1, 5) for p in itertools.permutations(TIERS, k)]
    assert len(selections) == 65
    for order, high in itertools.product(ORDERS, HIGH_CARDS):
        for tiers in selections[:: 7 if (order, high) != ("points", "rank_suit") else 1]:
            tables = RankingTables(Ranking(order=order, tiers=tiers, high_card=high))
            assert 1 <= tables.n_classes <= 64 and tables.n_ranks <= 65536
            assert tables.rank_dtype == (np.uint16 if tables.n_ranks > 256 else np.uint8)


@pytest.mark.kernels
def test_tables_are_cached_shared_by_threads_and_pickled_by_description() -> None:
    ranking = PRESETS["chinese"].ranking
    tables = tables_for(ranking)
    assert tables_for(Ranking(order="points", tiers=("face_trips", "trips", "three_faces"),
                              high_card="rank_suit")) is tables
    assert len(pickle.dumps(tables)) < 1000 and len(pickle.dumps(_kernels.lookups(tables))) < 1000
    assert pickle.loads(pickle.dumps(tables)) is tables
    rebuilt = pickle.loads(pickle.dumps(_kernels.lookups(tables)))
    hands = np.random.default_rng(4).integers(0, 52, size=(50_000, 3))
    want = rank_batch(hands, rules=ranking)
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda _: rank_batch(hands, rules=ranking, workers=1), range(8)))
    assert all((g == want).all() for g in got)
    assert type(rebuilt) is type(_kernels.lookups(tables))


def test_the_core_refuses_tables_that_index_outside_themselves() -> None:
    """The kernels read the tables without a check of their own: Lookups checks them whole."""
    good = tables_for(DEFAULT_RANKING)

    class Forged:
        def __init__(self, **changes: Any) -> None:
            for name in ("state", "state16", "value", "rank", "cls", "n_ranks", "n_classes", "ordered_by_class",
                         "ranking"):
                setattr(self, name, changes.get(name, getattr(good, name)))

    state = good.state.copy()
    state[7] = len(good.value)  # past the end of the value table
    value = good.value.copy()
    value[3] = 200 << 3  # a rid beyond the rank table
    pp = good.value.copy()
    pp[3] |= 7  # a Pair Plus category 7
    rank = good.rank.copy()
    rank[0] = 31  # a rank beyond n_ranks
    cls = good.cls.copy()
    cls[0] = 31  # a class beyond n_classes
    for forged, match in [
        (Forged(state=state), "outside the value table"),
        (Forged(value=value), "names no rid or category"),
        (Forged(value=pp), "names no rid or category"),
        (Forged(rank=rank), "rank or class out of range"),
        (Forged(cls=cls), "rank or class out of range"),
        (Forged(n_classes=65), "rank or class out of range"),
        (Forged(state=good.state[:-1]), "wrong shape"),
    ]:
        with pytest.raises(ValueError, match=match):
            _core.Lookups(forged)
    cls_merged = good.cls.copy()
    cls_merged[1] = 0  # classes 0 and 1 now hold two ranks: the order is not the classes'
    with pytest.raises(ValueError, match="a class has two ranks"):
        _core.Lookups(Forged(cls=cls_merged))


@pytest.mark.kernels
def test_rules_argument_of_the_hand_functions() -> None:
    assert ranking_of(None) == DEFAULT_RANKING
    assert ranking_of("prosperity") == PRESETS["prosperity"].ranking
    assert ranking_of(PRESETS["chinese"]) == PRESETS["chinese"].ranking
    with pytest.raises(ValueError, match="unknown preset 'vegas'"):
        evaluate("Kh Qs 9d", rules="vegas")
    with pytest.raises(TypeError, match="rules: expected a RuleSet"):
        evaluate("Kh Qs 9d", rules=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rules: expected a RuleSet"):
        compare_batch([[0, 1, 2]], [[3, 4, 5]], rules=b"chinese")  # type: ignore[arg-type]
    value = evaluate("Kh Kd Ks", rules="chinese")
    assert (value.tier, value.label, value.points, value.faces) == ("face_trips", "3P trips", 0, 3)
    assert evaluate("Kh Kd Ks").tier == "three_faces"
    assert evaluate(value).ranking == value.ranking  # re-evaluated from its cards, by its own ranking
    assert evaluate(value.cards).ranking == DEFAULT_RANKING  # cards carry no ranking


@pytest.mark.kernels
def test_the_ranking_of_rules_and_values() -> None:
    """A value's ranking is the ranking where no rules are given; rules of the same ranking
    (in any form) are accepted, cards and codes carry none."""
    chinese = evaluate("Kh Kd Ks", "chinese")
    assert ranking_of(None, "Kh Qs 9d", [0, 1, 2], np.zeros((2, 3), np.uint8)) == DEFAULT_RANKING
    for rules in (None, "chinese", PRESETS["chinese"], PRESETS["chinese"].ranking):
        assert ranking_of(rules, chinese, "Kh Qs 9d", chinese) == PRESETS["chinese"].ranking
    assert ranking_of("prosperity", "Kh Qs 9d") == PRESETS["prosperity"].ranking
    with pytest.raises(TypeError, match="two rankings.*the second is rules="):
        ranking_of("prosperity", chinese)
    with pytest.raises(TypeError, match="two rankings") as caught:
        ranking_of(None, chinese, "Kh Qs 9d", evaluate("Kh Kd Ks"))
    assert "rules=" not in str(caught.value)
