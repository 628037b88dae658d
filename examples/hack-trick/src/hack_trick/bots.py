"""The bots of Hack Trick: a greedy baseline, and help for the generic search player.

A match is several hands; a uniform playout to the end of the match is long (a hundred actions
and more) and mostly noise about later hands. ``hand_end_estimate`` stops a playout when the hand
it began in is over and estimates each player's chance of the match from the points both still
need: ``SearchPlayer(playout_cutoff=hand_end_estimate)``. ``GreedyPlayer`` looks one action
ahead; ``make_bot`` finds a bot by its name.
"""

from __future__ import annotations

import random

import attrs

from hack_trick.errors import ConfigurationError
from hack_trick.game import LINES, Action, Draw, HackTrickState, Pass, Play, Start
from tricky_treats.protocol import Agent, InformationSet, RandomPlayer, SearchPlayer
from tricky_treats.protocol import game_kit as kit

__all__ = ["GreedyPlayer", "hand_end_estimate", "make_bot"]


def hand_end_estimate(start: HackTrickState, state: HackTrickState) -> tuple[float, ...] | None:
    """None while the hand of ``start`` goes on; then each player's estimated share.

    The estimate of a match still open is the other player's points still needed over both
    players' (a player who needs 1 point against 4 wins 4 times in 5).
    """
    if state.is_over:
        return state.returns()
    if len(state.results) == len(start.results):
        return None
    need = [state.config.target - score for score in state.scores]
    return (need[1] / (need[0] + need[1]), need[0] / (need[0] + need[1]))


@attrs.frozen
class GreedyPlayer:
    """Plays for itself, one action ahead, and never spends a marker to force or guard.

    A baseline to measure other bots against. It plays the card that wins the hand with the
    most points if there is one; else the card that captures the most of the opponent's
    markers or, failing that, builds the most of its own lines (a single marker, the double
    one only when nothing else is left); it draws rather than make a play that does neither.
    It never asks, and ends its turns with ``pass``.
    """

    def choose(self, info: InformationSet, rng: random.Random) -> Action:
        """The legal action of the best immediate effect (see the class)."""
        legal = info.legal_actions
        if Pass() in legal:
            return Pass()
        if isinstance(legal[0], Start):
            return legal[0]
        state = info.determinize(rng)
        assert isinstance(state, HackTrickState)
        options = [a for a in legal if isinstance(a, Play | Draw)]
        return max(options, key=lambda a: _gain(state, info.player, a))


def _gain(state: HackTrickState, p: int, action: Play | Draw) -> float:
    """How much ``action`` does for ``p`` at once: a won hand, captures, lines built."""
    if isinstance(action, Draw):
        return 0.5
    after = state.apply(action)
    if len(after.results) > len(state.results):
        result = after.results[-1]
        return 100.0 + result.points if result.winner == p else -100.0
    assert state.top is not None
    number = action.card + state.top
    captured = sum(after.captured[p]) - sum(state.captured[p])
    lines = sum(
        sum(after.board[n - 1].owner == p for n in line)
        for line in LINES
        if number in line and all(after.board[n - 1].owner in (p, None) for n in line)
    )
    return 10.0 * captured + lines - 0.1 - (5.0 if action.double else 0.0)


def make_bot(spec: str) -> Agent:
    """A bot by name: ``random``, ``greedy``, ``search`` or ``search:ITERATIONS``.

    The search bot's playouts stop when the hand ends (``hand_end_estimate``); ``full[:N]``
    is the previous search bot, whose playouts run to the end of the match.
    """
    return kit.bot_named(
        spec,
        {"random": RandomPlayer, "greedy": GreedyPlayer},
        {
            "search": lambda n: SearchPlayer(iterations=n, playout_cutoff=hand_end_estimate),
            "full": lambda n: SearchPlayer(iterations=n),
        },
        ConfigurationError,
    )
