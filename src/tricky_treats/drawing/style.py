"""The picture's colours and sizes, and how a seat is marked."""

from __future__ import annotations

from tricky_treats.components import (
    Colour,
    CostumeType,
    Treat,
    TrickIcon,
)

__all__: list[str] = []


# -- colours and sizes ---------------------------------------------------------------------------

_COLOUR = {Colour.PURPLE: "#8e44ad", Colour.RED: "#d1312f", Colour.GREEN: "#23964a"}
_TREAT = {Treat.CANDY: "#ff5fa2", Treat.LOLLIPOP: "#f2b705", Treat.GUMMY: "#1aa9a0"}
_SEAT = ("#1f5fbf", "#4a4a4a", "#b8860b", "#0e8fa3", "#7a4b2a", "#c2185b", "#6d6d6d", "#556b2f")
_ICON_NAME = {
    TrickIcon.SPIDERWEB: "spiderweb",
    TrickIcon.TOILET_PAPER: "toilet paper",
    TrickIcon.EGG: "egg",
}
_INK = "#2b2b2b"
_PAPER = "#fffaf0"
_FONT = "font-family:'DejaVu Sans',Verdana,Arial,sans-serif"
_MARGIN = 16
_GAP = 24
_TITLE = 26  # a panel's heading

_HOUSE_W, _HOUSE_H, _HOUSE_GAP = 176, 108, 8
_TOKEN_W = 72
_MEAN_W, _MEAN_H = 290, 108
_CARD_W, _CARD_H, _CARD_GAP = 100, 150, 12
_ZONE_Y = {CostumeType.HEAD: 10, CostumeType.BODY: 44, CostumeType.LEGS: 78}
_ZONE_H = 28
_ROW_H = 84  # a player's line
_MINI_W = 56  # a kid in a player's line


def _zone_y(kind: CostumeType) -> int:
    """The height of a type's costume icon on a card; a type from a data file goes last."""
    return _ZONE_Y.get(kind, 78)


def _seat_letter(seat: int) -> str:
    return "ABCDEFGH"[seat] if seat < 8 else str(seat)


def _seat_colour(seat: int) -> str:
    return _SEAT[seat % len(_SEAT)]
