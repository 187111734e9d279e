"""The Gymnasium and PettingZoo adapters (sanggong.envs, the [rl] extra): their rewards are
the VectorTable's exact nets / unit on the same cards and stakes, the stakes they stake are
the actions made legal by the rules written out again here, their spaces hold what they
return, and the libraries' own checkers pass."""

from __future__ import annotations

import numpy as np
import pytest

pytestmark = pytest.mark.kernels

gymnasium = pytest.importorskip("gymnasium", reason="the [rl] extra (gymnasium) is not installed")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from sanggong import MACAU, ONLINE, Game  # noqa: E402
from sanggong.envs.gym import ENV_IDS, SanggongEnv, SanggongVectorEnv  # noqa: E402
from sanggong.rules import PRESETS  # noqa: E402
from sanggong.seeds import child  # noqa: E402
from sanggong.vector import VectorTable  # noqa: E402


def _legal(chips: np.ndarray, carried: np.ndarray, money: int | None, unit: int, requires: list[int]) -> np.ndarray:
    """One player's stakes for ``chips``, one bet at a time (the adapters' rules, in plain Python)."""
    wanted = [max(int(c) * unit, int(k)) for c, k in zip(chips, carried, strict=True)]
    if money is not None:
        room = max(money - sum(int(k) for k in carried), 0)
        for j, k in enumerate(carried):
            extra = min(wanted[j] - int(k), room)
            wanted[j] = int(k) + extra
            room -= extra
    for j, partner in enumerate(requires):
        if partner >= 0 and wanted[j] > 0 and carried[j] == 0 and (partner >= len(wanted) or wanted[partner] == 0):
            wanted[j] = 0
    return np.array(wanted, dtype=np.int64)


@pytest.mark.parametrize(("rules", "bankroll"), [(MACAU, None), (MACAU, 2_000), (ONLINE, 1_500)],
                         ids=["macau", "macau-bankroll", "online-bankroll"])
def test_vector_env_is_the_vector_table_over_the_unit(rules: object, bankroll: int | None) -> None:
    n, unit = 6, 50
    env = SanggongVectorEnv(n, rules, seed=11, unit=unit, chips=4, bankroll=bankroll, end_at_shoe=True, max_rounds=25)
    twin = VectorTable(rules, n, seed=11, limits=4 * unit)
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    env.action_space.seed(2)
    obs, _ = env.reset()
    twin_obs, _ = twin.reset()
    money = np.full(n, bankroll or 0)
    episode_rounds = np.zeros(n, dtype=int)
    ended = 0
    for _ in range(80):
        assert env.observation_space.contains(obs)
        actions = env.action_space.sample()
        want = np.stack([_legal(actions[k], twin_obs["carried"][k, 0], None if bankroll is None else int(money[k]),
                                unit, twin.requires.tolist()) for k in range(n)])
        obs, reward, terminated, truncated, info = env.step(actions)
        assert np.array_equal(info["stakes"], want)
        twin_obs, twin_reward, _, _, twin_info = twin.step(want[:, None, :])
        assert reward.dtype == np.float64 and np.array_equal(reward, twin_reward[:, 0] / unit)
        assert np.array_equal(info["reward_minor"], twin_reward[:, 0])
        for name in ("unseen", "seen", "rounds", "cards", "head_card", "outcomes"):
            assert np.array_equal(obs[name], twin_obs[name])
        assert np.array_equal(obs["carried"], twin_obs["carried"][:, 0])
        episode_rounds += 1
        money += twin_reward[:, 0]
        assert np.array_equal(truncated, twin_info["shoe_end"] | (episode_rounds >= 25))
        assert np.array_equal(terminated, money <= 0 if bankroll is not None else np.zeros(n, bool))
        done = terminated | truncated
        if done.any():
            ended += 1
            assert np.array_equal(info["_final_obs"], done)
            if bankroll is not None:
                assert np.array_equal(info["final_obs"]["money"], money)
        episode_rounds[done] = 0
        if bankroll is not None:
            money[done] = bankroll
            assert np.array_equal(obs["money"], money)
    assert ended


def test_reset_with_a_seed_deals_the_games_of_its_children() -> None:
    env = SanggongVectorEnv(3, "macau", seed=1)
    env.reset(seed=77)
    obs = env.step(np.zeros((3, len(env.bets)), dtype=np.int64))[0]
    for k in range(3):
        record = Game(MACAU, seed=child(np.random.SeedSequence(77), k)).play()
        assert [c.code for c in record.banker.cards] == obs["cards"][k, 0].tolist()


def test_single_env_is_one_table_and_episodes_go_on_with_the_shoe() -> None:
    env = SanggongEnv("macau", seed=4, unit=100, end_at_shoe=True)
    twin = VectorTable(MACAU, 1, seed=4, limits=1_000)
    obs, _ = env.reset()
    zero = np.zeros(len(env.bets), dtype=np.int64)
    action = zero.copy()
    action[0] = 3
    twin_obs, _ = twin.reset()
    episodes = 0
    for _ in range(60):
        obs, reward, terminated, truncated, info = env.step(action)
        twin_obs, twin_reward, _, _, twin_info = twin.step(np.maximum(action * 100, twin_obs["carried"][0, 0])[None, None])
        assert isinstance(reward, float) and reward == twin_reward[0, 0] / 100 == info["reward_minor"] / 100
        assert np.array_equal(obs["cards"], twin_obs["cards"][0]) and not terminated
        assert truncated == bool(twin_info["shoe_end"][0])
        if truncated:
            episodes += 1
            obs, _ = env.reset()  # the next episode: the same shoe, dealt on
            assert obs["rounds"] == 0 and np.array_equal(obs["unseen"], twin_obs["unseen"][0])
    assert episodes >= 2


@pytest.mark.parametrize("env_id", sorted(ENV_IDS))
def test_every_registered_id_passes_the_environment_checker(env_id: str) -> None:
    env = gymnasium.make(env_id)
    assert env.unwrapped.table.rules == PRESETS[ENV_IDS[env_id]]
    check_env(env.unwrapped)
    vec = gymnasium.make_vec(env_id, num_envs=3)
    assert isinstance(vec, SanggongVectorEnv)
    obs, _ = vec.reset(seed=1)
    vec.action_space.seed(1)
    for _ in range(5):
        assert vec.observation_space.contains(obs)
        obs, reward, *_ = vec.step(vec.action_space.sample())
        assert reward.shape == (3,)


def test_the_env_checker_passes_with_a_bankroll_and_a_round_limit() -> None:
    check_env(gymnasium.make("sanggong/Online-v0", bankroll=1_000, max_rounds=20, by_rank=True).unwrapped)


def test_bad_actions_are_refused() -> None:
    env = SanggongVectorEnv(2, "online", seed=1, chips=3)
    env.reset()
    bets = len(env.bets)
    for actions, message in ((np.zeros((2, bets + 1), np.int64), "shape"), (np.zeros((2, bets)), "integer"),
                             (np.full((2, bets), 4), "4 chips is not in 0..3"), (np.full((2, bets), -1), "-1 chips")):
        with pytest.raises(ValueError, match=message):
            env.step(actions)
    with pytest.raises(ValueError, match="render_mode"):
        SanggongEnv("macau", render_mode="human")  # type: ignore[arg-type]


def test_parallel_env_passes_the_api_test_and_pays_each_seat() -> None:
    pytest.importorskip("pettingzoo", reason="the [rl] extra (pettingzoo) is not installed")
    from pettingzoo.test import parallel_api_test, parallel_seed_test

    from sanggong.envs.pettingzoo import SanggongParallelEnv

    parallel_api_test(SanggongParallelEnv("macau", 3, seed=1), num_cycles=100)
    parallel_seed_test(lambda: SanggongParallelEnv("macau", 3, bankroll=2_000))  # a seed's runs are the same
    parallel_api_test(SanggongParallelEnv("online", 2, seed=1, bankroll=300, max_rounds=40, end_at_shoe=False),
                      num_cycles=100)
    env = SanggongParallelEnv("macau", 3, seed=8, unit=10, chips=5, bankroll=400, end_at_shoe=False, max_rounds=200)
    twin = VectorTable(MACAU, 1, players=3, seed=8, limits=50)
    obs, _ = env.reset()
    twin_obs, _ = twin.reset()
    rng = np.random.default_rng(5)
    money = [400, 400, 400]
    rounds = 0
    while env.agents:
        actions = {a: rng.integers(0, 6, len(env.bets)) for a in env.agents}
        want = np.zeros((1, 3, len(env.bets)), dtype=np.int64)
        for p in range(3):
            chips = actions.get(f"player_{p}", np.zeros(len(env.bets), np.int64))
            want[0, p] = _legal(chips, twin_obs["carried"][0, p], money[p], 10, twin.requires.tolist())
        live = list(env.agents)
        obs, rewards, terminated, truncated, infos = env.step(actions)
        twin_obs, twin_reward, *_ = twin.step(want)
        rounds += 1
        assert set(rewards) == set(live)
        for a in live:
            p = int(a.split("_")[1])
            assert rewards[a] == twin_reward[0, p] / 10 and infos[a]["reward_minor"] == twin_reward[0, p]
            assert np.array_equal(infos[a]["stakes"], want[0, p])
            assert env.observation_space(a).contains(obs[a]) and obs[a]["money"] == money[p] + twin_reward[0, p]
            assert terminated[a] == (money[p] + twin_reward[0, p] <= 0) and truncated[a] == (rounds == 200)
        for p in range(3):
            money[p] += int(twin_reward[0, p])
    assert any(m <= 0 for m in money)  # somebody was ruined (and staked nothing after)
