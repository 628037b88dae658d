"""Engine throughput: random playouts and the cost of the core calls.

Run with ``python benchmarks/bench_engine.py``; it prints figures and asserts nothing.
Target for this machine class (2 cores): 100,000 actions per second in 4-player random
playouts, listing the legal actions included (dealing is timed apart, in games per second).
"""

from __future__ import annotations

import argparse
import random
import time
import tracemalloc
from collections.abc import Callable

import tricky_treats as tt


def playout(game: tt.GameState, seed: int) -> int:
    """Play ``game`` to the end with random legal actions; return how many it took."""
    rng = random.Random(seed)
    actions = 0
    while not game.is_over:
        legal = game.legal_actions()
        game = game.apply(legal[rng.randrange(len(legal))])
        actions += 1
    return actions


def per_call(
    label: str, function: Callable[[], object], repeat: int = 5, number: int = 20_000
) -> None:
    """Print the best mean time of one call to ``function`` over ``repeat`` rounds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            function()
        best = min(best, (time.perf_counter() - start) / number)
    if best >= 1e-3:
        print(f"  {label:<44} {best * 1e3:8.2f} ms")
    else:
        print(f"  {label:<44} {best * 1e6:8.2f} us")


def sample_states(players: int, seeds: range) -> list[tt.GameState]:
    """Every state of random games: a realistic mix for per-call timings."""
    states = []
    for seed in seeds:
        game = tt.new_game(players=players, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            states.append(game)
            legal = game.legal_actions()
            game = game.apply(legal[rng.randrange(len(legal))])
        states.append(game)
    return states


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000, help="random games per run")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--quick", action="store_true", help="a smoke run of seconds (CI)")
    args = parser.parse_args()
    if args.quick:  # a smoke run: the script still works, the figures mean nothing
        args.games = 20

    print(f"tricky-treats {tt.__version__}: {args.games} random {args.players}-player games")
    runs = []
    for run in range(3):
        seeds = range(run * args.games, (run + 1) * args.games)
        start = time.perf_counter()
        games = [tt.new_game(players=args.players, seed=seed) for seed in seeds]
        dealt = time.perf_counter()
        actions = sum(playout(game, seed) for game, seed in zip(games, seeds, strict=True))
        played = time.perf_counter()
        runs.append((actions / (played - dealt), args.games / (played - start), actions))
    best = max(runs)
    print(f"  actions per second (legal_actions + apply)           {best[0]:>12,.0f}")
    print(f"  time per action                                      {1e6 / best[0]:>9.2f} us")
    print(
        f"  games per second (dealing included)                  {max(r[1] for r in runs):>12,.0f}"
    )
    print(f"  actions per game (mean)                              {best[2] / args.games:>12.1f}")

    states = sample_states(args.players, range(20))
    live = [s for s in states if not s.is_over]
    chosen = [s.legal_actions()[len(s.legal_actions()) // 2] for s in live]
    print(f"per call, over {len(live)} states of 20 games:")
    index = iter(range(10**9))

    def fresh_legal() -> object:
        state = live[next(index) % len(live)]
        return state.legal_actions()

    def apply_one() -> object:
        i = next(index) % len(live)
        return live[i].apply(chosen[i])

    def events_one() -> object:
        i = next(index) % len(live)
        return live[i].apply_with_events(chosen[i])

    def score_one() -> object:
        return states[next(index) % len(states)].scores()

    def view_one() -> object:
        state = states[next(index) % len(states)]
        return state.view(state.current_player or 0)

    per_call("legal_actions()", fresh_legal)  # not cached: each call computes them
    per_call("apply()", apply_one)
    per_call("apply_with_events()", events_one)
    per_call("scores()", score_one)
    per_call("view(player)", view_one, number=5_000)
    per_call("new_game(players=4)", lambda: tt.new_game(4, seed=next(index)), number=2_000)

    finished = states[-1]
    text = tt.dumps(finished)
    print(f"records of a finished {args.players}-player game ({len(finished.history)} actions):")
    per_call("dumps(game)", lambda: tt.dumps(finished), number=200)
    per_call("loads(text) (replays and checks the log)", lambda: tt.loads(text), number=200)
    per_call("loads(text, verify=False)", lambda: tt.loads(text, verify=False), number=200)
    per_call("dumps(game, player=0)", lambda: tt.dumps(finished, player=0), number=200)
    print(f"  {'size of the record':<44} {len(text.encode()):8,} bytes")
    print(
        f"  {'size of a player record':<44} {len(tt.dumps(finished, player=0).encode()):8,} bytes"
    )

    tracemalloc.start()
    game = tt.new_game(players=args.players, seed=1)
    rng = random.Random(1)
    kept = [game]
    before = tracemalloc.take_snapshot()
    while not game.is_over:
        legal = game.legal_actions()
        game = game.apply(legal[rng.randrange(len(legal))])
        kept.append(game)
    after = tracemalloc.take_snapshot()
    grown = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    tracemalloc.stop()
    per_state = grown / len(kept)
    print(
        f"memory: keeping all {len(kept)} states of a game (undo): {per_state:,.0f} bytes a state"
    )


if __name__ == "__main__":
    main()
