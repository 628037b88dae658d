"""Hack Trick (József Dorsonczky, Mind Fitness Games, 2015) as an immutable rules engine.

Two players play cards from 0 to 5 onto a Row; the sum of the last two cards names the square
of a 3x3 magic-square board on which the player puts a marker. Three markers in a line or on
one square win the hand; the first to 5 points wins the match. Built on tricky-treats' game
protocol (``tricky_treats.protocol``), so its random and search players and its runner work here.

>>> import hack_trick as ht
>>> match = ht.new_match(seed=3)
>>> match = match.apply(match.legal_actions()[0])
>>> ht.parse_action(str(match.history[-1])) == match.history[-1]
True
"""

from __future__ import annotations

from hack_trick.bots import GreedyPlayer, hand_end_estimate, make_bot
from hack_trick.errors import (
    ConfigurationError,
    HackTrickError,
    IllegalActionError,
    InvalidActionError,
    RecordError,
)
from hack_trick.game import (
    CARDS,
    LAYOUT,
    LINES,
    Action,
    Ask,
    Config,
    Draw,
    Force,
    Guard,
    HackTrickState,
    HackTrickView,
    HandResult,
    Pass,
    Play,
    Reveal,
    Square,
    Start,
    Step,
    new_match,
    parse_action,
)
from hack_trick.records import dumps, loads

__all__ = [
    "CARDS",
    "LAYOUT",
    "LINES",
    "Action",
    "Ask",
    "Config",
    "ConfigurationError",
    "Draw",
    "Force",
    "GreedyPlayer",
    "Guard",
    "HackTrickError",
    "HackTrickState",
    "HackTrickView",
    "HandResult",
    "IllegalActionError",
    "InvalidActionError",
    "Pass",
    "Play",
    "RecordError",
    "Reveal",
    "Square",
    "Start",
    "Step",
    "dumps",
    "hand_end_estimate",
    "loads",
    "make_bot",
    "new_match",
    "parse_action",
]
