"""The reference engine's figures: what a client meets reading plain states.

Run with ``python benchmarks/bench_targets.py`` (``--quick`` for a smoke run of seconds);
it prints figures and asserts nothing. Every figure is CPU time of this process
(``time.process_time``), the median of several rounds with the spread (lowest to highest)
beside it; the measurements alternate round by round, so that a shared machine's changing
speed touches them alike. The first line times a plain Python loop, to compare machines.

Every figure is taken as a client meets the engine, never by calling one function again and
again on one object: every ``new_game`` deals a seed never dealt before, and every other
figure is taken on states replayed afresh from their games' logs (nothing worked out on them
yet), each called right after the move that made it, as a server does.

Targets (issue 43): ``scores()`` and ``view(p)`` at most 25 us on fresh states in play
order, early and late in a game, 2 and 4 players. ``GameState.apply()`` playouts against
OpenSpiel's tic-tac-toe are ``benchmarks/bench_simulate.py``'s. The finer budgets of dealing
and playing are the simulator's (``tt.Simulator``, the same script). Records: ``dumps`` then
a verified ``loads`` of a finished 4-player game at most 1 ms; a player record at most 100 us
per seat per move.

To measure another checkout with the same script, put its ``src`` first on ``PYTHONPATH``.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
from collections.abc import Callable, Iterator, Sequence

import tricky_treats as tt

Measure = Callable[[int], tuple[float, int]]
"""A measurement: given the round's number, the CPU seconds spent and how many calls."""


def rounds(measures: dict[str, Measure], count: int) -> dict[str, list[float]]:
    """Per measure, the seconds per call of each round; the rounds alternate the measures."""
    found: dict[str, list[float]] = {name: [] for name in measures}
    for number in range(count):
        for name, measure in measures.items():
            seconds, calls = measure(number)
            found[name].append(seconds / calls)
    return found


def line(label: str, samples: Sequence[float], target: float | None = None) -> None:
    """A figure in microseconds: the median, the spread and, where there is one, the target."""
    median = statistics.median(samples) * 1e6
    spread = f"({min(samples) * 1e6:.1f} to {max(samples) * 1e6:.1f})"
    figure = f"{median:9.1f} us {spread:<18}"
    if target is None:
        print(f"  {label:<50} {figure}")
        return
    verdict = "ok" if median <= target * 1e6 else "OVER"
    print(f"  {label:<50} {figure} target {target * 1e6:g} us  {verdict}")


def play(players: int, seed: int) -> list[tt.GameState]:
    """Every state of a random game, first to last."""
    game = tt.new_game(players, seed=seed)
    rng = random.Random(seed)
    states = [game]
    while not game.is_over:
        legal = game.legal_actions()
        game = game.apply(legal[rng.randrange(len(legal))])
        states.append(game)
    return states


def replayed(states: Sequence[tt.GameState]) -> Iterator[tt.GameState]:
    """The states of ``states``' game made afresh one by one, each after the previous is used."""
    first = states[0]
    game = tt.start_game(first.config, first.setup.components)
    yield game
    for action in states[-1].history:
        game = game.apply(action)
        yield game


def in_play(
    games: Sequence[list[tt.GameState]], call: Callable[[tt.GameState], object], part: slice
) -> Measure:
    """``call`` on the states ``part`` of each game, each state fresh, right after its move."""

    def measure(_: int) -> tuple[float, int]:
        total, count = 0.0, 0
        for states in games:
            timed = set(range(len(states))[part])
            for number, state in enumerate(replayed(states)):
                if number in timed:
                    start = time.process_time()
                    call(state)
                    total += time.process_time() - start
                    count += 1
        return total, count

    return measure


def on_finals(
    games: Sequence[list[tt.GameState]], call: Callable[[tt.GameState], object]
) -> Measure:
    """``call`` on the final state of each game, replayed afresh each round."""

    def measure(_: int) -> tuple[float, int]:
        finals = [list(replayed(states))[-1] for states in games]
        start = time.process_time()
        for final in finals:
            call(final)
        return time.process_time() - start, len(finals)

    return measure


def deals(players: int, first_seed: int, count: int) -> Measure:
    """``new_game`` of ``count`` seeds never dealt before, a new range each round."""

    def measure(number: int) -> tuple[float, int]:
        seeds = range(first_seed + number * count, first_seed + (number + 1) * count)
        start = time.process_time()
        for seed in seeds:
            tt.new_game(players, seed=seed)
        return time.process_time() - start, count

    return measure


def calibration(_: int) -> tuple[float, int]:
    start = time.process_time()
    for _ in range(2000):
        sum(range(1000))
    return time.process_time() - start, 2000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10, help="games of each player count")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds")
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    args = parser.parse_args()
    games_count, count = (2, 1) if args.quick else (args.games, args.rounds)
    gc.collect()
    print(
        f"tricky-treats {tt.__version__}, compiled core: {tt.__compiled__}; the median of "
        f"{count} alternating rounds (lowest to highest)"
    )
    two = [play(2, seed) for seed in range(games_count)]
    four = [play(4, seed) for seed in range(games_count)]
    early, late = slice(1, 11), slice(-11, -1)
    measures: dict[str, Measure] = {"calibration": calibration}
    for label, games in (("2 players", two), ("4 players", four)):
        for when, part in (("early", early), ("late", late)):
            measures[f"scores(), {label}, {when}"] = in_play(games, lambda s: s.scores(), part)
            measures[f"view(current player), {label}, {when}"] = in_play(
                games, lambda s: s.view(s.current_player or 0), part
            )
    measures["view(p) of every seat, per view, 4 players"] = in_play(
        four, lambda s: [s.view(p) for p in range(4)], slice(None)
    )
    measures["new_game, 2 players"] = deals(2, 10**6, 50 if args.quick else 400)
    measures["new_game, 4 players"] = deals(4, 2 * 10**6, 50 if args.quick else 400)
    measures["dumps then verified loads, 4 players, final"] = on_finals(
        four, lambda s: tt.loads(tt.dumps(s))
    )
    measures["dumps(state, player=p) per seat per move, 4 pl."] = in_play(
        four, lambda s: [tt.dumps(s, player=p) for p in range(4)], slice(None)
    )
    found = rounds(measures, count)
    line("calibration: a 1000-step Python loop", found["calibration"])
    print("scores() and view(p) on fresh states in play order (target 25 us):")
    for name, samples in found.items():
        if name.startswith(("scores", "view")):
            per_view = 4 if name.startswith("view(p) of every seat") else 1
            line(name, [s / per_view for s in samples], 25e-6)
    print("new_game, every seed never dealt before (the fast start is tt.Simulator.new_game):")
    line("new_game, 2 players", found["new_game, 2 players"])
    line("new_game, 4 players", found["new_game, 4 players"])
    print("records:")
    line(
        "dumps then verified loads, 4 players, final",
        found["dumps then verified loads, 4 players, final"],
        1e-3,
    )
    line(
        "dumps(state, player=p) per seat per move, 4 pl.",
        [s / 4 for s in found["dumps(state, player=p) per seat per move, 4 pl."]],
        100e-6,
    )


if __name__ == "__main__":
    main()
