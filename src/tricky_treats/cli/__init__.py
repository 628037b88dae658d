"""The ``tricky-treats`` command: play, simulate, replay and list variants.

Needs the ``cli`` extra (``pip install 'tricky-treats[cli]'``) for rich, which draws the
tables and progress bars; ``--help`` and ``--version`` work without it. The library itself
never imports this module.

This module parses the command line and runs each command; what a command needs beyond that
lives beside it: ``session`` (``play`` at a terminal), ``results`` (``simulate``'s totals and
files), ``frames`` (``replay --svg``) and ``common`` (errors, bounded numbers, files).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tricky_treats import __version__
from tricky_treats.agents import Agent, make_agent
from tricky_treats.components import COMPONENT_LIMITS
from tricky_treats.dealing import new_game
from tricky_treats.errors import TrickyTreatsError
from tricky_treats.events import describe_event
from tricky_treats.i18n import N_, _
from tricky_treats.model import GameState
from tricky_treats.plugins import available_variants, variant_problems
from tricky_treats.serialization import dumps

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

from tricky_treats._extras import install_hint
from tricky_treats.cli import _simulate_command
from tricky_treats.cli.common import (
    _PLAYERS,
    _SEED,
    CommandError,
    _read_record,
    _score_table,
    _write,
)
from tricky_treats.cli.frames import _Frames
from tricky_treats.cli.session import _ask, _bye, _pass_keyboard, _print_end, _print_lines, _Session

__all__ = ["console_main", "main"]


EXIT_USAGE = 2


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
            f"tricky-treats: the command line needs the 'rich' package: {install_hint('cli')}",
            file=sys.stderr,
        )
        return EXIT_USAGE
    from rich.console import Console

    # Piped or captured output gets a fixed, roomy width so that tables do not wrap. No
    # markup: every text printed holds names from a command line, a record or a plugin, which
    # are shown as written ("[/]" is a name, not a closing tag); styles are given as styles.
    console = Console(highlight=False, markup=False, width=None if sys.stdout.isatty() else 120)
    from tricky_treats import i18n

    try:
        chosen = getattr(args, "lang", None)
        language = i18n.from_environment() if chosen is None else i18n.check_language(chosen)
        with i18n.speaking(language):
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
        "search:ITERATIONS, policy), e.g. 'human,human,greedy'; default: you in seat 0, "
        "--bot elsewhere",
    )
    play.add_argument("--bot", default="greedy", help="the bot in the other seats (greedy)")
    _language_option(play)
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

    _simulate_command.add_parser(commands)

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
    _language_option(replay)
    replay.set_defaults(command=_replay)

    variants = commands.add_parser("variants", help="list the installed variants")
    variants.set_defaults(command=_variants)

    from tricky_treats.cli import _report_command as report_command

    report = commands.add_parser(
        "report", help="write an HTML balance report with plots (needs the report extra)"
    )
    report_command.add_arguments(report)
    report.set_defaults(command=report_command.run)

    from tricky_treats.cli import _ladder_command

    ladder = commands.add_parser(
        "ladder", help="rate bots by Elo from round-robin 2-player games, with time per move"
    )
    _ladder_command.add_arguments(ladder)
    ladder.set_defaults(command=_ladder_command.run)
    return parser


def _language_option(parser: argparse.ArgumentParser) -> None:
    from tricky_treats.i18n import LANGUAGES

    parser.add_argument(
        "--lang",
        metavar="LANGUAGE",
        help=f"the language of the game's texts: {', '.join(LANGUAGES)} (default: the "
        "locale's, LANGUAGE, LC_ALL, LC_MESSAGES or LANG, else en); records and the notation "
        "are the same in every language",
    )


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
        known = [v.name for v in available_variants()]
        for variant in args.variants:
            if variant not in known:
                raise CommandError(
                    _("no variant {name}; the installed variants are {known}").format(
                        name=repr(variant[:40]), known=", ".join(known) or _("none")
                    )
                )
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
        _bold_first(
            "Tricky Treats",
            f": {', '.join(names)}"
            + (_("; variants: {variants}").format(variants=variants) if variants else "")
            + _(". New to the game? Type 'rules' at the prompt; 'help' lists the commands.")
            + (_(" Every move is saved to {file}.").format(file=save) if save is not None else ""),
        )
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
                _(
                    "--load takes the players, seed and variants from the record; leave out "
                    "{options}"
                ).format(options=", ".join(given))
            )
    most = COMPONENT_LIMITS["players"][1]
    if args.seats:
        if args.seats.count(",") >= most:
            raise CommandError(
                _("--seats names more than {most} seats; a game has at most {most}").format(
                    most=most
                )
            )
        seats = [s.strip() for s in args.seats.split(",")]
        if not all(seats):
            raise CommandError(_("--seats has an empty seat: {seats}").format(seats=args.seats))
    else:
        count = loaded_players or args.players
        if count is None:
            count = args.names.count(",") + 1 if args.names else 3
            if count > most:
                raise CommandError(
                    _("--names names more than {most} players; a game has at most {most}").format(
                        most=most
                    )
                )
        seats = ["human"] + [args.bot] * (count - 1)
    for seat in seats:
        if seat != "human":
            _check_bot(seat)  # a clear error for an unknown bot, before the game starts
    if loaded_players is not None and len(seats) != loaded_players:
        raise CommandError(
            _("the saved game has {players} players but --seats names {seats} seats").format(
                players=loaded_players, seats=len(seats)
            )
        )
    if args.players is not None and args.seats and args.players != len(seats):
        raise CommandError(
            _("--players {players} but --seats names {seats} seats").format(
                players=args.players, seats=len(seats)
            )
        )
    return seats


def _check_bot(seat: str) -> None:
    """Refuse a seat that names no bot, in the player's language, before the game starts."""
    from tricky_treats.agents import AGENTS, MAX_SEARCH_ITERATIONS

    try:
        make_agent(seat)
    except TrickyTreatsError:
        kind, colon, budget = seat.partition(":")
        most = f"{MAX_SEARCH_ITERATIONS:,}"
        if kind == "search" and colon:
            message = _(
                "the search budget must be a whole number of iterations from 1 to {most}, as "
                "in 'search:200'; got {budget}"
            ).format(most=most, budget=repr(budget[:40]))
        else:
            message = _(
                "{seat} is neither human nor a bot: choose from {kinds} (ITERATIONS: a whole "
                "number from 1 to {most})"
            ).format(
                seat=repr(seat[:40]),
                kinds=", ".join(["human", *AGENTS, "search:ITERATIONS"]),
                most=most,
            )
        raise CommandError(message) from None


def _names(args: argparse.Namespace, seats: list[str]) -> list[str]:
    if args.names is not None:
        names = [n.strip() for n in args.names.split(",")]
        if len(names) != len(seats):
            raise CommandError(
                _("--names gives {names} names for {seats} seats; give one per seat").format(
                    names=len(names), seats=len(seats)
                )
            )
        if not all(names):
            raise CommandError(_("--names has an empty name: {names}").format(names=args.names))
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise CommandError(
                _("--names gives {name} twice; the players' names must differ").format(
                    name=twice[0]
                )
            )
        return names
    # A human is "Player N", alone or not: a name, never "You", which would read as the
    # reader on every screen that names the players (issue 48). A bot is named after its kind.
    names = []
    for i, seat in enumerate(seats):
        kind = seat.partition(":")[0]
        if seat == "human":
            names.append(_("Player {number}").format(number=i + 1))
        elif kind in _BOT_NAMES:
            names.append(_(_BOT_NAMES[kind]).format(number=i + 1))
        else:
            names.append(f"{kind.title()} {i + 1}")
    return names


_BOT_NAMES = {
    "random": N_("Random {number}"),
    "greedy": N_("Greedy {number}"),
    "search": N_("Search {number}"),
    "policy": N_("Policy {number}"),
}
"""The bots' default names, by their kind and seat, in the player's language."""


# -- simulate ------------------------------------------------------------------------------------


# -- replay and variants -------------------------------------------------------------------------


def _replay(args: argparse.Namespace, console: Console) -> int:
    from tricky_treats import _terminal
    from tricky_treats.dealing import start_game

    final = _read_record(args.file)
    config = final.config
    names = list(config.players)
    variants = ", ".join(f"{v.name} {v.version}" for v in config.variants) or _("none")
    console.print(
        _bold_first(
            "Tricky Treats",
            ", "
            + _("{count} players ({names}), seed {seed}, variants: {variants}").format(
                count=len(names), names=", ".join(names), seed=config.seed, variants=variants
            ),
        )
    )
    state = start_game(
        config, final.setup.components, custom_components=final.setup.custom_components
    )
    moves: list[_terminal.Move] = []
    step = args.step
    if step:
        _print_lines(console, _terminal.replay_screen(state.view(0)))
    frames = _Frames(args.svg, names)
    frames.add(state.view(state.current_player or 0), _("The table before the first move"))
    for number, action in enumerate(final.history, start=1):
        seat = state.current_player
        assert seat is not None
        state, events = state.apply_with_events(action)
        moves.append(_terminal.Move(seat, action, events))
        frames.add(
            state.view(seat),
            _("Move {number} of {moves}: {name} plays {action}.").format(
                number=number, moves=len(final.history), name=names[seat], action=action
            )
            + " "
            + "; ".join(describe_event(e, names) for e in events)
            + ".",
        )
        if step:
            console.print()
            _print_lines(console, _terminal.replay_screen(state.view(seat)))
        console.print(_bold_first(f"{number:3}. ", names[seat], f": {action}"))
        for event in events:
            console.print(f"     {describe_event(event, names)}")
        if step:
            try:
                answer = input(
                    _("Action {number} of {moves}: Enter for the next, q quits ").format(
                        number=number, moves=len(final.history)
                    )
                )
            except EOFError:
                step = False
                continue
            if answer.strip().lower() in ("q", "quit"):
                frames.write(console)
                return 0
    if not final.is_over:
        console.print(
            _("The game goes on: {name} to act.").format(name=names[final.current_player or 0])
        )
    console.print(_score_table(final))
    frames.write(console)
    return 0


def _bold_first(*parts: str) -> Text:
    """``parts`` as one line, the first, third... bold: plain text whatever a name holds.

    Never markup: ``[/]`` in a name prints as written.
    """
    from rich.text import Text

    return Text.assemble(*[(part, "bold") if i % 2 == 0 else part for i, part in enumerate(parts)])


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
        console.print(f"unusable: {problem}", style="red")
    return 0
