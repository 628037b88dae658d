"""One seat of Tricky Treats against chosen opponents, as a Gymnasium env (needs gymnasium).

Importing this module registers ``tricky_treats/TrickyTreats-v0`` (``ENV_ID``) in Gymnasium's
registry, for ``gymnasium.make`` and ``gymnasium.make_vec`` (without the import,
``gymnasium.make("tricky_treats.adapters.gym:tricky_treats/TrickyTreats-v0")`` imports it):

>>> import gymnasium
>>> import tricky_treats.adapters.gym
>>> env = gymnasium.make("tricky_treats/TrickyTreats-v0", players=2, seat=0, opponents="greedy")
>>> obs, info = env.reset(seed=7)
>>> obs.shape == env.observation_space.shape, info["action_mask"].shape == (env.action_space.n,)
(True, True)
>>> obs, reward, terminated, truncated, info = env.step(int(info["action_mask"].argmax()))
>>> envs = gymnasium.make_vec("tricky_treats/TrickyTreats-v0", num_envs=4, opponents="random")
>>> type(envs).__name__, envs.observation_space.shape[0]
('TrickyTreatsSeatVectorEnv', 4)

- ``TrickyTreatsEnv(players=2, seat=0, opponents="random", variants=(), ...)``, a
  ``gymnasium.Env``: the agent plays ``seat`` (or a seat drawn per game with
  ``seat="random"``); the other seats are the ``opponents``, who play their moves inside
  ``step`` until it is the agent's turn again or the game ends (and inside ``reset``, where
  the game does not start with the agent). The observation is the agent's view encoded by
  ``ObservationEncoding`` (``Box(0, encoding.high)``, ``float32``), the action is a code of
  ``game.action_space`` (``Discrete``), ``info["action_mask"]`` (``int8``) its legal codes.
  The reward is the PettingZoo adapter's outcome reward of the agent's seat when the game
  ends (+1 for a sole winner, ``-1/(n-1)`` for a loss, shared wins split the +1), else 0;
  ``terminated`` is True then, ``truncated`` never (a game ends by the rules).
  ``info["rewards"]`` has every seat's at the end, ``info["final_scores"]`` the totals.
- ``reset(seed=s)`` deals ``tt.new_game(players, seed=s)`` and seeds ``np_random``
  (Gymnasium's ``seeding.np_random(s)``), which draws the random seats and the opponents'
  randomness; ``reset()`` deals the game of a seed drawn from ``np_random``, so that the
  same seed gives the same games and moves.
- ``TrickyTreatsSeatVectorEnv(num_envs, ...)``, a ``gymnasium.vector.VectorEnv`` built on
  ``TrickyTreatsVectorEnv``, is the same game batched (``gymnasium.make_vec``'s
  ``"vector_entry_point"``): same-step auto-reset, ``reset(seed=s)`` deals env ``i``
  ``new_game(seed=s + i)`` (``autoreset_mode=AutoresetMode.NEXT_STEP``: Gymnasium's next-step
  auto-reset, the finished games' final observations first), rewards ``(num_envs,)`` for the
  agent's seats, ``infos["seat"]``
  the agent's seat in each game and ``infos["rewards"]`` every seat's. The opponents of
  every game waiting for them choose at once, with one call of the opponents' function.
- ``opponents`` is ``"random"`` (uniform over the legal codes), ``"greedy"`` (the choice of
  ``tricky_treats.agents.GreedyAgent``, made for the whole batch at once by
  ``tricky_treats.simulator.greedy_codes``), ``"policy"`` (the shipped learned policy's,
  ``ValuePolicyAgent.shipped()``, made for the whole batch at once on the compact core by
  ``tricky_treats.adapters.policy.shipped_policy_codes``; it draws nothing) or a function
  ``choose(simulators, rng) -> list[int]``, given the games in which an opponent is to
  move (``tt.Simulator``s: read them, do not play on them) and ``np_random``, and giving a
  legal code for each.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from tricky_treats.adapters._text import view_text
from tricky_treats.adapters._vector_api import (
    RENDER_MODES,
    Actions,
    Observations,
    Seed,
    SharedCalls,
    checked_render_mode,
    reset_seeds,
)
from tricky_treats.adapters._vector_input import seeds_of
from tricky_treats.adapters.policy import shipped_policy_codes
from tricky_treats.adapters.vector import TrickyTreatsVectorEnv
from tricky_treats.components import ComponentData
from tricky_treats.errors import ConfigurationError, InvalidActionError, brief
from tricky_treats.simulator import Simulator, greedy_codes

__all__ = [
    "ENV_ID",
    "ILLEGAL_ACTIONS",
    "OPPONENTS",
    "Opponents",
    "TrickyTreatsEnv",
    "TrickyTreatsSeatVectorEnv",
    "random_codes",
]

ENV_ID = "tricky_treats/TrickyTreats-v0"
"""The id of ``TrickyTreatsEnv`` in Gymnasium's registry."""

Opponents = Callable[[Sequence[Simulator], np.random.Generator], list[int]]
"""Chooses a code for the player to move in each game given, with the env's ``np_random``."""


def random_codes(simulators: Sequence[Simulator], rng: np.random.Generator) -> list[int]:
    """A legal code drawn uniformly with ``rng`` in each game: the ``"random"`` opponents."""
    codes = []
    for sim in simulators:
        legal = sim.legal_codes()
        codes.append(legal[int(rng.integers(len(legal)))])
    return codes


def _greedy_codes(simulators: Sequence[Simulator], rng: np.random.Generator) -> list[int]:
    """``GreedyAgent``'s choice in each game: the ``"greedy"`` opponents.

    ``simulator.greedy_codes`` for the whole batch at once (one call into the compact core),
    its ties broken by a ``random.Random`` seeded from ``rng``.
    """
    return greedy_codes(simulators, random.Random(int(rng.integers(1 << 63))))


ILLEGAL_ACTIONS = ("lose", "raise")
"""What an illegal code of the agent does: ``"lose"`` ends its game, a loss (reward -1, as
PettingZoo's ``TerminateIllegalWrapper``); ``"raise"`` raises ``IllegalActionError``."""

OPPONENTS: Mapping[str, Opponents] = {
    "random": random_codes,
    "greedy": _greedy_codes,
    "policy": shipped_policy_codes,
}
"""The opponents named by a string: ``"random"``, ``"greedy"`` and ``"policy"``."""


def _opponents_of(opponents: object) -> Opponents:
    if isinstance(opponents, str):
        if opponents in OPPONENTS:
            return OPPONENTS[opponents]
    elif callable(opponents):
        return opponents
    raise ConfigurationError(
        f"opponents must be one of {sorted(OPPONENTS)} or a function choose(simulators, rng) "
        f"-> list[int], got {brief(opponents)}"
    )


def _autoreset_mode_of(mode: object) -> AutoresetMode:
    """``mode``, ``AutoresetMode.SAME_STEP`` or ``NEXT_STEP`` (or their values)."""
    for allowed in (AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP):
        if mode is allowed or mode == allowed.value:
            return allowed
    raise ConfigurationError(
        f"autoreset_mode must be AutoresetMode.SAME_STEP or AutoresetMode.NEXT_STEP, "
        f"got {brief(mode)}"
    )


def _seat_of(seat: object, players: int) -> int | None:
    """``seat``, a seat of ``players`` (None for ``"random"``); else ``ConfigurationError``."""
    if seat == "random":
        return None
    if type(seat) is int and 0 <= seat < players:
        return seat
    raise ConfigurationError(
        f"seat must be a seat from 0 to {players - 1} or 'random', got {brief(seat)}"
    )


class TrickyTreatsSeatVectorEnv(SharedCalls, VectorEnv[Observations, Actions, npt.NDArray[Any]]):
    """``num_envs`` games, in each one agent's seat against opponents (see the module)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - Gymnasium's class attribute
        "autoreset_mode": AutoresetMode.SAME_STEP,
        "render_modes": list(RENDER_MODES),
    }

    def __init__(
        self,
        num_envs: int = 1,
        players: int = 2,
        seat: int | str = 0,
        opponents: str | Opponents = "random",
        variants: Iterable[str] = (),
        variant_options: Mapping[str, Mapping[str, Any]] | None = None,
        *,
        first_player: int = 0,
        any_mean_house: bool = False,
        refresh_ends_turn: bool = False,
        components: ComponentData | None = None,
        render_mode: str | None = None,
        illegal_action: str = "lose",
        autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
    ) -> None:
        self._choose = _opponents_of(opponents)
        mode = _autoreset_mode_of(autoreset_mode)
        self.metadata = {**type(self).metadata, "autoreset_mode": mode}
        self._next_step = mode is AutoresetMode.NEXT_STEP
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ConfigurationError(
                f"illegal_action must be one of {list(ILLEGAL_ACTIONS)}, "
                f"got {brief(illegal_action)}"
            )
        self.illegal_action = illegal_action
        self.render_mode = checked_render_mode(render_mode)
        self.games = TrickyTreatsVectorEnv(
            num_envs,
            players,
            variants,
            variant_options,
            first_player=first_player,
            any_mean_house=any_mean_house,
            refresh_ends_turn=refresh_ends_turn,
            components=components,
            render_mode=render_mode,
        )
        """The games, stepped for every seat; read them, do not step them."""
        games = self.games
        self.players = games.players
        self._seat = _seat_of(seat, self.players)
        self.num_envs = n = games.num_envs
        self.encoding = games.encoding
        self.observation_size = games.observation_size
        self.action_count = games.action_count
        self.single_observation_space = games.single_observation_space
        self.single_action_space: spaces.Discrete = games.single_action_space
        self.observation_space = games.observation_space
        self.action_space = games.action_space
        self.seats: npt.NDArray[np.int64] = np.full(n, self._seat or 0, np.int64)
        self.rewards: npt.NDArray[np.float32] = np.zeros(n, np.float32)
        self.seat_rewards: npt.NDArray[np.float32] = np.zeros((n, self.players), np.float32)
        self.final_scores: npt.NDArray[np.int64] = np.zeros((n, self.players), np.int64)
        self.terminations: npt.NDArray[np.bool_] = np.zeros(n, np.bool_)
        self.truncations: npt.NDArray[np.bool_] = np.zeros(n, np.bool_)
        self.illegal: npt.NDArray[np.bool_] = np.zeros(n, np.bool_)
        self._envs = np.arange(n, dtype=np.intp)
        # Next-step auto-reset: the envs whose game ended in the last step (their next step
        # only shows the new game), and the arrays returned, with the final observations.
        self._pending: npt.NDArray[np.bool_] = np.zeros(n, np.bool_)
        self._observations = games.observations.copy() if self._next_step else games.observations
        self._masks = games.action_masks.copy() if self._next_step else games.action_masks
        self._info_seats = self.seats.copy() if self._next_step else self.seats
        self._ready = False

    def reset(
        self, seed: Seed = None, options: dict[str, Any] | None = None
    ) -> tuple[Observations, dict[str, Any]]:
        """Deal every env a game, seeded as ``TrickyTreatsVectorEnv``'s: ``(obs, infos)``."""
        self._deal(reset_seeds(self, seed))
        self._pending[:] = False
        self._show(None, None)
        return self._observations, self._infos()

    def _deal(self, seeds: list[int]) -> None:
        """Deal env ``i`` the game of ``seeds[i]`` and play the opponents to the agent's turn."""
        games = self.games
        games._np_random = self.np_random  # one generator for the seats and the opponents
        games._deal_all(seeds)
        if self._seat is None:
            self.seats[:] = self.np_random.integers(self.players, size=self.num_envs)
        self._opponents_move()
        self._clear()
        self._ready = True

    def _clear(self) -> None:
        self.rewards[:] = 0
        self.seat_rewards[:] = 0
        self.final_scores[:] = 0
        self.terminations[:] = False
        self.illegal[:] = False

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        Observations,
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """Play the agent's code in each game, then the opponents' moves up to its next turn.

        Returns ``(obs, rewards, terminations, truncations, infos)``; a game that ends is
        dealt again at once (same-step auto-reset) and played to the agent's first turn.
        """
        if not self._ready:
            raise InvalidActionError("step() before reset(): call reset() first")
        games = self.games
        games._finished.clear()  # the games that end in this step, for their final views
        found = np.asarray(actions)
        skipped = self._pending.copy()  # next-step auto-reset: their new game is shown only
        right_shape = found.shape == (self.num_envs,)
        if skipped.any() and right_shape:
            found = np.where(skipped, games.action_masks.argmax(axis=1), found)
        if self.illegal_action == "lose" and right_shape:
            inside = found.dtype.kind in "iu" and ((found >= 0) & (found < self.action_count)).all()
            if inside and not (legal := games.action_masks[self._envs, found] == 1).all():
                skipped |= ~legal  # those games are lost; the others play
                found = np.where(legal, found, games.action_masks.argmax(axis=1))
        codes = games._checked(found if right_shape else actions)
        before = games.simulators if self._next_step else None
        seats = self.seats.copy() if self._next_step else None
        self._clear()
        # Observed once the opponents have moved (_opponents_move), for the agent.
        moving = ~skipped if skipped.any() else None
        self._collect(games._advance(codes, moving, observe=False))
        lost = skipped & ~self._pending
        if lost.any():
            self._lose(np.flatnonzero(lost).tolist())
        self._opponents_move()
        self._show(before, seats)
        return self._observations, self.rewards, self.terminations, self.truncations, self._infos()

    def _show(
        self, before: tuple[Simulator, ...] | None, seats: npt.NDArray[np.int64] | None
    ) -> None:
        """Next-step auto-reset: the arrays returned, the finished games' final observations.

        Those of the games that ended (``before``, the agent at ``seats``) stand in place of
        their new games', which the next step shows.
        """
        if not self._next_step:
            return
        games = self.games
        self._observations[:] = games.observations
        self._masks[:] = games.action_masks
        self._info_seats[:] = self.seats
        self._pending[:] = self.terminations
        if before is None or seats is None:
            return
        for env in np.flatnonzero(self.terminations).tolist():
            seat = int(seats[env])
            self._observations[env] = games._final_observation(env, seat, before[env])
            self._masks[env] = 0  # the game is over
            self._info_seats[env] = seat

    def _collect(self, ended: list[int]) -> None:
        """Keep the outcome of the games that ``ended``, and draw their next seats."""
        if not ended:
            return
        games = self.games
        self.rewards[ended] = games.seat_rewards[ended, self.seats[ended]]
        self.seat_rewards[ended] = games.seat_rewards[ended]
        self.final_scores[ended] = games.final_scores[ended]
        self.terminations[ended] = True
        if self._seat is None:
            self.seats[ended] = self.np_random.integers(self.players, size=len(ended))

    def _lose(self, envs: list[int]) -> None:
        """End the games of ``envs``, whose agent played an illegal code: a loss, -1."""
        self.games._redeal(envs)
        seats = self.seats[envs]
        self.rewards[envs] = -1.0
        others = 1.0 / (self.players - 1)  # the other seats share the win
        self.seat_rewards[envs] = others
        self.seat_rewards[envs, seats] = -1.0
        self.final_scores[envs] = 0
        self.terminations[envs] = True
        self.illegal[envs] = True
        if self._seat is None:
            self.seats[envs] = self.np_random.integers(self.players, size=len(envs))

    def _opponents_move(self) -> None:
        """Play the opponents in every game until the agent is to move in each.

        The games are observed once, when the agent is to move in each: the built-in
        opponents give legal codes (from the games' own legal actions), played without
        observing the games in between; another function's codes are checked against the
        masks of the games observed.
        """
        games = self.games
        trusted = any(self._choose is built_in for built_in in OPPONENTS.values())
        while True:
            waiting = games.current_players != self.seats
            if not waiting.any():
                if not games._observed:
                    games._observe()
                return
            envs = np.flatnonzero(waiting).tolist()
            chosen = self._choose([games._simulator(env) for env in envs], self.np_random)
            if trusted:  # legal by construction; the others are skipped
                codes = [0] * self.num_envs
                for env, code in zip(envs, chosen, strict=True):
                    codes[env] = code
                self._collect(games._advance(codes, waiting, observe=False))
                continue
            if not games._observed:
                games._observe()
            found = games.action_masks.argmax(axis=1)  # legal; skipped where none waits
            found[envs] = chosen
            self._collect(games._advance(games._checked(found), waiting, observe=False))

    def _infos(self) -> dict[str, Any]:
        games = self.games
        return {
            "action_mask": self._masks,
            "seat": self._info_seats,
            "seed": games.seeds,
            "final_scores": self.final_scores,
            "rewards": self.seat_rewards,
            "illegal_action": self.illegal,
        }

    @property
    def simulators(self) -> tuple[Simulator, ...]:
        """The games being played, one simulator per env (read them; do not play on them)."""
        return self.games.simulators

    def __repr__(self) -> str:
        seat = "random" if self._seat is None else self._seat
        return (
            f"TrickyTreatsSeatVectorEnv(num_envs={self.num_envs}, players={self.players}, "
            f"seat={seat!r})"
        )


class TrickyTreatsEnv(gymnasium.Env[npt.NDArray[np.float32], np.int64]):
    """One game: the agent's seat against ``opponents`` (see the module)."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        players: int = 2,
        seat: int | str = 0,
        opponents: str | Opponents = "random",
        variants: Iterable[str] = (),
        variant_options: Mapping[str, Mapping[str, Any]] | None = None,
        *,
        first_player: int = 0,
        any_mean_house: bool = False,
        refresh_ends_turn: bool = False,
        components: ComponentData | None = None,
        render_mode: str | None = None,
        illegal_action: str = "lose",
    ) -> None:
        self._batch = TrickyTreatsSeatVectorEnv(
            1,
            players,
            seat,
            opponents,
            variants,
            variant_options,
            first_player=first_player,
            any_mean_house=any_mean_house,
            refresh_ends_turn=refresh_ends_turn,
            components=components,
            render_mode=render_mode,
            illegal_action=illegal_action,
        )
        batch = self._batch
        self.render_mode = batch.render_mode
        self.players = batch.players
        self.encoding = batch.encoding
        self.observation_space = batch.single_observation_space
        self.action_space = batch.single_action_space
        self._final_text: str | None = None
        self._over = False  # the game has ended (the batch has dealt the next one already)

    @property
    def simulator(self) -> Simulator:
        """The game being played (read it; do not play on it)."""
        return self._batch.games._simulator(0)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal codes of the agent's turn, as booleans (``info["action_mask"]``'s).

        The method sb3-contrib's ``MaskablePPO`` asks the env for; all False once a game
        has ended (before ``reset``).
        """
        if self._over:
            return np.zeros(self._batch.action_count, np.bool_)
        masks: npt.NDArray[np.bool_] = self._batch.games.action_masks[0] == 1
        return masks

    def reset(
        self, *, seed: int | np.integer[Any] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Deal a game (``new_game(seed=seed)``, else a seed drawn from ``np_random``)."""
        if seed is not None:
            seeds_of(seed, 1)  # the library's error for a bad seed, before anything changes
        super().reset(seed=None if seed is None else int(seed))  # Gymnasium takes ints only
        game_seed = int(self.np_random.integers(1 << 63)) if seed is None else int(seed)
        batch = self._batch
        batch._np_random = self.np_random
        batch._deal([game_seed])
        self._final_text = None
        self._over = False
        return batch.games.observations[0].copy(), self._info(None)

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """Play the agent's ``action`` (a code), then the opponents up to its next turn."""
        batch = self._batch
        before = self.simulator
        seat = int(batch.seats[0])
        batch.step(np.array([action]))
        if not batch.terminations[0]:
            return batch.games.observations[0].copy(), 0.0, False, False, self._info(None)
        # The batch has dealt the next game already: the observation is the finished one's.
        self._over = True
        obs = batch.games._final_observation(0, seat, before)
        if batch.illegal[0]:  # the agent's move was not played
            self._final_text = None
            info = self._info(seat) | {"illegal_action": True}
            return obs, -1.0, True, False, info
        if self.render_mode == "ansi":
            self._final_text = view_text(before.state().view(seat))
        else:
            self._final_text = None
        return obs, float(batch.rewards[0]), True, False, self._info(seat)

    def _info(self, ended_seat: int | None) -> dict[str, Any]:
        batch = self._batch
        games = batch.games
        if ended_seat is None:
            return {
                "action_mask": games.action_masks[0].copy(),
                "seat": int(batch.seats[0]),
                "seed": int(games.seeds[0]),
            }
        return {
            "action_mask": np.zeros(batch.action_count, np.int8),  # the game is over
            "seat": ended_seat,
            "rewards": batch.seat_rewards[0].copy(),
            "final_scores": batch.final_scores[0].copy(),
        }

    def render(self) -> str | None:
        """With ``render_mode="ansi"``, the agent's view as text."""
        if self.render_mode is None:
            return None
        if self._final_text is not None:
            return self._final_text
        texts = self._batch.render()
        return None if texts is None else texts[0]

    def __repr__(self) -> str:
        return f"TrickyTreatsEnv({self._batch!r})"


def _register() -> None:
    """Register ``ENV_ID`` in Gymnasium's registry, once (at this module's import)."""
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(
            id=ENV_ID,
            entry_point=f"{__name__}:TrickyTreatsEnv",
            vector_entry_point=f"{__name__}:TrickyTreatsSeatVectorEnv",
        )


_register()
