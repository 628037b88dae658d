"""The JSON Schemas of both record formats, as shipped in the package."""

from __future__ import annotations

import functools
import importlib.resources
import json
from typing import Any

from tricky_treats.errors import brief
from tricky_treats.serialization.shapes import (
    RECORD_FORMAT_VERSION,
    VIEW_FORMAT_VERSION,
    RecordError,
)

__all__ = ["record_schema", "view_schema"]


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
