"""Events: what an action caused, in the order it happened.

``GameState.apply_with_events()`` returns them with the new state so that a frontend can
show a turn (a card placed, a card revealed, treats gained, ...) without diffing two states.
Houses are numbered as in the actions: nice houses 0 to 8 of the grid, mean houses 0 to 2.
Streets are numbered 0 to 2 for the rows, 3 to 5 for the columns.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from tricky_treats.components import CostumeCard, Treat, TrickTile
from tricky_treats.errors import UnknownPlayerError, brief
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
    "describe_event",
]


@attrs.frozen
class CardPlaced:
    """``player`` took ``card`` from market ``slot`` and placed it on top of ``kid``."""

    player: int
    """The seat that took the card."""
    slot: int
    """The market slot it came from."""
    kid: int
    """The kid it was placed on."""
    card: CostumeCard
    """The card."""


@attrs.frozen
class CardRevealed:
    """``card`` was revealed from the deck into market ``slot``."""

    slot: int
    """The market slot it fills."""
    card: CostumeCard
    """The card revealed from the deck."""


@attrs.frozen
class MarketRefreshed:
    """``player`` discarded the whole market (R8); the cards are out of the game."""

    player: int
    """The seat that refreshed."""
    discarded: tuple[CostumeCard, ...]
    """The discarded cards, by slot."""


@attrs.frozen
class HouseVisited:
    """``player`` visited nice ``house`` with ``matching`` cards of its feature and got treats."""

    player: int
    """The seat that visited."""
    house: int
    """The nice house, 0 to 8."""
    matching: int
    """How many of the player's cards have the house's feature (R1)."""
    treat: Treat
    """The treat of the house's treat token."""
    treats: int
    """How many treats the highest tier reached gave (R5)."""


@attrs.frozen
class HouseTricked:
    """``player`` tricked mean ``house`` and now scores its ``tile`` too (R14)."""

    player: int
    """The seat that tricked."""
    house: int
    """The mean house, 0 to 2."""
    tile: TrickTile
    """The trick tile on that house, which the player now scores."""


@attrs.frozen
class PumpkinTaken:
    """``player`` was the first to visit a house and took its pumpkin (R6)."""

    player: int
    """The seat that took it."""
    house: int
    """The house it was on."""
    mean: bool
    """True for a mean house, False for a nice one."""


@attrs.frozen
class StreetBonusTaken:
    """``player`` completed ``street`` and gained ``treats`` of ``treat`` (R7).

    ``first`` is true for the token's front (the first to complete it), after which the
    token is flipped.
    """

    player: int
    """The seat that completed the street."""
    street: int
    """The street: 0 to 2 the rows, 3 to 5 the columns."""
    treat: Treat
    """The token's treat."""
    treats: int
    """How many treats it gave."""
    first: bool
    """Whether it was the token's front (the first to complete the street)."""


@attrs.frozen
class Passed:
    """``player`` passed (R11)."""

    player: int
    """The seat that passed."""


@attrs.frozen
class EndTriggered:
    """The end of the game was triggered by ``player``; the round is finished first (R10)."""

    player: int
    """The seat whose action triggered the end."""
    reason: Termination
    """Why the end was triggered."""


@attrs.frozen
class GameOver:
    """The game is over; ``winners`` are the seats that share the win (R15)."""

    winners: tuple[int, ...]
    """The seats that share the win, in seat order."""


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


_STREET_NAMES = ("row 0", "row 1", "row 2", "column 0", "column 1", "column 2")


def _street_name(street: int) -> str:
    return _STREET_NAMES[street] if 0 <= street < len(_STREET_NAMES) else f"street {brief(street)}"


def describe_event(event: Event, names: Sequence[str], *, you: int | None = None) -> str:
    """One line of plain English for ``event``; ``names`` are the players' names by seat.

    Events of seat ``you`` are told in the second person ("You put ..."), for a frontend
    that tells a player about their own moves; so are those of a player named "You" (the
    command line's name for a lone human), so that no line reads "You puts". Raises
    ``UnknownPlayerError`` for an event naming a seat that ``names`` does not have.

    >>> from tricky_treats import Termination
    >>> describe_event(EndTriggered(1, Termination.DECK_EMPTY), ["Ann", "Bo"])
    'Bo triggers the end of the game (deck-empty); the round is finished'
    >>> describe_event(Passed(0), ["Ann", "Bo"], you=0)
    'You pass'
    >>> describe_event(EndTriggered(0, Termination.DECK_EMPTY), ["You", "Bo"])
    'You trigger the end of the game (deck-empty); the round is finished'
    """

    def name(player: int) -> str:
        if not 0 <= player < len(names):
            raise UnknownPlayerError(
                f"the event names seat {brief(player)}, but names has {len(names)} players"
            )
        return names[player]

    def second(player: int) -> bool:
        return player == you or name(player) == "You"

    def subject(player: int, verb: str, second_person: str | None = None) -> str:
        if second(player):
            return f"You {second_person or verb.removesuffix('s')}"
        return f"{name(player)} {verb}"

    match event:
        case CardPlaced(player, slot, kid, card):
            return f"{subject(player, 'puts')} the {card} from slot {slot} on kid {kid}"
        case CardRevealed(slot, card):
            return f"the {card} is revealed into slot {slot}"
        case MarketRefreshed(player, discarded):
            return f"{subject(player, 'discards')} the market ({len(discarded)} cards)"
        case HouseVisited(player, house, matching, treat, treats):
            return (
                f"{subject(player, 'visits', 'visit')} nice house {house} with {matching} "
                f"matching cards and {'get' if second(player) else 'gets'} {treats} {treat.value}"
            )
        case HouseTricked(player, house, tile):
            return (
                f"{subject(player, 'tricks', 'trick')} mean house {house} and "
                f"{'gain' if second(player) else 'gains'} its tile ({tile})"
            )
        case PumpkinTaken(player, house, mean):
            kind = "mean" if mean else "nice"
            return f"{subject(player, 'takes')} the pumpkin of {kind} house {house}"
        case StreetBonusTaken(player, street, treat, treats, first):
            side = "front" if first else "back"
            return (
                f"{subject(player, 'completes')} {_street_name(street)}: {treats} {treat.value} "
                f"({side} of the street bonus)"
            )
        case Passed(player):
            return f"{subject(player, 'passes', 'pass')}"
        case EndTriggered(player, reason):
            return (
                f"{subject(player, 'triggers')} the end of the game ({reason.value}); "
                "the round is finished"
            )
        case GameOver(winners):
            if len(winners) == 1 and second(winners[0]):
                return "game over; you win"
            who = [("you" if second(w) else name(w)) for w in winners]
            verb = "wins" if len(winners) == 1 else "share the win"
            return f"game over; {' and '.join(who)} {verb}"
    raise TypeError(f"not an event: {event!r}")  # pragma: no cover - exhaustive above
