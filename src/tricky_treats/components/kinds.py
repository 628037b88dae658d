"""The box's vocabulary: the format's name, the enums, features and their text."""

from __future__ import annotations

import enum
from collections.abc import Mapping

__all__ = [
    "COMPONENTS_FORMAT",
    "COMPONENTS_FORMAT_VERSION",
    "FEATURES",
    "Colour",
    "CostumeType",
    "Feature",
    "Provenance",
    "Theme",
    "Treat",
    "TrickIcon",
    "feature_text",
    "parse_feature",
]


COMPONENTS_FORMAT = "tricky-treats-components"
COMPONENTS_FORMAT_VERSION = 1


class _Kind(enum.Enum):
    """An enum of the box's vocabulary, hashed as it is compared: by identity.

    Members are singletons compared by identity, so hashing them by identity is consistent,
    and it runs in C: ``enum.Enum`` hashes a member's name in Python, which costs more than
    the rest of a dict look-up, and the rules count cards by feature in dicts.
    """

    __hash__ = object.__hash__


class Colour(_Kind):
    """The colour of a costume card."""

    PURPLE = "purple"
    RED = "red"
    GREEN = "green"


class Theme(_Kind):
    """The theme of a costume card."""

    ANIMAL = "animal"
    HORROR = "horror"
    FABLE = "fable"
    SPACE = "space"


class CostumeType(_Kind):
    """Where a costume card is worn; a kid wears at most one of each (R2)."""

    HEAD = "head"
    BODY = "body"
    LEGS = "legs"


class TrickIcon(_Kind):
    """The trick icon printed on every costume card and on each mean house."""

    SPIDERWEB = "spiderweb"
    TOILET_PAPER = "toilet-paper"
    EGG = "egg"


class Treat(_Kind):
    """A type of treat; each player has one track per type."""

    CANDY = "candy"
    LOLLIPOP = "lollipop"
    GUMMY = "gummy"


class Provenance(_Kind):
    """Where a fact about a component comes from (the rules page, "Components")."""

    CONFIRMED = "confirmed"
    ASSUMED = "assumed"


Feature = Colour | Theme | CostumeType
"""What a nice neighbour wants to see: a colour, a theme or a type of costume."""

FEATURES: tuple[Feature, ...] = (*Colour, *Theme, *CostumeType)
"""Every feature in a fixed order: the 3 colours, the 4 themes, then the 3 types."""


_FEATURE_KINDS: Mapping[str, type[Colour] | type[Theme] | type[CostumeType]] = {
    "colour": Colour,
    "theme": Theme,
    "type": CostumeType,
}


def feature_text(feature: Feature) -> str:
    """A feature as data files and records write it: ``colour:green``, ``type:head``."""
    kind = next(k for k, enum_type in _FEATURE_KINDS.items() if isinstance(feature, enum_type))
    return f"{kind}:{feature.value}"


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:37]}..."


def parse_feature(text: object) -> Feature:
    """Read ``colour:NAME``, ``theme:NAME`` or ``type:NAME``; raise ValueError if it is not."""
    if not isinstance(text, str) or text.count(":") != 1:
        raise ValueError(f"expected 'colour:NAME', 'theme:NAME' or 'type:NAME', got {_short(text)}")
    kind, name = text.split(":")
    enum_type = _FEATURE_KINDS.get(kind)
    if enum_type is None:
        raise ValueError(f"unknown feature kind {_short(kind)} (one of colour, theme, type)")
    for member in enum_type:
        if member.value == name:
            return member
    allowed = ", ".join(m.value for m in enum_type)
    raise ValueError(f"unknown {kind} {_short(name)} (one of {allowed})")
