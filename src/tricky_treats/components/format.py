"""The component data file format (TOML), as cattrs structures it, and back.

These private classes mirror the TOML format field for field; their validators are the ones of
the public classes, so that cattrs names the entry at fault. ``_build`` turns a checked document
into ComponentData; ``components_document`` writes ComponentData as a document.
"""

from __future__ import annotations

from collections.abc import Mapping
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
)
from tricky_treats.components.data import (
    ComponentData,
    CostumeCard,
    MeanNeighbour,
    NiceNeighbour,
    RulesData,
    StreetBonusToken,
    Tier,
    TrickTile,
    _player_range,
    _TierDoc,
    _tiers,
)
from tricky_treats.components.kinds import (
    COMPONENTS_FORMAT,
    COMPONENTS_FORMAT_VERSION,
    Colour,
    CostumeType,
    Feature,
    Provenance,
    Theme,
    Treat,
    TrickIcon,
    feature_text,
    parse_feature,
)
from tricky_treats.components.limits import COMPONENT_LIMITS, _Count, _InRange, _member, _text
from tricky_treats.errors import ComponentDataError

__all__ = ["components_document", "parse_components"]


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
