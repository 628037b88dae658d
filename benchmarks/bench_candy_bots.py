"""The candy games' search bots against their greedy bots: shares of the wins, with intervals.

Run with ``python benchmarks/bench_candy_bots.py`` after installing the packages under
``examples/``; it prints figures and asserts nothing. For each game it plays ``--games`` games
of one bot against greedy bots in every other seat (Tricks & Treats: 3 players; Candy Chaser:
4; Hack Trick: 2), the bot's seat going round (game ``i`` is dealt and played from seed
``SEED + i``, the bot in seat ``i % players``). It prints the bot's share of the wins (a shared
win counts its share) beside the fair share ``1 / players``, the 95% Wilson interval of that
share, how often the bot was eliminated, and the CPU time.

The bots are each game's ``make_bot`` names: ``search:N`` is the bot under test; the previous
search bots stay for the comparison (``--previous``): ``informed:N`` in Tricks & Treats (it
accuses only when sure), ``blind:N`` in Candy Chaser (it searches every accusation with random
playouts) and ``full:N`` in Hack Trick (playouts to the end of the match). Every run is bounded
by ``--games``; the defaults take about ten CPU minutes. ``--against BOT`` puts another bot
in the other seats (``--against PREVIOUS``: each game's previous search bot), to see that the
search bot is not strong against greedy bots alone.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import candy_chaser
import candy_chaser.bots
import hack_trick
import hack_trick.bots
import tricks_and_treats as tnt
import tricks_and_treats.bots

from tricky_treats.protocol import Agent, TurnBasedGame, play_match
from tricky_treats.report.stats import wilson_interval

GAMES: dict[str, tuple[Callable[[int], TurnBasedGame], Callable[[str], Agent], str, int]] = {
    "tricks-and-treats": (
        lambda seed: tnt.new_game(3, seed),
        tricks_and_treats.bots.make_bot,
        "informed",
        200,
    ),
    "candy-chaser": (
        lambda seed: candy_chaser.new_game(4, seed),
        candy_chaser.bots.make_bot,
        "blind",
        200,
    ),
    "hack-trick": (
        lambda seed: hack_trick.new_match(seed=seed),
        hack_trick.bots.make_bot,
        "full",
        50,
    ),
}
"""Per game: a new game from a seed, its bots by name, its previous search, the iterations."""


def duel(
    new_game: Callable[[int], TurnBasedGame],
    make_bot: Callable[[str], Agent],
    spec: str,
    games: int,
    seed: int,
    against: str = "greedy",
) -> str:
    """``spec`` against ``against`` bots in every other seat: its share of ``games`` games."""
    start = time.process_time()
    wins, eliminated, seats = 0.0, 0, 0
    for i in range(games):
        game = new_game(seed + i)
        seats = game.num_players
        agents = [make_bot(against) for _ in range(seats)]
        agents[i % seats] = make_bot(spec)
        final: Any = play_match(game, agents, seed + i)
        wins += final.returns()[i % seats]
        eliminated += not getattr(final, "alive", [True] * seats)[i % seats]
    share = wilson_interval(wins, games)
    fair = 1 / seats
    verdict = "above" if share.low > fair else "not above"
    return (
        f"  {spec} vs {against}: won {wins:g} of {games} ({share.estimate:.1%}, 95% interval "
        f"{share.low:.1%} to {share.high:.1%}; fair share {fair:.1%}: {verdict}), "
        f"eliminated in {eliminated}, {time.process_time() - start:.0f} CPU s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="games per bot and game (200)")
    parser.add_argument("--seed", type=int, default=10_000, help="the seed of game 0 (10000)")
    parser.add_argument("--iterations", type=int, help="search iterations (default: per game)")
    parser.add_argument("--only", help="one game, by the start of its name")
    parser.add_argument(
        "--previous", type=int, default=0, metavar="N", help="also N games of the previous bot"
    )
    parser.add_argument(
        "--against",
        default="greedy",
        help="the bot in every other seat (greedy); PREVIOUS names each game's previous search",
    )
    parser.add_argument("--quick", action="store_true", help="a smoke run of seconds (CI)")
    args = parser.parse_args()
    if args.quick:  # a smoke run: the script still works, the figures mean nothing
        args.games = 2
        args.iterations = 5
    for name, (new_game, make_bot, previous, iterations) in GAMES.items():
        if args.only and not name.startswith(args.only):
            continue
        n = args.iterations or iterations
        against = f"{previous}:{n}" if args.against == "PREVIOUS" else args.against
        print(f"{name} ({new_game(0).num_players} players), seeds from {args.seed}:", flush=True)
        print(duel(new_game, make_bot, f"search:{n}", args.games, args.seed, against), flush=True)
        if args.previous:
            previous_bot = f"{previous}:{n}"
            print(
                duel(new_game, make_bot, previous_bot, args.previous, args.seed, against),
                flush=True,
            )


if __name__ == "__main__":
    main()
