"""``family``: a shorter game for younger players that rewards finished costumes.

Each player has 6 footprints instead of 8, so the game ends sooner, and every kid in a
complete costume scores 2 extra points, so dressing up pays even without matching colours.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

import attrs

from tricky_treats.components import CostumeType, RulesData
from tricky_treats.hookspecs import hookimpl
from tricky_treats.model import GameState
from tricky_treats.plugins import Variant
from tricky_treats.scoring import ExtraScore

FOOTPRINTS = 6
BONUS_PER_COSTUME = 2


@hookimpl
def tricky_treats_rules(rules: RulesData) -> RulesData:
    """Six footprints per player."""
    return attrs.evolve(rules, footprints_per_player=FOOTPRINTS)


def costume_bonus(state: GameState, player: int) -> Sequence[ExtraScore]:
    """2 points for every kid in a complete costume."""
    complete = sum(len(kid) == len(CostumeType) for kid in state.players[player].kids)
    return (ExtraScore("family: complete costumes", BONUS_PER_COSTUME * complete),)


@hookimpl
def tricky_treats_scoring() -> Callable[[GameState, int], Sequence[ExtraScore]]:
    """Add the costume bonus to every score sheet."""
    return costume_bonus


VARIANT = Variant(
    name="family",
    version="1.0",
    title="Family game",
    description="6 footprints each, and 2 extra points for every kid in a complete costume.",
    plugin=sys.modules[__name__],
)
