"""A PettingZoo ``ParallelEnv`` over ``VectorTable``: ``players`` players at one table,
agents ``player_0``, ``player_1``, ..., each staking on its own every round.

Each agent's action, observation and reward are ``sanggong.envs.gym.SanggongEnv``'s for
its seat (chips on each bet made legal; the table's observation with its own carried
stakes and, with a bankroll, its money; its net in minor units / ``unit`` as a float, the
int in ``info[agent]["reward_minor"]``). An agent ruined (bankroll) is terminated and
leaves; at the episode's end (the shoe's, ``end_at_shoe``, or ``max_rounds``) every agent
is truncated. ``reset()`` seats every agent again, the shoe going on; ``reset(seed=s)``
deals a fresh shoe from ``s`` (the table deals ``Game(rules, seed=SeedSequence(s)``'s
first child)).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv  # type: ignore[import-untyped,unused-ignore]

from ..rules import RuleSet
from ..seeds import SeedLike
from ._play import Play
from .gym import observation_space

__all__ = ["SanggongParallelEnv"]


class SanggongParallelEnv(ParallelEnv[str, dict[str, Any], Any]):  # type: ignore[misc,unused-ignore]
    """``players`` players at one table of ``rules`` (see the module's notes); the other
    parameters are ``SanggongVectorEnv``'s."""

    metadata: dict[str, Any] = {"render_modes": [], "name": "sanggong_v0", "is_parallelizable": True}

    def __init__(
        self, rules: RuleSet | str = "macau", players: int = 2, *, seed: SeedLike = None,
        bets: Sequence[str] | None = None, unit: int | None = None, chips: int = 10, bankroll: int | None = None,
        max_rounds: int | None = None, end_at_shoe: bool = True, by_rank: bool = False, render_mode: None = None,
    ) -> None:
        if render_mode is not None:
            raise ValueError(f"render_mode: nothing is rendered, got {render_mode!r}")
        self._play = play = Play(rules, 1, players, seed=seed, bets=bets, unit=unit, chips=chips, bankroll=bankroll,
                                 max_rounds=max_rounds, end_at_shoe=end_at_shoe, by_rank=by_rank, workers=1)
        self.render_mode = None
        self.unit = play.unit
        self.bets = play.bets
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self.agents = list(self.possible_agents)
        self._seat = {agent: p for p, agent in enumerate(self.possible_agents)}
        self._observation_space = observation_space(play)
        self._action_space = spaces.MultiDiscrete(np.full(len(play.bets), play.chips + 1, dtype=np.int64))
        self._started = False

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """Every agent's (one object)."""
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Every agent's (one object)."""
        return self._action_space

    @property
    def table(self) -> Any:
        """The ``VectorTable`` (of one table) underneath."""
        return self._play.table

    def _obs(self, agents: list[str]) -> dict[str, dict[str, Any]]:
        return {agent: {name: value[0, ...] for name, value in self._play.observe(self._seat[agent]).items()}
                for agent in agents}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
        """Every agent back at the table: a fresh shoe from ``seed`` where given, else the
        shoe goes on; each agent's observation and info."""
        if seed is not None:
            self._action_space.seed(seed)
            self._play.reset(seed)
        else:
            self._play.new_episodes(None)
        self.agents = list(self.possible_agents)
        shoe = int(self._play.info["shoe"][0])
        return self._obs(self.agents), {agent: {"shoe": shoe} for agent in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[
            dict[str, dict[str, Any]], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]]:
        """A round at the table: each live agent's chips on each bet (an agent not named
        stakes nothing); rewards in units, exact minor units in each agent's info."""
        play = self._play
        chips = np.zeros((1, len(self.possible_agents), len(self.bets)), dtype=np.int64)
        active = np.zeros((1, len(self.possible_agents)), dtype=np.bool_)
        for agent, action in actions.items():
            if agent not in self._seat:
                raise ValueError(f"actions: {agent!r} is not one of the agents ({', '.join(self.possible_agents)})")
            if agent in self.agents:
                chips[0, self._seat[agent]] = play.check_chips(action, (len(self.bets),))
                active[0, self._seat[agent]] = True
        stakes, reward, terminated, truncated = play.step(chips, active)
        live = self.agents
        shoe = int(play.info["shoe"][0])
        seat = self._seat
        rewards = {a: float(reward[0, seat[a]] / self.unit) for a in live}
        ends = {a: bool(terminated[0, seat[a]]) for a in live}
        cuts = {a: bool(truncated[0, seat[a]]) for a in live}
        infos = {a: {"shoe": shoe, "reward_minor": int(reward[0, seat[a]]), "stakes": stakes[0, seat[a]]} for a in live}
        obs = self._obs(live)
        self.agents = [a for a in live if not (ends[a] or cuts[a])]
        return obs, rewards, ends, cuts, infos

    def render(self) -> None:
        """Nothing is rendered."""
        return None

    def close(self) -> None:
        self._play.table.close()
