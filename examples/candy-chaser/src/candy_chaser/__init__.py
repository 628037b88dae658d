"""Candy Chaser (Masao Suganuma; Grounding 2013, IELLO 2016) as an immutable rules engine.

Each player secretly deals one of five candies. In the Marketing phase players roll and move
any candy's price cube; once a cube reaches G, each player in turn may accuse others of dealing
a candy: right, the accused is out; wrong, the accuser is. The survivor whose candy is priced
highest wins. Built on tricky-treats' game protocol (``tricky_treats.protocol``).

>>> import candy_chaser as cc
>>> game = cc.new_game(3, seed=2)
>>> game = game.apply("move red")
>>> cc.loads(cc.dumps(game)) == game
True
"""

from __future__ import annotations

from candy_chaser.bots import GreedyPlayer, HiderPlayer, SleuthPlayer, make_bot
from candy_chaser.errors import (
    CandyChaserError,
    ConfigurationError,
    IllegalActionError,
    InvalidActionError,
    RecordError,
)
from candy_chaser.game import (
    CANDIES,
    DIE_FACES,
    GOAL,
    Accusation,
    Accuse,
    Action,
    CandyChaserState,
    CandyChaserView,
    Config,
    Move,
    Pass,
    Phase,
    new_game,
    parse_action,
)
from candy_chaser.records import dumps, loads

__all__ = [
    "CANDIES",
    "DIE_FACES",
    "GOAL",
    "Accusation",
    "Accuse",
    "Action",
    "CandyChaserError",
    "CandyChaserState",
    "CandyChaserView",
    "Config",
    "ConfigurationError",
    "GreedyPlayer",
    "HiderPlayer",
    "IllegalActionError",
    "InvalidActionError",
    "Move",
    "Pass",
    "Phase",
    "RecordError",
    "SleuthPlayer",
    "dumps",
    "loads",
    "make_bot",
    "new_game",
    "parse_action",
]
