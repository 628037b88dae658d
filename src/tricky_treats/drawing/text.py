"""The table as text: what ``print(view)`` and ``print(game)`` show.

The same table as the terminal game's (``tricky-treats replay --step``), without colour: the
nice houses with the street bonuses, the mean houses, the kids of the view's player beside the
market, and a line per player, under a heading that says whose turn it is and whose view this
is. A ``GameState`` is drawn as everyone at the table sees it (``views._OnlookerView``): no
secret tile until the game is over, so that printing a state into a log or a shared notebook
gives nothing away; ``print(game.view(p))`` shows player p's own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tricky_treats import _terminal
from tricky_treats.drawing import _heading, board_svg
from tricky_treats.views import PlayerView, _onlooker_view, _OnlookerView

if TYPE_CHECKING:
    from tricky_treats.model import GameState

__all__: list[str] = []

EVERYONE = "everyone at the table"
"""Whose view a ``GameState``'s drawing is."""


def view_text(view: PlayerView) -> str:
    """``view`` as the terminal's table, under a heading: at most 21 lines of 80 columns."""
    seat = view.player
    heading = f"Tricky Treats · {_heading(view)}"
    if isinstance(view, _OnlookerView):
        hidden = "" if view.is_over else "no secret tile; "
        who = f"as {EVERYONE} sees it ({hidden}the kids are {_name(view)}'s)"
    else:
        who = f"as {_name(view)} ({_terminal.SEAT_LETTERS[seat]}) sees it"
        tile = view.secret_tile
        if tile is not None and not view.is_over:
            who += f" · secret tile {_terminal.tile_text(tile)}"
    lines = [heading, who, *_terminal.replay_screen(view)]
    return "\n".join(line.rstrip() for line in lines)


def state_text(state: GameState) -> str:
    """``state`` as everyone at the table sees it, and its seed once the game is over."""
    text = view_text(_onlooker_view(state))
    if state.is_over:  # the seed deals everything hidden: shown only once nothing is
        text += f"\nseed {state.config.seed}"
    return text


def state_svg(state: GameState) -> str:
    """``state`` drawn by ``board_svg`` as everyone at the table sees it."""
    return board_svg(_onlooker_view(state))


def _name(view: PlayerView) -> str:
    return view.players[view.player].name
