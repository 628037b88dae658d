"""A rated bot ladder: round-robin 2-player games, Elo ratings with confidence intervals.

``play_ladder(bots, games)`` plays ``games`` 2-player games for every pair of bots: each
deal twice, once with each bot in seat 0, so that neither the deal nor the first seat
favours one of them. Deal ``k`` of every pair is ``new_game(2, seed=seed + k)`` and the bots
draw from ``random.Random(seed + k)``, so a ladder plays the same way every time. Each bot's
CPU time per move is measured around its ``choose``.

``rate(games)`` fits Elo ratings (Bradley-Terry by maximum likelihood, 400 points for odds
of 10 to 1) to the results: a win scores 1, a shared win 0.5 (R15). One drawn game per pair
is added as a prior, so a bot that won every game still gets a finite rating. Ratings are
relative to ``anchor`` (0); the confidence interval is the 2.5th to 97.5th percentile of
the ratings fitted again to resamples of each pair's games (a seeded bootstrap).

Bots are named as for ``simulate`` (``random``, ``greedy``, ``search:ITERATIONS``), plus
``ismcts:SIMULATIONS``, OpenSpiel's IS-MCTS through the OpenSpiel adapter (the
``openspiel`` extra), and ``policy:FILE``, a linear policy trained by
``examples/train_policy.py`` (numpy, from the ``pettingzoo`` extra).

``game`` plays one of the candy games under ``examples/`` instead (``hack-trick``,
``candy-chaser``, ``tricks-and-treats``, each installed on its own): 2-player games of the
game protocol, the bots named by the game's ``make_bot`` (``random``, ``greedy``,
``search:ITERATIONS``, ...).
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import partial

import attrs

from tricky_treats.agents import Agent, make_agent
from tricky_treats.dealing import new_game
from tricky_treats.errors import ConfigurationError
from tricky_treats.simulator import Simulator

__all__ = ["GAME", "LadderGame", "Rating", "make_bot", "play_ladder", "rate"]

GAME = "tricky-treats"
"""The game a ladder plays unless told another (``play_ladder``'s ``game``)."""


@attrs.frozen
class LadderGame:
    """One game of the ladder: the bots by seat, the deal's seed and seat 0's score."""

    bots: tuple[str, str]
    """The bot in seat 0, then the bot in seat 1."""
    seed: int
    """The seed of the deal and of the bots' draws."""
    score: float
    """Seat 0's score: 1 for a win, 0.5 for a shared win, 0 for a loss."""
    moves: tuple[int, int]
    """The moves each seat made."""
    seconds: tuple[float, float]
    """The CPU seconds each seat's bot took to choose them."""


@attrs.frozen
class Rating:
    """A bot's place on the ladder."""

    bot: str
    """The bot, as named on the command line."""
    elo: float
    """Its Elo rating, relative to the anchor (0)."""
    low: float
    """The 2.5th percentile of its bootstrap ratings."""
    high: float
    """The 97.5th percentile of its bootstrap ratings."""
    games: int
    """The games it played."""
    score: float
    """Its share of the points: wins plus half the shared wins, over its games."""
    seconds_per_move: float
    """Its mean CPU time per move, in seconds."""


def make_bot(spec: str) -> Agent:
    """The bot named ``spec`` (see the module's description); ConfigurationError if unknown."""
    name, _, argument = spec.partition(":")
    if name == "ismcts":
        try:
            from tricky_treats.adapters.openspiel import ISMCTSAgent
        except ImportError:
            raise ConfigurationError(
                "the ismcts bot is OpenSpiel's: pip install 'tricky-treats[openspiel]'"
            ) from None
        return ISMCTSAgent(_count(spec, argument or "100", "simulations"))
    if name == "policy":
        if not argument:
            raise ConfigurationError("name the policy's file, as 'policy:policy.npz'")
        try:
            from tricky_treats.adapters.policy import LinearPolicyAgent
        except ImportError:
            raise ConfigurationError(
                "the policy bot needs numpy: pip install 'tricky-treats[pettingzoo]'"
            ) from None
        return LinearPolicyAgent.load(argument)
    return make_agent(spec)


def _count(spec: str, text: str, what: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 6 and int(text) >= 1):
        raise ConfigurationError(f"{spec!r}: the {what} must be a whole number from 1")
    return int(text)


def _play(bots: tuple[str, str], seed: int, game_name: str = GAME) -> LadderGame:
    """One game of ``game_name`` between ``bots`` (seat order), dealt and drawn from ``seed``."""
    if game_name != GAME:
        from tricky_treats._candy_ladder import play_candy_game

        return LadderGame(bots, seed, *play_candy_game(game_name, bots, seed))
    agents = [make_bot(spec) for spec in bots]
    rng = random.Random(seed)
    sim = Simulator(new_game(2, seed=seed))
    moves = [0, 0]
    seconds = [0.0, 0.0]
    while (seat := sim.current_player) is not None:
        view = sim.state().view(seat)
        legal = sim.legal_actions()
        started = time.process_time()
        action = agents[seat].choose(view, legal, rng)
        seconds[seat] += time.process_time() - started
        moves[seat] += 1
        sim.play_action(action)
    winners = sim.winners()
    score = (1.0 if 0 in winners else 0.0) / len(winners)
    return LadderGame(bots, seed, score, (moves[0], moves[1]), (seconds[0], seconds[1]))


def _schedule(bots: Sequence[str], games: int, seed: int) -> list[tuple[tuple[str, str], int]]:
    """Every pair's games: deal ``k // 2`` with the pair's seats swapped on odd ``k``."""
    matches = []
    for first, second in itertools.combinations(bots, 2):
        for k in range(games):
            seats = (first, second) if k % 2 == 0 else (second, first)
            matches.append((seats, seed + k // 2))
    return matches


def play_ladder(
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    jobs: int = 1,
    on_game: Callable[[LadderGame], None] | None = None,
    game: str = GAME,
) -> list[LadderGame]:
    """Play ``games`` games (even: every deal with both seatings) for every pair of ``bots``.

    ``jobs`` processes play them (1: here). ``on_game`` hears of each game when it ends.
    ``game`` is ``tricky-treats`` or a candy game (see the module). Raises
    ConfigurationError for fewer than 2 bots, a bot named twice, an unknown bot or game.
    """
    bots = list(bots)
    if len(bots) < 2 or len(set(bots)) != len(bots):
        raise ConfigurationError(f"a ladder needs at least 2 different bots, got {bots}")
    if games < 2 or games % 2:
        raise ConfigurationError(f"games per pair must be even and at least 2, got {games}")
    if jobs < 1:
        raise ConfigurationError(f"jobs must be at least 1, got {jobs}")
    if game != GAME:
        from tricky_treats._candy_ladder import candy_bot

        check: Callable[[str], object] = partial(candy_bot, game)
    else:
        check = make_bot
    for spec in bots:
        check(spec)  # every name checked before any game is played
    matches = _schedule(bots, games, seed)
    results: list[LadderGame] = []
    played: Iterator[LadderGame]
    if jobs == 1:
        played = (_play(seats, deal, game) for seats, deal in matches)
        for result in played:
            results.append(result)
            if on_game is not None:
                on_game(result)
        return results
    with ProcessPoolExecutor(jobs) as pool:
        futures = [pool.submit(_play, seats, deal, game) for seats, deal in matches]
        for future in futures:
            result = future.result()
            results.append(result)
            if on_game is not None:
                on_game(result)
    return results


def _fit(bots: Sequence[str], pairs: dict[tuple[int, int], list[float]]) -> list[float]:
    """Elo ratings (mean 0) fitted to each pair's scores for its first bot, with the prior."""
    n = len(bots)
    wins = [0.0] * n
    played = [[0.0] * n for _ in range(n)]
    for (i, j), scores in pairs.items():
        total = sum(scores) + 0.5  # one drawn game per pair: the prior
        wins[i] += total
        wins[j] += len(scores) + 1 - total
        played[i][j] = played[j][i] = len(scores) + 1.0
    strength = [1.0] * n
    for _ in range(2000):  # the minorization-maximization steps of Hunter (2004)
        new = [
            wins[i] / sum(played[i][j] / (strength[i] + strength[j]) for j in range(n) if j != i)
            for i in range(n)
        ]
        mean = math.exp(sum(math.log(s) for s in new) / n)
        new = [s / mean for s in new]
        done = max(abs(a - b) for a, b in zip(new, strength, strict=True)) < 1e-10
        strength = new
        if done:
            break
    return [400.0 * math.log10(s) for s in strength]


def rate(
    games: Sequence[LadderGame],
    anchor: str | None = None,
    resamples: int = 200,
    seed: int = 0,
) -> list[Rating]:
    """Elo ratings with 95% bootstrap intervals, best first (see the module's description).

    ``anchor`` is the bot rated 0 (default: the first bot met); ``resamples`` bootstrap
    fits, drawn from ``random.Random(seed)``.
    """
    bots: list[str] = []
    for game in games:
        for bot in game.bots:
            if bot not in bots:
                bots.append(bot)
    if len(bots) < 2:
        raise ConfigurationError("rating needs games between at least 2 bots")
    anchor = bots[0] if anchor is None else anchor
    if anchor not in bots:
        raise ConfigurationError(f"the anchor {anchor!r} played no game; choose from {bots}")
    index = {bot: i for i, bot in enumerate(bots)}
    pairs: dict[tuple[int, int], list[float]] = {}
    for game in games:
        i, j = index[game.bots[0]], index[game.bots[1]]
        if i < j:
            pairs.setdefault((i, j), []).append(game.score)
        else:
            pairs.setdefault((j, i), []).append(1.0 - game.score)

    def relative(ratings: list[float]) -> list[float]:
        zero = ratings[index[anchor]]
        return [r - zero for r in ratings]

    elo = relative(_fit(bots, pairs))
    rng = random.Random(seed)
    samples: list[list[float]] = [[] for _ in bots]
    for _ in range(resamples):
        drawn = {pair: rng.choices(scores, k=len(scores)) for pair, scores in pairs.items()}
        for i, rating in enumerate(relative(_fit(bots, drawn))):
            samples[i].append(rating)
    ratings = []
    for i, bot in enumerate(bots):
        mine = [g for g in games if bot in g.bots]
        points = sum(g.score if g.bots[0] == bot else 1.0 - g.score for g in mine)
        moves = sum(g.moves[g.bots.index(bot)] for g in mine)
        seconds = sum(g.seconds[g.bots.index(bot)] for g in mine)
        ordered = sorted(samples[i]) or [elo[i]]
        ratings.append(
            Rating(
                bot=bot,
                elo=elo[i],
                low=_percentile(ordered, 0.025),
                high=_percentile(ordered, 0.975),
                games=len(mine),
                score=points / len(mine),
                seconds_per_move=seconds / moves if moves else 0.0,
            )
        )
    return sorted(ratings, key=lambda r: -r.elo)


def _percentile(ordered: Sequence[float], share: float) -> float:
    """The ``share`` percentile of sorted values, interpolated between neighbours."""
    position = share * (len(ordered) - 1)
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (position - below)
