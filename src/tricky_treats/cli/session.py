"""``play`` at a terminal: the prompt, its help, looking at the table, the end of the game."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tricky_treats.actions import Action, parse_action
from tricky_treats.errors import TrickyTreatsError
from tricky_treats.events import GameOver, describe_event
from tricky_treats.i18n import N_, _
from tricky_treats.model import GameState
from tricky_treats.serialization import dumps

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

from tricky_treats._terminal import short_word
from tricky_treats.cli.common import CommandError, _score_table, _write

__all__: list[str] = []


def _pass_keyboard(console: Console, name: str) -> bool:
    """Hide the last player's screen and wait for the next; False if the input has ended."""
    if console.is_terminal:
        # Clear the screen and the scrollback, so the last player's secret tile is gone.
        console.file.write("\x1b[H\x1b[2J\x1b[3J")
        console.file.flush()
    else:
        console.print("\n" + "-" * 40)
    told = _("Pass the keyboard to {name}.").format(name=name)
    console.print(told, style="bold", markup=False)
    try:
        input(_("{name}, press Enter when the others cannot see the screen. ").format(name=name))
    except EOFError:
        return False
    if console.is_terminal:
        console.file.write("\x1b[H\x1b[2J\x1b[3J")
    return True


_COLOURS = {"purple": "magenta", "red": "red", "green": "green", r"\*": "dark_orange"}
"""Words coloured on the screens, by their English word (translated when printed)."""


def _print_lines(console: Console, lines: list[str]) -> None:
    """Print a screen: the costume colours and the pumpkins coloured, the first line bold."""
    from rich.text import Text

    for number, line in enumerate(lines):
        text = Text(line, style="bold" if number == 0 else "")
        for word, style in _COLOURS.items():
            shown = short_word(word) if word.isalpha() else word
            text.highlight_regex(rf"\b{shown}\b" if word.isalpha() else shown, style)
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
        where = _(" The last moves were not saved.")
    elif save is not None:
        where = _(" The game is saved in {file}: resume it with --load {file}.").format(file=save)
    else:
        where = ""
    console.print(_("Bye.") + where, markup=False)
    return 0


def _print_end(console: Console, game: GameState, moves: list[Any], humans: list[int]) -> None:
    from tricky_treats import _terminal
    from tricky_treats.cli import _teaching

    names = list(game.config.players)
    you = humans[0] if len(humans) == 1 else None
    console.print()
    recent = [_terminal.move_text(m, names, you) for m in moves[-len(names) :]]
    _print_lines(console, _terminal.wrap(_("Last moves: "), recent))
    trigger = game.end_trigger
    if trigger is not None:
        console.print(
            _("The end was triggered by {name} ({reason}); the round was finished.").format(
                name=names[trigger.player], reason=_terminal.reason_text(trigger.reason)
            ),
            markup=False,
        )
    tiles = [
        f"{names[p]} {_terminal.tile_text(player.secret_tile)}"
        for p, player in enumerate(game.players)
    ]
    _print_lines(console, _terminal.wrap(_("Secret tiles: "), tiles))
    console.print(_score_table(game))
    won = game.winners()
    told = describe_event(GameOver(won), names, you=you)
    console.print(f"{told[0].upper()}{told[1:]}.", style="bold")
    tie = _teaching.tie_break_text(game.scores(), names, you=you)
    if tie is not None:
        console.print(tie, markup=False)
    console.print(
        _("The game was dealt from seed {seed}: '--seed {seed}' deals it again.").format(
            seed=game.config.seed
        )
    )


_HELP = N_(
    "Type an action's notation: t2k4 takes market card 2 and puts it on kid 4, v5 visits "
    "nice house 5, m1 tricks mean house 1, refresh, pass. 'explain ACTION' says what an "
    "action would do and pay before you play it; 'why' explains the rules behind the last "
    "refusal; 'rules' shows a short guide to the game; 'look N' shows player N's kids (N: "
    "their letter, A to D, or number); 'sheets' shows the score sheets so far, 'log' every "
    "move, 'save FILE' saves the game, 'quit' stops."
)

_COMMANDS = {
    # The prompt's commands are words of the notation, the same in every language; these
    # are the Dutch players' own words for them, understood whatever the language.
    "stop": "quit",
    "hulp": "help",
    "regels": "rules",
    "waarom": "why",
    "uitleg": "explain",
    "kijk": "look",
    "scores": "sheets",
    "verloop": "log",
    "bewaar": "save",
}


def _ask(game: GameState, console: Console, name: str, session: _Session) -> Action | None:
    """Read the human's action; None to quit."""
    from tricky_treats.cli import _teaching

    legal = game.legal_actions()
    seat = game.current_player
    assert seat is not None
    while True:
        try:
            line = input(_("{name}, your action> ").format(name=name)).strip()
        except EOFError:
            console.print()
            return None
        word, _space, rest = line.partition(" ")
        word = _COMMANDS.get(word, word)
        rest = rest.strip()
        line = f"{word} {rest}".strip() if word in _COMMANDS.values() else line
        if line in ("quit", "exit", "q"):
            if session.unsaved(game) and not session.warned:
                session.warned = True
                console.print(
                    _(
                        "This game is not saved: 'save FILE' keeps it. Type quit again "
                        "to leave without saving."
                    ),
                    style="yellow",
                    markup=False,
                )
                continue
            return None
        if line in ("help", "?", ""):
            console.print(_(_HELP), markup=False)
            continue
        if line == "rules":
            _page(console, _teaching.guide_pages())
            continue
        if line == "why":
            _print_lines(console, _teaching.why_lines(session.rulings))
            continue
        if word == "look":
            _look(console, game, rest)
            continue
        if word == "explain":
            try:
                explained = parse_action(rest)
            except TrickyTreatsError:
                console.print(
                    _("Explain which action? For example: explain {action}").format(
                        action=legal[0]
                    ),
                    style="yellow",
                    markup=False,
                )
                continue
            _print_lines(console, _teaching.explain_lines(game, explained))
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
                console.print(_("Say where: save FILE"), style="yellow", markup=False)
                continue
            try:
                _write(Path(path), dumps(game, indent=1))
            except CommandError as exc:
                console.print(str(exc), style="yellow")
            else:
                session.saved_moves = len(game.history)
                console.print(
                    _("Saved to {file}; resume with: tricky-treats play --load {file}").format(
                        file=path
                    ),
                    markup=False,
                )
            continue
        try:
            action = parse_action(line)
        except TrickyTreatsError:
            console.print(
                _unknown(line)
                + " "
                + _("Type 'help' for the commands, 'rules' for a short guide to the game."),
                style="yellow",
                markup=False,
            )
            continue
        if action not in legal:
            try:
                game.apply(action)
            except TrickyTreatsError as exc:
                session.rulings = _teaching.refusal(action, str(exc))[1]
                text = _teaching.refusal_text(action, str(exc))
                console.print(text, style="yellow", markup=False)
            continue
        session.rulings = ()
        return action


def _unknown(line: str) -> str:
    shown = line if len(line) <= 20 else line[:19] + "~"
    grouped = re.fullmatch(r"(t\d+k)(\d+)-(\d+)", line)
    if grouped:  # copied from "Take card to kid: t0k0-4", which groups the kids
        take, first, last = grouped.groups()
        return _("'{shown}' stands for {first} to {last}: type one of them, e.g. {first}.").format(
            shown=shown, first=f"{take}{first}", last=f"{take}{last}"
        )
    return _("'{shown}' is not an action or a command I know.").format(shown=shown)


def _page(console: Console, pages: Sequence[str]) -> None:
    """Show ``pages`` one at a time; Enter goes on, q goes back to the game."""
    for number, page in enumerate(pages, start=1):
        console.print(page, markup=False)
        if number == len(pages):
            break
        try:
            answer = input(
                _("Page {number} of {pages}: Enter for the next, q to play ").format(
                    number=number, pages=len(pages)
                )
            )
        except EOFError:
            console.print()
            return
        if answer.strip().lower() in ("q", "quit"):
            return


def _look(console: Console, game: GameState, who: str) -> None:
    """Print what everyone sees of one player's board (look N)."""
    from tricky_treats import _terminal
    from tricky_treats.cli import _teaching

    seat = _seat_named(game, who)
    if seat is None:
        letters = _terminal.SEAT_LETTERS[: len(game.players)]
        console.print(
            _(
                "Look at whom? Give a player's letter ({letters}), number (1 to {players}) "
                "or name: look B"
            ).format(letters=", ".join(letters), players=len(game.players)),
            style="yellow",
            markup=False,
        )
        return
    viewer = game.current_player
    assert viewer is not None
    _print_lines(console, _teaching.look_lines(game.view(viewer), seat))


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


_SHEET_COLUMNS = (
    N_("player"),
    N_("pumpkins"),
    N_("costumes"),
    N_("tiles"),
    N_("extras"),
    N_("total"),
)


def _score_table_for(game: GameState) -> Table:
    """The sheets the player to act may see: the others' secret tiles left out (R16)."""
    from rich.table import Table

    seat = game.current_player
    assert seat is not None
    view = game.view(seat)
    table = Table(title=_("Score sheets so far (others' secret tiles not counted)"))
    for column in _SHEET_COLUMNS:
        table.add_column(_(column), justify="left" if column == "player" else "right")
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
        console.print(_("No moves yet: this is the first turn of the game."))
        return
    state = start_game(game.config, game.setup.components)
    for number, action in enumerate(game.history, start=1):
        seat = state.current_player
        assert seat is not None
        state, events = state.apply_with_events(action)
        told = "; ".join(describe_event(e, names, you=you) for e in events)
        console.print(f"{number:3}. {told}", markup=False)
