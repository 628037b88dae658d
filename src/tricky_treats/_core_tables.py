"""The compact core's tables for a game, and the core of a state made by the rules.

``_tables()`` turns a setup's index tables (``setup.lookup``) into the ints and tuples the
core (``_core.Tables``) reads, once per game, sharing what a box and an action space have
in common; ``core_of()`` makes the core of a state from its fields (a new game's first
state, a state loaded from a record or made by the rules), or says that the core does not
cover the game. ``play_by()`` says which engine plays: by default the core where it is
compiled and nobody looked at the state, else the rules. Not part of the public API; see
``_boards``.
"""

from __future__ import annotations

import contextlib
import operator
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Literal

from tricky_treats import _core
from tricky_treats.actions import Action, ActionSpace
from tricky_treats.components import CostumeCard, TrickIcon
from tricky_treats.model import STREETS, EndTrigger, GameState, Termination, _setup_memo

if TYPE_CHECKING:
    from tricky_treats.model import GridHouse, PlayerState, Setup

__all__: list[str] = []

COMPILED = not _core.__file__.endswith(".py")
"""Whether ``_core`` runs compiled by mypyc (``tricky_treats.__compiled__``)."""

Engine = Literal["auto", "core", "rules"]

_engine: Engine = "auto"
"""Which engine plays: ``auto`` as below; ``core`` or ``rules`` alone, for tests only."""

_core_in_auto = COMPILED
"""Whether ``auto`` plays on the core: in the compiled build, where it is the faster engine.

In plain Python the core is no faster than ``rules`` (docs/performance.md), so the pure build
plays by the rules, and its core runs under ``play_by("core")`` in the equivalence tests."""


@contextlib.contextmanager
def play_by(engine: Engine) -> Iterator[None]:
    """Private, for tests: play the moves made inside the block by ``engine``.

    ``auto`` is the default: a state nobody has looked at yet (no view, score sheet or field
    read of a state made by the core) plays on the core, where ``_core_in_auto`` allows; a state
    that was looked at plays on by the rules, which keep its boards up to date move by move,
    so a frontend reading every state never pays for building boards from a core. ``core``
    plays every move it can on the core, looked at or not; ``rules`` plays by ``rules`` alone.
    States that already have a core keep it in ``core`` and ``auto``; start from a new game.
    """
    global _engine
    saved = _engine
    _engine = engine
    try:
        yield
    finally:
        _engine = saved


def reference_rules() -> contextlib.AbstractContextManager[None]:
    """Private, for tests: ``play_by("rules")``."""
    return play_by("rules")


def looked_at(state: GameState) -> None:
    """Mark ``state`` as looked at: in ``auto``, its moves are played on by the rules."""
    if _engine == "auto":
        object.__setattr__(state, "_core", False)


def plays_on_core(state: GameState) -> bool:
    """Whether a state without a core should get one (``core_of``) to play on."""
    engine = _engine
    if engine == "auto":
        return _core_in_auto and state._core is None
    return engine == "core"


def covers(setup: Setup) -> bool:
    """Whether the core covers ``setup``'s configuration (see ``_core``'s limits)."""
    return _covers(setup, tuple(map(_ID, setup.deck)))


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


def _tables(setup: Setup) -> _core.Tables | None:
    """The core's tables for ``setup``, built once per game; None if it is not covered."""
    memo = setup._memo
    if memo is None:
        memo = _setup_memo(setup)
    tables: _core.Tables | Literal[False] | None = memo.get("core")
    if tables is None:
        tables = memo["core"] = _build_tables(setup) or False
    return tables or None


def _build_tables(setup: Setup) -> _core.Tables | None:
    dealt = setup.deck
    lookup = setup.lookup
    space = setup.action_space
    cards: tuple[object, ...] = setup.components.cards  # card ids are their positions
    shared = _SHARED.get((id(lookup.card_features), id(space), id(cards)))
    if shared is None:
        shared = _shared(lookup, space, cards)
    positions = shared[6]
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
        lookup.takes,
        lookup.visits,
        lookup.tricks,
        shared[5],
        lookup.refresh,
        lookup.pass_,
        shared[7],
        cards,
        _make_trigger,
    )


# Per box and action space: the tables the core adds to ``setup.lookup``'s, worked out once.
# Keyed by the ids of what they are worked out from, which each entry keeps alive.
_SHARED: dict[tuple[int, int, int], tuple[Any, ...]] = {}


def _shared(lookup: Any, space: ActionSpace, cards: tuple[object, ...]) -> tuple[Any, ...]:
    card_features = lookup.card_features
    entry = (
        card_features,
        space,
        cards,
        tuple(_core.FREE_BITS * kind for kind in lookup.card_type),
        tuple(sum(1 << _core.COUNT_BITS * f for f in fs) for fs in card_features),
        _trick_lists(lookup.tricks),
        {id(card): i for i, card in enumerate(cards)},
        {id(action): code for code, action in enumerate(space.actions)},
    )
    if len(_SHARED) >= 64:
        _SHARED.clear()
    _SHARED[id(card_features), id(space), id(cards)] = entry
    return entry


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


def _trick_lists(tricks: tuple[Action, ...]) -> tuple[tuple[object, ...], ...]:
    """The tricks of each bit mask of mean houses."""
    return tuple(
        tuple(trick for house, trick in enumerate(tricks) if mask >> house & 1)
        for mask in range(1 << len(tricks))
    )


def _mask(houses: frozenset[int]) -> int:
    mask = 0
    for house in houses:
        mask |= 1 << house
    return mask


def core_of(state: GameState) -> _core.Core | None:
    """``state``'s core, made from its fields if it has none.

    None where the core does not cover the game, or the state plays by the rules (``play_by``).
    """
    core: _core.Core | None = state._core
    if core:
        return core
    if not plays_on_core(state):
        return None
    setup = state.setup
    tables = _tables(setup)
    if tables is None:
        return None
    cards = tables.cards
    market = state.market
    discarded = state.discarded
    for card in (*market, *discarded) if discarded else market:
        if card is not None and not _known(cards, card):
            return None  # a card of another box, put there by hand
    players = state.players
    costumes = []
    tracks = []
    for player in players:
        if max(player.treats) >= 1 << _core.TREAT_BITS:
            return None  # more than a treat track holds in play
        if not (
            player.qualified
            or player.visitable
            or player.visited
            or player.tricked
            or any(player.kids)
        ):
            # A board at the start of the game: the same for every game (immutable, shared).
            key = (player.free_kids, player.treats, player.pumpkins, player.footprints)
            entry = _STARTS.get(key)
            if entry is None:
                entry = _STARTS[key] = _start(player)
            costumes.append(entry[0])
            tracks.append(entry[1])
            continue
        visited = _mask(player.visited)
        if player.visitable != player.qualified & ~visited:
            return None  # a board made by hand that play could not reach: the rules decide
        costume = _costume(player, cards)
        if costume is None:
            return None
        costumes.append(costume)
        tracks.append(_track(player, visited))
    current = state.current_player
    core = _core.Core(
        tables,
        tuple(costumes),
        tuple(tracks),
        tuple([-1 if card is None else card.id for card in market]),
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
    object.__setattr__(state, "_core", core)
    _remember_boards(setup, core, players)
    return core


# Boards at the start of a game, by what tells them apart, as the core holds them.
_STARTS: dict[tuple[object, ...], tuple[_core.Costume, _core.Track]] = {}


def _start(player: PlayerState) -> tuple[_core.Costume, _core.Track]:
    if len(_STARTS) >= 256:
        _STARTS.clear()
    costume = _costume(player, ())
    assert costume is not None  # no cards to refuse
    return costume, _track(player, 0)


def _track(player: PlayerState, visited: int) -> _core.Track:
    treats = 0
    for treat, n in enumerate(player.treats):
        treats |= n << _core.TREAT_BITS * treat
    return _core.Track(treats, player.pumpkins, visited, _mask(player.tricked), player.footprints)


def _costume(player: PlayerState, cards: tuple[object, ...]) -> _core.Costume | None:
    """``player``'s kids as the core holds them; None for a card of another box."""
    free = 0
    for kind, kids in enumerate(player.free_kids):
        free |= kids << _core.FREE_BITS * kind
    counts = 0
    for feature, n in enumerate(player.feature_counts):
        counts |= n << _core.COUNT_BITS * feature
    icons = 0
    for icon, n in enumerate(player.visible_icons):
        icons |= n << _core.COUNT_BITS * icon
    tops = 0
    taken: _core.Taken | None = None
    for kid, stack in enumerate(player.kids):
        for card in stack:
            if not _known(cards, card):
                return None
            taken = _core.Taken(kid, card.id, taken)
        if stack:
            tops |= (stack[-1].id + 1) << _core.TOP_BITS * kid
    return _core.Costume(
        counts, icons, _core.ready_icons(icons), free, player.qualified, tops, taken
    )


def _known(cards: tuple[object, ...], card: CostumeCard) -> bool:
    """Whether ``card`` is the core's card of its id (the same object, or an equal one)."""
    try:
        known = cards[card.id]
    except IndexError:
        return False
    return known is card or (card.id >= 0 and known == card)


_BITS: dict[tuple[bool, ...], int] = {}


def _bits(flags: tuple[bool, ...]) -> int:
    """The bit mask of the true ones among ``flags``."""
    mask = _BITS.get(flags)
    if mask is None:
        mask = sum(1 << i for i, flag in enumerate(flags) if flag)
        if len(_BITS) >= 4096:
            _BITS.clear()
        _BITS[flags] = mask
    return mask


def _remember_boards(setup: Setup, core: _core.Core, players: tuple[PlayerState, ...]) -> None:
    """Keep ``players`` as the boards of ``core``, for the next boards to be built from."""
    memo = setup._memo
    if memo is None:
        memo = _setup_memo(setup)
    memo["core-boards"] = (core, players)
