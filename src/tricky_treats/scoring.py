"""Scoring: score sheets (R12 to R14, R24), winners (R15) and the outcome of a game."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

from tricky_treats._construct import _fast_constructor
from tricky_treats.components import CostumeCard, CostumeType, Treat, TrickTile
from tricky_treats.model import EndTrigger, Termination, _setup_memo

if TYPE_CHECKING:
    from tricky_treats.model import GameState, PlayerState, Setup

_F = TypeVar("_F", bound=Callable[..., Any])

__all__ = [
    "ExtraScore",
    "Outcome",
    "ScoreSheet",
    "TileScore",
    "costume_points",
    "score_sheet",
    "winners",
]

_COMPLETE = len(CostumeType)


def costume_points(kid: Sequence[CostumeCard]) -> int:
    """Points for one kid's costume (R12).

    A complete costume (one card of each type) scores 8 if all its cards share colour and
    theme, 6 if they share only the theme, 4 if they share only the colour, else 2. An
    incomplete one scores 0.
    """
    if len(kid) < _COMPLETE:
        return 0
    if len(kid) == 3:  # the box's three types: no loops
        a, b, c = kid
        same_colour = a.colour is b.colour is c.colour
        if a.theme is b.theme is c.theme:
            return 8 if same_colour else 6
        return 4 if same_colour else 2
    same_colour = all(card.colour is kid[0].colour for card in kid)
    same_theme = all(card.theme is kid[0].theme for card in kid)
    if same_theme:
        return 8 if same_colour else 6
    return 4 if same_colour else 2


@attrs.frozen
class TileScore:
    """What one trick tile gives a player: ``points`` for ``sets`` complete sets (R14).

    ``mean_house`` is the mean house the tile lies on, or None for the player's secret tile.
    """

    tile: TrickTile
    """The trick tile."""
    mean_house: int | None
    """The mean house it lies on, or None for the secret tile."""
    sets: int
    """How many complete sets of its treats the player holds."""
    points: int
    """``sets`` times the tile's points."""


@attrs.frozen
class ExtraScore:
    """A line a variant adds to a score sheet (``tricky_treats_scoring`` hook)."""

    label: str
    """What the line is for, as the variant names it."""
    points: int
    """The points it adds."""


@attrs.frozen
class ScoreSheet:
    """One player's points by category; ``total`` is their sum."""

    player: int
    """The seat this sheet is for."""
    pumpkins: int
    """Points for pumpkins (2 each, R13)."""
    costumes: tuple[int, ...]
    """Points per kid, in kid order (R12)."""
    trick_tiles: tuple[TileScore, ...]
    """Points per trick tile the player has access to (R14): secret tile first."""
    extras: tuple[ExtraScore, ...] = ()
    """Lines added by variants."""

    @property
    def treats(self) -> int:
        """Points from trick tiles, the first tie-breaker (R15)."""
        return sum(tile.points for tile in self.trick_tiles)

    @property
    def total(self) -> int:
        """All points: pumpkins, costumes and trick tiles."""
        return (
            self.pumpkins
            + sum(self.costumes)
            + self.treats
            + sum(extra.points for extra in self.extras)
        )


def _tile_score(tile: TrickTile, mean_house: int | None, treats: tuple[int, ...]) -> TileScore:
    """What ``tile`` gives for the treat tracks ``treats``; the answers are shared (immutable)."""
    key = (id(tile), mean_house, treats)
    entry = _TILE_SCORES.get(key)
    if entry is not None and entry[0] is tile:  # the entry keeps its tile alive
        return entry[1]
    sets = tile.sets(dict(zip(_TREATS, treats, strict=True)))
    score = TileScore(tile, mean_house, sets, sets * tile.points)
    if len(_TILE_SCORES) >= 4096:
        _TILE_SCORES.clear()
    _TILE_SCORES[key] = (tile, score)
    return score


_TILE_SCORES: dict[tuple[int, int | None, tuple[int, ...]], tuple[TrickTile, TileScore]] = {}


_TREATS = tuple(Treat)


def score_sheet(state: GameState, player: int, *, secret_tile: bool = True) -> ScoreSheet:
    """``player``'s points so far (R24).

    With ``secret_tile=False`` their secret tile is left out, as other players see the sheet
    before the game ends (R16).
    """
    return _sheet(state, player, secret_tile=secret_tile, extras=True)


_BOARD_SCORERS: set[Callable[..., Any]] = set()
"""Scoring functions whose lines depend on the setup and the player's board alone."""


def _board_scorer(function: _F) -> _F:
    """Declare that ``function``'s lines depend only on the setup and the player's board.

    The engine then keeps its lines with the board, as it does the board's own lines, instead
    of calling it for every sheet. Only for the engine's own variants: a scoring function may
    read the whole state, and is called every time unless it is declared here.
    """
    _BOARD_SCORERS.add(function)
    return function


def _game_key(setup: Setup) -> tuple[object, bool]:
    """A token of this game for boards' memos, and whether they may keep whole sheets.

    Whole sheets, variants' lines included, are kept only when every scorer reads the board
    alone (``_board_scorer()``). The token is a plain object kept in the setup's memo: a
    board's memo names its game by it, so that the setup's memo (which keeps boards) and the
    boards' do not form a cycle that only the garbage collector would free.
    """
    memo = getattr(setup, "_memo", None)
    if memo is None:
        memo = _setup_memo(setup)
    key: tuple[object, bool] | None = memo.get("board-key")
    if key is None:
        kept = all(
            getattr(scorer, "function", scorer) in _BOARD_SCORERS for scorer in setup.scorers
        )
        key = memo["board-key"] = (object(), kept)
    return key


# A board's memo, a list kept on the board: the game's token and the seat it was worked out
# for, the public board for views, the sheets without variants' lines (full, then without the
# secret tile) and, where they may be kept (``_game_key()``), the finished sheets in slots
# ``_SHEET + 2 * secret_tile + extras``.
_TOKEN, _SEAT, _PUBLIC, _FULL, _HIDDEN, _SHEET = range(6)


def _board_memo(board: PlayerState, token: object, player: int) -> list[Any]:
    memo: list[Any] | None = getattr(board, "_memo", None)
    if memo is None or memo[_TOKEN] is not token or memo[_SEAT] != player:
        # A board belongs to one game and seat, so this rarely replaces a memo.
        memo = [token, player, None, None, None, None, None, None, None]
        object.__setattr__(board, "_memo", memo)
    return memo


def _sheet(state: GameState, player: int, *, secret_tile: bool, extras: bool) -> ScoreSheet:
    """``player``'s sheet; ``extras=False`` leaves out the lines of non-public scorers.

    The lines that depend on the player's board alone are kept with the board, which the
    states after it share until the player moves again, so a sheet costs little whatever the
    state. Variants' lines depend on the whole state and are worked out every time, unless
    the variant declared them to depend on the board alone (``_board_scorer()``).
    """
    setup = state.setup
    token, kept = _game_key(setup)
    memo = _board_memo(state.players[player], token, player)
    slot = _SHEET + 2 * secret_tile + extras
    sheet: ScoreSheet | None = memo[slot]
    if sheet is not None:
        return sheet
    sheet = _board_lines(state, player, memo, secret_tile)
    lines: tuple[ExtraScore, ...] = ()
    for scorer in setup.scorers:
        if extras or getattr(scorer, "public", False):
            lines += tuple(scorer(state, player))
    if lines:
        sheet = _new_sheet(player, sheet.pumpkins, sheet.costumes, sheet.trick_tiles, lines)
    if kept:
        memo[slot] = sheet
    return sheet


def _sheets(state: GameState, *, secret_tile: bool, extras: bool) -> tuple[ScoreSheet, ...]:
    """Every player's sheet with the same flags, shared by the states with the same boards.

    Where variants' lines may read more than the boards, worked out every time.
    """
    setup = state.setup
    players = state.players
    memo = getattr(setup, "_memo", None)
    if memo is None:
        memo = _setup_memo(setup)
    token, kept = memo.get("board-key") or _game_key(setup)
    if not kept:
        return tuple(
            [_sheet(state, p, secret_tile=secret_tile, extras=extras) for p in range(len(players))]
        )
    slot = _SHEET + 2 * secret_tile + extras
    key = _SHEETS_KEYS[slot]
    entry = memo.get(key)
    if entry is not None and entry[0] is players:  # the entry keeps its boards alive
        shared: tuple[ScoreSheet, ...] = entry[1]
        return shared
    found = []
    for seat, board in enumerate(players):
        board_memo = getattr(board, "_memo", None)
        if board_memo is None or board_memo[_TOKEN] is not token or board_memo[_SEAT] != seat:
            board_memo = _board_memo(board, token, seat)
        sheet: ScoreSheet | None = board_memo[slot]
        if sheet is None:
            sheet = _kept_sheet(state, seat, board_memo, secret_tile, extras)
        found.append(sheet)
    sheets = tuple(found)
    memo[key] = (players, sheets)
    return sheets


_SHEETS_KEYS = {slot: ("sheets", slot) for slot in range(_SHEET, _SHEET + 4)}


def _kept_sheet(
    state: GameState, player: int, memo: list[Any], secret_tile: bool, extras: bool
) -> ScoreSheet:
    """As ``_sheet()``, for a game whose sheets are kept by board, given the board's memo."""
    if state.setup.scorers:
        return _sheet(state, player, secret_tile=secret_tile, extras=extras)
    sheet = memo[_SHEET + 2 * secret_tile + extras] = _board_lines(state, player, memo, secret_tile)
    return sheet


def _board_lines(state: GameState, player: int, memo: list[Any], secret_tile: bool) -> ScoreSheet:
    """The sheet of the board's own lines (no variant's), kept in the board's ``memo``."""
    base = _FULL if secret_tile else _HIDDEN
    sheet: ScoreSheet | None = memo[base]
    if sheet is None:
        sheet = memo[base] = _board_sheet(state, player, secret_tile, memo[_FULL + _HIDDEN - base])
    return sheet


def _board_sheet(
    state: GameState, player: int, secret_tile: bool, other: ScoreSheet | None
) -> ScoreSheet:
    """The lines of ``player``'s board, with or without the secret tile's (which comes first).

    ``other`` is the board's sheet the other way, if it was worked out: the lines they share
    are taken from it.
    """
    board = state.players[player]
    if other is not None:
        if secret_tile:
            tiles = (_tile_score(board.secret_tile, None, board.treats), *other.trick_tiles)
            return _new_sheet(player, other.pumpkins, other.costumes, tiles, ())
        return _new_sheet(player, other.pumpkins, other.costumes, other.trick_tiles[1:], ())
    setup = state.setup
    treats = board.treats
    scores = [_tile_score(board.secret_tile, None, treats)] if secret_tile else []
    if board.tricked:
        mean_houses = setup.mean_houses
        scores += [
            _tile_score(mean_houses[house].tile, house, treats) for house in sorted(board.tricked)
        ]
    return _new_sheet(
        player,
        board.pumpkins * setup.rules.pumpkin_points,
        tuple(map(costume_points, board.kids)),
        tuple(scores),
        (),
    )


def score_sheets(state: GameState) -> tuple[ScoreSheet, ...]:
    """Every player's score sheet with full information."""
    return _sheets(state, secret_tile=True, extras=True)


def winners(sheets: Sequence[ScoreSheet]) -> tuple[int, ...]:
    """The players who win on these sheets (R15).

    The highest total wins; on a tie, the most trick-tile points; players still tied share
    the win.
    """
    best = max((sheet.total, sheet.treats) for sheet in sheets)
    return tuple(sheet.player for sheet in sheets if (sheet.total, sheet.treats) == best)


@attrs.frozen
class Outcome:
    """How a finished game ended: what triggered the end, the winners and the final sheets."""

    termination: Termination
    """Why the game ended."""
    trigger: EndTrigger
    """Who triggered the end, why and when."""
    winners: tuple[int, ...]
    """The seats that share the win (R15)."""
    scores: tuple[ScoreSheet, ...]
    """The final score sheets, in seat order."""


_new_sheet = _fast_constructor(ScoreSheet)


def outcome(state: GameState) -> Outcome | None:
    """The outcome of ``state``'s game, or None while it is not over."""
    if not state.is_over or state.end_trigger is None:
        return None
    sheets = score_sheets(state)
    trigger = state.end_trigger
    return Outcome(trigger.reason, trigger, winners(sheets), sheets)
