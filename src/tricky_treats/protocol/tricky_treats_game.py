"""``TrickyTreatsGame``: a Tricky Treats ``GameState`` seen through ``TurnBasedGame``."""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any

import attrs

from tricky_treats.model import GameState

__all__ = ["TrickyTreatsGame"]


@attrs.frozen
class TrickyTreatsGame:
    """A Tricky Treats ``GameState`` seen through ``TurnBasedGame``: the names differ a little."""

    state: GameState

    @property
    def num_players(self) -> int:
        """The number of seats."""
        return len(self.state.players)

    @property
    def current_player(self) -> int | None:
        """The seat to act, or None once the game is over."""
        return self.state.current_player

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.state.is_over

    def legal_actions(self) -> Sequence[Hashable]:
        """The legal actions of the wrapped state."""
        return self.state.legal_actions()

    def apply(self, action: Any) -> TrickyTreatsGame:
        """The wrapped state after ``action``."""
        return TrickyTreatsGame(self.state.apply(action))

    def returns(self) -> tuple[float, ...]:
        """Winners (R15) share 1.0."""
        won = self.state.winners()
        return tuple(1.0 / len(won) if p in won else 0.0 for p in range(self.num_players))

    def view(self, player: int) -> object:
        """The player's ``PlayerView``."""
        return self.state.view(player)

    def determinize(self, player: int, rng: random.Random) -> TrickyTreatsGame:
        """A state sampled from the player's view by ``tricky_treats.determinize``."""
        from tricky_treats.agents import determinize  # the agents module imports much more

        return TrickyTreatsGame(determinize(self.state.view(player), rng))
