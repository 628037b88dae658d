"""The parts of the picture, each a panel: grid, mean houses, market, kids, players, scores."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tricky_treats._terminal import short_word
from tricky_treats.components import (
    Colour,
    CostumeCard,
    CostumeType,
    Feature,
    Treat,
)
from tricky_treats.drawing.style import (
    _CARD_GAP,
    _CARD_H,
    _CARD_W,
    _COLOUR,
    _HOUSE_GAP,
    _HOUSE_H,
    _HOUSE_W,
    _INK,
    _MEAN_H,
    _MEAN_W,
    _MINI_W,
    _PAPER,
    _ROW_H,
    _TITLE,
    _TOKEN_W,
    _TREAT,
    _ZONE_H,
    _seat_colour,
    _seat_letter,
    _zone_y,
)
from tricky_treats.drawing.svg import _ICON_SYMBOL, _e, _Panel
from tricky_treats.drawing.words import _card_words, _icon_words, _tile_words, _winners
from tricky_treats.i18n import _
from tricky_treats.scoring import ScoreSheet, costume_points
from tricky_treats.views import PlayerView, _OnlookerView
from tricky_treats.words import word

__all__: list[str] = []


# -- the parts -----------------------------------------------------------------------------------


def _matching(view: PlayerView, feature: Feature) -> int:
    return sum(card.has(feature) for kid in view.players[view.player].kids for card in kid)


def _footprints(panel: _Panel, x: float, y: float, seats: Sequence[int]) -> None:
    for i, seat in enumerate(seats):
        cx = x + 9 + i * 19
        whose = _("footprint of player {letter}").format(letter=_seat_letter(seat))
        panel.add(
            f'<circle cx="{cx:g}" cy="{y:g}" r="8" fill="{_seat_colour(seat)}" stroke="#fff">'
            f"<title>{_e(whose)}</title></circle>"
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
        f"<title>{_e(word(treat.value))}</title></circle>"
    )
    label = word(treat.value)[0].upper() if amount is None else str(amount)
    panel.text(x, y + 5, label, size=14, weight="bold", fill="#fff", anchor="middle")


def _grid_panel(view: PlayerView) -> _Panel:
    step = _HOUSE_W + _HOUSE_GAP
    width = 3 * step + _TOKEN_W
    height = _TITLE + 3 * (_HOUSE_H + _HOUSE_GAP) + 52
    panel = _Panel(width, height)
    panel.heading(_("Nice neighbours: visit them for treats"))
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
        panel.text(8, 18, _("house {house}").format(house=house), size=11, fill="#6b5a3a")
        colour = _COLOUR.get(wants) if isinstance(wants, Colour) else None
        likes = _("likes {feature}").format(feature=word(wants.value))
        # A longer word (a translation's) is drawn smaller, so that it stays inside the house.
        size = 16 if len(likes) <= 12 else 13
        panel.text(8, 40, likes, size=size, weight="bold", fill=colour or _INK)
        tiers = "  ".join(f"{t.cards}→{t.treats}" for t in neighbour.tiers)
        panel.text(8, 60, _("cards→treats: {tiers}").format(tiers=tiers), size=11)
        mine = _("{name} has {count}").format(name=view.players[view.player].name, count=have)
        panel.text(8, 78, mine, size=11, weight="bold" if can else "normal",
                   fill="#1d7a36" if can else "#777")  # fmt: skip
        _treat_token(panel, _HOUSE_W - 20, 20, cell.treat)
        panel.text(_HOUSE_W - 20, 46, word(cell.treat.value), size=10, anchor="middle")
        if view.pumpkin_on_house[house]:
            panel.use("pumpkin", _HOUSE_W - 34, _HOUSE_H - 32, 28, _("pumpkin still here"))
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
        panel.text(tx + 35, ty + 19, _("street"), size=10)
        panel.text(tx + 35, ty + 33, _("back") if flipped else _("front"), size=10)
    return panel


def _mean_panel(view: PlayerView) -> _Panel:
    houses = view.mean_houses
    panel = _Panel(_MEAN_W, _TITLE + len(houses) * (_MEAN_H + _HOUSE_GAP))
    panel.heading(_("Mean neighbours: trick them"))
    icons = [kid[-1].icon for kid in view.players[view.player].kids if kid]
    for house, mean in enumerate(houses):
        y = _TITLE + house * (_MEAN_H + _HOUSE_GAP)
        panel.add(f'<g transform="translate(0,{y})">')
        panel.rect(0, 0, _MEAN_W, _MEAN_H, fill="#3b2f4a", stroke="#1c1524")
        panel.text(8, 18, _("mean house {house}").format(house=house), size=11, fill="#d8cce6")
        panel.rect(8, 26, 40, 40, fill="#f4efe6", stroke="none", radius=20)
        panel.use(_ICON_SYMBOL.get(mean.icon, "egg"), 12, 30, 32, _icon_words(mean.icon))
        if view.rules.any_mean_house:
            need = _("3 kids showing one icon")
            shown = max((icons.count(i) for i in set(icons)), default=0)
        else:
            need = _("3 kids showing {icon}").format(icon=_icon_words(mean.icon))
            shown = icons.count(mean.icon)
        panel.text(56, 40, need, size=12, weight="bold", fill="#fff")
        panel.text(56, 58, _("tile: {tile}").format(tile=_tile_words(mean.tile)), size=11,
                   fill="#ffe08a")  # fmt: skip
        shows = _("{name} shows {count}").format(name=view.players[view.player].name, count=shown)
        panel.text(56, 76, shows, size=11,
                   fill="#c6f0c6" if shown >= 3 and not view.is_over else "#bbb")  # fmt: skip
        if view.pumpkin_on_mean_house[house]:
            panel.use("pumpkin", _MEAN_W - 34, _MEAN_H - 32, 28, _("pumpkin still here"))
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
        panel.text(_CARD_W / 2, zone + 13, word(card.theme.value), size=12, weight="bold",
                   fill="#fff", anchor="middle")  # fmt: skip
        kind = f"{word(card.colour.value)} {word(card.type.value)}"
        panel.text(_CARD_W / 2, zone + 24, kind, size=8, fill="#fff", anchor="middle")
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
    panel.heading(_("Market: take a card and put it on one of your kids"))
    y = _TITLE + 18
    for slot, card in enumerate(view.market):
        x = slot * (_CARD_W + _CARD_GAP)
        label = _("slot {slot}").format(slot=slot)
        panel.text(x + _CARD_W / 2, y - 4, label, size=11, anchor="middle")
        if card is None:
            panel.rect(x, y, _CARD_W, _CARD_H, fill="#f4f4f4", stroke="#bbb", radius=8,
                       extra=' stroke-dasharray="5 4"')  # fmt: skip
            panel.text(x + _CARD_W / 2, y + _CARD_H / 2, _("empty"), size=12, fill="#888",
                       anchor="middle")  # fmt: skip
        else:
            _card(panel, x, y, (card,), f"{label}: {_card_words(card)}")
    x = slots * (_CARD_W + _CARD_GAP) + 8
    for offset in (8, 4, 0):
        panel.rect(x + offset, y + offset, _CARD_W, _CARD_H - 8, fill="#5b4a7a", stroke="#fff",
                   radius=8)  # fmt: skip
    panel.text(x + _CARD_W / 2, y + 60, _("deck"), size=14, weight="bold", fill="#fff",
               anchor="middle")  # fmt: skip
    cards = _("{count} cards").format(count=view.deck_size)
    panel.text(x + _CARD_W / 2, y + 80, cards, size=12, fill="#fff", anchor="middle")
    panel.text(x + _CARD_W / 2, y + 96, _("face down"), size=10, fill="#ddd", anchor="middle")
    return panel


def _kid_label(kid: Sequence[CostumeCard], index: int) -> str:
    if not kid:
        return _("kid {kid}: no costume yet").format(kid=index)
    cards = ", ".join(_card_words(c) for c in kid)
    return _("kid {kid}: {cards}; shows {icon} on top").format(
        kid=index, cards=cards, icon=_icon_words(kid[-1].icon)
    )


def _kid_status(kid: Sequence[CostumeCard]) -> str:
    if len(kid) >= len(CostumeType):
        return _("complete: {points} points").format(points=costume_points(kid))
    return _("{count} of {pieces} pieces").format(count=len(kid), pieces=len(CostumeType))


def _kids_panel(view: PlayerView) -> _Panel:
    me = view.players[view.player]
    labels = [*(short_word(kind.value) for kind in CostumeType), _("trick")]
    left = max(44, 12 + 6 * max(map(len, labels)))  # room for the row labels in any language
    panel = _Panel(left + len(me.kids) * (_CARD_W + _CARD_GAP), _TITLE + 20 + _CARD_H + 22)
    panel.heading(
        _("{name}'s kids: cards lie on top of each other, and they are transparent").format(
            name=me.name
        )
    )
    y = _TITLE + 18
    for kind, label in zip(CostumeType, labels, strict=False):
        panel.text(left - 6, y + _zone_y(kind) + 18, label, size=10, fill="#777", anchor="end")
    panel.text(left - 6, y + 134, labels[-1], size=10, fill="#777", anchor="end")
    for index, kid in enumerate(me.kids):
        x = left + index * (_CARD_W + _CARD_GAP)
        panel.text(x + _CARD_W / 2, y - 4, _("kid {kid}").format(kid=index), size=11,
                   anchor="middle")  # fmt: skip
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
        panel.text((_MINI_W - 6) / 2, zone + 10, word(card.theme.value), size=9, fill="#fff",
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
    panel.heading(_("Players"))
    for seat, player in enumerate(view.players):
        y = _TITLE + seat * (_ROW_H + 6)
        acting = seat == view.current_player
        panel.rect(0, y, width, _ROW_H, fill="#fff8e1" if acting else "#fafafa",
                   stroke=_seat_colour(seat) if acting else "#ddd")  # fmt: skip
        panel.add(f'<circle cx="20" cy="{y + 22}" r="12" fill="{_seat_colour(seat)}"/>')
        panel.text(20, y + 27, _seat_letter(seat), size=13, weight="bold", fill="#fff",
                   anchor="middle")  # fmt: skip
        you = seat == view.player and not isinstance(view, _OnlookerView)
        name = player.name + (_(" (you)") if you else "")
        panel.text(38, y + 27, name[:20], size=14, weight="bold")
        if acting:
            panel.text(38, y + 45, _("to play"), size=11, weight="bold", fill="#b35900")
        panel.use("pumpkin", 10, y + 52, 22, _("pumpkins"))
        left = _("{pumpkins} · footprints left: {footprints}").format(
            pumpkins=player.pumpkins, footprints=player.footprints
        )
        panel.text(36, y + 69, left, size=11)
        for index, kid in enumerate(player.kids):
            _mini_kid(panel, 170 + index * _MINI_W, y + 9, kid, _kid_label(kid, index))
        for i, (treat, amount) in enumerate(zip(Treat, player.treats, strict=False)):
            x = treats_x + i * 92
            _treat_token(panel, x + 14, y + 24, treat, amount)
            panel.text(x + 31, y + 29, word(treat.value), size=11)
        tile = view.secret_tiles[seat]
        secret = (
            _("secret tile: {tile}").format(tile=_tile_words(tile))
            if tile is not None
            else _("secret tile: hidden")
        )
        panel.text(treats_x, y + 62, secret, size=11, fill="#555")
        panel.text(width - 12, y + 34, f"{view.scores[seat].total}", size=22, weight="bold",
                   anchor="end")  # fmt: skip
        points = _("points") if view.is_over else _("points so far")
        panel.text(width - 12, y + 52, points, size=10, anchor="end")
    return panel


def _sheet_cells(view: PlayerView, sheet: ScoreSheet) -> list[str]:
    tiles = []
    for score in sheet.trick_tiles:
        where = (
            _("secret")
            if score.mean_house is None
            else _("mean {house}").format(house=score.mean_house)
        )
        tiles.append(f"{score.points} ({where})")
    if view.secret_tiles[sheet.player] is None:
        tiles.append(_("secret hidden"))
    return [
        view.players[sheet.player].name[:16],
        str(sheet.pumpkins),
        " + ".join(map(str, sheet.costumes)),
        " + ".join(tiles) or "-",
        str(sum(extra.points for extra in sheet.extras)),
        str(sheet.total),
    ]


def _scores_panel(view: PlayerView) -> _Panel:
    widths = ((_("player"), 150), (_("pumpkins"), 80), (_("costumes"), 170),
              (_("trick tiles"), 300), (_("extras"), 60), (_("total"), 60))  # fmt: skip
    # A column is at least as wide as its heading (a translation may be longer).
    columns = [(name, max(w, 8 * len(name) + 12)) for name, w in widths]
    width = sum(w for _name, w in columns)
    winners = _winners(view)
    rows = len(view.scores)
    panel = _Panel(width, _TITLE + 26 * (rows + 1) + 24)
    panel.heading(_("Score sheets") if view.is_over else _("Score sheets so far"))
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
        for (_name, w), cell in zip(columns, cells, strict=True):
            panel.text(x + 6, y + 26 * row + 18, cell, size=12, weight="bold" if won else "normal")
            x += w
    note = (
        _("winner(s) highlighted; a tie goes to the most points from trick tiles")
        if view.is_over
        else _("secret tiles count only at the end")
        if isinstance(view, _OnlookerView)
        else _("other players' secret tiles count only at the end")
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
