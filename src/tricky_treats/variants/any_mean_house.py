"""``any-mean-house``: the option of ruling R4.

Any three matching trick icons showing on top of a player's kids let them trick any mean
house, not only the one with that icon.
"""

from __future__ import annotations

import sys

import attrs

from tricky_treats.components import RulesData
from tricky_treats.declaration import Variant
from tricky_treats.hookspecs import hookimpl
from tricky_treats.i18n import N_  # the title and description, in the catalogs


@hookimpl
def tricky_treats_rules(rules: RulesData) -> RulesData:
    """Switch on ``any_mean_house`` (R4 option)."""
    return attrs.evolve(rules, any_mean_house=True)


VARIANT = Variant(
    name="any-mean-house",
    version="1.0",
    title=N_("Any mean house (R4 option)"),
    description=N_("Any 3 matching visible trick icons let you trick any mean house."),
    plugin=sys.modules[__name__],
)
