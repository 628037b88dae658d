"""Plain-text screens for the ``play`` and ``replay`` commands, sized for an 80x24 terminal.

One turn of a four-player game is at most 23 lines of at most 80 columns (the prompt is the
24th), so that nothing the player needs scrolls away. The screens are plain strings: the
command line colours them, and tests read them without a terminal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import attrs

from tricky_treats.actions import Action, Pass, RefreshMarket, TakeCard, TrickHouse, VisitHouse
from tricky_treats.components import (
    Colour,
    CostumeCard,
    CostumeType,
    Theme,
    Treat,
    TrickIcon,
    TrickTile,
)
from tricky_treats.events import (
    CardPlaced,
    EndTriggered,
    Event,
    HouseTricked,
    HouseVisited,
    PumpkinTaken,
    StreetBonusTaken,
)
from tricky_treats.i18n import NP_, _, npgettext, pgettext
from tricky_treats.views import PlayerView

if TYPE_CHECKING:
    from tricky_treats.model import Termination

WIDTH = 80
"""No line of a screen is wider."""

SCREEN_LINES = 23
"""A turn's screen is no taller, so that it fits a 24-line terminal with the prompt."""

SEAT_LETTERS = "ABCD"
"""The letters that mark where each seat has been, in the grid and on the mean houses."""

_ICONS = {TrickIcon.SPIDERWEB: "web", TrickIcon.TOILET_PAPER: "paper", TrickIcon.EGG: "egg"}
_SHORT_WORDS = (
    # The component words as the screens' narrow columns show them; English: as they are.
    NP_("short", "purple"),
    NP_("short", "red"),
    NP_("short", "green"),
    NP_("short", "animal"),
    NP_("short", "horror"),
    NP_("short", "fable"),
    NP_("short", "space"),
    NP_("short", "head"),
    NP_("short", "body"),
    NP_("short", "legs"),
    NP_("short", "web"),
    NP_("short", "paper"),
    NP_("short", "egg"),
    NP_("short", "candy"),
    NP_("short", "lollipop"),
    NP_("short", "lolli"),
    NP_("short", "gummy"),
)
_CELL = 23  # one house of the grid
_NAME = 10  # names are cut to this many characters in tables


def legend(players: int) -> str:
    """What a house cell of the grid shows."""
    return _(
        "vN FEATURE(you have) cards:treats treat │ mN icon tile │ * pumpkin │ A-{last} went"
    ).format(last=SEAT_LETTERS[players - 1])


def short_word(value: str) -> str:
    """A component word (an enum's value, an icon's short name) as the narrow columns show it."""
    return pgettext("short", value)


def short_amount(count: int, treat: Treat, *, short: bool = False) -> str:
    """``2 candy`` as the narrow columns say it, singular or plural as the language needs.

    English keeps the short words as they are (``2 lollipop``); ``short`` cuts "lollipop" to
    "lolli", for a line that must fit.
    """
    match treat:
        case Treat.CANDY:
            text = npgettext("short", "{count} candy", "{count} candy", count)
        case Treat.LOLLIPOP if short:
            text = npgettext("short", "{count} lolli", "{count} lolli", count)
        case Treat.LOLLIPOP:
            text = npgettext("short", "{count} lollipop", "{count} lollipop", count)
        case _:
            text = npgettext("short", "{count} gummy", "{count} gummy", count)
    return text.format(count=count)


def icon_text(icon: TrickIcon) -> str:
    """A trick icon in a few letters: ``web``, ``paper``, ``egg``."""
    return short_word(_ICONS.get(icon, icon.value))


@attrs.frozen
class Move:
    """One action as it was played, with the events it caused, for the log of the last round."""

    seat: int
    action: Action
    events: tuple[Event, ...]


def short_name(name: str) -> str:
    """``name`` cut to fit a table column."""
    return name if len(name) <= _NAME else name[: _NAME - 1] + "~"


def card_text(card: CostumeCard, *, with_type: bool = True) -> str:
    """A card in at most 24 characters: ``purple horror head egg``."""
    parts = [short_word(card.colour.value), short_word(card.theme.value)]
    if with_type:
        parts.append(short_word(card.type.value))
    parts.append(icon_text(card.icon))
    return " ".join(parts)


def tile_text(tile: TrickTile, *, short: bool = False) -> str:
    """A trick tile in a few characters: ``2 candy=3``, ``candy+gummy=4``.

    ``short`` cuts "lollipop" to "lolli", for a line that must fit.
    """
    kinds = sorted(set(tile.treats), key=tile.treats.index)

    def name(treat: Treat) -> str:
        return short_word("lolli" if short and treat is Treat.LOLLIPOP else treat.value)

    if len(kinds) == 1:
        return f"{short_amount(len(tile.treats), kinds[0], short=short)}={tile.points}"
    return "+".join(name(t) for t in tile.treats) + f"={tile.points}"


def move_text(move: Move, names: Sequence[str], you: int | None, *, full: bool = True) -> str:
    """A move in a few words: who, the action's notation and what it gained.

    A take names the card (it has left the market by the time the screen shows the move).
    Without ``full`` a trick leaves out the tile (the board shows it) and the end of the game
    its reason.
    """
    who = _("You") if move.seat == you else short_name(names[move.seat])
    gains: list[str] = []
    for event in move.events:
        match event:
            case CardPlaced(card=card):
                gains.append(f"({card_text(card)})")
            case HouseVisited(treat=treat, treats=treats):
                gains.append(f"+{short_amount(treats, treat)}")
            case StreetBonusTaken(treat=treat, treats=treats):
                gains.append(_("+{treats} street").format(treats=short_amount(treats, treat)))
            case PumpkinTaken():
                gains.append(_("+pumpkin"))
            case HouseTricked(tile=tile):
                gains.append(_("+tile {tile}").format(tile=tile_text(tile)) if full else _("+tile"))
            case EndTriggered(reason=reason):
                gains.append(
                    _("ENDS THE GAME ({reason})").format(reason=reason_text(reason))
                    if full
                    else _("ENDS THE GAME")
                )
            case _:
                pass
    return " ".join([who, str(move.action), *gains])


def reason_text(reason: Termination) -> str:
    """Why the end came, as the screens say it (English: ``deck-empty``)."""
    from tricky_treats.events import _reason_words

    return _reason_words(reason)


def last_round(moves: Sequence[Move], seat: int, players: int) -> list[Move]:
    """``seat``'s previous turn and the moves since (about one round of turns)."""
    recent: list[Move] = []
    for move in reversed(moves):
        recent.append(move)
        if move.seat == seat and not isinstance(move.action, RefreshMarket):
            break  # the seat's own last turn starts the round
        if len(recent) >= 2 * players:
            break
    recent.reverse()
    return recent


def wrap(prefix: str, items: Sequence[str], separator: str = " · ") -> list[str]:
    """``prefix`` then ``items`` on as few lines of at most WIDTH as they fit."""
    lines: list[str] = []
    line = prefix
    for item in items:
        piece = item if line == prefix else separator + item
        if len(line) + len(piece) > WIDTH and line.strip():
            lines.append(line.rstrip())
            line = " " * 2 + item
        else:
            line += piece
    lines.append(line.rstrip())
    return lines


def board_lines(view: PlayerView) -> list[str]:
    """The nice houses, street bonuses and mean houses in 9 lines.

    Each nice house shows how many cards of its feature the viewer's kids wear (R1).
    """
    lines: list[str] = []
    cards = view.players[view.player].kids
    treat_width = max(len(short_word(t.value)) for t in Treat)
    # A longer translation of a feature widens the column only when the grid shows it.
    wants_width = max(9, *(len(short_word(c.neighbour.wants.value)) + 3 for c in view.grid))
    for row in range(3):
        top, bottom = "", ""
        for house in range(row * 3, row * 3 + 3):
            cell = view.grid[house]
            pumpkin = "*" if view.pumpkin_on_house[house] else " "
            feature = cell.neighbour.wants
            have = sum(card.has(feature) for kid in cards for card in kid)
            wants = f"{short_word(feature.value)}({have})"
            treat = short_word(cell.treat.value)
            top += f"v{house} {wants:<{wants_width}} {treat:>{treat_width}}{pumpkin}".ljust(_CELL)
            tiers = " ".join(f"{t.cards}:{t.treats}" for t in cell.neighbour.tiers)
            visitors = "".join(
                SEAT_LETTERS[p] for p, player in enumerate(view.players) if house in player.visited
            )
            bottom += f"   {tiers:<11}{visitors:>5}".ljust(_CELL)
        lines.append(f"{top}│{_street(view, row)}")
        lines.append(f"{bottom}│")
    columns = "".join(f"   {_street(view, 3 + c)}".ljust(_CELL) for c in range(3))
    lines.append(columns + "└ " + _("bonuses"))
    for short in (False, True):
        mean = []
        for house, m in enumerate(view.mean_houses):
            pumpkin = " *" if view.pumpkin_on_mean_house[house] else ""
            tricked = "".join(
                SEAT_LETTERS[p] for p, player in enumerate(view.players) if house in player.tricked
            )
            icon = icon_text(m.icon)
            tile = tile_text(m.tile, short=short)
            mean.append(f"m{house} {icon} {tile}{pumpkin}" + (f" {tricked}" if tricked else ""))
        mean_lines = wrap("", mean, "  │ ")
        if len(mean_lines) == 1:
            break
    lines.extend(mean_lines)
    return lines


def _street(view: PlayerView, street: int) -> str:
    token = view.street_tokens[street]
    amount = token.back if view.street_flipped[street] else token.front
    return short_amount(amount, token.treat)


def kids_and_market_lines(view: PlayerView, seat: int) -> list[str]:
    """``seat``'s kids (one column per costume type) beside the market: 6 lines."""
    types = list(CostumeType)
    cell = max(
        14,
        *(len(f"{short_word(c.value)} {short_word(t.value)}") + 1 for c in Colour for t in Theme),
    )
    top_width = max(*(len(icon_text(i)) + 1 for i in TrickIcon), len(_("top")) + 1)
    # The column of kids is headed "kid" in English; a translation may leave it blank, so
    # that a longer costume word still fits the 80 columns.
    prefix = max(3, len(_("kid").strip()) + 1)
    left_width = prefix + cell * len(types) + top_width
    head = _("kid").strip().ljust(prefix) + "".join(f"{short_word(t.value):<{cell}}" for t in types)
    head += _("top")
    market = _("market (deck {count})").format(count=view.deck_size)
    lines = [f"{head:<{left_width}}│ {market}"]
    kids = view.players[seat].kids
    rows = max(len(kids), len(view.market))
    for index in range(rows):
        left = ""
        if index < len(kids):
            kid = kids[index]
            worn = {card.type: card for card in kid}
            cells = "".join(
                (
                    f"{short_word(worn[t].colour.value)} {short_word(worn[t].theme.value)}"
                    if t in worn
                    else "-"
                ).ljust(cell)
                for t in types
            )
            top = icon_text(kid[-1].icon) if kid else "-"
            left = f"k{index}".ljust(prefix) + f"{cells}{top}"
        right = ""
        if index < len(view.market):
            card = view.market[index]
            right = f"{index} {card_text(card) if card is not None else '-'}"
        lines.append(f"{left:<{left_width}}│ {right}".rstrip())
    return lines


def player_lines(view: PlayerView) -> list[str]:
    """One line per player: treats, pumpkins, footprints and points so far."""
    lines = []
    for p, player in enumerate(view.players):
        marker = ">" if p == view.current_player else " "
        treats = " ".join(
            f"{short_word(t.value)} {n:>2}" for t, n in zip(Treat, player.treats, strict=True)
        )
        counts = _("pumpkins {pumpkins}  footprints {footprints}  {points:>3} pts").format(
            pumpkins=player.pumpkins, footprints=player.footprints, points=view.scores[p].total
        )
        lines.append(
            f"{marker}{SEAT_LETTERS[p]} {short_name(player.name):<{_NAME}} {treats}  {counts}"
        )
    return lines


def action_lines(view: PlayerView) -> list[str]:
    """The legal actions, grouped by kind, in at most a few lines."""
    takes: dict[int, list[int]] = {}
    others: list[str] = []
    for action in view.legal_actions:
        if isinstance(action, TakeCard):
            takes.setdefault(action.slot, []).append(action.kid)
        elif isinstance(action, VisitHouse | TrickHouse | RefreshMarket | Pass):
            others.append(str(action))
    groups = [f"t{slot}k{_ranges(kids)}" for slot, kids in takes.items()]
    if groups and others:
        others[0] = _("or {action}").format(action=others[0])
    return wrap(_("Take card to kid: ") if groups else _("Your choice: "), groups + others, "  ")


def _ranges(numbers: list[int]) -> str:
    """``[0, 1, 2, 4]`` as ``0-2,4``: the kids a card can go on."""
    parts: list[str] = []
    start = previous = numbers[0]
    for n in [*numbers[1:], None]:
        if n is not None and n == previous + 1:
            previous = n
            continue
        parts.append(str(start) if start == previous else f"{start}-{previous}")
        if n is not None:
            start = previous = n
    return ",".join(parts)


def turn_screen(view: PlayerView, moves: Sequence[Move], round_number: int) -> list[str]:
    """Everything the player to act needs, in at most 23 lines of at most 80 columns."""
    seat = view.player
    names = [p.name for p in view.players]
    tile = view.secret_tile
    lines = [
        # Said to the player at the keyboard: "your turn", whatever their name is.
        _("Round {round} · {name} ({letter}), your turn").format(
            round=round_number, name=short_name(names[seat]), letter=SEAT_LETTERS[seat]
        )
        + (_(" · your secret tile {tile}").format(tile=tile_text(tile)) if tile is not None else "")
    ]
    body = board_lines(view) + kids_and_market_lines(view, seat) + player_lines(view)
    body += action_lines(view)
    room = SCREEN_LINES - len(lines) - len(body)
    recent = [move_text(m, names, seat, full=False) for m in last_round(moves, seat, len(names))]
    shown_legend = room >= 2 or not recent  # the last round before the legend, if need be
    budget = min(2, room - shown_legend)
    last = _("Last round: ")
    while recent and len(wrap(last, recent)) > budget:
        recent.pop(0)  # the oldest go first, so that the turn fits the terminal
    if recent:
        lines += wrap(last, recent)
    lines += body
    if shown_legend:
        lines.append(legend(len(names)))
    return lines


def replay_screen(view: PlayerView) -> list[str]:
    """The table as ``view``'s player sees it, with their kids: at most 20 lines."""
    return board_lines(view) + kids_and_market_lines(view, view.player) + player_lines(view)
