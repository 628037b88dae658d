"""Scoring: score sheets (R12 to R14, R24), winners (R15) and the outcome of a game."""

from __future__ import annotations

from collections.abc import Sequence
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


def _tile_score(tile: TrickTile, mean_house: int | None, treats: dict[Treat, int]) -> TileScore:
    sets = tile.sets(treats)
    return TileScore(tile, mean_house, sets, sets * tile.points)


def score_sheet(state: GameState, player: int, *, secret_tile: bool = True) -> ScoreSheet:
    """``player``'s points so far (R24).

    With ``secret_tile=False`` their secret tile is left out, as other players see the sheet
    before the game ends (R16).
    """
    setup = state.setup
    board = state.players[player]
    treats = board.treat_counts
    tiles = [_tile_score(board.secret_tile, None, treats)] if secret_tile else []
    tiles += [
        _tile_score(setup.mean_houses[house].tile, house, treats) for house in sorted(board.tricked)
    ]
    return ScoreSheet(
        player=player,
        pumpkins=board.pumpkins * setup.rules.pumpkin_points,
        costumes=tuple(costume_points(kid) for kid in board.kids),
        trick_tiles=tuple(tiles),
        extras=tuple(extra for scorer in setup.scorers for extra in scorer(state, player)),
    )


def score_sheets(state: GameState) -> tuple[ScoreSheet, ...]:
    """Every player's score sheet with full information."""
    return tuple(score_sheet(state, p) for p in range(len(state.players)))


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
