"""Bots for Candy Chaser: a greedy baseline, and a search that reasons about who deals what.

Every move is public: everyone sees which cube was moved, and the turn order tells who moved
it. A player mostly moves the cube of their own candy (up: its price is what they win by), so
each cube a player moves makes that candy likelier theirs. ``beliefs(view)`` weighs every
dealing of the candies that agrees with what the player knows for certain (their own candy,
what their own accusations showed, every accusation's result) by how likely it makes the moves
seen: a player who pushes their candy moves its cube with probability ``OWN_MOVES``, each
other cube alike otherwise; a player may as well not (one in five, ``PUSHERS``), whose moves
go to every cube alike, so that a move or two is a hint and a habit a proof. ``SleuthPlayer``
searches in dealings drawn by those weights and accuses when that pays; ``GreedyPlayer``
pushes its own candy and never accuses.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Callable, Sequence
from typing import Final

import attrs

from candy_chaser.errors import ConfigurationError
from candy_chaser.game import (
    CANDIES,
    Accuse,
    Action,
    CandyChaserState,
    CandyChaserView,
    Move,
    Pass,
    Phase,
)
from tricky_treats.protocol import Agent, InformationSet, RandomPlayer, SearchPlayer, TurnBasedGame
from tricky_treats.protocol import game_kit as kit

__all__ = [
    "OWN_MOVES",
    "PUSHERS",
    "PUSH_RATE",
    "Beliefs",
    "GreedyPlayer",
    "SleuthPlayer",
    "beliefs",
    "greedy_move",
    "make_bot",
    "movers",
    "pushing_rollout",
    "sample",
]

OWN_MOVES: Final = 0.5
"""The chance, as a bot reckons it, that a player moves their own candy's cube on a turn."""
PUSHERS: Final = 0.8
"""The chance that a player moves their cube so; the others' moves say nothing of it.

Below 1, a few moves of one cube by a player who moves at random do not convict them: 1
(every player a pusher) lost to bots that accuse at random, 0.5 to greedy bots more often."""
PUSH_RATE: Final = 0.75
"""How often a pushing playout moves as the greedy bot does (else a random cube)."""


def movers(view: CandyChaserView) -> tuple[int, ...]:
    """The seat that made each Marketing move of ``view.history``, in order.

    The first player is hidden, but seats take turns from them: while Marketing lasts the
    player to act made the move ``turn`` turns ago; in the Tattletale phase the last player
    to have their chance is the one who moved a cube to G ([B]).
    """
    n = view.players
    if view.phase is Phase.MARKETING:
        assert view.current_player is not None
        first = (view.current_player - view.turn) % n
    elif view.current_player is not None:
        mover = (view.to_accuse or (view.current_player,))[-1]
        first = (mover - view.turn + 1) % n
    else:
        return ()  # the game is over: nobody has to reason any more
    return tuple((first + k) % n for k in range(view.turn))


Beliefs = kit.Dealings[str]
"""A player's weighted guesses at the candy of each seat (``beliefs``)."""


def beliefs(view: CandyChaserView) -> Beliefs:
    """What ``view``'s player infers from the moves in its history (see the module)."""
    return _beliefs(view)


def sample(view: CandyChaserView, guesses: Beliefs, rng: random.Random) -> CandyChaserState:
    """A state ``view``'s player cannot tell from the real one, candies drawn by ``guesses``."""
    # A view that knows every candy determinizes to those candies (the hidden candies of
    # others' accusations and the seed drawn to agree with them).
    return attrs.evolve(view, objectives=guesses.draw(rng)).determinize(rng)


@functools.lru_cache(maxsize=256)
def _beliefs(view: CandyChaserView) -> Beliefs:
    dealings = [d for d in itertools.permutations(CANDIES, view.players) if view._consistent(d)]
    moved: list[list[str]] = [[] for _ in range(view.players)]
    moves = [a for a in view.history if isinstance(a, Move)]
    for seat, move in zip(movers(view), moves, strict=True):
        moved[seat].append(move.candy)
    return kit.Dealings.weigh(view.player, dealings, [_likelihoods(m) for m in moved])


def _likelihoods(moved: Sequence[str]) -> dict[str, float]:
    """Per candy, how likely dealing it makes these moves (the largest is 1)."""
    other = (1 - OWN_MOVES) / (len(CANDIES) - 1)
    # Either the player pushes their candy (OWN_MOVES) or their moves say nothing of it (each
    # cube alike, one player in five at first); the moves weigh the two too.
    indifferent = (1 - PUSHERS) * len(CANDIES) ** -len(moved)
    raw = {
        c: PUSHERS * math.prod(OWN_MOVES if m == c else other for m in moved) + indifferent
        for c in CANDIES
    }
    top = max(raw.values())
    return {c: w / top for c, w in raw.items()}


def greedy_move(
    prices: Sequence[int], own: str, roll: int, destination: Callable[[str], int]
) -> Move:
    """The greedy move: up, its own cube (when it moves); down, the dearest other cube.

    With a rise its own cube cannot take, the cheapest other cube goes up (the one least
    likely to matter). ``destination(candy)`` is where a cube would end with ``roll``.
    """
    others = [c for c in CANDIES if c != own]
    price = dict(zip(CANDIES, prices, strict=True))
    if roll < 0:
        return Move(max(others, key=lambda c: price[c]))
    if destination(own) != price[own]:
        return Move(own)
    return Move(min(others, key=lambda c: price[c]))


@attrs.frozen
class GreedyPlayer:
    """Plays for itself and never accuses: raises its own candy, lowers the dearest other.

    A baseline to measure other bots against; it passes in the Tattletale phase.
    """

    def choose(self, info: InformationSet, rng: random.Random) -> Action:
        """``greedy_move`` in the Marketing phase, else ``pass``."""
        view = info.view
        assert isinstance(view, CandyChaserView)
        if view.phase is not Phase.MARKETING:
            return Pass()
        own = view.objectives[view.player]
        assert own is not None
        assert view.roll is not None
        return greedy_move(view.prices, own, view.roll, view.destination)


def pushing_rollout(state: CandyChaserState, rng: random.Random) -> Action:
    """A quick playout action: mostly the greedy move; nobody accuses in a playout."""
    if state.phase is not Phase.MARKETING:
        return Pass()
    assert state.current_player is not None
    assert state.roll is not None
    if rng.random() >= PUSH_RATE:
        return Move(CANDIES[rng.randrange(len(CANDIES))])
    own = state.objectives[state.current_player]
    return greedy_move(state.prices, own, state.roll, state.destination)


@attrs.frozen
class SleuthPlayer:
    """The search bot: it weighs who deals which candy from the moves, and accuses when it pays.

    At each move it works out its ``beliefs`` and searches (``SearchPlayer``) in states drawn
    by them, with playouts in which every player mostly moves greedily (``pushing_rollout``).
    In the Tattletale phase the search weighs each accusation it finds at least ``suspicion``
    likely: in the sampled states it is right as often as the odds say, so the bot accuses
    when a chance of knocking out a dearer candy's dealer is worth the risk of being out (and
    not when its own candy is the dearest). Other players, in its search, pass.
    """

    iterations: int = 200
    suspicion: float = 0.15
    """The least chance of being right at which an accusation is searched."""

    def choose(self, info: InformationSet, rng: random.Random) -> Action:
        """Search ``iterations`` iterations among the moves, or the pass and likely accusations."""
        view = info.view
        assert isinstance(view, CandyChaserView)
        guesses = beliefs(view)
        likely = {Accuse(seat, candy) for seat, candy in guesses.likely(self.suspicion)}

        def considered(state: CandyChaserState) -> tuple[Action, ...]:
            if state.phase is Phase.MARKETING:
                return state.legal_actions()
            if state.current_player != view.player:
                return (Pass(),)
            return tuple(a for a in state.legal_actions() if a == Pass() or a in likely)

        def drawn(info: InformationSet, rng: random.Random) -> TurnBasedGame:
            return sample(view, guesses, rng)

        search = SearchPlayer(
            iterations=self.iterations,
            action_filter=considered,
            rollout_policy=pushing_rollout,
            sampler=drawn,
        )
        return search.choose(info, rng)  # type: ignore[return-value]


def make_bot(spec: str) -> Agent:
    """A bot by name: ``random``, ``greedy``, ``search`` or ``search:ITERATIONS`` (the sleuth).

    ``blind[:ITERATIONS]`` is the previous search bot (every legal action, random playouts,
    so it accuses blindly), kept for comparisons.
    """
    return kit.bot_named(
        spec,
        {"random": RandomPlayer, "greedy": GreedyPlayer},
        {
            "search": lambda n: SleuthPlayer(iterations=n),
            "blind": lambda n: SearchPlayer(iterations=n),
        },
        ConfigurationError,
    )
