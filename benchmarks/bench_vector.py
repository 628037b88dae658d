"""Vector-env steps per second in steady state, beside PettingZoo's ``connect_four_v3``.

Run with ``python benchmarks/bench_vector.py`` after
``pip install -e '.[pettingzoo]' 'pettingzoo[classic]'``; it prints figures and asserts
nothing. ``TrickyTreatsVectorEnv`` (``tricky_treats.adapters.vector``) plays ``--envs`` games
at once: each step takes a uniform random legal action in every game (from the action masks)
and returns the observations and masks of the players to move, finished games dealt again.
A step is one action in one game, so a vector step of N games counts N. ``connect_four_v3``
plays the loop of ``bench_adapters.py``: ``last()`` (observation and mask), a uniform legal
action, ``step()``.

Steady state: each vector env is made and reset once, then warmed up until every one of its
games has ended at least once, so that its games are in every phase (new deals, full boards,
last rounds) as in training; the rounds go on from there, never from a fresh reset (the first
steps after a reset run faster: small boards, few legal actions). ``connect_four_v3`` plays
whole games, a warm-up round first.

Rates are steps per second of this process's CPU time (``time.process_time``). The
environments take turns, round after round; each prints the median round with the spread
(lowest to highest), and the ratio over ``connect_four_v3`` is the median of the rounds'
ratios (each of one round, same run) with its spread, against the issue's targets (at least
12 compiled, 6 pure). ``tricky_treats.__compiled__`` says which build runs.

Pgx (https://github.com/sotetsuk/pgx, JAX; ``pip install pgx`` brings jax and jaxlib, which
run on the CPU) is printed beside as the standard to chase where it is installed: its
``connect_four`` at batch 64 and 1,024, jitted and vmapped with auto-reset, random legal
actions chosen inside the jitted step. It is never a dependency of this project.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from bench_adapters import pettingzoo_steps  # the same loop as the other environments'

import tricky_treats as tt

TARGETS = {"compiled": 12.0, "pure": 6.0}
"""The issue's targets: vector env over ``connect_four_v3``, steady state, same run."""


class VectorRun:
    """A vector env of random masked actions, warmed up to steady state once, then timed."""

    def __init__(self, envs: int, players: int, seed: int) -> None:
        from tricky_treats.adapters.vector import TrickyTreatsVectorEnv

        self.envs = envs
        self.environment = TrickyTreatsVectorEnv(envs, players=players)
        self.rng = np.random.default_rng(seed)
        _, self.infos = self.environment.reset(seed=seed)
        ended = np.zeros(envs, np.bool_)
        self.warm_up = 0
        while not ended.all():  # every game ended once: the games are in every phase now
            ended |= self._step()[0]
            self.warm_up += envs

    def _step(self) -> tuple[Any, ...]:
        masks = self.infos["action_mask"]
        actions = (self.rng.random(masks.shape) * masks).argmax(axis=1)  # uniform among legal
        _, _, terminations, _, self.infos = self.environment.step(actions)
        return (terminations,)

    def __call__(self, steps: int) -> tuple[float, int]:
        """One round of ``steps`` steps or a few more: steps per CPU second, steps played."""
        played = 0
        start = time.process_time()
        while played < steps:
            self._step()
            played += self.envs
        return played / (time.process_time() - start), played


class PgxRun:
    """Pgx's ``connect_four``, ``batch`` games vmapped and jitted, with auto-reset."""

    def __init__(self, batch: int, seed: int) -> None:
        import jax
        import jax.numpy as jnp
        import pgx
        from pgx.experimental import auto_reset

        env = pgx.make("connect_four")
        step = jax.vmap(auto_reset(env.step, env.init))

        def one(state: Any, key: Any) -> tuple[Any, Any]:
            key, choose, deal = jax.random.split(key, 3)
            logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)  # uniform among legal
            action = jax.random.categorical(choose, logits, axis=-1)
            return step(state, action, jax.random.split(deal, batch)), key

        self.jax = jax
        self.batch = batch
        self.one = jax.jit(one)
        self.key = jax.random.PRNGKey(seed)
        self.state = jax.jit(jax.vmap(env.init))(jax.random.split(self.key, batch))
        self(batch * 200)  # compiles, then plays past the first games

    def __call__(self, steps: int) -> tuple[float, int]:
        """One round of ``steps`` steps or a few more: steps per CPU second, steps played."""
        played = 0
        state, key = self.state, self.key
        start = time.process_time()
        while played < steps:
            state, key = self.one(state, key)
            played += self.batch
        self.jax.block_until_ready(state)
        elapsed = time.process_time() - start
        self.state, self.key = state, key
        return played / elapsed, played


def _pgx_runs(seed: int, quick: bool) -> tuple[list[tuple[str, Callable[[], Any]]], str]:
    """Pgx's rows, or none and why."""
    if quick:
        return [], "Pgx connect_four: not run in a quick run"
    try:
        import pgx  # noqa: F401
    except ImportError:
        return [], "Pgx connect_four: not installed (pip install pgx, for comparison only)"
    rows: list[tuple[str, Callable[[], Any]]] = []
    for batch, steps in ((64, 100_000), (1024, 1_000_000)):
        run = PgxRun(batch, seed)
        rows.append((f"Pgx connect_four (JAX, CPU), batch {batch:,}", lambda r=run, s=steps: r(s)))
    return rows, ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--envs", type=int, default=64, help="games in the vector env")
    parser.add_argument("--steps", type=int, default=12_000, help="game steps per round")
    parser.add_argument("--episodes", type=int, default=100, help="connect_four games a round")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-pgx", action="store_true", help="leave Pgx out")
    parser.add_argument("--quick", action="store_true", help="a smoke run of seconds (CI)")
    args = parser.parse_args()
    if args.quick:  # a smoke run: the script still works, the figures mean nothing
        args.envs = 4
        args.steps = 200
        args.episodes = 2
        args.rounds = 1

    notes: list[str] = []
    reference = "connect_four_v3 (PettingZoo classic, one env)"
    try:
        from pettingzoo.classic import connect_four_v3

        def connect_four() -> tuple[float, int]:
            return pettingzoo_steps(connect_four_v3.env, args.episodes, args.seed)

        connect_four()  # warm-up round
        rows: list[tuple[str, Callable[[], tuple[float, int]]]] = [(reference, connect_four)]
    except ImportError as error:  # pettingzoo's connect_four draws with pygame
        notes.append(f"{reference}: not run, {error} (pip install {error.name})")
        rows = []
    vectors: list[str] = []
    for players in (2, 3, 4):
        run = VectorRun(args.envs, players, args.seed)
        label = f"tricky_treats vector env, {players} players, {args.envs} games"
        vectors.append(label)
        rows.append((label, lambda r=run: r(args.steps)))  # type: ignore[misc]
        notes.append(f"{label}: warmed up {run.warm_up:,} steps")
    pgx_rows, missing = ([], "Pgx: left out") if args.no_pgx else _pgx_runs(args.seed, args.quick)
    rows += pgx_rows
    if missing:
        notes.append(missing)

    rates: dict[str, list[float]] = {label: [] for label, _ in rows}
    played: dict[str, int] = {}
    for _ in range(args.rounds):
        for label, run_round in rows:
            rate, steps = run_round()
            rates[label].append(rate)
            played[label] = steps
    build = "compiled" if tt.__compiled__ else "pure"
    print(
        f"steps per CPU second, steady state, median of {args.rounds} alternating rounds "
        f"(lowest-highest), same run ({build} build)"
    )
    base = rates.get(reference)
    for label, _ in rows:
        found = rates[label]
        line = f"{statistics.median(found):>11,.0f} ({min(found):,.0f}-{max(found):,.0f})"
        if base and label != reference:
            ratios = [rate / other for rate, other in zip(found, base, strict=True)]
            line += f"  {statistics.median(ratios):6.1f}x ({min(ratios):.1f}-{max(ratios):.1f})"
            if label in vectors:
                met = statistics.median(ratios) >= TARGETS[build]
                line += f" target {TARGETS[build]:g}x: {'met' if met else 'NOT met'}"
        print(f"{line}  {label} ({played[label]:,} steps a round)")
    for note in notes:
        print(note)


if __name__ == "__main__":
    main()
