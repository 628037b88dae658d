"""The bots: what they know for certain, quick playout policies, and the bots by name.

A player knows their own number card, the number cards turned up by accusations, a number card
shown to them after their own wrong accusation, and that a number wrongly named for a player is
not theirs. ``possible_numbers`` derives from that which numbers each player may still hold, and
``informed_actions`` keeps only the accusations the accuser knows to be right: a bot that
searches with it (``SearchPlayer(action_filter=informed_actions,
rollout_policy=informed_rollout)``) neither accuses blindly nor
imagines its opponents guessing its own number, which every sampled world would otherwise hand
them (the search's sampled worlds all hold the searcher's real number).

That bot (``informed:N`` by name) accuses only when sure, so a player who feeds their basket
openly beats it. ``SleuthPlayer`` (``search:N``) also weighs what is likely
(``tricks_and_treats.beliefs``) and accuses when that pays; ``GreedyPlayer`` (``greedy``)
feeds its own basket and never accuses; ``make_bot`` finds them by name. ``calm_rollout`` is
an older bot's playout policy (accuse rarely, blindly).
"""

from __future__ import annotations

import functools
import random

import attrs

from tricks_and_treats.beliefs import beliefs, with_numbers
from tricks_and_treats.errors import ConfigurationError
from tricks_and_treats.game import (
    Accuse,
    Action,
    Draw,
    Play,
    Step,
    TricksAndTreatsState,
    TricksAndTreatsView,
    _number_assignments,
)
from tricky_treats.protocol import Agent, InformationSet, RandomPlayer, SearchPlayer, TurnBasedGame
from tricky_treats.protocol import game_kit as kit

__all__ = [
    "ACCUSE_RATE",
    "FEED_RATE",
    "GreedyPlayer",
    "SleuthPlayer",
    "calm_rollout",
    "feeding_rollout",
    "informed_actions",
    "informed_rollout",
    "make_bot",
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
    sure = _sure_accusation(state, p)
    if sure is not None:
        return sure
    if state.step is Step.DRAW:
        return Draw()
    hand = state.hands[p]
    return Play(hand[rng.randrange(len(hand))], state.row[rng.randrange(len(state.row))])


def _sure_accusation(state: TricksAndTreatsState, p: int) -> Accuse | None:
    """An accusation ``p`` knows to be right, if there is one."""
    possible = possible_numbers(state, p)
    for t in range(state.num_players):
        if t != p and state.alive[t] and len(possible[t]) == 1:
            return Accuse(t, next(iter(possible[t])))
    return None


def calm_rollout(state: TricksAndTreatsState, rng: random.Random) -> Action:
    """A legal action: an accusation with probability ``ACCUSE_RATE``, else a draw or a play."""
    legal = state.legal_actions()
    calm = [a for a in legal if not isinstance(a, Accuse)]
    pool = legal if not calm or rng.random() < ACCUSE_RATE else calm
    return pool[rng.randrange(len(pool))]


_CERTAIN = 1 - 1e-9
"""Odds this close to 1 are a proof (they are 1 up to rounding)."""

FEED_RATE = 0.75
"""How often a feeding playout puts the highest card of the hand under its player's basket."""


def feeding_rollout(state: TricksAndTreatsState, rng: random.Random) -> Action:
    """A quick playout action in which every player mostly feeds their own basket.

    A sure accusation if there is one; else draw; else, with probability ``FEED_RATE``, the
    highest card of the hand under the player's own basket, and otherwise a random card under
    a random basket. A special basket's choice is uniform among the legal ones.
    """
    p = state.current_player
    assert p is not None
    if state.step is Step.EFFECT or rng.random() >= FEED_RATE:
        return informed_rollout(state, rng)
    sure = _sure_accusation(state, p)
    if sure is not None:
        return sure
    if state.step is Step.DRAW:
        return Draw()
    return Play(max(state.hands[p], key=lambda c: c.value), state.numbers[p])


@attrs.frozen
class GreedyPlayer:
    """Plays for itself and never accuses: the action that leaves its own basket the most points.

    In the basic game that is drawing, then the highest card of the hand under its own basket.
    With special baskets it looks one action ahead on a sampled state. A baseline to measure
    other bots against.
    """

    def choose(self, info: InformationSet, rng: random.Random) -> Action:
        """The legal action, no accusation, after which its own basket scores the most."""
        calm = [
            a for a in info.legal_actions if isinstance(a, Action) and not isinstance(a, Accuse)
        ]
        if len(calm) == 1:
            return calm[0]
        state = info.determinize(rng)
        assert isinstance(state, TricksAndTreatsState)
        own = state.numbers[info.player]

        def points(action: Action) -> int:
            after = state.apply(action)
            return after.candy_points(own) + after.popular_bonus(own)

        return max(calm, key=points)


@attrs.frozen
class SleuthPlayer:
    """The search bot: it weighs who owns which basket from the plays, and accuses when it pays.

    At each move it works out its ``beliefs`` (how likely each dealing of the number cards
    is, given who put what under which basket) and searches (``SearchPlayer``) in states
    drawn by those odds, with playouts in which every player mostly feeds their own basket
    (``feeding_rollout``). An accusation it knows to be right it makes at once. Among its own
    actions the search weighs each accusation it finds at least ``suspicion`` likely: in the
    sampled states that accusation is right as often as the odds say, so the search accuses
    when winning the number card (and a rival fewer) is worth the risk of being out. Other
    players, in its search, accuse only when sure.
    """

    iterations: int = 200
    suspicion: float = 0.6
    """The least chance of being right at which an accusation is searched: above even odds,
    so that the bot does not stake its game on a coin toss its search cannot tell from
    playing on (at 0.4 it lost such tosses to a careful bot)."""

    def choose(self, info: InformationSet, rng: random.Random) -> Action:
        """Search ``iterations`` iterations among the plays and the likely accusations."""
        assert isinstance(info.view, TricksAndTreatsView)
        guesses = beliefs(info.view)
        proved = [Accuse(s, n) for s, n in guesses.likely(_CERTAIN)]
        for accusation in proved:
            if accusation in info.legal_actions:
                return accusation  # right for sure: 5 points and a rival fewer, at no risk
        likely = {Accuse(seat, number) for seat, number in guesses.likely(self.suspicion)}

        def considered(state: TricksAndTreatsState) -> tuple[Action, ...]:
            if state.current_player != info.player:
                return informed_actions(state)
            sure = informed_actions(state)
            return tuple(a for a in state.legal_actions() if a in sure or a in likely)

        def sample(info: InformationSet, rng: random.Random) -> TurnBasedGame:
            state = info.determinize(rng)
            assert isinstance(state, TricksAndTreatsState)
            return with_numbers(state, guesses, rng)

        search = SearchPlayer(
            iterations=self.iterations,
            action_filter=considered,
            rollout_policy=feeding_rollout,
            sampler=sample,
        )
        return search.choose(info, rng)  # type: ignore[return-value]


def make_bot(spec: str) -> Agent:
    """A bot by name: ``random``, ``greedy``, ``search`` or ``search:ITERATIONS`` (the sleuth).

    ``informed[:ITERATIONS]`` is the previous search bot (accuses only when sure, random
    playouts), kept for comparisons.
    """
    return kit.bot_named(
        spec,
        {"random": RandomPlayer, "greedy": GreedyPlayer},
        {
            "search": lambda n: SleuthPlayer(iterations=n),
            "informed": lambda n: SearchPlayer(
                iterations=n, action_filter=informed_actions, rollout_policy=informed_rollout
            ),
        },
        ConfigurationError,
    )
