"""``tricks-and-treats play`` (against bots in the terminal) and ``tricks-and-treats simulate``."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Hashable, Sequence
from typing import Final

from tricks_and_treats.bots import make_bot
from tricks_and_treats.game import (
    CAPTURE_POINTS,
    Accuse,
    Step,
    TricksAndTreatsState,
    TricksAndTreatsView,
    _row_lines,
    basket_name,
    new_game,
)
from tricky_treats.protocol import TurnBasedGame, run_console

__all__ = ["HELP", "describe", "main", "outcome", "render"]

HELP: Final = """\
Tricks & Treats: each player secretly owns the basket of the number card they hold. On your
turn draw a card, then play one card under any basket: feed your own basket without showing
which one it is. At any time in your turn you may accuse a player of holding a number: right,
they are out and you win their card (5 points); wrong, you are out. When Time's Up is drawn,
each player still in scores the candy under their basket plus 5 per card won; the best score
held by one player alone wins (tied players drop out). The last player left wins at once.
With --specials 1 or 2, special baskets join the row (see RULES.md).
Actions: draw; play CARD BASKET (play K3 5: card K3 under basket 5); accuse PLAYER NUMBER
(accuse 2 4); for a special basket: swap A B, pull FROM TO, skip. Or type an action's number."""


def render(view: TricksAndTreatsView) -> str:
    """A player's view as text: the row, your hand, every player, what the specials did."""
    me = view.player
    lines = [
        f"-- you are player {me}, basket {view.numbers[me]}; deck {view.deck_size} cards"
        + (f"; special baskets: {', '.join(view.specials)}" if view.specials else ""),
        *_row_lines(view.row, view.piles),
        f"your hand: {' '.join(map(str, view.hand)) or '-'}",
    ]
    lines.extend(_player_lines(view))
    lines.extend(
        f"player {a.accuser} accused player {a.target} of basket {a.number}: "
        f"{'right' if a.correct else 'wrong'}"
        for a in view.accusations
    )
    lines.extend(f"special basket: {effect}" for effect in view.effects)
    if view.step is Step.EFFECT and view.pending is not None:
        lines.append(
            f"the {basket_name(view.pending)} basket waits for player {view.current_player}"
        )
    if view.times_up:
        lines.append("Time's Up!")
    return "\n".join(lines)


def _player_lines(view: TricksAndTreatsView) -> list[str]:
    lines = []
    for q in range(view.players):
        who = "you" if q == view.player else f"player {q}"
        number = view.numbers[q]
        basket = f"basket {number}" if number is not None else "basket unknown"
        if view.step is not Step.OVER and q != view.player and number is None:
            basket += f" (may be {', '.join(map(str, view.possible_numbers(q)))})"
        won = view.captured[q]
        cards = f"; won number card {', '.join(map(str, won))} (+{CAPTURE_POINTS * len(won)})"
        status = "in the game" if view.alive[q] else "OUT"
        lines.append(f"{who}: {status}, {basket}, {view.hand_sizes[q]} cards{cards if won else ''}")
    return lines


def describe(state: TricksAndTreatsState, action: Hashable, seat: int) -> str:
    """An action and what followed that everyone sees: an accusation's result, specials."""
    after = state.apply(action)  # type: ignore[arg-type]
    told = str(action)
    if isinstance(action, Accuse):
        correct = after.accusations[-1].correct
        loser = action.target if correct else state.current_player
        told += f": {'right' if correct else 'wrong'}, player {loser} is out"
    if after.times_up and not state.times_up:
        told += ": Time's Up!"
    new = after.effects[len(state.effects) :]
    return told + "".join(f"\n  special basket: {effect}" for effect in new)


def outcome(final: TurnBasedGame, seat: int) -> str:
    """Who won and why: the last player left, or the scores and the tie rule (TT-8)."""
    assert isinstance(final, TricksAndTreatsState)
    winners = final.winners()
    survivors = [p for p in range(final.num_players) if final.alive[p]]
    if not final.times_up:
        return f"player {winners[0]} is the last player left and wins ([3.(1)])"
    lines = ["Time's Up: the scores"]
    scores = final.scores()
    for p in range(final.num_players):
        if not final.alive[p]:
            lines.append(f"  player {p}: out")
            continue
        basket = final.numbers[p]
        parts = [f"{final.candy_points(basket)} for the candy of basket {basket}"]
        if final.popular_bonus(basket):
            parts.append(f"{final.popular_bonus(basket)} from the popular basket")
        if final.captured[p]:
            parts.append(f"{CAPTURE_POINTS * len(final.captured[p])} for cards won")
        lines.append(f"  player {p}: {scores[p]} ({' + '.join(parts)})")
    counts = Counter(scores[p] for p in survivors)
    tied = sorted((s for s, k in counts.items() if k > 1 and s is not None), reverse=True)
    best = max(scores[p] or 0 for p in survivors)
    shown = " and ".join(f"player {p}" for p in winners)
    if len(survivors) == 1:
        lines.append(f"{shown} is the only player left after the special baskets, and wins")
    elif len(winners) > 1:
        lines.append(f"{shown} tie at {best} and no score is held by one player alone: they share")
    elif tied and tied[0] > (scores[winners[0]] or 0):
        ties = ", ".join(str(s) for s in tied if s > (scores[winners[0]] or 0))
        lines.append(
            f"the tied scores ({ties}) drop out (a tie goes to the next best untied score, TT-8): "
            f"{shown} wins with {scores[winners[0]]}"
        )
    else:
        lines.append(f"{shown} wins with the best score, {scores[winners[0]]}")
    return "\n".join(lines)


def _new(players: int, seed: int, specials: int = 0) -> TurnBasedGame:
    return new_game(players, seed, specials)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tricks-and-treats`` command."""
    return run_console(
        "tricks-and-treats",
        _new,
        render,
        argv,
        (2, 4),
        describe,
        help_text=HELP,
        outcome=outcome,
        game_options={
            "specials": {
                "type": int,
                "default": 0,
                "help": "special baskets in the row: 0 (basic game), 1 or 2",
            }
        },
        make_bot=make_bot,
    )


if __name__ == "__main__":
    sys.exit(main())
