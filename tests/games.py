"""Games for tests to look at: every state of a game of seeded random moves."""

from __future__ import annotations

import random

import tricky_treats as tt

__all__ = ["random_states"]


def random_states(players: int, seed: int, variants: tuple[str, ...] = ()) -> list[tt.GameState]:
    """Every state of a game dealt from ``seed`` and played by random moves, first to last."""
    game = tt.new_game(players, seed=seed, variants=variants)
    rng = random.Random(seed)
    states = [game]
    while not game.is_over:
        legal = game.legal_actions()
        game = game.apply(legal[rng.randrange(len(legal))])
        states.append(game)
    return states
