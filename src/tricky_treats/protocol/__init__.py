"""A small protocol for turn-based games with hidden information, and what works on any of them.

The random bot, the information-set search bot and the runner that plays many seeded games do
not depend on Tricky Treats. This module states what they need from a game as a
``typing.Protocol`` (``TurnBasedGame``) and implements them once, so that sibling engines (the
candy games under ``examples/``) use them instead of copying them. ``TrickyTreatsGame`` adapts
a Tricky Treats ``GameState`` to the protocol.

A game state satisfying the protocol is immutable: ``apply()`` returns a new state. Agents
never see the state itself, only an ``InformationSet``: the acting player's view, the legal
actions and a way to sample full states consistent with the view (``determinize``). Chance
(shuffles, dice) lives in the state's hidden information, so a determinized state samples it
afresh.

>>> from tricky_treats.protocol import TrickyTreatsGame, RandomPlayer, play_match
>>> import tricky_treats as tt
>>> final = play_match(TrickyTreatsGame(tt.new_game(2, seed=1)), [RandomPlayer()] * 2, seed=1)
>>> final.is_over, sum(final.returns())
(True, 1.0)

The package, one concern a module: ``game`` (the protocol), ``players`` (random, terminal and
search players), ``matches`` (``play_match`` and ``simulate``), ``tricky_treats_game`` (the
adapter), ``console`` (``run_console``) and ``records`` (``ActionLogRecords``).
"""

from __future__ import annotations

from tricky_treats.protocol.console import run_console
from tricky_treats.protocol.game import Agent, InformationSet, TurnBasedGame
from tricky_treats.protocol.matches import MatchSummary, play_match, simulate
from tricky_treats.protocol.players import RandomPlayer, SearchPlayer, TerminalPlayer, make_player
from tricky_treats.protocol.records import ActionLogRecords
from tricky_treats.protocol.tricky_treats_game import TrickyTreatsGame

__all__ = [
    "ActionLogRecords",
    "Agent",
    "InformationSet",
    "MatchSummary",
    "RandomPlayer",
    "SearchPlayer",
    "TerminalPlayer",
    "TrickyTreatsGame",
    "TurnBasedGame",
    "make_player",
    "play_match",
    "run_console",
    "simulate",
]
