"""Candy Chaser's bots: a greedy baseline, a hider, and a search that reasons about who deals what.

Every move is public: everyone sees which cube was moved, and the turn order tells who moved
it. A player who plays for their candy mostly moves its cube (up: its price is what they win
by); but a player who knows they are watched may push another candy instead, a *decoy*, to
draw a wrong accusation (a wrong accuser is out). ``beliefs(view)`` weighs every dealing of
the candies that agrees with what the player knows for certain (their own candy, what their
own accusations showed, every accusation's result) by how likely it makes the moves seen, for
a player of each habit:

- a *pusher* (``PUSHERS`` of players) moves its own candy's cube with probability
  ``OWN_MOVES``, each other cube alike otherwise;
- a *hider* (``HIDERS``) does the same for a decoy, one of the other candies alike, and never
  moves its own;
- the others' moves go to every cube alike.

So a cube a player keeps moving is likelier their candy, but never more than ``PUSHERS`` to
``HIDERS`` against the candies they left alone together. ``SleuthPlayer`` searches its moves
in dealings drawn by those weights (each seat playing for the candy it favours in the
dealing drawn), and in the Tattletale phase works out exactly, over the dealings, whether an
accusation raises its chance of winning (``bets``). ``GreedyPlayer`` pushes its own candy
and never accuses; ``HiderPlayer`` pushes a decoy, never its own, and never accuses.
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
from tricky_treats.protocol import Agent, InformationSet, RandomPlayer, SearchPlayer
from tricky_treats.protocol import game_kit as kit

__all__ = [
    "HIDERS",
    "OWN_MOVES",
    "PUSHERS",
    "PUSH_RATE",
    "Beliefs",
    "Bet",
    "GreedyPlayer",
    "HiderPlayer",
    "Imagined",
    "SleuthPlayer",
    "beliefs",
    "decoy",
    "greedy_move",
    "make_bot",
    "movers",
    "pushing_rollout",
    "sample",
]

OWN_MOVES: Final = 0.5
"""The chance, as a bot reckons it, that a player moves the cube it plays for on a turn."""
PUSHERS: Final = 0.6
"""The chance that a player moves their own cube so."""
HIDERS: Final = 0.2
"""The chance that a player moves a decoy's cube so instead, never their own. Moves alone
cannot tell the two apart; the bot accuses mostly when it would lose by passing, so a wrong
guess costs it little and the odds can lean to pushers (``docs/bots.md`` measures the
choice). The rest move at random, so a few moves of one cube by a player who moves at
random do not convict them."""
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


def beliefs(view: CandyChaserView, pushers: float = PUSHERS, hiders: float = HIDERS) -> Beliefs:
    """What ``view``'s player infers from the moves in its history (see the module).

    ``pushers`` and ``hiders`` are the chances of those habits (the rest move at random);
    ``ConfigurationError`` unless both are 0 to 1 and together at most 1.
    """
    if not (0 <= pushers <= 1 and 0 <= hiders <= 1 and pushers + hiders <= 1):
        raise ConfigurationError(
            f"pushers ({pushers!r:.20}) and hiders ({hiders!r:.20}) are chances: "
            "give each from 0 to 1, together at most 1"
        )
    return _beliefs(view, pushers, hiders)


def sample(view: CandyChaserView, guesses: Beliefs, rng: random.Random) -> CandyChaserState:
    """A state ``view``'s player cannot tell from the real one, candies drawn by ``guesses``."""
    # A view that knows every candy determinizes to those candies (the hidden candies of
    # others' accusations and the seed drawn to agree with them).
    return attrs.evolve(view, objectives=guesses.draw(rng)).determinize(rng)


@functools.lru_cache(maxsize=256)
def _beliefs(view: CandyChaserView, pushers: float, hiders: float) -> Beliefs:
    dealings = [d for d in itertools.permutations(CANDIES, view.players) if view._consistent(d)]
    moved: list[list[str]] = [[] for _ in range(view.players)]
    moves = [a for a in view.history if isinstance(a, Move)]
    for seat, move in zip(movers(view), moves, strict=True):
        moved[seat].append(move.candy)
    habits = [_habits(m, pushers, hiders) for m in moved]
    return kit.Dealings.weigh(view.player, dealings, habits)


def _habits(
    moved: Sequence[str], pushers: float, hiders: float
) -> dict[str, list[tuple[str | None, float]]]:
    """Per candy, each candy the player may play for and how likely (the largest sum is 1)."""

    def favouring(favourite: str, shunned: str | None) -> float:
        # The moves of a player who pushes ``favourite`` and never moves ``shunned``.
        other = (1 - OWN_MOVES) / (len(CANDIES) - 1 - (shunned is not None))
        return math.prod(
            OWN_MOVES if m == favourite else 0.0 if m == shunned else other for m in moved
        )

    indifferent = (1 - pushers - hiders) * len(CANDIES) ** -len(moved)
    raw: dict[str, list[tuple[str | None, float]]] = {}
    for c in CANDIES:
        decoys = [d for d in CANDIES if d != c]
        raw[c] = [
            (c, pushers * favouring(c, None)),
            *((d, hiders / len(decoys) * favouring(d, c)) for d in decoys),
            (None, indifferent),
        ]
    top = max(sum(w for _, w in options) for options in raw.values())
    return {c: [(f, w / top) for f, w in options] for c, options in raw.items()}


@attrs.frozen
class Imagined(CandyChaserState):
    """A state the sleuth imagines: a full state, and the candy each seat plays for in it.

    ``favourites[seat]`` is the seat's own candy, a decoy (a hider's), or None (a player who
    moves at random); ``pushing_rollout`` plays by it. The rules keep it from state to
    state (every move derives the next state with ``attrs.evolve``).
    """

    favourites: tuple[str | None, ...] = ()


def imagine(view: CandyChaserView, guesses: Beliefs, rng: random.Random) -> Imagined:
    """``sample``, with each seat's favourite drawn by ``guesses`` for the candies drawn."""
    state = sample(view, guesses, rng)
    fields = {f.name: getattr(state, f.name) for f in attrs.fields(CandyChaserState)}
    return Imagined(**fields, favourites=guesses.draw_favourites(state.objectives, rng))


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
    """A quick playout action: mostly the greedy move; nobody accuses in a playout.

    The greedy move is for the player's own candy, or in an ``Imagined`` state for the candy
    it favours (a hider's decoy; a player with none moves at random). With probability
    ``1 - PUSH_RATE`` a random cube moves instead.
    """
    if state.phase is not Phase.MARKETING:
        return Pass()
    p = state.current_player
    assert p is not None
    assert state.roll is not None
    favourite: str | None = state.objectives[p]
    if isinstance(state, Imagined):
        favourite = state.favourites[p]
    if favourite is None or rng.random() >= PUSH_RATE:
        return Move(CANDIES[rng.randrange(len(CANDIES))])
    return greedy_move(state.prices, favourite, state.roll, state.destination)


def decoy(view: CandyChaserView) -> str:
    """The candy a ``HiderPlayer`` pushes: one of the others, by its seat and its own candy.

    Seat and candy are dealt, so the decoy tells nothing of the hider's candy.
    """
    own = view.objectives[view.player]
    assert own is not None
    others = [c for c in CANDIES if c != own]
    return others[(CANDIES.index(own) + view.player) % len(others)]


@attrs.frozen
class HiderPlayer:
    """A rival who hides what it deals: greedy for a decoy candy, never moving its own.

    On a rise it moves its ``decoy`` up (when the decoy cannot rise, the cheapest cube but
    its own); on a fall, the dearest cube but its own and the decoy down. It passes in the
    Tattletale phase. Its own candy moves only when others move it, so it wins when someone
    takes the decoy for its candy and is out for the wrong accusation.
    """

    def choose(self, info: InformationSet, rng: random.Random) -> Action:
        """Push the decoy, lower the dearest other, pass when accusing."""
        view = info.view
        assert isinstance(view, CandyChaserView)
        if view.phase is not Phase.MARKETING:
            return Pass()
        assert view.roll is not None
        own, fake = view.objectives[view.player], decoy(view)
        price = dict(zip(CANDIES, view.prices, strict=True))
        rest = [c for c in CANDIES if c not in (own, fake)]
        if view.roll < 0:
            return Move(max(rest, key=lambda c: price[c]))
        if view.destination(fake) != price[fake]:
            return Move(fake)
        return Move(min(rest, key=lambda c: price[c]))


@attrs.frozen
class Bet:
    """An accusation weighed: its chance of being right, and the bot's chance to win after.

    A wrong accuser is out and wins nothing, so the accusation is worth
    ``chance * if_right`` against ``if_waiting``, the chance to win when passing. Both are
    worked out exactly over the dealings the bot believes in (``SleuthPlayer.bets``).
    """

    accusation: Accuse
    chance: float
    """The chance that the target holds the candy named, by the bot's beliefs."""
    if_right: float
    """The bot's chance to win after the accusation, when it is right (accusing on if it pays)."""
    if_waiting: float
    """The bot's chance to win when it passes."""

    @property
    def gain(self) -> float:
        """What the accusation adds to the bot's chance to win (may be negative)."""
        return self.chance * self.if_right - self.if_waiting

    @property
    def pays(self) -> bool:
        """Whether the gain is above 0 (beyond rounding)."""
        return self.gain > 1e-9


def _winning(guesses: Beliefs, prices: Sequence[int], alive: Sequence[bool]) -> float:
    """The player's share of the win if everybody passes: their candy dearest among the living."""
    me = guesses.player
    price = dict(zip(CANDIES, prices, strict=True))
    share = 0.0
    for dealing, weight in zip(guesses.dealings, guesses.weights, strict=True):
        living = [price[dealing[q]] for q in range(len(dealing)) if alive[q]]
        mine = price[dealing[me]]
        if mine == max(living):
            share += weight / living.count(mine)
    return share


def _bets(guesses: Beliefs, prices: Sequence[int], alive: Sequence[bool]) -> list[Bet]:
    """Every accusation the player may make now, weighed (see ``Bet``)."""
    waiting = _winning(guesses, prices, alive)
    bets = []
    for target in range(len(alive)):
        if target == guesses.player or not alive[target]:
            continue
        for candy, chance in guesses.odds(target).items():
            after = kit.replaced(tuple(alive), target, False)
            narrowed = guesses.given(target, candy)
            if_right = max([_winning(narrowed, prices, after), *_gains(narrowed, prices, after)])
            bets.append(Bet(Accuse(target, candy), chance, if_right, waiting))
    return bets


def _gains(guesses: Beliefs, prices: Sequence[int], alive: Sequence[bool]) -> list[float]:
    # After a right accusation the accuser may accuse again: the best it can then do.
    if sum(alive) < 2:
        return []
    return [bet.chance * bet.if_right for bet in _bets(guesses, prices, alive)]


@attrs.frozen
class SleuthPlayer:
    """The search bot: it weighs who deals which candy from the moves, and accuses when it pays.

    In the Marketing phase it works out its ``beliefs`` and searches (``SearchPlayer``) in
    states drawn by them, with playouts in which every player mostly moves greedily for the
    candy it favours in the state drawn (``pushing_rollout``). In the Tattletale phase it
    weighs every accusation exactly over the dealings it believes in (``bets``): right with
    ``chance``, it is worth its chance to win afterwards (accusing again when that pays);
    wrong, it is out. It accuses when that beats its chance to win by passing, so it passes
    when its own candy is the dearest, and when a wrong guess costs more than a right one
    gains. Other players, in its search, pass.
    """

    iterations: int = 200
    pushers: float = PUSHERS
    """The chance it gives a player of pushing their own candy (``beliefs``)."""
    hiders: float = HIDERS
    """The chance it gives a player of pushing a decoy instead (``beliefs``)."""

    def choose(self, info: InformationSet, rng: random.Random) -> Action:
        """Search ``iterations`` iterations among the moves; accuse when a bet pays."""
        view = info.view
        assert isinstance(view, CandyChaserView)
        if view.phase is Phase.TATTLETALE:
            paying = [bet for bet in self.bets(view) if bet.pays]
            if paying:
                return max(paying, key=lambda bet: bet.gain).accusation
            return Pass()
        guesses = beliefs(view, self.pushers, self.hiders)

        def considered(state: CandyChaserState) -> tuple[Action, ...]:
            if state.phase is Phase.MARKETING:
                return state.legal_actions()
            return (Pass(),)

        def drawn(info: InformationSet, rng: random.Random) -> Imagined:
            return imagine(view, guesses, rng)

        search = SearchPlayer(
            iterations=self.iterations,
            action_filter=considered,
            rollout_policy=pushing_rollout,
            sampler=drawn,
        )
        return search.choose(info, rng)  # type: ignore[return-value]

    def bets(self, view: CandyChaserView) -> list[Bet]:
        """Every accusation ``view``'s player may make now, weighed over its beliefs."""
        return _bets(beliefs(view, self.pushers, self.hiders), view.prices, view.alive)


def make_bot(spec: str) -> Agent:
    """A bot by name: ``random``, ``greedy``, ``hider``, ``search`` or ``search:ITERATIONS``.

    ``search`` is the sleuth. ``blind[:ITERATIONS]`` is an earlier search bot (every legal
    action, random playouts, so it accuses blindly), kept for comparisons.
    """
    return kit.bot_named(
        spec,
        {"random": RandomPlayer, "greedy": GreedyPlayer, "hider": HiderPlayer},
        {
            "search": lambda n: SleuthPlayer(iterations=n),
            "blind": lambda n: SearchPlayer(iterations=n),
        },
        ConfigurationError,
    )
