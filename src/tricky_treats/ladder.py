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
``policy``, the learned value policy that ships with the package, ``ismcts:SIMULATIONS``,
OpenSpiel's IS-MCTS through the OpenSpiel adapter (the ``openspiel`` extra), and
``policy:FILE``, a policy file: value weights written by ``python -m
tricky_treats.adapters.training`` or a linear policy written by ``examples/train_policy.py``
(numpy, from the ``policy`` extra).

``exec:COMMAND`` is a program that speaks the bot protocol (``docs/bot-protocol.md``): each
game starts it afresh for its seat, within ``bot_limits``, and ends it when the game ends; a
move it fails is played by the ``fallback`` bot, and the game's ``fallbacks`` say why. Its
time per move is the CPU time of its process.

``game`` plays another game instead, one an installed distribution declares in the
entry-point group ``tricky_treats.games`` (``tricky_treats.protocol.installed``; the candy
games under ``examples/`` do): 2-player games of the game protocol, the bots named by the
game's ``make_bot`` (``random``, ``greedy``, ``search:ITERATIONS``, ...).
"""

from __future__ import annotations

import collections
import itertools
import math
import os
import random
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from functools import partial

import attrs

from tricky_treats._extras import install_hint
from tricky_treats._workers import end_with_parent
from tricky_treats.agents import Agent, begin_game, end_game, make_agent
from tricky_treats.bot_protocol import BotLimits, ExecAgent, exec_command, is_exec_spec
from tricky_treats.errors import ConfigurationError, brief
from tricky_treats.simulator import Simulator

__all__ = ["GAME", "LadderGame", "Rating", "ladder_games", "make_bot", "play_ladder", "rate"]

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
    fallbacks: tuple[str, ...] = ()
    """The moves an exec bot failed, each with the reason and the fallback's action."""


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


def make_bot(spec: str, *, bot_limits: BotLimits | None = None, fallback: str = "random") -> Agent:
    """The bot named ``spec`` (see the module's description); ConfigurationError if unknown.

    An ``exec:COMMAND`` bot plays within ``bot_limits`` (``BotLimits()`` by default), the
    built-in ``fallback`` bot playing the moves it fails; its process starts at its first
    move.
    """
    if is_exec_spec(spec):
        return ExecAgent(
            exec_command(spec), limits=bot_limits, fallback=make_agent(fallback), label=spec
        )
    name, _, argument = spec.partition(":")
    if name == "ismcts":
        try:
            from tricky_treats.adapters.openspiel import ISMCTSAgent
        except ImportError:
            raise ConfigurationError(
                f"the ismcts bot is OpenSpiel's: {install_hint('openspiel')}"
            ) from None
        return ISMCTSAgent(_count(spec, argument or "100", "simulations"))
    if name == "policy" and argument:
        try:
            from tricky_treats.adapters.policy import load_policy
        except ImportError:
            raise ConfigurationError(
                f"the policy bot needs numpy: {install_hint('policy')}"
            ) from None
        return load_policy(argument)
    return make_agent(spec)


def _count(spec: str, text: str, what: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 6 and int(text) >= 1):
        raise ConfigurationError(f"{spec!r}: the {what} must be a whole number from 1")
    return int(text)


@attrs.frozen
class _Settings:
    """What a ladder's games share beyond the bots: exec bots' limits and fallback."""

    bot_limits: BotLimits | None = None
    fallback: str = "random"


def _play(
    bots: tuple[str, str], seed: int, game_name: str = GAME, settings: _Settings = _Settings()
) -> LadderGame:
    """One game of ``game_name`` between ``bots`` (seat order), dealt and drawn from ``seed``."""
    if game_name != GAME:
        from tricky_treats._candy_ladder import play_candy_game

        return LadderGame(bots, seed, *play_candy_game(game_name, bots, seed))
    agents = [make_bot(s, bot_limits=settings.bot_limits, fallback=settings.fallback) for s in bots]
    rng = random.Random(seed)
    sim = Simulator.new_game(2, seed=seed)
    moves = [0, 0]
    seconds = [0.0, 0.0]
    begin_game(agents, sim.state())
    try:
        while (seat := sim.current_player) is not None:
            view = sim.state().view(seat)
            legal = sim.legal_actions()
            started = time.process_time()
            action = agents[seat].choose(view, legal, rng)
            seconds[seat] += time.process_time() - started
            moves[seat] += 1
            sim.play_action(action)
    finally:
        end_game(agents, sim.state() if sim.current_player is None else None)
    execs = [(seat, a) for seat, a in enumerate(agents) if isinstance(a, ExecAgent)]
    for seat, agent in execs:
        seconds[seat] += agent.cpu_seconds  # its processes' whole time, thinking or not
    fallbacks = sorted((f for _, agent in execs for f in agent.fallbacks), key=lambda f: f.move)
    winners = sim.winners()
    score = (1.0 if 0 in winners else 0.0) / len(winners)
    return LadderGame(
        bots,
        seed,
        score,
        (moves[0], moves[1]),
        (seconds[0], seconds[1]),
        tuple(map(str, fallbacks)),
    )


def _schedule(bots: Sequence[str], games: int, seed: int) -> Iterator[tuple[tuple[str, str], int]]:
    """Every pair's games: deal ``k // 2`` with the pair's seats swapped on odd ``k``.

    Made as they are played: ``--games 1000000000`` never holds a billion matches.
    """
    for first, second in itertools.combinations(bots, 2):
        for k in range(games):
            seats = (first, second) if k % 2 == 0 else (second, first)
            yield seats, seed + k // 2


_GAMES_AHEAD = 4
"""Games submitted per process beyond those being played: enough to keep every one busy."""


def ladder_games(
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    jobs: int = 1,
    game: str = GAME,
    *,
    bot_limits: BotLimits | None = None,
    fallback: str = "random",
) -> Iterator[LadderGame]:
    """The games of ``play_ladder``, in the same order, each as it is played.

    For ``rate`` without keeping them all: memory stays flat however many games there are.
    """
    bots = list(bots)
    if len(bots) < 2 or len(set(bots)) != len(bots):
        raise ConfigurationError(f"a ladder needs at least 2 different bots, got {brief(bots)}")
    if games < 2 or games % 2:
        raise ConfigurationError(f"games per pair must be even and at least 2, got {games}")
    if jobs < 1:
        raise ConfigurationError(f"jobs must be at least 1, got {jobs}")
    if is_exec_spec(fallback):
        raise ConfigurationError(f"the fallback is a built-in bot, got {brief(fallback)}")
    make_agent(fallback)
    if game != GAME:
        from tricky_treats._candy_ladder import candy_bot

        if any(is_exec_spec(spec) for spec in bots):
            raise ConfigurationError(f"exec: bots play {GAME} only, not {game}")
        check: Callable[[str], object] = partial(candy_bot, game)
    else:
        check = _checked
    for spec in bots:
        check(spec)  # every name checked before any game is played (no program started)
    return _played(_schedule(bots, games, seed), jobs, game, _Settings(bot_limits, fallback))


def _checked(spec: str) -> object:
    """``spec`` made as a bot, but an exec bot's command only found, not run."""
    return exec_command(spec) if is_exec_spec(spec) else make_bot(spec)


def _played(
    matches: Iterator[tuple[tuple[str, str], int]], jobs: int, game: str, settings: _Settings
) -> Iterator[LadderGame]:
    if jobs == 1:
        for seats, deal in matches:
            yield _play(seats, deal, game, settings)
        return
    # Its workers end with this process, however it ends (they would play on, orphaned).
    with ProcessPoolExecutor(jobs, initializer=end_with_parent, initargs=(os.getpid(),)) as pool:
        # A few games per process ahead, submitted as others finish, in play order.
        waiting: collections.deque[Future[LadderGame]] = collections.deque()
        for seats, deal in matches:
            waiting.append(pool.submit(_play, seats, deal, game, settings))
            if len(waiting) >= _GAMES_AHEAD * jobs:
                yield waiting.popleft().result()
        while waiting:
            yield waiting.popleft().result()


def play_ladder(
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    jobs: int = 1,
    on_game: Callable[[LadderGame], None] | None = None,
    game: str = GAME,
    *,
    bot_limits: BotLimits | None = None,
    fallback: str = "random",
) -> list[LadderGame]:
    """Play ``games`` games (even: every deal with both seatings) for every pair of ``bots``.

    ``jobs`` processes play them (1: here). ``on_game`` hears of each game when it ends.
    ``game`` is ``tricky-treats`` or a candy game (see the module). ``bot_limits`` bound
    the ``exec:`` bots, and the built-in ``fallback`` bot plays the moves they fail. Raises
    ConfigurationError for fewer than 2 bots, a bot named twice, an unknown bot or game, or
    an exec bot whose program cannot be found (no program is started before the games).
    ``ladder_games`` gives the same games one at a time, without keeping them.
    """
    results: list[LadderGame] = []
    for result in ladder_games(
        bots, games, seed, jobs, game, bot_limits=bot_limits, fallback=fallback
    ):
        results.append(result)
        if on_game is not None:
            on_game(result)
    return results


def _fit(bots: Sequence[str], pairs: Mapping[tuple[int, int], tuple[float, int]]) -> list[float]:
    """Elo ratings (mean 0) fitted to each pair's (total score of its first bot, games).

    One drawn game per pair is added: the prior.
    """
    n = len(bots)
    wins = [0.0] * n
    played = [[0.0] * n for _ in range(n)]
    for (i, j), (points, count) in pairs.items():
        total = points + 0.5  # one drawn game per pair: the prior
        wins[i] += total
        wins[j] += count + 1 - total
        played[i][j] = played[j][i] = count + 1.0
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


@attrs.define
class _BotTally:
    games: int = 0
    points: float = 0.0
    moves: int = 0
    seconds: float = 0.0


def rate(
    games: Iterable[LadderGame],
    anchor: str | None = None,
    resamples: int = 200,
    seed: int = 0,
) -> list[Rating]:
    """Elo ratings with 95% bootstrap intervals, best first (see the module's description).

    ``anchor`` is the bot rated 0 (default: the first bot met); ``resamples`` bootstrap
    fits, drawn from ``random.Random(seed)``. ``games`` is read once, and only counted: an
    iterator such as ``ladder_games(...)`` rates any number of games in little memory.
    """
    bots: list[str] = []
    index: dict[str, int] = {}
    tallies: list[_BotTally] = []
    # Each pair's scores for its first bot, counted by value (a win, a shared win, a loss).
    pairs: dict[tuple[int, int], collections.Counter[float]] = {}
    for game in games:
        for bot in game.bots:
            if bot not in index:
                index[bot] = len(bots)
                bots.append(bot)
                tallies.append(_BotTally())
        i, j = index[game.bots[0]], index[game.bots[1]]
        if i < j:
            pairs.setdefault((i, j), collections.Counter())[game.score] += 1
        else:
            pairs.setdefault((j, i), collections.Counter())[1.0 - game.score] += 1
        for seat, bot in enumerate(game.bots):
            tally = tallies[index[bot]]
            tally.games += 1
            tally.points += game.score if seat == 0 else 1.0 - game.score
            tally.moves += game.moves[seat]
            tally.seconds += game.seconds[seat]
    if len(bots) < 2:
        raise ConfigurationError("rating needs games between at least 2 bots")
    anchor = bots[0] if anchor is None else anchor
    if anchor not in index:
        raise ConfigurationError(f"the anchor {brief(anchor)} played no game; choose from {bots}")

    def relative(ratings: list[float]) -> list[float]:
        zero = ratings[index[anchor]]
        return [r - zero for r in ratings]

    totals = {pair: (sum(v * n for v, n in c.items()), c.total()) for pair, c in pairs.items()}
    elo = relative(_fit(bots, totals))
    rng = random.Random(seed)
    samples: list[list[float]] = [[] for _ in bots]
    for _ in range(resamples):
        drawn = {pair: _resampled(counts, rng) for pair, counts in pairs.items()}
        for i, rating in enumerate(relative(_fit(bots, drawn))):
            samples[i].append(rating)
    ratings = []
    for i, bot in enumerate(bots):
        tally = tallies[i]
        ordered = sorted(samples[i]) or [elo[i]]
        ratings.append(
            Rating(
                bot=bot,
                elo=elo[i],
                low=_percentile(ordered, 0.025),
                high=_percentile(ordered, 0.975),
                games=tally.games,
                score=tally.points / tally.games,
                seconds_per_move=tally.seconds / tally.moves if tally.moves else 0.0,
            )
        )
    return sorted(ratings, key=lambda r: -r.elo)


_DRAWS_AT_ONCE = 1 << 16


def _resampled(counts: collections.Counter[float], rng: random.Random) -> tuple[float, int]:
    """The total and count of a bootstrap resample of a pair's scores, counted by value.

    As many drawn with replacement as there are, in chunks: never a list of every game.
    """
    values = sorted(counts)
    cumulative = list(itertools.accumulate(counts[v] for v in values))
    left = total = cumulative[-1]
    points = 0.0
    while left:
        k = min(left, _DRAWS_AT_ONCE)
        points += sum(rng.choices(values, cum_weights=cumulative, k=k))
        left -= k
    return points, total


def _percentile(ordered: Sequence[float], share: float) -> float:
    """The ``share`` percentile of sorted values, interpolated between neighbours."""
    position = share * (len(ordered) - 1)
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (position - below)
