"""Components and positions in words, as the picture's titles and description say them."""

from __future__ import annotations

from tricky_treats.components import (
    CostumeCard,
    Feature,
    TrickIcon,
    TrickTile,
)
from tricky_treats.drawing.style import _ICON_NAME
from tricky_treats.scoring import winners
from tricky_treats.views import PlayerView

__all__: list[str] = []


# -- words ---------------------------------------------------------------------------------------


def _feature_words(feature: Feature) -> str:
    return f"{feature.value} costumes"


def _card_words(card: CostumeCard) -> str:
    return f"{card.colour.value} {card.theme.value} {card.type.value} ({_icon_words(card.icon)})"


def _icon_words(icon: TrickIcon) -> str:
    return _ICON_NAME.get(icon, icon.value)


def _tile_words(tile: TrickTile) -> str:
    kinds = sorted(set(tile.treats), key=tile.treats.index)
    if len(kinds) == 1:
        return f"{tile.points} points per {len(tile.treats)} {kinds[0].value}"
    return f"{tile.points} points per " + " + ".join(t.value for t in tile.treats)


def _round(view: PlayerView) -> int:
    n = len(view.players)
    return (view.turn - 1) // n + 1 if view.is_over else view.turn // n + 1


def _winners(view: PlayerView) -> tuple[int, ...]:
    """The winners of a finished game (R15); a finished game's view has every sheet in full."""
    return winners(view.scores) if view.is_over and view.scores else ()
