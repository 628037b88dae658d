"""``tricks-and-treats play`` (against bots in the terminal) and ``tricks-and-treats simulate``."""

from __future__ import annotations

import sys
import textwrap
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
    basket_id,
    basket_name,
    new_game,
)
from tricky_treats.protocol import TurnBasedGame, run_console

__all__ = ["CHOICES", "HELP", "SPECIAL_RULES", "describe", "main", "outcome", "render"]

SPECIAL_RULES: Final = {
    "bomb": "whoever plays a card under it may swap the bomb basket card with a neighbour "
    "(the candy stays where it lies); at the end both its neighbours lose their candy",
    "monte": "whoever plays a 2 under it may swap it with a neighbour (the candy stays); "
    "at the end its two neighbours swap places",
    "magnet": "whoever plays a card under it may move the top card under any other basket "
    "under another basket",
    "disco": "when its candy reaches 10, its cards leave the game and the baskets with the "
    "most and the fewest candy swap places (the candy stays; on a tie the player who "
    "played the card chooses)",
    "piggy": "starts with 3 cards; at the end they go under the basket with the fewest "
    "candy (on a tie, the fewest that only one basket has, TT-15)",
    "lottery": "starts with 3 cards; at the end they go under the basket with as many "
    "cards (on a tie, the one with less candy; still tied, nothing happens)",
    "slide": "at the end every basket card moves one place right if its candy is odd, "
    "left if even (the row wraps round; the candy stays)",
    "popular": "at the end, if its candy is even, every basket with an even amount of "
    "candy scores 10 more; if odd, the odd ones do",
    "favorite": "at the end the candy kind most under it scores 2 points a candy (two kinds "
    "tied: both; three or more: nothing)",
    "badcandy": "at the end the candy kind most under it scores 0 (two kinds tied: both; "
    "three or more: nothing)",
    "lice": "at the end the candy kind most under it has lice: the players still in whose "
    "baskets hold the most of it are out, unless that is everyone left (TT-16)",
}
"""What each special basket does, in words ([4]; the rulings in RULES.md)."""

CHOICES: Final = {
    "bomb": "you may swap the bomb basket card with a neighbouring basket card (swap bomb N):"
    " the basket cards change places, the candy under them stays where it lies (TT-17); or"
    " skip",
    "monte": "you played a 2 under monte: you may swap the monte basket card with a "
    "neighbour (swap monte N): the candy stays where it lies (TT-17); or skip",
    "magnet": "you may move the top card under any other basket under another basket "
    "(pull FROM TO), or skip",
    "disco": "the disco's candy reached 10 and left the game; several baskets tie for the "
    "most or the fewest candy, so you choose which two swap places (swap A B): the candy "
    "stays (TT-17)",
}
"""What the player who must decide for a special basket may do (TT-12)."""

HELP: Final = """\
Tricks & Treats: each player secretly owns the basket of the number card they hold. On your
turn draw a card, then play one card under any basket: feed your own basket without showing
which one it is. At any time in your turn you may accuse a player of holding a number: right,
they are out and you win their card (5 points); wrong, you are out. When Time's Up is drawn,
each player still in scores the candy under their basket plus 5 per card won; the best score
held by one player alone wins (tied players drop out). The last player left wins at once.
With --specials 1 or 2, special baskets join the row (below; the first screens explain those in
play, and RULES.md has every ruling).
Actions: draw; play CARD BASKET (play K3 5: card K3 under basket 5); accuse PLAYER NUMBER
(accuse 2 4); for a special basket: swap A B, pull FROM TO, skip. Or type an action's number.
Special baskets:
""" + "\n".join(
    line
    for name, rule in SPECIAL_RULES.items()
    for line in textwrap.wrap(f"{basket_name(basket_id(name))}: {rule}", 96, subsequent_indent="  ")
)


def render(view: TricksAndTreatsView) -> str:
    """A player's view as text: the row, your hand, every player, what the specials did."""
    me = view.player
    lines = [
        f"-- you are player {me}, basket {view.numbers[me]}; deck {view.deck_size} cards"
        + (f"; special baskets: {', '.join(view.specials)}" if view.specials else ""),
        *_row_lines(view.row, view.piles),
        f"your hand: {' '.join(map(str, view.hand)) or '-'}",
    ]
    if len(view.history) < 2 * view.players:  # the first round: what each special does
        for special in view.specials:
            lines.extend(_wrapped(f"  {basket_name(basket_id(special))}: {SPECIAL_RULES[special]}"))
    lines.extend(_player_lines(view))
    lines.extend(
        f"player {a.accuser} accused player {a.target} of basket {a.number}: "
        f"{'right' if a.correct else 'wrong'}"
        for a in view.accusations
    )
    # What the specials did is told once, as it happens (describe), not on every screen.
    if view.step is Step.EFFECT and view.pending is not None:
        name = basket_name(view.pending)
        if view.current_player == me:
            lines.extend(_wrapped(f"{name}: {CHOICES[name]}"))
        else:
            lines.append(f"the {name} basket waits for player {view.current_player}'s choice")
    if view.times_up:
        lines.append("Time's Up!")
    return "\n".join(lines)


def _wrapped(text: str) -> list[str]:
    """``text`` in lines of at most 80 columns, the later ones indented under the first."""
    indent = " " * (len(text) - len(text.lstrip()) + 4)
    return textwrap.wrap(text, 80, subsequent_indent=indent, break_on_hyphens=False)


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
    return told + "".join(
        "\n" + "\n".join(_wrapped(f"  special basket: {effect}")) for effect in new
    )


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
