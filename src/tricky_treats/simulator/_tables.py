"""The compact core's tables for a game, and the core of a state.

``tables()`` turns a setup's index tables (``_lookup.lookup(setup)``) into the ints and tuples the
core (``_core.Tables``) reads, once per game, sharing what a box and an action space have in
common; ``core_of()`` makes a core from a state's fields, or says (None) that the core does
not cover the game. Not part of the public API; see ``tricky_treats.simulator``.
"""

from __future__ import annotations

import functools
import operator
from typing import TYPE_CHECKING, Any, Literal

from tricky_treats.components import FEATURES, CostumeType, TrickIcon
from tricky_treats.model import STREETS, EndTrigger, GameState, Termination, _setup_memo
from tricky_treats.simulator import _core
from tricky_treats.simulator._lookup import _Lookup as Lookup
from tricky_treats.simulator._lookup import lookup as lookup_of

if TYPE_CHECKING:
    from tricky_treats.components import CostumeCard
    from tricky_treats.model import GridHouse, PlayerState, Setup

__all__: list[str] = []

COMPILED = not _core.__file__.endswith(".py")
"""Whether ``_core`` runs compiled by mypyc (``tricky_treats.__compiled__``)."""


def covers(setup: Setup) -> bool:
    """Whether the core covers ``setup``'s configuration (see ``_core``'s limits)."""
    return tables(setup) is not None


def _covers(setup: Setup, deck: tuple[int, ...]) -> bool:
    return (
        setup.rules.kids_per_player <= _core.MAX_KIDS
        and len(setup.grid) == 9
        and len(setup.street_tokens) == len(STREETS)
        and len(setup.mean_houses) <= _core.MAX_MEAN_HOUSES
        and len(setup.components.cards) <= _core.MAX_CARD_ID + 1  # card ids are positions
        and max(deck, default=0) <= _core.MAX_CARD_ID
    )


_TERMINATIONS_BY_CODE = {
    _core.LAST_FOOTPRINT: Termination.LAST_FOOTPRINT,
    _core.COMPLETE_COSTUMES: Termination.COMPLETE_COSTUMES,
    _core.DECK_EMPTY: Termination.DECK_EMPTY,
    _core.DEADLOCK: Termination.DEADLOCK,
}


def _make_trigger(seat: int, reason: int, turn: int) -> object:
    return EndTrigger(seat, _TERMINATIONS_BY_CODE[reason], turn)


_TABLE_COUNTS = 1 << _core.COUNT_BITS


def tables(setup: Setup) -> _core.Tables | None:
    """The core's tables for ``setup``, built once per game; None if it is not covered."""
    memo = getattr(setup, "_memo", None)
    if memo is None:
        memo = _setup_memo(setup)
    found: _core.Tables | Literal[False] | None = memo.get("core")
    if found is None:
        found = memo["core"] = _build_tables(setup) or False
    return found or None


def _build_tables(setup: Setup) -> _core.Tables | None:
    dealt = setup.deck
    lookup = lookup_of(setup)
    space = setup.action_space
    cards: tuple[object, ...] = setup.components.cards  # card ids are their positions
    shared = _SHARED.get((id(lookup.card_features), id(cards)))
    if shared is None:
        shared = _shared(lookup, cards)
    positions = shared[5]
    try:  # usually the deck is the box's own cards (by identity): their positions are ids
        deck = tuple(map(positions.__getitem__, map(id, dealt)))
    except KeyError:  # a deck dealt by a plugin, of cards of its own
        deck = tuple(map(_ID, dealt))
        if not _covers(setup, deck):
            return None
        known = list(cards) + [None] * (max(deck, default=0) + 1 - len(cards))
        for card_id, card in zip(deck, dealt, strict=True):
            known[card_id] = card
        cards = tuple(known)
    else:
        if not _covers(setup, ()):
            return None
    rules = setup.rules
    tokens = setup.street_tokens
    mean_icon = lookup.mean_icon
    any_mean_house = rules.any_mean_house
    take_codes, visit_codes, trick_codes = _codes(
        space.market_size, space.kids, space.nice_houses, space.mean_houses
    )
    return _core.Tables(
        len(setup.config.players),
        rules.kids_per_player,
        rules.market_size,
        setup.config.last_player,
        any_mean_house,
        rules.refresh_ends_turn,
        deck,
        lookup.card_type,
        shared[3],
        lookup.card_icon,
        lookup.card_features,
        lookup.card_mask,
        shared[4],
        lookup.qualify,
        lookup.house_feature,
        lookup.house_treat,
        _house_gains(setup.grid),
        _STREET_HOUSES,
        lookup.streets_of_house,
        lookup.street_treat,
        tuple(map(_FRONT, tokens)),
        tuple(map(_BACK, tokens)),
        mean_icon,
        _MEAN_READY.get((mean_icon, any_mean_house)) or _mean_ready(mean_icon, any_mean_house),
        take_codes,
        visit_codes,
        trick_codes,
        space.actions,
        cards,
        _make_trigger,
    )


# Per box: the tables the core adds to the lookup's, worked out once. Keyed by the ids
# of what they are worked out from, which each entry keeps alive.
_SHARED: dict[tuple[int, int], tuple[Any, ...]] = {}


def _shared(lookup: Any, cards: tuple[object, ...]) -> tuple[Any, ...]:
    card_features = lookup.card_features
    entry = (
        card_features,
        cards,
        None,
        tuple(_core.FREE_BITS * kind for kind in lookup.card_type),
        tuple(sum(1 << _core.COUNT_BITS * f for f in fs) for fs in card_features),
        {id(card): i for i, card in enumerate(cards)},
    )
    if len(_SHARED) >= 64:
        _SHARED.clear()
    _SHARED[id(card_features), id(cards)] = entry
    return entry


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


_ID = operator.attrgetter("id")
_SECOND = operator.itemgetter(1)
_FRONT = operator.attrgetter("front")
_BACK = operator.attrgetter("back")
_STREET_HOUSES = tuple(sum(1 << house for house in street) for street in STREETS)

# Per nice house (by id; the entry keeps it alive): the house, and the treats it gives for
# 0 to 15 cards of its feature. Houses are usually the shared objects of the base game's deal.
_GAINS: dict[int, tuple[GridHouse, tuple[int, ...]]] = {}


def _house_gains(grid: tuple[GridHouse, ...]) -> tuple[tuple[int, ...], ...]:
    entries = tuple(map(_GAINS.get, map(id, grid)))
    if None in entries:
        if len(_GAINS) >= 4096:
            _GAINS.clear()
        for house in grid:
            gains = tuple(house.neighbour.treats_for(n) for n in range(_TABLE_COUNTS))
            _GAINS[id(house)] = (house, gains)
        entries = tuple(map(_GAINS.get, map(id, grid)))
    return tuple(map(_SECOND, entries))  # type: ignore[arg-type]


_MEAN_READY: dict[tuple[tuple[int, ...], bool], tuple[int, ...]] = {}


def _mean_ready(mean_icon: tuple[int, ...], any_mean_house: bool) -> tuple[int, ...]:
    """Per bit mask of the icons shown on 3 kids, the mean houses they may trick (R3, R4)."""
    everyone = (1 << len(mean_icon)) - 1
    ready = tuple(
        (everyone if ready else 0)
        if any_mean_house
        else sum(1 << house for house, icon in enumerate(mean_icon) if ready >> icon & 1)
        for ready in range(1 << len(TrickIcon))
    )
    if len(_MEAN_READY) >= 4096:
        _MEAN_READY.clear()
    _MEAN_READY[mean_icon, any_mean_house] = ready
    return ready


def mask(houses: frozenset[int]) -> int:
    """The bit mask of a set of houses."""
    bits = 0
    for house in houses:
        bits |= 1 << house
    return bits


def core_of(state: GameState) -> _core.Core | None:
    """A core made from ``state``'s fields; None where the core does not cover the game.

    A state made by hand whose boards play could not reach (a house visitable that is not
    reached, a card of another box, a treat track of 65,536 or more) is not covered either.
    """
    setup = state.setup
    found = tables(setup)
    if found is None:
        return None
    lookup = lookup_of(setup)
    cards = found.cards
    market = state.market
    discarded = state.discarded
    for card in (*market, *discarded) if discarded else market:
        if card is not None and not _known(cards, card):
            return None  # a card of another box, put there by hand
    n = len(state.players)
    counts = [0] * n
    icons = [0] * n
    free = [0] * n
    qualified = [0] * n
    tops = [0] * n
    taken: list[_core.Taken | None] = [None] * n
    treats = [0] * n
    pumpkins = [0] * n
    visited = [0] * n
    tricked = [0] * n
    footprints = [0] * n
    for seat, player in enumerate(state.players):
        if max(player.treats) >= 1 << _core.TREAT_BITS:
            return None  # more than a treat track holds in play
        seen = mask(player.visited)
        costume = _costume(player, cards, lookup)
        if costume is None:
            return None
        free[seat], counts[seat], icons[seat], tops[seat], taken[seat], qualified[seat] = costume
        packed = 0
        for treat, count in enumerate(player.treats):
            packed |= count << _core.TREAT_BITS * treat
        treats[seat] = packed
        pumpkins[seat] = player.pumpkins
        visited[seat] = seen
        tricked[seat] = mask(player.tricked)
        footprints[seat] = player.footprints
    current = state.current_player
    return _core.Core(
        found,
        counts,
        icons,
        free,
        qualified,
        tops,
        taken,
        treats,
        pumpkins,
        visited,
        tricked,
        footprints,
        [-1 if card is None else card.id for card in market],
        state.deck_position,
        _bits(state.pumpkin_on_house),
        _bits(state.pumpkin_on_mean_house),
        _bits(state.street_flipped),
        tuple(map(_ID, discarded)),
        -1 if current is None else current,
        state.turn,
        state.passes_in_a_row,
        state.end_trigger,
        state.log,
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
    n = len(setup.config.players)
    if len(setup.secret_tiles) != n:
        return None  # _first_state refuses it
    rules = setup.rules
    market = setup.deck[: rules.market_size]
    cards = found.cards
    for card in market:
        if not _known(cards, card):
            return None
    return new_core(
        found,
        rules.footprints_per_player,
        [card.id for card in market],
        rules.market_size,
        len(setup.grid),
        len(setup.mean_houses),
        setup.config.first_player,
    )


def new_core(
    tables: _core.Tables,
    footprints: int,
    market: list[int],
    position: int,
    nice_houses: int,
    mean_houses: int,
    first_player: int,
) -> _core.Core:
    """The core of a game's first state: nobody wears a card, every pumpkin is out.

    ``market`` holds the ids of the top cards of the deck, which the market shows, and
    ``position`` is where the deck goes on (the market's size).
    """
    n = tables.players
    free = 0
    for kind in range(_TYPES):
        free |= ((1 << tables.kids) - 1) << _core.FREE_BITS * kind
    return _core.Core(
        tables,
        [0] * n,
        [0] * n,
        [free] * n,
        [0] * n,
        [0] * n,
        [None] * n,
        [0] * n,
        [0] * n,
        [0] * n,
        [0] * n,
        [footprints] * n,
        market,
        position,
        (1 << nice_houses) - 1,
        (1 << mean_houses) - 1,
        0,
        (),
        first_player,
        0,
        0,
        None,
        None,
    )


_TYPES = len(CostumeType)


def _costume(
    player: PlayerState, cards: tuple[object, ...], lookup: Lookup
) -> tuple[int, int, int, int, _core.Taken | None, int] | None:
    """``player``'s kids as the core packs them.

    Free kids per type, counts per feature, icons on top, the top cards, the cards taken and
    the houses qualified for. None for a card the core does not know. The chain of cards
    taken lists them kid by kid, which is all the boards built from it need (the order of
    the kids' stacks).
    """
    free = [lookup.all_kids] * _TYPES
    counts = [0] * len(FEATURES)
    icons = [0] * len(TrickIcon)
    tops = 0
    taken: _core.Taken | None = None
    for kid, stack in enumerate(player.kids):
        for card in stack:
            if not _known(cards, card):
                return None
            taken = _core.Taken(kid, card.id, taken)
            free[lookup.card_type[card.id]] &= ~(1 << kid)
            for feature in lookup.card_features[card.id]:
                counts[feature] += 1
        if stack:
            tops |= (stack[-1].id + 1) << _core.TOP_BITS * kid
            icons[lookup.card_icon[stack[-1].id]] += 1
    packed_free = 0
    for kind, kids in enumerate(free):
        packed_free |= kids << _core.FREE_BITS * kind
    packed_counts = 0
    qualified = 0
    for feature, n in enumerate(counts):
        if n > _core.COUNT_MASK:
            return None  # more cards than the core counts: a board made by hand
        packed_counts |= n << _core.COUNT_BITS * feature
        qualified |= lookup.qualify[feature][n]
    packed_icons = 0
    for icon, n in enumerate(icons):
        packed_icons |= n << _core.COUNT_BITS * icon
    return packed_free, packed_counts, packed_icons, tops, taken, qualified


def _known(cards: tuple[object, ...], card: CostumeCard) -> bool:
    """Whether ``card`` is the core's card of its id (the same object, or an equal one)."""
    if card.id < 0:
        return False
    try:
        known = cards[card.id]
    except IndexError:
        return False
    return known is card or known == card


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
