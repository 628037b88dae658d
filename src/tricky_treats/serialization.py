"""Game records: versioned JSON that saves a game at any point and loads it back identically.

A **game record** (``tt.dumps(game)``) holds the configuration and variants, the seed, the
setup it deals (so readers in other languages need not re-implement the shuffle), the action
log with a check digest after every action, and a snapshot of the current state.
``tt.loads(text)`` deals the game again, replays the log comparing every check digest, and
compares the result with the snapshot and the setup: a record whose parts disagree is refused
with the first action where they diverge. ``tt.loads(text, verify=False)`` builds the state
from the snapshot without replaying.

A **player record** (``tt.dumps(game, player=i)``) holds only what player ``i`` may see
(R16): no seed, no deck order, no other player's secret tile. ``tt.loads_view(text)`` reads it
back as a ``PlayerView``.

Both formats are versioned independently of the package (``format_version``). A newer version
is refused; older versions are migrated step by step (see ``_MIGRATIONS``). JSON Schemas for
both ship in the package: ``record_schema()`` and ``view_schema()``.
"""

from __future__ import annotations

import functools
import importlib.resources
import json
import zlib
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import attrs
import cattrs

from tricky_treats.actions import Action, Pass, RefreshMarket, TakeCard, TrickHouse, VisitHouse
from tricky_treats.components import (
    Colour,
    ComponentData,
    CostumeCard,
    CostumeType,
    Feature,
    MeanNeighbour,
    NiceNeighbour,
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
from tricky_treats.dealing import start_game
from tricky_treats.errors import TrickyTreatsError
from tricky_treats.model import ActionLog, EndTrigger, GameConfig, GameState, VariantRef
from tricky_treats.plugins import variant_registry
from tricky_treats.rules import build_player
from tricky_treats.scoring import ScoreSheet
from tricky_treats.views import PlayerView

__all__ = [
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
RECORD_FORMAT_VERSION = 1
VIEW_FORMAT = "tricky-treats-view"
VIEW_FORMAT_VERSION = 1


class RecordError(TrickyTreatsError, ValueError):
    """A record cannot be loaded; the message gives the JSON path or the action at fault."""


# -- the record's shape ----------------------------------------------------------------------


@attrs.frozen
class _Config:
    players: list[str]
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
    grid: list[_GridHouse]
    street_tokens: list[Treat]
    mean_houses: list[_MeanHouse]
    secret_tiles: list[str]
    deck: list[int]


@attrs.frozen
class _Player:
    name: str
    kids: list[list[int]]
    treats: dict[Treat, int]
    pumpkins: int
    visited: list[int]
    tricked: list[int]
    footprints: int


@attrs.frozen
class _Snapshot:
    players: list[_Player]
    market: list[int | None]
    deck_position: int
    discarded: list[int]
    pumpkin_on_house: list[bool]
    pumpkin_on_mean_house: list[bool]
    street_flipped: list[bool]
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
    variants: list[VariantRef]
    config: _Config
    setup: _Setup
    actions: list[Action]
    checks: list[str]
    snapshot: _Snapshot


@attrs.frozen
class _ViewRecord:
    format: str
    format_version: int
    written_by: str
    components: str
    variants: list[VariantRef]
    players: list[str]
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
_JSON_TYPES: Mapping[type, str] = {int: "an integer", str: "a string", bool: "true or false"}
_T = TypeVar("_T")


def _strict(kind: type) -> Callable[[object, type], object]:
    """JSON values are taken as they are: no "3" for 3, no 1.0 or true for 1."""

    def structure(value: object, _: type) -> object:
        if type(value) is not kind:
            raise TypeError(f"expected {_JSON_TYPES[kind]}, got {json.dumps(value)}")
        return value

    return structure


def _structure_action(value: object, _: type) -> Action:
    if not isinstance(value, dict):
        raise TypeError(f"expected an action object, got {json.dumps(value)}")
    tag = value.get("type")
    cls = _ACTION_CLASSES.get(tag) if isinstance(tag, str) else None
    if cls is None:
        tags = ", ".join(ACTION_TAGS.values())
        raise ValueError(f"unknown action type {json.dumps(tag)} (one of {tags})")
    fields = {k: v for k, v in value.items() if k != "type"}
    result: Action = _converter.structure(fields, cls)
    return result


def _unstructure_action(action: Action) -> dict[str, Any]:
    return {"type": ACTION_TAGS[type(action)], **attrs.asdict(action)}


def _structure_feature(value: object, _: type) -> Feature:
    return parse_feature(value)


def _components_field(value: object) -> str | dict[str, Any]:
    if isinstance(value, str):
        return value
    return _json_object(value)


def _json_object(value: object) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise TypeError(f"expected an object, got {json.dumps(value)}")
    return value


def _structure_house_set(value: object, _: type) -> frozenset[int]:
    items: list[int] = _converter.structure(value, list[int])
    if len(set(items)) != len(items):
        raise ValueError(f"a house is listed twice in {items}")
    return frozenset(items)


def _make_converter() -> cattrs.Converter:
    """The library's own converter, configured explicitly (never cattrs' global one)."""
    converter = cattrs.Converter(forbid_extra_keys=True)
    for kind in (int, str, bool):
        converter.register_structure_hook(kind, _strict(kind))
    converter.register_structure_hook_func(lambda t: t == Action, _structure_action)
    converter.register_unstructure_hook_func(lambda t: t == Action, _unstructure_action)
    for cls in ACTION_TAGS:
        converter.register_unstructure_hook(cls, _unstructure_action)
    converter.register_structure_hook_func(lambda t: t == Feature, _structure_feature)
    converter.register_unstructure_hook_func(lambda t: t == Feature, feature_text)
    converter.register_structure_hook_func(lambda t: t == frozenset[int], _structure_house_set)
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
        converter.register_structure_hook(
            cls,
            cattrs.gen.make_dict_structure_fn(
                cls,
                converter,
                _cattrs_forbid_extra_keys=True,
                provenance=cattrs.gen.override(omit=True),
            ),
        )
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
    sheet_from_dict = cattrs.gen.make_dict_structure_fn(
        ScoreSheet, converter, _cattrs_forbid_extra_keys=True
    )

    def unstructure_sheet(sheet: ScoreSheet) -> dict[str, Any]:
        return {**sheet_to_dict(sheet), "treats": sheet.treats, "total": sheet.total}

    def structure_sheet(value: object, kind: type) -> ScoreSheet:
        if not isinstance(value, dict):
            raise TypeError(f"expected a score sheet object, got {json.dumps(value)}")
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
    return converter


_converter = _make_converter()


def _format_error(exc: BaseException, kind: type | None) -> str:
    if isinstance(exc, KeyError):
        return "required field missing"
    if isinstance(exc, cattrs.ForbiddenExtraKeysError):
        keys = ", ".join(sorted(exc.extra_fields))
        return f"unknown key{'s' if len(exc.extra_fields) > 1 else ''} {keys}"
    if isinstance(exc, TypeError | ValueError):
        return str(exc)
    return cattrs.v.format_exception(exc, kind)


def _structure(document: object, kind: type[_T], path: str) -> _T:
    try:
        result: _T = _converter.structure(document, kind)
    except (cattrs.BaseValidationError, TypeError, ValueError, KeyError) as exc:
        problems = cattrs.transform_error(exc, path=path, format_exception=_format_error)
        raise RecordError("; ".join(problems) or f"{path}: {exc}") from None
    return result


# -- writing -----------------------------------------------------------------------------------


def _package_version() -> str:
    from tricky_treats import __version__

    return f"tricky-treats {__version__}"


def state_digest(state: GameState) -> str:
    """A short digest of everything in ``state`` but its history (8 hex digits, CRC-32).

    Records store one after every action so that a reader can tell where a log and a
    snapshot part ways. It depends only on card ids and plain numbers, so it is the same on
    every platform and Python version.
    """
    trigger = state.end_trigger
    key = (
        state.deck_position,
        tuple(c.id if c is not None else None for c in state.market),
        tuple(c.id for c in state.discarded),
        state.pumpkin_on_house,
        state.pumpkin_on_mean_house,
        state.street_flipped,
        state.current_player,
        state.turn,
        state.passes_in_a_row,
        None if trigger is None else (trigger.player, trigger.reason.value, trigger.turn),
        tuple(
            (
                tuple(tuple(c.id for c in kid) for kid in p.kids),
                p.treats,
                p.pumpkins,
                tuple(sorted(p.visited)),
                tuple(sorted(p.tricked)),
            )
            for p in state.players
        ),
    )
    return f"{zlib.crc32(repr(key).encode()):08x}"


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
    setup = state.setup
    return _Setup(
        grid=[_GridHouse(h.neighbour.id, h.treat) for h in setup.grid],
        street_tokens=[t.treat for t in setup.street_tokens],
        mean_houses=[_MeanHouse(m.icon, m.tile.id) for m in setup.mean_houses],
        secret_tiles=[t.id for t in setup.secret_tiles],
        deck=[c.id for c in setup.deck],
    )


def _checks(game: GameState) -> list[str]:
    """The digest after every action of ``game``'s history, replayed from its deal."""
    state = start_game(game.config, game.setup.components)
    checks = []
    for index, action in enumerate(game.history):
        try:
            state = state.apply(action)
        except TrickyTreatsError as exc:
            raise RecordError(_UNREACHABLE.format(index, action, exc)) from None
        checks.append(state_digest(state))
    if state != game:
        raise RecordError(
            _UNREACHABLE.format(len(checks) - 1, "the last action", "a different state")
        )
    return checks


_UNREACHABLE = (
    "cannot save this game: its history does not lead from its deal to this state (action "
    "{} ({}): {}); a state changed by hand, not by apply(), cannot be saved"
)


def dumps(game: GameState, player: int | None = None, *, indent: int | None = None) -> str:
    """Save ``game`` as JSON text: a game record, or with ``player`` that player's record.

    The game may be new, in progress or over. A player record holds only what ``player`` may
    see (R16) and is what a server sends to that player's client.
    """
    variants = list(game.config.variants)
    name = game.setup.components.name
    if player is not None:
        view = game.view(player)
        config = game.config
        record: object = _ViewRecord(
            format=VIEW_FORMAT,
            format_version=VIEW_FORMAT_VERSION,
            written_by=_package_version(),
            components=name,
            variants=variants,
            players=list(config.players),
            first_player=config.first_player,
            any_mean_house=config.any_mean_house,
            refresh_ends_turn=config.refresh_ends_turn,
            view=view,
        )
    else:
        config = game.config
        record = _Record(
            format=RECORD_FORMAT,
            format_version=RECORD_FORMAT_VERSION,
            written_by=_package_version(),
            components=_components_value(game.setup.components),
            variants=variants,
            config=_Config(
                players=list(config.players),
                seed=config.seed,
                first_player=config.first_player,
                any_mean_house=config.any_mean_house,
                refresh_ends_turn=config.refresh_ends_turn,
                variant_options={k: dict(v) for k, v in config.variant_options.items()},
            ),
            setup=_setup_record(game),
            actions=list(game.history),
            checks=_checks(game),
            snapshot=_snapshot(game),
        )
    return json.dumps(_converter.unstructure(record), indent=indent, ensure_ascii=False)


def _components_value(data: ComponentData) -> str | dict[str, Any]:
    """The base game's data by name; any other data whole, so the record loads anywhere."""
    return data.name if data == base_components() else components_document(data)


# -- reading -----------------------------------------------------------------------------------

_Migration = Callable[[dict[str, Any]], dict[str, Any]]
_MIGRATIONS: dict[str, dict[int, _Migration]] = {RECORD_FORMAT: {}, VIEW_FORMAT: {}}
"""Per format, the function that turns a version-``v`` document into a version-``v + 1`` one.

Version 1 is the first: the chains are empty. When a format changes, bump its version and add
the step from the previous one here; old golden files in ``tests/golden`` must still load.
"""
_CURRENT = {RECORD_FORMAT: RECORD_FORMAT_VERSION, VIEW_FORMAT: VIEW_FORMAT_VERSION}


def _parse(text: str | bytes, expected: str) -> dict[str, Any]:
    """JSON text to a document of format ``expected``, migrated to the current version."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(
            f"not valid JSON (truncated or corrupt?): {exc.msg} at line {exc.lineno} "
            f"column {exc.colno}"
        ) from None
    except (TypeError, UnicodeDecodeError) as exc:
        raise RecordError(f"not JSON text: {exc}") from None
    if not isinstance(document, dict):
        raise RecordError(f"$: expected a JSON object, got {type(document).__name__}")
    kind = document.get("format")
    if kind != expected:
        readers = {RECORD_FORMAT: "loads", VIEW_FORMAT: "loads_view"}
        other = readers.get(kind) if isinstance(kind, str) else None
        hint = f" (read it with tt.{other})" if other else ""
        raise RecordError(f"$.format: expected {expected!r}, got {json.dumps(kind)}{hint}")
    version = document.get("format_version")
    current = _CURRENT[expected]
    if type(version) is not int or version < 1:
        raise RecordError(f"$.format_version: expected a whole number >= 1, got {version!r}")
    if version > current:
        raise RecordError(
            f"$.format_version: this record is version {version} of {expected!r}, but this "
            f"version of tricky-treats reads versions up to {current}; upgrade tricky-treats"
        )
    migrations = _MIGRATIONS[expected]
    while version < current:
        step = migrations.get(version)
        if step is None:
            raise RecordError(
                f"$.format_version: no migration from version {version} of {expected!r}"
            )
        document = step(document)
        version += 1
        document["format_version"] = version
    result: dict[str, Any] = document
    return result


def _components(value: str | dict[str, Any]) -> ComponentData:
    base = base_components()
    if isinstance(value, dict):
        try:
            return parse_components(value, "$.components")
        except TrickyTreatsError as exc:
            raise RecordError(str(exc)) from None
    if value != base.name:
        raise RecordError(
            f"$.components: the record was played with component data {value!r}, which is not "
            "available here"
        )
    return base


def _game_state(record: _Record, components: ComponentData) -> GameState:
    """The record's snapshot as a state (with the setup dealt from its seed and the log)."""
    config = record.config
    game_config = GameConfig(
        players=tuple(config.players),
        seed=config.seed,
        first_player=config.first_player,
        any_mean_house=config.any_mean_house,
        refresh_ends_turn=config.refresh_ends_turn,
        variants=tuple(record.variants),
        variant_options=config.variant_options,
    )
    registry = variant_registry()
    for index, ref in enumerate(record.variants):
        if ref.name not in registry.names:
            raise RecordError(
                f"$.variants[{index}]: the game was played with variant {ref.name!r} "
                f"(version {ref.version}), which is not installed here"
            )
    try:
        dealt = start_game(game_config, components)
    except (TrickyTreatsError, ValueError, IndexError) as exc:
        raise RecordError(f"$.config: {exc}") from None
    if _setup_record(dealt) != record.setup:
        raise RecordError(
            "$.setup: the setup in the record is not the one its seed deals with these components"
        )
    return _from_snapshot(dealt, record)


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
    """Replay the record's log from the dealt game, checking the digest after each action."""
    if len(record.checks) != len(record.actions):
        raise RecordError(
            f"$.checks: {len(record.checks)} check digests for {len(record.actions)} actions"
        )
    state = start
    for index, (action, check) in enumerate(zip(record.actions, record.checks, strict=True)):
        try:
            state = state.apply(action)
        except TrickyTreatsError as exc:
            raise RecordError(f"$.actions[{index}] ({action}): {exc}") from None
        if state_digest(state) != check:
            raise RecordError(
                f"$.actions[{index}] ({action}): the log and the record diverge here: the state "
                f"after this action has digest {state_digest(state)}, the record says {check}"
            )
    return state


def loads(text: str | bytes, *, verify: bool = True) -> GameState:
    """Load a game saved by ``dumps()``; the game plays on exactly like the original.

    With ``verify`` (the default) the game is dealt again from its seed and the log replayed,
    checking every action's digest, the setup and the snapshot; a disagreement names the
    first action where they diverge. With ``verify=False`` the state is built from the
    snapshot alone. Raises ``RecordError`` for anything malformed, naming the JSON path
    or the action at fault.
    """
    document = _parse(text, RECORD_FORMAT)
    record = _structure(document, _Record, "$")
    components = _components(record.components)
    snapshot_state = _game_state(record, components)
    if not verify:
        return snapshot_state
    start = start_game(snapshot_state.config, components)
    replayed = _replay(record, start)
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


def loads_view(text: str | bytes) -> PlayerView:
    """Load a player record written by ``dumps(game, player=i)``; returns that player's view."""
    document = _parse(text, VIEW_FORMAT)
    record = _structure(document, _ViewRecord, "$")
    return record.view


# -- schemas -------------------------------------------------------------------------------------


@functools.cache
def _schema(name: str) -> dict[str, Any]:
    resource = importlib.resources.files("tricky_treats").joinpath(f"schemas/{name}")
    schema: dict[str, Any] = json.loads(resource.read_text(encoding="utf-8"))
    return schema


def record_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a game record, as shipped in the package."""
    return _schema("record-v1.schema.json")


def view_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a player record, as shipped in the package."""
    return _schema("view-v1.schema.json")
