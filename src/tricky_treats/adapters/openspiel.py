"""Tricky Treats as the OpenSpiel game ``python_tricky_treats`` (extra ``openspiel``).

Importing this module registers the game with ``pyspiel.register_game``:

>>> import pyspiel
>>> import tricky_treats.adapters.openspiel
>>> game = pyspiel.load_game("python_tricky_treats", {"players": 3, "seed": 7})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), state.chance_outcomes()
(True, [(0, 1.0)])
>>> state.apply_action(0)                       # the deal
>>> state.current_player(), len(state.legal_actions()) > 0
(0, True)

Parameters: ``players`` (2 to 4, default 2), ``seed`` (default 0) and ``variants`` (variant
names separated by commas, default none). Imperfect information, sequential, zero-sum,
terminal rewards (``outcome_rewards``: +1 for a sole winner, ``-1/(n-1)`` for the others,
shared wins split the +1).

The game starts with one chance node, the deal, in OpenSpiel's *sampled stochastic* chance
mode: its single outcome (action 0, ``"deal"``) deals ``tricky_treats.new_game(seed=s)``
for the next seed ``s`` drawn from a ``random.Random(seed)`` that the game object keeps, so
the n-th deal of a loaded game is always the same. Actions are the codes of
``game.action_space``, legal actions in ascending order.

Observations go through OpenSpiel's observer API. The observation tensor is the encoding of
``tricky_treats.adapters.observation`` (``OBSERVATION_VERSION``), with one named piece per
section; the information-state tensor adds ``history``, the public action log as action
code + 1 per turn (0 for turns not yet played), so it has perfect recall. The strings are a
plain-text rendering of the player's view, and for the information state its history in
action notation. Before the deal, tensors are zeros and strings say so.

``resample_from_infostate(state, player, rng)`` builds a state consistent with what
``player`` sees (``tt.determinize``); OpenSpiel's IS-MCTS bot takes it with
``bot.set_resampler``.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from tricky_treats.adapters._text import outcome_rewards, view_text
from tricky_treats.adapters.observation import ObservationEncoding, max_game_length
from tricky_treats.agents import determinize
from tricky_treats.dealing import new_game
from tricky_treats.errors import ConfigurationError
from tricky_treats.model import GameState

__all__ = [
    "GAME_NAME",
    "TrickyTreatsGame",
    "TrickyTreatsObserver",
    "TrickyTreatsState",
    "outcome_rewards",
    "resample_from_infostate",
]

GAME_NAME = "python_tricky_treats"
"""The name to give ``pyspiel.load_game``."""

_DEFAULTS: dict[str, Any] = {"players": 2, "seed": 0, "variants": ""}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Tricky Treats",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


class TrickyTreatsGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game: its parameters, its sizes and the sequence of deals."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        values = {**_DEFAULTS, **(params or {})}
        players, seed, names = values["players"], values["seed"], values["variants"]
        if not isinstance(names, str):
            raise ConfigurationError(f"variants must be names separated by commas, got {names!r}")
        self.variants = tuple(name.strip() for name in names.split(",") if name.strip())
        self.seed = seed
        self.player_count = players
        probe = self.deal(seed)  # checks the parameters and sizes the game
        self.encoding = ObservationEncoding(probe)
        self.action_space = probe.action_space
        count = len(probe.players)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.action_space.size,
            max_chance_outcomes=1,
            num_players=count,
            min_utility=-1.0 / (count - 1),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_game_length(probe),
        )
        super().__init__(_GAME_TYPE, info, values)
        self._deals = random.Random(seed)

    def deal(self, seed: int) -> GameState:
        """The game ``tricky_treats.new_game`` deals with this game's parameters and ``seed``."""
        return new_game(self.player_count, seed=seed, variants=self.variants)

    def next_deal(self) -> GameState:
        """The next deal of this game's sequence (the chance node's outcome)."""
        return self.deal(self._deals.getrandbits(63))

    def new_initial_state(self) -> TrickyTreatsState:
        """The state before the deal: a chance node."""
        return TrickyTreatsState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> TrickyTreatsObserver:
        """An observer for ``iig_obs_type`` (default: the observation, no perfect recall)."""
        return TrickyTreatsObserver(
            self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class TrickyTreatsState(pyspiel.State):  # type: ignore[misc]
    """A state: before the deal, or a ``GameState`` of the engine (``game_state``).

    Its only Python attribute is the immutable ``game_state``, so cloning it is cheap.
    """

    def __init__(self, game: TrickyTreatsGame) -> None:
        super().__init__(game)
        self.game_state: GameState | None = None

    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` before the deal, ``TERMINAL`` once over."""
        game = self.game_state
        if game is None:
            return int(pyspiel.PlayerId.CHANCE)
        if game.current_player is None:
            return int(pyspiel.PlayerId.TERMINAL)
        return game.current_player

    def _legal_actions(self, player: int) -> list[int]:
        game = self.game_state
        assert game is not None
        assert player == game.current_player
        encode = game.action_space.encode
        return [encode(action) for action in game.legal_actions()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The deal: one outcome, whose result is sampled (see the module's description)."""
        return [(0, 1.0)]

    def _apply_action(self, action: int) -> None:
        game = self.game_state
        if game is None:
            self.game_state = self.get_game().next_deal()
        else:
            self.game_state = game.apply(game.action_space.decode(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return "deal"
        return str(self.get_game().action_space.decode(action))

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.game_state is not None and self.game_state.is_over

    def returns(self) -> list[float]:
        """Each seat's reward: ``outcome_rewards`` once over, zeros before."""
        game = self.game_state
        if game is None:
            return [0.0] * self.get_game().num_players()
        return list(outcome_rewards(game))

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Any
    ) -> TrickyTreatsState:
        """``resample_from_infostate`` as OpenSpiel's ``State`` API has it.

        ``probability_sampler()`` (a number in [0, 1), as from
        ``pyspiel.UniformProbabilitySampler``) seeds the draw.
        """
        seed = int(probability_sampler() * 2**53)
        return resample_from_infostate(self, player_id, random.Random(seed))

    def __str__(self) -> str:
        game = self.game_state
        if game is None:
            return "before the deal"
        return f"deal {game.config.seed}: {' '.join(str(a) for a in game.history)}"


class TrickyTreatsObserver:
    """The observer OpenSpiel's ``make_py_observer`` returns (see the module's description)."""

    def __init__(self, game: TrickyTreatsGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ConfigurationError(f"observation parameters are not supported, got {params}")
        if (
            not iig_obs_type.public_info
            or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ConfigurationError(
                "python_tricky_treats observes public information and the observing "
                "player's own: use IIGObservationType(perfect_recall=...) with the defaults"
            )
        self._encoding = encoding = game.encoding
        self._perfect_recall = bool(iig_obs_type.perfect_recall)
        history = game.max_game_length() if self._perfect_recall else 0
        self.tensor = np.zeros(encoding.size + history, np.float32)
        self.dict: dict[str, np.ndarray[Any, Any]] = {
            s.name: self.tensor[s.start : s.stop].reshape(s.shape) for s in encoding.sections
        }
        if self._perfect_recall:
            self.dict["history"] = self.tensor[encoding.size :]

    def set_from(self, state: TrickyTreatsState, player: int) -> None:
        """Write what ``player`` sees of ``state`` into ``tensor``."""
        game = state.game_state
        if game is None:
            self.tensor.fill(0)
            return
        size = self._encoding.size
        self.tensor[:size] = self._encoding.encode(game.view(player))
        if self._perfect_recall:
            history = self.tensor[size:]
            history.fill(0)
            encode = game.action_space.encode
            codes = [encode(action) + 1 for action in game.history]
            history[: len(codes)] = codes

    def string_from(self, state: TrickyTreatsState, player: int) -> str:
        """What ``player`` sees of ``state`` as text."""
        game = state.game_state
        if game is None:
            return "before the deal"
        text = view_text(game.view(player))
        if self._perfect_recall:
            text += "\nHistory: " + " ".join(str(action) for action in game.history)
        return text


def resample_from_infostate(
    state: TrickyTreatsState, player: int, rng: random.Random
) -> TrickyTreatsState:
    """A clone of ``state`` with what ``player`` cannot see sampled anew (``tt.determinize``).

    The clone has the same information state for ``player``; the deck order and the other
    players' secret tiles are drawn with ``rng``.
    """
    game = state.game_state
    if game is None:
        raise ConfigurationError("nothing to resample before the deal")
    sampled: TrickyTreatsState = state.clone()
    sampled.game_state = determinize(game.view(player), rng)
    return sampled


if GAME_NAME not in pyspiel.registered_names():  # pragma: no branch - imported once
    pyspiel.register_game(_GAME_TYPE, TrickyTreatsGame)
