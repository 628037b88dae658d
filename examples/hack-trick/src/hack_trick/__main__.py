"""``hack-trick play`` (against a bot in the terminal) and ``hack-trick simulate``."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from hack_trick.game import HackTrickView, _board_lines, new_match
from tricky_treats.protocol import TurnBasedGame, run_console


def render(view: HackTrickView) -> str:
    """A player's view as text."""
    me, other = view.player, 1 - view.player
    lines = [
        f"-- hand {view.hand_number + 1}; score you {view.scores[me]}, them {view.scores[other]}"
        f" (to {view.target}); you are {'AB'[me]}",
        *_board_lines(view.board),
        f"row: {' '.join(map(str, view.row)) or '-'}   deck: {view.deck_size}",
        f"your hand: {' '.join(map(str, view.hand)) or '-'}   theirs: {view.opponent_hand_size}"
        " cards",
        f"markers: you {view.singles[me]}{' +x2' if view.doubles[me] else ''},"
        f" them {view.singles[other]}{' +x2' if view.doubles[other] else ''};"
        f" captured {sum(view.captured[me])}",
    ]
    for reveal in view.reveals:
        who = "you" if reveal.player == me else "they"
        shown = f" ({' '.join(map(str, reveal.cards))})" if reveal.cards is not None else ""
        lines.append(f"{reveal.kind}: {who} hold a sum of {reveal.hand_sum}{shown}")
    if view.forced[me]:
        lines.append("Play! was called on you: you must play a card")
    return "\n".join(lines)


def _new(players: int, seed: int) -> TurnBasedGame:
    return new_match(seed=seed)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``hack-trick`` command."""
    return run_console("hack-trick", _new, render, argv, players=(2, 2))


if __name__ == "__main__":
    sys.exit(main())
