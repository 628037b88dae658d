"""Game states backed by the compact core (``_core``), and their boards built on first read.

``GameState.legal_actions()`` and ``GameState.apply()`` run on the state's core when its
game is one the core covers (``_core_tables.covers()``): the state ``apply()`` returns holds
its setup, current player and core, and is an instance of ``_LazyState``, a private subclass
of ``GameState`` without slots of its own whose ``__class__`` says ``GameState``. The first
read of any other field (players, market, turn, log, ...), directly or through equality,
hashing, ``repr``, a view, a score sheet, a record or a pickle, builds them all from the
core and turns the object into a plain ``GameState``; until then only ``type()`` tells.
A board is built from the board of the same seat in the last state whose boards were built
(kept in the game's memo), so a state shares every unchanged board, with what views and
score sheets worked out from it, and the mover's board costs little. Everything else
(events, refusals and their messages, configurations the core does not cover) goes through
``rules``, the reference implementation. Not part of the public API.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, cast

from tricky_treats import _core, _core_tables
from tricky_treats._core_tables import _remember_boards, core_of, looked_at
from tricky_treats.actions import (
    Action,
    Pass,
    RefreshMarket,
    TakeCard,
    TrickHouse,
    VisitHouse,
)
from tricky_treats.components import FEATURES, CostumeCard, CostumeType, Treat, TrickIcon
from tricky_treats.errors import TrickyTreatsError
from tricky_treats.model import GameState, _setup_memo
from tricky_treats.model import new_player_state as _new_player_state

if TYPE_CHECKING:
    from tricky_treats.events import Event
    from tricky_treats.model import PlayerState, Setup

__all__: list[str] = []

_ACTION_TYPES = frozenset({TakeCard, VisitHouse, TrickHouse, RefreshMarket, Pass})


# -- playing ----------------------------------------------------------------------------------


class _CoreState(GameState):
    """Builds a ``GameState`` from a core: its boards, market and tokens are left unset.

    As ``model._fast_constructor`` does: plain stores into a subclass without slots of its
    own, then the object is given its real class. The unset fields are built on first read.
    """

    __slots__ = ()
    __setattr__ = object.__setattr__
    __delattr__ = object.__delattr__

    def __init__(self, setup: Setup, current: int | None, core: _core.Core) -> None:
        self.setup = setup  # type: ignore[misc]
        self.current_player = current  # type: ignore[misc]
        self._core = core  # type: ignore[misc]
        self._legal = None  # type: ignore[misc]


def _code(state: GameState, action: object) -> int | None:
    """The code of an action that is not one of the canonical objects, or None."""
    if type(action) not in _ACTION_TYPES:
        return None
    try:
        return state.setup.action_space.encode(cast(Action, action))
    except TrickyTreatsError:
        return None


def apply(state: GameState, action: Action) -> GameState:
    """``state.apply(action)``: on the core where it covers the game, else by the rules."""
    core = state._core
    if core is False or (core is None and (core := core_of(state)) is None):
        by_rules = _rules.apply(state, action, None)
        if _core_tables._engine == "auto":  # as looked_at(), inlined on this hot path:
            object.__setattr__(by_rules, "_core", False)  # boards built, so play on by the rules
        return by_rules
    code = core.tables.codes.get(id(action))
    if code is None:
        code = _code(state, action)
    after = None if code is None else core.apply(code, action)
    if after is None:  # not legal: the rules say why (and raise)
        return _rules.apply(state, action, None)
    new: GameState = _CoreState(state.setup, None if after.current < 0 else after.current, after)
    _CLASS.__set__(new, _LazyState)
    return new


def apply_with_events(state: GameState, action: Action) -> tuple[GameState, tuple[Event, ...]]:
    """``state.apply_with_events(action)``: by the rules, which name every event.

    Under ``play_by("core")`` the new state also gets the core's state, so that the moves
    after it run on the core; by default a program that asks for events reads the states, and
    plays on by the rules.
    """
    events: list[Event] = []
    new = _rules.apply(state, action, events)
    looked_at(new)
    core = core_of(state) if _core_tables._engine == "core" else None
    if core is not None:
        code = core.tables.codes.get(id(action))
        if code is None:
            code = _code(state, action)
        after = None if code is None else core.apply(code, action)
        if after is not None:
            # A new object nobody else has seen: share the state's own log and trigger.
            after.log = new.log
            after.trigger = new.end_trigger
            object.__setattr__(new, "_core", after)
            _remember_boards(state.setup, after, new.players)
    return new, tuple(events)


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """``state.legal_actions()`` worked out (the state caches it)."""
    core = state._core
    if core is False or (core is None and (core := core_of(state)) is None):
        return _rules.legal_actions(state)
    return cast("tuple[Action, ...]", core.legal())


# -- boards built on first read ---------------------------------------------------------------


_CLASS = object.__dict__["__class__"]
"""The descriptor behind ``__class__``: sets an object's class past any override."""


def _built(state: GameState) -> GameState:
    """Build every field of a state made by the core, and make it a plain ``GameState``."""
    core: _core.Core = state._core
    setup = state.setup
    memo = setup._memo
    if memo is None:
        memo = _setup_memo(setup)
    players = _players(setup, memo, core)
    # The market changes only when a card is taken: share the last one built.
    last = memo.get("core-market")
    ids = core.market
    cards = core.tables.cards
    if last is not None and last[0] is ids:
        market = last[1]
    else:
        market = tuple([None if card < 0 else cards[card] for card in ids])
        memo["core-market"] = (ids, market)
    discarded = core.discarded
    _CLASS.__set__(state, _CoreState)  # plain stores, as in ``model._fast_constructor``
    state.players = players  # type: ignore[misc]
    state.market = market  # type: ignore[misc]
    state.discarded = tuple([cards[c] for c in discarded]) if discarded else ()  # type: ignore[misc]
    state.pumpkin_on_house = _flags(len(setup.grid))[core.pumpkins]  # type: ignore[misc]
    state.pumpkin_on_mean_house = _flags(len(setup.mean_houses))[core.mean_pumpkins]  # type: ignore[misc]
    state.street_flipped = _flags(len(setup.street_tokens))[core.flipped]  # type: ignore[misc]
    state.deck_position = core.position  # type: ignore[misc]
    state.turn = core.turn  # type: ignore[misc]
    state.passes_in_a_row = core.passes  # type: ignore[misc]
    state.end_trigger = core.trigger  # type: ignore[misc,assignment]
    state.log = core.log  # type: ignore[misc,assignment]
    _CLASS.__set__(state, GameState)
    looked_at(state)  # now its boards are built: the rules keep them up to date from here
    return state


def _lazy(name: str) -> property:
    def read(state: GameState) -> Any:
        return getattr(_built(state), name)

    return property(read, doc=f"``GameState.{name}``, built from the core on first read.")


class _LazyState(GameState):
    """A ``GameState`` made by the core whose boards, market and tokens are not built yet.

    Reading any of them (or anything that reads them: equality, hashing, ``repr``, views,
    score sheets, records, pickling) builds them all and turns the object into a plain
    ``GameState`` (the same object). Until then ``__class__`` says ``GameState``, so attrs'
    equality and ``repr`` treat it as one; only ``type()`` shows this class.
    """

    __slots__ = ()

    @property  # type: ignore[override]
    def __class__(self) -> type[GameState]:
        return GameState

    @__class__.setter
    def __class__(self, cls: type) -> None:
        _CLASS.__set__(self, cls)

    players = _lazy("players")
    market = _lazy("market")
    discarded = _lazy("discarded")
    pumpkin_on_house = _lazy("pumpkin_on_house")
    pumpkin_on_mean_house = _lazy("pumpkin_on_mean_house")
    street_flipped = _lazy("street_flipped")
    deck_position = _lazy("deck_position")
    turn = _lazy("turn")
    passes_in_a_row = _lazy("passes_in_a_row")
    end_trigger = _lazy("end_trigger")
    log = _lazy("log")


def is_lazy(state: GameState) -> bool:
    """Whether ``state`` was made by the core and has not built its boards yet."""
    return type(state) is _LazyState


def _players(setup: Setup, memo: dict[Any, Any], core: _core.Core) -> tuple[PlayerState, ...]:
    """The boards of ``core``, built from the last boards built in this game."""
    last = memo.get("core-boards")
    costumes = core.costumes
    tracks = core.tracks
    if last is None:
        bases: tuple[PlayerState | None, ...] = (None,) * len(costumes)
        base_costumes: tuple[_core.Costume | None, ...] = bases  # type: ignore[assignment]
        base_tracks: tuple[_core.Track | None, ...] = bases  # type: ignore[assignment]
    else:
        last_core, bases = last
        base_costumes = last_core.costumes
        base_tracks = last_core.tracks
    players = list(bases)
    for seat, base in enumerate(bases):
        costume = costumes[seat]
        track = tracks[seat]
        base_costume = base_costumes[seat]
        base_track = base_tracks[seat]
        if base_costume is not costume or base_track is not track:
            players[seat] = _board(
                core.tables,
                setup.config.players[seat],
                setup.secret_tiles[seat],
                costume,
                track,
                base,
                base_costume,
                base_track,
            )
    built = tuple(players)
    memo["core-boards"] = (core, built)
    return built  # type: ignore[return-value]


def _board(
    tables: _core.Tables,
    name: str,
    tile: object,
    costume: _core.Costume,
    track: _core.Track,
    base: PlayerState | None,
    base_costume: _core.Costume | None,
    base_track: _core.Track | None,
) -> PlayerState:
    """One board, sharing what did not change since ``base``.

    ``base`` is the board of ``base_costume`` and ``base_track``; without one, the board is
    built from scratch.
    """
    taken = costume.taken
    if base is not None and base_costume is costume:
        kids = base.kids
        counts = base.feature_counts
        icons = base.visible_icons
        free = base.free_kids
    elif (
        base is not None
        and base_costume is not None
        and taken is not None
        and (taken.before is base_costume.taken)
    ):  # one card more than ``base``: its counts, as the rules work them out
        card = taken.card
        kid = taken.kid
        old_kids = base.kids
        stack = old_kids[kid]
        kids = (
            *old_kids[:kid],
            (*stack, cast(CostumeCard, tables.cards[card])),
            *old_kids[kid + 1 :],
        )
        counts_list = list(base.feature_counts)
        for feature in tables.card_features[card]:
            counts_list[feature] += 1
        counts = tuple(counts_list)
        icons_list = list(base.visible_icons)
        if stack:
            icons_list[tables.card_icon[stack[-1].id]] -= 1  # now covered (R3)
        icons_list[tables.card_icon[card]] += 1
        icons = tuple(icons_list)
        free_list = list(base.free_kids)
        free_list[tables.card_type[card]] &= ~(1 << kid)
        free = tuple(free_list)
    else:
        kids = _kids(tables, costume, base, base_costume)
        counts = _COUNTS.get(costume.counts) or _unpack(_COUNTS, costume.counts, _COUNT_SHIFTS)
        icons = _ICONS.get(costume.icons) or _unpack(_ICONS, costume.icons, _ICON_SHIFTS)
        free = _FREE.get(costume.free) or _unpack(_FREE, costume.free, _FREE_SHIFTS)
    if base is not None and base_track is track:
        treats = base.treats
        visited = base.visited
        tricked = base.tricked
    else:
        treats = _TREATS.get(track.treats) or _unpack(_TREATS, track.treats, _TREAT_SHIFTS)
        if base is None or base_track is None:
            visited = _houses(track.visited)
            tricked = _houses(track.tricked)
        else:
            visited = _more_houses(base.visited, base_track.visited, track.visited)
            tricked = _more_houses(base.tricked, base_track.tricked, track.tricked)
    return _new_player_state(
        name,
        kids,
        treats,
        track.pumpkins,
        visited,
        tricked,
        track.footprints,
        tile,
        counts,
        icons,
        free,
        costume.qualified,
        costume.qualified & ~track.visited,
    )


def _kids(
    tables: _core.Tables,
    costume: _core.Costume,
    base: PlayerState | None,
    base_costume: _core.Costume | None,
) -> tuple[tuple[Any, ...], ...]:
    """The kids' stacks: ``base``'s with the cards taken since, or rebuilt from the chain."""
    stop = None if base_costume is None else base_costume.taken
    newest = []
    node = costume.taken
    while node is not None and node is not stop:
        newest.append(node)
        node = node.before
    cards = tables.cards
    # From scratch for another branch of the game, or without a base.
    kids: list[tuple[Any, ...]] = (
        list(base.kids) if base is not None and node is stop else [()] * tables.kids
    )
    for node in reversed(newest):
        kids[node.kid] = (*kids[node.kid], cards[node.card])
    return tuple(kids)


_COUNT_SHIFTS = tuple(_core.COUNT_BITS * i for i in range(len(FEATURES)))
_ICON_SHIFTS = tuple(_core.COUNT_BITS * i for i in range(len(TrickIcon)))
_FREE_SHIFTS = tuple(_core.FREE_BITS * i for i in range(len(CostumeType)))
_TREAT_SHIFTS = tuple(_core.TREAT_BITS * i for i in range(len(Treat)))

# Shared results (there are few distinct ones), so that kept states hold no copies of their
# own; each table is cleared if it ever grows large.
_COUNTS: dict[int, tuple[int, ...]] = {}
_ICONS: dict[int, tuple[int, ...]] = {}
_FREE: dict[int, tuple[int, ...]] = {}
_TREATS: dict[int, tuple[int, ...]] = {}
_HOUSES: dict[int, frozenset[int]] = {}
_MASKS = {
    id(_COUNTS): _core.COUNT_MASK,
    id(_ICONS): _core.COUNT_MASK,
    id(_FREE): _core.FREE_MASK,
    id(_TREATS): (1 << _core.TREAT_BITS) - 1,
}


def _unpack(
    table: dict[int, tuple[int, ...]], packed: int, shifts: tuple[int, ...]
) -> tuple[int, ...]:
    """The values packed in ``packed`` at ``shifts``, kept in ``table`` (one of the above)."""
    mask = _MASKS[id(table)]
    values = tuple([packed >> shift & mask for shift in shifts])
    if len(table) >= 8192:
        table.clear()
    table[packed] = values
    return values


def _houses(mask: int) -> frozenset[int]:
    houses = _HOUSES.get(mask)
    if houses is None:
        houses = frozenset(h for h in range(mask.bit_length()) if mask >> h & 1)
        if len(_HOUSES) >= 8192:
            _HOUSES.clear()
        _HOUSES[mask] = houses
    return houses


def _more_houses(houses: frozenset[int], mask: int, new_mask: int) -> frozenset[int]:
    """The houses of ``new_mask``, from ``houses`` (those of ``mask``) where one was added.

    Built as the rules build it, so that the set is the same one (``rules._with_house``).
    """
    if new_mask == mask:
        return houses
    added = new_mask & ~mask
    if mask & ~new_mask or added & (added - 1):
        return _houses(new_mask)
    return _rules._with_house(houses, added.bit_length() - 1)


@functools.cache
def _flags(count: int) -> tuple[tuple[bool, ...], ...]:
    """Per bit mask of ``count`` flags, the flags (shared tuples)."""
    return tuple(tuple(bool(mask >> i & 1) for i in range(count)) for mask in range(1 << count))


from tricky_treats import rules as _rules  # noqa: E402
