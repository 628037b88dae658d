"""Scoring: score sheets (R12 to R14, R24), winners (R15) and the outcome of a game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import attrs

from tricky_treats.components import CostumeCard, CostumeType, Treat, TrickTile
from tricky_treats.model import EndTrigger, Termination

if TYPE_CHECKING:
    from tricky_treats.model import GameState

__all__ = [
    "ExtraScore",
    "Outcome",
    "ScoreSheet",
    "TileScore",
    "costume_points",
    "outcome",
    "score_sheet",
    "score_sheets",
    "score_sheets_of_others",
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
    a, b, c = kid  # a complete costume: one card of each of the three types (R2)
    same_colour = a.colour is b.colour is c.colour
    if a.theme is b.theme is c.theme:
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


def score_sheet(state: GameState, player: int, *, secret_tile: bool = True) -> ScoreSheet:
    """``player``'s points so far (R24).

    With ``secret_tile=False`` their secret tile is left out, as other players see the sheet
    before the game ends (R16).
    """
    return _sheet(state, player, secret_tile=secret_tile, extras=True)


def score_sheets(state: GameState) -> tuple[ScoreSheet, ...]:
    """Every player's score sheet with full information."""
    return tuple(
        [_sheet(state, p, secret_tile=True, extras=True) for p in range(len(state.players))]
    )


def score_sheets_of_others(state: GameState) -> tuple[ScoreSheet, ...]:
    """Every player's sheet as the other players see it (R16, R24).

    While the game goes on, each sheet leaves out the player's secret tile (unless a variant
    dealt the tiles face up) and the lines of scorers that are not public; once it is over,
    every sheet is the full one.
    """
    if state.is_over:
        return score_sheets(state)
    shown = state.setup.secret_tiles_face_up
    return tuple(
        [_sheet(state, p, secret_tile=shown, extras=False) for p in range(len(state.players))]
    )


def _sheet(state: GameState, player: int, *, secret_tile: bool, extras: bool) -> ScoreSheet:
    """``player``'s sheet.

    ``extras=False`` leaves out the lines of scorers that are not public (they may read
    hidden information, R16).
    """
    setup = state.setup
    board = state.players[player]
    treats = dict(zip(Treat, board.treats, strict=True))
    # R14: the player's secret tile, and the tile of every mean house they tricked.
    tiles = [_tile_score(board.secret_tile, None, treats)] if secret_tile else []
    tiles += [
        _tile_score(setup.mean_houses[house].tile, house, treats) for house in sorted(board.tricked)
    ]
    lines: list[ExtraScore] = []
    for scorer in setup.scorers:
        if extras or getattr(scorer, "public", False):
            lines += scorer(state, player)
    return ScoreSheet(
        player=player,
        pumpkins=board.pumpkins * setup.rules.pumpkin_points,  # R13
        costumes=tuple(costume_points(kid) for kid in board.kids),  # R12
        trick_tiles=tuple(tiles),
        extras=tuple(lines),
    )


def _tile_score(tile: TrickTile, mean_house: int | None, treats: Mapping[Treat, int]) -> TileScore:
    """R14: ``tile`` scores its points once per complete set; no treats are spent."""
    sets = tile.sets(treats)
    return TileScore(tile, mean_house, sets, sets * tile.points)


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


def outcome(state: GameState) -> Outcome | None:
    """The outcome of ``state``'s game, or None while it is not over."""
    if not state.is_over or state.end_trigger is None:
        return None
    sheets = score_sheets(state)
    trigger = state.end_trigger
    return Outcome(trigger.reason, trigger, winners(sheets), sheets)
