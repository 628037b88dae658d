"""Tricks & Treats on tricky-treats' bot ladder (the entry-point group ``tricky_treats.games``).

``tricky-treats ladder --game tricks-and-treats`` finds this game through ``pyproject.toml``'s
entry point, once the distribution is installed; a ladder game is a 2-player game dealt from its
seed.
"""

from __future__ import annotations

from tricks_and_treats.bots import make_bot
from tricks_and_treats.game import new_game
from tricky_treats.protocol import TurnBasedGame
from tricky_treats.protocol.installed import GameEntry

__all__ = ["GAME"]


def _deal(seed: int) -> TurnBasedGame:
    return new_game(2, seed)


GAME = GameEntry(deal=_deal, make_bot=make_bot)
"""The game the ladder plays."""
