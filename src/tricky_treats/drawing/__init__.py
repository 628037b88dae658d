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

This module draws the picture and says it in words; beside it, ``style`` (colours and sizes),
``svg`` (a tiny SVG writer and the icons), ``words`` (components in words) and ``panels`` (the
parts of the picture).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

from tricky_treats.components import (
    Treat,
)
from tricky_treats.drawing.panels import _PARTS, _kid_label, _sheet_cells
from tricky_treats.drawing.style import _FONT, _GAP, _INK, _MARGIN, _seat_letter
from tricky_treats.drawing.svg import _SYMBOLS, _e, _Panel
from tricky_treats.drawing.words import (
    _card_words,
    _feature_words,
    _icon_words,
    _round,
    _tile_words,
    _winners,
)
from tricky_treats.errors import ConfigurationError, brief
from tricky_treats.events import _street_name
from tricky_treats.i18n import _, speaking
from tricky_treats.views import PlayerView, _OnlookerView
from tricky_treats.words import treat_amount, word

__all__ = ["BOARD_PARTS", "BoardSvg", "board_svg"]


class BoardSvg(str):
    """A picture of ``board_svg``: SVG text that a notebook draws.

    It is a ``str`` (write it to a file, put it in a page, compare it, as before), and Jupyter
    and IPython show it as the picture, through ``_repr_svg_``, as python-chess's boards are
    shown.
    """

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)


MIN_SIZE, MAX_SIZE = 100, 10_000
"""The widths ``board_svg(size=...)`` draws at, in pixels."""


BOARD_PARTS = ("grid", "mean-houses", "market", "kids", "players", "scores")
"""The parts ``board_svg`` can draw, in the order it draws them.

``grid``: the nine nice houses with the street bonus tokens; ``mean-houses``: the mean houses
with their trick tiles; ``market``: the face-up costume cards and the deck; ``kids``: the
viewer's kids, drawn large; ``players``: one line per player (kids, treat tracks, pumpkins,
footprints, secret tile, points); ``scores``: the score sheets.
"""


# -- words for screen readers ----------------------------------------------------------------


def _heading(view: PlayerView) -> str:
    names = [p.name for p in view.players]
    if view.is_over:
        won = _winners(view)
        who = _(" and ").join(names[w] for w in won)
        if len(won) == 1:
            return _("Game over: {who} wins").format(who=who)
        return _("Game over: {who} share the win").format(who=who)
    assert view.current_player is not None
    return _("Round {round}: {name} to play").format(
        round=_round(view), name=names[view.current_player]
    )


def _description(view: PlayerView, parts: Sequence[str]) -> str:
    names = [p.name for p in view.players]
    me = view.players[view.player]
    lines = [
        _("{heading}. As {viewer} sees the table.").format(
            heading=_heading(view), viewer=_viewer(view)
        )
    ]
    if "grid" in parts:
        for house, cell in enumerate(view.grid):
            n = cell.neighbour
            tiers = ", ".join(
                _("{cards} cards give {treats}").format(cards=t.cards, treats=t.treats)
                for t in n.tiers
            )
            went = [names[p] for p, pl in enumerate(view.players) if house in pl.visited]
            pumpkin = _("its pumpkin is there") if view.pumpkin_on_house[house] else _("no pumpkin")
            lines.append(
                _(
                    "Nice house {house} likes {feature} and gives {treat} ({tiers}); {pumpkin}"
                ).format(
                    house=house,
                    feature=_feature_words(n.wants),
                    treat=word(cell.treat.value),
                    tiers=tiers,
                    pumpkin=pumpkin,
                )
                + (_("; visited by {names}").format(names=", ".join(went)) if went else "")
                + "."
            )
        for street, token in enumerate(view.street_tokens):
            amount = token.back if view.street_flipped[street] else token.front
            lines.append(
                _("Street bonus of {street}: {treats}.").format(
                    street=_street_name(street), treats=treat_amount(amount, token.treat)
                )
            )
    if "mean-houses" in parts:
        for house, mean in enumerate(view.mean_houses):
            went = [names[p] for p, pl in enumerate(view.players) if house in pl.tricked]
            lines.append(
                _("Mean house {house} shows {icon}; its trick tile: {tile}").format(
                    house=house, icon=_icon_words(mean.icon), tile=_tile_words(mean.tile)
                )
                + (_("; its pumpkin is there") if view.pumpkin_on_mean_house[house] else "")
                + (_("; tricked by {names}").format(names=", ".join(went)) if went else "")
                + "."
            )
    if "market" in parts:
        cards = [
            _("slot {slot}: {card}").format(
                slot=s, card=_card_words(c) if c is not None else _("empty")
            )
            for s, c in enumerate(view.market)
        ]
        lines.append(
            _("Market: {cards}. Deck: {count} cards.").format(
                cards="; ".join(cards), count=view.deck_size
            )
        )
    if "kids" in parts and "players" not in parts:
        lines.extend(
            _("{name}'s {kid}.").format(name=me.name, kid=_kid_label(kid, i))
            for i, kid in enumerate(me.kids)
        )
    if "players" in parts:
        for seat, player in enumerate(view.players):
            treats = ", ".join(
                treat_amount(n, t) for t, n in zip(Treat, player.treats, strict=False)
            )
            kids = "; ".join(_kid_label(kid, i) for i, kid in enumerate(player.kids))
            lines.append(
                _(
                    "{name}: {treats}; {pumpkins} pumpkins; {footprints} footprints left; "
                    "{points} points. {kids}."
                ).format(
                    name=player.name,
                    treats=treats,
                    pumpkins=player.pumpkins,
                    footprints=player.footprints,
                    points=view.scores[seat].total,
                    kids=kids,
                )
            )
    if "scores" in parts:
        for sheet in view.scores:
            cells = _sheet_cells(view, sheet)
            lines.append(
                _(
                    "Score sheet of {name}: pumpkins {pumpkins}, costumes {costumes}, trick "
                    "tiles {tiles}, extras {extras}, total {total}."
                ).format(
                    name=cells[0],
                    pumpkins=cells[1],
                    costumes=cells[2],
                    tiles=cells[3],
                    extras=cells[4],
                    total=cells[5],
                )
            )
    return "\n".join(lines)


def _viewer(view: PlayerView) -> str:
    """Whose view ``view`` is, in words: a player's name, or everyone (a state's drawing)."""
    if isinstance(view, _OnlookerView):
        return _("everyone at the table")
    return view.players[view.player].name


# -- the picture ---------------------------------------------------------------------------------


def board_svg(
    view: PlayerView,
    *,
    parts: str | Iterable[str] | None = None,
    language: str | None = None,
    size: int | None = None,
) -> BoardSvg:
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
    ``language`` (``"en"``, ``"nl"``) is the language of its words; English by default.
    ``size`` is the width in pixels it is shown at (``MIN_SIZE`` to ``MAX_SIZE``), its height
    in proportion; by default its own size, about 970 pixels wide for the whole table. The
    result is a ``BoardSvg``: a ``str`` that a notebook draws as the picture.

    >>> import tricky_treats as tt
    >>> from tricky_treats.drawing import board_svg
    >>> svg = board_svg(tt.new_game(3, seed=1).view(0), parts=["market"], size=400)
    >>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" width="400" ')
    True
    >>> "<title>" in svg and svg._repr_svg_() == svg
    True
    """
    if size is not None and (
        isinstance(size, bool) or not isinstance(size, int) or not MIN_SIZE <= size <= MAX_SIZE
    ):
        raise ConfigurationError(
            f"board_svg's size is a width in pixels, a whole number from {MIN_SIZE} to "
            f"{MAX_SIZE:,}; got {brief(size)}"
        )
    with speaking(language):
        return BoardSvg(_board_svg(view, parts, size))


def _board_svg(view: PlayerView, parts: str | Iterable[str] | None, size: int | None) -> str:
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
    viewer = _viewer(view)
    if not isinstance(view, _OnlookerView):
        viewer += f" ({_seat_letter(view.player)})"
    description = _description(view, order)
    # Ids unique to the picture (and the same for the same view), so that several pictures
    # inline in one HTML page keep their own title and description.
    key = hashlib.sha256(f"{width}x{height}\n{description}".encode()).hexdigest()[:10]
    title = f"Tricky Treats, {heading[0].lower()}{heading[1:]}"  # names keep their capitals

    seen_by = _("as {viewer} sees it").format(viewer=viewer)

    def as_seen(title: str, viewer: str) -> str:
        return _("{title}, as {viewer} sees it").format(title=title, viewer=viewer)

    shown = (width, height) if size is None else (size, max(1, round(height * size / width)))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{shown[0]}" height="{shown[1]}" '
        f'viewBox="0 0 {width} {height}" role="img" '
        f'aria-labelledby="tt-title-{key} tt-desc-{key}" '
        f'style="{_FONT}">'
        f'<title id="tt-title-{key}">{_e(as_seen(title, _viewer(view)))}</title>'
        f'<desc id="tt-desc-{key}">{_e(description)}</desc>'
        f"<defs>{_SYMBOLS}</defs>"
        f'<rect width="{width}" height="{height}" fill="#fdf6e3"/>'
        f'<text x="{_MARGIN}" y="{_MARGIN + 16}" font-size="20" font-weight="bold" '
        f'fill="{_INK}">{_e(heading)}</text>'
        f'<text x="{width - _MARGIN}" y="{_MARGIN + 16}" font-size="12" fill="#666" '
        f'text-anchor="end">{_e(seen_by)}</text>' + "".join(placed) + "</svg>\n"
    )
