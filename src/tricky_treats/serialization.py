"""Game records: versioned JSON that saves a game at any point and loads it back identically.

A **game record** (``tt.dumps(game)``) holds the configuration and variants with their
versions, the seed, the rules in force, the setup it deals (so readers in other languages need
not re-implement the shuffle), the action log, a snapshot of the current state, and a SHA-256
digest of all of it, written as canonical JSON (keys sorted, no spaces): but for the digest,
the text is what the digest is taken over. ``tt.loads(text)`` checks the digest, deals the
game again from the seed and the installed variants, checks the deal, the rules and the
component data against the record, replays the log and compares the result with the
snapshot: a record whose parts disagree is refused, naming the part. (A record exactly as
``dumps`` writes it is checked by writing the replayed game's record again and comparing the
texts, which proves all of that at once.) ``tt.loads(text, verify=False)`` builds the state from
the snapshot without replaying, and still refuses a snapshot that breaks an invariant of the
game (cards not conserved, two cards of one type on a kid, more visits than footprints, ...).

The checks detect accidents and careless edits. They are no signature: anyone can recompute
the digest. A server that must trust records it gets back from clients signs them (see
``docs/records.md``).

A **player record** (``tt.dumps(game, player=i)``) holds only what player ``i`` may see
(R16): no seed, no deck order, no other player's secret tile. ``tt.loads_view(text)`` reads it
back as a ``PlayerView`` and refuses one the engine could not have produced.

Both formats are versioned independently of the package (``format_version``). A newer version
is refused; older versions are migrated step by step (see ``_MIGRATIONS``). JSON Schemas for
both ship in the package: ``record_schema()`` and ``view_schema()``. Records are strict JSON
(no NaN, no duplicate keys) of at most ``MAX_RECORD_BYTES``, nested at most 32 levels, with at
most ``MAX_ACTIONS`` actions.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.resources
import json
import operator
import typing
from collections.abc import Callable, Mapping
from typing import Annotated, Any, TypeVar

import attrs
import cattrs

from tricky_treats import _conversion
from tricky_treats._conversion import MaxItems
from tricky_treats._json import StrictJSONError, strict_dumps, strict_loads
from tricky_treats.actions import Action, Pass, RefreshMarket, TakeCard, TrickHouse, VisitHouse
from tricky_treats.components import (
    _FILES_ALLOWED,
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
    base_components,
    components_document,
    feature_text,
    parse_components,
    parse_feature,
)
from tricky_treats.dealing import MAX_VARIANTS, check_variant_options, start_game
from tricky_treats.errors import ConfigurationError, TrickyTreatsError, brief
from tricky_treats.model import (
    STREETS,
    ActionLog,
    EndTrigger,
    GameConfig,
    GameState,
    GridHouse,
    MeanHouse,
    Setup,
    VariantRef,
)
from tricky_treats.plugins import resolve, variant_registry
from tricky_treats.rules import apply as _apply
from tricky_treats.rules import build_player
from tricky_treats.scoring import ExtraScore, ScoreSheet, TileScore
from tricky_treats.views import PlayerView, PublicPlayer

__all__ = [
    "MAX_ACTIONS",
    "MAX_RECORD_BYTES",
    "RECORD_FORMAT",
    "RECORD_FORMAT_VERSION",
    "VIEW_FORMAT",
    "VIEW_FORMAT_VERSION",
    "RecordError",
    "dumps",
    "loads",
    "loads_view",
    "record_schema",
    "view_schema",
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


# -- writing -----------------------------------------------------------------------------------


def _package_version() -> str:
    from tricky_treats import __version__

    return f"tricky-treats {__version__}"


def _snapshot(state: GameState) -> _Snapshot:
    return _Snapshot(
        players=[
            _Player(
                name=p.name,
                kids=[[c.id for c in kid] for kid in p.kids],
                treats=dict(zip(Treat, p.treats, strict=True)),
                pumpkins=p.pumpkins,
                visited=sorted(p.visited),
                tricked=sorted(p.tricked),
                footprints=p.footprints,
            )
            for p in state.players
        ],
        market=[c.id if c is not None else None for c in state.market],
        deck_position=state.deck_position,
        discarded=[c.id for c in state.discarded],
        pumpkin_on_house=list(state.pumpkin_on_house),
        pumpkin_on_mean_house=list(state.pumpkin_on_mean_house),
        street_flipped=list(state.street_flipped),
        current_player=state.current_player,
        turn=state.turn,
        passes_in_a_row=state.passes_in_a_row,
        end_trigger=state.end_trigger,
    )


def _setup_record(state: GameState) -> _Setup:
    return _setup_of(state.setup)


def _setup_of(setup: Setup) -> _Setup:
    return _Setup(
        grid=[_GridHouse(h.neighbour.id, h.treat) for h in setup.grid],
        street_tokens=[t.treat for t in setup.street_tokens],
        mean_houses=[_MeanHouse(m.icon, m.tile.id) for m in setup.mean_houses],
        secret_tiles=[t.id for t in setup.secret_tiles],
        deck=[c.id for c in setup.deck],
        secret_tiles_face_up=setup.secret_tiles_face_up,
    )


def _digest(document: Mapping[str, Any]) -> str:
    """SHA-256 of the record's canonical JSON, its ``digest`` field left out."""
    content = {k: v for k, v in document.items() if k != "digest"}
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(canonical.encode()).hexdigest()


_MAX_INDENT = 8  # a record nests a few levels: more spaces only make it larger


def dumps(game: GameState, player: int | None = None, *, indent: int | None = None) -> str:
    """Save ``game`` as JSON text: a game record, or with ``player`` that player's record.

    The game may be new, in progress or over. A player record holds only what ``player`` may
    see (R16) and is what a server sends to that player's client. A state built by hand is
    saved as it is: ``loads(text, verify=False)`` reads it back, while the verified
    ``loads(text)`` refuses it unless its history leads from its deal to it. Raises
    ``RecordError`` for a state that breaks an invariant of the game, as ``loads`` would.
    ``indent`` (0 to 8 spaces) pretty-prints the JSON; None writes it compactly.
    """
    if indent is not None and (type(indent) is not int or not 0 <= indent <= _MAX_INDENT):
        raise ConfigurationError(
            f"indent must be None or 0 to {_MAX_INDENT} spaces, got {brief(indent)}"
        )
    if player is not None:
        view = game.view(player)
        if indent is None:
            return _view_text(game, view)
        return strict_dumps(_converter.unstructure(_view_record(game, view)), indent=indent)
    _check_invariants(game, "the state")
    if indent is None:
        return _record_text(game, _package_version())
    return strict_dumps(_record_document(game), indent=indent)


def _view_record(game: GameState, view: PlayerView) -> _ViewRecord:
    config = game.config
    return _ViewRecord(
        format=VIEW_FORMAT,
        format_version=VIEW_FORMAT_VERSION,
        written_by=_package_version(),
        components=game.setup.components.name,
        variants=list(config.variants),
        players=list(config.players),
        first_player=config.first_player,
        any_mean_house=config.any_mean_house,
        refresh_ends_turn=config.refresh_ends_turn,
        view=view,
    )


def _record_document(game: GameState) -> dict[str, Any]:
    """The game record of ``game`` as a JSON value, by the converter (the reference writer)."""
    config = game.config
    record = _Record(
        format=RECORD_FORMAT,
        format_version=RECORD_FORMAT_VERSION,
        written_by=_package_version(),
        components=_components_value(game.setup.components),
        custom_components=game.setup.custom_components,
        variants=list(config.variants),
        config=_Config(
            players=list(config.players),
            seed=config.seed,
            first_player=config.first_player,
            any_mean_house=config.any_mean_house,
            refresh_ends_turn=config.refresh_ends_turn,
            variant_options={k: dict(v) for k, v in config.variant_options.items()},
        ),
        rules=game.setup.rules,
        setup=_setup_record(game),
        actions=list(game.history),
        snapshot=_snapshot(game),
        digest=None,
    )
    document: dict[str, Any] = _converter.unstructure(record)
    document["digest"] = _digest(document)
    return document


# -- writing fast ------------------------------------------------------------------------------
# A game record is written in its canonical form (keys sorted, no spaces), the digest put in
# its place among the sorted keys: the text is the JSON the digest is taken over, but for the
# digest itself, so one encoding serves both. The JSON of each immutable part (an action, the
# rules, a box's component data, a game's setup) is worked out once per object and joined.
# Tests compare the result with the reference writer's, _record_document().

_WRITE = json.JSONEncoder(ensure_ascii=False, allow_nan=False, check_circular=False).encode
_CANONICAL = json.JSONEncoder(
    ensure_ascii=False, allow_nan=False, check_circular=False, sort_keys=True, separators=(",", ":")
).encode
_CACHE_SIZE = 4096
_GAMES_KEPT = 32
"""How many games' setups the tables of record parts keep alive (a server's active games)."""


def _canonical(value: object) -> str:
    """``value`` as canonical JSON: keys sorted, no spaces, UTF-8 (not escaped)."""
    try:
        return _CANONICAL(value)
    except (TypeError, ValueError, RecursionError) as exc:
        raise StrictJSONError(f"cannot be written as JSON: {exc}") from None


def _canonical_record(document: Mapping[str, Any]) -> str:
    """The text ``dumps`` writes for a record ``document`` (the reference, for tests)."""
    return _canonical(document)


def _by_identity(
    cache: dict[int, tuple[Any, _T]], item: Any, make: Callable[[Any], _T], size: int = _CACHE_SIZE
) -> _T:
    """``make(item)``, kept for ``item`` (immutable) by identity; the entry keeps it alive.

    The table is emptied when it holds ``size`` entries.
    """
    entry = cache.get(id(item))
    if entry is None or entry[0] is not item:
        if len(cache) >= size:
            cache.clear()
        entry = cache[id(item)] = (item, make(item))
    return entry[1]


_ACTION_TEXTS: dict[int, tuple[Action, str]] = {}


def _actions_text(actions: tuple[Action, ...]) -> str:
    """The log as canonical JSON."""
    cache = _ACTION_TEXTS
    texts = []
    for action in actions:
        entry = cache.get(id(action))
        if entry is None or entry[0] is not action:
            texts.append(_by_identity(cache, action, _action_text))
        else:
            texts.append(entry[1])
    return f"[{','.join(texts)}]"


def _action_text(action: Action) -> str:
    return _canonical(_unstructure_action(action))


_LOG_TEXTS: dict[int, tuple[ActionLog, str]] = {}


def _log_text(log: ActionLog) -> str:
    """``_actions_text`` of the log's actions, extending the text of a recent earlier log.

    A server that saves a game after every move writes the new actions only.
    """
    cache = _LOG_TEXTS
    newest: list[Action] = []
    node = log
    earlier = "[]"
    while node is not None:
        entry = cache.get(id(node))
        if entry is not None and entry[0] is node:  # the entry keeps its node alive
            earlier = entry[1]
            break
        newest.append(node[0])
        node = node[1]
    if not newest:
        return earlier
    newest.reverse()
    added = _actions_text(tuple(newest))
    text = added if earlier == "[]" else f"{earlier[:-1]},{added[1:]}"
    if len(cache) >= 4 * _GAMES_KEPT:
        cache.clear()
    cache[id(log)] = (log, text)
    return text


_SETUP_TEXTS: dict[int, tuple[Setup, tuple[str, str, str, str]]] = {}


def _setup_texts(setup: Setup) -> tuple[str, str, str, str]:
    """The parts of a record that the game's setup decides (immutable, as the setup is).

    The component data; what follows the config (up to the digest); what follows the digest
    (up to the snapshot); the variants, which follow the snapshot.
    """
    components = _by_identity(_PART_TEXTS, setup.components, _components_text)
    rules = _by_identity(_PART_TEXTS, setup.rules, _canonical_of(RulesData))
    variants = _by_identity(_PART_TEXTS, setup.config.variants, _canonical_of(list[VariantRef]))
    return (
        components,
        f',"custom_components":{_canonical(setup.custom_components)}',
        f',"format":{_canonical(RECORD_FORMAT)},"format_version":{RECORD_FORMAT_VERSION}'
        f',"rules":{rules},"setup":{_setup_text(setup)}',
        f',"variants":{variants}',
    )


_PART_TEXTS: dict[int, tuple[Any, str]] = {}


def _canonical_of(kind: Any) -> Callable[[Any], str]:
    return lambda value: _canonical(_converter.unstructure(value, kind))


def _components_text(data: ComponentData) -> str:
    return _canonical(_converter.unstructure(_components_value(data), str | dict[str, Any]))


def _setup_text(setup: Setup) -> str:
    """``_canonical(_converter.unstructure(_setup_of(setup)))``, from the texts of its parts."""
    texts = _by_identity(_BOX_TEXTS, setup.components, _box_texts, _GAMES_KEPT)
    try:
        grid = ",".join(
            [
                f'{{"neighbour":{texts[id(h.neighbour)]},"treat":{texts[id(h.treat)]}}}'
                for h in setup.grid
            ]
        )
        means = ",".join(
            [
                f'{{"icon":{texts[id(m.icon)]},"tile":{texts[id(m.tile)]}}}'
                for m in setup.mean_houses
            ]
        )
        tokens = ",".join([texts[id(t.treat)] for t in setup.street_tokens])
        tiles = ",".join([texts[id(t)] for t in setup.secret_tiles])
        deck = ",".join([texts[id(c)] for c in setup.deck])
    except KeyError:  # parts that are not the box's: write them the general way
        return _canonical(_converter.unstructure(_setup_of(setup)))
    face_up = _canonical(setup.secret_tiles_face_up)
    return (
        f'{{"deck":[{deck}],"grid":[{grid}],"mean_houses":[{means}],"secret_tiles":[{tiles}]'
        f',"secret_tiles_face_up":{face_up},"street_tokens":[{tokens}]}}'
    )


_BOX_TEXTS: dict[int, tuple[ComponentData, dict[int, str]]] = {}


def _box_texts(data: ComponentData) -> dict[int, str]:
    """By identity, how a setup record names each part of ``data`` and each treat and icon.

    Cards by their id, neighbours and tiles by their name. The table is kept with ``data``,
    which keeps the parts alive, so that an identity found in it is that part's.
    """
    texts = {id(member): _canonical(member.value) for member in (*Treat, *TrickIcon)}
    texts.update((id(card), _canonical(card.id)) for card in data.cards)
    texts.update((id(n), _canonical(n.id)) for n in data.nice_neighbours)
    texts.update((id(t), _canonical(t.id)) for t in data.trick_tiles)
    return texts


def _record_text(game: GameState, written_by: str, actions: str | None = None) -> str:
    """The record ``dumps`` writes of ``game`` (without its invariant checks), by pieces.

    ``actions`` is the log's text where the caller has it already.
    """
    setup = game.setup
    config = setup.config
    components, custom, middle, variants = _by_identity(
        _SETUP_TEXTS, setup, _setup_texts, _GAMES_KEPT
    )
    options = config.variant_options
    config_text = _canonical(
        {
            "players": list(config.players),
            "seed": config.seed,
            "first_player": config.first_player,
            "any_mean_house": config.any_mean_house,
            "refresh_ends_turn": config.refresh_ends_turn,
            "variant_options": {k: dict(v) for k, v in options.items()} if options else {},
        }
    )
    if actions is None:
        actions = _log_text(game.log)
    head = f'{{"actions":{actions},"components":{components},"config":{config_text}{custom}'
    tail = (
        f'{middle},"snapshot":{_canonical(_snapshot_value(game))}'
        f'{variants},"written_by":{_canonical(written_by)}}}'
    )
    digest = hashlib.sha256(f"{head}{tail}".encode()).hexdigest()
    return f'{head},"digest":"sha256:{digest}"{tail}'


_ITEM_TEXTS: dict[int, tuple[Any, str]] = {}
_TUPLE_TEXTS: dict[int, tuple[Any, str]] = {}
_VIEW_HEADS: dict[int, tuple[Setup, str]] = {}
_FIELD_TEXTS: dict[int, tuple[Setup, tuple[dict[int, tuple[Any, str]], ...]]] = {}
_FIELD_TEXTS_KEPT = 16
"""Per game and field of a view, how many values' texts are kept (a few states' worth)."""


def _view_text(game: GameState, view: PlayerView) -> str:
    """``strict_dumps(_converter.unstructure(_view_record(game, view)))``, from pieces.

    A field's text is kept per game by the identity of its (immutable) value: the views of
    one state share most of their values, and consecutive states share what a move did not
    change, so a server writing every seat's record after every move writes each once.
    """
    setup = game.setup
    head = _by_identity(_VIEW_HEADS, setup, lambda _: _view_head(game, view), _GAMES_KEPT)
    kept = _by_identity(_FIELD_TEXTS, setup, _new_field_texts, _GAMES_KEPT)
    parts = []
    for (key, get, write, immutable), texts in zip(_VIEW_WRITERS, kept, strict=True):
        value = get(view)
        if immutable is None or type(value) not in immutable:
            parts.append(f"{key}{write(value)}")
            continue
        entry = texts.get(id(value))
        if entry is None or entry[0] is not value:  # the entry keeps its value alive
            if len(texts) >= _FIELD_TEXTS_KEPT:
                texts.clear()
            entry = texts[id(value)] = (value, write(value))
        parts.append(f"{key}{entry[1]}")
    return f"{head}{{{', '.join(parts)}}}}}"


def _new_field_texts(_: Setup) -> tuple[dict[int, tuple[Any, str]], ...]:
    return tuple({} for _ in _VIEW_WRITERS)


def _view_head(game: GameState, view: PlayerView) -> str:
    """The player record's text up to its view, the same for every view of one game."""
    record = _view_record(game, view)
    hints = typing.get_type_hints(_ViewRecord)
    names = [f.name for f in attrs.fields(_ViewRecord)]
    assert names[-1] == "view"
    head = {name: _converter.unstructure(getattr(record, name), hints[name]) for name in names[:-1]}
    return f'{strict_dumps(head)[:-1]}, "view": '


def _items_text(items: tuple[Any, ...]) -> str:
    """An array of immutable objects (or None), each written once per object."""
    cache = _ITEM_TEXTS
    texts = []
    for item in items:
        entry = cache.get(id(item))
        if entry is None or entry[0] is not item:
            texts.append(_by_identity(cache, item, _item_text))
        else:
            texts.append(entry[1])
    return f"[{', '.join(texts)}]"


def _item_text(item: object) -> str:
    fast = _FAST_ITEM_WRITERS.get(type(item))
    text = None if fast is None else fast(item)
    return strict_dumps(_converter.unstructure(item)) if text is None else text


# The items a view writes anew after most moves (a changed board, its score sheets), written
# from the kept texts of their parts in the converter's layout. Each gives None for anything
# but the plain values play makes (a state built by hand): the converter writes those.


def _public_player_text(player: PublicPlayer) -> str | None:
    name, kids, treats = player.name, player.kids, player.treats
    pumpkins, footprints = player.pumpkins, player.footprints
    visited, tricked = player.visited, player.tricked
    if (
        type(name) is not str
        or type(kids) is not tuple
        or type(treats) is not tuple
        or len(treats) != len(_TREAT_KEYS)
        or type(pumpkins) is not int
        or type(footprints) is not int
        or type(visited) is not frozenset
        or type(tricked) is not frozenset
        or not _all_ints((*treats, *visited, *tricked))
    ):
        return None
    kid_texts = []
    for kid in kids:
        text = _by_identity(_KID_TEXTS, kid, _kid_text)
        if text is None:
            return None
        kid_texts.append(text)
    tracks = ", ".join([f"{key}: {count}" for key, count in zip(_TREAT_KEYS, treats, strict=True)])
    return (
        f'{{"name": {_WRITE(name)}, "kids": [{", ".join(kid_texts)}], "treats": {{{tracks}}}'
        f', "pumpkins": {pumpkins}, "visited": {_houses_text(visited)}'
        f', "tricked": {_houses_text(tricked)}, "footprints": {footprints}}}'
    )


_KID_TEXTS: dict[int, tuple[Any, str | None]] = {}
_TREAT_KEYS = tuple(_WRITE(t.value) for t in Treat)


def _kid_text(kid: object) -> str | None:
    """One kid's cards, or None if they are not a tuple of cards."""
    if type(kid) is not tuple or any(type(card) is not CostumeCard for card in kid):
        return None
    return _items_text(kid)


def _all_ints(values: tuple[object, ...]) -> bool:
    return all(type(value) is int for value in values)


def _houses_text(houses: frozenset[int]) -> str:
    return f"[{', '.join(map(str, sorted(houses)))}]"


def _sheet_text(sheet: ScoreSheet) -> str | None:
    costumes, tiles, extras = sheet.costumes, sheet.trick_tiles, sheet.extras
    if (
        type(costumes) is not tuple
        or type(tiles) is not tuple
        or type(extras) is not tuple
        or any(type(tile) is not TileScore for tile in tiles)
        or any(type(extra) is not ExtraScore for extra in extras)
    ):
        return None
    player, pumpkins = sheet.player, sheet.pumpkins
    treats, total = sheet.treats, sheet.total
    if not _all_ints((player, pumpkins, treats, total, *costumes)):
        return None
    tile_texts = []
    for score in tiles:
        tile, house, sets, points = score.tile, score.mean_house, score.sets, score.points
        if (
            type(tile) is not TrickTile
            or not (house is None or type(house) is int)
            or type(sets) is not int
            or type(points) is not int
        ):
            return None
        tile_texts.append(
            f'{{"tile": {_by_identity(_ITEM_TEXTS, tile, _item_text)}'
            f', "mean_house": {"null" if house is None else house}'
            f', "sets": {sets}, "points": {points}}}'
        )
    return (
        f'{{"player": {player}, "pumpkins": {pumpkins}'
        f', "costumes": [{", ".join(map(str, costumes))}], "trick_tiles": [{", ".join(tile_texts)}]'
        f', "extras": {_items_text(extras)}, "treats": {treats}, "total": {total}}}'
    )


_FAST_ITEM_WRITERS: dict[type, Callable[[Any], str | None]] = {
    PublicPlayer: _public_player_text,
    ScoreSheet: _sheet_text,
}


_ACTIONS_WRITTEN: dict[int, tuple[Action, str]] = {}


def _view_actions_text(actions: tuple[Action, ...]) -> str:
    cache = _ACTIONS_WRITTEN
    texts = []
    for action in actions:
        entry = cache.get(id(action))
        if entry is None or entry[0] is not action:
            texts.append(_by_identity(cache, action, _item_text))
        else:
            texts.append(entry[1])
    return f"[{', '.join(texts)}]"


def _int_text(value: object) -> str:
    return str(value) if type(value) is int else strict_dumps(value)


def _seat_text(value: object) -> str:
    return "null" if value is None else _int_text(value)


def _options_text(value: object) -> str:
    if type(value) is dict and not value:  # the base game's: no variant options
        return "{}"
    return strict_dumps(_converter.unstructure(value, dict[str, dict[str, Any]]))


_ViewWriter = tuple[str, Callable[[PlayerView], Any], Callable[[Any], str], frozenset[type] | None]


def _view_writers() -> list[_ViewWriter]:
    """Per field of a view: its key, how to get it, how to write it, and its kept types.

    Fields of the types below take the fast writers; any other field (or one whose type
    changes) is written by the converter, as the reference writer does. A value of a kept
    type is immutable: ``_view_text`` keeps its text by its identity.
    """
    fast: dict[Any, Callable[[Any], str]] = {
        int: _int_text,
        int | None: _seat_text,
        dict[str, dict[str, Any]]: _options_text,
        RulesData: functools.partial(_by_identity, _TUPLE_TEXTS, make=_item_text),
        tuple[Action, ...]: _view_actions_text,
    }
    for kind in (
        tuple[CostumeCard, ...],
        tuple[CostumeCard | None, ...],
        tuple[TrickTile, ...],
        tuple[TrickTile | None, ...],
        tuple[PublicPlayer, ...],
        tuple[ScoreSheet, ...],
    ):
        fast[kind] = _items_text
    writers: list[_ViewWriter] = []
    for name, kind in typing.get_type_hints(PlayerView).items():
        write = fast.get(kind)
        if write is None:
            if kind in (tuple[GridHouse, ...], tuple[StreetBonusToken, ...], tuple[MeanHouse, ...]):
                # Parts of the setup, the same tuple in every view of a game.
                write = functools.partial(_by_identity, _TUPLE_TEXTS, make=_writer(kind))
            else:
                write = _writer(kind)
        immutable: frozenset[type] | None = None
        if typing.get_origin(kind) is tuple:
            immutable = frozenset({tuple})
        elif kind == EndTrigger | None:
            immutable = frozenset({EndTrigger, type(None)})
        writers.append((f'"{name}": ', operator.attrgetter(name), write, immutable))
    return writers


def _writer(kind: Any) -> Callable[[Any], str]:
    return lambda value: strict_dumps(_converter.unstructure(value, kind))


_VIEW_WRITERS = _view_writers()
_TREAT_NAMES = tuple(t.value for t in Treat)


def _snapshot_value(state: GameState) -> dict[str, Any]:
    """``_converter.unstructure(_snapshot(state))``, built directly."""
    trigger = state.end_trigger
    return {
        "players": [
            {
                "name": p.name,
                "kids": [[c.id for c in kid] for kid in p.kids],
                "treats": dict(zip(_TREAT_NAMES, p.treats, strict=True)),
                "pumpkins": p.pumpkins,
                "visited": sorted(p.visited),
                "tricked": sorted(p.tricked),
                "footprints": p.footprints,
            }
            for p in state.players
        ],
        "market": [c.id if c is not None else None for c in state.market],
        "deck_position": state.deck_position,
        "discarded": [c.id for c in state.discarded],
        "pumpkin_on_house": list(state.pumpkin_on_house),
        "pumpkin_on_mean_house": list(state.pumpkin_on_mean_house),
        "street_flipped": list(state.street_flipped),
        "current_player": state.current_player,
        "turn": state.turn,
        "passes_in_a_row": state.passes_in_a_row,
        "end_trigger": None
        if trigger is None
        else {"player": trigger.player, "reason": trigger.reason.value, "turn": trigger.turn},
    }


def _components_value(data: ComponentData) -> str | dict[str, Any]:
    """The base game's data by name; any other data whole, so the record loads anywhere."""
    return data.name if data == base_components() else components_document(data)


# -- invariants ----------------------------------------------------------------------------------


def _check_invariants(state: GameState, where: str) -> None:
    """Refuse a state that no sequence of legal actions can reach, naming the broken rule.

    ``build_player`` has already checked each board on its own (two cards of a type on a
    kid, more visits than footprints); these are the checks across the whole state.
    """
    setup = state.setup
    players = state.players
    n = len(players)
    problems: list[str] = []
    revealed = [c.id for c in setup.deck[: state.deck_position]]
    held = [c.id for p in players for kid in p.kids for c in kid]
    held += [c.id for c in state.market if c is not None] + [c.id for c in state.discarded]
    if len(held) != len(revealed) or sorted(held) != sorted(revealed):
        problems.append(
            "cards are not conserved: the kids, the market and the discards must hold exactly "
            f"the {len(revealed)} cards revealed from the deck, and hold {len(held)}"
        )
    if any(c is None for c in state.market) and state.deck_position < len(setup.deck):
        problems.append("a market slot is empty while the deck still has cards (R9)")
    lookup = setup.lookup
    for seat, p in enumerate(players):
        unreached = [h for h in sorted(p.visited) if not p.qualified >> h & 1]
        if unreached:
            problems.append(
                f"player {seat} visited nice house {unreached[0]}, which their cards do not "
                "reach (R5)"
            )
        dealt = setup.secret_tiles[seat]
        if p.secret_tile is not dealt and p.secret_tile != dealt:
            problems.append(f"player {seat}'s secret tile is not the one dealt")
    del lookup
    taken = sum(p.pumpkins for p in players)
    left = state.pumpkin_on_house.count(False) + state.pumpkin_on_mean_house.count(False)
    if taken != left:
        problems.append(f"the players hold {taken} pumpkins, but {left} were taken (R6)")
    if not all(state.pumpkin_on_house):
        visited = frozenset().union(*(p.visited for p in players))
        for house, there in enumerate(state.pumpkin_on_house):
            if not there and house not in visited:
                problems.append(f"the pumpkin of nice house {house} is gone, yet nobody visited it")
    if not all(state.pumpkin_on_mean_house):
        tricked = frozenset().union(*(p.tricked for p in players))
        for house, there in enumerate(state.pumpkin_on_mean_house):
            if not there and house not in tricked:
                problems.append(f"the pumpkin of mean house {house} is gone, yet nobody tricked it")
    for street, flipped in enumerate(state.street_flipped):
        if flipped:
            houses = STREETS[street] if street < len(STREETS) else ()
            if not any(set(houses) <= p.visited for p in players):
                problems.append(f"street {street}'s token is flipped, yet nobody completed it (R7)")
    first = setup.config.first_player
    if state.turn < 0 or state.passes_in_a_row < 0:
        problems.append("turn and passes_in_a_row must not be negative")
    if state.passes_in_a_row > state.turn:
        problems.append(f"{state.passes_in_a_row} passes in a row in {state.turn} turns")
    trigger = state.end_trigger
    if state.current_player is None:
        if trigger is None:
            problems.append("the game is over, but nothing triggered its end (R10)")
        elif state.turn % n or state.turn == 0:  # every player had as many turns (R10)
            problems.append("the game is over before the round was finished (R10)")
    elif state.current_player != (first + state.turn) % n:
        problems.append(
            f"player {state.current_player} is to act in turn {state.turn}, but the seat whose "
            f"turn it is is {(first + state.turn) % n}"
        )
    if trigger is not None and not 0 <= trigger.turn <= state.turn:
        problems.append(f"the end was triggered in turn {trigger.turn}, after turn {state.turn}")
    if trigger is None and (
        state.deck_position >= len(setup.deck)
        or any(p.footprints == 0 for p in players)
        or any(not any(p.free_kids) for p in players)
    ):
        problems.append("the end must have been triggered (R10), but the state records no trigger")
    if problems:
        raise RecordError(f"{where} is not one the rules can reach: {_listed(problems)}")


# -- reading -----------------------------------------------------------------------------------


def _from_version_1(document: dict[str, Any]) -> dict[str, Any]:
    """Version 1 kept a digest per action and no rules, face-up flag or record digest.

    A version-1 record is read as a version-2 one of a game not given its own component
    data (``custom_components`` false): its component data must be what its variants make
    of the base game's, as for any such record; version 1 did not say otherwise. The rules
    and the face-up flag stay empty (None): the verified load takes them from the deal, which
    it checks against the record. A field that version 1 did not have is refused.
    """
    setup = document.get("setup")
    added = [
        path
        for path, there in (
            ("$.custom_components", "custom_components" in document),
            ("$.rules", "rules" in document),
            ("$.digest", "digest" in document),
            (
                "$.setup.secret_tiles_face_up",
                isinstance(setup, dict) and "secret_tiles_face_up" in setup,
            ),
        )
        if there
    ]
    if added:
        raise RecordError(
            f"{added[0]}: not a field of version 1 records; a record that has it is of "
            "version 2 (set format_version to 2)"
        )
    document.pop("checks", None)
    document["custom_components"] = False
    document["rules"] = None
    document["digest"] = None
    if isinstance(setup, dict):
        setup["secret_tiles_face_up"] = None
    return document


def _view_from_version_1(document: dict[str, Any]) -> dict[str, Any]:
    """Version 1 of the player record wrote treat tracks as a list; version 2 by treat name."""
    view = document.get("view")
    players = view.get("players") if isinstance(view, dict) else None
    for player in players if isinstance(players, list) else ():
        tracks = player.get("treats") if isinstance(player, dict) else None
        if isinstance(tracks, list) and len(tracks) == len(Treat):
            player["treats"] = {t.value: n for t, n in zip(Treat, tracks, strict=True)}
    return document


_Migration = Callable[[dict[str, Any]], dict[str, Any]]
_MIGRATIONS: dict[str, dict[int, _Migration]] = {
    RECORD_FORMAT: {1: _from_version_1},
    VIEW_FORMAT: {1: _view_from_version_1},
}
"""Per format, the function that turns a version-``v`` document into a version-``v + 1`` one.

When a format changes, bump its version and add the step from the previous one here; old
golden files in ``tests/golden`` must still load.
"""
_CURRENT = {RECORD_FORMAT: RECORD_FORMAT_VERSION, VIEW_FORMAT: VIEW_FORMAT_VERSION}


def _parse(text: str | bytes, expected: str) -> tuple[dict[str, Any], int]:
    """Parse a record of format ``expected``; return it migrated, and its written version."""
    try:
        document = strict_loads(text, max_bytes=MAX_RECORD_BYTES)
    except StrictJSONError as exc:
        raise RecordError(str(exc)) from None
    if not isinstance(document, dict):
        raise RecordError(f"$: expected a JSON object, got {_shown(document)}")
    kind = document.get("format")
    if kind != expected:
        readers = {RECORD_FORMAT: "loads", VIEW_FORMAT: "loads_view"}
        other = readers.get(kind) if isinstance(kind, str) else None
        hint = f" (read it with tt.{other})" if other else ""
        raise RecordError(f"$.format: expected {expected!r}, got {_shown(kind)}{hint}")
    version = document.get("format_version")
    current = _CURRENT[expected]
    if type(version) is not int or version < 1:
        raise RecordError(f"$.format_version: expected a whole number >= 1, got {_shown(version)}")
    if version > current:
        raise RecordError(
            f"$.format_version: this record is version {version} of {expected!r}, but this "
            f"version of tricky-treats reads versions up to {current}; upgrade tricky-treats"
        )
    written = version
    migrations = _MIGRATIONS[expected]
    while version < current:
        document = migrations[version](document)
        version += 1
        document["format_version"] = version
    return document, written


def _components(value: str | dict[str, Any]) -> ComponentData:
    base = base_components()
    if isinstance(value, dict):
        try:
            return parse_components(value, "$.components")
        except TrickyTreatsError as exc:
            raise RecordError(str(exc)) from None
    if value != base.name:
        raise RecordError(
            f"$.components: the record was played with component data {brief(value)}, which is "
            "not available here"
        )
    return base


def _game_config(config: _Config, variants: list[VariantRef]) -> GameConfig:
    registry = variant_registry()
    for index, ref in enumerate(variants):
        where = f"$.variants[{index}]"
        if ref.name not in registry.names:
            raise RecordError(
                f"{where}: the game was played with variant {brief(ref.name)} "
                f"(version {brief(ref.version)}), which is not installed here"
            )
        try:
            installed = registry.get(ref.name).version
        except TrickyTreatsError as exc:
            raise RecordError(f"{where}: {exc}") from None
        if installed != ref.version:
            raise RecordError(
                f"{where}: the game was played with version {brief(ref.version)} of variant "
                f"{ref.name!r}, but version {installed!r} is installed here; install that "
                "version to load it"
            )
    return GameConfig(
        players=tuple(config.players),
        seed=config.seed,
        first_player=config.first_player,
        any_mean_house=config.any_mean_house,
        refresh_ends_turn=config.refresh_ends_turn,
        variants=tuple(variants),
        variant_options=_options(config.variant_options, variants, "$.config.variant_options"),
    )


def _options(
    options: dict[str, dict[str, Any]], variants: list[VariantRef], path: str
) -> dict[str, dict[str, Any]]:
    """The record's variant options, checked as ``new_game`` checks them."""
    try:
        return check_variant_options(options, [ref.name for ref in variants])
    except TrickyTreatsError as exc:
        raise RecordError(f"{path}: {exc}") from None


def _deal(record: _Record, verify: bool) -> GameState:
    """The game's first state, dealt again from its seed, checked against the record."""
    config = _game_config(record.config, record.variants)
    components = _components(record.components)
    # Re-create the component data from the base box and the variants where the game did
    # so, and check the record's copy against it. A game given its own data, or whose
    # variants cannot re-create them here (card-data without its file), uses the copy.
    custom = bool(record.custom_components)
    dealt = None
    if verify and not custom:
        try:
            dealt = start_game(config)
        except TrickyTreatsError:
            dealt = None
        if dealt is not None and dealt.setup.components != components:
            raise RecordError(
                "$.components: the component data in the record are not what its variants make "
                "of the base game's"
            )
    if dealt is None:
        try:
            dealt = start_game(config, components, custom_components=custom)
        except TrickyTreatsError as exc:
            raise RecordError(f"$.config: cannot deal this game here: {exc}") from None
    if record.rules is not None and record.rules != dealt.setup.rules:
        raise RecordError("$.rules: the rules in the record are not those its variants give")
    expected = _setup_record(dealt)
    if record.setup.secret_tiles_face_up is None:  # version 1
        expected = attrs.evolve(expected, secret_tiles_face_up=None)
    if expected != record.setup:
        field = next(
            f.name
            for f in attrs.fields(_Setup)
            if getattr(expected, f.name) != getattr(record.setup, f.name)
        )
        raise RecordError(
            f"$.setup.{field}: the setup in the record is not the one its seed deals with these "
            "components and variants"
        )
    return dealt


def _card(components: ComponentData, card_id: int, path: str) -> CostumeCard:
    if not 0 <= card_id < len(components.cards):
        raise RecordError(f"{path}: no card {card_id} (ids are 0 to {len(components.cards) - 1})")
    return components.cards[card_id]


def _from_snapshot(dealt: GameState, record: _Record) -> GameState:
    snapshot = record.snapshot
    setup = dealt.setup
    components = setup.components
    path = "$.snapshot"
    if len(snapshot.players) != len(dealt.players):
        raise RecordError(f"{path}.players: expected {len(dealt.players)} players")
    players = []
    for seat, (p, old) in enumerate(zip(snapshot.players, dealt.players, strict=True)):
        where = f"{path}.players[{seat}]"
        if set(p.treats) != set(Treat):
            raise RecordError(f"{where}.treats: expected one count per treat")
        try:
            player = build_player(
                setup,
                name=p.name,
                secret_tile=old.secret_tile,
                kids=[
                    [_card(components, c, f"{where}.kids[{k}]") for c in kid]
                    for k, kid in enumerate(p.kids)
                ],
                treats=[p.treats[t] for t in Treat],
                pumpkins=p.pumpkins,
                visited=p.visited,
                tricked=p.tricked,
            )
        except TrickyTreatsError as exc:
            raise RecordError(f"{where}: {exc}") from None
        if player.footprints != p.footprints:
            raise RecordError(
                f"{where}.footprints: {p.footprints}, but the visits leave {player.footprints}"
            )
        players.append(player)
    sizes: dict[str, tuple[list[Any], int]] = {
        "market": (snapshot.market, len(dealt.market)),
        "pumpkin_on_house": (snapshot.pumpkin_on_house, len(dealt.pumpkin_on_house)),
        "pumpkin_on_mean_house": (snapshot.pumpkin_on_mean_house, len(dealt.pumpkin_on_mean_house)),
        "street_flipped": (snapshot.street_flipped, len(dealt.street_flipped)),
    }
    for name, (values, size) in sizes.items():
        if len(values) != size:
            raise RecordError(f"{path}.{name}: expected {size} entries, got {len(values)}")
    if not 0 <= snapshot.deck_position <= len(setup.deck):
        raise RecordError(f"{path}.deck_position: must be from 0 to {len(setup.deck)}")
    seats = range(len(players))
    if snapshot.current_player is not None and snapshot.current_player not in seats:
        raise RecordError(f"{path}.current_player: no seat {snapshot.current_player}")
    trigger = snapshot.end_trigger
    if trigger is not None and trigger.player not in seats:
        raise RecordError(f"{path}.end_trigger.player: no seat {trigger.player}")
    log: ActionLog = None
    for action in record.actions:
        log = (action, log)
    return GameState(
        setup=setup,
        players=tuple(players),
        market=tuple(
            None if c is None else _card(components, c, f"{path}.market[{i}]")
            for i, c in enumerate(snapshot.market)
        ),
        deck_position=snapshot.deck_position,
        discarded=tuple(
            _card(components, c, f"{path}.discarded[{i}]") for i, c in enumerate(snapshot.discarded)
        ),
        pumpkin_on_house=tuple(snapshot.pumpkin_on_house),
        pumpkin_on_mean_house=tuple(snapshot.pumpkin_on_mean_house),
        street_flipped=tuple(snapshot.street_flipped),
        current_player=snapshot.current_player,
        turn=snapshot.turn,
        passes_in_a_row=snapshot.passes_in_a_row,
        end_trigger=trigger,
        log=log,
    )


def _replay(record: _Record, start: GameState) -> GameState:
    """Replay the record's log from the dealt game."""
    state = start
    for index, action in enumerate(record.actions):
        try:
            state = state.apply(action)
        except TrickyTreatsError as exc:
            raise RecordError(f"$.actions[{index}] ({action}): {exc}") from None
    return state


def _check_digest(document: dict[str, Any], written: int) -> None:
    stated = document.get("digest")
    if stated is None and written == 1:
        return  # version 1 had no record digest
    if stated != _digest(document):
        raise RecordError(
            "$.digest: the record was changed after it was written (its digest does not match "
            "its content); it may be truncated, corrupted or edited by hand"
        )


def _check_complete(record: _Record, written: int) -> None:
    if written >= 2:  # the fields version 1 lacked are required from version 2 on
        for path, value in (
            ("$.custom_components", record.custom_components),
            ("$.rules", record.rules),
            ("$.setup.secret_tiles_face_up", record.setup.secret_tiles_face_up),
        ):
            if value is None:
                raise RecordError(f"{path}: required field missing")


def loads(text: str | bytes, *, verify: bool = True, read_files: bool = False) -> GameState:
    """Load a game saved by ``dumps()``; the game plays on exactly like the original.

    With ``verify`` (the default) the game is dealt again from its seed with the installed
    variants (which must have the versions the record names), the component data, rules and
    setup are checked against the record, the log is replayed, and the result is compared
    with the snapshot. With ``verify=False`` the state is built from the snapshot and the
    record's component data alone, and checked only for the game's invariants. Either way
    the record's digest is checked first. Raises ``RecordError`` for anything malformed or
    inconsistent, naming the JSON path or the action at fault.

    A record never makes ``loads`` open or look at a file: a variant that reads a file
    named in its options (``card-data``) is dealt from the record's copy of the component
    data. With ``read_files=True`` (for records you trust) such files are read, and the
    record's copy is checked against them.
    """
    allowed = _FILES_ALLOWED.set(bool(read_files))
    try:
        if verify:
            game = _load_exact(text)
            if game is not None:
                return game
        return _load_checked(text, verify=verify)
    finally:
        _FILES_ALLOWED.reset(allowed)


def _load_checked(text: str | bytes, *, verify: bool) -> GameState:
    """``loads`` of any record: each check in turn, the first failing one named."""
    document, written = _parse(text, RECORD_FORMAT)
    _check_digest(document, written)
    actions = document.get("actions")
    if isinstance(actions, list) and len(actions) > MAX_ACTIONS:
        raise RecordError(
            f"$.actions: {len(actions):,} actions, more than the {MAX_ACTIONS:,} a record may hold"
        )
    record = _structure(document, _Record, "$")
    _check_complete(record, written)
    dealt = _deal(record, verify)
    snapshot_state = _from_snapshot(dealt, record)
    _check_invariants(snapshot_state, "$.snapshot")
    if not verify:
        return snapshot_state
    replayed = _replay(record, dealt)
    if replayed != snapshot_state:
        field = next(
            f.name
            for f in attrs.fields(GameState)
            if f.eq and getattr(replayed, f.name) != getattr(snapshot_state, f.name)
        )
        last = len(record.actions) - 1
        raise RecordError(
            f"$.snapshot.{field}: the snapshot disagrees with the state the log gives after "
            f"its last action ($.actions[{last}])"
        )
    return replayed


def _load_exact(text: str | bytes) -> GameState | None:
    """The game of a record exactly as this version's ``dumps`` writes it, or None.

    Deals the game from the record's config and variants, replays its actions and writes the
    record of the result: if that is the text itself (``written_by`` aside), every check of
    the general path holds (strict JSON, digest, variants, component data, rules, setup,
    snapshot; the game's invariants hold in every state the rules reach). Any other text,
    including every one that would be refused, gives None: the general path then reads it
    and names what is wrong. Only the parts needed to deal and replay are parsed; the text
    comparison covers the rest.
    """
    if isinstance(text, bytes | bytearray):
        if len(text) > MAX_RECORD_BYTES:
            return None
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            return None
    elif not isinstance(text, str) or len(text) > MAX_RECORD_BYTES:
        return None
    if not text.startswith(_ACTIONS_KEY) or not text.endswith("}") or not _digest_holds(text):
        return None
    try:
        end = text.index("]", len(_ACTIONS_KEY)) + 1
        log = text[len(_ACTIONS_KEY) - 1 : end]
        actions = _actions_of(log)
        config_at = text.index(',"config":', end) + len(',"config":')
        config_value = _DECODER.raw_decode(text, config_at)[0]
        variants_at = text.rindex(',"variants":') + len(',"variants":')
        variants_value, written_at = _DECODER.raw_decode(text, variants_at)
        if not text.startswith(',"written_by":', written_at):
            return None
        written_by = _DECODER.raw_decode(text, written_at + len(',"written_by":'))[0]
        if type(written_by) is not str:
            return None
        config = _converter.structure(config_value, _Config)
        variants = _converter.structure(variants_value, list[VariantRef])
        state = start_game(_game_config(config, variants))
        apply = _apply
        for action in actions:
            state = apply(state, action, None)
        expected = _record_text(state, written_by, log)
    except Exception:  # the general path reports whatever is wrong
        return None
    return state if expected == text else None


def _digest_holds(text: str) -> bool:
    """Whether ``text``, laid out as ``dumps`` writes it, has the digest of its content.

    Checked before anything is dealt, so that no variant's hook runs for a changed record.
    Also refuses text of more than ``MAX_RECORD_BYTES`` as UTF-8, or not Unicode text.
    """
    at = text.rfind(_DIGEST_KEY)
    start = at + len(_DIGEST_KEY)
    end = start + 64
    if at < 0 or text[end : end + 1] != '"':
        return False
    try:
        content = f"{text[:at]}{text[end + 1 :]}".encode()
    except UnicodeEncodeError:
        return False
    if len(content) + (end + 1 - at) > MAX_RECORD_BYTES:  # the digest's part is ASCII
        return False
    return hashlib.sha256(content).hexdigest() == text[start:end]


_DIGEST_KEY = ',"digest":"sha256:'
_ACTIONS_KEY = '{"actions":['
_DECODER = json.JSONDecoder()
_ACTIONS_BY_TEXT: dict[str, Action] = {}
"""Actions by their canonical JSON, braces left out, as ``_actions_text`` writes them."""


def _actions_of(log: str) -> list[Action]:
    """The actions of a log written by ``_actions_text``; raises ValueError for any other."""
    if log == "[]":
        return []
    if not log.startswith("[{") or not log.endswith("}]"):
        raise ValueError("not a log as records write it")
    pieces = log[2:-2].split("},{")
    if len(pieces) > MAX_ACTIONS:
        raise ValueError("too many actions")
    table = _ACTIONS_BY_TEXT
    try:
        return list(map(table.__getitem__, pieces))
    except KeyError:
        pass
    actions = []
    for piece in pieces:
        action = table.get(piece)
        if action is None:
            action = _structure_action(json.loads(f"{{{piece}}}"), object)
            if _action_text(action) != f"{{{piece}}}":
                raise ValueError("not an action as records write it")
            if len(table) >= _CACHE_SIZE:
                table.clear()
            table[piece] = action
        actions.append(action)
    return actions


def loads_view(text: str | bytes) -> PlayerView:
    """Load a player record written by ``dumps(game, player=i)``; returns that player's view.

    Raises ``RecordError`` for a malformed record, and for one that describes no view the
    engine could produce (a viewer who is not a seat, parts of the wrong size, cards that are
    not those of the box, another player's secret tile shown during the game, variants not
    installed here, ...). Like ``loads``, it never opens a file that the record names.
    """
    allowed = _FILES_ALLOWED.set(False)
    try:
        document, _ = _parse(text, VIEW_FORMAT)
        record = _structure(document, _ViewRecord, "$")
        _check_view(record)
    finally:
        _FILES_ALLOWED.reset(allowed)
    return record.view


def _box_of(record: _ViewRecord) -> ComponentData | None:
    """The component data of the view's game where they can be made here, else None.

    The base game's, or what the record's variants make of them; None for a game given its
    own data, or whose variants make them from a file.
    """
    base = base_components()
    if record.components != base.name:
        return None
    if not record.variants:
        return base
    config = _game_config(
        _Config(
            players=record.players,
            seed=0,
            first_player=0,
            any_mean_house=record.any_mean_house,
            refresh_ends_turn=record.refresh_ends_turn,
            variant_options=record.view.variant_options,
        ),
        record.variants,
    )
    registry = variant_registry()
    try:
        data = resolve(config, [registry.get(ref.name) for ref in record.variants]).components
    except TrickyTreatsError:
        return None
    return data if data.name == record.components else None


def _check_view(record: _ViewRecord) -> None:
    """Refuse a view the engine could not have produced, naming the first problems."""
    view = record.view
    rules = view.rules
    n = len(view.players)
    problems: list[str] = []

    def seat(value: int | None, name: str) -> None:
        if value is not None and not 0 <= value < n:
            problems.append(f"{name}: no seat {value} among {n} players")

    if not rules.min_players <= n <= rules.max_players:
        problems.append(
            f"players: {n} players, the rules allow {rules.min_players} to {rules.max_players}"
        )
    if [p.name for p in view.players] != record.players:
        problems.append("players: the view's players are not the record's")
    if record.variants != list(view.variants):
        problems.append("variants: the view's variants are not the record's")
    _options(view.variant_options, record.variants, "$.view.variant_options")
    seat(view.player, "view.player")
    seat(view.first_player, "view.first_player")
    seat(view.current_player, "view.current_player")
    if view.end_trigger is not None:
        seat(view.end_trigger.player, "view.end_trigger.player")
    sizes = {
        "secret_tiles": (len(view.secret_tiles), n),
        "scores": (len(view.scores), n),
        "grid": (len(view.grid), 9),
        "pumpkin_on_house": (len(view.pumpkin_on_house), len(view.grid)),
        "street_tokens": (len(view.street_tokens), 6),
        "street_flipped": (len(view.street_flipped), len(view.street_tokens)),
        "pumpkin_on_mean_house": (len(view.pumpkin_on_mean_house), len(view.mean_houses)),
        "mean_houses": (len(view.mean_houses), 3),
        "market": (len(view.market), rules.market_size),
        "deck_cards": (len(view.deck_cards), view.deck_size),
    }
    problems += [
        f"view.{name}: {got} entries, expected {want}"
        for name, (got, want) in sizes.items()
        if got != want
    ]
    if problems:  # the checks below index by these sizes
        raise RecordError(f"$.view describes no game: {_listed(problems)}")
    if view.secret_tiles[view.player] is None:
        problems.append("view.secret_tiles: the viewer's own secret tile is missing")
    shown = [p for p, t in enumerate(view.secret_tiles) if t is not None and p != view.player]
    # Only a variant deals the secret tiles face up, and then all of them.
    if shown and not view.is_over and (not record.variants or len(shown) != n - 1):
        problems.append(
            "view.secret_tiles: another player's secret tile is shown while the game goes on"
        )
    if [s.player for s in view.scores] != list(range(n)):
        problems.append("view.scores: expected one score sheet per seat, in seat order")
    if view.legal_actions and view.current_player != view.player:
        problems.append("view.legal_actions: the viewer may act only in their turn")
    space = set(_action_space_of(rules, view))
    if any(action not in space for action in view.legal_actions):
        problems.append("view.legal_actions: an action that is not of this game")
    footprints = rules.footprints_per_player
    for i, p in enumerate(view.players):
        if len(p.kids) != rules.kids_per_player:
            problems.append(f"view.players[{i}].kids: expected {rules.kids_per_player} kids")
        for k, kid in enumerate(p.kids):
            if len({c.type for c in kid}) != len(kid):
                problems.append(f"view.players[{i}].kids[{k}]: two cards of one type (R2)")
        if not p.visited <= set(range(len(view.grid))) or not p.tricked <= set(range(3)):
            problems.append(f"view.players[{i}]: a visit to a house that does not exist")
        if p.footprints != footprints - len(p.visited) - len(p.tricked) or p.footprints < 0:
            problems.append(f"view.players[{i}].footprints: not what the visits leave (R6)")
        if any(t < 0 for t in p.treats) or p.pumpkins < 0:
            problems.append(f"view.players[{i}]: negative treats or pumpkins")
    cards = [c for p in view.players for kid in p.kids for c in kid]
    cards += [c for c in view.market if c is not None] + [*view.discarded, *view.deck_cards]
    if len({c.id for c in cards}) != len(cards):
        problems.append("cards: a card is in two places at once")
    data = _box_of(record)
    if data is not None:  # variants may edit the box (family plays 36 cards), keeping its name
        box = data.cards
        if any(not 0 <= c.id < len(box) or box[c.id] != c for c in cards):
            box_name = "the box its variants make" if record.variants else "the base game's box"
            problems.append(f"cards: a card that is not the card of that id in {box_name}")
        elif len(cards) != len(box):
            problems.append(f"cards: {len(cards)} cards in the view, the box has {len(box)}")
    if problems:
        raise RecordError(f"$.view describes no game the engine could produce: {_listed(problems)}")


def _action_space_of(rules: RulesData, view: PlayerView) -> tuple[Action, ...]:
    from tricky_treats.actions import ActionSpace

    space = ActionSpace(
        rules.market_size, rules.kids_per_player, len(view.grid), len(view.mean_houses)
    )
    return space.actions


# -- schemas -------------------------------------------------------------------------------------


@functools.cache
def _schema(name: str) -> dict[str, Any]:
    resource = importlib.resources.files("tricky_treats").joinpath(f"schemas/{name}")
    schema: dict[str, Any] = json.loads(resource.read_text(encoding="utf-8"))
    return schema


def _version(version: int | None, current: int, what: str) -> int:
    if version is None:
        return current
    if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= current:
        raise RecordError(
            f"no {what} schema of version {brief(version)}; versions are 1 to {current}"
        )
    return version


def record_schema(version: int | None = None) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a game record of ``version`` (default: current)."""
    return _schema(f"record-v{_version(version, RECORD_FORMAT_VERSION, 'record')}.schema.json")


def view_schema(version: int | None = None) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a player record of ``version`` (default: current)."""
    return _schema(f"view-v{_version(version, VIEW_FORMAT_VERSION, 'player record')}.schema.json")
