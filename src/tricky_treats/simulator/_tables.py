"""The compact core's tables for a game, the core of a state, and a game's ``Scoring``.

``tables()`` makes the ints and tuples the core (``_core.Tables``) reads, once per game (kept
in the setup's memo): what a shape of game shares (the box's cards, the action space, the
players and rules) comes from a template kept per shape, and what a deal fixes (the deck, the
grid, the street tokens, the mean houses) from index tables kept per house and token
(``_lookup``). ``core_of()`` makes a core from a state's fields, or says (None) that the core
does not cover the game. Not part of the public API; see ``tricky_treats.simulator``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from tricky_treats.components import FEATURES, Treat, TrickIcon
from tricky_treats.model import STREETS, EndTrigger, GameState, Termination, _setup_memo
from tricky_treats.simulator import _core
from tricky_treats.simulator._deal import qualifying_table
from tricky_treats.simulator._lookup import (
    _HOUSE_INFO,
    _ICON_BY_ID,
    _TOKEN_INFO,
    TYPES,
    card_tables,
    house_info,
    icon_index,
    needs,
    token_info,
)

if TYPE_CHECKING:
    from tricky_treats.components import CostumeCard, StreetBonusToken
    from tricky_treats.model import PlayerState, Setup

__all__: list[str] = []

COMPILED = not _core.__file__.endswith(".py")
"""Whether ``_core`` runs compiled by mypyc (``tricky_treats.__compiled__``)."""


def covers(setup: Setup) -> bool:
    """Whether the core covers ``setup``'s configuration (see ``_core``'s limits)."""
    return tables(setup) is not None


_TERMINATIONS_BY_CODE = {
    _core.LAST_FOOTPRINT: Termination.LAST_FOOTPRINT,
    _core.COMPLETE_COSTUMES: Termination.COMPLETE_COSTUMES,
    _core.DECK_EMPTY: Termination.DECK_EMPTY,
    _core.DEADLOCK: Termination.DEADLOCK,
}


def make_trigger(seat: int, reason: int, turn: int) -> object:
    """The ``EndTrigger`` of a seat, one of the core's reasons and a turn."""
    return EndTrigger(seat, _TERMINATIONS_BY_CODE[reason], turn)


def tables(setup: Setup) -> _core.Tables | None:
    """The core's tables for ``setup``, built once per game; None if it is not covered."""
    memo = getattr(setup, "_memo", None)
    if memo is None:
        memo = _setup_memo(setup)
    found: _core.Tables | Literal[False] | None = memo.get("core")
    if found is None:
        found = memo["core"] = _build_tables(setup) or False
    return found or None


# ``_lookup``'s entries: a nice house, its feature, lowest tier, treat and gains; a street
# bonus token, its treat, front and back. Typed as tuples of any length, which the compiled
# build keeps as objects (it unpacks a fixed-length tuple on every read and packs it again
# on every store).
HouseInfo = tuple[Any, ...]
TokenInfo = tuple[Any, ...]


def _build_tables(setup: Setup) -> _core.Tables | None:
    if (
        len(setup.grid) != 9
        or len(setup.street_tokens) != len(STREETS)
        or len(setup.mean_houses) > _core.MAX_MEAN_HOUSES
    ):
        return None
    template = template_of(setup)
    if template is None:
        return None
    given = setup.deck  # a tuple, but a setup made by hand may hold a list
    dealt: tuple[CostumeCard, ...] = given if type(given) is tuple else tuple(given)
    cards = template.cards
    deck: tuple[Any, ...] = tuple([card.id for card in dealt])
    if not _boxed(cards, deck, dealt):  # a loaded game's, or a plugin's deck of its own cards
        if any(type(card_id) is not int for card_id in deck):
            return None
        if max(deck, default=0) > _core.MAX_CARD_ID or min(deck, default=0) < 0:
            return None
        known = list(cards) + [None] * (max(deck, default=0) + 1 - len(cards))
        for card_id, card in zip(deck, dealt, strict=True):
            known[card_id] = card
        cards = tuple(known)
    # The index tables of each house and token (``_lookup``), read here without a call.
    # Typed here: ``_lookup`` is not compiled, so the compiled build would see Any and make
    # every read a generic call.
    house_infos: dict[int, HouseInfo] = _HOUSE_INFO
    houses: list[HouseInfo] = [
        house_infos.get(id(house)) or house_info(house) for house in setup.grid
    ]
    features = tuple([house[1] for house in houses])
    street_treat, street_front, street_back = _streets(setup.street_tokens)
    icons = [house.neighbour.icon for house in setup.mean_houses]
    icons_by_id: dict[int, int] = _ICON_BY_ID
    mean_icon = tuple([icons_by_id.get(id(icon), -1) for icon in icons])
    if -1 in mean_icon:  # an icon equal to a TrickIcon, or none: the index of its value
        try:
            mean_icon = tuple([icon_index(icon) for icon in icons])
        except KeyError:
            return None  # not a trick icon: the rules say what is wrong with it
    mean_icon, ready = mean_ready_of(mean_icon, template.any_mean_house)
    return template.with_deal(
        deck,
        qualifying_table(len(FEATURES), features, [house[2] for house in houses]),
        features,
        tuple([house[3] for house in houses]),
        tuple([house[4] for house in houses]),
        street_treat,
        street_front,
        street_back,
        mean_icon,
        ready,
        cards,
    )


# Per order of street bonus tokens, by their ids (the entry holds the tokens): the tokens,
# their treats, fronts and backs. Shared by the games dealt that order, as ``_MEAN_READY``'s
# tuples are: each tuple a game keeps alive of its own adds to the garbage collector's work.
_STREET_TABLES: dict[
    tuple[int, ...], tuple[object, tuple[int, ...], tuple[int, ...], tuple[int, ...]]
] = {}


def _streets(
    street_tokens: Sequence[StreetBonusToken],
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The treats, fronts and backs of ``street_tokens``, in their order."""
    key = tuple([id(token) for token in street_tokens])
    found = _STREET_TABLES.get(key)
    if found is None:
        token_infos: dict[int, TokenInfo] = _TOKEN_INFO
        tokens: list[TokenInfo] = [
            token_infos.get(id(token)) or token_info(token) for token in street_tokens
        ]
        found = (
            tuple(street_tokens),  # held, so that no other token takes one of their ids
            tuple([token[1] for token in tokens]),
            tuple([token[2] for token in tokens]),
            tuple([token[3] for token in tokens]),
        )
        if len(_STREET_TABLES) >= 4096:
            _STREET_TABLES.clear()
        _STREET_TABLES[key] = found
    return found[1], found[2], found[3]


def template_of(setup: Setup) -> _core.Tables | None:
    """What every game of ``setup``'s shape shares; None if the core does not cover it.

    Tables whose deal's parts (deck, grid, street tokens, mean houses) are empty, with the
    box's cards, the players, the rules and the action space. Kept per shape.
    """
    components = setup.components
    rules = setup.rules
    config = setup.config
    space = setup.action_space
    # The first player and the count of players fix the last player (a property: a call).
    key = (id(components), id(rules), len(config.players), config.first_player, id(space))
    entry = _TEMPLATES.get(key)
    if entry is not None:
        return entry[1]
    shape = _template(setup)
    if len(_TEMPLATES) >= 64:
        _TEMPLATES.clear()
    _TEMPLATES[key] = ((components, rules, space), shape)  # holds what the key names
    return shape


# Per shape of game, by the ids of its components, rules and action space (the entry holds
# them): the shape, or None where the core does not cover it.
_TEMPLATES: dict[tuple[int, int, int, int, int], tuple[object, _core.Tables | None]] = {}


def _template(setup: Setup) -> _core.Tables | None:
    components = setup.components
    rules = setup.rules
    cards: tuple[Any, ...] = components.cards  # card ids are their positions (checked there)
    if rules.kids_per_player > _core.MAX_KIDS or len(cards) > _core.MAX_CARD_ID + 1:
        return None
    card_type, card_icon, card_features, card_mask = card_tables(components)
    space = setup.action_space
    take_codes, visit_codes, trick_codes = _codes(
        space.market_size, space.kids, space.nice_houses, space.mean_houses
    )
    return _core.Tables(
        len(setup.config.players),
        rules.kids_per_player,
        rules.market_size,
        setup.config.last_player,
        rules.any_mean_house,
        rules.refresh_ends_turn,
        (),
        card_type,
        tuple([_core.FREE_BITS * kind for kind in card_type]),
        card_icon,
        card_features,
        card_mask,
        tuple([sum(1 << _core.COUNT_BITS * f for f in fs) for fs in card_features]),
        (),
        (),
        (),
        (),
        _STREET_HOUSES,
        _STREETS_OF_HOUSE,
        (),
        (),
        (),
        (),
        (),
        take_codes,
        visit_codes,
        trick_codes,
        space.actions,
        cards,
        make_trigger,
    )


@functools.cache
def _codes(
    market_size: int, kids: int, nice_houses: int, mean_houses: int
) -> tuple[
    tuple[tuple[tuple[int, ...], ...], ...],
    tuple[tuple[int, ...], ...],
    tuple[tuple[int, ...], ...],
]:
    """The codes of the takes, visits and tricks of each bit mask.

    As ``ActionSpace`` numbers them: takes by slot and kid, then visits, then tricks.
    """
    takes = tuple(
        tuple(
            tuple(slot * kids + kid for kid in range(kids) if mask >> kid & 1)
            for mask in range(1 << kids)
        )
        for slot in range(market_size)
    )
    first = market_size * kids
    visits = tuple(
        tuple(first + h for h in range(nice_houses) if mask >> h & 1)
        for mask in range(1 << nice_houses)
    )
    first += nice_houses
    tricks = tuple(
        tuple(first + h for h in range(mean_houses) if mask >> h & 1)
        for mask in range(1 << mean_houses)
    )
    return takes, visits, tricks


def _boxed(cards: tuple[object, ...], deck: tuple[Any, ...], dealt: tuple[object, ...]) -> bool:
    """Whether ``dealt`` (whose ids are ``deck``) is the box's own card objects, ``cards``.

    Usually it is (a deal shuffles the box's cards): then the ids need no other check.
    """
    count = len(cards)
    for i in range(len(deck)):
        card_id = deck[i]
        if type(card_id) is not int or not 0 <= card_id < count or cards[card_id] is not dealt[i]:
            return False
    return True


_STREET_HOUSES = tuple(sum(1 << house for house in street) for street in STREETS)
_STREETS_OF_HOUSE = tuple(
    tuple(s for s, street in enumerate(STREETS) if house in street) for house in range(9)
)
_MEAN_READY: dict[tuple[tuple[int, ...], bool], tuple[tuple[int, ...], tuple[int, ...]]] = {}


def mean_ready_of(
    mean_icon: tuple[int, ...], any_mean_house: bool
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``mean_icon`` as kept for every game with those icons, and ``Tables.mean_ready``.

    ``mean_ready``: per bit mask of the icons shown on 3 kids, the mean houses they may
    trick (R3, R4).
    """
    found = _MEAN_READY.get((mean_icon, any_mean_house))
    if found is not None:
        return found
    everyone = (1 << len(mean_icon)) - 1
    ready = tuple(
        (everyone if ready else 0)
        if any_mean_house
        else sum(1 << house for house, icon in enumerate(mean_icon) if ready >> icon & 1)
        for ready in range(1 << len(TrickIcon))
    )
    if len(_MEAN_READY) >= 4096:
        _MEAN_READY.clear()
    found = _MEAN_READY[mean_icon, any_mean_house] = (mean_icon, ready)
    return found


def mask(houses: frozenset[int]) -> int:
    """The bit mask of a set of houses."""
    bits = 0
    for house in houses:
        bits |= 1 << house
    return bits


def scoring_of(setup: Setup) -> _core.Scoring:
    """The trick tiles as ``_core.totals`` reads them, and a pumpkin's worth; kept per setup.

    The tiles are numbered: the secret tiles, then the mean houses' tiles.
    """
    memo = getattr(setup, "_memo", None)
    if memo is None:
        memo = _setup_memo(setup)
    found: _core.Scoring | None = memo.get("scoring")
    if found is None:
        tiles = (*setup.secret_tiles, *(house.tile for house in setup.mean_houses))
        seats = len(setup.secret_tiles)
        found = memo["scoring"] = _core.Scoring(
            tuple(map(needs, tiles)),
            tuple([tile.points for tile in tiles]),
            tuple(range(seats)),
            tuple(range(seats, len(tiles))),
            setup.rules.pumpkin_points,
        )
    return found


def core_of(state: GameState) -> _core.Core | None:
    """A core made from ``state``'s fields; None where the core does not cover the game.

    A state made by hand whose boards play could not reach (a house visitable that is not
    reached, a card of another box, a kid wearing more than a card of each type, a treat
    track of 65,536 or more) is not covered either.
    """
    setup = state.setup
    found = tables(setup)
    if found is None:
        return None
    cards = found.cards
    market = _ids(cards, state.market)
    discarded = state.discarded
    pile = _ids(cards, discarded) if discarded else []
    if market is None or pile is None:
        return None  # a card of another box, put there by hand
    seats: list[_core.Seat] = []
    if state.turn == 0 and state.log is None:  # a first state: nobody wears a card yet
        kids = found.kids
        qualified = _core.qualified_by(found.qualifying, 0)
        unworn = ((),) * kids  # compared, rather than any(): no call a player when compiled
        for player in state.players:
            if (
                player.kids != unworn
                or player.treats != _NO_TREATS
                or player.visited
                or player.tricked
            ):
                break
            seat = _core.empty_seat(kids, player.footprints, qualified)
            seat.pumpkins = player.pumpkins
            seats.append(seat)
    if len(seats) != len(state.players):
        seats = []
        for player in state.players:
            made = _seat(player, found)
            if made is None:
                return None
            seats.append(made)
    current = state.current_player
    return _core.Core(
        found,
        seats,
        market,
        state.deck_position,
        _bits(state.pumpkin_on_house),
        _bits(state.pumpkin_on_mean_house),
        _bits(state.street_flipped),
        tuple(pile),
        -1 if current is None else current,
        state.turn,
        state.passes_in_a_row,
        state.end_trigger,
        state.log,
        [],
    )


def first_core(setup: Setup) -> _core.Core | None:
    """The core of the first state dealt from ``setup``, made without building that state.

    The same core as ``core_of`` of the state ``new_game`` starts from ``setup``
    (``dealing._first_state``): nobody wears a card, every pumpkin is out, the market is the
    top of the deck. None where ``core_of`` would give None, or where that state cannot be
    built (the caller then builds it, and gets its error).
    """
    found = tables(setup)
    if found is None:
        return None
    if len(setup.secret_tiles) != len(setup.config.players):
        return None  # _first_state refuses it
    rules = setup.rules
    market = setup.deck[: rules.market_size]
    ids = _ids(found.cards, market)
    if ids is None:
        return None
    return _core.new_core(
        found,
        rules.footprints_per_player,
        ids,
        rules.market_size,
        setup.config.first_player,
    )


# Counted once: ``len()`` of an enum is a Python-level call.
_TYPE_COUNT: int = TYPES
_FEATURE_COUNT: int = len(FEATURES)
_ICON_COUNT: int = len(TrickIcon)


def _seat(player: PlayerState, tables: _core.Tables) -> _core.Seat | None:
    """``player``'s board as the core packs it; None for one the core does not cover.

    A card the core does not know, a kid wearing two cards of a type (more than a stack
    holds), a count past 4 bits or a treat track past 16 bits: a board made by hand.
    """
    # The locals are typed (a card's id, the counts): the compiled build sees ``Any`` in
    # what the model's classes hold, and would make each step a generic call.
    treats = 0
    for treat, track in enumerate(player.treats):
        count: int = track
        if count > _core.TREAT_MASK:
            return None  # more than a treat track holds in play: made by hand
        treats |= count << _core.TREAT_BITS * treat
    if len(player.kids) != tables.kids:
        return None  # kids made by hand
    cards = tables.cards
    card_type = tables.card_type
    card_features = tables.card_features
    card_icon = tables.card_icon
    free: list[int] = [(1 << tables.kids) - 1] * _TYPE_COUNT
    counts: list[int] = [0] * _FEATURE_COUNT
    icons: list[int] = [0] * _ICON_COUNT
    stacks: list[int] = []
    for kid, worn in enumerate(player.kids):
        stack = 0
        top = -1
        for card in worn:
            card_id: int = card.id
            if not _is_known(cards, card_id, card):
                return None
            kind = card_type[card_id]
            if not free[kind] >> kid & 1:
                return None
            # Written out, not ``+=``: the compiled build makes an augmented assignment to
            # a list's item a generic call.
            free[kind] = free[kind] & ~(1 << kid)
            stack = stack << _core.CARD_BITS | card_id + 1
            for feature in card_features[card_id]:
                counts[feature] = counts[feature] + 1
            top = card_id
        if top >= 0:
            icons[card_icon[top]] = icons[card_icon[top]] + 1
        stacks.append(stack)
    packed_free = 0
    for kind, kids in enumerate(free):
        packed_free |= kids << _core.FREE_BITS * kind
    packed_counts = 0
    for feature, n in enumerate(counts):
        if n > _core.COUNT_MASK:
            return None  # more cards than the core counts: a board made by hand
        packed_counts |= n << _core.COUNT_BITS * feature
    packed_icons = 0
    for icon, n in enumerate(icons):
        packed_icons |= n << _core.COUNT_BITS * icon
    return _core.Seat(
        packed_counts,
        packed_icons,
        packed_free,
        _core.qualified_by(tables.qualifying, packed_counts),
        stacks,
        treats,
        player.pumpkins,
        mask(player.visited),
        mask(player.tricked),
        player.footprints,
    )


def _ids(cards: tuple[object, ...], pile: Sequence[CostumeCard | None]) -> list[int] | None:
    """The ids of ``pile``'s cards, -1 for an empty slot; None if the core does not know one."""
    ids: list[int] = []
    for card in pile:
        if card is None:
            ids.append(-1)
            continue
        card_id: int = card.id
        if not _is_known(cards, card_id, card):
            return None
        ids.append(card_id)
    return ids


def _is_known(cards: tuple[object, ...], card_id: int, card: object) -> bool:
    """Whether ``card``, of id ``card_id``, is the core's card of that id (or an equal one)."""
    if not 0 <= card_id < len(cards):
        return False
    known = cards[card_id]
    return known is card or known == card


_NO_TREATS = (0,) * len(Treat)
_BITS: dict[tuple[bool, ...], int] = {}


def _bits(flags: tuple[bool, ...]) -> int:
    """The bit mask of the true ones among ``flags``."""
    found = _BITS.get(flags)
    if found is None:
        found = sum(1 << i for i, flag in enumerate(flags) if flag)
        if len(_BITS) >= 4096:
            _BITS.clear()
        _BITS[flags] = found
    return found
