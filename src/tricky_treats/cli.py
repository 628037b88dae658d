"""The ``tricky-treats`` command: play, simulate, replay and list variants.

Needs the ``cli`` extra (``pip install 'tricky-treats[cli]'``) for rich, which draws the
tables and progress bars; ``--help`` and ``--version`` work without it. The library itself
never imports this module.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import re
import secrets
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tricky_treats import __version__
from tricky_treats._progress import Progress
from tricky_treats.actions import Action, parse_action
from tricky_treats.agents import Agent, make_agent
from tricky_treats.components import COMPONENT_LIMITS
from tricky_treats.dealing import MAX_SEED, new_game
from tricky_treats.drawing import board_svg
from tricky_treats.errors import TrickyTreatsError
from tricky_treats.events import GameOver, describe_event
from tricky_treats.model import GameState
from tricky_treats.plugins import available_variants, variant_problems
from tricky_treats.serialization import MAX_RECORD_BYTES, dumps, loads
from tricky_treats.simulation import (
    BACKENDS,
    MAX_JOBS_PER_CPU,
    GameResult,
    game_seed,
    max_jobs,
    simulate,
)
from tricky_treats.views import PlayerView

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

__all__ = ["console_main", "main"]

EXIT_USAGE = 2


class CommandError(Exception):
    """A problem to report in one line, with no traceback (exit status 2)."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    try:
        return _main(argv)
    except BrokenPipeError:
        # The reader (``| head``) has gone: stop quietly, and keep Python from failing again
        # when it flushes stdout at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141


def _main(argv: Sequence[str] | None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)  # --help and --version end here, with no need for rich
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

    # Piped or captured output gets a fixed, roomy width so that tables do not wrap.
    console = Console(highlight=False, width=None if sys.stdout.isatty() else 120)
    try:
        result: int = args.command(args, console)
    except (CommandError, TrickyTreatsError) as exc:
        from rich.markup import escape  # a hint like 'tricky-treats[report]' is no markup

        Console(stderr=True, highlight=False, width=120).print(
            f"[red]tricky-treats: {escape(str(exc))}[/red]", markup=True
        )
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(file=sys.stderr)  # Ctrl-C at a prompt: the shell's prompt starts on a new line
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

    play = commands.add_parser(
        "play",
        help="play a game in the terminal against bots, or hot seat with friends",
        description="Play in the terminal. Two or more humans share the keyboard (hot seat): "
        "between their turns a screen asks to pass the keyboard and hides the last player's "
        "secret tile. The seed is shown when the game is over.",
    )
    _game_options(play)
    play.set_defaults(players=None)  # 3 unless --seats, --names or --load say otherwise
    play.add_argument(
        "--seats",
        help="one per seat, in seat order: 'human' or a bot (random, greedy, search, "
        "search:ITERATIONS), e.g. 'human,human,greedy'; default: you in seat 0, --bot elsewhere",
    )
    play.add_argument("--bot", default="greedy", help="the bot in the other seats (greedy)")
    play.add_argument(
        "--names",
        help="the players' names in seat order, separated by commas, e.g. 'Ann,Bo,Cy'",
    )
    play.add_argument(
        "--save",
        type=Path,
        metavar="FILE",
        help="write the game record to FILE after every move (with --load: the loaded FILE)",
    )
    play.add_argument(
        "--load",
        type=Path,
        metavar="FILE",
        help="resume the game saved in FILE (players, seed and variants come from it); the "
        "game goes on being saved to FILE unless --save names another file",
    )
    play.set_defaults(command=_play)

    _simulate_parser(commands)

    replay = commands.add_parser("replay", help="show a saved game as a readable log")
    replay.add_argument("file", type=Path, help="a game record written by play --save or dumps()")
    replay.add_argument(
        "--step",
        action="store_true",
        help="show the table after each action; Enter goes on, q quits",
    )
    replay.add_argument(
        "--svg",
        type=Path,
        metavar="DIR",
        help="also draw the table before the first action and after each one, as the player "
        "who acted sees it: DIR/move-000.svg, DIR/move-001.svg, ... and DIR/index.html, a page "
        "that steps through them",
    )
    replay.set_defaults(command=_replay)

    variants = commands.add_parser("variants", help="list the installed variants")
    variants.set_defaults(command=_variants)

    from tricky_treats.report import _command as report_command

    report = commands.add_parser(
        "report", help="write an HTML balance report with plots (needs the report extra)"
    )
    report_command.add_arguments(report)
    report.set_defaults(command=report_command.run)

    from tricky_treats import _ladder_command

    ladder = commands.add_parser(
        "ladder", help="rate bots by Elo from round-robin 2-player games, with time per move"
    )
    _ladder_command.add_arguments(ladder)
    ladder.set_defaults(command=_ladder_command.run)
    return parser


def _bounded(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``, refused before any work."""

    def number(text: str) -> int:
        digits = text.strip()
        if not digits.lstrip("+-").isascii() or not digits.lstrip("+-").isdigit():
            raise argparse.ArgumentTypeError(f"expected a whole number from {low:,} to {high:,}")
        # int() of thousands of digits is slow (and refused past 4,300): count them first.
        if len(digits) > 60:
            raise argparse.ArgumentTypeError(
                f"expected {low:,} to {high:,}, got a number of {len(digits):,} digits"
            )
        value = int(digits)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"expected {low:,} to {high:,}, got {value:,}")
        return value

    number.__name__ = "number"  # argparse names the type in some messages
    return number


_PLAYERS = _bounded(*COMPONENT_LIMITS["players"])  # what any component data allows
_SEED = _bounded(0, MAX_SEED - 1)


def _game_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=_PLAYERS, default=3, help="2 to 4 players (3)")
    parser.add_argument("--seed", type=_SEED, default=None, help="deals the game (random)")
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
    from tricky_treats import _terminal

    game, moves = _load(args.load) if args.load is not None else (None, [])
    seats = _seats(args, len(game.players) if game is not None else None)
    save: Path | None = args.save if args.save is not None else args.load
    if game is None:
        names = _names(args, seats)
        # Without --seed the library draws 63 bits from the operating system (issue 10).
        game = new_game(players=names, seed=args.seed, variants=args.variants)
    names = list(game.config.players)
    bots: dict[int, Agent] = {
        i: make_agent(seat) for i, seat in enumerate(seats) if seat != "human"
    }
    humans = [i for i, seat in enumerate(seats) if seat == "human"]
    # The bots draw from the game's seed (never shown while the game goes on); a resumed game
    # goes on from where it was, so its bots do not replay the same draws.
    rng = random.Random(game.config.seed + len(game.history))
    variants = ", ".join(v.name for v in game.config.variants)
    console.print(
        f"[bold]Tricky Treats[/bold]: {', '.join(names)}"
        + (f"; variants: {variants}" if variants else "")
        + ". New to the game? Type 'rules' at the prompt; 'help' lists the commands."
        + (f" Every move is saved to {save}." if save is not None else "")
    )
    session = _Session(save, len(game.history))
    previous_human: int | None = None
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        if seat in bots:
            action = bots[seat].choose(game.view(seat), game.legal_actions(), rng)
        else:
            hand_over = len(humans) > 1 and previous_human not in (None, seat)
            if hand_over and not _pass_keyboard(console, names[seat]):
                return _bye(console, game, session)
            previous_human = seat
            view = game.view(seat)
            _print_lines(console, _terminal.turn_screen(view, moves, game.round))
            chosen = _ask(game, console, names[seat], session)
            if chosen is None:
                return _bye(console, game, session)
            action = chosen
        game, events = game.apply_with_events(action)
        moves.append(_terminal.Move(seat, action, events))
        if save is not None:
            _write(save, dumps(game, indent=1))
            session.saved_moves = len(game.history)
    _print_end(console, game, moves, humans)
    return 0


def _load(path: Path) -> tuple[GameState, list[Any]]:
    """The saved game in ``path`` and its moves, replayed from the start."""
    from tricky_treats import _terminal
    from tricky_treats.dealing import start_game

    final = _read_record(path)
    state = start_game(final.config, final.setup.components)
    moves: list[_terminal.Move] = []
    for action in final.history:
        seat = state.current_player
        assert seat is not None
        state, events = state.apply_with_events(action)
        moves.append(_terminal.Move(seat, action, events))
    return final, moves


def _read_record(path: Path) -> GameState:
    try:
        with path.open("rb") as file:
            # No more than a record may hold: /dev/zero or a huge file is refused, not read.
            data = file.read(MAX_RECORD_BYTES + 1)
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > MAX_RECORD_BYTES:
        raise CommandError(
            f"{path} is not a game record: it is larger than a record may be "
            f"({MAX_RECORD_BYTES:,} bytes)"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise CommandError(f"{path} is not a text file") from None
    try:
        return loads(text)
    except TrickyTreatsError as exc:
        raise CommandError(f"{path} is not a valid game record: {exc}") from None


def _seats(args: argparse.Namespace, loaded_players: int | None) -> list[str]:
    if loaded_players is not None:
        given = [
            option
            for option, value in (
                ("--players", args.players),
                ("--seed", args.seed),
                ("--variant", args.variants),
                ("--names", args.names),
            )
            if value not in (None, [])
        ]
        if given:
            raise CommandError(
                f"--load takes the players, seed and variants from the record; "
                f"leave out {', '.join(given)}"
            )
    most = COMPONENT_LIMITS["players"][1]
    if args.seats:
        if args.seats.count(",") >= most:
            raise CommandError(f"--seats names more than {most} seats; a game has at most {most}")
        seats = [s.strip() for s in args.seats.split(",")]
        if not all(seats):
            raise CommandError(f"--seats has an empty seat: {args.seats!r}")
    else:
        count = loaded_players or args.players
        if count is None:
            count = args.names.count(",") + 1 if args.names else 3
            if count > most:
                raise CommandError(
                    f"--names names more than {most} players; a game has at most {most}"
                )
        seats = ["human"] + [args.bot] * (count - 1)
    for seat in seats:
        if seat != "human":
            make_agent(seat)  # a clear error for an unknown bot, before the game starts
    if loaded_players is not None and len(seats) != loaded_players:
        raise CommandError(
            f"the saved game has {loaded_players} players but --seats names {len(seats)} seats"
        )
    if args.players is not None and args.seats and args.players != len(seats):
        raise CommandError(f"--players {args.players} but --seats names {len(seats)} seats")
    return seats


def _names(args: argparse.Namespace, seats: list[str]) -> list[str]:
    if args.names is not None:
        names = [n.strip() for n in args.names.split(",")]
        if len(names) != len(seats):
            raise CommandError(
                f"--names gives {len(names)} names for {len(seats)} seats; give one per seat"
            )
        if not all(names):
            raise CommandError(f"--names has an empty name: {args.names!r}")
        return names
    humans = seats.count("human")
    names = []
    for i, seat in enumerate(seats):
        if seat != "human":
            names.append(f"{seat.partition(':')[0].title()} {i + 1}")
        else:
            names.append(f"Player {i + 1}" if humans > 1 else "You")
    return names


def _pass_keyboard(console: Console, name: str) -> bool:
    """Hide the last player's screen and wait for the next; False if the input has ended."""
    if console.is_terminal:
        # Clear the screen and the scrollback, so the last player's secret tile is gone.
        console.file.write("\x1b[H\x1b[2J\x1b[3J")
        console.file.flush()
    else:
        console.print("\n" + "-" * 40)
    console.print(f"[bold]Pass the keyboard to {name}.[/bold]")
    try:
        input(f"{name}, press Enter when the others cannot see the screen. ")
    except EOFError:
        return False
    if console.is_terminal:
        console.file.write("\x1b[H\x1b[2J\x1b[3J")
    return True


_COLOURS = {"purple": "magenta", "red": "red", "green": "green", r"\*": "dark_orange"}


def _print_lines(console: Console, lines: list[str]) -> None:
    """Print a screen: the costume colours and the pumpkins coloured, the first line bold."""
    from rich.text import Text

    for number, line in enumerate(lines):
        text = Text(line, style="bold" if number == 0 else "")
        for word, style in _COLOURS.items():
            text.highlight_regex(rf"\b{word}\b" if word.isalpha() else word, style)
        console.print(text, soft_wrap=True)


class _Session:
    """What the prompt remembers between answers: where the game is saved, the last refusal."""

    def __init__(self, save: Path | None, saved_moves: int) -> None:
        self.save = save
        """The file every move is written to (--save, or the --load file), if any."""
        self.saved_moves = saved_moves
        """How many moves the last save held: the game is unsaved when it has more."""
        self.rulings: tuple[str, ...] = ()
        """The rulings the last refusal cited, for 'why'."""
        self.warned = False
        """Whether 'quit' has warned that the game is unsaved."""

    def unsaved(self, game: GameState) -> bool:
        return len(game.history) > self.saved_moves


def _bye(console: Console, game: GameState, session: _Session) -> int:
    save = session.save
    if session.unsaved(game):
        where = " The last moves were not saved."
    elif save is not None:
        where = f" The game is saved in {save}: resume it with --load {save}."
    else:
        where = ""
    console.print(f"Bye.{where}")
    return 0


def _print_end(console: Console, game: GameState, moves: list[Any], humans: list[int]) -> None:
    from tricky_treats import _terminal

    names = list(game.config.players)
    you = humans[0] if len(humans) == 1 else None
    console.print()
    recent = [_terminal.move_text(m, names, you) for m in moves[-len(names) :]]
    _print_lines(console, _terminal.wrap("Last moves: ", recent))
    trigger = game.end_trigger
    if trigger is not None:
        console.print(
            f"The end was triggered by {names[trigger.player]} ({trigger.reason.value}); "
            "the round was finished."
        )
    tiles = [
        f"{names[p]} {_terminal.tile_text(player.secret_tile)}"
        for p, player in enumerate(game.players)
    ]
    _print_lines(console, _terminal.wrap("Secret tiles: ", tiles))
    console.print(_score_table(game))
    won = game.winners()
    told = describe_event(GameOver(won), names, you=you)
    console.print(f"[bold]{told[0].upper()}{told[1:]}.[/bold]")
    tie = _terminal.tie_break_text(
        game.scores(), ["You" if p == you else n for p, n in enumerate(names)]
    )
    if tie is not None:
        console.print(tie, markup=False)
    console.print(
        f"The game was dealt from seed {game.config.seed}: "
        f"'--seed {game.config.seed}' deals it again."
    )


def _score_table(game: GameState) -> Table:
    from rich.table import Table

    names = list(game.config.players)
    title = "Score sheets" + ("" if game.is_over else " so far")
    table = Table(title=title)
    for column in ("player", "pumpkins", "costumes", "tiles", "extras", "total"):
        table.add_column(column, justify="left" if column == "player" else "right")
    won = game.winners()
    for sheet in game.scores():
        table.add_row(
            names[sheet.player] + (" (winner)" if sheet.player in won else ""),
            str(sheet.pumpkins),
            "+".join(map(str, sheet.costumes)),
            "+".join(str(t.points) for t in sheet.trick_tiles),
            str(sum(e.points for e in sheet.extras)),
            str(sheet.total),
        )
    return table


_HELP = (
    "Type an action's notation: t2k4 takes market card 2 and puts it on kid 4, v5 visits "
    "nice house 5, m1 tricks mean house 1, refresh, pass. 'explain ACTION' says what an "
    "action would do and pay before you play it; 'why' explains the rules behind the last "
    "refusal; 'rules' shows a short guide to the game; 'look N' shows player N's kids (N: "
    "their letter, A to D, or number); 'sheets' shows the score sheets so far, 'log' every "
    "move, 'save FILE' saves the game, 'quit' stops."
)


def _ask(game: GameState, console: Console, name: str, session: _Session) -> Action | None:
    """Read the human's action; None to quit."""
    from tricky_treats import _terminal

    legal = game.legal_actions()
    seat = game.current_player
    assert seat is not None
    while True:
        try:
            line = input(f"{name}, your action> ").strip()
        except EOFError:
            console.print()
            return None
        word, _, rest = line.partition(" ")
        rest = rest.strip()
        if line in ("quit", "exit", "q"):
            if session.unsaved(game) and not session.warned:
                session.warned = True
                console.print(
                    "[yellow]This game is not saved: 'save FILE' keeps it. Type quit again "
                    "to leave without saving.[/yellow]"
                )
                continue
            return None
        if line in ("help", "?", ""):
            console.print(_HELP, markup=False)
            continue
        if line == "rules":
            _page(console, _terminal.GUIDE_PAGES)
            continue
        if line == "why":
            _print_lines(console, _terminal.why_lines(session.rulings))
            continue
        if word == "look":
            _look(console, game, rest)
            continue
        if word == "explain":
            try:
                explained = parse_action(rest)
            except TrickyTreatsError:
                console.print(
                    f"[yellow]Explain which action? For example: explain {legal[0]}[/yellow]"
                )
                continue
            _print_lines(console, _terminal.explain_lines(game, explained))
            continue
        if line == "sheets":
            console.print(_score_table_for(game))
            continue
        if line == "log":
            _print_log(console, game)
            continue
        if word == "save":
            path = rest
            if not path:
                console.print("[yellow]Say where: save FILE[/yellow]")
                continue
            try:
                _write(Path(path), dumps(game, indent=1))
            except CommandError as exc:
                console.print(f"[yellow]{exc}[/yellow]", markup=False)
            else:
                session.saved_moves = len(game.history)
                console.print(f"Saved to {path}; resume with: tricky-treats play --load {path}")
            continue
        try:
            action = parse_action(line)
        except TrickyTreatsError:
            console.print(
                f"{_unknown(line)} Type 'help' for the commands, 'rules' for a short guide "
                "to the game.",
                style="yellow",
                markup=False,
            )
            continue
        if action not in legal:
            try:
                game.apply(action)
            except TrickyTreatsError as exc:
                session.rulings = _terminal.refusal(action, str(exc))[1]
                text = _terminal.refusal_text(action, str(exc))
                console.print(text, style="yellow", markup=False)
            continue
        session.rulings = ()
        return action


def _unknown(line: str) -> str:
    shown = line if len(line) <= 20 else line[:19] + "~"
    grouped = re.fullmatch(r"(t\d+k)(\d+)-(\d+)", line)
    if grouped:  # copied from "Take card to kid: t0k0-4", which groups the kids
        take, first, last = grouped.groups()
        return (
            f"'{shown}' stands for {take}{first} to {take}{last}: type one of them, e.g. "
            f"{take}{first}."
        )
    return f"'{shown}' is not an action or a command I know."


def _page(console: Console, pages: Sequence[str]) -> None:
    """Show ``pages`` one at a time; Enter goes on, q goes back to the game."""
    for number, page in enumerate(pages, start=1):
        console.print(page, markup=False)
        if number == len(pages):
            break
        try:
            answer = input(f"Page {number} of {len(pages)}: Enter for the next, q to play ")
        except EOFError:
            console.print()
            return
        if answer.strip().lower() in ("q", "quit"):
            return


def _look(console: Console, game: GameState, who: str) -> None:
    """Print what everyone sees of one player's board (look N)."""
    from tricky_treats import _terminal

    seat = _seat_named(game, who)
    if seat is None:
        letters = _terminal.SEAT_LETTERS[: len(game.players)]
        console.print(
            f"[yellow]Look at whom? Give a player's letter ({', '.join(letters)}), number "
            f"(1 to {len(game.players)}) or name: look B[/yellow]"
        )
        return
    viewer = game.current_player
    assert viewer is not None
    _print_lines(console, _terminal.look_lines(game.view(viewer), seat))


def _seat_named(game: GameState, who: str) -> int | None:
    from tricky_treats import _terminal

    names = [n.lower() for n in game.config.players]
    text = who.strip().lower()
    letters = _terminal.SEAT_LETTERS.lower()[: len(names)]
    if len(text) == 1 and text in letters:
        return letters.index(text)
    if text.isdigit() and 1 <= int(text) <= len(names):
        return int(text) - 1
    return names.index(text) if text in names else None


def _score_table_for(game: GameState) -> Table:
    """The sheets the player to act may see: the others' secret tiles left out (R16)."""
    from rich.table import Table

    seat = game.current_player
    assert seat is not None
    view = game.view(seat)
    table = Table(title="Score sheets so far (others' secret tiles not counted)")
    for column in ("player", "pumpkins", "costumes", "tiles", "extras", "total"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for sheet in view.scores:
        table.add_row(
            view.players[sheet.player].name,
            str(sheet.pumpkins),
            "+".join(map(str, sheet.costumes)),
            "+".join(str(t.points) for t in sheet.trick_tiles) or "-",
            str(sum(e.points for e in sheet.extras)),
            str(sheet.total),
        )
    return table


def _print_log(console: Console, game: GameState) -> None:
    from tricky_treats.dealing import start_game

    names = list(game.config.players)
    you = game.current_player
    if not game.history:
        console.print("No moves yet: this is the first turn of the game.")
        return
    state = start_game(game.config, game.setup.components)
    for number, action in enumerate(game.history, start=1):
        seat = state.current_player
        assert seat is not None
        state, events = state.apply_with_events(action)
        told = "; ".join(describe_event(e, names, you=you) for e in events)
        console.print(f"{number:3}. {told}", markup=False)


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text + "\n", encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"cannot write {path}: {exc.strerror or exc}") from None


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
        metavar="BOTS",
        help="bots, comma-separated, one per seat (random, greedy, search, "
        "search:ITERATIONS), or one bot for every seat of --players; default: greedy and "
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
    try:
        with output, progress:
            for result in results:
                summary.add(result)
                output.add(result)
                progress.advance()
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
            title=f"{self.games} games, {seats} players, seeds {seed} to "
            f"{game_seed(seed, self.games - 1)}"
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
    from tricky_treats import _terminal
    from tricky_treats.dealing import start_game

    final = _read_record(args.file)
    config = final.config
    names = list(config.players)
    variants = ", ".join(f"{v.name} {v.version}" for v in config.variants) or "none"
    console.print(
        f"[bold]Tricky Treats[/bold], {len(names)} players ({', '.join(names)}), seed "
        f"{config.seed}, variants: {variants}"
    )
    state = start_game(
        config, final.setup.components, custom_components=final.setup.custom_components
    )
    moves: list[_terminal.Move] = []
    step = args.step
    if step:
        _print_lines(console, _terminal.replay_screen(state.view(0)))
    frames = _Frames(args.svg, names)
    frames.add(state.view(state.current_player or 0), "The table before the first move")
    for number, action in enumerate(final.history, start=1):
        seat = state.current_player
        assert seat is not None
        state, events = state.apply_with_events(action)
        moves.append(_terminal.Move(seat, action, events))
        frames.add(
            state.view(seat),
            f"Move {number} of {len(final.history)}: {names[seat]} plays {action}. "
            + "; ".join(describe_event(e, names) for e in events)
            + ".",
        )
        if step:
            console.print()
            _print_lines(console, _terminal.replay_screen(state.view(seat)))
        console.print(f"{number:3}. [bold]{names[seat]}[/bold]: {action}")
        for event in events:
            console.print(f"     {describe_event(event, names)}")
        if step:
            try:
                answer = input(
                    f"Action {number} of {len(final.history)}: Enter for the next, q quits "
                )
            except EOFError:
                step = False
                continue
            if answer.strip().lower() in ("q", "quit"):
                frames.write(console)
                return 0
    if not final.is_over:
        console.print(f"The game goes on: {names[final.current_player or 0]} to act.")
    console.print(_score_table(final))
    frames.write(console)
    return 0


class _Frames:
    """The pictures of ``replay --svg``: one SVG per position and a page stepping through them."""

    def __init__(self, folder: Path | None, names: list[str]) -> None:
        self.folder = folder
        self.names = names
        self.captions: list[str] = []
        if folder is not None:
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise CommandError(f"cannot write {folder}: {exc.strerror or exc}") from None

    def add(self, view: PlayerView, caption: str) -> None:
        if self.folder is None:
            return
        _write(self.folder / f"move-{len(self.captions):03}.svg", board_svg(view).rstrip("\n"))
        self.captions.append(caption)

    def write(self, console: Console) -> None:
        """Write index.html, the page that steps through the pictures written so far."""
        if self.folder is None:
            return
        _write(self.folder / "index.html", _replay_page(self.captions, ", ".join(self.names)))
        console.print(
            f"Pictures of {len(self.captions)} positions in {self.folder}; open "
            f"{self.folder / 'index.html'} to step through them.",
            markup=False,
        )


def _replay_page(captions: list[str], players: str) -> str:
    """A self-contained HTML page showing move-NNN.svg one at a time (buttons, arrow keys)."""
    from html import escape

    items = json.dumps(captions)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>Tricky Treats replay: {escape(players)}</title>
<style>body{{font-family:sans-serif;margin:1em;background:#fdf6e3}}
nav{{display:flex;gap:.5em;align-items:center;margin:.5em 0}}
img{{max-width:100%;height:auto;border:1px solid #ccc}}</style></head>
<body><h1>Tricky Treats replay: {escape(players)}</h1>
<nav><button id="first">&laquo; first</button><button id="prev">&#x25C0; previous</button>
<button id="next">next &#x25B6;</button><button id="last">last &raquo;</button>
<span id="where" aria-live="polite"></span></nav>
<p id="caption" aria-live="polite"></p>
<img id="picture" alt="" src="move-000.svg">
<script>
const captions = {items};
let at = 0;
function show(i) {{
  at = Math.max(0, Math.min(captions.length - 1, i));
  const name = "move-" + String(at).padStart(3, "0") + ".svg";
  document.getElementById("picture").src = name;
  document.getElementById("picture").alt = captions[at];
  document.getElementById("caption").textContent = captions[at];
  document.getElementById("where").textContent = "position " + (at + 1) + " of " + captions.length;
}}
document.getElementById("first").onclick = () => show(0);
document.getElementById("prev").onclick = () => show(at - 1);
document.getElementById("next").onclick = () => show(at + 1);
document.getElementById("last").onclick = () => show(captions.length - 1);
document.addEventListener("keydown", (e) => {{
  if (e.key === "ArrowRight") show(at + 1);
  if (e.key === "ArrowLeft") show(at - 1);
}});
show(0);
</script></body></html>"""


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
