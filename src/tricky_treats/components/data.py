"""The component classes (cards, houses, tokens, tiles, rules, the whole box) and their checks.

A box is checked as a whole when it is built (``ComponentData.__attrs_post_init__``), however
it is built: from a file, by a plugin, or by hand.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from tricky_treats._conversion import (
    report,
    show,
    with_problems,
)
from tricky_treats.components.kinds import (
    Colour,
    CostumeType,
    Feature,
    Provenance,
    Theme,
    Treat,
    TrickIcon,
    _short,
)
from tricky_treats.components.limits import (
    COMPONENT_LIMITS,
    _Count,
    _field_error,
    _InRange,
    _member,
    _members,
    _text,
)
from tricky_treats.errors import ComponentDataError

if TYPE_CHECKING:
    from tricky_treats.components.format import _RulesDoc

__all__ = [
    "ComponentData",
    "CostumeCard",
    "MeanNeighbour",
    "NiceNeighbour",
    "RulesData",
    "StreetBonusToken",
    "Tier",
    "TrickTile",
]


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


@attrs.frozen
class _TierDoc:
    """A tier, written ``[cards, treats]``."""

    cards: int = attrs.field(validator=_InRange("tier_cards"))
    treats: int = attrs.field(validator=_InRange("tier_treats"))
