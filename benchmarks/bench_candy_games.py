"""The three candy games on the game protocol: random-playout speed and bot strength.

Run with ``python benchmarks/bench_candy_games.py`` after installing the packages under
``examples/`` (see the README); it prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import candy_chaser
import hack_trick
import tricks_and_treats

from tricky_treats.protocol import RandomPlayer, SearchPlayer, TurnBasedGame, simulate

GAMES: dict[str, Callable[[int], TurnBasedGame]] = {
    "hack-trick (match to 5)": lambda seed: hack_trick.new_match(seed=seed),
    "candy-chaser (4 players)": lambda seed: candy_chaser.new_game(4, seed),
    "tricks-and-treats (4 players)": lambda seed: tricks_and_treats.new_game(4, seed),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="random games per game")
    parser.add_argument("--duels", type=int, default=20, help="search-vs-random games")
    parser.add_argument("--iterations", type=int, default=100, help="search iterations")
    args = parser.parse_args()
    for name, new_game in GAMES.items():
        seats = new_game(0).num_players
        start = time.perf_counter()
        summary = simulate(new_game, [RandomPlayer()] * seats, args.games)
        elapsed = time.perf_counter() - start
        print(
            f"{name}: {args.games} random games, {summary.actions / args.games:.0f} actions"
            f" a game, {summary.actions / elapsed:,.0f} actions/s (views and agents included)"
        )
        searcher = SearchPlayer(iterations=args.iterations)
        start = time.perf_counter()
        duel = simulate(new_game, [searcher] + [RandomPlayer()] * (seats - 1), args.duels, 1000)
        elapsed = time.perf_counter() - start
        print(
            f"  search:{args.iterations} in seat 0 vs random: won {duel.wins[0]:.1f} of"
            f" {args.duels} (fair share {args.duels / seats:.1f}), {elapsed:.1f}s"
        )


if __name__ == "__main__":
    main()
