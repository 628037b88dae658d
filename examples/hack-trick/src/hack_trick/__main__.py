"""``hack-trick play`` (against a bot in the terminal) and ``hack-trick simulate``."""

from __future__ import annotations

import sys
from collections.abc import Hashable, Sequence
from typing import Final

from hack_trick.bots import make_bot
from hack_trick.game import (
    HAND_LIMIT,
    Ask,
    HackTrickState,
    HackTrickView,
    HandResult,
    Step,
    _board_lines,
    new_match,
)
from tricky_treats.protocol import TurnBasedGame, run_console

__all__ = ["HELP", "describe", "explain_hand", "explain_result", "main", "outcome", "render"]

HELP: Final = """\
Hack Trick: two players play cards 0-5 onto a row; the last card plus the one you play names a
square 1-9 of a magic square, where you put a marker (taking the opponent's markers there).
Three of your markers in a line or on one square win the hand: 1 point, 2 if your double marker
is in it and was not placed last. First to 5 points wins. On your turn you may first ask for
the sum of the opponent's hand (paying a captured marker), then draw (hand limit 4) or play a
card (not the last card's number). After playing you may pass, force (the opponent must play
next turn) or guard (the opponent may not force you next turn); force and guard cost a marker.
A player who must play with no marker left loses the hand. Board: A = player 0, B = player 1;
x a marker, X the double one. Actions: start N, ask, draw, play N, play Nx (double), pass,
force, guard. Or type an action's number."""

_REASONS: Final = {
    "line": "three markers in a line",
    "triple": "three markers on one square",
    "no marker": "the opponent had to play a card but had no marker left",
}


def _name(player: int, me: int | None = None) -> str:
    who = f"player {player} ({'AB'[player]})"
    return f"{who}, you" if player == me else who


def _subject(player: int, me: int) -> str:
    """A player as the subject of a sentence: "you (player 0, A)" or "player 1 (B)"."""
    return f"you (player {player}, {'AB'[player]})" if player == me else _name(player)


_TOLD: Final = {
    "announce": "at the deal {who}'s hand summed to {sum}",
    "ask": "asked: {who}'s hand summed to {sum}",
    "show": "forced: {who} showed {cards} (sum {sum}) and drew [3.A]",
}
"""How each piece of public information of the hand is told, in the past: it may be stale."""

RULES_WHEN_THEY_MATTER: Final = {
    "four cards": "you hold 4 cards, the hand limit: you must play a card, marker or not",
    "no cards": "you hold no card: you must draw",
    "empty deck": "the deck is empty: a draw shuffles the played cards but the last into a new "
    "deck (the two set-aside cards stay out)",
    "ask by hand": "ask: pay a marker captured in an earlier hand for the sum of the opponent's "
    "hand (HT-3: 'ronde' is a hand, as everywhere else in the text)",
    "ask by turn": "ask: pay a captured marker for the sum of the opponent's hand (HT-3, "
    "read as turns)",
    "end of turn": "after playing: pass, force (the opponent must play next turn) or guard (the "
    "opponent may not force you next turn); force and guard cost a marker (HT-6)",
}
"""The rules the screen explains at the moment they decide what you may do."""


def render(view: HackTrickView) -> str:
    """A player's view as text; players are named the same way everywhere."""
    me, other = view.player, 1 - view.player
    lines = [
        f"-- hand {view.hand_number + 1}, first to {view.target}; you are {_name(me)}",
        f"score: {_name(0, me)} {view.scores[0]}, {_name(1, me)} {view.scores[1]}",
        *_board_lines(view.board),
        f"row: {' '.join(map(str, view.row)) or '-'}   deck: {view.deck_size}",
        f"your hand: {' '.join(map(str, view.hand)) or '-'}   "
        f"player {other} holds {_count(view.opponent_hand_size, 'card')}",
    ]
    for p in (me, other):
        double = " + the double" if view.doubles[p] else ""
        left = _count(view.singles[p], "marker")
        lines.append(f"{_name(p, me)}: {left} left{double}; {_asking(view, p)}")
    told = [
        _TOLD[r.kind]
        .format(
            who="your" if r.player == me else f"player {r.player}",
            sum=r.hand_sum,
            cards=" ".join(map(str, r.cards or ())) or "no card",
        )
        .replace("your's", "your")
        for r in view.reveals
    ]
    if told:
        lines.append("told this hand: " + "; ".join(told))
    if view.current_player == me:
        lines.extend(_rules_now(view))
    if view.forced[me]:
        lines.append(f"player {other} called Play! on you: you must play a card")
    if view.guarded[me] and view.step is Step.END and view.current_player == me:
        lines.append(f"player {other} guarded: force is not offered this turn [3.B]")
    elif view.guarded[me] and view.current_player == me:
        lines.append(f"player {other} guarded: you may not force at the end of this turn [3.B]")
    if view.results:
        last = view.results[-1]
        lines.append(f"last hand: {explain_result(last)}")
    return "\n".join(lines)


def _rules_now(view: HackTrickView) -> list[str]:
    """The rules that decide what the player to act may do now, in words."""
    me = view.player
    keys = []
    if view.step is Step.END:
        keys.append("end of turn")
    elif view.step is Step.MAIN:
        if len(view.hand) == HAND_LIMIT:
            keys.append("four cards")
        elif not view.hand:
            keys.append("no cards")
        if len(view.hand) < HAND_LIMIT and view.deck_size == 0:
            keys.append("empty deck")
        tokens = view.banked[me] if view.asking == "hand" else view.captured[me]
        if not view.asked and tokens != (0, 0):
            keys.append(f"ask by {view.asking}")
    return [RULES_WHEN_THEY_MATTER[key] for key in keys]


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _asking(view: HackTrickView, p: int) -> str:
    singles, doubles = view.captured[p]
    taken = f"captured {singles + doubles} of player {1 - p}'s"
    if view.asking == "hand":
        held = sum(view.banked[p])
        can = "can ask" if held else "cannot ask"
        return f"{taken} this hand; {held} held from earlier hands ({can}, HT-3)"
    return f"{taken} ({'can ask' if singles + doubles else 'cannot ask'})"


def explain_result(result: HandResult) -> str:
    """Who won a hand, why, and the points."""
    where = ""
    if result.squares:
        where = f" (square{'s' if len(result.squares) > 1 else ''} "
        where += " ".join(map(str, result.squares)) + ")"
    points = _count(result.points, "point")
    if result.points == 2:
        points += ": the double marker lies there and was not placed last"
    return f"player {result.winner} won: {_REASONS[result.reason]}{where}, {points}"


def explain_hand(result: HandResult, scores: tuple[int, int]) -> str:
    """The end of a hand: the final board, who won and why, and the score."""
    return "\n".join(
        [
            "the hand is over; the final board:",
            *_board_lines(result.board),
            explain_result(result),
            f"score: player 0 {scores[0]}, player 1 {scores[1]}",
        ]
    )


def describe(state: HackTrickState, action: Hashable, seat: int) -> str:
    """An action as ``seat`` learns of it, and the end of the hand it brings."""
    after = state.apply(action)  # type: ignore[arg-type]
    told = str(action)
    if isinstance(action, Ask):
        told += f": player {after.reveals[-1].player}'s hand sums to {after.reveals[-1].hand_sum}"
    if len(after.results) > len(state.results):
        told += "\n" + explain_hand(after.results[-1], after.scores)
    return told


def outcome(final: TurnBasedGame, seat: int) -> str:
    """Who won the match, and the score."""
    assert isinstance(final, HackTrickState)
    winner = final.winner()
    assert winner is not None
    verb = "win" if winner == seat else "wins"
    return (
        f"{_subject(winner, seat)} {verb} the match {final.scores[winner]}-"
        f"{final.scores[1 - winner]} (first to {final.config.target} points)"
    )


def _new(players: int, seed: int, asking: str = "hand") -> TurnBasedGame:
    return new_match(seed=seed, asking=asking)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``hack-trick`` command."""
    return run_console(
        "hack-trick",
        _new,
        render,
        argv,
        players=(2, 2),
        describe=describe,
        help_text=HELP,
        make_bot=make_bot,
        outcome=outcome,
        game_options={
            "asking": {
                "choices": ["hand", "turn"],
                "default": "hand",
                "help": "how 'ronde' reads in the asking rule: a hand, as everywhere else in "
                "the text (the default), or a turn (RULES.md HT-3)",
            }
        },
    )


if __name__ == "__main__":
    sys.exit(main())
