"""Reading a record's JSON and bringing an older format version up to date, step by step."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tricky_treats._json import StrictJSONError, strict_loads
from tricky_treats.components import (
    Treat,
)
from tricky_treats.serialization.shapes import (
    MAX_RECORD_BYTES,
    RECORD_FORMAT,
    RECORD_FORMAT_VERSION,
    VIEW_FORMAT,
    VIEW_FORMAT_VERSION,
    RecordError,
    _shown,
)

__all__: list[str] = []


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
