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
from tricky_treats.i18n import N_, _, language, speaking
from tricky_treats.model import Termination
from tricky_treats.words import card_words, tile_words, treat_amount

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


_STREET_NAMES = (
    N_("row 0"),
    N_("row 1"),
    N_("row 2"),
    N_("column 0"),
    N_("column 1"),
    N_("column 2"),
)


def _street_name(street: int) -> str:
    if 0 <= street < len(_STREET_NAMES):
        return _(_STREET_NAMES[street])
    return _("street {street}").format(street=brief(street))


_REASONS = {
    Termination.LAST_FOOTPRINT: N_("last footprint"),
    Termination.COMPLETE_COSTUMES: N_("complete costumes"),
    Termination.DECK_EMPTY: N_("deck empty"),
    Termination.DEADLOCK: N_("everybody passed"),
}


def _reason_words(reason: Termination) -> str:
    """Why the end came, in the current language (English: the value, ``deck-empty``)."""
    return reason.value if language() == "en" else _(_REASONS[reason])


def describe_event(
    event: Event, names: Sequence[str], *, you: int | None = None, language: str | None = None
) -> str:
    """One line of plain words for ``event``; ``names`` are the players' names by seat.

    Events of seat ``you`` are told in the second person ("You put ..."), for a frontend
    that tells a player about their own moves. Names are names: a player who calls themselves
    "You" (or "Jij") is told in the third person like anyone else, to every seat but their
    own. ``language`` is a shipped language code (``"en"``, ``"nl"``); without it the line
    is English, unless a caller chose another language (``tricky_treats.i18n.speaking``).
    Raises ``UnknownPlayerError`` for an event naming a seat that ``names`` does not have,
    and ``ConfigurationError`` for a language that is not shipped.

    >>> from tricky_treats import Termination
    >>> describe_event(EndTriggered(1, Termination.DECK_EMPTY), ["Ann", "Bo"])
    'Bo triggers the end of the game (deck-empty); the round is finished'
    >>> describe_event(Passed(0), ["Ann", "Bo"], you=0)
    'You pass'
    >>> describe_event(EndTriggered(0, Termination.DECK_EMPTY), ["Ann", "Bo"], you=0)
    'You trigger the end of the game (deck-empty); the round is finished'
    >>> describe_event(Passed(1), ["Ann", "Bo"], language="nl")
    'Bo past'
    """
    with speaking(language):
        return _describe(event, names, you)


def _describe(event: Event, names: Sequence[str], you: int | None) -> str:
    def name(player: int) -> str:
        if not 0 <= player < len(names):
            raise UnknownPlayerError(
                f"the event names seat {brief(player)}, but names has {len(names)} players"
            )
        return names[player]

    def second(player: int) -> bool:
        name(player)  # an unknown seat is an error, whoever reads the line
        return player == you

    def told(player: int, yours: str, theirs: str, **values: object) -> str:
        """The sentence in the second person for ``you``, else in the third with the name."""
        if second(player):
            return yours.format(**values)
        return theirs.format(player=name(player), **values)

    match event:
        case CardPlaced(player, slot, kid, card):
            return told(
                player,
                _("You put the {card} from slot {slot} on kid {kid}"),
                _("{player} puts the {card} from slot {slot} on kid {kid}"),
                card=card_words(card),
                slot=slot,
                kid=kid,
            )
        case CardRevealed(slot, card):
            return _("the {card} is revealed into slot {slot}").format(
                card=card_words(card), slot=slot
            )
        case MarketRefreshed(player, discarded):
            return told(
                player,
                _("You discard the market ({count} cards)"),
                _("{player} discards the market ({count} cards)"),
                count=len(discarded),
            )
        case HouseVisited(player, house, matching, treat, treats):
            return told(
                player,
                _("You visit nice house {house} with {matching} matching cards and get {treats}"),
                _(
                    "{player} visits nice house {house} with {matching} matching cards and "
                    "gets {treats}"
                ),
                house=house,
                matching=matching,
                treats=treat_amount(treats, treat),
            )
        case HouseTricked(player, house, tile):
            return told(
                player,
                _("You trick mean house {house} and gain its tile ({tile})"),
                _("{player} tricks mean house {house} and gains its tile ({tile})"),
                house=house,
                tile=tile_words(tile),
            )
        case PumpkinTaken(player, house, mean):
            if mean:
                return told(
                    player,
                    _("You take the pumpkin of mean house {house}"),
                    _("{player} takes the pumpkin of mean house {house}"),
                    house=house,
                )
            return told(
                player,
                _("You take the pumpkin of nice house {house}"),
                _("{player} takes the pumpkin of nice house {house}"),
                house=house,
            )
        case StreetBonusTaken(player, street, treat, treats, first):
            side = _("front") if first else _("back")
            return told(
                player,
                _("You complete {street}: {treats} ({side} of the street bonus)"),
                _("{player} completes {street}: {treats} ({side} of the street bonus)"),
                street=_street_name(street),
                treats=treat_amount(treats, treat),
                side=side,
            )
        case Passed(player):
            return told(player, _("You pass"), _("{player} passes"))
        case EndTriggered(player, reason):
            return told(
                player,
                _("You trigger the end of the game ({reason}); the round is finished"),
                _("{player} triggers the end of the game ({reason}); the round is finished"),
                reason=_reason_words(reason),
            )
        case GameOver(winners):
            if len(winners) == 1 and second(winners[0]):
                return _("game over; you win")
            who = _(" and ").join(_("you") if second(w) else name(w) for w in winners)
            if len(winners) == 1:
                return _("game over; {who} wins").format(who=who)
            return _("game over; {who} share the win").format(who=who)
    raise TypeError(f"not an event: {event!r}")  # pragma: no cover - exhaustive above
