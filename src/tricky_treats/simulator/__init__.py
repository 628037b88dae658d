"""The fast lane: a mutable simulator for code that plays many moves it does not read.

``GameState`` is a plain immutable value, and ``apply()`` plays by ``rules``, the reference
implementation, building every field of every state. Search, random playouts, simulation,
ladders and reinforcement learning play thousands of moves whose states nobody reads; they
use a ``Simulator`` instead, in the spirit of OpenSpiel's ``State`` (apply, clone) and
python-chess's ``Board`` (push):

>>> import random
>>> import tricky_treats as tt
>>> sim = tt.Simulator(tt.new_game(players=2, seed=7))
>>> rng = random.Random(7)
>>> while not sim.is_over:
...     codes = sim.legal_codes()
...     sim.play(codes[rng.randrange(len(codes))])
>>> sim.current_player is None, len(sim.scores())
(True, 2)
>>> sim.state().winners() == sim.winners()
True

Its engine is the compact core (``simulator._core``): a game's moving part as plain ints,
changed in place, compiled by mypyc in the compiled build (``tricky_treats.__compiled__``)
with the ``Simulator`` itself (``simulator._simulator``) and the deal (``simulator._deal``),
and the very same files as plain Python otherwise. ``Simulator.new_game()`` deals a new game
straight into the core (``variants._base_deals``), drawing the numbers ``new_game`` draws.
A game the core does not cover (more than 5 kids per player, boards made by hand that play
cannot reach, ...) plays by the rules behind the same interface, and ``Simulator.fast`` says
which. Both play exactly the games of ``GameState.apply()``: ``sim.state()`` is equal to the
state that ``apply()`` of the same actions gives.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from tricky_treats.model import Setup
from tricky_treats.simulator._policy_features import value_policy_codes, value_policy_features
from tricky_treats.simulator._simulator import Simulator, greedy_codes
from tricky_treats.simulator._tables import COMPILED

if TYPE_CHECKING:
    from tricky_treats.components import CostumeCard, TrickTile

__all__ = [
    "COMPILED",
    "Simulator",
    "greedy_codes",
    "value_policy_codes",
    "value_policy_features",
]


def _redealt_setup(
    setup: Setup, secret_tiles: tuple[TrickTile, ...], deck: tuple[CostumeCard, ...]
) -> Setup:
    """``setup`` with other secret tiles and another deck of the same cards.

    A determinized game's (``Simulator._redealt`` keeps its core's tables in its memo).
    """
    new = object.__new__(Setup)
    for field in _SETUP_FIELDS:
        object.__setattr__(new, field, getattr(setup, field))
    object.__setattr__(new, "secret_tiles", secret_tiles)
    object.__setattr__(new, "deck", deck)
    object.__setattr__(new, "_memo", None)
    return new


_SETUP_FIELDS = tuple(field.name for field in attrs.fields(Setup))
