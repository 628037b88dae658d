"""Train a linear policy in the PettingZoo environment by policy gradient, with numpy only.

The policy scores every action code with a linear function of the observation (divided by
its bounds, ``encoding.high``), keeps the legal ones (the action mask) and, while learning,
samples from their softmax; it plays by the highest score. It learns from whole 2-player
games against a uniformly random opponent, changing seats every game, by REINFORCE: the
game's reward (+1 win, -1 loss, 0 shared) less a running baseline, Adam steps after every
small batch of games with a step size falling linearly to 0. Every 1000 games it plays 200
validation games by the highest score and keeps the best weights so far (a constant step
size learns fast, then may unlearn). Deals, the opponent and the policy's draws all come
from ``--seed``, so a run always gives the same weights.

It writes the weights as a ``.npz`` file (``weights``, ``bias``, ``players``,
``observation_version``) that ``tricky-treats ladder`` rates as ``policy:FILE``, and prints
its win rate against random on fresh deals (neither trained nor validated on), and the CPU
time it took::

    python examples/train_policy.py --output policy.npz

Needs the pettingzoo extra (``pip install 'tricky-treats[pettingzoo]'``).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import numpy as np

from tricky_treats.adapters.observation import OBSERVATION_VERSION
from tricky_treats.adapters.pettingzoo import raw_env

Array = np.ndarray[Any, Any]


class LinearPolicy:
    """Scores ``weights @ x + bias`` for the observation ``x`` scaled into [0, 1]."""

    def __init__(self, actions: int, size: int, high: Array) -> None:
        self.weights = np.zeros((actions, size))
        self.bias = np.zeros(actions)
        self.scale = 1.0 / np.maximum(high, 1.0)

    def features(self, observation: Array) -> Array:
        """The observation scaled into [0, 1]."""
        result: Array = observation * self.scale
        return result

    def probabilities(self, x: Array, mask: Array) -> Array:
        """The softmax of the legal actions' scores (0 for the others)."""
        scores = self.weights @ x + self.bias
        scores = np.where(mask > 0, scores, -np.inf)
        scores -= scores.max()
        exp = np.exp(scores)
        result: Array = exp / exp.sum()
        return result

    def best(self, observation: Array, mask: Array) -> int:
        """The legal action with the highest score."""
        scores = self.weights @ self.features(observation) + self.bias
        return int(np.argmax(np.where(mask > 0, scores, -np.inf)))


class Adam:
    """Adam steps for a list of arrays (ascent: the gradient is added)."""

    def __init__(self, params: list[Array], rate: float) -> None:
        self.params = params
        self.rate = rate
        self.first = [np.zeros_like(p) for p in params]
        self.second = [np.zeros_like(p) for p in params]
        self.steps = 0

    def step(self, grads: list[Array]) -> None:
        """Move every array along its gradient."""
        self.steps += 1
        for p, g, m, v in zip(self.params, grads, self.first, self.second, strict=True):
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            m_hat = m / (1 - 0.9**self.steps)
            v_hat = v / (1 - 0.999**self.steps)
            p += self.rate * m_hat / (np.sqrt(v_hat) + 1e-8)


def random_action(mask: Array, rng: np.random.Generator) -> int:
    """A legal action drawn uniformly."""
    return int(rng.choice(np.flatnonzero(mask)))


def play(
    environment: Any,
    policy: LinearPolicy,
    learner: str,
    seed: int,
    rng: np.random.Generator,
    learning: bool,
) -> tuple[float, list[tuple[Array, Array, int]]]:
    """One game: the learner's reward and, when learning, its (x, probabilities, action)."""
    environment.reset(seed=seed)
    steps: list[tuple[Array, Array, int]] = []
    while True:
        agent = environment.agent_selection
        observation, _, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            return float(environment.rewards[learner]), steps
        mask = observation["action_mask"]
        if agent != learner:
            action = random_action(mask, rng)
        elif learning:
            x = policy.features(observation["observation"])
            p = policy.probabilities(x, mask)
            action = int(rng.choice(len(p), p=p))
            steps.append((x, p, action))
        else:
            action = policy.best(observation["observation"], mask)
        environment.step(action)


def evaluate(policy: LinearPolicy, games: int, seed: int) -> float:
    """The share of games the policy (by highest score) wins against random, seats rotating."""
    environment = raw_env(players=2)
    rng = np.random.default_rng(seed)
    wins = 0.0
    for game in range(games):
        learner = environment.possible_agents[game % 2]
        reward, _ = play(environment, policy, learner, seed + game, rng, learning=False)
        wins += 1.0 if reward > 0 else 0.5 if reward == 0 else 0.0
    return wins / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=6000, help="training games (6000)")
    parser.add_argument("--batch", type=int, default=5, help="games per Adam step (5)")
    parser.add_argument("--rate", type=float, default=0.01, help="Adam step size (0.01)")
    parser.add_argument("--seed", type=int, default=0, help="seeds everything (0)")
    parser.add_argument("--eval-games", type=int, default=400, help="games to evaluate (400)")
    parser.add_argument("--output", type=Path, default=Path("policy.npz"), help="policy.npz")
    args = parser.parse_args()

    started = time.process_time()
    environment = raw_env(players=2)
    encoding = environment.encoding
    policy = LinearPolicy(encoding.action_space.size, encoding.size, encoding.high)
    adam = Adam([policy.weights, policy.bias], args.rate)
    rng = np.random.default_rng(args.seed)
    baseline = 0.0
    # Training deals start at the seed; validation deals at 2 * 10**9, evaluation's at 10**9.
    print(f"before training: {evaluate(policy, args.eval_games // 4, 10**9):.1%} against random")
    best = (-1.0, policy.weights.copy(), policy.bias.copy())
    grad_w = np.zeros_like(policy.weights)
    grad_b = np.zeros_like(policy.bias)
    recent: list[float] = []
    for episode in range(args.episodes):
        learner = environment.possible_agents[episode % 2]
        reward, steps = play(environment, policy, learner, args.seed + episode, rng, True)
        advantage = reward - baseline
        baseline += 0.01 * (reward - baseline)
        for x, p, action in steps:
            direction = -p
            direction[action] += 1.0  # the gradient of log p[action] by the scores
            grad_w += advantage * np.outer(direction, x)
            grad_b += advantage * direction
        recent.append(reward)
        if (episode + 1) % args.batch == 0:
            adam.rate = args.rate * (1 - episode / args.episodes)
            adam.step([grad_w / args.batch, grad_b / args.batch])
            grad_w[:] = 0.0
            grad_b[:] = 0.0
        if (episode + 1) % 1000 == 0 or episode + 1 == args.episodes:
            wins = sum(r > 0 for r in recent) / len(recent)
            validation = evaluate(policy, 200, 2 * 10**9)
            print(
                f"episode {episode + 1}: won {wins:.1%} of the last {len(recent)} (sampling), "
                f"{validation:.1%} of 200 validation games"
            )
            recent.clear()
            if validation > best[0]:
                best = (validation, policy.weights.copy(), policy.bias.copy())
    policy.weights, policy.bias = best[1], best[2]
    print(f"kept the weights that won {best[0]:.1%} of the validation games")
    rate = evaluate(policy, args.eval_games, 10**9)
    np.savez(
        args.output,
        weights=policy.weights,
        bias=policy.bias,
        players=2,
        observation_version=OBSERVATION_VERSION,
    )
    cpu = time.process_time() - started
    print(f"after {args.episodes} games: {rate:.1%} against random in {args.eval_games} games")
    print(f"wrote {args.output}; {cpu:.0f} CPU seconds")


if __name__ == "__main__":
    main()
