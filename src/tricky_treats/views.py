"""Per-player views: everything one player may see, and nothing else (R16).

A view leaves out the deck order (only its size shows) and every other player's secret trick
tile until the game is over. Score sheets in a view show the points so far (R24), with the
other players' secret tiles left out while the game goes on, and so are the lines variants
add to other players' sheets, unless the variant declares them public
(``Variant.public_scoring``): a scoring function sees the whole state. Send a client its
view, never the ``GameState``.
"""

from __future__ import annotations

import operator
from bisect import bisect_left
from typing import TYPE_CHECKING, Any

import attrs

from tricky_treats._construct import _fast_constructor
from tricky_treats.actions import Action
from tricky_treats.components import CostumeCard, RulesData, StreetBonusToken, TrickTile
from tricky_treats.model import (
    EndTrigger,
    GridHouse,
    MeanHouse,
    PlayerState,
    VariantRef,
    _history,
    _setup_memo,
)
from tricky_treats.scoring import (
    _PUBLIC,
    _SEAT,
    _SHEET,
    _TOKEN,
    ScoreSheet,
    _board_memo,
    _game_key,
    _kept_sheet,
    _sheet,
    _sheets,
)

if TYPE_CHECKING:
    from tricky_treats.model import GameState, Setup

__all__ = ["PlayerView", "PublicPlayer", "player_view"]


@attrs.frozen
class PublicPlayer:
    """What everyone sees of a player's board; their secret tile is not part of it."""

    name: str
    """The player's name."""
    kids: tuple[tuple[CostumeCard, ...], ...]
    """Each kid's cards, bottom first; the last one is on top (R3)."""
    treats: tuple[int, ...]
    """The treat tracks, in the order of ``Treat``."""
    pumpkins: int
    """Pumpkins taken (R6)."""
    visited: frozenset[int]
    """The nice houses this player visited."""
    tricked: frozenset[int]
    """The mean houses this player tricked."""
    footprints: int
    """Footprints left to place."""


@attrs.frozen(repr=False)
class PlayerView:
    """The game as ``player`` sees it.

    ``secret_tiles[p]`` is player p's secret tile where ``player`` may see it (their own, and
    everyone's once the game is over) and None elsewhere.

    ``print(view)`` draws the table as text (the terminal's table) and a notebook draws the
    view as a picture (``board_svg``); ``repr()`` stays short, like a ``GameState``'s.
    """

    player: int
    """The seat whose view this is."""
    first_player: int
    """The seat that played first (R20)."""
    variants: tuple[VariantRef, ...]
    """The variants the game was created with."""
    variant_options: dict[str, dict[str, Any]]
    """Options per variant name, as JSON values."""
    rules: RulesData
    """The rules in force (after the game's variants)."""
    players: tuple[PublicPlayer, ...]
    """What everyone sees of every player's board, in seat order."""
    secret_tiles: tuple[TrickTile | None, ...]
    """Per seat, the secret tile where the viewer may see it, else None."""
    unseen_tiles: tuple[TrickTile, ...]
    """The tiles the viewer cannot see, by id: other players' secret tiles and the box's."""
    grid: tuple[GridHouse, ...]
    """The 9 nice houses, row by row."""
    street_tokens: tuple[StreetBonusToken, ...]
    """The 6 street bonus tokens: rows 0 to 2, then columns 0 to 2."""
    street_flipped: tuple[bool, ...]
    """Per street, whether its token shows its back (R7)."""
    mean_houses: tuple[MeanHouse, ...]
    """The 3 mean houses with their (public) trick tiles."""
    pumpkin_on_house: tuple[bool, ...]
    """Per nice house, whether its pumpkin is still there."""
    pumpkin_on_mean_house: tuple[bool, ...]
    """Per mean house, whether its pumpkin is still there."""
    market: tuple[CostumeCard | None, ...]
    """The market by slot; None for a slot the deck could not refill."""
    deck_size: int
    """Cards left in the deck."""
    deck_cards: tuple[CostumeCard, ...]
    """The cards left in the deck, by id: what is in it is public, its order is not (R16)."""
    discarded: tuple[CostumeCard, ...]
    """Cards discarded by refreshing the market, in order (R23)."""
    current_player: int | None
    """The seat to act, or None once the game is over."""
    turn: int
    """Turns finished so far."""
    passes_in_a_row: int
    """Consecutive turns that ended in a pass (R17)."""
    end_trigger: EndTrigger | None
    """What triggered the end, once it is triggered; else None."""
    scores: tuple[ScoreSheet, ...]
    """Score sheets so far (R24), other players' secret tiles left out until the end."""
    history: tuple[Action, ...]
    """Every action so far, oldest first (public)."""
    legal_actions: tuple[Action, ...]
    """The viewer's legal actions; empty when it is not their turn."""

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.current_player is None

    @property
    def secret_tile(self) -> TrickTile | None:
        """The viewer's own secret tile."""
        return self.secret_tiles[self.player]

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(player={self.player}, current_player={self.current_player}, "
            f"turn={self.turn})"
        )

    def __str__(self) -> str:
        from tricky_treats.drawing.text import view_text  # drawing is a layer above views

        return view_text(self)

    def _repr_svg_(self) -> str:
        """The picture a notebook (Jupyter, IPython) shows for the view: ``board_svg(view)``."""
        from tricky_treats.drawing import board_svg

        return board_svg(self)


@attrs.frozen(repr=False)
class _OnlookerView(PlayerView):
    """What everyone at the table sees: a view with no secret tile in it until the end.

    What ``print(game)`` and a notebook draw for a ``GameState`` (``tricky_treats.drawing``):
    a state holds everything, and its drawing must not show a secret tile a log or a shared
    notebook would give away. ``player`` is the seat to act (seat 0 at the end), whose
    kids are drawn large and whose matching cards the houses count; the score sheets are the
    ones every player sees of the others (secret tiles and private variant lines left out)
    until the game is over, when every view shows everything.
    """


def _onlooker_view(state: GameState) -> PlayerView:
    """``state`` as everyone sees it (see ``_OnlookerView``)."""
    seat = state.current_player
    view = state.view(0 if seat is None else seat)
    fields = {f.name: getattr(view, f.name) for f in attrs.fields(PlayerView)}
    if view.is_over:
        return _OnlookerView(**fields)  # every view shows everything
    shown = state.setup.secret_tiles_face_up  # a variant may deal them face up
    if not shown:
        fields["secret_tiles"] = (None,) * len(state.players)
        fields["unseen_tiles"] = tuple(
            sorted([*view.unseen_tiles, state.players[view.player].secret_tile], key=_BY_ID)
        )
    # Every sheet as the other players see it: the acting seat's private lines left out too.
    fields["scores"] = tuple(
        _sheet(state, p, secret_tile=shown, extras=False) for p in range(len(state.players))
    )
    return _OnlookerView(**fields)


def player_view(state: GameState, player: int) -> PlayerView:
    """Build ``player``'s view of ``state`` (the player index is not checked here).

    What does not change from one state to the next (public boards, score sheets of boards
    that did not change, the history, the cards left in the deck) is shared with the views
    of earlier states, and what all seats see of one state is shared by their views, so a
    view costs about the same early and late in a game. Everything shared is immutable, and
    what one seat may not see is never part of what is shared with its view.
    """
    setup = state.setup
    memo = getattr(setup, "_memo", None)
    if memo is None:
        memo = _setup_memo(setup)
    players = state.players
    current = state.current_player
    over = current is None
    shown = over or setup.secret_tiles_face_up  # R16, or dealt face up by a variant

    # What every view of states with these boards shares.
    boards: _Boards | None = memo.get("boards")
    if boards is None or boards[0] is not players:  # the entry keeps its boards alive
        boards = memo["boards"] = _boards(state, player, shown)
    # What this seat sees of the secret tiles, and which tiles it cannot see.
    seats: dict[tuple[int, bool], Any] | None = memo.get("seats")
    if seats is None:
        seats = memo["seats"] = {}
    seat = seats.get((player, shown))
    if seat is None or seat[0] != boards[2]:
        seat = seats[player, shown] = _seat(setup, boards[2], player, shown)
    # Score sheets: other players' secret tiles and the lines of scorers that may read
    # hidden information wait for the end of the game, as the secret tiles do (R16).
    if over:
        sheets = _sheets(state, secret_tile=True, extras=True)
    else:
        viewers = boards[3]
        kept = None if viewers is None else viewers[player]
        if kept is None:
            sheets = _viewer_sheets(state, player, shown)
            if viewers is not None:
                viewers[player] = sheets
        else:
            sheets = kept

    legal = state.legal_actions() if current == player else ()
    options = setup.config.variant_options
    return _new_view(
        player,
        setup.config.first_player,
        setup.config.variants,
        {k: dict(v) for k, v in options.items()} if options else {},
        setup.rules,
        boards[1],
        seat[1],
        seat[2],
        setup.grid,
        setup.street_tokens,
        state.street_flipped,
        setup.mean_houses,
        state.pumpkin_on_house,
        state.pumpkin_on_mean_house,
        state.market,
        len(setup.deck) - state.deck_position,
        _deck_cards(setup, memo, state.deck_position),
        state.discarded,
        current,
        state.turn,
        state.passes_in_a_row,
        state.end_trigger,
        sheets,
        _history(setup, state.log),
        legal,
    )


_Boards = tuple[
    tuple[PlayerState, ...],
    tuple[PublicPlayer, ...],
    tuple[TrickTile, ...],
    list[tuple[ScoreSheet, ...] | None] | None,
]
"""A memo entry: the boards, their public parts, their secret tiles, and per viewer the
score sheets it sees while the game goes on, worked out on first use (None where variants'
lines may read more than the boards: then they are worked out for every view)."""


def _boards(state: GameState, player: int, shown: bool) -> _Boards:
    """The memo entry for ``state.players``; each board keeps what was worked out from it.

    While the game goes on, the same pass works out the sheets ``player`` sees.
    """
    token, kept = _game_key(state.setup)
    players = state.players
    public = []
    sheets: list[ScoreSheet] | None = [] if kept and state.current_player is not None else None
    own = _SHEET + 3  # the slot of the sheet with the secret tile and every line
    other = _SHEET + 2 * shown  # the slot of the sheet with public lines only
    for seat, board in enumerate(players):
        memo = getattr(board, "_memo", None)
        if memo is None or memo[_TOKEN] is not token or memo[_SEAT] != seat:
            memo = _board_memo(board, token, seat)
        visible: PublicPlayer | None = memo[_PUBLIC]
        if visible is None:
            visible = memo[_PUBLIC] = _new_public(
                board.name,
                board.kids,
                board.treats,
                board.pumpkins,
                board.visited,
                board.tricked,
                board.footprints,
            )
        public.append(visible)
        if sheets is not None:
            slot = own if seat == player else other
            sheet: ScoreSheet | None = memo[slot]
            if sheet is None:
                sheet = _kept_sheet(state, seat, memo, slot == own or shown, slot == own)
            sheets.append(sheet)
    viewers: list[tuple[ScoreSheet, ...] | None] | None = None
    if kept:
        viewers = [None] * len(players)
        if sheets is not None:
            viewers[player] = tuple(sheets)
    return players, tuple(public), tuple(map(_SECRET_TILE, players)), viewers


def _viewer_sheets(state: GameState, player: int, shown: bool) -> tuple[ScoreSheet, ...]:
    """The sheets ``player`` sees while the game goes on.

    Their own in full; the others' without the secret tile (unless ``shown``) and without
    the lines of scorers that are not public.
    """
    token, kept = _game_key(state.setup)
    if not kept:
        return tuple(
            [
                _sheet(state, p, secret_tile=shown or p == player, extras=p == player)
                for p in range(len(state.players))
            ]
        )
    own = _SHEET + 3
    other = _SHEET + 2 * shown
    sheets = []
    for seat, board in enumerate(state.players):
        slot = own if seat == player else other
        memo = getattr(board, "_memo", None)
        if memo is None or memo[_TOKEN] is not token or memo[_SEAT] != seat:
            memo = _board_memo(board, token, seat)
        sheet: ScoreSheet | None = memo[slot]
        if sheet is None:
            sheet = _kept_sheet(state, seat, memo, slot == own or shown, slot == own)
        sheets.append(sheet)
    return tuple(sheets)


def _seat(
    setup: Setup, tiles: tuple[TrickTile, ...], player: int, shown: bool
) -> tuple[tuple[TrickTile, ...], tuple[TrickTile | None, ...], tuple[TrickTile, ...]]:
    """The memo entry for one seat: the secret tiles it sees, and the tiles it cannot see."""
    memo = _setup_memo(setup)
    off_board: list[TrickTile] | None = memo.get("off-board")
    if off_board is None:  # the box's tiles not on a mean house, by id
        on_board = {m.tile.id for m in setup.mean_houses}
        off_board = memo["off-board"] = sorted(
            [t for t in setup.components.trick_tiles if t.id not in on_board], key=_BY_ID
        )
    if shown:
        secret_tiles: tuple[TrickTile | None, ...] = tiles
        in_sight = {t.id for t in tiles}
        return tiles, secret_tiles, tuple([t for t in off_board if t.id not in in_sight])
    own = tiles[player]
    secret_tiles = (None,) * player + (own,) + (None,) * (len(tiles) - player - 1)
    index = bisect_left(off_board, own.id, key=_BY_ID)
    if index < len(off_board) and off_board[index].id == own.id:  # ids are unique in a box
        return tiles, secret_tiles, (*off_board[:index], *off_board[index + 1 :])
    return tiles, secret_tiles, tuple(off_board)


def _deck_cards(setup: Setup, memo: dict[Any, Any], position: int) -> tuple[CostumeCard, ...]:
    """The cards left in the deck from ``position`` on, in id order (their order is hidden).

    The memo keeps the last answer; a later position takes out only the cards drawn since
    (card ids are unique in a box, so each is found by bisection).
    """
    entry = memo.get("deck")
    if entry is not None:
        last: int = entry[0]
        cards: tuple[CostumeCard, ...] = entry[1]
        if last == position:
            return cards
        if last < position:
            for card in setup.deck[last:position]:
                index = bisect_left(cards, card.id, key=_BY_ID)
                if index == len(cards) or cards[index] is not card:
                    break  # not where it should be: sort again
                cards = cards[:index] + cards[index + 1 :]
            else:
                memo["deck"] = (position, cards)
                return cards
    cards = tuple(sorted(setup.deck[position:], key=_BY_ID))
    memo["deck"] = (position, cards)
    return cards


_new_view = _fast_constructor(PlayerView)
_new_public = _fast_constructor(PublicPlayer)
_BY_ID = operator.attrgetter("id")
_SECRET_TILE = operator.attrgetter("secret_tile")
