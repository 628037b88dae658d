"""Other games on the bot ladder: ``tricky-treats ladder --game candy-chaser`` and the like.

The games are those installed distributions declare in the entry-point group
``tricky_treats.games`` (``tricky_treats.protocol.installed``): the candy games under
``examples/`` once installed (``pip install -e examples/candy-chaser``, and so on), or any
other. Each names its bots with its ``make_bot`` (random, greedy, search:ITERATIONS, ...). A
ladder game is a 2-player game of the protocol (``tricky_treats.protocol``), dealt from the
seed, the bots drawing from ``random.Random(seed)``, each bot's CPU time measured around its
``choose``, as for Tricky Treats.
"""

from __future__ import annotations

import random
import time

from tricky_treats.errors import ConfigurationError
from tricky_treats.protocol import Agent, InformationSet
from tricky_treats.protocol.installed import load_game

__all__ = ["candy_bot", "play_candy_game"]


def candy_bot(game: str, spec: str) -> Agent:
    """The bot ``spec`` of ``game``; ConfigurationError if the game or the bot is unknown."""
    make_bot = load_game(game).make_bot
    try:
        return make_bot(spec)
    except ValueError as error:  # the game's own ConfigurationError
        raise ConfigurationError(str(error)) from None


def play_candy_game(
    game: str, bots: tuple[str, str], seed: int
) -> tuple[float, tuple[int, int], tuple[float, float]]:
    """One 2-player game of ``game`` between ``bots`` (seat order), dealt from ``seed``.

    Returns seat 0's score (1, 0.5 for a shared win, 0), the moves and the CPU seconds each
    seat took.
    """
    agents = [candy_bot(game, spec) for spec in bots]
    rng = random.Random(seed)
    state = load_game(game).deal(seed)
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
