"""The three candy games on the game protocol: random-playout speed and bot strength.

Run with ``python benchmarks/bench_candy_games.py`` after installing the packages under
``examples/`` (see the README); it prints figures and asserts nothing. For each game it plays

- random games: actions a game and actions a second;
- the current search bot (``search``) in seat 0 against random players, and against the
  previous version of the search bot (``previous``) in every other seat: its share of the wins
  beside the fair share;
- games between current bots and games between previous bots: the mean game length and, for
  Tricks & Treats, the share of games that reach Time's Up (the candy part of the game).

The current bots are each game's ``make_bot("search:N")``; the previous versions are kept
here for the comparison: Tricks & Treats' searched only the accusations it knew to be right,
with random playouts (``informed``); Hack Trick's played every playout to the end of the match
(``full``); Candy Chaser's searched every legal action with random playouts (``blind``). Their
shares against greedy players and hiders are in ``bench_candy_bots.py``.
Every run is bounded by ``--games`` and ``--duels``; the defaults take minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import candy_chaser
import hack_trick
import tricks_and_treats as tnt

from tricky_treats.protocol import (
    Agent,
    RandomPlayer,
    TurnBasedGame,
    play_match,
    simulate,
)

Bots = Callable[[int], Agent]
"""A bot of the given search iterations."""

GAMES: dict[str, tuple[Callable[[int], TurnBasedGame], Bots, Bots]] = {
    "tricks-and-treats (3 players)": (
        lambda seed: tnt.new_game(3, seed),
        lambda n: tnt.make_bot(f"search:{n}"),
        lambda n: tnt.make_bot(f"informed:{n}"),
    ),
    "hack-trick (match to 5)": (
        lambda seed: hack_trick.new_match(seed=seed),
        lambda n: hack_trick.make_bot(f"search:{n}"),
        lambda n: hack_trick.make_bot(f"full:{n}"),
    ),
    "candy-chaser (4 players)": (
        lambda seed: candy_chaser.new_game(4, seed),
        lambda n: candy_chaser.make_bot(f"search:{n}"),
        lambda n: candy_chaser.make_bot(f"blind:{n}"),
    ),
}


def _games(
    new_game: Callable[[int], TurnBasedGame], agents: list[Agent], count: int, seed: int
) -> tuple[float, float, float]:
    """Mean actions a game, the share ending by Time's Up (if the game has it), seconds."""
    start = time.perf_counter()
    actions, times_up = 0, 0

    def count_action(state: Any, action: object) -> None:
        nonlocal actions
        actions += 1

    for i in range(count):
        final: Any = play_match(new_game(seed + i), agents, seed + i, on_action=count_action)
        times_up += bool(getattr(final, "times_up", False))
    return actions / count, times_up / count, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="random games per game")
    parser.add_argument("--duels", type=int, default=8, help="games per bot comparison")
    parser.add_argument("--iterations", type=int, default=30, help="search iterations")
    parser.add_argument("--only", help="one game, by the start of its name")
    parser.add_argument("--quick", action="store_true", help="a smoke run of seconds (CI)")
    args = parser.parse_args()
    if args.quick:  # a smoke run: the script still works, the figures mean nothing
        args.games = 2
        args.duels = 1
        args.iterations = 2
    n = args.iterations
    for name, (new_game, current, previous) in GAMES.items():
        if args.only and not name.startswith(args.only):
            continue
        seats = new_game(0).num_players
        start = time.perf_counter()
        summary = simulate(new_game, [RandomPlayer()] * seats, args.games)
        elapsed = time.perf_counter() - start
        print(
            f"{name}: {args.games} random games, {summary.actions / args.games:.0f} actions"
            f" a game, {summary.actions / elapsed:,.0f} actions/s (views and agents included)"
        )
        fair = args.duels / seats
        for rival, others in (("random", RandomPlayer()), ("previous", previous(n))):
            start = time.perf_counter()
            duel = simulate(new_game, [current(n)] + [others] * (seats - 1), args.duels, 1000)
            print(
                f"  search:{n} in seat 0 vs {rival}: won {duel.wins[0]:.1f} of {args.duels}"
                f" (fair share {fair:.1f}), {time.perf_counter() - start:.0f}s"
            )
        for label, bots in (("search", current), ("previous", previous)):
            length, times_up, seconds = _games(new_game, [bots(n)] * seats, args.duels, 2000)
            ending = f", {times_up:.0%} reach Time's Up" if name.startswith("tricks") else ""
            print(
                f"  {args.duels} games of {label}:{n} bots only: {length:.0f} actions a game"
                f"{ending}, {seconds:.0f}s"
            )


if __name__ == "__main__":
    main()
