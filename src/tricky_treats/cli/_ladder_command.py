"""``tricky-treats ladder``: the command line's side of the rated bot ladder."""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from tricky_treats.cli import _exec_options
from tricky_treats.errors import ConfigurationError
from tricky_treats.ladder import GAME, LadderGame, ladder_games, rate
from tricky_treats.protocol.installed import GAMES_GROUP

if TYPE_CHECKING:
    from rich.console import Console

DEFAULT_BOTS = "random,greedy,search:50,search:200"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``ladder`` subcommand's arguments."""
    parser.add_argument(
        "--bots",
        default=DEFAULT_BOTS,
        help="the bots, separated by commas: random, greedy, search:ITERATIONS, policy "
        "(the shipped learned policy, needs the policy extra), ismcts:SIMULATIONS (OpenSpiel's, "
        "needs the openspiel extra), policy:FILE (a policy written by python -m "
        "tricky_treats.adapters.training or examples/train_policy.py), exec:COMMAND (a program "
        "speaking the bot protocol, docs/bot-protocol.md; no comma in COMMAND) "
        f"(default: {DEFAULT_BOTS})",
    )
    parser.add_argument(
        "--game",
        default=GAME,
        help=f"the game: {GAME} (default) or another game an installed distribution declares "
        f"in the entry-point group {GAMES_GROUP} (the candy games under examples/: pip "
        "install -e examples/GAME), with that game's bots (random, greedy, search:ITERATIONS); "
        "an unknown game is refused with the installed ones",
    )
    parser.add_argument(
        "--games", type=int, default=10, help="2-player games per pair of bots, even (10)"
    )
    parser.add_argument("--seed", type=int, default=0, help="deal k is seeded SEED + k (0)")
    parser.add_argument("--anchor", help="the bot rated 0 (default: the first of --bots)")
    parser.add_argument(
        "--resamples", type=int, default=200, help="bootstrap fits for the intervals (200)"
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes that play games (1)")
    _exec_options.add_arguments(parser)


def run(args: argparse.Namespace, console: Console) -> int:
    """Play the round robin, then print every bot's rating, interval and time per move."""
    from rich.table import Table

    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if args.resamples < 1:
        raise ConfigurationError("--resamples must be at least 1")
    pairs = len(bots) * (len(bots) - 1) // 2
    console.print(
        f"ladder: {len(bots)} bots, {args.games} games per pair ({pairs * args.games} games), "
        f"2 players of {args.game}, deals from seed {args.seed}"
    )
    started = time.perf_counter()
    done = [0]

    def progress(game: LadderGame) -> None:
        done[0] += 1
        if done[0] % max(1, pairs * args.games // 10) == 0:
            console.print(f"  {done[0]} games played", style="dim")

    fallbacks = _exec_options.FallbackLog()

    def played() -> Iterator[LadderGame]:
        for game in ladder_games(
            bots,
            args.games,
            args.seed,
            jobs=args.jobs,
            game=args.game,
            bot_limits=_exec_options.bot_limits(args),
            fallback=args.fallback,
        ):
            fallbacks.add(
                f"{game.bots[0]} against {game.bots[1]}, seed {game.seed}", game.fallbacks
            )
            progress(game)
            yield game

    # Rated as they are played, none kept: memory stays flat whatever --games is.
    ratings = rate(played(), anchor=args.anchor, resamples=args.resamples, seed=args.seed)
    fallbacks.close()
    table = Table(title=f"Elo ratings ({args.anchor or bots[0]} = 0)")
    table.add_column("bot")
    table.add_column("Elo", justify="right")
    table.add_column("95% interval", justify="right")
    table.add_column("games", justify="right")
    table.add_column("score", justify="right")
    table.add_column("ms per move", justify="right")
    for r in ratings:
        table.add_row(
            r.bot,
            f"{r.elo:+.0f}",
            f"{r.low:+.0f} to {r.high:+.0f}",
            str(r.games),
            f"{r.score:.1%}",
            f"{r.seconds_per_move * 1000:.1f}",
        )
    console.print(table)
    console.print(
        f"{done[0]} games in {time.perf_counter() - started:.0f} s on {args.jobs} "
        f"process(es) of {os.cpu_count()} cores; time per move is CPU time"
    )
    return 0
