"""The ``tricky-treats`` command: play, simulate, replay and list variants.

Needs the ``cli`` extra (``pip install 'tricky-treats[cli]'``) for rich, which draws the
tables and progress bars; the library itself never imports this module.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import secrets
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tricky_treats import __version__
from tricky_treats.actions import Action, parse_action
from tricky_treats.agents import Agent, make_agent
from tricky_treats.dealing import new_game
from tricky_treats.errors import TrickyTreatsError
from tricky_treats.events import describe_event
from tricky_treats.model import GameState
from tricky_treats.plugins import available_variants, variant_problems
from tricky_treats.serialization import dumps, loads
from tricky_treats.simulation import BACKENDS, GameResult, simulate
from tricky_treats.views import PlayerView

if TYPE_CHECKING:
    from rich.console import Console, RenderableType

__all__ = ["console_main", "main"]

EXIT_USAGE = 2


class CommandError(Exception):
    """A problem to report in one line, with no traceback (exit status 2)."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    try:
        import rich  # noqa: F401 - only to check that the extra is installed
    except ImportError:
        print(
            "tricky-treats: the command line needs the 'rich' package: "
            "pip install 'tricky-treats[cli]'",
            file=sys.stderr,
        )
        return EXIT_USAGE
    from rich.console import Console

    parser = _parser()
    args = parser.parse_args(argv)
    # Piped or captured output gets a fixed, roomy width so that tables do not wrap.
    console = Console(highlight=False, width=None if sys.stdout.isatty() else 120)
    try:
        result: int = args.command(args, console)
    except (CommandError, TrickyTreatsError) as exc:
        Console(stderr=True, highlight=False, width=120).print(
            f"[red]tricky-treats: {exc}[/red]", markup=True
        )
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    return result


def console_main() -> None:
    """Entry point of the ``tricky-treats`` console script."""
    sys.exit(main())


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tricky-treats",
        description="The Tricky Treats rules engine: play, simulate and replay games.",
    )
    parser.add_argument("--version", action="version", version=f"tricky-treats {__version__}")
    commands = parser.add_subparsers(title="commands", required=True, metavar="COMMAND")

    play = commands.add_parser("play", help="play a game in the terminal against bots")
    _game_options(play)
    play.add_argument(
        "--seats",
        help="one per seat, in seat order: 'human' or a bot (random, greedy, search, "
        "search:ITERATIONS); overrides --players (default: you in seat 0, --bot elsewhere)",
    )
    play.add_argument("--bot", default="greedy", help="the bot in the other seats (greedy)")
    play.add_argument("--save", type=Path, help="write the game record to FILE after every move")
    play.set_defaults(command=_play)

    _simulate_parser(commands)

    replay = commands.add_parser("replay", help="show a saved game as a readable log")
    replay.add_argument("file", type=Path, help="a game record written by play --save or dumps()")
    replay.add_argument("--step", action="store_true", help="wait for Enter after each action")
    replay.set_defaults(command=_replay)

    variants = commands.add_parser("variants", help="list the installed variants")
    variants.set_defaults(command=_variants)
    return parser


def _game_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=3, help="2 to 4 players (3)")
    parser.add_argument("--seed", type=int, default=None, help="deals the game (random)")
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        dest="variants",
        metavar="NAME",
        help="play with this variant (repeat for several)",
    )


# -- play ----------------------------------------------------------------------------------------


def _play(args: argparse.Namespace, console: Console) -> int:
    seats = _seats(args)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    names = [
        "You" if seat == "human" else f"{seat.title()} {i + 1}" for i, seat in enumerate(seats)
    ]
    game = new_game(players=names, seed=seed, variants=args.variants)
    bots: dict[int, Agent] = {
        i: make_agent(seat) for i, seat in enumerate(seats) if seat != "human"
    }
    humans = [i for i, seat in enumerate(seats) if seat == "human"]
    rng = random.Random(seed)
    console.print(f"[bold]Tricky Treats[/bold], {len(seats)} players, seed {seed}")
    save = args.save
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        if seat in bots:
            action = bots[seat].choose(game.view(seat), game.legal_actions(), rng)
        else:
            console.print(_render(game.view(seat)))
            chosen = _ask(game, console, humans)
            if chosen is None:
                console.print("Bye.")
                return 0
            action = chosen
        game, events = game.apply_with_events(action)
        console.print(f"[bold]{names[seat]}[/bold]: {action}")
        for event in events:
            console.print(f"  {describe_event(event, names)}")
        if save is not None:
            _write(save, dumps(game, indent=1))
    console.print(_render(game.view(humans[0] if humans else 0)))
    return 0


def _seats(args: argparse.Namespace) -> list[str]:
    if args.seats:
        seats = [s.strip() for s in args.seats.split(",") if s.strip()]
    else:
        seats = ["human"] + [args.bot] * (args.players - 1)
    for seat in seats:
        if seat != "human":
            make_agent(seat)  # a clear error for an unknown bot, before the game starts
    return seats


_HELP = (
    "Type the number of an action or its notation (t2k4, v5, m1, refresh, pass); "
    "'save FILE' saves the game, 'quit' stops."
)


def _ask(game: GameState, console: Console, humans: list[int]) -> Action | None:
    """Read the human's action; None to quit."""
    legal = game.legal_actions()
    while True:
        try:
            line = input("Your action> ").strip()
        except EOFError:
            return None
        if line in ("quit", "exit", "q"):
            return None
        if line in ("help", "?", ""):
            console.print(_HELP)
            continue
        if line.startswith("save"):
            path = line[4:].strip()
            if not path:
                console.print("[yellow]Say where: save FILE[/yellow]")
                continue
            try:
                _write(Path(path), dumps(game, indent=1))
            except CommandError as exc:
                console.print(f"[yellow]{exc}[/yellow]")
            else:
                console.print(f"Saved to {path}.")
            continue
        if line.isdigit():
            index = int(line)
            if 1 <= index <= len(legal):
                return legal[index - 1]
            console.print(f"[yellow]Choose a number from 1 to {len(legal)}.[/yellow]")
            continue
        try:
            action = parse_action(line)
        except TrickyTreatsError as exc:
            console.print(f"[yellow]{exc}. {_HELP}[/yellow]")
            continue
        if action not in legal:
            try:
                game.apply(action)
            except TrickyTreatsError as exc:
                console.print(f"[yellow]{exc}[/yellow]")
            continue
        return action


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text + "\n", encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"cannot write {path}: {exc.strerror or exc}") from None


def _render(view: PlayerView) -> RenderableType:
    """The table as ``view``'s player sees it."""
    from rich.console import Group
    from rich.table import Table

    names = [p.name for p in view.players]
    grid = Table(title="Nice neighbours (v0 to v8) and street bonuses", show_lines=True)
    for number in range(3):
        grid.add_column(f"column {number}")
    grid.add_column("row bonus")
    for row in range(3):
        cells = []
        for house in range(row * 3, row * 3 + 3):
            h = view.grid[house]
            tiers = " ".join(f"{t.cards}:{t.treats}" for t in h.neighbour.tiers)
            visitors = ", ".join(
                names[p] for p, player in enumerate(view.players) if house in player.visited
            )
            pumpkin = " [orange1]pumpkin[/orange1]" if view.pumpkin_on_house[house] else ""
            cells.append(
                f"v{house} wants [b]{h.neighbour.wants.value}[/b]\n{tiers} → {h.treat.value}"
                f"{pumpkin}\n{visitors}"
            )
        cells.append(_street(view, row))
        grid.add_row(*cells)
    grid.add_row(*(_street(view, 3 + number) for number in range(3)), "← column bonus")
    mean = Table(title="Mean neighbours")
    for heading in ("house", "icon", "tile", "pumpkin", "tricked by"):
        mean.add_column(heading)
    for house, m in enumerate(view.mean_houses):
        tricked = ", ".join(
            names[p] for p, player in enumerate(view.players) if house in player.tricked
        )
        pumpkin = "yes" if view.pumpkin_on_mean_house[house] else ""
        mean.add_row(f"m{house}", m.icon.value, str(m.tile), pumpkin, tricked)
    market = Table(title=f"Market (deck: {view.deck_size} cards)")
    market.add_column("slot")
    market.add_column("card")
    for slot, card in enumerate(view.market):
        market.add_row(str(slot), str(card) if card is not None else "-")
    players = Table(title="Players")
    for heading in ("player", "kids (bottom → top)", "treats", "pumpkins", "footprints", "points"):
        players.add_column(heading)
    for p, (player, sheet) in enumerate(zip(view.players, view.scores, strict=True)):
        kids = "\n".join(
            f"{k}: " + (" / ".join(str(c) for c in kid) if kid else "-")
            for k, kid in enumerate(player.kids)
        )
        treats = "\n".join(
            f"{t}: {n}" for t, n in zip(("candy", "lollipop", "gummy"), player.treats, strict=True)
        )
        tile = view.secret_tiles[p]
        name = player.name + (f"\nsecret: {tile}" if tile is not None else "")
        marker = "▶ " if p == view.current_player else ""
        players.add_row(
            marker + name,
            kids,
            treats,
            str(player.pumpkins),
            str(player.footprints),
            str(sheet.total),
        )
    parts: list[RenderableType] = [grid, mean, market, players]
    if view.legal_actions:
        actions = Table(title="Your legal actions")
        actions.add_column("#")
        actions.add_column("action")
        for number, action in enumerate(view.legal_actions, start=1):
            actions.add_row(str(number), _describe_action(view, action))
        parts.append(actions)
    return Group(*parts)


def _street(view: PlayerView, street: int) -> str:
    token = view.street_tokens[street]
    amount = token.back if view.street_flipped[street] else token.front
    return f"{amount} {token.treat.value}"


def _describe_action(view: PlayerView, action: Action) -> str:
    from tricky_treats.actions import TakeCard, TrickHouse, VisitHouse

    if isinstance(action, TakeCard):
        return f"{action}: put the {view.market[action.slot]} on kid {action.kid}"
    if isinstance(action, VisitHouse):
        return (
            f"{action}: visit the house that wants {view.grid[action.house].neighbour.wants.value}"
        )
    if isinstance(action, TrickHouse):
        return f"{action}: trick the {view.mean_houses[action.house].icon.value} house"
    return str(action)


# -- simulate ------------------------------------------------------------------------------------


def _simulate_parser(commands: Any) -> None:
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
        default="greedy,random",
        metavar="BOTS",
        help="bots, comma-separated, one per seat (random, greedy, search, "
        "search:ITERATIONS), or one bot for every seat of --players; default 'greedy,random'",
    )
    simulate.add_argument(
        "--players",
        type=int,
        metavar="N",
        help="how many seats, 2 to 4 (default: one per bot of --agents)",
    )
    simulate.add_argument(
        "--seed",
        type=int,
        help="the seed of game 0; game i uses SEED+i (default: drawn from the operating "
        "system, 63 bits, and printed)",
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
        type=int,
        metavar="N",
        help="processes of the pool backend (default: all CPU cores)",
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
    simulate.add_argument("--quiet", action="store_true", help="no progress bar")
    simulate.set_defaults(command=_simulate)


def _simulate(args: argparse.Namespace, console: Console) -> int:
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    if args.games < 1:
        raise CommandError("--games must be at least 1")
    if args.jobs is not None and args.jobs < 1:
        raise CommandError("--jobs must be at least 1")
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
    )
    seats = args.players or len(agents)
    summary = _Summary()
    start = time.perf_counter()
    where = {
        "inline": "in this process",
        "pool": f"on {min(args.jobs or os.cpu_count() or 1, args.games)} process(es)",
        "ray": "on Ray",
    }[args.backend]
    progress = Progress(
        TextColumn("Playing"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
        console=console,
        disable=args.quiet,
        transient=True,
    )
    output = _Output(args.output)
    try:
        with output, progress:
            bar = progress.add_task("Playing", total=args.games)
            for result in results:
                summary.add(result)
                output.add(result)
                progress.advance(bar)
    except KeyboardInterrupt:
        saved = f"; {args.output} holds the first {output.written}" if args.output else ""
        Console(stderr=True, highlight=False).print(
            f"Interrupted after {summary.games} of {args.games} games{saved}."
        )
        return 130
    elapsed = time.perf_counter() - start
    summary.print(console, seats, seed, elapsed, where)
    return 0


class _Summary:
    """Each agent's totals, gathered as results stream in (no list of all results kept)."""

    def __init__(self) -> None:
        self.games = 0
        self.actions = 0
        self.first_seed: int | None = None
        self.stats: dict[str, dict[str, float]] = {}

    def add(self, result: GameResult) -> None:
        self.games += 1
        self.actions += result.actions
        for seat in result.seats:
            entry = self.stats.setdefault(
                f"{seat.agent_index + 1}. {seat.agent}",
                dict.fromkeys(
                    ("games", "wins", "total", "pumpkins", "costumes", "tiles", "extras"), 0.0
                ),
            )
            entry["games"] += 1
            entry["wins"] += seat.win
            entry["total"] += seat.total
            entry["pumpkins"] += seat.pumpkins
            entry["costumes"] += seat.costumes
            entry["tiles"] += seat.tiles
            entry["extras"] += seat.extras

    def print(self, console: Console, seats: int, seed: int, elapsed: float, where: str) -> None:
        from rich.table import Table

        table = Table(
            title=f"{self.games} games, {seats} players, seeds {seed} to {seed + self.games - 1}"
        )
        table.add_column("agent", no_wrap=True)
        for heading in ("games", "wins", "win rate", "mean total", "pumpkins", "costumes",
                        "tiles", "extras"):  # fmt: skip
            table.add_column(heading, justify="right")
        for label, stats in sorted(self.stats.items()):
            n = stats["games"]
            table.add_row(
                label,
                f"{n:.0f}",
                f"{stats['wins']:.1f}",
                f"{stats['wins'] / n:.1%}",
                f"{stats['total'] / n:.1f}",
                f"{stats['pumpkins'] / n:.1f}",
                f"{stats['costumes'] / n:.1f}",
                f"{stats['tiles'] / n:.1f}",
                f"{stats['extras'] / n:.1f}",
            )
        console.print(table)
        console.print(
            f"Mean game length {self.actions / self.games:.1f} actions; "
            f"{self.games / elapsed:.1f} games/s, {self.actions / elapsed:,.0f} actions/s "
            f"{where}."
        )


_CSV_COLUMNS = (
    "game", "seed", "actions", "termination", "seat", "agent", "total", "pumpkins", "costumes",
    "tiles", "extras", "win",
)  # fmt: skip


class _Output:
    """Writes results to ``--output`` in game order as they arrive (out of order)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.written = 0
        self._waiting: dict[int, GameResult] = {}
        self._handle: Any = None
        self._csv: Any = None

    def __enter__(self) -> _Output:
        if self.path is not None:
            try:
                self._handle = self.path.open("w", encoding="utf-8", newline="")
            except OSError as exc:
                raise CommandError(f"cannot write {self.path}: {exc.strerror or exc}") from None
            if self.path.suffix == ".csv":
                self._csv = csv.writer(self._handle)
                self._csv.writerow(_CSV_COLUMNS)
        return self

    def add(self, result: GameResult) -> None:
        if self._handle is None:
            return
        self._waiting[result.game] = result
        try:
            while self.written in self._waiting:
                self._write(self._waiting.pop(self.written))
                self.written += 1
        except OSError as exc:
            raise CommandError(f"cannot write {self.path}: {exc.strerror or exc}") from None

    def _write(self, result: GameResult) -> None:
        if self._csv is None:
            self._handle.write(json.dumps(result.to_dict()) + "\n")
            return
        for seat, s in enumerate(result.seats):
            self._csv.writerow(
                (result.game, result.seed, result.actions, result.termination, seat, s.agent,
                 s.total, s.pumpkins, s.costumes, s.tiles, s.extras, s.win)
            )  # fmt: skip

    def __exit__(self, *exc: object) -> None:
        if self._handle is not None:
            self._handle.close()


# -- replay and variants -------------------------------------------------------------------------


def _replay(args: argparse.Namespace, console: Console) -> int:
    from tricky_treats.dealing import start_game

    try:
        text = args.file.read_text(encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"cannot read {args.file}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise CommandError(f"{args.file} is not a text file") from None
    try:
        final = loads(text)
    except TrickyTreatsError as exc:
        raise CommandError(f"{args.file} is not a valid game record: {exc}") from None
    config = final.config
    names = list(config.players)
    variants = ", ".join(f"{v.name} {v.version}" for v in config.variants) or "none"
    console.print(
        f"[bold]Tricky Treats[/bold], {len(names)} players ({', '.join(names)}), seed "
        f"{config.seed}, variants: {variants}"
    )
    state = start_game(config, final.setup.components)
    for number, action in enumerate(final.history, start=1):
        seat = state.current_player
        assert seat is not None
        state, events = state.apply_with_events(action)
        console.print(f"{number:3}. [bold]{names[seat]}[/bold]: {action}")
        for event in events:
            console.print(f"     {describe_event(event, names)}")
        if args.step:
            try:
                input("(Enter for the next action) ")
            except EOFError:
                args.step = False
    if not final.is_over:
        console.print(f"The game goes on: {names[final.current_player or 0]} to act.")
    from rich.table import Table

    table = Table(title="Score sheets" + ("" if final.is_over else " so far"))
    for column in ("player", "pumpkins", "costumes", "tiles", "extras", "total"):
        table.add_column(column)
    won = final.winners()
    for sheet in final.scores():
        table.add_row(
            names[sheet.player] + (" (winner)" if sheet.player in won else ""),
            str(sheet.pumpkins),
            "+".join(map(str, sheet.costumes)),
            "+".join(str(t.points) for t in sheet.trick_tiles),
            str(sum(e.points for e in sheet.extras)),
            str(sheet.total),
        )
    console.print(table)
    return 0


def _variants(args: argparse.Namespace, console: Console) -> int:
    from rich.table import Table

    table = Table(title="Installed variants")
    for column in ("name", "version", "distribution", "players", "title"):
        table.add_column(column)
    for variant in available_variants():
        table.add_row(
            variant.name,
            variant.version,
            variant.distribution,
            ",".join(map(str, variant.players)),
            variant.title,
        )
    console.print(table)
    for problem in variant_problems():
        console.print(f"[red]unusable: {problem}[/red]")
    return 0
