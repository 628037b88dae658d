"""Evaluate a policy in the PettingZoo environment: house-first against uniform random.

The house-first policy sees only what a learning agent sees, the observation dict: it plays a
visit or a trick (B1, B2) whenever the action mask allows one, else a random legal action.
Every other seat plays uniformly among its legal actions. Deals and choices are seeded, so a
run always prints the same figures.

Needs the pettingzoo extra (``pip install 'tricky-treats[pettingzoo]'``)::

    python examples/pettingzoo_evaluation.py --games 200 --players 3
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

import tricky_treats as tt
from tricky_treats.adapters.pettingzoo import env


def uniform(mask: np.ndarray[Any, Any], rng: np.random.Generator) -> int:
    """A legal action drawn uniformly."""
    return int(rng.choice(np.flatnonzero(mask)))


def house_first(mask: np.ndarray[Any, Any], houses: slice, rng: np.random.Generator) -> int:
    """A visit or trick when one is legal (codes in ``houses``), else a uniform legal action."""
    visits = np.flatnonzero(mask[houses])
    if len(visits):
        return int(houses.start + rng.choice(visits))
    return uniform(mask, rng)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0, help="first deal; choices too")
    args = parser.parse_args()

    environment = env(players=args.players)
    space = environment.unwrapped.encoding.action_space
    first = space.encode(tt.VisitHouse(0))
    houses = slice(first, first + space.nice_houses + space.mean_houses)
    rng = np.random.default_rng(args.seed)
    totals = dict.fromkeys(environment.possible_agents, 0.0)
    wins = dict.fromkeys(environment.possible_agents, 0)
    for game in range(args.games):
        environment.reset(seed=args.seed + game)
        for agent in environment.agent_iter():
            observation, reward, terminated, truncated, _ = environment.last()
            if terminated or truncated:
                totals[agent] += reward
                wins[agent] += reward > 0
                action = None
            elif agent == "player_0":
                action = house_first(observation["action_mask"], houses, rng)
            else:
                action = uniform(observation["action_mask"], rng)
            environment.step(action)
    environment.close()

    print(f"{args.games} games of {args.players} players: house-first (player_0) against random")
    for agent in environment.possible_agents:
        print(f"{agent}: {wins[agent]} wins, mean reward {totals[agent] / args.games:+.3f}")
    means = ", ".join(f"{totals[a] / args.games:+.3f}" for a in environment.possible_agents)
    print(f"mean reward per agent: {means}")


if __name__ == "__main__":
    main()
