"""An agent that learns from rewards alone when to stake Point 0 on a Macau shoe, through
``sanggong.VectorTable`` (docs/tutorials/learning.md).

The agent knows nothing of the game's maths: not the pay table, not the hands, not which
cards make a Point 0. It sees what a player at the table sees (the unseen cards' composition
by rank, ``VectorTable(..., by_rank=True)``'s ``unseen``) and the reward of each stake, and
fits, by least squares, a linear model of the reward of one unit staked on that
composition (a linear contextual bandit, epsilon-greedy). It stakes one unit when the model
says the stake pays, and now and then at random, to keep learning where it does not. NumPy
only; thousands of tables a step.

    python examples/point_zero_agent.py          # learn, evaluate on fresh seeds, detect it

Money stays exact: stakes and rewards are int minor units; only the learner's model is
float (it decides, it never pays).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np

from sanggong import MACAU, ShoeEvaluator, VectorTable, detect

BET = "point:0"
UNIT = 100
"""A stake of one unit, in minor units."""


def features(unseen: np.ndarray) -> np.ndarray:
    """(tables, 13) counts of the unseen cards by rank (or (tables, 52) by card) ->
    (tables, 13): a constant and each of the first twelve ranks' share of the unseen cards
    over a fresh shoe's (the thirteenth follows from them)."""
    if unseen.shape[1] == 52:
        unseen = unseen.reshape(len(unseen), 13, 4).sum(axis=2)
    shares = unseen / unseen.sum(axis=1, keepdims=True)
    x = np.empty(unseen.shape, dtype=np.float64)
    x[:, 0] = 1.0
    x[:, 1:] = shares[:, :12] * 13.0 - 1.0
    return x


@dataclass
class Agent:
    """A linear model of the reward of a unit staked, from the composition (``features``),
    fitted by ridge least squares on the rounds it staked; epsilon-greedy."""

    epsilon: float = 0.2
    ridge: float = 1.0
    rng: np.random.Generator = field(default_factory=lambda: np.random.default_rng(0))

    def __post_init__(self) -> None:
        self.a = np.eye(13) * self.ridge
        self.b = np.zeros(13)
        self.w = np.zeros(13)
        self.rounds = 0

    def greedy(self, x: np.ndarray) -> np.ndarray:
        """Stake where the model expects the stake to pay (at the start, w = 0: everywhere)."""
        return x @ self.w >= 0.0

    def act(self, x: np.ndarray) -> np.ndarray:
        explore = self.rng.random(len(x)) < self.epsilon
        return np.where(explore, self.rng.random(len(x)) < 0.5, self.greedy(x))

    def learn(self, x: np.ndarray, staked: np.ndarray, reward: np.ndarray) -> None:
        """Add the rounds staked (their features, their reward in units) to the fit."""
        xs = x[staked]
        self.a += xs.T @ xs
        self.b += xs.T @ reward[staked]
        self.rounds += len(x)

    def fit(self) -> None:
        self.w = np.linalg.solve(self.a, self.b)


def _table(tables: int, seed: int, players: int = 1) -> VectorTable:
    return VectorTable(MACAU, tables, players=players, seed=seed, bets=[BET], by_rank=True)


def train(agent: Agent, rounds: int, *, tables: int = 1024, seed: int = 1, refit: int = 50,
          checkpoints: list[int] | None = None, on_checkpoint: object = None) -> Agent:
    """Play ``rounds`` rounds at each of ``tables`` tables, learning from each step's
    rewards; the model refitted every ``refit`` steps. ``on_checkpoint(agent)`` is called
    after the steps listed in ``checkpoints``."""
    table = _table(tables, seed)
    obs, _ = table.reset()
    stakes = np.zeros((tables, 1, 1), dtype=np.int64)
    marks = set(checkpoints or ())
    for step in range(1, rounds + 1):
        x = features(obs["unseen"])
        staked = agent.act(x)
        stakes[:, 0, 0] = np.where(staked, UNIT, 0)
        obs, reward, _, _, _ = table.step(stakes)
        agent.learn(x, staked, reward[:, 0] / UNIT)
        if step % refit == 0:
            agent.fit()
        if step in marks and callable(on_checkpoint):
            agent.fit()
            on_checkpoint(agent)
    agent.fit()
    return agent


@dataclass(frozen=True)
class Gain:
    """Units won per 100 rounds dealt, over independent tables: the mean and its 95%
    interval's half-width (1.96 standard errors of the tables' means)."""

    per_100: float
    half_width: float

    def __str__(self) -> str:
        return f"{self.per_100:+.2f} ± {self.half_width:.2f}"


def _gain(won: np.ndarray, rounds: int) -> Gain:
    """``won``: each table's net in minor units over ``rounds`` rounds."""
    per_table = won / UNIT / rounds * 100
    return Gain(float(per_table.mean()), float(1.96 * per_table.std(ddof=1) / np.sqrt(len(per_table))))


def evaluate(agent: Agent, *, tables: int = 1024, rounds: int = 2_000, seed: int = 2) -> tuple[Gain, Gain]:
    """The agent's greedy play (no exploration, no learning) and a flat bettor's (a unit
    every round) at the same tables on fresh seeds: each one's ``Gain``."""
    table = _table(tables, seed, players=2)
    obs, _ = table.reset()
    stakes = np.zeros((tables, 2, 1), dtype=np.int64)
    stakes[:, 1, 0] = UNIT
    won = np.zeros((tables, 2), dtype=np.int64)  # exact, in minor units
    for _ in range(rounds):
        stakes[:, 0, 0] = np.where(agent.greedy(features(obs["unseen"])), UNIT, 0)
        obs, reward, _, _, _ = table.step(stakes)
        won += reward
    return _gain(won[:, 0], rounds), _gain(won[:, 1], rounds)


def agreement(agent: Agent, *, tables: int = 16, rounds: int = 200, seed: int = 4) -> tuple[float, float]:
    """How often the agent's greedy choice is the right one: staked where the exact EV of
    the unseen cards is positive, not where it is not (``ShoeEvaluator``: the game's maths,
    which the agent never reads, only judges it), over the rounds of fresh tables; and how
    often the EV is positive."""
    table = VectorTable(MACAU, tables, seed=seed, bets=[BET])
    obs, _ = table.reset()
    nothing = np.zeros((tables, 1, 1), dtype=np.int64)
    right = positive = 0
    for _ in range(rounds):
        stake = agent.greedy(features(obs["unseen"]))
        for k in range(tables):
            good = ShoeEvaluator(MACAU, obs["unseen"][k], bets=[BET]).ev(BET) > 0
            right += int(good == stake[k])
            positive += int(good)
        obs = table.step(nothing)[0]
    return right / (tables * rounds), positive / (tables * rounds)


def record(agent: Agent, path: str | os.PathLike[str], *, rounds: int = 2_000, seed: int = 3) -> None:
    """The agent (``agent``) and a flat bettor (``flat``) at one table for ``rounds``
    rounds, recorded as ``Game``'s log at ``path`` (``VectorTable.record``)."""
    table = _table(1, seed, players=2)
    obs, _ = table.reset()
    log = table.record(0, names=["agent", "flat"], out=path)
    stakes = np.zeros((1, 2, 1), dtype=np.int64)
    stakes[:, 1, 0] = UNIT
    for _ in range(rounds):
        stakes[:, 0, 0] = np.where(agent.greedy(features(obs["unseen"])), UNIT, 0)
        obs, _, _, _, _ = table.step(stakes)
    log.close()


def learning_curve(steps: list[int], *, tables: int = 1024, seed: int = 1, eval_tables: int = 1024,
                   eval_rounds: int = 4_000, eval_seed: int = 2) -> tuple[list[tuple[int, Gain]], Gain]:
    """Train one agent for ``max(steps)`` steps; after each step listed, its greedy play's
    ``Gain`` at the same fresh tables (``evaluate``): [(rounds trained, gain)], and the
    flat bettor's ``Gain`` at those tables."""
    curve: list[tuple[int, Gain]] = []
    flat: list[Gain] = []

    def checkpoint(agent: Agent) -> None:
        mine, last = evaluate(agent, tables=eval_tables, rounds=eval_rounds, seed=eval_seed)
        curve.append((agent.rounds, mine))
        flat[:] = [last]  # (the same tables every time)

    train(Agent(), max(steps), tables=tables, seed=seed, checkpoints=steps, on_checkpoint=checkpoint)
    return curve, flat[0]


def plot_curve(curve: list[tuple[int, Gain]], perfect: float, flat: Gain) -> None:  # pragma: no cover (docs)
    """The learning curve against perfect play and a flat bettor (matplotlib)."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    rounds = [r for r, _ in curve]
    ax.errorbar(rounds, [g.per_100 for _, g in curve], yerr=[g.half_width for _, g in curve], marker="o",
                capsize=3, label="the agent's greedy play (95% interval)")
    ax.axhline(perfect, color="tab:green", linestyle="--", label=f"perfect information ({perfect:+.2f})")
    ax.axhline(flat.per_100, color="tab:red", linestyle=":", label=f"a unit every round ({flat.per_100:+.2f})")
    ax.axhline(0, color="grey", linewidth=0.5)
    ax.set_xscale("log")
    ax.set_xlabel("rounds learned from (all tables)")
    ax.set_ylabel("units won per 100 rounds (fresh seeds)")
    ax.set_title("Point 0 at Macau: learning from rewards alone")
    ax.legend(loc="lower right", fontsize="small")
    fig.tight_layout()


def main() -> None:  # pragma: no cover (the tutorial runs each part)
    import tempfile

    agent = train(Agent(), 20_000)
    mine, flat = evaluate(agent, rounds=10_000)
    print(f"agent {mine} units / 100 rounds, flat {flat}")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "table.jsonl")
        record(agent, path)
        for p in detect(path).players:
            print(f"{p.id:6} z {p.z:6.2f}  {'FLAGGED' if p.flagged else ''}")


if __name__ == "__main__":  # pragma: no cover
    main()
