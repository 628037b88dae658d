"""What a player infers from what they have seen: who took each action, and whose basket is whose.

Every play is public: everyone sees which card went under which basket, and the turn order
tells who played it. Candy under a basket scores for its owner only, so a player who wants
points keeps feeding their own basket, the more so the higher the card; but a player who
knows they are watched may feed another basket instead, a *decoy*, to draw a wrong
accusation (a wrong accuser is out). ``beliefs(view)`` weighs every dealing of the number
cards that agrees with what the player knows for certain
(``TricksAndTreatsView.possible_numbers``) by how likely it makes the plays seen, for a
player of each habit:

- a *feeder* (``FEEDERS`` of players) puts a card of value ``v`` under its own basket with
  probability ``FEEDING[v]`` and under each other basket alike otherwise;
- a *hider* (``HIDERS``) does the same for a decoy, one of the other number baskets alike,
  and never feeds its own;
- the others' plays go under every basket alike.

So a basket a player keeps feeding is likelier theirs, but never more than ``FEEDERS`` to
``HIDERS`` against all the baskets they did not feed together, and a basket they never fed
gains a hider's share. The weights give each seat's odds of holding each number (``odds``),
draw the dealings a search imagines (``with_numbers``), and, given a dealing, the basket each
seat plays for in it (``Beliefs.draw_favourites``: its own, a decoy, or None).
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Sequence
from typing import Final

import attrs

from tricks_and_treats.errors import ConfigurationError
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

__all__ = ["FEEDERS", "FEEDING", "HIDERS", "Beliefs", "actors", "beliefs", "with_numbers"]

FEEDING: Final = {1: 0.35, 2: 0.45, 3: 0.55, 4: 0.65}
"""Per card value, the chance that a card of that value is played under the basket its player
favours (their own, or a hider's decoy)."""
FEEDERS: Final = 0.4
"""The chance that a player feeds their own basket so."""
HIDERS: Final = 0.4
"""The chance that a player feeds a decoy so instead, never their own basket. As likely as a
feeder: plays alone cannot tell the two apart (``docs/bots.md`` measures the choice)."""

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


def beliefs(view: TricksAndTreatsView, feeders: float = FEEDERS, hiders: float = HIDERS) -> Beliefs:
    """What ``view``'s player infers from the plays in its history (see the module).

    ``feeders`` and ``hiders`` are the chances of those habits (the rest play anywhere);
    ``ConfigurationError`` unless both are 0 to 1 and together at most 1.
    """
    if not (0 <= feeders <= 1 and 0 <= hiders <= 1 and feeders + hiders <= 1):
        raise ConfigurationError(
            f"feeders ({feeders!r:.20}) and hiders ({hiders!r:.20}) are chances: "
            "give each from 0 to 1, together at most 1"
        )
    return _beliefs(view, feeders, hiders)


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
def _beliefs(view: TricksAndTreatsView, feeders: float, hiders: float) -> Beliefs:
    wrong = frozenset((a.target, a.number) for a in view.accusations if not a.correct)
    dealings = _number_assignments(view.players, view.numbers, wrong)
    plays = _plays_by_seat(view)
    habits = [
        _habits(plays[q], len(view.row), view.players, feeders, hiders) for q in range(view.players)
    ]
    return kit.Dealings.weigh(view.player, dealings, habits)


def _plays_by_seat(view: TricksAndTreatsView) -> list[list[tuple[int, int]]]:
    """Per seat, the (basket, card value) of each card they played from hand."""
    plays: list[list[tuple[int, int]]] = [[] for _ in range(view.players)]
    for seat, action in zip(actors(view), view.history, strict=True):
        if isinstance(action, Play) and view.numbers[seat] is None:
            plays[seat].append((action.basket, action.card.value))
    return plays


def _habits(
    plays: Sequence[tuple[int, int]], baskets: int, players: int, feeders: float, hiders: float
) -> dict[int, list[tuple[int | None, float]]]:
    """Per number the player may hold, each basket they may favour and how likely (see above).

    The weights are relative: the largest is 1.
    """
    numbers = range(1, players + 3)

    def favouring(favourite: int, shunned: int | None) -> float:
        # The plays of a player who feeds ``favourite`` and never ``shunned``.
        spread = baskets - 1 - (shunned is not None)
        return math.prod(
            FEEDING[value]
            if basket == favourite
            else 0.0
            if basket == shunned
            else (1 - FEEDING[value]) / spread
            for basket, value in plays
        )

    indifferent = (1 - feeders - hiders) * baskets ** -len(plays)
    raw: dict[int, list[tuple[int | None, float]]] = {}
    for n in numbers:
        decoys = [d for d in numbers if d != n]
        raw[n] = [
            (n, feeders * favouring(n, None)),
            *((d, hiders / len(decoys) * favouring(d, n)) for d in decoys),
            (None, indifferent),
        ]
    top = max(sum(w for _, w in options) for options in raw.values())
    return {n: [(f, w / top) for f, w in options] for n, options in raw.items()}
