"""Tricky Treats as a PettingZoo AEC environment (``pip install 'tricky-treats[pettingzoo]'``).

>>> from tricky_treats.adapters.pettingzoo import env
>>> game = env(players=3, variants=["family"])
>>> game.reset(seed=7)
>>> game.agent_selection
'player_0'
>>> observation, reward, terminated, truncated, info = game.last()
>>> sorted(observation), int(observation["action_mask"].sum()) > 0
(['action_mask', 'observation'], True)

Agents are ``player_0`` to ``player_{n-1}`` by seat. Observations are dicts like those of
PettingZoo's classic games: ``"observation"``, the viewer's ``PlayerView`` encoded by
``tricky_treats.adapters.observation`` (version ``OBSERVATION_VERSION``), and
``"action_mask"``, 1 for each legal action by its code in ``game.action_space``. Actions are
those codes. The agent to act may act twice in a row: a refresh of the market is not the
turn's action (R8). Rewards come only when the game ends, from the result
(``outcome_rewards``): +1 for a sole winner, ``-1/(n-1)`` for the others, shared wins split
the +1 so the rewards always sum to 0. The game never truncates.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from tricky_treats.adapters._text import outcome_rewards, view_text
from tricky_treats.adapters.observation import ObservationEncoding
from tricky_treats.dealing import new_game
from tricky_treats.errors import ConfigurationError
from tricky_treats.model import GameState

__all__ = ["TrickyTreatsEnv", "env", "outcome_rewards", "raw_env"]

_Observation = dict[str, np.ndarray[Any, Any]]


class TrickyTreatsEnv(AECEnv[str, _Observation, int]):  # type: ignore[misc]
    """Tricky Treats for 2 to 4 agents, with variants; see the module's description.

    ``players`` is the player count, ``variants`` and ``variant_options`` are as for
    ``tricky_treats.new_game()``. ``reset(seed=s)`` deals the game ``new_game(seed=s)`` deals;
    a ``reset()`` without a seed deals the next game of a sequence drawn from the last seed
    given (or from ``seed`` here, else from the operating system). ``render_mode`` is
    ``"ansi"`` (``render()`` returns the text) or ``"human"`` (it prints it after every
    step). The text shows what the agent to act sees. ``env.game`` is the current
    ``GameState``.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo reads it from the class
        "render_modes": ["ansi", "human"],
        "name": "tricky_treats_v1",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 2,
        variants: Iterable[str] = (),
        variant_options: Mapping[str, Mapping[str, Any]] | None = None,
        render_mode: str | None = None,
        seed: int | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ConfigurationError(
                f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}"
            )
        self.render_mode = render_mode
        self._players = players
        self._variants = tuple(variants)
        self._variant_options = {k: dict(v) for k, v in (variant_options or {}).items()}
        probe = self._deal(0)  # checks the configuration and sizes the spaces
        self.encoding = ObservationEncoding(probe)
        count = len(probe.players)
        self.possible_agents = [f"player_{seat}" for seat in range(count)]
        self.agent_name_mapping = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        size = self.encoding.action_space.size
        self.observation_spaces: dict[str, spaces.Dict] = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(
                        low=0.0,
                        high=self.encoding.high,
                        shape=(self.encoding.size,),
                        dtype=np.float32,
                    ),
                    "action_mask": spaces.Box(low=0, high=1, shape=(size,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces: dict[str, spaces.Discrete] = {
            agent: spaces.Discrete(size) for agent in self.possible_agents
        }
        self._seeds = random.Random(seed) if seed is not None else None
        self.game: GameState = probe
        self.agents: list[str] = []

    def _deal(self, seed: int) -> GameState:
        return new_game(
            self._players,
            seed=seed,
            variants=self._variants,
            variant_options=self._variant_options,
        )

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same object every time)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``: a code of ``game.action_space``."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: ``new_game(seed=seed)``, or the next seed of the sequence."""
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = seed
        else:
            if self._seeds is None:
                self._seeds = random.Random(secrets.randbits(63))
            game_seed = self._seeds.getrandbits(63)
        self.game = self._deal(game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        seat = self.game.current_player
        assert seat is not None
        self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> _Observation:
        """What ``agent`` sees, encoded, and its legal-action mask (zeros off turn)."""
        view = self.game.view(self.agent_name_mapping[agent])
        return {
            "observation": self.encoding.encode(view),
            "action_mask": self.encoding.action_mask(view),
        }

    def step(self, action: int | None) -> None:
        """Play ``action`` (a code) for the agent to act; ``None`` once it is terminated.

        Raises ``InvalidActionError`` for a code outside the action space and
        ``IllegalActionError`` (naming the rule) for an action the rules forbid now; the
        environment is unchanged either way.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        code = int(action) if isinstance(action, (int, np.integer)) else action
        after = self.game.apply(self.game.action_space.decode(code))  # type: ignore[arg-type]
        self.game = after
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if after.current_player is None:
            for seat, reward in enumerate(outcome_rewards(after)):
                self.rewards[self.possible_agents[seat]] = reward
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[after.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The game as the agent to act sees it: returned (``ansi``) or printed (``human``)."""
        if self.render_mode is None:
            raise ConfigurationError("render() needs render_mode 'ansi' or 'human'")
        seat = self.agent_name_mapping.get(self.agent_selection, 0) if self.agents else 0
        text = view_text(self.game.view(seat))
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Nothing to release: the text rendering holds no window."""


raw_env = TrickyTreatsEnv
"""The environment without wrappers, as PettingZoo's classic modules name it."""


def env(**kwargs: Any) -> AECEnv[str, _Observation, int]:
    """The environment wrapped as PettingZoo's classic games are (bounds and call order).

    Takes the arguments of ``TrickyTreatsEnv``.
    """
    wrapped: Any = wrappers.AssertOutOfBoundsWrapper(TrickyTreatsEnv(**kwargs))
    result: AECEnv[str, _Observation, int] = wrappers.OrderEnforcingWrapper(wrapped)
    return result
