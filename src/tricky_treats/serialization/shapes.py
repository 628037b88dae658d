"""The records' shapes: formats, limits, the error, the attrs classes and their converter.

Every array is bounded by what the rules allow, checked before any of its entries is read: a
record's size alone must not decide how much work reading it takes.
"""

from __future__ import annotations

import functools
import json
import operator
import typing
from collections.abc import Callable, Mapping
from typing import Annotated, Any, TypeVar

import attrs
import cattrs

from tricky_treats import _conversion
from tricky_treats._conversion import MaxItems
from tricky_treats.actions import Action, Pass, RefreshMarket, TakeCard, TrickHouse, VisitHouse
from tricky_treats.components import (
    COMPONENT_LIMITS,
    Colour,
    ComponentData,
    CostumeCard,
    CostumeType,
    Feature,
    MeanNeighbour,
    NiceNeighbour,
    RulesData,
    StreetBonusToken,
    Theme,
    Treat,
    TrickIcon,
    TrickTile,
    feature_text,
    parse_feature,
)
from tricky_treats.dealing import MAX_VARIANTS
from tricky_treats.errors import TrickyTreatsError, brief
from tricky_treats.model import (
    EndTrigger,
    VariantRef,
)
from tricky_treats.scoring import ScoreSheet
from tricky_treats.views import PlayerView, PublicPlayer

__all__ = [
    "ACTION_TAGS",
    "MAX_ACTIONS",
    "MAX_RECORD_BYTES",
    "RECORD_FORMAT",
    "RECORD_FORMAT_VERSION",
    "VIEW_FORMAT",
    "VIEW_FORMAT_VERSION",
    "RecordError",
]


RECORD_FORMAT = "tricky-treats-record"
RECORD_FORMAT_VERSION = 2
VIEW_FORMAT = "tricky-treats-view"
VIEW_FORMAT_VERSION = 2
MAX_RECORD_BYTES = 2 * 1024 * 1024
"""The largest record or player record read, in bytes (a finished base game takes about 7 KB)."""
MAX_ACTIONS = 10_000
"""The longest action log a record may hold (a base game has fewer than 300 actions)."""
_MAX_PROBLEMS = 10
_MAX_PROBLEM_CHARACTERS = 300
"""The longest problem an error message shows (paths and values are cut to fit)."""


class RecordError(TrickyTreatsError, ValueError):
    """A record cannot be loaded; the message gives the JSON path or the action at fault."""


# -- the record's shape ----------------------------------------------------------------------
# Every array is bounded by what the rules allow, checked before any of its entries is read:
# a record's size alone must not decide how much work reading it takes.

_PLAYERS = COMPONENT_LIMITS["players"][1]
_KIDS = COMPONENT_LIMITS["kids_per_player"][1]
_CARDS = COMPONENT_LIMITS["cards"][1]
_MARKET = COMPONENT_LIMITS["market_size"][1]
_MEAN_HOUSES = COMPONENT_LIMITS["other_arrays"][1]
_TILES = COMPONENT_LIMITS["trick_tiles"][1]
_GRID = ComponentData.GRID_HOUSES
_STREETS = ComponentData.STREETS
_CARDS_ON_A_KID = len(CostumeType)  # one card of each type (R2)
_LEGAL_ACTIONS = _MARKET * _KIDS + _GRID + _MEAN_HOUSES + 2  # the largest action space


@attrs.frozen
class _Config:
    players: Annotated[list[str], MaxItems(_PLAYERS)]
    seed: int
    first_player: int
    any_mean_house: bool
    refresh_ends_turn: bool
    variant_options: dict[str, dict[str, Any]]


@attrs.frozen
class _GridHouse:
    neighbour: str
    treat: Treat


@attrs.frozen
class _MeanHouse:
    icon: TrickIcon
    tile: str


@attrs.frozen
class _Setup:
    grid: Annotated[list[_GridHouse], MaxItems(_GRID)]
    street_tokens: Annotated[list[Treat], MaxItems(_STREETS)]
    mean_houses: Annotated[list[_MeanHouse], MaxItems(_MEAN_HOUSES)]
    secret_tiles: Annotated[list[str], MaxItems(_PLAYERS)]
    deck: Annotated[list[int], MaxItems(_CARDS)]
    secret_tiles_face_up: bool | None  # None: migrated from version 1, which lacked it


@attrs.frozen
class _Player:
    name: str
    kids: Annotated[list[Annotated[list[int], MaxItems(_CARDS_ON_A_KID)]], MaxItems(_KIDS)]
    treats: dict[Treat, int]
    pumpkins: int
    visited: Annotated[list[int], MaxItems(_GRID)]
    tricked: Annotated[list[int], MaxItems(_MEAN_HOUSES)]
    footprints: int


@attrs.frozen
class _Snapshot:
    players: Annotated[list[_Player], MaxItems(_PLAYERS)]
    market: Annotated[list[int | None], MaxItems(_MARKET)]
    deck_position: int
    discarded: Annotated[list[int], MaxItems(_CARDS)]
    pumpkin_on_house: Annotated[list[bool], MaxItems(_GRID)]
    pumpkin_on_mean_house: Annotated[list[bool], MaxItems(_MEAN_HOUSES)]
    street_flipped: Annotated[list[bool], MaxItems(_STREETS)]
    current_player: int | None
    turn: int
    passes_in_a_row: int
    end_trigger: EndTrigger | None


@attrs.frozen
class _Record:
    format: str
    format_version: int
    written_by: str
    components: str | dict[str, Any]
    custom_components: bool | None  # required: None is refused
    variants: Annotated[list[VariantRef], MaxItems(MAX_VARIANTS)]
    config: _Config
    rules: RulesData | None  # None: migrated from version 1
    setup: _Setup
    actions: list[Action]
    snapshot: _Snapshot
    digest: str | None  # None: migrated from version 1


@attrs.frozen
class _ViewRecord:
    format: str
    format_version: int
    written_by: str
    components: str
    variants: Annotated[list[VariantRef], MaxItems(MAX_VARIANTS)]
    players: Annotated[list[str], MaxItems(_PLAYERS)]
    first_player: int
    any_mean_house: bool
    refresh_ends_turn: bool
    view: PlayerView


# -- the converter ---------------------------------------------------------------------------

ACTION_TAGS: Mapping[type, str] = {
    TakeCard: "take-card",
    VisitHouse: "visit-house",
    TrickHouse: "trick-house",
    RefreshMarket: "refresh-market",
    Pass: "pass",
}
"""The stable tag of each action class in records (the ``type`` key)."""

_ACTION_CLASSES = {tag: cls for cls, tag in ACTION_TAGS.items()}


_T = TypeVar("_T")


def _shown(value: object) -> str:
    """A JSON value as error messages show it: short, whatever its size."""
    if isinstance(value, dict | list):
        return f"{'an object' if isinstance(value, dict) else 'an array'} of {len(value)}"
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return brief(value)
    return text if len(text) <= 60 else f"{text[:40]}...({len(text)} characters)"


_ACTION_FIELDS = {cls: ("type", *(f.name for f in attrs.fields(cls))) for cls in ACTION_TAGS}
_ONE_INDEX: dict[str, type[VisitHouse | TrickHouse]] = {
    "visit-house": VisitHouse,
    "trick-house": TrickHouse,
}
_NO_INDEX: dict[str, Action] = {"refresh-market": RefreshMarket(), "pass": Pass()}


def _structure_action(value: object, _: type) -> Action:
    # Logs hold hundreds of well-formed actions: read those without the general machinery.
    if type(value) is dict:
        tag = value.get("type")
        size = len(value)
        if tag == "take-card" and size == 3:
            slot, kid = value.get("slot"), value.get("kid")
            if type(slot) is int and type(kid) is int and slot >= 0 and kid >= 0:
                return TakeCard(slot, kid)
        elif size == 2 and tag in _ONE_INDEX:
            house = value.get("house")
            if type(house) is int and house >= 0:
                return _ONE_INDEX[tag](house)
        elif size == 1 and tag in _NO_INDEX:
            return _NO_INDEX[tag]
    return _structure_action_slowly(value)


def _structure_action_slowly(value: object) -> Action:
    """Any action object, with an error that says what is wrong with it."""
    if not isinstance(value, dict):
        raise TypeError(f"expected an action object, got {_shown(value)}")
    tag = value.get("type")
    cls = _ACTION_CLASSES.get(tag) if isinstance(tag, str) else None
    if cls is None:
        tags = ", ".join(ACTION_TAGS.values())
        raise ValueError(f"unknown action type {_shown(tag)} (one of {tags})")
    fields = {k: v for k, v in value.items() if k != "type"}
    structured: Action = _converter.structure(fields, cls)
    return structured


@functools.lru_cache(maxsize=256)
def _action_document(action: Action) -> tuple[tuple[str, Any], ...]:
    """An action's record form as pairs; built once per distinct action."""
    values = (ACTION_TAGS[type(action)], *attrs.astuple(action))
    return tuple(zip(_ACTION_FIELDS[type(action)], values, strict=True))


def _unstructure_action(action: Action) -> dict[str, Any]:
    return dict(_action_document(action))


def _structure_feature(value: object, _: type) -> Feature:
    return parse_feature(value)


def _components_field(value: object) -> str | dict[str, Any]:
    if isinstance(value, str):
        return value
    return _json_object(value)


def _json_object(value: object) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise TypeError(f"expected an object, got {_shown(value)}")
    return value


def _structure_house_set(value: object, _: type) -> frozenset[int]:
    if type(value) is list and len(value) > _MEAN_HOUSES:  # visits of houses that exist
        raise ValueError(f"at most {_MEAN_HOUSES} entries allowed, got {len(value)}")
    items: list[int] = _converter.structure(value, list[int])
    houses = frozenset(items)
    if len(houses) != len(items):
        twice = next(house for house in houses if items.count(house) > 1)
        raise ValueError(f"house {twice} is listed twice")
    return houses


def _bounded_object(kind: Any, count: int, what: str) -> Callable[[object, type], dict[Any, Any]]:
    """A structure hook for an object of at most ``count`` keys, checked before any key."""
    key_type, value_type = typing.get_args(kind)

    def structure(value: object, _: type) -> dict[Any, Any]:
        if not isinstance(value, dict):
            raise TypeError(f"expected an object of {what}, got {_shown(value)}")
        if len(value) > count:
            raise ValueError(f"at most {count} {what} allowed, got {len(value)} keys")
        structure_key = _converter.get_structure_hook(key_type)
        structure_value = _converter.get_structure_hook(value_type)
        return {
            structure_key(key, key_type): structure_value(item, value_type)
            for key, item in value.items()
        }

    return structure


_BOUNDED_OBJECTS: dict[Any, tuple[int, str]] = {
    dict[Treat, int]: (len(Treat), "treat counts"),
    dict[str, dict[str, Any]]: (MAX_VARIANTS, "variants' options"),
}
"""The objects of records keyed by data (not by field name), and their most keys."""


def _make_converter() -> cattrs.Converter:
    """The library's own converter, configured explicitly (never cattrs' global one)."""
    # One converter for the library: component files and records share its strict hooks.
    converter = _conversion.converter
    converter.register_structure_hook_func(lambda t: t == Action, _structure_action)
    converter.register_unstructure_hook_func(lambda t: t == Action, _unstructure_action)
    for cls in ACTION_TAGS:
        converter.register_unstructure_hook(cls, _unstructure_action)
    converter.register_structure_hook_func(lambda t: t == Feature, _structure_feature)
    converter.register_unstructure_hook_func(lambda t: t == Feature, feature_text)
    converter.register_structure_hook_func(lambda t: t == frozenset[int], _structure_house_set)
    for kind, (count, what) in _BOUNDED_OBJECTS.items():
        converter.register_structure_hook_func(
            functools.partial(operator.eq, kind), _bounded_object(kind, count, what)
        )
    converter.register_structure_hook_func(
        lambda t: t == str | dict[str, Any], lambda value, _: _components_field(value)
    )
    converter.register_structure_hook_func(
        lambda t: t == dict[str, Any], lambda value, _: _json_object(value)
    )
    for enum_type in (Colour, Theme, CostumeType):
        converter.register_unstructure_hook(enum_type, lambda member: member.value)
    # Provenance belongs to the component data, not to a game: records leave it out.
    for cls in (CostumeCard, NiceNeighbour, MeanNeighbour, TrickTile, StreetBonusToken):
        converter.register_unstructure_hook(
            cls,
            cattrs.gen.make_dict_unstructure_fn(
                cls, converter, provenance=cattrs.gen.override(omit=True)
            ),
        )
        from_dict = cattrs.gen.make_dict_structure_fn(
            cls,
            converter,
            _cattrs_forbid_extra_keys=True,
            provenance=cattrs.gen.override(omit=True),
        )
        converter.register_structure_hook(cls, _sized(from_dict, _COMPONENT_SIZES.get(cls, {})))
    # Views hold many cards, each written the same way every time: write each card once.
    card_to_dict = cattrs.gen.make_dict_unstructure_fn(
        CostumeCard, converter, provenance=cattrs.gen.override(omit=True)
    )
    # Keyed by identity (hashing a card hashes its enums, which costs more than writing it);
    # each entry keeps its card alive, so an id is never reused while it is in the table.
    documents: dict[int, tuple[CostumeCard, tuple[tuple[str, Any], ...]]] = {}

    def unstructure_card(card: CostumeCard) -> dict[str, Any]:
        entry = documents.get(id(card))
        if entry is None or entry[0] is not card:
            if len(documents) >= 4096:
                documents.clear()
            entry = documents[id(card)] = (card, tuple(card_to_dict(card).items()))
        return dict(entry[1])

    converter.register_unstructure_hook(CostumeCard, unstructure_card)
    converter.register_unstructure_hook(
        NiceNeighbour,
        cattrs.gen.make_dict_unstructure_fn(
            NiceNeighbour,
            converter,
            provenance=cattrs.gen.override(omit=True),
            wants=cattrs.gen.override(unstruct_hook=feature_text),
        ),
    )
    converter.register_unstructure_hook_func(lambda t: t == frozenset[int], sorted)
    # Score sheets carry their derived totals too, for clients that only display them.
    sheet_to_dict = cattrs.gen.make_dict_unstructure_fn(ScoreSheet, converter)
    sheet_from_dict = _sized(
        cattrs.gen.make_dict_structure_fn(ScoreSheet, converter, _cattrs_forbid_extra_keys=True),
        _SHEET_SIZES,
    )

    def unstructure_sheet(sheet: ScoreSheet) -> dict[str, Any]:
        return {**sheet_to_dict(sheet), "treats": sheet.treats, "total": sheet.total}

    def structure_sheet(value: object, kind: type) -> ScoreSheet:
        if not isinstance(value, dict):
            raise TypeError(f"expected a score sheet object, got {_shown(value)}")
        parts = {k: v for k, v in value.items() if k not in ("treats", "total")}
        sheet = sheet_from_dict(parts, kind)
        for name in ("treats", "total"):
            if name in value and value[name] != getattr(sheet, name):
                raise ValueError(
                    f"{name} is {value[name]}, but the parts add up to {getattr(sheet, name)}"
                )
        return sheet

    converter.register_unstructure_hook(ScoreSheet, unstructure_sheet)
    converter.register_structure_hook(ScoreSheet, structure_sheet)
    # Treat tracks by treat name, in player records as in game records.
    player_to_dict = cattrs.gen.make_dict_unstructure_fn(PublicPlayer, converter)
    player_from_dict = cattrs.gen.make_dict_structure_fn(
        PublicPlayer, converter, _cattrs_forbid_extra_keys=True
    )

    def unstructure_player(player: PublicPlayer) -> dict[str, Any]:
        return {
            **player_to_dict(player),
            "treats": {t.value: n for t, n in zip(Treat, player.treats, strict=True)},
        }

    def structure_player(value: object, kind: type) -> PublicPlayer:
        if not isinstance(value, dict):
            raise TypeError(f"expected a player object, got {_shown(value)}")
        _check_sizes(value, _PLAYER_SIZES)
        tracks = converter.structure(value.get("treats"), dict[Treat, int])
        if set(tracks) != set(Treat):
            raise ValueError("treats: expected one count per treat")
        return player_from_dict({**value, "treats": [tracks[t] for t in Treat]}, kind)

    converter.register_unstructure_hook(PublicPlayer, unstructure_player)
    converter.register_structure_hook(PublicPlayer, structure_player)
    view_from_dict = cattrs.gen.make_dict_structure_fn(
        PlayerView, converter, _cattrs_forbid_extra_keys=True
    )

    def structure_view(value: object, kind: type) -> PlayerView:
        if not isinstance(value, dict):
            raise TypeError(f"expected a view object, got {_shown(value)}")
        _check_sizes(value, _VIEW_SIZES)
        view: PlayerView = view_from_dict(value, kind)
        return view

    converter.register_structure_hook(PlayerView, structure_view)
    return converter


_VIEW_SIZES = {
    "variants": MAX_VARIANTS,
    "players": _PLAYERS,
    "secret_tiles": _PLAYERS,
    "unseen_tiles": _TILES,
    "grid": _GRID,
    "street_tokens": _STREETS,
    "street_flipped": _STREETS,
    "mean_houses": _MEAN_HOUSES,
    "pumpkin_on_house": _GRID,
    "pumpkin_on_mean_house": _MEAN_HOUSES,
    "market": _MARKET,
    "deck_cards": _CARDS,
    "discarded": _CARDS,
    "scores": _PLAYERS,
    "history": MAX_ACTIONS,
    "legal_actions": _LEGAL_ACTIONS,
}
"""The most entries of each array of a view, checked before any entry is read."""
_PLAYER_SIZES = {"kids": _KIDS, "visited": _GRID, "tricked": _MEAN_HOUSES}
_MAX_EXTRA_SCORES = 1000
"""The most lines of extra score (from variants' scorers) a player record's sheet may hold."""
_SHEET_SIZES = {"costumes": _KIDS, "trick_tiles": 1 + _MEAN_HOUSES, "extras": _MAX_EXTRA_SCORES}
_COMPONENT_SIZES: dict[type, dict[str, int]] = {
    NiceNeighbour: {"tiers": COMPONENT_LIMITS["tiers"][1]},
    TrickTile: {"treats": COMPONENT_LIMITS["tile_treats"][1]},
}


def _sized(
    structure: Callable[[Any, Any], _T], sizes: Mapping[str, int]
) -> Callable[[object, Any], _T]:
    """``structure``, the arrays named in ``sizes`` checked first (when given an object)."""
    if not sizes:
        return structure

    def checked(value: object, kind: Any) -> _T:
        if isinstance(value, dict):
            _check_sizes(value, sizes)
        return structure(value, kind)

    return checked


def _check_sizes(value: dict[str, Any], sizes: Mapping[str, int]) -> None:
    """Refuse an array of ``value`` longer than ``sizes`` allows, before reading any entry."""
    for name, count in sizes.items():
        items = value.get(name)
        if type(items) is list and len(items) > count:
            raise ValueError(f"{name}: at most {count} entries allowed, got {len(items)}")


_converter = _make_converter()


def _format_error(exc: BaseException, kind: type | None) -> str:
    if isinstance(exc, KeyError):
        return "required field missing"
    if isinstance(exc, cattrs.ForbiddenExtraKeysError):
        extra = sorted(exc.extra_fields, key=str)
        keys = ", ".join(_cut_text(str(key), 60) for key in extra[:3])
        more = f" and {len(extra) - 3} more" if len(extra) > 3 else ""
        return f"unknown key{'s' if len(extra) > 1 else ''} {keys}{more}"
    if isinstance(exc, TypeError | ValueError):
        return str(exc)
    return cattrs.v.format_exception(exc, kind)


def _structure(document: object, kind: type[_T], path: str) -> _T:
    try:
        result: _T = _converter.structure(document, kind)
    except (cattrs.BaseValidationError, TypeError, ValueError, KeyError) as exc:
        problems = cattrs.transform_error(exc, path=path, format_exception=_format_error)
        raise RecordError(_listed(problems or [f"{path}: {exc}"])) from None
    return result


def _listed(problems: list[str]) -> str:
    """The first problems and how many more: a million bad entries make a short message.

    Each problem is cut to ``_MAX_PROBLEM_CHARACTERS``: a path may name a key of a megabyte.
    """
    shown = "; ".join(_cut_text(problem) for problem in problems[:_MAX_PROBLEMS])
    if len(problems) > _MAX_PROBLEMS:
        shown += f"; and {len(problems) - _MAX_PROBLEMS} more problems"
    return shown


def _cut_text(text: str, limit: int = _MAX_PROBLEM_CHARACTERS) -> str:
    """``text`` cut to ``limit`` characters, saying how long it was."""
    return text if len(text) <= limit else f"{text[: limit - 25]}...({len(text):,} characters)"
