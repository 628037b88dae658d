"""``tricks-and-treats play`` (against bots in the terminal) and ``tricks-and-treats simulate``."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from tricks_and_treats.bots import calm_rollout
from tricks_and_treats.game import TricksAndTreatsView, _row_lines, new_game
from tricky_treats.protocol import TurnBasedGame, run_console


def render(view: TricksAndTreatsView) -> str:
    """A player's view as text."""
    lines = [
        f"-- you are player {view.player}, basket {view.numbers[view.player]};"
        f" deck {view.deck_size} cards",
        *_row_lines(view.row, view.piles),
        f"your hand: {' '.join(map(str, view.hand)) or '-'}",
    ]
    lines.extend(
        f"player {a.accuser} accused player {a.target} of basket {a.number}: "
        f"{'right' if a.correct else 'wrong'}"
        for a in view.accusations
    )
    known = [f"player {q}: {n}" for q, n in enumerate(view.numbers) if n and q != view.player]
    if known:
        lines.append("known baskets: " + ", ".join(known))
    if view.times_up:
        lines.append("Time's Up!")
    return "\n".join(lines)


def _new(players: int, seed: int) -> TurnBasedGame:
    return new_game(players, seed)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tricks-and-treats`` command."""
    return run_console("tricks-and-treats", _new, render, argv, (2, 4), rollout_policy=calm_rollout)


if __name__ == "__main__":
    sys.exit(main())
