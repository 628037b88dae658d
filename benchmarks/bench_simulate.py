"""Simulation speed beside its targets: playouts against OpenSpiel, the steps of a game, search.

Install the peer first: ``pip install -e '.[bench,cli]'``; then run
``python benchmarks/bench_simulate.py`` (``--quick`` for a smoke run of seconds). It prints
figures and asserts nothing. Run it on both builds (``TRICKY_TREATS_COMPILE=1 pip install
--no-deps -e .`` compiles the simulator in place; ``pip install --no-deps -e .`` goes back to
the pure one), and on older code for a before-and-after in the same minutes
(``PYTHONPATH=/path/to/old/src``: a build without ``Simulator.new_game`` starts its games as
``Simulator(new_game(...))``, and says so).

Every figure is CPU time (``time.process_time``), the median of alternating rounds with the
spread (lowest to highest) beside it, each round on games never dealt before, in play order.

1. Random playouts as a client plays them, 2 and 4 players: ``Simulator.new_game``, then
   ``legal_codes()`` and ``play()`` to the end, then ``scores()`` and ``winners()``; in
   actions per second, beside OpenSpiel's pure-Python ``python_tic_tac_toe`` random playouts
   in the same rounds. Targets (issue 50): compiled at least 12x OpenSpiel with 2 players and
   14x with 4; pure at least 6x and 7x. The reference path (``GameState.apply()``) beside.
2. Where a 2-player game's time goes: ``new_game``, ``Simulator(state)`` of a first state
   and of a state 20 moves in (played by ``apply()``), ``Simulator.new_game`` (to a playable
   simulator), a move (``legal_codes()`` + ``play()``), ``scores()`` and ``winners()`` of a
   finished game. Targets, compiled: 25 us to start, 2.5 us a move (5 pure), 3 us to score.
3. ``SearchAgent`` iterations per CPU second at every move of whole games, each move's view
   fresh; ``tricky-treats simulate --agents random,random --jobs 1`` games per CPU second.
4. ``tricky-treats simulate --jobs 2`` against ``--jobs 1``, in wall time, three runs each
   alternating, medians (not with ``--quick``; it needs two otherwise idle cores).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import os
import random
import resource
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

import tricky_treats as tt
from tricky_treats.cli import main as cli_main

Measure = Callable[[int], tuple[float, int]]
"""One round of a measurement (its number given): the CPU seconds taken and the work done."""


def start(players: int, seed: int) -> tt.Simulator:
    """A simulator of ``new_game(players, seed=seed)``, started as the build starts one."""
    new = getattr(tt.Simulator, "new_game", None)  # older builds: none
    if new is None:
        return tt.Simulator(tt.new_game(players, seed=seed))
    sim: tt.Simulator = new(players, seed=seed)
    return sim


def simulator_playouts(players: int, seeds: range) -> int:
    """Deal, play at random and score one game per seed on a simulator; the actions played."""
    actions = 0
    for seed in seeds:
        sim = start(players, seed)
        rng = random.Random(seed)
        codes = sim.legal_codes()
        while codes:
            sim.play(codes[rng.randrange(len(codes))])
            actions += 1
            codes = sim.legal_codes()
        sim.scores()
        sim.winners()
    return actions


def apply_playouts(players: int, seeds: range) -> int:
    """The same games by ``GameState.apply()``, the reference path; the actions played."""
    actions = 0
    for seed in seeds:
        game = tt.new_game(players=players, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            legal = game.legal_actions()
            game = game.apply(legal[rng.randrange(len(legal))])
            actions += 1
        game.scores()
        game.winners()
    return actions


def open_spiel_playouts(game: Any, seeds: range) -> int:
    """Random games of OpenSpiel's ``python_tic_tac_toe``; the actions played."""
    actions = 0
    for seed in seeds:
        state = game.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            actions += 1
        state.returns()
    return actions


def timed(run: Callable[[int], int]) -> Measure:
    """A measure of ``run(round)``, which returns the work it did."""

    def measure(number: int) -> tuple[float, int]:
        begun = time.process_time()
        work = run(number)
        return time.process_time() - begun, work

    return measure


def alternate(count: int, measures: dict[str, Measure]) -> dict[str, list[float]]:
    """Per measure, each round's CPU seconds per unit of work; the rounds alternate them."""
    found: dict[str, list[float]] = {name: [] for name in measures}
    for number in range(count):
        for name, measure in measures.items():
            seconds, work = measure(number)
            found[name].append(seconds / work)
    return found


def played(seed: int, moves: int) -> tt.GameState:
    """The state ``moves`` random moves into ``new_game(2, seed=seed)``, by ``apply()``."""
    game = tt.new_game(2, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        legal = game.legal_actions()
        if not legal:
            break
        game = game.apply(legal[rng.randrange(len(legal))])
    return game


def seeds_of(first: int, count: int, number: int) -> range:
    """The ``count`` seeds of round ``number``, from ``first``: never dealt in another round."""
    return range(first + number * count, first + (number + 1) * count)


# -- 2. the steps of a game ---------------------------------------------------------------


def step_measures(games: int) -> dict[str, Measure]:
    """Each step of a 2-player game, on fresh games each round."""

    def deal_states(number: int) -> tuple[float, int]:
        begun = time.process_time()
        for seed in seeds_of(10**6, games, number):
            tt.new_game(2, seed=seed)
        return time.process_time() - begun, games

    def simulators_of_states(number: int) -> tuple[float, int]:
        states = [tt.new_game(2, seed=seed) for seed in seeds_of(2 * 10**6, games, number)]
        begun = time.process_time()
        for state in states:
            tt.Simulator(state)
        return time.process_time() - begun, games

    def simulators_mid_game(number: int) -> tuple[float, int]:
        states = [played(seed, 20) for seed in seeds_of(9 * 10**6, games, number)]
        begun = time.process_time()
        for state in states:
            tt.Simulator(state)
        return time.process_time() - begun, games

    def dealt_simulators(number: int) -> tuple[float, int]:
        begun = time.process_time()
        for seed in seeds_of(3 * 10**6, games, number):
            start(2, seed)
        return time.process_time() - begun, games

    def moves(number: int) -> tuple[float, int]:
        sims = [start(2, seed) for seed in seeds_of(4 * 10**6, games, number)]
        played = 0
        begun = time.process_time()
        for sim in sims:
            rng = random.Random(played)
            codes = sim.legal_codes()
            while codes:
                sim.play(codes[rng.randrange(len(codes))])
                played += 1
                codes = sim.legal_codes()
        return time.process_time() - begun, played

    def finished(first: int, number: int) -> list[tt.Simulator]:
        sims = [start(2, seed) for seed in seeds_of(first, games, number)]
        for sim in sims:
            rng = random.Random(1)
            codes = sim.legal_codes()
            while codes:
                sim.play(codes[rng.randrange(len(codes))])
                codes = sim.legal_codes()
        return sims

    def scores(number: int) -> tuple[float, int]:
        sims = finished(5 * 10**6, number)
        begun = time.process_time()
        for sim in sims:
            sim.scores()
        return time.process_time() - begun, games

    def winners(number: int) -> tuple[float, int]:
        sims = finished(6 * 10**6, number)
        begun = time.process_time()
        for sim in sims:
            sim.winners()
        return time.process_time() - begun, games

    return {
        "tt.new_game(2, seed=s)": deal_states,
        "tt.Simulator(state) of a first state": simulators_of_states,
        "tt.Simulator(state) of a state 20 moves in": simulators_mid_game,
        "Simulator.new_game(2, seed=s), to a playable simulator": dealt_simulators,
        "a move: legal_codes() + play()": moves,
        "scores() of a finished game, first call": scores,
        "winners() of a finished game, first call": winners,
    }


# -- 3. search and simulate ---------------------------------------------------------------


def search_iterations(games: int, iterations: int = 40) -> Measure:
    """``SearchAgent`` at every move of ``games`` 2-player games, each view fresh."""

    def measure(number: int) -> tuple[float, int]:
        agent = tt.SearchAgent(iterations=iterations)
        seconds = 0.0
        searched = 0
        for seed in seeds_of(7 * 10**6, games, number):
            game = tt.new_game(players=2, seed=seed)
            rng = random.Random(seed)
            while game.current_player is not None:
                view = game.view(game.current_player)
                legal = game.legal_actions()
                begun = time.process_time()
                action = agent.choose(view, legal, rng)
                seconds += time.process_time() - begun
                if len(legal) > 1:  # a single legal action is played without a search
                    searched += iterations
                game = game.apply(action)
        return seconds, searched

    return measure


def simulate_games(games: int) -> Measure:
    """``tricky-treats simulate`` of ``games`` random games on one core."""

    def measure(number: int) -> tuple[float, int]:
        begun = time.process_time()
        run_cli("simulate", "--games", str(games), "--agents", "random,random", "--jobs", "1",
                "--seed", str(8 * 10**6 + number * games), "--quiet")  # fmt: skip
        return time.process_time() - begun, games

    return measure


def run_cli(*argv: str) -> None:
    """Run ``tricky-treats`` in this process, its output thrown away."""
    with contextlib.redirect_stdout(io.StringIO()):
        status = cli_main(list(argv))
    if status != 0:
        raise SystemExit(f"tricky-treats {' '.join(argv)} failed with status {status}")


# -- printing -----------------------------------------------------------------------------


def spread(samples: Sequence[float], scale: float, digits: int) -> str:
    """The median of ``samples`` times ``scale``, with the lowest and highest."""
    median, low, high = (statistics.median(samples), min(samples), max(samples))
    return f"{median * scale:,.{digits}f} ({low * scale:,.{digits}f} to {high * scale:,.{digits}f})"


def line(label: str, value: str, target: str = "") -> None:
    print(f"  {label:<56} {value:>32}  {target}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="Tricky Treats games a round")
    parser.add_argument("--rounds", type=int, default=7, help="alternating rounds")
    parser.add_argument(
        "--jobs-games", type=int, default=6000, help="games for the --jobs comparison"
    )
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    args = parser.parse_args()
    games, rounds = (10, 2) if args.quick else (args.games, args.rounds)
    print(
        f"tricky-treats {tt.__version__}, {os.cpu_count()} CPUs, load average "
        f"{os.getloadavg()[0]:.2f} at the start; CPU time, the median of {rounds} alternating "
        "rounds (lowest to highest)"
    )
    print(f"compiled: {tt.__compiled__}")
    if getattr(tt.Simulator, "new_game", None) is None:
        print("this build has no Simulator.new_game: games start as Simulator(new_game(...))")

    # 1. Playouts beside OpenSpiel's pure-Python tic-tac-toe.
    try:
        pyspiel = importlib.import_module("pyspiel")
        importlib.import_module("open_spiel.python.games.tic_tac_toe")  # registers the game
    except ImportError:
        raise SystemExit("needs OpenSpiel: pip install -e '.[bench]'") from None
    tic_tac_toe = pyspiel.load_game("python_tic_tac_toe")
    ttt_games = games * 6  # about as many actions as the Tricky Treats games of a round
    per_action = alternate(
        rounds,
        {
            "openspiel": timed(
                lambda n: open_spiel_playouts(tic_tac_toe, seeds_of(0, ttt_games, n))
            ),
            "sim 2": timed(lambda n: simulator_playouts(2, seeds_of(0, games, n))),
            "sim 4": timed(lambda n: simulator_playouts(4, seeds_of(10**5, games, n))),
            "apply 2": timed(lambda n: apply_playouts(2, seeds_of(2 * 10**5, games, n))),
            "apply 4": timed(lambda n: apply_playouts(4, seeds_of(3 * 10**5, games, n))),
        },
    )
    rates = {name: [1 / seconds for seconds in samples] for name, samples in per_action.items()}
    # The ratio of each round, to the OpenSpiel playouts of the same round.
    ratios = {
        name: [rate / base for rate, base in zip(samples, rates["openspiel"], strict=True)]
        for name, samples in rates.items()
    }
    print("1. random playouts (deal, legal codes, moves, scores), actions per CPU second:")
    line("OpenSpiel python_tic_tac_toe", spread(rates["openspiel"], 1, 0))
    targets = {2: "12x", 4: "14x"} if tt.__compiled__ else {2: "6x", 4: "7x"}
    for players in (2, 4):
        line(f"tt.Simulator, {players} players", spread(rates[f"sim {players}"], 1, 0))
        line(
            "  ratio to OpenSpiel, same round",
            spread(ratios[f"sim {players}"], 1, 2) + "x",
            f"target >= {targets[players]}",
        )
    for players in (2, 4):
        line(f"GameState.apply(), {players} players", spread(rates[f"apply {players}"], 1, 0))
        line("  ratio to OpenSpiel, same round", spread(ratios[f"apply {players}"], 1, 2) + "x")

    # 2. The steps of a game.
    steps = alternate(rounds, step_measures(games))
    compiled = bool(tt.__compiled__)
    step_targets = {
        "tt.Simulator(state) of a first state": "<= 25 us compiled",
        "tt.Simulator(state) of a state 20 moves in": "<= 25 us compiled",
        "Simulator.new_game(2, seed=s), to a playable simulator": "<= 25 us compiled",
        "a move: legal_codes() + play()": "<= 2.5 us" if compiled else "<= 5 us",
        "scores() of a finished game, first call": "<= 3 us compiled",
        "winners() of a finished game, first call": "<= 3 us compiled",
    }
    print("2. a 2-player game step by step, microseconds of CPU time each:")
    for name, samples in steps.items():
        line(name, spread(samples, 1e6, 2) + " us", step_targets.get(name, ""))

    # 3. Search and simulate.
    found = alternate(
        rounds,
        {
            "search": search_iterations(max(1, games // 100)),
            "simulate": simulate_games(games * 2),
        },
    )
    print("3. search and simulate, per CPU second:")
    line(
        "SearchAgent(iterations=40) iterations, fresh views",
        spread([1 / s for s in found["search"]], 1, 0),
    )
    line(
        "simulate --agents random,random --jobs 1, games",
        spread([1 / s for s in found["simulate"]], 1, 1),
    )
    if not args.quick:
        jobs(str(args.jobs_games))
    print(f"load average {os.getloadavg()[0]:.2f} at the end (2 cores idle would be about 0)")


def jobs(games: str) -> None:
    """4. Two processes against one, wall time, with the CPU time of all the processes."""
    walls: dict[int, list[float]] = {1: [], 2: []}
    cpus: dict[int, list[float]] = {1: [], 2: []}
    for count in (1, 2, 1, 2, 1, 2):
        before = cpu_seconds()
        begun = time.perf_counter()
        run_cli("simulate", "--games", games, "--agents", "random,random",
                "--jobs", str(count), "--seed", "0", "--quiet")  # fmt: skip
        walls[count].append(time.perf_counter() - begun)
        cpus[count].append(cpu_seconds() - before)
    wall = {count: statistics.median(runs) for count, runs in walls.items()}
    cpu = {count: statistics.median(runs) for count, runs in cpus.items()}
    print(f"4. tricky-treats simulate --games {games} --agents random,random, wall time:")
    line("--jobs 1", spread(walls[1], 1, 2) + " s")
    line("--jobs 2", spread(walls[2], 1, 2) + " s")
    line("  speed-up of --jobs 2 (medians)", f"{wall[1] / wall[2]:.2f}x", "target >= 1.7x")
    # On a shared machine the wall times say little; the CPU time of all the processes
    # bounds what two idle cores would do: the work of --jobs 2 spread over both.
    line("CPU seconds, --jobs 1 / --jobs 2 (all processes)", f"{cpu[1]:.2f} / {cpu[2]:.2f}")
    line("  speed-up on two idle cores at best (CPU-bound)", f"{2 * cpu[1] / cpu[2]:.2f}x")


def cpu_seconds() -> float:
    """CPU time of this process and of its finished child processes."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


if __name__ == "__main__":
    main()
