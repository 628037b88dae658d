"""The game's components as immutable values, and the loader for component data files.

The rules code holds no card data: the base game's cards, houses, tokens and tiles live in
``data/base.toml`` (package data, each entry marked ``confirmed`` or ``assumed``, see the
rules page's "Components") and are loaded once by ``base_components()``. A file in the same format,
read by ``load_components()``, can replace them, for example with the exact cards of a
printed copy of the game.

The package, one concern a module, each importing only those above it:

- ``kinds``: the enums (colours, themes, costume types, icons, treats) and features;
- ``limits``: ``COMPONENT_LIMITS`` and the validators that enforce them;
- ``data``: the component classes and ``ComponentData``, checked as a whole when built;
- ``format``: the TOML format, read into ``ComponentData`` and written back;
- ``loading``: reading files (``load_components``) and the base game's box.
"""

from __future__ import annotations

from tricky_treats.components.data import (
    ComponentData,
    CostumeCard,
    MeanNeighbour,
    NiceNeighbour,
    RulesData,
    StreetBonusToken,
    Tier,
    TrickTile,
)
from tricky_treats.components.format import components_document, parse_components
from tricky_treats.components.kinds import (
    COMPONENTS_FORMAT,
    COMPONENTS_FORMAT_VERSION,
    FEATURES,
    Colour,
    CostumeType,
    Feature,
    Provenance,
    Theme,
    Treat,
    TrickIcon,
    feature_text,
    parse_feature,
)
from tricky_treats.components.limits import COMPONENT_LIMITS
from tricky_treats.components.loading import base_components, load_components

__all__ = [
    "COMPONENTS_FORMAT",
    "COMPONENTS_FORMAT_VERSION",
    "COMPONENT_LIMITS",
    "FEATURES",
    "Colour",
    "ComponentData",
    "CostumeCard",
    "CostumeType",
    "Feature",
    "MeanNeighbour",
    "NiceNeighbour",
    "Provenance",
    "RulesData",
    "StreetBonusToken",
    "Theme",
    "Tier",
    "Treat",
    "TrickIcon",
    "TrickTile",
    "base_components",
    "components_document",
    "feature_text",
    "load_components",
    "parse_components",
    "parse_feature",
]
