"""Writing player records: ``dumps(game, player=p)``, a fast writer of the converter's layout.

A server sends every seat its record after every move, so the writer keeps, per game, the
text of each field of a view by the identity of its value: the views of one state share
most of their values, and consecutive states share what a move left alone. A board or score
sheet a move changed is written from the kept texts of its parts. The tests compare every
record with the converter's (``_view_record`` unstructured).
"""

from __future__ import annotations

import functools
import operator
import typing
from collections.abc import Callable
from typing import Any

import attrs

from tricky_treats._json import strict_dumps
from tricky_treats.actions import Action
from tricky_treats.components import (
    CostumeCard,
    RulesData,
    StreetBonusToken,
    Treat,
    TrickTile,
)
from tricky_treats.errors import ConfigurationError, brief
from tricky_treats.model import EndTrigger, GameState, GridHouse, MeanHouse, Setup
from tricky_treats.scoring import ExtraScore, ScoreSheet, TileScore
from tricky_treats.serialization.shapes import (
    VIEW_FORMAT,
    VIEW_FORMAT_VERSION,
    _converter,
    _ViewRecord,
)
from tricky_treats.serialization.texts import _GAMES_KEPT, _WRITE, _by_identity, _package_version
from tricky_treats.views import PlayerView, PublicPlayer

__all__ = ["dumps_view"]


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


_ITEM_TEXTS: dict[int, tuple[Any, str]] = {}
_TUPLE_TEXTS: dict[int, tuple[Any, str]] = {}
_VIEW_HEADS: dict[int, tuple[Setup, str]] = {}
_FIELD_TEXTS: dict[int, tuple[Setup, tuple[dict[int, tuple[Any, str]], ...]]] = {}
_FIELD_TEXTS_KEPT = 16
"""Per game and field of a view, how many values' texts are kept (a few states' worth)."""


def dumps_view(game: GameState, view: PlayerView) -> str:
    """The player record of ``view``, a view of ``game`` or of a later state of that game.

    What ``dumps(state, player=view.player)`` writes for the state ``view`` was taken of,
    for code that holds a view rather than the state, as an agent does: it has the view it
    is asked to move in and the game it was told of at ``begin_game``, and sends the record
    to a bot in another process. The record's head (components, variants, players, options)
    is ``game``'s. Raises ``ConfigurationError`` for anything but a ``GameState`` and a
    ``PlayerView`` of one of its seats.
    """
    if not isinstance(game, GameState):
        raise ConfigurationError(f"dumps_view writes a view of a GameState, got {brief(game)}")
    if not isinstance(view, PlayerView) or len(view.players) != len(game.players):
        raise ConfigurationError(
            f"dumps_view writes a PlayerView of one of the game's {len(game.players)} seats, "
            f"got {brief(view)}"
        )
    return _view_text(game, view)


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


def _items_text(items: tuple[Any, ...], cache: dict[int, tuple[Any, str]] = _ITEM_TEXTS) -> str:
    """An array of immutable objects (or None), each written once per object into ``cache``."""
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
    return _items_text(actions, _ACTIONS_WRITTEN)


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
