"""``family``: a shorter game for younger players that rewards finished costumes.

The deck holds one card of each colour, theme and type (36 cards instead of 72), so it runs
out and ends the game sooner, and every kid in a complete costume scores 2 extra points, so
dressing up pays even without matching colours.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Sequence

import attrs

from tricky_treats.components import CostumeCard, CostumeType
from tricky_treats.declaration import Variant
from tricky_treats.hookspecs import hookimpl
from tricky_treats.i18n import N_  # the title and description, in the catalogs
from tricky_treats.model import GameState
from tricky_treats.scoring import ExtraScore

BONUS_PER_COSTUME = 2
_COMPLETE = len(CostumeType)


@hookimpl
def tricky_treats_costume_cards(cards: tuple[CostumeCard, ...]) -> tuple[CostumeCard, ...]:
    """Keep the first card of each colour, theme and type; number them 0 to n - 1 again."""
    seen: set[tuple[object, object, object]] = set()
    kept = []
    for card in cards:
        combination = (card.colour, card.theme, card.type)
        if combination not in seen:
            seen.add(combination)
            kept.append(card)
    return tuple(attrs.evolve(card, id=index) for index, card in enumerate(kept))


def costume_bonus(state: GameState, player: int) -> Sequence[ExtraScore]:
    """2 points for every kid in a complete costume."""
    complete = list(map(len, state.players[player].kids)).count(_COMPLETE)
    return _bonus_line(complete)


@functools.lru_cache(maxsize=64)
def _bonus_line(complete: int) -> tuple[ExtraScore, ...]:
    """The score line for ``complete`` costumes: one shared, immutable line per count."""
    return (ExtraScore("family: complete costumes", BONUS_PER_COSTUME * complete),)


@hookimpl
def tricky_treats_scoring() -> Callable[[GameState, int], Sequence[ExtraScore]]:
    """Add the costume bonus to every score sheet."""
    return costume_bonus


VARIANT = Variant(
    name="family",
    version="1.0",
    title=N_("Family game"),
    description=N_("A 36-card deck for a shorter game, and 2 extra points per complete costume."),
    plugin=sys.modules[__name__],
    public_scoring=True,  # complete costumes are on the table for everyone to see
)
