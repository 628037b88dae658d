"""``tricky-treats simulate``: its options and the command (many games between bots).

Part of the command line (``tricky_treats.cli``); its totals and files are ``results``.
"""

from __future__ import annotations

import argparse
import os
import secrets
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tricky_treats._progress import Progress
from tricky_treats.cli import _exec_options
from tricky_treats.cli.common import _PLAYERS, _SEED, CommandError, _bounded
from tricky_treats.cli.results import _Output, _Summary
from tricky_treats.simulation import BACKENDS, MAX_JOBS_PER_CPU, max_jobs, simulate

if TYPE_CHECKING:
    from rich.console import Console

__all__: list[str] = []


def add_parser(commands: Any) -> None:
    simulate = commands.add_parser(
        "simulate",
        help="play many games between bots",
        description="Play many games between bots and print each bot's results. Game i is "
        "dealt from seed SEED+i and its seats rotate by i, so each bot plays every seat and "
        "the results do not depend on the backend or the number of processes.",
    )
    simulate.add_argument(
        "--games", type=int, default=100, metavar="N", help="how many games (100)"
    )
    simulate.add_argument(
        "--agents",
        metavar="BOTS",
        help="bots, comma-separated, one per seat (random, greedy, search, "
        "search:ITERATIONS, policy, exec:COMMAND: a program speaking the bot protocol, "
        "docs/bot-protocol.md, with no comma in COMMAND), or one bot for every seat of --players; "
        "default: greedy and "
        "random in turn, one per seat (greedy,random; greedy,random,greedy,random for 4)",
    )
    simulate.add_argument(
        "--players",
        type=_PLAYERS,
        metavar="N",
        help="how many seats, 2 to 4 (default: one per bot of --agents, else 2)",
    )
    simulate.add_argument(
        "--seed",
        type=_SEED,
        help="the seed of game 0, from 0 to 2**128-1; game i uses SEED+i modulo 2**128 "
        "(default: drawn from the operating system, 63 bits, and printed)",
    )
    simulate.add_argument(
        "--variant",
        action="append",
        default=[],
        dest="variants",
        metavar="NAME",
        help="play with this variant (repeat for several)",
    )
    simulate.add_argument(
        "--backend",
        choices=BACKENDS,
        default="pool",
        help="where games are played: inline (this process), pool (local processes; the "
        "default) or ray (Ray tasks; needs tricky-treats[ray])",
    )
    simulate.add_argument(
        "--jobs",
        type=_bounded(1, max_jobs()),
        metavar="N",
        help=f"processes of the pool backend (default: all CPU cores; at most "
        f"{MAX_JOBS_PER_CPU} per core)",
    )
    simulate.add_argument(
        "--address",
        help="the Ray cluster to run on, e.g. 'auto' or 'ray://HEAD:10001' (ray backend; "
        "default: the cluster in RAY_ADDRESS, else a local Ray)",
    )
    simulate.add_argument(
        "--batch-size",
        type=int,
        metavar="N",
        help="games per task for the pool and ray backends (default: chosen from --games)",
    )
    simulate.add_argument(
        "--output",
        type=Path,
        metavar="FILE",
        help="write one line per game to FILE (.csv or .jsonl)",
    )
    simulate.add_argument(
        "--quiet",
        action="store_true",
        help="no progress (by default a bar with the time left on a terminal, else a line "
        "at every tenth of the games, on standard error)",
    )
    _exec_options.add_arguments(simulate)
    simulate.set_defaults(command=_simulate)


_DEFAULT_AGENTS = ("greedy", "random")
"""The bots of ``simulate`` without ``--agents``: taking the seats in turn."""


def _simulate(args: argparse.Namespace, console: Console) -> int:
    from rich.console import Console

    if args.agents is None:
        seats = args.players if args.players is not None else len(_DEFAULT_AGENTS)
        agents = [_DEFAULT_AGENTS[seat % len(_DEFAULT_AGENTS)] for seat in range(seats)]
    else:
        agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    if args.games < 1:
        raise CommandError("--games must be at least 1")
    if args.jobs is not None and args.backend != "pool":
        raise CommandError(f"--jobs is for the pool backend, not --backend {args.backend}")
    if args.address is not None and args.backend != "ray":
        raise CommandError("--address is for the ray backend: add --backend ray")
    if args.batch_size is not None and args.batch_size < 1:
        raise CommandError("--batch-size must be at least 1")
    if args.output is not None and args.output.suffix not in (".csv", ".jsonl"):
        raise CommandError(f"--output must end in .csv or .jsonl, got {args.output.name}")
    if not agents:
        raise CommandError("--agents is empty: name a bot per seat, e.g. greedy,random")
    seed = args.seed if args.seed is not None else secrets.randbits(63)
    results = simulate(
        args.games,
        agents,
        players=args.players,
        seed=seed,
        variants=args.variants,
        backend=args.backend,
        jobs=args.jobs,
        address=args.address,
        batch_size=args.batch_size,
        ordered=False,
        bot_limits=_exec_options.bot_limits(args),
        fallback=args.fallback,
    )
    seats = args.players or len(agents)
    summary = _Summary()
    start = time.perf_counter()
    where = {
        "inline": "in this process",
        "pool": f"on {min(args.jobs or os.cpu_count() or 1, args.games)} process(es)",
        "ray": "on Ray",
    }[args.backend]
    progress = Progress(args.games, f"Playing {', '.join(agents)} {where}", quiet=args.quiet)
    output = _Output(args.output)
    fallbacks = _exec_options.FallbackLog()
    try:
        with output, progress:
            for result in results:
                fallbacks.add(f"game {result.game}", result.fallbacks)
                summary.add(result)
                output.add(result)
                progress.advance()
    except KeyboardInterrupt:
        saved = f"; {args.output} holds the first {output.written}" if args.output else ""
        Console(stderr=True, highlight=False, markup=False).print(
            f"Interrupted after {summary.games} of {args.games} games{saved}."
        )
        return 130
    elapsed = time.perf_counter() - start
    fallbacks.close()
    summary.print(console, seats, seed, elapsed, where)
    return 0
