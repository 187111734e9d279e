"""examples/point_zero_agent.py (docs/tutorials/learning.md), small and deterministic: an
agent that learns from rewards alone, through ``VectorTable``, stakes Point 0 where the
exact EV of the unseen cards (``ShoeEvaluator``, which the agent never reads) is positive
far more often than chance, wins more than a flat bettor at the same fresh tables, and its
recorded play is flagged by ``detect`` where the flat bettor's is not.

Not marked ``kernels``: it plays a million rounds, hours in the pure-Python twin, which
deals and pays the same rounds as the core (tests/test_vector_table.py)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from sanggong import detect, verify_log

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture(scope="module")
def example() -> Iterator[ModuleType]:
    sys.path.insert(0, str(EXAMPLES))
    try:
        import point_zero_agent

        yield point_zero_agent
    finally:
        sys.path.remove(str(EXAMPLES))


@pytest.fixture(scope="module")
def agent(example: ModuleType) -> object:
    return example.train(example.Agent(), 2_000, tables=512, seed=1)  # a million rounds


def test_the_agent_stakes_where_the_exact_ev_is_positive(example: ModuleType, agent: object) -> None:
    """Its decisions against the sign of the exact EV of the unseen cards, over the shoes
    of tables it never played; at the start (no model yet) it stakes everywhere, right
    only where the EV is positive."""
    right, positive = example.agreement(agent, tables=8, rounds=120, seed=5)
    assert example.agreement(example.Agent(), tables=8, rounds=120, seed=5) == (positive, positive)
    assert 0.2 < positive < 0.6
    assert right > max(0.8, positive + 0.15, 1 - positive + 0.15)  # far better than always, or never


def test_the_agent_beats_a_flat_bettor_on_fresh_seeds(example: ModuleType, agent: object) -> None:
    mine, flat = example.evaluate(agent, tables=1024, rounds=2_000, seed=2)
    assert mine.per_100 - mine.half_width > flat.per_100 + flat.half_width
    assert mine.per_100 - mine.half_width > 0  # and wins, against the house edge


def test_its_recorded_play_is_flagged(example: ModuleType, agent: object, tmp_path: Path) -> None:
    path = tmp_path / "table.jsonl"
    example.record(agent, path, rounds=1_500, seed=3)
    assert verify_log(path, require_seal=True).ok
    found = detect(path)
    assert found["player", "agent"].flagged and not found["player", "flat"].flagged
    assert found["player", "flat"].bets == 1_500
