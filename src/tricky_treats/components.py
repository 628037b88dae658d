"""The game's components as immutable values, and the loader for component data files.

The rules code holds no card data: the base game's cards, houses, tokens and tiles live in
``data/base.toml`` (package data, each entry marked ``confirmed`` or ``assumed``, see the
rules page's "Components") and are loaded once by ``base_components()``. A file in the same format,
read by ``load_components()``, can replace them, for example with the exact cards of a
printed copy of the game.
"""

from __future__ import annotations

import contextvars
import enum
import functools
import importlib.resources
import itertools
import re
import tomllib
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Any

import attrs

from tricky_treats._conversion import (
    MaxItems,
    at_field,
    converter,
    marked_problems,
    register_table,
    report,
    show,
    structure,
    with_problems,
)
from tricky_treats.errors import ComponentDataError, brief

__all__ = [
    "COMPONENTS_FORMAT",
    "COMPONENTS_FORMAT_VERSION",
    "COMPONENT_LIMITS",
    "FEATURES",
    "Colour",
    "ComponentData",
    "CostumeCard",
    "CostumeType",
    "Feature",
    "MeanNeighbour",
    "NiceNeighbour",
    "Provenance",
    "RulesData",
    "StreetBonusToken",
    "Theme",
    "Tier",
    "Treat",
    "TrickIcon",
    "TrickTile",
    "base_components",
    "components_document",
    "feature_text",
    "load_components",
    "parse_components",
    "parse_feature",
]

COMPONENTS_FORMAT = "tricky-treats-components"
COMPONENTS_FORMAT_VERSION = 1


class Colour(enum.Enum):
    """The colour of a costume card."""

    PURPLE = "purple"
    RED = "red"
    GREEN = "green"


class Theme(enum.Enum):
    """The theme of a costume card."""

    ANIMAL = "animal"
    HORROR = "horror"
    FABLE = "fable"
    SPACE = "space"


class CostumeType(enum.Enum):
    """Where a costume card is worn; a kid wears at most one of each (R2)."""

    HEAD = "head"
    BODY = "body"
    LEGS = "legs"


class TrickIcon(enum.Enum):
    """The trick icon printed on every costume card and on each mean house."""

    SPIDERWEB = "spiderweb"
    TOILET_PAPER = "toilet-paper"
    EGG = "egg"


class Treat(enum.Enum):
    """A type of treat; each player has one track per type."""

    CANDY = "candy"
    LOLLIPOP = "lollipop"
    GUMMY = "gummy"


class Provenance(enum.Enum):
    """Where a fact about a component comes from (the rules page, "Components")."""

    CONFIRMED = "confirmed"
    ASSUMED = "assumed"


Feature = Colour | Theme | CostumeType
"""What a nice neighbour wants to see: a colour, a theme or a type of costume."""

FEATURES: tuple[Feature, ...] = (*Colour, *Theme, *CostumeType)
"""Every feature in a fixed order: the 3 colours, the 4 themes, then the 3 types."""

COMPONENT_LIMITS: Mapping[str, tuple[int, int]] = MappingProxyType(
    {
        "players": (2, 8),
        "kids_per_player": (1, 8),
        "footprints_per_player": (1, 20),
        "market_size": (1, 10),
        "pumpkin_points": (0, 100),
        "cards": (1, 1000),
        "card_id": (0, 999),
        "nice_neighbours": (9, 100),
        "tiers": (1, 10),
        "tier_cards": (1, 100),
        "tier_treats": (1, 100),
        "trick_tiles": (5, 100),
        "tile_treats": (1, 10),
        "tile_points": (0, 100),
        "street_token_treats": (0, 100),
        "text_length": (1, 64),
        "other_arrays": (0, 100),
        "file_bytes": (0, 1 << 20),
    }
)
"""The range, lowest and highest included, of every number in component data and rules.

``players`` bounds ``min_players`` and ``max_players``; ``cards``, ``nice_neighbours`` and
``trick_tiles`` bound how many there are (their least is set by the market, the grid and the
players: see ``docs/component-data.md``); ``text_length`` bounds ids and names in characters;
``other_arrays`` bounds the other arrays of a file before their exact counts are checked;
``file_bytes`` is the largest file ``load_components()`` reads. The classes check these when
they are built, by a file or by a plugin, so that no game can be dealt from absurd numbers.
"""


def _field_error(owner: object, field: str, problem: str) -> ComponentDataError:
    """A ComponentDataError about one field, marked so that a loader names its full path."""
    return at_field(
        ComponentDataError(f"{type(owner).__name__}.{field}: {problem}"), field, problem
    )


@attrs.frozen
class _InRange:
    """Validator: an integer (not a bool) within ``COMPONENT_LIMITS[limit]``."""

    limit: str

    def __call__(self, instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        low, high = COMPONENT_LIMITS[self.limit]
        if type(value) is not int:
            raise _field_error(instance, attribute.name, f"expected an integer, got {show(value)}")
        if not low <= value <= high:
            raise _field_error(
                instance, attribute.name, f"must be between {low} and {high}, got {show(value)}"
            )


@attrs.frozen
class _Count:
    """Validator: a tuple whose length is within ``COMPONENT_LIMITS[limit]``."""

    limit: str
    noun: str

    def __call__(self, instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        low, high = COMPONENT_LIMITS[self.limit]
        if not isinstance(value, tuple):
            raise _field_error(instance, attribute.name, f"expected a tuple, got {show(value)}")
        if not low <= len(value) <= high:
            raise _field_error(
                instance,
                attribute.name,
                f"must have between {low} and {high} {self.noun}, got {len(value)}",
            )


def _text(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """Validator: an id or name of 1 to 64 characters."""
    low, high = COMPONENT_LIMITS["text_length"]
    if type(value) is not str:
        raise _field_error(instance, attribute.name, f"expected a string, got {show(value)}")
    if not low <= len(value) <= high:
        raise _field_error(
            instance,
            attribute.name,
            f"must have between {low} and {high} characters, got {len(value)}",
        )


def _member(kinds: type[enum.Enum] | tuple[type[enum.Enum], ...]) -> Callable[..., None]:
    """Validator: a member of the enum ``kinds`` (or of one of them)."""

    def check(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if not isinstance(value, kinds):
            raise _field_error(
                instance, attribute.name, f"expected a {_names(kinds)}, got {_short(value)}"
            )

    return check


def _names(kinds: type | tuple[type, ...]) -> str:
    return " or ".join(k.__name__ for k in (kinds if isinstance(kinds, tuple) else (kinds,)))


def _members(kind: type[enum.Enum]) -> Callable[..., None]:
    """Validator: every item of the tuple is a member of ``kind``."""

    def check(instance: object, attribute: attrs.Attribute[Any], value: tuple[object, ...]) -> None:
        for i, item in enumerate(value):
            if not isinstance(item, kind):
                raise _field_error(
                    instance,
                    f"{attribute.name}[{i}]",
                    f"expected a {kind.__name__}, got {_short(item)}",
                )

    return check


def _tiers(instance: object, attribute: attrs.Attribute[Any], value: tuple[Any, ...]) -> None:
    """Validator: tiers that need more cards each and give no fewer treats (R5)."""
    for i, tier in enumerate(value):
        if not (isinstance(tier, Tier | _TierDoc)):
            raise _field_error(instance, f"tiers[{i}]", f"expected a Tier, got {_short(tier)}")
    if any(a.cards >= b.cards or a.treats > b.treats for a, b in itertools.pairwise(value)):
        raise _field_error(instance, "tiers", "tiers must need more cards and give no fewer treats")


def _player_range(rules: RulesData | _RulesDoc) -> None:
    if rules.min_players > rules.max_players:
        raise _field_error(
            rules,
            "max_players",
            f"must be at least min_players ({rules.min_players}), got {rules.max_players}",
        )


_PROVENANCE = attrs.field(
    default=Provenance.CONFIRMED,
    eq=False,
    repr=False,
    kw_only=True,
    validator=_member(Provenance),
)


@attrs.frozen
class CostumeCard:
    """A transparent costume card: one colour, theme and type, and a trick icon."""

    id: int = attrs.field(validator=_InRange("card_id"))
    """The card's number in the box, unique."""
    colour: Colour = attrs.field(validator=_member(Colour))
    """Its colour."""
    theme: Theme = attrs.field(validator=_member(Theme))
    """Its theme."""
    type: CostumeType = attrs.field(validator=_member(CostumeType))
    """Where it is worn (R2)."""
    icon: TrickIcon = attrs.field(validator=_member(TrickIcon))
    """Its trick icon, which shows when the card is on top (R3)."""
    provenance: Provenance = _PROVENANCE
    """Whether this card's data is confirmed or assumed."""

    def __str__(self) -> str:
        return f"{self.colour.value} {self.theme.value} {self.type.value} ({self.icon.value})"

    def has(self, feature: Feature) -> bool:
        """Whether this card counts for a nice neighbour who wants ``feature`` (R1)."""
        return feature in (self.colour, self.theme, self.type)


@attrs.frozen
class Tier:
    """A nice neighbour's tier: with at least ``cards`` matching cards, get ``treats``."""

    cards: int = attrs.field(validator=_InRange("tier_cards"))
    """Matching cards needed."""
    treats: int = attrs.field(validator=_InRange("tier_treats"))
    """Treats given."""


@attrs.frozen
class NiceNeighbour:
    """A nice neighbour's house card: the feature it wants and its tiers, lowest first."""

    id: str = attrs.field(validator=_text)
    """The neighbour's name in the component data."""
    wants: Feature = attrs.field(validator=_member((Colour, Theme, CostumeType)))
    """The feature it counts (R1)."""
    tiers: tuple[Tier, ...] = attrs.field(validator=[_Count("tiers", "tiers"), _tiers])
    """Its tiers, fewest cards first (R5)."""
    provenance: Provenance = _PROVENANCE
    """Whether this data is confirmed or assumed."""

    @property
    def minimum(self) -> int:
        """The fewest matching cards that allow a visit (R5)."""
        return self.tiers[0].cards

    def treats_for(self, matching_cards: int) -> int:
        """Treats given to a visitor with ``matching_cards`` cards of the wanted feature.

        The highest tier reached counts (R5); below the lowest tier the result is 0 and the
        house may not be visited.
        """
        treats = 0
        for tier in self.tiers:
            if matching_cards >= tier.cards:
                treats = tier.treats
        return treats

    def __str__(self) -> str:
        tiers = ", ".join(f"{t.cards}->{t.treats}" for t in self.tiers)
        return f"likes {self.wants.value} ({tiers})"


@attrs.frozen
class MeanNeighbour:
    """A mean neighbour's house card, showing one trick icon (R4)."""

    icon: TrickIcon = attrs.field(validator=_member(TrickIcon))
    """The trick icon that tricks it (R4)."""
    provenance: Provenance = _PROVENANCE
    """Whether this data is confirmed or assumed."""


@attrs.frozen
class TrickTile:
    """A trick tile: ``points`` for every complete set of ``treats`` a player holds (R14)."""

    id: str = attrs.field(validator=_text)
    """The tile's name in the component data, unique."""
    treats: tuple[Treat, ...] = attrs.field(
        validator=[_Count("tile_treats", "treats"), _members(Treat)]
    )
    """The treats one set needs (a treat twice needs two of it)."""
    points: int = attrs.field(validator=_InRange("tile_points"))
    """Points per complete set."""
    provenance: Provenance = _PROVENANCE
    """Whether this data is confirmed or assumed."""

    def sets(self, treats: Mapping[Treat, int]) -> int:
        """How many complete sets the treat tracks ``treats`` can form; none are spent."""
        needed = {t: self.treats.count(t) for t in self.treats}
        return min(treats.get(t, 0) // n for t, n in needed.items())

    def score(self, treats: Mapping[Treat, int]) -> int:
        """The points this tile gives for ``treats`` (R14)."""
        return self.points * self.sets(treats)

    def __str__(self) -> str:
        return f"{' + '.join(t.value for t in self.treats)} = {self.points}"


@attrs.frozen
class StreetBonusToken:
    """A street bonus token: ``front`` treats to the first to finish a street, then ``back``."""

    treat: Treat = attrs.field(validator=_member(Treat))
    """The treat it gives."""
    front: int = attrs.field(default=2, validator=_InRange("street_token_treats"))
    """Treats for the first player to complete the street."""
    back: int = attrs.field(default=1, validator=_InRange("street_token_treats"))
    """Treats for every later one."""
    provenance: Provenance = _PROVENANCE
    """Whether this data is confirmed or assumed."""


def _flag(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if type(value) is not bool:
        raise _field_error(instance, attribute.name, f"expected true or false, got {show(value)}")


@attrs.frozen
class RulesData:
    """The numbers that size a game, and the rule options that variants switch on.

    ``any_mean_house`` is the R4 option, ``refresh_ends_turn`` the R8 option. Every number
    must lie within its range in ``COMPONENT_LIMITS``; ``ComponentDataError`` says which
    does not.
    """

    min_players: int = attrs.field(default=2, validator=_InRange("players"))
    """Fewest players."""
    max_players: int = attrs.field(default=4, validator=_InRange("players"))
    """Most players."""
    kids_per_player: int = attrs.field(default=5, validator=_InRange("kids_per_player"))
    """Kids in each player's group."""
    footprints_per_player: int = attrs.field(default=8, validator=_InRange("footprints_per_player"))
    """Footprints each player can place."""
    market_size: int = attrs.field(default=5, validator=_InRange("market_size"))
    """Cards in the market."""
    pumpkin_points: int = attrs.field(default=2, validator=_InRange("pumpkin_points"))
    """Points per pumpkin (R13)."""
    any_mean_house: bool = attrs.field(default=False, validator=_flag)
    """The R4 option."""
    refresh_ends_turn: bool = attrs.field(default=False, validator=_flag)
    """The R8 option."""

    def __attrs_post_init__(self) -> None:
        _player_range(self)


@attrs.frozen
class ComponentData:
    """Everything in the box: the data a game is dealt from.

    Built, it is checked as a whole (counts within ``COMPONENT_LIMITS``, card ids equal to
    their positions, enough cards, houses, tokens and tiles to deal a game, unique ids);
    ``ComponentDataError`` lists what is wrong, by path in the component data format.
    """

    name: str
    """The name of the data set, e.g. ``base``."""
    rules: RulesData
    """The numbers and options of the game."""
    cards: tuple[CostumeCard, ...]
    """Every costume card, by id."""
    nice_neighbours: tuple[NiceNeighbour, ...]
    """Every nice neighbour; 9 of them make the grid."""
    mean_neighbours: tuple[MeanNeighbour, ...]
    """The mean neighbours."""
    house_treat_tokens: tuple[Treat, ...]
    """The house treat tokens."""
    street_bonus_tokens: tuple[StreetBonusToken, ...]
    """The street bonus tokens."""
    trick_tiles: tuple[TrickTile, ...]
    """Every trick tile."""
    _derived: Any = attrs.field(init=False, default=None, eq=False, repr=False)
    """Index tables the engine derives from these components, built on first use."""

    GRID_HOUSES = 9
    STREETS = 6

    def __attrs_post_init__(self) -> None:
        problems = list(_count_problems(self))
        if problems:
            name = self.name if type(self.name) is str and len(self.name) <= 64 else "<components>"
            error = ComponentDataError(report(problems, f"{name}: "))
            raise with_problems(error, problems)


_SECTIONS: tuple[tuple[str, str, str, type], ...] = (
    ("cards", "costume_cards.cards", "cards", CostumeCard),
    ("nice_neighbours", "nice_neighbours.houses", "nice_neighbours", NiceNeighbour),
    ("mean_neighbours", "mean_neighbours.houses", "other_arrays", MeanNeighbour),
    ("house_treat_tokens", "house_treat_tokens.tokens", "other_arrays", Treat),
    ("street_bonus_tokens", "street_bonus_tokens.tokens", "other_arrays", StreetBonusToken),
    ("trick_tiles", "trick_tiles.tiles", "trick_tiles", TrickTile),
)
"""Each collection of ComponentData: its field, its path in a file, its limit, its items."""


def _count_problems(data: ComponentData) -> Iterator[tuple[str, str]]:
    """What keeps the components from dealing a game, as ``(path, problem)`` pairs."""
    low, high = COMPONENT_LIMITS["text_length"]
    if type(data.name) is not str or not low <= len(data.name) <= high:
        yield "name", f"expected a string of {low} to {high} characters, got {show(data.name)}"
    rules: object = data.rules  # a plugin may pass anything
    if not isinstance(rules, RulesData):
        yield "rules", f"expected a RulesData, got {show(rules)}"
        return
    malformed = False
    for field, where, limit, kind in _SECTIONS:
        items = getattr(data, field)
        if not isinstance(items, tuple):
            yield where, f"expected a tuple, got {show(items)}"
            malformed = True
        elif len(items) > COMPONENT_LIMITS[limit][1]:
            yield where, f"at most {COMPONENT_LIMITS[limit][1]} entries allowed, got {len(items)}"
            malformed = True
        else:
            for i, item in enumerate(items):
                if not isinstance(item, kind):
                    yield f"{where}[{i}]", f"expected a {kind.__name__}, got {_short(item)}"
                    malformed = True
    if malformed:
        return  # the checks below read the entries
    yield from _deal_problems(data)


def _deal_problems(data: ComponentData) -> Iterator[tuple[str, str]]:
    rules = data.rules
    for i, card in enumerate(data.cards):
        if card.id != i:
            yield f"costume_cards.cards[{i}]", f"id is {card.id}, expected {i}"
    if len(data.cards) < rules.market_size:
        yield (
            "costume_cards",
            f"{len(data.cards)} cards cannot fill a market of {rules.market_size}",
        )
    if len(data.nice_neighbours) < data.GRID_HOUSES:
        yield "nice_neighbours", f"{len(data.nice_neighbours)} houses cannot fill the 3x3 grid"
    if len(data.house_treat_tokens) != data.GRID_HOUSES:
        yield (
            "house_treat_tokens",
            (f"expected {data.GRID_HOUSES}, got {len(data.house_treat_tokens)}"),
        )
    if len(data.street_bonus_tokens) != data.STREETS:
        yield (
            "street_bonus_tokens",
            (f"expected {data.STREETS}, got {len(data.street_bonus_tokens)}"),
        )
    icons = [m.icon for m in data.mean_neighbours]
    if sorted(i.value for i in icons) != sorted(i.value for i in TrickIcon):
        yield "mean_neighbours", "expected one house for each trick icon (R4)"
    needed_tiles = len(data.mean_neighbours) + rules.max_players
    if len(data.trick_tiles) < needed_tiles:
        yield (
            "trick_tiles",
            (
                f"{len(data.trick_tiles)} tiles, but {len(data.mean_neighbours)} mean "
                f"houses and {rules.max_players} players need {needed_tiles}"
            ),
        )
    yield from _duplicates("nice_neighbours.houses", [h.id for h in data.nice_neighbours])
    yield from _duplicates("trick_tiles.tiles", [t.id for t in data.trick_tiles])


def _duplicates(where: str, ids: Sequence[str]) -> Iterator[tuple[str, str]]:
    seen: set[str] = set()
    for i, key in enumerate(ids):
        if key in seen:
            yield f"{where}[{i}].id", f"duplicate id {key!r}"
        seen.add(key)


_FEATURE_KINDS: Mapping[str, type[Colour] | type[Theme] | type[CostumeType]] = {
    "colour": Colour,
    "theme": Theme,
    "type": CostumeType,
}


def feature_text(feature: Feature) -> str:
    """A feature as data files and records write it: ``colour:green``, ``type:head``."""
    kind = next(k for k, enum_type in _FEATURE_KINDS.items() if isinstance(feature, enum_type))
    return f"{kind}:{feature.value}"


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:37]}..."


def parse_feature(text: object) -> Feature:
    """Read ``colour:NAME``, ``theme:NAME`` or ``type:NAME``; raise ValueError if it is not."""
    if not isinstance(text, str) or text.count(":") != 1:
        raise ValueError(f"expected 'colour:NAME', 'theme:NAME' or 'type:NAME', got {_short(text)}")
    kind, name = text.split(":")
    enum_type = _FEATURE_KINDS.get(kind)
    if enum_type is None:
        raise ValueError(f"unknown feature kind {_short(kind)} (one of colour, theme, type)")
    for member in enum_type:
        if member.value == name:
            return member
    allowed = ", ".join(m.value for m in enum_type)
    raise ValueError(f"unknown {kind} {_short(name)} (one of {allowed})")


# -- the file format, as cattrs structures it --------------------------------------------------
# These private classes mirror the TOML format field for field; their validators are the ones
# of the public classes, so that cattrs names the entry at fault. ``_build`` turns a checked
# document into ComponentData.

_STATUS = attrs.field(default=Provenance.CONFIRMED, validator=_member(Provenance))


@attrs.frozen
class _RulesDoc:
    min_players: int = attrs.field(default=2, validator=_InRange("players"))
    max_players: int = attrs.field(default=4, validator=_InRange("players"))
    kids_per_player: int = attrs.field(default=5, validator=_InRange("kids_per_player"))
    footprints_per_player: int = attrs.field(default=8, validator=_InRange("footprints_per_player"))
    market_size: int = attrs.field(default=5, validator=_InRange("market_size"))
    pumpkin_points: int = attrs.field(default=2, validator=_InRange("pumpkin_points"))
    any_mean_house: bool = False
    refresh_ends_turn: bool = False
    status: Provenance = _STATUS

    def __attrs_post_init__(self) -> None:
        _player_range(self)


@attrs.frozen
class _CardDoc:
    id: int = attrs.field(validator=_InRange("card_id"))
    colour: Colour
    theme: Theme
    type: CostumeType
    icon: TrickIcon
    status: Provenance = _STATUS


@attrs.frozen
class _CostumeCardsDoc:
    cards: Annotated[tuple[_CardDoc, ...], MaxItems(COMPONENT_LIMITS["cards"][1])]


@attrs.frozen
class _TierDoc:
    """A tier, written ``[cards, treats]``."""

    cards: int = attrs.field(validator=_InRange("tier_cards"))
    treats: int = attrs.field(validator=_InRange("tier_treats"))


@attrs.frozen
class _NiceDoc:
    id: str = attrs.field(validator=_text)
    wants: Feature
    tiers: Annotated[tuple[_TierDoc, ...], MaxItems(COMPONENT_LIMITS["tiers"][1])] = attrs.field(
        validator=[_Count("tiers", "tiers"), _tiers]
    )
    status: Provenance = _STATUS


@attrs.frozen
class _NiceNeighboursDoc:
    houses: Annotated[tuple[_NiceDoc, ...], MaxItems(COMPONENT_LIMITS["nice_neighbours"][1])]


@attrs.frozen
class _MeanDoc:
    icon: TrickIcon
    status: Provenance = _STATUS


@attrs.frozen
class _MeanNeighboursDoc:
    houses: Annotated[tuple[_MeanDoc, ...], MaxItems(COMPONENT_LIMITS["other_arrays"][1])]


@attrs.frozen
class _HouseTokensDoc:
    tokens: Annotated[tuple[Treat, ...], MaxItems(COMPONENT_LIMITS["other_arrays"][1])]
    status: Provenance = _STATUS


@attrs.frozen
class _StreetTokenDoc:
    treat: Treat
    front: int = attrs.field(default=2, validator=_InRange("street_token_treats"))
    back: int = attrs.field(default=1, validator=_InRange("street_token_treats"))
    status: Provenance = _STATUS


@attrs.frozen
class _StreetTokensDoc:
    tokens: Annotated[tuple[_StreetTokenDoc, ...], MaxItems(COMPONENT_LIMITS["other_arrays"][1])]


@attrs.frozen
class _TileDoc:
    id: str = attrs.field(validator=_text)
    treats: Annotated[tuple[Treat, ...], MaxItems(COMPONENT_LIMITS["tile_treats"][1])] = (
        attrs.field(validator=_Count("tile_treats", "treats"))
    )
    points: int = attrs.field(validator=_InRange("tile_points"))
    status: Provenance = _STATUS


@attrs.frozen
class _TrickTilesDoc:
    tiles: Annotated[tuple[_TileDoc, ...], MaxItems(COMPONENT_LIMITS["trick_tiles"][1])]


@attrs.frozen
class _Document:
    format: str
    format_version: int
    name: str = attrs.field(validator=_text)
    rules: _RulesDoc
    costume_cards: _CostumeCardsDoc
    nice_neighbours: _NiceNeighboursDoc
    mean_neighbours: _MeanNeighboursDoc
    house_treat_tokens: _HouseTokensDoc
    street_bonus_tokens: _StreetTokensDoc
    trick_tiles: _TrickTilesDoc


def _structure_feature(value: object, _: type) -> Feature:
    return parse_feature(value)


def _structure_tier(value: object, _: type) -> _TierDoc:
    if type(value) is not list or len(value) != 2:
        raise TypeError(f"expected [cards, treats], two integers, got {show(value)}")
    for name, number in zip(("cards", "treats"), value, strict=True):
        if type(number) is not int:
            problem = f"expected an integer, got {show(number)}"
            raise at_field(ValueError(f"Tier.{name}: {problem}"), name, problem)
    return _TierDoc(cards=value[0], treats=value[1])


def _register_hooks() -> None:
    converter.register_structure_hook_func(lambda t: t == Feature, _structure_feature)
    converter.register_structure_hook(_TierDoc, _structure_tier)
    # Each class before the classes that hold it: a hook is made for the types it holds.
    for cls in (
        _RulesDoc,
        _CardDoc,
        _CostumeCardsDoc,
        _NiceDoc,
        _NiceNeighboursDoc,
        _MeanDoc,
        _MeanNeighboursDoc,
        _HouseTokensDoc,
        _StreetTokenDoc,
        _StreetTokensDoc,
        _TileDoc,
        _TrickTilesDoc,
        _Document,
    ):
        register_table(cls)


_register_hooks()


def _build(doc: _Document) -> ComponentData:
    """ComponentData from a document whose entries are already checked."""
    rules = doc.rules
    return ComponentData(
        name=doc.name,
        rules=RulesData(
            min_players=rules.min_players,
            max_players=rules.max_players,
            kids_per_player=rules.kids_per_player,
            footprints_per_player=rules.footprints_per_player,
            market_size=rules.market_size,
            pumpkin_points=rules.pumpkin_points,
            any_mean_house=rules.any_mean_house,
            refresh_ends_turn=rules.refresh_ends_turn,
        ),
        cards=tuple(
            CostumeCard(c.id, c.colour, c.theme, c.type, c.icon, provenance=c.status)
            for c in doc.costume_cards.cards
        ),
        nice_neighbours=tuple(
            NiceNeighbour(
                n.id,
                n.wants,
                tuple(Tier(t.cards, t.treats) for t in n.tiers),
                provenance=n.status,
            )
            for n in doc.nice_neighbours.houses
        ),
        mean_neighbours=tuple(
            MeanNeighbour(m.icon, provenance=m.status) for m in doc.mean_neighbours.houses
        ),
        house_treat_tokens=doc.house_treat_tokens.tokens,
        street_bonus_tokens=tuple(
            StreetBonusToken(s.treat, s.front, s.back, provenance=s.status)
            for s in doc.street_bonus_tokens.tokens
        ),
        trick_tiles=tuple(
            TrickTile(t.id, t.treats, t.points, provenance=t.status) for t in doc.trick_tiles.tiles
        ),
    )


def parse_components(document: Mapping[str, Any], source: str = "<components>") -> ComponentData:
    """Build ``ComponentData`` from a parsed component data document.

    ``source`` names the document in error messages, which also name the entry at fault.
    Raises ``ComponentDataError`` for anything malformed, listing the first problems found
    (one a line) and how many more there are.
    """
    prefix = f"{source}: "
    if not isinstance(document, Mapping):
        raise ComponentDataError(f"{prefix}expected a table, got {show(document)}")
    found = document.get("format")
    if found != COMPONENTS_FORMAT:
        raise ComponentDataError(
            f"{prefix}format: expected {COMPONENTS_FORMAT!r}, got {show(found)}"
        )
    version = document.get("format_version")
    if type(version) is not int or version != COMPONENTS_FORMAT_VERSION:
        raise ComponentDataError(
            f"{prefix}format_version: this version of tricky-treats reads version "
            f"{COMPONENTS_FORMAT_VERSION}, got {show(version)}"
        )
    doc = structure(dict(document), _Document, ComponentDataError, prefix)
    try:
        return _build(doc)
    except ComponentDataError as exc:
        found = marked_problems(exc)
        if found is None:  # pragma: no cover - the document's own checks come first
            raise ComponentDataError(f"{prefix}{exc}") from None
        raise ComponentDataError(report(found, prefix)) from None


def components_document(data: ComponentData) -> dict[str, Any]:
    """``data`` as a document in the component data format, as ``parse_components()`` reads.

    Saved games embed it when they were played with other than the base game's data.
    """

    def status(
        item: CostumeCard | NiceNeighbour | MeanNeighbour | TrickTile | StreetBonusToken,
    ) -> str:
        return item.provenance.value

    return {
        "format": COMPONENTS_FORMAT,
        "format_version": COMPONENTS_FORMAT_VERSION,
        "name": data.name,
        "rules": attrs.asdict(data.rules),
        "costume_cards": {
            "cards": [
                {
                    "id": c.id,
                    "colour": c.colour.value,
                    "theme": c.theme.value,
                    "type": c.type.value,
                    "icon": c.icon.value,
                    "status": status(c),
                }
                for c in data.cards
            ]
        },
        "nice_neighbours": {
            "houses": [
                {
                    "id": n.id,
                    "wants": feature_text(n.wants),
                    "tiers": [[t.cards, t.treats] for t in n.tiers],
                    "status": status(n),
                }
                for n in data.nice_neighbours
            ]
        },
        "mean_neighbours": {
            "houses": [{"icon": m.icon.value, "status": status(m)} for m in data.mean_neighbours]
        },
        "house_treat_tokens": {"tokens": [t.value for t in data.house_treat_tokens]},
        "street_bonus_tokens": {
            "tokens": [
                {"treat": t.treat.value, "front": t.front, "back": t.back, "status": status(t)}
                for t in data.street_bonus_tokens
            ]
        },
        "trick_tiles": {
            "tiles": [
                {
                    "id": t.id,
                    "treats": [treat.value for treat in t.treats],
                    "points": t.points,
                    "status": status(t),
                }
                for t in data.trick_tiles
            ]
        },
    }


_MAX_KEY_DEPTH = 8


_FILES_ALLOWED: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "tricky_treats_component_files", default=True
)
"""Whether ``load_components`` may read files here: ``tt.loads`` switches it off, so that a
record that names a file (``card-data``'s option) makes nobody open or look at it."""


def _files_allowed() -> bool:
    """Whether component data files may be read (and looked at) in this context."""
    return _FILES_ALLOWED.get()


def load_components(path: str | Path) -> ComponentData:
    """Read a component data file (TOML, the format of the package's ``data/base.toml``).

    Raises ``ComponentDataError`` naming the file, the entry and the problem when the file
    is missing, larger than ``COMPONENT_LIMITS["file_bytes"]`` (1 MiB), not TOML or does not
    describe a playable box, and without opening it while ``tt.loads`` reads a record that
    names it (unless called with ``read_files=True``).
    """
    if not _FILES_ALLOWED.get():
        raise ComponentDataError(
            f"{brief(str(path))}: not read: a game record names this file, and tt.loads reads "
            "the files a record names only when called with read_files=True"
        )
    path = Path(path)
    limit = COMPONENT_LIMITS["file_bytes"][1]
    try:
        with path.open("rb") as file:
            content = file.read(limit + 1)  # never more: the path may be /dev/zero
        text = content.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ComponentDataError(f"{path}: cannot read component data: {exc}") from exc
    if len(content) > limit:
        raise ComponentDataError(
            f"{path}: cannot read component data: the file is larger than {limit} bytes "
            "(1 MiB), the most a component data file may hold"
        )
    return _parse_text(text, str(path))


_KEY_PART = r"""(?:[A-Za-z0-9_-]++|"(?:[^"\\\n]|\\.)*+"|'[^'\n]*+')"""
_DEEP_KEY = re.compile(
    rf"(?:^|[{{,])[ \t]*+\[*+[ \t]*+{_KEY_PART}(?:[ \t]*+\.[ \t]*+{_KEY_PART}){{{_MAX_KEY_DEPTH}}}",
    re.MULTILINE,
)
"""A dotted key (or table name) of more parts than any in the format, where a key may start:
tomllib takes time quadratic in the parts of a key, minutes for one line of a 1 MiB file.
A part is a bare key, a literal string or a basic string, escapes (``"a\\"b"``) included."""


def _parse_text(text: str, source: str) -> ComponentData:
    if _DEEP_KEY.search(text):
        raise ComponentDataError(
            f"{source}: not a component data file: a dotted key has more than "
            f"{_MAX_KEY_DEPTH} parts"
        )
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ComponentDataError(f"{source}: not valid TOML: {exc}") from exc
    except ValueError:  # Python's limit of 4300 digits on reading an integer
        raise ComponentDataError(
            f"{source}: not a component data file: a number of more than 4300 digits"
        ) from None
    except RecursionError:
        raise ComponentDataError(f"{source}: not valid TOML: nested too deeply") from None
    return parse_components(document, source)


@functools.cache
def base_components() -> ComponentData:
    """The base game's components, read once from the package's ``data/base.toml``."""
    resource = importlib.resources.files("tricky_treats").joinpath("data/base.toml")
    return _parse_text(resource.read_text(encoding="utf-8"), "tricky_treats/data/base.toml")
