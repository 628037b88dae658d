"""A custom bot: chase pumpkins, otherwise play like the greedy bot.

    python examples/custom_bot.py

A bot is any object with ``choose(view, legal_actions, rng) -> Action``. It sees only the
player's view; ``tt.determinize(view, rng)`` gives a full state consistent with it, to try
actions on.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import tricky_treats as tt


class PumpkinHunter:
    """Visits a house whose pumpkin is still there whenever it can."""

    def __init__(self) -> None:
        self.fallback = tt.GreedyAgent()

    def choose(
        self, view: tt.PlayerView, legal_actions: Sequence[tt.Action], rng: random.Random
    ) -> tt.Action:
        """A visit that takes a pumpkin if there is one, else the greedy bot's choice."""
        for action in legal_actions:
            if isinstance(action, tt.VisitHouse) and view.pumpkin_on_house[action.house]:
                return action
            if isinstance(action, tt.TrickHouse) and view.pumpkin_on_mean_house[action.house]:
                return action
        return self.fallback.choose(view, legal_actions, rng)


def main(games: int = 20) -> None:
    wins = {"PumpkinHunter": 0.0, "RandomAgent": 0.0}
    for seed in range(games):
        bots: list[tt.Agent] = [PumpkinHunter(), tt.RandomAgent()]
        if seed % 2:
            bots.reverse()  # play both seats
        final = tt.play_game(tt.new_game(2, seed=seed), bots, seed=seed)[-1]
        for seat in final.winners():
            wins[type(bots[seat]).__name__] += 1 / len(final.winners())
    print(f"{games} games: {wins}")


if __name__ == "__main__":
    main()
