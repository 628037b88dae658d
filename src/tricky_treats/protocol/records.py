"""JSON records of any ``TurnBasedGame`` as its settings and its actions, replayed on load."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Generic, TypeVar

import attrs
import cattrs

__all__ = ["ActionLogRecords"]


# -- records -------------------------------------------------------------------------------------

_S = TypeVar("_S")
_C = TypeVar("_C")


def _strictly(kind: type) -> Callable[[object, type], object]:
    def structure(value: object, _: type) -> object:
        if type(value) is not kind:
            raise TypeError(f"expected {kind.__name__}, got {value!r:.40}")
        return value

    return structure


class ActionLogRecords(Generic[_S, _C]):
    """JSON records of a game as its settings and its actions, replayed on load.

    A record is ``{"format": FORMAT, "version": VERSION, "config": {...}, "actions": [...]}``
    with each action tagged by ``"type"`` (its class name in lower case). Reading is strict
    JSON (no NaN, no duplicate keys), at most ``max_bytes`` long, and refuses unknown keys,
    wrong types, another format or version, and actions the rules refuse, all as
    ``record_error``. ``start(config)`` deals the game a record's settings describe; states
    must have ``config`` and ``history`` attributes and an ``apply(action)`` method. Each
    codec has a converter of its own, strict like the library's (no "3" for 3, no true for 1).
    ``old_versions`` are earlier versions still read: their settings and actions must be
    readable as this version's (new settings have defaults that play the old game), or
    ``old_config(version, config)`` gives the settings the old game was played with (a setting
    whose default changed). A record is always written as ``version``.
    """

    def __init__(
        self,
        *,
        format: str,
        title: str,
        config_type: type[_C],
        action_type: Any,
        start: Callable[[_C], _S],
        record_error: type[Exception],
        game_error: type[Exception],
        version: int = 1,
        max_bytes: int = 1_000_000,
        old_versions: tuple[int, ...] = (),
        old_config: Callable[[int, dict[str, Any]], dict[str, Any]] | None = None,
    ) -> None:
        from cattrs.strategies import configure_tagged_union

        self.format, self.title, self.version, self.max_bytes = format, title, version, max_bytes
        self.old_versions, self._old_config = old_versions, old_config
        self._start, self._error, self._game_error = start, record_error, game_error
        self._record = attrs.make_class(
            "_Record",
            {
                "format": attrs.field(type=str),
                "version": attrs.field(type=int),
                "config": attrs.field(type=config_type),
                "actions": attrs.field(type=tuple[action_type, ...]),
            },
            frozen=True,
        )
        self._converter = cattrs.Converter(forbid_extra_keys=True)
        for kind in (int, bool, str):
            self._converter.register_structure_hook(kind, _strictly(kind))
        configure_tagged_union(
            action_type,
            self._converter,
            tag_name="type",
            tag_generator=lambda cls: cls.__name__.lower(),
        )

    def dumps(self, state: _S) -> str:
        """The game so far as a JSON record (it holds the seed: keep it from the players)."""
        record = self._record(self.format, self.version, state.config, state.history)  # type: ignore[attr-defined]
        return json.dumps(self._converter.unstructure(record), sort_keys=True, allow_nan=False)

    def loads(self, text: str | bytes) -> _S:
        """The game a record describes, rebuilt by replaying its actions from the start."""
        from tricky_treats._json import StrictJSONError, strict_loads

        if len(text) > self.max_bytes:
            raise self._error(
                f"a record is at most {self.max_bytes} characters; this one is longer"
            )
        try:
            data: Any = strict_loads(text, max_bytes=self.max_bytes)
        except StrictJSONError as error:
            raise self._error(f"a record must be strict JSON text: {error}") from None
        if not isinstance(data, dict) or data.get("format") != self.format:
            raise self._error(f'not a {self.title} record: expected "format": "{self.format}"')
        version = data.get("version")
        if type(version) is not int or (
            version != self.version and version not in self.old_versions
        ):
            known = ", ".join(map(str, (*self.old_versions, self.version)))
            raise self._error(
                f"record version {version!r:.40} is not supported; expected one of {known}"
            )
        config = data.get("config")
        if version != self.version and self._old_config and isinstance(config, dict):
            data = {**data, "config": self._old_config(version, config)}
        try:
            record: Any = self._converter.structure(data, self._record)
        except Exception as error:  # cattrs raises several types; all mean a malformed record
            detail = (
                "; ".join(cattrs.transform_error(error)[:10])
                if isinstance(error, cattrs.BaseValidationError)
                else str(error)
            )
            raise self._error(f"malformed record: {detail}") from None
        try:
            state = self._start(record.config)
            for action in record.actions:
                state = state.apply(action)  # type: ignore[attr-defined]
        except self._game_error as error:
            raise self._error(f"record does not replay: {error}") from None
        return state
