"""Events: what an action caused, in the order it happened.

:meth:`GameState.apply_with_events` returns them with the new state so that a frontend can
show a turn (a card placed, a card revealed, treats gained, ...) without diffing two states.
Houses are numbered as in the actions: nice houses 0 to 8 of the grid, mean houses 0 to 2.
Streets are numbered 0 to 2 for the rows, 3 to 5 for the columns.
"""

from __future__ import annotations

import attrs

from tricky_treats.components import CostumeCard, Treat, TrickTile
from tricky_treats.model import Termination

__all__ = [
    "CardPlaced",
    "CardRevealed",
    "EndTriggered",
    "Event",
    "GameOver",
    "HouseTricked",
    "HouseVisited",
    "MarketRefreshed",
    "Passed",
    "PumpkinTaken",
    "StreetBonusTaken",
]


@attrs.frozen
class CardPlaced:
    """``player`` took ``card`` from market ``slot`` and placed it on top of ``kid``."""

    player: int
    slot: int
    kid: int
    card: CostumeCard


@attrs.frozen
class CardRevealed:
    """``card`` was revealed from the deck into market ``slot``."""

    slot: int
    card: CostumeCard


@attrs.frozen
class MarketRefreshed:
    """``player`` discarded the whole market (R8); the cards are out of the game."""

    player: int
    discarded: tuple[CostumeCard, ...]


@attrs.frozen
class HouseVisited:
    """``player`` visited nice ``house`` with ``matching`` cards of its feature and got treats."""

    player: int
    house: int
    matching: int
    treat: Treat
    treats: int


@attrs.frozen
class HouseTricked:
    """``player`` tricked mean ``house`` and now scores its ``tile`` too (R14)."""

    player: int
    house: int
    tile: TrickTile


@attrs.frozen
class PumpkinTaken:
    """``player`` was the first to visit a house and took its pumpkin (R6)."""

    player: int
    house: int
    mean: bool


@attrs.frozen
class StreetBonusTaken:
    """``player`` completed ``street`` and gained ``treats`` of ``treat`` (R7).

    ``first`` is true for the token's front (the first to complete it), after which the
    token is flipped.
    """

    player: int
    street: int
    treat: Treat
    treats: int
    first: bool


@attrs.frozen
class Passed:
    """``player`` passed (R11)."""

    player: int


@attrs.frozen
class EndTriggered:
    """The end of the game was triggered by ``player``; the round is finished first (R10)."""

    player: int
    reason: Termination


@attrs.frozen
class GameOver:
    """The game is over; ``winners`` are the seats that share the win (R15)."""

    winners: tuple[int, ...]


Event = (
    CardPlaced
    | CardRevealed
    | MarketRefreshed
    | HouseVisited
    | HouseTricked
    | PumpkinTaken
    | StreetBonusTaken
    | Passed
    | EndTriggered
    | GameOver
)
"""Any event."""
