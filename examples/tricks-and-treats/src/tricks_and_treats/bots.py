"""What the bots know, and quick playout policies for the generic search player.

A player knows their own number card, the number cards turned up by accusations, a number card
shown to them after their own wrong accusation, and that a number wrongly named for a player is
not theirs. ``possible_numbers`` derives from that which numbers each player may still hold, and
``informed_actions`` keeps only the accusations the accuser knows to be right: a bot that
searches with it (``SearchPlayer(action_filter=informed_actions,
rollout_policy=informed_rollout)``) neither accuses blindly nor
imagines its opponents guessing its own number, which every sampled world would otherwise hand
them (the search's sampled worlds all hold the searcher's real number).

``calm_rollout`` is the previous bot's playout policy (accuse rarely, blindly); it stays for the
comparison in ``benchmarks/bench_candy_games.py``.
"""

from __future__ import annotations

import functools
import random

from tricks_and_treats.game import (
    Accuse,
    Action,
    Draw,
    Play,
    Step,
    TricksAndTreatsState,
    _number_assignments,
)

__all__ = [
    "ACCUSE_RATE",
    "calm_rollout",
    "informed_actions",
    "informed_rollout",
    "possible_numbers",
]

ACCUSE_RATE = 0.05
"""How often a calm playout accuses when it may."""


def possible_numbers(state: TricksAndTreatsState, player: int) -> tuple[frozenset[int], ...]:
    """Per seat, the number cards it may hold as far as ``player`` knows.

    The same as ``state.view(player).possible_numbers(seat)``, without building the view.
    """
    known: list[int | None] = [None] * state.num_players
    known[player] = state.numbers[player]
    wrong: set[tuple[int, int]] = set()
    for a in state.accusations:
        loser = a.target if a.correct else a.accuser
        known[loser] = state.numbers[loser]  # turned face up [2]
        if not a.correct:
            wrong.add((a.target, a.number))
            if a.accuser == player:
                known[a.target] = state.numbers[a.target]  # shown secretly [2.(2)]
    return _per_seat(state.num_players, tuple(known), frozenset(wrong))


@functools.lru_cache(maxsize=4096)
def _per_seat(
    players: int, known: tuple[int | None, ...], wrong: frozenset[tuple[int, int]]
) -> tuple[frozenset[int], ...]:
    assignments = _number_assignments(players, known, wrong)
    return tuple(frozenset(a[q] for a in assignments) for q in range(players))


def informed_actions(state: TricksAndTreatsState) -> tuple[Action, ...]:
    """The legal actions but the accusations the accuser cannot know to be right."""
    legal = state.legal_actions()
    p = state.current_player
    if p is None or not any(isinstance(a, Accuse) for a in legal):
        return legal
    possible = possible_numbers(state, p)
    return tuple(a for a in legal if not isinstance(a, Accuse) or possible[a.target] == {a.number})


def informed_rollout(state: TricksAndTreatsState, rng: random.Random) -> Action:
    """A quick playout action: a sure accusation if there is one, else a draw or a play.

    The play is a random card of the hand under a random basket; a special basket's choice is
    uniform among the legal ones.
    """
    p = state.current_player
    assert p is not None
    if state.step is Step.EFFECT:
        legal = state.legal_actions()
        return legal[rng.randrange(len(legal))]
    possible = possible_numbers(state, p)
    for t in range(state.num_players):
        if t != p and state.alive[t] and len(possible[t]) == 1:
            return Accuse(t, next(iter(possible[t])))
    if state.step is Step.DRAW:
        return Draw()
    hand = state.hands[p]
    return Play(hand[rng.randrange(len(hand))], state.row[rng.randrange(len(state.row))])


def calm_rollout(state: TricksAndTreatsState, rng: random.Random) -> Action:
    """A legal action: an accusation with probability ``ACCUSE_RATE``, else a draw or a play."""
    legal = state.legal_actions()
    calm = [a for a in legal if not isinstance(a, Accuse)]
    pool = legal if not calm or rng.random() < ACCUSE_RATE else calm
    return pool[rng.randrange(len(pool))]
