"""Teaching at the terminal: the short guide, rulings in a player's words, refusals, explanations.

The ``play`` command's ``rules``, ``why`` and ``explain`` show these texts; like the screens of
``_terminal``, they are plain strings that fit an 80x24 terminal.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tricky_treats._terminal import (
    SEAT_LETTERS,
    icon_text,
    kids_and_market_lines,
    short_name,
    short_word,
    tile_text,
    wrap,
)
from tricky_treats.actions import Action, RefreshMarket, TakeCard, TrickHouse, VisitHouse
from tricky_treats.components import CostumeType, Treat, TrickIcon
from tricky_treats.errors import TrickyTreatsError
from tricky_treats.events import (
    CardRevealed,
    MarketRefreshed,
    describe_event,
)
from tricky_treats.i18n import N_, _, language
from tricky_treats.scoring import ScoreSheet, costume_points
from tricky_treats.views import PlayerView
from tricky_treats.words import treat_amount, word

if TYPE_CHECKING:
    from tricky_treats.model import GameState, PlayerState


GUIDE_PAGES = (
    N_("""\
HOW TO PLAY, IN SHORT (page 1 of 5): the goal and the table
You dress your kids in costume cards and take them round the neighbourhood.
Points come from three places:
  - pumpkins: the first player to visit a house takes its pumpkin: 2 points;
  - costumes: a kid wearing a head, a body and a legs card scores 2 to 8;
  - trick tiles: your secret tile, and the tile of each mean house you have
    tricked, pay points for the treats you have collected.
On the table:
  - 9 nice houses in a 3x3 grid (v0 to v8). Each likes one colour, theme or
    type of costume and gives one kind of treat (candy, lollipop or gummy);
  - a street bonus token at the end of every row and column;
  - 3 mean houses (m0 to m2), each with a trick icon and a trick tile;
  - the market: 5 face-up costume cards (slots 0 to 4) beside the deck.
Each player has 5 kids, 8 footprints, 3 treat tracks and a secret trick tile.
On your turn you do ONE thing: take a card, or visit a house."""),
    N_("""\
HOW TO PLAY, IN SHORT (page 2 of 5): dressing your kids
Take a card from the market and put it on one of your kids: t2k4 puts the
card of slot 2 on kid 4. A new card from the deck fills the slot.
  - A card shows a colour (purple, red, green), a theme (animal, horror,
    fable, space) and a type (head, body or legs), and a trick icon
    (spiderweb, toilet paper or egg).
  - A kid wears at most one card of each type, so 3 cards at most. A new
    card goes on top and cards never move.
  - The cards are transparent: every card of every kid counts for the nice
    houses, covered ones too. But only the TOP card's trick icon shows.
  - A kid with head, body and legs is complete. It scores 8 if the 3 cards
    share colour and theme, 6 if they share the theme, 4 if they share the
    colour, else 2.
If the 5 market cards all share a type, a theme or a colour, 'refresh'
throws them away and deals 5 new ones; you still play your turn."""),
    N_("""\
HOW TO PLAY, IN SHORT (page 3 of 5): visiting houses
A visit puts one of your 8 footprints on the house. You visit each house at
most once; others may visit it too. The first visitor takes its pumpkin.
  - Nice house (v5): count the cards of the feature it likes on ALL your
    kids. A house reading 2:1 4:2 6:3 gives 1 treat for 2 cards, 2 for 4,
    3 for 6. Fewer cards than its lowest number: you cannot visit.
  - Mean house (m1): when 3 of your kids show its trick icon on top, you may
    trick it. You gain nothing now, but at the end its trick tile scores for
    you too, as your secret tile does.
  - Street bonus: the first player with footprints on all 3 houses of a row
    or column gains the token's 2 treats and flips it; later players who
    complete that street gain 1.
A trick tile pays its points for every set of its treats on your tracks:
"candy+lollipop=4" with 3 candy and 2 lollipop is 2 sets, 8 points. Treats
are never spent: every tile counts them all."""),
    N_("""\
HOW TO PLAY, IN SHORT (page 4 of 5): the end, and the commands
The end comes when a player places their last footprint, when a player's
kids are all complete, or when the deck runs out (or when everybody passes a
whole round). The round is then finished, so that everyone has had as many
turns, and the score sheets are added up. The highest total wins; on a tie,
the most points from trick tiles; if still tied, the win is shared.
You pass only when you can do nothing else.
Commands at the prompt:
  t2k4 v5 m1 refresh pass   play an action
  explain ACTION            what an action would do and pay, before you play
  why                       the rules behind the last refusal
  look N                    player N's kids (N: a letter A-D, or a number)
  sheets, log               the score sheets so far, every move so far
  save FILE, quit           save the game, stop
  rules                     this guide; help: the commands"""),
    N_("""\
HOW TO PLAY, IN SHORT (page 5 of 5): reading the screen
A nice house takes two lines of the grid:
  v4 green(3)     candy*      house 4 likes green; you have 3 green cards;
     2:1 4:2 6:3     AC       it gives candy; * its pumpkin is still there;
                              2 cards give 1 treat, 4 give 2, 6 give 3;
                              players A and C have visited it.
At the end of each row and under each column: the street bonus, 2 treats (1
once someone has completed that street).
  m1 paper 2 candy=3 *        mean house 1: toilet paper on top of 3 kids
                              tricks it; its tile pays 3 points per 2 candy.
Your kids: one column per type; 'top' is the trick icon that shows.
  k2  red animal  -  green horror  web   kid 2 wears a red animal head and
                                         green horror legs; web on top.
The market: 0 green animal head egg = slot 0 holds a green animal head
card with an egg icon.
'Take card to kid: t0k0-4' means t0k0, t0k1, ... t0k4 are all allowed.
>A marks the player to play; the last column is everyone's points so far."""),
)
"""The short guide ``rules`` shows, a page at a time (each fits an 80x24 terminal).

The English texts; ``guide_pages()`` gives them in the current language."""


def guide_pages() -> list[str]:
    """The short guide in the current language."""
    return [_(page) for page in GUIDE_PAGES]


RULINGS_IN_WORDS = {
    "R1": N_(
        "Every card on every kid counts for a nice house, covered cards too: the "
        "cards are transparent."
    ),
    "R2": N_(
        "A kid wears at most one head, one body and one legs card. A new card goes on "
        "top, and cards never move."
    ),
    "R3": N_("Only the top card of a kid shows its trick icon; the icons under it are covered."),
    "R4": N_(
        "You may trick a mean house when at least 3 of your kids show its trick icon on "
        "top (with the any-mean-house variant, any 3 matching icons trick any mean house)."
    ),
    "R5": N_(
        "A nice house gives treats only if you have at least its lowest number of "
        "matching cards; you get the treats of the highest tier you reach."
    ),
    "R6": N_(
        "You visit each house at most once, and each visit uses one of your footprints. "
        "The first visitor of a house takes its pumpkin."
    ),
    "R7": N_(
        "The first player to visit all 3 houses of a row or column gains the street "
        "token's 2 treats and flips it; later players gain 1."
    ),
    "R8": N_(
        "When the 5 market cards all share a type, a theme or a colour, you may throw "
        "them away and deal 5 new ones before your action."
    ),
    "R9": N_(
        "A taken card is replaced from the deck; once the deck is empty, its slot stays empty."
    ),
    "R10": N_(
        "The end comes with a player's last footprint, a player's five complete kids or "
        "an empty deck; the round is then finished, and the game is over."
    ),
    "R11": N_("You pass only when you have nothing else to do."),
    "R12": N_(
        "A complete kid scores 8 (same colour and theme), 6 (same theme), 4 (same "
        "colour) or 2; an incomplete kid scores 0."
    ),
    "R13": N_("Each pumpkin is worth 2 points."),
    "R14": N_(
        "Each of your trick tiles pays its points for every set of its treats you hold; "
        "treats are never spent."
    ),
    "R15": N_(
        "The highest total wins; on a tie, the most points from trick tiles; if still "
        "tied, the win is shared."
    ),
    "R16": N_(
        "Nobody sees the order of the deck, nor the other players' secret tiles before the end."
    ),
    "R17": N_("If every player passes for a whole round, the end comes."),
    "R18": N_("When the only thing you could do is refresh the market, you may pass instead."),
    "R19": N_(
        "With fewer than 5 cards left, a refresh deals what is left; with an empty deck "
        "there is no refresh."
    ),
    "R20": N_("The first seat plays first."),
    "R21": N_("Treat tracks have no maximum."),
    "R22": N_("A visit that completes a row and a column pays both street bonuses."),
    "R23": N_("A new card takes the emptied slot, so slots keep their numbers."),
    "R24": N_(
        "Score sheets show the points so far; the others' secret tiles count only at the end."
    ),
}
"""Each ruling of docs/rules.md in a player's words, for ``why``."""

_RULING = re.compile(r"\b[RP]\d+\b")
_CITATION = re.compile(r"\s*\(([^()]*\b[RP]\d+\b[^()]*)\)")


def action_words(action: Action) -> str:
    """What ``action`` does, in words: ``take the card of slot 2 for kid 4``."""
    match action:
        case TakeCard(slot=slot, kid=kid):
            return _("take the card of slot {slot} for kid {kid}").format(slot=slot, kid=kid)
        case VisitHouse(house=house):
            return _("visit nice house {house}").format(house=house)
        case TrickHouse(house=house):
            return _("trick mean house {house}").format(house=house)
        case RefreshMarket():
            return _("refresh the market")
        case _:
            pass
    return _("pass")


def refusal(action: Action | None, message: str) -> tuple[str, tuple[str, ...]]:
    """An error of the engine as a plain sentence first, and the rulings it cites.

    ``cannot play v4: nice house 4 wants at least 2 green cards and your kids wear 0 (R1,
    R5)`` becomes ``You cannot visit nice house 4: nice house 4 wants at least 2 green cards
    and your kids wear 0.`` with ``("R1", "R5")``.
    """
    rulings = tuple(
        dict.fromkeys(r for c in _CITATION.findall(message) for r in _RULING.findall(c))
    )
    body = _CITATION.sub("", message).strip()
    head, colon, rest = body.partition(": ")
    if language() != "en":
        return _translated_refusal(action, head, rest if colon else ""), rulings
    if colon and head.startswith("cannot "):
        doing = action_words(action) if action is not None else head.removeprefix("cannot ")
        for thing in ("nice house", "mean house"):
            named = f"{thing} {getattr(action, 'house', '')} "
            if doing.endswith(named.strip()) and rest.startswith(named):
                rest = "it " + rest.removeprefix(named)  # "visit nice house 4: it wants ..."
        body = f"You cannot {doing}: {rest}"
    typed = action is not None and body.startswith(str(action))
    if body and not typed:  # what the player typed is shown as typed: "t9k0", never "T9k0"
        body = body[0].upper() + body[1:]
    return body.rstrip(".") + ".", rulings


def refusal_text(action: Action | None, message: str) -> str:
    """The refusal as the prompt shows it: the sentence, then the rulings for those who want."""
    sentence, rulings = refusal(action, message)
    if not rulings:
        return sentence
    return _("{sentence} ('why' explains; rules {rulings})").format(
        sentence=sentence, rulings=", ".join(rulings)
    )


def why_lines(rulings: Sequence[str]) -> list[str]:
    """The rulings behind a refusal, in a player's words."""
    lines = []
    for ruling in rulings:
        words = RULINGS_IN_WORDS.get(ruling)
        if words is not None:
            lines += wrap(f"{ruling}: ", _(words).split(" "), " ")
    return lines or [_("No rule to explain: the last answer was not a refusal of the rules.")]


def _sheet_total(view: PlayerView) -> int:
    return view.scores[view.player].total


def explain_lines(state: GameState, action: Action) -> list[str]:
    """What ``action`` would do for the player to act, and what it would pay, before playing it.

    Only what that player may see is told: the card a take would reveal from the deck is not
    (R16), and their points are those of their own sheet.
    """
    seat = state.current_player
    if seat is None:
        return [_("The game is over.")]
    try:
        after, events = state.apply_with_events(action)
    except TrickyTreatsError as exc:
        return [refusal_text(action, str(exc))]
    names = [p.name for p in state.players]
    lines = [_("If you play {action} ({words}):").format(action=action, words=action_words(action))]
    for event in events:
        if isinstance(event, CardRevealed):
            if not isinstance(action, RefreshMarket):
                lines.append(
                    _("  a new card from the deck fills slot {slot}").format(slot=event.slot)
                )
            continue
        if isinstance(event, MarketRefreshed):
            lines.append(
                _("  the {count} market cards are thrown away").format(count=len(event.discarded))
            )
            lines.append(
                _("  {count} new cards are dealt").format(
                    count=min(len(event.discarded), state.deck_size)
                )
            )
            continue
        lines += wrap("  ", [describe_event(event, names, you=seat)], "")
    before_player, after_player = state.players[seat], after.players[seat]
    if isinstance(action, TakeCard):
        lines += _take_consequences(state, before_player, after_player, action.kid)
    if isinstance(action, TrickHouse):
        tile = state.setup.mean_houses[action.house].tile
        lines.append(
            _("  its trick tile {tile} will score for you at the end").format(tile=tile_text(tile))
        )
    before, now = _sheet_total(state.view(seat)), _sheet_total(after.view(seat))
    change = f"{now - before:+d}" if now != before else _("no change")
    lines.append(
        _("Your points so far: {before} -> {now} ({change}).").format(
            before=before, now=now, change=change
        )
    )
    if after_player.treats != before_player.treats:
        lines += wrap("", _(TREATS_PAY_THROUGH_TILES).split(" "), " ")
    return lines


TREATS_PAY_THROUGH_TILES = N_(
    "Treats score only through trick tiles (R14): each tile you have pays its points for every "
    "full set of its treats on your tracks."
)
"""Said after the points whenever an action gains treats: they pay nothing by themselves."""


def _take_consequences(
    state: GameState, before: PlayerState, after: PlayerState, kid: int
) -> list[str]:
    """What a new card on ``kid`` changes: houses reached, mean houses, a complete costume."""
    lines = []
    stack = after.kids[kid]
    card = stack[-1]
    worn = ", ".join(
        " ".join(short_word(v) for v in (c.colour.value, c.theme.value, c.type.value))
        for c in stack
    )
    lines.append(
        _("  kid {kid} would wear {worn}; {icon} on top").format(
            kid=kid, worn=worn, icon=icon_text(card.icon)
        )
    )
    counts = [
        f"v{house} ({short_word(cell.neighbour.wants.value)})"
        for house, cell in enumerate(state.setup.grid)
        if card.has(cell.neighbour.wants)
    ]
    if counts:
        lines.append(
            _("  the card counts for nice houses {houses}").format(houses=", ".join(counts))
        )
    for house, cell in enumerate(state.setup.grid):
        if house in before.visited:
            continue
        wants = cell.neighbour.wants
        had = sum(c.has(wants) for k in before.kids for c in k)
        has = sum(c.has(wants) for k in after.kids for c in k)
        old, new = cell.neighbour.treats_for(had), cell.neighbour.treats_for(has)
        if new > old:
            values = {
                "house": house,
                "wants": short_word(wants.value),
                "had": had,
                "has": has,
                "treats": treat_amount(new, cell.treat),
                "old": old,
            }
            if old:
                text = _(
                    "  nice house {house} ({wants}): {had} -> {has} cards, a visit would "
                    "give {treats} instead of {old}"
                )
            else:
                text = _(
                    "  nice house {house} ({wants}): {had} -> {has} cards, a visit would "
                    "give {treats}"
                )
            lines.append(text.format(**values))
    tops_before = [k[-1].icon for k in before.kids if k]
    tops_after = [k[-1].icon for k in after.kids if k]
    any_house = state.setup.rules.any_mean_house
    for house, mean in enumerate(state.setup.mean_houses):
        if house in before.tricked:
            continue

        def shows(tops: list[TrickIcon], icon: TrickIcon = mean.icon) -> int:
            if any_house:
                return max((tops.count(i) for i in set(tops)), default=0)
            return tops.count(icon)

        was, now = shows(tops_before) >= 3, shows(tops_after) >= 3
        if now and not was:
            lines.append(
                _("  you could trick mean house {house} ({icon})").format(
                    house=house, icon=icon_text(mean.icon)
                )
            )
        elif was and not now:
            lines.append(
                _("  you could no longer trick mean house {house}: an icon is covered").format(
                    house=house
                )
            )
    if len(stack) == len(CostumeType):
        lines.append(
            _("  kid {kid}'s costume would be complete: {points} points").format(
                kid=kid, points=costume_points(stack)
            )
        )
    return lines


def look_lines(view: PlayerView, seat: int) -> list[str]:
    """What everyone sees of ``seat``'s board: kids, treats, houses visited (public)."""
    player = view.players[seat]
    lines = [
        _("{name} ({letter}), as everyone sees them:").format(
            name=short_name(player.name), letter=SEAT_LETTERS[seat]
        )
    ]
    lines += [line.split("│")[0].rstrip() for line in kids_and_market_lines(view, seat)]
    treats = ", ".join(treat_amount(n, t) for t, n in zip(Treat, player.treats, strict=True))
    lines.append(
        _("treats: {treats}; pumpkins {pumpkins}; footprints left {footprints}").format(
            treats=treats, pumpkins=player.pumpkins, footprints=player.footprints
        )
    )
    visited = " ".join(f"v{h}" for h in sorted(player.visited)) or _("none")
    tricked = " ".join(f"m{h}" for h in sorted(player.tricked)) or _("none")
    lines.append(
        _("visited {visited}; tricked {tricked}; {points} points so far").format(
            visited=visited, tricked=tricked, points=view.scores[seat].total
        )
    )
    return lines


def tie_break_text(
    sheets: Sequence[ScoreSheet], names: Sequence[str], you: int | None = None
) -> str | None:
    """How R15 decided the winner when the best total is shared; None when it did not matter.

    Seat ``you`` (the player reading, if any) is told in the second person; every other
    seat by its name, whatever the name is.
    """
    best = max(sheet.total for sheet in sheets)
    tied = [sheet for sheet in sheets if sheet.total == best]
    if len(tied) < 2:
        return None
    most = max(sheet.treats for sheet in tied)
    won = [sheet for sheet in tied if sheet.treats == most]
    and_ = _(" and ")
    if len(won) == len(tied):
        who = and_.join(names[s.player] for s in won)
        return _(
            "{who} tie on {best} points and on {most} points from trick tiles, so they share "
            "the win (R15)."
        ).format(who=who, best=best, most=most)
    others = ", ".join(str(s.treats) for s in tied if s.treats != most)
    who = and_.join(names[s.player] for s in won)
    if len(won) == 1 and won[0].player == you:
        text = _(
            "You win the tie on trick tiles: {most} points from trick tiles against {others} (R15)."
        )
    elif len(won) == 1:
        text = _(
            "{who} wins the tie on trick tiles: {most} points from trick tiles against "
            "{others} (R15)."
        )
    else:
        text = _(
            "{who} share the tie on trick tiles: {most} points from trick tiles against "
            "{others} (R15)."
        )
    return text.format(who=who, most=most, others=others)


_REFUSAL_REASONS = (
    # The engine's refusals are English (its errors read the same in every language); the
    # prompt tells them in the player's language by these patterns of the English reasons.
    (r"the game is over", N_("the game is over")),
    (
        r"market slot (?P<slot>\d+) is empty, as the deck ran out",
        N_("market slot {slot} is empty, as the deck ran out"),
    ),
    (
        r"kid (?P<kid>\d+) already wears a (?P<type>\w+) costume, and a kid wears at most one "
        r"card of each type",
        N_(
            "kid {kid} already wears a {type} costume, and a kid wears at most one card of "
            "each type"
        ),
    ),
    (r"you have no footprints left", N_("you have no footprints left")),
    (
        r"you already visited nice house (?P<house>\d+), and a player visits each house at most "
        r"once",
        N_("you already visited nice house {house}, and a player visits each house at most once"),
    ),
    (
        r"nice house (?P<house>\d+) wants at least (?P<least>\d+) (?P<feature>\w+) cards and "
        r"your kids wear (?P<matching>\d+)",
        N_(
            "nice house {house} wants at least {least} {feature} cards and your kids wear "
            "{matching}"
        ),
    ),
    (
        r"you already tricked mean house (?P<house>\d+), and a player visits each house at most "
        r"once",
        N_("you already tricked mean house {house}, and a player visits each house at most once"),
    ),
    (
        r"no trick icon shows on top of 3 of your kids",
        N_("no trick icon shows on top of 3 of your kids"),
    ),
    (
        r"mean house (?P<house>\d+) needs 3 kids showing (?P<icon>\S+) on top, and "
        r"(?P<showing>\d+) do",
        N_("mean house {house} needs 3 kids showing {icon} on top, and {showing} do"),
    ),
    (r"the deck is empty", N_("the deck is empty")),
    (
        r"its cards do not all share a type, a theme or a colour",
        N_("its cards do not all share a type, a theme or a colour"),
    ),
    (
        r"a player may pass only when they have no other legal action; legal now: (?P<legal>.*)",
        N_("a player may pass only when they have no other legal action; legal now: {legal}"),
    ),
    (
        r"market slots are 0 to (?P<slot>\d+) and kids 0 to (?P<kid>\d+)",
        N_("market slots are 0 to {slot} and kids 0 to {kid}"),
    ),
    (r"nice houses are 0 to (?P<house>\d+)", N_("nice houses are 0 to {house}")),
    (r"mean houses are 0 to (?P<house>\d+)", N_("mean houses are 0 to {house}")),
)
"""Each English reason of a refusal, as a pattern, and its message for the catalogs."""


def _reason_words(reason: str) -> str:
    """A refusal's English reason in the current language (as it is if no pattern knows it)."""
    for pattern, message in _REFUSAL_REASONS:
        found = re.fullmatch(pattern, reason)
        if found is not None:
            values = {
                key: word(value) if key in ("type", "feature", "icon") else value
                for key, value in found.groupdict().items()
            }
            return _(message).format(**values)
    return reason


def _translated_refusal(action: Action | None, head: str, reason: str) -> str:
    """``cannot play v4: ...`` as a sentence in the current language."""
    if head.startswith("cannot "):
        if head == "cannot refresh the market":
            doing = _("refresh the market")
        elif head == "cannot pass":
            doing = _("pass")
        elif action is not None:
            doing = action_words(action)
        else:
            doing = head.removeprefix("cannot ")
        return _("You cannot {doing}: {reason}.").format(doing=doing, reason=_reason_words(reason))
    # "t0k9 is not an action of this game: market slots are ..."
    subject, is_not, _rest = head.partition(" is not an action of this game")
    if is_not:
        return _("{action} is not an action of this game: {reason}.").format(
            action=subject, reason=_reason_words(reason)
        )
    return f"{head}: {reason}." if reason else f"{head}."
