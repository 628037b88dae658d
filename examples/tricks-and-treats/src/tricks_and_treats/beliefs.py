"""What a player infers from what they have seen: who took each action, and whose basket is whose.

Every play is public: everyone sees which card went under which basket, and the turn order
tells who played it. A player who puts a card under a basket makes that basket likelier their
own, the more so the higher the card (candy under a basket scores for its owner only).
``beliefs(view)`` weighs every dealing of the number cards that agrees with what the player
knows for certain (``TricksAndTreatsView.possible_numbers``) by how likely it makes the plays
seen: a play of value ``v`` goes under its player's own basket with probability
``FEEDING[v]``, under each other basket of the row alike otherwise, for a player who feeds
their basket; a player may as well not (``FEEDERS``: half of them), whose plays go under
every basket alike, so that a play or two is a hint and a habit a proof. The weights give each
seat's odds of holding each number (``odds``) and draw the dealings a search imagines
(``with_numbers``).
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Sequence
from typing import Final

import attrs

from tricks_and_treats.game import (
    Accuse,
    Play,
    Pull,
    Skip,
    Step,
    Swap,
    TricksAndTreatsState,
    TricksAndTreatsView,
    _number_assignments,
)
from tricky_treats.protocol import game_kit as kit

__all__ = ["FEEDERS", "FEEDING", "Beliefs", "actors", "beliefs", "with_numbers"]

FEEDING: Final = {1: 0.35, 2: 0.45, 3: 0.55, 4: 0.65}
"""Per card value, the chance that a card of that value is played under its player's basket."""
FEEDERS: Final = 0.5
"""The chance that a player feeds their basket so; the others' plays say nothing of it."""

_CHOICES: Final = (Swap, Pull, Skip)


def actors(view: TricksAndTreatsView) -> tuple[int, ...]:
    """The seat that took each action of ``view.history``.

    The first player is hidden (TT-2), but turns go round the living players from them, so
    only the right first player agrees with every accusation's accuser and with the player to
    act now. Once the game is over the first one that agrees is taken.
    """
    for first in range(view.players):
        seats = _replay_turns(view, first)
        if seats is not None:
            return seats
    raise AssertionError(f"no first player explains the turns of {view!r:.80}")


def _replay_turns(view: TricksAndTreatsView, first: int) -> tuple[int, ...] | None:
    alive = [True] * view.players
    accusations = iter(view.accusations)
    history = view.history
    seat = first
    seats: list[int] = []

    def next_alive(p: int) -> int:
        n = view.players
        return next(q % n for q in range(p + 1, p + n + 1) if alive[q % n])

    for i, action in enumerate(history):
        seats.append(seat)
        if isinstance(action, Accuse):
            accusation = next(accusations, None)
            if accusation is None or accusation.accuser != seat:
                return None
            alive[accusation.target if accusation.correct else seat] = False
            if sum(alive) == 1:
                break
            if not accusation.correct:
                seat = next_alive(seat)
        elif isinstance(action, Play | Swap | Pull | Skip):
            later = history[i + 1] if i + 1 < len(history) else None
            choosing = isinstance(later, _CHOICES) or (later is None and view.step is Step.EFFECT)
            if not choosing:  # placing a card (and the basket's choice after it) ends the turn
                seat = next_alive(seat)
    if view.current_player is not None and seat != view.current_player:
        return None
    return tuple(seats)


Beliefs = kit.Dealings[int]
"""A player's weighted guesses at the number card of each seat (``beliefs``)."""


def beliefs(view: TricksAndTreatsView) -> Beliefs:
    """What ``view``'s player infers from the plays in its history (see the module)."""
    return _beliefs(view)


def with_numbers(
    state: TricksAndTreatsState, guesses: Beliefs, rng: random.Random
) -> TricksAndTreatsState:
    """``state`` with the number cards dealt again by ``guesses`` (the rest unchanged).

    ``state`` is one the player cannot tell from the real one (a determinization), so only
    the numbers they do not know change.
    """
    numbers = guesses.draw(rng)
    removed = tuple(sorted(set(range(1, len(numbers) + 3)) - set(numbers)))
    return attrs.evolve(state, numbers=numbers, removed_numbers=removed)


@functools.lru_cache(maxsize=256)
def _beliefs(view: TricksAndTreatsView) -> Beliefs:
    wrong = frozenset((a.target, a.number) for a in view.accusations if not a.correct)
    dealings = _number_assignments(view.players, view.numbers, wrong)
    plays = _plays_by_seat(view)
    likelihoods = [_likelihoods(plays[q], len(view.row), view.players) for q in range(view.players)]
    return kit.Dealings.weigh(view.player, dealings, likelihoods)


def _plays_by_seat(view: TricksAndTreatsView) -> list[list[tuple[int, int]]]:
    """Per seat, the (basket, card value) of each card they played from hand."""
    plays: list[list[tuple[int, int]]] = [[] for _ in range(view.players)]
    for seat, action in zip(actors(view), view.history, strict=True):
        if isinstance(action, Play) and view.numbers[seat] is None:
            plays[seat].append((action.basket, action.card.value))
    return plays


def _likelihoods(plays: Sequence[tuple[int, int]], baskets: int, players: int) -> dict[int, float]:
    """Per number the player may hold, how likely it makes their plays (the largest is 1)."""
    # Either the player feeds their basket (FEEDING) or their plays say nothing of it (each
    # basket alike): each is as likely at first, and the plays weigh them too.
    indifferent = (1 - FEEDERS) * baskets ** -len(plays)
    raw = {
        n: FEEDERS
        * math.prod(
            FEEDING[value] if basket == n else (1 - FEEDING[value]) / (baskets - 1)
            for basket, value in plays
        )
        + indifferent
        for n in range(1, players + 3)
    }
    top = max(raw.values())
    return {n: w / top for n, w in raw.items()}
