"""Index tables derived from a setup (``lookup(setup)``), so the compact core does arithmetic.

The simulator's tables (``simulator._tables``) and the base game's deals read them instead of
searching: cards by id, features, icons, types and treats by their index, sets of kids and
houses as bit masks. The tables that depend only on the components or on the size of the game
are built once per process and shared. Not part of the public API.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tricky_treats.actions import Action, ActionSpace
from tricky_treats.components import (
    FEATURES,
    ComponentData,
    CostumeType,
    Treat,
    TrickIcon,
)
from tricky_treats.model import STREETS, _setup_memo

if TYPE_CHECKING:
    from tricky_treats.model import GridHouse, Setup

__all__: list[str] = []


def lookup(setup: Setup) -> _Lookup:
    """The index tables of ``setup``, worked out on first use and kept in its memo."""
    memo = _setup_memo(setup)
    tables: _Lookup | None = memo.get("lookup")
    if tables is None:
        tables = memo["lookup"] = _Lookup(setup)
    return tables


_FEATURE_INDEX = {feature: i for i, feature in enumerate(FEATURES)}
_ICON_INDEX = {icon: i for i, icon in enumerate(TrickIcon)}
_TREAT_INDEX = {treat: i for i, treat in enumerate(Treat)}
_FEATURE_BY_ID = {id(feature): i for i, feature in enumerate(FEATURES)}
_ICON_BY_ID = {id(icon): i for i, icon in enumerate(TrickIcon)}
_TREAT_BY_ID = {id(treat): i for i, treat in enumerate(Treat)}


_ICON_OF = operator.attrgetter("neighbour.icon")
_TREAT_OF = operator.attrgetter("treat")


def _index(by_id: dict[int, int], by_value: Mapping[Any, int], member: object) -> int:
    index = by_id.get(id(member))
    return by_value[member] if index is None else index


_STREETS_OF_HOUSE = tuple(
    tuple(s for s, street in enumerate(STREETS) if house in street) for house in range(9)
)


class _Lookup:
    """Index tables derived from a setup, so the hot path does arithmetic, not searching.

    Cards are looked up by id; features, icons, types and treats by their index in
    ``FEATURES``, ``TrickIcon``, ``CostumeType`` and ``Treat``; sets of kids and houses are
    bit masks. The tables that depend only on the components or on the size of the game are
    built once per process and shared.
    """

    __slots__ = (
        "all_kids",
        "card_features",
        "card_icon",
        "card_mask",
        "card_type",
        "deck_size",
        "house_feature",
        "house_treat",
        "mean_icon",
        "pass_",
        "qualify",
        "refresh",
        "street_treat",
        "streets_of_house",
        "takes",
        "tricks",
        "visits",
    )

    def __init__(self, setup: Setup) -> None:
        tables = _card_tables(setup.components)
        self.card_type, self.card_icon, self.card_features, self.card_mask = tables
        # Enum members are looked up by identity: their own hash is a Python-level call.
        treats, icons = _TREAT_BY_ID, _ICON_BY_ID
        grid = setup.grid
        if grid:
            _, features, minimums, self.house_treat = zip(*_grid_info(grid), strict=True)
        else:
            features = minimums = self.house_treat = ()
        self.house_feature = features
        try:
            self.mean_icon = tuple(
                map(icons.__getitem__, map(id, map(_ICON_OF, setup.mean_houses)))
            )
            self.street_treat = tuple(
                map(treats.__getitem__, map(id, map(_TREAT_OF, setup.street_tokens)))
            )
        except KeyError:  # not enum members: look them up by value, which names the bad one
            self.mean_icon = tuple(_ICON_INDEX[m.neighbour.icon] for m in setup.mean_houses)
            self.street_treat = tuple(_TREAT_INDEX[t.treat] for t in setup.street_tokens)
        self.streets_of_house = _STREETS_OF_HOUSE
        self.deck_size = len(setup.deck)
        space = setup.action_space
        (self.all_kids, self.takes, self.visits, self.tricks, self.refresh, self.pass_) = (
            _space_tables(space)
        )
        # qualify[f][n]: the nice houses wanting feature f whose lowest tier n cards reach.
        self.qualify = _qualify(space.kids * _TYPES, features, minimums)


_TYPES = len(CostumeType)  # EnumType.__len__ is a Python-level call: counted once
_FEATURES = len(FEATURES)


# Per nice house: the house, then its wanted feature, lowest tier and treat token as indices.
# Keyed by the house's id; the entry holds the house, so no other object can have that id
# while the entry is there. Houses are usually the shared objects of the base game's deal.
_HOUSE_INFO: dict[int, tuple[GridHouse, int, int, int]] = {}


def _grid_info(grid: tuple[GridHouse, ...]) -> list[tuple[GridHouse, int, int, int]]:
    """``_HOUSE_INFO`` entries of the houses of ``grid``, worked out where missing."""
    entries = list(map(_HOUSE_INFO.get, map(id, grid)))
    if None in entries:
        entries = list(map(_house_info, grid))
    return entries  # type: ignore[return-value]


def _house_info(house: GridHouse) -> tuple[GridHouse, int, int, int]:
    entry = _HOUSE_INFO.get(id(house))
    if entry is not None:
        return entry
    neighbour = house.neighbour
    entry = (
        house,
        _index(_FEATURE_BY_ID, _FEATURE_INDEX, neighbour.wants),
        neighbour.tiers[0].cards,
        _index(_TREAT_BY_ID, _TREAT_INDEX, house.treat),
    )
    if len(_HOUSE_INFO) >= 4096:
        _HOUSE_INFO.clear()
    _HOUSE_INFO[id(house)] = entry
    return entry


@functools.lru_cache(maxsize=64)
def _single_house_rows(
    most: int, houses: int
) -> tuple[tuple[int, ...], tuple[tuple[tuple[int, ...], ...], ...]]:
    """The empty qualifying row, and the rows of single houses.

    ``rows[h][m][n]``, for house h wanting m cards and a count n from 0 to ``most``, is the
    bit of h if n reaches m, else 0; m runs to ``most`` + 1, which stands for out of reach.
    """
    nobody = (0,) * (most + 1)
    rows = tuple(
        tuple(tuple(1 << h if m <= n else 0 for n in range(most + 1)) for m in range(most + 2))
        for h in range(houses)
    )
    return nobody, rows


def _qualify(
    most: int, features: tuple[int, ...], minimums: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    """Per feature f and card count n (0 to ``most``), the houses wanting f that n cards reach.

    A bit mask of houses; house h wants ``features[h]`` from ``minimums[h]`` cards on.
    """
    nobody, single = _single_house_rows(most, len(features))
    qualify = [nobody] * _FEATURES
    unreachable = most + 1
    for rows, feature, minimum in zip(single, features, minimums, strict=True):
        row = rows[minimum if minimum < unreachable else unreachable]
        wanted = qualify[feature]
        qualify[feature] = row if wanted is nobody else tuple(map(operator.or_, wanted, row))
    return tuple(qualify)


_CardTables = tuple[
    tuple[int, ...], tuple[int, ...], tuple[tuple[int, int, int], ...], tuple[int, ...]
]


def _card_tables(components: ComponentData) -> _CardTables:
    """Per card id: type index, icon index, feature indices and feature bit mask.

    Built once per component data object and kept on it, so every game dealt from the same
    box shares them.
    """
    cached: _CardTables | None = components._derived
    if cached is not None:
        return cached
    type_index = {t: i for i, t in enumerate(CostumeType)}
    cards = components.cards
    features = tuple(
        (_FEATURE_INDEX[c.colour], _FEATURE_INDEX[c.theme], _FEATURE_INDEX[c.type]) for c in cards
    )
    tables = (
        tuple(type_index[c.type] for c in cards),
        tuple(_ICON_INDEX[c.icon] for c in cards),
        features,
        tuple(sum(1 << f for f in fs) for fs in features),
    )
    object.__setattr__(components, "_derived", tables)
    return tables


_SpaceTables = tuple[
    int,
    tuple[tuple[tuple[Action, ...], ...], ...],
    tuple[tuple[Action, ...], ...],
    tuple[Action, ...],
    Action,
    Action,
]
_SPACE_TABLES: dict[int, tuple[ActionSpace, _SpaceTables]] = {}


def _space_tables(space: ActionSpace) -> _SpaceTables:
    """The action tables of ``space``, kept per space object (by id: the entry holds it)."""
    entry = _SPACE_TABLES.get(id(space))
    if entry is None:
        if len(_SPACE_TABLES) >= 64:
            _SPACE_TABLES.clear()
        entry = _SPACE_TABLES[id(space)] = (space, _action_tables(space))
    return entry[1]


def _action_tables(space: ActionSpace) -> _SpaceTables:
    """The tables of one action space.

    All kids as a bit mask; ``takes[slot][kids]`` and ``visits[houses]``, the actions for each
    bit mask; the tricks; refresh; pass.
    """
    kids = space.kids
    actions = space.actions
    takes = tuple(
        tuple(
            tuple(actions[slot * kids + kid] for kid in range(kids) if mask >> kid & 1)
            for mask in range(1 << kids)
        )
        for slot in range(space.market_size)
    )
    first = space.market_size * kids
    visits = tuple(
        tuple(actions[first + h] for h in range(space.nice_houses) if mask >> h & 1)
        for mask in range(1 << space.nice_houses)
    )
    first_trick = first + space.nice_houses
    tricks = actions[first_trick : first_trick + space.mean_houses]
    return (1 << kids) - 1, takes, visits, tricks, actions[-2], actions[-1]
