"""A quick playout policy for the generic search player.

Uniform random playouts accuse on most turns (there are many more accusations than draws), so
nearly every imagined game ends in eliminations and a search cannot see the value of candy.
``calm_rollout`` accuses rarely instead; ``SearchPlayer(rollout_policy=calm_rollout)`` uses it.
"""

from __future__ import annotations

import random

from tricks_and_treats.game import Accuse, Action, TricksAndTreatsState

__all__ = ["ACCUSE_RATE", "calm_rollout"]

ACCUSE_RATE = 0.05
"""How often a calm playout accuses when it may."""


def calm_rollout(state: TricksAndTreatsState, rng: random.Random) -> Action:
    """A legal action: an accusation with probability ``ACCUSE_RATE``, else a draw or a play."""
    legal = state.legal_actions()
    calm = [a for a in legal if not isinstance(a, Accuse)]
    pool = legal if not calm or rng.random() < ACCUSE_RATE else calm
    return pool[rng.randrange(len(pool))]
