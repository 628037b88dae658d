"""``candy-chaser play`` (against bots in the terminal) and ``candy-chaser simulate``."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from candy_chaser.game import Accuse, CandyChaserState, CandyChaserView, _price_lines, new_game
from tricky_treats.protocol import TurnBasedGame, run_console


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
        lines.append(f"roll: {view.roll:+d}")
    return "\n".join(lines)


def describe(state: CandyChaserState, action: object, seat: int) -> str:
    """An action as ``seat`` learns of it: others' accusations do not show the candy [B]."""
    if isinstance(action, Accuse) and seat not in (state.current_player, action.target):
        return f"accuse {action.target} (candy hidden)"
    return str(action)


def _new(players: int, seed: int) -> TurnBasedGame:
    return new_game(players, seed)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``candy-chaser`` command."""
    return run_console("candy-chaser", _new, render, argv, (2, 4), describe)


if __name__ == "__main__":
    sys.exit(main())
