"""Hack Trick on tricky-treats' bot ladder (the entry-point group ``tricky_treats.games``).

``tricky-treats ladder --game hack-trick`` finds this game through ``pyproject.toml``'s entry
point, once the distribution is installed; a ladder game is a 2-player game dealt from its seed.
"""

from __future__ import annotations

from hack_trick.bots import make_bot
from hack_trick.game import new_match
from tricky_treats.protocol import TurnBasedGame
from tricky_treats.protocol.installed import GameEntry

__all__ = ["GAME"]


def _deal(seed: int) -> TurnBasedGame:
    return new_match(seed=seed)


GAME = GameEntry(deal=_deal, make_bot=make_bot)
"""The game the ladder plays."""
