"""The rules of Tricky Treats: which actions are legal, and what playing one does.

This module is the reference, written to be read beside the rulings of ``docs/rules.md``:
each ruling ``R1`` to ``R24`` that governs play is applied in one place here, under a comment
that names it. Speed is the simulator's business (``tricky_treats.Simulator``, whose compact
core is checked against this module game by game); nothing here goes through the plugin
manager.

Where each ruling lives:

========  ==========================================================================
R1        ``PlayerState.count`` (``model``): every card counts, covered ones included
R2        ``legal_actions`` (A) and ``_take``: one card of each type per kid
R3        ``PlayerState.shown_icons`` (``model``): only a kid's top card shows its icon
R4        ``_icons_trick``: three kids showing a mean house's icon (or the option)
R5        ``legal_actions`` (B1) and ``_visit``: the lowest tier to visit, the highest paid
R6        ``legal_actions`` (B), ``_visit``, ``_trick``, ``_take_pumpkin``
R7, R22   ``_street_bonuses``: the first to complete a street gets the front
R8, R18   ``_may_refresh`` and ``_refresh``: a shared feature refreshes the market
R9, R23   ``_refill``: a taken card is replaced in its slot while the deck lasts
R10, R20  ``_end_turn``: a triggered end finishes the round with the last seat
R11       ``legal_actions`` and ``_pass``: a pass only when nothing else is legal
R12-R15   ``tricky_treats.scoring``;  R24 there too (sheets so far, winners at the end)
R16       ``tricky_treats.views`` (what one player may see)
R17       ``_pass``: a whole round of passes triggers the end
R19       ``_may_refresh``, ``_refresh`` and ``_refill``: the deck running out
R21       ``_visit``: treat tracks have no maximum
========  ==========================================================================
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from tricky_treats.actions import (
    Action,
    Pass,
    RefreshMarket,
    TakeCard,
    TrickHouse,
    VisitHouse,
)
from tricky_treats.components import CostumeCard, CostumeType, Treat, TrickIcon, TrickTile
from tricky_treats.errors import (
    ConfigurationError,
    IllegalActionError,
    InvalidActionError,
    TrickyTreatsError,
    brief,
)
from tricky_treats.events import (
    CardPlaced,
    CardRevealed,
    EndTriggered,
    Event,
    GameOver,
    HouseTricked,
    HouseVisited,
    MarketRefreshed,
    Passed,
    PumpkinTaken,
    StreetBonusTaken,
)
from tricky_treats.model import (
    STREETS,
    EndTrigger,
    GameState,
    PlayerState,
    Setup,
    Termination,
)

__all__ = ["apply", "build_player", "legal_actions"]

_TREATS = tuple(Treat)
_COMPLETE_COSTUME = len(CostumeType)
"""Cards in a complete costume: one of each type (R2, R10, R12)."""
_MATCHING_ICONS = 3
"""Kids that must show a mean house's icon to trick it (R4)."""


# -- what is legal ---------------------------------------------------------------------------


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """The current player's legal actions in canonical order (see ``GameState``).

    The order is that of the game's ``ActionSpace``: takes slot by slot and kid by kid, then
    visits, tricks, the refresh and the pass. Each action is the space's own object.
    """
    seat = state.current_player
    if seat is None:
        return ()  # R10: the game is over
    setup = state.setup
    player = state.players[seat]
    space = setup.action_space
    every = space.actions  # takes (slot by slot, kid by kid), visits, tricks, refresh, pass
    kids = space.kids
    # A: take a market card onto a kid who wears no card of its type yet (R2).
    types_worn = [player.types_worn(kid) for kid in range(kids)]
    legal = [
        every[slot * kids + kid]
        for slot, card in enumerate(state.market)
        if card is not None
        for kid in range(kids)
        if card.type not in types_worn[kid]
    ]
    # B: visit a house; every visit places a footprint, and a player visits a house once (R6).
    if player.footprints:
        # B1: a nice house wants the lowest tier of its feature, counting every card (R1, R5).
        counts = player.counts_by_feature()
        first_visit = space.market_size * kids
        legal += [
            every[first_visit + house]
            for house, where in enumerate(setup.grid)
            if house not in player.visited
            and counts[where.neighbour.wants] >= where.neighbour.minimum
        ]
        # B2: a mean house wants its icon on top of 3 kids (R3, R4).
        shown = player.shown_icons()
        first_trick = first_visit + space.nice_houses
        legal += [
            every[first_trick + house]
            for house, mean_house in enumerate(setup.mean_houses)
            if house not in player.tricked and _icons_trick(setup, shown, mean_house.icon)
        ]
    refresh, pass_ = every[-2:]
    if _may_refresh(state):
        legal.append(refresh)  # R8: offered beside the turn's actions
        if len(legal) == 1:
            legal.append(pass_)  # R18: a player who could only refresh may pass instead
    elif not legal:
        legal.append(pass_)  # R11: nothing else is legal, so the player passes
    return tuple(legal)


def _icons_trick(setup: Setup, shown: Sequence[TrickIcon | None], icon: TrickIcon) -> bool:
    """R4: three kids show the mean house's ``icon`` on top (``shown``, R3).

    Under the R4 option ``any_mean_house``, three kids showing any one icon will do.
    """
    if setup.rules.any_mean_house:
        return any(shown.count(each) >= _MATCHING_ICONS for each in TrickIcon)
    return shown.count(icon) >= _MATCHING_ICONS


def _may_refresh(state: GameState) -> bool:
    """R8: a full market whose cards all share a type, a theme or a colour; R19: and a deck."""
    market = state.market
    if not all(market) or state.deck_position == len(state.setup.deck):
        return False  # a slot the deck could not refill (R9), or no card left to draw (R19)
    first = market[0]
    same_type = same_theme = same_colour = True
    for card in market:
        same_type = same_type and card.type is first.type  # type: ignore[union-attr]
        same_theme = same_theme and card.theme is first.theme  # type: ignore[union-attr]
        same_colour = same_colour and card.colour is first.colour  # type: ignore[union-attr]
    return same_type or same_theme or same_colour


# -- playing an action -----------------------------------------------------------------------

_Events = list[Event] | None


def apply(state: GameState, action: Action, events: _Events = None) -> GameState:
    """The state after the current player plays ``action``; ``events`` collects what happened.

    Raises IllegalActionError or InvalidActionError and leaves ``state`` as it was (it is
    immutable).
    """
    seat = state.current_player
    if seat is None:
        raise IllegalActionError(f"cannot play {action}: the game is over (R10)")
    play = _PLAYS.get(type(action))
    if play is None:
        raise InvalidActionError(
            f"{action!r} is not a Tricky Treats action: use TakeCard, VisitHouse, TrickHouse, "
            "RefreshMarket or Pass, or parse_action() for text"
        )
    try:
        return play(state, seat, action, events)
    except TrickyTreatsError:
        raise
    except (TypeError, IndexError) as error:
        # A field set past its validator (object.__setattr__, a subclass): no action at all.
        raise InvalidActionError(
            f"{brief(action)} is malformed ({type(error).__name__}: {error}): make actions "
            "with their constructors or parse_action()"
        ) from None


def _take(state: GameState, seat: int, action: TakeCard, events: _Events) -> GameState:
    """A: take the card of market ``action.slot`` and place it on top of ``action.kid``."""
    setup = state.setup
    space = setup.action_space
    slot, kid = action.slot, action.kid
    if slot >= space.market_size or kid >= space.kids:
        raise InvalidActionError(
            f"{action} is not an action of this game: market slots are 0 to "
            f"{space.market_size - 1} and kids 0 to {space.kids - 1}"
        )
    card = state.market[slot]
    if card is None:
        raise IllegalActionError(
            f"cannot play {action}: market slot {slot} is empty, as the deck ran out (R9)"
        )
    player = state.players[seat]
    if card.type in player.types_worn(kid):
        raise IllegalActionError(
            f"cannot play {action}: kid {kid} already wears a {card.type.value} costume, and a "
            "kid wears at most one card of each type (R2)"
        )
    # R2: the card goes on top of the kid's stack, and placed cards never move.
    kids = _replaced(player.kids, kid, (*player.kids[kid], card))
    board = PlayerState(
        player.name,
        kids,
        player.treats,
        player.pumpkins,
        player.visited,
        player.tricked,
        player.footprints,
        player.secret_tile,
    )
    if events is not None:
        events.append(CardPlaced(seat, slot, kid, card))
    # R9, R23: the deck's next card takes the emptied slot; from an empty deck, none does.
    deck = setup.deck
    position = state.deck_position
    revealed = deck[position] if position < len(deck) else None
    if revealed is not None:
        position += 1
        if events is not None:
            events.append(CardRevealed(slot, revealed))
    # R10: all kids in complete costumes, or (R19) a draw emptying the deck, trigger the end.
    reason = None
    if all(len(stack) == _COMPLETE_COSTUME for stack in kids):
        reason = Termination.COMPLETE_COSTUMES
    elif revealed is not None and position == len(deck):
        reason = Termination.DECK_EMPTY
    return _end_turn(
        state,
        seat,
        action,
        events,
        reason,
        players=_replaced(state.players, seat, board),
        market=_replaced(state.market, slot, revealed),
        deck_position=position,
        passes_in_a_row=0,
    )


def _visit(state: GameState, seat: int, action: VisitHouse, events: _Events) -> GameState:
    """B1: visit nice house ``action.house`` for its treats."""
    setup = state.setup
    house = action.house
    if house >= len(setup.grid):
        raise InvalidActionError(
            f"{action} is not an action of this game: nice houses are 0 to {len(setup.grid) - 1}"
        )
    player = state.players[seat]
    if house in player.visited:
        raise IllegalActionError(
            f"cannot play {action}: you already visited nice house {house}, and a player "
            "visits each house at most once (R6)"
        )
    _check_footprint(player, action)
    where = setup.grid[house]
    neighbour = where.neighbour
    # R1: every card of the wanted feature counts; R5: the highest tier reached pays, and
    # below the lowest there is no visit.
    matching = player.count(neighbour.wants)
    gained = neighbour.treats_for(matching)
    if not gained:
        raise IllegalActionError(
            f"cannot play {action}: nice house {house} wants at least {neighbour.minimum} "
            f"{neighbour.wants.value} cards and your kids wear {matching} (R1, R5)"
        )
    treats = list(player.treats)
    treats[_TREATS.index(where.treat)] += gained  # R21: the tracks have no maximum
    visited = player.visited | {house}
    if events is not None:
        events.append(HouseVisited(seat, house, matching, where.treat, gained))
    pumpkins, pumpkin_on_house = _take_pumpkin(
        player, state.pumpkin_on_house, house, seat, events, mean=False
    )
    flipped = _street_bonuses(state, seat, house, visited, treats, events)
    footprints = player.footprints - 1  # R6: the visit places a footprint
    board = PlayerState(
        player.name,
        player.kids,
        tuple(treats),
        pumpkins,
        visited,
        player.tricked,
        footprints,
        player.secret_tile,
    )
    return _end_turn(
        state,
        seat,
        action,
        events,
        None if footprints else Termination.LAST_FOOTPRINT,  # R10
        players=_replaced(state.players, seat, board),
        pumpkin_on_house=pumpkin_on_house,
        street_flipped=flipped,
        passes_in_a_row=0,
    )


def _street_bonuses(
    state: GameState,
    seat: int,
    house: int,
    visited: frozenset[int],
    treats: list[int],
    events: _Events,
) -> tuple[bool, ...]:
    """R7, R22: the street bonuses of a visit to ``house``, added to ``treats``.

    The first to complete a street gets its token's front, later ones its back; a visit that
    completes a row and a column pays both. Returns the tokens' flips after the visit.
    """
    flipped = state.street_flipped
    for street, houses in enumerate(STREETS):
        if house in houses and visited.issuperset(houses):
            token = state.setup.street_tokens[street]
            first = not flipped[street]
            amount = token.front if first else token.back
            flipped = _replaced(flipped, street, True)
            treats[_TREATS.index(token.treat)] += amount
            if events is not None:
                events.append(StreetBonusTaken(seat, street, token.treat, amount, first))
    return flipped


def _trick(state: GameState, seat: int, action: TrickHouse, events: _Events) -> GameState:
    """B2: trick mean house ``action.house``, gaining access to its trick tile (R14)."""
    setup = state.setup
    house = action.house
    if house >= len(setup.mean_houses):
        raise InvalidActionError(
            f"{action} is not an action of this game: mean houses are 0 to "
            f"{len(setup.mean_houses) - 1}"
        )
    player = state.players[seat]
    if house in player.tricked:
        raise IllegalActionError(
            f"cannot play {action}: you already tricked mean house {house}, and a player "
            "visits each house at most once (R6)"
        )
    _check_footprint(player, action)
    mean_house = setup.mean_houses[house]
    if not _icons_trick(setup, player.shown_icons(), mean_house.icon):
        if setup.rules.any_mean_house:
            raise IllegalActionError(
                f"cannot play {action}: no trick icon shows on top of 3 of your kids "
                "(R3, R4 option any-mean-house)"
            )
        raise IllegalActionError(
            f"cannot play {action}: mean house {house} needs 3 kids showing "
            f"{mean_house.icon.value} on top, and {player.icon_count(mean_house.icon)} do "
            "(R3, R4)"
        )
    if events is not None:
        events.append(HouseTricked(seat, house, mean_house.tile))
    pumpkins, pumpkin_on_mean_house = _take_pumpkin(
        player, state.pumpkin_on_mean_house, house, seat, events, mean=True
    )
    footprints = player.footprints - 1  # R6: the visit places a footprint
    board = PlayerState(
        player.name,
        player.kids,
        player.treats,
        pumpkins,
        player.visited,
        player.tricked | {house},
        footprints,
        player.secret_tile,
    )
    return _end_turn(
        state,
        seat,
        action,
        events,
        None if footprints else Termination.LAST_FOOTPRINT,  # R10
        players=_replaced(state.players, seat, board),
        pumpkin_on_mean_house=pumpkin_on_mean_house,
        passes_in_a_row=0,
    )


def _check_footprint(player: PlayerState, action: Action) -> None:
    """R6: every visit places one of the player's footprints."""
    if player.footprints == 0:
        raise IllegalActionError(f"cannot play {action}: you have no footprints left (R6)")


def _take_pumpkin(
    player: PlayerState,
    pumpkins_on: tuple[bool, ...],
    house: int,
    seat: int,
    events: _Events,
    *,
    mean: bool,
) -> tuple[int, tuple[bool, ...]]:
    """R6: the first visitor of a house takes its pumpkin.

    Returns the player's pumpkins and the houses' pumpkins after the visit.
    """
    if not pumpkins_on[house]:
        return player.pumpkins, pumpkins_on
    if events is not None:
        events.append(PumpkinTaken(seat, house, mean=mean))
    return player.pumpkins + 1, _replaced(pumpkins_on, house, False)


def _refresh(state: GameState, seat: int, action: RefreshMarket, events: _Events) -> GameState:
    """R8: discard the whole market and reveal a new one; R19: as much as the deck holds."""
    setup = state.setup
    if not _may_refresh(state):
        if state.deck_position >= len(setup.deck):
            why = "the deck is empty (R19)"
        else:
            why = "its cards do not all share a type, a theme or a colour (R8)"
        raise IllegalActionError(f"cannot refresh the market: {why}")
    market_size = setup.action_space.market_size
    old = tuple(card for card in state.market if card is not None)
    position = state.deck_position
    drawn = setup.deck[position : position + market_size]
    position += len(drawn)
    market = drawn + (None,) * (market_size - len(drawn))  # R19: the market may shrink
    if events is not None:
        events.append(MarketRefreshed(seat, old))
        events.extend(CardRevealed(slot, card) for slot, card in enumerate(drawn))
    reason = Termination.DECK_EMPTY if position == len(setup.deck) else None  # R19
    changes: dict[str, Any] = {
        "market": market,
        "deck_position": position,
        "discarded": state.discarded + old,  # R23: the discarded cards are public
        "passes_in_a_row": 0,  # R17: the market changed, so a run of passes is broken
    }
    if setup.rules.refresh_ends_turn:  # the R8 option: the refresh is the turn's action
        return _end_turn(state, seat, action, events, reason, **changes)
    # R8: the refresh is not the turn's action; the same player acts again.
    return _next_state(
        state,
        action,
        end_trigger=_trigger(state, seat, reason, events),
        current_player=seat,
        turn=state.turn,
        **changes,
    )


def _pass(state: GameState, seat: int, action: Pass, events: _Events) -> GameState:
    """R11: a player with nothing else to do passes; R17: a whole round of passes ends."""
    legal = legal_actions(state)
    if action not in legal:
        raise IllegalActionError(
            "cannot pass: a player may pass only when they have no other legal action "
            f"(R11, R18); legal now: {' '.join(map(str, legal))}"
        )
    if events is not None:
        events.append(Passed(seat))
    passes = state.passes_in_a_row + 1
    # R17 (and P6): as many passes in a row as there are players trigger the end.
    reason = Termination.DEADLOCK if passes >= len(state.players) else None
    return _end_turn(state, seat, action, events, reason, passes_in_a_row=passes)


_PLAYS: dict[type, Callable[[GameState, int, Any, _Events], GameState]] = {
    TakeCard: _take,
    VisitHouse: _visit,
    TrickHouse: _trick,
    RefreshMarket: _refresh,
    Pass: _pass,
}
"""How each kind of action is played; each takes the action class it is listed for."""


# -- the end of a turn -----------------------------------------------------------------------


def _end_turn(
    state: GameState,
    seat: int,
    action: Action,
    events: _Events,
    reason: Termination | None,
    **changes: Any,
) -> GameState:
    """The state after ``seat``'s turn.

    ``changes`` made, a new end trigger recorded, and the turn passed on to the next seat,
    unless the game ends (R10).
    """
    end_trigger = _trigger(state, seat, reason, events)
    # R10, R20: once the end is triggered, the round is finished; it ends with the seat to
    # the right of the first player.
    over = end_trigger is not None and seat == state.setup.config.last_player
    after = _next_state(
        state,
        action,
        end_trigger=end_trigger,
        current_player=None if over else (seat + 1) % len(state.players),
        turn=state.turn + 1,
        **changes,
    )
    if over and events is not None:
        events.append(GameOver(after.winners()))
    return after


def _trigger(
    state: GameState, seat: int, reason: Termination | None, events: _Events
) -> EndTrigger | None:
    """The game's end trigger after ``seat`` caused ``reason`` (the first one counts, R10)."""
    if reason is None or state.end_trigger is not None:
        return state.end_trigger
    if events is not None:
        events.append(EndTriggered(seat, reason))
    return EndTrigger(seat, reason, state.turn)


def _next_state(state: GameState, action: Action, **changes: Any) -> GameState:
    """``state`` with ``changes``, and ``action`` added to its log.

    ``attrs.evolve`` spelt out: a state is made on every move.
    """
    fields: dict[str, Any] = {
        "setup": state.setup,
        "players": state.players,
        "market": state.market,
        "deck_position": state.deck_position,
        "discarded": state.discarded,
        "pumpkin_on_house": state.pumpkin_on_house,
        "pumpkin_on_mean_house": state.pumpkin_on_mean_house,
        "street_flipped": state.street_flipped,
        "passes_in_a_row": state.passes_in_a_row,
        "log": (action, state.log),
        **changes,
    }
    return GameState(**fields)


def _replaced(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """``items`` with ``items[index]`` replaced by ``value``."""
    return (*items[:index], value, *items[index + 1 :])


# -- boards made by hand ---------------------------------------------------------------------


def build_player(
    setup: Setup,
    *,
    name: str,
    secret_tile: TrickTile,
    kids: Sequence[Sequence[CostumeCard]] | None = None,
    treats: Sequence[int] | None = None,
    pumpkins: int = 0,
    visited: Iterable[int] = (),
    tricked: Iterable[int] = (),
) -> PlayerState:
    """A player's board for ``setup``, checked against the rules.

    Footprints left are what the visits leave of the player's supply (R6). For loading saved
    games, analysis and tests. Raises ``ConfigurationError`` for a board the rules cannot
    produce (a kid wearing two cards of one type, too many visits, ...).
    """
    rules = setup.rules
    stacks = ((),) * rules.kids_per_player if kids is None else tuple(tuple(k) for k in kids)
    if len(stacks) != rules.kids_per_player:
        raise ConfigurationError(f"a player has {rules.kids_per_player} kids, got {len(stacks)}")
    for k, stack in enumerate(stacks):
        for i, card in enumerate(stack):
            if any(worn.type is card.type for worn in stack[:i]):
                raise ConfigurationError(f"kid {k} wears two {card.type.value} cards (R2)")
    treat_track = tuple(treats) if treats is not None else (0,) * len(Treat)
    if len(treat_track) != len(Treat) or any(t < 0 for t in treat_track):
        raise ConfigurationError(f"expected {len(Treat)} treat counts >= 0, got {treat_track}")
    visited_set = frozenset(visited)
    tricked_set = frozenset(tricked)
    if not visited_set <= set(range(len(setup.grid))) or not tricked_set <= set(
        range(len(setup.mean_houses))
    ):
        raise ConfigurationError(
            f"no such house among {sorted(visited_set)} / {sorted(tricked_set)}"
        )
    footprints = rules.footprints_per_player - len(visited_set) - len(tricked_set)
    if footprints < 0:
        raise ConfigurationError(
            f"{len(visited_set) + len(tricked_set)} visits need more than "
            f"{rules.footprints_per_player} footprints (R6)"
        )
    return PlayerState(
        name=name,
        kids=stacks,
        treats=treat_track,
        pumpkins=pumpkins,
        visited=visited_set,
        tricked=tricked_set,
        footprints=footprints,
        secret_tile=secret_tile,
    )
