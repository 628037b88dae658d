"""Train the value policy by self-play on the vector environment, with numpy alone.

One command trains the weights the package ships (``ValuePolicyAgent.shipped()``)::

    python -m tricky_treats.adapters.training --output src/tricky_treats/data/policy.npz

**What it learns.** ``ValuePolicyAgent`` plays the legal action whose afterstate has the
highest value ``weights @ afterstate_features(afterstate, seat)``. Training starts from the
greedy bot's valuation (points plus half the costume potential) and improves the weights by
policy gradient (REINFORCE, Williams 1992): while learning, the policy samples its action
from the softmax of ``temperature`` times the afterstates' values, and after each batch of
games the weights move (Adam steps) along the log-likelihood gradients of the actions
played, times how much better than a baseline each game ended: +1 a win, -1 a loss, 0 a
shared win (R15), plus ``margin`` times a squashed point margin, as the search bot values
a game. The policy it ships plays by the highest value, without sampling.

**Self-play, on the vector environment.** A batch is ``games`` 2-player deals stepped
together in one ``TrickyTreatsVectorEnv`` (its seeds, action masks, auto-reset, rewards and
final scores): half are self-play, both seats learning, and half are played against
``GreedyAgent``, the baseline to beat, with the learner's seat changing deal by deal. Each
move is looked one action ahead on a full state of the env's simulator; the features read
only what the player sees, so this is the choice the agent makes from its view. Every
``validate_every`` batches a moving average of the weights (``averaging``, which smooths
the noise of the steps) plays ``validation_games`` fresh deals against greedy by the
highest value, and the best weights so validated are the result.

**Reproducible.** The deals, the samples and the greedy bot's draws all come from
``--seed``; the games of a batch are spread over ``--jobs`` processes and gathered in
order, so the same command writes the same weights whatever the number of processes.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import resource
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import attrs
import numpy as np
import numpy.typing as npt

from tricky_treats._workers import end_with_parent
from tricky_treats.adapters.policy import FEATURE_NAMES, ValuePolicyAgent
from tricky_treats.adapters.vector import TrickyTreatsVectorEnv
from tricky_treats.agents import GreedyAgent
from tricky_treats.errors import ConfigurationError

__all__ = [
    "GameResult",
    "TrainingConfig",
    "TrainingResult",
    "greedy_weights",
    "main",
    "play_games",
    "train",
    "validate",
]

Weights = npt.NDArray[np.float64]

_VALIDATION_SEEDS = 1 << 40  # validation deals start here, apart from the training deals


@attrs.frozen
class TrainingConfig:
    """How to train: the defaults are the run that made the shipped weights."""

    seed: int = 0
    """Seeds the deals, the policy's samples and the greedy bot's draws."""
    batches: int = 400
    """Batches of games, each followed by one step of the weights."""
    games: int = 64
    """Deals per batch: half in self-play, half against greedy."""
    temperature: float = 10.0
    """How sharply the learning policy prefers higher values: logits are ``temperature`` times
    the values (a point is 0.1 of value, so at 10 a point more is ``e`` times likelier)."""
    learning_rate: float = 0.02
    """Adam's step size."""
    margin: float = 0.5
    """Weight of the squashed point margin, ``tanh(margin / 20)``, beside the win."""
    averaging: float = 0.95
    """Decay of the moving average of the weights that is validated (0: the last weights)."""
    validate_every: int = 25
    """Batches between validations against greedy."""
    validation_games: int = 200
    """Deals per validation, half with the policy in each seat."""
    jobs: int = 1
    """Processes that play the games."""

    def __attrs_post_init__(self) -> None:
        for name in ("batches", "validate_every", "jobs"):
            if getattr(self, name) < 1:
                raise ConfigurationError(f"{name} must be at least 1, got {getattr(self, name)}")
        for name in ("games", "validation_games"):
            value = getattr(self, name)
            if value < 2 or value % 2:
                raise ConfigurationError(f"{name} must be an even number >= 2, got {value}")
        for name in ("temperature", "learning_rate"):
            if not getattr(self, name) > 0:
                raise ConfigurationError(f"{name} must be above 0, got {getattr(self, name)}")
        if not 0 <= self.averaging < 1:
            raise ConfigurationError(f"averaging must be from 0 to below 1, got {self.averaging}")


@attrs.frozen
class TrainingResult:
    """What ``train`` found: the best weights and how they did."""

    weights: Weights = attrs.field(eq=False)
    """The weights with the best validation score."""
    validation: float
    """Their score against greedy in the validation games (1 win, 0.5 shared, 0 loss)."""
    batch: int
    """The batch after which they were validated."""
    history: tuple[tuple[int, float], ...]
    """Every validation: the batch and its score against greedy."""


def greedy_weights() -> Weights:
    """The greedy bot's valuation as weights: own points plus half the costume potential."""
    weights = np.zeros(len(FEATURE_NAMES))
    weights[FEATURE_NAMES.index("own_points")] = 1.0
    weights[FEATURE_NAMES.index("own_costume_potential")] = 0.5
    return weights


@attrs.frozen
class GameResult:
    """One game of a batch, for each seat that played the weights."""

    seats: tuple[int, ...]
    """The seats that played the weights."""
    scores: tuple[float, ...]
    """Their scores: 1 a win, 0.5 a shared win, 0 a loss."""
    returns: tuple[float, ...]
    """Their returns: +1, 0 or -1 for the result plus the margin's share."""
    gradients: tuple[Weights, ...] = attrs.field(eq=False)
    """Their sums of log-likelihood gradients (zeros when the moves were not sampled)."""


def play_games(
    weights: Weights,
    seeds: Sequence[int],
    learners: Sequence[tuple[int, ...]],
    *,
    temperature: float = 0.0,
    margin: float = 0.5,
    sample_seed: int = 0,
) -> list[GameResult]:
    """Play deal ``seeds[i]`` with ``weights`` in the seats ``learners[i]``, greedy in the rest.

    With ``temperature`` above 0 the weights' seats sample their moves from the softmax of
    ``temperature`` times the afterstates' values (draws seeded by ``sample_seed``), and each
    result carries the gradient of the log-likelihood of those moves; at 0 they play the
    highest value. The games are stepped together in one ``TrickyTreatsVectorEnv``; a game
    that ends is dealt again by the env and played on at random until the batch is over
    (those games are not counted).
    """
    envs = TrickyTreatsVectorEnv(len(seeds))
    _, infos = envs.reset(seed=list(seeds))
    agent = ValuePolicyAgent(weights)
    greedy = GreedyAgent()
    rngs = [random.Random(seed) for seed in seeds]
    samples = np.random.default_rng([sample_seed, *seeds])
    gradients = [{seat: np.zeros(len(weights)) for seat in seats} for seats in learners]
    results: list[GameResult | None] = [None] * len(seeds)
    while any(result is None for result in results):
        codes = infos["action_mask"].argmax(axis=1)  # the first legal action, for the rest
        for env, sim in enumerate(envs.simulators):
            if results[env] is not None:
                continue
            seat = int(infos["player"][env])
            state = sim.state()
            legal = state.legal_actions()
            if seat not in learners[env]:
                action = greedy.choose(state.view(seat), legal, rngs[env])
            elif temperature == 0.0 or len(legal) == 1:
                action = agent._best(state, seat, legal)
            else:
                rows = agent._rows(state, seat, legal)
                logits = temperature * agent._values(rows)
                odds = np.exp(logits - logits.max())
                odds /= odds.sum()
                choice = int(samples.choice(len(legal), p=odds))
                gradients[env][seat] += temperature * (rows[choice] - odds @ rows)
                action = legal[choice]
            codes[env] = state.action_space.encode(action)
        _, _, terminations, _, infos = envs.step(codes)
        for env in map(int, np.flatnonzero(terminations)):
            if results[env] is not None:
                continue
            totals = infos["final_scores"][env]
            seats = learners[env]
            scores, returns = [], []
            for seat in seats:
                won = float(infos["rewards"][env, seat])  # +1 a win, -1 a loss, 0 shared (2 seats)
                best_other = max(float(t) for q, t in enumerate(totals) if q != seat)
                scores.append((won + 1.0) / 2.0)
                returns.append(won + margin * math.tanh((float(totals[seat]) - best_other) / 20))
            grads = tuple(gradients[env][seat] for seat in seats)
            results[env] = GameResult(seats, tuple(scores), tuple(returns), grads)
    envs.close()
    return [result for result in results if result is not None]


_Job = tuple[Weights, tuple[int, ...], tuple[tuple[int, ...], ...], float, float, int]
"""``play_games``' arguments, for a worker process."""


def _play_job(job: _Job) -> list[GameResult]:
    weights, seeds, learners, temperature, margin, sample_seed = job
    return play_games(
        weights,
        seeds,
        learners,
        temperature=temperature,
        margin=margin,
        sample_seed=sample_seed,
    )


_Run = Callable[[list[_Job]], list[GameResult]]


def _runner(pool: ProcessPoolExecutor | None) -> _Run:
    def run(jobs: list[_Job]) -> list[GameResult]:
        parts = map(_play_job, jobs) if pool is None else pool.map(_play_job, jobs)
        return [result for part in parts for result in part]

    return run


def train(config: TrainingConfig, *, report: bool = False) -> TrainingResult:
    """Run the policy gradient as the module describes; ``report`` prints its progress."""
    weights = greedy_weights()
    average = weights.copy()
    first, second = np.zeros_like(weights), np.zeros_like(weights)
    baseline = 0.0  # of the returns against greedy; self-play's is 0 (zero-sum)
    best: tuple[float, int, Weights] = (-1.0, 0, weights.copy())
    history: list[tuple[int, float]] = []
    pool: ProcessPoolExecutor | None = None
    if config.jobs > 1:
        pool = ProcessPoolExecutor(
            config.jobs, initializer=end_with_parent, initargs=(os.getpid(),)
        )
    run = _runner(pool)
    started = time.perf_counter()
    try:
        for batch in range(1, config.batches + 1):
            first_deal = config.seed * 1_000_003 + batch * config.games
            seeds = [first_deal + k for k in range(config.games)]
            learners = [(0, 1) if k % 2 else ((k // 2) % 2,) for k in range(config.games)]
            jobs = _split(
                weights,
                seeds,
                learners,
                temperature=config.temperature,
                margin=config.margin,
                sample_seed=config.seed,
            )
            results = run(jobs)
            gradient = np.zeros_like(weights)
            count = 0
            against_greedy = [r for game in results if len(game.seats) == 1 for r in game.returns]
            for game in results:
                own_baseline = baseline if len(game.seats) == 1 else 0.0
                for value, grad in zip(game.returns, game.gradients, strict=True):
                    gradient += grad * (value - own_baseline)
                    count += 1
            gradient /= count
            baseline = 0.9 * baseline + 0.1 * float(np.mean(against_greedy))
            first = 0.9 * first + 0.1 * gradient
            second = 0.999 * second + 0.001 * gradient**2
            step = (first / (1 - 0.9**batch)) / (np.sqrt(second / (1 - 0.999**batch)) + 1e-8)
            weights = weights + config.learning_rate * step
            average = config.averaging * average + (1 - config.averaging) * weights
            if report and (batch % 5 == 0 or batch == 1):
                scores = [
                    score for game in results if len(game.seats) == 1 for score in game.scores
                ]
                print(
                    f"batch {batch}: learning policy against greedy {np.mean(scores):.3f} "
                    f"({time.perf_counter() - started:.0f} s)",
                    flush=True,
                )
            if batch % config.validate_every == 0 or batch == config.batches:
                score = validate(average, config.validation_games, config.seed, run)
                history.append((batch, score))
                if report:
                    print(f"  validation of the average against greedy: {score:.3f}", flush=True)
                if score > best[0]:
                    best = (score, batch, average.copy())
    finally:
        if pool is not None:
            pool.shutdown()
    return TrainingResult(best[2], best[0], best[1], tuple(history))


def _split(
    weights: Weights,
    seeds: Sequence[int],
    learners: Sequence[tuple[int, ...]],
    *,
    temperature: float,
    margin: float,
    sample_seed: int,
) -> list[_Job]:
    """The games in jobs of at most 16, so that the processes share the work evenly."""
    jobs = []
    for start in range(0, len(seeds), 16):
        part = slice(start, start + 16)
        jobs.append(
            (weights, tuple(seeds[part]), tuple(learners[part]), temperature, margin, sample_seed)
        )
    return jobs


def validate(weights: Weights, games: int, seed: int, run: _Run | None = None) -> float:
    """``weights``' score against greedy over ``games`` validation deals, seats alternating.

    The deals are apart from any training deal of the same ``seed``.
    """
    first = _VALIDATION_SEEDS + seed * 1_000_003
    seeds = [first + k for k in range(games)]
    learners = [(k % 2,) for k in range(games)]
    # At temperature 0 nothing is sampled and the margin is not read: only the scores count.
    jobs = _split(weights, seeds, learners, temperature=0.0, margin=0.0, sample_seed=seed)
    results = (run or _runner(None))(jobs)
    return float(np.mean([game.scores[0] for game in results]))


def _cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _parser() -> argparse.ArgumentParser:
    """The command line's options: ``--output`` and one per field of ``TrainingConfig``."""
    defaults = TrainingConfig()
    parser = argparse.ArgumentParser(
        prog="python -m tricky_treats.adapters.training",
        description="Train the value policy by self-play on the vector environment "
        "(policy gradient, numpy only) and write its weights.",
    )
    parser.add_argument("--output", required=True, type=Path, help="the .npz file to write")
    for field in attrs.fields(TrainingConfig):
        default = getattr(defaults, field.name)
        parser.add_argument(
            "--" + field.name.replace("_", "-"),
            type=type(default),
            default=default,
            help=f"{field.name.replace('_', ' ')} ({default})",
        )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: train, write ``--output`` and print what the run did."""
    parser = _parser()
    args = parser.parse_args(argv)
    options = {field.name: getattr(args, field.name) for field in attrs.fields(TrainingConfig)}
    try:
        config = TrainingConfig(**options)
    except ConfigurationError as exc:
        parser.error(str(exc))
    jobs = config.jobs if config.jobs > 1 else 1
    print(f"training with {config} on {jobs} process(es) of {os.cpu_count()} cores", flush=True)
    result = train(config, report=True)
    cpu = _cpu_seconds()
    about = (
        f"python -m tricky_treats.adapters.training with {config}: validation score "
        f"{result.validation:.3f} against greedy after batch {result.batch}, "
        f"{cpu:.0f} CPU seconds"
    )
    ValuePolicyAgent(result.weights).save(args.output, about=about)
    print(f"wrote {args.output}: {about}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
