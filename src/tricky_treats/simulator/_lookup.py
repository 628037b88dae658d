"""Index tables of a box and of the parts of a board, so the compact core does arithmetic.

The simulator's tables (``simulator._tables``) and the deals made straight into cores
(``variants._base_deals``) read them instead of searching: cards by id, features, icons,
types and treats by their index in ``FEATURES``, ``TrickIcon``, ``CostumeType`` and
``Treat``. What depends only on the components is built once per box and kept on it; what a
nice house or a street bonus token stands for is kept per object (the base game's deals
share their houses and tokens). Not part of the public API.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tricky_treats.components import FEATURES, ComponentData, CostumeType, Treat, TrickIcon
from tricky_treats.simulator import _core

if TYPE_CHECKING:
    from tricky_treats.components import StreetBonusToken, TrickTile
    from tricky_treats.model import GridHouse

__all__: list[str] = []


FEATURE_INDEX = {feature: i for i, feature in enumerate(FEATURES)}
ICON_INDEX = {icon: i for i, icon in enumerate(TrickIcon)}
TREAT_INDEX = {treat: i for i, treat in enumerate(Treat)}
_FEATURE_BY_ID = {id(feature): i for i, feature in enumerate(FEATURES)}
_ICON_BY_ID = {id(icon): i for i, icon in enumerate(TrickIcon)}
_TREAT_BY_ID = {id(treat): i for i, treat in enumerate(Treat)}
TYPES = len(CostumeType)  # EnumType.__len__ is a Python-level call: counted once
TREATS = tuple(Treat)


def _index(by_id: dict[int, int], by_value: Mapping[Any, int], member: object) -> int:
    """An enum member's index: by identity (an enum's own hash is a Python-level call)."""
    index = by_id.get(id(member))
    return by_value[member] if index is None else index


def icon_index(icon: object) -> int:
    """The index of a ``TrickIcon`` (KeyError for anything else)."""
    return _index(_ICON_BY_ID, ICON_INDEX, icon)


# Per nice house: the house, then its wanted feature, lowest tier and treat token as indices,
# and the treats it gives for 0 to 15 cards. Keyed by the house's id; the entry holds the
# house, so no other object can have that id while the entry is there.
_HOUSE_INFO: dict[int, tuple[GridHouse, int, int, int, tuple[int, ...]]] = {}


def house_info(house: GridHouse) -> tuple[GridHouse, int, int, int, tuple[int, ...]]:
    """The house, the feature it wants, its lowest tier's cards, its treat, its gains."""
    entry = _HOUSE_INFO.get(id(house))
    if entry is not None:
        return entry
    neighbour = house.neighbour
    entry = (
        house,
        _index(_FEATURE_BY_ID, FEATURE_INDEX, neighbour.wants),
        neighbour.tiers[0].cards,
        _index(_TREAT_BY_ID, TREAT_INDEX, house.treat),
        tuple(neighbour.treats_for(n) for n in range(_core.COUNT_MASK + 1)),
    )
    if len(_HOUSE_INFO) >= 4096:
        _HOUSE_INFO.clear()
    _HOUSE_INFO[id(house)] = entry
    return entry


# Per street bonus token, by id (the entry holds it): the token, its treat, front and back.
_TOKEN_INFO: dict[int, tuple[StreetBonusToken, int, int, int]] = {}


def token_info(token: StreetBonusToken) -> tuple[StreetBonusToken, int, int, int]:
    """The token, its treat's index, its front and its back."""
    entry = _TOKEN_INFO.get(id(token))
    if entry is not None:
        return entry
    entry = (token, _index(_TREAT_BY_ID, TREAT_INDEX, token.treat), token.front, token.back)
    if len(_TOKEN_INFO) >= 4096:
        _TOKEN_INFO.clear()
    _TOKEN_INFO[id(token)] = entry
    return entry


# Per trick tile, by id (the entry holds it): the tile, and how many of each treat one set
# of it holds.
_NEEDS: dict[int, tuple[TrickTile, tuple[int, ...]]] = {}


def needs(tile: TrickTile) -> tuple[int, ...]:
    """How many of each treat (in ``Treat``'s order) one set of ``tile`` holds."""
    entry = _NEEDS.get(id(tile))
    if entry is None or entry[0] is not tile:
        if len(_NEEDS) >= 4096:
            _NEEDS.clear()
        entry = _NEEDS[id(tile)] = (tile, tuple([tile.treats.count(t) for t in TREATS]))
    return entry[1]


CardTables = tuple[
    tuple[int, ...], tuple[int, ...], tuple[tuple[int, int, int], ...], tuple[int, ...]
]


def card_tables(components: ComponentData) -> CardTables:
    """Per card id: type index, icon index, feature indices and feature bit mask.

    Built once per component data object and kept on it, so every game dealt from the same
    box shares them.
    """
    cached: CardTables | None = components._derived
    if cached is not None:
        return cached
    type_index = {t: i for i, t in enumerate(CostumeType)}
    cards = components.cards
    features = tuple(
        (FEATURE_INDEX[c.colour], FEATURE_INDEX[c.theme], FEATURE_INDEX[c.type]) for c in cards
    )
    tables = (
        tuple(type_index[c.type] for c in cards),
        tuple(ICON_INDEX[c.icon] for c in cards),
        features,
        tuple(sum(1 << f for f in fs) for fs in features),
    )
    object.__setattr__(components, "_derived", tables)
    return tables
