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
(``tricks_and_treats.beliefs``) and accuses when the expected share of the win says it pays
(``Bet``); ``GreedyPlayer`` (``greedy``) feeds its own basket and never accuses;
``HiderPlayer`` (``hider``) feeds a decoy basket instead, never its own, and never accuses;
``make_bot`` finds them by name. ``calm_rollout`` is an older bot's playout policy (accuse
rarely, blindly).
"""

from __future__ import annotations

import functools
import math
import random

import attrs

from tricks_and_treats.beliefs import FEEDERS, HIDERS, Beliefs, beliefs, with_numbers
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
from tricky_treats.protocol import Agent, InformationSet, RandomPlayer, SearchPlayer
from tricky_treats.protocol import game_kit as kit

__all__ = [
    "ACCUSE_RATE",
    "FEED_RATE",
    "Bet",
    "GreedyPlayer",
    "HiderPlayer",
    "Imagined",
    "SleuthPlayer",
    "calm_rollout",
    "decoy",
    "feeding_rollout",
    "imagine",
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
"""How often a feeding playout puts the highest card of the hand under the basket its player
favours."""


@attrs.frozen
class Imagined(TricksAndTreatsState):
    """A state the sleuth imagines: a full state, and the basket each seat plays for in it.

    ``favourites[seat]`` is the seat's own number, a decoy's (a hider's), or None (a player
    whose plays favour no basket); ``feeding_rollout`` plays by it, and plays for
    ``imaginer`` (the sleuth, who knows what it will do) as the sleuth plays. The rules keep
    both from state to state (every move derives the next state with ``attrs.evolve``).
    """

    favourites: tuple[int | None, ...] = ()
    imaginer: int | None = None


def imagine(state: TricksAndTreatsState, guesses: Beliefs, rng: random.Random) -> Imagined:
    """``state`` with the numbers dealt again by ``guesses`` and each seat's favourite drawn.

    ``state`` is one the player cannot tell from the real one (a determinization), so only
    the numbers they do not know change.
    """
    dealt = with_numbers(state, guesses, rng)
    fields = {f.name: getattr(dealt, f.name) for f in attrs.fields(TricksAndTreatsState)}
    favourites = guesses.draw_favourites(dealt.numbers, rng)
    return Imagined(**fields, favourites=favourites, imaginer=guesses.player)


def feeding_rollout(state: TricksAndTreatsState, rng: random.Random) -> Action:
    """A quick playout action in which every player mostly feeds the basket it favours.

    That is its own basket, or in an ``Imagined`` state its favourite (a hider's decoy; a
    player with none plays at random). A sure accusation if there is one; else draw; else,
    with probability ``FEED_RATE``, the highest card of the hand under that basket, and
    otherwise a random card under a random basket. The imaginer of an ``Imagined`` state
    always feeds its own basket (as ``SleuthPlayer`` does in the basic game). A special
    basket's choice is uniform among the legal ones.
    """
    p = state.current_player
    assert p is not None
    favourite: int | None = state.numbers[p]
    rate = FEED_RATE
    if isinstance(state, Imagined):
        favourite = state.favourites[p]
        rate = 1.0 if p == state.imaginer else FEED_RATE
    if state.step is Step.EFFECT or favourite is None or rng.random() >= rate:
        return informed_rollout(state, rng)
    sure = _sure_accusation(state, p)
    if sure is not None:
        return sure
    if state.step is Step.DRAW:
        return Draw()
    return Play(max(state.hands[p], key=lambda c: c.value), favourite)


def _played_out(state: TricksAndTreatsState, seat: int, rng: random.Random) -> float:
    """``seat``'s share of the win at the end of a feeding playout from ``state``."""
    while not state.is_over:
        state = state.apply(feeding_rollout(state, rng))
    return state.returns()[seat]


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


def decoy(view: TricksAndTreatsView) -> int:
    """The basket a ``HiderPlayer`` feeds: the number basket after its own along the row.

    The row is dealt in no order, so the decoy's number tells nothing of the hider's.
    """
    numbered = [b for b in view.row if b <= view.players + 2]
    own = view.numbers[view.player]
    assert own is not None
    return numbered[(numbered.index(own) + 1) % len(numbered)]


@attrs.frozen
class HiderPlayer:
    """A rival who hides what it owns: greedy for a decoy basket, never feeding its own.

    It draws, then plays the highest card of its hand under its ``decoy``, and never
    accuses; a special basket's choice is the first legal one (skip when it may). Its own
    basket gets only what others put there, so it wins when someone takes the decoy for its
    basket and is out for the wrong accusation, or by the captured card that gives it.
    """

    def choose(self, info: InformationSet, rng: random.Random) -> Action:
        """Draw; the highest card under the decoy; the first choice of a special basket."""
        view = info.view
        assert isinstance(view, TricksAndTreatsView)
        if view.step is Step.DRAW:
            return Draw()
        if view.step is Step.EFFECT:
            first = info.legal_actions[0]
            assert isinstance(first, Action)
            return first
        return Play(max(view.hand, key=lambda c: c.value), decoy(view))


@attrs.frozen
class Bet:
    """An accusation weighed: its chance of being right, and the bot's share of the win after.

    A wrong accuser is out, and a player who is out wins nothing (whatever the target gains:
    the accuser's number card, 5 points), so the accusation is worth ``chance * if_right``
    against ``if_waiting``, the share of the win when not accusing now.
    """

    accusation: Accuse
    chance: float
    """The chance that the target holds the number named, by the bot's beliefs."""
    if_right: float
    """The bot's mean share of the win in playouts after the accusation, when it is right."""
    if_waiting: float
    """The bot's mean share of the win in playouts without it."""
    error: float
    """The standard error of ``gain`` (the playouts' spread)."""

    @property
    def gain(self) -> float:
        """What the accusation adds to the bot's expected share of the win (may be negative)."""
        return self.chance * self.if_right - self.if_waiting

    def pays(self, caution: float) -> bool:
        """Whether the gain is above 0 by ``caution`` standard errors."""
        return self.gain > caution * self.error


def _mean_and_variance(shares: list[float]) -> tuple[float, float]:
    """The mean of shares of the win, and their variance, at least that of a coin as biased.

    The floor keeps a few playouts that all went one way from looking certain: the bias is
    taken as if one more playout had been won and one lost.
    """
    n = len(shares)
    mean = sum(shares) / n
    spread = sum((v - mean) ** 2 for v in shares) / max(n - 1, 1)
    biased = (sum(shares) + 1) / (n + 2)
    return mean, max(spread, biased * (1 - biased))


@attrs.frozen
class SleuthPlayer:
    """The search bot: it weighs who owns which basket from the plays, and accuses when it pays.

    At each move it works out its ``beliefs`` (how likely each dealing of the number cards
    is, and the basket each player feeds in it, given who put what under which basket). An
    accusation it knows to be right it makes at once. At the start of its turn it weighs each
    accusation at least ``floor`` likely (``bets``): in ``iterations`` playouts from states
    drawn by its beliefs it measures its share of the win without accusing, and in as many
    drawn with the target holding the number named, after the accusation; it accuses when
    ``chance * if_right`` beats waiting by ``caution`` standard errors (``Bet.pays``). Then
    it searches (``SearchPlayer``) among its plays, in states drawn by its beliefs, with
    playouts in which every player mostly feeds the basket it favours (``feeding_rollout``).
    Other players, in its playouts and search, accuse only when sure.
    """

    iterations: int = 200
    caution: float = 1.0
    """How many standard errors of its playouts an accusation's gain must clear."""
    floor: float = 0.3
    """The least chance of being right at which an accusation is weighed (a cheaper bet could
    pay only when the bot is all but lost; weighing it costs playouts every turn)."""
    feeders: float = FEEDERS
    """The chance it gives a player of feeding their own basket (``beliefs``)."""
    hiders: float = HIDERS
    """The chance it gives a player of feeding a decoy instead (``beliefs``)."""

    def choose(self, info: InformationSet, rng: random.Random) -> Action:
        """A sure accusation, one that pays, or the search's play."""
        view = info.view
        assert isinstance(view, TricksAndTreatsView)
        guesses = beliefs(view, self.feeders, self.hiders)
        for seat, number in guesses.likely(_CERTAIN):
            if Accuse(seat, number) in info.legal_actions:
                return Accuse(seat, number)  # right for sure: 5 points and a rival fewer
        if view.step is Step.DRAW:
            paying = [bet for bet in self.bets(info, rng) if bet.pays(self.caution)]
            if paying:
                return max(paying, key=lambda bet: bet.gain).accusation
            return Draw()
        if view.step is Step.PLAY and not view.specials:
            # A card under a basket scores for its owner alone: the highest under its own.
            own = view.numbers[view.player]
            assert own is not None
            return Play(max(view.hand, key=lambda c: c.value), own)

        def sample(info: InformationSet, rng: random.Random) -> Imagined:
            state = info.determinize(rng)
            assert isinstance(state, TricksAndTreatsState)
            return imagine(state, guesses, rng)

        search = SearchPlayer(
            iterations=self.iterations,
            action_filter=informed_actions,
            rollout_policy=feeding_rollout,
            sampler=sample,
        )
        return search.choose(info, rng)  # type: ignore[return-value]

    def bets(self, info: InformationSet, rng: random.Random) -> list[Bet]:
        """Each legal accusation at least ``floor`` likely and more likely than waiting wins.

        Weighed in rounds of playouts, up to ``iterations`` without accusing and as many for
        each accusation; an accusation whose gain is ``SETTLED`` standard errors from 0 is
        weighed no further. None when no accusation is that likely.
        """
        view = info.view
        assert isinstance(view, TricksAndTreatsView)
        guesses = beliefs(view, self.feeders, self.hiders)
        suspects = {
            Accuse(seat, number): guesses.odds(seat)[number]
            for seat, number in guesses.likely(self.floor)
            if Accuse(seat, number) in info.legal_actions
        }
        if not suspects:
            return []
        me = info.player
        batch = max(10, self.iterations // 4)

        def played_out(given: Beliefs, accusation: Accuse | None, count: int) -> list[float]:
            shares = []
            for _ in range(count):
                state = info.determinize(rng)
                assert isinstance(state, TricksAndTreatsState)
                imagined: TricksAndTreatsState = imagine(state, given, rng)
                if accusation is not None:
                    imagined = imagined.apply(accusation)
                shares.append(_played_out(imagined, me, rng))
            return shares

        waiting: list[float] = []
        right: dict[Accuse, list[float]] = {accusation: [] for accusation in suspects}
        weighed: dict[Accuse, Bet] = {}
        unsettled = set(suspects)
        while unsettled and len(waiting) < self.iterations:
            count = min(batch, self.iterations - len(waiting))
            waiting += played_out(guesses, None, count)
            for accusation in sorted(unsettled, key=str):
                chance = suspects[accusation]
                if chance <= sum(waiting) / len(waiting):
                    # Right or not, it cannot win more than waiting does.
                    unsettled.discard(accusation)
                    weighed.pop(accusation, None)
                    continue
                narrowed = guesses.given(accusation.target, accusation.number)
                right[accusation] += played_out(narrowed, accusation, count)
                bet = _weighed(accusation, chance, right[accusation], waiting)
                weighed[accusation] = bet
                if abs(bet.gain) > SETTLED * bet.error:
                    unsettled.discard(accusation)
        return list(weighed.values())


SETTLED = 3.0
"""Standard errors from 0 at which ``SleuthPlayer.bets`` stops weighing an accusation."""


def _weighed(accusation: Accuse, chance: float, right: list[float], waiting: list[float]) -> Bet:
    """The bet, from the shares of the win in playouts after it and without it."""
    if_right, right_variance = _mean_and_variance(right)
    if_waiting, waiting_variance = _mean_and_variance(waiting)
    error = math.sqrt(chance**2 * right_variance / len(right) + waiting_variance / len(waiting))
    return Bet(accusation, chance, if_right, if_waiting, error)


def make_bot(spec: str) -> Agent:
    """A bot by name: ``random``, ``greedy``, ``hider``, ``search`` or ``search:ITERATIONS``.

    ``search`` is the sleuth. ``informed[:ITERATIONS]`` is an earlier search bot (accuses
    only when sure, random playouts), kept for comparisons.
    """
    return kit.bot_named(
        spec,
        {"random": RandomPlayer, "greedy": GreedyPlayer, "hider": HiderPlayer},
        {
            "search": lambda n: SleuthPlayer(iterations=n),
            "informed": lambda n: SearchPlayer(
                iterations=n, action_filter=informed_actions, rollout_policy=informed_rollout
            ),
        },
        ConfigurationError,
    )
