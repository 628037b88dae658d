"""The rules: which actions are legal, and what applying one does.

This is the engine's hot path. It reads the index tables of ``Setup``
(``setup.lookup``) instead of searching, keeps the per-player counts up to date move by move
instead of recounting, and builds each new state with direct constructor calls. Nothing here
goes through the plugin manager.

Rule references (``R1`` ...) are the project's rulings; each is stated, with the rulebook
sentence it interprets, in ``docs/rules.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from tricky_treats.actions import Action, Pass, RefreshMarket, TakeCard, TrickHouse, VisitHouse
from tricky_treats.components import FEATURES, CostumeCard, CostumeType, Treat, TrickIcon, TrickTile
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
    new_game_state,
    new_player_state,
)

__all__ = ["apply", "build_player", "legal_actions"]

_Events = list[Event] | None
_TREATS = tuple(Treat)


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
    """A player's board for ``setup``, with every derived count worked out from it.

    Footprints left are what the visits leave of the player's supply (R6). For loading saved
    games, analysis and tests; play itself keeps the counts up to date move by move. Raises
    ``ConfigurationError`` for a board the rules cannot produce (a kid
    wearing two cards of one type, too many visits, ...).
    """
    rules = setup.rules
    lookup = setup.lookup
    stacks = ((),) * rules.kids_per_player if kids is None else tuple(tuple(k) for k in kids)
    if len(stacks) != rules.kids_per_player:
        raise ConfigurationError(f"a player has {rules.kids_per_player} kids, got {len(stacks)}")
    counts = [0] * len(FEATURES)
    icons = [0] * len(TrickIcon)
    free = [lookup.all_kids] * len(CostumeType)
    for k, stack in enumerate(stacks):
        for card in stack:
            t = lookup.card_type[card.id]
            if not free[t] >> k & 1:
                raise ConfigurationError(f"kid {k} wears two {card.type.value} cards (R2)")
            free[t] &= ~(1 << k)
            for feature in lookup.card_features[card.id]:
                counts[feature] += 1
        if stack:
            icons[lookup.card_icon[stack[-1].id]] += 1
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
    qualified = 0
    for feature, n in enumerate(counts):
        qualified |= lookup.qualify[feature][n]
    visited_mask = sum(1 << h for h in visited_set)
    return PlayerState(
        name=name,
        kids=stacks,
        treats=treat_track,
        pumpkins=pumpkins,
        visited=visited_set,
        tricked=tricked_set,
        footprints=footprints,
        secret_tile=secret_tile,
        feature_counts=tuple(counts),
        visible_icons=tuple(icons),
        free_kids=tuple(free),
        qualified=qualified,
        visitable=qualified & ~visited_mask,
    )


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """The current player's legal actions in canonical order (see ``GameState``)."""
    seat = state.current_player
    if seat is None:
        return ()
    lookup = state.setup.lookup
    player = state.players[seat]
    actions: list[Action] = []
    # A: any market card onto any kid without that type (R2). The same loop works out
    # whether all the market's cards share a feature, for R8.
    takes = lookup.takes
    card_type = lookup.card_type
    card_mask = lookup.card_mask
    free = player.free_kids
    shared = -1
    for slot, card in enumerate(state.market):
        if card is None:
            shared = 0
        else:
            card_id = card.id
            actions += takes[slot][free[card_type[card_id]]]
            shared &= card_mask[card_id]
    if player.footprints:
        # B1: nice houses not yet visited whose lowest tier is reached (R5, R6).
        actions += lookup.visits[player.visitable]
        # B2: mean houses whose icon 3 kids show on top (R3, R4).
        icons = player.visible_icons
        tricked = player.tricked
        if state.setup.rules.any_mean_house:
            if max(icons) >= 3:
                actions += [t for m, t in enumerate(lookup.tricks) if m not in tricked]
        else:
            mean_icon = lookup.mean_icon
            for house, trick in enumerate(lookup.tricks):
                if icons[mean_icon[house]] >= 3 and house not in tricked:
                    actions.append(trick)
    # R8: a full market whose cards share a feature; R19: and cards left in the deck.
    if shared and state.deck_position < lookup.deck_size:
        actions.append(lookup.refresh)
        if len(actions) == 1:
            actions.append(lookup.pass_)  # R18, under either form of R8
    elif not actions:
        actions.append(lookup.pass_)  # R11
    return tuple(actions)


def apply(state: GameState, action: Action, events: _Events) -> GameState:
    """The state after the current player plays ``action``; ``events`` collects what happened.

    Raises IllegalActionError or InvalidActionError and leaves ``state`` as it was.
    """
    seat = state.current_player
    if seat is None:
        raise IllegalActionError(f"cannot play {action}: the game is over (R10)")
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise InvalidActionError(
            f"{action!r} is not a Tricky Treats action: use TakeCard, VisitHouse, TrickHouse, "
            "RefreshMarket or Pass, or parse_action() for text"
        )
    try:
        return handler(state, seat, action, events)
    except TrickyTreatsError:
        raise
    except (TypeError, IndexError) as error:
        # A field set past its validator (object.__setattr__, a subclass): no action at all.
        raise InvalidActionError(
            f"{brief(action)} is malformed ({type(error).__name__}: {error}): make actions "
            "with their constructors or parse_action()"
        ) from None


def _take(state: GameState, seat: int, action: TakeCard, events: _Events) -> GameState:
    setup = state.setup
    lookup = setup.lookup
    slot = action.slot
    kid = action.kid
    space = setup.action_space
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
    card_id = card.id
    type_index = lookup.card_type[card_id]
    free_of_type = player.free_kids[type_index]
    if not free_of_type >> kid & 1:
        raise IllegalActionError(
            f"cannot play {action}: kid {kid} already wears a {card.type.value} costume, and a "
            "kid wears at most one card of each type (R2)"
        )
    stack = player.kids[kid]
    kids = list(player.kids)
    kids[kid] = (*stack, card)
    counts = list(player.feature_counts)
    qualified = player.qualified
    reached = qualified
    qualify = lookup.qualify
    for feature in lookup.card_features[card_id]:
        counts[feature] += 1
        reached |= qualify[feature][counts[feature]]
    icons = list(player.visible_icons)
    if stack:
        icons[lookup.card_icon[stack[-1].id]] -= 1  # now covered (R3)
    icons[lookup.card_icon[card_id]] += 1
    free = list(player.free_kids)
    free[type_index] = free_of_type & ~(1 << kid)
    newly_reached = reached & ~qualified
    if newly_reached and player.visited:
        # In play a visited house was reached before; a board built by hand may say otherwise,
        # and a visited house must never be offered again (R6).
        for house in player.visited:
            newly_reached &= ~(1 << house)
    new_player = new_player_state(
        player.name,
        tuple(kids),
        player.treats,
        player.pumpkins,
        player.visited,
        player.tricked,
        player.footprints,
        player.secret_tile,
        tuple(counts),
        tuple(icons),
        tuple(free),
        reached,
        player.visitable | newly_reached,
    )
    if events is not None:
        events.append(CardPlaced(seat, slot, kid, card))
    reason = None if any(free) else Termination.COMPLETE_COSTUMES
    # Refill the emptied slot (R9, R23).
    market = list(state.market)
    position = state.deck_position
    if position < lookup.deck_size:
        revealed = setup.deck[position]
        market[slot] = revealed
        position += 1
        if events is not None:
            events.append(CardRevealed(slot, revealed))
        if position == lookup.deck_size and reason is None:
            reason = Termination.DECK_EMPTY
    else:
        market[slot] = None
    players = list(state.players)
    players[seat] = new_player
    return _end_turn(
        state,
        seat,
        action,
        events,
        tuple(players),
        tuple(market),
        position,
        state.pumpkin_on_house,
        state.pumpkin_on_mean_house,
        state.street_flipped,
        0,
        reason,
    )


def _check_footprints(player: PlayerState, action: Action) -> None:
    """Every visit places a footprint (R6)."""
    if not player.footprints:
        raise IllegalActionError(f"cannot play {action}: you have no footprints left (R6)")


def _visit(state: GameState, seat: int, action: VisitHouse, events: _Events) -> GameState:
    setup = state.setup
    lookup = setup.lookup
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
    _check_footprints(player, action)
    feature = lookup.house_feature[house]
    matching = player.feature_counts[feature]
    neighbour = setup.grid[house].neighbour
    gained = neighbour.treats_for(matching)
    if not gained:
        raise IllegalActionError(
            f"cannot play {action}: nice house {house} wants at least {neighbour.minimum} "
            f"{FEATURES[feature].value} cards and your kids wear {matching} (R1, R5)"
        )
    treats = list(player.treats)
    treat_index = lookup.house_treat[house]
    treats[treat_index] += gained
    visited = _with_house(player.visited, house)
    if events is not None:
        events.append(HouseVisited(seat, house, matching, _TREATS[treat_index], gained))
    pumpkins = player.pumpkins
    pumpkin_on_house = state.pumpkin_on_house
    if pumpkin_on_house[house]:
        pumpkins += 1
        pumpkin_on_house = (*pumpkin_on_house[:house], False, *pumpkin_on_house[house + 1 :])
        if events is not None:
            events.append(PumpkinTaken(seat, house, mean=False))
    flipped = state.street_flipped
    for street in lookup.streets_of_house[house]:
        if visited.issuperset(STREETS[street]):
            token = setup.street_tokens[street]
            first = not flipped[street]
            amount = token.front if first else token.back
            if first:
                flipped = (*flipped[:street], True, *flipped[street + 1 :])
            treats[lookup.street_treat[street]] += amount
            if events is not None:
                events.append(StreetBonusTaken(seat, street, token.treat, amount, first))
    footprints = player.footprints - 1
    new_player = new_player_state(
        player.name,
        player.kids,
        tuple(treats),
        pumpkins,
        visited,
        player.tricked,
        footprints,
        player.secret_tile,
        player.feature_counts,
        player.visible_icons,
        player.free_kids,
        player.qualified,
        player.visitable & ~(1 << house),
    )
    players = list(state.players)
    players[seat] = new_player
    return _end_turn(
        state,
        seat,
        action,
        events,
        tuple(players),
        state.market,
        state.deck_position,
        pumpkin_on_house,
        state.pumpkin_on_mean_house,
        flipped,
        0,
        None if footprints else Termination.LAST_FOOTPRINT,
    )


def _trick(state: GameState, seat: int, action: TrickHouse, events: _Events) -> GameState:
    setup = state.setup
    lookup = setup.lookup
    house = action.house
    if house >= len(lookup.tricks):
        raise InvalidActionError(
            f"{action} is not an action of this game: mean houses are 0 to {len(lookup.tricks) - 1}"
        )
    player = state.players[seat]
    if house in player.tricked:
        raise IllegalActionError(
            f"cannot play {action}: you already tricked mean house {house}, and a player "
            "visits each house at most once (R6)"
        )
    _check_footprints(player, action)
    icons = player.visible_icons
    icon = setup.mean_houses[house].icon
    if setup.rules.any_mean_house:
        if max(icons) < 3:
            raise IllegalActionError(
                f"cannot play {action}: no trick icon shows on top of 3 of your kids "
                "(R3, R4 option any-mean-house)"
            )
    elif icons[lookup.mean_icon[house]] < 3:
        raise IllegalActionError(
            f"cannot play {action}: mean house {house} needs 3 kids showing "
            f"{icon.value} on top, and {icons[lookup.mean_icon[house]]} do (R3, R4)"
        )
    if events is not None:
        events.append(HouseTricked(seat, house, setup.mean_houses[house].tile))
    pumpkins = player.pumpkins
    pumpkin_on_mean_house = state.pumpkin_on_mean_house
    if pumpkin_on_mean_house[house]:
        pumpkins += 1
        pumpkin_on_mean_house = (
            *pumpkin_on_mean_house[:house],
            False,
            *pumpkin_on_mean_house[house + 1 :],
        )
        if events is not None:
            events.append(PumpkinTaken(seat, house, mean=True))
    footprints = player.footprints - 1
    new_player = new_player_state(
        player.name,
        player.kids,
        player.treats,
        pumpkins,
        player.visited,
        _with_house(player.tricked, house),
        footprints,
        player.secret_tile,
        player.feature_counts,
        player.visible_icons,
        player.free_kids,
        player.qualified,
        player.visitable,
    )
    players = list(state.players)
    players[seat] = new_player
    return _end_turn(
        state,
        seat,
        action,
        events,
        tuple(players),
        state.market,
        state.deck_position,
        state.pumpkin_on_house,
        pumpkin_on_mean_house,
        state.street_flipped,
        0,
        None if footprints else Termination.LAST_FOOTPRINT,
    )


def _refresh(state: GameState, seat: int, action: Action, events: _Events) -> GameState:
    setup = state.setup
    lookup = setup.lookup
    if lookup.refresh not in state.legal_actions():  # one place decides it: legal_actions
        if state.deck_position >= lookup.deck_size:
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
    reason = Termination.DECK_EMPTY if position == lookup.deck_size else None
    discarded = state.discarded + old
    if setup.rules.refresh_ends_turn:
        return _end_turn(
            state,
            seat,
            action,
            events,
            state.players,
            market,
            position,
            state.pumpkin_on_house,
            state.pumpkin_on_mean_house,
            state.street_flipped,
            0,
            reason,
            discarded,
        )
    # R8: the refresh is not the turn's action; the same player acts again.
    end_trigger = state.end_trigger
    if reason is not None and end_trigger is None:
        end_trigger = EndTrigger(seat, reason, state.turn)
        if events is not None:
            events.append(EndTriggered(seat, reason))
    return new_game_state(
        setup,
        state.players,
        market,
        position,
        discarded,
        state.pumpkin_on_house,
        state.pumpkin_on_mean_house,
        state.street_flipped,
        seat,
        state.turn,
        0,  # R17: a refresh changed the market, so it breaks a run of passes
        end_trigger,
        (action, state.log),
    )


def _pass(state: GameState, seat: int, action: Action, events: _Events) -> GameState:
    lookup = state.setup.lookup
    legal = state.legal_actions()
    if lookup.pass_ not in legal:
        raise IllegalActionError(
            "cannot pass: a player may pass only when they have no other legal action "
            f"(R11, R18); legal now: {' '.join(map(str, legal))}"
        )
    if events is not None:
        events.append(Passed(seat))
    passes = state.passes_in_a_row + 1
    return _end_turn(
        state,
        seat,
        action,
        events,
        state.players,
        state.market,
        state.deck_position,
        state.pumpkin_on_house,
        state.pumpkin_on_mean_house,
        state.street_flipped,
        passes,
        Termination.DEADLOCK if passes >= len(state.players) else None,  # R17
    )


def _end_turn(
    state: GameState,
    seat: int,
    action: Action,
    events: _Events,
    players: tuple[PlayerState, ...],
    market: tuple[CostumeCard | None, ...],
    deck_position: int,
    pumpkin_on_house: tuple[bool, ...],
    pumpkin_on_mean_house: tuple[bool, ...],
    street_flipped: tuple[bool, ...],
    passes_in_a_row: int,
    reason: Termination | None,
    discarded: tuple[CostumeCard, ...] | None = None,
) -> GameState:
    """Build the state after ``seat``'s turn: record a new end trigger, pass the turn on."""
    setup = state.setup
    end_trigger = state.end_trigger
    if reason is not None and end_trigger is None:
        end_trigger = EndTrigger(seat, reason, state.turn)
        if events is not None:
            events.append(EndTriggered(seat, reason))
    config = setup.config
    # R10: once triggered, the round ends with the seat to the right of the first player.
    if end_trigger is not None and seat == config.last_player:
        current: int | None = None
    else:
        current = (seat + 1) % len(players)
    new = new_game_state(
        setup,
        players,
        market,
        deck_position,
        state.discarded if discarded is None else discarded,
        pumpkin_on_house,
        pumpkin_on_mean_house,
        street_flipped,
        current,
        state.turn + 1,
        passes_in_a_row,
        end_trigger,
        (action, state.log),
    )
    if current is None and events is not None:
        events.append(GameOver(new.winners()))
    return new


_WITH_HOUSE: dict[tuple[frozenset[int], int], frozenset[int]] = {}


def _with_house(houses: frozenset[int], house: int) -> frozenset[int]:
    """``houses | {house}``, one shared set for each result (there are few: 2 ** houses).

    Sharing them means a kept state holds no set of its own for the garbage collector to
    visit; the table is cleared if it ever grows large.
    """
    key = (houses, house)
    result = _WITH_HOUSE.get(key)
    if result is None:
        result = houses | {house}
        if len(_WITH_HOUSE) >= 8192:
            _WITH_HOUSE.clear()
        _WITH_HOUSE[key] = result
    return result


# Each handler takes the action class it is registered for.
_HANDLERS: dict[type, Callable[[GameState, int, Any, _Events], GameState]] = {
    TakeCard: _take,
    VisitHouse: _visit,
    TrickHouse: _trick,
    RefreshMarket: _refresh,
    Pass: _pass,
}
