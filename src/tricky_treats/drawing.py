"""Pictures of the game: ``board_svg(view)`` draws what one player sees, as an SVG string.

The function takes a ``PlayerView``, never a ``GameState``, so a picture cannot show anything
its player may not see (R16): the deck is a pile with a count, the other players' secret
tiles are face down until the game is over. The output is plain SVG 1.1 text with a
``<title>`` and a ``<desc>`` that say in words what the picture shows, for screen readers;
it needs no dependency and no font files, and the same view always gives the same text.

Cards are drawn as they are printed: transparent, with the costume icon at the height of its
type (head at the top, body in the middle, legs at the bottom) and the trick icon at the
bottom. A kid's stack is drawn as its cards lying on top of each other, so that every costume
icon shows (R1) and only the top card's trick icon does (R3).
"""

from __future__ import annotations

import hashlib
import html
from collections.abc import Callable, Iterable, Sequence

from tricky_treats.components import (
    Colour,
    CostumeCard,
    CostumeType,
    Feature,
    Treat,
    TrickIcon,
    TrickTile,
)
from tricky_treats.errors import ConfigurationError, brief
from tricky_treats.scoring import ScoreSheet, costume_points, winners
from tricky_treats.views import PlayerView

__all__ = ["BOARD_PARTS", "board_svg"]

BOARD_PARTS = ("grid", "mean-houses", "market", "kids", "players", "scores")
"""The parts ``board_svg`` can draw, in the order it draws them.

``grid``: the nine nice houses with the street bonus tokens; ``mean-houses``: the mean houses
with their trick tiles; ``market``: the face-up costume cards and the deck; ``kids``: the
viewer's kids, drawn large; ``players``: one line per player (kids, treat tracks, pumpkins,
footprints, secret tile, points); ``scores``: the score sheets.
"""

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


# -- a tiny SVG writer ---------------------------------------------------------------------------


def _e(text: object) -> str:
    """``text`` escaped for XML content and attribute values."""
    return html.escape(str(text), quote=True)


class _Panel:
    """One part of the picture: its elements, in its own coordinates, and its size."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.items: list[str] = []

    def add(self, item: str) -> None:
        self.items.append(item)

    def text(
        self,
        x: float,
        y: float,
        content: object,
        *,
        size: int = 13,
        weight: str = "normal",
        fill: str = _INK,
        anchor: str = "start",
    ) -> None:
        self.add(
            f'<text x="{x:g}" y="{y:g}" font-size="{size}" font-weight="{weight}" '
            f'fill="{fill}" text-anchor="{anchor}">{_e(content)}</text>'
        )

    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        *,
        fill: str = "none",
        stroke: str = _INK,
        radius: float = 6,
        extra: str = "",
    ) -> None:
        self.add(
            f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="{radius:g}" '
            f'fill="{fill}" stroke="{stroke}"{extra}/>'
        )

    def use(self, symbol: str, x: float, y: float, size: float, label: str) -> None:
        self.add(
            f'<use href="#tt-{symbol}" x="{x:g}" y="{y:g}" width="{size:g}" height="{size:g}">'
            f"<title>{_e(label)}</title></use>"
        )

    def heading(self, content: str) -> None:
        self.text(0, 18, content, size=16, weight="bold")


_SYMBOLS = (
    # A spiderweb: spokes and two rings.
    '<symbol id="tt-spiderweb" viewBox="0 0 24 24"><g fill="none" stroke="#333" '
    'stroke-width="1.2"><path d="M12 1V23M1 12H23M4.2 4.2L19.8 19.8M19.8 4.2L4.2 19.8"/>'
    '<circle cx="12" cy="12" r="4"/><circle cx="12" cy="12" r="8.5"/></g></symbol>'
    # A toilet paper roll with its tail.
    '<symbol id="tt-toilet-paper" viewBox="0 0 24 24"><path d="M4 17V22H14" fill="none" '
    'stroke="#333" stroke-width="1.2"/><rect x="3" y="5" width="13" height="12" rx="1" '
    'fill="#fff" stroke="#333" stroke-width="1.2"/><ellipse cx="16" cy="11" rx="3.5" ry="6" '
    'fill="#f2f2f2" stroke="#333" stroke-width="1.2"/><ellipse cx="16" cy="11" rx="1.2" '
    'ry="2.2" fill="#333"/></symbol>'
    # A crashed egg: a white splat round a yolk.
    '<symbol id="tt-egg" viewBox="0 0 24 24"><path d="M2 15Q3 9 8 11Q10 4 15 9Q21 7 22 14'
    'Q23 21 12 21Q1 21 2 15Z" fill="#fff" stroke="#333" stroke-width="1.2"/>'
    '<circle cx="12" cy="15" r="4" fill="#f5b800" stroke="#b37f00"/></symbol>'
    # A pumpkin.
    '<symbol id="tt-pumpkin" viewBox="0 0 24 24"><ellipse cx="12" cy="14.5" rx="10.5" '
    'ry="8" fill="#f07c12" stroke="#9a4700"/><ellipse cx="12" cy="14.5" rx="4" ry="8" '
    'fill="none" stroke="#9a4700"/><path d="M11 7Q11 3 14 2" fill="none" stroke="#3d7a1f" '
    'stroke-width="2.5"/></symbol>'
)
_ICON_SYMBOL = {
    TrickIcon.SPIDERWEB: "spiderweb",
    TrickIcon.TOILET_PAPER: "toilet-paper",
    TrickIcon.EGG: "egg",
}


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


# -- the parts -----------------------------------------------------------------------------------


def _matching(view: PlayerView, feature: Feature) -> int:
    return sum(card.has(feature) for kid in view.players[view.player].kids for card in kid)


def _footprints(panel: _Panel, x: float, y: float, seats: Sequence[int]) -> None:
    for i, seat in enumerate(seats):
        cx = x + 9 + i * 19
        panel.add(
            f'<circle cx="{cx:g}" cy="{y:g}" r="8" fill="{_seat_colour(seat)}" stroke="#fff">'
            f"<title>footprint of player {_seat_letter(seat)}</title></circle>"
        )
        panel.text(
            cx, y + 4, _seat_letter(seat), size=10, weight="bold", fill="#fff", anchor="middle"
        )


def _treat_token(
    panel: _Panel, x: float, y: float, treat: Treat, amount: int | None = None
) -> None:
    """A round treat token centred on (x, y), with ``amount`` or the treat's initial."""
    fill = _TREAT.get(treat, "#999")
    panel.add(
        f'<circle cx="{x:g}" cy="{y:g}" r="13" fill="{fill}" stroke="{_INK}">'
        f"<title>{_e(treat.value)}</title></circle>"
    )
    label = treat.value[0].upper() if amount is None else str(amount)
    panel.text(x, y + 5, label, size=14, weight="bold", fill="#fff", anchor="middle")


def _grid_panel(view: PlayerView) -> _Panel:
    step = _HOUSE_W + _HOUSE_GAP
    width = 3 * step + _TOKEN_W
    height = _TITLE + 3 * (_HOUSE_H + _HOUSE_GAP) + 52
    panel = _Panel(width, height)
    panel.heading("Nice neighbours: visit them for treats")
    top = _TITLE
    for house, cell in enumerate(view.grid):
        row, column = divmod(house, 3)
        x, y = column * step, top + row * (_HOUSE_H + _HOUSE_GAP)
        neighbour = cell.neighbour
        wants = neighbour.wants
        visitors = [p for p, player in enumerate(view.players) if house in player.visited]
        have = _matching(view, wants)
        can = (
            not view.is_over
            and have >= neighbour.minimum
            and house not in view.players[view.player].visited
        )
        panel.add(f'<g transform="translate({x},{y})">')
        panel.rect(0, 0, _HOUSE_W, _HOUSE_H, fill=_PAPER, stroke="#8a6d3b")
        panel.text(8, 18, f"house {house}", size=11, fill="#6b5a3a")
        colour = _COLOUR.get(wants) if isinstance(wants, Colour) else None
        panel.text(8, 40, f"likes {wants.value}", size=16, weight="bold", fill=colour or _INK)
        tiers = "  ".join(f"{t.cards}→{t.treats}" for t in neighbour.tiers)
        panel.text(8, 60, f"cards→treats: {tiers}", size=11)
        mine = f"{view.players[view.player].name} has {have}"
        panel.text(8, 78, mine, size=11, weight="bold" if can else "normal",
                   fill="#1d7a36" if can else "#777")  # fmt: skip
        _treat_token(panel, _HOUSE_W - 20, 20, cell.treat)
        panel.text(_HOUSE_W - 20, 46, cell.treat.value, size=10, anchor="middle")
        if view.pumpkin_on_house[house]:
            panel.use("pumpkin", _HOUSE_W - 34, _HOUSE_H - 32, 28, "pumpkin still here")
        _footprints(panel, 6, _HOUSE_H - 14, visitors)
        panel.add("</g>")
    for street, token in enumerate(view.street_tokens):
        flipped = view.street_flipped[street]
        amount = token.back if flipped else token.front
        tx: float
        ty: float
        if street < 3:
            tx, ty = 3 * step, top + street * (_HOUSE_H + _HOUSE_GAP) + (_HOUSE_H - 44) / 2
        else:
            tx, ty = (
                (street - 3) * step + (_HOUSE_W - _TOKEN_W + 8) / 2,
                top + 3 * (_HOUSE_H + _HOUSE_GAP),
            )
        dash = ' stroke-dasharray="4 3"' if flipped else ""
        panel.rect(tx, ty, _TOKEN_W - 8, 44, fill="#fff", stroke="#8a6d3b", extra=dash)
        _treat_token(panel, tx + 18, ty + 22, token.treat, amount)
        panel.text(tx + 35, ty + 19, "street", size=10)
        panel.text(tx + 35, ty + 33, "back" if flipped else "front", size=10)
    return panel


def _mean_panel(view: PlayerView) -> _Panel:
    houses = view.mean_houses
    panel = _Panel(_MEAN_W, _TITLE + len(houses) * (_MEAN_H + _HOUSE_GAP))
    panel.heading("Mean neighbours: trick them")
    icons = [kid[-1].icon for kid in view.players[view.player].kids if kid]
    for house, mean in enumerate(houses):
        y = _TITLE + house * (_MEAN_H + _HOUSE_GAP)
        panel.add(f'<g transform="translate(0,{y})">')
        panel.rect(0, 0, _MEAN_W, _MEAN_H, fill="#3b2f4a", stroke="#1c1524")
        panel.text(8, 18, f"mean house {house}", size=11, fill="#d8cce6")
        panel.rect(8, 26, 40, 40, fill="#f4efe6", stroke="none", radius=20)
        panel.use(_ICON_SYMBOL.get(mean.icon, "egg"), 12, 30, 32, _icon_words(mean.icon))
        if view.rules.any_mean_house:
            need = "3 kids showing one icon"
            shown = max((icons.count(i) for i in set(icons)), default=0)
        else:
            need = f"3 kids showing {_icon_words(mean.icon)}"
            shown = icons.count(mean.icon)
        panel.text(56, 40, need, size=12, weight="bold", fill="#fff")
        panel.text(56, 58, f"tile: {_tile_words(mean.tile)}", size=11, fill="#ffe08a")
        panel.text(56, 76, f"{view.players[view.player].name} shows {shown}", size=11,
                   fill="#c6f0c6" if shown >= 3 and not view.is_over else "#bbb")  # fmt: skip
        if view.pumpkin_on_mean_house[house]:
            panel.use("pumpkin", _MEAN_W - 34, _MEAN_H - 32, 28, "pumpkin still here")
        tricked = [p for p, player in enumerate(view.players) if house in player.tricked]
        _footprints(panel, 6, _MEAN_H - 14, tricked)
        panel.add("</g>")
    return panel


def _card(panel: _Panel, x: float, y: float, cards: Sequence[CostumeCard], label: str) -> None:
    """A costume card, or a kid's stack of them (bottom first), at (x, y).

    The cards are transparent: every costume icon shows at its type's height, and the top
    card's trick icon covers the others' (R3).
    """
    panel.add(f'<g transform="translate({x:g},{y:g})"><title>{_e(label)}</title>')
    panel.rect(0, 0, _CARD_W, _CARD_H, fill="#ffffff", stroke="#9a9a9a", radius=8)
    for card in cards:
        zone = _zone_y(card.type)
        fill = _COLOUR.get(card.colour, "#777")
        panel.rect(6, zone, _CARD_W - 12, _ZONE_H, fill=fill, stroke="none", radius=14)
        panel.text(_CARD_W / 2, zone + 13, card.theme.value, size=12, weight="bold",
                   fill="#fff", anchor="middle")  # fmt: skip
        panel.text(_CARD_W / 2, zone + 24, f"{card.colour.value} {card.type.value}", size=8,
                   fill="#fff", anchor="middle")  # fmt: skip
    if cards:
        top = cards[-1].icon
        panel.add(f'<line x1="4" y1="112" x2="{_CARD_W - 4}" y2="112" stroke="#ddd"/>')
        panel.use(_ICON_SYMBOL.get(top, "egg"), 6, 116, 28, _icon_words(top))
        panel.text(38, 134, _icon_words(top), size=10)
    panel.add("</g>")


def _market_panel(view: PlayerView) -> _Panel:
    slots = len(view.market)
    width = slots * (_CARD_W + _CARD_GAP) + _CARD_W + 20
    panel = _Panel(width, _TITLE + 20 + _CARD_H + 4)
    panel.heading("Market: take a card and put it on one of your kids")
    y = _TITLE + 18
    for slot, card in enumerate(view.market):
        x = slot * (_CARD_W + _CARD_GAP)
        panel.text(x + _CARD_W / 2, y - 4, f"slot {slot}", size=11, anchor="middle")
        if card is None:
            panel.rect(x, y, _CARD_W, _CARD_H, fill="#f4f4f4", stroke="#bbb", radius=8,
                       extra=' stroke-dasharray="5 4"')  # fmt: skip
            panel.text(x + _CARD_W / 2, y + _CARD_H / 2, "empty", size=12, fill="#888",
                       anchor="middle")  # fmt: skip
        else:
            _card(panel, x, y, (card,), f"slot {slot}: {_card_words(card)}")
    x = slots * (_CARD_W + _CARD_GAP) + 8
    for offset in (8, 4, 0):
        panel.rect(x + offset, y + offset, _CARD_W, _CARD_H - 8, fill="#5b4a7a", stroke="#fff",
                   radius=8)  # fmt: skip
    panel.text(x + _CARD_W / 2, y + 60, "deck", size=14, weight="bold", fill="#fff",
               anchor="middle")  # fmt: skip
    panel.text(x + _CARD_W / 2, y + 80, f"{view.deck_size} cards", size=12, fill="#fff",
               anchor="middle")  # fmt: skip
    panel.text(x + _CARD_W / 2, y + 96, "face down", size=10, fill="#ddd", anchor="middle")
    return panel


def _kid_label(kid: Sequence[CostumeCard], index: int) -> str:
    if not kid:
        return f"kid {index}: no costume yet"
    cards = ", ".join(_card_words(c) for c in kid)
    return f"kid {index}: {cards}; shows {_icon_words(kid[-1].icon)} on top"


def _kid_status(kid: Sequence[CostumeCard]) -> str:
    if len(kid) >= len(CostumeType):
        return f"complete: {costume_points(kid)} points"
    return f"{len(kid)} of {len(CostumeType)} pieces"


def _kids_panel(view: PlayerView) -> _Panel:
    me = view.players[view.player]
    left = 44
    panel = _Panel(left + len(me.kids) * (_CARD_W + _CARD_GAP), _TITLE + 20 + _CARD_H + 22)
    panel.heading(f"{me.name}'s kids: cards lie on top of each other, and they are transparent")
    y = _TITLE + 18
    for kind in CostumeType:
        panel.text(left - 6, y + _zone_y(kind) + 18, kind.value, size=10, fill="#777", anchor="end")
    panel.text(left - 6, y + 134, "trick", size=10, fill="#777", anchor="end")
    for index, kid in enumerate(me.kids):
        x = left + index * (_CARD_W + _CARD_GAP)
        panel.text(x + _CARD_W / 2, y - 4, f"kid {index}", size=11, anchor="middle")
        _card(panel, x, y, kid, _kid_label(kid, index))
        panel.text(x + _CARD_W / 2, y + _CARD_H + 16, _kid_status(kid), size=10,
                   anchor="middle")  # fmt: skip
    return panel


def _mini_kid(panel: _Panel, x: float, y: float, kid: Sequence[CostumeCard], label: str) -> None:
    panel.add(f'<g transform="translate({x:g},{y:g})"><title>{_e(label)}</title>')
    panel.rect(0, 0, _MINI_W - 6, 66, fill="#fff", stroke="#bbb", radius=4)
    for card in kid:
        zone = {CostumeType.HEAD: 3, CostumeType.BODY: 18}.get(card.type, 33)
        panel.rect(3, zone, _MINI_W - 12, 13, fill=_COLOUR.get(card.colour, "#777"),
                   stroke="none", radius=6)  # fmt: skip
        panel.text((_MINI_W - 6) / 2, zone + 10, card.theme.value, size=9, fill="#fff",
                   anchor="middle")  # fmt: skip
    if kid:
        panel.use(_ICON_SYMBOL.get(kid[-1].icon, "egg"), (_MINI_W - 6) / 2 - 8, 48, 16,
                  _icon_words(kid[-1].icon))  # fmt: skip
    panel.add("</g>")


def _players_panel(view: PlayerView) -> _Panel:
    kids = max(len(p.kids) for p in view.players)
    treats_x = 170 + max(kids, 5) * _MINI_W + 10
    width = treats_x + 3 * 92 + 180
    panel = _Panel(width, _TITLE + len(view.players) * (_ROW_H + 6))
    panel.heading("Players")
    for seat, player in enumerate(view.players):
        y = _TITLE + seat * (_ROW_H + 6)
        acting = seat == view.current_player
        panel.rect(0, y, width, _ROW_H, fill="#fff8e1" if acting else "#fafafa",
                   stroke=_seat_colour(seat) if acting else "#ddd")  # fmt: skip
        panel.add(f'<circle cx="20" cy="{y + 22}" r="12" fill="{_seat_colour(seat)}"/>')
        panel.text(20, y + 27, _seat_letter(seat), size=13, weight="bold", fill="#fff",
                   anchor="middle")  # fmt: skip
        name = player.name + (" (you)" if seat == view.player else "")
        panel.text(38, y + 27, name[:20], size=14, weight="bold")
        if acting:
            panel.text(38, y + 45, "to play", size=11, weight="bold", fill="#b35900")
        panel.use("pumpkin", 10, y + 52, 22, "pumpkins")
        panel.text(36, y + 69, f"{player.pumpkins} · footprints left: {player.footprints}",
                   size=11)  # fmt: skip
        for index, kid in enumerate(player.kids):
            _mini_kid(panel, 170 + index * _MINI_W, y + 9, kid, _kid_label(kid, index))
        for i, (treat, amount) in enumerate(zip(Treat, player.treats, strict=False)):
            x = treats_x + i * 92
            _treat_token(panel, x + 14, y + 24, treat, amount)
            panel.text(x + 31, y + 29, treat.value, size=11)
        tile = view.secret_tiles[seat]
        secret = f"secret tile: {_tile_words(tile)}" if tile is not None else "secret tile: hidden"
        panel.text(treats_x, y + 62, secret, size=11, fill="#555")
        panel.text(width - 12, y + 34, f"{view.scores[seat].total}", size=22, weight="bold",
                   anchor="end")  # fmt: skip
        panel.text(width - 12, y + 52, "points" + ("" if view.is_over else " so far"), size=10,
                   anchor="end")  # fmt: skip
    return panel


def _sheet_cells(view: PlayerView, sheet: ScoreSheet) -> list[str]:
    tiles = []
    for score in sheet.trick_tiles:
        where = "secret" if score.mean_house is None else f"mean {score.mean_house}"
        tiles.append(f"{score.points} ({where})")
    if view.secret_tiles[sheet.player] is None:
        tiles.append("secret hidden")
    return [
        view.players[sheet.player].name[:16],
        str(sheet.pumpkins),
        " + ".join(map(str, sheet.costumes)),
        " + ".join(tiles) or "-",
        str(sum(extra.points for extra in sheet.extras)),
        str(sheet.total),
    ]


def _scores_panel(view: PlayerView) -> _Panel:
    columns = (("player", 150), ("pumpkins", 80), ("costumes", 170), ("trick tiles", 300),
               ("extras", 60), ("total", 60))  # fmt: skip
    width = sum(w for _, w in columns)
    winners = _winners(view)
    rows = len(view.scores)
    panel = _Panel(width, _TITLE + 26 * (rows + 1) + 24)
    panel.heading("Score sheets" + ("" if view.is_over else " so far"))
    y = _TITLE + 4
    x = 0
    panel.rect(0, y, width, 26 * (rows + 1), fill="#fff", stroke="#ccc", radius=4)
    for name, w in columns:
        panel.text(x + 6, y + 18, name, size=12, weight="bold")
        x += w
    for row, sheet in enumerate(view.scores, start=1):
        x = 0
        cells = _sheet_cells(view, sheet)
        won = sheet.player in winners
        if won:
            panel.rect(1, y + 26 * row, width - 2, 26, fill="#fff3c4", stroke="none", radius=0)
        for (_, w), cell in zip(columns, cells, strict=True):
            panel.text(x + 6, y + 26 * row + 18, cell, size=12, weight="bold" if won else "normal")
            x += w
    note = (
        "winner(s) highlighted; a tie goes to the most points from trick tiles"
        if view.is_over
        else "other players' secret tiles count only at the end"
    )
    panel.text(0, y + 26 * (rows + 1) + 18, note, size=11, fill="#666")
    return panel


_PARTS: dict[str, Callable[[PlayerView], _Panel]] = {
    "grid": _grid_panel,
    "mean-houses": _mean_panel,
    "market": _market_panel,
    "kids": _kids_panel,
    "players": _players_panel,
    "scores": _scores_panel,
}


# -- words for screen readers ----------------------------------------------------------------


def _heading(view: PlayerView) -> str:
    names = [p.name for p in view.players]
    if view.is_over:
        won = _winners(view)
        verb = "wins" if len(won) == 1 else "share the win"
        return f"Game over: {' and '.join(names[w] for w in won)} {verb}"
    assert view.current_player is not None
    return f"Round {_round(view)}: {names[view.current_player]} to play"


def _description(view: PlayerView, parts: Sequence[str]) -> str:
    names = [p.name for p in view.players]
    me = view.players[view.player]
    lines = [f"{_heading(view)}. As {me.name} sees the table."]
    if "grid" in parts:
        for house, cell in enumerate(view.grid):
            n = cell.neighbour
            tiers = ", ".join(f"{t.cards} cards give {t.treats}" for t in n.tiers)
            went = [names[p] for p, pl in enumerate(view.players) if house in pl.visited]
            pumpkin = "its pumpkin is there" if view.pumpkin_on_house[house] else "no pumpkin"
            lines.append(
                f"Nice house {house} likes {_feature_words(n.wants)} and gives {cell.treat.value} "
                f"({tiers}); {pumpkin}" + (f"; visited by {', '.join(went)}" if went else "") + "."
            )
        for street, token in enumerate(view.street_tokens):
            where = f"row {street}" if street < 3 else f"column {street - 3}"
            amount = token.back if view.street_flipped[street] else token.front
            lines.append(f"Street bonus of {where}: {amount} {token.treat.value}.")
    if "mean-houses" in parts:
        for house, mean in enumerate(view.mean_houses):
            went = [names[p] for p, pl in enumerate(view.players) if house in pl.tricked]
            lines.append(
                f"Mean house {house} shows {_icon_words(mean.icon)}; its trick tile: "
                f"{_tile_words(mean.tile)}"
                + ("; its pumpkin is there" if view.pumpkin_on_mean_house[house] else "")
                + (f"; tricked by {', '.join(went)}" if went else "")
                + "."
            )
    if "market" in parts:
        cards = [
            f"slot {s}: {_card_words(c) if c is not None else 'empty'}"
            for s, c in enumerate(view.market)
        ]
        lines.append(f"Market: {'; '.join(cards)}. Deck: {view.deck_size} cards.")
    if "kids" in parts and "players" not in parts:
        lines.extend(f"{me.name}'s {_kid_label(kid, i)}." for i, kid in enumerate(me.kids))
    if "players" in parts:
        for seat, player in enumerate(view.players):
            treats = ", ".join(f"{n} {t.value}" for t, n in zip(Treat, player.treats, strict=False))
            kids = "; ".join(_kid_label(kid, i) for i, kid in enumerate(player.kids))
            lines.append(
                f"{player.name}: {treats}; {player.pumpkins} pumpkins; {player.footprints} "
                f"footprints left; {view.scores[seat].total} points. {kids}."
            )
    if "scores" in parts:
        for sheet in view.scores:
            cells = _sheet_cells(view, sheet)
            lines.append(
                f"Score sheet of {cells[0]}: pumpkins {cells[1]}, costumes {cells[2]}, trick "
                f"tiles {cells[3]}, extras {cells[4]}, total {cells[5]}."
            )
    return "\n".join(lines)


# -- the picture ---------------------------------------------------------------------------------


def board_svg(view: PlayerView, *, parts: str | Iterable[str] | None = None) -> str:
    """Draw ``view`` as an SVG picture: what its player sees of the table.

    ``parts`` chooses what to draw (one name, or several), from ``BOARD_PARTS`` (all of
    them by default): the grid of nice houses with the street bonuses, the mean houses, the
    market and the deck, the viewer's kids drawn large, a line per player and the score
    sheets. The picture never shows what the view leaves out: the deck is a face-down pile,
    the other players' secret tiles are "hidden" until the game is over (R16). A
    ``GameState`` is refused (``ConfigurationError``): pass ``game.view(player)``.

    The result is a complete SVG document (text without an XML declaration) with a
    ``<title>`` and a ``<desc>`` that say what it shows, for screen readers. The same view
    always gives the same text. Write it to a ``.svg`` file or put it inline in an HTML page;
    several inline pictures on one page share the same icon definitions (ids ``tt-*``).

    >>> import tricky_treats as tt
    >>> svg = tt.board_svg(tt.new_game(3, seed=1).view(0), parts=["market"])
    >>> svg.startswith("<svg ") and "<title>" in svg
    True
    """
    if not isinstance(view, PlayerView):
        raise ConfigurationError(
            f"board_svg draws a PlayerView, not {brief(view)}: pass game.view(player), never "
            "the game state, so that the picture shows only what that player may see"
        )
    chosen = [parts] if isinstance(parts, str) else list(BOARD_PARTS if parts is None else parts)
    unknown = [p for p in chosen if p not in _PARTS]
    if unknown or not chosen:
        raise ConfigurationError(
            f"board_svg cannot draw {', '.join(brief(p) for p in unknown) or 'nothing'}: "
            f"choose parts from {', '.join(BOARD_PARTS)}"
        )
    order = [p for p in BOARD_PARTS if p in chosen]
    panels = {name: _PARTS[name](view) for name in order}

    # The grid and the mean houses side by side; every other part below, one after the other.
    rows: list[list[_Panel]] = []
    top = [panels[p] for p in ("grid", "mean-houses") if p in panels]
    if top:
        rows.append(top)
    rows.extend([panels[p]] for p in order if p not in ("grid", "mean-houses"))
    heading = _heading(view)
    y = _MARGIN + 30
    placed: list[str] = []
    width = 0
    for row in rows:
        x = _MARGIN
        for panel in row:
            placed.append(f'<g transform="translate({x},{y})">{"".join(panel.items)}</g>')
            x += panel.width + _GAP
        width = max(width, x - _GAP + _MARGIN)
        y += max(p.height for p in row) + _GAP
    height = y - _GAP + _MARGIN
    width = max(width, 420)
    me = view.players[view.player]
    description = _description(view, order)
    # Ids unique to the picture (and the same for the same view), so that several pictures
    # inline in one HTML page keep their own title and description.
    key = hashlib.sha256(f"{width}x{height}\n{description}".encode()).hexdigest()[:10]
    title = f"Tricky Treats, {heading.lower() if heading.startswith('Round') else heading}"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" '
        f'aria-labelledby="tt-title-{key} tt-desc-{key}" '
        f'style="{_FONT}">'
        f'<title id="tt-title-{key}">{_e(title)}, as {_e(me.name)} sees it</title>'
        f'<desc id="tt-desc-{key}">{_e(description)}</desc>'
        f"<defs>{_SYMBOLS}</defs>"
        f'<rect width="{width}" height="{height}" fill="#fdf6e3"/>'
        f'<text x="{_MARGIN}" y="{_MARGIN + 16}" font-size="20" font-weight="bold" '
        f'fill="{_INK}">{_e(heading)}</text>'
        f'<text x="{width - _MARGIN}" y="{_MARGIN + 16}" font-size="12" fill="#666" '
        f'text-anchor="end">as {_e(me.name)} ({_seat_letter(view.player)}) sees it</text>'
        + "".join(placed)
        + "</svg>\n"
    )
