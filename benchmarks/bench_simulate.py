"""Simulation speed beside its targets (issue 11): playouts against OpenSpiel, simulate, jobs.

Install the peer first: ``pip install -e '.[bench,cli]'``; then run
``python benchmarks/bench_simulate.py``. It prints figures and asserts nothing.

1. Random playouts, dealing and legal-action listing included, 2 and 4 players, in actions
   per second of CPU time, beside OpenSpiel's pure-Python ``python_tic_tac_toe`` random
   playouts measured in the same run (rounds alternate; the best round of each counts).
   Target: at least 4.7 times OpenSpiel's actions per second.
2. ``tricky-treats simulate`` with random bots and ``--jobs 1`` against the same games
   played bare, in CPU time on one core. Target: at least 60%.
3. ``tricky-treats simulate --jobs 2`` against ``--jobs 1``, in wall time (process start-up
   included). Target: at least 1.7 times; it needs two otherwise idle cores.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import os
import random
import resource
import time
from collections.abc import Callable
from typing import Any

import tricky_treats as tt
from tricky_treats.cli import main as cli_main


def tricky_treats_playouts(players: int, seeds: range) -> int:
    """Deal and play one random game per seed; return the number of actions."""
    actions = 0
    for seed in seeds:
        game = tt.new_game(players=players, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            legal = game.legal_actions()
            game = game.apply(legal[rng.randrange(len(legal))])
            actions += 1
    return actions


def open_spiel_playouts(game: Any, seeds: range) -> int:
    """Random games of OpenSpiel's ``python_tic_tac_toe``; return the number of actions."""
    actions = 0
    for seed in seeds:
        state = game.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            actions += 1
    return actions


def best_rate(rounds: int, runs: dict[str, Callable[[int], int]]) -> dict[str, float]:
    """Alternate the runs ``rounds`` times; the best actions per CPU second of each."""
    best = dict.fromkeys(runs, 0.0)
    for number in range(rounds):
        for label, run in runs.items():
            start = time.process_time()
            actions = run(number)
            best[label] = max(best[label], actions / (time.process_time() - start))
    return best


def bare_games(seeds: range) -> int:
    """Two-player random playouts, one per seed; return the number of games."""
    tricky_treats_playouts(2, seeds)
    return len(seeds)


def simulate_games(games: int, seed: int) -> int:
    """``tricky-treats simulate`` of the same games on one core; return the number of games."""
    run_cli("simulate", "--games", str(games), "--agents", "random,random", "--jobs", "1",
            "--seed", str(seed), "--quiet")  # fmt: skip
    return games


def run_cli(*argv: str) -> None:
    """Run ``tricky-treats`` in this process, its output thrown away."""
    with contextlib.redirect_stdout(io.StringIO()):
        status = cli_main(list(argv))
    if status != 0:
        raise SystemExit(f"tricky-treats {' '.join(argv)} failed with status {status}")


def line(label: str, value: str, target: str = "") -> None:
    print(f"  {label:<58} {value:>14}  {target}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=400, help="Tricky Treats games a round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of each measurement")
    parser.add_argument(
        "--jobs-games", type=int, default=6000, help="games for the --jobs comparison"
    )
    args = parser.parse_args()
    games, rounds = args.games, args.rounds
    print(
        f"tricky-treats {tt.__version__}, {os.cpu_count()} CPUs, load average "
        f"{os.getloadavg()[0]:.2f} at the start"
    )
    core = importlib.import_module("tricky_treats._core")
    print(f"core: {core.__file__}")  # a .so is the compiled build, a .py the pure one

    # 1. Playouts beside OpenSpiel's pure-Python tic-tac-toe.
    try:
        pyspiel = importlib.import_module("pyspiel")
        importlib.import_module("open_spiel.python.games.tic_tac_toe")  # registers the game
    except ImportError:
        raise SystemExit("needs OpenSpiel: pip install -e '.[bench]'") from None
    tic_tac_toe = pyspiel.load_game("python_tic_tac_toe")
    ttt_games = games * 8  # about as many actions as the Tricky Treats games of a round
    rates = best_rate(
        rounds,
        {
            "openspiel": lambda n: open_spiel_playouts(
                tic_tac_toe, range(n * ttt_games, (n + 1) * ttt_games)
            ),
            "2p": lambda n: tricky_treats_playouts(2, range(n * games, (n + 1) * games)),
            "4p": lambda n: tricky_treats_playouts(4, range(n * games, (n + 1) * games)),
        },
    )
    print("random playouts, actions per CPU second (dealing and legal actions included):")
    line("OpenSpiel python_tic_tac_toe", f"{rates['openspiel']:,.0f}")
    for players in (2, 4):
        rate = rates[f"{players}p"]
        line(f"tricky-treats, {players} players", f"{rate:,.0f}")
        line(
            f"  ratio to OpenSpiel, {players} players",
            f"{rate / rates['openspiel']:.2f}x",
            "target >= 4.7x",
        )

    # 2. simulate on one core against bare playouts of the same games.
    sim_games = games * 2
    sim = best_rate(
        rounds,
        {
            "bare": lambda n: bare_games(range(n * sim_games, (n + 1) * sim_games)),
            "simulate": lambda n: simulate_games(sim_games, seed=n * sim_games),
        },
    )
    bare_games_rate = sim["bare"]
    print("tricky-treats simulate --agents random,random --jobs 1, games per CPU second:")
    line("bare playouts (deal, legal actions, apply)", f"{bare_games_rate:,.1f}")
    line("simulate (command, random bots, scores, summary)", f"{sim['simulate']:,.1f}")
    line(
        "  simulate / bare",
        f"{sim['simulate'] / bare_games_rate:.0%}",
        "target >= 60%",
    )

    # 3. Two processes against one, wall time.
    jobs_games = str(args.jobs_games)
    wall: dict[int, float] = {}
    cpu: dict[int, float] = {}
    for jobs in (1, 2, 1, 2):
        before = cpu_seconds()
        start = time.perf_counter()
        run_cli("simulate", "--games", jobs_games, "--agents", "random,random",
                "--jobs", str(jobs), "--seed", "0", "--quiet")  # fmt: skip
        elapsed = time.perf_counter() - start
        wall[jobs] = min(wall.get(jobs, float("inf")), elapsed)
        cpu[jobs] = min(cpu.get(jobs, float("inf")), cpu_seconds() - before)
    print(f"tricky-treats simulate --games {jobs_games} --agents random,random, wall time:")
    line("--jobs 1", f"{wall[1]:.2f} s")
    line("--jobs 2", f"{wall[2]:.2f} s")
    line("  speed-up of --jobs 2", f"{wall[1] / wall[2]:.2f}x", "target >= 1.7x")
    # On a shared machine the wall times say little; the CPU time of all the processes
    # bounds what two idle cores would do: the work of --jobs 2 spread over both.
    line("CPU seconds, --jobs 1 / --jobs 2 (all processes)", f"{cpu[1]:.2f} / {cpu[2]:.2f}")
    line("  speed-up on two idle cores at best (CPU-bound)", f"{2 * cpu[1] / cpu[2]:.2f}x")
    print(f"load average {os.getloadavg()[0]:.2f} at the end (2 cores idle would be about 0)")


def cpu_seconds() -> float:
    """CPU time of this process and of its finished child processes."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


if __name__ == "__main__":
    main()
