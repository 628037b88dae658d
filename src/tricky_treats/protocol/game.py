"""The protocol itself: ``TurnBasedGame``, the ``InformationSet`` a player sees, ``Agent``."""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any, Protocol, Self, TypeVar, runtime_checkable

import attrs

__all__ = ["Agent", "InformationSet", "TurnBasedGame"]


_G = TypeVar("_G", bound="TurnBasedGame")


@runtime_checkable
class TurnBasedGame(Protocol):
    """What the generic agents and runner need from a game state.

    ``returns()`` gives each seat's share of the result once the game is over: winners share
    1.0, everybody else gets 0.0 (so the returns of a finished game sum to 1.0).
    """

    @property
    def num_players(self) -> int:
        """The number of seats."""
        ...  # pragma: no cover - a protocol

    @property
    def current_player(self) -> int | None:
        """The seat to act, or None once the game is over."""
        ...  # pragma: no cover - a protocol

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        ...  # pragma: no cover - a protocol

    def legal_actions(self) -> Sequence[Hashable]:
        """The actions the current player may take, in a fixed order; empty once over."""
        ...  # pragma: no cover - a protocol

    def apply(self, action: Any) -> Self:
        """The state after ``action``; raises the game's own error if it is not legal."""
        ...  # pragma: no cover - a protocol

    def returns(self) -> tuple[float, ...]:
        """Per seat, its share of the win (only meaningful once the game is over)."""
        ...  # pragma: no cover - a protocol

    def view(self, player: int) -> object:
        """What ``player`` may see of this state."""
        ...  # pragma: no cover - a protocol

    def determinize(self, player: int, rng: random.Random) -> Self:
        """A full state that ``player`` cannot tell from this one, hidden parts drawn with ``rng``.

        It must depend only on ``view(player)`` and ``rng``: a search agent calls it to imagine
        the hidden information, so reading the real hidden information here would be cheating.
        """
        ...  # pragma: no cover - a protocol


@attrs.frozen
class InformationSet:
    """What an agent is given when it must act: never the state itself."""

    player: int
    view: object
    legal_actions: tuple[Hashable, ...]
    _state: TurnBasedGame = attrs.field(repr=False, alias="state")

    def determinize(self, rng: random.Random) -> TurnBasedGame:
        """A full state consistent with ``view``, the hidden information sampled with ``rng``."""
        return self._state.determinize(self.player, rng)


class Agent(Protocol):
    """Anything that picks one of the legal actions of an information set."""

    def choose(self, info: InformationSet, rng: random.Random) -> Hashable:
        """Return one of ``info.legal_actions``."""
        ...  # pragma: no cover - a protocol
