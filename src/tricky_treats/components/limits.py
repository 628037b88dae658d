"""``COMPONENT_LIMITS`` and the field validators that enforce them, naming the field at fault."""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

import attrs

from tricky_treats._conversion import (
    at_field,
    show,
)
from tricky_treats.components.kinds import _short
from tricky_treats.errors import ComponentDataError

__all__ = ["COMPONENT_LIMITS"]


COMPONENT_LIMITS: Mapping[str, tuple[int, int]] = MappingProxyType(
    {
        "players": (2, 8),
        "kids_per_player": (1, 8),
        "footprints_per_player": (1, 20),
        "market_size": (1, 10),
        "pumpkin_points": (0, 100),
        "cards": (1, 1000),
        "card_id": (0, 999),
        "nice_neighbours": (9, 100),
        "tiers": (1, 10),
        "tier_cards": (1, 100),
        "tier_treats": (1, 100),
        "trick_tiles": (5, 100),
        "tile_treats": (1, 10),
        "tile_points": (0, 100),
        "street_token_treats": (0, 100),
        "text_length": (1, 64),
        "other_arrays": (0, 100),
        "file_bytes": (0, 1 << 20),
    }
)
"""The range, lowest and highest included, of every number in component data and rules.

``players`` bounds ``min_players`` and ``max_players``; ``cards``, ``nice_neighbours`` and
``trick_tiles`` bound how many there are (their least is set by the market, the grid and the
players: see ``docs/component-data.md``); ``text_length`` bounds ids and names in characters;
``other_arrays`` bounds the other arrays of a file before their exact counts are checked;
``file_bytes`` is the largest file ``load_components()`` reads. The classes check these when
they are built, by a file or by a plugin, so that no game can be dealt from absurd numbers.
"""


def _field_error(owner: object, field: str, problem: str) -> ComponentDataError:
    """A ComponentDataError about one field, marked so that a loader names its full path."""
    return at_field(
        ComponentDataError(f"{type(owner).__name__}.{field}: {problem}"), field, problem
    )


@attrs.frozen
class _InRange:
    """Validator: an integer (not a bool) within ``COMPONENT_LIMITS[limit]``."""

    limit: str

    def __call__(self, instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        low, high = COMPONENT_LIMITS[self.limit]
        if type(value) is not int:
            raise _field_error(instance, attribute.name, f"expected an integer, got {show(value)}")
        if not low <= value <= high:
            raise _field_error(
                instance, attribute.name, f"must be between {low} and {high}, got {show(value)}"
            )


@attrs.frozen
class _Count:
    """Validator: a tuple whose length is within ``COMPONENT_LIMITS[limit]``."""

    limit: str
    noun: str

    def __call__(self, instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        low, high = COMPONENT_LIMITS[self.limit]
        if not isinstance(value, tuple):
            raise _field_error(instance, attribute.name, f"expected a tuple, got {show(value)}")
        if not low <= len(value) <= high:
            raise _field_error(
                instance,
                attribute.name,
                f"must have between {low} and {high} {self.noun}, got {len(value)}",
            )


def _text(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """Validator: an id or name of 1 to 64 characters."""
    low, high = COMPONENT_LIMITS["text_length"]
    if type(value) is not str:
        raise _field_error(instance, attribute.name, f"expected a string, got {show(value)}")
    if not low <= len(value) <= high:
        raise _field_error(
            instance,
            attribute.name,
            f"must have between {low} and {high} characters, got {len(value)}",
        )


def _member(kinds: type[enum.Enum] | tuple[type[enum.Enum], ...]) -> Callable[..., None]:
    """Validator: a member of the enum ``kinds`` (or of one of them)."""

    def check(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if not isinstance(value, kinds):
            raise _field_error(
                instance, attribute.name, f"expected a {_names(kinds)}, got {_short(value)}"
            )

    return check


def _names(kinds: type | tuple[type, ...]) -> str:
    return " or ".join(k.__name__ for k in (kinds if isinstance(kinds, tuple) else (kinds,)))


def _members(kind: type[enum.Enum]) -> Callable[..., None]:
    """Validator: every item of the tuple is a member of ``kind``."""

    def check(instance: object, attribute: attrs.Attribute[Any], value: tuple[object, ...]) -> None:
        for i, item in enumerate(value):
            if not isinstance(item, kind):
                raise _field_error(
                    instance,
                    f"{attribute.name}[{i}]",
                    f"expected a {kind.__name__}, got {_short(item)}",
                )

    return check
