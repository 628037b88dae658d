"""JSON records of games: the settings and the actions, replayed on load.

A record is ``{"format": "tricks-and-treats", "version": 1, "config": {...}, "actions": [...]}``,
with each action tagged by ``"type"``. Reading is strict: unknown keys, wrong types, another format
or version, and actions the rules refuse are all ``RecordError``.
"""

from __future__ import annotations

import json
from typing import Any, Final

import attrs
import cattrs
from cattrs.strategies import configure_tagged_union

from tricks_and_treats.errors import RecordError, TricksAndTreatsError
from tricks_and_treats.game import Action, Config, TricksAndTreatsState, new_game

__all__ = ["FORMAT", "MAX_RECORD_BYTES", "VERSION", "dumps", "loads"]

FORMAT: Final = "tricks-and-treats"
VERSION: Final = 1
MAX_RECORD_BYTES: Final = 1_000_000
"""Longer text is refused unread: no legal game comes near it."""


@attrs.frozen
class _Record:
    format: str
    version: int
    config: Config
    actions: tuple[Action, ...]


def _strict_int(value: object, _: type) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected a whole number, got {value!r:.40}")
    return value


def _strict_bool(value: object, _: type) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"expected true or false, got {value!r:.40}")
    return value


def _strict_str(value: object, _: type) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a string, got {value!r:.40}")
    return value


_converter = cattrs.Converter(forbid_extra_keys=True)
_converter.register_structure_hook(int, _strict_int)
_converter.register_structure_hook(bool, _strict_bool)
_converter.register_structure_hook(str, _strict_str)
configure_tagged_union(
    Action, _converter, tag_name="type", tag_generator=lambda cls: cls.__name__.lower()
)


def dumps(state: TricksAndTreatsState) -> str:
    """The game so far as a JSON record (it holds the seed: keep it from the players)."""
    record = _Record(FORMAT, VERSION, state.config, state.history)
    return json.dumps(_converter.unstructure(record), sort_keys=True)


def loads(text: str | bytes) -> TricksAndTreatsState:
    """The game a record describes, rebuilt by replaying its actions from the start."""
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"a record is at most {MAX_RECORD_BYTES} characters; this one is longer")
    try:
        data: Any = json.loads(text)
    except (ValueError, TypeError) as error:
        raise RecordError(f"a record must be JSON text: {error}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f'not a Tricks & Treats record: expected "format": "{FORMAT}"')
    if data.get("version") != VERSION:
        raise RecordError(f"record version {data.get('version')!r} is not supported; expected 1")
    try:
        record = _converter.structure(data, _Record)
    except Exception as error:  # cattrs raises several types; all mean a malformed record
        detail = (
            "; ".join(cattrs.transform_error(error))
            if isinstance(error, cattrs.BaseValidationError)
            else str(error)
        )
        raise RecordError(f"malformed record: {detail}") from None
    try:
        state = new_game(record.config.players, record.config.seed)
        for action in record.actions:
            state = state.apply(action)
    except TricksAndTreatsError as error:
        raise RecordError(f"record does not replay: {error}") from None
    return state
