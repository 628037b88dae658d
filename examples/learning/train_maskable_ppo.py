"""Train MaskablePPO (sb3-contrib) on the Gymnasium env's own observation, then rate it vs greedy.

The learner sees exactly ``tricky_treats/TrickyTreats-v0``'s observation (the agent's view as
``ObservationEncoding`` encodes it), divided by the observation space's upper bounds so that
every entry lies in [0, 1] (a rescaling, no feature added), and masks its actions by the env's
``action_masks()``. It plays 2-player games in a seat drawn per game against a curriculum
opponent: in each of its moves, greedy's move (``GreedyAgent``, the env's ``"greedy"``) with
probability p, else a uniformly random legal one; p rises linearly from ``--greedy-from``
(0.5) to 1 over the first ``--curriculum`` share (half) of the budget, then stays at 1: pure
greedy. (Against greedy from the start, a random learner wins about 5% of games: too sparse.)

It stops after ``--cpu-minutes`` of this process's CPU time (``time.process_time``: every
thread, the curve's evaluation games included) or ``--wall-minutes`` of wall time on a
shared machine, whichever comes first, evaluating every ``--eval-every`` CPU-minutes
on ``--curve-games`` fresh games (the learning curve, ``curve.csv``). It saves the model
(``model.zip``), then plays ``--eval-games`` games against greedy, half in seat 0 and half in
seat 1, by the most likely legal action, and prints the win share with a 95% Wilson interval
(a tie, a shared win, counts as half a win), beside a uniformly random player's through the
same evaluator (``evaluation.json``)::

    pip install torch==2.13.0 && pip install -r examples/learning/requirements.txt
    python examples/learning/train_maskable_ppo.py --cpu-minutes 25 --output runs/ppo
    python examples/learning/train_maskable_ppo.py --smoke   # CI: under a minute

See docs/learning.md for a run's figures.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv

from tricky_treats.adapters.gym import (
    OPPONENTS,
    TrickyTreatsEnv,
    TrickyTreatsSeatVectorEnv,
    random_codes,
)
from tricky_treats.simulator import Simulator

Observations = npt.NDArray[np.float32]
Masks = npt.NDArray[np.bool_]
Policy = Callable[[Observations, Masks], npt.NDArray[np.int64]]
"""Chooses a code for each row of observations, given each row's legal codes."""

PLAYERS = 2


class Curriculum:
    """An opponent playing greedy's move with probability ``greedy_share``, else a random one."""

    def __init__(self, greedy_share: float) -> None:
        self.greedy_share = greedy_share

    def __call__(self, simulators: Sequence[Simulator], rng: np.random.Generator) -> list[int]:
        """A code for each game: greedy's in a share ``greedy_share`` of them, else random."""
        greedy = rng.random(len(simulators)) < self.greedy_share
        chosen = [s for s, g in zip(simulators, greedy, strict=True) if g]
        others = [s for s, g in zip(simulators, greedy, strict=True) if not g]
        greedy_codes = iter(OPPONENTS["greedy"](chosen, rng) if chosen else [])
        random_codes_ = iter(random_codes(others, rng) if others else [])
        return [next(greedy_codes) if g else next(random_codes_) for g in greedy]


class Scaled(gymnasium.ObservationWrapper[Observations, np.int64, Observations]):
    """The env's observation divided by its space's upper bounds (at least 1): in [0, 1]."""

    def __init__(self, env: TrickyTreatsEnv) -> None:
        super().__init__(env)
        self.scale = scale_of(env)
        self.observation_space = gymnasium.spaces.Box(
            0.0, 1.0, env.observation_space.shape, np.float32
        )

    def observation(self, observation: Observations) -> Observations:
        """The observation rescaled into [0, 1]."""
        return observation * self.scale

    def action_masks(self) -> Masks:
        """The legal codes of the agent's turn (MaskablePPO asks the env for them)."""
        env: TrickyTreatsEnv = self.env  # type: ignore[assignment]
        return env.action_masks()


def scale_of(env: TrickyTreatsEnv | TrickyTreatsSeatVectorEnv) -> Observations:
    """One over the observation's upper bounds, at least 1 (the rescaling into [0, 1])."""
    high = np.asarray(env.encoding.high, np.float32)
    return np.asarray(1.0 / np.maximum(high, 1.0), np.float32)


def wilson(score: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win share ``score / games``."""
    if games == 0:
        return 0.0, 1.0
    p = score / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def evaluate(policy: Policy, games: int, seed: int) -> dict[str, Any]:
    """``games`` games against greedy, half with the policy in seat 0 and half in seat 1.

    Each seat's games are fresh deals (``new_game(seed=seed + i)``) played side by side in a
    ``TrickyTreatsSeatVectorEnv``; each env's first finished game counts. A win scores 1, a
    shared win (a tie) 0.5, a loss 0.
    """
    scores: list[float] = []
    by_seat: dict[int, float] = {}
    for seat in (0, 1):
        count = games // 2 if seat == 0 else games - games // 2
        if count == 0:
            continue
        envs = TrickyTreatsSeatVectorEnv(count, PLAYERS, seat=seat, opponents="greedy")
        scale = scale_of(envs)
        obs, infos = envs.reset(seed=seed + seat * 1_000_000)
        outcome: list[float | None] = [None] * count
        while any(result is None for result in outcome):
            masks = infos["action_mask"].astype(bool)
            obs, rewards, terminations, _, infos = envs.step(policy(obs * scale, masks))
            for env in np.flatnonzero(terminations).tolist():
                if outcome[env] is None:
                    reward = float(rewards[env])
                    outcome[env] = 1.0 if reward >= 1.0 else 0.5 if reward > 0.0 else 0.0
        envs.close()
        seat_scores = [float(result) for result in outcome if result is not None]
        by_seat[seat] = sum(seat_scores) / count
        scores.extend(seat_scores)
    score = sum(scores)
    low, high = wilson(score, len(scores))
    return {
        "games": len(scores),
        "wins": sum(1 for s in scores if s == 1.0),
        "ties": sum(1 for s in scores if s == 0.5),
        "win_share": score / len(scores),
        "interval95": [low, high],
        "win_share_by_seat": by_seat,
    }


def model_policy(model: MaskablePPO) -> Policy:
    """The model's most likely legal action for each observation."""

    def choose(obs: Observations, masks: Masks) -> npt.NDArray[np.int64]:
        actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
        return np.asarray(actions, np.int64)

    return choose


def random_policy(seed: int) -> Policy:
    """A uniformly random legal action: the baseline."""
    rng = np.random.default_rng(seed)

    def choose(obs: Observations, masks: Masks) -> npt.NDArray[np.int64]:
        return np.asarray((rng.random(masks.shape) * masks).argmax(axis=1), np.int64)

    return choose


class Budget(BaseCallback):
    """Stops training after ``cpu_seconds`` of process CPU; evaluates for the curve on the way."""

    def __init__(
        self,
        cpu_seconds: float,
        wall_seconds: float,
        every: float,
        games: int,
        seed: int,
        curve: Path,
        opponent: Curriculum,
        greedy_from: float,
        ramp: float,
    ) -> None:
        super().__init__()
        self.cpu_seconds = cpu_seconds
        self.wall_seconds = wall_seconds
        self.wall_start = time.monotonic()
        self.opponent = opponent
        self.greedy_from = greedy_from
        self.ramp = ramp
        self.every = every
        self.games = games
        self.seed = seed
        self.curve = curve
        self.next_eval = every
        self.rows: list[dict[str, Any]] = []
        self.train_games = 0
        self.train_score = 0.0

    def _on_step(self) -> bool:
        rewards = self.locals["rewards"]
        for env in np.flatnonzero(self.locals["dones"]).tolist():
            reward = float(rewards[env])
            self.train_games += 1
            self.train_score += 1.0 if reward >= 1.0 else 0.5 if reward > 0.0 else 0.0
        return self.spent() < 1.0

    def spent(self) -> float:
        """The share of the budget spent: of the CPU one or the wall one, whichever is more."""
        wall = (time.monotonic() - self.wall_start) / self.wall_seconds
        return max(time.process_time() / self.cpu_seconds, wall)

    def _on_rollout_end(self) -> None:
        ramp = min(1.0, self.spent() / self.ramp) if self.ramp > 0 else 1.0
        self.opponent.greedy_share = self.greedy_from + (1.0 - self.greedy_from) * ramp
        if time.process_time() >= self.next_eval:
            self.point()
            self.next_eval = time.process_time() + self.every

    def point(self) -> None:
        """One point of the learning curve: fresh games against greedy (seeds never trained)."""
        cpu = time.process_time()
        result = evaluate(model_policy(self.model), self.games, self.seed + len(self.rows))  # type: ignore[arg-type]
        row = {
            "cpu_minutes": round(cpu / 60, 2),
            "timesteps": self.num_timesteps,
            "greedy_share": round(self.opponent.greedy_share, 2),
            "training_games": self.train_games,
            "training_win_share": round(self.train_score / max(self.train_games, 1), 3),
            "eval_games": result["games"],
            "eval_win_share": round(result["win_share"], 3),
            "eval_low95": round(result["interval95"][0], 3),
            "eval_high95": round(result["interval95"][1], 3),
        }
        self.train_games, self.train_score = 0, 0.0
        self.rows.append(row)
        with self.curve.open("w", newline="") as file:
            writer = csv.DictWriter(file, fieldnames=list(row))
            writer.writeheader()
            writer.writerows(self.rows)
        print(", ".join(f"{key} {value}" for key, value in row.items()), flush=True)


def make_env(seed: int, opponent: Curriculum) -> Callable[[], Scaled]:
    def build() -> Scaled:
        env = Scaled(TrickyTreatsEnv(PLAYERS, seat="random", opponents=opponent))
        env.reset(seed=seed)
        return env

    return build


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--cpu-minutes", type=float, default=30.0, help="training CPU budget")
    parser.add_argument("--wall-minutes", type=float, default=math.inf, help="wall budget")
    parser.add_argument("--greedy-from", type=float, default=0.5, help="curriculum's start")
    parser.add_argument("--curriculum", type=float, default=0.5, help="budget share of ramp")
    parser.add_argument("--eval-every", type=float, default=2.5, help="CPU-minutes per point")
    parser.add_argument("--curve-games", type=int, default=100)
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--steps", type=int, default=256, help="rollout steps per env")
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--output", type=Path, default=Path("learning-run"))
    parser.add_argument("--smoke", action="store_true", help="a run of seconds, for CI")
    args = parser.parse_args(argv)
    if args.smoke:
        args.envs, args.steps = 2, 64
        args.curve_games, args.eval_games = min(args.curve_games, 10), min(args.eval_games, 20)
    torch.set_num_threads(args.threads)  # a small network: one thread wastes least on 2 cores
    args.output.mkdir(parents=True, exist_ok=True)

    opponent = Curriculum(args.greedy_from)
    envs = DummyVecEnv([make_env(args.seed + i, opponent) for i in range(args.envs)])
    model = MaskablePPO(
        "MlpPolicy",
        envs,
        n_steps=args.steps,
        batch_size=256 if not args.smoke else 64,
        n_epochs=4,
        learning_rate=3e-4,
        gamma=0.995,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [256, 256]},
        seed=args.seed,
        device="cpu",
    )
    budget = Budget(
        args.cpu_minutes * 60,
        args.wall_minutes * 60,
        args.eval_every * 60,
        args.curve_games,
        10_000_000 + args.seed * 100_000,
        args.output / "curve.csv",
        opponent,
        args.greedy_from,
        args.curriculum,
    )
    total = 2 * args.envs * args.steps if args.smoke else 10**10
    model.learn(total_timesteps=total, callback=budget)
    budget.point()  # the curve's last point, at the end of training
    trained_cpu = time.process_time()
    model.save(args.output / "model.zip")

    seed = 20_000_000 + args.seed * 100_000  # deals neither trained on nor on the curve
    learned = evaluate(model_policy(model), args.eval_games, seed)
    baseline = evaluate(random_policy(args.seed), args.eval_games, seed)
    report: dict[str, Any] = {
        "arguments": {key: str(value) for key, value in vars(args).items()},
        "timesteps": model.num_timesteps,
        "training_cpu_minutes": round(trained_cpu / 60, 2),
        "total_cpu_minutes": round(time.process_time() / 60, 2),
        "maskable_ppo": learned,
        "random": baseline,
    }
    (args.output / "evaluation.json").write_text(json.dumps(report, indent=2) + "\n")
    for name in ("maskable_ppo", "random"):
        result = report[name]
        low, high = result["interval95"]
        print(
            f"{name} vs greedy: win share {result['win_share']:.3f} over {result['games']} "
            f"games (seats swapped, ties half), 95% interval [{low:.3f}, {high:.3f}]"
        )
    print(f"CPU: {report['training_cpu_minutes']} min training, {report['total_cpu_minutes']} all")
    return report


if __name__ == "__main__":
    main()
