"""``open-objectives``: the secret trick tiles are dealt face up and every view shows them.

For teaching and analysis: everyone can see what everyone else collects treats for.
"""

from __future__ import annotations

import sys

import attrs

from tricky_treats.components import RulesData
from tricky_treats.hookspecs import hookimpl
from tricky_treats.plugins import Variant


@hookimpl
def tricky_treats_rules(rules: RulesData) -> RulesData:
    """Switch on ``open_objectives``: views and score sheets show every secret tile."""
    return attrs.evolve(rules, open_objectives=True)


VARIANT = Variant(
    name="open-objectives",
    version="1.0",
    title="Open objectives",
    description="Secret trick tiles are dealt face up; every player's view shows them all.",
    plugin=sys.modules[__name__],
)
