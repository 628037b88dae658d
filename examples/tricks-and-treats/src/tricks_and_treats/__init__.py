"""Tricks & Treats (Emerson Matsuuchi, Nazca Games, 2012) as an immutable engine.

Two to four players secretly own one basket each of a row of players + 2 baskets. On your
turn you draw a candy card and put one under any basket; at any time in your turn you may
accuse another player of owning a basket: right, they are out and you win their number card
(5 points); wrong, you are out. When Time's Up is drawn, survivors score their basket's candy.
``new_game(..., specials=1)`` plays the variant with special baskets (off by default).
Built on tricky-treats' game protocol (``tricky_treats.protocol``).

>>> import tricks_and_treats as tnt
>>> game = tnt.new_game(3, seed=2).apply("draw")
>>> tnt.loads(tnt.dumps(game)) == game
True
"""

from __future__ import annotations

from tricks_and_treats.bots import (
    GreedyPlayer,
    HiderPlayer,
    SleuthPlayer,
    calm_rollout,
    feeding_rollout,
    informed_actions,
    informed_rollout,
    make_bot,
    possible_numbers,
)
from tricks_and_treats.errors import (
    ConfigurationError,
    IllegalActionError,
    InvalidActionError,
    RecordError,
    TricksAndTreatsError,
)
from tricks_and_treats.game import (
    CANDY_CARDS,
    KINDS,
    SPECIALS,
    TIMES_UP,
    Accusation,
    Accuse,
    Action,
    Card,
    Config,
    Draw,
    Effect,
    Play,
    Pull,
    Skip,
    Step,
    Swap,
    TricksAndTreatsState,
    TricksAndTreatsView,
    basket_id,
    basket_name,
    new_game,
    parse_action,
)
from tricks_and_treats.records import dumps, loads

__all__ = [
    "CANDY_CARDS",
    "KINDS",
    "SPECIALS",
    "TIMES_UP",
    "Accusation",
    "Accuse",
    "Action",
    "Card",
    "Config",
    "ConfigurationError",
    "Draw",
    "Effect",
    "GreedyPlayer",
    "HiderPlayer",
    "IllegalActionError",
    "InvalidActionError",
    "Play",
    "Pull",
    "RecordError",
    "Skip",
    "SleuthPlayer",
    "Step",
    "Swap",
    "TricksAndTreatsError",
    "TricksAndTreatsState",
    "TricksAndTreatsView",
    "basket_id",
    "basket_name",
    "calm_rollout",
    "dumps",
    "feeding_rollout",
    "informed_actions",
    "informed_rollout",
    "loads",
    "make_bot",
    "new_game",
    "parse_action",
    "possible_numbers",
]
