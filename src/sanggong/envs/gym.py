"""Gymnasium (1.x) environments over ``VectorTable``: ``SanggongEnv`` (one table, one
player) and ``SanggongVectorEnv`` (``num_envs`` tables stepped at once in the compiled
core), registered on import of this module as ``sanggong/<Preset>-v0`` for every preset
(``sanggong/Macau-v0``, ``sanggong/Online-v0``, ``sanggong/Nagaworld-v0``, ...).

Gymnasium 1.x loads no plugins (its entry-point plugin loader was removed in 1.0), so the
ids are registered when this module is imported; ``gymnasium.make`` can import it itself:
``gymnasium.make("sanggong.envs.gym:sanggong/Macau-v0")``.

- *Action*: ``MultiDiscrete([chips + 1] * bets)``, the chips on each bet of ``bets`` (a
  chip ``unit`` minor units), made legal as ``sanggong.envs._play`` says (carried stakes
  kept, a bankroll's limit, a Tie bet only with its Win bet); the stakes staked are in
  ``info["stakes"]``.
- *Observation*: a ``Dict`` of ``VectorTable``'s observation for the table (``unseen``,
  ``seen``, ``rounds``, ``cards``, ``head_card``, ``outcomes``, ``carried`` in minor
  units) and, with a bankroll, ``money`` (minor units), each space's bounds and dtype exact.
- *Reward*: the player's exact net in minor units divided by ``unit`` (a float: the only
  place money is one); ``info["reward_minor"]`` has the int.
- *Episodes*: to the shoe's end (``end_at_shoe``; truncated), ``max_rounds`` (truncated)
  or ruin (terminated), none of them by default (a continuing game); the registered ids
  end an episode at the shoe's end where a shoe lasts several rounds (Macau's eight
  decks), else after 100 rounds (the games that shuffle every round: online, san_gong,
  chinese). The next episode goes on with the same shoe, and
  ``reset(seed=s)`` deals fresh shoes, table k from ``SeedSequence(s)``'s k-th child.
- *Autoreset* (the vector): ``AutoresetMode.SAME_STEP`` (``metadata["autoreset_mode"]``):
  a table whose episode ended in a step starts the next in the same step; that step's
  observation is the new episode's first, ``info["final_obs"]`` (with the mask
  ``info["_final_obs"]``) the one it ended on. Since the shoe goes on, the two differ only
  in ``money`` (without a bankroll they are the same arrays).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..rules import PRESETS, RuleSet
from ..seeds import SeedLike
from ._play import MONEY_BOUND, Play

__all__ = ["ENV_IDS", "SanggongEnv", "SanggongVectorEnv", "observation_space"]


def observation_space(play: Play) -> spaces.Dict:
    """One table's (one player's) observation space."""
    rules, table = play.rules, play.table
    n_bets = len(play.bets)
    by_rank = table.by_rank
    cards = 52 * rules.decks
    fields: dict[str, spaces.Space[Any]] = {
        "unseen": spaces.Box(0, rules.decks * (4 if by_rank else 1), (13 if by_rank else 52,), np.int16),
        "seen": spaces.Box(0, cards, (), np.int64),
        "rounds": spaces.Box(0, cards, (), np.int64),
        "cards": spaces.Box(0, 255, (rules.hands, 3), np.uint8),
        "head_card": spaces.Box(0, 255, (), np.uint8),
        "outcomes": spaces.Box(0, 255, (n_bets,), np.uint8),
        "carried": spaces.Box(0, int(table.high.max()), (n_bets,), np.int64),
    }
    if play.bankroll is not None:
        fields["money"] = spaces.Box(-MONEY_BOUND, MONEY_BOUND, (), np.int64)
    return spaces.Dict(fields)


class SanggongVectorEnv(VectorEnv[dict[str, Any], npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` tables of ``rules``, one player each, a round at every table a step
    (see the module's notes).

    :param num_envs: tables.
    :param rules: a ``RuleSet`` or a preset's name.
    :param seed: the tables' seed until ``reset(seed=...)`` (table k deals ``Game(rules,
        seed=SeedSequence(seed)``'s k-th child)).
    :param bets: the bets staked (default every bet), in the action's order.
    :param unit: a chip in minor units (default one unit of the currency: 100 minor units).
    :param chips: the most chips on one bet.
    :param bankroll: each episode's money in minor units (terminated at ruin), or None.
    :param max_rounds: an episode's most rounds (truncated), or None.
    :param end_at_shoe: an episode ends at its shoe's end (truncated).
    :param by_rank: observe the unseen cards by rank (13 counts) instead of by card (52).
    :param workers: threads a step is split over (the result does not depend on them).
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self, num_envs: int = 1, rules: RuleSet | str = "macau", *, seed: SeedLike = None,
        bets: Sequence[str] | None = None, unit: int | None = None, chips: int = 10, bankroll: int | None = None,
        max_rounds: int | None = None, end_at_shoe: bool = False, by_rank: bool = False, workers: int = 1,
        render_mode: None = None,
    ) -> None:
        if render_mode is not None:
            raise ValueError(f"render_mode: nothing is rendered, got {render_mode!r}")
        self._play = play = Play(rules, num_envs, 1, seed=seed, bets=bets, unit=unit, chips=chips, bankroll=bankroll,
                                 max_rounds=max_rounds, end_at_shoe=end_at_shoe, by_rank=by_rank, workers=workers)
        self.num_envs = num_envs
        self.unit = play.unit
        self.bets = play.bets
        self.single_observation_space = observation_space(play)
        self.single_action_space = spaces.MultiDiscrete(np.full(len(play.bets), play.chips + 1, dtype=np.int64))
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._started = False

    @property
    def table(self) -> Any:
        """The ``VectorTable`` underneath."""
        return self._play.table

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        """New episodes at every table: fresh shoes from ``seed`` where given, else the
        shoes go on (on the first reset: the constructor's seed's shoes)."""
        super().reset(seed=seed)
        if seed is not None:
            self._play.reset(seed)
        else:
            self._play.new_episodes(None)
        self._started = True
        return self._play.observe(), self._info()

    def _info(self) -> dict[str, Any]:
        info = self._play.info
        return {"shoe": info["shoe"], "shoe_end": info["shoe_end"]}

    def step(self, actions: npt.NDArray[np.int64]) -> tuple[dict[str, Any], npt.NDArray[np.float64],
                                                            npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]]:
        """A round at every table: ``actions`` are each table's chips ``(num_envs, bets)``;
        rewards in units (``info["reward_minor"]``: exact minor units); a table whose
        episode ended is reset at once (autoreset ``SAME_STEP``: its last observation in
        ``info["final_obs"]``)."""
        play = self._play
        chips = play.check_chips(actions, (self.num_envs, len(self.bets)))
        stakes, reward, terminated, truncated = play.step(chips[:, None, :])
        info = self._info()
        info["reward_minor"] = reward[:, 0]
        info["stakes"] = stakes[:, 0]
        obs = play.observe()
        done = terminated[:, 0] | truncated[:, 0]
        if done.any():
            info["final_obs"], info["_final_obs"] = obs, done
            play.new_episodes(done)
            if play.bankroll is not None:  # (else the next episode's first observation is the last one's)
                obs = dict(obs)
                obs["money"] = play.money[:, 0].copy()
        return obs, reward[:, 0] / self.unit, terminated[:, 0], truncated[:, 0], info

    def close_extras(self, **kwargs: Any) -> None:
        self._play.table.close()


class SanggongEnv(gymnasium.Env[dict[str, Any], npt.NDArray[np.int64]]):
    """One table of ``rules``, one player: ``SanggongVectorEnv``'s parameters (the
    module's notes), its table's observation, action and reward. ``reset()`` without a
    seed starts the next episode where the last ended (the shoe goes on)."""

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(
        self, rules: RuleSet | str = "macau", *, seed: SeedLike = None, bets: Sequence[str] | None = None,
        unit: int | None = None, chips: int = 10, bankroll: int | None = None, max_rounds: int | None = None,
        end_at_shoe: bool = False, by_rank: bool = False, render_mode: None = None,
    ) -> None:
        if render_mode is not None:
            raise ValueError(f"render_mode: nothing is rendered, got {render_mode!r}")
        self._play = play = Play(rules, 1, 1, seed=seed, bets=bets, unit=unit, chips=chips, bankroll=bankroll,
                                 max_rounds=max_rounds, end_at_shoe=end_at_shoe, by_rank=by_rank, workers=1)
        self.unit = play.unit
        self.bets = play.bets
        self.observation_space = observation_space(play)
        self.action_space = spaces.MultiDiscrete(np.full(len(play.bets), play.chips + 1, dtype=np.int64))

    @property
    def table(self) -> Any:
        """The ``VectorTable`` (of one table) underneath."""
        return self._play.table

    def _obs(self) -> dict[str, Any]:
        return {name: value[0, ...] for name, value in self._play.observe().items()}

    def _info(self) -> dict[str, Any]:
        info = self._play.info
        return {"shoe": int(info["shoe"][0]), "shoe_end": bool(info["shoe_end"][0])}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new episode: a fresh shoe from ``seed`` where given, else the shoe goes on."""
        super().reset(seed=seed)
        if seed is not None:
            self._play.reset(seed)
        else:
            self._play.new_episodes(None)
        return self._obs(), self._info()

    def step(self, action: npt.NDArray[np.int64]) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """A round: ``action`` is the chips on each bet; the reward in units
        (``info["reward_minor"]``: exact minor units)."""
        play = self._play
        chips = play.check_chips(action, (len(self.bets),))
        stakes, reward, terminated, truncated = play.step(chips[None, None, :])
        info = self._info()
        info["reward_minor"] = int(reward[0, 0])
        info["stakes"] = stakes[0, 0]
        return self._obs(), float(reward[0, 0] / self.unit), bool(terminated[0, 0]), bool(truncated[0, 0]), info

    def close(self) -> None:
        self._play.table.close()


def _id(preset: str) -> str:
    return "sanggong/" + "".join(part.capitalize() for part in preset.split("_")) + "-v0"


ENV_IDS: dict[str, str] = {_id(name): name for name in PRESETS}
"""Every registered id and its preset: ``sanggong/Macau-v0`` is ``"macau"``, ..."""



def episode_kwargs(rules: RuleSet) -> dict[str, Any]:
    """A registered id's episode: its shoe where a shoe is dealt over several rounds (the
    multi-deck games), else 100 rounds (the games that shuffle every round)."""
    per_round = 3 * rules.hands + rules.burn_per_round + 4
    if 52 * rules.decks - max(rules.cut_card_range) >= 2 * per_round:
        return {"end_at_shoe": True}
    return {"end_at_shoe": False, "max_rounds": 100}


for _env_id, _preset in ENV_IDS.items():
    if _env_id not in gymnasium.registry:
        gymnasium.register(_env_id, entry_point=f"{__name__}:SanggongEnv", vector_entry_point=f"{__name__}:SanggongVectorEnv",
                           kwargs={"rules": _preset, **episode_kwargs(PRESETS[_preset])})
