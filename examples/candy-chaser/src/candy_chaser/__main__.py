"""``candy-chaser play`` (against bots in the terminal) and ``candy-chaser simulate``."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Hashable, Sequence
from typing import Final

from candy_chaser.bots import make_bot
from candy_chaser.game import (
    CANDIES,
    GOAL,
    TOP,
    Accuse,
    CandyChaserState,
    CandyChaserView,
    Move,
    Phase,
    _price_lines,
    new_game,
)
from tricky_treats.protocol import TurnBasedGame, run_console

__all__ = ["HELP", "describe", "main", "moves", "outcome", "render"]

HELP: Final = """\
Candy Chaser: each player secretly deals one of five candies; its cube's space on the board is
its price. Marketing: on your turn the die is rolled (-2, -1, +1, +2 or +3) and you move any one
cube exactly that far, stopping at the board's ends. A cube may reach G only while another cube
is on 3 or more; otherwise it stops on 5. The first cube on G starts the Tattletale phase: from
the player left of the mover round to the mover, each may accuse another player of dealing a
candy (right: they are out, and you may accuse again; wrong: you are out) or pass. The survivor
whose candy has the highest price wins. Actions: move CANDY, accuse PLAYER CANDY, pass (candies:
red, orange, yellow, green, purple). Or type an action's number."""


TATTLETALE: Final = (
    "Tattletale (one round, from the player left of the mover round to the mover): accuse a "
    "player of dealing a candy, or pass. Right: they are out, and you may accuse again; wrong: "
    "you are out. Only you and the accused see the candy you name (CC-4)."
)
"""Said on every screen of the Tattletale phase: the round decides the game."""


def _space(price: int) -> str:
    return "G" if price == GOAL else str(price)


def moves(view: CandyChaserView) -> list[str]:
    """Where each cube would end with the current roll, and why a cube stops short of G."""
    assert view.roll is not None
    lines = []
    for i, candy in enumerate(CANDIES):
        start = view.prices[i]
        end = view.destination(candy)
        note = ""
        if view.roll > 0 and end == TOP and start + view.roll > TOP:
            note = "  (stops on 5: G needs another cube on 3 or more, CC-3)"
        elif end == GOAL:
            note = "  (reaches G: the Tattletale phase begins)"
        elif end == start:
            note = "  (cannot move further)"
        lines.append(f"  move {candy}: {_space(start)} -> {_space(end)}{note}")
    return lines


def render(view: CandyChaserView) -> str:
    """A player's view as text."""
    lines = [f"-- {view.phase.value}; you are player {view.player}", *_price_lines(view.prices)]
    lines.append(f"your candy: {view.objectives[view.player]}")
    out = [str(p) for p in range(view.players) if not view.alive[p]]
    if out:
        lines.append(f"eliminated: {', '.join(out)}")
    for a in view.accusations:
        named = f" of {a.candy}" if a.candy else ""
        lines.append(
            f"player {a.accuser} accused player {a.target}{named}: "
            f"{'right' if a.correct else 'wrong'}"
        )
    if view.roll is not None:
        lines.append(f"player {view.current_player} rolled {view.roll:+d}:")
        lines.extend(moves(view))
    if view.phase is Phase.TATTLETALE:
        lines.extend(textwrap.wrap(TATTLETALE, 80))
    return "\n".join(lines)


def describe(state: CandyChaserState, action: Hashable, seat: int) -> str:
    """An action as ``seat`` learns of it: the roll and the move, or an accusation's result.

    Others' accusations do not show the candy [B].
    """
    if isinstance(action, Move):
        assert state.roll is not None
        start, end = state.price(action.candy), state.destination(action.candy)
        told = f"rolled {state.roll:+d}, moves {action.candy} {_space(start)} -> {_space(end)}"
        return told + ("; G is reached: Tattletale" if end == GOAL else "")
    if isinstance(action, Accuse):
        correct = state.apply(action).accusations[-1].correct
        result = f": {'right' if correct else 'wrong'}"
        if seat not in (state.current_player, action.target):
            return f"accuse {action.target} (candy hidden){result}"
        return f"{action}{result}"
    return str(action)


def outcome(final: TurnBasedGame, seat: int) -> str:
    """The survivors show their candies (CC-7); the highest price wins (CC-6)."""
    assert isinstance(final, CandyChaserState)
    lines = ["the survivors show their candies:"]
    for p in range(final.num_players):
        if final.alive[p]:
            candy = final.objectives[p]
            lines.append(f"  player {p}: {candy} at {_space(final.price(candy))}")
        else:
            lines.append(f"  player {p}: eliminated (candy stays hidden)")
    winners = final.winners()
    price = _space(final.price(final.objectives[winners[0]]))
    names = " and ".join(f"player {p}" for p in winners)
    verb = "share the win" if len(winners) > 1 else "wins"
    lines.append(f"{names} {verb}: the highest price among the survivors, {price}")
    return "\n".join(lines)


def _new(players: int, seed: int) -> TurnBasedGame:
    return new_game(players, seed)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``candy-chaser`` command."""
    return run_console(
        "candy-chaser",
        _new,
        render,
        argv,
        (2, 4),
        describe,
        help_text=HELP,
        outcome=outcome,
        make_bot=make_bot,
    )


if __name__ == "__main__":
    sys.exit(main())
