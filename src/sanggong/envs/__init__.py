"""Reinforcement-learning adapters over ``VectorTable`` (the optional extra ``[rl]``:
Gymnasium 1.x and PettingZoo): ``sanggong.envs.gym`` (``SanggongEnv``,
``SanggongVectorEnv``, the ``sanggong/<Preset>-v0`` ids, registered when it is imported)
and ``sanggong.envs.pettingzoo`` (``SanggongParallelEnv``, several players at one table).
This package imports neither: import the module you use. Money is a float only in these
adapters' rewards (minor units / ``unit``); the int is in ``info["reward_minor"]``.
"""
