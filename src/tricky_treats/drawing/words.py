"""Components and positions in words, as the picture's titles and description say them."""

from __future__ import annotations

from tricky_treats.components import (
    CostumeCard,
    Feature,
    TrickIcon,
    TrickTile,
)
from tricky_treats.drawing.style import _ICON_NAME
from tricky_treats.i18n import _
from tricky_treats.scoring import winners
from tricky_treats.views import PlayerView
from tricky_treats.words import treat_amount, word

__all__: list[str] = []


# -- words ---------------------------------------------------------------------------------------


def _feature_words(feature: Feature) -> str:
    return _("{feature} costumes").format(feature=word(feature.value))


def _card_words(card: CostumeCard) -> str:
    return _("{colour} {theme} {type} ({icon})").format(
        colour=word(card.colour.value),
        theme=word(card.theme.value),
        type=word(card.type.value),
        icon=_icon_words(card.icon),
    )


def _icon_words(icon: TrickIcon) -> str:
    return word(_ICON_NAME.get(icon, icon.value))


def _tile_words(tile: TrickTile) -> str:
    kinds = sorted(set(tile.treats), key=tile.treats.index)
    if len(kinds) == 1:
        treats = treat_amount(len(tile.treats), kinds[0])
    else:
        treats = " + ".join(word(t.value) for t in tile.treats)
    return _("{points} points per {treats}").format(points=tile.points, treats=treats)


def _round(view: PlayerView) -> int:
    n = len(view.players)
    return (view.turn - 1) // n + 1 if view.is_over else view.turn // n + 1


def _winners(view: PlayerView) -> tuple[int, ...]:
    """The winners of a finished game (R15); a finished game's view has every sheet in full."""
    return winners(view.scores) if view.is_over and view.scores else ()
