"""The candy games on the bot ladder: ``tricky-treats ladder --game candy-chaser`` and the others.

The candy games under ``examples/`` are packages of their own (``pip install -e
examples/candy-chaser``, and so on); each names its bots with its ``bots.make_bot`` (random,
greedy, search, search:ITERATIONS, ...). A ladder game is a 2-player game of the protocol
(``tricky_treats.protocol``), dealt from the seed, the bots drawing from
``random.Random(seed)``, each bot's CPU time measured around its ``choose``, as for Tricky
Treats.
"""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Callable
from types import ModuleType
from typing import Final

from tricky_treats.errors import ConfigurationError
from tricky_treats.protocol import Agent, InformationSet, TurnBasedGame

__all__ = ["CANDY_GAMES", "candy_bot", "play_candy_game"]

CANDY_GAMES: Final = {
    "hack-trick": "hack_trick",
    "candy-chaser": "candy_chaser",
    "tricks-and-treats": "tricks_and_treats",
}
"""The candy games the ladder plays, by name, with their packages."""


def _package(game: str) -> ModuleType:
    if game not in CANDY_GAMES:
        raise ConfigurationError(
            f"no game {game!r}; choose tricky-treats or {', '.join(CANDY_GAMES)}"
        )
    try:
        return importlib.import_module(CANDY_GAMES[game])
    except ImportError:
        raise ConfigurationError(
            f"the {game} ladder needs the game installed: pip install -e examples/{game}"
        ) from None


def candy_bot(game: str, spec: str) -> Agent:
    """The bot ``spec`` of ``game``; ConfigurationError if the game or the bot is unknown."""
    _package(game)
    make_bot: Callable[[str], Agent] = importlib.import_module(f"{CANDY_GAMES[game]}.bots").make_bot
    try:
        return make_bot(spec)
    except ValueError as error:  # the game's own ConfigurationError
        raise ConfigurationError(str(error)) from None


def _deal(game: str, seed: int) -> TurnBasedGame:
    package = _package(game)
    state: TurnBasedGame = (
        package.new_match(seed=seed) if game == "hack-trick" else package.new_game(2, seed)
    )
    return state


def play_candy_game(
    game: str, bots: tuple[str, str], seed: int
) -> tuple[float, tuple[int, int], tuple[float, float]]:
    """One 2-player game of ``game`` between ``bots`` (seat order), dealt from ``seed``.

    Returns seat 0's score (1, 0.5 for a shared win, 0), the moves and the CPU seconds each
    seat took.
    """
    agents = [candy_bot(game, spec) for spec in bots]
    rng = random.Random(seed)
    state = _deal(game, seed)
    moves = [0, 0]
    seconds = [0.0, 0.0]
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        info = InformationSet(seat, state.view(seat), tuple(state.legal_actions()), state=state)
        started = time.process_time()
        action = agents[seat].choose(info, rng)
        seconds[seat] += time.process_time() - started
        moves[seat] += 1
        state = state.apply(action)
    return state.returns()[0], (moves[0], moves[1]), (seconds[0], seconds[1])
