"""A linear policy over the observation encoding, as ``examples/train_policy.py`` trains it.

``LinearPolicyAgent.load(path)`` reads the ``.npz`` file the trainer writes: ``weights``
(one row per action code), ``bias``, ``players`` and ``observation_version``. The agent
encodes its view (``tricky_treats.adapters.observation``), divides it by the encoding's
bounds (``high``, at least 1), scores every action code by ``weights @ x + bias`` and plays
the legal action with the highest score. It draws nothing: ``rng`` is not used.

numpy is needed (the ``pettingzoo`` and ``openspiel`` extras bring it).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from tricky_treats.actions import Action
from tricky_treats.adapters.observation import OBSERVATION_VERSION, ObservationEncoding
from tricky_treats.dealing import new_game
from tricky_treats.errors import ConfigurationError
from tricky_treats.views import PlayerView

__all__ = ["LinearPolicyAgent"]


class LinearPolicyAgent:
    """Plays the legal action whose linear score of the observation is highest."""

    def __init__(
        self, weights: npt.NDArray[np.float64], bias: npt.NDArray[np.float64], players: int
    ) -> None:
        if weights.ndim != 2 or bias.shape != (weights.shape[0],):
            raise ConfigurationError(
                f"a linear policy has weights of shape (actions, observation size) and a bias "
                f"per action, got {weights.shape} and {bias.shape}"
            )
        self.weights = weights
        self.bias = bias
        self.players = players
        self._encodings: dict[tuple[str, ...], tuple[ObservationEncoding, Any]] = {}

    @classmethod
    def load(cls, path: str | Path) -> LinearPolicyAgent:
        """The policy in the ``.npz`` file at ``path`` (as ``examples/train_policy.py`` writes)."""
        try:
            with np.load(path, allow_pickle=False) as data:
                fields = {name: data[name] for name in data.files}
        except (OSError, ValueError) as exc:
            raise ConfigurationError(f"cannot read the policy file {path}: {exc}") from None
        missing = {"weights", "bias", "players", "observation_version"} - set(fields)
        if missing:
            raise ConfigurationError(
                f"the policy file {path} lacks {sorted(missing)}: write it with "
                f"examples/train_policy.py"
            )
        version = int(fields["observation_version"])
        if version != OBSERVATION_VERSION:
            raise ConfigurationError(
                f"the policy file {path} is for observation version {version}, this library "
                f"encodes version {OBSERVATION_VERSION}: train it again"
            )
        return cls(fields["weights"], fields["bias"], int(fields["players"]))

    def _encoding(self, view: PlayerView) -> tuple[ObservationEncoding, Any]:
        key = tuple(ref.name for ref in view.variants)
        known = self._encodings.get(key)
        if known is None:
            encoding = ObservationEncoding(new_game(self.players, seed=0, variants=key))
            if self.weights.shape != (encoding.action_space.size, encoding.size):
                raise ConfigurationError(
                    f"the policy's weights have shape {self.weights.shape}, the game needs "
                    f"{(encoding.action_space.size, encoding.size)}"
                )
            known = (encoding, 1.0 / np.maximum(encoding.high, 1.0))
            self._encodings[key] = known
        return known

    def choose(
        self, view: PlayerView, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """The legal action with the highest score."""
        if len(view.players) != self.players:
            raise ConfigurationError(
                f"this policy plays {self.players}-player games, the view has "
                f"{len(view.players)} players"
            )
        encoding, scale = self._encoding(view)
        scores = self.weights @ (encoding.encode(view) * scale) + self.bias
        encode = encoding.action_space.encode
        return max(legal_actions, key=lambda action: scores[encode(action)])

    def __repr__(self) -> str:
        return f"LinearPolicyAgent(players={self.players}, actions={self.weights.shape[0]})"
