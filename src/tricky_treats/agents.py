"""Agents (bots): pick an action from what a player may see.

An agent sees only the player's view and the legal actions, and draws any randomness from
the ``random.Random`` it is given, so a game between agents is as deterministic as the game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from tricky_treats.actions import Action
from tricky_treats.errors import ConfigurationError
from tricky_treats.model import GameState
from tricky_treats.views import PlayerView

__all__ = ["Agent", "RandomAgent", "play_game"]


class Agent(Protocol):
    """Anything that chooses an action for a player."""

    def choose(
        self, view: PlayerView, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Return one of ``legal_actions`` for the player whose ``view`` this is."""
        ...  # pragma: no cover - a protocol


class RandomAgent:
    """Chooses uniformly among the legal actions."""

    def choose(
        self, view: PlayerView, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Return a legal action drawn uniformly with ``rng``."""
        return legal_actions[rng.randrange(len(legal_actions))]

    def __repr__(self) -> str:
        return "RandomAgent()"


def play_game(game: GameState, agents: Sequence[Agent], seed: int = 0) -> list[GameState]:
    """Play ``game`` to the end with one agent per seat; return every state, first to last.

    The agents draw from one ``random.Random(seed)``, so the same game, agents and seed
    always play the same way.
    """
    if len(agents) != len(game.players):
        raise ConfigurationError(
            f"need {len(game.players)} agents, one per seat, got {len(agents)}"
        )
    rng = random.Random(seed)
    states = [game]
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        action = agents[seat].choose(game.view(seat), game.legal_actions(), rng)
        game = game.apply(action)
        states.append(game)
    return states
