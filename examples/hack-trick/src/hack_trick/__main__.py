"""``hack-trick play`` (against a bot in the terminal) and ``hack-trick simulate``."""

from __future__ import annotations

import random
import sys
from collections.abc import Hashable, Sequence
from typing import Final

from hack_trick._i18n import LANGUAGES, N_, _
from hack_trick.bots import make_bot
from hack_trick.game import (
    HAND_LIMIT,
    Action,
    Ask,
    Draw,
    Force,
    Guard,
    HackTrickState,
    HackTrickView,
    HandResult,
    Pass,
    Play,
    Start,
    Step,
    _board_lines,
    new_match,
    parse_action,
)
from tricky_treats.protocol import InformationSet, TurnBasedGame, run_console
from tricky_treats.protocol import game_kit as kit

__all__ = [
    "HELP",
    "NOTATION",
    "describe",
    "explain_hand",
    "explain_result",
    "main",
    "outcome",
    "refusal",
    "render",
]

HELP: Final = N_("""\
Hack Trick: two players play cards 0-5 onto a row; the last card plus the one you play names a
square 1-9 of a magic square, where you put a marker (taking the opponent's markers there). Each
hand begins with the start card: the player dealt 4 cards lays one face up as the row's first
card (start N), and the first card played adds to it.
Three of your markers in a line or on one square win the hand: 1 point, 2 if your double marker
is in it and was not placed last. First to 5 points wins. On your turn you may first ask for
the sum of the opponent's hand (paying a captured marker), then draw (hand limit 4) or play a
card (not the last card's number). After playing you may pass, force (the opponent must play
next turn) or guard (the opponent may not force you next turn); force and guard cost a marker.
A player who must play with no marker left loses the hand. Board: A = player 0, B = player 1;
x a marker, X the double one. Actions: start N, ask, draw, play N, play Nx (double), pass,
force, guard. Or type an action's number.""")

_REASONS: Final = {
    "line": N_("three markers in a line"),
    "triple": N_("three markers on one square"),
    "no marker": N_("the opponent had to play a card but had no marker left"),
}


def _name(player: int, me: int | None = None) -> str:
    who = _("player {number} ({letter})").format(number=player, letter="AB"[player])
    return _("{who}, you").format(who=who) if player == me else who


def _subject(player: int, me: int) -> str:
    """A player as the subject of a sentence: "you (player 0, A)" or "player 1 (B)"."""
    if player == me:
        return _("you (player {number}, {letter})").format(number=player, letter="AB"[player])
    return _name(player)


_TOLD: Final = {
    "announce": N_("at the deal {who}'s hand summed to {sum}"),
    "ask": N_("asked: {who}'s hand summed to {sum}"),
    "show": N_("forced: {who} showed {cards} (sum {sum}) and drew [3.A]"),
}
"""How each piece of public information of the hand is told, in the past: it may be stale."""

RULES_WHEN_THEY_MATTER: Final = {
    "start card": N_(
        "the hand begins: you were dealt 4 cards, so you lay one face up beside the board as "
        "the start card (start N); the first card played adds to it to name a square"
    ),
    "four cards": N_("you hold 4 cards, the hand limit: you must play a card, marker or not"),
    "no cards": N_("you hold no card: you must draw"),
    "empty deck": N_(
        "the deck is empty: a draw shuffles the played cards but the last into a new "
        "deck (the two set-aside cards stay out)"
    ),
    "ask by hand": N_(
        "ask: pay a marker captured in an earlier hand for the sum of the opponent's "
        "hand (HT-3: 'ronde' is a hand, as everywhere else in the text)"
    ),
    "ask by turn": N_(
        "ask: pay a captured marker for the sum of the opponent's hand (HT-3, read as turns)"
    ),
    "end of turn": N_(
        "after playing: pass, force (the opponent must play next turn) or guard (the "
        "opponent may not force you next turn); force and guard cost a marker (HT-6)"
    ),
}
"""The rules the screen explains at the moment they decide what you may do."""


def render(view: HackTrickView) -> str:
    """A player's view as text; players are named the same way everywhere.

    Once the match is over it shows the score, the last board and how the last hand was won,
    under a heading that counts the hands played: no hand is announced that is not played.
    """
    me, other = view.player, 1 - view.player
    if view.step is Step.OVER:
        return "\n".join(
            [
                _("-- the match is over after {hands}; you are {who}").format(
                    hands=_count(len(view.results), "hand"), who=_name(me)
                ),
                _("score: {first} {a}, {second} {b}").format(
                    first=_name(0, me), a=view.scores[0], second=_name(1, me), b=view.scores[1]
                ),
                *_board_lines(view.board),
                _("last hand: {result}").format(result=explain_result(view.results[-1])),
            ]
        )
    lines = [
        _("-- hand {hand}, first to {target}; you are {who}").format(
            hand=view.hand_number + 1, target=view.target, who=_name(me)
        ),
        _("score: {first} {a}, {second} {b}").format(
            first=_name(0, me), a=view.scores[0], second=_name(1, me), b=view.scores[1]
        ),
        *_board_lines(view.board),
        _("row: {row}   deck: {deck}").format(
            row=" ".join(map(str, view.row)) or "-", deck=view.deck_size
        ),
        _("your hand: {hand}   player {other} holds {cards}").format(
            hand=" ".join(map(str, view.hand)) or "-",
            other=other,
            cards=_count(view.opponent_hand_size, "card"),
        ),
    ]
    for p in (me, other):
        left = _count(view.singles[p], "marker")
        text = (
            _("{who}: {left} left + the double; {asking}")
            if view.doubles[p]
            else _("{who}: {left} left; {asking}")
        )
        lines.append(text.format(who=_name(p, me), left=left, asking=_asking(view, p)))
    told = [
        _(_TOLD[r.kind] if r.player != me else _YOURS[r.kind]).format(
            who=_("player {number}").format(number=r.player),
            sum=r.hand_sum,
            cards=" ".join(map(str, r.cards or ())) or _("no card"),
        )
        for r in view.reveals
    ]
    if told:
        lines.append(_("told this hand: ") + "; ".join(told))
    if view.current_player == me:
        lines.extend(_rules_now(view))
    if view.forced[me]:
        lines.append(
            _("player {other} called Play! on you: you must play a card").format(other=other)
        )
    if view.guarded[me] and view.step is Step.END and view.current_player == me:
        lines.append(
            _("player {other} guarded: force is not offered this turn [3.B]").format(other=other)
        )
    elif view.guarded[me] and view.current_player == me:
        lines.append(
            _("player {other} guarded: you may not force at the end of this turn [3.B]").format(
                other=other
            )
        )
    if view.results:
        last = view.results[-1]
        lines.append(_("last hand: {result}").format(result=explain_result(last)))
    return "\n".join(lines)


_YOURS: Final = {
    "announce": N_("at the deal your hand summed to {sum}"),
    "ask": N_("asked: your hand summed to {sum}"),
    "show": N_("forced: you showed {cards} (sum {sum}) and drew [3.A]"),
}
"""The same, of the player's own hand."""


def _rules_now(view: HackTrickView) -> list[str]:
    """The rules that decide what the player to act may do now, in words."""
    me = view.player
    keys = []
    if view.step is Step.START:
        keys.append("start card")
    elif view.step is Step.END:
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
    return [_(RULES_WHEN_THEY_MATTER[key]) for key in keys]


_COUNTS: Final = {
    "card": (N_("{n} card"), N_("{n} cards")),
    "marker": (N_("{n} marker"), N_("{n} markers")),
    "point": (N_("{n} point"), N_("{n} points")),
    "hand": (N_("{n} hand"), N_("{n} hands")),
}


def _count(number: int, noun: str) -> str:
    one, many = _COUNTS[noun]
    return _(one if number == 1 else many).format(n=number)


def _asking(view: HackTrickView, p: int) -> str:
    singles, doubles = view.captured[p]
    taken = _("captured {count} of player {other}'s").format(count=singles + doubles, other=1 - p)
    if view.asking == "hand":
        held = sum(view.banked[p])
        can = _("can ask") if held else _("cannot ask")
        return _("{taken} this hand; {held} held from earlier hands ({can}, HT-3)").format(
            taken=taken, held=held, can=can
        )
    can = _("can ask") if singles + doubles else _("cannot ask")
    return f"{taken} ({can})"


def explain_result(result: HandResult) -> str:
    """Who won a hand, why, and the points."""
    where = ""
    if result.squares:
        squares = " ".join(map(str, result.squares))
        where = (
            _(" (squares {squares})") if len(result.squares) > 1 else _(" (square {squares})")
        ).format(squares=squares)
    points = _count(result.points, "point")
    if result.points == 2:
        points += _(": the double marker lies there and was not placed last")
    return _("player {winner} won: {reason}{where}, {points}").format(
        winner=result.winner, reason=_(_REASONS[result.reason]), where=where, points=points
    )


def explain_hand(result: HandResult, scores: tuple[int, int]) -> str:
    """The end of a hand: the final board, who won and why, and the score."""
    return "\n".join(
        [
            _("the hand is over; the final board:"),
            *_board_lines(result.board),
            explain_result(result),
            _("score: player 0 {a}, player 1 {b}").format(a=scores[0], b=scores[1]),
        ]
    )


NOTATION: Final = kit.Notation(
    {
        "start": (N_("start"),),
        "ask": (N_("ask"),),
        "draw": (N_("draw"),),
        "play": (N_("play"),),
        "pass": (N_("pass"),),
        "force": (N_("force"),),
        "guard": (N_("guard"),),
    },
    parse_action,
    _,
)
"""The actions in the player's words (``speel 3x``), read back in either language."""


def _told(action: Action) -> str:
    """What a player did, as a sentence's verb phrase: "plays 3 with the double marker"."""
    match action:
        case Start(card=card):
            return _("lays {card} face up as the start card").format(card=card)
        case Ask():
            return _("asks for the sum of the opponent's hand")
        case Draw():
            return _("draws a card")
        case Play(card=card, double=True):
            return _("plays {card} with the double marker").format(card=card)
        case Play(card=card):
            return _("plays {card}").format(card=card)
        case Force():
            return _("calls Play! (force)")
        case Guard():
            return _("guards")
        case Pass():
            return _("passes")
    raise AssertionError(action)  # pragma: no cover - every action is matched


def describe(state: HackTrickState, action: Hashable, seat: int) -> str:
    """An action as ``seat`` learns of it, and the end of the hand it brings."""
    after = state.apply(action)  # type: ignore[arg-type]
    assert isinstance(action, Start | Ask | Draw | Play | Pass | Force | Guard)
    told = _told(action)
    if isinstance(action, Ask):
        told += _(": player {number}'s hand sums to {sum}").format(
            number=after.reveals[-1].player, sum=after.reveals[-1].hand_sum
        )
    if len(after.results) > len(state.results):
        told += "\n" + explain_hand(after.results[-1], after.scores)
    return told


def refusal(info: InformationSet, action: Hashable) -> str:
    """Why the rules refuse ``action`` now, in the player's language.

    Asked of a state the player cannot tell from the real one: the reasons read only what
    the player to act knows (their hand, the Row, the calls made).
    """
    state = info.determinize(random.Random(0))
    assert isinstance(state, HackTrickState)
    assert isinstance(action, Start | Ask | Draw | Play | Pass | Force | Guard)
    reason, values = state.refusal(action)
    return _(reason).format(**values)


def outcome(final: TurnBasedGame, seat: int) -> str:
    """Who won the match, and the score."""
    assert isinstance(final, HackTrickState)
    winner = final.winner()
    assert winner is not None
    text = (
        _("{who} win the match {a}-{b} (first to {target} points)")
        if winner == seat
        else _("{who} wins the match {a}-{b} (first to {target} points)")
    )
    return text.format(
        who=_subject(winner, seat),
        a=final.scores[winner],
        b=final.scores[1 - winner],
        target=final.config.target,
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
        languages=LANGUAGES,
        translate=_,
        spell=NOTATION.spell,
        parse=NOTATION.read,
        refusal=refusal,
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
